"""The depth-first search of one target in one call of the circuit's C kernel
(``circuitkernel.search``, gridsolve/ground/circuitdepth.h): the fewest steps within which the
target's side forces one of its ends from a state (deepening one step at a time up to the
horizon) and the line of those steps, with the meaning of :meth:`DepthSearch.least` and
:meth:`DepthSearch.line` (gridsolve/gdl/depthsearch.py, which answers where the kernel was not
built, and tests/test_gdl_nativedepth.py compares the two).  The limits are checked inside the
call every :data:`CHECK_EVERY` states judged: time and memory stop it with exit code 3 and the
states searched."""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ..solve.common.limits import LimitGuard
from .depthsearch import DEEPEST, SearchStep, Target, check_horizon, too_deep
from .engine import GroundGame, joint_of, kernel_buffers

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
                 horizon: int | None) -> NativeSearch:
    """The fewest steps within which ``target``'s side forces from state ``root`` (a bool a
    fluent) for ``role``, within ``horizon`` steps (None: until the depth stops mattering), and
    its line; the game's circuit must have its kernel."""
    check_horizon(horizon)
    started = time.perf_counter()
    kernel = game.circuit.kernel
    own_attacks, others_attack = target.side in ("role", "anyone"), target.side in ("others", "anyone")

    def check(count: int, held: int) -> None:
        guard.after(f"depth-first search: after {count:,} states searched", held=held)
    with guard.allocating("depth-first search"):
        plies, steps, keys, states, expanded, visits = kernel.search(
            *kernel_buffers(game, root), game.terminal_row, role, own_attacks, others_attack, target.low,
            min(target.high, (1 << 62)), -1 if horizon is None else horizon, DEEPEST, CHECK_EVERY, check)
    if plies == -2:
        raise too_deep(guard, states)
    width = (len(game.fluents) + 7) // 8
    numbers = np.frombuffer(steps or b"", dtype=np.int64).reshape(-1, 3)
    line = [SearchStep(joint_of(game, int(code)), keys[k * width:(k + 1) * width], int(choices))
            for k, (code, _, choices) in enumerate(numbers.tolist())]
    return NativeSearch(None if plies < 0 else int(plies), line,
                        {"search": "depth", "kernel": "C", "positions": int(states), "expanded": int(expanded),
                         "visits": int(visits), "search_s": time.perf_counter() - started})
