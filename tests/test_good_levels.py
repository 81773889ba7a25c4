"""Good levels: the rule sets' generate: blocks, the value requirement, --metric/--difficulty,
metric expectations in `gridsolve verify`, and packs.  Generated levels are re-solved with the
independent reference search (reference/game.py) in the slow tier."""
from __future__ import annotations

import dataclasses
import textwrap

import pytest
import yaml
from click.testing import CliRunner

from gridsolve.cli import main
from gridsolve.errors import BoardError
from gridsolve.analysis.metrics import DEFAULT_LABELS, METRICS, measure_metrics, why_difficulty
from gridsolve.language import schema
from gridsolve.language.loader import load_board
from gridsolve.language.position import initial_position

from reference import game as reference
from conftest import ROOT

SEEDS = ("mummymaze2p-2007", "mummymaze2p", "pacman3p", "maze-runner-duel", "wallmaze")


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_metric_names_are_defined_once():
    assert tuple(METRICS) == schema.METRIC_NAMES


@pytest.mark.parametrize("seed", SEEDS)
def test_every_seed_game_declares_a_good_level(seed):
    good = load_board(ROOT / "boards" / f"{seed}.yaml").rules.good_level
    assert good is not None and good.why
    assert good.require == "value" or good.good or not good.allow_trivial


def _rules_with(tmp_path, block: str):
    rules = tmp_path / "rules"
    rules.mkdir(exist_ok=True)
    (rules / "custom.yaml").write_text("name: custom\nuse: mummy-maze-2007\ngenerate:\n"
                                       + textwrap.indent(textwrap.dedent(block), "  "))
    board = tmp_path / "board.yaml"
    board.write_text("rules: custom\nsize: [3, 3]\npieces: {explorer: [1, 1], mummy: [3, 3]}\n"
                     "marks: {exit: [[1, 3]]}\n")
    return board


@pytest.mark.parametrize("block, message", [
    ("good: {pathsafety: {max: 0.5}}", "unknown key 'pathsafety'"),
    ("good: {path_safety: {max: 1.5}}", "a share lies between 0 and 1"),
    ("good: {path_safety: {min: 0.8, max: 0.5}}", "the range 0.8..0.5 is empty"),
    ("plies: {}", "an empty range"),
    ("require: value", "needs a value range"),
    ("value: {min: 2}", "applies to require: value"),
    ("require: survive\nplies: {min: 3}", "plies does not apply"),
    ("keep: [ghost]", "'ghost' is neither a piece nor a mark"),
    ("role: ghost", "ghost"),
    ("require: draw", "'draw' is not one of"),
    ("border: [door]", "'door' is not a mark of these rules"),
    ("labels: {easy: {hints: {max: 3}}}", "generate.labels.medium: no range"),
    ("labels: {easy: {greedy_win: {min: 1.5}}, medium: {hints: {max: 9}}}", "a share lies between 0 and 1"),
])
def test_a_bad_generate_block_is_a_clear_error_with_file_and_line(tmp_path, block, message):
    board = _rules_with(tmp_path, block)
    with pytest.raises(BoardError) as error:
        load_board(board)
    assert message in str(error.value)
    assert error.value.path.endswith("custom.yaml") and error.value.line is not None


@pytest.mark.parametrize("rules, defaults, border", [
    ("mummy-maze-classic", True, {"exit"}), ("mummy-maze-classic-red", True, {"exit"}),
    ("mummy-maze-classic", False, set()), ("mummy-maze-2007", True, set())])
def test_rules_place_the_marks_of_the_rule_sets_border_on_the_border(tmp_path, rules, defaults, border):
    from gridsolve.generate.genspec import game_spec
    from gridsolve.generate.request import request_from_options, with_border
    request = request_from_options(rules=rules, size="6x6", out=tmp_path, defaults=defaults)
    spec = with_border(game_spec(rules, None, (6, 6), tmp_path, None), request)
    assert set(spec.border_marks) == border


