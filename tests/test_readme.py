"""The README's promises: its opening commands, and every example board loads and solves."""
from __future__ import annotations

import re

import pytest

from gridsolve.language.position import make_query
from gridsolve.solve.solver import solve

from conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
MANUAL = [README] + [page.read_text(encoding="utf-8") for page in sorted((ROOT / "docs").glob("*.md"))]
YAML_BLOCKS = [block for text in MANUAL for block in re.findall(r"```yaml\n(.*?)```", text, re.S)]
BOARDS = [block for block in YAML_BLOCKS if "map:" in block or "size:" in block]


def test_readme_opens_with_install_and_test_commands():
    commands = re.findall(r"```sh\n(.*?)\n```", README, re.S)[:2]
    assert commands == ['pip install . && gridsolve solve boards/mummymaze2p-2007.yaml',
                        'pip install ".[test]" && python -m pytest -q']


def test_ci_runs_the_readme_test_command():
    assert 'pip install ".[test]" && python -m pytest -q' in (ROOT / ".ci" / "run").read_text()


@pytest.mark.parametrize("text", BOARDS)
def test_example_boards_load_and_solve(text, make_board):
    board = make_board(text)
    answer = solve(board, make_query(board))
    assert answer.value in board.rules.scores_of(board.rules.roles[0])


def test_example_rule_set_is_the_shipped_one(make_board):
    example = next(block for block in YAML_BLOCKS if block.startswith("name: mummy-maze-2007"))
    layout = "\nsize: [3, 1]\npieces: {explorer: [1, 1], mummy: [3, 1]}\nmarks: {exit: [[2, 1]]}\n"
    inline = make_board("rules:\n" + "".join("  " + line + "\n" for line in example.splitlines()) + layout,
                        "inline.yaml")
    named = make_board("rules: mummy-maze-2007" + layout, "named.yaml")
    assert inline.rules.moves == named.rules.moves
    def ends(rules):
        return [(e.name, e.same_cell, e.reaches, e.scores, e.loss_for) for e in rules.ends]
    assert ends(inline.rules) == ends(named.rules)
    assert (inline.rules.first_step, inline.rules.last_step, inline.rules.timeout) == \
        (named.rules.first_step, named.rules.last_step, named.rules.timeout)


def test_the_project_refers_only_to_its_own_files():
    # Rule sets, docs and the README cite the original games by files that ship in the repository.
    texts = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "rules").glob("*.yaml"))]
    for path in texts:
        text = path.read_text(encoding="utf-8")
        assert "../" not in text.replace("](../", "]("), f"{path.name} refers outside the repository"
        for cited in re.findall(r"\b((?:docs|tests/gdl/kif)/[\w./-]+\.(?:md|kif))", text):
            assert (ROOT / cited).is_file(), f"{path.name} cites {cited}, which does not exist"
    assert (ROOT / "docs" / "original-games.md").is_file()


@pytest.mark.parametrize("text", [block for block in BOARDS if "expect:" in block])
def test_example_boards_meet_their_expectations(text, tmp_path):
    import subprocess
    import sys
    (tmp_path / "example.yaml").write_text(text, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "gridsolve", "verify", "example.yaml"], cwd=tmp_path,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert " passed" in done.stdout.splitlines()[-1]
