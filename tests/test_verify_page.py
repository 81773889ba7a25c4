"""``gridsolve verify --report DIR`` (and ``--compare OLD.json``): the static report page of
gridsolve/verify/page.py, its levels' answers and pictures (view.py) and what changed since an
earlier run (compare.py), on tiny hand-checked boards and on the shipped ones."""
from __future__ import annotations

import html as html_module
import json
import re

import pytest

from conftest import CORRIDOR, ROOT
from test_verify import run, write
from gridsolve.verify.compare import level_changes, load_earlier
from gridsolve.verify.page import MANIFEST, level_status
from gridsolve.verify.verify import check_board, verify_paths

# The explorer steps east, the mummy's two steps east end under a wall, the explorer steps east
# onto the exit: a forced win in 3 plies; staying or stepping west lets the mummy catch it.
WON = CORRIDOR + "expect:\n  - win: true\n    plies: 3\n"
# The same corridor with the exit walled off: the expectation fails (no forced win).
WALLED = WON.replace("|     E       X |", "|     E     | X |").replace("+   +---+---+   +", "+   +---+---+---+")
BROKEN = "name: Broken\nrules: mummy-maze-2007\nlegend: {E: explorer}\nmap: |\n  +---+\n  | E |\n  +---+\n  +\n"


def text_of(html: str) -> str:
    """The page's words without its tags (what a reader sees, its script and style left out)."""
    html = re.sub(r"<(script|style)>.*?</\1>", "", html, flags=re.S)
    return html_module.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


@pytest.fixture()
def levels(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "levels/a-corridor.yaml", WON)
    write(tmp_path, "levels/b-walled.yaml", WALLED.replace("name: Corridor", "name: Walled"))
    return tmp_path


def test_the_index_names_every_level_its_verdict_and_each_check_with_its_line_and_measured_value(levels):
    result = run("verify", "levels", "--report", "page")
    assert result.exit_code == 1, result.output           # the walled corridor fails, as without --report
    index = (levels / "page/index.html").read_text()
    words = text_of(index)
    assert "1 passed" in words and "1 failed" in words and "0 invalid" in words
    assert index.index('data-name="Walled') < index.index('data-name="Corridor')      # the failing level first
    corridor = words[words.index("Corridor"):]
    assert "explorer: win, value 100, 3 plies" in corridor
    assert "pass: explorer win true (line 11) , measured true" in corridor
    assert "pass: explorer plies 3 (line 12) , measured 3" in corridor
    walled = words[words.index("Walled"):words.index("Corridor")]
    assert "explorer: no win" in walled
    assert "FAIL: explorer win true (line 11) , measured false" in walled
    assert re.search(r'data-status="pass"[^>]*data-size="4x2"[^>]*data-plies="3" data-name="Corridor', index)
    assert re.search(r'data-status="fail"[^>]*data-name="Walled', index)
    assert "<script src" not in index and "http" not in index.replace("http://www.w3.org", "")


def test_each_level_has_its_page_with_the_moves_values_and_the_line_stepped_through(levels):
    run("verify", "levels/a-corridor.yaml", "--report", "page")
    page = (levels / "page/levels/001-a-corridor.html").read_text()
    words = text_of(page)
    assert "solved" not in words and "value for explorer: 100" in words   # two roles: the value verdict
    moves = words[words.index("The moves of explorer's side"):]
    assert "east 100 2 yes" in moves and "nowhere 0 1 no" in moves and "west 0 1 no" in moves
    line = words[words.index("The principal line: 3 plies"):]
    assert line.index("ply 1: explorer east") < line.index("ply 2: mummy east east") < line.index(
        "ply 3: explorer east")
    for step in range(4):
        picture = (levels / f"page/svg/001-a-corridor-{step}.svg").read_text()
        assert picture.startswith("<svg") and f'../svg/001-a-corridor-{step}.svg' in page
    assert "ply 2 of 3: mummy east east" in (levels / "page/svg/001-a-corridor-2.svg").read_text()
    assert (levels / "page/svg/001-a-corridor.svg").read_text().count("<line") > 0


