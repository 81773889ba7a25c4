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
from ..verify.parallel import TIMEOUT
from .judge import judge
from .levelfile import board_text, check_free, write_new
from .proposer import ProposalTimeout
from .report import Generated, Progress, Report, SearchStats, _exhausted, _timed_out, diagnosis, format_generated, \
    progress_lines
from .request import Request, _source, _title, parse_range, parse_size, request_from_options
from .run import Run, _header, _measures, _setup, apart, pack_paths, progress_of, write_level
from .scriptedlevel import criteria_text
from .scriptedsearch import CLIMB, ScriptedSearch, cast_of
from ..language.model import NO_LIMIT

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
    if run.method == CLIMB:
        report = _generate_scripted(run, started, progress)
    elif request.jobs > 1 or request.cluster is not None:
        searches = request.jobs if request.jobs > 1 or request.cluster is None else workers_of(request.cluster)
        report = generate_in_jobs(run, [(asked, k) for k in range(1, searches + 1)], search_candidates,
                                  started, progress)
    else:
        report = _generate_here(run, started, progress)
    if request.count > 1 and report.boards:
        report.pack = write_pack(report.boards, *pack_paths(run.paths[0]),
                                 f"{_source(request)}: {len(report.boards)} levels", request.force)
    report.seconds = time.perf_counter() - started
    return report


def search_candidates(task):
    """One worker of ``--jobs`` (task: the request as given, the worker's number k from 1):
    (statistics, rejection reason, found) for every candidate judged, found = (layout, expect,
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
        yield dataclasses.replace(search.stats), verdict.reason, found


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
    request, spec, req = run.request, run.spec, run.req
    cast = cast_of(spec)
    search = ScriptedSearch(spec, cast, run.structure.walls, req.plies, req.trivial_ok, request.seed,
                            apart(run.structure, spec))
    report = run.report()
    deadline = None if request.timeout is None else started + request.timeout
    since = started

    def tick(last: str = "climbing") -> None:
        report.candidates = search.levels
        report.search.layouts, report.search.longest = search.layouts, search.longest_any
        report.search.in_band = report.search.band_starts = search.in_band
        report.search.longest_offered = search.longest
        if progress is not None:
            shown = progress_of(run, report, last, started, report.search)
            if shown.plies and shown.plies[1] is not None and shown.plies[1] >= NO_LIMIT // 2:
                shown.plies = (shown.plies[0], None)      # no step limit: the band is open above
            progress(shown)
    while len(report.boards) < request.count:
        found = search.next(deadline, tick)
        if found is None:
            tick()
            report.error = _timed_out(report)
            break
        index = len(report.boards)
        path = run.paths[index]
        board = found.level.board(spec.template, str(path), _title(request, spec, index), cast.legend)
        verdict = judge(board, spec, dataclasses.replace(req, trivial_ok=True), run.limits)
        if not verdict.accepted:
            search.refused(found.level)
            report.rejected[verdict.reason] += 1
            continue
        search.written(found.level)
        expect = {"win": True, "win_moves": verdict.answer.win_moves}
        if not req.trivial_ok:          # the climb's criterion, re-checked by verify (gridsolve/analysis/walks.py)
            expect["no_beeline"] = True
        if verdict.metrics is not None:
            expect.update({name: value for name, value in verdict.metrics.as_dict().items() if name != "plies"})
        header = _header(request, spec, req, index, None, verdict.metrics)
        header[-1:-1] = [f"Criteria met: {criteria_text(found.verdict, req.trivial_ok)}."]
        write_new(path, board_text(board, spec.rules_yaml, header, expect), request.force)
        now = time.perf_counter()
        report.boards.append(Generated(path, found.level.layout(), expect, None, now - since, search.levels,
                                       verdict.metrics))
        since = now
        tick(f"wrote {path.name}")
    return report
