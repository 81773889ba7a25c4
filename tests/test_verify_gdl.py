"""``gridsolve verify`` of a YAML file naming a GDL game (gridsolve/verify/gdlgame.py): its
expectations checked against the generic engine, failures and mistakes at the YAML file's line."""
from __future__ import annotations

import json
import shutil

import pytest
from click.testing import CliRunner

from gridsolve.cli import main
from gridsolve.verify.verify import find_boards

from conftest import ROOT

GAMES = ROOT / "tests" / "gdl" / "games"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture
def folder(tmp_path):
    shutil.copy(GAMES / "nim.kif", tmp_path / "nim.kif")
    return tmp_path


def write(folder, text):
    path = folder / "game.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_shipped_tic_tac_toe_file_is_found_and_passes():
    path = ROOT / "boards" / "gdl" / "tictactoe.yaml"
    assert path in find_boards([ROOT / "boards" / "gdl"])
    result = run("verify", path, "--format", "json")
    assert result.exit_code == 0, result.output
    checks = json.loads(result.stdout)["boards"][0]["checks"]
    assert {(c["key"], c["measured"]) for c in checks if c["line"] in (5, 6, 7)} == {
        ("value", 50), ("plies", 9), ("win", False)}
    assert all(c["status"] == "pass" for c in checks)


def test_a_wrong_value_fails_at_its_line_with_what_was_measured(folder):
    path = write(folder, "game: nim.kif\nexpect:\n  - value: 0\n    win: true\n")     # (heaps 1, 2, 3: XOR 0)
    result = run("verify", path)
    assert result.exit_code == 1, result.output
    assert f"{path}:4: " in result.output and f"{path}:3: " not in result.output
    assert "expected win: true, measured false" in result.output


@pytest.mark.parametrize("text, line, words", [
    ("game: nim.kif\nexpect:\n  - valu: 50\n", 3, "unknown key 'valu'"),
    ("game: nim.kif\nexpect:\n  - role: nobody\n    value: 50\n", 3, "unknown role 'nobody'"),
    ("game: nim.kif\nexpect:\n  - win: maybe\n", 3, "win: 'maybe' is not true or false"),
    ("game: nim.kif\nexpect:\n  - plies: {min: 5, max: 2}\n", 3, "the range 5..2 is empty"),
    ("game: nim.kif\nexpect:\n  - role: first\n", 3, "this expectation checks nothing"),
    ("game: nim.kif\nboard: x\nexpect:\n  - value: 50\n", 2, "unknown key 'board'"),
    ("game: nowhere.kif\nexpect:\n  - value: 50\n", 1, "game: no such file nowhere.kif"),
])
def test_a_mistake_is_an_error_at_the_yaml_file_s_line_with_exit_code_2(folder, text, line, words):
    path = write(folder, text)
    result = run("verify", path)
    assert result.exit_code == 2, result.output
    assert f"Error: {path}:{line}: " in result.stderr
    assert words in result.stderr, result.stderr


def test_a_state_that_is_not_the_game_s_is_an_error_of_its_checks(folder):
    path = write(folder, "game: nim.kif\nexpect:\n  - at: (nothing here)\n    value: 0\n")
    result = run("verify", path)
    assert result.exit_code == 1, result.output
    assert f"{path}:4: " in result.output and "error" in result.output


def test_update_writes_the_measured_values_and_keeps_the_rest(folder):
    path = write(folder, "game: nim.kif\nexpect:\n  # heaps 1, 2, 3\n  - value: 100   # wrong\n    win: false\n")
    assert run("verify", path, "--update").exit_code == 0
    assert path.read_text() == "game: nim.kif\nexpect:\n  # heaps 1, 2, 3\n  - value: 0   # wrong\n    win: false\n"
    assert run("verify", path).exit_code == 0
