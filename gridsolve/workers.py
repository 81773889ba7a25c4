"""The one worker pool: tasks run in worker processes, each with a time limit, streaming what they report.

Every stage that runs work in parallel uses it: ``verify --jobs`` (boards), ``generate --jobs``
(candidates) and ``explain --jobs`` (walls); ``--cluster`` sends the same tasks to Dask
(:mod:`gridsolve.verify.cluster`, the same contract).  The studio's jobs are not a pool: each is one
cancellable computation a web page started, run in a fresh process so that the server's threads
are never forked (:mod:`gridsolve.studio.jobs`).

clingo holds the GIL while it grounds and cannot be interrupted there, so threads would
neither run in parallel nor stop on time: the tasks run in worker processes, each worker one
task after another (started once: a process a task cost more than checking a small board), and
a worker whose task runs out of time is ended (``terminate``) and replaced.  A task is a
module-level generator function; each item it yields is sent to the parent as soon as it is
ready, so the work a task finished before its time ran out is kept.

Without a time limit, many small tasks go to a worker in batches (a round trip costs about as
much as checking a small board): a worker runs a batch's tasks one after another and sends what
they yielded and how each ended in one message when the batch is done.  The batches shrink as
the tasks run out (a quarter of each worker's share of those left, at most :data:`MOST_BATCHED`),
so the workers finish together; a batch whose worker dies is run again task by task, so only
the task that ended it is reported as crashed.
"""
from __future__ import annotations

import multiprocessing
import time
import traceback
from collections import deque
from dataclasses import dataclass
from multiprocessing.connection import wait
from typing import Callable, Iterable, Iterator

DONE = "done"          # the task finished
TIMEOUT = "timeout"    # it ran out of time and was ended
CRASHED = "crashed"    # the process died, or the task raised an exception


@dataclass
class Outcome:
    status: str
    elapsed: float
    detail: str = ""


def _context():
    # fork starts a worker in milliseconds; spawn (re-importing clingo) where fork is missing.
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


MOST_BATCHED = 32      # tasks in one batch at most


def _worker(work: Callable[..., Iterator], conn):
    """Run the batches the parent sends (None: stop): a batch of one task reports each item as it
    comes and then how the task ended; a larger batch reports all of that in one message."""
    try:
        while True:
            batch = conn.recv()
            if batch is None:
                return
            alone = len(batch) == 1
            said: list = []
            for i, task in batch:
                started = time.perf_counter()
                try:
                    for item in work(task):
                        if alone:
                            conn.send([("item", i, item)])
                        else:
                            said.append(("item", i, item))
                    said.append((DONE, i, (time.perf_counter() - started, None)))
                except Exception:       # report it; the parent decides what it means
                    said.append((CRASHED, i, (time.perf_counter() - started, traceback.format_exc())))
                if alone:
                    conn.send(said)
                    said = []
            if said:
                conn.send(said)
    except (EOFError, OSError, KeyboardInterrupt):
        return
    finally:
        conn.close()


def _batch_size(left: int, jobs: int, timeout: float | None) -> int:
    """How many of the ``left`` tasks go to a worker at once (one each with a time limit)."""
    if timeout is not None:
        return 1
    return max(1, min(MOST_BATCHED, left // (4 * max(1, jobs))))


def run_tasks(tasks: Iterable, work: Callable[..., Iterator], jobs: int, timeout: float | None,
              on_item: Callable[[int, object], None]) -> list[Outcome]:
    """Run ``work(task)`` for every task, at most ``jobs`` at a time, each for at most ``timeout`` seconds.

    ``on_item(i, item)`` is called in this process for every item task ``i`` yields.
    With one job and no time limit the tasks run here, one after the other."""
    tasks = list(tasks)
    outcomes: list[Outcome | None] = [None] * len(tasks)
    if jobs <= 1 and timeout is None:
        for i, task in enumerate(tasks):
            started = time.perf_counter()
            try:
                for item in work(task):
                    on_item(i, item)
            except Exception:
                outcomes[i] = Outcome(CRASHED, time.perf_counter() - started, traceback.format_exc())
            else:
                outcomes[i] = Outcome(DONE, time.perf_counter() - started)
        return outcomes
    context = _context()
    pending = deque(enumerate(tasks))
    again: deque = deque()               # the tasks of a batch whose worker died, run one by one
    idle: list = []                      # workers without a task: [process, connection]
    busy: dict = {}                      # connection -> [process, indexes, started]
    try:
        while pending or again or busy:
            while (pending or again) and (idle or len(busy) < max(1, jobs)):
                if idle:
                    process, conn = idle.pop()
                else:
                    conn, there = context.Pipe(duplex=True)
                    process = context.Process(target=_worker, args=(work, there), daemon=True)
                    process.start()
                    there.close()
                if again:
                    batch = [again.popleft()]
                else:
                    batch = [pending.popleft() for _ in range(min(len(pending), _batch_size(len(pending), jobs, timeout)))]
                conn.send(batch)
                busy[conn] = [process, [i for i, _ in batch], time.perf_counter()]
            now = time.perf_counter()
            wait_for = None
            if timeout is not None:
                wait_for = max(0.0, min(entry[2] + timeout for entry in busy.values()) - now)
            for conn in wait(list(busy), timeout=wait_for):
                process, indexes, started = busy[conn]
                try:
                    said = conn.recv()
                except (EOFError, OSError):
                    said = None
                if said is None:                 # the worker died: the next tasks get a new one
                    del busy[conn]
                    _end(process, conn)
                    if len(indexes) > 1:         # which task ended it is unknown: each runs again alone
                        again.extend((i, tasks[i]) for i in indexes)
                    else:
                        outcomes[indexes[0]] = Outcome(CRASHED, time.perf_counter() - started,
                                                       f"the worker process stopped unexpectedly (exit code {process.exitcode})")
                    continue
                for kind, i, payload in said:
                    if kind == "item":
                        on_item(i, payload)
                    else:
                        elapsed, detail = payload
                        outcomes[i] = Outcome(kind, elapsed, detail or "")
                        indexes.remove(i)
                if not indexes:
                    del busy[conn]
                    idle.append((process, conn))
            now = time.perf_counter()
            for conn, (process, indexes, started) in list(busy.items()):
                if timeout is not None and now - started >= timeout:
                    del busy[conn]
                    _end(process, conn)
                    outcomes[indexes[0]] = Outcome(TIMEOUT, now - started)
    finally:
        for process, conn in idle:
            try:
                conn.send(None)
            except OSError:
                pass
        for process, conn in [*idle, *((p, c) for c, (p, _, _) in busy.items())]:
            if process.is_alive() and (process, conn) not in idle:
                process.terminate()       # interrupted: leave no worker behind
            process.join(timeout=5)
            if process.is_alive():
                process.terminate()
                process.join()
            conn.close()
    return outcomes


def _end(process, conn):
    """End a worker that ran out of time or died."""
    if process.is_alive():
        process.terminate()
    process.join()
    conn.close()
