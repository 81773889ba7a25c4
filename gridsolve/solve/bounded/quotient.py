"""Positions of a game graph that no race can tell apart: the coarsest bisimulation.

Two positions are *bisimilar* when they carry the same label and every move of one is matched
by a move of the other to a bisimilar position.  Every race the bounded solver runs
(:mod:`gridsolve.solve.bounded.search`) reads a position only through its label (the side to move, the
score and kind of the end that holds, the timeout entry, the collectors' cells, whether a move
is left) and its successors, so bisimilar positions have the same answer for every threshold,
items left and plies: its transposition tables may key positions by class, and the moves of a
position that lead into one class need to be searched once.

On Pacman a ghost shut in a room of its own never meets pacman: the positions that differ only
in where it stands are bisimilar, and so are those that swap the two ghosts (for pacman's score,
blinky's capture and inky's are the same end).

The classes are refined from the labels by hashing each position's set of successor classes
(random 64-bit weights, summed), until their number stops growing; the result is then checked
exactly (every member of a class has the class's whole set of successor classes), and refined
further with fresh weights in the (unlikely) case that a hash collision merged two positions.
"""
from __future__ import annotations

import numpy as np

from ..graph.factored import distinct


def _relabel(*columns: np.ndarray) -> np.ndarray:
    """Dense class numbers (0..k-1) of the rows of ``columns``, equal rows alike."""
    order = np.lexsort(columns[::-1])
    change = np.zeros(len(order), dtype=bool)
    if len(order):
        change[0] = True
        for column in columns:
            ordered = column[order]
            change[1:] |= ordered[1:] != ordered[:-1]
    out = np.empty(len(order), dtype=np.int64)
    out[order] = np.cumsum(change) - 1
    return out


def _stable(classes: np.ndarray, src: np.ndarray, dst: np.ndarray) -> bool:
    """Whether every position has all the successor classes of its class (then the classes are
    a bisimulation: a member's successor classes are a subset of its class's)."""
    k = int(classes.max()) + 1 if len(classes) else 0
    mine = distinct(src * k + classes[dst]) // k
    theirs = distinct(classes[src] * k + classes[dst]) // k
    per_position = np.bincount(mine, minlength=len(classes))
    per_class = np.bincount(theirs, minlength=k)
    return bool(np.array_equal(per_position, per_class[classes]))


def bisimulation(labels: list, successors: list[list[int]], seed: int = 0) -> np.ndarray:
    """The class of each position (0..k-1) under the coarsest bisimulation of the graph whose
    position i has label ``labels[i]`` (hashable) and moves to ``successors[i]``."""
    n = len(labels)
    names: dict = {}
    classes = np.fromiter((names.setdefault(label, len(names)) for label in labels), dtype=np.int64, count=n)
    counts = np.fromiter((len(s) for s in successors), dtype=np.int64, count=n)
    src = np.repeat(np.arange(n, dtype=np.int64), counts)
    dst = np.fromiter((j for s in successors for j in s), dtype=np.int64, count=int(counts.sum()))
    rng = np.random.default_rng(seed)
    while True:
        k = int(classes.max()) + 1 if n else 0
        weights = rng.integers(0, np.iinfo(np.int64).max, size=k, dtype=np.int64).astype(np.uint64)
        pairs = distinct(src * k + classes[dst])
        signature = np.zeros(n, dtype=np.uint64)
        np.add.at(signature, pairs // k, weights[pairs % k])
        refined = _relabel(classes, signature)
        if int(refined.max(initial=-1)) + 1 == k and _stable(classes, src, dst):
            return classes
        classes = refined


def representatives(classes: np.ndarray) -> list[int]:
    """The least position of each position's class, by position."""
    first = np.full(int(classes.max(initial=-1)) + 1, len(classes), dtype=np.int64)
    np.minimum.at(first, classes, np.arange(len(classes), dtype=np.int64))
    return first[classes].tolist()
