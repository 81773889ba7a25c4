"""The one retrograde ranking of gridsolve: the fewest plies in which the attacking sides force
the game into a target position, the defending sides delaying, as encodings/solve.lp derives it
(``won_in(K,S,D)``, the declared meaning) on any game graph held in arrays.

A game graph is positions 0..n-1 and its moves as arrays (:func:`predecessors` makes them from
the moves' sources and targets):

* ``start``, ``pred``: the predecessors in compressed rows: the positions with a move into ``t``
  are ``pred[start[t]:start[t + 1]]``, once a move (a position with two moves into ``t`` is
  there twice: then ``open_count`` counts both);
* ``attacks[s]``: an attacking side moves at ``s``;
* ``target[s]``: ``s`` is a target (rank 0);
* ``open_count[s]``: the moves of ``s`` (the entries of ``s`` in the rows; not changed here);
* ``excluded[s]`` (optional): ``s`` is never ranked unless it is a target (a position whose game
  has ended without the target: lost for the attackers);
* ``levels``: the last level ranked (None: every level, until one ranks nothing);
* ``until``: a position; the levels stop after the one that ranks it.

Level d ranks each position not ranked yet (nor excluded) with a move into level d-1: at once
where an attacker moves, where a defender moves once its last open move has been ranked.  A
position without moves is never ranked (unless a target): the game stops there without the
target.  :func:`numpy_ranks` is the numpy ranker (a few array operations a level, the frontier's
predecessors gathered at once); ``retrograde.h`` is its C twin, which the C kernels include
(``gridsolve/solve/hidden/knowingkernel.c``, ``gridsolve/generate/layoutkernel.c``,
``gridsolve/solve/graph/scriptkernel.c``).  :func:`ranks` calls the twin of ``scriptkernel``
where it is built (a level costs it a loop over the frontier's predecessors, not a dozen array
operations: a classic level's 30 levels 0.05 ms instead of 1 to 2), else the numpy ranker.
tests/test_retrograde.py pins both on hand-checked graphs and holds the twin equal to the numpy
ranker on random graphs; tests/test_retro.py holds the race solver's ranks equal to solve.lp's.

The callers adapt their graphs to these arrays: the one game graph
(:meth:`~gridsolve.solve.graph.gamegraph.GameGraph.ranks`: the race solver's graph, explain's
wall graph, the studio's live graph, the abstract game without the items, with the robust
search's bump as an extra move, :meth:`~gridsolve.solve.graph.gamegraph.GameGraph.with_extra`),
the robust search's bounds in its kernel and the layout judge (both in C).
"""
from __future__ import annotations


import numpy as np

from ... import native
from .factored import distinct

UNRANKED = -1       # the rank of a position from which the attackers do not force a target within the levels
_EXCLUDED = -2      # (while ranking: an excluded position, never a candidate)


def successor_moves(off: np.ndarray, succ: np.ndarray,
                    extra: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The moves ``s -> succ[off[s]:off[s + 1]]`` of positions 0..len(off)-2 as (sources, targets),
    int32; with ``extra``, one more move ``s -> extra[s]`` where ``extra[s] >= 0`` and ``s`` has moves
    (the robust search's bump beside the role's moves)."""
    n = len(off) - 1
    counts = np.diff(off)
    src = np.repeat(np.arange(n, dtype=np.int32), counts)
    dst = np.asarray(succ, dtype=np.int32)
    if extra is not None:
        more = np.flatnonzero((np.asarray(extra) >= 0) & (counts > 0)).astype(np.int32)
        src, dst = np.concatenate([src, more]), np.concatenate([dst, np.asarray(extra, dtype=np.int32)[more]])
    return src, dst


def predecessors(src: np.ndarray, dst: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The arrays of the graph of positions 0..n-1 with a move ``src[i]`` -> ``dst[i]`` each:
    ``(start, pred, open_count)`` (int64 row starts, the predecessors of the dtype of ``src``, int32 counts)."""
    # (stable: each row in the order of the moves; below 2**16 positions numpy sorts 16-bit keys by radix)
    order = np.argsort(dst.astype(np.uint16) if n <= 1 << 16 else dst, kind="stable")
    pred = src[order]
    start = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(dst, minlength=n), out=start[1:])
    return start, pred, np.bincount(src, minlength=n).astype(np.int32)


def native_kernel():
    """The graph package's C kernel (``scriptkernel``: the scripted search and the ranker's twin),
    None where it was not built or ``GRIDSOLVE_NATIVE=0`` asks for Python (:mod:`gridsolve.native`)."""
    return native.load("scriptkernel", __package__)


def ranks(start: np.ndarray, pred: np.ndarray, attacks: np.ndarray, target: np.ndarray, open_count: np.ndarray,
          levels: int | None = None, excluded: np.ndarray | None = None,
          until: int | None = None) -> tuple[np.ndarray, int]:
    """The rank of every position (int32; :data:`UNRANKED` where the attackers do not force a
    target within ``levels``), and the levels computed: the first that ranked nothing, or the
    last one ranked (``levels``, or the one that ranked ``until``); see the module docstring.
    By the C twin where it is built and the graph's moves fit 32 bits, else by :func:`numpy_ranks`."""
    kernel = native_kernel()
    if kernel is None or len(pred) >= 1 << 31:
        return numpy_ranks(start, pred, attacks, target, open_count, levels, excluded, until)

    def raw(values, dtype) -> bytes:
        return np.ascontiguousarray(values, dtype=dtype).tobytes()
    out, depth = kernel.ranked(raw(start, np.int32), raw(pred, np.int32), raw(attacks, np.bool_), raw(target, np.bool_),
                               raw(open_count, np.int32), b"" if excluded is None else raw(excluded, np.bool_),
                               -1 if levels is None else levels, -1 if until is None else until)
    return np.frombuffer(out, dtype=np.int32).copy(), depth


def numpy_ranks(start: np.ndarray, pred: np.ndarray, attacks: np.ndarray, target: np.ndarray, open_count: np.ndarray,
                levels: int | None = None, excluded: np.ndarray | None = None,
                until: int | None = None) -> tuple[np.ndarray, int]:
    """:func:`ranks` by numpy."""
    n = len(open_count)
    rank = np.full(n, UNRANKED, dtype=np.int32)
    if excluded is not None:
        rank[excluded] = _EXCLUDED
    frontier = np.flatnonzero(target).astype(np.int32)
    rank[frontier] = 0
    every = bool(attacks.all())     # (the attackers move everywhere: every candidate is ranked)
    left = open_count.astype(np.int32)
    depth = 0
    while (levels is None or depth < levels) and (until is None or rank[until] < 0):
        depth += 1
        lo, hi = start[frontier], start[frontier + 1]
        counts = hi - lo
        total = int(counts.sum())
        if total == 0:
            break
        offsets = np.repeat(lo - np.cumsum(counts) + counts, counts) + np.arange(total)
        cand = pred[offsets]
        cand = cand[rank[cand] == UNRANKED]
        if every:
            frontier = distinct(cand)
        else:
            mask = attacks[cand]
            won = distinct(cand[mask])
            defending, hits = np.unique(cand[~mask], return_counts=True)
            left[defending] -= hits.astype(np.int32)
            frontier = np.concatenate([won, defending[left[defending] == 0]])
        if frontier.size == 0:
            break
        rank[frontier] = depth
    if excluded is not None:
        rank[rank == _EXCLUDED] = UNRANKED
    return rank, depth
