"""Every start of one layout judged on one game graph: the ranks and the beeline of each.

:class:`StartGraph` grounds a layout's game graph once, rooted at every placement of the
pieces (:class:`gridsolve.solve.graph.racegraph.RaceGraph`, the compiled rules), ranks every position for
the requirement's race, and answers for any start read off that graph: its rank (the plies of
the forced end) and whether walking a shortest path wins from it (:meth:`StartGraph.beeline_wins`,
the ``no_beeline`` check of :mod:`gridsolve.analysis.beeline` played on the graph instead of two
clingo runs of its own).  The generator's judge re-checks a level with the exact check before
writing it; tests/test_startgraph.py compares the two on random boards.
"""
from __future__ import annotations

import functools
import itertools

import clingo
import numpy as np

from ..compile.compiler import compile_program
from ..errors import LimitError
from ..language.kinds import QueryKind, RequireKind
from ..language.model import Board
from ..language.position import Position, Query, initial_position
from ..solve.common.capabilities import START_GRAPH, serves
from ..solve.common.limits import Limits
from ..solve.graph import rawmodel
from ..solve.graph.codec import PositionCodec
from ..solve.graph.racegraph import RaceGraph
from ..solve.program.driver import race_limits
from ..analysis.beeline import winning_path
from .startplay import GraphPlay, OthersPlay
from ..analysis.ends import beeline_unsupported, goal_ends
from .genspec import Requirement
from .starts import JudgedStarts, StartVerdict, Survey


PATH_LIMIT = 16            # shortest paths of one start counted at most (more: counted as PATH_LIMIT)


