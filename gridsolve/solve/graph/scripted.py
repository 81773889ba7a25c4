"""The race solver's game graph of a game with an ``after_ply`` script (pieces moved by rule,
pieces that leave the board, gates and their key: classic Mummy Maze), joined in arrays.

clingo grounds the per-cell tables of the compiled rules (encodings/moves.lp, script.lp): the
role's moves from each cell (``rmove``), the steps that cross a gate (``gate_cross``), where a
chaser's step lands from each cell toward each direction with the gates open or closed
(``chase``), the key cells and the marks.  The positions reachable from the roots are then
found level by level in numpy, every ply of the frontier at once: the role's move, then each
action of the script (:func:`gridsolve.compile.script.board_actions`, the same per-board list the
compiled ``stg`` rules are written from) as array operations, and the ends by their compiled
conditions.  ``tests/test_scripted.py`` checks that the graph, the ends and the named moves are
those clingo grounds from the compiled rules (``stg``/``succ``) on random boards.

A position is numbered by the board's :class:`~gridsolve.solve.graph.codec.PositionCodec`: per
piece its cell (0 off the board, else 1 + (x-1)*H + (y-1), then W*H + 1, ... for the cells just
outside the border's exit edges), then the gate bit, in mixed radix (the side is always 0: one
``turns`` entry); where those numbers do not fit in int64 (many pieces: 20 optional chasers), in
the order they are found instead.
"""
from __future__ import annotations

import time

import clingo
import numpy as np

from ...compile.script import board_actions
from ...compile.state import START, unjudged
from ...errors import EncodingError
from ...language.model import Board
from ..common.limits import LimitGuard
from .codec import PositionCodec, distinct, distinct_pairs
from .factored import raw_numbers
from .scriptsearch import native_search
from .sharedtables import AXES, table_rows
from ...compile.predicates import TABLE_CHASE, TABLE_DISTANCE, TABLE_GATE, TABLE_KEY, TABLE_MARK, TABLE_MOVE


