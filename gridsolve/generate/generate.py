"""``gridsolve generate``: new board files that meet a request, proposed by clingo, judged exactly.

Two methods (docs/generate.md):

* ``asp``: one clingo program carries the whole request (encodings/generate.lp with its
  ``game`` part): every layout it finds meets the requirement, and when it finds none, none
  exists.  Its ground program grows with positions times plies, so it suits small boards.
* ``loop`` (generate and test): layouts are proposed under the structural constraints and the
  exact solver judges them (:mod:`gridsolve.generate.search`, :mod:`gridsolve.generate.judge`).

This module runs a request (:mod:`~gridsolve.generate.request`) set up by
:mod:`~gridsolve.generate.run`: the search here, or in worker processes or on a Dask cluster
(:mod:`~gridsolve.generate.jobs`), the boards written, the pack, and the report
(:mod:`~gridsolve.generate.report`).  When clingo finds no layout left, the request cannot be
met.  The same request with the same seed writes the same files.
"""
from __future__ import annotations

import dataclasses
import time
from typing import Callable

from .pack import write_pack
from .jobs import generate_in_jobs, worker_seed
from ..verify.cluster import workers_of
from ..workers import TIMEOUT
from .levelfile import check_free
from .proposer import ProposalTimeout
from .report import Progress, Report, SearchStats, _exhausted, _timed_out, diagnosis, format_generated, \
    progress_lines
from .request import Request, _source, _title, parse_range, parse_size, request_from_options
from .run import Run, _measures, _setup, measure_climbed, pack_paths, progress_of, write_climbed, write_level
from .scriptedsearch import CLIMB

CLIMB_ITEM = 1.0      # seconds between a climbing worker's items when it finds no level (its statistics)
CLIMBING = "climbing"     # the progress line's last step while a climb finds no level

# What callers import from here (the request, the report and the run's entry point).
__all__ = ["Progress", "Report", "Request", "SearchStats", "diagnosis", "format_generated", "generate", "parse_range",
           "parse_size", "progress_lines", "request_from_options"]


def generate(request: Request, progress: Callable[[Progress], None] | None = None) -> Report:
    """Write ``request.count`` boards; the report lists them (with the seconds each took) and
    says why the run stopped early, if it did (``report.error``, not raised).  With
    ``request.jobs`` above 1 the search runs in that many worker processes (:mod:`.jobs`)."""
    started = time.perf_counter()
    asked, run = request, _setup(request)
    request = run.request
    check_free(run.paths + (pack_paths(run.paths[0]) if request.count > 1 else []), request.force)
    if request.jobs > 1 or request.cluster is not None:
        searches = request.jobs if request.jobs > 1 or request.cluster is None else workers_of(request.cluster)
        report = generate_in_jobs(run, [(asked, k) for k in range(1, searches + 1)],
                                  climb_candidates if run.method == CLIMB else search_candidates, started, progress)
    elif run.method == CLIMB:
        report = _generate_scripted(run, started, progress)
    else:
        report = _generate_here(run, started, progress)
    if request.count > 1 and report.boards:
        report.pack = write_pack(report.boards, *pack_paths(run.paths[0]),
                                 f"{_source(request)}: {len(report.boards)} levels", request.force)
    report.seconds = time.perf_counter() - started
    return report


def search_candidates(task):
    """One worker of ``--jobs`` (task: the request as given, the worker's number k from 1):
    (statistics, rejection reason, found, 1) for every candidate judged, found = (layout, expect,
    difficulty, metrics) for an accepted one; finally ("end", why) when the search stops."""
    request, k = task
    run = _setup(request)
    search = run.search(worker_seed(request.seed, k))
    deadline = None if request.timeout is None else time.perf_counter() + request.timeout
    while True:
        try:
            step = search.next(deadline, run.paths[0], _title(run.request, run.spec, 0))
        except ProposalTimeout:
            yield "end", TIMEOUT
            return
        if step is None:
            yield "end", "exhausted"
            return
        board, layout, verdict = step
        found = None
        if verdict.accepted:
            expect, difficulty = _measures(board, run.spec, run.req, verdict.answer, verdict.metrics, verdict.line,
                                           search.limits)
            found = (layout, expect, difficulty, verdict.metrics)
        yield dataclasses.replace(search.stats), verdict.reason, found, 1


def _generate_here(run: Run, started: float, progress: Callable[[Progress], None] | None) -> Report:
    """The search in this process: the boards written one after the other."""
    request, spec, req, paths = run.request, run.spec, run.req, run.paths
    search = run.search(request.seed)
    report = Report(request, spec, req, run.method, apart=search.apart, search=search.stats)
    deadline = None if request.timeout is None else started + request.timeout
    board_started, tried = started, 0
    while len(report.boards) < request.count:
        index = len(report.boards)
        try:
            step = search.next(deadline, paths[index], _title(request, spec, index))
        except ProposalTimeout:
            report.error = _timed_out(report)
            break
        if step is None:
            report.error = _exhausted(report)
            break
        board, layout, verdict = step
        report.candidates += 1
        tried += 1
        if verdict.accepted:
            expect, difficulty = _measures(board, spec, req, verdict.answer, verdict.metrics, verdict.line,
                                           search.limits)
            board_started = write_level(run, report, layout, expect, difficulty, verdict.metrics, board_started,
                                        tried)
            tried = 0
            last = f"wrote {paths[index].name}"
        else:
            report.rejected[verdict.reason] += 1
            last = verdict.reason
        if progress is not None:
            progress(progress_of(run, report, last, started, search.stats))
    return report


def _generate_scripted(run: Run, started: float, progress: Callable[[Progress], None] | None) -> Report:
    """A game whose other pieces move by rule: levels climbed (:mod:`.scriptedsearch`), each
    judged exactly (win, its plies, the metrics' ranges) before it is written."""
    request = run.request
    search = run.climb(request.seed)
    report = run.report()
    deadline = None if request.timeout is None else started + request.timeout
    since, judged = started, 0

    def tick(last: str = CLIMBING) -> None:
        report.candidates = search.levels
        report.search = search.stats()
        if progress is not None:
            progress(progress_of(run, report, last, started, report.search))
    while len(report.boards) < request.count:
        found = search.next(deadline, tick)
        if found is None:
            tick()
            report.error = _timed_out(report)
            break
        reason, measured = measure_climbed(run, found)
        if measured is None:
            search.refused(found.level)
            report.rejected[reason] += 1
            continue
        search.written(found.level)
        since = write_climbed(run, report, *measured, since, search.levels - judged)
        judged = search.levels
        tick(f"wrote {report.boards[-1].path.name}")
    return report


def climb_candidates(task):
    """One worker of ``--jobs`` for a game whose other pieces move by rule (task: the request as
    given, the worker's number k from 1), as :func:`search_candidates`: every level the climb
    found, measured exactly (with the levels judged since the last item), and every CLIMB_ITEM
    seconds the statistics alone; finally ("end", why) at the timeout."""
    request, k = task
    run = _setup(request)
    search = run.climb(worker_seed(request.seed, k))
    deadline = None if request.timeout is None else time.perf_counter() + request.timeout
    judged = 0
    while deadline is None or time.perf_counter() < deadline:
        now = time.perf_counter()
        found = search.next(now + CLIMB_ITEM if deadline is None else min(deadline, now + CLIMB_ITEM))
        reason, measured = (None, None) if found is None else measure_climbed(run, found)
        if found is not None:
            (search.refused if measured is None else search.written)(found.level)
        yield search.stats(), reason, measured, search.levels - judged
        judged = search.levels
    yield "end", TIMEOUT
