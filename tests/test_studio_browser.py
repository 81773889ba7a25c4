"""The studio driven in headless Chromium (Debian's ``chromium`` package, through Playwright for
Python given the browser's path: nothing downloads a browser).  Run with
``python -m pytest -q -m browser``; .ci/run installs Chromium and runs them.  They skip, saying
so, only where no Chromium is installed."""
from __future__ import annotations

import base64
import contextlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from chromium import TIMEOUT, browser  # noqa: F401  (the Chromium fixture)
from gridsolve.language.loader import load_board
from gridsolve.language.position import make_query
from gridsolve.render import verdict
from gridsolve.solve.dispatch.dispatcher import solve
from gridsolve.explain.walls import Wall, interior_walls, toggled

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parent.parent
BOARD = "mummymaze2p-2007.yaml"


@pytest.fixture()
def served(tmp_path):
    """A studio serving a copy of two boards: (its address with the token, the folder)."""
    folder = tmp_path / "levels"
    folder.mkdir()
    for name in (BOARD, "maze-runner-duel.yaml"):
        shutil.copy(ROOT / "boards" / name, folder / name)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen([sys.executable, "-m", "gridsolve", "studio", str(folder), "--no-browser"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    process.stdout.readline()
    url = process.stdout.readline().split(" ", 1)[1].strip()
    yield url, folder
    process.terminate()
    process.wait(10)


@pytest.fixture()
def page(browser, served):
    url, _ = served
    context = browser.new_context(viewport={"width": 1300, "height": 950})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url + "&board=" + BOARD)
    page.wait_for_selector('[data-testid="verdict"]:not(.busy)')
    yield page
    context.close()
    assert not errors, errors


def expected_verdict(board, role="explorer", kind="value", at=()):
    return verdict(solve(board, make_query(board, role, kind, at=at)))


def read_verdict(page) -> str:
    page.wait_for_selector('[data-testid="verdict"]:not(.busy)')
    return page.inner_text('[data-testid="verdict"]')


def test_the_page_shows_the_board_the_answer_and_every_edge(page):
    board = load_board(ROOT / "boards" / BOARD)
    answer = solve(board, make_query(board))
    assert read_verdict(page) == verdict(answer)
    assert page.locator('svg[data-testid="board"]').count() == 1
    moves = page.locator('[data-testid="move"]')
    assert sorted((moves.nth(i).get_attribute("data-move"), int(moves.nth(i).get_attribute("data-value")))
                  for i in range(moves.count())) == sorted((m.move, m.value) for m in answer.moves)
    edges = {e.get_attribute("data-edge") for e in page.query_selector_all("[data-edge]")}
    assert edges == {f"{w.cell[0]},{w.cell[1]},{w.side}" for w in interior_walls(board)}
    present = {e.get_attribute("data-edge") for e in page.query_selector_all('[data-edge][data-wall="yes"]')}
    assert present == {f"{w.cell[0]},{w.cell[1]},{w.side}" for w in interior_walls(board) if w.present(board)}


def test_a_wall_click_updates_the_answer_and_undo_redo_walk_the_history(page):
    board = load_board(ROOT / "boards" / BOARD)
    before = read_verdict(page)
    page.click('[data-edge="7,3,east"]')
    page.wait_for_selector('[data-edge="7,3,east"][data-wall="yes"]')
    after = expected_verdict(toggled(board, Wall((7, 3), "east")))
    assert read_verdict(page) == after != before
    page.click('[data-edge="7,3,east"]')           # and off again
    page.wait_for_selector('[data-edge="7,3,east"][data-wall="no"]')
    assert read_verdict(page) == before
    page.click('[data-testid="undo"]')
    page.wait_for_selector('[data-edge="7,3,east"][data-wall="yes"]')
    assert read_verdict(page) == after
    page.click('[data-testid="undo"]')
    page.wait_for_selector('[data-edge="7,3,east"][data-wall="no"]')
    assert read_verdict(page) == before
    page.click('[data-testid="redo"]')
    page.wait_for_selector('[data-edge="7,3,east"][data-wall="yes"]')
    assert read_verdict(page) == after


def test_a_dragged_piece_changes_the_start(page):
    board = load_board(ROOT / "boards" / BOARD)
    handle = page.locator('[data-drag^="piece:explorer:"]')
    target = page.locator('[data-edge="8,3,north"]')    # the edge above (8,3): drop just below it
    box = target.bounding_box()
    handle.hover()
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + 20, steps=4)
    page.mouse.up()
    page.wait_for_selector('[data-drag="piece:explorer:8,3"]')
    assert read_verdict(page) == expected_verdict(board, at=("explorer=8,3",))


