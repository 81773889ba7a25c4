"""The one outcome view every solver fills, and the one reader of answers off it.

Every solver family (the race graph's ranks, the bounded and robust threshold searches, the
compiled clingo program, the layered table) gives the same small things: the
:class:`Outcome` at a position (value and plies, win, survival and their plies) and at the
position after each of its moves, and, for the principal line, the moves a position may pick
with the key they are picked by and the position after the one picked: an
:class:`OutcomeView` (the race graph, the bounded and robust searches; the clingo program and
the layered table show their line as layered.lp's and answer.lp's atoms, which the layered
table picks by the same rule).
From these, written once here:

* :func:`line_key` and :func:`pick`: the principal line's rule of encodings/answer.lp and
  layered.lp (``key``, ``beaten``/``best``): the side to move picks its best move by (value,
  tie), tie = -plies above the reference score (hurry), +plies below (delay), 0 at it, a move
  whose plies are not forced left out; the role's side takes the greatest (key, move), the others
  the least; :func:`reference_score` is the reference (the timeout score, moved half a point
  where a conditional timeout entry gives the role's top or lowest score);
* :class:`OutcomeView`: what a solver gives of its positions, and :func:`principal_line`: the
  line walked from a position by that rule;
* :func:`read_answer`: every board's :class:`~gridsolve.solve.common.answer.Answer`, with its
  list of moves, and :func:`read_game_answer` a GDL game's (its breadth-first ranking,
  :mod:`gridsolve.gdl.answers`, fills an :class:`OutcomeView` too; its depth-first searches
  give their outcomes and the line they found).
"""
from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import NamedTuple, Protocol

from ...language import wording
from ...language.kinds import QueryKind
from ...language.model import Board
from ...language.position import Position, Query
from .answer import Answer, GameDetail, GameState, GameStats, MoveValue, Ply, SolveStats


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

    def held(self, kind: QueryKind) -> tuple[bool, int | None]:
        """(holds, plies) of a question of ``kind``: a value question always holds."""
        holds, plies = self.key(kind)
        return (True, plies) if kind == QueryKind.VALUE else (bool(holds), plies)

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
    def of(cls, answer: Answer) -> "Outcome":
        """The outcome an answer reports at its position (its plies: the value's, on a value question)."""
        return cls(answer.value, answer.plies if answer.query == QueryKind.VALUE else None, answer.win,
                   answer.win_plies, answer.survives, answer.doom_plies)


# - The principal line's rule (answer.lp's key and beaten, layered.lp's key and best) ---

def reference_score(timeout: int, by_rule: bool, lowest: int, top: int) -> float:
    """The score the plies are measured against: the timeout score, except where a conditional
    timeout entry gives it (``by_rule``) and it is the role's top score (the role forces it:
    just below it) or its lowest (the others force it: just above it)."""
    if by_rule and timeout == top:
        return timeout - 0.5
    if by_rule and timeout == lowest:
        return timeout + 0.5
    return timeout


def line_key(value: int, plies: int | None, reference: float) -> tuple[int, int] | None:
    """(value, tie) of a move worth ``value`` in ``plies``: tie = -plies above the reference
    (hurry), +plies below (delay), 0 at it; None where its plies are not forced (not a candidate)."""
    if value == reference:
        return value, 0
    if plies is None:
        return None
    return (value, -plies) if value > reference else (value, plies)


class Candidate(NamedTuple):
    """A move a line position may pick: its :func:`line_key`, the move ties are broken by
    (a move term or name), and what the solver follows it by."""

    key: tuple
    order: object
    move: object


def pick(candidates: Iterable[Candidate], maximises: bool,
         accept: Callable[[Candidate], bool] | None = None) -> Candidate | None:
    """The move the side to move picks: the greatest (key, order) where it ``maximises`` (the
    role's side), else the least; ``accept`` (when given) passes over the best ones it refuses
    (a solver that learns a candidate's worth only when asked)."""
    ordered = sorted(candidates, key=lambda c: (c.key, c.order), reverse=maximises)
    return next((c for c in ordered if accept is None or accept(c)), None)


def keyed(moves: Iterable[tuple[object, object, int, int | None]], reference: float) -> list[Candidate]:
    """The candidates of ``(order, move, value, plies)``: those with a :func:`line_key`."""
    out = []
    for order, move, value, plies in moves:
        key = line_key(value, plies, reference)
        if key is not None:
            out.append(Candidate(key, order, move))
    return out


