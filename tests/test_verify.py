"""`gridsolve verify` and `gridsolve schema`: expect blocks, reports, exit codes, --update."""
from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import jsonschema                   # a test dependency (pyproject.toml: test): never skipped
import pytest
import yaml
from click.testing import CliRunner

from gridsolve.analysis.beeline import _Game, check_beeline
from gridsolve.generate.scriptedlevel import LevelTables
from gridsolve.cli import main
from gridsolve.solve.program.explore import examine
from gridsolve.verify.expect import Range, load_expectations
from gridsolve.language.loader import load_board
from gridsolve.language.position import Position, make_position
from gridsolve.verify.update import Change, rewrite, updated_value
from gridsolve.language.yamlsrc import load_text, number_text

from conftest import CORRIDOR as BASE_CORRIDOR, ROOT

BOARDS = ROOT / "boards"

CORRIDOR = BASE_CORRIDOR + "expect:\n  - win: true\n"

# The same corridor broken on purpose: a wall closes the exit off.
WALLED = CORRIDOR.replace("|     E       X |", "|     E     | X |").replace("+   +---+---+   +",
                                                                          "+   +---+---+---+")

# Blocked steps stay put (mummy-maze-gdl): from (1,2) west, north, south and nowhere all stay.
LEDGE = """\
name: Ledge
rules: mummy-maze-gdl
legend: {E: explorer, M: mummy, X: exit}
map: |
  +---+---+---+---+---+---+
  | E               X |   |
  +---+---+---+---+---+   +
  |                     M |
  +---+---+---+---+---+---+
"""

COMMENTED = """\
# A designer's board, with comments everywhere.
name: Corridor   # the first level
rules: mummy-maze-2007
legend: {E: explorer, M: mummy, X: exit}
map: |
  +---+---+---+---+
  |     E       X |
  +   +---+---+   +
  | M             |
  +---+---+---+---+

expect:
  # the explorer escapes
  - win:   true        # must stay winnable
    plies: 5           # was 5 before the last change
    winning_first_moves: {min: 2, max: 4}   # a little choice
    survive: true
  - role: mummy
    value: 100         # wrong on purpose
    plies: {min: 1}
"""


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def write(folder, name, text):
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def rows(output: str) -> list[list[str]]:
    """The table of a text report, each row split into its columns."""
    lines = output.split("\n\n")[0].splitlines()[1:]
    return [[cell.strip() for cell in line.split("  ") if cell.strip()] for line in lines]


# - Failing, invalid and timed-out boards; the report formats ---

def test_a_board_broken_on_purpose_fails_and_junit_names_it(tmp_path):
    path = write(tmp_path, "walled.yaml", WALLED)
    result = run("verify", path)
    assert result.exit_code == 1, result.output
    assert [path.as_posix(), "explorer win", "true", "false"] in [row[:4] for row in rows(result.stdout)]
    assert f"{path}:11: explorer win: expected win: true, measured false (value 0, forced in 4 plies)" \
        in result.stdout.splitlines()
    junit = run("verify", path, "--format", "junit")
    assert junit.exit_code == 1
    suites = ET.fromstring(junit.stdout)
    assert suites.get("tests") == "2" and suites.get("failures") == "1"
    (suite,) = suites.findall("testsuite")
    assert suite.get("name") == str(path)
    cases = {case.get("name"): case for case in suite.findall("testcase")}
    assert set(cases) == {"schema", "explorer win"}
    assert all(case.get("classname") == str(path) for case in cases.values())
    assert cases["schema"].find("failure") is None
    failure = cases["explorer win"].find("failure")
    assert failure.get("message") == "expected win: true, measured false (value 0, forced in 4 plies)"
    assert failure.text == f"{path}:11: expected win: true, measured false (value 0, forced in 4 plies)"
    assert cases["explorer win"].get("line") == "11"


