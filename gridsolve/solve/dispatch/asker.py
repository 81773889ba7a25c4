"""Many questions about one board: :class:`Asker` is what verify, play, ask and explain use.

It answers each query from an :class:`~gridsolve.solve.race.racesolver.Engine` when the race solver can
(grounding a new one, with one more root, only for a position the current one does not reach)
and otherwise with :func:`gridsolve.solve.dispatch.dispatcher.solve`, the bounded solver's questions sharing
one :class:`~gridsolve.solve.bounded.memo.BoundedMemo`, the other layered questions a
:class:`~gridsolve.solve.layered.table.LayeredTable` per role.
"""
from __future__ import annotations

import dataclasses

from ...compile.planning import Mode, plan_query
from ...errors import MemoryLimitError
from ...language.model import Board
from ...language.position import Position, Query
from ..common.answer import Answer
from ..bounded.memo import BoundedMemo
from ..race.racesolver import Engine
from ..layered.table import LayeredTables, serves as table_serves
from ..common.limits import Limits
from .dispatcher import solve


class Asker:
    """Answers queries about one board: from an :class:`Engine` where the race solver answers
    them, else by solving the query alone.  The engine is ground from ``roots`` with the ranks
    up to ``plies`` (None: the whole game); it is ground again only for a position the roots
    do not reach (which becomes one more root) or for more plies.  The bounded solver's
    questions share one :class:`~gridsolve.solve.bounded.memo.BoundedMemo` (its abstract game
    and transposition tables, rooted alike); the other layered questions share a role's
    :class:`~gridsolve.solve.layered.table.LayeredTable` (where it fits the memory limit).
    ``groundings`` counts the engines built; ``limits`` bound every question not asked with
    limits of its own."""

    def __init__(self, board: Board, roots: list[Position] = (), plies: int | None = None,
                 limits: Limits | None = None):
        self.board = board
        self.limits = limits or Limits()
        self.roots = list(dict.fromkeys(roots))
        self.plies = plies
        self.engine: Engine | None = None
        self.memo: BoundedMemo | None = None     # the bounded solver's work, kept across questions
        self.tables: LayeredTables | None = None    # the layered solver's, likewise
        self.groundings = 0

    @classmethod
    def for_queries(cls, board: Board, queries: list[Query], limits: Limits | None = None) -> "Asker":
        """An Asker whose first grounding serves all of ``queries``: rooted at their positions,
        with the ranks up to the most plies any of them has left."""
        return cls(board, [q.position for q in queries], max((q.remaining(board) for q in queries), default=None),
                   limits)

    def ask(self, query: Query, limits: Limits | None = None, line_plies: int | None = None) -> Answer:
        """The answer to ``query``; ``limits`` (else the Asker's) bound a solve, ``line_plies``
        the principal line of an engine's answer (see :meth:`Engine.answer`; 0: no line)."""
        limits = limits or self.limits
        if table_serves(self.board, query):
            if self.tables is None:
                self.tables = LayeredTables(self.board, self.roots)
            answer = self.tables.answer(query, limits)
            if answer is not None:
                if line_plies == 0:
                    answer.line = None
                return answer
        if query.strategy or query.hidden or plan_query(self.board, query).mode is not Mode.RACE:
            if self.memo is None:
                self.memo = BoundedMemo(self.board, self.roots)
            plies = None if line_plies is None else max(1, line_plies)
            try:
                answer = solve(self.board, query, limits, line_plies=plies, memo=self.memo)
            except MemoryLimitError:
                if not self.memo.forget():     # the earlier questions' tables took the room: without them
                    raise
                answer = solve(self.board, query, limits, line_plies=plies, memo=self.memo)
            if line_plies == 0:
                answer.line = None
            return answer
        if self.engine is None or not self.engine.serves(query):
            if query.position not in self.roots:
                self.roots.append(query.position)
            if self.plies is not None:
                self.plies = max(self.plies, query.remaining(self.board))
            # the engine serves the questions after this one too: their memory limit, not this one's time
            shared = dataclasses.replace(limits, seconds=None, progress=None)
            self.engine = Engine(self.board, self.roots, plies=self.plies, limits=shared)
            self.groundings += 1
        return self.engine.answer(query, line_plies)
