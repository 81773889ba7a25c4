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

A position is numbered by its fields in mixed radix: per piece its cell (0 off the board, else
1 + (x-1)*H + (y-1)), then the gate bit; the side is always 0 (one ``turns`` entry).
"""
from __future__ import annotations

import time

import clingo
import numpy as np

from ...compile.compiler import GAME_ENCODINGS, base_part
from ...compile.facts import board_facts, mechanism_facts, rule_facts
from ...compile.script import board_actions
from ...compile.state import START, unjudged
from ...errors import EncodingError
from ...language.model import OFF_BOARD, Board
from ...resources import encoding
from ..common.limits import LimitGuard
from .factored import distinct, ground_rows, raw_numbers

AXES = {"horizontal": 0, "vertical": 1}


class ScriptNumbering:
    """Positions ``s(0,X1,Y1,...,Xn,Yn[,G])`` as numbers (see the module docstring)."""

    def __init__(self, board: Board, pieces: int, gate: bool):
        self.height, self.cells = board.height, board.width * board.height
        self.pieces, self.gate = pieces, gate
        self.radix = self.cells + 1
        self.strides = [self.radix ** (pieces - 1 - i) * (2 if gate else 1) for i in range(pieces)]
        self.size = self.radix ** pieces * (2 if gate else 1)
        self.width = 1 + 2 * pieces + (1 if gate else 0)

    def number(self, args) -> int:
        key = int(args[-1]) if self.gate else 0
        for i, stride in enumerate(self.strides):
            x, y = args[1 + 2 * i], args[2 + 2 * i]
            key += (0 if x == 0 else (x - 1) * self.height + y) * stride
        return key

    def holds(self, args) -> bool:
        if len(args) != self.width or args[0] != 0:
            return False
        for i in range(self.pieces):
            x, y = args[1 + 2 * i], args[2 + 2 * i]
            if (x, y) != OFF_BOARD and not (1 <= x <= self.cells // self.height and 1 <= y <= self.height):
                return False
        return not self.gate or args[-1] in (0, 1)

    def fields(self, keys: np.ndarray) -> list[np.ndarray]:
        """Per piece its cell number, then the gate bit (if any), of each position in ``keys``."""
        out = [keys // stride % self.radix for stride in self.strides]
        return out + ([keys % 2] if self.gate else [])

    def arguments(self, key: int) -> list[int]:
        out = [0]
        for cell in self.fields(np.array([key], dtype=np.int64))[:self.pieces]:
            c = int(cell[0])
            out += [0, 0] if c == 0 else [(c - 1) // self.height + 1, (c - 1) % self.height + 1]
        return out + ([key % 2] if self.gate else [])

    def symbol(self, key: int) -> clingo.Symbol:
        return clingo.Function("s", [clingo.Number(v) for v in self.arguments(key)])

    def texts(self, keys) -> list[str]:
        return [str(self.symbol(int(k))) for k in keys]


class ScriptTables:
    """The per-cell tables of the compiled rules, by cell number (0: off the board), from one
    ground call; and the per-board list of script actions."""

    def __init__(self, board: Board, layout, guard: LimitGuard | None = None):
        started = time.perf_counter()
        self.board, self.layout = board, layout
        rules = board.rules
        self.numbering = numbering = ScriptNumbering(board, len(layout.roles), layout.gate)
        role = self.role = rules.turns[0][0]
        program = "\n".join([board_facts(board), rule_facts(rules), mechanism_facts(board, layout),
                             *[base_part(encoding(name)) for name in GAME_ENCODINGS], "#show.",
                             f"#show tm(M,X,Y,AX,AY,PX,PY) : rmove({role},X,Y,M,AX,AY,PX,PY,_).",
                             "#show tg(X,Y,X2,Y2) : gate_cross(X,Y,X2,Y2).",
                             *[f"#show tc({number},X,Y,SX,SY,G,X2,Y2) : chase({axis},X,Y,SX,SY,G,X2,Y2)."
                               for axis, number in AXES.items()],
                             "#show tk(X,Y) : key_cell(X,Y).", "#show tx(K,X,Y) : mark(K,X,Y)."])
        by_arity: dict[int, list] = {}
        for row in ground_rows(program, guard, "the tables of the game's pieces", "the game's tables"):
            by_arity.setdefault(len(row), []).append(row)
        size = numbering.cells + 1
        height = board.height

        def cells(columns: np.ndarray) -> np.ndarray:       # (x, y) column pairs -> cell numbers
            xs, ys = columns[:, 0::2], columns[:, 1::2]
            return np.where(xs == 0, 0, (xs - 1) * height + ys)

        def table(arity: int) -> np.ndarray:
            return np.array(by_arity.get(arity, []), dtype=np.uint64).reshape(-1, arity)
        moves, crossings, chases, keys = table(7), table(4), table(8), table(2)
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
        marked = table(3)
        for mark in board.marks:
            rows = marked[marked[:, 0] == np.uint64(clingo.Function(mark)._rep)]
            self.marks[mark] = np.zeros(size, dtype=bool)
            if len(rows):
                self.marks[mark][cells(raw_numbers(rows[:, 1:]))[:, 0]] = True
        self.move_start = np.searchsorted(self.move_from, np.arange(size + 1))
        self.actions = board_actions(board)
        self.index = {p: i for i, p in enumerate(layout.roles)}
        self.end_names = [end.name for end in rules.ends]
        self.ground_s = time.perf_counter() - started
        xs = (np.arange(size) - 1) // board.height + 1
        ys = (np.arange(size) - 1) % board.height + 1
        self.x, self.y = np.where(np.arange(size) == 0, 0, xs), np.where(np.arange(size) == 0, 0, ys)

    # - Ends ---

    def outcome(self, keys: np.ndarray) -> np.ndarray:
        """The end that decides each position (index into ``end_names``; -1: none), by the
        compiled end conditions: cells equal (off the board included), a mark on the cell."""
        fields = self.numbering.fields(keys)
        out = np.full(len(keys), -1, dtype=np.int16)
        for number, end in enumerate(self.board.rules.ends):
            holds = np.ones(len(keys), dtype=bool)
            for group in end.when.same_cell:
                for other in group[1:]:
                    holds &= fields[self.index[group[0]]] == fields[self.index[other]]
            for piece, mark in end.when.reaches:
                marked = self.marks.get(mark)
                holds &= marked[fields[self.index[piece]]] if marked is not None else False
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
        for piece in self.board.rules.moves[self.role].may_not_end_on:
            keep &= self.move_aim[move] != cells[index[piece]]
        rows, move, gate = rows[keep], move[keep], gate[keep]
        cells = [c[keep] for c in cells]
        start = [c.copy() for c in cells]
        to = self.move_to[move]
        blocked = (gate == 0) & self.gate_cross[cells[mover], to]
        cells[mover] = np.where(blocked, cells[mover], to)
        after = self._script(cells, start, gate.copy(), gate)
        return keys[rows], self.move_name[move], after

    def _script(self, cells, start, gate, start_gate) -> np.ndarray:
        """The script's actions over every row; the numbers of the positions after the ply."""
        rules, index = self.board.rules, self.index
        n = len(gate)
        alive = {p: cells[index[p]] != 0 for p in rules.chasers}
        used = np.zeros(n, dtype=bool)
        going = np.ones(n, dtype=bool)          # no stop has ended the ply

        def on(piece):
            return alive[piece] if piece in alive else np.ones(n, dtype=bool)
        for action in self.actions:
            if action.kind == "key":
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
                cells[i] = np.where(moving, self.chase[AXES[chaser.first], cells[i], sx, sy, gate], cells[i])
            else:   # remove
                remover, piece = action.pieces[0], action.piece
                met = going & on(remover) & (cells[index[remover]] == cells[index[piece]])
                alive[piece] = alive[piece] & ~met
                if action.flips:
                    flip = met & self.key[cells[index[piece]]]
                    gate = np.where(flip, 1 - gate, gate)
        numbering = self.numbering
        key = gate.astype(np.int64) if numbering.gate else np.zeros(n, dtype=np.int64)
        for piece, i in index.items():
            cell = cells[i] if piece not in alive else np.where(alive[piece], cells[i], 0)
            key = key + cell * numbering.strides[i]
        return key


