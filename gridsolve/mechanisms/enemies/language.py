"""Enemies in the rule language: the rules' kinds (``enemies``) and the board's list."""
from __future__ import annotations

import re

from ...language.spec import Cell, Field, Int, ListOf, MapOf, Object, Str
from ..base import Key, Mechanism
from ..chasers.language import CHASER
from .expand import enemy_pieces, expand as expand_names, sample

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


def expand(merged: dict, listed: list | None, fail) -> dict:
    """The plain rule keys of ``merged`` for the board's enemies ``listed`` ((piece, kind) in
    order; None: one of each kind, to check the rules before a board lists its own)."""
    return expand_names(merged, sample(merged.get("enemies") or {}) if listed is None else listed, fail)


def declared_kinds(rules) -> dict:
    """The kinds of enemies ``rules`` declare ({kind: spec}; empty for rules without kinds)."""
    return dict(rules.template[0].get("enemies") or {}) if rules.template is not None else {}


def board_pieces(checked: dict, raw, top, rules) -> list | None:
    """The board's enemies, (piece, kind, cell, line) each in the order they move, each of a kind
    the rules declare; None where the rules are not built for a board's list."""
    listed = checked["enemies"]
    if rules.template is None:
        if listed:
            top.child(raw, "enemies").fail(f"the rules '{rules.name}' declare no kinds of enemies",
                                           "use rules with enemies: {KIND: {target: ROLE, steps: N}}, or place "
                                           "the pieces under pieces:")
        return None
    kinds = declared_kinds(rules)
    for index, enemy in enumerate(listed or []):
        if enemy["kind"] not in kinds:
            top.child(raw, "enemies").child(raw["enemies"], index).fail(
                f"unknown kind '{enemy['kind']}'", f"the kinds of the rules '{rules.name}' are: "
                f"{', '.join(kinds) or 'none'}")
    pieces = enemy_pieces([e["kind"] for e in listed or []])
    lines = raw["enemies"] if hasattr(raw.get("enemies"), "line_of") else None
    return [(piece, kind, enemy["at"], lines.line_of(index) if lines is not None else top.line)
            for index, ((piece, kind), enemy) in enumerate(zip(pieces, listed or []))]


def map_glyph(glyph: str, meaning: str, cell, rules) -> tuple[str, str] | None:
    """(message, hint) where the map draws an enemy: a board lists them, in the order they move."""
    kind = re.sub(r"\d+\Z", "", meaning)
    if kind not in declared_kinds(rules):
        return None
    return (f"map: '{glyph}' draws the enemy '{meaning}'", "list the enemies under enemies: in the order they move, "
            f"e.g. enemies: [{{kind: {kind}, at: [{cell[0]}, {cell[1]}]}}]")


MECHANISM = Mechanism("enemies", rules_keys=lambda condition: RULES_KEYS, board_keys=BOARD_KEYS,
                      per_board=per_board, expand=expand, listed_kinds=declared_kinds, listed_pieces=enemy_pieces,
                      board_pieces=board_pieces, map_glyph=map_glyph)
