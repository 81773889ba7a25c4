"""Counts in the messages are singular for one (gridsolve/language/wording.py): "1 ply",
"2 plies", "1 move", in the answers `solve` and `play` print."""
from __future__ import annotations

from click.testing import CliRunner

from gridsolve.cli import main
from gridsolve.language.wording import counted, moves, plies

from test_play import CAUGHT     # E . . M X under the classic rules: caught in one ply


def test_a_count_of_one_is_singular():
    assert [plies(n) for n in (0, 1, 2, 20)] == ["0 plies", "1 ply", "2 plies", "20 plies"]
    assert [moves(n) for n in (0, 1, 3)] == ["0 moves", "1 move", "3 moves"]
    assert (counted(1, "turn"), counted(2, "placement")) == ("1 turn", "2 placements")


def test_solve_says_the_game_ends_in_one_ply(board_file):
    result = CliRunner().invoke(main, ["solve", str(board_file(CAUGHT))])
    assert result.exit_code == 0, result.output
    assert "value for explorer: 0 with no step limit, the game ends in 1 ply\n" in result.output
    assert "cannot be won: every line ends in a loss (explorer can hold out for at most 1 move)\n" in result.output
    result = CliRunner().invoke(main, ["solve", str(board_file(CAUGHT)), "--query", "survive", "--horizon", "1"])
    assert "explorer can survive within 1 ply: no, the others force a losing end in 1 ply\n" in result.output
