"""The one retrograde ranker (gridsolve/solve/graph/retrograde.py) and its C twin (retrograde.h,
exposed by the robust search's kernel as ``knowingkernel.ranks``).

The ranker is pinned on hand-checked graphs (attackers and defenders, dead ends, loops, a move
counted twice, the level limit, the position the levels stop at, excluded positions), its
adapters on small move lists, and on random graphs both twins are held equal to a transcription
of encodings/solve.lp's rules (``won_in/3``) written here with sets, level by level.
"""
from __future__ import annotations

import random
from itertools import chain
from operator import itemgetter

import numpy as np
import pytest

from gridsolve import native
from gridsolve.solve.graph import retrograde
from gridsolve.solve.graph.retrograde import UNRANKED, numpy_ranks as numpy_ranker, predecessors, ranks, successor_moves

# A hand-checked game: position -> (attacker moves, successors); 0 is the target.
#   1 attacks into 0: rank 1.  2 defends and may step to the dead end 4: never.
#   3 defends with every move ranked (into 1 and 0): rank 2.  5 attacks into 3 (2 is never): 3.
#   6 defends with its one move into 5: 4.  7 attacks without a move: never.  8 attacks with a loop
#   and a move into 6: 5.  9 defends with a loop: never.  10 defends with two moves into 1 and
#   one into 3 (the move counted twice must be ranked twice): 3.
GAME = {0: (False, []), 1: (True, [0, 2]), 2: (False, [1, 4]), 3: (False, [1, 0]), 4: (True, []),
        5: (True, [3, 2]), 6: (False, [5]), 7: (True, []), 8: (True, [8, 6]), 9: (False, [9, 0]),
        10: (False, [1, 1, 3])}
RANKS = [0, 1, -1, 2, -1, 3, 4, -1, 5, -1, 3]


