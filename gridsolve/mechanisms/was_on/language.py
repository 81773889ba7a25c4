"""``was_on`` in the rule language: the condition key."""
from __future__ import annotations

from ...language.spec import Field, MapOf, Str
from ..base import Key, Mechanism

CONDITION_KEYS = (
    Key("was_on", Field(MapOf(Str(doc="a mark name"), key_doc="piece",
                              doc="each piece stood on a cell with the given mark in the position before")),
        "reaches"),
)


def pairs(rules) -> tuple[tuple[str, str], ...]:
    """Every (piece, mark) of a ``was_on`` of the rules' conditions, in order, once each."""
    out = []
    for when in rules.conditions:
        for pair in when.was_on:
            if pair not in out:
                out.append(pair)
    return tuple(out)


def _was_on(rules) -> bool:
    return any(c.was_on for c in rules.conditions)


MECHANISM = Mechanism(
    "was_on", names=("was_on",), condition_keys=CONDITION_KEYS,
    condition_pieces=lambda value: [p for p, _ in value], condition_marks=lambda value: [m for _, m in value],
    read_condition=lambda value, ctx, key, what: tuple((piece, mark) for piece, mark in (value or {}).items()),
    used=lambda rules: {"was_on"} if _was_on(rules) else set(), state_beside_cells=lambda rules: _was_on(rules))
