"""Layouts made in Python for ranking, checked by clingo only when pieces are placed on them.

Where every start of a layout is judged at once (in C: about a millisecond a layout), asking
clingo for each layout (about 14 ms: one solve under the structural constraints) became the
search's cost.  Where the structure is plain (no symmetry, no kept pieces or marks, every cell
connected), :class:`QuickLayouts` makes the fresh layouts and the mutations itself: the walls
of :func:`~gridsolve.generate.fresh.connected_walls` or of a parent with walls toggled, the
marks of :func:`~gridsolve.generate.fresh.open_goals` or moved at random, kept when the wall
count is in range, every cell is joined to every other, and the layout differs enough from
the boards written (where it must).  Such a layout is only ranked: a start is offered to the
judge through :meth:`gridsolve.generate.proposer.Proposer.propose` with the layout's walls
and marks fixed, so clingo checks every structural constraint of encodings/generate.lp before
a board is judged or written (a layout it refuses is dropped).  Everything is drawn from the
search's seeded :class:`random.Random`.
"""
from __future__ import annotations

import random

from .fresh import connected_walls, open_goals
from .genspec import GameSpec
from .mutation import Mutation, difference
from .proposer import Layout


def walls_of(layout: Layout) -> set:
    return {("north", x, y) for x, y in layout.north} | {("east", x, y) for x, y in layout.east}


def layout_of(walls, marks: tuple, pieces: tuple = ()) -> Layout:
    return Layout(frozenset((x, y) for kind, x, y in walls if kind == "north"),
                  frozenset((x, y) for kind, x, y in walls if kind == "east"), pieces, marks)


class QuickLayouts:
    """Fresh layouts and mutations that meet the plain structural constraints (module docstring)."""

    def __init__(self, rng: random.Random, spec: GameSpec, edges: list, walls: tuple, apart: int):
        self.rng, self.spec, self.edges, self.walls, self.apart = rng, spec, edges, walls, apart
        board = spec.template
        self.width, self.height = board.width, board.height
        self.seen: set = set()          # the walls and marks of the layouts handed out
        cells = [(x, y) for x in range(1, self.width + 1) for y in range(1, self.height + 1)]
        # where the pieces stand on a layout made here (its starts are all ranked; the judge's are clingo's)
        self.pieces = tuple(sorted(zip(board.rules.roles, cells)))
        self.written: list[Layout] = []

    def fresh(self) -> Layout | None:
        """Random connected walls (their count from the lower half of the range) around goal
        marks open on every side (None: the draw broke a constraint)."""
        low, high = self.walls
        count = self.rng.randint(low, (low + high) // 2)
        marks, around = open_goals(self.rng, self.spec)
        return self._kept(layout_of(connected_walls(self.rng, self.edges, count, around), marks, self.pieces), True)

    def mutated(self, parent: Layout, change: Mutation, apart: bool = True) -> Layout | None:
        """``parent`` with ``change``'s walls toggled and (where it moves them) the marks on
        random cells; without ``apart`` it may come near the boards written."""
        walls = walls_of(parent) ^ set(change.flip)
        marks = parent.marks if change.marks else self._moved_marks()
        return self._kept(layout_of(walls, marks, self.pieces), apart)

    def _moved_marks(self) -> tuple:
        taken, out = [], []
        for mark, count in sorted(self.spec.marks.items()):
            pool = [(x, y) for x in range(1, self.width + 1) for y in range(1, self.height + 1) if (x, y) not in taken
                    and (mark not in self.spec.border_marks or x in (1, self.width) or y in (1, self.height))]
            cells = sorted(self.rng.sample(pool, count))
            taken += cells
            out.append((mark, tuple(cells)))
        return tuple(out)

    def _kept(self, layout: Layout, apart: bool) -> Layout | None:
        key = (layout.north, layout.east, layout.marks)
        if key in self.seen or not self.walls[0] <= layout.walls <= self.walls[1] or not self._connected(layout):
            return None
        if apart and any(difference(layout, w) < self.apart for w in self.written):
            return None
        self.seen.add(key)
        return layout

    def _connected(self, layout: Layout) -> bool:
        walls = walls_of(layout)
        joined, todo = {(1, 1)}, [(1, 1)]
        while todo:
            x, y = todo.pop()
            for edge, other in ((("north", x, y), (x, y + 1)), (("north", x, y - 1), (x, y - 1)),
                                (("east", x, y), (x + 1, y)), (("east", x - 1, y), (x - 1, y))):
                if other not in joined and 1 <= other[0] <= self.width and 1 <= other[1] <= self.height \
                        and edge not in walls:
                    joined.add(other)
                    todo.append(other)
        return len(joined) == self.width * self.height
