"""ASCII board maps: parse a designer's drawing, and draw a board back.

A map draws every cell 3 characters wide between '+' corners::

         1   2   3
       +---+---+---+
     2 | E |     X |        '---' between corners: a wall on that edge
       +   +---+   +        '|' between cells:     a wall on that edge
     1 |       | M |        ' E ': the middle character is a legend key
       +---+---+---+        '###': a solid wall cell
                                '===' between corners, ':' between cells: a gate on that edge
                                ' X ' in the outer border, or 'X' in place of its '|': an edge of
                                the border with the mark X (an exit a role steps through)

Row labels on the left and a header of column numbers are optional and ignored.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import BoardError
from .model import Cell


@dataclass
class ParsedMap:
    width: int
    height: int
    north: set[Cell]
    east: set[Cell]
    solid: set[Cell]
    glyphs: dict[Cell, tuple[str, int]]   # cell -> (character, file line); a character in the outer
                                          # border: at the cell beyond it (x or y 0, W+1 or H+1)
    gate_north: set[Cell]
    gate_east: set[Cell]


def parse_map(text: str, path: str, first_line: int) -> ParsedMap:
    """Parse a map drawing; ``first_line`` is the file line of the drawing's first line."""
    lines = [(first_line + i, raw.rstrip()) for i, raw in enumerate(text.split("\n"))]
    borders = [(n, s) for n, s in lines if s.lstrip().startswith("+")]
    if not borders:
        raise BoardError(path, first_line, "map: no '+---+' border line found",
                         "draw the board with '+---+' rows and '|' walls (see docs/board-files.md)")
    top_line, top = borders[0]
    col0 = top.index("+")
    body = [(n, s) for n, s in lines if n >= top_line and s.strip()]
    span = len(top) - col0
    if (span - 1) % 4 or span < 5:
        raise BoardError(path, top_line, "map: a border line must read '+---+---+...', 4 characters per cell")
    width = (span - 1) // 4
    # Alternate: border, row, border, row, ..., border.
    if len(body) % 2 == 0:
        raise BoardError(path, body[-1][0], "map: rows and '+---+' border lines must alternate, "
                         "starting and ending with a border line")
    height = len(body) // 2
    north: set[Cell] = set()
    east: set[Cell] = set()
    solid: set[Cell] = set()
    glyphs: dict[Cell, tuple[str, int]] = {}
    gate_north: set[Cell] = set()
    gate_east: set[Cell] = set()
    for index, (number, raw) in enumerate(body):
        prefix, line = raw[:col0], raw[col0:]
        if prefix.strip() and not prefix.strip().isdigit():
            raise BoardError(path, number, f"map: unexpected text '{prefix.strip()}' left of the board",
                             "only row numbers may stand left of the board")
        if len(line) > span:
            raise BoardError(path, number, f"map: this line is {len(line)} characters wide, "
                             f"the board is {span}", "every map line must have the same width")
        line = line.ljust(span)
        if index % 2 == 0:
            _parse_border(line, index, height, width, number, path, north, gate_north, glyphs)
        else:
            y = height - index // 2
            _parse_row(line, y, width, number, path, east, solid, glyphs, gate_east)
    return ParsedMap(width, height, north, east, solid, glyphs, gate_north, gate_east)


def _parse_border(line, index, height, width, number, path, north, gate_north, glyphs):
    if not line.startswith("+"):
        raise BoardError(path, number, "map: expected a '+---+' border line here")
    y_below = height - index // 2       # the row under this border (0 for the bottom border)
    for x in range(1, width + 1):
        corner = line[4 * x]
        segment = line[4 * x - 3: 4 * x]
        if corner != "+":
            raise BoardError(path, number, f"map: expected '+' at column {4 * x + 1} of the border",
                             "every map line must have the same width, 4 characters per cell")
        if segment == "---":
            if 1 <= y_below < height:
                north.add((x, y_below))
        elif segment == "===" and 1 <= y_below < height:
            gate_north.add((x, y_below))
        elif y_below in (0, height) and index in (0, 2 * height) and segment[0] == segment[2] == " " \
                and segment[1] != " ":      # an edge of the outer border with a mark
            glyphs[(x, y_below + 1 if index == 0 else 0)] = (segment[1], number)
        elif segment.strip():
            raise BoardError(path, number, f"map: '{segment}' above cell x={x} is neither '---', '===' "
                             "(a gate between two rows) nor blank")


def _parse_row(line, y, width, number, path, east, solid, glyphs, gate_east):
    for x in range(0, width + 1):
        mark = line[4 * x]
        if x in (0, width) and mark not in "| :":      # an edge of the outer border with a mark
            glyphs[(0 if x == 0 else width + 1, y)] = (mark, number)
            continue
        if mark not in "| :" or (mark == ":" and not 1 <= x < width):
            raise BoardError(path, number, f"map: '{mark}' where a wall '|', a gate ':' or a blank belongs",
                             "each cell is 3 characters wide between walls")
        if mark == "|" and 1 <= x < width:
            east.add((x, y))
        if mark == ":":
            gate_east.add((x, y))
    for x in range(1, width + 1):
        content = line[4 * x - 3: 4 * x]
        if content == "###":
            solid.add((x, y))
            continue
        if content[0] != " " or content[2] != " ":
            raise BoardError(path, number, f"map: cell ({x},{y}) reads '{content}'",
                             "write one legend character in the middle of a cell, e.g. ' E ', or '###'")
        if content[1] != " ":
            glyphs[(x, y)] = (content[1], number)


def draw(width: int, height: int, north, east, solid, glyph_at, gate_north=(), gate_east=(),
         outside=()) -> list[str]:
    """Draw a board as map lines with row and column numbers; ``glyph_at(cell)`` gives a character
    (or two: a piece on a mark, the first in the middle); gates are drawn '===' and ':'; an exit
    edge of the border (``outside``: the cells just outside them) by the character of the cell
    outside it, in the border."""
    def edge(cell, wall: str) -> str:
        if cell not in outside:
            return wall
        char = (glyph_at(cell) or " ")[0]
        return f" {char} " if len(wall) == 3 else char
    lines = ["    " + "".join(f"{x:^4}" for x in range(1, width + 1)).rstrip()]
    for y in range(height, 0, -1):
        top = "+"
        for x in range(1, width + 1):
            walled = y == height or (x, y) in north
            top += (edge((x, y + 1), "---") if y == height else "---" if walled else
                    "===" if (x, y) in gate_north else "   ") + "+"
        lines.append("   " + top)
        row = edge((0, y), "|")
        for x in range(1, width + 1):
            cell = "###" if (x, y) in solid else f" {glyph_at((x, y)) or ' ':<2}"
            row += cell + (edge((x + 1, y), "|") if x == width else "|" if (x, y) in east else
                           ":" if (x, y) in gate_east else " ")
        lines.append(f"{y:>2} " + row)
    lines.append("   " + "+" + "".join(edge((x, 0), "---") + "+" for x in range(1, width + 1)))
    return lines
