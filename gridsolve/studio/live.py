"""The studio's warm answers: a board's game graph kept in memory and patched after each edit.

A :class:`LiveGraph` holds the game graph of a board (every position reachable from the
positions asked about, with its mover, its end and its moves), computed once by clingo from
the compiled game rules as ``explain`` computes it (:mod:`gridsolve.solve.explain.walls`).  A wall
toggled in the studio patches the graph in place: only the positions whose side to move has a
piece near the toggled edge get their moves again from clingo (``WallGraph.affected``), and
positions the new wall layout opens are explored.  Every race of the board's race solver is
then ranked on the whole graph by the retrograde analysis of ``encodings/solve.lp``, and the
answer (value, plies, win, survival, every move's answer and the principal line) is read off
the ranks as ``encodings/answer.lp`` reads it, key for key and tie for tie.  The answers equal
those of :func:`gridsolve.solve.dispatch.dispatcher.solve` on the edited board (tests/test_studio_live.py).

Applies where the race solver answers the question and no end depends on walls
(:func:`gridsolve.solve.explain.walls.graph_supported`); the studio asks the other questions in a
worker process (:mod:`gridsolve.studio.jobs`).
"""
from __future__ import annotations

import clingo

from ..compile.planning import shared_races
from ..compile.state import START, layout_for
from ..errors import EncodingError
from ..language.model import Board
from ..language.position import Position, Query
from ..solve.race.racesolver import race_roles
from ..solve.graph.codec import PositionCodec, arguments_of_text
from ..solve.graph.racegraph import rank_by_levels
from ..solve.common.answer import Answer, MoveValue, Ply, SolveStats
from ..solve.program.driver import format_move
from ..solve.explain.walls import Outcome, Wall, WallGraph, graph_atoms, graph_supported, read_outcome, toggled
from ..language.kinds import QueryKind

SHOW = "#show. #show e(S,M,S2) : edge(S,M,S2). #show m(S,T) : mover(S,T). #show o(S,E) : outcome(S,E)."
EDGES = "#show. #show e(S,M,S2) : edge(S,M,S2)."    # the moves only: a known position keeps its mover and end
PATCHES_KEPT = 256      # wall toggles whose reverse is kept: toggling back (undo) needs no clingo call


def supported(board: Board, query: Query) -> bool:
    """Whether a :class:`LiveGraph` answers ``query`` on ``board``."""
    return not query.hidden and not query.strategy and graph_supported(board, query) \
        and query.role in race_roles(board)


_MOVES: dict[str, clingo.Symbol] = {}      # move term text -> the term (for its order in clingo)


def _move(text: str) -> clingo.Symbol:
    term = _MOVES.get(text)
    if term is None:
        term = _MOVES[text] = clingo.parse_term(text)
    return term


def explore(board: Board, roots: list[str], closure: bool, show: str = SHOW) -> dict:
    """{position term: [mover, end or None, [(move term, successor term), ...]]} of ``roots``
    (with ``closure``, and of every position reachable from them) on ``board``; with ``show``
    :data:`EDGES`, the moves of the roots only (mover None: unchanged).  Each shown atom
    is read from its text (one call into clingo per atom): position terms ``s(...)`` hold numbers
    only, so the first ends at the first ``)`` and the last starts at the last ``,s(``."""
    out: dict = {} if show == SHOW else {r: [None, None, []] for r in roots}
    for text in graph_atoms(board, roots, closure, show):
        cut = text.index(")") + 1
        state = text[2:cut]
        entry = out.get(state)
        if entry is None:
            entry = out[state] = [0, None, []]
        if text[0] == "e":
            last = text.rindex(",s(")
            entry[2].append((_move(text[cut + 1:last]), text[last + 1:-1]))
        elif text[0] == "m":
            entry[0] = int(text[cut + 1:-1])
        else:
            entry[1] = text[cut + 1:-1]
    return out


