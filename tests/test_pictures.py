"""Pictures of principal lines (gridsolve/svg.py): a long line stays readable (its ply numbers
never cover each other, only some plies are numbered, its arrows fade from the first ply to the
last) and a short line numbers every ply.  The SVG is read back as XML; nothing is rendered."""
from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from gridsolve.generate.pictures import board_picture
from gridsolve.language.loader import load_board
from gridsolve.language.position import make_query
from gridsolve.solve.dispatch.dispatcher import solve
from gridsolve.svg import board_svg

from conftest import ROOT

SVG = "{http://www.w3.org/2000/svg}"
LONG = ROOT / "tests" / "data" / "classic-121-moves.yaml"      # 121 plies, back and forth on a 10x10 maze


def _solved_picture(path: Path) -> tuple[ET.Element, int]:
    board = load_board(path)
    query = make_query(board)
    answer = solve(board, query)
    return ET.fromstring(board_svg(board, query.position, answer)), len(answer.line)


def _line(root: ET.Element) -> ET.Element:
    return next(g for g in root.iter(f"{SVG}g") if g.get("id") == "principal-line")


def _labels(root: ET.Element) -> list[tuple[str, tuple[float, float, float, float], float]]:
    """Each ply number drawn: (its text, its box (left, top, right, bottom), its font size)."""
    out = []
    for group in _line(root).iter(f"{SVG}g"):
        rect, text = group.find(f"{SVG}rect"), group.find(f"{SVG}text")
        if rect is None or text is None:
            continue
        x, y, w, h = (float(rect.get(k)) for k in ("x", "y", "width", "height"))
        out.append((text.text, (x, y, x + w, y + h), float(text.get("font-size"))))
    return out


def _assert_apart(labels) -> None:
    """No two labels overlap, and no two centres are closer than the font size."""
    for (a, (l1, t1, r1, b1), size), (b, (l2, t2, r2, b2), _) in itertools.combinations(labels, 2):
        assert r1 <= l2 or r2 <= l1 or b1 <= t2 or b2 <= t1, f"ply numbers {a} and {b} overlap"
        centres = (((l1 + r1) - (l2 + r2)) / 2, ((t1 + b1) - (t2 + b2)) / 2)
        assert (centres[0] ** 2 + centres[1] ** 2) ** 0.5 >= size, f"ply numbers {a} and {b} are too close"


def test_a_long_line_numbers_where_it_turns_without_overlaps():
    root, plies = _solved_picture(LONG)
    assert plies == 121
    labels = _labels(root)
    _assert_apart(labels)
    numbers = {int(text.split("–")[0]) for text, _, _ in labels}
    assert {1, 121} <= numbers                       # where it starts and where it ends
    assert 30 <= len(numbers) < plies                # numbered where it turns, not at every ply
    # every ply still says its number in its arrow's tooltip, and the arrows fade in ply order
    arrows = [p for p in _line(root) if p.tag in (f"{SVG}polyline", f"{SVG}circle")]
    told = [[int(n) for n in p.find(f"{SVG}title").text.split(":")[0].split(" ", 1)[1].split(", ")] for p in arrows]
    assert [n for numbers in told for n in numbers] == list(range(1, plies + 1))   # "ply 5: ...", "plies 7, 8: ..."
    opacity = [float(p.get("opacity")) for p in arrows]
    assert opacity == sorted(opacity) and opacity[0] < 0.3 and opacity[-1] == 1.0
    key = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
    assert "numbered where it turns and every 5 plies" in key


def test_the_generated_levels_picture_of_a_long_line_keeps_its_numbers_apart():
    """generate --svg draws the most testing line and rings its decisive choices: the ply
    numbers keep clear of each other and of the rings' numbers."""
    root = ET.fromstring(board_picture(LONG, None, "win", None))
    labels = _labels(root)
    _assert_apart(labels)
    notes = next(g for g in root.iter(f"{SVG}g") if g.get("id") == "notes")
    rings = [(float(t.get("x")), float(t.get("y")) - 4) for t in notes.iter(f"{SVG}text")
             if t.text.isdigit() and t.get("text-anchor") == "middle"]
    assert rings
    for x, y in rings:
        assert all(not (l < x < r and t < y < b) for _, (l, t, r, b), _ in labels)


@pytest.mark.parametrize("path, plies", [(ROOT / "boards" / "mummymaze2p-2007.yaml", 20),
                                         (ROOT / "boards" / "classic" / "first-steps.yaml", 10)])
def test_a_short_line_numbers_every_ply(path, plies):
    root, drawn = _solved_picture(path)
    assert drawn == plies
    labels = _labels(root)
    _assert_apart(labels)
    numbered = set()
    for text, _, _ in labels:
        first, _, last = text.partition("–")
        numbered |= set(range(int(first), int(last or first) + 1))
    assert numbered == set(range(1, plies + 1))
    assert all(p.get("opacity") is None for p in _line(root))      # no fading
