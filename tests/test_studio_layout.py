"""The studio laid out for the board (issue 46, item 3), in headless Chromium (marker ``browser``,
see tests/test_studio_browser.py): at 1024x768, 1400x1000 and 1920x1080, for boards from 3x3 to
16x16, the board takes at least 60% of the window's height, undistorted and wholly in view, with
the answer's panel beside it (never under it), and every ply of the principal line can be reached
and stepped to.  Each layout is also written as a screenshot into a tmp folder."""
from __future__ import annotations

import shutil
import struct
from pathlib import Path

import pytest

from gridsolve.language.loader import load_board
from gridsolve.language.position import make_query
from gridsolve.render import verdict
from gridsolve.solve.dispatch.dispatcher import solve
from gridsolve.svg import legend

from test_studio_browser import ROOT, browser, read_verdict, studio_page  # noqa: F401 (browser: a fixture)

pytestmark = pytest.mark.browser
SIZES = ((1024, 768), (1400, 1000), (1920, 1080))

# A 3x3 level: the mummy catches the explorer in 6 plies.
TINY = """\
name: Tiny
rules: mummy-maze-2007
size: [3, 3]
walls: {north: [[2, 2]], east: [[1, 1]]}
pieces: {explorer: [1, 3], mummy: [3, 1]}
marks: {exit: [[3, 3]]}
"""


def serpentine(n: int) -> str:
    """An n x n classic level (n even) whose one corridor winds from the top-left corner, row by
    row, to the exit at (2, 1); the mummy is walled in at (1, 1): a principal line of n*n - 2 moves."""
    assert n % 2 == 0
    north = []       # the walls between rows y and y + 1, each row's corridor open at one end
    for y in range(1, n):
        opening = n if (n - y - 1) % 2 == 0 else 1
        north += [[x, y] for x in range(1, n + 1) if x != opening]
    return (f"name: Serpentine {n}x{n}\nrules: mummy-maze-classic\nsize: [{n}, {n}]\n"
            f"walls: {{north: {north}, east: [[1, 1]]}}\n"
            f"pieces: {{explorer: [1, {n}], mummy: [1, 1]}}\nmarks: {{exit: [[2, 1]]}}\n")


