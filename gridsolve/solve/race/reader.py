"""The answers of ranked game graphs: an answer read off the races forced at positions, by the
rules of encodings/answer.lp (the outcome view of :mod:`gridsolve.solve.common.outcome`).

Every solver that ranks the races of a question (encodings/solve.lp's ``won_in(K,S,D)``) reads
its answer here: the race solver (:mod:`gridsolve.solve.race.rankread` over its
:class:`~gridsolve.solve.graph.racegraph.RaceGraph`), ``explain``'s wall graph
(:mod:`gridsolve.explain.walls`, the outcome at the question's position) and the studio's
live graph (:mod:`gridsolve.studio.live`).  Each gives a :class:`GameView` of its graph; the
reader derives what answer.lp derives:

* :func:`outcome`: at one position, from the races forced there within its plies left: the
  value, its plies, win and win plies, survival and doom plies (``output(q)``'s atoms);
* :func:`answer`: the answer to a query, with every move's outcome and the principal line
  (``line(q,i)``'s ``line/4``, with the positions before and after each ply), read by the one
  answer reader and walked by the one line rule (:mod:`gridsolve.solve.common.outcome`).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Hashable, Protocol

import clingo

from ...compile.planning import RacePlan
from ...language.model import NO_LIMIT, Board, Rules
from ...language.position import Position, Query
from ..common.answer import Answer, SolveStats
from ..common.outcome import Candidate, Outcome, keyed, principal_line, read_answer
from ..program.driver import format_move


class GameView(Protocol):
    """What the reader needs of a ranked game graph; a position (``state``) is whatever the
    graph names it by (a clingo term, a number)."""

    def forced(self, state: Hashable, left: int) -> Mapping[int, int]:
        """{race: plies} of the races forced at ``state`` within ``left`` plies."""

    def moves_of(self, state: Hashable) -> Iterable[tuple[clingo.Symbol, Hashable]]:
        """(move term, position after it) of each move of ``state``."""

    def is_end(self, state: Hashable) -> bool:
        """Whether an end decides ``state`` (it has no moves to read)."""

    def side_of(self, state: Hashable) -> int:
        """The turns entry to move at ``state``."""

    def position_after(self, before: Position, state: Hashable, after: Hashable, turn: int) -> Position:
        """The position ``after``, reached from ``before`` (position ``state``) by a ply of ``turn``."""


def outcome(rules: Rules, role: str, races: RacePlan, value_known: bool, forced: Mapping[int, int]) -> Outcome:
    """The answer at a position from the races ``forced`` there within its plies ({race:
    plies}), as answer.lp's ``value``, ``plies``, ``win``, ``win_plies``, ``survives`` and
    ``doom_plies``: the value is the highest score whose race the role's team forces (up) or
    whose race the others do not force (down); its plies from the race that decides it (above
    the timeout score its own up race, below it the down race of the next score)."""
    doom = forced.get(races.avoid)
    if not value_known:
        return Outcome(None, None, None, None, doom is None, doom)
    scores, timeout = rules.scores_of(role), rules.timeout[role]
    value = max([scores[0]] + [t for t, k in races.up.items() if k in forced]
                + [t for t, k in races.down.items() if k not in forced])
    plies = None
    if value in races.up:
        plies = forced.get(races.up[value])
    elif value < timeout:
        above = min(t for t in scores if t > value)
        plies = forced.get(races.down[above]) if above in races.down else None
    if races.win is not None:
        win, win_plies = races.win in forced, forced.get(races.win)
    else:
        win, win_plies = value == scores[-1], None
    return Outcome(value, plies, win, win_plies, doom is None, doom)


class RaceView:
    """The outcome view of a ranked game graph (a :class:`~gridsolve.solve.common.outcome.OutcomeView`):
    a view position is (position, plies left), read by answer.lp's rules."""

    def __init__(self, graph: GameView, rules: Rules, role: str, races: RacePlan, value_known: bool):
        self.graph, self.rules, self.role, self.races, self.value_known = graph, rules, role, races, value_known
        self._moves: dict = {}

    def outcome(self, state: tuple) -> Outcome:
        """The outcome from the races forced at the position within its plies left."""
        position, left = state
        return outcome(self.rules, self.role, self.races, self.value_known, self.graph.forced(position, left))

    def moves(self, state: tuple) -> list[tuple[clingo.Symbol, tuple, Outcome]]:
        """(move, view position after it, the outcome there) of each move (none where the plies are
        out or an end holds: answer.lp's probes)."""
        found = self._moves.get(state)
        if found is None:
            position, left = state
            found = [] if left <= 0 or self.graph.is_end(position) else \
                [(move, (after, left - 1), self.outcome((after, left - 1))) for move, after in self.graph.moves_of(position)]
            self._moves[state] = found
        return found

    def candidates(self, state: tuple) -> list[Candidate]:
        return keyed(((move, (move, after), there.value, there.plies) for move, after, there in self.moves(state)),
                     self.rules.timeout[self.role])

    def maximises(self, state: tuple) -> bool:
        return self.rules.own_turn(self.graph.side_of(state[0]), self.role)

    def accept(self, state: tuple, candidate: Candidate) -> bool:
        return True

    def side(self, state: tuple) -> tuple[str, ...]:
        return tuple(self.rules.turns[self.graph.side_of(state[0])])

    def play(self, state: tuple, candidate: Candidate, before: Position) -> tuple[str, tuple, Position]:
        position, (move, after) = state[0], candidate.move
        return format_move(move), after, self.graph.position_after(before, position, after[0], self.graph.side_of(position))


def answer(graph: GameView, board: Board, query: Query, races: RacePlan, value_known: bool, state: Hashable,
           left: int, stats: SolveStats, line_plies: int | None = None, moves: bool = True) -> Answer:
    """The answer to ``query`` at position ``state`` of ``graph`` with ``left`` plies left (the
    role's races numbered as in ``races``), with the principal line up to ``line_plies`` plies
    (None: to its end; 0: no line, the answer's ``line`` is None) and every move's outcome
    (``moves`` False: none, the answer's ``moves`` are empty), by the one rule with the
    timeout score as the reference.  Without a step limit (``rules.unlimited``) and without a
    horizon the line stops before a position it has passed (with a horizon it goes on to it, as
    answer.lp's)."""
    rules, root = board.rules, (state, left)
    view = RaceView(graph, rules, query.role, races, value_known)
    here, after = view.outcome(root), view.moves(root) if moves else []
    endless = rules.unlimited and left >= NO_LIMIT // 2
    line = None if line_plies == 0 else () if not value_known else \
        principal_line(view, query.position, root, left if line_plies is None else min(line_plies, left),
                       (lambda s: s[0]) if endless else None)
    return read_answer(board, query, here, ((format_move(move), there) for move, _, there in after), line, left, stats)
