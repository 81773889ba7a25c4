"""Many questions about one board: :class:`Asker` is what verify, play, ask and explain use.

It is a :class:`~gridsolve.solve.dispatch.dispatcher.Dispatcher` of the same rows as
:func:`~gridsolve.solve.dispatch.dispatcher.solve`, its solvers each made a caching solver
(:mod:`gridsolve.solve.dispatch.caching`) that keeps its work for the next questions: a
question goes to the solver of the row the one chooser picks
(:func:`gridsolve.solve.common.capabilities.choose`), as in ``solve``.
"""
from __future__ import annotations

from ...language.model import Board
from ...language.position import Position, Query
from ..common.answer import Answer, Question
from ..common.limits import Limits
from ..common.capabilities import RACE, TABLE
from .caching import CachingRaceSolver, CachingSearch, CachingTableSolver, Session
from .dispatcher import SEARCHES, Dispatcher


def _kept(solver: str, name: str, doc: str) -> property:
    """The Asker's attribute ``name`` of its caching solver (or session) ``solver``."""
    return property(lambda asker: getattr(getattr(asker, solver), name), doc=doc)


class Asker(Dispatcher):
    """Answers queries about one board, each by the caching solver of the row the chooser picks:
    the layered questions about games without items from a role's
    :class:`~gridsolve.solve.layered.table.LayeredTable` (where it fits the memory limit), the
    ``--hidden`` ones by the robust solver, those about games with items by the bounded solver
    (its questions share one :class:`~gridsolve.solve.bounded.memo.BoundedMemo`: its abstract
    game and transposition tables), those planned by races from an :class:`~gridsolve.solve.race.racesolver.Engine` and the rest
    by the compiled program.  The engine is ground from ``roots`` with the ranks up to
    ``plies`` (None: the whole game); it is ground again only for a position the roots do not
    reach (which becomes one more root) or for more plies.  ``groundings`` counts the engines
    built; ``limits`` bound every question not asked with limits of its own."""

    def __init__(self, board: Board, roots: list[Position] = (), plies: int | None = None,
                 limits: Limits | None = None):
        self.board = board
        self.limits = limits or Limits()
        self.session = Session(board, roots)
        self.roots = self.session.roots     # the positions asked about so far (the caches are ground from them)
        self.tabled, self.race = CachingTableSolver(self.session), CachingRaceSolver(self.session, plies)
        super().__init__("the asker", {RACE: lambda: self.race, TABLE: lambda: self.tabled, **{
            row: (lambda make=make: CachingSearch(make(), self.session)) for row, make in SEARCHES.items()}})

    @classmethod
    def for_queries(cls, board: Board, queries: list[Query], limits: Limits | None = None) -> "Asker":
        """An Asker whose first grounding serves all of ``queries``: rooted at their positions,
        with the ranks up to the most plies any of them has left."""
        return cls(board, [q.position for q in queries], max((q.remaining(board) for q in queries), default=None),
                   limits)

    def ask(self, query: Query, limits: Limits | None = None, line_plies: int | None = None,
            moves: bool = True) -> Answer:
        """The answer to ``query``; ``limits`` (else the Asker's) bound a solve, ``line_plies``
        the principal line (None: whole; 0: no line, the answer's ``line`` is None); with
        ``moves`` False the answer's moves may be left out (:class:`~gridsolve.solve.common.answer.Question`)."""
        return self.answer(Question(self.board, query, limits or self.limits, line_plies=line_plies, moves=moves))

    engine = _kept("race", "engine", "The race solver's engine (None before its first question).")
    groundings = _kept("race", "groundings", "How many engines the race solver has ground.")
    plies = _kept("race", "plies", "The plies the race solver's engine ranks (None: the whole game).")
    memo = _kept("session", "memo", "The bounded solver's memo (None before its first question).")
    tables = _kept("tabled", "tables", "The layered tables (None before their first question).")
