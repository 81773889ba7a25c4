"""`gridsolve play`, driven from standard input as a script would."""
from __future__ import annotations

from click.testing import CliRunner

from gridsolve.cli import main

from conftest import CORRIDOR



def play(board, *args, stdin=""):
    return CliRunner().invoke(main, ["play", str(board), *args], input=stdin)


def test_human_explorer_escapes_against_the_solver(board_file):
    result = play(board_file(CORRIDOR), stdin="hint\nea\neast\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Explorer's turn (step 1):\nCurrent position: (2,2)\n" in out
    assert "Available moves: east (3,2), nowhere (2,2), west (1,2)" in out
    assert "  east           value  100  plies 2" in out       # the hint
    assert "'ea' is not one of the available moves." not in out   # a unique prefix is accepted
    assert "mummy plays: north nowhere\nMoved to (1,2)" in out
    assert out.rstrip().endswith("Game over after 3 plies: escaped.\nScores: explorer 100, mummy 0\nExplorer wins!")


def test_unknown_move_is_asked_again(board_file):
    result = play(board_file(CORRIDOR), stdin="jump\nquit\n")
    assert "'jump' is not one of the available moves." in result.output
    assert result.exit_code == 0


def test_two_humans(board_file):
    result = play(board_file(CORRIDOR), "--as", "explorer", "--as", "mummy",
                  stdin="nowhere\nnorth east\n")
    assert "Mummy's turn (step 2):" in result.output
    assert result.output.rstrip().endswith("Game over after 2 plies: captured.\nScores: explorer 0, mummy 100\n"
                                           "Mummy wins!")


def test_input_ending_stops_the_game(board_file):
    result = play(board_file(CORRIDOR), stdin="")
    assert result.exit_code == 0 and result.output.rstrip().endswith("Input ended.")


def test_unknown_role_for_as(board_file):
    result = play(board_file(CORRIDOR), "--as", "ghost")
    assert result.exit_code == 2
    assert result.stderr == "Error: --as ghost: unknown role. Roles are: explorer, mummy.\n"
