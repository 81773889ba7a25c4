"""Gates in the rule language: the rules' ``gate`` and the board's ``gates``."""
from __future__ import annotations

from ...language.spec import Cell, Field, ListOf, Object, Str
from ..base import Key, Mechanism

RULES_KEYS = (
    Key("gate", Field(Object(doc="the board's gates (edges under `gates:`) block every piece while closed; "
                                 "they start closed", fields={
        "key": Field(Str(doc="the mark of the key cell that toggles them (see after_ply's key action)"),
                     required=True),
    })), "optional"),
)

BOARD_KEYS = (
    Key("gates", Field(Object(doc="gates: edges that block while closed (the rules' gate: key toggles them)",
                              fields={
        "north": Field(ListOf(Cell(), doc="gate between [x, y] and [x, y+1]"), default=[]),
        "east": Field(ListOf(Cell(), doc="gate between [x, y] and [x+1, y]"), default=[]),
    })), "enemies"),
)


def finish(ctx) -> None:
    ctx.built["gate_key"] = ctx.merged["gate"]["key"] if ctx.merged.get("gate") else None


def check(rules, ctx) -> None:
    """The gates change only by a key action, and are crossed one step at a time."""
    if rules.gate_key is not None and not rules.script:
        ctx.fail("gate", "gate: the gates change only by a key action of the after_ply script, and none plays "
                 "on this board (the rules have none, or only under each: and the board lists no enemies)",
                 "add after_ply: with a key action, list an enemy on the board, or remove gate:")
    if rules.gate_key is not None:
        for role, move in rules.moves.items():
            if move.steps != 1:
                ctx.fail(f"moves.{role}", f"moves.{role}: a move of {move.steps} steps with gates",
                         "a gate is crossed (or blocks) one step at a time: give every role steps: 1 "
                         "in rules with gate:")


def read_board(checked: dict, raw, parsed, top, rules, size) -> dict:
    """The board's gates: drawn on the map and listed under ``gates:``, on the board, and only
    with rules that have a gate."""
    gate_north = set(parsed.gate_north) if parsed is not None else set()
    gate_east = set(parsed.gate_east) if parsed is not None else set()
    width, height = size
    if checked["gates"] is not None:
        gate_north |= set(checked["gates"]["north"])
        gate_east |= set(checked["gates"]["east"])
        for kind, cells in (("north", gate_north), ("east", gate_east)):
            for cell in cells:
                if not (1 <= cell[0] <= width and 1 <= cell[1] <= height):
                    top.child(raw, "gates").fail(f"the {kind} gate at {list(cell)} is off the board")
    if (gate_north or gate_east) and rules.gate_key is None:
        top.child(raw, "gates" if checked["gates"] is not None else "map").fail(
            f"the board has gates, but the rules '{rules.name}' have none", "use rules that declare gate: {key: MARK}")
    return {"gate_north": frozenset(gate_north), "gate_east": frozenset(gate_east)}


MECHANISM = Mechanism("gates", names=("gates",), rules_keys=lambda condition: RULES_KEYS, board_keys=BOARD_KEYS,
                      finish=finish, check=check, read_board=read_board,
                      used=lambda rules: {"gates"} if rules.gate_key is not None else set())
