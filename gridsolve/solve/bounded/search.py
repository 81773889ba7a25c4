"""The bounded solver: exact answers for games with items, searched on top of the abstract game.

A position is an abstract position (:mod:`gridsolve.solve.graph.abstractgame`: pieces, side, lost turns,
``was_on`` bits, ground by clingo from the compiled rules) and the items left (one bit per item
cell).  Every question is a set of *threshold races*: "can the role's team force the game to
stop with a score of at least v within d plies?" (and "can the others force one below T?").
The value is the largest v the team forces, its plies the fewest d; win, survive, per-move
values and the principal line follow as in the layered solver (``encodings/layered.lp``), whose
answers these are, field for field.

Each race is an AND-OR search with a transposition table (the threshold race search of
:mod:`gridsolve.solve.threshold.racesearch`, which the robust search shares; this module fills
in its hooks), pruned by two bounds that come from the abstraction and are exact:

* the others can force an end the role must avoid within ``doom`` plies, so the game stops by
  then whatever the items; in ``min(doom, d)`` plies the collector moves at most g times, so at
  any stop the count taken lies in ``[taken, taken + g]`` and the role's score is at most the
  best score of that range: a race above it is lost without expanding the position;
* once every score of that range reaches the threshold, the items no longer matter: the race
  is then the abstract race "force a stop within d plies", read off ``stop_rank``.

The search expands only positions that can still change the answer, so the full step limit is
no obstacle where the others can force an end early (Pacman at 99 plies).
"""
from __future__ import annotations

import time
from array import array
from dataclasses import replace
from functools import cached_property

import numpy as np

from ...errors import QueryError
from ...ground.collector import collector_paused
from ...language.distance import open_steps, step_distances
from ...language.model import Board
from ...language.position import Position, Query
from ...compile.state import layout_for
from ..graph.abstractgame import UNFORCED, AbstractGame, avoid_ends
from ..graph.abstractpieces import build_abstract_game
from .kernel import MoveList, RaceArrays, RacesKernel, int32, kernel_serves
from ..common.capabilities import BOUNDED, serves_question
from ..common.answer import Answer, Ply, Question, ThresholdStats, SolveStats
from ..common.outcome import Candidate, Outcome, keyed, principal_line, read_answer, reference_score
from ..program.driver import format_move
from ..common.limits import LimitGuard, Limits, estimate_positions
from ..threshold.racesearch import DOWN, UP, Race, ThresholdSearch
from .quotient import bisimulation, representatives
from ...language.kinds import QueryKind

NATIVE_AFTER = 4           # a search moves to C after this many positions searched in Python per class of
# abstract positions: building the C arrays costs about that (Pacman: 11-21 us a class, a position
# searched in Python 3.3 us); ski rental: a small search never pays for them, a large one at most
# about twice what C alone would
ENTRY_BYTES = 400          # about this many bytes per transposition-table entry


class _Items:
    """The items left as one integer: a bit per item cell, collectible after collectible."""

    def __init__(self, board: Board):
        rules = board.rules
        self.names = list(rules.collect)
        self.piece = [rules.roles.index(rules.collect[n].piece) for n in self.names]
        self.bit: list[dict] = []
        self.mask: list[int] = []
        self.total: list[int] = []
        offset = 0
        for name in self.names:
            cells = sorted(board.marks.get(rules.collect[name].mark, ()))
            self.bit.append({cell: 1 << (offset + k) for k, cell in enumerate(cells)})
            self.mask.append(((1 << len(cells)) - 1) << offset)
            self.total.append(len(cells))
            offset += len(cells)

    def of(self, left: dict) -> int:
        out = 0
        for k, name in enumerate(self.names):
            for cell in left[name]:
                out |= self.bit[k][cell]
        return out

    def left(self, items: int) -> tuple[tuple[str, frozenset], ...]:
        """The items left as a position holds them: per collectible, the cells with an item."""
        return tuple((name, frozenset(c for c, bit in bits.items() if items & bit))
                     for name, bits in zip(self.names, self.bit))

    def taken(self, items: int) -> tuple[int, ...]:
        if len(self.total) == 1:
            return (self.total[0] - items.bit_count(),)
        return tuple(t - (items & m).bit_count() for t, m in zip(self.total, self.mask))


