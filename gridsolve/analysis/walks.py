"""The role's walks in a single-player game whose other pieces move by rule (an ``after_ply``
script: classic Mummy Maze), on the game's per-cell tables: the walking distances, the
``no_beeline`` check of these games and the careful greedy player's distance.

The tables are the compiled rules' (:class:`~gridsolve.solve.graph.scripted.ScriptTables`, one
clingo ground call per wall-gate-and-mark layout, or those a race graph has already ground).
With one role and the others moved by rule the game is deterministic: a forced win is a path,
and the fastest one is found breadth-first, a whole level of positions at once.  Definitions
(docs/generate.md, "Classic Mummy Maze"; docs/verify.md, ``no_beeline``):

* a **walk** is a sequence of the role's steps through the walls and the gate as it is at that
  turn, never onto a cell where an end holds for the role alone (a trap); the *walking distance*
  of a cell is the fewest such steps from it to a goal cell (for each state of the gate);
* **the beeline wins** when some sequence of moves, each one step along a walk that lowers the
  walking distance by one (for the gate as it is when the move is made), wins while the others
  move by rule (within the plies left): the role wins by walking the shortest way, the chasers
  do not matter.  ``no_beeline`` holds when it does not;
* the **greedy distance** of a cell and gate state is the fewest steps of a walk from there to a
  goal cell where each step onto a key cell flips the gate (as the role's own entering of the
  key does): the careful greedy player's measure of "nearer the exit" (gridsolve/analysis/metrics.py),
  which goes round the traps, waits for no gate and goes for the key when the gate blocks.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import numpy as np

from ..compile.state import layout_for
from ..errors import LimitError
from ..language.model import Board
from ..language.position import Position
from ..solve.graph.scripted import ScriptTables
from .ends import goal_ends

POSITIONS_LIMIT = 2_000_000     # positions one search may visit before it gives up (LimitError)
FAR = np.iinfo(np.int64).max // 2     # the distance of a cell from which no walk reaches the goal


class Walks:
    """One layout's tables and the role's walks on them: placements of the pieces on the layout
    are searched without grounding again."""

    def __init__(self, board: Board, tables: ScriptTables | None = None):
        self.board = board
        self.layout = layout_for(board)
        self.tables = tables if tables is not None else ScriptTables(board, self.layout)
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

    # - Positions ---

    def start(self, pieces: dict) -> int:
        """The number of the initial position with ``pieces`` (piece -> cell; others off the board)."""
        args = [0]
        for piece in self.layout.roles:
            args += list(pieces.get(piece, (0, 0)))
        return self.numbering.number(args + ([0] if self.numbering.gate else []))

    def number(self, position: Position) -> int:
        """The number of ``position`` (its gate state included)."""
        return self.numbering.key(position, add=True)

    def cell(self, x: int, y: int) -> int:
        return (x - 1) * self.board.height + y

    # - Searches ---

    def search(self, start: int, tables: ScriptTables, walking: np.ndarray | None) -> int | None:
        """The fewest moves of the role from ``start`` to a win under ``tables`` (None: none);
        with ``walking`` (:meth:`walking_distances`) only the moves that lower it by one."""
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

    def beeline_wins(self, start: int, remaining: int | None = None) -> bool:
        """Does walking the shortest way win from ``start`` (within ``remaining`` plies; None:
        no limit)?  (The module docstring.)"""
        moves = self.search(start, self.tables, self.walking_distances())
        return moves is not None and (remaining is None or moves <= remaining)

    # - Walks ---

    def steps(self, gate_open: bool, avoid: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
        """The role's single steps (from, to) by the tables, through the gate when ``gate_open``,
        never onto an ``avoid`` cell."""
        t = self.tables
        keep = t.move_to != t.move_from
        if not gate_open:
            keep &= ~t.gate_cross[t.move_from, t.move_aim]
        if avoid is not None:
            keep &= ~avoid[t.move_to]
        return t.move_from[keep], t.move_to[keep]

    def distances(self, sources: np.ndarray, gate_open: bool, avoid: np.ndarray | None,
                  backward: bool = False) -> np.ndarray:
        """Fewest steps from the ``sources`` cells (a mask) to each cell (``backward``: from each
        cell to them); FAR where none."""
        frm, to = self.steps(gate_open, avoid)
        if backward:
            frm, to = to, frm
        dist = np.full(len(sources), FAR, dtype=np.int64)
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

    def greedy_distances(self) -> np.ndarray:
        """[gate closed, gate open] greedy distances of each cell to a goal cell (the module
        docstring: a walk on which each step onto a key cell flips the gate); FAR where none."""
        key = self.tables.key
        into: dict = {}          # (cell, gate) after a step -> the (cell, gate) states it comes from
        for gate in (0, 1):
            for frm, to in zip(*(a.tolist() for a in self.steps(bool(gate), self.deadly))):
                into.setdefault((to, gate ^ int(key[to])), []).append((frm, gate))
        dist = np.full((2, len(self.goal_cells)), FAR, dtype=np.int64)
        queue = deque()
        for cell in np.flatnonzero(self.goal_cells).tolist():
            for gate in (0, 1):
                dist[gate, cell] = 0
                queue.append((cell, gate))
        while queue:
            cell, gate = queue.popleft()
            for before, was in into.get((cell, gate), ()):
                if dist[was, before] == FAR:
                    dist[was, before] = dist[gate, cell] + 1
                    queue.append((before, was))
        return dist

    def position_greedy_distances(self, keys: np.ndarray) -> np.ndarray:
        """The greedy distance of each position (by number) in ``keys``: its role's cell with its
        gate state; inf where no walk reaches a goal cell."""
        fields = self.numbering.fields(keys)
        gate = fields[-1] if self.numbering.gate else np.zeros(len(keys), dtype=np.int64)
        found = self.greedy_distances()[gate, fields[self.mover]].astype(float)
        return np.where(found >= FAR, np.inf, found)


@dataclass(frozen=True)
class ScriptedBeeline:
    """``no_beeline`` of a game moved by rule (:meth:`Walks.beeline_wins`)."""

    holds: bool                  # walking the shortest way does not win
    length: int | None           # the walking distance from the start (None: no walk reaches the goal)

    def describe(self, role: str) -> str:
        if self.length is None:
            return f"no walk of {role} reaches its goal (the traps avoided, the gate as it stands)"
        verb = "does not win" if self.holds else "wins"
        return f"walking the shortest way ({self.length} steps for {role}) {verb} while the others move by rule"


def scripted_beeline(board: Board, role: str, position: Position, remaining: int | None,
                     tables: ScriptTables | None = None) -> ScriptedBeeline:
    """``no_beeline`` of ``role`` from ``position`` in a game moved by rule (``tables``: the
    board's, where a race graph has ground them)."""
    walks = Walks(board, tables)
    start = walks.number(position)
    gate = walks.numbering.fields(np.array([start]))[-1][0] if walks.numbering.gate else 0
    length = int(walks.walking_distances()[gate, walks.cell(*dict(position.pieces)[role])])
    return ScriptedBeeline(not walks.beeline_wins(start, remaining), None if length >= FAR else length)
