"""`gridsolve play` with secret obstacles: placements typed by humans or chosen by the computer,
and a computer opponent that decides from its own knowledge (it does not peek)."""
from __future__ import annotations

import random
import re
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from gridsolve.play import blind
from gridsolve.cli import main
from gridsolve.errors import QueryError
from gridsolve.language.loader import load_board
from gridsolve.language.position import initial_position
from gridsolve.play.placement import choose_placement, hurt, parse_cells

ROOT = Path(__file__).resolve().parent.parent
SECRET = ROOT / "boards" / "maze-runner-duel-secret.yaml"
EXAMPLE = ROOT / "tests" / "data" / "maze-runner-duel-example.yaml"


def play(board, *args, stdin=""):
    return CliRunner().invoke(main, ["play", str(board), *args], input=stdin)


@pytest.fixture(scope="module")
def secret():
    return load_board(SECRET)


@pytest.mark.parametrize("text, message", [
    ("3,2 4,3", "expected 3 cells as X,Y separated by spaces"),
    ("3,2 4,3 3,2", "a cell is given twice. Give 3 different cells."),
    ("3,2 4,3 3,3", "(3,3) is not allowed. P1_obstacle may not go on the cells of p1, p2, center."),
    ("3,2 4,3 9,1", "(9,1) is not a free cell of the 5x5 board"),
    ("three cells", "expected 3 cells"),
])
def test_placement_is_validated(secret, text, message):
    with pytest.raises(QueryError) as error:
        parse_cells(text, secret, "p1_obstacle", 3)
    assert str(error.value).startswith(message)


def test_placement_typed_again_until_valid_and_never_shown_to_the_other_player():
    result = play(SECRET, "--as", "p1", "--as", "p2", stdin="1,5 2,2 3,1\n3,2 4,3 4,2\n2,4 4,4 1,3\nquit\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Not placed: (1,5) is not allowed. P1_obstacle may not go on the cells of p1, p2, center." in out
    assert out.count("-- Pass the keyboard on; do not look back. --") == 2
    assert "3,2" not in out and "(3,2)" not in out          # the cells are not echoed
    rows = [line for line in out.split("do not look back. --\n")[2].split("P1's turn")[0].splitlines() if "|" in line]
    assert len(rows) == 5 and not any(" P " in row or " p " in row for row in rows)   # both sets hidden


def test_computer_placement_is_seeded_and_hurts(secret):
    first = choose_placement(secret, "p2_obstacle", 3, random.Random(5))
    assert first == choose_placement(secret, "p2_obstacle", 3, random.Random(5))
    extra, cut = hurt(secret, "p2_obstacle", first)
    # the best placement walls player 1's corner in: it can never reach the center
    assert {(2, 5), (1, 4)} <= first and extra > 900 and cut == 1.0
    assert hurt(secret, "p2_obstacle", frozenset({(5, 5), (5, 4), (4, 5)})) < (extra, cut)


def test_blind_choice_uses_only_what_the_computer_knows(secret):
    # Two boards that differ only in where p1 hid its obstacles: p2's decision is the same.
    start = replace(initial_position(secret), side=1, step=2)
    known = blind.Blind({(5, 1)}, set())
    choices = []
    for cells in ({(3, 2), (4, 3), (4, 2)}, {(1, 1), (2, 1), (1, 2)}):
        board = replace(secret, marks={**secret.marks, "p1_obstacle": frozenset(cells),
                                       "p2_obstacle": frozenset({(2, 5), (1, 4), (3, 5)})}, unplaced={})
        choices.append(blind.choose(board, "p2", start, known, random.Random(1)))
    assert choices[0].move == choices[1].move and choices[0].shares == choices[1].shares
    assert choices[0].possible == 1540 and choices[0].solved == blind.SAMPLES


@pytest.mark.slow
def test_scripted_game_computer_never_bumps_twice_into_an_obstacle_it_found():
    # The human (p1) hides its obstacles at (3,2), (4,3) and (4,2): on every shortest way of
    # p2 from (5,1) to the center.  The computer, deciding to the step limit, finds its way
    # around them and never walks into an obstacle it has found.
    moves = "\n".join(["east", "east", "south", "south", "west", "east"] * 4)
    result = play(SECRET, "--as", "p1", "--seed", "1", stdin=f"3,2 4,3 4,2\n{moves}\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "(p2 decides from what it knows: " in out
    assert "p2 has placed its 3 p2_obstacle cells in secret." in out
    found = set()
    for part in out.split("P2's turn")[1:]:
        part = part.split("P1's turn")[0]
        bump = re.search(r"Attempted to move to \((\d),(\d)\)\nEncountered an obstacle!", part)
        if bump:
            assert bump.groups() not in found, out
            found.add(bump.groups())


def test_scripted_issue_game_the_computer_tries_north():
    """The issue's game: the human (p1) hides (4,1), (5,2) and (1,1), walling the computer's
    corner in.  The computer bumps west into (4,1) once; then it tries north (untried, the only
    move that can still bring it nearer the center) instead of bumping into (4,1) again."""
    result = play(SECRET, "--as", "p1", "--seed", "3", stdin="4,1 5,2 1,1\neast\neast\nquit\n")
    assert result.exit_code == 0, result.output
    turns = result.output.split("P2's turn")[1:]
    assert "p2 plays: west" in turns[0] and "Attempted to move to (4,1)" in turns[0]
    assert "p2 plays: north" in turns[1], result.output
    assert "not into the obstacle it found at (4,1)" in turns[1]
    assert "within 37 plies" in turns[1] and "each solved 37 plies ahead" in turns[1]


def test_hint_gives_the_robust_answer_and_the_shares():
    result = play(SECRET, "--as", "p1", "--seed", "3", stdin="4,1 5,2 1,1\nhint\neast\nhint\nquit\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "  robust value for p1: 50 within 40 plies (robust survival, whatever the others hid)\n" in out
    assert ("  1540 placements you cannot rule out; 60 of them drawn at random solved with full information, "
            "40 plies ahead\n") in out
    # after bumping into (2,5): east is shown as a bump into the obstacle found
    assert "(bumps into the obstacle you found at (2,5))" in out
    east = next(line for line in out.splitlines() if line.startswith("  east ") and "bumps into" in line)
    assert "robust value   50  plies -" in east


@pytest.mark.slow
def test_placement_advice_groups_by_robust_value(secret):
    from gridsolve.play.advice import format_advice, placement_advice
    advice = placement_advice(secret, "p1", sample=4, every=False)     # the path of games solved one placement at a time
    assert advice.possible == 1540 and len(advice.placed) + len(advice.unsettled) == 4
    groups = advice.groups()
    assert [v for v, _ in groups] == sorted({p.answer.value for p in advice.placed}, reverse=True)
    # the two most hurtful placements wall player 2's corner in: a robust draw (50)
    walled = [p for p in advice.placed if p.kind.startswith("walls the other in")]
    assert walled and all(p.answer.value == 50 for p in walled)
    text = format_advice(advice)
    assert text.startswith("Placement advice for p1 (p1_obstacle)") and "4 of 1540 placements tried" in text


def test_placement_advice_needs_hidden():
    result = CliRunner().invoke(main, ["solve", str(SECRET), "--role", "p1", "--placement"])
    assert result.exit_code == 2 and "--placement answers the robust question: it needs --hidden" in result.stderr
