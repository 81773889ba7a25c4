"""Run tasks in worker processes, each with a time limit, streaming what they report.

clingo holds the GIL while it grounds and cannot be interrupted there, so threads would
neither run in parallel nor stop on time: the tasks run in worker processes, each worker one
task after another (started once: a process a task cost more than checking a small board), and
a worker whose task runs out of time is ended (``terminate``) and replaced.  A task is a
module-level generator function; each item it yields is sent to the parent as soon as it is
ready, so the work a task finished before its time ran out is kept.
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


def _worker(work: Callable[..., Iterator], conn):
    """Run the tasks the parent sends (None: stop), reporting each item and how the task ended."""
    try:
        while True:
            task = conn.recv()
            if task is None:
                return
            try:
                for item in work(task):
                    conn.send(("item", item))
                conn.send((DONE, None))
            except Exception:           # report it; the parent decides what it means
                conn.send((CRASHED, traceback.format_exc()))
    except (EOFError, OSError, KeyboardInterrupt):
        return
    finally:
        conn.close()


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
    idle: list = []                      # workers without a task: [process, connection]
    busy: dict = {}                      # connection -> [process, index, started]
    try:
        while pending or busy:
            while pending and (idle or len(busy) < max(1, jobs)):
                if idle:
                    process, conn = idle.pop()
                else:
                    conn, there = context.Pipe(duplex=True)
                    process = context.Process(target=_worker, args=(work, there), daemon=True)
                    process.start()
                    there.close()
                i, task = pending.popleft()
                conn.send(task)
                busy[conn] = [process, i, time.perf_counter()]
            now = time.perf_counter()
            wait_for = None
            if timeout is not None:
                wait_for = max(0.0, min(entry[2] + timeout for entry in busy.values()) - now)
            for conn in wait(list(busy), timeout=wait_for):
                process, i, started = busy[conn]
                try:
                    kind, payload = conn.recv()
                except (EOFError, OSError):
                    kind, payload = None, None
                if kind == "item":
                    on_item(i, payload)
                    continue
                del busy[conn]
                if kind in (DONE, CRASHED):
                    outcomes[i] = Outcome(kind, time.perf_counter() - started, payload or "")
                    idle.append((process, conn))
                else:                    # the worker died: the next task gets a new one
                    _end(process, conn)
                    outcomes[i] = Outcome(CRASHED, time.perf_counter() - started,
                                          f"the worker process stopped unexpectedly (exit code {process.exitcode})")
            now = time.perf_counter()
            for conn, (process, i, started) in list(busy.items()):
                if timeout is not None and now - started >= timeout:
                    del busy[conn]
                    _end(process, conn)
                    outcomes[i] = Outcome(TIMEOUT, now - started)
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
