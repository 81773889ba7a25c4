"""Every start of a layout judged: its rank and, for a band of ranks, its beeline.

What :class:`gridsolve.generate.startgraph.StartGraph` (the game graph ground by clingo) and
:class:`gridsolve.generate.layoutjudge.LayoutJudge` (in C) both give the search, as arrays
over the placements of the pieces.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..language.kinds import RequireKind
from .genspec import Requirement


@dataclass(frozen=True)
class StartVerdict:
    """One start of a layout: where the pieces stand, the rank of its race (plies), the
    shortest paths of the role to its goal (others frozen; at most PATH_LIMIT counted) and how
    many of them win against every reply (0: walking the shortest way does not win, the start
    is not trivial)."""

    placed: tuple             # cells in role order
    rank: int
    paths: int
    winning: int

    @property
    def trivial(self) -> bool:
        return self.winning > 0

    @property
    def winning_share(self) -> float:
        return self.winning / self.paths if self.paths else 0.0



class Survey:
    """The starts of a band played out: for each (in the placements' order) its rank, its
    shortest paths (capped at PATH_LIMIT) and how many of them win against every reply."""

    def __init__(self, placements: list, chosen: np.ndarray, rank: np.ndarray, paths: np.ndarray,
                 winning: np.ndarray):
        self.placements, self.chosen, self.rank, self.paths, self.winning = placements, chosen, rank, paths, winning

    @classmethod
    def of(cls, verdicts: list, placements: list | None = None) -> "Survey":
        """The survey of these :class:`StartVerdict` (``placements``: every placement of the
        layout, in order; by default the verdicts' own)."""
        placements = [v.placed for v in verdicts] if placements is None else placements
        index = {placed: k for k, placed in enumerate(placements)}
        return cls(placements, np.array([index[v.placed] for v in verdicts], dtype=np.int64),
                   *(np.array([getattr(v, f) for v in verdicts], dtype=np.int32) for f in ("rank", "paths", "winning")))

    def __len__(self) -> int:
        return len(self.chosen)

    def __iter__(self):
        for k, rank, paths, winning in zip(self.chosen.tolist(), self.rank.tolist(), self.paths.tolist(),
                                           self.winning.tolist()):
            yield StartVerdict(self.placements[k], rank, paths, winning)

    @property
    def trivial(self) -> np.ndarray:
        return self.winning > 0


class JudgedStarts:
    """Every start of a layout: its rank (-1: the race is not forced) and, where asked, the
    band's :class:`Survey`."""

    def __init__(self, placements: list, roles: list, ranks: np.ndarray, survey: Survey | None):
        self.placements, self.roles, self.ranks, self.survey = placements, roles, ranks, survey

    def key(self, k: int) -> tuple:
        """Placement ``k`` as ``Layout.pieces`` writes it."""
        return tuple(sorted(zip(self.roles, self.placements[k])))

    def within(self, req: Requirement, left: int) -> np.ndarray:
        """The rank of each start for ``req`` (-1: not counted): for ``win`` and ``lose`` the
        plies the race is forced in, up to the band's top; for ``survive`` 0 for every start
        from which the role avoids the others' end within ``left`` plies."""
        if req.kind == RequireKind.SURVIVE:
            return np.where((self.ranks < 0) | (self.ranks > left), 0, -1).astype(np.int32)
        return np.where(self.ranks <= req.plies[1], self.ranks, -1)

    def start_ranks(self) -> dict:
        """Placement (as ``Layout.pieces``) -> rank, for the starts whose race is forced."""
        return {self.key(k): int(self.ranks[k]) for k in np.flatnonzero(self.ranks >= 0).tolist()}