def _fields(graph: RaceGraph, count: int) -> np.ndarray:
    """The first ``count`` arguments of every position term of ``graph`` (side, then each piece's
    cell), as an (n, count) array: from the position numbers where the graph is joined by pieces
    (``graph.numbering``), else from the raw clingo symbols."""
    numbering = graph.numbering
    if numbering is None:
        return _numbers(graph.graph.keys, count)
    keys = np.asarray(graph.graph.keys, dtype=np.int64)
    columns = [keys // numbering.side_stride]      # (a start not judged, numbered after the others: side + sides)
    for piece in range(numbering.pieces):
        columns += list(numbering.cell_xy(numbering.cell_of(keys, piece)))
    return np.stack(columns, axis=1)[:, :count]


def _numbers(reps: np.ndarray, count: int) -> np.ndarray:
    """The first ``count`` arguments of each position symbol in ``reps`` (raw clingo symbols of
    ``s(Side, X1, Y1, ...)`` terms), as an (n, count) array of numbers."""
    if rawmodel.FAST is None:      # (clingo's C bindings read the positions without a Python object per argument)
        return np.array([[a.number for a in clingo.symbol.Symbol(rep).arguments[:count]] for rep in reps.tolist()],
                        dtype=np.int64).reshape(len(reps), count)
    _ffi, _lib = rawmodel.FAST
    argv, size = _ffi.new("clingo_symbol_t**"), _ffi.new("size_t*")
    f_args, buffer = _lib.clingo_symbol_arguments, _ffi.buffer
    raw = bytearray()
    for rep in reps.tolist():
        f_args(rep, argv, size)
        raw += buffer(argv[0], 8 * count)
    values = np.frombuffer(bytes(raw), dtype=np.uint64).reshape(len(reps), count)
    return (values & np.uint64(0xFFFFFFFF)).astype(np.uint32).view(np.int32)     # a number's low 32 bits


def board_cells(board: Board) -> list[tuple]:
    return [(x, y) for x in range(1, board.width + 1) for y in range(1, board.height + 1) if board.on_board((x, y))]


def query_kind(board: Board, role: str, kind: RequireKind) -> QueryKind:
    """The question that measures a layout for a requirement of ``kind``: the value query where
    the role's scores are constants or a win is asked (forcing the top score needs the values),
    else (the values would need the layered solver) the survive query."""
    return (QueryKind.VALUE if board.rules.constant_scores(role) or kind in (RequireKind.WIN, RequireKind.VALUE)
            else QueryKind.SURVIVE)


def start_query(board: Board, role: str, req: Requirement) -> Query:
    """The question the start graph ranks for ``req``, asked at the initial position."""
    return Query(role, query_kind(board, role, req.kind), initial_position(board), req.horizon)


def start_program(board: Board, role: str, req: Requirement):
    """The race solver's program for ``req`` from the initial position, or None where the start
    graph does not serve it (the ``start graph`` row of :mod:`gridsolve.solve.common.capabilities`:
    not solved by races, or too many placements of the pieces)."""
    query = start_query(board, role, req)
    return compile_program(board, query) if serves(START_GRAPH, board, query) else None


class StartGraph:
    """The game graph of ``board``'s walls and marks from every placement of the pieces, with
    ``race``'s rank (``program.plan`` numbering) of every position; ``program`` is
    :func:`start_program`'s.  Positions are indexes into the graph; :meth:`index` and
    :meth:`state` translate to and from the (pieces, side) tuples of :mod:`gridsolve.analysis.beeline`."""

    def __init__(self, board: Board, role: str, req: Requirement, program, race: int, limits: Limits | None = None):
        self.board, self.role, self.req = board, role, req
        rules = board.rules
        layout = program.layout
        self.roles = rules.roles
        cells = tuple(board_cells(board))
        at = None if beeline_unsupported(board) else rules.roles.index(role)
        self.placements, met = _placements(cells, len(self.roles), at)
        budget = race_limits(board, layout, [program.query.position], limits or Limits())
        self.graph = graph = RaceGraph(board, layout, _roots(board, layout, cells, len(self.roles), at), budget)
        attackers, targets = program.plan.races[race - 1]
        self.rank, _ = graph.ranks(attackers, targets, len(program.levels))
        self._fields = _fields(graph, 1 + 2 * len(self.roles))
        codes = self._codes(self._fields)
        self._order = np.argsort(codes, kind="stable")
        self._sorted = codes[self._order]
        placed = np.array(self.placements, dtype=np.int64).reshape(len(self.placements), -1)
        self.starts = self._lookup(self._codes(np.concatenate([np.zeros((len(placed), 1), np.int64), placed], 1)))
        self._look: dict = {}
        self.goals = set(goal_ends(board, role))
        self.side = rules.side_of(role)
        self._play = None

    # - Positions ---

    def _codes(self, fields: np.ndarray) -> np.ndarray:
        """One number per row of ``fields`` (side, then each piece's x and y), as the
        positions' numbering orders them (:class:`gridsolve.solve.graph.codec.PositionCodec`)."""
        height, cells = self.board.height, self.board.width * self.board.height
        code = fields[:, 0].astype(np.int64)
        for i in range(len(self.roles)):
            code = code * cells + (fields[:, 1 + 2 * i] - 1) * height + fields[:, 2 + 2 * i] - 1
        return code

    def _lookup(self, codes: np.ndarray) -> np.ndarray:
        """The position index of each code, -1 where the graph does not hold it (where positions
        differ in fields beyond the side and the cells, the last of them)."""
        if not len(self._sorted):
            return np.full(len(codes), -1)
        at = np.maximum(np.searchsorted(self._sorted, codes, side="right") - 1, 0)
        return np.where(self._sorted[at] == codes, self._order[at], -1)

    def index(self, state: tuple) -> int:
        """The index of ``state`` (pieces, side); KeyError when the graph does not hold it."""
        fields = [state[1], *(v for _, cell in state[0] for v in cell)]
        found = int(self._lookup(self._codes(np.array([fields], dtype=np.int64)))[0])
        if found < 0:
            raise KeyError(state)
        return found

    def state(self, i: int) -> tuple:
        """Position ``i`` as (pieces, side), as :mod:`gridsolve.analysis.beeline` keys positions."""
        numbers = self._fields[i].tolist()
        return (tuple((r, (numbers[1 + 2 * k], numbers[2 + 2 * k])) for k, r in enumerate(self.roles)), numbers[0])

    def _root_state(self, placed) -> tuple:
        return (tuple(zip(self.roles, placed)), 0)

    def start_ranks(self) -> dict:
        """Placement -> rank, for the placements whose race is forced (rank >= 0)."""
        out = {}
        ranks = np.where(self.starts >= 0, self.rank[np.maximum(self.starts, 0)], -1).tolist()
        for placed, rank in zip(self.placements, ranks):
            if rank >= 0:
                out[tuple(sorted(zip(self.roles, placed)))] = rank
        return out

    def judged(self, band: tuple | None, remaining: int):
        """Every start's rank and, with ``band`` (low, high), its :meth:`survey`, as the C
        judge gives them (:class:`~gridsolve.generate.starts.JudgedStarts`)."""
        ranks = np.where(self.starts >= 0, self.rank[np.maximum(self.starts, 0)], -1).astype(np.int32)
        found = self.survey(*band, remaining) if band is not None else None
        survey = None if found is None else Survey.of(found, self.placements)
        return JudgedStarts(self.placements, list(self.roles), ranks, survey)

    # - The beeline, played on the graph ---

    def look(self, state: tuple) -> tuple:
        """(the end that holds, {move: next state}) of ``state`` (pieces, side), as the game
        :func:`gridsolve.analysis.beeline.check_beeline` walks gives it; the role's moves are named
        by the step they make (moves that lead to one cell are one); KeyError when the graph does
        not hold the state."""
        found = self._look.get(state)
        if found is not None:
            return found
        i, play = self.index(state), self.play()
        end = None if play.outcome[i] < 0 else self.graph.ends[play.outcome[i]]
        moves = {}
        if end is None and state[1] == self.side:
            moves = {step: self.state(j) for step, j in play.role_moves(i).items()}
        elif end is None:
            moves = {j: self.state(j) for j in play.successors(i)}
        found = self._look[state] = (end, moves)
        return found

    def fetch(self, states) -> None:
        """(The beeline's games fetch positions ahead in one call; the graph holds them all.)"""

    def play(self) -> GraphPlay:
        """The graph as the blind play reads it (by position index), made once."""
        if self._play is None:
            at = 1 + 2 * self.roles.index(self.role)
            goals = {k for k, end in enumerate(self.graph.ends) if end in self.goals}
            self._play = GraphPlay(self.graph.graph, self._fields[:, at], self._fields[:, at + 1], goals, self.side)
        return self._play

    def beeline_wins(self, placed: tuple, remaining: int) -> bool | None:
        """Does a shortest path win from the start ``placed`` (cells in role order), the
        ``no_beeline`` check's definition; None when the graph lacks a position the check
        needs (then ask :func:`gridsolve.analysis.beeline.check_beeline`)."""
        start = self._root_state(placed)
        if beeline_unsupported(self.board) or start[1] != self.side:
            return None
        try:
            return winning_path(self, self.role, start, start, self.goals, remaining)[3] is not None
        except (KeyError, LimitError):
            return None

    # - Every start of a band at once ---

    def survey(self, low: int, high: int, remaining: int) -> list[StartVerdict] | None:
        """The starts whose rank lies in ``low``..``high`` with their shortest paths counted
        and played out (None: the beeline is not defined here, or the graph lacks a position
        the count needs).  The starts that share the others' cells share one
        :class:`~gridsolve.generate.startplay.OthersPlay`: one walk back from the goal, and
        the counts of winning paths from each cell and frontier."""
        if beeline_unsupported(self.board) or self.side != 0:
            return None
        at = self.roles.index(self.role)
        ranks = np.where(self.starts >= 0, self.rank[np.maximum(self.starts, 0)], -1)
        chosen = np.flatnonzero((self.starts >= 0) & (ranks >= low) & (ranks <= high)).tolist()
        out, groups = [], {}
        cells = board_cells(self.board)
        for k in chosen:
            placed = self.placements[k]
            others = placed[:at] + placed[at + 1:]
            group = groups.get(others)
            if group is None:
                frozen = self._lookup(self._codes(np.array(
                    [[self.side, *(v for cell in placed[:at] + (c,) + placed[at + 1:] for v in cell)] for c in cells],
                    dtype=np.int64))).tolist()
                if min(frozen) < 0:
                    return None
                group = groups[others] = OthersPlay(self.play(), dict(zip(cells, frozen)), remaining, PATH_LIMIT)
            paths, winning = group.judge(int(self.starts[k]), placed[at])
            out.append(StartVerdict(placed, int(ranks[k]), paths, winning))
        return out


@functools.lru_cache(maxsize=8)
def _placements(cells: tuple, roles: int, at: int | None) -> tuple[list, list]:
    """Every placement of ``roles`` pieces on distinct ``cells`` (in role order), and where
    the beeline is defined (``at``: the role's place in the order, else None) the role on
    another piece's cell, the others apart (the positions its shortest paths may not pass;
    the graph holds them even where no line of play reaches them)."""
    every = list(itertools.permutations(cells, roles))
    if at is None:
        return every, []
    return every, sorted({placed[:at] + (placed[other],) + placed[at + 1:] for placed in every
                          for other in range(roles) if other != at})


def _roots(board: Board, layout, cells: tuple, roles: int, at: int | None) -> list[str]:
    """The position terms of every placement (and the role on another's cell), side 0 to move."""
    every, met = _placements(cells, roles, at)
    if layout.variables():          # fields beyond the side and the cells: the compiled term of each
        rules, codec = board.rules, PositionCodec(board, layout)
        return [codec.text(Position(tuple(zip(rules.roles, placed)), 0, rules.first_step)) for placed in every + met]
    return _plain_roots(cells, roles, at)


@functools.lru_cache(maxsize=8)
def _plain_roots(cells: tuple, roles: int, at: int | None) -> list[str]:
    """:func:`_roots` where the position term is the side and the cells alone."""
    every, met = _placements(cells, roles, at)
    return [f"s(0,{','.join(f'{x},{y}' for x, y in placed)})" for placed in every + met]
