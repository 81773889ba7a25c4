"""``nearer`` in the compiled program: the ``distance`` facts of each piece and mark a condition
compares, and the condition's literals (a ``--hidden`` role's distance avoids the obstacles it
found: ``hdistance``, gridsolve/compile/knowledge.py)."""
from __future__ import annotations

from ...compile.distances import distance_facts
from ...compile.predicates import DISTANCE, HDISTANCE
from ...language.distance import UNREACHABLE, board_cells, bump_cells, mark_distances
from ..base import Encoding


def facts(board, layout, conditions) -> list[str]:
    """``distance(P,M,X,Y,D)`` for each piece and mark of a ``nearer`` of the conditions."""
    cells = board_cells(board) + list(board.outside())     # (a role stands outside an exit edge)
    nearer = {(p, m) for when in conditions for piece, other, m in when.nearer for p in (piece, other)}
    out = []
    for role, mark in sorted(nearer):
        dist = mark_distances(board, mark, bump_cells(board, role), through_exits=role in board.rules.roles)
        out.append(distance_facts(DISTANCE, (role, mark), dist, cells))
        if role in board.rules.chasers:     # a chaser off the board is infinitely far
            out.append(DISTANCE.fact(role, mark, 0, 0, UNREACHABLE))
    return out


def _distance(v, piece: str, mark: str, out: str) -> str:
    """The piece's distance to the mark; a ``--hidden`` role's avoids the obstacles it found."""
    knows = v.layout.knows
    if knows is not None and piece == knows.role:
        found = v.layout.knowledge_variables(v.prefix)[knows.words:2 * knows.words]
        return HDISTANCE.atom(mark, v.x(piece), v.y(piece), found, out)
    return DISTANCE.atom(piece, mark, v.x(piece), v.y(piece), out)


def literals(when, v, board) -> list[tuple[str, str]]:
    out = []
    for piece, other, mark in when.nearer:
        # one variable per piece and mark (a distance depends on nothing else), so that the
        # negations of several nearer conditions can share a rule body
        mine, theirs = (f"{v.prefix}D_{p}_{mark}" for p in (piece, other))
        dists = f"{_distance(v, piece, mark, mine)}, {_distance(v, other, mark, theirs)}"
        out.append((f"{dists}, {mine} < {theirs}", f"{dists}, {mine} >= {theirs}"))
    return out


ENCODING = Encoding("nearer", facts=facts, literals=literals)