class LiveGraph:
    """The game graph of ``board`` from ``roots``, patched as walls are toggled; answers every
    race-solver question about the board's roles (see :func:`supported`)."""

    def __init__(self, board: Board, roots: list[Position]):
        self.board = board
        self.layout = layout_for(board)
        self.codec = PositionCodec(board, self.layout)     # (walls change no position term: kept as they are toggled)
        self.roles_served = race_roles(board)
        self.races, self.plans = shared_races(board.rules, self.roles_served)
        self.names: list[str] = []
        self.index: dict[str, int] = {}
        self.mover: list[int] = []
        self.outcome: dict[int, str] = {}
        self.succ: list[list[tuple[clingo.Symbol, int]]] = []
        self.pred: list[list[int]] = []
        self.moving: dict = {}          # (role, cell) -> positions whose side moves it from there
        self.ranks: dict[int, list[int]] | None = None
        self.patches = 0                # positions whose moves were computed again
        self.undo: dict = {}            # (wall, north, east) -> the moves it restores, see toggle()
        self.add_roots(roots)

    # - The graph ---
    def term(self, position: Position) -> str:
        return self.codec.text(position)

    def knows(self, position: Position) -> bool:
        return self.term(position) in self.index

    def add_roots(self, roots: list[Position]) -> None:
        """Explore the positions reachable from ``roots`` that the graph does not hold yet."""
        terms = [term for term in (self.term(p) for p in roots) if term not in self.index]
        if terms:
            self._merge(explore(self.board, terms, True))

    def _slot(self, name: str) -> int:
        state = self.index.get(name)
        if state is None:
            state = self.index[name] = len(self.names)
            self.names.append(name)
            self.mover.append(0)
            self.succ.append([])
            self.pred.append([])
        return state

    def _merge(self, found: dict) -> None:
        """Set the moves of every position in ``found`` (replacing what the graph had)."""
        roles = self.layout.roles
        rules = self.board.rules
        for name, (mover, end, edges) in found.items():
            state = self._slot(name)
            for _, successor in self.succ[state]:
                self.pred[successor].remove(state)
            self.succ[state] = [(move, self._slot(term)) for move, term in edges]
            for _, successor in self.succ[state]:
                self.pred[successor].append(state)
            if mover is None:           # a known position: only its moves change
                continue
            if state in self.outcome:
                del self.outcome[state]
            self.mover[state] = mover
            if end is not None:
                self.outcome[state] = end
                continue
            inner = name[len(START) + 1:-1] if name.startswith(f"{START}(") else name   # start(S): S's cells
            numbers = arguments_of_text(inner)
            for role in rules.turns[mover]:
                i = roles.index(role)
                self.moving.setdefault((role, (numbers[1 + 2 * i], numbers[2 + 2 * i])), set()).add(state)
        self.ranks = None

    def toggle(self, wall: Wall) -> None:
        """Remove ``wall`` if the board has it, else add it; the moves near it are computed again
        (or restored, when this toggle undoes one made before)."""
        affected = WallGraph.affected(self, wall)       # reads board, layout and moving, as WallGraph has them
        before = [(state, self.succ[state]) for state in affected]     # (the lists are replaced, never changed in place)
        restore = self.undo.pop((wall, self.board.north, self.board.east), None)
        self.board = toggled(self.board, wall)
        if restore is not None:
            self._restore(restore)
        elif affected:
            found = explore(self.board, [self.names[state] for state in affected], False, EDGES)
            self.patches += len(found)
            unseen = {term for entry in found.values() for _, term in entry[2] if term not in self.index}
            self._merge(found)
            if unseen:
                self._merge(explore(self.board, sorted(unseen), True))
        self.undo[(wall, self.board.north, self.board.east)] = before
        while len(self.undo) > PATCHES_KEPT:
            del self.undo[next(iter(self.undo))]

    def _restore(self, saved: list) -> None:
        """Give each position of ``saved`` ([(position, moves)]) those moves again."""
        for state, edges in saved:
            for _, successor in self.succ[state]:
                self.pred[successor].remove(state)
            self.succ[state] = edges
            for _, successor in edges:
                self.pred[successor].append(state)
        self.ranks = None

    def set_walls(self, north: frozenset, east: frozenset) -> int:
        """Toggle every edge in which the board differs from ``north`` and ``east``; returns how many."""
        edges = [Wall(c, "north") for c in sorted(self.board.north ^ north)] + \
                [Wall(c, "east") for c in sorted(self.board.east ^ east)]
        for wall in edges:
            self.toggle(wall)
        return len(edges)

    # - The ranks ---
    def _rank(self, race: int) -> list[int]:
        """Per position: the plies in which the race's attackers force one of its targets
        (-1: never), by the retrograde analysis of solve.lp over the whole graph."""
        attackers, targets = self.races.races[race - 1]
        n = len(self.names)
        rank = [-1] * n
        frontier = [state for state, end in self.outcome.items() if end in targets]
        for state in frontier:
            rank[state] = 0
        attacks = [m in attackers for m in self.mover]
        open_count = [len(edges) for edges in self.succ]
        outcome = self.outcome
        return rank_by_levels(rank, frontier, self.pred, attacks, open_count,
                              lambda state: rank[state] >= 0 or state in outcome)

    def _forced(self, state: int, left: int) -> dict[int, int]:
        if self.ranks is None:
            self.ranks = {k: self._rank(k) for k in range(1, len(self.races.races) + 1)}
        return {k: r[state] for k, r in self.ranks.items() if 0 <= r[state] <= left}

    def outcome_at(self, state: int, role: str, left: int) -> Outcome:
        plan, value = self.plans[role]
        return read_outcome(self.board, role, plan, value, self._forced(state, left))

    # - Answers ---
    def answer(self, query: Query) -> Answer:
        """The answer to ``query`` as :func:`~gridsolve.solve.dispatch.dispatcher.solve` gives it (stats aside)."""
        if query.role not in self.plans:
            raise EncodingError(f"the race solver does not answer the questions of {query.role}")
        self.add_roots([query.position])
        role, left = query.role, query.remaining(self.board)
        root = self.index[self.term(query.position)]
        here = self.outcome_at(root, role, left)
        value_known = self.plans[role][1]
        moves = []
        if left > 0 and root not in self.outcome:
            for move, successor in self.succ[root]:
                after = self.outcome_at(successor, role, left - 1)
                moves.append(MoveValue(move=format_move(move), value=after.value, plies=after.plies, win=after.win,
                                       survives=after.survives, doom_plies=after.doom_plies))
        moves.sort(key=lambda m: m.move)
        if query.kind == QueryKind.WIN:
            holds, plies = here.win, here.win_plies
        elif query.kind == QueryKind.SURVIVE:
            holds, plies = here.survives, here.doom_plies
        else:
            holds, plies = True, here.plies
        line = self.line(query.position, root, role, left) if value_known else ()
        return Answer(board=self.board.name, role=role, query=query.kind, holds=bool(holds), value=here.value,
                      plies=plies, win=here.win, win_plies=here.win_plies, survives=here.survives,
                      win_moves=self.board.rules.own_moves(query.position.side, here.win_plies, role),
                      doom_plies=here.doom_plies, remaining=left, position=query.position.as_dict(self.board),
                      moves=moves, line=line, stats=SolveStats(solver="studio graph", positions=len(self.names)))

    def line(self, start: Position, state: int, role: str, left: int) -> tuple[Ply, ...]:
        """The principal line from ``start`` (position ``state``): the side to move picks its best
        move by the key of answer.lp (value, then plies: hurry above the timeout score, delay
        below), ties going to the greatest move term for the role's side and the least for the
        others."""
        rules = self.board.rules
        timeout = rules.timeout[role]
        out, before = [], start
        while left > 0 and state not in self.outcome and self.succ[state]:
            keyed = []
            for move, successor in self.succ[state]:
                after = self.outcome_at(successor, role, left - 1)
                if after.value is None:
                    return tuple(out)
                tie = 0 if after.value == timeout else (after.plies if after.value < timeout else -after.plies)
                keyed.append(((after.value, tie), move, successor))
            turn = self.mover[state]
            pick = max if rules.own_turn(turn, role) else min
            _, move, successor = pick(keyed, key=lambda k: (k[0], k[1]))
            position = self.position(successor, before.step + 1)
            out.append(Ply(len(out), tuple(rules.turns[turn]), format_move(move), before, position))
            state, left, before = successor, left - 1, position
        return tuple(out)

    def position(self, state: int, step: int) -> Position:
        """Position ``state`` at ``step``."""
        return self.codec.position_of_arguments(arguments_of_text(self.names[state]), step)


def moves_from(graph: LiveGraph, query: Query) -> dict:
    """{move: the position after it} of the moves at the query's position."""
    state = graph.index[graph.term(query.position)]
    return {format_move(move): graph.position(successor, query.position.step + 1)
            for move, successor in graph.succ[state]}
