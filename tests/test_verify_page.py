"""``gridsolve verify --report DIR`` (and ``--compare OLD.json``): the static report page of
gridsolve/verify/page.py, its levels' answers and pictures (view.py) and what changed since an
earlier run (compare.py), on tiny hand-checked boards and on the shipped ones."""
from __future__ import annotations

import html as html_module
import json
import re
import xml.etree.ElementTree as ET

import pytest

from conftest import CORRIDOR, ROOT
from test_verify import run, write
from gridsolve.solve.dispatch.asker import Asker
from gridsolve.svg import CELL, MARGIN
from gridsolve.verify.view import board_view
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
    assert sorted(p.name for p in (levels / "page/svg").iterdir()) == ["001-a-corridor-thumb.svg",
                                                                       "001-a-corridor.svg"]   # one picture
    assert [f'../svg/001-a-corridor.svg#step-{step}' in page for step in range(5)] == [True] * 4 + [False]


SVG = "{http://www.w3.org/2000/svg}"


def test_the_level_picture_draws_the_board_once_and_a_group_a_ply_shown_at_its_fragment(make_board):
    """The corridor's line (explorer east, mummy east east, explorer east): opened plainly the
    whole line's three arrows; at #step-K the pieces after ply K and that ply's arrow alone."""
    board = make_board(CORRIDOR)
    view = board_view(board, Asker(board))
    root = ET.fromstring(view.picture)
    assert "#whole" in root.find(f"{SVG}style").text and ".step:target" in root.find(f"{SVG}style").text
    frames = {g.get("id"): g for g in root.findall(f"{SVG}g")}
    assert list(frames) == ["step-0", "step-1", "step-2", "step-3", "whole"]
    assert [g.get("class") for g in frames.values()] == ["step"] * 4 + [None]
    assert sum(1 for e in root if e.tag == f"{SVG}path") == 2            # the grid and the walls, drawn once

    def pieces(frame):     # {letter: column} of the pieces the frame draws
        texts = [t for t in frame.iter(f"{SVG}text") if t.get("font-size") == "15"]
        return {t.text: round((float(t.get("x")) - MARGIN) / CELL + 0.5) for t in texts}

    def arrows(frame):     # the arrows' tooltips (the whole line's) or colours (a ply's: the page says it)
        return [p.find(f"{SVG}title").text if p.find(f"{SVG}title") is not None else p.get("stroke")
                for p in frame.iter(f"{SVG}polyline")]

    assert [pieces(frames[f"step-{k}"]) for k in range(4)] == [{"E": 2, "M": 1}, {"E": 3, "M": 1},
                                                               {"E": 3, "M": 3}, {"E": 4, "M": 3}]
    explorer, mummy = "#1f5fbf", "#c8281e"
    assert [arrows(frames[f"step-{k}"]) for k in range(4)] == [[], [explorer], [mummy], [explorer]]
    assert arrows(frames["whole"]) == ["ply 1: explorer east", "ply 2: mummy east east", "ply 3: explorer east"]
    assert "ply 2 of 3: mummy east east" in " ".join(t.text or "" for t in frames["step-2"].iter(f"{SVG}text"))
    assert not [e for g in frames.values() for e in g.iter() if e is not g and e.get("id")]    # no id twice
    small = ET.fromstring(view.thumbnail)        # the index's: the board and the line, no words but letters
    assert [t.text for t in small.iter(f"{SVG}text")] == ["X", "E", "M"]      # the exit's mark, the pieces
    assert len(list(small.iter(f"{SVG}polyline"))) == 3 and not list(small.iter(f"{SVG}title"))


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


def test_compare_finds_a_lost_win_no_check_names_from_the_initial_answers(levels):
    """Two boards whose expect blocks name neither win nor plies (the corridor with none, one
    expecting only its width of choice): the JSON holds each initial answer, and walling off the
    exit shows the lost win, the plies and the value; an earlier file without answers says nothing."""
    choice = CORRIDOR.replace("name: Corridor", "name: Choice") + "expect:\n  - winning_first_moves: 1\n"
    (levels / "levels/b-walled.yaml").unlink()
    write(levels, "levels/a-corridor.yaml", CORRIDOR)
    write(levels, "levels/b-choice.yaml", choice)
    earlier = run("verify", "levels", "--format", "json")
    assert earlier.exit_code == 0, earlier.output
    boards = json.loads(earlier.output)["boards"]
    assert [b["answer"] for b in boards] == [{"role": "explorer", "value": 100, "win": True, "plies": 3}] * 2
    (levels / "old.json").write_text(earlier.output)
    walled = CORRIDOR.replace("|     E       X |", "|     E     | X |").replace("+   +---+---+   +", "+   +---+---+---+")
    write(levels, "levels/a-corridor.yaml", walled)
    write(levels, "levels/b-choice.yaml", walled.replace("name: Corridor", "name: Choice") +
          "expect:\n  - winning_first_moves: 1\n")
    run("verify", "levels", "--report", "page", "--compare", "old.json")
    words = text_of((levels / "page/index.html").read_text())
    changes = words[words.index("What changed since old.json: 2 levels"):words.index("status all")]
    for name in ("a-corridor", "b-choice"):
        assert f"levels/{name}.yaml lost its forced win (explorer from the initial position: win -> no win)" in changes
    assert "explorer plies from the initial position: 3 -> 4" in changes
    assert "explorer value from the initial position: 100 -> 0" in changes
    old = json.loads((levels / "old.json").read_text())
    for board in old["boards"]:
        del board["answer"]                                 # a file an earlier gridsolve wrote
    (levels / "old.json").write_text(json.dumps(old))
    run("verify", "levels/a-corridor.yaml", "--report", "page", "--compare", "old.json")
    words = text_of((levels / "page/index.html").read_text())
    assert "lost its forced win" not in words and "from the initial position" not in words


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
    assert all(step.pictured for step in view.steps)
    assert all(f'id="step-{step.index}"' in view.picture for step in view.steps)


@pytest.mark.slow
def test_the_page_of_every_shipped_board(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    result = run("verify", "boards", "--jobs", "2", "--report", tmp_path / "page")
    assert result.exit_code == 0, result.output
    index = (tmp_path / "page/index.html").read_text()
    pages = sorted((tmp_path / "page/levels").iterdir())
    assert len(pages) == index.count('<tr id="level-') == len(list(ROOT.glob("boards/**/*.yaml")))
    assert 'data-label="easy"' in index and 'data-label="hard"' in index
    # every board is answered on the page, the GDL games' too
    assert "no answer" not in text_of(index)
    assert len(list(ROOT.glob("boards/gdl/*.yaml"))) > 0


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
    assert page.count('data-src="../svg/001-a-corridor.svg#step-0"') == 1
    picture = (levels / "page/svg/001-a-corridor.svg").read_text()
    assert 'id="step-0"' in picture and 'id="step-1"' not in picture


def test_checking_one_board_yields_only_plan_and_checks_unless_asked_for_more():
    """The studio's verify reads check_board's events as a plan, then checks (gridsolve/studio/tasks.py)."""
    path = ROOT / "boards/generated/difficulty-hard.yaml"
    kinds = [event[0] for event in check_board(path)]
    assert kinds[0] == "plan" and set(kinds[1:]) == {"check"}
    events = list(check_board(path, difficulty=True, view=True))
    assert [e[0] for e in events[-3:]] == ["difficulty", "answer", "view"] and events[-3][1] == "hard"
    view = events[-1][1]
    assert events[-2][1] == {"role": view.role, "value": view.value, "win": view.win, "plies": view.plies}
    assert [e[0] for e in check_board(path, answer=True)][-1] == "answer"
