"""The bounded solver's races run in C (``raceskernel.c``): the arrays it reads, built from a
:class:`~gridsolve.solve.bounded.search.BoundedSearch`, and its tables, one per race.

The C search is ``BoundedSearch.forces`` line for line: the same bounds, the same move orders
(so the same positions searched), the same transposition-table entries, kept in open-addressing
tables of 10 bytes an entry instead of Python dicts of about 150.  It serves games with one kind
of item whose positions, items and plies fit a 63-bit key (Pacman: 33 pellets); the others, and
``prune=False``, search in Python, and so does a search until it has searched about what the
arrays cost to build (``search.NATIVE_AFTER``).  ``tests/test_boundedkernel.py`` compares the two.
"""
from __future__ import annotations

from array import array

from . import native
from ..graph.abstractgame import UNFORCED

CHECK_EVERY = 200_000            # positions searched between two checks of the limits (about 25 ms)
GROWTH_BYTES = CHECK_EVERY * 20  # table memory those positions may add (10 bytes an entry, half full)


def kernel_serves(search) -> bool:
    """Whether the C races serve ``search`` (a BoundedSearch): compiled here, with its bounds,
    one kind of item, and positions, items and plies that fit a 63-bit key."""
    if not search.prune or len(search.items.names) != 1 or search.board.rules.max_plies > 250:
        return False
    if max(1, len(search.game)).bit_length() + search._item_bits + 1 > 63:
        return False
    return native.load("raceskernel") is not None


def _int32(values) -> bytes:
    return array("i", [min(v, UNFORCED) for v in values]).tobytes()


class RacesKernel(native.KernelRaces):
    """The arrays of one BoundedSearch in C, and a slot per race."""

    check_every, growth_bytes = CHECK_EVERY, GROWTH_BYTES

    def __init__(self, search):
        super().__init__(native.load("raceskernel"), search)
        module = self.module
        game, scores, items = search.game, search.scores, search.items
        n, total = len(game), items.total[0]
        turns, max_plies = len(search.board.rules.turns), search.board.rules.max_plies
        kinds = scores.kinds
        score = array("i", [scores.value(kind, (taken,)) for kind in kinds for taken in range(total + 1)])
        end_kind = array("h", [-1 if o is None else kinds.index(scores.at_end[o]) for o in game.outcome])
        out_kind = array("h", [kinds.index(scores.at_timeout[len(scores.at_timeout) - 1 if m is None else m])
                               for m in game.tmatch])
        low, high = array("i"), array("i")
        for left in range(total + 1):
            for turn in range(turns):
                for plies in range(max_plies + 1):
                    lo, hi = search._span_within(left, turn, plies)
                    low.append(lo)
                    high.append(hi)
        lists = [(array("i", [0]), array("i"), array("Q")) for _ in range(3)]
        everything = (1 << search._item_bits) - 1
        doom, apart, keys = search.doom, search.apart, {}

        def key(ply):          # search_order's key, computed once a successor
            found = keys.get(ply[1])
            if found is None:
                found = keys[ply[1]] = (doom[ply[1]], apart(ply[1]))
            return found
        canon = search.canon
        for s in range(n):
            if canon[s] == s:
                merged = search.merged(s)
                for (offsets, successors, taken), order in zip(lists, (
                        merged, sorted(merged, key=key, reverse=True), sorted(merged, key=key))):
                    for _, successor, keep_mask in order:
                        successors.append(successor)
                        taken.append(~keep_mask & everything)
            for offsets, successors, _ in lists:
                offsets.append(len(successors))
        lists = [part.tobytes() for parts in lists for part in parts]
        search._plies.clear()
        search._merged.clear()
        search._order.clear()
        self.capsule = module.new(
            n, total, turns, max_plies, len(kinds), search._item_bits,
            bytes(game.turn), bytes(int(t in search.team_turns) for t in game.turn),
            bytes(int(game.stops(i)) for i in range(n)), end_kind.tobytes(), out_kind.tobytes(),
            _int32(search.doom), _int32(search.team_stops), _int32(search.others_stop),
            low.tobytes(), high.tobytes(), score.tobytes(), tuple(lists))

    def slot(self, up: bool, threshold: int) -> int:
        key = (up, threshold)
        if key not in self.slots:
            self.slots[key] = self.module.race(self.capsule, up, threshold)
        return self.slots[key]

    def forces(self, race: tuple, state: int, items: int, plies_left: int, within: int) -> bool:
        """BoundedSearch.forces for ``race`` (its ``(kind, threshold)``), at a representative ``state``."""
        return self.call(self.slot(race[0] == "up", race[1]), state, items, plies_left, within)
