"""The threshold race search both the bounded solver and the robust search run: "can the race's
attackers force a stop meeting its goal within ``within`` plies?" from a position (an abstract
position ``state`` and what the game keeps beside it, ``extra``: the items left, the role's
knowledge) with ``plies_left`` plies to the step limit.

A race is ``Race(kind, threshold)`` (or the same plain tuple): ``("up", v)`` the role's team
forces a stop scoring at least v, ``("down", v)`` the others force one below v, ``("avoid",
None)`` the others force an end the role must avoid.  Each race has a transposition table
{key: the most plies known not to force + 1, the fewest known to force}, one int each way, keyed
by ``(state, extra)``, or by one int where ``extra`` is bits (``extra_bits``: half the memory);
a race to the step limit (``within == plies_left``: the step limit's score can be the goal) has
keys of its own.  A ply is the list of its outcomes the others choose among (``choices``; one
where they do not choose): the role's team needs every outcome forced, the others one.

A game fills in :class:`ThresholdSearch`'s hooks: :meth:`~ThresholdSearch.end_score`,
:meth:`~ThresholdSearch.timeout_score`, :meth:`~ThresholdSearch.bound` and
:meth:`~ThresholdSearch.race_plies`, and its C kernel (if any) through
:meth:`~ThresholdSearch.native`.
"""
from __future__ import annotations

import time
from typing import NamedTuple


UP, DOWN, AVOID = "up", "down", "avoid"
NODE_CHECK = 20_000        # positions searched between two checks of the limits


class Race(NamedTuple):
    """One threshold race (equal to the plain tuple ``(kind, threshold)``)."""

    kind: str
    threshold: int | None

    @property
    def up(self) -> bool:
        """Whether the role's team attacks (a stop scoring at least the threshold)."""
        return self.kind == UP


