"""``nearer`` in the rule language: the condition key."""
from __future__ import annotations

from ...language.spec import Field, Object, Str
from ..base import Key, Mechanism

CONDITION_KEYS = (
    Key("nearer", Field(Object(doc="the piece is nearer to a cell with the mark than the other piece "
                                   "(fewest steps, not entering cells it bumps on)", fields={
        "piece": Field(Str(), required=True),
        "than": Field(Str(), required=True),
        "to": Field(Str(doc="a mark name"), required=True),
    })), "collected"),
)


def read_condition(value, ctx, key: str, what: str) -> tuple:
    """((piece, than piece, mark),), or () without ``nearer``."""
    return ((value["piece"], value["than"], value["to"]),) if value else ()


MECHANISM = Mechanism(
    "nearer", names=("nearer",), condition_keys=CONDITION_KEYS,
    condition_pieces=lambda value: [p for entry in value for p in entry[:2]],
    condition_marks=lambda value: [m for _, _, m in value], read_condition=read_condition,
    used=lambda rules: {"nearer"} if any(c.nearer for c in rules.conditions) else set())
