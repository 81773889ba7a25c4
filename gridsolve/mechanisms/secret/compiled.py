"""Secret marks in the compiled program: for a ``--hidden`` question, what the role knows of the
marks hidden from it, last but the gates in the position term, over the cells they may occupy:
known free (``F1..Fw``) and found obstacles (``O1..Ow``) as bit words, and per hidden mark the
obstacles placed so far (``K1..Kh``).  Once every obstacle is placed, every unknown cell is
free: ``F`` is 0.  The robust game's facts and board: gridsolve/compile/knowledge.py; its
moves: gridsolve/compile/gamerules.py (``_hidden_turn_rules``)."""
from __future__ import annotations

from dataclasses import dataclass

from ...compile.bits import BitCells
from ...language.model import Cell
from ..base import Encoding, PositionField


@dataclass(frozen=True)
class Knowledge(BitCells):
    """What ``role`` knows of its hidden marks (``marks``, each with ``counts`` cells, allowed on
    ``allowed`` cells), over ``cells``: every cell some hidden mark may occupy."""

    role: str
    marks: tuple[str, ...]
    counts: tuple[int, ...]
    allowed: tuple[frozenset, ...]
    cells: tuple[Cell, ...]

    def values(self, position) -> list[int]:
        """F words, O words, K per mark of ``position``'s knowledge (F includes the role's cell)."""
        used = [sum(1 for mark, _ in position.found if mark == m) for m in self.marks]
        free = set(position.free) | {position.cell(self.role)}
        exhausted = sum(used) >= sum(self.counts)
        return ([0] * self.words if exhausted else self.pack(free)) + \
            self.pack(c for _, c in position.found) + used

    def newly_found(self, cells_before, used_before, cells_after, used_after) -> tuple[str, Cell] | None:
        """The (mark, cell) of the obstacle a ply placed, from the found cells and the obstacles
        placed per mark before and after it; None where it placed none."""
        new = set(cells_after) - set(cells_before)
        if not new:
            return None
        mark = next(m for m, was, now in zip(self.marks, used_before, used_after) if now > was)
        return mark, new.pop()


def variables(layout, prefix: str = "") -> list[str]:
    """The variables of the knowledge fields: F words, O words, K per hidden mark."""
    k = layout.knows
    if k is None:
        return []
    return ([f"{prefix}F{w}" for w in range(1, k.words + 1)] + [f"{prefix}O{w}" for w in range(1, k.words + 1)]
            + [f"{prefix}K{j}" for j in range(1, len(k.marks) + 1)])


def after(ply) -> None:
    """The knowledge after the ply: what the ply's case says (``ply.knowledge``), else unchanged."""
    ply.fields += variables(ply.layout) if ply.knowledge is None else ply.knowledge


def _decode(layout, args):
    k = layout.knows
    free, found = k.unpack(args[:k.words]), k.unpack(args[k.words:2 * k.words])
    end = 2 * k.words + len(k.marks)
    return {"free": free, "found_cells": found, "used": tuple(args[2 * k.words:end])}, args[end:]


POSITION = PositionField("knows", select=lambda board, options: options.get("knows"), variables=variables,
                         values=lambda layout, position, board: layout.knows.values(position), decode=_decode)

ENCODING = Encoding("secret", position=POSITION, after=after)
