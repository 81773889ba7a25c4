"""Which layered questions the bounded solver answers (:func:`applies`): read by the bounded
solver (:mod:`gridsolve.solve.bounded.search`) and by the layered tables
(:mod:`gridsolve.solve.layered.table`), which answer the layered questions it does not take.
"""
from __future__ import annotations

from ...compile.gamerules import live_ends
from ...language.model import Board
from ...language.position import Query


def applies(board: Board, query: Query, split: bool) -> bool:
    """Whether the bounded solver answers ``query``: the game keeps items, no end and no timeout
    entry counts them, scores are numbers or tables, the role's team never moves at once with
    the others, a collector takes the item where it ends each of its moves, and no piece moves
    by rule (an after_ply script)."""
    rules = board.rules
    if not rules.collect or split or query.strategy or query.hidden or rules.script:
        return False        # (pieces moved by rule: the layered tables play the compiled script)
    conditions = [e.when for e in live_ends(board)] + [t.when for t in rules.timeout_when]
    if any(when.collected for when in conditions):
        return False
    if rules.collisions == "stay":
        collectors = {c.piece for c in rules.collect.values()}
        if any(rules.moves[p].idle or rules.moves[p].blocked == "stay" for p in collectors):
            return False
    return True
