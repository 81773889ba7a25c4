"""The search of a generate run: layouts proposed (by clingo, or made in Python where the
structure is plain), every start of each ranked, the starts that meet the request offered to
the judge, the elites mutated, the walks away from written boards and the lengthening walk."""
from __future__ import annotations

import random
import time
from collections import Counter
from pathlib import Path

import numpy as np

from .genspec import GameSpec, Requirement
from .judge import NO_START, Verdict, judge, start_graph
from .lengthen import Lengthening
from .layoutjudge import layout_judge
from .starts import JudgedStarts
from .mutation import Elites, Mutation, difference, mutation
from .quick import QuickLayouts
from .fresh import connected_walls, open_goals
from ..solve.common.limits import Limits
from .proposer import Layout, ProposalTimeout, Proposer, edges, exactly, same_walls
from ..language.kinds import RequireKind
from .report import SearchStats


class _Search:
    """Proposals and verdicts.

    Without ``every_start`` each proposed layout is judged alone.  With it, a new wall-and-mark
    layout is ranked for every placement of the pieces at once on one game graph
    (:func:`~gridsolve.generate.judge.start_graph`); where a level must not be trivial, every
    start in the requirement's band is also played out there (its shortest paths against every
    reply, :meth:`~gridsolve.generate.startgraph.StartGraph.survey`), so only the starts that
    meet the request are offered.  clingo places the pieces on the layout among them, under the
    encoding's constraints, and the judge re-checks one exactly.  The walls and marks are then
    forbidden.

    Good levels are rare among random layouts, so most proposals are *mutations* of a near-miss
    (:mod:`gridsolve.generate.mutation`: a few walls toggled, or the marks moved), drawn from
    elite layouts kept per niche (the plies of their best start) under a graded score
    (:meth:`_score`): how near the layout comes to a start that meets the request.

    Good layouts come in neighbourhoods (most walls can be toggled without losing the start that
    makes the level), but the boards of one run must differ on :func:`apart` walls and marks.
    So after a board that took WALK_AFTER layouts or more (or, after one found sooner, once
    WALK_AFTER more layouts have brought none) the search *walks away* from it: it
    toggles one wall at a time that the written board has as it is, keeps the step while the
    layout still offers a start
    (the steps may come near the written boards, they are not judged there), and offers the
    layout to the judge once it is far enough from every board written."""

    NEAR = 0.8            # share of proposals that mutate an elite (when there is one)
    NEAR_SURVEYED = 0.2   # ... where levels must not be trivial: fresh layouts with the goal open hold one about
                          # three times as often as before, and mutations stalled (8x8 2007, seeds 1-4: 5 levels in
                          # 24-56 s; with 0.8 one seed of four wrote none in 100 s)
    TRIES = 4             # mutations tried before a fresh proposal (a mutation can break a constraint)
    CHASED = 6            # placements offered first: the hunters nearest the role (_chased)
    PER_LAYOUT = 4        # placements judged on one wall layout before the search moves on
    SCATTER = 0.5         # layouts judged alone: share of proposals anchored on random walls (clingo's
                          # next model is near its last one; an anchor moves it elsewhere)
    BELOW = 4             # starts surveyed this many plies short of the band too (stepping stones)
    WALK_AFTER = 20       # a board that took this many layouts or more starts a walk (where boards are common,
                          # fresh layouts find the next one sooner than 17 steps of a walk)
    WALK_PATIENCE = 12    # failed steps in a row before a walk away from a written board is given up
    LENGTHEN = 0.9        # share of proposals that step the lengthening walk, while there is one
                          # (half of them while the search also walks away from a written board)
    LENGTHEN_ABOVE = 17   # the walk runs where the band starts above this many plies: below, the search alone
                          # writes non-trivial 2007 escapes in seconds (13 to 17 plies), and a walk taking most
                          # proposals delayed its first level (--plies 12.., seed 1: 24.5 s -> 64 s)

    def __init__(self, proposer: Proposer, spec: GameSpec, req: Requirement, every_start: bool, seed: int,
                 apart: int, symmetry: str | None = None, walls: tuple = (0, 0), kept_marks: bool = False,
                 plain: bool = False, limits: Limits | None = None):
        self.proposer, self.spec, self.req, self.every_start = proposer, spec, req, every_start
        self.limits = limits or Limits()
        self.apart, self.symmetry, self.walls = apart, symmetry, walls
        self.low = 0 if req.kind == RequireKind.SURVIVE else req.plies[0]   # start_ranks: 0 for every surviving start
        self.random = random.Random(seed)
        self.edges = edges(spec.template.width, spec.template.height)
        self.elites = Elites(self.random)
        self.surveyed = req.kind == RequireKind.WIN and not req.trivial_ok   # starts played out on the graph
        self.current = None          # (board, layout, {placement left to try: rank}, graded score)
        self.judged_here = 0         # placements judged on the current layout
        self.archive: Counter = Counter()   # (plies, difficulty) of the levels written: other plies first
        self.stats = SearchStats()
        self.allowed_on = None       # the layout last counted in stats.allowed
        self.written: list[Layout] = []     # the layouts of the boards written
        self.walk: list | None = None       # [the written layout walked from, the layout reached, failed steps]
        self.walking = False                # the layout being ranked is a step of the walk
        self.found_at = 0                   # the layouts ranked when the last board was written
        self.unwalked = None                # the last board written, found fast, not walked from (yet)
        self.open_goals = (bool(spec.marks) and set(spec.marks) <= set(spec.goal_marks) and symmetry is None
                           and not kept_marks)  # fresh layouts: the goal marks open on every side
        self.lengthening = (Lengthening(self.random) if self.surveyed and every_start
                            and self.low > self.LENGTHEN_ABOVE else None)
        self.lengthening_step = False       # the layout being ranked is a step of the lengthening walk
        self.fast = None                    # the layouts' starts judged in C (False: not served here)
        self.quick = (QuickLayouts(self.random, spec, self.edges, walls, apart)    # layouts made in Python
                      if plain and self.surveyed and every_start and self.open_goals else None)

    def next(self, deadline: float | None, path: Path, title: str):
        """(board, layout, verdict) for the next candidate; None when no layout is left;
        ProposalTimeout after ``deadline`` (a ``time.perf_counter`` value)."""
        width, height = self.spec.template.width, self.spec.template.height
        while True:
            if self.current is None:
                layout = self._propose(deadline)
                if layout is None:
                    return None
                board = self.spec.board(layout.north, layout.east, dict(layout.pieces), dict(layout.marks),
                                        str(path), title)
                if not self.every_start:
                    verdict = judge(board, self.spec, self.req, self.limits)
                    self.stats.seen(_forced_plies(verdict, self.req))
                    self.proposer.forbid(exactly(layout, width, height))
                    if verdict.accepted:
                        self._accepted(layout)
                    return board, layout, verdict
                self._rank(board, layout)
            step = self._place(deadline, path, title)
            if step is not None:
                return step

    def _rank(self, board, layout: Layout) -> None:
        """Rank every start of a new layout; the ones the search may offer become ``current``."""
        floor = max(1, self.low - self.BELOW)
        if self.lengthening is not None:
            floor = min(floor, self.lengthening.floor())
        band = (floor, self.req.plies[1]) if self.surveyed else None
        starts = self._judged(board, layout, band)
        survey = starts.survey
        ranks = starts.within(self.req, self.req.left(board))
        self._count(ranks)
        if self.lengthening is not None:
            self.lengthening.ranked(layout, survey, self.lengthening_step)
            self.stats.climbed = self.lengthening.longest or None
        if survey is not None:
            picked = survey.chosen[~survey.trivial & (survey.rank >= self.low)]
        else:
            picked = np.flatnonzero(ranks >= self.low)
        offered = {starts.key(k): int(ranks[k]) for k in picked.tolist()}
        score = self._score(ranks, survey, offered)
        if offered and self.req.kind != RequireKind.SURVIVE:
            top = max(offered.values())
            self.stats.longest_offered = max(top, self.stats.longest_offered or 0)
        if self.walking:
            offered = self._stepped(layout, offered)
        elif self.lengthening_step and self.written and \
                min(difference(layout, written) for written in self.written) < self.apart:
            offered = {}                    # a step may come near a written board: not a board of its own
        self.current = (board, layout, offered, score)
        self.judged_here = 0

    def _judged(self, board, layout: Layout, band: tuple | None) -> JudgedStarts:
        """Every start of ``layout`` ranked (and the band's played out): in C where
        :func:`~gridsolve.generate.layoutjudge.layout_judge` serves, else on the game graph."""
        if self.fast is None:
            self.fast = layout_judge(board, self.spec, self.req) or False
        if self.fast:
            return self.fast.judge(layout.north, layout.east, dict(layout.marks), self.req.left(board), band)
        graph = start_graph(board, self.spec, self.req, self.limits)
        return graph.judged(band, self.req.left(board))

    def _stepped(self, layout: Layout, offered: dict) -> dict:
        """A step of the walk ranked: kept when the layout offers a start; the starts offered
        to the judge only once the layout is far enough from every board written."""
        if not offered:
            self.walk[2] += 1
            if self.walk[2] >= self.WALK_PATIENCE:
                self.walk = None
            return offered
        self.walk[1:] = [layout, 0]
        if min(difference(layout, written) for written in self.written) < self.apart:
            return {}
        return offered

    def _score(self, ranks: np.ndarray, survey, offered: dict) -> tuple:
        """The graded score of a layout (higher is nearer the request): the best rank offered,
        then, where starts must not be trivial, the longest non-trivial start a little short of
        the band (a stepping stone: mutations lengthen it), how near the starts come to being
        non-trivial (the smallest share of a start's shortest paths that win, negated, and how
        many starts have at most half of their paths winning), then the best rank of any start
        (``ranks``: -1 where a start is not in reach)."""
        top = max(int(ranks.max(initial=0)), 0)
        best = max(offered.values(), default=0)
        if survey is None:
            return (best, top)
        several = survey.paths > 1
        shares = survey.winning[several] / survey.paths[several]
        short = survey.rank[~survey.trivial & (survey.rank < self.low)]
        return (best, int(short.max(initial=0)), -float(shares.min(initial=1.0)), int((shares <= 0.5).sum()), top)

    def _place(self, deadline, path: Path, title: str):
        """Place the pieces on the current walls: a judged candidate, or the walls' rejection."""
        board, layout, left, score = self.current
        while left and self.judged_here < self.PER_LAYOUT:
            near = self._chased(left)
            found = self.proposer.propose(_seconds(deadline), layout, among=near) if near else None
            if found is None:
                found = self.proposer.propose(_seconds(deadline), layout, among=left)
            if found is None:
                break
            rank = left.pop(found.pieces)
            if self.allowed_on is not layout:       # the first on these walls the constraints allow
                self.stats.allowed, self.allowed_on = self.stats.allowed + 1, layout
            placed = self.spec.board(found.north, found.east, dict(found.pieces), dict(found.marks),
                                     str(path), title)
            self.judged_here += 1
            verdict = judge(placed, self.spec, self.req, self.limits)
            if verdict.accepted:
                difficulty = verdict.metrics.difficulty if verdict.metrics is not None else None
                self.archive[(rank, difficulty)] += 1
                self._leave(layout)
                self._accepted(layout)
            return placed, found, verdict
        self._leave(layout)
        self.elites.offer(score[-1], layout, score)
        return board, layout, Verdict(None, NO_START)

    def _chased(self, left: dict) -> list | None:
        """The CHASED placements offered where a hunter starts nearest the role (steps on the
        board, walls ignored), longest forced end first among equals: a hunter that can reach
        the role's way makes the role's moves matter.  Plies that the levels written have least
        come first (an archive over plies and difficulty: a pack of varied levels).  None
        without hunters."""
        if not self.spec.hunters:
            return None
        role, hunters = self.spec.role, set(self.spec.hunters)
        written = Counter(plies for plies, _ in self.archive.elements())

        def distance(placement) -> int:
            cells = dict(placement)
            x, y = cells[role]
            return min(abs(x - hx) + abs(y - hy) for h, (hx, hy) in cells.items() if h in hunters)
        return sorted(left, key=lambda p: (written[left[p]], distance(p), -left[p], p))[:self.CHASED]

    def _count(self, ranks: np.ndarray) -> None:
        """Statistics of one layout's ranked placements (ranks: the plies of each, up to the
        band's top; -1 for the others)."""
        stats = self.stats
        stats.layouts += 1
        band = int((ranks >= self.low).sum())
        stats.in_band += bool(band)
        stats.band_starts += band
        if self.req.kind != RequireKind.SURVIVE and (ranks >= 0).any():
            stats.seen(int(ranks.max()))

    def _leave(self, layout: Layout) -> None:
        """Done with these walls and marks: never propose them again."""
        self.current = None
        if self.quick is not None:
            self.quick.seen.add((layout.north, layout.east, layout.marks))
        else:
            self.proposer.forbid(same_walls(layout, self.spec.template.width, self.spec.template.height))

    def _accepted(self, layout: Layout) -> None:
        """A board is written on this layout: every later board of the run differs from it on at
        least :func:`apart` wall edges and marked cells (else other starts or another exit on
        nearly the same walls would be a near copy); the elites that near it are dropped."""
        self.proposer.forbid(same_walls(layout, self.spec.template.width, self.spec.template.height))
        self.proposer.keep_apart(layout, self.apart)
        self.elites.drop_near(layout, self.apart)
        self.written.append(layout)
        if self.quick is not None:
            self.quick.written.append(layout)
        self.unwalked = None
        if self.every_start and self.stats.layouts - self.found_at >= self.WALK_AFTER:
            self.walk = [layout, layout, 0]
        elif self.every_start:
            self.unwalked = layout
        self.found_at = self.stats.layouts

    def _propose(self, deadline) -> Layout | None:
        _seconds(deadline)                  # ProposalTimeout once the time is up
        self.walking = self.lengthening_step = False
        if self.walk is None and self.unwalked is not None and self.stats.layouts - self.found_at >= self.WALK_AFTER:
            self.walk, self.unwalked = [self.unwalked, self.unwalked, 0], None   # the next one is not as quick
        share = self.LENGTHEN if self.walk is None else 0.5      # the walk away from a written board: every other
        if self.lengthening is not None and self.lengthening.active and self.random.random() < share:
            board = self.spec.template

            def propose(keep, free, marks, flip):
                return self._mutated(deadline, keep, Mutation(flip, free, marks), apart=False)
            layout = self.lengthening.step(propose, self.edges, self.symmetry, board.width, board.height,
                                           bool(self.spec.marks), self.TRIES)
            if layout is not None:
                self.lengthening_step = True
                return layout
        if self.walk is not None:
            layout = self._walk_step(deadline)
            if layout is not None:
                self.walking = True
                return layout
        if self.every_start and self.random.random() < (self.NEAR_SURVEYED if self.surveyed else self.NEAR):
            board = self.spec.template
            for _ in range(self.TRIES):
                parent = self.elites.parent()
                if parent is None:
                    break
                change = mutation(self.random, self.edges, self.symmetry, board.width, board.height,
                                  bool(self.spec.marks))
                layout = self._mutated(deadline, parent, change)
                if layout is not None:
                    return layout
        if self.surveyed:
            layout = self._fresh(deadline)
            if layout is not None:
                return layout
        elif self.random.random() < self.SCATTER:
            layout = self.proposer.propose(_seconds(deadline), self._anchor(), self._scattered_free(), False)
            if layout is not None:
                return layout
        return self.proposer.propose(_seconds(deadline))

    def _mutated(self, deadline, parent: Layout, change: Mutation, apart: bool = True) -> Layout | None:
        """``change`` applied to ``parent``: by :class:`~gridsolve.generate.quick.QuickLayouts`
        where it serves, else by the proposer (None: refused)."""
        if self.quick is not None:
            return self.quick.mutated(parent, change, apart)
        return self.proposer.propose(_seconds(deadline), parent, change.free, change.marks, flip=change.flip,
                                     apart=apart)

    def _walk_step(self, deadline) -> Layout | None:
        """The walk's next layout: one more wall toggled where the reached layout still equals
        the written one (None: the proposer refused TRIES of them; the walk counts a failure)."""
        origin, here, _ = self.walk
        board = self.spec.template
        same = [e for e in self.edges if _has_wall(here, e) == _has_wall(origin, e)]
        for _ in range(self.TRIES):
            change = mutation(self.random, same, self.symmetry, board.width, board.height, False, most=1)
            layout = self._mutated(deadline, here, change, apart=False)
            if layout is not None:
                return layout
        self.walk[2] += 1
        if self.walk[2] >= self.WALK_PATIENCE:
            self.walk = None
        return None

    def _fresh(self, deadline) -> Layout | None:
        """Where starts must not be trivial: a layout away from the elites, its wall count drawn
        evenly from the lower half of the allowed range (clingo's random choices alone fill the range's top: on 8x8 Mummy Mazes
        non-trivial escapes are several times as common with 34 walls as with 45): random walls
        of that count that keep the board connected (:func:`~gridsolve.generate.fresh.connected_walls`),
        all kept but a tenth of the edges; with ``open_goals``, the goal marks on random cells
        open on every side (:func:`~gridsolve.generate.fresh.open_goals`), else the marks left to
        clingo (None: the proposer refused TRIES of them).  With :class:`QuickLayouts`, the
        layout is made in Python, every edge kept."""
        low, high = self.walls
        for _ in range(self.TRIES):
            if self.quick is not None:
                layout = self.quick.fresh()
                if layout is not None:
                    return layout
                continue
            count = self.random.randint(low, (low + high) // 2)
            marks, around = open_goals(self.random, self.spec) if self.open_goals else ((), frozenset())
            walls = connected_walls(self.random, self.edges, count, around)
            anchor = Layout(frozenset((x, y) for kind, x, y in walls if kind == "north"),
                            frozenset((x, y) for kind, x, y in walls if kind == "east"), (), marks)
            free = frozenset(self.random.sample(self.edges, len(self.edges) // 10)) - around
            layout = self.proposer.propose(_seconds(deadline), anchor, free, bool(marks))
            if layout is not None:
                return layout
        return None

    def _anchor(self) -> Layout:
        """Random walls (a third of the edges) that a scattered proposal keeps on some edges."""
        walls = [e for e in self.edges if self.random.random() < 1 / 3]
        return Layout(frozenset((x, y) for kind, x, y in walls if kind == "north"),
                      frozenset((x, y) for kind, x, y in walls if kind == "east"), (), ())

    def _scattered_free(self) -> frozenset:
        """All edges but a random fifth: the proposal keeps the anchor's walls on that fifth."""
        return frozenset(self.random.sample(self.edges, len(self.edges) - len(self.edges) // 5))


def _has_wall(layout: Layout, edge: tuple) -> bool:
    kind, x, y = edge
    return (x, y) in (layout.north if kind == "north" else layout.east)


def _forced_plies(verdict: Verdict, req: Requirement) -> int | None:
    """The plies of the forced end the requirement is about, as judged (None: none forced)."""
    answer = verdict.answer
    if answer is None or req.kind in (RequireKind.SURVIVE, RequireKind.VALUE):
        return None
    return answer.win_plies if req.kind == RequireKind.WIN else answer.doom_plies


def _seconds(deadline: float | None) -> float | None:
    if deadline is None:
        return None
    left = deadline - time.perf_counter()
    if left <= 0:
        raise ProposalTimeout()
    return left