class OutcomeView(Protocol):
    """What every solver family gives of its positions; a view position (``state``) is whatever
    the solver walks them by (a position with its plies left, items or knowledge): the outcome
    there and after each move (what the answer reads), and what its principal line picks by."""

    def outcome(self, state: Hashable) -> Outcome:
        """The outcome at ``state``."""

    def moves(self, state: Hashable) -> list[tuple[object, object, Outcome]]:
        """(move, what follows it: the view position after it, or the others' answers to it, the
        outcome there) of each move of ``state`` (none where an end decides it or its plies are out)."""

    def candidates(self, state: Hashable) -> list[Candidate]:
        """The moves ``state`` may pick, keyed (none where the line stops there)."""

    def maximises(self, state: Hashable) -> bool:
        """Whether the side to move at ``state`` is the role's (it takes the greatest key)."""

    def accept(self, state: Hashable, candidate: Candidate) -> bool:
        """Whether ``candidate`` may be picked (the best accepted is)."""

    def side(self, state: Hashable) -> tuple[str, ...]:
        """The roles that move at ``state``."""

    def play(self, state: Hashable, candidate: Candidate, before: Position | GameState) -> tuple:
        """(the ply as the line names it, the line position after it, its :class:`Position`; a GDL
        game's step: its :class:`GameState`, and each role's move, ``{role: move}``)."""


def principal_line(view: OutcomeView, start: Position, state: Hashable, most: int | None = None,
                   repeats: Callable[[Hashable], Hashable] | None = None) -> tuple[Ply, ...]:
    """The principal line from ``start`` (line position ``state``) by the rule above, at most
    ``most`` plies (None: to its end); with ``repeats`` (a line position's identity) it stops
    before a position it has passed."""
    out, before, seen = [], start, set()
    while most is None or len(out) < most:
        if repeats is not None:
            identity = repeats(state)
            if identity in seen:
                break
            seen.add(identity)
        chosen = pick(view.candidates(state), view.maximises(state), lambda c: view.accept(state, c))
        if chosen is None:
            break
        side = view.side(state)
        name, state, after, *joint = view.play(state, chosen, before)
        out.append(Ply(len(out), side, name, before, after, *joint))
        before = after
    return tuple(out)


# - The one answer reader ---

def read_answer(board: Board, query: Query, at: Outcome, moves: Iterable[tuple[str, Outcome]],
                line: tuple[Ply, ...] | None, remaining: int, stats: SolveStats,
                strategy: list[dict] | None = None, hidden: bool | None = None) -> Answer:
    """The answer to ``query`` whose position's outcome is ``at`` and whose moves' are
    ``moves`` ((move name, outcome) each; listed by name), with ``remaining`` plies left;
    ``hidden``: the robust answer of a ``--hidden`` question (default: as the query asks)."""
    return _answer(board.name, query.role, query.kind, at.held(query.kind), at, sorted(moves, key=lambda m: m[0]),
                   board.rules.own_moves(query.position.side, at.win_plies, query.role), remaining,
                   query.position.as_dict(board), line, stats, strategy=strategy,
                   hidden=query.hidden if hidden is None else hidden)


def read_game_answer(game: str, role: str, kind: QueryKind, at: Outcome, moves: Iterable[tuple[str, Outcome]],
                     win_moves: int | None, horizon: int | None, position: GameState, line: tuple[Ply, ...] | None,
                     stats: GameStats, detail: GameDetail) -> Answer:
    """The answer about the GDL game ``game`` (docs/gdl.md): ``at`` the outcome at ``position``
    (its plies the value's, on either question: steps), ``moves`` the role's moves' outcomes (in
    the game's order), ``win_moves`` the role's own choices in its fastest win; a value holds
    where an end is forced (its value not None), a win where the role forces its top goal."""
    holds = bool(at.win) if kind == QueryKind.WIN else at.value is not None
    return _answer(game, role, kind, (holds, at.plies), at, moves, win_moves, horizon, position.as_dict(), line,
                   stats, game=detail)


def _answer(board: str, role: str, kind: QueryKind, held: tuple[bool, int | None], at: Outcome,
            moves: Iterable[tuple[str, Outcome]], win_moves: int | None, remaining: int | None, position: dict,
            line: tuple[Ply, ...] | None, stats: SolveStats | GameStats, **detail) -> Answer:
    """The one :class:`Answer`: ``held`` (holds, plies), the outcome ``at`` the position and
    its moves', listed in the order given."""
    listed = [MoveValue(move=name, value=there.value, plies=there.plies, win=there.win, survives=there.survives,
                        doom_plies=there.doom_plies) for name, there in moves]
    holds, plies = held
    return Answer(board=board, role=role, query=kind, holds=holds, value=at.value, plies=plies, win=at.win,
                  win_plies=at.win_plies, win_moves=win_moves, survives=at.survives, doom_plies=at.doom_plies,
                  remaining=remaining, position=position, moves=listed, line=line, stats=stats, **detail)
