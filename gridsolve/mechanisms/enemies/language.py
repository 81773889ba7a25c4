"""Enemies in the rule language: the rules' kinds (``enemies``) and the board's list."""
from __future__ import annotations

from ...language.spec import Cell, Field, Int, ListOf, MapOf, Object, Str
from ..base import Key, Mechanism
from ..chasers.language import CHASER

ENEMY_KIND = Object(doc="A kind of enemy: a piece moved by rule that a board lists under `enemies:` (any "
                        "number, in the order they move).", fields={
    "target": Field(Str(doc="the role whose piece it steps toward"), required=True),
    "first": CHASER.fields["first"],
    "steps": Field(Int(1, 8, doc="its steps in one turn (`repeat: steps` inside `each`)"), default=1),
})

RULES_KEYS = (
    Key("enemies", Field(MapOf(ENEMY_KIND, key_doc="kind", doc="kinds of enemies, declared once: each board lists "
                                                               "its enemies (kind and cell) in the order they move, "
                                                               "and `each` in after_ply goes through them")),
        "chasers"),
)

BOARD_KEYS = (
    Key("enemies", Field(ListOf(Object(doc="one enemy: its kind (the rules' enemies:) and its cell", fields={
        "kind": Field(Str(doc="a kind the rules declare under enemies:"), required=True),
        "at": Field(Cell(), required=True),
    }), doc="the board's enemies in the order they move; each is the piece KIND + its place in this list "
            "(mummy1, scorpion2, ...)")), "pieces"),
)


def per_board(merged: dict) -> bool:
    """The rules are built for each board's list of enemies: they declare kinds, or their
    script goes through the enemies (``each``, ``if_kind``, ``repeat: steps``)."""
    return merged.get("enemies") is not None or any(
        isinstance(a, dict) and (a.get("each") is not None or a.get("if_kind") is not None
                                 or isinstance(a.get("repeat"), str)) for a in merged.get("after_ply") or [])


MECHANISM = Mechanism("enemies", rules_keys=lambda condition: RULES_KEYS, board_keys=BOARD_KEYS,
                      per_board=per_board)
