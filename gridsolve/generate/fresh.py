"""Anchors for fresh layouts: random walls that keep the board connected, and goal marks on
cells open on every side.

Where a level must not be trivial, the search draws most of its first layouts fresh: random
walls that clingo keeps on nine edges in ten (:meth:`gridsolve.generate.proposer.Proposer.propose`
with ``keep``).  Walls drawn independently cut a cell or a corner off about half the time, and
clingo then refuses the proposal; :func:`connected_walls` draws them around a random spanning
tree of the cells instead, so the board stays connected.  :func:`open_goals` puts the goal
marks on random cells and keeps the edges around them open: of 1,500 fresh 8x8 layouts under
the 2007 Mummy Maze rules, the 4 with a non-trivial start of 10 plies or more all had the exit
open on every side, as 592 of the 1,500 had.  Everything is drawn from the caller's seeded
:class:`random.Random`.
"""
from __future__ import annotations

import random

from .genspec import GameSpec


def cells_of(edge: tuple) -> tuple:
    """The two cells an edge ("north" | "east", x, y) lies between."""
    kind, x, y = edge
    return ((x, y), (x, y + 1)) if kind == "north" else ((x, y), (x + 1, y))


def connected_walls(rng: random.Random, edges: list, count: int, open_edges: frozenset = frozenset()) -> list:
    """``count`` walls among ``edges`` (at most as many as leave a spanning tree open) such that
    every cell stays joined to every other: the edges of a random spanning tree (its edges in
    ``open_edges`` taken first) stay open, and the walls are drawn from the others, never on
    ``open_edges``."""
    parent: dict = {}

    def root(cell):
        while parent.get(cell, cell) != cell:
            parent[cell] = parent.get(parent[cell], parent[cell])
            cell = parent[cell]
        return cell
    order = sorted(open_edges) + rng.sample(edges, len(edges))
    tree = set()
    for edge in order:
        a, b = (root(c) for c in cells_of(edge))
        if a != b:
            parent[a] = b
            tree.add(edge)
    spare = [e for e in edges if e not in tree and e not in open_edges]
    return rng.sample(spare, min(count, len(spare)))


def open_goals(rng: random.Random, spec: GameSpec) -> tuple[tuple, frozenset]:
    """Cells for the marks (``Layout.marks``), drawn at random (on the border for the marks the
    --like board has there), and the edges around them, to be kept open."""
    board = spec.template
    taken: list = []
    marks = []
    for mark, count in sorted(spec.marks.items()):
        pool = [(x, y) for x in range(1, board.width + 1) for y in range(1, board.height + 1) if (x, y) not in taken
                and (mark not in spec.border_marks or x in (1, board.width) or y in (1, board.height))]
        cells = sorted(rng.sample(pool, count))
        taken += cells
        marks.append((mark, tuple(cells)))
    around = set()
    for x, y in taken:
        around |= {e for e, inside in ((("north", x, y), y < board.height), (("north", x, y - 1), y > 1),
                                       (("east", x, y), x < board.width), (("east", x - 1, y), x > 1)) if inside}
    return tuple(marks), frozenset(around)
