"""`gridsolve generate`: written boards meet the request, verify, are reproducible, never
overwrite, and impossible or invalid requests are reported clearly (exit 2) or time out (exit 3).

Every written board is checked independently of the generator: loaded with the loader, solved
with `gridsolve solve --json`, its walls read from the loaded board, and re-checked with
`gridsolve verify`.  Requests are tiny (3x3 to 5x5 boards) so that the whole file stays fast.
"""
from __future__ import annotations

import json
import math
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from gridsolve.analysis.beeline import check_beeline
from gridsolve.cli import main
from gridsolve.language.loader import load_board
from gridsolve.language.position import initial_position

from conftest import CORRIDOR, ROOT

SEED_2007 = ROOT / "boards" / "mummymaze2p-2007.yaml"
SEED_GDL = ROOT / "boards" / "mummymaze2p.yaml"

# Quick requests.  Under mummy-maze-2007 (the mummy may end on the explorer) nearly every
# small winnable board is won by walking the shortest way, so the quick 2007 requests allow
# trivial levels; under mummy-maze-2007-prose (the mummy may not end on the explorer) 5x5
# levels that need more than the shortest way are found in a second or two.
TRIVIAL_2007 = ("--rules", "mummy-maze-2007", "--size", "5x5", "--allow-trivial")
PROSE = ("--rules", "mummy-maze-2007-prose", "--size", "5x5")


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def generate(out: Path, *args):
    """`gridsolve generate ARGS --out OUT`, in process."""
    return run("generate", *args, "--out", out)


def run_process(args, timeout: float):
    """`python -m gridsolve ARGS` in a child process, killed (TimeoutExpired: the test fails)
    if it runs longer than ``timeout`` seconds: a guard for requests that could hang, not a
    measure of speed (that is bench/'s)."""
    return subprocess.run([sys.executable, "-m", "gridsolve", *[str(a) for a in args]], capture_output=True,
                          text=True, timeout=timeout, cwd=ROOT)


def assert_ok(result):
    assert result.exit_code == 0, (result.output, result.exception)
    assert "Traceback" not in result.output


def assert_error(result, message: str, code: int = 2):
    assert result.exit_code == code, result.output
    assert result.stderr == f"Error: {message}\n"
    assert "Traceback" not in result.output


