"""The caching solvers: each keeps one cache between the questions about one board, as a
:class:`~gridsolve.solve.common.answer.Solver`, for the :class:`~gridsolve.solve.dispatch.asker.Asker`.

- :class:`CachingTableSolver`: a :class:`~gridsolve.solve.layered.table.LayeredTables` (a table
  per role) for the layered questions about games without items (:class:`OneQuestionTable`:
  the one of ``solve()``'s one question);
- :class:`CachingRaceSolver`: a race :class:`~gridsolve.solve.race.racesolver.Engine`, ground
  again (with one more root, or more plies) only for a question it does not serve;
- :class:`CachingSearch`: one of the other solvers (bounded, robust, hidden, compiled) asked with the
  bounded solver's :class:`~gridsolve.solve.bounded.memo.BoundedMemo`, and asked once more
  without the earlier questions' tables when it runs out of memory.

They share a :class:`Session`: the positions asked about so far and the memo.  A question's
``line_plies`` is None for the whole principal line, 0 for none, else the plies it stops after.
"""
from __future__ import annotations

import dataclasses
import time

from ...errors import MemoryLimitError
from ...language.model import Board
from ...language.position import Position
from ..bounded.memo import BoundedMemo
from ..common.answer import Answer, Question, Solver
from ..common.limits import Limits
from ..common.capabilities import RACE, TABLE, serves_question
from ..layered.table import LayeredTables
from ..race.racesolver import Engine


class Session:
    """What the caching solvers of one board share: the positions asked about so far
    (``roots``, in order: a cache is ground from those of its time; the race solver adds the
    positions its engine does not reach) and the bounded solver's memo, made at the first
    question that needs it (:meth:`kept_memo`)."""

    def __init__(self, board: Board, roots: list[Position] = ()):
        self.board = board
        self.roots = list(dict.fromkeys(roots))
        self.memo: BoundedMemo | None = None

    def kept_memo(self) -> BoundedMemo:
        if self.memo is None:
            self.memo = BoundedMemo(self.board, self.roots)
        return self.memo


def without_line(answer: Answer, line_plies: int | None) -> Answer:
    """``answer``, without its principal line when ``line_plies`` is 0."""
    if line_plies == 0:
        answer.line = None
    return answer


class CachingTableSolver:
    """The layered tables as a caching solver: a layered question that a table answers
    (the ``layered table`` row of :mod:`gridsolve.solve.common.capabilities`: no items, no
    ``--hidden``, no strategy), read from its role's table, ground from the session's roots.
    It serves such a question only where that table fits the memory limit (and, for a question
    with a time limit, is ground in time): :meth:`fits` grounds it to know."""

    name = TABLE

    def __init__(self, session: Session):
        self.session = session
        self.tables: LayeredTables | None = None

    def fits(self, question: Question) -> bool:
        """Whether the role's table fits ``question``'s limits (the row's ``at_run``), ground to know."""
        if self.tables is None:
            self.tables = LayeredTables(self.session.board, self.session.roots)
        return self.tables.table_for(question.query, question.limits) is not None

    def serves(self, question: Question) -> bool:
        return serves_question(TABLE, question) and self.fits(question)

    def answer(self, question: Question) -> Answer:
        table = self.tables.table_for(question.query, question.limits)
        return without_line(table.answer(question.query), question.line_plies)


class OneQuestionTable(CachingTableSolver):
    """The layered table of one question (``solve()``): as the Asker's, but ground only for a
    question that looks to the end of the game.  With a horizon short of it the compiled program
    grounds only the positions within it, fewer than the whole table (about 1.2-2x faster alone);
    the Asker's table serves many questions and pays off for any."""

    def fits(self, question: Question) -> bool:
        query, rules = question.query, question.board.rules
        return query.remaining(question.board) == rules.last_step - query.position.step and super().fits(question)


class CachingRaceSolver:
    """The race solver as a caching solver: the questions planned by races (no strategy, no
    ``--hidden``) from one :class:`~gridsolve.solve.race.racesolver.Engine`, ground from the
    session's roots with the ranks up to ``plies`` (None: the whole game), and again only for a
    position it does not reach (one more root) or more plies.  The engine serves the later
    questions too: it is ground within a question's memory limit, without its time limit.
    ``groundings`` counts the engines ground."""

    name = RACE

    def __init__(self, session: Session, plies: int | None = None):
        self.session, self.plies = session, plies
        self.engine: Engine | None = None
        self.groundings = 0

    def serves(self, question: Question) -> bool:
        return serves_question(RACE, question)

    def answer(self, question: Question) -> Answer:
        board, query, roots = question.board, question.query, self.session.roots
        if self.engine is None or not self.engine.serves(query):
            if query.position not in roots:
                roots.append(query.position)
            if self.plies is not None:
                self.plies = max(self.plies, query.remaining(board))
            shared = dataclasses.replace(question.limits or Limits(), seconds=None, progress=None)
            self.engine = Engine(board, roots, plies=self.plies, limits=shared)
            self.groundings += 1
        return self.engine.answer(query, question.line_plies, question.moves)


class CachingSearch:
    """``solver`` (the robust, bounded or compiled solver) as a caching solver: it serves what
    ``solver`` serves, asked with the session's memo (the bounded solver keeps its abstract game
    and tables there).  A question that runs out of memory is asked once more after the memo
    forgets the earlier questions' tables (:meth:`~gridsolve.solve.bounded.memo.BoundedMemo.forget`),
    and refused only when there were none.  Its principal line has at least one ply (then
    dropped when ``line_plies`` is 0)."""

    def __init__(self, solver: Solver, session: Session):
        self.solver, self.session = solver, session
        self.name = solver.name

    def serves(self, question: Question) -> bool:
        return self.solver.serves(question)

    def answer(self, question: Question) -> Answer:
        memo = self.session.kept_memo()
        line_plies = question.line_plies
        asked = dataclasses.replace(question, memo=memo, line_plies=None if line_plies is None else max(1, line_plies))
        try:
            answer = self.solver.answer(asked)
        except MemoryLimitError:
            if not memo.forget():     # the earlier questions' tables took the room: without them
                raise
            answer = self.solver.answer(dataclasses.replace(asked, started=time.perf_counter()))
        return without_line(answer, line_plies)