class ThresholdSearch:
    """Threshold races over an abstract game (``game``: ``turn``, ``outcome``, ``succ`` per
    position) for the role whose team moves at ``team_turns``; see the module docstring."""

    node_check = NODE_CHECK        # positions searched between two checks of the limits
    entry_bytes = 400              # about this many bytes per transposition-table entry
    label = "search"               # the progress line's name of the search
    deepening: float | None = None  # iterative deepening: each round this many times as far (None: no rounds)
    choices = True                 # a ply may have outcomes the others choose among (else one each, and
                                   # ``extra`` is bits: the ply keeps some of them)
    extra_bits: int | None = None  # the bits of ``extra`` where it is an int (the key: one int), else None

    def __init__(self, game, team_turns: set[int], avoid: set[str], max_plies: int, limits, guard, prune: bool):
        self.game, self.team_turns, self.avoid, self.prune = game, team_turns, avoid, prune
        self.limits, self.guard = limits, guard
        self.races: dict = {}      # race -> its transposition table
        self.nodes, self._reported = 0, 0.0
        self._bits = (max_plies + 1).bit_length()
        self._mask = (1 << self._bits) - 1

    # --- hooks ---------------------------------------------------------------------------------
    def end_score(self, state: int, extra) -> int:
        """The role's score at ``state``, where an end holds."""
        raise NotImplementedError

    def timeout_score(self, state: int, extra) -> int:
        """The role's score if the plies run out at ``state``."""
        raise NotImplementedError

    def bound(self, race: tuple, state: int, extra, plies_left: int, within: int) -> bool | None:
        """The race's answer where the game's bounds decide it, else None (asked where ``prune``)."""
        return None

    def race_plies(self, race: tuple, state: int, extra, attacking: bool):
        """The plies of a position in the order the race tries them, each a sequence of
        ``(successor, extra after)`` outcomes the others choose among; where ``choices`` is
        False, each its one outcome as ``(successor, the bits of extra it keeps)``."""
        raise NotImplementedError

    def native(self):
        """The race's kernel in C where it searches now, else None."""
        return None

    def forced_at_limit(self, race: tuple, state: int, extra, plies_left: int) -> bool:
        """Whether the race is forced within the plies left (the step limit's score counts)."""
        return self.forces(race, state, extra, plies_left, plies_left)

    def checkpoint(self) -> None:
        """Every ``node_check`` positions searched: the limits."""
        self.check_limits(self.node_check * self.entry_bytes)

    # --- the game's stops ------------------------------------------------------------------------
    def stop_score(self, state: int, extra, plies_left: int) -> int | None:
        """The role's score if the game stops at ``state`` with ``plies_left`` plies left, else None."""
        game = self.game
        if game.outcome[state] is not None:
            return self.end_score(state, extra)
        if plies_left == 0 or not game.has_moves[state]:
            return self.timeout_score(state, extra)
        return None

    def goal(self, race: tuple, state: int, score: int) -> bool:
        """Whether a stop at ``state`` scoring ``score`` meets the race's goal."""
        kind = race[0]
        if kind == UP:
            return score >= race[1]
        if kind == DOWN:
            return score < race[1]
        return self.game.outcome[state] in self.avoid

    # --- the search ------------------------------------------------------------------------------
    def forces(self, race: tuple, state: int, extra, plies_left: int, within: int) -> bool:
        """Whether the race's attackers force a stop meeting its goal within ``within`` plies
        (``within <= plies_left``): in C where the kernel searches, else in Python."""
        kernel = self.native()
        if kernel is not None:
            return kernel.forces(race, state, extra, plies_left, within)
        return self.search_forces(race, state, extra, plies_left, within)

    def search_forces(self, race: tuple, state: int, extra, plies_left: int, within: int) -> bool:
        """:meth:`forces` in Python."""
        table = self.races.get(race)
        if table is None:
            table = self.races[race] = {}
        return self._forces(race, table, state, extra, plies_left, within)

    def _forces(self, race: tuple, table: dict, state: int, extra, plies_left: int, within: int) -> bool:
        game = self.game                 # (stop_score, inline: this runs for every position searched)
        if game.outcome[state] is not None:
            return self.goal(race, state, self.end_score(state, extra))
        if plies_left == 0 or not game.has_moves[state]:
            return self.goal(race, state, self.timeout_score(state, extra))
        if within == 0:
            return False
        if self.extra_bits is None:
            key = (state, extra, plies_left) if within == plies_left else (state, extra)
        else:
            key = ((state << self.extra_bits | extra) << 1) | (within == plies_left)
        bits, mask = self._bits, self._mask
        known = table.get(key)
        if known is not None:
            if within < known >> bits:          # not forced within lost_up_to >= within plies
                return False
            if within >= known & mask:           # forced within won_from <= within plies
                return True
        result = self._search(race, table, state, extra, plies_left, within)
        known = table.get(key)                   # the search may have learnt of this key (the game has cycles)
        if known is None:
            table[key] = within if result else (within + 1) << bits | mask
        elif result:
            table[key] = (known >> bits) << bits | min(known & mask, within)
        else:
            table[key] = max(known >> bits, within + 1) << bits | known & mask
        return result

    def _search(self, race: tuple, table: dict, state: int, extra, plies_left: int, within: int) -> bool:
        self.nodes += 1
        if self.nodes % self.node_check == 0:
            self.checkpoint()
        if self.prune:
            decided = self.bound(race, state, extra, plies_left, within)
            if decided is not None:
                return decided
        up = race[0] == UP
        attacking = (self.game.turn[state] in self.team_turns) == up
        left, later = plies_left - 1, within - 1
        if not self.choices:
            for successor, keep in self.race_plies(race, state, extra, attacking):
                if self._forces(race, table, successor, extra & keep, left, later) == attacking:
                    return attacking
            return not attacking
        for outcomes in self.race_plies(race, state, extra, attacking):
            done = up              # the role's team needs every outcome, the others one
            for successor, after in outcomes:
                if self._forces(race, table, successor, after, left, later) != up:
                    done = not up
                    break
            if done == attacking:
                return attacking
        return not attacking

    # --- the races' answers ----------------------------------------------------------------------
    def rounds(self, plies_left: int):
        """The plies of the rounds of iterative deepening below the step limit: 1, 2, 3, 4, 6,
        9, ... (each about ``deepening`` times the last), ending at ``plies_left - 1``; none
        where ``deepening`` is None."""
        if self.deepening is None:
            return
        within = 1
        while within < plies_left - 1:
            yield within
            within = max(within + 1, int(within * self.deepening))
        if plies_left > 1:
            yield plies_left - 1

    def reaches(self, threshold: int, state: int, extra, plies_left: int) -> bool:
        """Whether the role's team forces a stop scoring at least ``threshold`` within the plies
        left (the step limit's score counts).  Settled by iterative deepening where a side forces
        an end before the limit (the role one scoring at least that, the others one below): such
        races stay small; else by the race to the limit."""
        up = Race(UP, threshold)
        for within in self.rounds(plies_left):
            if self.forces(up, state, extra, plies_left, within):
                return True
            if self.forces(Race(DOWN, threshold), state, extra, plies_left, within):
                return False
        return self.forces(up, state, extra, plies_left, plies_left)

    def rank(self, race: tuple, state: int, extra, plies_left: int) -> int | None:
        """The fewest plies in which the race is forced, None if it is not: by iterative
        deepening, then a binary search between the last two rounds (a race forced within d
        plies is forced within more)."""
        low = 0
        for within in self.rounds(plies_left):
            if self.forces(race, state, extra, plies_left, within):
                return self._fewest(race, state, extra, plies_left, low, within)
            low = within + 1
        if not self.forced_at_limit(race, state, extra, plies_left):
            return None
        return self._fewest(race, state, extra, plies_left, low, plies_left)

    def _fewest(self, race: tuple, state: int, extra, plies_left: int, low: int, high: int) -> int:
        """The fewest plies, forced within ``high`` plies and not within fewer than ``low``."""
        while low < high:
            middle = (low + high) // 2
            if self.forces(race, state, extra, plies_left, middle):
                high = middle
            else:
                low = middle + 1
        return low

    # --- tables and limits -----------------------------------------------------------------------
    def remembered(self) -> int:
        """The entries of every race's transposition table, in Python and in C."""
        kernel = self.native()
        return sum(len(table) for table in self.races.values()) + (kernel.stats()[1] if kernel else 0)

    def table_bytes(self) -> int:
        """About the memory the transposition tables hold."""
        kernel = self.native()
        return sum(len(table) for table in self.races.values()) * self.entry_bytes + (kernel.stats()[2] if kernel else 0)

    def forget(self) -> None:
        """Drop every race's transposition table."""
        self.races = {}
        kernel = self.native()
        if kernel is not None:
            kernel.clear()

    def check_limits(self, growth: int) -> None:
        """Report progress; stop at the time or memory limit, counting ``growth`` more bytes
        (what the positions remembered may add before the next check)."""
        elapsed = time.perf_counter() - self.guard.started
        if self.limits.progress and elapsed > 2.0 and elapsed - self._reported >= 2.0:
            self._reported = elapsed
            self.limits.progress(f"{self.label}: {self.nodes:,} positions, {self.remembered():,} remembered, "
                                 f"{elapsed:.1f} s")
        self.guard.after(f"after searching {self.nodes:,} positions", growth)
