"""The dispatcher: :func:`solve` answers a question with the first solver that serves it.

The solvers fill in one interface (:class:`gridsolve.solve.common.answer.Solver`), each serves
what its row of the table of paths (:mod:`gridsolve.solve.common.capabilities`) serves, and they are
tried in the table's order of cost: the race solver (:mod:`gridsolve.solve.race.racesolver`), the
bounded solver of games with items (:mod:`gridsolve.solve.bounded.search`), the robust solver of
``--hidden`` questions (:mod:`gridsolve.solve.hidden.hiddensolver`) and the compiled program run by
the driver (:mod:`gridsolve.solve.program.compiledsolver`), which serves every question.  The
:class:`~gridsolve.solve.dispatch.asker.Asker` is a :class:`Dispatcher` of the same solvers and the
layered tables, each keeping its work between questions (:mod:`gridsolve.solve.dispatch.caching`).  The
robust and bounded solvers are imported the first time a question may need them
(:class:`Deferred`): a command about a race game starts without their modules.
"""
from __future__ import annotations

from collections.abc import Sequence

from typing import Callable

from ...compile.planning import Mode
from ...errors import EncodingError
from ...language.model import Board
from ...language.position import Query
from ..common.answer import Answer, Question, Solver
from ..common.capabilities import PATHS
from ..program.compiledsolver import CompiledSolver
from ..race.racesolver import RaceSolver
from ..common.limits import Limits


class Dispatcher:
    """A :class:`~gridsolve.solve.common.answer.Solver` made of ``solvers`` (each named as its path
    in :data:`~gridsolve.solve.common.capabilities.PATHS`): it answers with the cheapest of them
    that serves the question."""

    def __init__(self, name: str, solvers: Sequence[Solver]):
        self.name, self.solvers = name, sorted(solvers, key=lambda solver: PATHS[solver.name].cost)

    def pick(self, question: Question) -> Solver:
        """The cheapest solver that serves ``question``."""
        for solver in self.solvers:
            if solver.serves(question):
                return solver
        raise EncodingError(f"no solver of {self.name} answers this question")

    def serves(self, question: Question) -> bool:
        return any(solver.serves(question) for solver in self.solvers)

    def answer(self, question: Question) -> Answer:
        return self.pick(question).answer(question)


class Deferred:
    """A solver whose module is imported the first time a question may need it (a command that
    never asks such a question starts without it): ``may_serve`` is a cheap condition that its
    ``serves`` requires, checked first; ``make`` imports the module and makes the solver."""

    def __init__(self, name: str, may_serve: Callable[[Question], bool], make: Callable[[], Solver]):
        self.name, self.may_serve, self.make = name, may_serve, make
        self._solver: Solver | None = None

    @property
    def solver(self) -> Solver:
        if self._solver is None:
            self._solver = self.make()
        return self._solver

    def serves(self, question: Question) -> bool:
        return self.may_serve(question) and self.solver.serves(question)

    def answer(self, question: Question) -> Answer:
        return self.solver.answer(question)


def _hidden() -> Solver:
    from ..hidden.hiddensolver import HiddenSolver
    return HiddenSolver(exact=EXACT)


def _bounded() -> Solver:
    from ..bounded.search import BoundedSolver
    return BoundedSolver()


RACE, COMPILED = RaceSolver(), CompiledSolver()
EXACT = Dispatcher("the full-information solvers", [RACE, COMPILED])
HIDDEN = Deferred("hidden", lambda question: question.query.hidden, _hidden)
BOUNDED = Deferred("bounded", lambda question: question.plan.mode is Mode.LAYERED, _bounded)
EVERY = Dispatcher("every solver", [HIDDEN, BOUNDED, RACE, COMPILED])


def solve(board: Board, query: Query, limits: Limits | None = None, bounded: bool = True,
          line_plies: int | None = None, memo=None) -> Answer:
    """The answer to ``query`` on ``board`` by the first solver that serves it (see the module
    docstring); ``bounded=False`` leaves out the bounded and robust searches (a ``--hidden``
    question is then the compiled robust game, solved layer by layer within its horizon).
    The principal line of the bounded and robust searches stops after ``line_plies`` plies when
    given (the other solvers' lines are cheap and always whole); ``memo`` (a
    :class:`~gridsolve.solve.bounded.memo.BoundedMemo`) keeps the bounded solver's work for the
    next questions."""
    question = Question(board, query, limits, line_plies=line_plies, memo=memo)
    return (EVERY if bounded else EXACT).answer(question)
