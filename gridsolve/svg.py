"""SVG pictures of a board, a position and the principal line of an answer.

Written with ``xml.etree.ElementTree`` from the standard library: the picture is a few dozen
rectangles, lines, circles and texts, which plain SVG elements say directly, so no drawing
library is needed (docs/explain.md, "Pictures").  Walls are thick lines, solid cells dark, marks
coloured squares with their legend character, pieces circles in their role's colour; each
ply of the principal line is an arrow in the mover's colour along the cells it steps
through, numbered from 1, and the answer is the picture's title.  A step taken again along an
edge is drawn beside the earlier one; no ply number covers another.  A long line's arrows fade
from the first ply to the last, and only its turns (and every EVERY-th ply of a straight run)
are numbered, so that a 121-move line stays readable.
"""
from __future__ import annotations

import dataclasses
import math
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from .errors import QueryError
from .language.model import DELTA, OFF_BOARD, Board, Cell
from .language.position import Position
from .render import describe_position, glyphs, verdict
from .solve.program.explore import move_parts
from .solve.common.answer import Answer, Ply

CELL = 44                 # pixels per cell
MARGIN = 28               # room for the coordinates
TITLE = 56                # room for the title (two lines) above the board
CHAR = 6.8                # about the width of a character of the title, for the picture's width
ROLE_COLOURS = ("#1f5fbf", "#c8281e", "#2a9a3c", "#8a3fb5", "#e07b00", "#0f8f8f")
MARK_COLOURS = ("#b9e4b0", "#f6dc8c", "#c9d7f2", "#f2c6d8", "#d9d9d9")
SVG_NS = "http://www.w3.org/2000/svg"
FULL_LINE = 40            # a line of at most this many strokes numbers every ply; a longer one where it turns
EVERY = 5                 # ... and every EVERY plies of a straight run
LABEL, FONT = 15, 9       # a ply number: a label 15 px high, in 9 px type
LANES = (0, 5, -5, 10, -10)     # the shift of a step taken the 1st, 2nd, ... time along an edge
SPOTS = ((0, 0), *((round(r * math.cos(a * math.pi / 4)), round(-r * math.sin(a * math.pi / 4)))
                   for r in (15, 22, 30) for a in (2, 0, 6, 4, 1, 3, 5, 7)))   # a label's spots, nearest first
NEAR = 17                 # a long line's numbers take only the spots of the first two rings (nearer their arrows)


def _centre(board: Board, cell: Cell) -> tuple[float, float]:
    x, y = cell
    return MARGIN + (x - 0.5) * CELL, TITLE + (board.height - y + 0.5) * CELL


def _corner(board: Board, x: int, y: int) -> tuple[float, float]:
    """The top-left corner of cell (x, y)."""
    return MARGIN + (x - 1) * CELL, TITLE + (board.height - y) * CELL


def sub_element(parent, tag: str, text: str | None = None, **attrs) -> ET.Element:
    element = ET.SubElement(parent, tag, {k.rstrip("_").replace("_", "-"): str(v) for k, v in attrs.items()})
    if text is not None:
        element.text = text
    return element


def walked_cells(board: Board, start: Cell, move: str, end: Cell) -> list[Cell]:
    """The cells a piece steps through: each open step of the move, then its final cell (a
    bump or a blocked step ends where the rules say)."""
    cells, cell = [start], start
    for step in move.split():
        if step != "nowhere" and board.open_step(cell, step):
            cell = (cell[0] + DELTA[step][0], cell[1] + DELTA[step][1])
            cells.append(cell)
    if cells[-1] != end:
        cells.append(end)
    return cells


