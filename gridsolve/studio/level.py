"""A level as the studio edits it: the walls, the pieces' start cells, the marks and the gates
of a board.

The page sends the level with every request as JSON (``{"walls": {"north": [[x, y], ...],
"east": [...]}, "pieces": {piece: [x, y]}, "marks": {mark: [[x, y], ...]}, "gates": {"north":
[...], "east": [...]}, "enemies": [{"kind": KIND, "at": [x, y]}, ...]}``), so that undo, redo
and a link that carries the level need no state on the server; :func:`apply_level` checks it
against the board file's size, pieces and marks and returns the edited board.  ``pieces`` holds
every piece on the board (the roles' and those moved by rule, but the listed enemies); a piece or mark the rules declare ``optional`` may be left out or added.  ``gates``
is there for rules with a gate only; ``enemies``, for rules with kinds of enemies only, lists
them in the order they move (their pieces are ``KIND + place``).  A mark's
cell just outside the border (``[0, 6]``: west of ``(1, 6)``) is an exit edge, for rules that
answer one.
"""
from __future__ import annotations

import dataclasses

from ..errors import QueryError
from ..language.celltext import not_free
from ..language.enemylist import edge_of, enemies_of, kinds_of, with_enemies, with_exits
from ..language.model import Board, Cell


def _edges(north, east) -> dict:
    return {"north": sorted(list(c) for c in north), "east": sorted(list(c) for c in east)}


def level_of(board: Board) -> dict:
    """The level of ``board`` as JSON."""
    enemies = enemies_of(board)
    listed = {piece for piece, _ in enemies}
    out = {"walls": _edges(board.north, board.east),
           "pieces": {piece: list(board.pieces[piece]) for piece in board.rules.pieces
                      if piece in board.pieces and piece not in listed},
           "marks": {mark: sorted(list(c) for c in cells) for mark, cells in sorted(board.marks.items())}}
    if board.rules.gate_key is not None:
        out["gates"] = _edges(board.gate_north, board.gate_east)
    if kinds_of(board):
        out["enemies"] = [{"kind": kind, "at": list(board.pieces[piece])} for piece, kind in enemies]
    return out


def optional_marks(board: Board) -> list[str]:
    """The marks the rules let a board leave out (the optional names that are not pieces)."""
    return [name for name in board.rules.optional if name not in board.rules.pieces]