@pytest.fixture(scope="module")
def levels(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("layout-levels")
    (folder / "tiny.yaml").write_text(TINY)
    (folder / "serpentine.yaml").write_text(serpentine(16))
    shutil.copy(ROOT / "boards" / "mummymaze2p-2007.yaml", folder)
    shutil.copy(ROOT / "boards" / "order" / "crossing.yaml", folder)      # the enemies' row under the board
    return folder


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("studio-screenshots")


def box(page, selector: str) -> dict:
    found = page.locator(selector).bounding_box()
    assert found is not None, f"{selector} is not shown"
    return found


def png_size(path: Path) -> tuple[int, int]:
    header = path.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", header[16:24])


def check_layout(page, width: int, height: int) -> dict:
    """The board at least 60% of the window's height, undistorted and wholly in view; the
    answer, the moves and the line's panel beside it, the answer in view.  The board's box."""
    board = box(page, 'svg[data-testid="board"]')
    right = board["x"] + board["width"]
    assert board["height"] >= 0.6 * height, (board, width, height)
    assert board["x"] >= 0 and board["y"] >= 0 and right <= width and board["y"] + board["height"] <= height
    _, _, frame_width, frame_height = map(float, page.get_attribute('svg[data-testid="board"]', "viewBox").split())
    assert abs(board["width"] - board["height"] * frame_width / frame_height) <= 1.5     # scaled, not stretched
    panel = box(page, "#right")
    assert panel["x"] >= right and panel["x"] + panel["width"] <= width
    answer = box(page, '[data-testid="verdict"]')
    assert answer["x"] >= right and answer["y"] < board["y"] + board["height"] / 3      # beside, not under
    assert answer["y"] + answer["height"] <= height
    for part in ('[data-testid="moves"]', '[data-testid="line"]'):
        assert box(page, part)["x"] >= right
    assert box(page, '[data-testid="moves"]')["y"] < height
    edges = page.locator("[data-edge]")                # every cell's edges inside the board's box
    for i in (0, edges.count() - 1):
        edge = edges.nth(i).bounding_box()
        assert board["x"] <= edge["x"] and edge["x"] + edge["width"] <= right
        assert board["y"] <= edge["y"] and edge["y"] + edge["height"] <= board["y"] + board["height"]
    return board


UNREACHED = """(beside) => {
  const missed = [];
  document.querySelectorAll('[data-testid="ply"]').forEach((item, i) => {
    item.scrollIntoView({ block: "nearest" });
    const r = item.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!(r.top >= 0 && r.bottom <= innerHeight && r.left >= beside && hit && item.contains(hit))) missed.push(i + 1);
  });
  return missed;
}"""


def check_plies_reachable(page, height: int, beside: float, every: int) -> None:
    """Each entry of the line, scrolled to, shows beside the board, wholly in the window, and
    takes a click at its centre; clicked (every ``every``-th, and the last), it steps to its ply."""
    assert page.evaluate(UNREACHED, beside) == []
    plies = page.locator('[data-testid="ply"]')
    total = plies.count()
    assert total > 0
    for i in sorted({*range(0, total, every), total - 1}):
        item = plies.nth(i)
        item.scroll_into_view_if_needed()
        where = item.bounding_box()
        assert where["y"] >= 0 and where["y"] + where["height"] <= height and where["x"] >= beside, (i, where)
        item.click()              # (Playwright clicks only where the entry itself takes the click)
        assert page.inner_text('[data-testid="line-ply"]') == f"ply {i + 1} of {total}"


SHOWN = """() => {
  const list = document.getElementById("line"), item = list.querySelector("li.current");
  if (!item) return null;
  const a = list.getBoundingClientRect(), b = item.getBoundingClientRect();
  return b.top >= a.top - 0.5 && b.bottom <= a.bottom + 0.5 && b.top >= 0 && b.bottom <= innerHeight;
}"""


def check_stepping_shows_each_ply(page) -> None:
    """Stepped with the Right key from the line's start, the ply stepped to shows in the list
    and in the window."""
    total = page.locator('[data-testid="ply"]').count()
    page.click("#line-first")
    assert page.evaluate(SHOWN) is None
    for i in range(1, total + 1):
        page.keyboard.press("ArrowRight")
        assert page.evaluate(SHOWN) is True, i
    assert page.inner_text('[data-testid="line-ply"]') == f"ply {total} of {total}"


@pytest.mark.parametrize("name,plies", [("tiny.yaml", 6), ("mummymaze2p-2007.yaml", 20),
                                        ("serpentine.yaml", 254), ("crossing.yaml", None)])
def test_the_board_beside_its_answer_at_three_sizes(browser, levels, shots, name, plies):
    board = load_board(levels / name)
    answer = solve(board, make_query(board))
    if plies is not None:
        assert len(answer.line) == plies
    with studio_page(browser, levels / name, SIZES[0]) as page:
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            page.reload()
            assert read_verdict(page) == verdict(answer, board.rules.unlimited)
            placed = check_layout(page, width, height)
            assert [span.inner_text() for span in page.locator('[data-testid="legend"] span').all()] == \
                [text for text, _ in legend(board)]
            shot = shots / f"{Path(name).stem}-{width}x{height}.png"
            page.screenshot(path=str(shot))
            assert png_size(shot) == (width, height)
            assert page.locator('[data-testid="ply"]').count() == len(answer.line)
            check_plies_reachable(page, height, placed["x"] + placed["width"], 10)
            if (width, height) == SIZES[0]:         # (where the line's box is smallest)
                check_stepping_shows_each_ply(page)


def test_the_layout_follows_the_window(browser, levels):
    with studio_page(browser, levels / "serpentine.yaml", SIZES[2]) as page:
        large = check_layout(page, *SIZES[2])
        page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})
        board_height = "() => document.querySelector('svg[data-testid=board]').getBoundingClientRect().height"
        for _ in range(100):        # polled from here: the studio's CSP forbids wait_for_function's eval
            if page.evaluate(board_height) < large["height"]:
                break
            page.wait_for_timeout(100)
        assert page.evaluate(board_height) < large["height"]
        check_layout(page, *SIZES[0])
        page.click('[data-testid="optional-piece"][data-piece="scorpion"]')      # a row under the board grows
        page.wait_for_selector('[data-testid="optional-piece"][data-piece="scorpion"][data-present="yes"]')
        read_verdict(page)
        check_layout(page, *SIZES[0])
