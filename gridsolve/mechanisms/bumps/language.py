"""Bumps in the rule language: a role's ``bump`` (marks, lost turns, hidden from play)."""
from __future__ import annotations

from ...language.spec import Bool, Field, Int, ListOf, Object, Str
from ..base import Key, Mechanism

MOVE_KEYS = (
    Key("bump", Field(Object(doc="a move into a cell with one of these marks fails: the piece stays and "
                                 "loses turns (needs steps: 1)", fields={
        "marks": Field(ListOf(Str(), min_items=1, doc="the marks the piece bumps on"), required=True),
        "lose_turns": Field(Int(0, 5, doc="how many of its next turns the piece's turns entry skips"),
                            default=1),
        "hidden": Field(Bool(doc="gridsolve play hides these cells from the role until it bumps on "
                                 "one (the solver always knows them)"), default=False),
    })), "frozen_on"),
)


def move(spec: dict, role: str, ctx) -> dict:
    """The MoveRule fields of a role's ``bump`` (one-step moves only)."""
    bump = spec["bump"]
    if bump and spec["steps"] != 1:
        ctx.fail(f"moves.{role}", f"moves.{role}: bump needs steps: 1", "bumps are defined for one-step moves")
    return {"bump_on": tuple(bump["marks"]) if bump else (), "lose_turns": bump["lose_turns"] if bump else 1,
            "bump_hidden": bool(bump and bump["hidden"])}


def loses_turns(rules) -> bool:
    """Some move bumps and loses turns (the position term keeps lost-turn counters)."""
    return any(m.bump_on and m.lose_turns for m in rules.moves.values())


def _bumps(rules) -> bool:
    return any(m.bump_on for m in rules.moves.values())


MECHANISM = Mechanism("bumps", names=("bumps",), move_keys=MOVE_KEYS, move=move,
                      used=lambda rules: {"bumps"} if _bumps(rules) else set(), state_beside_cells=_bumps)
