"""The robust game of a ``--hidden`` question: what the role knows, as facts and a board.

The role does not see its hidden marks (:mod:`gridsolve.language.secret`): the program is
compiled for the board without them, and the others place them as the role bumps
(:func:`gridsolve.compile.gamerules.move_rules`).  The facts here say where they may go:

* ``hcand(X,Y)``, ``hbit(X,Y,B1..Bw)``: a cell some hidden mark may occupy, and its bit in
  the knowledge words (0 in the other words);
* ``hallow(J,X,Y)``: hidden mark J (1..h) may occupy the cell;
* ``hdistance(M,X,Y,O1..Ow,D)``: the role's distance to mark M (``nearer``) around the
  obstacles ``O`` it has found (and the cells it bumps on that it sees), for every set of
  found obstacles it can have (as ``distance/5``: a piece may step off such a cell).
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, replace

from ..errors import LimitError, QueryError
from ..language.distance import board_cells, bump_cells, open_steps, step_distances
from ..language.model import Board, Cell
from ..language.secret import allowed_cells, hidden_marks, secret_count
from .bits import BitCells
from .distances import distance_facts
from .predicates import HALLOW, HBIT, HCAND, HDISTANCE
from .state import Layout

MAX_FOUND_SETS = 20_000


@dataclass(frozen=True)
class Knowledge(BitCells):
    """What ``role`` knows of its hidden marks (``marks``, each with ``counts`` cells, allowed on
    ``allowed`` cells), over ``cells``: every cell some hidden mark may occupy."""

    role: str
    marks: tuple[str, ...]
    counts: tuple[int, ...]
    allowed: tuple[frozenset, ...]
    cells: tuple[Cell, ...]

    def values(self, position) -> list[int]:
        """F words, O words, K per mark of ``position``'s knowledge (F includes the role's cell)."""
        used = [sum(1 for mark, _ in position.found if mark == m) for m in self.marks]
        free = set(position.free) | {position.cell(self.role)}
        exhausted = sum(used) >= sum(self.counts)
        return ([0] * self.words if exhausted else self.pack(free)) + \
            self.pack(c for _, c in position.found) + used

    def newly_found(self, cells_before, used_before, cells_after, used_after) -> tuple[str, Cell] | None:
        """The (mark, cell) of the obstacle a ply placed, from the found cells and the obstacles
        placed per mark before and after it; None where it placed none."""
        new = set(cells_after) - set(cells_before)
        if not new:
            return None
        mark = next(m for m, was, now in zip(self.marks, used_before, used_after) if now > was)
        return mark, new.pop()


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


def knowledge_facts(board: Board, layout: Layout, root_found=frozenset(), found_sets=None) -> str:
    """The facts of the knowledge fields; the distances for every set of found obstacles that
    can follow ``root_found`` (the cells found at the query position), or for ``found_sets``
    only (each a complete placement: nothing more can be found)."""
    knows = layout.knows
    out = []
    for cell in knows.cells:
        word, bit = knows.bit(cell)
        bits = [bit if k == word else 0 for k in range(knows.words)]
        out.append(HCAND.fact(cell[0], cell[1]) + " " + HBIT.fact(cell[0], cell[1], bits))
    for j, allowed in enumerate(knows.allowed, 1):
        out.append(HALLOW.facts((j, x, y) for x, y in sorted(allowed)))
    rules = board.rules
    conditions = [e.when for e in rules.ends] + [t.when for t in rules.timeout_when]
    goals = sorted({m for when in conditions for piece, other, m in when.nearer if knows.role in (piece, other)})
    if goals and found_sets is None:
        found_sets = list(_found_sets(board, knows, frozenset(root_found)))
    for mark in goals:
        out += _distance_facts(board, knows, mark, found_sets)
    return "\n".join(out)


def _found_sets(board: Board, knows: Knowledge, root: frozenset):
    """Every set of found obstacles a position after one with ``root`` found can have."""
    more = sum(knows.counts) - len(root)
    rest = [c for c in knows.cells if c not in root]
    sets = sum(math.comb(len(rest), k) for k in range(more + 1))
    if sets > MAX_FOUND_SETS:
        raise LimitError(f"--hidden: {sets:,} sets of obstacles the role may find (limit {MAX_FOUND_SETS:,}), "
                         "each with its distances", "use fewer hidden obstacles or a smaller board")
    for k in range(more + 1):
        for found in itertools.combinations(rest, k):
            yield root | frozenset(found)


def _distance_facts(board: Board, knows: Knowledge, mark: str, found_sets) -> list[str]:
    """``hdistance/5`` for every set of found obstacles: backwards from the mark, never through
    a cell the role bumps on and sees or has found."""
    cells = board_cells(board)
    seen = bump_cells(board, knows.role)
    goal = board.marks.get(mark, frozenset())
    steps = open_steps(board)
    return [distance_facts(HDISTANCE, (mark,), step_distances(board, goal, seen | found, steps=steps), cells,
                           (knows.pack(found),))
            for found in found_sets]
