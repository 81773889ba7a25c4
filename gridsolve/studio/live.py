"""The studio's warm answers: a board's game graph kept in memory and patched after each edit.

A :class:`LiveGraph` holds the game graph of a board (every position reachable from the
positions asked about, with its mover, its end and its moves), computed once by clingo from
the compiled game rules as ``explain`` computes it (:mod:`gridsolve.explain.walls`), held as
the one game graph (:class:`~gridsolve.solve.graph.gamegraph.GameGraph`, with its moves' names).
A wall toggled in the studio patches the graph
(:meth:`~gridsolve.solve.graph.gamegraph.GameGraph.patched`): only the positions whose side to
move has a piece near the toggled edge get their moves again from clingo
(``WallGraph.affected``), and positions the new wall layout opens are explored.  Every race
of the board's race solver is then ranked on the whole graph by the retrograde analysis of
``encodings/solve.lp`` (the one ranker, :mod:`gridsolve.solve.graph.retrograde`), and the
answer (value, plies, win, survival, every move's answer and the principal line) is read off
the ranks as ``encodings/answer.lp`` reads it, key for key and tie for tie, by the race solver's
answer reader (:mod:`gridsolve.solve.race.reader`).  The answers equal
those of :func:`gridsolve.solve.dispatch.dispatcher.solve` on the edited board (tests/test_studio_live.py).

Applies where the race solver answers the question and no end depends on walls (the ``live
graph`` row of :mod:`gridsolve.solve.common.capabilities`); the studio asks the other questions in a
worker process (:mod:`gridsolve.studio.jobs`).
"""
from __future__ import annotations

import clingo

from ..compile.planning import shared_races
from ..compile.predicates import GRAPH_END, GRAPH_MOVE, GRAPH_MOVER
from ..compile.state import layout_for
from ..errors import EncodingError
from ..language.model import Board
from ..language.position import Position, Query
from ..solve.graph.codec import PositionCodec, arguments_of_text
from ..solve.graph.gamegraph import GameGraph, of_explored
from ..solve.common.answer import Answer, RaceStats, SolveStats
from ..solve.common.capabilities import LIVE_GRAPH, race_roles
from ..solve.program.driver import format_move
from ..explain.walls import TermTexts, Wall, WallGraph, add_moving, graph_atoms, toggled
from ..solve.race import reader

SHOW = (GRAPH_MOVE.when("edge(S,M,S2)"), GRAPH_MOVER.when("mover(S,T)"), GRAPH_END.when("outcome(S,E)"))
EDGES = SHOW[:1]        # the moves only: a known position keeps its mover and end
PATCHES_KEPT = 256      # wall toggles whose reverse is kept: toggling back (undo) needs no clingo call


def explore(board: Board, roots: list[str], closure: bool, show: tuple = SHOW) -> dict:
    """{position term: [mover, end or None, [(move term, successor term), ...]]} of ``roots``
    (with ``closure``, and of every position reachable from them) on ``board``; with ``show``
    :data:`EDGES`, the moves of the roots only (mover None: unchanged).  The move terms are
    clingo symbols (for their order in clingo), the positions their text."""
    out: dict = {} if show == SHOW else {r: [None, None, []] for r in roots}
    texts = TermTexts()
    for predicate, (state, *rest) in graph_atoms(board, roots, closure, show):
        state = texts[state]
        entry = out.get(state)
        if entry is None:
            entry = out[state] = [0, None, []]
        if predicate is GRAPH_MOVE:
            entry[2].append((rest[0], texts[rest[1]]))
        elif predicate is GRAPH_MOVER:
            entry[0] = rest[0]
        else:
            entry[1] = rest[0]
    return out


