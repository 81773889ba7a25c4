"""The one answer reader: an answer read off the races forced at positions, by the rules of
encodings/answer.lp.

Every solver that ranks the races of a question (encodings/solve.lp's ``won_in(K,S,D)``) reads
its answer here: the race solver (:mod:`gridsolve.solve.race.rankread` over its
:class:`~gridsolve.solve.graph.racegraph.RaceGraph`), ``explain``'s wall graph
(:mod:`gridsolve.solve.explain.walls`, the outcome at the question's position) and the studio's
live graph (:mod:`gridsolve.studio.live`).  Each gives a :class:`GameView` of its graph; the
reader derives what answer.lp derives:

* :func:`outcome`: at one position, from the races forced there within its plies left: the
  value, its plies, win and win plies, survival and doom plies (``output(q)``'s atoms);
* :func:`answer`: the answer to a query, with every move's outcome and the principal line
  (``line(q,i)``'s ``line/4``, with the positions before and after each ply) and ``win_moves``.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Hashable, Protocol

import clingo

from ...compile.planning import RacePlan
from ...language import wording
from ...language.kinds import QueryKind
from ...language.model import NO_LIMIT, Board, Rules
from ...language.position import Position, Query
from ..common.answer import Answer, MoveValue, Ply, SolveStats
from ..program.driver import format_move


@dataclass(frozen=True)
class Outcome:
    """The answer at one position: as ``gridsolve solve --json`` reports it (value, plies and
    win are None where the role's value is not known)."""

    value: int | None
    plies: int | None
    win: bool | None
    win_plies: int | None
    survives: bool
    doom_plies: int | None

    def key(self, kind: QueryKind) -> tuple:
        """What the question asks: the value and its plies, or whether it holds and in how many plies."""
        if kind == QueryKind.WIN:
            return self.win, self.win_plies
        if kind == QueryKind.SURVIVE:
            return self.survives, self.doom_plies
        return self.value, self.plies

    def describe(self, role: str, kind: QueryKind) -> str:
        """The answer in words, for the question ``kind``."""
        if kind == QueryKind.WIN:
            if not self.win:
                return f"{role} cannot force a win"
            return f"{role} forces a win in {wording.plies(self.win_plies)}"
        if kind == QueryKind.SURVIVE:
            if self.survives:
                return f"{role} survives"
            return f"the others force a losing end in {wording.plies(self.doom_plies)}"
        if self.win:
            return f"{role} forces a win in {wording.plies(self.plies)}, value {self.value}"
        if self.plies is None:
            return f"value {self.value}, nothing is forced"
        return f"value {self.value}, forced in {wording.plies(self.plies)}"

    @classmethod
    def of(cls, answer) -> "Outcome":
        return cls(answer.value, answer.plies if answer.query == QueryKind.VALUE else None, answer.win,
                   answer.win_plies, answer.survives, answer.doom_plies)


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


def successors(graph: GameView, rules: Rules, role: str, races: RacePlan, value_known: bool, state: Hashable,
               left: int) -> list[tuple[clingo.Symbol, Hashable, Outcome]]:
    """(move, position after it, the outcome there with one ply fewer) of each move of ``state``
    with ``left`` plies left (none where the plies are out or an end holds: answer.lp's probes)."""
    if left <= 0 or graph.is_end(state):
        return []
    return [(move, after, outcome(rules, role, races, value_known, graph.forced(after, left - 1)))
            for move, after in graph.moves_of(state)]


def principal_line(graph: GameView, rules: Rules, role: str, races: RacePlan, start: Position, state: Hashable,
                   left: int, most: int | None = None, first: list | None = None) -> tuple[Ply, ...]:
    """The principal line from ``start`` (position ``state``, ``left`` plies left), at most
    ``most`` plies (None: to its end), as answer.lp's ``line(q,i)`` parts: at each position the
    side to move picks its best move by (value, tie), tie = -plies above the role's timeout
    score (hurry), +plies below (delay), a move whose plies are not forced there left out; the
    role's side takes the greatest (key, move term), the others the least.  Without a step limit
    (``rules.unlimited``) and without a horizon the line stops before a position it has passed
    (with a horizon it goes on to it, as answer.lp's).  ``first``: :func:`successors` of
    ``state``, when the caller has them."""
    timeout = rules.timeout[role]
    endless = rules.unlimited and left >= NO_LIMIT // 2
    seen = set()
    out, before = [], start
    for i in range(left if most is None else min(most, left)):
        if graph.is_end(state) or state in seen:
            break
        if endless:
            seen.add(state)
        keyed = []
        found = first if i == 0 and first is not None else \
            successors(graph, rules, role, races, True, state, left - i)
        for move, after, there in found:
            if there.value != timeout and there.plies is None:
                continue
            tie = 0 if there.value == timeout else (-there.plies if there.value > timeout else there.plies)
            keyed.append(((there.value, tie), move, after))
        if not keyed:
            break
        turn = graph.side_of(state)
        _, move, after = (max if rules.own_turn(turn, role) else min)(keyed, key=lambda k: (k[0], k[1]))
        position = graph.position_after(before, state, after, turn)
        out.append(Ply(i, tuple(rules.turns[turn]), format_move(move), before, position))
        state, before = after, position
    return tuple(out)


def answer(graph: GameView, board: Board, query: Query, races: RacePlan, value_known: bool, state: Hashable,
           left: int, stats: SolveStats, line_plies: int | None = None) -> Answer:
    """The answer to ``query`` at position ``state`` of ``graph`` with ``left`` plies left (the
    role's races numbered as in ``races``), with the principal line up to ``line_plies`` plies
    (None: to its end; 0: no line, the answer's ``line`` is None)."""
    rules, role = board.rules, query.role
    here = outcome(rules, role, races, value_known, graph.forced(state, left))
    after = successors(graph, rules, role, races, value_known, state, left)
    moves = [MoveValue(move=format_move(move), value=there.value, plies=there.plies, win=there.win,
                       survives=there.survives, doom_plies=there.doom_plies) for move, _, there in after]
    moves.sort(key=lambda m: m.move)
    if query.kind == QueryKind.WIN:
        holds, plies = here.win, here.win_plies
    elif query.kind == QueryKind.SURVIVE:
        holds, plies = here.survives, here.doom_plies
    else:
        holds, plies = True, here.plies
    line = None if line_plies == 0 else \
        principal_line(graph, rules, role, races, query.position, state, left, line_plies, after) if value_known else ()
    return Answer(board=board.name, role=role, query=query.kind, holds=bool(holds), value=here.value, plies=plies,
                  win=here.win, win_plies=here.win_plies,
                  win_moves=rules.own_moves(query.position.side, here.win_plies, role), survives=here.survives, doom_plies=here.doom_plies, remaining=left,
                  position=query.position.as_dict(board), moves=moves, line=line, stats=stats, hidden=query.hidden)
