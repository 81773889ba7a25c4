"""The bounded solver's races run in C (``raceskernel.c``): the one object it reads
(:class:`RaceArrays`, made by ``BoundedSearch.kernel_arrays``, its fields read by name), and its
tables, one per race.

The C search is ``BoundedSearch.forces`` line for line: the same bounds, the same move orders
(so the same positions searched), the same transposition-table entries, kept in open-addressing
tables of 10 bytes an entry instead of Python dicts of about 150.  It serves games with one kind
of item whose positions, items and plies fit a 63-bit key (Pacman: 33 pellets); the others, and
``prune=False``, search in Python, and so does a search until it has searched about what the
arrays cost to build (``search.NATIVE_AFTER``).  ``tests/test_boundedkernel.py`` compares the two.
"""
from __future__ import annotations

from array import array
from dataclasses import dataclass
from typing import NamedTuple

from ... import native
from .kernelraces import KernelRaces
from ..graph.abstractgame import UNFORCED

CHECK_EVERY = 200_000            # positions searched between two checks of the limits (about 25 ms)
GROWTH_BYTES = CHECK_EVERY * 20  # table memory those positions may add (10 bytes an entry, half full)


def kernel_serves(search) -> bool:
    """Whether the C races serve ``search`` (a BoundedSearch): compiled here, with its bounds,
    one kind of item, and positions, items and plies that fit a 63-bit key."""
    if not search.prune or len(search.items.names) != 1 or search.board.rules.max_plies > 250:
        return False
    if max(1, len(search.game)).bit_length() + search.item_bits + 1 > 63:
        return False
    return native.load("raceskernel", __package__) is not None


def int32(values) -> bytes:
    """``values`` as int32 bytes, the unforced ranks capped."""
    return array("i", [min(v, UNFORCED) for v in values]).tobytes()


class MoveList(NamedTuple):
    """The moves of every position in one order: ``offsets`` (int32, one more than positions)
    into ``successors`` (int32: the successor's representative) and ``taken`` (uint64: the items
    the move takes)."""

    offsets: bytes
    successors: bytes
    taken: bytes


@dataclass(frozen=True)
class RaceArrays:
    """What ``raceskernel.c`` reads of a BoundedSearch, by field name."""

    n: int                 # abstract positions
    total: int             # items
    turns: int             # turns entries
    max_plies: int
    kinds: int             # score kinds
    item_bits: int
    turn: bytes            # per position (int8): the turns entry to move
    team: bytes            # (int8) whether the role's team moves
    stop: bytes            # (int8) an end holds or no move is left
    end_kind: bytes        # (int16) the score kind of the end that holds, -1 none
    out_kind: bytes        # (int16) the score kind at the step limit
    doom: bytes            # (int32) the retrograde ranks: the others force an avoided end,
    team_stops: bytes      # the team forces a stop, the others do
    others_stop: bytes
    low: bytes             # (int32) per (items left, turn, plies): the lowest and highest score
    high: bytes            # of a stop within the plies
    score: bytes           # (int32) per (score kind, items taken): the role's score
    merged: MoveList       # the others' race
    attack: MoveList       # the team's attack (the avoided end latest first)
    defence: MoveList      # the team's defence (soonest first)


class RacesKernel(KernelRaces):
    """The races of one BoundedSearch in C, and a slot per race."""

    check_every, growth_bytes = CHECK_EVERY, GROWTH_BYTES

    def __init__(self, search):
        super().__init__(native.load("raceskernel", __package__), search, search.kernel_arrays())