class _Scores:
    """The role's score at every kind of stop as a function of the counts taken."""

    def __init__(self, board: Board, role: str, items: _Items):
        rules = board.rules
        self.rules, self.items = rules, items
        self.at_end = {e.name: e.scores[role] for e in rules.ends}
        self.at_timeout = [t.scores[role] for t in rules.timeout_when] + [rules.timeout[role]]
        self.kinds = list(dict.fromkeys([*self.at_end.values(), *self.at_timeout]))
        self._spans: dict = {}

    def value(self, score, taken: tuple[int, ...]) -> int:
        if isinstance(score, int):
            return score
        table = self.rules.tables[score]
        return table.values[min(taken[self.items.names.index(table.count)], len(table.values) - 1)]

    def span(self, taken: tuple[int, ...], gains: tuple[int, ...]) -> tuple[int, int]:
        """(lowest, highest) score of any stop with counts from ``taken`` to ``taken + gains``."""
        key = (taken, gains)
        found = self._spans.get(key)
        if found is None:
            found = self._spans[key] = self._span(taken, gains)
        return found

    def _span(self, taken: tuple[int, ...], gains: tuple[int, ...]) -> tuple[int, int]:
        low, high = None, None
        for score in self.kinds:
            if isinstance(score, int):
                values = [score]
            else:
                table = self.rules.tables[score]
                k = self.items.names.index(table.count)
                top = min(taken[k] + gains[k], self.items.total[k], len(table.values) - 1)
                values = table.values[min(taken[k], top):top + 1]
            low = min(values) if low is None else min(low, *values)
            high = max(values) if high is None else max(high, *values)
        return low, high


class _ToNative(Exception):
    """A search in Python has passed what building its races in C costs (BoundedSearch.forces)."""


