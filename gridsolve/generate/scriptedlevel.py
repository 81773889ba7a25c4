"""The good-level criteria of a single-player game whose other pieces move by rule (an
``after_ply`` script: classic Mummy Maze), measured on the game's per-cell tables.

The tables and the walks (the walking distance, the beeline) are
:class:`~gridsolve.analysis.walks.Walks`, shared with ``gridsolve verify``'s ``no_beeline``;
every placement of the pieces on one layout is played on them.  Definitions (docs/generate.md,
"Classic Mummy Maze"; a *walk* and *the beeline wins*: gridsolve/analysis/walks.py):

* **the key is needed** when the level cannot be won with the key removed (the gate then stays
  closed for good);
* **a trap is tempting** when it lies on a shortest walk from the role's start to a goal cell
  that ignores the traps (through the gate closed, or open if no walk reaches a goal with it
  closed): walking the shortest way without looking steps on it.  A level with traps must have
  a tempting one.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass

import numpy as np

from ..language import wording
from ..analysis.walks import FAR, Walks
from ..language.model import Board
from ..language.position import initial_position
from ..solve.graph.scripted import ScriptTables


@dataclass(frozen=True)
class LevelVerdict:
    """What the criteria measured of one placement: None where not measured."""

    win_moves: int | None             # the fastest win in the role's moves (None: cannot be won)
    beeline_wins: bool | None = None
    key_needed: bool | None = None    # None: no gate
    traps_tempting: bool | None = None    # None: no trap
    passed: int = 0                   # criteria met, in the order traps, beeline, key, before the first failed

    def met(self, trivial_ok: bool = False) -> int:
        """How many of the criteria beyond the win it meets in that order before one fails (0 to 3)."""
        return self.passed

    def failed(self, trivial_ok: bool = False) -> str | None:
        """The first criterion this level fails, in words, or None."""
        if self.win_moves is None:
            return "cannot be won"
        if self.beeline_wins and not trivial_ok:
            return "walking the shortest way wins"
        if self.key_needed is False:
            return "the level can be won without the key"
        if self.traps_tempting is False:
            return "no trap lies on a shortest walk"
        return None


def criteria_text(verdict: LevelVerdict, trivial_ok: bool) -> str:
    """The criteria a level meets, in words (its header)."""
    parts = [f"won in {wording.moves(verdict.win_moves)}"]
    if not trivial_ok:
        parts.append("walking the shortest way loses")
    if verdict.key_needed:
        parts.append("the key is needed (without it the level cannot be won)")
    if verdict.traps_tempting:
        parts.append("a trap lies on a shortest walk to the exit")
    return "; ".join(parts)


class LevelTables(Walks):
    """One layout's tables (:class:`~gridsolve.analysis.walks.Walks`): placements of the pieces
    on it are judged without grounding again."""

    def __init__(self, board: Board):
        super().__init__(board)
        self._without_key = None

    def fastest(self, start: int, without_key: bool = False) -> int | None:
        """The fewest moves of the role to a win from ``start`` (None: none)."""
        return self.search(start, self._keyless() if without_key else self.tables, None)

    def _keyless(self) -> ScriptTables:
        """The tables of the same board without its key cells (the gate never moves)."""
        if self._without_key is None:
            self._without_key = copy.copy(self.tables)
            self._without_key.key = np.zeros_like(self.tables.key)
        return self._without_key

    def traps_tempting(self, origin: tuple) -> bool:
        """Does a trap (a cell where an end holds for the role alone) lie on a shortest walk,
        traps ignored, from ``origin`` to a goal cell (module docstring)?"""
        start = np.zeros(len(self.goal_cells), dtype=bool)
        start[self.cell(*origin)] = True
        for gate_open in (False, True):
            ahead = self.distances(start, gate_open, None)
            behind = self.distances(self.goal_cells, gate_open, None, backward=True)
            length = int(ahead[self.goal_cells].min(initial=FAR))
            if length < FAR:
                on_way = (ahead + behind) == length
                return bool(on_way[self.deadly].any())
        return False

    # - Every criterion ---

    def judge(self, pieces: dict, gated: bool, trapped: bool, trivial_ok: bool = False,
              every: bool = True) -> LevelVerdict:
        """The criteria of the placement ``pieces`` (only the win where it cannot be won), the
        cheapest first: a tempting trap, the beeline, the key; unless ``every``, none after the
        first that fails."""
        start = self.start(pieces)
        moves = self.fastest(start)
        if moves is None:
            return LevelVerdict(None)
        found: dict = {}
        passed, failing = 0, False
        for name, applies, measure, good in (
                ("traps_tempting", trapped, lambda: self.traps_tempting(pieces[self.role]), True),
                ("beeline_wins", not trivial_ok, lambda: self.beeline_wins(start), False),
                ("key_needed", gated, lambda: self.fastest(start, without_key=True) is None, True)):
            if not applies:
                passed += not failing
                continue
            if failing and not every:
                break
            found[name] = measure()
            failing = failing or found[name] != good
            passed += not failing
        return LevelVerdict(moves, passed=passed, **found)


def judge_board(board: Board, trivial_ok: bool = False) -> LevelVerdict:
    """Every criterion of ``board`` from its initial position (a new grounding of its tables)."""
    tables = LevelTables(board)
    pieces = dict(initial_position(board).pieces)
    pieces = {p: c for p, c in pieces.items() if c != (0, 0)}
    return tables.judge(pieces, board.has_gates and bool(board.marks.get(board.rules.gate_key or "", ())),
                        bool(tables.deadly.any()), trivial_ok)
