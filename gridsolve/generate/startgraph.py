"""Every start of one layout judged on one game graph: the ranks and the beeline of each.

:class:`StartGraph` grounds a layout's game graph once, rooted at every placement of the
pieces (:class:`gridsolve.solve.retro.RaceGraph`, the compiled rules), ranks every position for
the requirement's race, and answers for any start read off that graph: its rank (the plies of
the forced end) and whether walking a shortest path wins from it (:meth:`StartGraph.beeline_wins`,
the ``no_beeline`` check of :mod:`gridsolve.verify.beeline` played on the graph instead of two
clingo runs of its own).  The generator's judge re-checks a level with the exact check before
writing it; tests/test_startgraph.py compares the two on random boards.
"""
from __future__ import annotations

import itertools
import math

import clingo
import numpy as np

from ..compile.compiler import compile_program
from ..compile.planning import Mode
from ..errors import LimitError
from ..language.kinds import QueryKind, RequireKind
from ..language.model import Board
from ..language.position import Position, Query, initial_position
from ..solve.limits import Limits
from ..solve.retro import RaceGraph
from ..solve.driver import race_limits
from ..verify.beeline import _LOST, _WON, _BlindPlay, _cell, _shortest_paths
from dataclasses import dataclass
from ..verify.expect import beeline_unsupported, goal_ends
from .genspec import GameSpec, Requirement

try:        # clingo's own C bindings: the positions are read without a Python object per argument
    from clingo._internal import _ffi, _lib
except ImportError:     # pragma: no cover - other clingo builds read them through the public API
    _ffi = _lib = None

START_LIMIT = 20_000       # at most this many placements of the pieces are ranked at once
PATH_LIMIT = 16            # shortest paths of one start counted at most (more: counted as PATH_LIMIT)


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


