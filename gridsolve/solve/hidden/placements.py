"""Full-information values of the role's moves under many placements of its hidden marks, from
one grounding.

A placement is the robust game's position with every hidden obstacle found: with none left to
place, every other cell is free, so the game from there is the full-information game of that
placement (:mod:`gridsolve.compile.knowledge`).  One layered program rooted at all of them
computes the values of every position once, however many placements share it.
"""
from __future__ import annotations

from dataclasses import replace

import clingo

from ...compile.compiler import compile_hidden
from ...compile.knowledge import knowledge_for, robust_board
from ...compile.predicates import COMMIT, PVAL, ROOT, VAT
from ...errors import EncodingError
from ...language.model import Board
from ...language.position import Position, Query
from ..graph.codec import PositionCodec
from ..program.driver import format_move, ground_values
from ..common.limits import Limits
from ...language.kinds import QueryKind


def placement_values(board: Board, role: str, position: Position, placements: list[dict],
                     horizon: int, limits: Limits | None = None) -> list[dict[str, int]]:
    """For each placement ({hidden mark: cells}), {move: value} of ``role``'s moves from
    ``position`` (the role to move) with full information, looking ``horizon`` plies ahead."""
    knows = knowledge_for(board, role)
    robust = robust_board(board, knows)
    roots = [replace(position, free=frozenset(), found=frozenset((m, c) for m, cells in p.items() for c in cells))
             for p in placements]
    query = Query(role, QueryKind.VALUE, roots[0], horizon, hidden=True)
    program = compile_hidden(board, query, [frozenset(c for _, c in r.found) for r in roots])
    codec = PositionCodec(robust, program.layout)
    terms = [codec.text(r) for r in roots]
    program.base += "\n" + ROOT.facts((t,) for t in terms[1:]) + "\n"
    ctl = clingo.Control(["--warn=none"])
    try:
        ground_values(ctl, program, limits)
    except RuntimeError as exc:
        raise EncodingError(f"clingo could not ground the placements: {exc}") from exc
    left = program.remaining
    atoms = ctl.symbolic_atoms
    at = next((e for r, e in VAT.ground(atoms) if r == left), None)
    commits: dict[str, list] = {}
    for state, move, node in COMMIT.ground(atoms):
        commits.setdefault(str(state), []).append((format_move(move), node))
    values = {}
    for level, node, value in PVAL.ground(atoms):
        if level == at:
            values[str(node)] = value
    out = []
    for term in terms:
        out.append({move: values[str(node)] for move, node in commits.get(term, []) if str(node) in values})
    return out
