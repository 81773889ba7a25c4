"""A board's list of enemies and its exit edges, read off a built board and changed on it (the
studio's edits, generate's levels).

A board of rules with kinds of enemies holds its list as pieces (``KIND + place``: the
``listed_pieces`` of the mechanism that lists them, :class:`~gridsolve.mechanisms.base.Mechanism`),
with rules built for that list; an exit edge of the border is a mark on the cell just outside
it, with the edge in :attr:`Board.exits`.
"""
from __future__ import annotations

import dataclasses

from ..mechanisms.registry import MECHANISMS
from .model import DELTA, Board, Cell

(LISTER,) = [mechanism for mechanism in MECHANISMS if mechanism.listed_pieces]    # the one: the enemies


def kinds_of(board: Board) -> dict:
    """The kinds of enemies the board's rules declare ({kind: spec}; empty for other rules)."""
    return LISTER.listed_kinds(board.rules)


def enemy_pieces(listed: list[str]) -> list[tuple[str, str]]:
    """(piece, kind) of each enemy a board lists (by kind, in order)."""
    return LISTER.listed_pieces(listed)


def enemies_of(board: Board) -> list[tuple[str, str]]:
    """(piece, kind) of each enemy of ``board``, in the order they move."""
    kinds, out = kinds_of(board), []
    for place in range(1, len(board.rules.chasers) + 1):
        found = [(f"{kind}{place}", kind) for kind in kinds if f"{kind}{place}" in board.rules.chasers]
        if not found:
            break
        out.append(found[0])
    return out


_BUILT: dict = {}       # (id of the rule set's raw keys, kinds in order) -> rules built for that list


def rules_for(board: Board, kinds: tuple):
    """The rules of ``board`` built for enemies of ``kinds``, in that order."""
    merged, origin = board.rules.template
    key = (id(merged), tuple(kinds))
    kept = _BUILT.get(key)
    if kept is None or kept[0] is not merged:
        from .loader import build_rules        # (the loader reads this module's neighbour)
        kept = _BUILT[key] = (merged, build_rules(merged, origin, enemy_pieces(list(kinds))))
        if len(_BUILT) > 256:
            _BUILT.pop(next(iter(_BUILT)))
    return kept[1]


def with_enemies(board: Board, listed: list[tuple[str, Cell]]) -> Board:
    """``board`` with the enemies ``listed`` ((kind, cell), in the order they move) in place of its own."""
    mine = {piece for piece, _ in enemies_of(board)}
    pieces = {p: c for p, c in board.pieces.items() if p not in mine}
    pieces.update({piece: cell for (piece, _), (_, cell) in zip(enemy_pieces([k for k, _ in listed]), listed)})
    return dataclasses.replace(board, rules=rules_for(board, tuple(k for k, _ in listed)), pieces=pieces)


def edge_of(cell: Cell, width: int, height: int) -> tuple[Cell, str] | None:
    """(the cell inside, the direction) of the border edge the cell ``cell`` lies just outside of
    (None: a cell of the board, a corner or farther out)."""
    x, y = cell
    for direction, (dx, dy) in DELTA.items():
        inside = (x - dx, y - dy)
        if direction != "nowhere" and not (1 <= x <= width and 1 <= y <= height) \
                and 1 <= inside[0] <= width and 1 <= inside[1] <= height:
            return inside, direction
    return None


def edge_mark(cell: Cell, width: int, height: int) -> dict:
    """The board file's ``{edge, at}`` of the outside cell ``cell``."""
    (x, y), direction = edge_of(cell, width, height)
    return {"edge": direction, "at": x if direction in ("north", "south") else y}


def with_exits(board: Board) -> Board:
    """``board`` with its exit edges read off its marks' cells outside the board."""
    exits = {edge_of(c, board.width, board.height) for cells in board.marks.values() for c in cells}
    return dataclasses.replace(board, exits=frozenset(e for e in exits if e is not None))
