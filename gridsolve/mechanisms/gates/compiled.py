"""Gates in the compiled program: the board's ``gate_north``/``gate_east`` facts, the key's mark
(``gate_key``) and the position term's last field ``G`` (1 while the gates are open); the
moves that cross a gate: gridsolve/compile/gamerules.py (``_gate_cases``), the key action:
gridsolve/compile/script.py."""
from __future__ import annotations

from ...compile.predicates import GATE_EAST, GATE_KEY, GATE_NORTH
from ..base import Encoding, PositionField


def board_facts(board) -> list[str]:
    return [predicate.fact(x, y) for predicate, cells in ((GATE_NORTH, board.gate_north), (GATE_EAST, board.gate_east))
            for x, y in sorted(cells)]


POSITION = PositionField(
    "gate", select=lambda board, options: board.rules.gate_key is not None,
    variables=lambda layout, prefix: [f"{prefix}G"],
    values=lambda layout, position, board: [int(position.gates_open)],
    decode=lambda layout, args: ({"gates_open": bool(args[0])}, args[1:]))

ENCODING = Encoding("gates", board_facts=board_facts, position=POSITION,
                    rule_facts=lambda rules: [GATE_KEY.fact(rules.gate_key)] if rules.gate_key is not None else [])