def board_svg(board: Board, position: Position, answer: Answer | None = None, title: str | None = None,
              notes: tuple = ()) -> str:
    """The SVG text of ``board`` at ``position``; with ``answer``, its principal line and verdict;
    ``notes``: (cell, text) pairs, each cell ringed in red with its number and the text listed
    under the board (the decisive choices of a generated level)."""
    chars = glyphs(board)
    colour = role_colours(board)
    if title is None:
        title = describe_position(board, position) if answer is None else \
            f"{board.name}: {verdict(answer, board.rules.unlimited)}"
    with_line = answer is not None and bool(answer.line)
    strokes = _strokes(board, answer.line) if with_line else []
    key = _line_key(strokes) if with_line else ()
    legend = _legend_parts(board, chars, colour)
    svg = _root(board, colour, [title], key, legend, notes)
    _draw_title(svg, title)
    _draw_cells(svg, board, position, chars)
    _draw_walls(svg, board)
    _draw_gates(svg, board, position)
    if with_line:
        _draw_line(svg, board, strokes, colour, _piece_boxes(board, position),
                   [_box(_note_number(board, cell), 12, 14) for cell, _ in notes])
    _draw_pieces(svg, board, position, chars, colour)
    _draw_legend(svg, legend, key, TITLE + board.height * CELL + 40)
    _draw_notes(svg, board, notes, TITLE + board.height * CELL + 56 + 16 * len(key))
    ET.indent(svg)
    return ET.tostring(svg, encoding="unicode") + "\n"


STEPS_STYLE = ".step{display:none}.step:target{display:inline}.step:target~#whole{display:none}"


def stepped_svg(board: Board, position: Position, answer: Answer, titles: list[str]) -> str:
    """One picture of a principal line and of the positions along it, the board drawn once:
    opened plainly, the whole line (as :func:`board_svg` draws it); opened at ``#step-K`` (CSS
    ``:target``), the position after ply K with that ply's arrow, its pieces, gates, items left
    and ``titles[K]`` (K = 0: the initial position; a ply for each title after the first)."""
    chars, colour = glyphs(board), role_colours(board)
    line = answer.line or ()
    whole = f"{board.name}: {verdict(answer, board.rules.unlimited)}"
    frames = [(position, None, titles[0])] + [
        (ply.after, dataclasses.replace(answer, line=line[i:i + 1]), title)
        for i, (ply, title) in enumerate(zip(line, titles[1:]))]
    strokes = _strokes(board, line)
    keys = (_line_key(strokes) if line else (), _line_key(strokes[:1]))
    legend = _legend_parts(board, chars, colour)
    svg = _root(board, colour, [whole, *titles], max(keys, key=len), legend)
    sub_element(svg, "style", STEPS_STYLE)
    _draw_grid(svg, board, compact=True)
    _draw_marks(svg, board, position, chars, collected=False)
    _draw_coordinates(svg, board)
    _draw_walls(svg, board, compact=True)
    below = TITLE + board.height * CELL + 40
    shared = keys[0] == keys[1]          # (a long line's key differs from a ply's)
    _draw_legend(svg, legend, keys[1] if shared else (), below)
    for k, (at, step, title) in enumerate(frames):
        frame = sub_element(svg, "g", class_="step", id=f"step-{k}")
        _draw_frame(frame, board, at, step, title, () if shared else keys[1], below)
        for drawn in list(frame.iter()):        # (the page says the ply: no tooltips)
            for tip in drawn.findall("title"):
                drawn.remove(tip)
    _draw_frame(sub_element(svg, "g", id="whole"), board, position, answer, whole, () if shared else keys[0], below)
    return ET.tostring(svg, encoding="unicode") + "\n"


def thumbnail_svg(board: Board, position: Position, answer: Answer | None) -> str:
    """A small picture of ``board`` at ``position`` with the answer's principal line (the report
    page's index): the cells, marks, walls, gates, the line's arrows and the pieces, without
    titles, numbers, coordinates or legend."""
    chars, colour = glyphs(board), role_colours(board)
    width, height = board.width * CELL + 8, board.height * CELL + 8
    svg = ET.Element("svg", {"xmlns": SVG_NS, "width": str(width), "height": str(height),
                             "viewBox": f"{MARGIN - 4} {TITLE - 4} {width} {height}"})
    _draw_markers(svg, board, colour)
    _draw_grid(svg, board, compact=True)
    _draw_marks(svg, board, position, chars)
    _draw_walls(svg, board, compact=True)
    if board.has_gates:
        _draw_gates(svg, board, position)
    if answer is not None and answer.line:
        _draw_line(svg, board, _strokes(board, answer.line), colour, [], [], numbered=False)
    _draw_pieces(svg, board, position, chars, colour)
    return ET.tostring(svg, encoding="unicode") + "\n"


