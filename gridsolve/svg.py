"""SVG pictures of a board, a position and the principal line of an answer.

Written with ``xml.etree.ElementTree`` from the standard library: the picture is a few dozen
rectangles, lines, circles and texts, which plain SVG elements say directly, so no drawing
library is needed (docs/explain.md, "Pictures").  Walls are thick lines, solid cells dark, marks
coloured squares with their legend character, pieces circles in their role's colour; each
ply of the principal line is an arrow in the mover's colour along the cells it steps
through, numbered from 1, and the answer is the picture's title.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
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
    roles = board.rules.roles
    chars = glyphs(board)
    colour = {piece: ROLE_COLOURS[i % len(ROLE_COLOURS)] for i, piece in enumerate(board.rules.pieces)}
    if title is None:
        title = describe_position(board, position) if answer is None else \
            f"{board.name}: {verdict(answer, board.rules.unlimited)}"
    head, _, tail = title.partition(": ")
    with_line = answer is not None and bool(answer.line)
    width = int(max(board.width * CELL + 2 * MARGIN, CHAR * max(len(head), len(tail)) + 2 * MARGIN))
    height = board.height * CELL + MARGIN + TITLE + (44 if with_line else 28) + 16 * len(notes)
    width = max(width, int(2 * MARGIN + 6.2 * max((len(text) + 4 for _, text in notes), default=0)))
    svg = ET.Element("svg", {"xmlns": SVG_NS, "width": str(width), "height": str(height),
                             "viewBox": f"0 0 {width} {height}", "font-family": "sans-serif"})
    sub_element(svg, "title", title)
    defs = sub_element(svg, "defs")
    for role in board.rules.pieces:      # (the arrows of pieces moved by rule too)
        marker = sub_element(defs, "marker", id=f"arrow-{role}", viewBox="0 0 10 10", refX=8, refY=5,
                      markerWidth=5, markerHeight=5, orient="auto-start-reverse")
        sub_element(marker, "path", d="M 0 0 L 10 5 L 0 10 z", fill=colour[role])
    sub_element(svg, "rect", x=0, y=0, width=width, height=height, fill="white")
    sub_element(svg, "text", head, x=MARGIN, y=TITLE - 34, font_size=13, font_weight="bold")
    sub_element(svg, "text", tail, x=MARGIN, y=TITLE - 14, font_size=12)
    _draw_cells(svg, board, position, chars)
    _draw_walls(svg, board)
    _draw_gates(svg, board, position)
    if answer is not None and answer.line:
        _draw_line(svg, board, answer.line, colour)
    _draw_pieces(svg, board, position, chars, colour)
    _draw_legend(svg, board, chars, colour, TITLE + board.height * CELL + 40, with_line)
    _draw_notes(svg, board, notes, TITLE + board.height * CELL + (72 if with_line else 56))
    ET.indent(svg)
    return ET.tostring(svg, encoding="unicode") + "\n"


def _draw_cells(svg, board: Board, position: Position, chars: dict) -> None:
    marks = sorted(board.marks)
    left = position.items_left(board)
    taken = {c.mark: left[name] for name, c in board.rules.collect.items()}
    for y in range(1, board.height + 1):
        for x in range(1, board.width + 1):
            cx, cy = _corner(board, x, y)
            solid = (x, y) in board.solid
            sub_element(svg, "rect", x=cx, y=cy, width=CELL, height=CELL, fill="#444444" if solid else "#fbfaf5",
                 stroke="#dddddd", stroke_width=1)
    for i, mark in enumerate(marks):
        for cell in sorted(board.marks[mark]):
            if mark in taken and cell not in taken[mark]:
                continue
            cx, cy = _corner(board, *cell)
            sub_element(svg, "rect", x=cx + 3, y=cy + 3, width=CELL - 6, height=CELL - 6, rx=4,
                 fill=MARK_COLOURS[i % len(MARK_COLOURS)])
            sub_element(svg, "text", chars[mark], x=cx + CELL - 8, y=cy + 14, font_size=11, text_anchor="end",
                 fill="#555555")
    for x in range(1, board.width + 1):
        sub_element(svg, "text", str(x), x=MARGIN + (x - 0.5) * CELL, y=TITLE + board.height * CELL + 16,
             font_size=11, text_anchor="middle", fill="#777777")
    for y in range(1, board.height + 1):
        sub_element(svg, "text", str(y), x=MARGIN - 10, y=TITLE + (board.height - y + 0.5) * CELL + 4,
             font_size=11, text_anchor="middle", fill="#777777")


def _draw_walls(svg, board: Board) -> None:
    style = {"stroke": "#111111", "stroke_width": 4, "stroke_linecap": "round"}
    for x, y in sorted(board.north):
        cx, cy = _corner(board, x, y)
        sub_element(svg, "line", x1=cx, y1=cy, x2=cx + CELL, y2=cy, **style)
    for x, y in sorted(board.east):
        cx, cy = _corner(board, x, y)
        sub_element(svg, "line", x1=cx + CELL, y1=cy, x2=cx + CELL, y2=cy + CELL, **style)
    sub_element(svg, "rect", x=MARGIN, y=TITLE, width=board.width * CELL, height=board.height * CELL, fill="none",
         **style)


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


def _draw_line(svg, board: Board, line: tuple[Ply, ...], colour: dict) -> None:
    """Each ply an arrow with its number; a piece that stays on a cell ply after ply gets one
    dashed circle, numbered with the first and last of those plies."""
    roles = board.rules.roles
    group = sub_element(svg, "g", id="principal-line")
    placed: list[tuple[float, float]] = []
    staying: dict[str, tuple] = {}        # role -> (cell, first ply, plies, its label's title, rect, text)
    for ply in line:
        before, after = ply.before, ply.after
        moves = move_parts(ply.move, ply.side)
        for role, move in moves.items():
            start, end = before.cell(role), after.cell(role)
            shift = (roles.index(role) - (len(roles) - 1) / 2) * 8     # roles side by side
            points = [_centre(board, c) for c in walked_cells(board, start, move, end)]
            points = [(px + shift, py + shift) for px, py in points]
            number = ply.index + 1
            if len(points) == 1 and role in staying and staying[role][0] == start:
                cell, first, plies, title, rect, text = staying[role]
                plies.append(number)
                title.text = f"plies {', '.join(map(str, plies))}: {role} stays"
                text.text = f"{first}–{number}"
                width = 6 + 5.5 * len(text.text)
                rect.set("x", f"{float(text.get('x')) - width / 2:.1f}")
                rect.set("width", f"{width:.1f}")
                continue
            staying.pop(role, None)
            if len(points) == 1:          # a pass, or a bump back to where it stood
                px, py = points[0]
                sub_element(group, "circle", cx=px, cy=py, r=CELL * 0.36, fill="none", stroke=colour[role],
                     stroke_width=1.5, stroke_dasharray="3 2")
                label = (px + CELL * 0.3, py - CELL * 0.3)
            else:
                sub_element(group, "polyline", points=" ".join(f"{px:.1f},{py:.1f}" for px, py in points),
                     fill="none", stroke=colour[role], stroke_width=2.5, stroke_opacity=0.8,
                     marker_end=f"url(#arrow-{role})")
                label = _midpoint(points)
            label = _free_spot(label, placed)
            ply_label = sub_element(group, "g")
            title = sub_element(ply_label, "title", f"ply {number}: {role} {move}")
            rect = sub_element(ply_label, "rect", x=f"{label[0] - 7.5:.1f}", y=f"{label[1] - 7.5:.1f}", width=15,
                        height=15, rx=7.5, fill="white", stroke=colour[role], stroke_width=1.5)
            text = sub_element(ply_label, "text", str(number), x=f"{label[0]:.1f}", y=f"{label[1] + 3.5:.1f}", font_size=9,
                        text_anchor="middle", fill=colour[role], font_weight="bold")
            if len(points) == 1:
                staying[role] = (start, number, [number], title, rect, text)


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


def _free_spot(spot: tuple[float, float], placed: list) -> tuple[float, float]:
    """``spot``, or the nearest of a few spots around it that no ply number covers yet."""
    x, y = spot
    for dx, dy in ((0, 0), (0, -15), (15, 0), (0, 15), (-15, 0), (15, -15), (-15, 15), (15, 15), (-15, -15)):
        if all(abs(x + dx - px) > 13 or abs(y + dy - py) > 13 for px, py in placed):
            placed.append((x + dx, y + dy))
            return x + dx, y + dy
    placed.append(spot)
    return spot


def _draw_pieces(svg, board: Board, position: Position, chars: dict, colour: dict) -> None:
    for role, cell in position.pieces:
        if cell == OFF_BOARD:
            continue
        px, py = _centre(board, cell)
        sub_element(svg, "circle", cx=px, cy=py, r=CELL * 0.3, fill=colour[role], stroke="white", stroke_width=2)
        sub_element(svg, "text", chars[role], x=px, y=py + 5, font_size=15, text_anchor="middle", fill="white",
             font_weight="bold")


def _draw_legend(svg, board: Board, chars: dict, colour: dict, y: float, with_line: bool) -> None:
    parts = [(f"{chars[r]} {r}", colour[r]) for r in board.rules.pieces if r in board.pieces]
    parts += [(f"{chars[m]} {m}", "#555555") for m in sorted(board.marks)]
    if board.has_gates:
        parts.append(("gate: dashed bar closed, dotted open", "#d9822b"))
    text = sub_element(svg, "text", None, x=MARGIN, y=y, font_size=11)
    for i, (label, fill) in enumerate(parts):
        sub_element(text, "tspan", ("   " if i else "") + label, fill=fill)
    if with_line:
        sub_element(svg, "text", "arrows: the principal line, numbered by ply; dashed circle: the piece stays",
             x=MARGIN, y=y + 16, font_size=11, fill="#555555")


def _draw_notes(svg, board: Board, notes: tuple, y: float) -> None:
    """Each note's cell ringed in red and numbered; the notes listed from ``y`` down."""
    group = sub_element(svg, "g", id="notes")
    for number, (cell, text) in enumerate(notes, 1):
        cx, cy = _centre(board, cell)
        sub_element(group, "circle", cx=cx, cy=cy, r=CELL * 0.44, fill="none", stroke="#d62728", stroke_width=2.5,
                    stroke_dasharray="5 3")
        sub_element(group, "text", str(number), x=cx + CELL * 0.3, y=cy + CELL * 0.42, font_size=12,
                    font_weight="bold", fill="#d62728")
        sub_element(group, "text", f"{number}: {text}", x=MARGIN, y=y + 16 * (number - 1), font_size=11,
                    fill="#d62728")


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