class ScriptedGraph:
    """The positions reachable from ``roots`` (position terms as text) and their distinct
    successors, as :class:`~gridsolve.solve.graph.factored.FactoredGraph` gives them: ``keys``
    (sorted numbers), ``outcome``, ``src``/``dst`` (indexes into ``keys``)."""

    def __init__(self, tables: ScriptTables, roots: list[str], guard: LimitGuard):
        numbering = tables.numbering
        self.numbering, self.ends = numbering, tables.end_names
        start = distinct(np.array([numbering.number(_arguments(r)) for r in roots], dtype=np.int64))
        seen = start
        frontier = start
        sources, targets = [], []
        level = 0
        while frontier.size:
            frontier = frontier[tables.outcome(frontier) < 0]
            src, _, dst = tables.plies(frontier)
            pairs = distinct(src * numbering.size + dst)
            src, dst = pairs // numbering.size, pairs % numbering.size
            sources.append(src)
            targets.append(dst)
            fresh = distinct(dst)
            fresh = fresh[~_member(fresh, seen)]
            seen = np.sort(np.concatenate([seen, fresh]))
            frontier = fresh
            level += 1
            if level % 8 == 0:          # (the check reads the process's memory: not every level)
                guard.after("while finding the game's positions", 40 * len(seen))
        self.keys = seen
        self.outcome = tables.outcome(seen)
        self.src = np.searchsorted(seen, np.concatenate(sources)).astype(np.int32) if sources else \
            np.zeros(0, dtype=np.int32)
        self.dst = np.searchsorted(seen, np.concatenate(targets)).astype(np.int32) if targets else \
            np.zeros(0, dtype=np.int32)
        self.turn = np.zeros(len(seen), dtype=np.int32)


def _member(values: np.ndarray, sorted_set: np.ndarray) -> np.ndarray:
    if not sorted_set.size:
        return np.zeros(len(values), dtype=bool)
    at = np.minimum(np.searchsorted(sorted_set, values), len(sorted_set) - 1)
    return sorted_set[at] == values


def _arguments(term: str) -> list[int]:
    try:
        return [int(v) for v in term.strip()[2:-1].split(",")]
    except ValueError:
        return [a.number for a in clingo.parse_term(term).arguments]


class ScriptedMoves:
    """What :class:`~gridsolve.solve.graph.racegraph.NamedMoves` answers (the named moves and the end of a
    position, by position term) from the tables: no ground call."""

    def __init__(self, tables: ScriptTables):
        self.tables, self.numbering = tables, tables.numbering
        self._named: dict[clingo.Symbol, list] = {}

    def fetch(self, states) -> None:
        """(Nothing to ground: the moves are known.)"""

    def _number(self, state: clingo.Symbol) -> int:
        args = [a.number for a in unjudged(state).arguments]
        if not self.numbering.holds(args):
            raise EncodingError(f"{state} is not a position of this game")
        return self.numbering.number(args)

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
