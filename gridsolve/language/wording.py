"""Counts as the messages write them: ``1 ply``, ``20 plies``, ``1 move``, ``3 moves``."""
from __future__ import annotations


def counted(n: int, one: str, many: str | None = None) -> str:
    """``n`` and the word for one thing or for several (``many``, default ``one`` + "s")."""
    return f"{n} {one if n == 1 else many or one + 's'}"


def plies(n: int) -> str:
    """``1 ply``, ``0 plies``, ``20 plies``."""
    return counted(n, "ply", "plies")


def moves(n: int) -> str:
    """``1 move``, ``10 moves``."""
    return counted(n, "move")
