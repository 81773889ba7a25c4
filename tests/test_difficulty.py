"""Difficulty measures of a won level (gridsolve/generate/difficulty.py).

The fast path reads every move along the winning line off one grounding's race ranks; it must
give exactly what solving each of the role's positions on the line gives.
"""
from __future__ import annotations

import pytest

from gridsolve.generate import difficulty
from gridsolve.language.loader import load_board
from gridsolve.language.position import Position, Query, initial_position
from gridsolve.solve.dispatch.dispatcher import solve

from reference import game as reference
import seed_answers
from conftest import ROOT

SEED = ROOT / "boards" / "mummymaze2p.yaml"


def _position(board, explorer):
    start = initial_position(board)
    pieces = tuple((name, explorer if name == "explorer" else cell) for name, cell in start.pieces)
    return Position(pieces, start.side, start.step)


def _both_ways(board, position, horizon, monkeypatch):
    answer = solve(board, Query("explorer", "value", position, horizon))
    assert answer.win
    fast = difficulty.measure(board, "explorer", position, answer, horizon)
    with monkeypatch.context() as patch:
        patch.setattr(difficulty, "win_ranks", lambda *args: None)
        slow = difficulty.measure(board, "explorer", position, answer, horizon)
    return fast, slow


def test_hand_checked_first_moves():
    # From (8,4) the explorer escapes in 11 plies by going north or by waiting a ply (nowhere,
    # or east into the edge: the same position), not south or west: derived by the reference
    # in tests/seed_answers.py.
    board = load_board(SEED)
    position = _position(board, seed_answers.EXPLORER_GDL_8_4)
    answer = solve(board, Query("explorer", "value", position, None))
    measured = difficulty.measure(board, "explorer", position, answer)
    assert (measured.plies, measured.winning_first_moves) == (
        seed_answers.EXPLORER_GDL_8_4_WIN_PLIES, seed_answers.EXPLORER_GDL_8_4_WINNING_FIRST_POSITIONS)
    assert measured.turns == seed_answers.EXPLORER_GDL_8_4_TURNS and 0 < measured.losing_moves < measured.moves


@pytest.mark.slow
@pytest.mark.parametrize("explorer,horizon", [((7, 5), 15)])
def test_ranks_agree_with_solving_each_position(explorer, horizon, monkeypatch):
    board = load_board(SEED)
    position = _position(board, explorer)
    fast, slow = _both_ways(board, position, horizon, monkeypatch)
    assert fast == slow


@pytest.mark.slow
def test_generated_board_agrees(monkeypatch):
    # The plies of the forced win come from the independent explicit-state search
    # (reference/game.py), not from the solver: 21 on this board when last run.
    board = load_board(ROOT / "boards" / "generated" / "mummy-maze-2007-prose-8x8-s1-4.yaml")
    start = initial_position(board)
    expected = reference.reference_answer(board, "explorer", "value", start)
    assert expected["win"]
    fast, slow = _both_ways(board, start, None, monkeypatch)
    assert fast == slow and fast.plies == expected["win_plies"]
