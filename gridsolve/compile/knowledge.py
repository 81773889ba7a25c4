"""The robust game of a ``--hidden`` question: what the role knows, as facts and a board.

The role does not see its hidden marks (:mod:`gridsolve.language.secret`): the program is
compiled for the board without them, and the others place them as the role bumps
(:func:`gridsolve.compile.gamerules.move_rules`).  The facts here say where they may go:

* ``hcand(X,Y)``, ``hbit(X,Y,B1..Bw)``: a cell some hidden mark may occupy, and its bit in
  the knowledge words (0 in the other words);
* ``hallow(J,X,Y)``: hidden mark J (1..h) may occupy the cell;
* ``hdistance(M,X,Y,O1..Ow,D)``: the role's distance to mark M (``nearer``) around the
  obstacles ``O`` it has found, for every set of found obstacles it can have.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import replace

from ..errors import LimitError, QueryError
from ..language.model import Board
from ..language.secret import allowed_cells, hidden_marks, secret_count
from .state import Knowledge, Layout

MAX_DISTANCE_FACTS = 400_000


def knowledge_for(board: Board, role: str) -> Knowledge:
    """The knowledge fields of ``role``'s robust game; a QueryError where it has nothing hidden
    or moves together with others."""
    marks = hidden_marks(board, role)
    if not marks:
        raise QueryError(f"--hidden: {role} sees every mark of {board.name}",
                         "--hidden is for roles whose bump marks are hidden: true (Maze Runner Duel)")
    if any(len(side) > 1 and role in side for side in board.rules.turns):
        raise QueryError(f"--hidden: {role} moves at once with other roles",
                         "--hidden answers games where the role moves alone in its ply")
    allowed = tuple(allowed_cells(board, m) for m in marks)
    cells = tuple(sorted(set().union(*allowed)))
    return Knowledge(role, marks, tuple(secret_count(board, m) for m in marks), allowed, cells)


def robust_board(board: Board, knows: Knowledge) -> Board:
    """``board`` without the marks hidden from the role (the others place them in play)."""
    return replace(board, marks={m: c for m, c in board.marks.items() if m not in knows.marks})


def knowledge_facts(board: Board, layout: Layout) -> str:
    knows = layout.knows
    out = []
    for cell in knows.cells:
        word, bit = knows.bit(cell)
        bits = [bit if k == word else 0 for k in range(knows.words)]
        out.append(f"hcand({cell[0]},{cell[1]}). hbit({cell[0]},{cell[1]},{','.join(map(str, bits))}).")
    for j, allowed in enumerate(knows.allowed, 1):
        out.append(" ".join(f"hallow({j},{x},{y})." for x, y in sorted(allowed)))
    rules = board.rules
    conditions = [e.when for e in rules.ends] + [t.when for t in rules.timeout_when]
    goals = sorted({m for when in conditions for piece, other, m in when.nearer if knows.role in (piece, other)})
    for mark in goals:
        out += _distance_facts(board, knows, mark)
    return "\n".join(out)


def _distance_facts(board: Board, knows: Knowledge, mark: str) -> list[str]:
    from .compiler import UNREACHABLE, distances
    total = sum(knows.counts)
    sets = sum(math.comb(len(knows.cells), k) for k in range(total + 1))
    cells = [(x, y) for x in range(1, board.width + 1) for y in range(1, board.height + 1) if board.on_board((x, y))]
    if sets * len(cells) > MAX_DISTANCE_FACTS:
        raise LimitError(f"--hidden: the distances to '{mark}' around every set of up to {total} found obstacles "
                         f"are {sets * len(cells):,} facts (limit {MAX_DISTANCE_FACTS:,})",
                         "use fewer hidden obstacles or a smaller board")
    out = []
    for k in range(total + 1):
        for found in itertools.combinations(knows.cells, k):
            words = ",".join(map(str, knows.pack(found)))
            dist = distances(board, knows.role, mark, frozenset(found))
            out.append(" ".join(f"hdistance({mark},{x},{y},{words},{dist.get((x, y), UNREACHABLE)})."
                                for x, y in cells))
    return out