def _draw_frame(group, board: Board, position: Position, answer: Answer | None, title: str, key: tuple,
                below: float) -> None:
    """What :func:`stepped_svg` draws of one position over the board: its title, items left,
    gates, the line (if any), pieces and the line's key (the frame's inner ids dropped: they repeat)."""
    chars, colour = glyphs(board), role_colours(board)
    _draw_title(group, title)
    _draw_marks(group, board, position, chars, collected=True)
    if board.has_gates:
        _draw_gates(group, board, position)
    if answer is not None and answer.line:
        _draw_line(group, board, _strokes(board, answer.line), colour, _piece_boxes(board, position), [])
        _draw_key(group, key, below)
    _draw_pieces(group, board, position, chars, colour)
    for element in group.iter():
        if element is not group:
            element.attrib.pop("id", None)


def _root(board: Board, colour: dict, titles: list[str], key: tuple, legend: list, notes: tuple = ()) -> ET.Element:
    """The picture's element titled ``titles[0]``, wide enough for the longest title and text
    under the board, with the arrowheads' markers and a white background."""
    halves = [part for title in titles for part in title.partition(": ")[::2]]
    width = int(max(board.width * CELL + 2 * MARGIN, CHAR * max(map(len, halves)) + 2 * MARGIN))
    height = board.height * CELL + MARGIN + TITLE + 28 + 16 * (len(key) + len(notes))
    lines = [len(text) + 4 for _, text in notes] + [len(text) for text in key] + \
        [sum(len(text) + 3 for text, _ in legend)]
    width = max(width, int(2 * MARGIN + 6.2 * max(lines)))
    svg = ET.Element("svg", {"xmlns": SVG_NS, "width": str(width), "height": str(height),
                             "viewBox": f"0 0 {width} {height}", "font-family": "sans-serif"})
    sub_element(svg, "title", titles[0])
    _draw_markers(svg, board, colour)
    sub_element(svg, "rect", x=0, y=0, width=width, height=height, fill="white")
    return svg


def _draw_markers(svg, board: Board, colour: dict) -> None:
    """The arrowheads, one a role in its colour."""
    defs = sub_element(svg, "defs")
    for role in board.rules.pieces:      # (the arrows of pieces moved by rule too)
        marker = sub_element(defs, "marker", id=f"arrow-{role}", viewBox="0 0 10 10", refX=8, refY=5,
                             markerWidth=5, markerHeight=5, orient="auto-start-reverse")
        sub_element(marker, "path", d="M 0 0 L 10 5 L 0 10 z", fill=colour[role])


def _draw_title(svg, title: str) -> None:
    head, _, tail = title.partition(": ")
    sub_element(svg, "text", head, x=MARGIN, y=TITLE - 34, font_size=13, font_weight="bold")
    sub_element(svg, "text", tail, x=MARGIN, y=TITLE - 14, font_size=12)


def _piece_boxes(board: Board, position: Position) -> list:
    return [_box(_centre(board, cell), CELL * 0.6, CELL * 0.6) for _, cell in position.pieces if cell != OFF_BOARD]


def _draw_cells(svg, board: Board, position: Position, chars: dict, compact: bool = False) -> None:
    _draw_grid(svg, board, compact)
    _draw_marks(svg, board, position, chars)
    _draw_coordinates(svg, board)


def _draw_grid(svg, board: Board, compact: bool = False) -> None:
    """The cells, light and solid dark; ``compact``: the board one light rectangle under a grid
    path (the same picture in fewer elements)."""
    if compact:
        sub_element(svg, "rect", x=MARGIN, y=TITLE, width=board.width * CELL, height=board.height * CELL,
                    fill="#fbfaf5")
        grid = "".join(f"M{MARGIN + x * CELL} {TITLE}v{board.height * CELL}" for x in range(board.width + 1)) + \
            "".join(f"M{MARGIN} {TITLE + y * CELL}h{board.width * CELL}" for y in range(board.height + 1))
        sub_element(svg, "path", d=grid, stroke="#dddddd", stroke_width=1)
    for y in range(1, board.height + 1):
        for x in range(1, board.width + 1):
            cx, cy = _corner(board, x, y)
            solid = (x, y) in board.solid
            if not compact or solid:
                sub_element(svg, "rect", x=cx, y=cy, width=CELL, height=CELL, fill="#444444" if solid else "#fbfaf5",
                            stroke="#dddddd", stroke_width=1)


