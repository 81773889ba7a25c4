"""Maze Runner Duel with full information: the fastest forced top score.

The step limit's rule (the nearer player wins) can give a player its top score as well as the
center can, so a top value equal to the timeout score is still forced by that player: its
``plies`` and ``win_plies`` are the fewest plies to the top score by either way (the limit
counting as the plies to it), each move's plies say so, and the principal line hurries.
Checked against the independent reference (reference/game.py) on random positions.
"""
from __future__ import annotations

import random

import pytest

from reference import game as reference
from gridsolve.language.loader import load_board
from gridsolve.language.position import make_query
from gridsolve.solve.dispatch.dispatcher import solve
from test_differential import _diff, _expected, _got

from conftest import ROOT

BOARD = ROOT / "boards" / "maze-runner-duel.yaml"


def random_positions(seed: int, count: int) -> list[tuple[str, str]]:
    """``count`` (p1 cell, p2 cell) pairs: distinct cells, neither on the center, p1 to move."""
    rng = random.Random(seed)
    cells = [(x, y) for x in range(1, 6) for y in range(1, 6) if (x, y) != (3, 3)]
    out = []
    while len(out) < count:
        a, b = rng.sample(cells, 2)
        out.append((f"p1={a[0]},{a[1]}", f"p2={b[0]},{b[1]}"))
    return out


def test_the_issues_position_reports_the_fastest_win():
    board = load_board(str(BOARD))
    answer = solve(board, make_query(board, "p1", "win", at=("p1=4,2", "p2=2,2"), turn="p1"))
    # west onto its own obstacle's cell (it stops only p2), then north twice: the center in 3 plies
    assert (answer.value, answer.win, answer.win_plies, answer.plies) == (100, True, 3, 3)
    assert {m.move: m.plies for m in answer.moves} == {"west": 2, "north": 5, "east": 6, "south": 6}
    assert [step.move for step in answer.line] == ["west", "north", "north"]


@pytest.mark.slow
def test_a_draw_at_the_timeout_keeps_plies_null():
    """Equal distances at the limit give the constant 50 (a draw): nobody forces it."""
    board = load_board(str(BOARD))
    for role in ("p1", "p2"):
        answer = solve(board, make_query(board, role, "value", at=("p1=1,3", "p2=5,3"), turn="p1", horizon=1))
        ref = reference.reference_answer(board, role, "value", answer_position(board, ("p1=1,3", "p2=5,3"), 1))
        assert answer.value == ref["value"]
        if answer.value == 50:
            assert answer.plies is None


def answer_position(board, at, horizon):
    return make_query(board, "p1", "value", at=at, turn="p1", horizon=horizon).position


@pytest.mark.parametrize("seed,count,role", [(0, 1, "p1"), *(pytest.param(0, 4, role, marks=pytest.mark.slow)
                                                      for role in ("p1", "p2")),
                                              *(pytest.param(seed, 4, role, marks=pytest.mark.slow)
                                                for seed in (1, 2) for role in ("p1", "p2"))])
@pytest.mark.slow
def test_random_positions_agree_with_the_reference(seed, count, role):
    board = load_board(str(BOARD))
    problems = []
    for at in random_positions(seed, 4)[:count]:
        for kind in ("value", "win"):
            query = make_query(board, role, kind, at=at, turn="p1")
            got = _got(solve(board, query))
            want = _expected(reference.reference_answer(board, role, kind, query.position))
            if got != want:
                problems.append(f"{role} {kind} at {at}:\n{_diff(got, want)}")
    assert not problems, "\n".join(problems)