def test_an_invalid_level_is_listed_with_its_file_and_line(levels):
    write(levels, "levels/c-broken.yaml", BROKEN)
    result = run("verify", "levels", "--report", "page")
    assert result.exit_code == 2
    words = text_of((levels / "page/index.html").read_text())
    assert "1 invalid" in words
    broken = words[words.index("c-broken.yaml"):]
    assert "error: schema valid (line 8) , measured invalid — map: rows and '+---+' border lines must alternate" \
        in broken


def test_compare_puts_the_level_that_lost_its_win_first(levels):
    write(levels, "levels/b-walled.yaml", WON.replace("name: Corridor", "name: Walled"))   # both win at first
    assert run("verify", "levels", "--format", "json").exit_code == 0
    (levels / "old.json").write_text(run("verify", "levels", "--format", "json").output)
    write(levels, "levels/b-walled.yaml", WALLED.replace("name: Corridor", "name: Walled"))
    result = run("verify", "levels", "--report", "page", "--compare", "old.json")
    assert result.exit_code == 1
    index = (levels / "page/index.html").read_text()
    words = text_of(index)
    changes = words[words.index("What changed since old.json: 1 level"):words.index("status all")]
    assert "levels/b-walled.yaml lost its forced win (explorer win: true -> false)" in changes
    assert "now fails: explorer win (line 11), explorer plies (line 12)" in changes
    assert "a-corridor" not in changes
    assert index.index('id="changes"') < index.index('id="levels"')
    level = text_of((levels / "page/levels/002-b-walled.html").read_text())
    assert "Changed since old.json lost its forced win" in level


def test_changes_of_plies_a_label_and_levels_new_and_gone(levels):
    report = verify_paths([levels / "levels"])
    old = json.loads(report_json(report))
    old["boards"][0]["checks"][2]["measured"] = 5          # the corridor's plies were 5
    old["boards"][0]["difficulty"] = "hard"
    old["boards"][1]["path"] = "levels/old-name.yaml"
    (levels / "old.json").write_text(json.dumps(old))
    changes = {path: [c.text for c in found] for path, found in
               level_changes(report, load_earlier(levels / "old.json")).items()}
    assert changes == {
        str(levels / "levels/a-corridor.yaml"): ["explorer plies: 5 -> 3", "label hard -> none (not measured)"],
        str(levels / "levels/b-walled.yaml"): ["new since the earlier run"],
        "levels/old-name.yaml": ["not in this run (removed, renamed or not given)"]}


def report_json(report) -> str:
    from gridsolve.verify.reports import json_report
    return json_report(report)


def test_a_folder_with_files_the_report_did_not_write_is_refused_and_kept(levels):
    write(levels, "page/notes.txt", "mine")
    result = run("verify", "levels", "--report", "page")
    assert result.exit_code == 2
    assert "--report page: the folder holds 1 file this report did not write (e.g. notes.txt)" in result.output
    assert "Give a new or empty folder, or one an earlier --report wrote" in result.output
    assert (levels / "page/notes.txt").read_text() == "mine" and not (levels / "page/index.html").exists()
    assert "Traceback" not in result.output


def test_an_earlier_report_is_replaced_and_its_stale_pages_removed(levels):
    run("verify", "levels", "--report", "page")
    assert (levels / "page/levels/002-b-walled.html").exists() and (levels / "page" / MANIFEST).exists()
    (levels / "levels/b-walled.yaml").unlink()
    assert run("verify", "levels", "--report", "page").exit_code == 0
    assert not (levels / "page/levels/002-b-walled.html").exists()
    assert "1 passed" in text_of((levels / "page/index.html").read_text())
    assert run("verify", "levels", "--report", "levels/a-corridor.yaml").exit_code == 2   # a file, not a folder


