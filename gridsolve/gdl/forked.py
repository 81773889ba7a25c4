"""A step that Python cannot interrupt, run in a forked child process until a deadline.

clingo's grounding cannot be interrupted from Python: a watch of the rules it emits
(:class:`~gridsolve.ground.circuit.Watch`) stops it only when it emits one, and a join of many
literals can run for minutes without deriving anything (gt_two_thirds_6p's goals, over six roles'
moves).  :func:`run_forked` runs such a step in a child (``os.fork``: it holds what the parent
held, nothing is rebuilt) and waits for its answer, pickled through a pipe, at most until the
deadline; past it the child is killed and ``late()`` gives the error to raise.  The child's own
errors come back as they were raised (a limit's error with its message and hint).  Where the
system has no ``fork``, the step runs in this process.
"""
from __future__ import annotations

import os
import pickle
import select
import signal
import time
from collections.abc import Callable

from ..errors import GridsolveError

READ = 1 << 20


def _outcome(step: Callable[[], object]) -> bytes:
    """The pickled ("ok", result), ("gridsolve", an error's class, args and attributes) or ("error", the exception)."""
    try:
        return pickle.dumps(("ok", step()))
    except GridsolveError as exc:       # (their constructors take more than args: rebuilt from their attributes)
        return pickle.dumps(("gridsolve", type(exc), exc.args, vars(exc)))
    except BaseException as exc:        # (raised again in the parent, as it was)
        try:
            return pickle.dumps(("error", exc))
        except Exception:
            return pickle.dumps(("error", RuntimeError(f"{type(exc).__name__}: {exc}")))


def _child(step: Callable[[], object], write: int) -> None:
    try:
        data = _outcome(step)
        view = memoryview(data)
        while view:
            view = view[os.write(write, view[:READ]):]
    finally:
        os._exit(0)


def run_forked(step: Callable[[], object], deadline: float | None, late: Callable[[], BaseException]):
    """``step()``'s result, computed in a forked child; ``late()`` raised where it has not
    answered by ``deadline`` (a :func:`time.perf_counter` time; None: no deadline, the step run
    here)."""
    if deadline is None or not hasattr(os, "fork"):
        return step()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        _child(step, write)
    os.close(write)
    chunks = []
    try:
        while True:
            left = deadline - time.perf_counter()
            ready, _, _ = select.select([read], [], [], max(0.0, left))
            if not ready:
                os.kill(pid, signal.SIGKILL)
                raise late()
            chunk = os.read(read, READ)
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(read)
        os.waitpid(pid, 0)
    if not chunks:
        raise RuntimeError("the forked step ended without an answer")
    outcome = pickle.loads(b"".join(chunks))
    if outcome[0] == "ok":
        return outcome[1]
    if outcome[0] == "gridsolve":
        cls, args, attributes = outcome[1:]
        error = cls.__new__(cls)
        error.args = args
        vars(error).update(attributes)
        raise error
    raise outcome[1]
