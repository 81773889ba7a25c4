"""``gridsolve generate`` for rule sets with kinds of enemies (issue 39, item 2e): the levels list
their enemies in an order and leave through an exit edge of the border; each level written loads
again, ``gridsolve verify`` passes on it, the independent reference (reference/game.py) agrees
with ``gridsolve solve`` on it, and the same request writes the same files."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from gridsolve.errors import QueryError
from gridsolve.generate.generate import generate, request_from_options
from gridsolve.generate.genspec import game_spec
from gridsolve.generate.scriptedsearch import Level, ScriptedSearch, cast_of
from gridsolve.language.enemylist import enemies_of, kinds_of
from gridsolve.language.loader import load_board
from gridsolve.verify.verify import verify_paths
from test_combined import reference_says, solve_says

ROOT = Path(__file__).resolve().parent.parent

LIKE = """\
name: Like
rules: mummy-maze-order
legend: {E: explorer, T: trap}
map: |
  +---+---+---+---+---+---+
  | E |                   |
  +   +   +   +   +   +   +
  |                       |
  +   +   +   +   +   +   +
  |             T         |
  +   +   +   +   +   +   +
  |                       |
  +   +   +   +   +   +   +
  |                       |
  +   +   +   +   +   +   +
  |                       |
  +---+---+---+---+---+---+
marks:
  exit: {edge: east, at: 2}
enemies:
  - {kind: red_scorpion, at: [5, 5]}
  - {kind: mummy, at: [2, 1]}
"""


def check_written(report, count: int) -> list:
    """Every level written loads with its enemies listed and its exit on an edge; verify passes
    on it and the reference answers it as gridsolve solve does.  The boards, loaded."""
    assert report.error is None and len(report.boards) == count
    boards = []
    for written in report.boards:
        text = written.path.read_text(encoding="utf-8")
        assert "exit: {edge: " in text and "enemies:\n  - {kind: " in text
        board = load_board(written.path)
        (inside, direction), = board.exits
        assert board.marks["exit"] == {(inside[0] + {"east": 1, "west": -1}.get(direction, 0),
                                        inside[1] + {"north": 1, "south": -1}.get(direction, 0))}
        assert enemies_of(board) and {k for _, k in enemies_of(board)} <= set(kinds_of(board))
        said = solve_says(written.path, "explorer")
        assert said["win"] and said["plies"] == written.expect["win_moves"] >= 12
        assert reference_says(written.path, "explorer") == said
        boards.append(board)
    checked = verify_paths([str(b.path) for b in report.boards])
    assert checked.checks and not checked.failed and not checked.invalid
    return boards


@pytest.mark.slow
def test_levels_like_an_order_board_list_its_enemies_and_leave_by_an_edge(tmp_path):
    like = tmp_path / "like.yaml"
    like.write_text(LIKE, encoding="utf-8")
    report = generate(request_from_options(like=like, out=tmp_path / "levels", count=1, seed=2, timeout=120))
    board, = check_written(report, 1)
    assert Counter(k for _, k in enemies_of(board)) == Counter({"red_scorpion": 1, "mummy": 1})
    assert "legend: {E: explorer, T: trap}" in report.boards[0].path.read_text(encoding="utf-8")


def _rule_set_level(tmp_path, out: str) -> str:
    """The text of the one level ``generate --rules mummy-maze-order --size 6x6 --seed 3`` writes."""
    report = generate(request_from_options(rules="mummy-maze-order", size="6x6", out=tmp_path / out, count=1,
                                           seed=3, timeout=120, jobs=1))
    check_written(report, 1)
    text = report.boards[0].path.read_text(encoding="utf-8")
    assert "\n# Difficulty " in text     # (a label)
    return text


@pytest.mark.slow
def test_the_rule_set_writes_levels_with_its_enemies(tmp_path):
    _rule_set_level(tmp_path, "one")


@pytest.mark.slow      # (the quick tier generates one such level in the test above)
def test_the_rule_set_writes_the_same_levels_for_the_same_seed(tmp_path):
    assert _rule_set_level(tmp_path, "one") == _rule_set_level(tmp_path, "two")


def test_options_the_climb_does_not_serve_are_refused_for_order_rules(tmp_path):
    with pytest.raises(QueryError, match="--symmetry"):
        generate(request_from_options(rules="mummy-maze-order", size="6x6", out=tmp_path / "x", symmetry="mirror"))


def test_a_swap_changes_the_order_and_keeps_each_enemy_on_its_cell(tmp_path):
    like = tmp_path / "like.yaml"
    like.write_text(LIKE, encoding="utf-8")
    spec = game_spec(None, like, None, tmp_path, None)
    cast = cast_of(spec)
    assert cast.pieces == ("explorer",) and cast.enemies == ("red_scorpion", "mummy") and cast.edge_marks == {"exit"}
    search = ScriptedSearch(spec, cast, (0, 60), (12, None), False, 1, 1)
    level = Level(frozenset(), frozenset(), frozenset(), (("exit", ((7, 2),)),),
                  (("explorer", (1, 6)), ("red_scorpion1", (5, 5)), ("mummy2", (2, 1))), ("red_scorpion", "mummy"))
    swapped = search._swapped(level)
    assert swapped.enemies == ("mummy", "red_scorpion")
    assert swapped.pieces == (("explorer", (1, 6)), ("mummy1", (2, 1)), ("red_scorpion2", (5, 5)))
    board = swapped.board(spec.template)
    assert enemies_of(board) == [("mummy1", "mummy"), ("red_scorpion2", "red_scorpion")]
    assert board.exits == {((6, 2), "east")} and list(board.rules.chasers) == ["mummy1", "red_scorpion2"]
    assert all(c in search.outside for c in search._marks(())[0][1])      # the exit drawn on an edge