def written(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.yaml"))


def leftovers(folder: Path) -> list[str]:
    """Hidden or temporary files the generator left behind in ``folder``."""
    if not folder.exists():
        return []
    return sorted(name for name in os.listdir(folder) if name.startswith(".") or name.endswith(".tmp"))


def expectation(path: Path) -> dict:
    """The single expect item of a written board."""
    items = yaml.safe_load(path.read_text(encoding="utf-8"))["expect"]
    assert isinstance(items, list) and len(items) == 1, items
    return items[0]


def solved(path: Path, *args) -> dict:
    """`gridsolve solve PATH ARGS --json`: the independent answer."""
    result = run("solve", path, *args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def assert_verifies(path: Path):
    result = run("verify", path)
    assert result.exit_code == 0, result.output
    assert re.search(r"\d+ checks? on 1 board: (\d+) passed", result.output), result.output


def layout(path: Path) -> tuple:
    """What was generated: walls, piece starts and marks of the loaded board."""
    board = load_board(path)
    return (board.width, board.height, board.north, board.east, board.solid, tuple(sorted(board.pieces.items())),
            tuple(sorted((m, tuple(sorted(c))) for m, c in board.marks.items())))


def on_border(board, cell) -> bool:
    return cell[0] in (1, board.width) or cell[1] in (1, board.height)


# - 1. The boards meet the request, by an independent solve, and verify ---

@pytest.mark.slow
def test_boards_meet_the_request_and_need_more_than_the_shortest_way(tmp_path):
    result = generate(tmp_path, *PROSE, "--plies", "5..", "--count", "2", "--seed", "3")
    assert_ok(result)
    files = written(tmp_path)
    assert len(files) == 2
    for path in files:
        board = load_board(path)                 # a valid board file
        assert board.rules.name == "mummy-maze-2007-prose" and (board.width, board.height) == (5, 5)
        answer = solved(path)
        assert answer["win"] is True and 5 <= answer["win_plies"] <= 49, answer
        assert answer["value"] == 100 and answer["plies"] == answer["win_plies"]
        # not trivial: no shortest path to the exit wins (checked here, not taken from the file)
        assert check_beeline(board, "explorer", initial_position(board), answer["remaining"]).holds
        expect = expectation(path)
        assert expect["win"] is True and expect["plies"] == answer["win_plies"]
        assert expect["no_beeline"] is True
        assert "role" not in expect              # the first role is the default
        assert_verifies(path)
    assert leftovers(tmp_path) == []


@pytest.mark.slow
def test_an_upper_end_of_the_band_is_kept_and_trivial_levels_carry_no_no_beeline(tmp_path):
    result = generate(tmp_path, *TRIVIAL_2007, "--plies", "5..9", "--count", "2")
    assert_ok(result)
    files = written(tmp_path)
    assert len(files) == 2
    for path in files:
        answer = solved(path)
        assert answer["win"] is True and 5 <= answer["win_plies"] <= 9, answer
        expect = expectation(path)
        assert expect["win"] is True and expect["plies"] == answer["win_plies"]
        assert "no_beeline" not in expect
        assert_verifies(path)


# - 2. The same request and seed: the same files; another seed: other boards ---

# One run shared by the tests of sections 2 and 10: two trivial-allowed 5x5 boards.
SHARED = (*TRIVIAL_2007, "--plies", "3..", "--count", "2", "--seed", "5", "--name", "lvl")


@pytest.fixture(scope="module")
def shared_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("shared")
    result = generate(out, *SHARED)
    assert_ok(result)
    return result, written(out)


@pytest.mark.slow
def test_the_same_seed_writes_byte_identical_files(shared_run, tmp_path):
    _, files = shared_run
    assert_ok(generate(tmp_path, *SHARED))
    again = written(tmp_path)
    assert [p.name for p in again] == [p.name for p in files] == ["lvl-1.yaml", "lvl-2.yaml"]
    for a, b in zip(files, again):
        assert a.read_bytes() == b.read_bytes()


@pytest.mark.slow
def test_another_seed_writes_other_boards(shared_run, tmp_path):
    # Two boards each: the chance that random 5x5 layouts (walls, exit, pieces) coincide is nil.
    # (The files differ anyway: their titles name the seed; the layouts are compared.)
    _, files = shared_run
    assert_ok(generate(tmp_path, *SHARED[:-4], "--seed", "6", "--name", "lvl"))
    other = written(tmp_path)
    assert len(other) == 2
    assert {layout(p) for p in other} != {layout(p) for p in files}


@pytest.mark.slow
def test_the_header_names_the_command_that_writes_the_same_boards(shared_run, tmp_path):
    _, files = shared_run
    commands = set()
    for index, path in enumerate(files, 1):
        header = path.read_text(encoding="utf-8").splitlines()[0]
        match = re.fullmatch(rf"# Board {index} of `gridsolve generate (.*)`:", header)
        assert match, header
        commands.add(match.group(1))
    [command] = commands
    words = shlex.split(command)
    assert "--out" not in words and words[words.index("--seed") + 1] == "5"
    assert_ok(generate(tmp_path, *words))
    copies = written(tmp_path)
    assert len(copies) == 2 and [p.name[-7:] for p in copies] == ["-1.yaml", "-2.yaml"]
    assert [layout(p) for p in copies] == [layout(p) for p in files]


# - 3. Never overwrites ---

def test_an_existing_file_is_kept_and_named_in_the_error(tmp_path):
    target = tmp_path / "lvl-1.yaml"
    target.write_bytes(b"my level\r\n")
    result = generate(tmp_path, *TRIVIAL_2007, "--name", "lvl")
    assert_error(result, f"{target} exists. Choose another --name or --out, or add --force to replace it.")
    assert target.read_bytes() == b"my level\r\n"
    assert written(tmp_path) == [target] and leftovers(tmp_path) == []


def test_no_board_is_written_when_a_later_target_exists(tmp_path):
    second = tmp_path / "lvl-2.yaml"
    second.write_text("mine\n", encoding="utf-8")
    result = generate(tmp_path, *TRIVIAL_2007, "--name", "lvl", "--count", "2")
    assert result.exit_code == 2, result.output
    assert result.stderr == (f"Error: {second} exists. Choose another --name or --out, "
                             "or add --force to replace it.\n")
    assert "Traceback" not in result.output
    assert written(tmp_path) == [second] and second.read_text(encoding="utf-8") == "mine\n"


def test_force_replaces_the_file(tmp_path):
    target = tmp_path / "lvl-1.yaml"
    target.write_text("my level\n", encoding="utf-8")
    result = generate(tmp_path, *TRIVIAL_2007, "--name", "lvl", "--force")
    assert_ok(result)
    assert written(tmp_path) == [target]
    assert expectation(target)["win"] is True
    assert_verifies(target)
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o027, 0o640)])
def test_board_files_and_pictures_get_the_mode_the_umask_gives(tmp_path, umask, mode):
    """Like any other new file (a private temporary file must not keep its 0600)."""
    before = os.umask(umask)
    try:
        result = generate(tmp_path, "--rules", "mummy-maze-2007", "--size", "3x3", "--plies", "3..5",
                          "--allow-trivial", "--name", "lvl", "--svg")
    finally:
        os.umask(before)
    assert_ok(result)
    files = sorted(tmp_path.iterdir())
    assert [p.name for p in files] == ["lvl-1.svg", "lvl-1.yaml"]
    assert [oct(p.stat().st_mode & 0o777) for p in files] == [oct(mode)] * 2


