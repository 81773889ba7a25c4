"""The random player's win probabilities in C (gridsolve/analysis/chancekernel.c) are the numpy
loop's, double for double: on hand-checked tiny graphs and on random ones, with and without a
step limit, and the kernel is the one the metrics use."""
from __future__ import annotations

import numpy as np
import pytest

from gridsolve import native
from gridsolve.analysis.metrics import SETTLED, chances


def graph(edges: list[tuple[int, int]], n: int):
    sources = np.array([s for s, _ in edges], dtype=np.int64)
    targets = np.array([t for _, t in edges], dtype=np.int64)
    return n, sources, targets


def both(n, sources, targets, mine, goal, left, settled):
    c = chances(n, sources, targets, np.array(mine, dtype=bool), np.array(goal, dtype=bool), left, settled)
    p = chances(n, sources, targets, np.array(mine, dtype=bool), np.array(goal, dtype=bool), left, settled,
                kernel=False)
    return c, p


def test_the_kernel_is_built_in_a_source_checkout():
    assert native.load("chancekernel", "gridsolve.analysis") is not None, \
        native.why_not("chancekernel", "gridsolve.analysis")


def test_a_coin_toss_between_the_goal_and_a_dead_end():
    # 0 (the role) moves to 1 (goal) or 2 (no move): one half, after one ply
    n, s, t = graph([(0, 1), (0, 2)], 3)
    for values in both(n, s, t, [True, True, True], [False, True, False], 5, 0.0):
        assert values.tolist() == [0.5, 1.0, 0.0]
    for values in both(n, s, t, [True, True, True], [False, True, False], 0, 0.0):
        assert values.tolist() == [0.0, 1.0, 0.0]           # no ply left: only the goal counts


def test_the_others_choose_the_least_and_a_loop_converges_to_its_limit():
    # 0 (the others) choose 1 or 2; 1 (the role): goal 3 or back to 0; 2 (the role): goal 3 or dead end 4
    n, s, t = graph([(0, 1), (0, 2), (1, 3), (1, 0), (2, 3), (2, 4)], 5)
    mine, goal = [False, True, True, True, True], [False, False, False, True, False]
    c, p = both(n, s, t, mine, goal, 1_000_000, SETTLED)
    assert np.array_equal(c, p)
    assert c[0] == pytest.approx(0.5) and c[2] == 0.5 and c[1] == pytest.approx(0.75)
    # two plies: from 1, the goal now or 0 (which cannot reach it in one): 1/2; from 0 the least of
    # 1 and 2 after one ply (1/2 each)
    c, p = both(n, s, t, mine, goal, 2, 0.0)
    assert c.tolist() == p.tolist() == [0.5, 0.5, 0.5, 1.0, 0.0]


@pytest.mark.parametrize("seed", range(20))
def test_random_graphs_give_the_same_doubles(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 60))
    m = int(rng.integers(0, 4 * n))
    sources = np.sort(rng.integers(0, n, m)) if seed % 2 else rng.integers(0, n, m)
    targets = rng.integers(0, n, m)
    mine = rng.random(n) < 0.6
    goal = rng.random(n) < 0.15
    for left, settled in ((int(rng.integers(0, 30)), 0.0), (1_000_000, SETTLED)):
        c, p = both(n, sources.astype(np.int64), targets.astype(np.int64), mine, goal, left, settled)
        assert c.dtype == p.dtype == np.float64
        assert np.array_equal(c, p), (left, settled)
