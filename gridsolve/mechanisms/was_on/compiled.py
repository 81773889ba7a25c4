"""``was_on`` in the compiled program: one bit per (piece, mark) pair in the position term
(``W1..Wk``: the piece stood on the mark in the position before), set after each ply from the
``markbit`` facts."""
from __future__ import annotations

from ...compile.predicates import MARKBIT
from ...language.distance import board_cells
from ...language.model import OFF_BOARD
from ..base import Encoding, PositionField
from .language import pairs


def variable(layout, pair, prefix: str = "") -> str:
    """The variable of the bit of ``pair`` (piece, mark)."""
    return f"{prefix}W{layout.was.index(pair) + 1}"


def facts(board, layout, conditions) -> list[str]:
    """``markbit(M,X,Y,B)`` of every cell a piece can stand on (a chaser off the board too)."""
    cells = board_cells(board)
    placed = cells + [OFF_BOARD] if board.rules.chasers else cells     # (a chaser off the board stands on (0,0))
    out = []
    for mark in sorted({m for _, m in layout.was}):
        marked = board.marks.get(mark, frozenset())
        out.append(MARKBIT.facts((mark, x, y, int((x, y) in marked)) for x, y in placed))
    return out


def literals(when, v, board) -> list[tuple[str, str]]:
    return [(f"{variable(v.layout, pair, v.prefix)} = 1", f"{variable(v.layout, pair, v.prefix)} = 0")
            for pair in when.was_on]


def after(ply) -> None:
    """Each bit after the ply: whether its piece stood on the mark before it."""
    for pair in ply.layout.was:
        piece, mark = pair
        bit = f"N{variable(ply.layout, pair, ply.v.prefix)}"
        ply.body.append(MARKBIT.atom(mark, ply.v.x(piece), ply.v.y(piece), bit))
        ply.fields.append(bit)


def _decode(layout, args):
    bits = args[:len(layout.was)]
    return {"was": frozenset(pair for pair, bit in zip(layout.was, bits) if bit)}, args[len(layout.was):]


POSITION = PositionField(
    "was", select=lambda board, options: pairs(board.rules),
    variables=lambda layout, prefix: [f"{prefix}W{k}" for k in range(1, len(layout.was) + 1)],
    values=lambda layout, position, board: [1 if pair in position.was else 0 for pair in layout.was],
    decode=_decode)

ENCODING = Encoding("was_on", facts=facts, literals=literals, after=after, position=POSITION)