# - 4. Invalid and impossible requests: exit code 2, one clear line, quickly ---

@pytest.mark.parametrize("args, message", [
    (("--plies", "9..3"), "--plies 9..3: the range is empty"),
    (("--plies", "50..60"), "--plies 50..: the game ends after 49 plies (the step limit). Ask for at most 49 plies."),
    (("--plies", "50"), "--plies 50..: the game ends after 49 plies (the step limit). Ask for at most 49 plies."),
    (("--horizon", "10", "--plies", "11..12"),
     "--plies 11..: the game ends after 10 plies (the horizon). Ask for at most 10 plies."),
    (("--plies", "abc"), "--plies abc: expected a range A..B, A.. or ..B, or a number. E.g. --plies 20..30."),
    (("--walls", "20..30"), "--walls 20..30: a connected 5x5 board has at most 16 walls. Ask for at most 16 walls."),
    (("--walls", "20..45", "--allow-sealed"),
     "--walls 20..45: a 5x5 board has 40 interior edges. Ask for at most 40 walls."),
    (("--walls", "9..3"), "--walls 9..3: the range is empty"),
    (("--count", "0"), "--count 0: must be at least 1"),
    (("--horizon", "0"), "--horizon 0: must be at least 1"),
    (("--require", "survive", "--plies", "3.."),
     "--plies does not apply to --require survive. Nothing is forced when the role survives."),
    (("--role", "ghost"), "--role ghost: unknown role. Roles are: explorer, mummy."),
])
def test_an_invalid_request_is_one_line_with_exit_code_2(tmp_path, args, message):
    result = generate(tmp_path / "out", "--rules", "mummy-maze-2007", "--size", "5x5", *args)
    assert_error(result, message)
    assert written(tmp_path / "out") == [] and leftovers(tmp_path / "out") == []


@pytest.mark.parametrize("args, message", [
    (("--rules", "mummy-maze-2007", "--size", "5by5"),
     "--size 5by5: expected WIDTHxHEIGHT, each at least 2. E.g. --size 8x8."),
    (("--rules", "mummy-maze-2007", "--size", "1x5"),
     "--size 1x5: expected WIDTHxHEIGHT, each at least 2. E.g. --size 8x8."),
    (("--rules", "mummy-maze-2007"), "--rules needs --size. Give --size WxH, e.g. --size 8x8."),
    (("--size", "5x5"), "give either --rules NAME or --like BOARD. E.g. --like boards/mummymaze2p-2007.yaml."),
    (("--rules", "mummy-maze-2007", "--like", SEED_2007),
     "give either --rules NAME or --like BOARD. E.g. --like boards/mummymaze2p-2007.yaml."),
    (("--rules", "mummy-maze-1999", "--size", "5x5"),
     "--rules mummy-maze-1999: no rule set of that name. Name a file of rules/ (without .yaml), or use --like BOARD."),
])
def test_bad_size_and_source_text(tmp_path, args, message):
    assert_error(generate(tmp_path / "out", *args), message)
    assert written(tmp_path / "out") == []


def test_a_missing_like_board(tmp_path):
    missing = tmp_path / "nothere.yaml"
    assert_error(generate(tmp_path, "--like", missing, "--size", "5x5"), f"{missing}: no such file. Check the path.")


def test_an_open_plies_range_past_the_step_limit_says_where_the_game_ends(tmp_path):
    assert_error(generate(tmp_path, "--rules", "mummy-maze-2007", "--size", "5x5", "--plies", "60.."),
                 "--plies 60..: the game ends after 49 plies (the step limit). Ask for at most 49 plies.")


def test_an_open_walls_range_past_the_maximum_says_the_maximum(tmp_path):
    assert_error(generate(tmp_path, "--rules", "mummy-maze-2007", "--size", "5x5", "--walls", "50..",
                          "--allow-sealed"),
                 "--walls 50..: a 5x5 board has 40 interior edges. Ask for at most 40 walls.")


def impossible(size: str, band: str) -> str:
    return (f"Error: no {size} board where explorer forces its top score in {band} plies, not by walking the "
            "shortest way, exists with these walls and marks (clingo proved it). Ask for fewer plies, a larger "
            "board or other --walls.\n")


def test_a_board_too_small_for_the_request_is_proved_impossible(tmp_path):
    result = generate(tmp_path, "--rules", "mummy-maze-2007", "--size", "2x2", "--plies", "5..")
    assert result.exit_code == 2, result.output
    assert result.stderr == impossible("2x2", "5 to 49")
    assert "Traceback" not in result.output
    assert written(tmp_path) == [] and leftovers(tmp_path) == []


