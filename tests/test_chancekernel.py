"""The random player's win probabilities in C (gridsolve/analysis/chancekernel.c) are the numpy
loop's, double for double: on hand-checked tiny graphs and on random ones, with and without a
step limit, and the kernel is the one the metrics use."""
from __future__ import annotations

import numpy as np
import pytest

from gridsolve import native
from gridsolve.analysis.metrics import SETTLED, chances, limit_chances


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


def random_graph(seed: int, mine_share: float = 0.6):
    """n positions, moves (sources, targets), the role's positions and the goals, drawn from ``seed``."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 60))
    m = int(rng.integers(0, 4 * n))
    sources = np.sort(rng.integers(0, n, m)) if seed % 2 else rng.integers(0, n, m)
    targets = rng.integers(0, n, m)
    return n, sources, targets, rng.random(n) < mine_share, rng.random(n) < 0.15, rng


@pytest.mark.parametrize("seed", range(20))
def test_random_graphs_give_the_same_doubles(seed):
    n, sources, targets, mine, goal, rng = random_graph(seed)
    for left, settled in ((int(rng.integers(0, 30)), 0.0), (1_000_000, SETTLED)):
        c, p = both(n, sources.astype(np.int64), targets.astype(np.int64), mine, goal, left, settled)
        assert c.dtype == p.dtype == np.float64
        assert np.array_equal(c, p), (left, settled)


# - The limit without a step limit (Gauss-Seidel: limit_chances) ---

def both_limits(n, sources, targets, mine, goal):
    args = (n, sources, targets, np.array(mine, dtype=bool), np.array(goal, dtype=bool), 1_000_000)
    return limit_chances(*args), limit_chances(*args, kernel=False)


def test_the_limit_of_a_loop_solved_exactly():
    # 0 (the role): the goal 1, a dead end 2, or back to itself: the limit is 1/2 (not 1/3)
    n, s, t = graph([(0, 1), (0, 2), (0, 0)], 3)
    for values in both_limits(n, s, t, [True] * 3, [False, True, False]):
        assert values.tolist() == [0.5, 1.0, 0.0]
    # only moves onto itself: never the goal
    n, s, t = graph([(0, 0), (0, 0)], 2)
    for values in both_limits(n, s, t, [True, True], [False, True]):
        assert values.tolist() == [0.0, 1.0]


def test_the_others_staying_forever_is_no_win():
    # 0 (the others): to the goal 1 or stay: they stay (the least fixed point from 0 is 0)
    n, s, t = graph([(0, 1), (0, 0)], 2)
    for values in both_limits(n, s, t, [False, True], [False, True]):
        assert values.tolist() == [0.0, 1.0]


def test_positions_that_reach_no_goal_keep_0_and_a_two_cycle_converges():
    # 0 <-> 1 (the role, each also to the goal 2 with one move in three, 3 a dead end from 1);
    # 4 reaches nothing: x0 = (1 + x1 + 0) / 3 with 0's third move to 4, x1 = (1 + x0 + 0) / 3
    n, s, t = graph([(0, 2), (0, 1), (0, 4), (1, 2), (1, 0), (1, 3)], 5)
    for values in both_limits(n, s, t, [True] * 5, [False, False, True, False, False]):
        assert values[0] == pytest.approx(0.5, rel=1e-11) and values[1] == pytest.approx(0.5, rel=1e-11)
        assert values[[2, 3, 4]].tolist() == [1.0, 0.0, 0.0]


@pytest.mark.parametrize("seed", range(20))
def test_the_limit_in_c_and_python_gives_the_same_doubles_and_the_plies_limit(seed):
    n, sources, targets, mine, goal, _ = random_graph(seed, 0.6 if seed % 3 else 1.0)   # (every third: no choices)
    live = ~goal[sources]                   # (a goal ends the game: no moves out of it)
    sources, targets = sources[live].astype(np.int64), targets[live].astype(np.int64)
    c, p = both_limits(n, sources, targets, mine, goal)
    assert c.dtype == p.dtype == np.float64
    assert np.array_equal(c, p)
    plies = chances(n, sources, targets, mine, goal, 1_000_000, SETTLED)
    assert np.allclose(c, plies, rtol=1e-9, atol=1e-15)
