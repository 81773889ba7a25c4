"""Bumps in the compiled program: the ``bump_on``/``lose_turns`` facts, the lost-turn counters
of the position term (``L1..Lm``, one per ``turns`` entry) and the turn order that skips lost
turns (``turn_after``)."""
from __future__ import annotations

import itertools

from ...compile.predicates import BUMP_ON, LOSE_TURNS, TURN_AFTER
from ...language.position import next_turn
from ..base import Encoding, PositionField
from .language import loses_turns


def turn_order_facts(rules) -> list[str]:
    """``turn_after(T,L1..Lm,T2,L1'..Lm')`` for every counter combination a game can have."""
    top = max(m.lose_turns for m in rules.moves.values() if m.bump_on) * max(len(t) for t in rules.turns)
    m = len(rules.turns)
    out = []
    for turn in range(m):
        for lost in itertools.product(range(top + 1), repeat=m):
            nxt, after = next_turn(turn, lost)
            out.append(TURN_AFTER.fact(turn, lost, nxt, after))
    return out


def move_facts(rules, role: str) -> list[str]:
    move = rules.moves[role]
    out = [BUMP_ON.fact(role, mark) for mark in move.bump_on]
    return out + ([LOSE_TURNS.fact(role, move.lose_turns)] if move.bump_on else [])


def after(ply) -> None:
    """The counters after the ply: the movers' bumps added to their entry's, then
    ``turn_after`` gives the entry to move next (``TN``) and the counters then."""
    layout, v, n = ply.layout, ply.v, ply.n
    lost_after = []
    for t in range(1, layout.turns + 1):
        bumps = ([(ply.lost or {}).get(r, f"B{v.index[r]}") for r in ply.movers]
                 if t - 1 == ply.turn and ply.effect else [])
        lost_after.append("+".join([f"L{t}", *bumps]))
    ply.body.append(TURN_AFTER.atom(ply.turn, lost_after, "TN", n.fields[:layout.turns]))
    ply.fields += n.fields[:layout.turns]
    ply.next_turn = "TN"


def _decode(layout, args):
    return {"lost": tuple(args[:layout.turns])}, args[layout.turns:]


POSITION = PositionField(
    "lost", select=lambda board, options: loses_turns(board.rules),
    variables=lambda layout, prefix: [f"{prefix}L{t}" for t in range(1, layout.turns + 1)],
    values=lambda layout, position, board: list(position.lost_turns(board)), decode=_decode)

ENCODING = Encoding("bumps", move_facts=move_facts, position=POSITION, after=after,
                    facts=lambda board, layout, conditions: [" ".join(turn_order_facts(board.rules))]
                    if layout.lost else [])
