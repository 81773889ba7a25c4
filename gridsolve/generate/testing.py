"""The most testing line of a won level, and its decisive choices.

Where the role forces its win whatever the others do, the solver's principal line gives the
others an arbitrary losing line (any delaying move): on a Mummy Maze the mummy may dither in
its corner while the explorer walks home, and nothing shows why the level is hard.  The
*most testing line* plays, at the others' turns, the move that leaves the role the fewest
winning replies at its next turn, then the one that delays the win longest; at the role's
turns a fastest winning move.  Along it, a *decisive choice* is a turn of the role where a
natural move loses the win: a move that the careful greedy player (the model of a person:
:func:`gridsolve.analysis.metrics.careful_win`, seeing the danger 1 ply ahead) would play,
after which the others force an end the role must avoid; the choice names that move, where
the role is caught and after how many plies, and the move that keeps the win.  Everything is
read off the level's solved game graph (:class:`gridsolve.analysis.metrics.SolvedGraph`).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..analysis.metrics import SolvedGraph
from ..language.model import Board
from ..language import wording
from ..language.position import Position
from ..solve.common.answer import Ply
from ..solve.common.limits import Limits
from ..solve.program.driver import format_move


@dataclass(frozen=True)
class Choice:
    """A decisive choice: at ply ``ply`` (0-based) with the role on ``cell``, the natural move
    ``natural`` (to ``to``) loses: going on as the careful greedy player, the role is caught on
    ``caught`` after ``plies`` more plies, the others hurrying; ``keeps`` keeps the win."""

    ply: int
    cell: tuple
    to: tuple
    natural: str
    caught: tuple | None
    plies: int | None
    keeps: str

    def describe(self, role: str) -> str:
        where = f" is caught on {self.caught} {wording.plies(self.plies)} later" if self.caught else \
            " loses the win"
        return (f"ply {self.ply + 1}, {role} on {self.cell}: {self.natural} (a nearest safe-looking step){where}; "
                f"{self.keeps} keeps the win")


@dataclass(frozen=True)
class TestingLine:
    line: tuple[Ply, ...]         # plies as an Answer's line
    choices: list                 # the decisive choices along it

    def describe(self) -> str:
        return "; ".join(f"{', '.join(ply.side)} {ply.move}" for ply in self.line)


def most_testing_line(board: Board, role: str, start: Position, horizon: int | None = None,
                      limits: Limits | None = None) -> TestingLine | None:
    """The most testing line from ``start`` (None where the role forces no win by an end);
    ``limits``: the solved graph's."""
    graph = SolvedGraph(board, role, start, horizon, limits)
    s = graph.start
    if graph.rank[s] == np.inf:
        return None
    race = graph.graph
    others = [m for m in range(len(graph.mine)) if not graph.mine[m]]
    avoided = [e for e in race.ends if e not in graph.goals]
    doom, _ = race.ranks(others, avoided, graph.left)
    seen, _ = race.ranks(others, avoided, 1)
    near = graph.goal_steps()
    names = _Names(graph)
    line, choices, ply, before = [], [], 0, start
    while graph.rank[s] > 0 and graph.end[s] is None and ply < graph.left:
        left = graph.left - ply - 1
        after = graph.succ[s]
        if graph.mine[graph.mover[s]]:
            fastest = min(after, key=lambda t: (graph.rank[t], names.of(s, t)))
            safe = [t for t in after if seen[t] < 0] or list(after)
            best = min(near[t] for t in safe)
            natural = sorted((t for t in safe if near[t] == best and not graph.wins(t, left)), key=lambda t: names.of(s, t))
            if natural:
                caught, plies = _caught(graph, doom, seen, near, natural[0])
                choices.append(Choice(ply, graph.cell(s), graph.cell(natural[0]), names.of(s, natural[0]), caught, plies,
                                      names.of(s, fastest)))
            t = fastest
        else:
            t = min(after, key=lambda t: (_winning_replies(graph, t, left), -graph.rank[t], names.of(s, t)))
        after = graph.position(t, before.step + 1)
        line.append(Ply(ply, tuple(board.rules.turns[graph.mover[s]]), names.of(s, t), before, after))
        s, ply, before = t, ply + 1, after
    return TestingLine(tuple(line), choices)


def _winning_replies(graph: SolvedGraph, t: int, left: int) -> int:
    """The role's moves from ``t`` that keep the win (``left`` plies left at ``t``); 0 at an end."""
    if graph.end[t] is not None or not graph.mine[graph.mover[t]]:
        return 0 if graph.end[t] is not None else min((_winning_replies(graph, u, left - 1) for u in graph.succ[t]),
                                                      default=0)
    return sum(graph.wins(u, left - 1) for u in graph.succ[t])


def _caught(graph: SolvedGraph, doom: np.ndarray, seen: np.ndarray, near: np.ndarray, t: int) \
        -> tuple[tuple | None, int | None]:
    """Where the role is caught after the natural move to ``t``, and after how many plies: it
    goes on as the careful greedy player (``seen``: the others' capture within 1 ply; ``near``:
    its steps to the goal), the others hurry to their forced end ((None, None): not forced)."""
    if doom[t] < 0:
        return None, None
    s, plies = t, 0
    while graph.end[s] is None:
        if graph.mine[graph.mover[s]]:
            safe = [u for u in graph.succ[s] if seen[u] < 0] or graph.succ[s]
            s = min(safe, key=lambda u: (near[u], u))
        else:
            s = min((u for u in graph.succ[s] if doom[u] >= 0), key=lambda u: (doom[u], u))
        plies += 1
    return graph.cell(s), plies


class _Names:
    """The names of the moves between positions of the graph, as the solver's line writes them."""

    def __init__(self, graph: SolvedGraph):
        self.graph, self.cache = graph, {}

    def of(self, s: int, t: int) -> str:
        found = self.cache.get(s)
        if found is None:
            race = self.graph.graph
            found = self.cache[s] = {}
            for move, after in sorted(race.moves(race.symbol(s)), key=lambda m: format_move(m[0])):
                found.setdefault(race.index(after), format_move(move))
        return found[t]