@pytest.mark.slow
def test_a_rule_sets_border_holds_on_the_levels_it_writes_and_like_follows_its_board(tmp_path):
    from gridsolve.generate.generate import generate
    from gridsolve.generate.request import request_from_options
    report = generate(request_from_options(rules="mummy-maze-classic", size="5x5", out=tmp_path / "rules",
                                           count=3, seed=4, timeout=120))
    assert report.error is None and len(report.boards) == 3
    for written in report.boards:
        board = load_board(written.path)
        assert all(x in (1, 5) or y in (1, 5) for x, y in board.marks["exit"])
        assert "--no-defaults" not in written.path.read_text()
    like = tmp_path / "inside.yaml"         # an exit inside the --like board may be placed anywhere
    like.write_text("rules: mummy-maze-classic\nsize: [5, 5]\npieces: {explorer: [1, 1], mummy: [5, 5]}\n"
                    "marks: {exit: [[3, 3]]}\n")
    from gridsolve.generate.genspec import game_spec
    from gridsolve.generate.request import with_border
    assert not with_border(game_spec(None, like, None, tmp_path, None),
                           request_from_options(like=like, out=tmp_path)).border_marks


def test_a_rule_set_that_uses_another_inherits_its_good_level():
    prose_base = load_board(ROOT / "boards" / "mummymaze2p-2007.yaml").rules.good_level
    assert not prose_base.allow_trivial and prose_base.plies == (12, None)


@pytest.mark.parametrize("args, message", [
    (("--require", "value"), "--require value needs --value A..B"),
    (("--value", "3..5"), "--value applies to --require value"),
    (("--require", "value", "--value", "3..5", "--plies", "4"), "--plies does not apply to --require value"),
    (("--metric", "speed", "1..2"), "--metric speed: unknown metric"),
    (("--metric", "path_safety", "x"), "expected a range"),
    (("--metric", "path_safety", "0.9..0.1"), "the range is empty"),
    (("--require", "survive", "--difficulty", "hard"), "measure a won level"),
])
def test_invalid_value_and_metric_requests_exit_2(tmp_path, args, message):
    result = run("generate", "--rules", "mummy-maze-2007", "--size", "4x4", *args, "--out", tmp_path)
    assert result.exit_code == 2, result.output
    assert message in result.output


def _won_board(tmp_path, extra: str = ""):
    path = tmp_path / "won.yaml"
    path.write_text("rules: mummy-maze-2007\nsize: [3, 1]\npieces: {explorer: [1, 1], mummy: [3, 1]}\n"
                    "marks: {exit: [[2, 1]]}\nexpect:\n  - win: true\n    plies: 1\n" + extra)
    return path


def test_verify_checks_metric_expectations_exactly_and_by_range(tmp_path):
    good = _won_board(tmp_path, "    path_safety: 0.5\n    forced_moves: {min: 1}\n    dead_ends: 0.75\n"
                                "    random_win: 0.5\n    optimal_lines: 1\n")
    assert run("verify", good).exit_code == 0, run("verify", good).output
    bad = _won_board(tmp_path, "    path_safety: 0.6\n")
    result = run("verify", bad)
    assert result.exit_code != 0
    assert "path_safety" in result.output and "0.5" in result.output


def test_a_metric_expectation_where_metrics_are_undefined_is_refused(tmp_path):
    path = tmp_path / "wall.yaml"
    text = (ROOT / "boards" / "wallmaze.yaml").read_text().split("expect:")[0]
    path.write_text(text + "expect:\n  - role: white\n    horizon: 4\n    path_safety: 0.5\n")
    result = run("verify", path)
    assert result.exit_code != 0
    assert "path_safety is not defined here" in result.output


