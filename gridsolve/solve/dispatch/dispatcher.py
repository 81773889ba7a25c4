"""The dispatcher: :func:`solve` answers a question by the solver of the row the one chooser picks.

The chooser (:func:`gridsolve.solve.common.capabilities.choose`) picks, from the one table, the
first solver row that serves the question: the race solver (:mod:`gridsolve.solve.race.racesolver`),
the bounded solver of games with items (:mod:`gridsolve.solve.bounded.search`), the layered
tables (:mod:`gridsolve.solve.layered.table`, where a role's table fits the memory limit), the
robust search and the compiled robust game of ``--hidden`` questions
(:mod:`gridsolve.solve.hidden.hiddensolver`) and the compiled program run by the driver
(:mod:`gridsolve.solve.program.compiledsolver`), which serves every question.  A
:class:`Dispatcher` holds one solver per row, each made the first time the chooser picks it (a
command about a race game starts without the other solvers' modules); the answer's
``stats.solver`` is the row's name.  The :class:`~gridsolve.solve.dispatch.asker.Asker` is a
Dispatcher of the same rows whose solvers keep their work between questions
(:mod:`gridsolve.solve.dispatch.caching`): ``solve`` and ``ask`` take the same path for the same
question, but that one question alone grounds a layered table only when it looks to the end of
the game (the row's ``at_run``; with a shorter horizon the compiled program is cheaper).
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping

from ...errors import EncodingError
from ...language.model import Board
from ...language.position import Query
from ..common.answer import Answer, Question, Solver
from ..common.capabilities import BOUNDED, COMPILED, HIDDEN, RACE, ROBUST, TABLE, choose
from ..common.limits import Limits
from ..race.racesolver import RaceSolver


class Dispatcher:
    """A :class:`~gridsolve.solve.common.answer.Solver` of the rows of ``makers`` (row name -> a
    function making its solver, called the first time the chooser picks the row): it answers
    each question by the solver of the row :func:`~gridsolve.solve.common.capabilities.choose`
    picks among them."""

    def __init__(self, name: str, makers: Mapping[str, Callable[[], Solver]]):
        self.name, self.makers = name, dict(makers)
        self.made: dict[str, Solver] = {}

    def solver(self, row: str) -> Solver:
        """The solver of ``row``, made the first time it is asked for."""
        if row not in self.made:
            self.made[row] = self.makers[row]()
        return self.made[row]

    def choose(self, question: Question) -> str | None:
        """The row that answers ``question`` (None: none of this dispatcher's)."""
        return choose(question, tuple(self.makers), lambda row: self.solver(row).fits(question))

    def pick(self, question: Question) -> Solver:
        """The solver of the row that answers ``question``."""
        row = self.choose(question)
        if row is None:
            raise EncodingError(f"no solver of {self.name} answers this question")
        return self.solver(row)

    def serves(self, question: Question) -> bool:
        return self.choose(question) is not None

    def answer(self, question: Question) -> Answer:
        solver = self.pick(question)
        answer = solver.answer(question)
        answer.stats = dataclasses.replace(answer.stats, solver=solver.name)
        return answer


def _robust() -> Solver:
    from ..hidden.hiddensolver import RobustSolver
    return RobustSolver()


def _hidden() -> Solver:
    from ..hidden.hiddensolver import HiddenSolver
    return HiddenSolver(exact=exact())


def _table(question: Question) -> Solver:
    from .caching import OneQuestionTable, Session
    return OneQuestionTable(Session(question.board, [question.query.position]))


def _compiled() -> Solver:
    from ..program.compiledsolver import CompiledSolver     # (not imported where the race solver answers)
    return CompiledSolver()


def _bounded() -> Solver:
    from ..bounded.search import BoundedSolver
    return BoundedSolver()


def exact() -> Dispatcher:
    """A dispatcher of the full-information solvers without the searches and tables (the race
    solver, the compiled program): the reference for the others, and the robust game's solver."""
    return Dispatcher("the full-information solvers", {RACE: RaceSolver, COMPILED: _compiled})


# the makers of the solvers that keep no graph or table between questions (the Asker asks them with its memo)
SEARCHES = {BOUNDED: _bounded, ROBUST: _robust, HIDDEN: _hidden, COMPILED: _compiled}


def every(question: Question) -> Dispatcher:
    """A dispatcher of every solver, for ``question`` (a layered table is rooted at its position)."""
    return Dispatcher("every solver", {RACE: RaceSolver, TABLE: lambda: _table(question), **SEARCHES})


def solve(board: Board, query: Query, limits: Limits | None = None, bounded: bool = True,
          line_plies: int | None = None, memo=None) -> Answer:
    """The answer to ``query`` on ``board`` by the solver of the row the chooser picks (see the
    module docstring); ``bounded=False`` leaves out the searches and tables (the bounded and
    robust searches, the layered tables: the race solver and the compiled program remain, and
    a ``--hidden`` question is then the compiled robust game, solved layer by layer within its
    horizon).  The principal line of the bounded and robust searches stops after ``line_plies``
    plies when given (the other solvers' lines are cheap and always whole); ``memo`` (a
    :class:`~gridsolve.solve.bounded.memo.BoundedMemo`) keeps the bounded solver's work for the
    next questions."""
    question = Question(board, query, limits, line_plies=line_plies, memo=memo)
    return (every(question) if bounded else exact()).answer(question)
