"""Teleporters in the compiled program: the rules' pairs (``teleport_pair``) and the roles that
teleport (``teleports``) as facts, and one rule over the board's marks that derives
``relocate(R,X,Y,X2,Y2)``, both ways of every pair; encodings/moves.lp puts a move of R that
leaves its cell and ends on (X,Y) on (X2,Y2) (``rmove``'s last cell), so every path that reads
``rmove`` teleports.  The pair cells are read from ``mark/3``, not written out per board: a
program ground with the marks as inputs (the shared tables' circuit, the layout judge) follows
each board's pair."""
from __future__ import annotations

from ...compile.predicates import MARK, RELOCATE, declare
from ..base import Encoding
from .language import of

TELEPORT_PAIR = declare("teleport_pair", "mark:name", "the two cells of mark K are a teleporter pair")
TELEPORTS = declare("teleports", "role:name", "the pieces of role R teleport")


def rule_facts(rules) -> list[str]:
    """``teleport_pair(K)`` of each pair mark, ``teleports(R)`` of each role that teleports."""
    found = of(rules)
    if found is None:
        return []
    return [TELEPORT_PAIR.facts((mark,) for mark in found.pairs), TELEPORTS.facts((role,) for role in found.pieces)]


def board_rules(rules) -> list[str]:
    """``relocate``: a move of R that ends on one cell of a pair goes on to the other (a board
    marks exactly two cells of each pair: language.check_board)."""
    if of(rules) is None:
        return []
    body = [TELEPORTS.atom("R"), TELEPORT_PAIR.atom("K"), MARK.atom("K", "X", "Y"), MARK.atom("K", "X2", "Y2"),
            "(X,Y) != (X2,Y2)"]
    return [f"{RELOCATE.atom('R', 'X', 'Y', 'X2', 'Y2')} :- {', '.join(body)}."]


ENCODING = Encoding("teleporters", rule_facts=rule_facts, board_rules=board_rules)
