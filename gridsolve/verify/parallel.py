"""Run tasks in worker processes, each with a time limit, streaming what they report.

clingo holds the GIL while it grounds and cannot be interrupted there, so threads would
neither run in parallel nor stop on time: every task gets a process of its own, which is
ended (``terminate``) when it runs out of time.  A task is a module-level generator
function; each item it yields is sent to the parent as soon as it is ready, so the work a
task finished before its time ran out is kept.
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


def _child(work: Callable[..., Iterator], task, conn):
    try:
        for item in work(task):
            conn.send(("item", item))
        conn.send((DONE, None))
    except BaseException:           # report it; the parent decides what it means
        conn.send((CRASHED, traceback.format_exc()))
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
    running: dict = {}                   # connection -> [index, process, started, outcome or None]
    try:
        while pending or running:
            while pending and len(running) < max(1, jobs):
                i, task = pending.popleft()
                receiver, sender = context.Pipe(duplex=False)
                process = context.Process(target=_child, args=(work, task, sender), daemon=True)
                process.start()
                sender.close()
                running[receiver] = [i, process, time.perf_counter(), None]
            now = time.perf_counter()
            wait_for = None
            if timeout is not None:
                wait_for = max(0.0, min(entry[2] + timeout for entry in running.values()) - now)
            for conn in wait(list(running), timeout=wait_for):
                entry = running[conn]
                try:
                    kind, payload = conn.recv()
                except (EOFError, OSError):
                    kind, payload = None, None
                if kind == "item":
                    on_item(entry[0], payload)
                    continue
                if kind in (DONE, CRASHED):
                    entry[3] = Outcome(kind, time.perf_counter() - entry[2], payload or "")
                _finish(running, conn, entry, outcomes)
            now = time.perf_counter()
            for conn, entry in list(running.items()):
                if timeout is not None and now - entry[2] >= timeout:
                    entry[1].terminate()
                    entry[3] = Outcome(TIMEOUT, now - entry[2])
                    _finish(running, conn, entry, outcomes)
    finally:
        for conn, entry in running.items():       # interrupted: leave no worker behind
            entry[1].terminate()
            entry[1].join()
            conn.close()
    return outcomes


def _finish(running: dict, conn, entry, outcomes):
    index, process, started, outcome = entry
    process.join()
    conn.close()
    del running[conn]
    if outcome is None:
        outcome = Outcome(CRASHED, time.perf_counter() - started,
                          f"the worker process stopped unexpectedly (exit code {process.exitcode})")
    outcomes[index] = outcome
