"""A level as the studio edits it: the walls, the pieces' start cells and the marks of a board.

The page sends the level with every request as JSON (``{"walls": {"north": [[x, y], ...],
"east": [...]}, "pieces": {role: [x, y]}, "marks": {mark: [[x, y], ...]}}``), so that undo,
redo and a link that carries the level need no state on the server; :func:`apply_level`
checks it against the board file's size, pieces and marks and returns the edited board.
"""
from __future__ import annotations

import dataclasses

from ..errors import QueryError
from ..language.model import Board, Cell


def level_of(board: Board) -> dict:
    """The level of ``board`` as JSON."""
    return {"walls": {"north": sorted(list(c) for c in board.north), "east": sorted(list(c) for c in board.east)},
            "pieces": {role: list(board.pieces[role]) for role in board.rules.roles},
            "marks": {mark: sorted(list(c) for c in cells) for mark, cells in sorted(board.marks.items())}}


def _cell(value, what: str, board: Board) -> Cell:
    if not (isinstance(value, (list, tuple)) and len(value) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise QueryError(f"{what}: {str(value)[:40]} is not a cell", "write a cell as [x, y]")
    cell = (value[0], value[1])
    if not board.on_board(cell):
        raise QueryError(f"{what}: ({cell[0]},{cell[1]}) is not a free cell of the {board.width}x{board.height} board")
    return cell


def _cells(value, what: str, board: Board, limit: int) -> frozenset:
    if not isinstance(value, list) or len(value) > limit:
        raise QueryError(f"{what}: expected a list of at most {limit} cells")
    return frozenset(_cell(v, what, board) for v in value)


def apply_level(board: Board, level) -> Board:
    """``board`` with the walls, pieces and marks of ``level`` (None: the board as it is)."""
    if level is None:
        return board
    if not isinstance(level, dict) or set(level) - {"walls", "pieces", "marks"}:
        raise QueryError("level: expected an object with walls, pieces and marks")
    size = board.width * board.height
    changes: dict = {}
    walls = level.get("walls")
    if walls is not None:
        if not isinstance(walls, dict) or set(walls) - {"north", "east"}:
            raise QueryError("level.walls: expected an object with north and east")
        north = _cells(walls.get("north", []), "level.walls.north", board, size)
        east = _cells(walls.get("east", []), "level.walls.east", board, size)
        for x, y in north:
            if not board.on_board((x, y + 1)):
                raise QueryError(f"level.walls.north: ({x},{y}) is not an interior edge", "the board's border is a wall")
        for x, y in east:
            if not board.on_board((x + 1, y)):
                raise QueryError(f"level.walls.east: ({x},{y}) is not an interior edge", "the board's border is a wall")
        changes.update(north=north, east=east)
    pieces = level.get("pieces")
    if pieces is not None:
        if not isinstance(pieces, dict) or set(pieces) != set(board.rules.roles):
            raise QueryError("level.pieces: expected a cell for each piece",
                             f"the pieces are: {', '.join(board.rules.roles)}")
        changes["pieces"] = {role: _cell(pieces[role], f"level.pieces.{role}", board) for role in board.rules.roles}
    marks = level.get("marks")
    if marks is not None:
        if not isinstance(marks, dict) or set(marks) != set(board.marks):
            raise QueryError("level.marks: expected the cells of each mark of the board",
                             f"the marks are: {', '.join(sorted(board.marks)) or 'none'}")
        changes["marks"] = {mark: _cells(cells, f"level.marks.{mark}", board, size) for mark, cells in marks.items()}
    return dataclasses.replace(board, **changes)

