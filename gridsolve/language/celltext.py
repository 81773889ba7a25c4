"""Cells as a user writes them after ``--at``, ``--free`` and ``--found``: ``X,Y`` or ``(X,Y)``,
and what is said of a cell that is not one of the board's free cells."""
from __future__ import annotations

import re

from ..errors import QueryError
from .model import Board, Cell

CELL_TEXT = re.compile(r"^\s*\(?\s*(\d+)\s*,\s*(\d+)\s*\)?\s*$")


def read_cell(text: str) -> Cell | None:
    """The cell ``text`` writes, or None when it writes no cell (whether it is on the board is
    the caller's to check)."""
    match = CELL_TEXT.match(text)
    return (int(match.group(1)), int(match.group(2))) if match else None


def board_cell(given: str, text: str, board: Board) -> Cell:
    """The free cell of ``board`` that ``text`` writes, else a QueryError that names ``given``
    (the option as the user wrote it, e.g. ``--at explorer=3,4``)."""
    cell = read_cell(text)
    if cell is None:
        raise QueryError(f"{given}: '{text}' is not a cell", "write X,Y, e.g. 3,4")
    if not board.on_board(cell):
        raise QueryError(f"{given}: {not_free(cell, board)}")
    return cell


def not_free(cell: Cell, board: Board) -> str:
    """What is wrong with a cell off ``board`` or solid on it."""
    return f"({cell[0]},{cell[1]}) is not a free cell of the {board.width}x{board.height} board"
