"""The depth-first search of one target in one call of the circuit's C kernel
(``circuitkernel.search_open`` and ``search_run``, gridsolve/ground/circuitdepth.h): the fewest steps within which the
target's side forces one of its ends from a state (deepening one step at a time up to the
horizon; after the role commits to one of its moves there, where asked) and the line of those
steps, with the meaning of :meth:`DepthSearch.least` and :meth:`DepthSearch.line`
(gridsolve/gdl/depthsearch.py, which answers where the kernel was not built, and
tests/test_gdl_nativedepth.py compares the two).  :class:`NativeDepthSearch` asks the questions
of :class:`~gridsolve.gdl.depthanswer.DepthAnswers` (the value a role guarantees: one threshold
at a time) so, one run each of one search kept open (the states it judged and expanded kept).  The limits are checked inside the call every
:data:`CHECK_EVERY` states judged: time and memory stop it with exit code 3 and the states
searched."""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ..solve.common.limits import LimitGuard
from .depthsearch import DEEPEST, SearchStep, Target, check_horizon, key_bits, too_deep
from .engine import GroundGame, joint_of, judge_states, kernel_buffers

CHECK_EVERY = 2_000     # states judged between two checks of the limits


@dataclass
class NativeSearch:
    """What one search found: the fewest steps (None: not forced within the horizon), the line
    of those steps and the search's stats (``search``, ``positions``: states judged, ``expanded``,
    ``visits``, ``search_s``)."""

    plies: int | None
    line: list[SearchStep]
    stats: dict


def native_least(game: GroundGame, role: int, guard: LimitGuard, root: np.ndarray, target: Target,
                 horizon: int | None, move: int | None = None) -> NativeSearch:
    """The fewest steps within which ``target``'s side forces from state ``root`` (a bool a
    fluent) for ``role``, within ``horizon`` steps (None: until the depth stops mattering), and
    its line; with ``move`` (the index of one of the role's legal moves there, in ascending
    order), after the role commits to it, its step counted (no line); the game's circuit must
    have its kernel.  One search of its own (:class:`NativeDepthSearch` keeps one over many
    targets)."""
    return _run(_opened(game, role, guard, root), game, guard, target, horizon, move, time.perf_counter())


def _opened(game: GroundGame, role: int, guard: LimitGuard, root: np.ndarray):
    """The kernel's search of ``role`` from ``root`` (``circuitkernel.search_open``: the root judged)."""
    with guard.allocating("depth-first search"):
        return game.circuit.kernel.search_open(*kernel_buffers(game, root), game.terminal_row, role)


def _run(opened, game: GroundGame, guard: LimitGuard, target: Target, horizon: int | None, move: int | None,
         started: float) -> NativeSearch:
    """One target asked of the kernel's search ``opened`` (``circuitkernel.search_run``)."""
    check_horizon(horizon)
    own_attacks, others_attack = target.side in ("role", "anyone"), target.side in ("others", "anyone")

    def check(count: int, held: int) -> None:
        guard.after(f"depth-first search: after {count:,} states searched", held=held)
    with guard.allocating("depth-first search"):
        plies, steps, keys, states, expanded, visits = game.circuit.kernel.search_run(
            opened, own_attacks, others_attack, target.low, min(target.high, (1 << 62)),
            -1 if horizon is None else horizon, DEEPEST, CHECK_EVERY, check, -1 if move is None else move)
    if plies == -2:
        raise too_deep(guard, states)
    width = (len(game.fluents) + 7) // 8
    numbers = np.frombuffer(steps or b"", dtype=np.int64).reshape(-1, 3)
    line = [SearchStep(joint_of(game, int(code)), keys[k * width:(k + 1) * width], int(choices))
            for k, (code, _, choices) in enumerate(numbers.tolist())]
    return NativeSearch(None if plies < 0 else int(plies), line,
                        {"search": "depth", "kernel": "C", "positions": int(states), "expanded": int(expanded),
                         "visits": int(visits), "search_s": time.perf_counter() - started})


