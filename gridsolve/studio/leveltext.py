"""Write an edited level back into its board file's text, every other character kept.

As ``verify --update`` does (:mod:`gridsolve.verify.update`), ruamel.yaml's round-trip
composer gives the exact span of each value in the text and only the values the edit
changed are replaced: the ``map:`` drawing (redrawn with row and column numbers, as
``gridsolve show`` draws it, gates ``===`` and ``:``, exit edges in the border), the cells under
``pieces:`` and ``marks:`` (an exit edge as ``{edge, at}``), ``walls:``, ``gates:`` and the
``enemies:`` list (one ``- {kind, at}`` a line).  A piece or mark the edit adds goes where the file
keeps its kind: drawn on the map (a new legend entry where the legend has no character for
it) or under ``pieces:``/``marks:``; one it removes is left off the map or its entry deleted.
Comments, key order and the expect block stay as they were.
"""
from __future__ import annotations

import re

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError
from ruamel.yaml.nodes import MappingNode, ScalarNode

from ..errors import BoardError, QueryError
from ..language.asciimap import draw
from ..language.enemylist import edge_mark, enemies_of
from ..language.model import Board
from ..render import glyphs
from ..verify.update import node_end


def _children(node) -> dict:
    """{key: value node} of a mapping node (empty for anything else)."""
    if not isinstance(node, MappingNode):
        return {}
    return {k.value: v for k, v in node.value if isinstance(k, ScalarNode)}


def _cell(cell) -> str:
    return f"[{cell[0]}, {cell[1]}]"


def _cells(cells) -> str:
    return "[" + ", ".join(_cell(c) for c in sorted(cells)) + "]"


def _mark_cells(board: Board):
    """The writer of a mark's cells under ``marks:``: cells, or one exit edge as ``{edge, at}``."""
    def write(cells) -> str:
        outside = [c for c in cells if not (1 <= c[0] <= board.width and 1 <= c[1] <= board.height)]
        if not outside:
            return _cells(cells)
        if len(cells) > 1:
            raise QueryError("a mark listed under marks: is either cells of the board or one edge of the border",
                             "leave the mark on one edge, or on cells of the board, before saving")
        edge = edge_mark(outside[0], board.width, board.height)
        return f"{{edge: {edge['edge']}, at: {edge['at']}}}"
    return write


def _enemy_lines(board: Board) -> list[str]:
    """The entries of the ``enemies:`` list of ``board``, in order."""
    return [f"- {{kind: {kind}, at: {_cell(board.pieces[piece])}}}" for piece, kind in enemies_of(board)]


def _enemy_edits(text: str, top: dict, before: Board, after: Board) -> list[tuple[int, int, str]]:
    """The edit writing the enemies of ``after`` where they changed: the ``enemies:`` list
    rewritten (an empty one as ``[]``), or added at the end of the file."""
    lines = _enemy_lines(after)
    if lines == _enemy_lines(before):
        return []
    node = top.get("enemies")
    if node is None:
        return [(len(text), len(text), ("" if text.endswith("\n") else "\n") + "enemies:"
                 + "".join(f"\n  {line}" for line in lines) + ("\n" if lines else " []\n"))]
    if node.flow_style or not lines:
        return [(node.start_mark.index, node_end(node), "[" + ", ".join(line[2:] for line in lines) + "]")]
    indent = " " * node.start_mark.column
    return [(node.start_mark.index, node_end(node), f"\n{indent}".join(lines))]


def _edges(north, east, both: bool) -> str:
    """A flow mapping of edges: both sides (``both``), else only the sides that have some."""
    sides = [(side, cells) for side, cells in (("north", north), ("east", east)) if both or cells]
    return "{" + ", ".join(f"{side}: {_cells(cells)}" for side, cells in sides) + "}"


def _map_text(board: Board, in_pieces: set, in_marks: set, char: dict, gates: bool) -> str:
    """The map drawing of ``board`` with the pieces and marks the file draws on it (``char``:
    their characters; ``gates``: the gates drawn too)."""
    at: dict = {}
    listed = {piece for piece, _ in enemies_of(board)}
    drawn = [(r, [board.pieces[r]]) for r in board.rules.pieces
             if r not in in_pieces and r not in listed and r in char and r in board.pieces]
    drawn += [(m, sorted(cells)) for m, cells in sorted(board.marks.items()) if m not in in_marks and m in char]
    for name, cells in drawn:
        for cell in cells:
            if cell in at:
                raise QueryError(f"({cell[0]},{cell[1]}) would hold both {at[cell][0]} and {name}: a map cell "
                                 "draws one character", "move one of them to another cell before saving")
            at[cell] = (name, char[name])
    lines = draw(board.width, board.height, board.north, board.east, board.solid,
                 lambda cell: at[cell][1] if cell in at else None,
                 board.gate_north if gates else (), board.gate_east if gates else (),
                 {cell for cell in board.outside() if cell in at})
    return "|2\n" + "".join(f"  {line}\n" for line in lines)


def _entry_span(text: str, node: MappingNode, key, value) -> tuple[int, int]:
    """The span to delete for the entry ``key: value`` of the mapping ``node``: with its comma
    in a flow mapping, its whole lines in a block one."""
    start, end = key.start_mark.index, node_end(value)
    if not node.flow_style:
        start = text.rfind("\n", 0, start) + 1
        stop = text.find("\n", end)
        return start, len(text) if stop < 0 else stop + 1
    before = text[:start].rstrip()
    if before.endswith(","):
        return len(before) - 1, end
    comma = re.match(r"\s*,\s*", text[end:])
    return start, end + (comma.end() if comma else 0)


