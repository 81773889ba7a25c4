"""Secret marks in the compiled program: for a ``--hidden`` question, what the role knows of the
marks hidden from it, last but the gates in the position term, over the cells they may occupy:
known free (``F1..Fw``) and found obstacles (``O1..Ow``) as bit words, and per hidden mark the
obstacles placed so far (``K1..Kh``).  Once every obstacle is placed, every unknown cell is
free: ``F`` is 0.  What the role knows (``Knowledge``), the robust game's facts and board:
gridsolve/compile/knowledge.py; its
moves: gridsolve/compile/gamerules.py (``_hidden_turn_rules``)."""
from __future__ import annotations

from ..base import Encoding, PositionField


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