def test_an_invalid_file_exits_2_with_file_and_line_and_the_others_are_still_checked(tmp_path):
    bad = write(tmp_path, "levels/a_bad.yaml", "rules: [unclosed\nsize: [3, 1]\n")
    good = write(tmp_path, "levels/b_good.yaml", CORRIDOR)
    write(tmp_path, "levels/notes.yaml", "title: not a board\n")          # no top-level rules: skipped
    result = run("verify", tmp_path / "levels")
    assert result.exit_code == 2, result.output
    assert result.stderr == (f"Error: {bad}:2: invalid YAML: expected ',' or ']', but got ':'. "
                             "Check the indentation and quoting on this line.\n")
    table = rows(result.stdout)
    assert [row[0] for row in table] == [str(bad), str(good), str(good)]
    assert table[0][1:] == ["schema", "valid", "invalid", table[0][4], "error"]
    assert table[2][1:4] == ["explorer win", "true", "true"] and table[2][-1] == "pass"
    assert result.stdout.splitlines()[-1].startswith("3 checks on 2 boards: 2 passed, 1 error (")


def test_invalid_beats_failed(tmp_path):
    write(tmp_path, "bad.yaml", "rules: mummy-maze-2007\nmapp: x\n")
    write(tmp_path, "walled.yaml", WALLED)
    result = run("verify", tmp_path)
    assert result.exit_code == 2
    assert result.stderr == f"Error: {tmp_path / 'bad.yaml'}:2: unknown key 'mapp'. Did you mean 'map'?\n"
    assert "explorer win: expected win: true, measured false" in result.stdout


def test_github_annotations_point_at_the_expectation(tmp_path):
    path = write(tmp_path, "walled.yaml", WALLED + "  - role: mummy\n    value: 50\n    win: true\n")
    result = run("verify", path, "--format", "github")
    assert result.exit_code == 1
    annotations = [line for line in result.stdout.splitlines() if line.startswith("::")]
    assert annotations == [
        f"::error file={path},line=11::explorer win: expected win: true, measured false "
        "(value 0, forced in 4 plies)",
        f"::error file={path},line=13::mummy value: expected value: 50, measured 100 "
        "(value 100, forced in 4 plies)",
    ]
    lines = path.read_text().splitlines()
    assert lines[10] == "  - win: true" and lines[12] == "    value: 50"


@pytest.mark.slow
def test_a_board_that_runs_out_of_time_is_a_failure_and_the_run_goes_on(tmp_path):
    # The behaviour is the timeout: the value over the whole game on an open 12x12 Wallmaze (its
    # layered table grounds 442,603 moves: about 20 s) against --timeout 1, a generous margin,
    # then a corridor (a few ms) that still gets checked.
    slow = write(tmp_path, "a_slow.yaml", "name: open wallmaze\nrules: wallmaze\nsize: [12, 12]\n"
                 "pieces: {white: [1, 1], black: [12, 12]}\nmarks: {white_goal: [[12, 12]], black_goal: [[1, 1]]}\n"
                 "expect:\n  - role: white\n    value: 0\n")
    quick = write(tmp_path, "b_quick.yaml", CORRIDOR)
    result = run("verify", tmp_path, "--timeout", "1", "--format", "json")
    assert result.exit_code == 1, result.output
    report = json.loads(result.stdout)
    by_path = {board["path"]: board for board in report["boards"]}
    slow_checks = by_path[str(slow)]["checks"]
    assert [(c["check"], c["status"], c["message"]) for c in slow_checks] == [
        ("schema", "pass", ""), ("white value", "timeout", "the board did not finish within 1 s")]
    assert [c["status"] for c in by_path[str(quick)]["checks"]] == ["pass", "pass"]
    assert report["summary"]["timeout"] == 1 and report["summary"]["failed"] is True