@pytest.mark.slow
def test_an_impossible_request_is_reported_as_impossible_not_as_a_hang(tmp_path):
    # No 3x3 board has a 40-ply forced escape: without a --timeout of its own, generate must
    # prove it (exit code 2 and the message) rather than search on; README: about 20 s.  How
    # soon is the benchmark's to say; the 600 s kill only guards against a hang.
    done = run_process(["generate", "--rules", "mummy-maze-2007", "--size", "3x3", "--plies", "40..",
                        "--out", tmp_path, "--timeout", "0"], timeout=600)
    assert "Traceback" not in done.stderr
    assert done.returncode == 2, done.stderr
    assert done.stderr == impossible("3x3", "40 to 49")
    assert done.stdout == ""
    assert written(tmp_path) == [] and leftovers(tmp_path) == []


# - 5. --timeout: exit code 3, and how many boards were written ---

@pytest.mark.slow
def test_timeout_stops_with_exit_code_3_and_says_how_many_boards_were_written(tmp_path):
    # the behaviour is the timeout: the child process is killed (the test fails) if --timeout
    # 0.5 does not stop it within a generous 60 s
    done = run_process(["generate", "--rules", "mummy-maze-2007", "--size", "8x8", "--plies", "30..",
                        "--out", tmp_path, "--timeout", "0.5"], timeout=60)
    assert done.returncode == 3, done.stderr
    assert re.fullmatch(r"Error: --timeout 0\.5 s reached: wrote 0 of 1 boards after \d+ candidates"
                        r"(?: \([^)]*\))?(?:\. [^\n]*)?\. Allow more time \(--timeout SECONDS, 0: no limit\), or "
                        r"relax the request: [^\n]*fewer plies[^\n]*\.\n", done.stderr), done.stderr
    assert "Traceback" not in done.stderr
    assert written(tmp_path) == [] and leftovers(tmp_path) == []


def test_a_request_without_timeout_stops_at_the_default_budget_and_says_so(tmp_path, monkeypatch):
    import gridsolve.generate.request
    monkeypatch.setattr(gridsolve.generate.request, "DEFAULT_TIMEOUT", 0.5)    # the default request_from_options reads
    result = generate(tmp_path, "--rules", "mummy-maze-2007", "--size", "8x8", "--plies", "30..")
    assert result.exit_code == 3, result.output
    error = [line for line in result.stderr.splitlines() if not line.startswith("generate: ")]    # (a progress line
    # comes first where the first candidate took more than the period, as on a loaded machine)
    assert error[0].startswith("Error: --timeout 0.5 s (the default time budget) reached: wrote 0 of 1 boards"), error
    help_text = run("generate", "--help").output
    assert "(default 600; 0: no limit)" in re.sub(r"\s+", " ", help_text)


def test_progress_lines_go_to_standard_error_on_a_pipe(tmp_path):
    # CliRunner's standard error is no terminal: a line for each board written.
    result = generate(tmp_path, *TRIVIAL_2007, "--plies", "3..", "--count", "2", "--seed", "5")
    assert_ok(result)
    lines = result.stderr.splitlines()
    assert [line.split(", ")[1] for line in lines] == ["1 of 2 boards", "2 of 2 boards"], lines
    assert all(re.match(r"generate: \d+ s, \d of 2 boards, \d+ candidates", line) for line in lines)
    assert "generate:" not in result.stdout


def test_progress_lines_are_at_most_one_per_period_unless_a_board_is_written():
    from gridsolve.generate.report import Progress, SearchStats, progress_lines
    printed = []
    report = progress_lines(printed.append, every=10)
    stats = SearchStats(layouts=4, in_band=1, longest=23)
    for seconds, done in [(1, 0), (5, 0), (11, 0), (12, 1), (13, 1), (25, 1)]:
        report(Progress(done, 3, seconds, "trivial", seconds, stats, (20, 50)))
    assert [line.split(",")[0] for line in printed] == ["generate: 11 s", "generate: 12 s", "generate: 25 s"]
    assert printed[0] == ("generate: 11 s, 0 of 3 boards, 11 candidates; 4 wall layouts ranked, 1 with a start "
                          "in the band (20..50 plies); longest forced end seen: 23 plies; last: trivial")


def _diagnosed(tmp_path, plies, trivial_ok=False, **stats):
    from collections import Counter
    from gridsolve.generate.report import Report, SearchStats, diagnosis
    from gridsolve.generate.request import Request
    from gridsolve.generate.genspec import Requirement, game_spec
    spec = game_spec(None, SEED_GDL, None, tmp_path, None)
    request = Request(like=SEED_GDL, out=tmp_path)
    report = Report(request, spec, Requirement("win", plies, trivial_ok), "loop", candidates=9,
                    rejected=Counter({"no placement meets the requirement": 9}), search=SearchStats(**stats))
    return diagnosis(report)


