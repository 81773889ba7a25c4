"""Gates in the compiled program: the board's ``gate_north``/``gate_east`` facts, the key's mark
(``gate_key``), the position term's last field ``G`` (1 while the gates are open) and the cases
of a ply's steps that cross a gate (:func:`move_cases`); the key action:
gridsolve/compile/script.py."""
from __future__ import annotations

import itertools

from ...compile.predicates import GATE_EAST, GATE_KEY, GATE_NORTH
from ..base import Encoding, PositionField


def board_facts(board) -> list[str]:
    return [predicate.fact(x, y) for predicate, cells in ((GATE_NORTH, board.gate_north), (GATE_EAST, board.gate_east))
            for x, y in sorted(cells)]


def move_cases(board, layout, movers, v) -> list | None:
    """(extra body, cell after the move per mover, {mover: turns lost} of the movers a closed
    gate stops) for each way the board's gates treat the movers' steps: a step that crosses a
    gate while they are closed (``G = 0``) leaves the piece where it was and bumps on nothing,
    or is no move where the mover's steps are ``blocked: illegal``.  None: no gates here."""
    if not (layout.gate and board.has_gates):
        return None
    moved = {r: f"(PX{v.index[r]},PY{v.index[r]})" for r in movers}
    per_mover = []
    for r in movers:
        i = v.index[r]
        cross = f"gate_cross(X{i},Y{i},AX{i},AY{i})"
        # a step into a closed gate is stopped there (blocked: stay), or illegal as one into a wall
        stopped = [] if board.rules.moves[r].blocked == "illegal" else [(["G = 0", cross], r, True)]
        per_mover.append([*stopped, (["G = 1"], r, False), ([f"not {cross}"], r, False)])
    out = []
    for combo in itertools.product(*per_mover):
        if any(lit == "G = 1" for extra, _, _ in combo for lit in extra) and \
                any(lit == "G = 0" for extra, _, _ in combo for lit in extra):
            continue
        extra = list(dict.fromkeys(lit for lits, _, _ in combo for lit in lits))
        cells = {r: (v.cell(r) if stopped else moved[r]) for _, r, stopped in combo}
        out.append((extra, cells, {r: "0" for _, r, stopped in combo if stopped}))
    return out


POSITION = PositionField(
    "gate", select=lambda board, options: board.rules.gate_key is not None,
    variables=lambda layout, prefix: [f"{prefix}G"],
    values=lambda layout, position, board: [int(position.gates_open)],
    decode=lambda layout, args: ({"gates_open": bool(args[0])}, args[1:]))

ENCODING = Encoding("gates", board_facts=board_facts, position=POSITION, move_cases=move_cases,
                    rule_facts=lambda rules: [GATE_KEY.fact(rules.gate_key)] if rules.gate_key is not None else [])
