"""Damaged board files get one `Error: FILE:LINE: ...` line and exit code 2, never a traceback.

The mutants are seeded text mutations of the shipped boards and rule sets
(:mod:`mutants`): a hundred in the quick tier, a thousand in the slow one.
"""
from __future__ import annotations

from collections import Counter

import pytest
from click.testing import CliRunner

from gridsolve.cli import main
from conftest import ROOT
from mutants import Mutant, mutants, probe


def _probed(count: int, seed: int, folder) -> tuple[list[str], Counter]:
    """The tracebacks of ``mutants(count, seed)`` and how many exited with each code."""
    found, codes = [], Counter()
    for index, mutant in enumerate(mutants(count, seed)):
        code, problem = probe(mutant, folder / str(index))
        codes[code] += 1
        if problem is not None:
            found.append(f"{mutant.name}\n{problem}")
    return found, codes


@pytest.mark.slow
def test_a_hundred_mutants_of_the_shipped_boards_give_clean_errors(tmp_path):
    tracebacks, codes = _probed(100, 16, tmp_path)
    assert tracebacks == []
    assert codes[2] >= 70, codes          # the errors are what is tested: most mutants must be invalid


@pytest.mark.slow
def test_a_thousand_mutants_of_the_shipped_boards_give_clean_errors(tmp_path):
    tracebacks, codes = _probed(1000, 0, tmp_path)
    assert tracebacks == []
    assert codes[2] >= 700, codes


@pytest.mark.slow
def test_the_mutants_are_seeded_and_mostly_invalid(tmp_path):
    first, again = list(mutants(50, 3)), list(mutants(50, 3))
    assert [m.board for m in first] == [m.board for m in again]
    assert len({m.board for m in first}) > 45
    assert any(m.rules is not None for m in mutants(100, 3))
    _, codes = _probed(50, 3, tmp_path)
    assert codes[2] >= 35 and codes[0] + codes[2] == 50, codes     # 42 invalid, 8 still valid


@pytest.mark.parametrize("start, line, what", [
    (b"\0", 1, "a NUL byte at column 1"),
    (b"\x07", 1, "the character U+0007 at column 1"),
    (b"name: x\n\x1b", 2, "the character U+001B at column 1"),
    (b"name: x\n\xff", 2, "the byte 0xff is not UTF-8 text"),
])
def test_characters_yaml_refuses_are_an_error_at_their_line(tmp_path, start, line, what):
    path = tmp_path / "board.yaml"
    path.write_bytes(start + (b"" if b"\n" in start else b"\n") + b"rules: mummy-maze-2007\n")
    result = CliRunner().invoke(main, ["show", str(path)])
    assert result.exit_code == 2
    assert result.output.startswith(f"Error: {path}:{line}: {what}")
    assert "Traceback" not in result.output


def test_a_tag_its_value_cannot_hold_is_an_error_at_its_line(tmp_path):
    path = tmp_path / "board.yaml"
    path.write_text("rules: mummy-maze-2007\nsize: [!!int true, 3]\n")
    code, problem = probe(Mutant("tag", path.read_bytes()), tmp_path / "probe")
    assert (code, problem) == (2, None)
    result = CliRunner().invoke(main, ["show", str(path)])
    assert result.output.startswith(f"Error: {path}:2: the value 'true' cannot be read as tag:yaml.org,2002:int")


def test_a_rule_set_name_that_is_no_file_name_is_unknown(tmp_path):
    path = tmp_path / "board.yaml"
    path.write_text("rules: " + "a/b " * 100 + "\n")
    result = CliRunner().invoke(main, ["show", str(path)])
    assert result.exit_code == 2 and "no rule set named 'a/b a/b" in result.output


def test_a_later_end_without_a_role_s_score_is_an_error_at_its_line(tmp_path):
    # (found by the fuzz test: the default loss_for of the first end read the second end's scores)
    rules = (ROOT / "rules" / "mummy-maze-gdl.yaml").read_text(encoding="utf-8")
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "mummy-maze-gdl.yaml").write_text(
        rules.replace("scores: {explorer: 100, mummy: 0}", "scores: {explZrer: 100, mummy: 0}"), encoding="utf-8")
    board = tmp_path / "board.yaml"
    board.write_text((ROOT / "boards" / "mummymaze2p.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    result = CliRunner().invoke(main, ["show", str(board)])
    assert result.exit_code == 2, result.output
    assert result.output.startswith(f"Error: {tmp_path / 'rules' / 'mummy-maze-gdl.yaml'}:")
    assert "end 'escaped' gives no score to role 'explorer'" in result.output