def _fields(graph: RaceGraph, count: int) -> np.ndarray:
    """The first ``count`` arguments of every position term of ``graph`` (side, then each piece's
    cell), as an (n, count) array: from the position numbers where the graph is joined by pieces
    (``graph.numbering``), else from the raw clingo symbols."""
    numbering = graph.numbering
    if numbering is None:
        return _numbers(graph.reps, count)
    keys = np.asarray(graph.reps, dtype=np.int64)
    columns = [keys // numbering.side_stride]
    for stride in numbering.strides:
        cell = keys // stride % numbering.cells
        columns += [cell // numbering.height + 1, cell % numbering.height + 1]
    return np.stack(columns, axis=1)[:, :count]


def _numbers(reps: np.ndarray, count: int) -> np.ndarray:
    """The first ``count`` arguments of each position symbol in ``reps`` (raw clingo symbols of
    ``s(Side, X1, Y1, ...)`` terms), as an (n, count) array of numbers."""
    if _lib is None:
        return np.array([[a.number for a in clingo.symbol.Symbol(rep).arguments[:count]] for rep in reps.tolist()],
                        dtype=np.int64).reshape(len(reps), count)
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


def placements(board: Board) -> list[tuple]:
    """Every placement of the roles' pieces on distinct cells (in role order)."""
    return list(itertools.permutations(board_cells(board), len(board.rules.roles)))


def query_kind(board: Board, role: str, kind: RequireKind) -> QueryKind:
    """The question that measures a layout for a requirement of ``kind``: the value query where
    the role's scores are constants or a win is asked (forcing the top score needs the values),
    else (the values would need the layered solver) the survive query."""
    return (QueryKind.VALUE if board.rules.constant_scores(role) or kind in (RequireKind.WIN, RequireKind.VALUE)
            else QueryKind.SURVIVE)


def start_program(board: Board, role: str, req: Requirement):
    """The race solver's program for ``req`` from the initial position, or None when the game
    is not solved by races or has more than START_LIMIT placements of the pieces."""
    if math.perm(len(board_cells(board)), len(board.rules.roles)) > START_LIMIT:    # counted, not listed
        return None
    program = compile_program(board, Query(role, query_kind(board, role, req.kind), initial_position(board),
                                           req.horizon))
    return program if program.mode is Mode.RACE else None


class StartGraph:
    """The game graph of ``board``'s walls and marks from every placement of the pieces, with
    ``race``'s rank (``program.plan`` numbering) of every position; ``program`` is
    :func:`start_program`'s."""

    def __init__(self, board: Board, role: str, req: Requirement, program, race: int):
        self.board, self.role, self.req = board, role, req
        rules = board.rules
        layout = program.layout
        self.placements = placements(board)
        roots = [layout.root_term(Position(tuple(zip(rules.roles, placed)), 0, rules.first_step), board)
                 for placed in self.placements + self._met(board, role)]
        budget = race_limits(board, layout, [program.query.position], Limits())
        self.graph = graph = RaceGraph(board, layout, roots, budget)
        attackers, targets = program.plan.races[race - 1]
        self.rank, _ = graph.ranks(attackers, targets, len(program.levels))
        self.roles = rules.roles
        self._states = [self._decode(numbers) for numbers in _fields(graph, 1 + 2 * len(self.roles)).tolist()]
        self._number = {state: i for i, state in enumerate(self._states)}
        self.starts = np.array([self._number.get(self._root_state(placed), -1) for placed in self.placements])
        self._look: dict = {}
        self.goals = set(goal_ends(board, role))
        self.side = rules.side_of(role)

    # - Positions ---

    def _met(self, board: Board, role: str) -> list[tuple]:
        """Where the beeline is defined: the role on another piece's cell, the others apart (the
        positions its shortest paths may not pass; the graph holds them even where no line of
        play reaches them)."""
        if beeline_unsupported(board):
            return []
        at = board.rules.roles.index(role)
        return sorted({placed[:at] + (placed[other],) + placed[at + 1:] for placed in self.placements
                       for other in range(len(placed)) if other != at})

    def _decode(self, numbers: list) -> tuple:
        """A position term's (pieces, side) from its first numbers, as :mod:`gridsolve.verify.beeline` keys them."""
        return (tuple((r, (numbers[1 + 2 * i], numbers[2 + 2 * i])) for i, r in enumerate(self.roles)), numbers[0])

    def _root_state(self, placed) -> tuple:
        return (tuple(zip(self.roles, placed)), 0)

    def start_ranks(self) -> dict:
        """Placement -> rank, for the placements whose race is forced (rank >= 0)."""
        out = {}
        for placed, i in zip(self.placements, self.starts.tolist()):
            if i >= 0 and self.rank[i] >= 0:
                out[tuple(sorted(zip(self.roles, placed)))] = int(self.rank[i])
        return out

    # - The beeline, played on the graph ---

    def look(self, state: tuple) -> tuple:
        """(the end that holds, {move: next state}) of ``state`` (pieces, side), as
        :class:`gridsolve.verify.beeline._Game` gives it; the role's moves are named by the
        step they make (moves that lead to one cell are one); KeyError when the graph does
        not hold the state."""
        found = self._look.get(state)
        if found is not None:
            return found
        i = self._number[state]
        graph = self.graph
        end = None if graph.outcome[i] < 0 else graph.ends[graph.outcome[i]]
        moves = {}
        if end is None:
            here = dict(state[0])
            for j in self._successors(i):
                after = self._states[j]
                if state[1] == self.side:
                    there = dict(after[0])[self.role]
                    moves[(there[0] - here[self.role][0], there[1] - here[self.role][1])] = after
                else:
                    moves[j] = after
        found = self._look[state] = (end, moves)
        return found

    def fetch(self, states) -> None:
        """(The beeline's games fetch positions ahead in one call; the graph holds them all.)"""

    def _successors(self, i: int) -> list[int]:
        if not hasattr(self, "_succ"):
            graph = self.graph
            dst = np.repeat(np.arange(graph.n, dtype=np.int32), np.diff(graph.start))
            order = np.argsort(graph.pred, kind="stable")
            self._succ_dst = dst[order]
            self._succ = np.zeros(graph.n + 1, dtype=np.int64)
            np.cumsum(np.bincount(graph.pred, minlength=graph.n), out=self._succ[1:])
        return self._succ_dst[self._succ[i]:self._succ[i + 1]].tolist()

    def beeline_wins(self, placed: tuple, remaining: int) -> bool | None:
        """Does a shortest path win from the start ``placed`` (cells in role order), the
        ``no_beeline`` check's definition; None when the graph lacks a position the check
        needs (then ask :func:`gridsolve.verify.beeline.check_beeline`)."""
        start = self._root_state(placed)
        if beeline_unsupported(self.board) or start[1] != self.side:
            return None
        try:
            dag, length, goal_cells = _shortest_paths(self, self.role, start, self.goals)
            if length is None:
                return False
            player = _BlindPlay(self, self.goals, self.side, remaining)
            opening = player.settle({start}, 0)
            if opening is _WON or opening is _LOST:
                return opening is _WON
            return player.search(dag, _cell(start, self.role), 0, length, *opening) is not None
        except (KeyError, LimitError):
            return None

    # - Every start of a band at once ---

    def survey(self, low: int, high: int, remaining: int) -> list[StartVerdict] | None:
        """The starts whose rank lies in ``low``..``high`` with their shortest paths counted
        and played out (None: the beeline is not defined here, or the graph lacks a position
        the count needs).  The shortest paths of every start come from one walk back from the
        goal per placement of the others (the role's moves with the others frozen)."""
        if beeline_unsupported(self.board) or self.side != 0:
            return None
        try:
            out = []
            distances: dict = {}
            for placed, i in zip(self.placements, self.starts.tolist()):
                if i < 0 or not low <= self.rank[i] <= high:
                    continue
                state = self._root_state(placed)
                others = tuple(p for p in state[0] if p[0] != self.role)
                if others not in distances:
                    distances[others] = self._goal_distances(state)
                out.append(self._judge_start(placed, state, distances[others], remaining))
            return out
        except (KeyError, LimitError):
            return None

    def _frozen(self, state: tuple, cell: tuple) -> tuple:
        return (tuple((p, cell if p == self.role else c) for p, c in state[0]), self.side)

    def _goal_distances(self, state: tuple) -> tuple[dict, dict]:
        """With the others frozen as in ``state``: the role's steps to a goal from every cell
        (cells where another end holds are not passed), and the DAG of the shortest paths
        ({cell: [(move, next cell), ...]}, the moves that bring the role one step nearer)."""
        cells = board_cells(self.board)
        ahead, ends = {}, {}
        for cell in cells:
            end, moves = self.look(self._frozen(state, cell))
            ends[cell] = end
            ahead[cell] = {} if end is not None else {m: _cell(after, self.role) for m, after in moves.items()}
        behind: dict = {}
        for cell, moves in ahead.items():
            for move, target in moves.items():
                behind.setdefault(target, []).append(cell)
        distance = {cell: 0 for cell in cells if ends[cell] in self.goals}
        level = list(distance)
        while level:
            following = []
            for target in level:
                for cell in behind.get(target, ()):
                    if cell not in distance:
                        distance[cell] = distance[target] + 1
                        following.append(cell)
            level = following
        dag = {cell: [(m, t) for m, t in moves.items() if distance.get(t) == distance[cell] - 1]
               for cell, moves in ahead.items() if cell in distance and distance[cell] > 0}
        return distance, dag

    def _judge_start(self, placed: tuple, state: tuple, frozen: tuple, remaining: int) -> StartVerdict:
        distance, dag = frozen
        rank = int(self.rank[self._number[state]])
        origin = _cell(state, self.role)
        if origin not in distance:
            return StartVerdict(placed, rank, 0, 0)
        length = distance[origin]
        paths = min(PATH_LIMIT, _paths(dag, origin, length))
        player = _BlindPlay(self, self.goals, self.side, remaining)
        opening = player.settle({state}, 0)
        if opening is _WON or opening is _LOST:
            return StartVerdict(placed, rank, paths, paths if opening is _WON else 0)
        return StartVerdict(placed, rank, paths, min(paths, _winning_paths(player, dag, origin, length, *opening)))


def _paths(dag: dict, origin, length: int) -> int:
    """Paths of ``length`` moves from ``origin`` in the DAG of shortest paths (each ends on a goal)."""
    counts = {}

    def count(cell, k):
        if k == length:
            return 1
        if (cell, k) not in counts:
            counts[(cell, k)] = sum(count(t, k + 1) for _, t in dag.get(cell, []))
        return counts[(cell, k)]
    return count(origin, 0)


def _winning_paths(player: _BlindPlay, dag: dict, origin, length: int, frontier: frozenset, ply: int) -> int:
    """How many shortest paths from ``origin`` win against every reply, played from the
    ``frontier`` at ``ply`` (a path that wins before its end counts with every continuation)."""
    memo: dict = {}

    def count(cell, k, frontier, ply) -> int:
        if k == length:
            return 0
        key = (cell, frontier, ply)
        if key in memo:
            return memo[key]
        total = 0
        for move, target in dag.get(cell, []):
            moved = set()
            for state in frontier:
                after = player.game.look(state)[1].get(move)
                if after is None:
                    break
                moved.add(after)
            else:
                outcome = player.settle(moved, ply + 1)
                if outcome is _WON:
                    total += _paths(dag, target, length - k - 1)
                elif outcome is not _LOST:
                    total += count(target, k + 1, *outcome)
            if total >= PATH_LIMIT:
                break
        memo[key] = total
        return total
    return count(origin, 0, frontier, ply)