def _cell(value, what: str, board: Board) -> Cell:
    if not (isinstance(value, (list, tuple)) and len(value) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise QueryError(f"{what}: {str(value)[:40]} is not a cell", "write a cell as [x, y]")
    cell = (value[0], value[1])
    if not board.on_board(cell):
        raise QueryError(f"{what}: {not_free(cell, board)}")
    return cell


def _cells(value, what: str, board: Board, limit: int, edges: bool = False) -> frozenset:
    """The cells of ``value``, each on the board (``edges``: or just outside a border edge, an exit)."""
    if not isinstance(value, list) or len(value) > limit:
        raise QueryError(f"{what}: expected a list of at most {limit} cells")
    return frozenset(_edge_cell(v, what, board) if edges else _cell(v, what, board) for v in value)


def _edge_cell(value, what: str, board: Board) -> Cell:
    """A cell of the board, or the cell just outside an edge of the border (an exit edge)."""
    if isinstance(value, (list, tuple)) and len(value) == 2 and all(isinstance(v, int) for v in value):
        edge = edge_of((value[0], value[1]), board.width, board.height)
        if edge is not None:
            if edge[0] in board.solid:
                raise QueryError(f"{what}: the {edge[1]} edge of ({edge[0][0]},{edge[0][1]}) borders a solid cell",
                                 "open that cell first")
            return (value[0], value[1])
    return _cell(value, what, board)


def _interior_edges(value, what: str, board: Board) -> tuple[frozenset, frozenset]:
    """The north and east edges of ``value`` ({"north": cells, "east": cells}), each interior."""
    if not isinstance(value, dict) or set(value) - {"north", "east"}:
        raise QueryError(f"{what}: expected an object with north and east")
    size = board.width * board.height
    north = _cells(value.get("north", []), f"{what}.north", board, size)
    east = _cells(value.get("east", []), f"{what}.east", board, size)
    for side, cells, step in (("north", north, (0, 1)), ("east", east, (1, 0))):
        for x, y in cells:
            if not board.on_board((x + step[0], y + step[1])):
                raise QueryError(f"{what}.{side}: ({x},{y}) is not an interior edge", "the board's border is a wall")
    return north, east


def _named(value, what: str, given_as: str, required: set, allowed: set) -> dict:
    """``value`` checked to be an object naming every name of ``required`` and only ``allowed`` ones."""
    if not isinstance(value, dict) or not required <= set(value) or set(value) - allowed:
        optional = sorted(allowed - required)
        raise QueryError(f"{what}: expected {given_as}",
                         f"needed: {', '.join(sorted(required)) or 'none'}"
                         + (f"; optional: {', '.join(optional)}" if optional else ""))
    return value


def _pieces(board: Board, value) -> dict:
    rules = board.rules
    listed = {piece for piece, _ in enemies_of(board)}
    named = set(rules.pieces) - listed
    given = _named(value, "level.pieces", "a cell for each piece", named - set(rules.optional), named)
    pieces = {piece: _cell(given[piece], f"level.pieces.{piece}", board) for piece in rules.pieces if piece in given}
    pieces.update({piece: board.pieces[piece] for piece in listed})
    return pieces


def _check_starts(board: Board) -> None:
    """Pieces moved by rule start on cells of their own."""
    rules, starts = board.rules, {}
    for piece, cell in board.pieces.items():
        other = starts.setdefault(cell, piece)
        if other != piece and (piece in rules.chasers or other in rules.chasers):
            raise QueryError(f"level.pieces: '{piece}' starts on the cell of '{other}' ({cell[0]},{cell[1]})",
                             "pieces moved by rule start on cells of their own")


def _enemies(board: Board, value) -> Board:
    """``board`` with the enemies listed in ``value`` ([{"kind": KIND, "at": [x, y]}, ...], in order)."""
    kinds = kinds_of(board)
    if not kinds:
        raise QueryError(f"level.enemies: the rules '{board.rules.name}' declare no kinds of enemies",
                         "place the pieces under pieces")
    if not isinstance(value, list) or len(value) > board.width * board.height:
        raise QueryError("level.enemies: expected a list of enemies, at most one a cell")
    listed = []
    for index, enemy in enumerate(value):
        what = f"level.enemies[{index}]"
        if not isinstance(enemy, dict) or set(enemy) != {"kind", "at"}:
            raise QueryError(f"{what}: expected {{\"kind\": KIND, \"at\": [x, y]}}")
        if enemy["kind"] not in kinds:
            raise QueryError(f"{what}: unknown kind '{str(enemy['kind'])[:40]}'", f"the kinds are: {', '.join(kinds)}")
        listed.append((enemy["kind"], _cell(enemy["at"], f"{what}.at", board)))
    return with_enemies(board, listed)


def _marks(board: Board, value, size: int) -> dict:
    optional = set(optional_marks(board))
    given = _named(value, "level.marks", "the cells of each mark of the board", set(board.marks) - optional,
                   set(board.marks) | optional)
    edges = board.rules.one_mover_script
    marks = {mark: _cells(cells, f"level.marks.{mark}", board, size, edges) for mark, cells in given.items()}
    return {mark: cells for mark, cells in marks.items() if cells or mark not in optional}


def apply_level(board: Board, level) -> Board:
    """``board`` with the walls, pieces, marks and gates of ``level`` (None: the board as it is)."""
    if level is None:
        return board
    if not isinstance(level, dict) or set(level) - {"walls", "pieces", "marks", "gates", "enemies"}:
        raise QueryError("level: expected an object with walls, pieces, marks (and gates, enemies)")
    if level.get("enemies") is not None:
        board = _enemies(board, level["enemies"])
    changes: dict = {}
    if level.get("walls") is not None:
        changes["north"], changes["east"] = _interior_edges(level["walls"], "level.walls", board)
    if level.get("pieces") is not None:
        changes["pieces"] = _pieces(board, level["pieces"])
    if level.get("marks") is not None:
        changes["marks"] = _marks(board, level["marks"], board.width * board.height)
    if level.get("gates") is not None:
        if board.rules.gate_key is None:
            raise QueryError(f"level.gates: the rules '{board.rules.name}' have no gate",
                             "gates need rules that declare gate: {key: MARK}")
        changes["gate_north"], changes["gate_east"] = _interior_edges(level["gates"], "level.gates", board)
    edited = with_exits(dataclasses.replace(board, **changes))
    _check_starts(edited)
    for side, gates, walls in (("north", edited.gate_north, edited.north), ("east", edited.gate_east, edited.east)):
        both = sorted(gates & walls)
        if both:
            x, y = both[0]
            raise QueryError(f"level: the {side} edge of ({x},{y}) holds both a wall and a gate",
                             "an edge is a wall or a gate: remove one of them")
    return edited