def test_when_no_layout_has_a_start_in_the_band_the_plies_are_the_rarest_part(tmp_path):
    finding, hints = _diagnosed(tmp_path, (20, 50), layouts=9, in_band=0, longest=17)
    assert finding == ("none of the 9 wall layouts ranked has a start with a forced win in 20 to 50 plies "
                       "(the longest seen: 17 plies): the plies are the rarest part of the request")
    assert hints[0] == "fewer plies (--plies 17..)"
    assert "--rules mummy-maze-2007-prose" in hints[-1]


def test_when_every_start_in_the_band_is_trivial_that_is_the_rarest_part(tmp_path):
    finding, hints = _diagnosed(tmp_path, (20, 50), layouts=26, in_band=5, band_starts=41, allowed=0, longest=23)
    assert finding.startswith("5 of the 26 wall layouts ranked have starts with a forced win in 20 to 50 plies "
                              "(41 starts), but walking the shortest way wins")
    assert finding.endswith("a level that is not trivial is the rarest part")
    assert hints[:2] == ["--allow-trivial", "fewer plies"]
    assert any("mummy-maze-2007-prose" in hint for hint in hints)


@pytest.mark.slow
def test_boards_written_before_the_timeout_are_kept_and_counted(tmp_path):
    # A 5x5 prose board takes about 0.2 s with the engine on the game graph (a second before it):
    # a hundred do not fit in 1.5 seconds, whatever the machine (the behaviour here is the timeout).
    result = generate(tmp_path, *PROSE, "--plies", "5..", "--count", "100", "--timeout", "1.5")
    assert result.exit_code == 3, result.output
    match = re.search(r"Error: --timeout 1\.5 s reached: wrote (\d+) of 100 boards after (\d+) candidates",
                      result.stderr)
    assert match, result.stderr
    files = written(tmp_path)
    assert len(files) == int(match.group(1)) <= int(match.group(2))
    for path in files:
        assert f"{path}: win true" in result.stdout
        assert expectation(path)["win"] is True
    assert leftovers(tmp_path) == []


# - 6. --require survive / lose and --role ---

def test_require_lose_the_others_force_the_end_within_the_band(tmp_path):
    result = generate(tmp_path, "--rules", "mummy-maze-2007", "--size", "5x5", "--require", "lose",
                      "--plies", "5..")
    assert_ok(result)
    [path] = written(tmp_path)
    answer = solved(path, "--query", "survive")
    assert answer["survives"] is False and 5 <= answer["doom_plies"] <= 49, answer
    value = solved(path)
    expect = expectation(path)
    assert expect["survive"] is False and expect["win"] is False
    assert expect["value"] == value["value"] == 0 and expect["plies"] == value["plies"]
    assert_verifies(path)


@pytest.mark.slow
def test_role_selects_whose_requirement_it_is(tmp_path):
    lose = generate(tmp_path / "lose", "--rules", "mummy-maze-2007", "--size", "5x5", "--require", "lose",
                    "--role", "mummy", "--plies", "3..")
    assert_ok(lose)
    [path] = written(tmp_path / "lose")
    answer = solved(path, "--role", "mummy", "--query", "survive")
    assert answer["survives"] is False and 3 <= answer["doom_plies"] <= 49, answer
    # the mummy's loss is the explorer's escape
    assert solved(path)["win"] is True
    expect = expectation(path)
    assert expect["role"] == "mummy" and expect["survive"] is False
    assert_verifies(path)

    win = generate(tmp_path / "win", "--rules", "mummy-maze-2007", "--size", "5x5", "--role", "mummy",
                   "--plies", "3..")
    assert_ok(win)
    [path] = written(tmp_path / "win")
    answer = solved(path, "--role", "mummy", "--query", "win")
    assert answer["holds"] is True and 3 <= answer["win_plies"] <= 49, answer
    expect = expectation(path)
    assert expect["role"] == "mummy" and expect["win"] is True and expect["plies"] == answer["win_plies"]
    assert_verifies(path)


def test_require_survive_the_role_survives(tmp_path):
    result = generate(tmp_path, "--rules", "mummy-maze-2007", "--size", "3x3", "--require", "survive",
                      "--method", "asp")
    assert_ok(result)
    [path] = written(tmp_path)
    assert solved(path, "--query", "survive")["survives"] is True
    assert expectation(path)["survive"] is True
    assert_verifies(path)