def _draw_marks(svg, board: Board, position: Position, chars: dict, collected: bool | None = None) -> None:
    """The marks' cells (an item's while it is left); ``collected``: only the items' marks (True)
    or only the others (False)."""
    marks = sorted(board.marks)
    left = position.items_left(board)
    taken = {c.mark: left[name] for name, c in board.rules.collect.items()}
    for i, mark in enumerate(marks):
        if collected is not None and (mark in taken) != collected:
            continue
        for cell in sorted(board.marks[mark]):
            if mark in taken and cell not in taken[mark] or cell in board.outside():
                continue        # (a mark beyond an exit edge: the edge is drawn in its colour)
            cx, cy = _corner(board, *cell)
            sub_element(svg, "rect", x=cx + 3, y=cy + 3, width=CELL - 6, height=CELL - 6, rx=4,
                 fill=MARK_COLOURS[i % len(MARK_COLOURS)])
            sub_element(svg, "text", chars[mark], x=cx + CELL - 8, y=cy + 14, font_size=11, text_anchor="end",
                 fill="#555555")


def _draw_coordinates(svg, board: Board) -> None:
    for x in range(1, board.width + 1):
        sub_element(svg, "text", str(x), x=MARGIN + (x - 0.5) * CELL, y=TITLE + board.height * CELL + 16,
             font_size=11, text_anchor="middle", fill="#777777")
    for y in range(1, board.height + 1):
        sub_element(svg, "text", str(y), x=MARGIN - 10, y=TITLE + (board.height - y + 0.5) * CELL + 4,
             font_size=11, text_anchor="middle", fill="#777777")


def _draw_walls(svg, board: Board, compact: bool = False) -> None:
    """The walls, a thick line each (``compact``: all of them one path), the board's edge and its exits."""
    style = {"stroke": "#111111", "stroke_width": 4, "stroke_linecap": "round"}
    north = [_corner(board, x, y) for x, y in sorted(board.north)]
    east = [_corner(board, x, y) for x, y in sorted(board.east)]
    if compact and north + east:
        sub_element(svg, "path", d="".join(f"M{cx:g} {cy:g}h{CELL}" for cx, cy in north) +
                    "".join(f"M{cx + CELL:g} {cy:g}v{CELL}" for cx, cy in east), fill="none", **style)
    elif not compact:
        for cx, cy in north:
            sub_element(svg, "line", x1=cx, y1=cy, x2=cx + CELL, y2=cy, **style)
        for cx, cy in east:
            sub_element(svg, "line", x1=cx + CELL, y1=cy, x2=cx + CELL, y2=cy + CELL, **style)
    sub_element(svg, "rect", x=MARGIN, y=TITLE, width=board.width * CELL, height=board.height * CELL, fill="none",
         **style)
    marks = sorted(board.marks)
    for beyond, (cell, direction) in board.outside().items():      # an exit edge: an opening in the mark's colour
        cx, cy = _corner(board, *cell)
        x1, y1, x2, y2 = {"north": (cx, cy, cx + CELL, cy), "south": (cx, cy + CELL, cx + CELL, cy + CELL),
                          "west": (cx, cy, cx, cy + CELL), "east": (cx + CELL, cy, cx + CELL, cy + CELL)}[direction]
        mark = next(m for m in marks if beyond in board.marks[m])
        sub_element(svg, "line", x1=x1 + 4 * (x1 != x2), y1=y1 + 4 * (y1 != y2), x2=x2 - 4 * (x1 != x2),
                    y2=y2 - 4 * (y1 != y2), stroke=MARK_COLOURS[marks.index(mark) % len(MARK_COLOURS)], stroke_width=6)


def _draw_gates(svg, board: Board, position: Position) -> None:
    """Gates: a thick dashed bar while closed, a thin dotted one while open (with its state as a
    tooltip)."""
    state = "open" if position.gates_open else "closed"
    style = ({"stroke": "#d9822b", "stroke_width": 5, "stroke_dasharray": "6 3"} if state == "closed" else
             {"stroke": "#d9822b", "stroke_width": 1.5, "stroke_dasharray": "2 4"})
    group = sub_element(svg, "g", id="gates")
    for x, y in sorted(board.gate_north):
        cx, cy = _corner(board, x, y)
        bar = sub_element(group, "line", x1=cx, y1=cy, x2=cx + CELL, y2=cy, **style)
        sub_element(bar, "title", f"gate between ({x},{y}) and ({x},{y + 1}): {state}")
    for x, y in sorted(board.gate_east):
        cx, cy = _corner(board, x, y)
        bar = sub_element(group, "line", x1=cx + CELL, y1=cy, x2=cx + CELL, y2=cy + CELL, **style)
        sub_element(bar, "title", f"gate between ({x},{y}) and ({x + 1},{y}): {state}")


