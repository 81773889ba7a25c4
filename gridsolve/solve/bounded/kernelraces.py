"""What the C races of a search share (:class:`KernelRaces`, used by ``raceskernel`` and
``knowingkernel``, loaded by :mod:`gridsolve.native`), and the races' kinds as the kernels number them."""
from __future__ import annotations


RACE_KINDS = {"up": 0, "down": 1, "avoid": 2}      # a race's kind as the kernels number it (racekernel.h)


class KernelRaces:
    """What the C races of a search share (``raceskernel``, ``knowingkernel``; their search is
    ``gridsolve/solve/threshold/racesearch.h``): the kernel made from the one object describing
    the search's game (made by the search's ``kernel_arrays()``, read by field name in C), a table per race,
    the positions searched counted into ``search.nodes`` and the limits checked by
    ``search.check_limits`` every ``check_every`` positions."""

    check_every = 200_000        # positions searched between two checks of the limits (about 25 ms)
    growth_bytes = 0             # table memory those positions may add

    def __init__(self, module, search, arrays):
        """``arrays``: the one object describing the game (``search.kernel_arrays()``)."""
        self.module, self.search = module, search
        self.slots: dict = {}
        self.counted = 0
        self.capsule = module.new(arrays)

    def slot(self, race: tuple) -> int:
        """The kernel's slot of ``race`` (its ``(kind, threshold)``), made on first use."""
        found = self.slots.get(race)
        if found is None:
            kind, threshold = race
            found = self.slots[race] = self.module.race(self.capsule, RACE_KINDS[kind], 0 if threshold is None else threshold)
        return found

    def extra(self, extra):
        """What the game keeps beside the abstract position, as the kernel takes it."""
        return extra

    def forces(self, race: tuple, state: int, extra, plies_left: int, within: int) -> bool:
        """The search's ``forces`` for ``race`` in C."""
        return self.call(self.slot(race), state, self.extra(extra), plies_left, within)

    def call(self, slot: int, *args) -> bool:
        """``module.forces(capsule, slot, *args, check, check_every)``; a table that cannot grow is the
        search's memory limit."""
        try:
            return self.module.forces(self.capsule, slot, *args, self._check, self.check_every)
        except MemoryError:
            raise self.search.guard.error("a transposition table could not grow (the machine has no more memory)",
                                          f"after searching {self.search.nodes:,} positions") from None
        finally:
            self._count()

    def _count(self) -> None:
        nodes = self.stats()[0]
        self.search.nodes += nodes - self.counted
        self.counted = nodes

    def _check(self, nodes: int) -> None:
        self._count()
        self.search.check_limits(self.growth_bytes + self.stats()[3])

    def clear(self) -> None:
        """Drop every race's table (the arrays stay)."""
        self.module.clear(self.capsule)
        self.slots = {}

    def stats(self) -> tuple[int, int, int, int]:
        """(positions searched, table entries, table bytes, bytes a table that doubles before
        the next check of the limits needs)."""
        return self.module.stats(self.capsule)

