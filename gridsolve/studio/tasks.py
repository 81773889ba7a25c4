"""What the studio computes in worker processes (:mod:`gridsolve.studio.jobs`): answers the
warm graph does not give, critical walls, the expect block checked, new levels generated.

Each task takes the page's parameters (file names already resolved inside the served folder
by the server) and a ``progress(text, fraction)`` callback, and returns JSON."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

from ..errors import GridsolveError
from ..language.loader import load_board
from ..solve.common.capabilities import LIVE_GRAPH, serves
from ..solve.common.limits import Limits
from ..solve.dispatch.dispatcher import solve
from ..explain.walls import WallGraph, interior_walls, solve_outcome, solve_variant
from .answers import payload, question
from .level import apply_level
from .leveltext import level_text
from ..language.kinds import QueryKind


def _limits(params: dict, **fields) -> Limits:
    """The studio's limits, which its server passes to each job (``memory``)."""
    return Limits(memory=params["memory"], **fields)


def _level(params: dict):
    original = load_board(params["path"])
    return original, apply_level(original, params.get("level"))


def answer_task(params: dict, progress) -> dict:
    """The answer to the question by the solver (the layered or bounded solver, or the robust
    answer where secret marks are unplaced)."""
    _, board = _level(params)
    query = question(board, params.get("role"), params.get("kind", QueryKind.VALUE))
    progress("solving", None)
    answer = solve(board, query, _limits(params, progress=lambda line: progress(line, None)))
    return payload(board, query, answer)


def walls_task(params: dict, progress) -> dict:
    """The critical walls: each interior edge whose toggling changes the answer, tried one by
    one on explain's shared game graph where it applies, else by a solve per edge."""
    _, board = _level(params)
    query = question(board, params.get("role"), params.get("kind", QueryKind.VALUE))
    kind = query.kind
    walls = interior_walls(board)
    if serves(LIVE_GRAPH, board, query):     # (the studio asks no --strategy)
        progress("the game graph", 0.0)
        graph = WallGraph(board, query)
        base, variant, method = graph.outcome_for(None), graph.outcome_for, "graph"
    else:
        limits = _limits(params)
        base, method = solve_outcome(board, query, limits), "solve"

        def variant(wall):
            return solve_variant(board, query, wall, limits)
    found = []
    for i, wall in enumerate(walls):
        outcome = variant(wall)
        if outcome.key(kind) != base.key(kind):
            found.append({"cell": list(wall.cell), "side": wall.side,
                          "change": "remove" if wall.present(board) else "add",
                          "outcome": outcome.describe(query.role, kind)})
        progress(f"{i + 1} of {len(walls)} edges tried, {len(found)} critical", (i + 1) / len(walls))
    return {"now": base.describe(query.role, kind), "walls": found, "tried": len(walls), "method": method}


def verify_task(params: dict, progress) -> dict:
    """The board's expect block checked on the edited level (as ``gridsolve verify`` checks it)."""
    from ..verify.verify import PASS, check_board, show
    original, board = _level(params)
    path = Path(params["path"])
    text = level_text(path.read_text(encoding="utf-8"), params["name"], original, board)
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}.studio-", suffix=path.suffix)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        result = None
        for event in check_board(Path(temporary), limits=_limits(params)):
            if event[0] == "plan":
                result = event[1]
                total = max(1, len(result.checks) - 1)
                continue
            _, row, status, measured, message, seconds = event
            check = result.checks[row]
            check.status, check.measured, check.message = status, measured, message
            progress(f"{check.name}: {status}", row / total)
    finally:
        os.unlink(temporary)
    rows = [{"name": c.name, "key": c.key, "line": c.line, "status": c.status, "expected": show(c.expected),
             "measured": show(c.measured), "message": c.message.replace(temporary, params["name"])}
            for c in result.checks]
    return {"checks": rows, "passed": all(r["status"] == PASS for r in rows),
            "failed": [r for r in rows if r["status"] != PASS]}


def generate_task(params: dict, progress) -> dict:
    from .adapters import generate_levels
    return generate_levels(Path(params["path"]), Path(params["out"]), params.get("options") or {},
                           lambda line: progress(line, None), lambda f: progress(None, f), params["memory"])


TASKS = {"answer": answer_task, "walls": walls_task, "verify": verify_task, "generate": generate_task}


def run_task(kind: str, params: dict, put) -> None:
    """Run the task, ``put`` its progress messages and then its result (or its error)."""
    def progress(text, fraction):
        put(("progress", (text, fraction)))
    try:
        put(("done", TASKS[kind](params, progress)))
    except GridsolveError as exc:
        put(("error", {"error": str(exc)}))
    except Exception as exc:         # noqa: BLE001 - a worker reports every failure, never a traceback
        put(("error", {"error": f"internal error ({type(exc).__name__}: {exc}); please report it"}))
