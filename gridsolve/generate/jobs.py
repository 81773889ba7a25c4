"""``generate --jobs N``: the search in N worker processes, the boards written by this one.

Each worker runs the run's search with its own seed (:func:`worker_seed`) and sends
every candidate it judged: the accepted ones with their layout and measured expectation.  This
process alone decides: a level is written only when it differs from every board written on
:func:`~gridsolve.generate.run.apart` walls and marks (workers do not see each other's
boards), so which boards are written depends on which worker finds one first.  The workers run
under :func:`gridsolve.workers.run_tasks` (each ended at the timeout, all ended when
the count is reached or on Ctrl-C).
"""
from __future__ import annotations

from collections import Counter
from typing import Callable

from ..verify.cluster import run_tasks_on_cluster
from ..workers import CRASHED, TIMEOUT, run_tasks
from ..errors import GridsolveError

NEAR = "near a board another worker found"   # a candidate level too like one already written


class _Enough(Exception):
    """The count is reached: stop every worker."""


def worker_seed(seed: int, k: int) -> int:
    """The seed of worker ``k`` (1..N) of a run seeded with ``seed``: the first searches as
    ``--jobs 1`` does (N workers never do worse than one but for the cores they share)."""
    return seed if k == 1 else seed * 1000 + k


def _total(stats: dict) -> object:
    """The workers' statistics added up."""
    total = type(next(iter(stats.values())))()
    for one in stats.values():
        for name in ("layouts", "in_band", "band_starts", "allowed"):
            setattr(total, name, getattr(total, name) + getattr(one, name))
        for name in ("longest", "longest_offered"):
            values = [v for v in (getattr(total, name), getattr(one, name)) if v is not None]
            setattr(total, name, max(values, default=None))
    return total


def generate_in_jobs(run, tasks: list, work: Callable, started: float, progress: Callable | None):
    """Write ``run.request.count`` boards (``run``: a generate.Run) from the candidates that
    ``work(task)`` yields in one worker process per task (generate.search_candidates, or
    generate.climb_candidates for a game whose other pieces move by rule), or on
    the workers of the Dask cluster at ``run.request.cluster``
    (:func:`gridsolve.verify.cluster.run_tasks_on_cluster`)."""
    request = run.request
    report = run.report()
    stats: dict = {}
    ends: Counter = Counter()
    since, tried = [started], [0]

    def on_item(k: int, item) -> None:
        if item[0] == "end":
            ends[item[1]] += 1
            return
        stats[k], reason, found, judged = item
        report.search = _total(stats)
        report.candidates += judged
        tried[0] += judged
        if found is None and reason is None:      # a climbing worker's statistics alone
            last = "searching"
        elif found is None:
            report.rejected[reason] += 1
            last = reason
        elif run.near(report, found[0]):
            report.rejected[NEAR] += 1
            last = NEAR
        else:
            since[0] = run.write(report, found, since[0], tried[0])
            tried[0] = 0
            last = f"wrote {report.boards[-1].path.name}"
        if progress is not None:
            progress(run.progress(report, last, started, report.search))
        if len(report.boards) >= request.count:
            raise _Enough

    try:
        if request.cluster is not None:
            outcomes = run_tasks_on_cluster(request.cluster, tasks, work, request.timeout, on_item)
        else:
            outcomes = run_tasks(tasks, work, len(tasks), request.timeout, on_item)
    except _Enough:
        return report
    crashed = [o for o in outcomes if o.status == CRASHED]
    if crashed and len(report.boards) < request.count:
        raise GridsolveError(f"a generate worker failed: {crashed[0].detail.strip()}")
    report.error = run.stopped(report, bool(ends[TIMEOUT]) or any(o.status == TIMEOUT for o in outcomes))
    return report
