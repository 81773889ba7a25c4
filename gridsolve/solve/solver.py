"""The dispatcher: :func:`solve` answers a question with the first solver that serves it.

The solvers fill in one interface (:class:`gridsolve.solve.answer.Solver`) and are tried in
this order: the robust solver of ``--hidden`` questions (:mod:`gridsolve.solve.robust`), the
bounded solver of games with items (:mod:`gridsolve.solve.bounded`), the race solver
(:mod:`gridsolve.solve.engine`) and the compiled program run by the driver
(:mod:`gridsolve.solve.compiled`), which serves every question.
"""
from __future__ import annotations

from collections.abc import Sequence

from ..errors import EncodingError
from ..language.model import Board
from ..language.position import Query
from .answer import Answer, Question, Solver
from .bounded import BoundedSolver
from .compiled import CompiledSolver
from .engine import RaceSolver
from .limits import Limits
from .robust import HiddenSolver


class Dispatcher:
    """A :class:`~gridsolve.solve.answer.Solver` made of ``solvers``: it answers with the first
    of them that serves the question."""

    def __init__(self, name: str, solvers: Sequence[Solver]):
        self.name, self.solvers = name, list(solvers)

    def pick(self, question: Question) -> Solver:
        """The first solver that serves ``question``."""
        for solver in self.solvers:
            if solver.serves(question):
                return solver
        raise EncodingError(f"no solver of {self.name} answers this question")

    def serves(self, question: Question) -> bool:
        return any(solver.serves(question) for solver in self.solvers)

    def answer(self, question: Question) -> Answer:
        return self.pick(question).answer(question)


EXACT = Dispatcher("the full-information solvers", [RaceSolver(), CompiledSolver()])
EVERY = Dispatcher("every solver", [HiddenSolver(exact=EXACT), BoundedSolver(), *EXACT.solvers])


def solve(board: Board, query: Query, limits: Limits | None = None, bounded: bool = True,
          line_plies: int | None = None, memo=None) -> Answer:
    """The answer to ``query`` on ``board`` by the first solver that serves it (see the module
    docstring); ``bounded=False`` leaves out the bounded and robust searches (a ``--hidden``
    question is then the compiled robust game, solved layer by layer within its horizon).
    The principal line of the bounded and robust searches stops after ``line_plies`` plies when
    given (the other solvers' lines are cheap and always whole); ``memo`` (a
    :class:`~gridsolve.solve.boundedmemo.BoundedMemo`) keeps the bounded solver's work for the
    next questions."""
    question = Question(board, query, limits, line_plies=line_plies, memo=memo)
    return (EVERY if bounded else EXACT).answer(question)
