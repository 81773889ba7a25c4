"""``gridsolve verify --shard K/N``: the K-th of N disjoint parts of the boards, for a CI matrix.

The boards are ordered by a hash (SHA-256) of their path relative to the folder given on the
command line (a board given as a file: its file name), so the order is the same on every
machine, in every checkout and whatever order the file system lists; part K takes the K-th
of N contiguous slices of that order, as ``jest --shard`` does.  The parts are disjoint and
together hold every board; their sizes differ by at most one board; adding or removing a
board moves at most one board across each slice boundary.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import QueryError

_SHARD = re.compile(r"^\s*(\d+)\s*/\s*(\d+)\s*$")


@dataclass(frozen=True)
class Shard:
    index: int          # K, from 1
    count: int          # N

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"


def parse_shard(text: str | None) -> Shard | None:
    """``K/N`` with 1 <= K <= N; None: no sharding."""
    if text is None:
        return None
    match = _SHARD.match(text)
    if not match:
        raise QueryError(f"--shard {text}: expected K/N, the K-th of N parts", "e.g. --shard 1/3 ... --shard 3/3")
    index, count = int(match.group(1)), int(match.group(2))
    if count < 1 or not 1 <= index <= count:
        raise QueryError(f"--shard {text}: K must be from 1 to N (and N at least 1)",
                         f"the parts of {max(count, 1)} are --shard 1/{max(count, 1)} to "
                         f"{max(count, 1)}/{max(count, 1)}")
    return Shard(index, count)


def shard_key(board: Path, paths) -> str:
    """The board's path relative to the first folder of ``paths`` that holds it (else its
    file name), as a POSIX path: the same on every machine."""
    resolved = board.resolve()
    for given in map(Path, paths):
        if given.is_dir():
            try:
                return resolved.relative_to(given.resolve()).as_posix()
            except ValueError:
                continue
    return board.name


def select(boards: list[Path], paths, shard: Shard | None) -> list[Path]:
    """The boards of part ``shard`` (all of them for None), in the order they were found."""
    if shard is None:
        return boards
    order = sorted(boards, key=lambda b: (hashlib.sha256(shard_key(b, paths).encode()).hexdigest(), str(b)))
    total = len(order)
    start, stop = (shard.index - 1) * total // shard.count, shard.index * total // shard.count
    chosen = set(order[start:stop])
    return [board for board in boards if board in chosen]