class LiveGraph:
    """The game graph of ``board`` from ``roots``, patched as walls are toggled; answers every
    race-solver question about the board's roles (the ``live graph`` row of
    :mod:`gridsolve.solve.common.capabilities`)."""

    def __init__(self, board: Board, roots: list[Position]):
        self.board = board
        self.layout = layout_for(board)
        self.codec = PositionCodec(board, self.layout)     # (walls change no position term: kept as they are toggled)
        self.roles_served = race_roles(board)
        self.races, self.plans = shared_races(board.rules, self.roles_served)
        self.graph: GameGraph = of_explored({}, [end.name for end in board.rules.ends], self.codec, named=True)
        self.moving: dict = {}          # (role, cell) -> positions whose side moves it from there
        self.ranks: dict[int, list[int]] | None = None
        self.patches = 0                # positions whose moves were computed again
        self.undo: dict = {}            # (wall, north, east) -> the moves it restores, see toggle()
        self.add_roots(roots)

    # - The graph ---
    def term(self, position: Position) -> str:
        return self.codec.text(position)

    def state(self, position: Position) -> int:
        """The number of ``position`` in the graph, -1 where it has none."""
        return self.graph.index_of(self.term(position))

    def knows(self, position: Position) -> bool:
        return self.state(position) >= 0

    def add_roots(self, roots: list[Position]) -> None:
        """Explore the positions reachable from ``roots`` that the graph does not hold yet."""
        terms = [term for term in (self.term(p) for p in roots) if self.graph.index_of(term) < 0]
        if terms:
            self._merge(explore(self.board, terms, True))

    def _merge(self, found: dict) -> None:
        """Set the moves of every position in ``found`` (replacing what the graph had; a mover
        None: a known position, only its moves change), new positions added."""
        graph, ends = self.graph, self.graph.ends
        index, added = graph.index_of, {}

        def number(name: str) -> int:
            state = index(name)
            if state < 0:
                state = added.setdefault(name, graph.n + len(added))
            return state
        rows, moves, changed, told = {}, {}, {}, []
        for name, (mover, end, edges) in found.items():
            state = number(name)
            rows[state] = [number(term) for _, term in edges]
            moves[state] = [move for move, _ in edges]
            if mover is not None:
                told.append(state)
                changed[state] = (mover, -1 if end is None else ends.index(end))
        fresh = [changed.pop(graph.n + i, (0, -1)) for i in range(len(added))]
        self.graph = graph.patched(rows, moves, [t for t, _ in fresh], [e for _, e in fresh], list(added), changed,
                                  take_index=True)
        add_moving(self.moving, self.graph, told, self.layout, self.board.rules)
        self.ranks = None

    def toggle(self, wall: Wall) -> None:
        """Remove ``wall`` if the board has it, else add it; the moves near it are computed again
        (or restored, when this toggle undoes one made before)."""
        affected = WallGraph.affected(self, wall)       # reads board, layout and moving, as WallGraph has them
        graph = self.graph
        before = graph.saved_rows(affected)
        restore = self.undo.pop((wall, self.board.north, self.board.east), None)
        self.board = toggled(self.board, wall)
        if restore is not None:
            self._restore(restore)
        elif affected:
            found = explore(self.board, [graph.names[state] for state in affected], False, EDGES)
            self.patches += len(found)
            unseen = {term for entry in found.values() for _, term in entry[2] if graph.index_of(term) < 0}
            if unseen:
                found.update(explore(self.board, sorted(unseen), True))
            self._merge(found)
        self.undo[(wall, self.board.north, self.board.east)] = before
        while len(self.undo) > PATCHES_KEPT:
            del self.undo[next(iter(self.undo))]

    def _restore(self, saved: tuple) -> None:
        """Give the positions of ``saved`` (:meth:`GameGraph.saved_rows`) those moves again."""
        self.graph = self.graph.with_rows(saved, names=[], take_index=True)
        self.ranks = None

    def set_walls(self, north: frozenset, east: frozenset) -> int:
        """Toggle every edge in which the board differs from ``north`` and ``east``; returns how many."""
        edges = [Wall(c, "north") for c in sorted(self.board.north ^ north)] + \
                [Wall(c, "east") for c in sorted(self.board.east ^ east)]
        for wall in edges:
            self.toggle(wall)
        return len(edges)

    # - The ranks ---
    def _ranks(self) -> dict[int, list[int]]:
        """Per race, per position: the plies in which the race's attackers force one of its
        targets (-1: never), by the retrograde analysis of solve.lp over the whole graph."""
        return {race: self.graph.ranks(attackers, targets, exclude_ends=True)[0].tolist()
                for race, (attackers, targets) in enumerate(self.races.races, 1)}

    def _forced(self, state: int, left: int) -> dict[int, int]:
        if self.ranks is None:
            self.ranks = self._ranks()
        return {k: r[state] for k, r in self.ranks.items() if 0 <= r[state] <= left}

    # - Answers (read by the one answer reader, gridsolve/solve/race/reader.py) ---
    forced = _forced        # the reader's names for the graph: forced, moves_of, is_end, side_of, position_after

    def moves_of(self, state: int) -> list[tuple[clingo.Symbol, int]]:
        return self.graph.moves_of(state)

    def is_end(self, state: int) -> bool:
        return self.graph.is_end(state)

    def side_of(self, state: int) -> int:
        return int(self.graph.turn[state])

    def position_after(self, before: Position, state: int, after: int, turn: int) -> Position:
        return self.position(after, before.step + 1)

    def answer(self, query: Query) -> Answer:
        """The answer to ``query`` as :func:`~gridsolve.solve.dispatch.dispatcher.solve` gives it (stats aside)."""
        if query.role not in self.plans:
            raise EncodingError(f"the race solver does not answer the questions of {query.role}")
        self.add_roots([query.position])
        plan, value_known = self.plans[query.role]
        root = self.state(query.position)
        return reader.answer(self, self.board, query, plan, value_known, root, query.remaining(self.board),
                             SolveStats(solver=LIVE_GRAPH, detail=RaceStats(positions=self.graph.n)))

    def position(self, state: int, step: int) -> Position:
        """Position ``state`` at ``step``."""
        return self.codec.position_of_arguments(arguments_of_text(self.graph.names[state]), step)


def moves_from(graph: LiveGraph, query: Query) -> dict:
    """{move: the position after it} of the moves at the query's position."""
    state = graph.state(query.position)
    return {format_move(move): graph.position(successor, query.position.step + 1)
            for move, successor in graph.moves_of(state)}
