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

Positions are numbered by the board's :class:`~gridsolve.solve.graph.codec.PositionCodec` (no
piece leaves the board): the side, then each piece's cell (x-1)*H + (y-1), in mixed radix (the
side most significant), so a position's number is its term's arguments and back.
"""
from __future__ import annotations

import time

import clingo
import numpy as np

from ...errors import EncodingError
from ...language.model import Board
from ...compile.state import START, unjudged
from ..common.limits import LimitGuard
from .codec import PositionCodec, distinct, distinct_pairs
from .rawmodel import NUMBER_TAG, model_arguments


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

    def __init__(self, rows: np.ndarray, names: np.ndarray, numbering: PositionCodec):
        cells = numbering.cells
        cell, aim, dest = (numbering.cell_numbers(rows[:, j], rows[:, j + 1]) for j in (0, 2, 4))
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


def _expand(keys: np.ndarray, moves: _Moves, piece: int, numbering: PositionCodec) -> tuple[np.ndarray, np.ndarray]:
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
        from ...compile.compiler import factored_program     # (a scripted game's graph needs no compiled program)
        started = time.perf_counter()
        self.roles, self.turns = list(layout.roles), turns
        self.numbering = numbering = PositionCodec(board, layout, off_board=False, found=False)
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
            self.tables[role] = _Moves(numbers, mine[:, 4], numbering)
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
        key = self.numbering.key_of(unjudged(state))
        if key < 0:
            raise EncodingError(f"{state} is not a position of this game")
        return key

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
        start = distinct(numbering.numbers(numbering.rows_of_texts(roots)))
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
