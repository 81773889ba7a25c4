"""The good-level criteria of a single-player game whose other pieces move by rule (an
``after_ply`` script: classic Mummy Maze), measured on the game's per-cell tables.

The tables are the compiled rules' (:class:`~gridsolve.solve.graph.scripted.ScriptTables`, one
clingo ground call per wall-gate-and-mark layout); every placement of the pieces on one layout is
played on them, a whole breadth-first level of positions at once.  With one role and the others
moved by rule the game is deterministic, so a forced win is a path and the fastest one is found
breadth-first.  Definitions (docs/generate.md, "Classic Mummy Maze"):

* a **walk** is a sequence of the role's steps through the walls and the gate as it is at that
  turn, never onto a cell where an end holds for the role alone (a trap); the *walking distance*
  of a cell is the fewest such steps from it to a goal cell (for each state of the gate);
* **the beeline wins** when some sequence of moves, each one step along a walk that lowers the
  walking distance by one (for the gate as it is when the move is made), wins while the others
  move by rule: the role wins by walking the shortest way, the chasers do not matter;
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
from ..analysis.ends import goal_ends
from ..compile.state import layout_for
from ..errors import LimitError
from ..language.model import Board
from ..language.position import initial_position
from ..solve.graph.scripted import ScriptTables

POSITIONS_LIMIT = 2_000_000     # positions one search may visit before it gives up (LimitError)


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


class LevelTables:
    """One layout's tables: placements of the pieces on it are judged without grounding again."""

    def __init__(self, board: Board):
        self.board = board
        self.layout = layout_for(board)
        self.tables = ScriptTables(board, self.layout)
        self.numbering = self.tables.numbering
        rules = board.rules
        self.role = rules.turns[0][0]
        self.mover = self.layout.roles.index(self.role)
        goals = set(goal_ends(board, self.role))
        self.goal_ends = np.array([i for i, end in enumerate(rules.ends) if end.name in goals], dtype=np.int16)
        marks = self.tables.marks
        self.goal_cells = np.zeros(self.numbering.cells + 1, dtype=bool)
        self.deadly = np.zeros(self.numbering.cells + 1, dtype=bool)   # an end holds for the role alone
        for end in rules.ends:
            solo = not end.when.same_cell and all(p == self.role for p, _ in end.when.reaches)
            for _, mark in end.when.reaches:
                if mark in marks and solo:
                    (self.goal_cells if end.name in goals else self.deadly)[:] |= marks[mark]
        self._without_key = None

    # - Positions ---

    def start(self, pieces: dict) -> int:
        """The number of the initial position with ``pieces`` (piece -> cell; others off the board)."""
        args = [0]
        for piece in self.layout.roles:
            args += list(pieces.get(piece, (0, 0)))
        return self.numbering.number(args + ([0] if self.numbering.gate else []))

    def cell(self, x: int, y: int) -> int:
        return (x - 1) * self.board.height + y

    # - Searches ---

    def fastest(self, start: int, without_key: bool = False) -> int | None:
        """The fewest moves of the role to a win from ``start`` (None: none)."""
        return self._search(start, self._keyless() if without_key else self.tables, None)

    def beeline_wins(self, start: int) -> bool:
        """Does walking the shortest way win (module docstring)?"""
        return self._search(start, self.tables, self.walking_distances()) is not None

    def _search(self, start: int, tables: ScriptTables, walking) -> int | None:
        numbering = self.numbering
        seen = np.array([start], dtype=np.int64)
        frontier = seen
        moves = 0
        while frontier.size:
            ends = tables.outcome(frontier)
            if np.isin(ends, self.goal_ends).any():
                return moves
            frontier = frontier[ends < 0]
            src, _, after = tables.plies(frontier)
            if walking is not None:
                before, fields = numbering.fields(src), numbering.fields(after)
                gate = before[-1] if numbering.gate else np.zeros(len(src), dtype=np.int64)
                here, there = walking[gate, before[self.mover]], walking[gate, fields[self.mover]]
                after = after[there == here - 1]
            after = np.unique(after)
            frontier = after[~np.isin(after, seen, assume_unique=True)]
            seen = np.union1d(seen, frontier)
            moves += 1
            if len(seen) > POSITIONS_LIMIT:
                raise LimitError(f"a level's search visited more than {POSITIONS_LIMIT} positions")
        return None

    def _keyless(self) -> ScriptTables:
        """The tables of the same board without its key cells (the gate never moves)."""
        if self._without_key is None:
            self._without_key = copy.copy(self.tables)
            self._without_key.key = np.zeros_like(self.tables.key)
        return self._without_key

    # - Walks ---

    def steps(self, gate_open: bool, avoid: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
        """The role's single steps (from, to) by the tables, through the gate when ``gate_open``,
        never onto an ``avoid`` cell."""
        t = self.tables
        keep = t.move_to != t.move_from
        if not gate_open:
            keep &= ~t.gate_cross[t.move_from, t.move_to]
        if avoid is not None:
            keep &= ~avoid[t.move_to]
        return t.move_from[keep], t.move_to[keep]

    def distances(self, sources: np.ndarray, gate_open: bool, avoid: np.ndarray | None,
                  backward: bool = False) -> np.ndarray:
        """Fewest steps from the ``sources`` cells (a mask) to each cell (``backward``: from each
        cell to them); a large number where none."""
        frm, to = self.steps(gate_open, avoid)
        if backward:
            frm, to = to, frm
        dist = np.full(len(sources), np.iinfo(np.int64).max // 2, dtype=np.int64)
        dist[sources] = 0
        level, d = sources.copy(), 0
        while level.any():
            reached = np.zeros(len(sources), dtype=bool)
            reached[to[level[frm]]] = True
            level = reached & (dist > d + 1)
            d += 1
            dist[level] = d
        return dist

    def walking_distances(self) -> np.ndarray:
        """[gate closed, gate open] walking distances of each cell to a goal cell."""
        return np.stack([self.distances(self.goal_cells, bool(g), self.deadly, backward=True) for g in (0, 1)])

    def traps_tempting(self, origin: tuple) -> bool:
        """Does a trap (a cell where an end holds for the role alone) lie on a shortest walk,
        traps ignored, from ``origin`` to a goal cell (module docstring)?"""
        start = np.zeros(len(self.goal_cells), dtype=bool)
        start[self.cell(*origin)] = True
        for gate_open in (False, True):
            ahead = self.distances(start, gate_open, None)
            behind = self.distances(self.goal_cells, gate_open, None, backward=True)
            length = int(ahead[self.goal_cells].min(initial=np.iinfo(np.int64).max))
            if length < np.iinfo(np.int64).max // 2:
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