def test_a_dragged_mark_moves_the_exit(page):
    from gridsolve.studio.level import apply_level, level_of
    board = load_board(ROOT / "boards" / BOARD)
    handle = page.locator('[data-drag="mark:exit:1,3"]')
    target = page.locator('[data-edge="1,1,north"]')     # the edge above (1,1): drop just below it
    box = target.bounding_box()
    handle.hover()
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + 20, steps=4)
    page.mouse.up()
    page.wait_for_selector('[data-drag="mark:exit:1,1"]')
    level = level_of(board)
    level["marks"]["exit"] = [[1, 1]]
    assert read_verdict(page) == expected_verdict(apply_level(board, level))


def test_the_principal_line_steps_ply_by_ply(page):
    plies = page.locator('[data-testid="line"] li').count()
    assert plies == 20
    assert page.inner_text('[data-testid="line-ply"]') == "ply 20 of 20"
    assert page.locator("#line-position circle").count() == 0      # the whole line: no stepped position
    page.click('[data-testid="line-back"]')
    assert page.inner_text('[data-testid="line-ply"]') == "ply 19 of 20"
    assert page.locator("#line-position circle").count() == 2       # where both pieces stand after ply 19
    arrows_now = page.locator("#line-arrows polyline, #line-arrows circle").count()
    page.click('[data-testid="line-next"]')
    assert page.locator("#line-arrows polyline, #line-arrows circle").count() > arrows_now


def test_the_role_and_question_change_the_answer(page):
    board = load_board(ROOT / "boards" / BOARD)
    page.select_option('[data-testid="role"]', "mummy")
    page.select_option('[data-testid="kind"]', "win")
    page.wait_for_selector('[data-testid="verdict"]:has-text("mummy can force a win")')
    assert read_verdict(page) == expected_verdict(board, "mummy", "win")


def test_critical_walls_are_listed_and_drawn(page):
    from gridsolve.explain.explanation import critical_walls
    board = load_board(ROOT / "boards" / BOARD)
    found, _, _ = critical_walls(board, make_query(board))
    page.click('[data-testid="critical-walls"]')
    page.wait_for_selector('[data-testid="walls-result"] p', timeout=180_000)
    assert page.locator('[data-testid="critical-wall"]').count() == len(found)
    assert page.locator("[data-critical]").count() == len(found)


def test_a_long_computation_shows_progress_and_can_be_cancelled(page):
    page.click('[data-testid="critical-walls"]')
    page.wait_for_selector('[data-testid="job"] [data-testid="cancel"]')
    page.click('[data-testid="job"] [data-testid="cancel"]')
    page.wait_for_selector('[data-testid="message"]:has-text("cancelled")')
    assert page.locator('[data-testid="job"]').count() == 0
    page.click('[data-edge="7,3,east"]')        # the page still answers
    page.wait_for_selector('[data-edge="7,3,east"][data-wall="yes"]')
    assert "12 plies" in read_verdict(page)


def test_verify_shows_each_failing_expectation(page):
    page.click('[data-edge="7,3,east"]')
    page.wait_for_selector('[data-edge="7,3,east"][data-wall="yes"]')
    page.click('[data-testid="verify"]')
    page.wait_for_selector('[data-testid="verify-summary"]', timeout=120_000)
    assert "checks fail" in page.inner_text('[data-testid="verify-summary"]')
    failing = page.locator('[data-testid="check"][data-status="fail"]')
    assert failing.count() >= 1
    assert "expected plies: 20, measured 12" in page.inner_text('[data-testid="verify-result"]')


def test_save_writes_the_file_and_refuses_a_changed_one(page, served):
    _, folder = served
    path = folder / BOARD
    page.click('[data-edge="7,3,east"]')
    page.wait_for_selector('[data-edge="7,3,east"][data-wall="yes"]')
    read_verdict(page)
    page.click('[data-testid="save"]')
    page.wait_for_selector('[data-testid="message"]:has-text("saved")')
    saved = load_board(path)
    assert (7, 3) in saved.east
    assert "# What this level must keep doing" in path.read_text()
    path.write_text(path.read_text() + "# changed by someone else\n")
    page.click('[data-edge="6,3,north"]')
    page.wait_for_selector('[data-edge="6,3,north"][data-wall="yes"]')
    read_verdict(page)          # the edit's answer has come (it clears the message line when it comes)
    page.click('[data-testid="save"]')
    page.wait_for_selector('[data-testid="message"]:has-text("changed on disk")')
    assert path.read_text().endswith("# changed by someone else\n")


def test_a_link_carries_the_level(page, browser):
    page.click('[data-edge="7,3,east"]')
    page.wait_for_selector('[data-edge="7,3,east"][data-wall="yes"]')
    edited = read_verdict(page)
    link = page.url
    assert "#level=" in link and "token=" not in link
    level = json.loads(base64.urlsafe_b64decode(link.split("#level=")[1] + "=="))
    assert [7, 3] in level["walls"]["east"]
    other = page.context.new_page()        # the same browser: the cookie carries the token
    other.goto(link)
    other.wait_for_selector('[data-edge="7,3,east"][data-wall="yes"]')
    assert read_verdict(other) == edited
    other.click('[data-testid="undo"]')     # the link's level is one step from the file's
    other.wait_for_selector('[data-edge="7,3,east"][data-wall="no"]')


