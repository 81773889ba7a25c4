"""The race solver's game graph by pieces: where the pieces move each on its own, clingo grounds
each role's moves from each cell and the ends of the board's positions, and the positions
reachable from the roots and their moves are joined from them in arrays.

:func:`gridsolve.compile.gamerules.factored_turns` says when the compiled moves have that shape
(the position term is the side to move and the cells; no two movers of a ply cancel it), and
:func:`gridsolve.compile.compiler.factored_program` is the clingo program: each role's moves
from each cell (``rmove`` of encodings/moves.lp) and the end that decides each position of the
board (the compiled end conditions), read by :class:`PieceMoves`.  A ply of ``turns[t]`` from a
position where no end holds then moves each mover from its cell by one of its moves whose aimed
cell holds none of its ``may_not_end_on`` pieces, and entry t+1 is to move: the compiled
``edge``/``succ`` rules (tests/test_retro.py compares both graphs, and the named moves, on random
boards of every rule option).  clingo grounds about one atom a cell and move instead of one a
position and move.

Positions are numbered by their fields in mixed radix (the side, then each piece's cell), so a
position's number is its term's arguments and back (:class:`Numbering`).
"""
from __future__ import annotations

import math
import time

import clingo
import numpy as np

from ...errors import EncodingError
from ...language.model import Board
from ...compile.compiler import factored_program
from ...compile.state import START, unjudged
from ..common.limits import LimitGuard
from .rawmodel import NUMBER_TAG, model_arguments