def listed_moves(succ: list, pairs: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """(off, targets) of moves held in Python lists for ``successor_moves``: ``succ[s]`` the moves
    of ``s``, each a ``(move, target)`` pair (``pairs``), else a target."""
    off = np.zeros(len(succ) + 1, dtype=np.int64)
    np.cumsum([len(moves) for moves in succ], out=off[1:])
    flat = chain.from_iterable(succ)
    return off, np.fromiter(map(itemgetter(1), flat) if pairs else flat, dtype=np.int32, count=int(off[-1]))


def arrays(game: dict, targets=(0,)):
    """(off, succ, extra, attacks, target) of a game as GAME holds it."""
    n = len(game)
    off, succ = listed_moves([game[s][1] for s in range(n)], False)
    attacks = np.array([game[s][0] for s in range(n)], dtype=bool)
    target = np.zeros(n, dtype=bool)
    target[list(targets)] = True
    return off, succ, None, attacks, target


def kernel():
    module = native.load("knowingkernel", "gridsolve.solve.hidden")
    assert module is not None, "the C kernels did not build (tests/native_build.py)"
    return module


def twin(off, succ, extra, attacks, target, levels=None, excluded=None, until=None):
    """The C twin's (ranks, levels computed) of the moves ``s -> succ[off[s]:off[s + 1]]`` (and
    ``extra``), as the numpy ranker returns them."""
    def raw(values, dtype) -> bytes:
        return b"" if values is None else np.asarray(values).astype(dtype).tobytes()
    out, depth = kernel().ranks(raw(off, np.int32), raw(succ, np.int32), raw(extra, np.int32), raw(attacks, np.int8),
                                raw(target, np.int8), raw(excluded, np.int8),
                                -1 if levels is None else levels, -1 if until is None else until)
    return np.frombuffer(out, dtype=np.int32), depth


def numpy_ranks(off, succ, extra, attacks, target, levels=None, excluded=None, until=None):
    """The numpy ranker on the same arrays, through the adapters."""
    start, pred, open_count = predecessors(*successor_moves(off, succ, extra), len(attacks))
    return numpy_ranker(start, pred, attacks, target, open_count, levels, excluded, until)


def called_ranks(off, succ, extra, attacks, target, levels=None, excluded=None, until=None):
    """The ranker the graphs call (``ranks``: the twin of scriptkernel, from the predecessors)."""
    assert retrograde.native_kernel() is not None, "the C kernels did not build (tests/native_build.py)"
    start, pred, open_count = predecessors(*successor_moves(off, succ, extra), len(attacks))
    return ranks(start, pred, attacks, target, open_count, levels, excluded, until)


RANKERS = [pytest.param(numpy_ranks, id="numpy"), pytest.param(twin, id="C"), pytest.param(called_ranks, id="called")]


# - Hand-checked graphs ---

@pytest.mark.parametrize("rank_with", RANKERS)
def test_attackers_hurry_defenders_delay(rank_with):
    rank, depth = rank_with(*arrays(GAME))
    assert rank.tolist() == RANKS
    assert depth == 6           # levels 1..5 rank something, level 6 nothing
    assert rank.dtype == np.int32


@pytest.mark.parametrize("rank_with", RANKERS)
def test_level_limit(rank_with):
    rank, depth = rank_with(*arrays(GAME), levels=3)
    assert rank.tolist() == [r if r <= 3 else -1 for r in RANKS]
    assert depth == 3
    rank, depth = rank_with(*arrays(GAME), levels=0)
    assert rank.tolist() == [0] + [-1] * 10 and depth == 0


@pytest.mark.parametrize("rank_with", RANKERS)
def test_stops_once_a_position_is_ranked(rank_with):
    rank, depth = rank_with(*arrays(GAME), until=3)
    assert depth == 2
    assert rank.tolist() == [r if r <= 2 else -1 for r in RANKS]
    rank, depth = rank_with(*arrays(GAME), until=0)          # ranked already: no level
    assert depth == 0 and rank.tolist() == [0] + [-1] * 10
    rank, depth = rank_with(*arrays(GAME), until=9)          # never ranked: every level
    assert rank.tolist() == RANKS and depth == 6


@pytest.mark.parametrize("rank_with", RANKERS)
def test_excluded_positions(rank_with):
    excluded = np.zeros(len(GAME), dtype=bool)
    excluded[[0, 3]] = True       # a target stays ranked 0; 3 is never, nor what only it decided
    rank, depth = rank_with(*arrays(GAME), excluded=excluded)
    assert rank.tolist() == [0, 1, -1, -1, -1, -1, -1, -1, -1, -1, -1]
    assert depth == 2
    assert UNRANKED == -1


@pytest.mark.parametrize("rank_with", RANKERS)
def test_attackers_everywhere_and_no_target(rank_with):
    chain = {0: (True, []), 1: (True, [0]), 2: (True, [1, 3]), 3: (True, [3])}
    rank, depth = rank_with(*arrays(chain))
    assert rank.tolist() == [0, 1, 2, -1] and depth == 3
    rank, depth = rank_with(*arrays(chain, targets=()))
    assert rank.tolist() == [-1] * 4 and depth == 1


@pytest.mark.parametrize("rank_with", RANKERS)
def test_extra_moves(rank_with):
    off, succ, _, attacks, target = arrays(GAME)
    extra = np.full(len(GAME), -1)
    extra[6] = 9        # the defender at 6 may also move to 9 (never ranked): 6 is never, nor 8
    extra[7] = 0        # 7 has no move: no extra one either
    rank, depth = rank_with(off, succ, extra, attacks, target)
    assert rank.tolist() == [-1 if s in (6, 8) else r for s, r in enumerate(RANKS)]
    assert depth == 4


def test_the_called_twin_refuses_arrays_that_do_not_fit():
    ranked = retrograde.native_kernel().ranked
    with pytest.raises(ValueError, match="wrong size"):       # two row starts for two positions
        ranked(np.zeros(2, np.int32).tobytes(), b"", b"\0\0", b"\0\0", np.zeros(2, np.int32).tobytes(), b"", -1, -1)
    with pytest.raises(ValueError, match="out of range"):     # a predecessor 2 of 2 positions
        ranked(np.array([0, 1, 1], np.int32).tobytes(), np.array([2], np.int32).tobytes(), b"\0\0", b"\0\0",
               np.zeros(2, np.int32).tobytes(), b"", -1, -1)


def test_without_the_kernel_ranks_is_the_numpy_ranker(monkeypatch):
    off, succ, _, attacks, target = arrays(GAME)
    expected, levels = twin(off, succ, None, attacks, target)
    monkeypatch.setenv("GRIDSOLVE_NATIVE", "0")
    start, pred, open_count = predecessors(*successor_moves(off, succ, None), len(attacks))
    calls = []
    monkeypatch.setattr(retrograde, "numpy_ranks", lambda *args: calls.append(args) or numpy_ranker(*args))
    rank, depth = ranks(start, pred, attacks, target, open_count)
    assert len(calls) == 1 and rank.tolist() == expected.tolist() == RANKS and depth == levels


def test_twin_refuses_arrays_that_do_not_fit():
    with pytest.raises(ValueError, match="wrong size"):       # two offsets for two positions
        kernel().ranks(np.zeros(2, np.int32).tobytes(), b"", b"", b"\0\0", b"\0\0", b"", -1, -1)
    with pytest.raises(ValueError, match="out of range"):     # a move to position 2 of 2
        kernel().ranks(np.array([0, 1, 1], np.int32).tobytes(), np.array([2], np.int32).tobytes(), b"", b"\0\0",
                       b"\0\0", b"", -1, -1)


def test_adapters():
    off, succ = listed_moves([[("a", 1), ("b", 2)], [], [("c", 0)]])
    assert off.tolist() == [0, 2, 2, 3] and succ.tolist() == [1, 2, 0]
    # the extra move (a bump) only where the position has moves
    src, dst = successor_moves(off, succ, np.array([2, 0, -1]))
    assert sorted(zip(src.tolist(), dst.tolist())) == [(0, 1), (0, 2), (0, 2), (2, 0)]
    start, pred, open_count = predecessors(src, dst, 3)
    assert start.tolist() == [0, 1, 2, 4] and sorted(pred[2:4].tolist()) == [0, 0] and pred[:2].tolist() == [2, 0]
    assert open_count.tolist() == [3, 0, 1]


# - Both twins against solve.lp's rules on random graphs ---

def declared(succ: list[list[int]], attacks, target, excluded, levels, until) -> tuple[list[int], int]:
    """encodings/solve.lp's won_in/3 with sets: level d ranks an attacker with a successor of
    rank d-1, a defender (with a successor of rank d-1) whose every successor is ranked; excluded
    positions (not targets) never; (ranks, the levels computed) as retrograde.ranks counts them."""
    n = len(succ)
    rank = [0 if target[s] else -1 for s in range(n)]
    depth = 0
    while (levels is None or depth < levels) and (until is None or rank[until] < 0):
        depth += 1
        last = {s for s in range(n) if rank[s] == depth - 1}
        won = [s for s in range(n) if rank[s] < 0 and not excluded[s] and last & set(succ[s])
               and (attacks[s] or all(rank[t] >= 0 for t in succ[s]))]
        if not won:
            break
        for s in won:
            rank[s] = depth
    return rank, depth


def random_graph(rng: random.Random, most: int):
    n = rng.randint(1, most)
    succ = [[rng.randrange(n) for _ in range(rng.choice([0, 1, 1, 2, 2, 3, 5]))] for _ in range(n)]
    extra = [rng.choice([-1, -1, rng.randrange(n)]) for _ in range(n)] if rng.random() < 0.3 else None
    attacks = np.array([rng.random() < rng.choice([0.0, 0.5, 1.0]) for _ in range(n)], dtype=bool)
    target = np.array([rng.random() < 0.15 for _ in range(n)], dtype=bool)
    excluded = np.array([rng.random() < 0.1 for _ in range(n)], dtype=bool) if rng.random() < 0.5 else None
    levels = rng.choice([None, rng.randint(0, 6)])
    until = rng.choice([None, rng.randrange(n)])
    return succ, extra, attacks, target, excluded, levels, until


def check_random(seeds, most: int) -> int:
    ranked = 0
    for seed in seeds:
        rng = random.Random(seed)
        succ, extra, attacks, target, excluded, levels, until = random_graph(rng, most)
        n = len(succ)
        bumps = [[extra[s]] if extra is not None and extra[s] >= 0 and moves else [] for s, moves in enumerate(succ)]
        moves = [moves + bump for moves, bump in zip(succ, bumps)]
        expected = declared(moves, attacks, target, np.zeros(n, bool) if excluded is None else excluded, levels, until)
        off, flat = listed_moves(succ, False)
        for rank_with in (numpy_ranks, twin, called_ranks):
            rank, depth = rank_with(off, flat, extra, attacks, target, levels, excluded, until)
            assert (rank.tolist(), depth) == expected, (seed, rank_with.__name__)
        ranked += sum(r > 0 for r in expected[0])
    return ranked


def test_twins_equal_solve_lp_on_random_graphs():
    assert check_random(range(300), 30) > 300       # (the sample ranks past level 0)


@pytest.mark.slow
def test_twins_equal_solve_lp_on_random_graphs_sweep():
    assert check_random(range(300, 5300), 200) > 5000