class BoundedSearch(ThresholdSearch):
    """Threshold races for one role over an abstract game (the hooks of
    :class:`~gridsolve.solve.threshold.racesearch.ThresholdSearch`); see the module docstring."""

    entry_bytes = ENTRY_BYTES
    label = "bounded search"
    choices = False            # a ply has one outcome

    def __init__(self, board: Board, game: AbstractGame, role: str, limits: Limits | None = None,
                 prune: bool = True, guard: LimitGuard | None = None, native: bool = True):
        rules = board.rules
        limits = limits or Limits()
        guard = guard or LimitGuard(limits, f"the positions of {board.name}",
                                    lambda needed: "Ask with a smaller horizon (--horizon N).")
        avoid = avoid_ends(board, role)
        super().__init__(game, {t for t in range(len(rules.turns)) if rules.own_turn(t, role)}, avoid,
                         rules.max_plies, limits, guard, prune)
        self.board, self.role = board, role
        self.items = _Items(board)
        self.scores = _Scores(board, role, self.items)
        self.thresholds = rules.scores_of(role)
        other_turns = set(range(len(rules.turns))) - self.team_turns
        self.doom = game.retrograde(other_turns, game.ended_in(avoid))
        self.team_stops = game.retrograde(self.team_turns, game.stopped())
        self.others_stop = game.retrograde(other_turns, game.stopped())
        # the plies of each entry that move each collector, to count its moves in within plies
        self.collector_turns = [{t for t, roles in enumerate(rules.turns) if rules.roles[p] in roles}
                                for p in self.items.piece]
        self.lost = game.layout.lost
        self.canon = representatives(bisimulation(self._labels(avoid), game.graph.successor_lists())) \
            if prune else list(range(len(game)))
        self.chasers = [p for p, r in enumerate(rules.roles) if r not in rules.team_of(role)]
        self._steps = open_steps(board)
        self._distances: dict = {}
        # a table key is one int: (class, items, all plies asked), half the memory of tuples
        self.item_bits = self.extra_bits = sum(self.items.total)
        self._single = len(self.items.names) == 1
        self._spans: dict = {}
        self._attack: dict = {}
        self._edibles: dict = {}
        self._race_plies: dict = {}
        self._plies: dict = {}
        self._merged: dict = {}
        self._order: dict = {}
        self._gains: dict = {}
        # the races in C: None until built (after NATIVE_AFTER positions a class in Python), False: never
        self._kernel = None if native and kernel_serves(self) else False
        self._switch_at = NATIVE_AFTER * len(set(self.canon)) if self._kernel is None else None

    @property
    def kernel(self):
        """The races in C (:mod:`gridsolve.solve.bounded.kernel`; built now if not yet), None
        where they do not serve."""
        if self._kernel is None:
            self._start_native()
        return self._kernel or None

    def _start_native(self) -> None:
        """Build the races in C; the Python tables are dropped (C's start empty)."""
        self._kernel = RacesKernel(self)
        self._switch_at = None
        for table in self.races.values():
            table.clear()

    def native(self):
        return self._kernel or None

    def kernel_arrays(self) -> RaceArrays:
        """What the races in C read of this search, one object (:mod:`.kernel`): the classes'
        arrays, their moves in the three orders the races use, the score bounds as a table.
        The moves' caches are dropped (C searches from now on)."""
        game, scores, items = self.game, self.scores, self.items
        n, total = len(game), items.total[0]
        turns, max_plies = len(self.board.rules.turns), self.board.rules.max_plies
        kinds = scores.kinds
        score = array("i", [scores.value(kind, (taken,)) for kind in kinds for taken in range(total + 1)])
        low, high = array("i"), array("i")
        for left in range(total + 1):
            for turn in range(turns):
                for plies in range(max_plies + 1):
                    lo, hi = self._span_within(left, turn, plies)
                    low.append(lo)
                    high.append(hi)
        orders = [(array("i", [0]), array("i"), array("Q")) for _ in range(3)]
        everything = (1 << self.item_bits) - 1
        keys: dict = {}

        def key(ply):          # search_order's key, computed once a successor
            found = keys.get(ply[1])
            if found is None:
                found = keys[ply[1]] = (self.doom[ply[1]], self.apart(ply[1]))
            return found
        for s in range(n):
            if self.canon[s] == s:
                merged = self.merged(s)
                for (offsets, successors, taken), order in zip(orders, (
                        merged, sorted(merged, key=key, reverse=True), sorted(merged, key=key))):
                    for _, successor, keep_mask in order:
                        successors.append(successor)
                        taken.append(~keep_mask & everything)
            for offsets, successors, _ in orders:
                offsets.append(len(successors))
        merged, attack, defence = (MoveList(*(part.tobytes() for part in parts)) for parts in orders)
        for cache in (self._plies, self._merged, self._order, self._attack, self._edibles, self._race_plies):
            cache.clear()
        return RaceArrays(
            n=n, total=total, turns=turns, max_plies=max_plies, kinds=len(kinds), item_bits=self.item_bits,
            turn=bytes(game.turn), team=bytes(int(t in self.team_turns) for t in game.turn),
            stop=game.stopped().astype(np.uint8).tobytes(),
            end_kind=array("h", [-1 if o is None else kinds.index(scores.at_end[o]) for o in game.outcome]).tobytes(),
            out_kind=array("h", [kinds.index(scores.at_timeout[len(scores.at_timeout) - 1 if m is None else m])
                                 for m in game.tmatch]).tobytes(),
            doom=int32(self.doom), team_stops=int32(self.team_stops), others_stop=int32(self.others_stop),
            low=low.tobytes(), high=high.tobytes(), score=score.tobytes(), merged=merged, attack=attack, defence=defence)

    def _labels(self, avoid: set[str]) -> list[tuple]:
        """What a race reads of each abstract position besides its successors (the classes of
        :mod:`gridsolve.solve.bounded.quotient` start from these): the side to move, the role's score at
        the end that holds and whether the role must avoid it, the timeout entry, the
        collectors' cells and whether a move is left."""
        game, at_end, pieces = self.game, self.scores.at_end, self.items.piece
        return [(game.turn[i], None if game.outcome[i] is None else (at_end[game.outcome[i]], game.outcome[i] in avoid),
                 game.tmatch[i], tuple(game.cells[i][p] for p in pieces), game.has_moves[i])
                for i in range(len(game))]

    # --- the game on top of the abstraction ----------------------------------------------------
    def plies_from(self, state: int) -> list[tuple]:
        """[(move, successor, keep_mask)] of abstract position ``state``: ``items & keep_mask`` are the items plies_left
        after the ply (a collector that moves takes the item where its move ends)."""
        found = self._plies.get(state)
        if found is None:
            game, rules = self.game, self.board.rules
            movers = rules.turns[game.turn[state]]
            found = []
            for move, successor in game.moves(state):
                taken = 0
                for k, piece in enumerate(self.items.piece):
                    if rules.roles[piece] in movers:
                        taken |= self.items.bit[k].get(game.cells[successor][piece], 0)
                found.append((move, successor, ~taken))
            self._plies[state] = found
        return found

    def merged(self, state: int) -> list[tuple]:
        """:meth:`plies_from` as the races search them: ``(move, representative of the
        successor's class, keep_mask)``, the first move to each class and mask only (bisimilar
        successors have the same answers)."""
        found = self._merged.get(state)
        if found is None:
            canon, seen = self.canon, set()
            found = []
            for move, successor, keep_mask in self.plies_from(state):
                key = (canon[successor], keep_mask)
                if key not in seen:
                    seen.add(key)
                    found.append((move, *key))
            self._merged[state] = found
        return found

    def search_order(self, state: int, first_longest: bool) -> list[tuple]:
        """:meth:`merged` with the moves after which an avoided end is forced latest first
        (or soonest first): the team looks for a way out, the others for the closing move."""
        key = (state, first_longest)
        found = self._order.get(key)
        if found is None:
            found = self._order[key] = sorted(self.merged(state), key=lambda ply: (self.doom[ply[1]], self.apart(ply[1])),
                                              reverse=first_longest)
        return found

    def apart(self, state: int) -> int:
        """How far the others' pieces stand from the collector (steps through open edges,
        summed): among moves alike for the avoided end, the others try the nearest first and
        the team the farthest (Pacman: the ghosts chase; 0.73x the positions of the moves'
        order on six random questions of bench/ask.py, 0.36-0.77x where both ghosts hunt)."""
        if not self.items.piece:
            return 0
        cells = self.game.cells[state]
        target = cells[self.items.piece[0]]
        far = self._distances.get(target)
        if far is None:
            far = self._distances[target] = step_distances(self.board, [target], steps=self._steps)
        return sum(far.get(cells[p], UNFORCED) for p in self.chasers)

    def attack_order(self, state: int, items: int) -> list[tuple]:
        """The order the team tries its moves in a race for a score: the moves that take an item
        first, then the others, each group as :meth:`search_order` (avoided end latest first).
        Proving a score is where the searches spend most (Pacman: 3x fewer positions)."""
        plies = self.search_order(state, True)
        key = (state, items & self._edible(state))       # the order depends only on the items the moves can take
        found = self._attack.get(key)
        if found is None:
            found = self._attack[key] = ([ply for ply in plies if items & ~ply[2]]
                                         + [ply for ply in plies if not items & ~ply[2]])
        return found

    def _edible(self, state: int) -> int:
        """The items the moves from ``state`` can take, as bits."""
        found = self._edibles.get(state)
        if found is None:
            found = 0
            for _, _, keep_mask in self.merged(state):
                found |= ~keep_mask
            self._edibles[state] = found
        return found

    def children(self, state: int, items: int):
        """[(move, successor, items after)] of abstract position ``state`` with ``items`` plies_left."""
        return [(move, successor, items & keep_mask) for move, successor, keep_mask in self.plies_from(state)]

    def end_score(self, state: int, items: int) -> int:
        """The role's score at ``state``, where an end holds."""
        return self.scores.value(self.scores.at_end[self.game.outcome[state]], self.items.taken(items))

    def timeout_score(self, state: int, items: int) -> int:
        """The role's score if the plies run out at ``state``: the first timeout entry that holds."""
        entry = self.game.tmatch[state] if self.game.tmatch[state] is not None else len(self.scores.at_timeout) - 1
        return self.scores.value(self.scores.at_timeout[entry], self.items.taken(items))

    def reference(self, state: int, items: int) -> float:
        """The score the answers measure plies against: the timeout score at ``state``, except where a
        conditional timeout entry gives it and it is the role's top score (then forced by the
        role, by an end or by the step limit: the reference lies just below it) or its lowest
        (forced by the others: just above it)."""
        return reference_score(self.timeout_score(state, items), self.game.tmatch[state] is not None,
                               self.thresholds[0], self.thresholds[-1])

    def gains(self, state: int, plies: int) -> tuple[int, ...]:
        """The most moves each collector makes in the next ``plies`` plies from ``state``."""
        return self._gains_of(self.game.turn[state], plies)

    def _gains_of(self, turn: int, plies: int) -> tuple[int, ...]:
        key = (turn, plies)
        found = self._gains.get(key)
        if found is None:
            entries = len(self.board.rules.turns)
            found = self._gains[key] = tuple(
                plies if self.lost else sum(1 for ahead in range(plies) if (key[0] + ahead) % entries in turns)
                for turns in self.collector_turns)
        return found

    # --- races: the hooks of the threshold search ------------------------------------------------
    def race(self, up: bool, threshold: int) -> Race:
        """The race of the team (``up``: a stop scoring at least ``threshold``) or of the others (below it)."""
        race = Race(UP if up else DOWN, threshold)
        self.races.setdefault(race, {})
        return race

    def forces(self, race: Race, state: int, items: int, plies_left: int, within: int) -> bool:
        """Whether the race's attackers force a stop meeting its goal within ``within`` plies
        (``within <= plies_left``) from abstract position ``state`` with ``items`` left and
        ``plies_left`` plies left: in C once the search has searched enough in Python to pay for
        it (a search under way in Python stops there and is asked again in C)."""
        state = self.canon[state]
        if self._switch_at is not None:
            if self.nodes < self._switch_at:
                try:
                    return self.search_forces(race, state, items, plies_left, within)
                except _ToNative:
                    pass
            self._start_native()
        return super().forces(race, state, items, plies_left, within)

    def checkpoint(self) -> None:
        super().checkpoint()
        if self._switch_at is not None and self.nodes >= self._switch_at:
            raise _ToNative       # the tables hold finished searches only: asked again in C

    def race_plies(self, race: Race, state: int, items: int, attacking: bool) -> list[tuple[int, int]]:
        """(successor, the items it keeps) in the race's order: :meth:`merged` (the others' race),
        :meth:`attack_order` (the team's attack) or :meth:`search_order` (its defence)."""
        if race[0] != UP:
            key = state << 1
        elif attacking:
            key = (state, items & self._edible(state))
        else:
            key = state << 1 | 1
        found = self._race_plies.get(key)
        if found is None:
            plies = self.attack_order(state, items) if attacking and race[0] == UP else \
                self.search_order(state, False) if race[0] == UP else self.merged(state)
            found = self._race_plies[key] = [(successor, keep_mask) for _, successor, keep_mask in plies]
        return found

    def bound(self, race: Race, state: int, items: int, plies_left: int, within: int) -> bool | None:
        """The race's answer where the abstraction decides it, else None.  Short of the step
        limit (``within < plies_left``) only an end or a side without a move stops the game in
        time, so attackers who cannot force any stop within ``within`` plies lose the race."""
        up = race[0] == UP
        if within < plies_left and (self.team_stops if up else self.others_stop)[state] > within:
            return False
        left = items.bit_count() if self._single else items
        turn = self.game.turn[state]
        if up:
            doom = self.doom[state]
            _, high = self._span_within(left, turn, within if within < doom else doom)
            if high < race.threshold:
                return False
            low, _ = self._span_within(left, turn, within)
            if low >= race.threshold:
                return True      # the attackers force a stop in time: the first test above
            return None
        low, high = self._span_within(left, turn, within)
        if low >= race.threshold:
            return False
        if high < race.threshold:
            return True
        return None

    def _span_within(self, left: int, turn: int, plies: int) -> tuple[int, int]:
        """(lowest, highest) score of a stop within ``plies`` plies from a position where
        ``turns[turn]`` is to move and ``left`` is the items left (their count where there is
        one kind of item: the bounds depend only on it)."""
        key = (left, turn, plies)
        found = self._spans.get(key)
        if found is None:
            taken = (self.items.total[0] - left,) if self._single else self.items.taken(left)
            found = self._spans[key] = self.scores.span(taken, self._gains_of(turn, plies))
        return found

    # --- answers --------------------------------------------------------------------------------
    def value(self, state: int, items: int, plies_left: int) -> int:
        """The role's minimax score: the largest threshold its team forces, tried upward from
        the lowest the bounds allow (a refuted threshold refutes every higher one, and proving
        a low score is cheap where refuting a high one is not: Pacman's play set 0.7x the
        positions of trying downward)."""
        score = self.stop_score(state, items, plies_left)
        if score is not None:
            return score
        candidates = self.thresholds
        if self.prune:
            _, high = self.scores.span(self.items.taken(items), self.gains(state, min(plies_left, self.doom[state])))
            low, _ = self.scores.span(self.items.taken(items), self.gains(state, plies_left))
            candidates = [t for t in candidates if low <= t <= high] or [low]
        value = candidates[0]
        for threshold in candidates[1:]:
            if not self.forces(self.race(True, threshold), state, items, plies_left, plies_left):
                break
            value = threshold
        return value

    def summary(self, state: int, items: int, plies_left: int, reference: float) -> Outcome:
        """The outcome of one probe (as layered.lp: value, plies, win, win plies, survival, doom plies)."""
        value = self.value(state, items, plies_left)
        top = self.thresholds[-1]
        plies = self.value_plies(value, reference, state, items, plies_left)
        win_plies = None
        if value == top and top > reference:
            win_plies = plies if value > reference else self.rank(self.race(True, top), state, items, plies_left)
        doom = self.doom[state] if self.doom[state] <= plies_left else None
        return Outcome(value, plies, value == top, win_plies, doom is None, doom)

    def value_plies(self, value: int, reference: float, state: int, items: int, plies_left: int) -> int | None:
        """The plies of ``value`` at a probe: the team forces it (above the reference), or the
        others force less than the next score (below); None where it is the reference or,
        below it, where the others cannot (the probe is worth more)."""
        if value > reference:
            return self.rank(self.race(True, value), state, items, plies_left)
        if value < reference:
            return self.rank(self.race(False, min(t for t in self.thresholds if t > value)), state, items, plies_left)
        return None

    def moves(self, state: int, items: int, plies_left: int, reference: float) -> list[tuple]:
        """[(move symbol, successor, items after, outcome)] of the side to move (none where the game stops)."""
        if self.stop_score(state, items, plies_left) is not None:
            return []
        return [(move, successor, after, self.summary(successor, after, plies_left - 1, reference)) for move, successor, after in self.children(state, items)]