class Numbering:
    """Positions ``s(T,X1,Y1,...,Xk,Yk)`` of a W×H board as numbers: T, then (Xi-1)*H+(Yi-1)
    per piece, in mixed radix (the side most significant)."""

    def __init__(self, board: Board, pieces: int, sides: int):
        self.height, self.cells, self.pieces, self.sides = board.height, board.width * board.height, pieces, sides
        self.strides = [self.cells ** (pieces - 1 - i) for i in range(pieces)]     # of piece i's cell
        self.side_stride = self.cells ** pieces
        self.size = sides * self.side_stride
        self.width = 1 + 2 * pieces          # the arguments of a position term

    def number(self, args) -> int:
        """The number of the position whose term has arguments ``args`` (ints)."""
        key = args[0] * self.side_stride
        for i, stride in enumerate(self.strides):
            key += ((args[1 + 2 * i] - 1) * self.height + args[2 + 2 * i] - 1) * stride
        return key

    def arguments(self, key: int) -> list[int]:
        out = [key // self.side_stride]
        for stride in self.strides:
            cell = key // stride % self.cells
            out += [cell // self.height + 1, cell % self.height + 1]
        return out

    def numbers(self, fields: np.ndarray) -> np.ndarray:
        """The numbers of the positions whose terms have the arguments in the rows of ``fields``."""
        key = fields[:, 0] * self.side_stride
        for i, stride in enumerate(self.strides):
            key += ((fields[:, 1 + 2 * i] - 1) * self.height + fields[:, 2 + 2 * i] - 1) * stride
        return key

    def holds(self, args) -> bool:
        """Whether ``args`` (ints) are those of a position with this numbering."""
        return 0 <= args[0] < self.sides and all(
            1 <= x <= self.cells // self.height and 1 <= y <= self.height for x, y in zip(args[1::2], args[2::2]))

    def texts(self, keys: np.ndarray) -> list[str]:
        """The position terms of ``keys`` as clingo writes them."""
        columns = [keys // self.side_stride]
        for stride in self.strides:
            cell = keys // stride % self.cells
            columns += [cell // self.height + 1, cell % self.height + 1]
        return [f"s({','.join(map(str, row))})" for row in zip(*(c.tolist() for c in columns))]

    def symbol(self, key: int) -> clingo.Symbol:
        return clingo.Function("s", [clingo.Number(a) for a in self.arguments(key)])

    def cell_of(self, keys: np.ndarray, piece: int) -> np.ndarray:
        return keys // self.strides[piece] % self.cells


def distinct(values: np.ndarray) -> np.ndarray:
    """The distinct values, sorted (``np.unique`` without its check for masked arrays, which
    imports numpy.ma: a sixth of numpy's start-up)."""
    values = np.sort(values)
    if values.size:
        keep = np.empty(values.size, dtype=bool)
        keep[0] = True
        np.not_equal(values[1:], values[:-1], out=keep[1:])
        values = values[keep]
    return values


def distinct_pairs(src: np.ndarray, dst: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """The distinct pairs (``src[i]``, ``dst[i]``) of position numbers below ``size``, sorted (by
    source, then target): as one number ``src * size + dst`` where that fits in int64, else
    sorted as pairs (the product would wrap around and join pairs that differ)."""
    if size <= _PAIRED:
        pairs = distinct(src * size + dst)
        return pairs // size, pairs % size
    order = np.lexsort((dst, src))
    src, dst = src[order], dst[order]
    keep = np.ones(len(src), dtype=bool)
    keep[1:] = (src[1:] != src[:-1]) | (dst[1:] != dst[:-1])
    return src[keep], dst[keep]


_PAIRED = math.isqrt(np.iinfo(np.int64).max)     # the largest size whose pairs fit in one int64


def _arguments(term: str) -> list[int]:
    """The arguments of a position term written as text, ``s(0,1,2,3,4)``."""
    try:
        return [int(v) for v in term.strip()[2:-1].split(",")]
    except ValueError:      # (not written plainly: as clingo reads it)
        return [a.number for a in clingo.parse_term(term).arguments]


def _root_fields(roots: list[str], width: int) -> np.ndarray:
    """The first ``width`` arguments of the position terms ``roots`` (text), as rows: read in
    one pass where every term is written plainly with ``width`` arguments (``s(0,1,2,3,4)``),
    else term by term."""
    terms = [r.strip() for r in roots]
    if all(t.startswith("s(") and t.count(",") == width - 1 for t in terms):
        try:
            return np.array(",".join(t[2:-1] for t in terms).split(","), dtype=np.int64).reshape(len(terms), width)
        except ValueError:
            pass
    return np.array([_arguments(t)[:width] for t in terms], dtype=np.int64).reshape(len(terms), width)


def ground_rows(program: str, guard: LimitGuard | None, what: str, subject: str) -> list[tuple[int, ...]]:
    """The shown atoms' arguments (raw symbols) of ``program``'s one model, ground within
    ``guard`` (the check names ``what`` is ground; a clingo error names ``subject``)."""
    ctl = clingo.Control(["--warn=none"])
    try:
        ctl.add("base", [], program)
        if guard is None:
            ctl.ground([("base", [])])
        else:
            guard.ground(ctl, [("base", [])], f"while grounding {what}")
    except RuntimeError as exc:
        raise EncodingError(f"clingo could not ground {subject}: {exc}") from exc
    return model_arguments(ctl)


def raw_numbers(rows: np.ndarray) -> np.ndarray:
    """The int32 values of raw clingo number symbols."""
    if rows.size and np.any((rows >> np.uint64(32)) != np.uint64(NUMBER_TAG >> 32)):
        raise EncodingError("the game graph by pieces holds a term that is not a number (an encoding bug)")
    return (rows & np.uint64(0xFFFFFFFF)).astype(np.uint32).view(np.int32).astype(np.int64)


class _Moves:
    """One role's moves from each cell, by cell number: the distinct (aimed cell, destination)
    pairs, ``aim``/``dest[start[c]:start[c+1]]``; ``distinct``: no cell has two of them to one
    destination; and the named moves, ``names``/``named_aim``/``named_dest[named_start[c]:...]``
    (raw clingo symbols of the move terms)."""

    def __init__(self, rows: np.ndarray, names: np.ndarray, height: int, cells: int):
        cell = (rows[:, 0] - 1) * height + rows[:, 1] - 1
        aim = (rows[:, 2] - 1) * height + rows[:, 3] - 1
        dest = (rows[:, 4] - 1) * height + rows[:, 5] - 1
        order = np.argsort(cell, kind="stable")
        self.names, self.named_aim, self.named_dest = names[order], aim[order], dest[order]
        self.named_start = np.zeros(cells + 1, dtype=np.int64)
        np.cumsum(np.bincount(cell, minlength=cells), out=self.named_start[1:])
        keys = distinct((cell * cells + aim) * cells + dest)
        cell, aim, self.dest = keys // (cells * cells), keys // cells % cells, keys % cells
        self.aim = aim
        self.start = np.zeros(cells + 1, dtype=np.int64)
        np.cumsum(np.bincount(cell, minlength=cells), out=self.start[1:])
        pairs = cell * cells + self.dest
        self.distinct = len(distinct(pairs)) == len(pairs)


def _expand(keys: np.ndarray, moves: _Moves, piece: int, numbering: Numbering) -> tuple[np.ndarray, np.ndarray]:
    """Each of ``keys`` once per move of ``piece`` from its cell: (which key, the move's row)."""
    cell = numbering.cell_of(keys, piece)
    lo = moves.start[cell]
    counts = moves.start[cell + 1] - lo
    which = np.repeat(np.arange(len(keys)), counts)
    rows = np.repeat(lo - np.cumsum(counts) + counts, counts) + np.arange(int(counts.sum()))
    return which, rows


class PieceMoves:
    """Each role's moves from each cell (``tables``: role -> :class:`_Moves`) and the end that
    decides each position of the board (``ends``: end index by position number, -1: none), by
    clingo from :func:`~gridsolve.compile.compiler.factored_program` for ``turns`` (of
    :func:`~gridsolve.compile.gamerules.factored_turns`), within ``guard``.

    It also answers what :class:`~gridsolve.solve.graph.racegraph.NamedMoves` answers (the named moves
    and the end of a position, by position term) where each ``turns`` entry moves one role:
    the moves of the role from its cell, no ground call."""

    def __init__(self, board: Board, layout, turns, guard: LimitGuard | None = None):
        started = time.perf_counter()
        self.roles, self.turns = list(layout.roles), turns
        self.numbering = numbering = Numbering(board, len(self.roles), len(turns))
        rows = ground_rows(factored_program(board, layout), guard, "the moves of the game's pieces", "the game graph")
        self.ground_s = time.perf_counter() - started
        move, end = clingo.Function("move")._rep, clingo.Function("end")._rep
        move_rows = [r for r in rows if r[0] == move]
        end_rows = [r for r in rows if r[0] == end]
        table = np.array(move_rows, dtype=np.uint64).reshape(-1, 9)
        self.tables = {}
        for role in self.roles:
            mine = table[table[:, 1] == np.uint64(clingo.Function(role)._rep)]
            numbers = raw_numbers(mine[:, [2, 3, 5, 6, 7, 8]])
            self.tables[role] = _Moves(numbers, mine[:, 4], numbering.height, numbering.cells)
        self.end_names = [e.name for e in board.rules.ends]
        names = {clingo.Function(name)._rep: i for i, name in enumerate(self.end_names)}
        if guard is not None:
            guard.after("after grounding the moves of the game's pieces", numbering.size)
        self.ends = np.full(numbering.size, -1, dtype=np.int8)     # the end that decides each position, by number
        if end_rows:
            fields = raw_numbers(np.array([r[2:] for r in end_rows], dtype=np.uint64))
            self.ends[numbering.numbers(fields)] = [names[r[1]] for r in end_rows]
        self.single = all(len(movers) == 1 for movers, _ in turns)
        self._named: dict[clingo.Symbol, list] = {}

    # - What NamedMoves answers ---

    def fetch(self, states) -> None:
        """(Nothing to ground: the moves are known.)"""

    def _number(self, state: clingo.Symbol) -> int:
        args = [a.number for a in unjudged(state).arguments]
        if len(args) != 1 + 2 * self.numbering.pieces or not self.numbering.holds(args):
            raise EncodingError(f"{state} is not a position of this game")
        return self.numbering.number(args)

    def end(self, state: clingo.Symbol) -> str | None:
        """The end that decides ``state``, None where none holds."""
        found = int(self.ends[self._number(state)])
        return self.end_names[found] if found >= 0 and state.name != START else None

    def moves(self, state: clingo.Symbol) -> list[tuple[clingo.Symbol, clingo.Symbol]]:
        """(move, position after it) of each move of ``state``, as the compiled ``edge(S,M,S2)``;
        none where an end holds."""
        found = self._named.get(state)
        if found is None:
            found = self._named[state] = [(clingo.symbol.Symbol(move), self.numbering.symbol(after))
                                          for move, after in self.successors(self._number(state),
                                                                             judged=state.name != START)]
        return found

    def successors(self, key: int, judged: bool = True) -> list[tuple[int, int]]:
        """(raw clingo symbol of the move, number of the position after it) of each move of
        position number ``key``; none where an end holds (unless it is a start not ``judged``)."""
        numbering = self.numbering
        if judged and self.ends[key] >= 0:
            return []
        side = key // numbering.side_stride
        (role,), avoid = self.turns[side]
        piece, table = self.roles.index(role), self.tables[role]
        cell = key // numbering.strides[piece] % numbering.cells
        others = {key // numbering.strides[self.roles.index(p)] % numbering.cells for p in avoid[role]}
        base = key + ((side + 1) % len(self.turns) - side) * numbering.side_stride - cell * numbering.strides[piece]
        lo, hi = int(table.named_start[cell]), int(table.named_start[cell + 1])
        stride = numbering.strides[piece]
        return [(move, base + dest * stride) for move, aim, dest in
                zip(table.names[lo:hi].tolist(), table.named_aim[lo:hi].tolist(), table.named_dest[lo:hi].tolist())
                if aim not in others]


class FactoredGraph:
    """The positions reachable from ``roots`` (position terms) and their distinct successors,
    joined from the moves by cell and the ends of ``pieces`` (:class:`PieceMoves`): ``keys``
    (sorted position numbers), ``outcome`` (index into ``ends``, -1: no end), ``src``/``dst``
    (indexes into ``keys``)."""

    def __init__(self, pieces: PieceMoves, roots: list[str], guard: LimitGuard):
        numbering, turns, roles, moves, ends = pieces.numbering, pieces.turns, pieces.roles, pieces.tables, pieces.ends
        self.numbering, self.ends = numbering, pieces.end_names
        # (a byte each for the positions seen and found, 4 for their index, over every number)
        guard.after("after grounding the moves of the game's pieces", 6 * numbering.size)

        seen = np.zeros(numbering.size, dtype=bool)
        fresh = np.zeros(numbering.size, dtype=bool)
        start = distinct(numbering.numbers(_root_fields(roots, 1 + 2 * numbering.pieces)))
        seen[start] = True
        levels, sources, targets = [start], [], []
        frontier = start
        while frontier.size:
            frontier = frontier[ends[frontier] < 0]
            side = frontier // numbering.side_stride
            for t, (movers, avoid) in enumerate(turns):
                src = frontier[side == t] if len(turns) > 1 else frontier
                dst = src + ((t + 1) % len(turns) - t) * numbering.side_stride
                for role in movers:
                    piece, table = roles.index(role), moves[role]
                    which, row = _expand(src, table, piece, numbering)
                    src, dst = src[which], dst[which]
                    if avoid[role]:
                        keep = np.ones(len(row), dtype=bool)
                        for other in avoid[role]:
                            keep &= table.aim[row] != numbering.cell_of(src, roles.index(other))
                        src, dst, row = src[keep], dst[keep], row[keep]
                    dst = dst + (table.dest[row] - numbering.cell_of(src, piece)) * numbering.strides[piece]
                if len(movers) > 1 or not all(moves[r].distinct for r in movers):
                    src, dst = distinct_pairs(src, dst, numbering.size)
                sources.append(src)
                targets.append(dst)
                fresh[dst[~seen[dst]]] = True
            frontier = np.flatnonzero(fresh)
            fresh[frontier] = False
            seen[frontier] = True
            levels.append(frontier)
        del seen, fresh
        self.keys = np.sort(np.concatenate(levels))
        self.outcome = ends[self.keys].astype(np.int16)
        number = np.full(numbering.size, -1, dtype=np.int32)     # position number -> index into keys
        number[self.keys] = np.arange(len(self.keys), dtype=np.int32)
        self.src = number[np.concatenate(sources)]
        del sources
        self.dst = number[np.concatenate(targets)]
        del targets, number
        self.turn = (self.keys // numbering.side_stride).astype(np.int32)