def _mapping_edits(text: str, node: MappingNode, values: dict) -> list[tuple[int, int, str]]:
    """Edits setting each key of ``values`` in the mapping ``node`` to its text (None: the entry
    deleted): a value replaced in place, an entry deleted, a new entry added at the end."""
    entries = {k.value: (k, v) for k, v in node.value if isinstance(k, ScalarNode)}
    edits = []
    for key, value in values.items():
        if key in entries:
            k, v = entries[key]
            edits.append((*_entry_span(text, node, k, v), "") if value is None
                         else (v.start_mark.index, node_end(v), value))
    added = [f"{key}: {value}" for key, value in values.items() if key not in entries and value is not None]
    if added and node.flow_style:
        close = node.end_mark.index - 1
        edits.append((close, close, (", " if node.value else "") + ", ".join(added)))
    elif added:
        indent = " " * node.value[0][0].start_mark.column
        at = node_end(node.value[-1][1])
        edits.append((at, at, "".join(f"\n{indent}{entry}" for entry in added)))
    return edits


def _appended(text: str, key: str, value: str) -> tuple[int, int, str]:
    """An edit adding the top-level ``key: value`` at the end of the file."""
    return len(text), len(text), ("" if text.endswith("\n") else "\n") + f"{key}: {value}\n"


def _legend(text: str, top: dict, after: Board, in_pieces: set, in_marks: set) -> tuple[dict, list]:
    """{piece or mark: its map character} of a map board, and the edits that give a character to
    each piece or mark ``after`` adds that the file neither draws nor lists under ``pieces:`` or
    ``marks:`` (``in_pieces``, ``in_marks``): new legend entries."""
    char = {meaning: c for c, meaning in after.legend.items()}
    listed = {piece for piece, _ in enemies_of(after)}
    new = [n for n in list(after.pieces) + sorted(after.marks)
           if n not in char and n not in listed and n not in (in_pieces if n in after.pieces else in_marks)]
    if not new:
        return char, []
    chars, taken = glyphs(after), set(after.legend)
    for name in new:
        c = chars[name] if chars[name] not in taken else next(
            c for c in "ABCDFGHIJKLNOPQRSTUVWYZabcdfghijklnopqrstuvwyz" if c not in taken)
        char[name] = c
        taken.add(c)
    legend = {char[name]: name for name in new}
    if isinstance(top.get("legend"), MappingNode):
        return char, _mapping_edits(text, top["legend"], legend)
    return char, [_appended(text, "legend", "{" + ", ".join(f"{c}: {n}" for c, n in legend.items()) + "}")]


def level_text(text: str, name: str, before: Board, after: Board) -> str:
    """``text`` (the file ``before`` was loaded from) with the level of ``after`` written in."""
    try:
        root = YAML(typ="rt").compose(text)
    except YAMLError as exc:
        raise BoardError(name, None, f"ruamel.yaml cannot read the file to save it: {exc}") from None
    top = _children(root)
    pieces, marks = _children(top.get("pieces")), _children(top.get("marks"))
    edits: list[tuple[int, int, str]] = []
    gates_changed = (before.gate_north, before.gate_east) != (after.gate_north, after.gate_east)
    if "map" in top:
        char, legend_edits = _legend(text, top, after, set(pieces), set(marks))
        edits += legend_edits
        drawn_gates = "gates" not in top
        redrawn = (before.north, before.east, before.pieces, before.marks) != (after.north, after.east, after.pieces,
                                                                               after.marks) or gates_changed
        if redrawn:         # (with a gates: entry, the gates are written there, not drawn)
            gates_changed = gates_changed or not drawn_gates
            node = top["map"]
            start, end = node.start_mark.index, node.end_mark.index
            segment = text[start:end]
            kept = segment[len(segment.rstrip("\n")) + 1:]       # the blank lines after the drawing
            edits.append((start, end, _map_text(after, set(pieces), set(marks), char, drawn_gates) + kept))
    elif (before.north, before.east) != (after.north, after.east):
        flow = _edges(after.north, after.east, True)
        edits.append((top["walls"].start_mark.index, node_end(top["walls"]), flow) if "walls" in top
                     else _appended(text, "walls", flow))
    if gates_changed and ("gates" in top or "map" not in top):
        flow = _edges(after.gate_north, after.gate_east, False)
        edits.append((top["gates"].start_mark.index, node_end(top["gates"]), flow) if "gates" in top
                     else _appended(text, "gates", flow))
    edits += _enemy_edits(text, top, before, after)
    enemies = {piece for piece, _ in enemies_of(after)}
    listed = [(top.get("pieces"), pieces, before.pieces, {p: c for p, c in after.pieces.items() if p not in enemies},
               _cell),
              (top.get("marks"), marks, before.marks, after.marks, _mark_cells(after))]
    for node, entries, was, now, write in listed:
        values = {key: None if key not in now else write(now[key]) for key, value in entries.items()
                  if was.get(key) != now.get(key) and not (isinstance(value, MappingNode)
                                                           and "edge" not in _children(value))}
        if "map" not in top:        # without a map, what is added is listed here
            values.update({key: write(now[key]) for key in now if key not in entries})
        if values and node is not None:
            edits += _mapping_edits(text, node, values)
        elif values:
            edits.append(_appended(text, "pieces" if write is _cell else "marks",
                                   "{" + ", ".join(f"{k}: {v}" for k, v in values.items() if v is not None) + "}"))
    for start, end, replacement in sorted(edits, reverse=True):
        text = text[:start] + replacement + text[end:]
    return text