@dataclass
class _Stroke:
    """One ply of one piece as drawn: the centres of the cells it walks through (one: it stays or
    bumps back; a piece's stays on one cell, ply after ply, are one stroke)."""
    role: str
    move: str
    plies: list[int]                      # the plies' numbers, from 1
    points: list[tuple[float, float]]
    cell: Cell

    @property
    def stays(self) -> bool:
        return len(self.points) == 1

    @property
    def text(self) -> str:
        return str(self.plies[0]) if len(self.plies) == 1 else f"{self.plies[0]}–{self.plies[-1]}"

    def title(self) -> str:
        if len(self.plies) > 1:
            return f"plies {', '.join(map(str, self.plies))}: {self.role} stays"
        return f"ply {self.plies[0]}: {self.role} {self.move}"


def _strokes(board: Board, line: tuple[Ply, ...]) -> list[_Stroke]:
    """The line's strokes in ply order.  Roles are drawn side by side, and a step a piece takes
    again along an edge it walked before is drawn beside the earlier one (a lane further out),
    so that a line that goes back and forth shows each pass."""
    roles = board.rules.roles
    strokes: list[_Stroke] = []
    staying: dict[str, _Stroke] = {}
    walked: dict[tuple, int] = {}        # (role, edge) -> times walked
    for ply in line:
        for role, move in move_parts(ply.move, ply.side).items():
            start, end = ply.before.cell(role), ply.after.cell(role)
            cells = walked_cells(board, start, move, end)
            number = ply.index + 1
            if len(cells) == 1 and role in staying and staying[role].cell == start:
                staying[role].plies.append(number)
                continue
            staying.pop(role, None)
            edges = [(role, frozenset(pair)) for pair in zip(cells, cells[1:])]
            lane = max((walked.get(edge, 0) for edge in edges), default=0)
            for edge in edges:
                walked[edge] = walked.get(edge, 0) + 1
            shift = (roles.index(role) - (len(roles) - 1) / 2) * 8 + LANES[min(lane, len(LANES) - 1)]
            points = [(px + shift, py + shift) for px, py in (_centre(board, c) for c in cells)]
            strokes.append(_Stroke(role, move, [number], points, start))
            if len(cells) == 1:
                staying[role] = strokes[-1]
    return strokes


def _numbered(strokes: list[_Stroke]) -> list[_Stroke]:
    """The strokes that get their number, most telling first: every stroke of a short line; of
    a long one each piece's first and last, then where it stays or turns (its move differs
    from its previous one), then every EVERY-th ply of a straight run."""
    if len(strokes) <= FULL_LINE:
        return strokes
    ends = {id(s) for role in {s.role for s in strokes}
            for s in (next(t for t in strokes if t.role == role), next(t for t in reversed(strokes) if t.role == role))}
    turns, runs, previous, run = [], [], {}, {}
    for stroke in strokes:
        if id(stroke) in ends:
            continue
        if stroke.stays or previous.get(stroke.role) != stroke.move:
            turns.append(stroke)
            run[stroke.role] = 0
        else:
            run[stroke.role] = run.get(stroke.role, 0) + 1
            if run[stroke.role] % EVERY == 0:
                runs.append(stroke)
        previous[stroke.role] = stroke.move
    return [s for s in strokes if id(s) in ends] + turns + runs


