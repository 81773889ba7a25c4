"""`gridsolve play`, driven from standard input as a script would."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from gridsolve.cli import main

import seed_answers
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


# One player (classic Mummy Maze: the mummies chase by rule): the game is won or lost, no draw.
GATE = """\
name: Gate
rules: mummy-maze-classic
legend: {E: explorer, X: exit, K: key}
map: |
  +---+---+---+
  | E   K : X |
  +---+---+---+
"""
CAUGHT = """\
name: Caught
rules: mummy-maze-classic
legend: {E: explorer, M: mummy, X: exit}
map: |
  +---+---+---+---+
  | E       M   X |
  +---+---+---+---+
"""
SHUT_IN = """\
name: Shut in
rules:
  use: mummy-maze-classic
  steps: {first: 1, last: 3}
legend: {E: explorer, X: exit}
map: |
  +---+---+---+
  | E |       |
  +---+   +   +
  |         X |
  +---+---+---+
"""


def test_one_player_escapes_through_the_gate_the_key_opened(board_file):
    result = play(board_file(GATE), stdin="east\neast\n")
    assert result.exit_code == 0, result.output
    assert "Moved to (2,1)\nThe gate is open.\n" in result.output
    assert result.output.rstrip().endswith("Game over after 2 plies: escaped.\nScore: explorer 100\nExplorer wins!")


def test_one_player_caught_in_one_ply_loses(board_file):
    result = play(board_file(CAUGHT), stdin="hint\neast\n")
    assert result.exit_code == 0, result.output
    assert "(explorer can hold out for at most 1 move)" in result.output
    assert result.output.rstrip().endswith("Game over after 1 ply: caught.\nScore: explorer 0\nExplorer loses.")


def test_one_player_at_the_step_limit_scores_what_the_timeout_gives(board_file):
    result = play(board_file(SHUT_IN), stdin="hint\nnowhere\nnowhere\n")
    assert result.exit_code == 0, result.output
    assert "  value for explorer: 50 within 2 plies\n" in result.output
    assert result.output.rstrip().endswith("Game over after 2 plies: timeout.\nScore: explorer 50\n"
                                           "Explorer scores 50 of a possible 100.")


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


# - The seed boards ---

ROOT = Path(__file__).resolve().parent.parent
BOARDS = ROOT / "boards"
EXAMPLE = Path(__file__).resolve().parent / "data" / "maze-runner-duel-example.yaml"


def test_maze_runner_duel_rule_book_example_between_humans():
    # The rule book's nine turns, in its own words (up/down/left/right), on the example board.
    moves = ["right", "left", "down", "up", "up", "right", "down", "up", "board", "down"]
    result = play(EXAMPLE, "--as", "p1", "--as", "p2", stdin="\n".join(moves) + "\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert ("P1's turn (step 3):\nCurrent position: (2,5)\n"
            "Available moves: east (3,5), south (2,4), west (1,5)\n"
            "Enter move (or hint, board, quit): \n"
            "Attempted to move to (2,4)\n"
            "Encountered an obstacle! You remain at (2,5) and lose your next turn.\n") in out
    assert "P2's turn (step 5) (p1 lost a turn):\nCurrent position: (4,2)\n" in out
    assert "P1's turn (step 7) (p2 lost a turn):\nCurrent position: (3,5)\n" in out
    assert out.count("Encountered an obstacle!") == 3
    assert out.rstrip().endswith("Game over after 9 plies: p1_reaches_center.\nScores: p1 100, p2 0\nP1 wins!")


def test_maze_runner_duel_hides_the_obstacles_a_player_has_not_found():
    # Two humans: the first drawing hides every obstacle (each player's are secret from the
    # other).  p1 bumps on p2's obstacle at (2,4); p1's own view then shows its own obstacles
    # (P) and that one (p), not p2's others at (2,2) and (4,3).
    result = play(EXAMPLE, "--as", "p1", "--as", "p2", stdin="right\nleft\ndown\nup\nup\nboard\nquit\n")
    assert result.exit_code == 0, result.output
    first, _, later = result.output.partition("P1's turn (step 6)")
    assert "\n".join(first.splitlines()[2:9]) == "\n".join([
        " 5 | 1                 |", "   +   +   +   +   +   +",
        " 4 |                   |", "   +   +   +   +   +   +",
        " 3 |         C         |", "   +   +   +   +   +   +",
        " 2 |                   |"])
    assert ("\n 5 |     1             |\n   +   +   +   +   +   +\n"
            " 4 |     p   P         |\n   +   +   +   +   +   +\n"
            " 3 |     P   C   P     |\n   +   +   +   +   +   +\n"
            " 2 |         P   2     |\n") in later


def test_wallmaze_simultaneous_moves_collide_between_humans():
    result = play(BOARDS / "wallmaze.yaml", "--as", "white", "--as", "black", "--at", "white=6,5",
                  "--at", "black=8,5", stdin="east\nwest\nquit\n")
    assert result.exit_code == 0, result.output
    assert ("White and black's turn (step 1):\nCurrent positions: white (6,5), black (8,5)\n"
            "Available moves of white: east (7,5), nowhere (6,5), west (5,5)\n"
            "Enter white's move (or hint, board, quit): \n"
            "Available moves of black: east (9,5), nowhere (8,5), west (7,5)\n"
            "Enter black's move (or hint, board, quit): \n"
            "white: Collision at (7,5) with black: nobody moves\n") in result.output
    assert "White and black's turn (step 2):\nCurrent positions: white (6,5), black (8,5)\n" in result.output


@pytest.mark.slow
def test_wallmaze_solver_commits_without_seeing_white_and_arrives_together():
    # Black's best move is west whatever white does: arriving together (50) beats arriving second.
    result = play(BOARDS / "wallmaze.yaml", "--horizon", "2", "--at", "white=11,5", "--at", "black=3,5",
                  stdin="hint\neast\n")
    assert result.exit_code == 0, result.output
    assert "  value for white: 50 within 2 plies\n  east           value   50  plies 1\n" in result.output
    assert "black plays: west\nwhite: Moved to (12,5)\nblack: Moved to (2,5)\n" in result.output
    assert result.output.rstrip().endswith("Game over after 1 ply: together.\nScores: white 50, black 50\nA draw.")


def test_pacman_capture_by_inky_between_humans():
    moves = ["east", "west", "east", "north", "east", "south", "north"]
    result = play(BOARDS / "pacman3p.yaml", "--as", "pacman", "--as", "blinky", "--as", "inky",
                  stdin="\n".join(moves) + "\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Blinky and inky's turn (step 2):\nCurrent positions: blinky (4,6), inky (5,6)\n" in out
    assert "pacman takes 1 of the pellets (3 of 33 taken)" in out
    assert out.rstrip().endswith("Game over after 5 plies: caught_by_inky.\n"
                                 "Scores: pacman 6, blinky 0, inky 100\nInky wins!")


@pytest.mark.slow
def test_pacman_against_the_ghost_team():
    result = play(BOARDS / "pacman3p.yaml", "--horizon", "2", stdin="west\nquit\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Moved to (4,3)\npacman takes 1 of the pellets (1 of 33 taken)\n" in out
    ghosts = out.split("Blinky and inky's turn (step 2):\n")[1]
    assert ghosts.startswith("Current positions: blinky (4,6), inky (5,6)\nblinky plays: ")
    assert "\ninky plays: " in ghosts and "Pacman's turn (step 3):" in ghosts


def test_mummy_maze_seed_board_hint():
    """The hint lists every move of the explorer with the values and plies the reference gives
    (tests/seed_answers.py)."""
    result = play(seed_answers.SEED_GDL, stdin="hint\nquit\n")
    assert result.exit_code == 0, result.output
    lines = [f"  value for explorer: {seed_answers.EXPLORER_GDL_VALUE} within {seed_answers.EXPLORER_GDL_REMAINING} plies"]
    lines += [f"  {move:<14} value {value:>4}  plies {plies}"
              for move, (value, plies) in sorted(seed_answers.EXPLORER_GDL_MOVES.items())]
    assert "\n".join(lines) + "\n" in result.output
