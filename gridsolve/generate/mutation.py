"""Near-misses mutated: small changes of a layout, and the elite layouts they are drawn from.

A :class:`Mutation` says which walls to toggle and whether the marks may move; the proposer
(:meth:`gridsolve.generate.proposer.Proposer.propose` with ``flip``) turns it into a layout
that still meets every structural constraint of the request (wall count, connection,
symmetry, kept marks, the boards already written), or finds that none does.  The
:class:`Elites` keep the best layout so far of each *niche* (the plies of its best start, as
in MAP-Elites), each with its graded score, so that parents are drawn across lengths and a
pack of many levels comes out varied.  Everything is drawn from one seeded
:class:`random.Random`: the same seed gives the same mutations.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from .proposer import Layout

TOGGLE_SHARE = 0.75       # mutations that toggle walls only; the others move the marks (and toggle one wall)
MOST_TOGGLED = 3          # walls one mutation toggles at most


@dataclass(frozen=True)
class Mutation:
    flip: frozenset           # edges ("north" | "east", x, y) whose wall is toggled
    free: frozenset           # edges left to the proposer: the flipped edges' images under the symmetry
    marks: bool               # the marks stay (False: the proposer places them anew)

    def applied(self, layout: Layout) -> Layout:
        """``layout`` with the walls of ``flip`` toggled (the edges in ``free`` and the marks
        are the proposer's to choose: they stay as they are here)."""
        north, east = set(layout.north), set(layout.east)
        for kind, x, y in self.flip:
            walls = north if kind == "north" else east
            walls.symmetric_difference_update({(x, y)})
        return Layout(frozenset(north), frozenset(east), layout.pieces, layout.marks)


def image(edge: tuple, symmetry: str | None, width: int, height: int) -> tuple | None:
    """The edge that must carry the same wall as ``edge`` under ``symmetry`` (None: none, or itself)."""
    kind, x, y = edge
    if symmetry == "mirror":
        other = (kind, width + 1 - x, y) if kind == "north" else (kind, width - x, y)
    elif symmetry == "turn":
        other = (kind, width + 1 - x, height - y) if kind == "north" else (kind, width - x, height + 1 - y)
    else:
        return None
    return None if other == edge else other


def mutation(rng: random.Random, edges: list, symmetry: str | None, width: int, height: int,
             marks_movable: bool, most: int = MOST_TOGGLED) -> Mutation:
    """A random mutation of the walls on ``edges``: toggle one to ``most`` walls (TOGGLE_SHARE
    of the draws, all of them when no mark may move), else move the marks and toggle one wall."""
    toggle_only = not marks_movable or rng.random() < TOGGLE_SHARE
    count = rng.randint(1, most) if toggle_only else 1
    flip = frozenset(rng.sample(edges, min(count, len(edges)))) if edges else frozenset()
    images = {image(e, symmetry, width, height) for e in flip} - {None}
    return Mutation(flip - images, frozenset(images), toggle_only)


@dataclass
class Elite:
    layout: Layout
    score: tuple
    children: int = 0         # mutations drawn from it so far


class Elites:
    """The best layout of each niche (MAP-Elites): a layout enters when its niche is empty or
    it scores at least the niche's elite (a tie replaces it: the search drifts across
    plateaus).  Parents are drawn by a tournament of two niches; an elite that had ``patience``
    children without an improvement of its niche is dropped (its neighbourhood is spent)."""

    def __init__(self, rng: random.Random, patience: int = 60):
        self.rng, self.patience = rng, patience
        self.niches: dict = {}

    def offer(self, niche, layout: Layout, score: tuple) -> bool:
        """Keep ``layout`` if it is the best of ``niche`` so far; True when it entered."""
        held = self.niches.get(niche)
        if held is None or score >= held.score:
            self.niches[niche] = Elite(layout, score, 0 if held is None or score > held.score else held.children)
            return True
        return False

    def parent(self) -> Layout | None:
        """A layout to mutate (None: no elite): the better of two niches drawn at random (a
        tournament: the search leans to the nearest misses and still visits every niche)."""
        if not self.niches:
            return None
        drawn = [self.rng.choice(sorted(self.niches, key=repr)) for _ in range(2)]
        niche = max(drawn, key=lambda n: self.niches[n].score)
        elite = self.niches[niche]
        elite.children += 1
        if elite.children > self.patience:
            del self.niches[niche]
        return elite.layout

    def best(self) -> tuple | None:
        """The highest score held (None: none)."""
        return max((e.score for e in self.niches.values()), default=None)

    def drop_near(self, layout: Layout, distance: int) -> None:
        """Drop the elites that differ from ``layout`` on fewer than ``distance`` walls and marked
        cells (the boards of a run keep that far apart: their mutations would be refused)."""
        for niche in [n for n, e in self.niches.items() if difference(e.layout, layout) < distance]:
            del self.niches[niche]


def difference(one: Layout, other: Layout) -> int:
    """Walls and marked cells present in one layout and not in the other."""
    marked = [{(m, c) for m, cells in layout.marks for c in cells} for layout in (one, other)]
    return len(one.north ^ other.north) + len(one.east ^ other.east) + len(marked[0] ^ marked[1])