def test_a_playtest_against_the_solver_keeps_the_edit_history(page):
    page.click('[data-edge="7,3,east"]')
    page.wait_for_selector('[data-edge="7,3,east"][data-wall="yes"]')
    page.click('[data-testid="play"]')
    page.wait_for_selector('[data-testid="play-move"][data-move="nowhere"]')
    page.click('[data-testid="play-hint"]')
    page.wait_for_selector('[data-testid="play-transcript"]:has-text("value for explorer")')
    page.click('[data-testid="play-move"][data-move="nowhere"]')
    page.wait_for_selector('[data-testid="play-transcript"]:has-text("mummy plays")')
    page.click('[data-testid="play-back"]')
    page.wait_for_selector('[data-edge="7,3,east"][data-wall="yes"]')
    page.click('[data-testid="undo"]')      # the edit before the playtest is still in the history
    page.wait_for_selector('[data-edge="7,3,east"][data-wall="no"]')


def test_generate_shows_progress_and_opens_a_new_level(page, served):
    _, folder = served
    page.fill('[data-testid="generate-form"] [name="size"]', "5x5")
    page.select_option('[data-testid="generate-form"] [name="require"]', "survive")
    page.click('[data-testid="generate"]')
    page.wait_for_selector('[data-testid="open-generated"]', timeout=180_000)
    name = page.inner_text('[data-testid="open-generated"]').split(" ", 1)[1]
    assert (folder / name).is_file() and name.startswith("generated/")
    page.click('[data-testid="open-generated"]')
    page.wait_for_selector(f'[data-testid="board-picker"] option[value="{name}"]', state="attached")
    assert page.input_value('[data-testid="board-picker"]') == name
    read_verdict(page)


# - Classic Mummy Maze: enemies moved by rule, traps, the key and a gate ---

CLASSIC = "everything-at-once.yaml"      # two mummies, a scorpion, two traps, the key and a gate