def _draw_line(svg, board: Board, strokes: list[_Stroke], colour: dict, pieces: list, notes: list,
               numbered: bool = True) -> None:
    """Each ply an arrow in the mover's colour (a dashed circle where the piece stays), the
    arrows of a long line fading from the first ply (light) to the last; their numbers on top,
    each where it covers no other number, no note's number (boxes ``notes``) and, where it can,
    no piece (boxes ``pieces``); a number that finds no such spot is left out (its arrow's
    tooltip says its ply).  Not ``numbered``: the arrows alone, without numbers or tooltips."""
    long = len(strokes) > FULL_LINE
    last = max(strokes[-1].plies[-1] - 1, 1)
    group = sub_element(svg, "g", id="principal-line")
    for stroke in strokes:
        faded = {"opacity": f"{_faded(stroke, last):.2f}"} if long else {}      # (the arrowhead too)
        if stroke.stays:
            px, py = stroke.points[0]
            drawn = sub_element(group, "circle", cx=px, cy=py, r=CELL * 0.36, fill="none", stroke=colour[stroke.role],
                                stroke_width=1.5, stroke_dasharray="3 2", **faded)
        else:
            drawn = sub_element(group, "polyline", points=" ".join(f"{px:.1f},{py:.1f}" for px, py in stroke.points),
                                fill="none", stroke=colour[stroke.role], stroke_width=2 if long else 2.5,
                                marker_end=f"url(#arrow-{stroke.role})", **(faded or {"stroke_opacity": 0.8}))
        if numbered:
            sub_element(drawn, "title", stroke.title())
    if not numbered:
        return
    taken = list(notes)
    bounds = (MARGIN, TITLE, MARGIN + board.width * CELL, TITLE + board.height * CELL)
    spots = SPOTS[:NEAR] if long else SPOTS
    placed = []
    for stroke in _numbered(strokes):
        if stroke.stays:
            px, py = stroke.points[0]
            anchor = (px + CELL * 0.3, py - CELL * 0.3)
        else:
            anchor = _midpoint(stroke.points)
        width = max(LABEL, 6 + 5.5 * len(stroke.text))
        spot = _free_spot(anchor, width, taken + pieces, bounds, spots) or \
            _free_spot(anchor, width, taken, bounds, spots)
        if spot is not None:
            taken.append(_box(spot, width, LABEL))
            placed.append((stroke, spot, width))
    for stroke, (x, y), width in sorted(placed, key=lambda p: p[0].plies[0]):
        shade = f"{max(_faded(stroke, last), 0.5):.2f}" if long else None    # older numbers lighter, still legible
        label = sub_element(group, "g", class_="ply-number")
        sub_element(label, "title", stroke.title())
        sub_element(label, "rect", x=f"{x - width / 2:.1f}", y=f"{y - LABEL / 2:.1f}", width=f"{width:.1f}",
                    height=LABEL, rx=LABEL / 2, fill="white", stroke=colour[stroke.role], stroke_width=1.5,
                    **({"stroke_opacity": shade} if shade else {}))
        sub_element(label, "text", stroke.text, x=f"{x:.1f}", y=f"{y + 3.5:.1f}", font_size=FONT,
                    text_anchor="middle", fill=colour[stroke.role], font_weight="bold",
                    **({"fill_opacity": shade} if shade else {}))


def _faded(stroke: _Stroke, last: int) -> float:
    """The opacity of a long line's stroke: 0.25 at the first ply to 1 at the last."""
    return 0.25 + 0.75 * (stroke.plies[0] - 1) / last


def _midpoint(points: list[tuple[float, float]]) -> tuple[float, float]:
    """The point halfway along a polyline."""
    lengths = [abs(bx - ax) + abs(by - ay) for (ax, ay), (bx, by) in zip(points, points[1:])]
    left = sum(lengths) / 2
    for ((ax, ay), (bx, by)), length in zip(zip(points, points[1:]), lengths):
        if left <= length and length:
            t = left / length
            return ax + (bx - ax) * t, ay + (by - ay) * t
        left -= length
    return points[-1]


def _box(centre: tuple[float, float], width: float, height: float) -> tuple[float, float, float, float]:
    x, y = centre
    return x - width / 2, y - height / 2, x + width / 2, y + height / 2


def _free_spot(anchor: tuple[float, float], width: float, taken: list, bounds: tuple,
               spots: tuple) -> tuple[float, float] | None:
    """The first of ``spots`` (offsets from ``anchor``) where a label ``width`` wide overlaps
    no box in ``taken`` and stays on the board; None: there is none."""
    x, y = anchor
    for dx, dy in spots:
        left, top, right, bottom = _box((x + dx, y + dy), width + 2, LABEL + 2)     # 1 px apart at least
        if left < bounds[0] - 6 or top < bounds[1] - 6 or right > bounds[2] + 6 or bottom > bounds[3] + 6:
            continue
        if all(right <= a or left >= c or bottom <= b or top >= d for a, b, c, d in taken):
            return x + dx, y + dy
    return None


