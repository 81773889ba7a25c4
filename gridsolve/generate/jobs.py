"""``generate --jobs N``: the search in N worker processes, the boards written by this one.

Each worker runs the run's search with its own seed (:func:`worker_seed`) and sends
every candidate it judged: the accepted ones with their layout and measured expectation.  This
process alone decides: a level is written only when it differs from every board written on
:func:`~gridsolve.generate.generate.apart` walls and marks (workers do not see each other's
boards), so which boards are written depends on which worker finds one first.  The workers run
under :func:`gridsolve.verify.parallel.run_tasks` (each ended at the timeout, all ended when
the count is reached or on Ctrl-C).
"""
from __future__ import annotations

import dataclasses
import time
from collections import Counter
from typing import Callable

from ..verify.parallel import CRASHED, TIMEOUT, run_tasks
from .generate import (Progress, Report, Run, SearchStats, apart, _exhausted, _measures, _setup, _timed_out, _title,
                       progress_of, write_level)
from .mutation import difference
from .proposer import ProposalTimeout
from ..errors import GridsolveError

NEAR = "near a board another worker found"   # a candidate level too like one already written


class _Enough(Exception):
    """The count is reached: stop every worker."""


def worker_seed(seed: int, k: int) -> int:
    """The seed of worker ``k`` (1..N) of a run seeded with ``seed``: the first searches as
    ``--jobs 1`` does (N workers never do worse than one but for the cores they share)."""
    return seed if k == 1 else seed * 1000 + k


def _search(task):
    """One worker: (stats, reason, found) for every candidate judged; found = (layout, expect,
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
            expect, difficulty = _measures(board, run.spec, run.req, verdict.answer, verdict.metrics, verdict.line)
            found = (layout, expect, difficulty, verdict.metrics)
        yield dataclasses.replace(search.stats), verdict.reason, found


def _total(stats: dict) -> SearchStats:
    """The workers' statistics added up."""
    total = SearchStats()
    for one in stats.values():
        for name in ("layouts", "in_band", "band_starts", "allowed"):
            setattr(total, name, getattr(total, name) + getattr(one, name))
        for name in ("longest", "longest_offered"):
            values = [v for v in (getattr(total, name), getattr(one, name)) if v is not None]
            setattr(total, name, max(values, default=None))
    return total


def generate_in_jobs(run: Run, asked, started: float, progress: Callable[[Progress], None] | None) -> Report:
    """Write ``run.request.count`` boards from the candidates of ``run.request.jobs`` workers
    (each sets up the run again from ``asked``, the request as given)."""
    request = run.request
    report = Report(request, run.spec, run.req, run.method, apart=apart(run.structure, run.spec))
    stats: dict = {}
    ends: Counter = Counter()
    since, tried = [started], [0]

    def on_item(k: int, item) -> None:
        if item[0] == "end":
            ends[item[1]] += 1
            return
        stats[k], reason, found = item
        report.search = _total(stats)
        report.candidates += 1
        tried[0] += 1
        if found is None:
            report.rejected[reason] += 1
            last = reason
        elif any(difference(found[0], b.layout) < report.apart for b in report.boards):
            report.rejected[NEAR] += 1
            last = NEAR
        else:
            since[0] = write_level(run, report, *found, since[0], tried[0])
            tried[0] = 0
            last = f"wrote {report.boards[-1].path.name}"
        if progress is not None:
            progress(progress_of(run, report, last, started, report.search))
        if len(report.boards) >= request.count:
            raise _Enough

    tasks = [(asked, k) for k in range(1, request.jobs + 1)]
    try:
        outcomes = run_tasks(tasks, _search, request.jobs, request.timeout, on_item)
    except _Enough:
        return report
    crashed = [o for o in outcomes if o.status == CRASHED]
    if crashed and len(report.boards) < request.count:
        raise GridsolveError(f"a generate worker failed: {crashed[0].detail.strip()}")
    if ends[TIMEOUT] or any(o.status == TIMEOUT for o in outcomes):
        report.error = _timed_out(report)
    else:
        report.error = _exhausted(report)
    return report