@contextlib.contextmanager
def studio_page(browser, target: Path, viewport: tuple[int, int] = (1300, 950)):
    """A page of a studio serving ``target`` (a board file), its answer shown; no page error."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen([sys.executable, "-m", "gridsolve", "studio", str(target), "--no-browser"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    process.stdout.readline()
    url = process.stdout.readline().split(" ", 1)[1].strip()
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url)
    page.wait_for_selector('[data-testid="verdict"]:not(.busy)')
    yield page
    context.close()
    process.terminate()
    process.wait(10)
    assert not errors, errors


def copied_page(browser, tmp_path, folder_name: str, board: str):
    """A studio page on ``board`` of a copy of boards/FOLDER_NAME: (the page, the copy)."""
    folder = tmp_path / folder_name
    shutil.copytree(ROOT / "boards" / folder_name, folder)
    with studio_page(browser, folder / board) as page:
        yield page, folder


@pytest.fixture()
def classic_page(browser, tmp_path):
    yield from copied_page(browser, tmp_path, "classic", CLASSIC)


def centre(board, cell) -> tuple[float, float]:
    from gridsolve.svg import CELL, MARGIN, TITLE
    return MARGIN + (cell[0] - 0.5) * CELL, TITLE + (board.height - cell[1] + 0.5) * CELL


def test_a_classic_board_steps_the_enemies_and_the_gate(classic_page):
    from gridsolve.render import puzzle_verdict
    page, folder = classic_page
    board = load_board(folder / CLASSIC)
    answer = solve(board, make_query(board))
    assert read_verdict(page) == verdict(answer, True)
    assert page.inner_text('[data-testid="puzzle"]') == puzzle_verdict(board, answer)
    assert page.locator('[data-edge="6,3,north"][data-gate="yes"]').count() == 1
    for piece in ("mummy", "mummy2", "scorpion"):                     # the enemies can be dragged
        assert page.locator(f'[data-drag^="piece:{piece}:"]').count() == 1
    page.click("#line-first")
    assert page.inner_text('[data-testid="line-gates"]') == "gate closed"
    page.click('[data-testid="line-next"]')           # ply 1: the scorpion dies under mummy 2
    ghosts = {c.get_attribute("data-ghost") for c in page.query_selector_all("#line-position circle")}
    assert ghosts == {"explorer", "mummy", "mummy2"}
    for _ in range(3):                                  # ply 4: the explorer on the key opens the gate
        page.click('[data-testid="line-next"]')
    assert page.inner_text('[data-testid="line-ply"]') == f"ply 4 of {len(answer.line)}"
    assert page.inner_text('[data-testid="line-gates"]') == "gate open"
    assert page.locator('#gates line[data-state="open"]').count() == 1
    ghosts = {c.get_attribute("data-ghost"): (float(c.get_attribute("cx")), float(c.get_attribute("cy")))
              for c in page.query_selector_all("#line-position circle")}
    assert ghosts == {"explorer": centre(board, (5, 7)), "mummy": centre(board, (5, 4))}   # on the key; stuck
    page.click('[data-testid="line-back"]')
    assert page.inner_text('[data-testid="line-gates"]') == "gate closed"


def test_a_classic_gate_toggled_and_an_enemy_removed(classic_page):
    from gridsolve.studio.level import apply_level, level_of
    page, folder = classic_page
    board = load_board(folder / CLASSIC)
    before = read_verdict(page)
    page.check('[data-testid="edge-mode-gate"]')
    page.click('[data-edge="6,3,north"]')                      # the gate removed
    page.wait_for_selector('[data-edge="6,3,north"][data-gate="no"]')
    level = level_of(board)
    level["gates"] = {"north": [], "east": []}
    assert read_verdict(page) == verdict(solve(apply_level(board, level), make_query(board)), True)
    page.click('[data-edge="4,4,east"]')                       # a gate added on another edge
    page.wait_for_selector('[data-edge="4,4,east"][data-gate="yes"]')
    level["gates"]["east"] = [[4, 4]]
    edited = apply_level(board, level)
    assert read_verdict(page) == verdict(solve(edited, make_query(edited)), True)
    assert "gate between (4,4) and (5,4): closed" in page.inner_html('[data-testid="board-wrap"]')
    page.click('[data-testid="optional-piece"][data-piece="scorpion"]')     # the scorpion removed
    page.wait_for_selector('[data-testid="optional-piece"][data-piece="scorpion"][data-present="no"]')
    del level["pieces"]["scorpion"]
    edited = apply_level(board, level)
    assert read_verdict(page) == verdict(solve(edited, make_query(edited)), True)
    assert page.locator('[data-drag^="piece:scorpion:"]').count() == 0
    for _ in range(3):
        page.click('[data-testid="undo"]')
    page.wait_for_selector('[data-edge="6,3,north"][data-gate="yes"]')
    assert read_verdict(page) == before


# - Enemies in the level's order, the exit an edge of the border (issue 39, item 2e) ---

ORDER = "crossing.yaml"      # four enemies listed in the order they move; the exit the west edge of row 6


@pytest.fixture()
def order_page(browser, tmp_path):
    yield from copied_page(browser, tmp_path, "order", ORDER)


def test_the_enemies_row_reorders_removes_and_adds_enemies(order_page):
    from gridsolve.studio.level import apply_level, level_of
    page, folder = order_page
    board = load_board(folder / ORDER)
    assert read_verdict(page) == verdict(solve(board, make_query(board)), True)
    row = page.inner_text('[data-testid="enemies"]')
    assert ("1. red_mummy (2,5)" in row and "2. mummy (1,2)" in row and "3. mummy (1,1)" in row
            and "4. red_scorpion (5,4)" in row)
    assert page.locator('[data-testid="enemy-earlier"]').count() == 3       # (not for the first)
    assert page.locator('[data-drag^="enemy:red_scorpion4:"]').count() == 1   # the enemies can be dragged
    level = level_of(board)

    def answered(changed: str) -> None:
        page.wait_for_function(f"document.querySelector('[data-testid=enemies]').innerText.includes({changed!r})")
        edited = apply_level(board, level)
        assert read_verdict(page) == verdict(solve(edited, make_query(edited)), True)

    page.click('[data-testid="enemy-earlier"][data-place="4"]')      # the scorpion moves before mummy 3
    level["enemies"][2], level["enemies"][3] = level["enemies"][3], level["enemies"][2]
    answered("3. red_scorpion (5,4)")
    page.click('[data-testid="enemy-remove"][data-place="1"]')       # the red mummy leaves
    del level["enemies"][0]
    answered("1. mummy (1,2)")
    page.click('[data-testid="enemy-add"][data-kind="scorpion"]')    # a scorpion on the first free cell
    row = page.inner_text('[data-testid="enemies"]')
    assert "4. scorpion (1,6)" in row, row
    level["enemies"].append({"kind": "scorpion", "at": [1, 6]})
    answered("4. scorpion (1,6)")
    page.click('[data-testid="undo"]')                               # the scorpion taken back
    level["enemies"].pop()
    page.wait_for_function("!document.querySelector('[data-testid=enemies]').innerText.includes('4. scorpion')")
    edited = apply_level(board, level)
    assert read_verdict(page) == verdict(solve(edited, make_query(edited)), True)
