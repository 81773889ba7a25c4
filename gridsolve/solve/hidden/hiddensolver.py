"""Robust answers (``solve --hidden``): the two solvers of ``--hidden`` questions.

:class:`RobustSolver` is the ``robust search`` row of :mod:`gridsolve.solve.common.capabilities`
(Maze Runner Duel and games like it): the robust search of :mod:`gridsolve.solve.hidden.knowing`
answers exactly at any number of plies.  :class:`HiddenSolver` is the ``hidden`` row, tried after
it (the chooser picks between them): a question with ``--horizon`` is the compiled robust game,
solved layer by layer, and one without is deepened as follows.

The robust game keeps what the role knows in its positions, so far fewer plies fit than with
full information (Maze Runner Duel: about 12 of 40).  A horizon h is enough for the answer
with more plies left when it is *certain*: the value is the role's lowest or highest score
and is forced in D < h plies.  Then every forcing line stops (at an end, or where a side has
no move) before the horizon, so the same strategy forces it with any number of plies left,
and no faster one exists there either (it would stop before h too); the win, survival and
doom answers follow the same way.  A move's answer is certain when its value is extreme and
forced before its own horizon (h - 1 plies after the move); the others are given as found
within the horizon and marked ``"exact": false``.
"""
from __future__ import annotations

from dataclasses import replace

from ...errors import LimitError
from ...language.model import Board
from ...language.position import Query
from ..common.answer import Answer, Question, Solver
from ..common.capabilities import HIDDEN, ROBUST, serves_question
from .knowing import solve_knowing
from ..common.limits import Limits

FIRST_HORIZON = 8
STEP = 2


def certain(value, plies, survives, doom, left: int, scores: list[int]) -> bool:
    """Does the answer with ``left`` plies hold with any number of plies left?"""
    if plies is None or plies >= left:
        return False
    if value == scores[-1]:
        return True
    return value == scores[0] and (not survives and doom is not None and doom < left)


def solve_hidden(board: Board, query: Query, exact: Solver, limits: Limits | None = None,
                 deepest: int | None = None) -> Answer:
    """The robust answer to the ``--hidden`` question ``query`` from the compiled robust game
    (answered by ``exact``, the solvers of full-information questions): with a horizon, within
    it; else exact when the whole game fits, or from the first horizon whose answer is certain;
    a LimitError when none is up to ``deepest`` plies (default: as deep as the limits allow)."""
    def solve_exact(query: Query) -> Answer:
        return exact.answer(Question(board, query, limits))

    if query.horizon is not None:
        return solve_exact(query)
    remaining = query.remaining(board)
    if remaining <= FIRST_HORIZON:
        return solve_exact(replace(query, horizon=remaining))
    scores = board.rules.scores_of(query.role)
    horizon, last = FIRST_HORIZON, None
    while horizon < remaining:
        try:
            answer = solve_exact(replace(query, horizon=horizon))
        except LimitError as exc:
            if last is None:
                raise
            raise LimitError(
                f"the robust answer within {remaining} plies is not settled by the first {last.remaining} "
                f"plies (there: value {last.value}, plies {last.plies}), and {horizon} plies do not fit: "
                f"{exc.message}", f"ask with --horizon {last.remaining} for the answer within that many plies")
        if certain(answer.value, answer.plies, answer.survives, answer.doom_plies, horizon, scores):
            return _widened(answer, remaining, horizon, scores)
        last, horizon = answer, horizon + STEP
        if deepest is not None and horizon > deepest:
            raise LimitError(f"the robust answer within {remaining} plies is not settled by the first {deepest} plies")
    return solve_exact(replace(query, horizon=remaining))


def _widened(answer: Answer, remaining: int, horizon: int, scores: list[int]) -> Answer:
    """The certain answer found at ``horizon``, stated for ``remaining`` plies; each move says
    whether its own answer is certain too."""
    for move in answer.moves:
        move.exact = certain(move.value, move.plies, move.survives, move.doom_plies, horizon - 1, scores)
    answer.remaining = remaining
    answer.stats = replace(answer.stats, settled_at=horizon)
    return answer


class RobustSolver:
    """The robust search as a :class:`~gridsolve.solve.common.answer.Solver`: the ``--hidden``
    questions its row serves, exact at any number of plies."""

    name = ROBUST

    def serves(self, question: Question) -> bool:
        return serves_question(ROBUST, question)

    def answer(self, question: Question) -> Answer:
        return solve_knowing(question.board, question.query, question.limits, question.line_plies)


class HiddenSolver:
    """The compiled robust game as a :class:`~gridsolve.solve.common.answer.Solver`: the other
    ``--hidden`` questions, with ``exact`` (the solvers of full-information questions) for the
    compiled robust game."""

    name = HIDDEN

    def __init__(self, exact: Solver):
        self.exact = exact

    def serves(self, question: Question) -> bool:
        return serves_question(HIDDEN, question)

    def answer(self, question: Question) -> Answer:
        return solve_hidden(question.board, question.query, self.exact, question.limits)
