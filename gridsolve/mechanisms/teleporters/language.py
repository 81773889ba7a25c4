"""Teleporters in the rule language: the rules' ``teleporters`` (the pair marks, the pieces that
teleport) and a board's check that each pair mark has exactly two cells on the board."""
from __future__ import annotations

from dataclasses import dataclass

from ...language.spec import Field, ListOf, Object, Str
from ..base import Key, Mechanism

NAME = "teleporters"


@dataclass(frozen=True)
class Teleporters:
    """Each mark of ``pairs`` marks the two cells of one pair; ``pieces``: the roles whose
    pieces teleport (chasers never do)."""

    pairs: tuple[str, ...]
    pieces: tuple[str, ...]


RULES_KEYS = (
    Key(NAME, Field(Object(doc="teleporter pairs: a listed role's move that leaves its cell and ends on one cell of "
                               "a pair puts its piece on the other cell, in the same ply (one jump, whatever "
                               "stands there; chasers never teleport)", fields={
        "pairs": Field(ListOf(Str(doc="a mark with exactly two cells on the board: one pair"), min_items=1),
                       required=True),
        "pieces": Field(ListOf(Str(doc="a role"), doc="the roles whose pieces teleport (default: every role)")),
    })), "gate"),
)


def of(rules) -> Teleporters | None:
    """The rules' teleporters (None: they have none)."""
    return rules.plugins.get(NAME)


def build(ctx) -> None:
    spec = ctx.merged.get(NAME)
    if not spec:
        return
    pieces = tuple(spec["pieces"]) if spec.get("pieces") is not None else ctx.roles
    ctx.check_roles(list(pieces), NAME, f"{NAME}.pieces")
    pairs = tuple(spec["pairs"])
    if len(set(pairs)) < len(pairs):
        ctx.fail(NAME, f"{NAME}.pairs: a mark is listed twice", "list each pair's mark once")
    ctx.built.setdefault("plugins", {})[NAME] = Teleporters(pairs, pieces)


def check(rules, ctx) -> None:
    """Not with hidden marks: the robust game of ``--hidden`` (and play's blind hints) read steps
    of their own, which know no pairs."""
    if of(rules) is not None and (rules.placement or any(m.bump_hidden for m in rules.moves.values())):
        ctx.fail(NAME, f"{NAME}: teleporters with hidden marks (bump: {{hidden: true}}, placement:) are not answered",
                 "remove teleporters:, or the hidden marks")


def check_board(board, top) -> None:
    """Each pair mark has exactly two cells, both on the board (not just outside an exit edge)."""
    found = of(board.rules)
    if found is None:
        return
    outside = board.outside()
    for mark in found.pairs:
        cells = board.marks.get(mark, frozenset())
        if len(cells) != 2 or any(cell in outside for cell in cells):
            top.fail(f"the teleporter pair '{mark}' has {len(cells)} cell(s) on the board, not 2",
                     f"mark exactly two cells '{mark}': a step onto one puts the piece on the other")


MECHANISM = Mechanism(
    NAME, names=(NAME,), rules_keys=lambda condition: RULES_KEYS, build=build, check=check, check_board=check_board,
    marks_needed=lambda rules: [(NAME, mark) for mark in (of(rules).pairs if of(rules) else ())],
    used=lambda rules: {NAME} if of(rules) is not None else set())
