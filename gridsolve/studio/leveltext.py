"""Write an edited level back into its board file's text, every other character kept.

As ``verify --update`` does (:mod:`gridsolve.verify.update`), ruamel.yaml's round-trip
composer gives the exact span of each value in the text and only the values the edit
changed are replaced: the ``map:`` drawing (redrawn with row and column numbers, as
``gridsolve show`` draws it), the cells under ``pieces:`` and ``marks:``, and ``walls:``.
Comments, key order and the expect block stay as they were.
"""
from __future__ import annotations

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError
from ruamel.yaml.nodes import MappingNode, ScalarNode

from ..errors import BoardError, QueryError
from ..language.asciimap import draw
from ..language.model import Board
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


def _map_text(board: Board, in_pieces: set, in_marks: set) -> str:
    """The map drawing of ``board`` with the pieces and marks the file draws on it."""
    char = {meaning: c for c, meaning in board.legend.items()}
    at: dict = {}
    drawn = [(r, [board.pieces[r]]) for r in board.rules.pieces if r not in in_pieces and r in char and r in board.pieces]
    drawn += [(m, sorted(cells)) for m, cells in sorted(board.marks.items()) if m not in in_marks and m in char]
    for name, cells in drawn:
        for cell in cells:
            if cell in at:
                raise QueryError(f"({cell[0]},{cell[1]}) would hold both {at[cell][0]} and {name}: a map cell "
                                 "draws one character", "move one of them to another cell before saving")
            at[cell] = (name, char[name])
    lines = draw(board.width, board.height, board.north, board.east, board.solid,
                 lambda cell: at[cell][1] if cell in at else None, board.gate_north, board.gate_east)
    return "|2\n" + "".join(f"  {line}\n" for line in lines)


def level_text(text: str, name: str, before: Board, after: Board) -> str:
    """``text`` (the file ``before`` was loaded from) with the level of ``after`` written in."""
    try:
        root = YAML(typ="rt").compose(text)
    except YAMLError as exc:
        raise BoardError(name, None, f"ruamel.yaml cannot read the file to save it: {exc}") from None
    top = _children(root)
    pieces, marks = _children(top.get("pieces")), _children(top.get("marks"))
    edits: list[tuple[int, int, str]] = []
    if "map" in top:
        if (before.north, before.east, before.pieces, before.marks) != (after.north, after.east, after.pieces,
                                                                          after.marks):
            node = top["map"]
            start, end = node.start_mark.index, node.end_mark.index
            segment = text[start:end]
            kept = segment[len(segment.rstrip("\n")) + 1:]       # the blank lines after the drawing
            edits.append((start, end, _map_text(after, set(pieces), set(marks)) + kept))
    elif (before.north, before.east) != (after.north, after.east):
        flow = f"{{north: {_cells(after.north)}, east: {_cells(after.east)}}}"
        if "walls" in top:
            edits.append((top["walls"].start_mark.index, node_end(top["walls"]), flow))
        else:
            edits.append((len(text), len(text), ("" if text.endswith("\n") else "\n") + f"walls: {flow}\n"))
    for role, node in pieces.items():
        if role in after.pieces and before.pieces.get(role) != after.pieces[role]:
            edits.append((node.start_mark.index, node_end(node), _cell(after.pieces[role])))
    for mark, node in marks.items():
        if mark in after.marks and not isinstance(node, MappingNode) and before.marks.get(mark) != after.marks[mark]:
            edits.append((node.start_mark.index, node_end(node), _cells(after.marks[mark])))
    for start, end, replacement in sorted(edits, reverse=True):
        text = text[:start] + replacement + text[end:]
    return text