@pytest.mark.slow
def test_require_value_writes_levels_whose_value_is_in_the_band(tmp_path):
    # --rules places one pellet: pacman guarantees it (score 2) within 6 plies
    result = run("generate", "--rules", "pacman-3p", "--size", "4x4", "--require", "value", "--value", "2..2",
                 "--horizon", "6", "--walls", "0..6", "--count", "2", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    for path in sorted(tmp_path.glob("*-[0-9].yaml")):
        expect = yaml.safe_load(path.read_text())["expect"][0]
        assert expect["value"] == 2 and expect["horizon"] == 6
    assert run("verify", tmp_path).exit_code == 0


@pytest.mark.slow
def test_metric_requirements_hold_on_the_written_levels_and_make_a_pack(tmp_path):
    result = run("generate", "--rules", "mummy-maze-2007", "--size", "5x5", "--allow-trivial", "--plies", "3..",
                 "--metric", "path_safety", "..0.8", "--metric", "dead_ends", "0.3..", "--count", "3",
                 "--out", tmp_path)
    assert result.exit_code == 0, result.output
    levels = sorted(tmp_path.glob("*-[0-9].yaml"))
    assert len(levels) == 3
    for path in levels:
        expect = yaml.safe_load(path.read_text())["expect"][0]
        assert expect["path_safety"] <= 0.8 and expect["dead_ends"] >= 0.3
        assert "# Difficulty " in path.read_text()
    index = next(tmp_path.glob("*-index.md")).read_text()
    assert index.count(".yaml](") == 3
    rows = [[cell.strip() for cell in line.split("|")] for line in index.splitlines() if ".yaml](" in line]
    head = [cell.strip() for cell in index.splitlines()[4].split("|")]
    labels = [("easy", "medium", "hard").index(row[head.index("difficulty")]) for row in rows]
    assert labels == sorted(labels)                          # easiest first
    assert next(tmp_path.glob("*-curve.svg")).read_text().startswith("<svg")
    assert run("verify", tmp_path).exit_code == 0


@pytest.mark.slow
@pytest.mark.parametrize("seed", ["maze-runner-duel", "mummymaze2p-2007"])
def test_default_levels_pass_verify_and_the_reference_search(tmp_path, seed):
    """The default command writes levels of the rule set's good level; each is re-solved by the
    independent reference search and its expect block passes `gridsolve verify`."""
    result = run("generate", "--like", ROOT / "boards" / f"{seed}.yaml", "--count", "2", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    levels = sorted(tmp_path.glob("*-[0-9].yaml"))
    assert len(levels) == 2
    good = load_board(levels[0]).rules.good_level
    for path in levels:
        board = load_board(path)
        expect = yaml.safe_load(path.read_text())["expect"][0]
        role = expect.get("role", board.rules.roles[0])
        want = reference.reference_answer(board, role, "win", initial_position(board), expect.get("horizon"))
        assert want["win"] and want["win_plies"] == expect["plies"]
        for name, low, high in good.good:
            assert (low is None or expect[name] >= low) and (high is None or expect[name] <= high)
    assert run("verify", tmp_path).exit_code == 0


# - Difficulty labels: the rule set's, else the default ---

@pytest.mark.parametrize("label", ["easy", "medium", "hard"])
def test_the_default_labels_still_label_the_shipped_difficulty_levels(label):
    board = load_board(ROOT / "boards" / "generated" / f"difficulty-{label}.yaml")
    metrics = measure_metrics(board, "explorer", initial_position(board))
    assert metrics.labels == DEFAULT_LABELS and metrics.difficulty == label


def test_classic_levels_are_labelled_by_the_hints_their_rule_set_names():
    board = load_board(ROOT / "boards" / "classic" / "ten-by-ten.yaml")
    metrics = measure_metrics(board, "explorer", initial_position(board))
    assert metrics.labels == (("easy", (("hints", None, 3),)), ("medium", (("hints", None, 10),)))
    assert metrics.labels == load_board(ROOT / "boards" / "classic" / "red-ten.yaml").rules.good_level.labels
    for hints, label in ((0, "easy"), (3, "easy"), (4, "medium"), (10, "medium"), (11, "hard"), (40, "hard")):
        assert dataclasses.replace(metrics, hints=hints, beeline_wins=False).difficulty == label
    assert dataclasses.replace(metrics, hints=40, beeline_wins=True).difficulty == "easy"
    assert metrics.difficulty == ("easy" if metrics.hints <= 3 else "medium" if metrics.hints <= 10 else "hard")
    assert "would not make (easy: hints at most 3; medium: hints at most 10)" in why_difficulty(metrics)