def test_json_report(tmp_path):
    path = write(tmp_path, "corridor.yaml", CORRIDOR.replace("  - win: true\n",
                                                             "  - win: true\n    plies: {min: 2, max: 3}\n"))
    result = run("verify", path, "--format", "json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    (board,) = report["boards"]
    assert board["name"] == "Corridor" and board["invalid"] is False
    plies = board["checks"][2]
    assert {k: plies[k] for k in ("check", "key", "line", "expected", "measured", "status")} == {
        "check": "explorer plies", "key": "plies", "line": 12, "expected": {"min": 2, "max": 3},
        "measured": 3, "status": "pass"}


def test_no_boards_and_missing_paths(tmp_path):
    empty = run("verify", tmp_path)
    assert empty.exit_code == 0 and empty.stdout.startswith("no board files found")
    missing = run("verify", tmp_path / "nothere")
    assert missing.exit_code == 2
    assert missing.stderr == (f"Error: {tmp_path / 'nothere'}: no such file or folder. "
                              "Give board files or folders that hold them.\n")


# - The expect block: every mistake with file:line ---

@pytest.mark.parametrize("expect, message", [
    ("  - wim: true\n", "12: expect[0]: unknown key 'wim'. Did you mean 'win'?"),
    ("  - win: yes please\n", "12: expect[0].win: expected true or false, got text"),
    ("  - role: ghost\n    win: true\n", "12: expect[0].role: unknown role 'ghost'. Roles are: explorer, mummy."),
    ("  - at: {ghost: [1, 1]}\n    win: true\n",
     "12: expect[0].at.ghost: unknown piece 'ghost'. The pieces of these rules are: explorer, mummy."),
    ("  - at: {explorer: [9, 1]}\n    win: true\n",
     "12: expect[0].at.explorer: (9,1) is not a free cell of the 4x2 board"),
    ("  - turn: mummy\n    winning_first_moves: 1\n",
     "13: expect[0].winning_first_moves: counts the first moves of explorer, but mummy is to move. "
     "Add 'turn: explorer' or remove winning_first_moves."),
    ("  - plies: {min: 5, max: 3}\n",
     "12: expect[0].plies: the range 5..3 is empty. Min must not be greater than max."),
    ("  - plies: {}\n", "12: expect[0].plies: an empty range. Give min, max or both, e.g. {min: 12, max: 20}."),
    ("  - horizon: 3\n", "12: expect[0]: this expectation checks nothing. Give at least one of: win, survive, "
                         "value, plies, win_moves, winning_first_moves, no_beeline, forced_moves, path_safety, dead_ends, "
                         "greedy_deviation, random_win, greedy_win, lookahead_win, hints, optimal_lines."),
    ("  - step: 60\n    win: true\n", "12: expect[0].step: 60 is outside the game's steps 1..50"),
    ("  win: true\n", "11: expect: expected a list, got a mapping"),
])
def test_expect_block_mistakes(tmp_path, expect, message):
    path = write(tmp_path, "board.yaml", CORRIDOR.split("expect:\n")[0] + "\nexpect:\n" + expect)
    result = run("verify", path)
    assert result.exit_code == 2, result.output
    assert result.stderr == f"Error: {path}:{message}\n"


def test_expectations_are_parsed_with_their_lines(make_board, tmp_path):
    board = make_board(CORRIDOR + "  - role: mummy\n    at: {explorer: [4, 1]}\n    turn: mummy\n"
                                  "    horizon: 6\n    plies: null\n    survive: false\n")
    first, second = load_expectations(board)
    assert (first.role, first.line, [(x.key, x.value, x.line) for x in first.checks]) == \
        ("explorer", 11, [("win", True, 11)])
    assert second.role == "mummy" and second.horizon == 6
    assert second.position == make_position(board, ("explorer=4,1",), "mummy", None)
    assert [(x.key, x.value, x.line) for x in second.checks] == [("plies", None, 16), ("survive", False, 17)]
    assert second.check_name("plies") == "mummy plies at explorer=4,1 turn mummy horizon 6"


# - What is measured ---

def test_plies_of_a_win_are_the_plies_of_the_fastest_forced_win(tmp_path):
    # explorer: escapes in 3 plies; mummy (same position): loses, delaying 3 plies
    path = write(tmp_path, "corridor.yaml", CORRIDOR + "    plies: 3\n    value: 100\n"
                                                       "  - role: mummy\n    win: false\n    plies: 3\n")
    result = run("verify", path)
    assert result.exit_code == 0, result.output


def test_winning_first_moves_count_distinct_positions(tmp_path):
    # east, and four moves that all stay on (1,2): two positions, though five moves win
    path = write(tmp_path, "ledge.yaml", LEDGE + "expect:\n  - win: true\n    winning_first_moves: 1\n")
    result = run("verify", path)
    assert result.exit_code == 1
    assert (f"{path}:12: explorer winning_first_moves: expected winning_first_moves: 1, measured 2 "
            "(winning first moves: east, north, nowhere, south, west, leading to 2 distinct positions)") \
        in result.stdout.splitlines()


def test_beeline(make_board):
    corridor = make_board(CORRIDOR)
    start = make_position(corridor, ())
    won = check_beeline(corridor, "explorer", start, 49)
    assert (won.holds, won.length, won.paths, won.winning) == (False, 2, 1, ("east", "east"))
    assert won.describe("explorer") == ("the shortest path of explorer (2 moves: east, east) wins against "
                                        "every reply")
    # With the mummy beside the path, walking it blindly is caught.
    caught = check_beeline(corridor, "explorer", make_position(corridor, ("mummy=3,1",)), 49)
    assert (caught.holds, caught.length, caught.winning) == (True, 2, None)
    # Out of plies: a horizon of 2 plies cannot fit the 3 plies of the walk.
    assert check_beeline(corridor, "explorer", start, 2).holds is True
    walled = make_board(WALLED, "walled.yaml")
    cut_off = check_beeline(walled, "explorer", make_position(walled, ()), 49)
    assert (cut_off.holds, cut_off.length) == (True, None)
    assert cut_off.describe("explorer") == "explorer cannot reach its goal even if the others stand still"


@pytest.mark.parametrize("by_pieces", [True, False], ids=["moves by cell", "ground where asked"])
@pytest.mark.slow
def test_beeline_game_graph_is_the_compiled_rules(make_board, by_pieces):
    """The positions no_beeline looks up (each role's moves by cell, or the compiled moves
    ground for the positions asked) agree with explore.examine position by position."""
    from gridsolve.compile.compiler import graph_program
    from gridsolve.compile.state import layout_for
    from gridsolve.solve.graph.factored import PieceMoves
    from gridsolve.solve.graph.racegraph import NamedMoves, named_moves
    board = make_board(LEDGE)
    start = make_position(board, ())
    layout = layout_for(board)
    named = named_moves(board, layout) if by_pieces else NamedMoves(graph_program(board, layout, []).moves)
    assert isinstance(named, PieceMoves) == by_pieces
    game = _Game(board, named)
    seen, level = set(), [(start.pieces, start.side)]
    while level and len(seen) < 80:
        game.fetch(level)
        following = []
        for state in level:
            if state in seen:
                continue
            seen.add(state)
            end, moves = game.look(state)
            expected_end, steps = examine(board, Position(state[0], state[1], 0))
            assert end == expected_end
            assert moves == {s.move: (s.position.pieces, s.position.side) for s in steps}
            following += moves.values()
        level = following
    assert len(seen) >= 60


# Classic Mummy Maze (the mummy moves by rule): the explorer on (1,1), the exit on (4,1); the one
# shortest walk is east x3.  The mummy on (4,2) goes west twice after the first step and catches
# him after the second; without the mummy the walk wins (tests/test_classic_generate.py plays the
# same board with the independent reference).
CLASSIC_WALK = """\
rules: mummy-maze-classic
size: [4, 2]
pieces: {explorer: [1, 1]MUMMY}
marks: {exit: [[4, 1]]}
expect:
  - no_beeline: true
"""


@pytest.mark.parametrize("mummy,holds", [(", mummy: [4, 2]", True), ("", False)], ids=["caught", "walks home"])
def test_classic_no_beeline_is_verified_with_the_generators_walks(tmp_path, mummy, holds):
    path = write(tmp_path, "walk.yaml", CLASSIC_WALK.replace("MUMMY", mummy))
    board = load_board(path)
    walks = LevelTables(board)
    assert walks.beeline_wins(walks.start(board.pieces)) is not holds     # the generator's own criterion
    beeline = check_beeline(board, "explorer", make_position(board, ()), 10 ** 6)
    assert beeline.holds is holds
    assert beeline.describe("explorer") == (f"walking the shortest way (3 steps for explorer) "
                                            f"{'does not win' if holds else 'wins'} while the others move by rule")
    result = run("verify", path, "--format", "json")
    assert result.exit_code == (0 if holds else 1), result.output
    checks = {c["check"]: c for c in json.loads(result.stdout)["boards"][0]["checks"]}
    assert checks["explorer no_beeline"]["measured"] is holds


def test_seed_no_beeline_from_a_stated_position():
    result = run("verify", BOARDS / "mummymaze2p-2007.yaml", "--format", "json")
    checks = {c["check"]: c for c in json.loads(result.stdout)["boards"][0]["checks"]}
    assert checks["explorer no_beeline"]["measured"] is True


# - --update ---

def test_update_changes_only_the_expected_values(tmp_path):
    path = write(tmp_path, "level.yaml", COMMENTED)
    before = path.read_text()
    result = run("verify", path, "--update")
    assert result.exit_code == 0, result.output
    after = path.read_text()
    changed = [(old, new) for old, new in zip(before.splitlines(), after.splitlines()) if old != new]
    assert len(before.splitlines()) == len(after.splitlines())
    assert changed == [
        ("    plies: 5           # was 5 before the last change", "    plies: 3           # was 5 before the last change"),
        ("    winning_first_moves: {min: 2, max: 4}   # a little choice",
         "    winning_first_moves: {min: 1, max: 4}   # a little choice"),
        ("    value: 100         # wrong on purpose", "    value: 0         # wrong on purpose"),
    ]
    statuses = {row[1]: row[-1] for row in rows(result.stdout)}
    assert statuses == {"schema": "pass", "explorer win": "pass", "explorer plies": "updated",
                        "explorer winning_first_moves": "updated", "explorer survive": "pass",
                        "mummy value": "updated", "mummy plies": "pass"}
    assert f"updated {path}" in result.stdout.splitlines()
    again = run("verify", path)
    assert again.exit_code == 0, again.output
    assert list(tmp_path.iterdir()) == [path]          # no temporary file left behind


def test_update_keeps_crlf_line_endings(tmp_path):
    path = tmp_path / "level.yaml"
    path.write_bytes(COMMENTED.replace("\n", "\r\n").encode())
    assert run("verify", path, "--update").exit_code == 0
    data = path.read_bytes()
    assert data == COMMENTED.replace("plies: 5 ", "plies: 3 ").replace("{min: 2,", "{min: 1,") \
        .replace("value: 100 ", "value: 0 ").replace("\n", "\r\n").encode()


def test_update_never_touches_an_invalid_file(tmp_path):
    text = COMMENTED.replace("rules: mummy-maze-2007", "rules: mummy-maze-2007\nmapp: x")
    path = write(tmp_path, "level.yaml", text)
    result = run("verify", path, "--update")
    assert result.exit_code == 2
    assert path.read_text() == text


def test_update_widens_a_range():
    assert updated_value(Range(12, 20), 25) == Range(12, 25)
    assert updated_value(Range(12, 20), 3) == Range(3, 20)
    assert updated_value(Range(12, None), 3) == Range(3, None)
    assert updated_value(Range(12, 20), None) is None
    assert updated_value(7, None) is None and updated_value(True, False) is False


def test_update_writes_a_metric_that_reads_back_as_the_same_float():
    text = "rules: mummy-maze-classic\nexpect:\n  - random_win: 0   # the walker\n    greedy_win: 0\n"
    new = rewrite(text, "level.yaml", [Change(0, "random_win", 0, 5.656e-11), Change(0, "greedy_win", 0, 1e-05)])
    assert new == "rules: mummy-maze-classic\nexpect:\n  - random_win: 5.656e-11   # the walker\n    greedy_win: 1.0e-05\n"
    assert load_text(new, "level.yaml")["expect"][0] == {"random_win": 5.656e-11, "greedy_win": 1e-05}


def test_plain_numbers_read_as_yaml_reads_them():
    """The reader takes a plain decimal number's int at once; every other scalar as YAML reads it."""
    import yaml
    for text in ("0", "7", "10", "012", "089", "0x1f", "1_000", "+5", "-3", "1.5", "\uff11\uff12", "'5'", "\"5\"",
                 "!!str 5", "1:20", "true", "null", "~", "5 6"):
        expected = yaml.safe_load(f"a: {text}")["a"]
        read = load_text(f"a: {text}\nb: [{text}, [{text}]]", "x")
        assert read["a"] == expected and type(read["a"]) is type(expected), text
        assert read["b"] == [expected, [expected]] and type(read["b"][0]) is type(expected), text


def test_number_text_reads_back_as_the_same_number():
    for number in (0, 7, 0.0008917, 1e-05, 1.286e-10, 1e+20, 0.5):
        assert load_text(f"a: {number_text(number)}", "x")["a"] == number
    assert number_text(1e-05) == "1.0e-05" and number_text(3) == "3"


# - gridsolve schema ---

@pytest.mark.slow
def test_schema_command_prints_the_json_schema_that_validates_the_boards(tmp_path):
    result = run("schema")
    assert result.exit_code == 0
    schema = json.loads(result.stdout)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["title"] == "gridsolve board"
    assert "expect" in schema["properties"]
    for path in sorted(BOARDS.glob("*.yaml")):
        jsonschema.validate(yaml.safe_load(path.read_text()), schema)
    board = yaml.safe_load(COMMENTED)
    jsonschema.validate(board, schema)
    with pytest.raises(jsonschema.ValidationError, match="'mapp' was unexpected"):
        jsonschema.validate({**board, "mapp": "x"}, schema)
    with pytest.raises(jsonschema.ValidationError, match="'wim' was unexpected"):
        jsonschema.validate({**board, "expect": [{"wim": True}]}, schema)


# - The shipped boards ---

@pytest.mark.slow
def test_every_shipped_board_has_expectations_and_they_hold_with_two_jobs(tmp_path):
    for path in sorted(BOARDS.glob("*.yaml")):
        assert "\nexpect:\n" in path.read_text(), path
    result = run("verify", BOARDS, "--jobs", "2")
    assert result.exit_code == 0, result.output
    statuses = [row[-1] for row in rows(result.stdout)]
    assert len(statuses) >= 10 and set(statuses) == {"pass"}


def test_pre_commit_hook_runs_verify_on_yaml_files():
    import re

    (hook,) = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    assert {k: hook[k] for k in ("id", "entry", "language", "files")} == {
        "id": "gridsolve-verify", "entry": "gridsolve verify", "language": "python", "files": r"\.ya?ml$"}
    assert re.search(hook["files"], "levels/a.yml") and not re.search(hook["files"], "notes.txt")


def test_cli_report_formats_are_the_reports_module_formats():
    from gridsolve.commands.verify import REPORT_FORMATS
    from gridsolve.verify.reports import FORMATS
    assert tuple(REPORT_FORMATS) == tuple(FORMATS)


# - Worker processes (gridsolve/workers.py) ---

def _task(task):
    """A task for run_tasks: yields its name and the worker's process id, then behaves."""
    import os
    import time as clock
    yield (task, os.getpid())
    if task == "slow":
        clock.sleep(30)
    elif task == "raises":
        raise ValueError("on purpose")
    elif task == "dies":
        os._exit(7)
    yield (task, "done")


def test_workers_run_many_tasks_and_are_replaced_when_one_times_out_or_dies():
    from gridsolve.workers import CRASHED, DONE, TIMEOUT, run_tasks
    tasks = ["a", "slow", "b", "raises", "c", "dies", "d", "e", "f", "g"]
    items: dict = {}
    outcomes = run_tasks(tasks, _task, 2, 2.0, lambda i, item: items.setdefault(i, []).append(item))
    assert [o.status for o in outcomes] == [DONE, TIMEOUT, DONE, CRASHED, DONE, CRASHED, DONE, DONE, DONE, DONE]
    assert "ValueError: on purpose" in outcomes[3].detail and "exit code 7" in outcomes[5].detail
    assert all(items[i][-1] == (task, "done") for i, task in enumerate(tasks) if outcomes[i].status == DONE)
    assert items[1] == [("slow", items[1][0][1])]       # what a task sent before its time ran out is kept
    workers = {items[i][0][1] for i in range(len(tasks))}
    assert len(workers) < len(tasks)                     # the workers ran several tasks each


def test_without_a_time_limit_tasks_go_in_batches_and_a_dead_batch_runs_again_task_by_task():
    from gridsolve.workers import CRASHED, DONE, MOST_BATCHED, _batch_size, run_tasks
    assert _batch_size(1000, 2, None) == MOST_BATCHED and _batch_size(40, 2, None) == 5
    assert _batch_size(7, 2, None) == 1 and _batch_size(1000, 2, 5.0) == 1    # a time limit is per task
    tasks = [f"t{n}" for n in range(40)]
    tasks[3], tasks[17] = "raises", "dies"
    items: dict = {}
    outcomes = run_tasks(tasks, _task, 2, None, lambda i, item: items.setdefault(i, []).append(item))
    assert [o.status for o in outcomes] == [CRASHED if t in ("raises", "dies") else DONE for t in tasks]
    assert "ValueError: on purpose" in outcomes[3].detail and "exit code 7" in outcomes[17].detail
    for i, task in enumerate(tasks):             # every item once, in order, also where a batch ran again
        if outcomes[i].status == DONE:
            assert [item for item, _ in items[i]] == [task, task] and items[i][1][1] == "done"
    assert items[17] == [("dies", items[17][0][1])]
