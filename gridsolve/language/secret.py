"""Secret marks: which marks a role cannot see, how many cells they have and where they may go.

A role's *hidden marks* are the marks it bumps on with ``bump: {hidden: true}`` (Maze Runner
Duel: the other player's obstacles).  The rules' ``placement`` says who places a secret mark,
how many cells and where not; without it, the count is the board's number of cells of the
mark and the start cells of the pieces are forbidden.
"""
from __future__ import annotations

from ..errors import QueryError
from .celltext import board_cell
from .model import Board
from .secretcells import allowed_cells, not_on

__all__ = ["allowed_cells", "not_on"]     # (where a secret mark may go: secretcells.py)


def hidden_marks(board: Board, role: str) -> tuple[str, ...]:
    """The marks ``role`` bumps on without seeing them."""
    move = board.rules.moves[role]
    return tuple(move.bump_on) if move.bump_hidden else ()


def secret_count(board: Board, mark: str) -> int:
    """How many cells ``mark`` has in the game: the board's unplaced count, else the rules'
    placement count, else the cells the board gives it."""
    if mark in board.unplaced:
        return board.unplaced[mark]
    spec = board.rules.placement.get(mark)
    return spec.count if spec else len(board.marks.get(mark, ()))


def owner(board: Board, mark: str) -> str | None:
    """The role that places ``mark`` (None when the rules do not say)."""
    spec = board.rules.placement.get(mark)
    return spec.by if spec else None


def knowledge_of(board: Board, role: str, position, free=(), found=()) -> dict:
    """``free`` and ``found`` of a position from ``--free X,Y`` and ``--found [MARK=]X,Y``: the
    cells the role knows free, and the obstacles it found (MARK needed only where the role
    has several hidden marks)."""
    marks = hidden_marks(board, role)
    if not marks:
        raise QueryError(f"--hidden: {role} sees every mark of {board.name}",
                         "--hidden is for roles whose bump marks are hidden: true (Maze Runner Duel)")
    known = {cell for cell in (board_cell(f"--free {text}", text, board) for text in free)}
    pairs = set()
    for text in found:
        mark, _, where = text.rpartition("=")
        if not mark:
            if len(marks) > 1:
                raise QueryError(f"--found {text}: {role} has several hidden marks ({', '.join(marks)})",
                                 "write --found MARK=X,Y")
            mark = marks[0]
        if mark not in marks:
            raise QueryError(f"--found {text}: '{mark}' is not a mark hidden from {role}",
                             f"hidden from {role}: {', '.join(marks)}")
        cell = board_cell(f"--found {text}", where, board)
        if cell not in allowed_cells(board, mark):
            raise QueryError(f"--found {text}: the rules allow no {mark} on ({cell[0]},{cell[1]})")
        if cell in known:
            raise QueryError(f"--found {text}: ({cell[0]},{cell[1]}) is also given as --free")
        pairs.add((mark, cell))
    if position.cell(role) in {c for _, c in pairs}:
        raise QueryError(f"--found: {role} stands on ({position.cell(role)[0]},{position.cell(role)[1]}), "
                         "so it is free")
    for mark in marks:
        count = sum(1 for m, _ in pairs if m == mark)
        if count > secret_count(board, mark):
            raise QueryError(f"--found: {count} obstacles of {mark}, but it has only {secret_count(board, mark)}")
    return {"free": frozenset(known), "found": frozenset(pairs)}