class BoundedView:
    """The outcome view of a bounded search (a :class:`~gridsolve.solve.common.outcome.OutcomeView`):
    a view position is (abstract position, items, plies left), its plies measured against
    ``reference``.  The principal line from ``root`` (by the one rule, as layered.lp) picks among
    the root's moves; along the line every position has the root's value V, so after the first
    ply only moves worth V are candidates, tried in the order of their key."""

    def __init__(self, search: BoundedSearch, reference: float, root: tuple):
        self.search, self.reference, self.root = search, reference, root
        self._moves: dict = {}

    def outcome(self, view_state: tuple) -> Outcome:
        return self.search.summary(*view_state, self.reference)

    def moves(self, view_state: tuple) -> list[tuple]:
        found = self._moves.get(view_state)
        if found is None:
            state, items, plies_left = view_state
            found = self._moves[view_state] = [(move, (successor, after, plies_left - 1), there) for move, successor, after, there
                                               in self.search.moves(state, items, plies_left, self.reference)]
        return found

    @cached_property
    def value(self) -> int:
        """The root's value: the best of its moves for the side to move there."""
        values = [there.value for _, _, there in self.moves(self.root)]
        return max(values) if self.maximises(self.root) else min(values)

    def line(self, start: Position, most: int | None = None) -> tuple[Ply, ...]:
        """The principal line from ``start`` (the root), at least one ply where the root has moves
        even with ``most`` 0."""
        if not self.moves(self.root):
            return ()
        return principal_line(self, start, self.root, None if most is None else max(1, most))

    def candidates(self, line_state: tuple) -> list[Candidate]:
        search, reference = self.search, self.reference
        if line_state == self.root:
            return keyed(((move, after, there.value, there.plies) for move, after, there in self.moves(line_state)),
                         reference)
        value = self.value
        state, items, plies_left = line_state
        if search.stop_score(state, items, plies_left) is not None:
            return []
        team = search.game.turn[state] in search.team_turns
        up = search.race(True, value)
        found = []
        for move, successor, after in search.children(state, items):
            if team and value != search.thresholds[0] and \
                    not search.forces(up, successor, after, plies_left - 1, plies_left - 1):
                continue                                  # worth less than the value
            found.append((move, (successor, after, plies_left - 1), value,
                          search.value_plies(value, reference, successor, after, plies_left - 1)))
        return keyed(found, reference)

    def maximises(self, line_state: tuple) -> bool:
        return self.search.game.turn[line_state[0]] in self.search.team_turns

    def accept(self, line_state: tuple, candidate: Candidate) -> bool:
        """The others' move is the first worth no more than the value (their moves are worth at least it)."""
        search, value = self.search, self.value
        above = [t for t in search.thresholds if t > value]
        if line_state == self.root or self.maximises(line_state) or value < self.reference or not above:
            return True
        successor, after, plies_after = candidate.move
        return not search.forces(search.race(True, above[0]), successor, after, plies_after, plies_after)

    def side(self, line_state: tuple) -> tuple[str, ...]:
        return tuple(self.search.board.rules.turns[self.search.game.turn[line_state[0]]])

    def play(self, line_state: tuple, candidate: Candidate, before: Position) -> tuple[str, tuple, Position]:
        search, (successor, after, _) = self.search, candidate.move
        position = replace(search.game.position(successor, before.step + 1), items=search.items.left(after))
        return format_move(candidate.order), candidate.move, position


