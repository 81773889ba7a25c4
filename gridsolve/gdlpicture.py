"""SVG pictures of GDL states: the grid a game's fluents draw, and its other fluents as text.

A GDL game says nothing of a board, but most games on a grid write their cells as fluents
with two whole-number arguments side by side: ``(cell 1 2 x)``, ``(location explorer 6 3)``.
The picture finds them: of the fluents with such a pair (the first pair of a fluent), the
largest group of one relation and argument place is the grid, the pair's first number the
column (left to right) and its second the row (top to bottom), both labelled; each cell shows
the fluent's other arguments (the relation's name too where several relations place things on
the grid). What fills more than half of the cells at the first state drawn is the grid's
background (``b`` of tic-tac-toe) and is drawn pale. Every other fluent is listed under the
grid as text (``control oplayer``, ``step 3``). A game whose fluents draw no grid is pictured
as that list alone.

Renderers never search: these functions draw the states an answer already holds
(:class:`gridsolve.gdl.solving.Answer`: its position and its principal line).
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter
from dataclasses import dataclass

from .gdl.kif import Term, read_kif
from .solve.common.answer import Answer
from .gdl.text import gdl_verdict, joint_text
from .svg import SVG_NS, STEPS_STYLE, sub_element

CELL = 40               # pixels per cell
MARGIN = 28             # room for the coordinates
TITLE = 46              # room for the title above the grid
LINE = 15               # a text line under the grid
CHAR = 6.6              # about the width of a character, for the picture's width
MAX_CELLS = 40          # a grid wider or higher than this is listed, not drawn
MAX_LISTED = 24         # fluents listed under the grid at most (the rest counted)
THUMB_CELL = 12         # pixels per cell of a thumbnail


@dataclass(frozen=True)
class Grid:
    """Where a game's fluents place things: the relation and argument place of the pair, and
    the columns and rows the pictured states use."""

    places: frozenset       # {(relation, index of the pair's first argument)}
    columns: tuple[int, int]
    rows: tuple[int, int]
    named: bool             # several relations: each cell's text names the relation
    background: str | None  # what fills most cells at the first state (drawn pale)

    @property
    def width(self) -> int:
        return self.columns[1] - self.columns[0] + 1

    @property
    def height(self) -> int:
        return self.rows[1] - self.rows[0] + 1


def _number(term: Term) -> int | None:
    return int(term.name) if not term.args and term.name.lstrip("-").isdigit() else None


def _pair(term: Term) -> int | None:
    """The index of the first two whole-number arguments side by side, None where there are none."""
    for i in range(len(term.args) - 1):
        if _number(term.args[i]) is not None and _number(term.args[i + 1]) is not None:
            return i
    return None


def _parsed(states: list[list[str]]) -> list[list[Term]]:
    return [read_kif(" ".join(fluents), "<state>") if fluents else [] for fluents in states]


def find_grid(states: list[list[Term]]) -> Grid | None:
    """The grid the fluents of ``states`` draw (the first state chooses it), or None."""
    groups: Counter = Counter()
    for term in states[0] if states else []:
        if (i := _pair(term)) is not None:
            groups[(term.name, i)] += 1
    if not groups:
        return None
    (name, index), count = groups.most_common(1)[0]
    places = {place for place, n in groups.items() if place[1] == index and n * 4 >= count} | {(name, index)}
    cells = [(_number(t.args[i]), _number(t.args[i + 1])) for state in states for t in state
             if (i := _pair(t)) is not None and (t.name, i) in places]
    xs, ys = [x for x, _ in cells], [y for _, y in cells]
    columns, rows = (min(xs), max(xs)), (min(ys), max(ys))
    if columns[1] - columns[0] >= MAX_CELLS or rows[1] - rows[0] >= MAX_CELLS:
        return None
    named = len({n for n, _ in places}) > 1
    grid = Grid(frozenset(places), columns, rows, named, None)
    first = Counter(text for text in _contents(grid, states[0]).values() for text in text)
    common = first.most_common(1)
    background = common[0][0] if common and common[0][1] * 2 > grid.width * grid.height else None
    return Grid(grid.places, columns, rows, named, background)


def _contents(grid: Grid, state: list[Term]) -> dict[tuple[int, int], list[str]]:
    """{cell: the texts the state's fluents put there}."""
    out: dict[tuple[int, int], list[str]] = {}
    for term in state:
        i = _pair(term)
        if i is None or (term.name, i) not in grid.places:
            continue
        rest = [str(a) for a in term.args[:i] + term.args[i + 2:]]
        text = " ".join(([term.name] if grid.named else []) + rest) or term.name
        out.setdefault((_number(term.args[i]), _number(term.args[i + 1])), []).append(text)
    return out


def _listed(grid: Grid | None, state: list[Term]) -> list[str]:
    """The fluents of ``state`` the grid does not draw, as text without the outer parentheses."""
    out = [str(t)[1:-1] if t.args else str(t) for t in state
           if grid is None or (i := _pair(t)) is None or (t.name, i) not in grid.places]
    if len(out) > MAX_LISTED:
        out = out[:MAX_LISTED - 1] + [f"... and {len(out) - MAX_LISTED + 1} more fluents"]
    return out


def _size(grid: Grid | None, titles: list[str], lists: list[list[str]]) -> tuple[int, int]:
    cells_w = grid.width * CELL if grid else 0
    cells_h = grid.height * CELL + MARGIN if grid else 0
    texts = titles + [text for listed in lists for text in listed]
    width = int(max(cells_w + 2 * MARGIN, 2 * MARGIN + CHAR * max(map(len, texts), default=0), 240))
    height = int(TITLE + cells_h + 12 + LINE * max(map(len, lists), default=0) + 12)
    return width, height


def _draw_grid(group, grid: Grid, state: list[Term], top: float) -> None:
    contents = _contents(grid, state)
    for col in range(grid.width):
        x = MARGIN + col * CELL
        sub_element(group, "text", str(grid.columns[0] + col), x=x + CELL / 2, y=top - 6, font_size=10,
                    text_anchor="middle", fill="#666")
    for row in range(grid.height):
        y = top + row * CELL
        sub_element(group, "text", str(grid.rows[0] + row), x=MARGIN - 6, y=y + CELL / 2 + 4, font_size=10,
                    text_anchor="end", fill="#666")
        for col in range(grid.width):
            x = MARGIN + col * CELL
            sub_element(group, "rect", x=x, y=y, width=CELL, height=CELL, fill="#fafafa", stroke="#999")
            texts = contents.get((grid.columns[0] + col, grid.rows[0] + row), [])
            shown = [t for t in texts if t != grid.background]
            for k, text in enumerate(shown[:3]):
                size = 14 if len(text) <= 3 and len(shown) == 1 else 8
                sub_element(group, "text", text if len(text) <= 10 else text[:9] + "…", x=x + CELL / 2,
                            y=y + CELL / 2 + (size / 3) + (k - (len(shown[:3]) - 1) / 2) * 10,
                            font_size=size, text_anchor="middle", font_weight="bold" if size == 14 else "normal")
            if texts and not shown:
                sub_element(group, "text", grid.background, x=x + CELL / 2, y=y + CELL / 2 + 4, font_size=10,
                            text_anchor="middle", fill="#bbb")


def _draw_state(group, grid: Grid | None, state: list[Term], title: str, extra: tuple = ()) -> None:
    head, _, tail = title.partition(": ")
    sub_element(group, "text", head, x=MARGIN, y=18, font_size=13, font_weight="bold")
    sub_element(group, "text", tail, x=MARGIN, y=35, font_size=12)
    top = TITLE + (MARGIN if grid else 0)
    if grid is not None:
        _draw_grid(group, grid, state, top)
    below = top + (grid.height * CELL if grid else 0) + 12
    for k, text in enumerate(_listed(grid, state) + list(extra)):
        sub_element(group, "text", text, x=MARGIN, y=below + LINE * (k + 1) - 3, font_size=11,
                    font_family="monospace")


def state_svg(fluents: list[str], title: str) -> str:
    """The picture of one GDL state (its fluents as KIF text)."""
    states = _parsed([fluents])
    grid = find_grid(states)
    width, height = _size(grid, [title], [_listed(grid, states[0])])
    svg = _root(width, height, title)
    _draw_state(svg, grid, states[0], title)
    return ET.tostring(svg, encoding="unicode") + "\n"


def line_svg(states: list[list[str]], titles: list[str], whole: str, moves: list[str]) -> str:
    """One picture of the states along a line: opened plainly, the last state titled ``whole``
    (the answer) with the line's steps (``moves``, one text a step) listed; opened at ``#step-K``
    (CSS ``:target``), state K titled ``titles[K]`` (K = 0: the state asked about; a state after
    each step for each title after the first)."""
    parsed = _parsed(states)
    grid = find_grid(parsed)
    steps = ["the line:"] + [f"{k}. {move}" for k, move in enumerate(moves, 1)] if moves else []
    if len(steps) > MAX_LISTED:
        steps = steps[:MAX_LISTED - 1] + [f"... and {len(steps) - MAX_LISTED + 1} more steps"]
    lists = [_listed(grid, s) for s in parsed]
    width, height = _size(grid, titles + [whole], lists + [lists[-1] + steps])
    svg = _root(width, height, whole)
    sub_element(svg, "style", STEPS_STYLE)
    for k, (state, title) in enumerate(zip(parsed, titles)):
        frame = sub_element(svg, "g", class_="step", id=f"step-{k}")
        sub_element(frame, "rect", x=0, y=0, width=width, height=height, fill="white")
        _draw_state(frame, grid, state, title)
    _draw_state(sub_element(svg, "g", id="whole"), grid, parsed[-1], whole, tuple(steps))
    return ET.tostring(svg, encoding="unicode") + "\n"


def thumbnail(fluents: list[str]) -> str:
    """A small picture of a GDL state: its grid's cells, the things on them as dots (a colour a
    kind), no text; a game with no grid: a box with the number of fluents."""
    states = _parsed([fluents])
    grid = find_grid(states)
    if grid is None:
        svg = ET.Element("svg", {"xmlns": SVG_NS, "width": "60", "height": "40", "viewBox": "0 0 60 40"})
        sub_element(svg, "rect", x=1, y=1, width=58, height=38, fill="#fafafa", stroke="#999")
        sub_element(svg, "text", f"{len(fluents)} fluents", x=30, y=24, font_size=9, text_anchor="middle",
                    font_family="sans-serif")
        return ET.tostring(svg, encoding="unicode") + "\n"
    width, height = grid.width * THUMB_CELL + 4, grid.height * THUMB_CELL + 4
    svg = ET.Element("svg", {"xmlns": SVG_NS, "width": str(width), "height": str(height),
                             "viewBox": f"0 0 {width} {height}"})
    kinds: dict[str, str] = {}
    colours = ("#1f5fbf", "#c8281e", "#2a9a3c", "#8a3fb5", "#e07b00", "#0f8f8f", "#666")
    contents = _contents(grid, states[0])
    for x, y in ((x, y) for y in range(grid.rows[0], grid.rows[1] + 1) for x in range(grid.columns[0], grid.columns[1] + 1)):
        left, top = 2 + (x - grid.columns[0]) * THUMB_CELL, 2 + (y - grid.rows[0]) * THUMB_CELL
        sub_element(svg, "rect", x=left, y=top, width=THUMB_CELL, height=THUMB_CELL, fill="#fafafa", stroke="#bbb")
        shown = [t for t in contents.get((x, y), []) if t != grid.background]
        if shown:
            colour = kinds.setdefault(shown[0], colours[min(len(kinds), len(colours) - 1)])
            sub_element(svg, "circle", cx=left + THUMB_CELL / 2, cy=top + THUMB_CELL / 2, r=THUMB_CELL / 3,
                        fill=colour)
    return ET.tostring(svg, encoding="unicode") + "\n"


def _root(width: int, height: int, title: str) -> ET.Element:
    svg = ET.Element("svg", {"xmlns": SVG_NS, "width": str(width), "height": str(height),
                             "viewBox": f"0 0 {width} {height}", "font-family": "sans-serif"})
    sub_element(svg, "title", title)
    sub_element(svg, "rect", x=0, y=0, width=width, height=height, fill="white")
    return svg


def answer_svg(answer: Answer, name: str) -> str:
    """The picture of a GDL answer (``gridsolve solve GAME.kif --svg``): its principal line's
    states stepped through, the whole line's last state titled with the answer."""
    line = answer.line or []
    moves = [joint_text(step) for step in line]
    titles = [f"{name}: the state asked about"] + [f"{name}: step {k} of {len(line)}: {move}"
                                                   for k, move in enumerate(moves, 1)]
    return line_svg([answer.position["fluents"]] + [list(step.after.fluents) for step in line], titles,
                    f"{name}: {gdl_verdict(answer)}", moves)