def _draw_pieces(svg, board: Board, position: Position, chars: dict, colour: dict) -> None:
    for role, cell in position.pieces:
        if cell == OFF_BOARD:
            continue
        px, py = _centre(board, cell)
        sub_element(svg, "circle", cx=px, cy=py, r=CELL * 0.3, fill=colour[role], stroke="white", stroke_width=2)
        sub_element(svg, "text", chars[role], x=px, y=py + 5, font_size=15, text_anchor="middle", fill="white",
             font_weight="bold")


def role_colours(board: Board) -> dict[str, str]:
    """{piece: its colour in the pictures}, every piece of the rules."""
    return {piece: ROLE_COLOURS[i % len(ROLE_COLOURS)] for i, piece in enumerate(board.rules.pieces)}


def legend(board: Board) -> list[tuple[str, str]]:
    """The legend written under a picture of ``board``: (text, colour) entries."""
    return _legend_parts(board, glyphs(board), role_colours(board))


def _legend_parts(board: Board, chars: dict, colour: dict) -> list[tuple[str, str]]:
    """The legend's entries: (text, colour)."""
    parts = [(f"{chars[r]} {r}", colour[r]) for r in board.rules.pieces if r in board.pieces]
    parts += [(f"{chars[m]} {m}", "#555555") for m in sorted(board.marks)]
    if board.has_gates:
        parts.append(("gate: dashed bar closed, dotted open", "#d9822b"))
    return parts


def _line_key(strokes: list[_Stroke]) -> tuple[str, ...]:
    """How the principal line is drawn, in words, a line of text each (a long line's drawing
    differs)."""
    if len(strokes) <= FULL_LINE:
        return ("arrows: the principal line, numbered by ply; dashed circle: the piece stays",)
    return (f"arrows: the principal line, light (first plies) to dark (last), numbered where it turns and "
            f"every {EVERY} plies;", "a step taken again is drawn beside the first; dashed circle: the piece stays")


def _draw_legend(svg, parts: list, key: tuple[str, ...], y: float) -> None:
    text = sub_element(svg, "text", None, x=MARGIN, y=y, font_size=11)
    for i, (label, fill) in enumerate(parts):
        sub_element(text, "tspan", ("   " if i else "") + label, fill=fill)
    _draw_key(svg, key, y)


def _draw_key(svg, key: tuple[str, ...], y: float) -> None:
    for i, line in enumerate(key, 1):
        sub_element(svg, "text", line, x=MARGIN, y=y + 16 * i, font_size=11, fill="#555555")


def _draw_notes(svg, board: Board, notes: tuple, y: float) -> None:
    """Each note's cell ringed in red and numbered; the notes listed from ``y`` down."""
    group = sub_element(svg, "g", id="notes")
    for number, (cell, text) in enumerate(notes, 1):
        cx, cy = _centre(board, cell)
        sub_element(group, "circle", cx=cx, cy=cy, r=CELL * 0.44, fill="none", stroke="#d62728", stroke_width=2.5,
                    stroke_dasharray="5 3")
        nx, ny = _note_number(board, cell)
        sub_element(group, "text", str(number), x=f"{nx:.1f}", y=f"{ny + 4:.1f}", font_size=12, font_weight="bold",
                    fill="#d62728", text_anchor="middle")
        sub_element(group, "text", f"{number}: {text}", x=MARGIN, y=y + 16 * (number - 1), font_size=11,
                    fill="#d62728")


def _note_number(board: Board, cell: Cell) -> tuple[float, float]:
    """The centre of a note's number, at the bottom right of its cell's ring."""
    cx, cy = _centre(board, cell)
    return cx + CELL * 0.34, cy + CELL * 0.33


def check_target(target: str | None, force: bool) -> None:
    """Refuse an ``--svg`` file that exists (unless ``force``) before any work is done."""
    if target not in (None, "-") and Path(target).exists() and not force:
        raise QueryError(f"--svg {target}: the file exists", "choose another name, or add --force")


def write_svg(text: str, target: str | Path, force: bool = False) -> None:
    """Write the picture to the file ``target``; an existing file is kept unless ``force``."""
    check_target(str(target), force)
    _write(Path(target), text)


def _write(path: Path, text: str) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise QueryError(f"--svg {path}: cannot write the picture: {exc.strerror or exc}",
                         "write it to a folder that exists and that you may write to") from exc
