"""Run tasks on a Dask distributed cluster, streaming what they report (``--cluster ADDRESS``).

The same contract as :func:`gridsolve.workers.run_tasks`: ``work(task)`` is a
module-level generator function, ``on_item(i, item)`` is called in this process for every item
task ``i`` yields, as soon as it arrives, and each task gets :class:`Outcome` (done, timeout or
crashed).  The tasks run on the cluster's workers (``dask scheduler``, then ``dask worker
ADDRESS`` on each machine; the workers need gridsolve installed, the same version): each sends
its items in small batches through a Dask queue, and stops at its next item once this process
sets the run's stop event (the time is up, the work is done, or Ctrl-C).  Dask cannot
interrupt a task inside clingo, so a task past its time is no longer waited for and ends at
its next item.

A worker lost mid-run (its machine gone, its process killed) loses nothing written here: the
scheduler runs its task again on another worker, and the items of the new attempt that this
process already had (the tasks are deterministic: the same items in the same order) are
skipped, so a board is written, or a check counted, once.
"""
from __future__ import annotations

import time
import traceback
import uuid
from typing import Callable, Iterable, Iterator

from ..errors import QueryError
from ..workers import CRASHED, DONE, TIMEOUT, Outcome

FLUSH_EVERY = 0.2          # seconds between two batches of items a task sends
CONNECT_TIMEOUT = 10       # seconds to reach the scheduler
STARTED = "started"


def _distributed():
    try:
        import distributed
    except ImportError:
        raise QueryError("--cluster needs the Dask distributed package",
                         "pip install 'gridsolve[cluster]' (or: pip install distributed)") from None
    return distributed


def connect(address: str):
    """A Dask client of the scheduler at ``address`` (QueryError when it cannot be reached)."""
    distributed = _distributed()
    try:
        return distributed.Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise QueryError(f"--cluster {address}: cannot reach a Dask scheduler there ({exc})",
                         "start one with `dask scheduler` and give its address, e.g. --cluster tcp://127.0.0.1:8786") \
            from None


def workers_of(address: str) -> int:
    """The worker threads of the cluster at ``address`` (at least 1)."""
    client = connect(address)
    try:
        return max(1, sum(client.nthreads().values()))
    finally:
        client.close()


def _run_on_worker(work: Callable[..., Iterator], task, index: int, queue_name: str, stop_name: str,
                   timeout: float | None) -> None:
    """One task on a worker: its items sent in batches, then how it ended."""
    distributed = _distributed()
    queue, stop = distributed.Queue(queue_name), distributed.Event(stop_name)
    attempt = uuid.uuid4().hex
    started = last = time.perf_counter()
    queue.put((index, attempt, STARTED, None))
    batch: list = []
    status, detail = DONE, ""
    try:
        for item in work(task):
            batch.append(item)
            now = time.perf_counter()
            if now - last >= FLUSH_EVERY:
                queue.put((index, attempt, "items", batch))
                batch, last = [], now
                if stop.is_set():
                    status = TIMEOUT
                    break
            if timeout is not None and now - started >= timeout:
                status = TIMEOUT
                break
    except Exception:                   # report it; the client decides what it means
        status, detail = CRASHED, traceback.format_exc()
    if batch:
        queue.put((index, attempt, "items", batch))
    queue.put((index, attempt, status, detail))


def run_tasks_on_cluster(address: str, tasks: Iterable, work: Callable[..., Iterator], timeout: float | None,
                         on_item: Callable[[int, object], None]) -> list[Outcome]:
    """Run ``work(task)`` for every task on the Dask cluster at ``address``, each for at most
    ``timeout`` seconds (from when a worker starts it); see the module docstring."""
    distributed = _distributed()
    tasks = list(tasks)
    outcomes: list[Outcome | None] = [None] * len(tasks)
    client = connect(address)
    run = uuid.uuid4().hex
    queue = distributed.Queue(f"gridsolve-{run}", client=client)
    stop = distributed.Event(f"gridsolve-stop-{run}", client=client)
    forwarded = [0] * len(tasks)        # items of task i passed on
    seen: dict = {}                     # (task, attempt) -> items received from that attempt
    started: dict = {}                  # task -> when a worker started it (here)
    futures = [client.submit(_run_on_worker, work, task, i, queue.name, stop.name, timeout, pure=False,
                             key=f"gridsolve-{run}-{i}") for i, task in enumerate(tasks)]
    try:
        while any(o is None for o in outcomes):
            try:
                index, attempt, kind, payload = queue.get(timeout=0.5)
            except TimeoutError:
                _check(futures, outcomes, started, timeout)
                continue
            if outcomes[index] is not None:
                continue
            if kind == STARTED:
                started.setdefault(index, time.perf_counter())
            elif kind == "items":
                for item in payload:
                    k = seen.get((index, attempt), 0)
                    seen[(index, attempt)] = k + 1
                    if k >= forwarded[index]:         # a new attempt repeats what the lost one sent
                        forwarded[index] += 1
                        on_item(index, item)
            else:
                outcomes[index] = Outcome(kind, time.perf_counter() - started.get(index, time.perf_counter()),
                                          payload or "")
            _check(futures, outcomes, started, timeout)
    finally:
        stop.set()                      # the tasks still running end at their next item
        client.cancel(futures)
        client.close()
    return outcomes


def _check(futures, outcomes: list, started: dict, timeout: float | None) -> None:
    """Tasks past their time, and tasks the cluster gave up on (an error outside the task)."""
    now = time.perf_counter()
    for i, future in enumerate(futures):
        if outcomes[i] is not None:
            continue
        if timeout is not None and i in started and now - started[i] >= timeout:
            outcomes[i] = Outcome(TIMEOUT, now - started[i])
        elif future.status == "error":
            outcomes[i] = Outcome(CRASHED, now - started.get(i, now), repr(future.exception()))
