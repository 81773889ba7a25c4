"""Teleporters in the compiled program: ``relocate(R,X,Y,X2,Y2)`` facts, both ways of every pair
for every role that teleports; encodings/moves.lp puts a move of R that leaves its cell and ends
on (X,Y) on (X2,Y2) (``rmove``'s last cell), so every path that reads ``rmove`` teleports."""
from __future__ import annotations

from ...compile.predicates import RELOCATE
from ..base import Encoding
from .language import of


def board_facts(board) -> list[str]:
    """``relocate(R,X,Y,X2,Y2)``: a move of R that ends on one cell of a pair goes on to the other."""
    found = of(board.rules)
    if found is None:
        return []
    out = []
    for mark in found.pairs:
        a, b = sorted(board.marks[mark])
        for role in found.pieces:
            out += [RELOCATE.fact(role, *a, *b), RELOCATE.fact(role, *b, *a)]
    return out


ENCODING = Encoding("teleporters", board_facts=board_facts)
