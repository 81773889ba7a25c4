"""Cells as a user writes them after ``--at``, ``--free`` and ``--found``: ``X,Y`` or ``(X,Y)``."""
from __future__ import annotations

import re

from .model import Cell

CELL_TEXT = re.compile(r"^\s*\(?\s*(\d+)\s*,\s*(\d+)\s*\)?\s*$")


def read_cell(text: str) -> Cell | None:
    """The cell ``text`` writes, or None when it writes no cell (whether it is on the board is
    the caller's to check)."""
    match = CELL_TEXT.match(text)
    return (int(match.group(1)), int(match.group(2))) if match else None