class NativeDepthSearch:
    """The questions :class:`~gridsolve.gdl.depthanswer.DepthAnswers` asks of a
    :class:`~gridsolve.gdl.depthsearch.DepthSearch` (``root``, ``ends``, ``moves``, ``least``,
    ``forced``, ``forced_after``, ``line``, ``stats``, ``for_role``), each answered by one run of
    the kernel's search opened at the root (``circuitkernel.search_open``): the states judged and
    expanded kept over the questions, a blank table each; the same answers.  ``stats`` counts the
    states judged and expanded over every role's search, the visits and the runs (``searches``)."""

    def __init__(self, game: GroundGame, role: int, guard: LimitGuard, counts: dict | None = None):
        self.game, self.role, self.guard = game, role, guard
        self.width = len(game.fluents)
        self.ends: dict[bytes, tuple[bool, np.ndarray]] = {}
        self._moves: dict[bytes, list[int]] = {}
        self._opened: dict[bytes, object] = {}
        self._sizes: dict[bytes, tuple[int, int]] = {}
        self.counts = counts if counts is not None else {"visits": 0, "searches": 0, "sizes": [],
                                                         "started": time.perf_counter()}
        self.counts["sizes"].append(self._sizes)

    def for_role(self, role: int) -> "NativeDepthSearch":
        """The same questions for another role (the counts shared)."""
        return NativeDepthSearch(self.game, role, self.guard, self.counts)

    def root(self, bits: np.ndarray) -> bytes:
        key = np.packbits(bits[None, :], axis=1)[0].tobytes()
        if key not in self.ends:
            terminal, goal, legal = judge_states(self.game, bits[None, :])
            self.ends[key] = (bool(terminal[0]), goal[0])
            self._moves[key] = np.flatnonzero(legal[self.role][0]).tolist()
        return key

    def moves(self, key: bytes) -> list[int]:
        """The role's legal moves at state ``key`` (their numbers, ascending: the kernel's order)."""
        return self._moves[key]

    def _search(self, key: bytes, target: Target, horizon: int | None, move: int | None) -> NativeSearch:
        if key not in self._opened:
            self._opened[key] = _opened(self.game, self.role, self.guard, key_bits(key, self.width))
        found = _run(self._opened[key], self.game, self.guard, target, horizon, move, time.perf_counter())
        self._sizes[key] = (found.stats["positions"], found.stats["expanded"])
        self.counts["visits"] += found.stats["visits"]
        self.counts["searches"] += 1
        return found

    def least(self, key: bytes, target: Target, horizon: int | None, move: int | None = None) -> int | None:
        if move is not None and horizon is not None and horizon <= 0:
            return None         # (the move's step needs one)
        return self._search(key, target, horizon, move).plies

    def forced(self, key: bytes, depth: int, target: Target) -> tuple[bool, bool]:
        """Whether forced within ``depth`` steps (the second field, whether a false answer
        depended on the depth, is not known here: False)."""
        return self.least(key, target, depth) is not None, False

    def forced_after(self, key: bytes, move: int, depth: int, target: Target) -> tuple[bool, bool]:
        return self.least(key, target, depth, move) is not None, False

    def line(self, key: bytes, target: Target, steps: int) -> list[SearchStep]:
        """The line forced in exactly ``steps`` steps, its fewest (as :meth:`DepthSearch.line`)."""
        found = self._search(key, target, steps, None)
        if found.plies != steps:
            raise ValueError(f"the line of {steps} steps asked where the fewest are {found.plies}")
        return found.line

    def stats(self) -> dict:
        counts = self.counts
        sizes = [size for per_root in counts["sizes"] for size in per_root.values()]
        return {"search": "depth", "kernel": "C", "positions": sum(n for n, _ in sizes),
                "expanded": sum(e for _, e in sizes), "visits": counts["visits"], "searches": counts["searches"],
                "search_s": time.perf_counter() - counts["started"]}
