"""``gridsolve explain``: why a position has its answer, and which single wall would change it.

An :class:`Explanation` holds the answer (verdict and principal line, as ``solve`` gives it),
the *refutation* where the role does not get what it asks for (for each of its moves, the
others' answer that keeps the result, a few plies deep) and the *critical walls*: every
interior wall edge whose removal or addition changes the answer (see
:mod:`gridsolve.explain.walls` for how the variants are answered).
"""
from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field, replace

from ..errors import QueryError
from ..language.model import Board
from ..language.position import Position, Query
from ..solve.common.limits import Limits
from ..solve.dispatch.asker import Asker
from ..solve.program.explore import examine
from ..solve.common.answer import Answer, Ply
from ..solve.common.capabilities import WALL_GRAPH, refusal
from .walls import (Outcome, Wall, WallGraph, interior_walls, outcomes, solve_outcome,
                    solve_variant)
from ..language.kinds import QueryKind

METHODS = ("auto", "graph", "solve")
REFUTATION_PLIES = 3       # plies of each refuting line: the others' answer, the role's reply, theirs


@dataclass
class CriticalWall:
    """A single wall change and the answer it gives."""

    wall: Wall
    change: str            # "remove" or "add"
    outcome: Outcome
    kind: str              # the question asked (value, win, survive)

    def as_dict(self) -> dict:
        holds, plies = self.outcome.key(self.kind)
        return {"wall": self.wall.as_dict(), "change": self.change, "value": self.outcome.value,
                "plies": plies, "win": self.outcome.win, **({} if self.kind == QueryKind.VALUE else {"holds": holds})}


@dataclass
class Refutation:
    """One move of the role's side, the answer after it and the line that answers it."""

    move: str
    outcome: Outcome
    kind: str
    line: tuple[Ply, ...]

    def as_dict(self) -> dict:
        _, plies = self.outcome.key(self.kind)
        return {"move": self.move, "value": self.outcome.value, "plies": plies, "win": self.outcome.win,
                "survives": self.outcome.survives, "line": [ply.as_dict() for ply in self.line]}


@dataclass
class Explanation:
    answer: Answer
    refutation: list[Refutation] | None         # None: the role gets what it asks for
    refutation_after: tuple[Ply, ...]            # plies played before the role's moves (the others' first)
    critical_walls: list[CriticalWall]
    walls_tried: int
    stats: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        out = self.answer.as_dict()
        out["refutation"] = None if self.refutation is None else {
            "after": [ply.as_dict() for ply in self.refutation_after], "moves": [r.as_dict() for r in self.refutation]}
        out["critical_walls"] = [c.as_dict() for c in self.critical_walls]
        out["stats"] = {**out["stats"], **self.stats}
        return out


def gets_it(answer: Answer) -> bool:
    """Whether the role gets what the question asks: a forced win (value, win) or survival."""
    return bool(answer.survives if answer.query == QueryKind.SURVIVE else answer.win)


def _later(query: Query, position: Position, plies: int) -> Query:
    """``query`` at ``position``, ``plies`` plies later (its horizon shrinks with them)."""
    horizon = None if query.horizon is None else max(0, query.horizon - plies)
    return dataclasses.replace(query, position=position, horizon=horizon, strategy=False)


def refute(board: Board, query: Query, answer: Answer, asker: Asker,
           plies: int = REFUTATION_PLIES) -> tuple[list[Refutation] | None, tuple[Ply, ...]]:
    """For a position where the role does not get what it asks: each move of the role's side
    with the others' answer (the principal line after it, ``plies`` deep).  When the others
    are to move, their first move of the principal line comes first (the second result)."""
    if gets_it(answer) or not answer.line:
        return None, ()
    rules = board.rules
    position, before = query.position, ()
    if query.role not in rules.turns[position.side]:
        position, before = answer.line[0].after, answer.line[:1]
        if query.role not in rules.turns[position.side]:
            return None, before
    end, steps = examine(board, position)
    out = []
    for step in steps:
        after = asker.ask(_later(query, step.position, len(before) + 1), line_plies=plies)
        offset = len(before) + 1
        line = tuple(replace(ply, index=ply.index + offset) for ply in after.line[:plies])
        out.append(Refutation(step.move, Outcome.of(after), query.kind, line))
    return out, before


def wall_outcomes(board: Board, query: Query, method: str = "auto", jobs: int = 1,
                  limits: Limits | None = None) -> tuple[Outcome, list[tuple[Wall, Outcome]], str]:
    """The answer to ``query`` on the board, the answer with each interior wall edge toggled,
    and the method used (``graph``: one shared game graph; ``solve``: a solve per edge);
    ``jobs``: worker processes for the graph's variants; ``limits`` bound each solve."""
    if method not in METHODS:
        raise QueryError(f"--method {method}: unknown method", f"use one of: {', '.join(METHODS)}")
    refused = refusal(WALL_GRAPH, board, query)
    if method == "auto":
        method = "solve" if refused else "graph"
    elif method == "graph" and refused:
        raise QueryError(f"--method graph: {board.name} asked this way is not answered on one game graph: {refused}",
                         "use --method solve (one solve per wall)")
    walls = interior_walls(board)
    if method == "graph":
        graph = WallGraph(board, query)
        return graph.outcome_for(None), list(zip(walls, outcomes(graph, walls, jobs))), method
    return (solve_outcome(board, query, limits), [(wall, solve_variant(board, query, wall, limits)) for wall in walls],
            method)


def critical_walls(board: Board, query: Query, method: str = "auto", jobs: int = 1,
                   limits: Limits | None = None) -> tuple[list[CriticalWall], int, str]:
    """Every interior wall edge whose toggling changes the answer to ``query``, the number of
    edges tried and the method used (see :func:`wall_outcomes`)."""
    base, tried, used = wall_outcomes(board, query, method, jobs, limits)
    found = [CriticalWall(wall, "remove" if wall.present(board) else "add", outcome, query.kind)
             for wall, outcome in tried if outcome.key(query.kind) != base.key(query.kind)]
    return found, len(tried), used


def explain(board: Board, query: Query, walls: bool = True, method: str = "auto", jobs: int = 1,
            limits: Limits | None = None) -> Explanation:
    """The answer to ``query``, its refutation and (with ``walls``) its critical walls, each
    solve within ``limits``."""
    started = time.perf_counter()
    asker = Asker.for_queries(board, [query], limits)
    answer = asker.ask(query)
    refutation, before = refute(board, query, answer, asker)
    refuted = time.perf_counter()
    found, tried, used = critical_walls(board, query, method, jobs, asker.limits) if walls else ([], 0, "")
    done = time.perf_counter()
    stats = {"refutation_s": round(refuted - started, 4), "walls_s": round(done - refuted, 4),
             "walls_tried": tried, "walls_method": used or None, "jobs": jobs, "explain_s": round(done - started, 4)}
    return Explanation(answer, refutation, before, found, tried, stats)