@pytest.mark.slow
def test_require_survive_with_the_loop_method(tmp_path):
    # On the first 5x5 layouts most placements survive: a working search writes one at once
    # (no --timeout of its own: how soon is the benchmark's to say; 600 s guards against a hang).
    done = run_process(["generate", "--rules", "mummy-maze-2007", "--size", "5x5", "--require", "survive",
                        "--method", "loop", "--out", tmp_path, "--timeout", "0"], timeout=600)
    assert done.returncode == 0, done.stderr
    [path] = written(tmp_path)
    assert solved(path, "--query", "survive")["survives"] is True


# - 7. --like BOARD ---

@pytest.mark.slow
@pytest.mark.parametrize("like", [SEED_2007, SEED_GDL], ids=["2007", "gdl"])
def test_like_keeps_the_rules_and_puts_the_exit_on_the_border(tmp_path, like):
    original = load_board(like)
    [exit_cell] = original.marks["exit"]
    assert on_border(original, exit_cell)
    count = 2 if like == SEED_2007 else 1
    result = generate(tmp_path, "--like", like, "--size", "5x5", "--allow-trivial", "--plies", "3..",
                      "--count", count)
    assert_ok(result)
    files = written(tmp_path)
    assert [p.name for p in files] == [f"{like.stem}-5x5-s1-{i}.yaml" for i in range(1, count + 1)]
    raw_rules = yaml.safe_load(like.read_text(encoding="utf-8"))["rules"]
    for path in files:
        assert yaml.safe_load(path.read_text(encoding="utf-8"))["rules"] == raw_rules
        board = load_board(path)
        assert board.rules == original.rules and (board.width, board.height) == (5, 5)
        [cell] = board.marks["exit"]
        assert on_border(board, cell), (path.read_text(), cell)
        assert solved(path)["win"] is True
        assert_verifies(path)


def test_like_a_board_with_overridden_rules(tmp_path, board_file):
    like = board_file(CORRIDOR.replace("rules: mummy-maze-2007",
                                       "rules:\n  use: mummy-maze-2007\n  steps: {first: 1, last: 21}"),
                      "short.yaml")
    result = generate(tmp_path / "out", "--like", like, "--size", "4x4", "--allow-trivial", "--plies", "3..")
    assert_ok(result)
    [path] = written(tmp_path / "out")
    assert yaml.safe_load(path.read_text(encoding="utf-8"))["rules"] == {"use": "mummy-maze-2007",
                                                                         "steps": {"first": 1, "last": 21}}
    answer = solved(path)
    assert answer["remaining"] == 20 and answer["win"] is True and 3 <= answer["win_plies"] <= 20
    assert_verifies(path)


def test_one_request_reads_the_like_board_once(tmp_path, board_file, monkeypatch):
    """The --like file is parsed once, though the spec is made for a role the request leaves
    to the default and --keep reads the original's marks."""
    from gridsolve.language import yamlsrc
    like = board_file(CORRIDOR, "corridor.yaml")
    parsed = []
    real = yamlsrc.load_text

    def counting(text, name="<text>"):
        parsed.append(name)
        return real(text, name)
    monkeypatch.setattr(yamlsrc, "load_text", counting)
    result = generate(tmp_path / "out", "--like", like, "--size", "4x4", "--allow-trivial", "--plies", "3..",
                      "--keep", "exit")
    assert_ok(result)
    assert parsed.count(str(like)) == 1, parsed
    [path] = written(tmp_path / "out")
    assert load_board(path).marks["exit"] == load_board(like).marks["exit"]


def test_like_a_board_with_a_local_rule_set_writes_loadable_files(tmp_path):
    levels = tmp_path / "levels"
    (levels / "rules").mkdir(parents=True)
    rules = (ROOT / "rules" / "mummy-maze-2007.yaml").read_text(encoding="utf-8")
    (levels / "rules" / "my-mummy.yaml").write_text(rules.replace("name: mummy-maze-2007", "name: my-mummy"),
                                                    encoding="utf-8")
    like = levels / "corridor.yaml"
    like.write_text(CORRIDOR.replace("rules: mummy-maze-2007", "rules: my-mummy"), encoding="utf-8")
    assert load_board(like).rules.name == "my-mummy"
    out = tmp_path / "elsewhere"
    result = generate(out, "--like", like, "--size", "4x4", "--allow-trivial", "--plies", "3..")
    # From --out the rule set cannot be found: refused before anything is written (README,
    # generate --like), saying where it would be found.
    assert result.exit_code == 2, result.output
    assert f"the boards name the rule set 'my-mummy' of {levels / 'rules' / 'my-mummy.yaml'}, which gridsolve " \
        "does not find from there" in result.stderr, result.stderr
    assert not out.exists()
    # Beside the rule set, the same request is fine.
    result = generate(levels / "new", "--like", like, "--size", "4x4", "--allow-trivial", "--plies", "3..")
    assert_ok(result)
    [path] = written(levels / "new")
    assert_verifies(path)


