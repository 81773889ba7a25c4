"""The seed answers the quick tests pin (tests/seed_answers.py), derived by reference/game.py."""
from __future__ import annotations

from dataclasses import replace

import pytest

from reference import game as reference
import seed_answers as facts
from gridsolve.language.loader import load_board
from gridsolve.language.position import initial_position

pytestmark = pytest.mark.slow


def test_the_mummy_of_the_2007_seed_forces_a_capture_in_20_plies():
    board = load_board(facts.SEED_2007)
    start = initial_position(board)
    win = reference.reference_answer(board, "mummy", "win", start)
    assert (win["value"], win["value_plies"], win["win"], win["win_plies"]) == facts.MUMMY_2007_WIN
    within = reference.reference_answer(board, "mummy", "value", start, horizon=30)
    assert (within["value"], within["plies"]) == facts.MUMMY_2007_WITHIN_30


def test_the_explorer_of_the_gdl_seed_and_its_moves():
    board = load_board(facts.SEED_GDL)
    answer = reference.reference_answer(board, "explorer", "value", initial_position(board))
    assert (answer["value"], answer["remaining"]) == (facts.EXPLORER_GDL_VALUE, facts.EXPLORER_GDL_REMAINING)
    assert {move: (v[0], v[1]) for move, v in answer["moves"].items()} == facts.EXPLORER_GDL_MOVES


def test_the_explorer_of_the_gdl_seed_escapes_from_8_4():
    board = load_board(facts.SEED_GDL)
    start = initial_position(board)
    position = replace(start, pieces=tuple((r, facts.EXPLORER_GDL_8_4 if r == "explorer" else c)
                                           for r, c in start.pieces))
    answer = reference.reference_answer(board, "explorer", "win", position)
    assert answer["win"] and answer["win_plies"] == facts.EXPLORER_GDL_8_4_WIN_PLIES
    after = reference.legal_moves(board, position)
    winning = {after[move].pieces for move, (_, _, win, _) in answer["moves"].items() if win}
    assert len(winning) == facts.EXPLORER_GDL_8_4_WINNING_FIRST_POSITIONS