def test_compare_needs_report_and_a_verify_json_file(levels):
    assert run("verify", "levels", "--compare", "old.json").exit_code == 2
    write(levels, "old.json", "{not json")
    result = run("verify", "levels", "--report", "page", "--compare", "old.json")
    assert result.exit_code == 2 and "--compare old.json: not JSON (line 1)" in result.output
    write(levels, "old.json", '{"boards": 3}')
    result = run("verify", "levels", "--report", "page", "--compare", "old.json")
    assert result.exit_code == 2 and "not a verify report" in result.output
    result = run("verify", "levels", "--report", "page", "--compare", "missing.json")
    assert result.exit_code == 2 and "--compare missing.json: no such file" in result.output
    assert not (levels / "page").exists()                  # refused before any level was checked


@pytest.mark.parametrize("name", ["maze-runner-duel-secret.yaml", "classic/first-steps.yaml", "order/crossing.yaml",
                                  pytest.param("wallmaze.yaml", marks=pytest.mark.slow),
                                  pytest.param("pacman3p.yaml", marks=pytest.mark.slow)])
def test_shipped_boards_have_a_picture_a_verdict_and_a_line(name):
    report = verify_paths([ROOT / "boards" / name], views=True)
    board = report.boards[0]
    assert level_status(board) == "pass"
    view = board.view
    assert view.verdict and not view.note and view.steps and view.picture.startswith("<svg")
    assert [step.index for step in view.steps] == list(range(1, len(view.steps) + 1))
    assert ("the robust answer: p1 knows only the obstacles it has found" in view.verdict) == ("secret" in name)
    assert all(step.picture.startswith("<svg") for step in view.steps)


@pytest.mark.slow
def test_the_page_of_every_shipped_board(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    result = run("verify", "boards", "--jobs", "2", "--report", tmp_path / "page")
    assert result.exit_code == 0, result.output
    index = (tmp_path / "page/index.html").read_text()
    pages = sorted((tmp_path / "page/levels").iterdir())
    assert len(pages) == index.count('<tr id="level-') == len(list(ROOT.glob("boards/**/*.yaml")))
    assert 'data-label="easy"' in index and 'data-label="hard"' in index
    assert "no answer" not in text_of(index)


def test_a_level_past_its_timeout_says_so_on_the_page(levels):
    write(levels, "levels/c-slow.yaml", (ROOT / "boards/pacman3p.yaml").read_text())
    result = run("verify", "levels/c-slow.yaml", "--timeout", "0.05", "--report", "page")
    assert result.exit_code == 1
    words = text_of((levels / "page/index.html").read_text())
    assert "1 timed out" in words and "no answer: the board did not finish within 0.05 s" in words


def test_a_line_longer_than_the_step_pictures_is_listed_with_the_whole_picture(levels, monkeypatch):
    monkeypatch.setattr("gridsolve.verify.view.STEP_PICTURES", 2)
    run("verify", "levels/a-corridor.yaml", "--report", "page")
    page = (levels / "page/levels/001-a-corridor.html").read_text()
    assert page.count('data-src="../svg/001-a-corridor.svg"') == 3       # the 3 plies: the whole line's picture
    assert not (levels / "page/svg/001-a-corridor-1.svg").exists()
    assert (levels / "page/svg/001-a-corridor-0.svg").exists()


def test_checking_one_board_yields_only_plan_and_checks_unless_asked_for_more():
    """The studio's verify reads check_board's events as a plan, then checks (gridsolve/studio/tasks.py)."""
    path = ROOT / "boards/generated/difficulty-hard.yaml"
    kinds = [event[0] for event in check_board(path)]
    assert kinds[0] == "plan" and set(kinds[1:]) == {"check"}
    events = list(check_board(path, difficulty=True, view=True))
    assert [e[0] for e in events[-2:]] == ["difficulty", "view"] and events[-2][1] == "hard"
