"""Thinking on the human's time (gridsolve/play/thinkahead.py): questions asked ahead in a background
thread, and stopped part way, leave the shared work exact: the questions asked afterwards get
the answers of each solved alone."""
from __future__ import annotations

import pytest

from gridsolve.language.loader import load_board
from gridsolve.language.position import Query, initial_position
from gridsolve.solve.dispatch.asker import Asker
from gridsolve.solve.program.explore import examine
from gridsolve.solve.dispatch.dispatcher import solve
from gridsolve.play.thinkahead import ThinkAhead


def _answer(answer) -> dict:
    out = answer.as_dict()
    out.pop("stats")
    out["line"] = out["line"][:1]
    return out


def _after_each_move(board, horizon: int) -> tuple[Query, list[str], list[Query]]:
    """Pacman's survive question where the ghosts move, two plies into a game, their moves and
    Pacman's question after each."""
    position = initial_position(board)
    _, steps = examine(board, position)
    _, replies = examine(board, steps[0].position)
    return (Query("pacman", "survive", steps[0].position), [step.move for step in replies],
            [Query("pacman", "value", step.position, horizon) for step in replies])


def _ask_ahead(horizon: int, wait: bool, compared: int) -> ThinkAhead:
    """Pacman's questions after each reply asked ahead, the replies that doom pacman soonest
    first (``wait``: all answered, else stopped at once: the first stops at its first check of
    the limits); then ``compared`` of them asked through the same Asker must get the answers of
    each solved alone."""
    board = load_board("boards/pacman3p.yaml")
    order_by, labels, queries = _after_each_move(board, horizon)
    asker = Asker(board)
    ahead = ThinkAhead(asker)
    ahead.start(queries, order_by, labels)
    if wait:
        ahead.thread.join()
    ahead.stop()
    assert ahead.thread is None
    for query in queries[:compared]:
        assert _answer(asker.ask(query, line_plies=1)) == _answer(solve(board, query, line_plies=1))
    return ahead


@pytest.mark.slow
def test_questions_asked_ahead_leave_the_answers_exact():
    ahead = _ask_ahead(6, True, 3)
    assert ahead.answered == 4


def test_questions_stopped_part_way_leave_the_answers_exact():
    ahead = _ask_ahead(12, False, 1)
    ahead.start([])                 # nothing to ask: no thread
    assert ahead.thread is None