def _search_limits(board: Board, query: Query, limits: Limits) -> LimitGuard:
    """The limits of one bounded solve; the message names the plies and what to try, as the
    layered solver's does (a survive question needs no items: the race solver answers it)."""
    plies_left = query.remaining(board)
    items = ", ".join(board.rules.collect)

    horizon = f"ask with a smaller horizon, e.g. --horizon {max(1, plies_left // 2)}"
    survive = f", or ask --query survive (it does not need the {items})" if query.kind != QueryKind.SURVIVE else ""

    def hint(needed: int | None) -> str:
        return horizon + (", or raise --max-memory" if needed is not None else "") + survive
    return LimitGuard(limits, f"the positions within {plies_left} plies", hint, smaller=horizon + survive)


def solve_bounded(board: Board, query: Query, limits: Limits | None = None, prune: bool = True,
                  line_plies: int | None = None, memo=None) -> Answer:
    """Answer ``query`` with the bounded solver (the caller checked that it serves it:
    :mod:`gridsolve.solve.common.capabilities`); the principal line stops after ``line_plies`` plies when given.  ``memo`` (a
    :class:`gridsolve.solve.bounded.memo.BoundedMemo`) keeps the abstract game and the races'
    transposition tables for the next questions."""
    started = time.perf_counter()
    limits = limits or Limits()
    if query.strategy:
        raise QueryError("--strategy: strategies are written for games solved by races only")
    guard = _search_limits(board, query, limits)
    if memo is None:
        guard.before(estimate_positions(board, layout_for(board, set()), [query.position]), board)
        game = build_abstract_game(board, [query.position], guard)
        grounded = time.perf_counter()
        solver = BoundedSearch(board, game, query.role, limits, prune, guard)
    else:
        game, solver = memo.solver(query, limits, prune, guard)
        grounded = time.perf_counter()
    nodes = solver.nodes
    root = game.state_of(query.position)
    items = solver.items.of(query.position.items_left(board))
    plies_left = query.remaining(board)
    reference = solver.reference(root, items)
    view = BoundedView(solver, reference, (root, items, plies_left))
    with collector_paused():
        at = view.outcome(view.root)
        probes = view.moves(view.root)
        line = view.line(query.position, line_plies)
    solved = time.perf_counter()
    stats = SolveStats(solver="bounded", ground_s=round(grounded - started, 4), total_s=round(solved - started, 4),
                       detail=ThresholdStats(
                           abstract_positions=len(game), ground_atoms=game.ground_atoms,
                           search_s=round(solved - grounded, 4), searched=solver.nodes - nodes,
                           remembered=solver.remembered(), choices=0, search_in="C" if solver._kernel else "Python",
                           races=len(solver.races) + (len(solver._kernel.slots) if solver._kernel else 0)))
    return read_answer(board, query, at, ((format_move(m), there) for m, _, there in probes), line, plies_left,
                       stats, hidden=False)


class BoundedSolver:
    """The bounded solver as a :class:`~gridsolve.solve.common.answer.Solver`: the layered questions
    about games with items (the ``bounded`` row of :mod:`gridsolve.solve.common.capabilities`)."""

    name = "bounded"

    def serves(self, question: Question) -> bool:
        return serves_question(BOUNDED, question)

    def answer(self, question: Question) -> Answer:
        return solve_bounded(question.board, question.query, question.limits, line_plies=question.line_plies,
                             memo=question.memo)
