"""The README's promises: its opening commands, and every example board loads and solves."""
from __future__ import annotations

import re
import shlex

import pytest

from gridsolve.language.loader import load_board
from gridsolve.language.position import make_query
from gridsolve.solve.dispatch.dispatcher import solve

from reference import classic as classic_reference
from reference import game as reference
from conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
MANUAL = [README] + [page.read_text(encoding="utf-8") for page in sorted((ROOT / "docs").glob("*.md"))]
YAML_BLOCKS = [block for text in MANUAL for block in re.findall(r"```yaml\n(.*?)```", text, re.S)]
EXAMPLES = [block for block in YAML_BLOCKS if "map:" in block or "size:" in block]
# the classic Mummy Maze examples are checked against their own reference (test_classic_examples)
CLASSIC = [block for block in EXAMPLES if "rules: mummy-maze-classic" in block]
BOARDS = [block for block in EXAMPLES if block not in CLASSIC]


def test_readme_opens_with_install_and_test_commands():
    commands = re.findall(r"```sh\n(.*?)\n```", README, re.S)[:2]
    assert commands == ['pip install . && gridsolve solve boards/mummymaze2p-2007.yaml',
                        'pip install ".[test]" && python -m pytest -q']


def test_ci_runs_the_readme_test_command():
    assert 'pip install ".[test]" && python -m pytest -q' in (ROOT / ".ci" / "run").read_text()


@pytest.mark.parametrize("text", BOARDS)
def test_example_boards_load_and_solve(text, make_board):
    """The manual states no answer for its example boards: the solver's is checked against the
    independent reference (reference/game.py)."""
    board = make_board(text)
    query = make_query(board)
    answer = solve(board, query)
    want = reference.whole_game_answer(board, query.role, query.kind, query.position)
    assert (answer.value, answer.plies, answer.win, answer.survives) == \
        (want["value"], want["plies"], want["win"], want["survives"])


@pytest.mark.parametrize("text", [block for block in CLASSIC if "size:" in block])
def test_classic_examples_load_and_solve(text, make_board):
    """The manual's classic Mummy Maze boards in the explicit form: checked against their own
    independent reference (reference/classic.py, which reads that form only)."""
    board = make_board(text)
    answer = solve(board, make_query(board))
    want = classic_reference.solve(classic_reference.parse_board(text))
    assert (answer.win, answer.win_moves, answer.survives) == (want.win, want.moves, want.why != "dies")


# --- the answers the manual states for the seed games, solved ----------------------------------

def stated_answers() -> list[tuple[str, list[str], str]]:
    """(board, the query's options, the stated answer) of every row of the manual's table
    "What gridsolve answers from the initial positions" (``| board | question | answer |``);
    a row asking two questions (``A / B``) gives two, the second taking the first's options it
    does not set itself."""
    rows = []
    for page in MANUAL:
        table = re.search(r"^\| board \| question \| answer \|\n\|[-|]+\|\n((?:\|.*\|\n)+)", page, re.M)
        if table is None:
            continue
        for line in table.group(1).splitlines():
            board, question, answer = (cell.strip() for cell in line.strip("|").split(" | "))
            asked = [shlex.split(text) for text in re.findall(r"`([^`]*)`", question)]
            claims = answer.split(":")[0].split(" / ")
            assert len(claims) == len(asked), f"cannot read the row {line!r}"
            for options, claim in zip(asked, claims):
                merged = {**_options(asked[0]), **_options(options)}
                rows.append((board, merged, claim + answer[len(answer.split(":")[0]):], question))
    return rows


def _options(words: list[str]) -> dict:
    """{option: value} of command-line words: True for a flag, a tuple for ``--at``."""
    out: dict = {}
    i = 0
    while i < len(words):
        if i + 1 < len(words) and not words[i + 1].startswith("--"):
            value, step = words[i + 1], 2
        else:
            value, step = True, 1
        out[words[i]] = out.get(words[i], ()) + (value,) if words[i] == "--at" else value
        i += step
    return out


STATED = stated_answers()
QUICK_BOARDS = ("mummymaze2p-2007", "mummymaze2p")


def test_the_manual_states_answers_for_every_seed_game():
    assert {board for board, *_ in STATED} >= {"mummymaze2p-2007", "mummymaze2p", "wallmaze", "pacman3p",
                                                "maze-runner-duel"}
    assert len(STATED) >= 12


@pytest.mark.parametrize("board,options,claim,question", [
    row if row[0] in QUICK_BOARDS else pytest.param(*row, marks=pytest.mark.slow) for row in STATED],
    ids=[f"{row[0]} {' '.join(f'{k} {v}' for k, v in row[1].items())}" for row in STATED])
def test_the_manual_states_the_answers_gridsolve_gives(board, options, claim, question):
    """The value (or, for a survive question, yes/no) the row starts with, its plies where it
    says "in N plies", and the plies considered where the question says "(N plies)"."""
    loaded = load_board(ROOT / "boards" / f"{board}.yaml")
    known = {"--role", "--query", "--at", "--horizon", "--hidden"}
    assert set(options) <= known, f"the test does not read {set(options) - known} of {question!r}"
    query = make_query(loaded, options.get("--role"), options.get("--query", "value"), at=options.get("--at", ()),
                       horizon=int(options["--horizon"]) if "--horizon" in options else None,
                       hidden=bool(options.get("--hidden")))
    answer = solve(loaded, query)
    first = re.match(r"(\d+|yes|no)\b", claim).group(1)
    if first in ("yes", "no"):
        assert answer.holds == (first == "yes"), (question, claim)
    else:
        assert answer.value == int(first), (question, claim, answer.value)
    plies = re.search(r"\bin (\d+) plies", claim)
    if plies:
        assert answer.plies == int(plies.group(1)), (question, claim, answer.plies)
    considered = re.search(r"\((\d+) plies\)", question)
    if considered:
        assert answer.remaining == int(considered.group(1)), (question, answer.remaining)


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
        for cited in re.findall(r"\b((?:docs)/[\w./-]+\.(?:md|kif))", text):
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