class ScriptTables:
    """The per-cell tables of the compiled rules, by cell number (0: off the board), from one
    ground call or the shared circuit of the board's kind (:mod:`.sharedtables`); and the
    per-board list of script actions."""

    def __init__(self, board: Board, layout, guard: LimitGuard | None = None):
        started = time.perf_counter()
        self.board, self.layout = board, layout
        rules = board.rules
        self.numbering = numbering = PositionCodec(board, layout)
        if [f.name for f in numbering.numbered] != [*layout.roles, *(["G"] if layout.gate else [])]:
            raise EncodingError("the scripted graph numbers the pieces' cells and the gate only (an encoding bug)")
        self.role = rules.turns[0][0]
        by_arity = table_rows(board, layout, guard)
        size = numbering.cells + 1

        def cells(columns: np.ndarray) -> np.ndarray:       # (x, y) column pairs -> cell numbers
            return numbering.cell_numbers(columns[:, 0::2], columns[:, 1::2])

        def table(arity: int) -> np.ndarray:
            return by_arity.get(arity, np.zeros((0, arity), dtype=np.uint64))
        moves, crossings, chases, keys = (table(p.arity) for p in (TABLE_MOVE, TABLE_GATE, TABLE_CHASE, TABLE_KEY))
        numbers = raw_numbers(moves[:, 1:]) if len(moves) else np.zeros((0, 6), dtype=np.int64)
        where = cells(numbers)
        order = np.lexsort((moves[:, 0], where[:, 0]))
        self.move_from, self.move_aim, self.move_to = where[order, 0], where[order, 1], where[order, 2]
        self.move_name = moves[order, 0]
        self.gate_cross = np.zeros((size, size), dtype=bool)
        if len(crossings):
            ends = cells(raw_numbers(crossings))
            self.gate_cross[ends[:, 0], ends[:, 1]] = True
        self.chase = np.zeros((2, size, 3, 3, 2), dtype=np.int64)
        if len(chases):
            c = raw_numbers(chases)
            self.chase[c[:, 0], cells(c[:, 1:3])[:, 0], c[:, 3] + 1, c[:, 4] + 1, c[:, 5]] = cells(c[:, 6:8])[:, 0]
        self.key = np.zeros(size, dtype=bool)
        if len(keys):
            self.key[cells(raw_numbers(keys))[:, 0]] = True
        self.marks: dict[str, np.ndarray] = {}
        marked = table(TABLE_MARK.arity)
        for mark in board.marks:
            rows = marked[marked[:, 0] == np.uint64(clingo.Function(mark)._rep)]
            self.marks[mark] = np.zeros(size, dtype=bool)
            if len(rows):
                self.marks[mark][cells(raw_numbers(rows[:, 1:]))[:, 0]] = True
        self.distance: dict[tuple[str, str], np.ndarray] = {}     # (piece, mark): per cell, -1 where none
        distances = table(TABLE_DISTANCE.arity)
        for piece, other, mark in [n for end in rules.ends for n in end.when.nearer]:
            for name in (piece, other):
                rows = distances[(distances[:, 0] == np.uint64(clingo.Function(name)._rep))
                                 & (distances[:, 1] == np.uint64(clingo.Function(mark)._rep))]
                self.distance[(name, mark)] = found = np.full(size, -1, dtype=np.int64)
                if len(rows):
                    numbers = raw_numbers(rows[:, 2:])
                    found[cells(numbers[:, :2])[:, 0]] = numbers[:, 2]
        self.move_start = np.searchsorted(self.move_from, np.arange(size + 1))
        self.actions = board_actions(board)
        self.index = {p: i for i, p in enumerate(layout.roles)}
        self.end_names = [end.name for end in rules.ends]
        self.ground_s = time.perf_counter() - started
        self.x, self.y = numbering.cell_xy(np.arange(size))

    # - Ends ---

    def outcome(self, keys: np.ndarray) -> np.ndarray:
        """The end that decides each position (index into ``end_names``; -1: none), by the
        compiled end conditions: pieces on one cell of the board (pieces off the board meet
        nowhere), a mark on the cell, a piece nearer to a mark than another (by the compiled
        ``distance`` facts)."""
        fields = self.numbering.fields(keys)
        out = np.full(len(keys), -1, dtype=np.int16)
        roles = set(self.board.rules.roles)
        for number, end in enumerate(self.board.rules.ends):
            holds = np.ones(len(keys), dtype=bool)
            for group in end.when.same_cell:
                if not set(group) & roles:      # (a role is always on the board)
                    holds &= fields[self.index[group[0]]] != 0
                for other in group[1:]:
                    holds &= fields[self.index[group[0]]] == fields[self.index[other]]
            for piece, mark in end.when.reaches:
                marked = self.marks.get(mark)
                holds &= marked[fields[self.index[piece]]] if marked is not None else False
            for piece, other, mark in end.when.nearer:
                mine = self.distance[(piece, mark)][fields[self.index[piece]]]
                theirs = self.distance[(other, mark)][fields[self.index[other]]]
                holds &= (mine >= 0) & (theirs >= 0) & (mine < theirs)
            out[(out < 0) & holds] = number
        return out

    # - One ply, every row at once ---

    def plies(self, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(row's position, raw move symbol, position after it) of every move of every position
        in ``keys`` (positions where no end holds)."""
        numbering, index = self.numbering, self.index
        fields = numbering.fields(keys)
        mover = index[self.role]
        here = fields[mover]
        counts = self.move_start[here + 1] - self.move_start[here]
        rows = np.repeat(np.arange(len(keys)), counts)
        offsets = np.arange(len(rows)) - np.repeat(np.cumsum(counts) - counts, counts)
        move = self.move_start[here[rows]] + offsets
        cells = [f[rows].copy() for f in fields[:numbering.pieces]]
        gate = fields[-1][rows].copy() if numbering.gate else np.zeros(len(rows), dtype=np.int64)
        keep = np.ones(len(rows), dtype=bool)
        rule = self.board.rules.moves[self.role]
        for piece in rule.may_not_end_on:
            keep &= self.move_aim[move] != cells[index[piece]]
        # a closed gate is judged on the cell the step aims at (a pair's near cell, not where it lands)
        crosses = (gate == 0) & self.gate_cross[cells[mover], self.move_aim[move]]
        if rule.blocked == "illegal":      # a step into a closed gate is illegal, as one into a wall
            keep &= ~crosses
        rows, move, gate, blocked = rows[keep], move[keep], gate[keep], crosses[keep]
        cells = [c[keep] for c in cells]
        start = [c.copy() for c in cells]
        cells[mover] = np.where(blocked, cells[mover], self.move_to[move])
        after = self._script(cells, start, gate.copy(), gate)
        return keys[rows], self.move_name[move], after

    def _script(self, cells, start, gate, start_gate) -> np.ndarray:
        """The script's actions over every row; the numbers of the positions after the ply."""
        rules, index = self.board.rules, self.index
        n = len(gate)
        alive = {p: cells[index[p]] != 0 for p in rules.chasers}
        used = np.zeros(n, dtype=bool)
        going = np.ones(n, dtype=bool)          # no stop has ended the ply
        everywhere = np.ones(n, dtype=bool)
        # per piece: it has just entered its cell (by the role's move or its latest step) and has
        # not flipped the gates for that entry (a key that every entry flips)
        entered = {p: cells[i] != start[i] for p, i in index.items()}

        def on(piece):
            return alive.get(piece, everywhere)
        for action in self.actions:
            if action.kind == "key" and action.each:
                i = index[action.pieces[0]]
                hit = going & on(action.pieces[0]) & entered[action.pieces[0]] & self.key[cells[i]]
                gate = np.where(hit, 1 - gate, gate)
                entered[action.pieces[0]] = entered[action.pieces[0]] & ~hit
            elif action.kind == "key":
                open_ = going & ~used
                for piece in action.pieces:
                    i = index[piece]
                    hit = open_ & on(piece) & self.key[cells[i]] & (cells[i] != start[i])
                    gate = np.where(hit, 1 - start_gate, gate)
                    if piece in action.uses:
                        used |= hit
                    open_ &= ~hit
            elif action.kind == "stop":
                holds = going.copy()
                for group in action.when.same_cell:
                    for piece in group:
                        holds &= on(piece)
                    for other in group[1:]:
                        holds &= cells[index[group[0]]] == cells[index[other]]
                for piece, mark in action.when.reaches:
                    marked = self.marks.get(mark)
                    holds &= on(piece) & (marked[cells[index[piece]]] if marked is not None else False)
                going &= ~holds
            elif action.kind == "step":
                piece = action.pieces[0]
                chaser = rules.chasers[piece]
                i, t = index[piece], index[chaser.target]
                sx = np.sign(self.x[cells[t]] - self.x[cells[i]]) + 1
                sy = np.sign(self.y[cells[t]] - self.y[cells[i]]) + 1
                moving = going & alive[piece]
                went = np.where(moving, self.chase[AXES[chaser.first], cells[i], sx, sy, gate], cells[i])
                entered[piece] = np.where(moving, went != cells[i], entered[piece])
                cells[i] = went
            else:   # remove
                remover, piece = action.pieces[0], action.piece
                met = going & on(remover) & (cells[index[remover]] == cells[index[piece]])
                alive[piece] = alive[piece] & ~met
                if action.flips:
                    flip = met & self.key[cells[index[piece]]]
                    gate = np.where(flip, 1 - gate, gate)
        fields = [cells[i] if piece not in alive else np.where(alive[piece], cells[i], 0) for piece, i in index.items()]
        return self.numbering.keys(fields + ([gate] if self.numbering.gate else []))


class ScriptedGraph:
    """The positions reachable from ``roots`` (position terms as text) and their distinct
    successors, as :class:`~gridsolve.solve.graph.factored.FactoredGraph` gives them: ``keys``
    (sorted numbers), ``outcome``, ``src``/``dst`` (indexes into ``keys``)."""

    def __init__(self, tables: ScriptTables, roots: list[str], guard: LimitGuard):
        numbering = tables.numbering
        self.numbering, self.ends = numbering, tables.end_names
        start = distinct(numbering.numbers(numbering.rows_of_texts(roots)))
        joined = native_search(tables, start, guard, joined=True)
        if joined is not None:      # (joined in C: the positions sorted, their ends, the moves as indexes)
            seen, self.outcome, self.src, self.dst = joined
            # (the successors turned into predecessors: about 40 bytes a move)
            guard.after(f"after finding {len(seen):,} positions and {len(self.src):,} moves",
                        40 * len(self.src) + 24 * len(seen))
        else:
            seen, sources, targets = frontier_search(tables, start, guard)
            edges = sum(len(s) for s in sources)
            # (the successors joined, numbered and then turned into predecessors: about 40 bytes a move)
            guard.after(f"after finding {len(seen):,} positions and {edges:,} moves", 40 * edges + 24 * len(seen))
            self.outcome = tables.outcome(seen)
            self.src = _indexes(seen, sources)
            self.dst = _indexes(seen, targets)
        self.keys = seen
        self.turn = np.zeros(len(seen), dtype=np.int32)


def _indexes(seen: np.ndarray, parts: list) -> np.ndarray:
    """The indexes into ``seen`` of the positions of ``parts`` (arrays, one after another), int32;
    ``parts`` is emptied on the way (its arrays let go before the next list is read: the lists
    are the largest arrays of a search)."""
    if not parts:
        return np.zeros(0, dtype=np.int32)
    joined = parts[0] if len(parts) == 1 else np.concatenate(parts)
    parts.clear()
    return np.searchsorted(seen, joined).astype(np.int32)


def frontier_search(tables: ScriptTables, start: np.ndarray, guard: LimitGuard) -> tuple:
    """(positions found, sorted; sources and targets of every distinct move of the positions where
    no end holds, a pair of arrays a level) from ``start`` (sorted, distinct), level by level in
    numpy (:func:`.scriptsearch.native_search` is its twin in C)."""
    numbering = tables.numbering
    seen = start
    frontier = start
    sources, targets = [], []
    most = int(np.diff(tables.move_start).max(initial=0))      # moves from a cell, at most
    row_bytes = 8 * (4 * len(numbering.fields(start)) + 12)      # a move's arrays while one ply is played
    while frontier.size:
        frontier = frontier[tables.outcome(frontier) < 0]
        # (before the ply's arrays are made: what they need, with the positions found so far)
        guard.after(f"while finding the game's positions ({len(seen):,} found)",
                    len(frontier) * most * row_bytes)
        src, _, dst = tables.plies(frontier)
        src, dst = distinct_pairs(src, dst, numbering.size)
        sources.append(src)
        targets.append(dst)
        fresh = distinct(dst)
        fresh = fresh[~_member(fresh, seen)]
        seen = np.sort(np.concatenate([seen, fresh]))
        frontier = fresh
    return seen, sources, targets


def _member(values: np.ndarray, sorted_set: np.ndarray) -> np.ndarray:
    if not sorted_set.size:
        return np.zeros(len(values), dtype=bool)
    at = np.minimum(np.searchsorted(sorted_set, values), len(sorted_set) - 1)
    return sorted_set[at] == values


class ScriptedMoves:
    """What :class:`~gridsolve.solve.graph.racegraph.NamedMoves` answers (the named moves and the end of a
    position, by position term) from the tables: no ground call."""

    def __init__(self, tables: ScriptTables):
        self.tables, self.numbering = tables, tables.numbering
        self._named: dict[clingo.Symbol, list] = {}

    def fetch(self, states) -> None:
        """(Nothing to ground: the moves are known.)"""

    def _number(self, state: clingo.Symbol) -> int:
        key = self.numbering.key_of(unjudged(state), add=True)
        if key < 0:
            raise EncodingError(f"{state} is not a position of this game")
        return key

    def end(self, state: clingo.Symbol) -> str | None:
        found = int(self.tables.outcome(np.array([self._number(state)], dtype=np.int64))[0])
        return self.tables.end_names[found] if found >= 0 and state.name != START else None

    def moves(self, state: clingo.Symbol) -> list[tuple[clingo.Symbol, clingo.Symbol]]:
        found = self._named.get(state)
        if found is None:
            key = np.array([self._number(state)], dtype=np.int64)
            found = []
            if self.tables.outcome(key)[0] < 0 or state.name == START:     # (start(S): the moves of S)
                _, names, after = self.tables.plies(key)
                found = [(clingo.symbol.Symbol(int(m)), self.numbering.symbol(int(a)))
                         for m, a in zip(names.tolist(), after.tolist())]
            self._named[state] = found
        return found
