"""A lengthening walk: the longest non-trivial start of a layout made longer, one mutation at a time.

Where a level must not be trivial (a forced win that walking a shortest way does not win), the
levels worth most are long, and long ones are rarer still.  Under the 2007 Mummy Maze rules
they are not of another kind than the short ones (docs/generate.md, "Where good levels
exist"): the explorer's way to the exit is long and mostly forced, and the mummy can threaten
each shortest way fixed in advance but not all of them at once, so the explorer chooses after
the mummy has moved.  Such layouts lie on *plateaus*: most one-wall changes keep the escape,
some lengthen it.  The walk exploits that: a (1+1) climb on the layout's **lengthening
score**, (the plies of its longest non-trivial start, how many non-trivial starts have those
plies), that moves to every mutation scoring at least as well (drift across the plateau) and
keeps the layout it is on otherwise.

:class:`Lengthening` holds the walk: it is seeded by the first layout ranked with a
non-trivial start of at least SEED_PLIES plies (from any proposal of the search), jumps to any
layout ranked that scores better, proposes mutations of the layout it is on
(:func:`gridsolve.generate.mutation.mutation`, turned into layouts by the proposer under every
structural constraint), and is given up after PATIENCE steps without a longer start.  The
starts are read off each layout's survey (:meth:`gridsolve.generate.startgraph.StartGraph.survey`,
every start played out against every reply on the layout's game graph); every level written is
still judged and verified exactly.  Its random choices come from the search's seeded
:class:`random.Random`.
"""
from __future__ import annotations

import random

from .mutation import mutation
from .proposer import Layout

SEED_PLIES = 9        # a walk starts from a layout with a non-trivial start this long (on 8x8 about one
                      # layout in a few hundred has one; from 9 plies, climbs reach 21 and more)
PATIENCE = 3000       # mutations ranked without a longer non-trivial start before the walk is given up (the
                      # plateaus are wide: on 8x8, climbs that restart after 600 reach 21 plies far later)


def lengthening_score(survey) -> tuple | None:
    """(plies of the longest non-trivial start, how many non-trivial starts have those plies)
    of a layout's surveyed starts (a :class:`~gridsolve.generate.starts.Survey`, or a list
    of StartVerdicts); None when none is non-trivial."""
    ranks = [s.rank for s in survey if not s.trivial] if isinstance(survey, list) else \
        survey.rank[~survey.trivial].tolist()
    if not ranks:
        return None
    longest = max(ranks)
    return longest, ranks.count(longest)


class Lengthening:
    """The walk: the layout it is on and its lengthening score (None: no walk yet)."""

    def __init__(self, rng: random.Random, seed_plies: int | None = None, patience: int | None = None):
        self.rng = rng
        self.seed_plies = SEED_PLIES if seed_plies is None else seed_plies
        self.patience = PATIENCE if patience is None else patience
        self.here: Layout | None = None
        self.score: tuple | None = None
        self.stale = 0                # steps ranked since the walk's longest start last grew
        self.longest = 0              # the longest non-trivial start the walks have reached

    @property
    def active(self) -> bool:
        return self.here is not None

    def floor(self) -> int:
        """The fewest plies of the starts the walk must see surveyed: those of its layout's
        longest non-trivial start (SEED_PLIES before a walk)."""
        return self.score[0] if self.score else self.seed_plies

    def ranked(self, layout: Layout, survey, step: bool) -> bool:
        """A layout has been ranked (``survey``: its starts from :meth:`floor` plies up, or None);
        ``step``: it is the walk's own proposal.  The walk moves to it when it scores at least
        the walk's layout (a step) or more (any other layout, or the seed of a new walk); True
        when it did."""
        score = lengthening_score(survey) if survey is not None else None
        if step:
            self.stale += 1
        if score is None:
            better = False
        elif self.score is None:
            better = score[0] >= self.seed_plies
        else:
            better = score >= self.score if step else score > self.score
        if better:
            if self.score is None or score[0] > self.score[0]:
                self.stale = 0
            self.here, self.score = layout, score
            self.longest = max(self.longest, score[0])
            return True
        if self.stale >= self.patience:          # the plateau is spent: wait for a new seed
            self.here, self.score, self.stale = None, None, 0
        return False

    def step(self, propose, edges: list, symmetry: str | None, width: int, height: int, marks_movable: bool,
             tries: int) -> Layout | None:
        """The walk's next layout: a mutation of the layout it is on, turned into a layout by
        ``propose(keep, free, marks, flip)`` (None: the proposer refused ``tries`` of them)."""
        for _ in range(tries):
            change = mutation(self.rng, edges, symmetry, width, height, marks_movable)
            layout = propose(self.here, change.free, change.marks, change.flip)
            if layout is not None:
                return layout
        self.stale += 1
        return None
