"""The bounded solver's work kept across questions (``gridsolve ask``, ``play``).

A :class:`BoundedMemo` holds one abstract game, ground from every position asked about so far,
and one :class:`~gridsolve.solve.bounded.search.BoundedSearch` per role: the races' transposition
tables are keyed by the abstract position, the items left and whether the plies asked are all
that are left, not by the question's root nor its horizon, so a race forced (or not) for one
question is known for every later one.  A question at a position the abstract game does not
reach grounds it again with that position as one more root (the tables start over).  When the
tables of earlier questions hold half the memory the limit leaves beside the game, a question
starts without them (the solvers' ranks and classes stay): far-apart questions share little, and
a search that fills the limit halfway through is asked again from nothing
(:class:`~gridsolve.solve.dispatch.asker.Asker`).
"""
from __future__ import annotations

from ...compile.state import layout_for
from ...language.model import Board
from ...language.position import Position, Query
from ..graph.abstractgame import AbstractGame
from ..graph.abstractpieces import build_abstract_game
from .search import BoundedSearch
from ..common.limits import LimitGuard, Limits, estimate_positions, resident


class BoundedMemo:
    """The abstract game of ``board`` rooted at ``roots`` (and every later question's position)
    with the bounded solvers built on it, by (role, prune).  ``groundings`` counts the
    abstract games ground."""

    def __init__(self, board: Board, roots: list[Position] = ()):
        self.board = board
        self.roots = list(dict.fromkeys(roots))
        self.game: AbstractGame | None = None
        self.solvers: dict[tuple[str, bool], BoundedSearch] = {}
        self.base: int | None = None
        self.groundings = 0

    def _reaches(self, position: Position) -> bool:
        return self.game.find(position) is not None

    def solver(self, query: Query, limits: Limits, prune: bool, guard: LimitGuard) -> tuple[AbstractGame, BoundedSearch]:
        """The abstract game and the solver of ``query``'s role, with ``limits`` and ``guard``
        for this question; the memory held by the tables of earlier questions counts against
        its limit (the guard's base is the process before the first question)."""
        if self.base is None:
            self.base = guard.base
        guard.base = self.base
        if self.game is None or not self._reaches(query.position):
            if query.position not in self.roots:
                self.roots.append(query.position)
            self.game, self.solvers = None, {}
            guard.before(estimate_positions(self.board, layout_for(self.board, set()), self.roots), self.board)
            self.game = build_abstract_game(self.board, self.roots, guard)
            self.groundings += 1
        tables = sum(solver.table_bytes() for solver in self.solvers.values())
        if tables > (limits.memory - (resident() - self.base - tables)) // 2:
            self.forget()       # the earlier tables hold half the room the game leaves: start with room
        key = (query.role, prune)
        solver = self.solvers.get(key)
        if solver is None:
            solver = self.solvers[key] = BoundedSearch(self.board, self.game, query.role, limits, prune, guard)
        solver.limits, solver.guard = limits, guard
        return self.game, solver

    def forget(self) -> bool:
        """Drop the transposition tables (the abstract game and each solver's ranks and classes
        stay); whether there were any."""
        had = any(solver.remembered() for solver in self.solvers.values())
        for solver in self.solvers.values():
            solver.forget()
        return had