def test_like_a_board_whose_rule_set_the_output_finds_in_another_version_is_refused(tmp_path):
    # The --like board finds the built-in mummy-maze-gdl; --out has its own, different one.
    out = tmp_path / "levels"
    (out / "rules").mkdir(parents=True)
    theirs = out / "rules" / "mummy-maze-gdl.yaml"
    theirs.write_text((ROOT / "rules" / "mummy-maze-gdl.yaml").read_text(encoding="utf-8").replace(
        "last: 50", "last: 40"), encoding="utf-8")
    result = generate(out, "--like", SEED_GDL, "--size", "4x4", "--allow-trivial", "--plies", "3..")
    assert result.exit_code == 2, result.output
    assert f"from there gridsolve finds another 'mummy-maze-gdl' ({theirs}, which differs" in result.stderr
    assert written(out) == []
    # An identical copy is the same rule set.
    theirs.write_text((ROOT / "rules" / "mummy-maze-gdl.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    assert_ok(generate(out, "--like", SEED_GDL, "--size", "4x4", "--allow-trivial", "--plies", "3.."))
    assert len(written(out)) == 1


# - 8. --symmetry ---

def mirrored(board) -> tuple:
    w = board.width
    return ({(w + 1 - x, y) for x, y in board.north}, {(w - x, y) for x, y in board.east})


def turned(board) -> tuple:
    w, h = board.width, board.height
    return ({(w + 1 - x, h - y) for x, y in board.north}, {(w - x, h + 1 - y) for x, y in board.east})


@pytest.mark.slow
@pytest.mark.parametrize("symmetry, image", [("mirror", mirrored), ("turn", turned)])
def test_symmetric_walls(tmp_path, symmetry, image):
    result = generate(tmp_path, *TRIVIAL_2007, "--plies", "3..", "--symmetry", symmetry)
    assert_ok(result)
    [path] = written(tmp_path)
    board = load_board(path)
    assert board.north or board.east
    assert not board.solid
    assert all(1 <= x <= 5 and 1 <= y <= 4 for x, y in board.north)
    assert all(1 <= x <= 4 and 1 <= y <= 5 for x, y in board.east)
    assert image(board) == (set(board.north), set(board.east))
    assert solved(path)["win"] is True
    assert_verifies(path)


def test_the_symmetry_checks_tell_the_two_apart():
    # The helpers are not vacuous: a wall on the west half is mirrored, not turned, onto itself.
    class Board:
        width, height = 4, 3
        north = frozenset({(1, 1), (4, 1)})
        east = frozenset()
    assert mirrored(Board) == ({(1, 1), (4, 1)}, set())
    assert turned(Board) == ({(4, 2), (1, 2)}, set())


# - 9. Both methods ---

@pytest.mark.parametrize("method", ["asp", "loop"])
def test_both_methods_write_valid_boards(tmp_path, method):
    result = generate(tmp_path, "--rules", "mummy-maze-2007", "--size", "3x3", "--plies", "3..5",
                      "--allow-trivial", "--method", method)
    assert_ok(result)
    assert f"; method {method})" in result.stdout
    [path] = written(tmp_path)
    answer = solved(path)
    assert answer["win"] is True and 3 <= answer["win_plies"] <= 5, answer
    assert expectation(path)["plies"] == answer["win_plies"]
    assert_verifies(path)


# - 10. --count and --name, and what is printed ---

@pytest.mark.slow
def test_count_and_name_write_numbered_files_and_list_them(shared_run):
    result, files = shared_run
    assert [p.name for p in files] == ["lvl-1.yaml", "lvl-2.yaml"]
    lines = result.stdout.splitlines()
    listed = [line for line in lines if not line.startswith(("  difficulty", "pack: "))]
    assert len(listed) == 3, result.stdout
    for path, line in zip(files, listed):
        expect = expectation(path)
        measured = f"win true, plies {expect['plies']}, winning_first_moves {expect['winning_first_moves']}, "
        assert re.fullmatch(re.escape(f"{path}: {measured}") + r"[a-z_]+ [\d.e-]+(, [a-z_]+ [\d.e-]+)* \("
                            r"\d+\.\d s, \d+ candidates?\)", line), line
        assert f"optimal_lines {expect['optimal_lines']}" in line, line
    assert re.fullmatch(r"2 boards in \d+\.\d s \(per board: median \d+\.\d s, max \d+\.\d s; method \w+\)",
                        listed[-1]), listed[-1]
    difficulty = [line for line in lines if line.startswith("  difficulty")]
    assert len(difficulty) == 2
    for path, line in zip(files, difficulty):
        assert re.match(r"  difficulty (easy|medium|hard): forced win in " + str(expectation(path)["plies"])
                        + " plies; ", line), line
    [pack] = [line for line in lines if line.startswith("pack: ")]
    assert "lvl-index.md" in pack and "lvl-curve.svg" in pack
    for path in files:
        assert_verifies(path)


@pytest.mark.slow
def test_the_boards_of_one_run_differ_on_a_third_of_the_walls_and_marks(shared_run):
    _, files = shared_run
    first, second = (load_board(p) for p in files)
    marks = lambda b: {(m, c) for m, cs in b.marks.items() for c in cs}
    differ = len(first.north ^ second.north) + len(first.east ^ second.east) + len(marks(first) ^ marks(second))
    # a connected 5x5 board has at most 16 walls, and there is one exit cell
    assert differ >= math.ceil((16 + 1) / 3)


def test_default_names_come_from_the_rules_size_and_seed(tmp_path):
    assert_ok(generate(tmp_path, "--rules", "mummy-maze-2007", "--size", "4x3", "--allow-trivial", "--seed", "9"))
    assert [p.name for p in written(tmp_path)] == ["mummy-maze-2007-4x3-s9-1.yaml"]


# - 11. Other rule sets ---

def test_maze_runner_duel_lose(tmp_path):
    result = generate(tmp_path, "--rules", "maze-runner-duel", "--size", "4x4", "--require", "lose",
                      "--plies", "3..")
    assert_ok(result)
    [path] = written(tmp_path)
    board = load_board(path)
    assert board.rules.name == "maze-runner-duel" and set(board.pieces) == {"p1", "p2"}
    assert len(board.marks["center"]) == 1
    answer = solved(path, "--query", "survive")
    assert answer["survives"] is False and 3 <= answer["doom_plies"] <= 40, answer
    assert expectation(path)["survive"] is False
    assert_verifies(path)


@pytest.mark.slow
def test_maze_runner_duel_win_has_no_no_beeline(tmp_path):
    # Scores depend on the position (nearer the center at the step limit): a win is forcing
    # the top score; no_beeline is not defined for this game, so every level is kept.
    result = generate(tmp_path, "--rules", "maze-runner-duel", "--size", "4x4", "--plies", "3..")
    assert_ok(result)
    [path] = written(tmp_path)
    answer = solved(path, "--query", "win")
    assert answer["holds"] is True and 3 <= answer["win_plies"] <= 40, answer
    expect = expectation(path)
    assert expect["win"] is True and expect["plies"] == answer["win_plies"]
    assert "no_beeline" not in expect
    assert_verifies(path)


def test_like_maze_runner_duel_places_its_obstacles_too(tmp_path):
    like = ROOT / "boards" / "maze-runner-duel.yaml"
    original = load_board(like)
    result = generate(tmp_path, "--like", like, "--walls", "0..0", "--require", "lose")
    assert_ok(result)
    [path] = written(tmp_path)
    board = load_board(path)
    assert (board.width, board.height) == (original.width, original.height)      # the board's size
    assert not board.north and not board.east
    assert {m: len(c) for m, c in board.marks.items()} == {m: len(c) for m, c in original.marks.items()}
    cells = [c for cs in board.marks.values() for c in cs] + list(board.pieces.values())
    assert len(cells) == len(set(cells))                                          # all apart
    assert solved(path, "--query", "survive")["survives"] is False
    assert_verifies(path)


@pytest.mark.slow
def test_pacman_with_a_horizon(tmp_path):
    result = generate(tmp_path, "--rules", "pacman-3p", "--size", "4x4", "--horizon", "4", "--require", "lose")
    assert_ok(result)
    [path] = written(tmp_path)
    assert set(load_board(path).pieces) == {"pacman", "blinky", "inky"}
    answer = solved(path, "--query", "survive", "--horizon", "4")
    assert answer["survives"] is False and 1 <= answer["doom_plies"] <= 4, answer
    expect = expectation(path)
    assert expect["horizon"] == 4 and expect["survive"] is False
    assert_verifies(path)


def test_wallmaze_survive_with_a_horizon(tmp_path):
    result = generate(tmp_path, "--rules", "wallmaze", "--size", "4x4", "--horizon", "4", "--require", "survive")
    assert_ok(result)
    [path] = written(tmp_path)
    assert solved(path, "--query", "survive", "--horizon", "4")["survives"] is True
    expect = expectation(path)
    assert expect["horizon"] == 4 and expect["survive"] is True
    assert_verifies(path)


@pytest.mark.slow
def test_wallmaze_win_with_a_horizon(tmp_path):
    result = generate(tmp_path, "--rules", "wallmaze", "--size", "4x4", "--horizon", "4")
    assert_ok(result)
    [path] = written(tmp_path)
    answer = solved(path, "--query", "win", "--horizon", "4")
    assert answer["holds"] is True
    expect = expectation(path)
    assert expect["horizon"] == 4 and expect["win"] is True
    assert expect["winning_first_moves"] >= 1          # a forced win has a winning first move
    assert_verifies(path)
