"""The answers of :mod:`gridsolve.gdl.answers` read off depth-first searches
(:mod:`gridsolve.gdl.depthsearch`) instead of the ranking of the whole graph, with the same meaning.

* **win**: the role forces an end at its top goal within the horizon; ``win_plies`` the first
  depth at which it does (deepening one step at a time, stopping at the first one forced).
* **value**: the highest goal ``v`` the role's goal rules give that it forces an end at or
  above (the highest forced threshold of the ranking: the ends' goals between two of the
  rules' values force the same); its plies measured as the ranking measures them: where ``v``
  is the lowest goal of the ends reached (no end below it is reachable) and some end reached is
  above it, the fewest steps in which the others force an end at or below it, else the fewest
  in which the role forces one at or above it.
* per move: the same after the role commits to it, its step counted (steps after it: one fewer).

With a horizon only ends within it count; without one, the depth grows until it stops mattering.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..solve.common.answer import GameState, Ply
from .depthsearch import DepthSearch, SearchStep, Target, key_bits
from .engine import GroundGame
from .translate import symbol_kif


@dataclass
class RoleValue:
    """A role's value from a state (None: no end forced), the ``Target`` that measures its plies and the plies."""

    value: int | None
    measure: Target | None
    plies: int | None


class DepthAnswers:
    """The answers for ``search.role`` from the state ``key`` within ``horizon`` steps (None: any)."""

    def __init__(self, search: DepthSearch, key: bytes, horizon: int | None):
        self.search, self.key, self.horizon = search, key, horizon
        r = search.role
        self.values = sorted({v for v, _ in search.game.goals[r]}, reverse=True)
        self.top = self.values[0] if self.values else None
        self._floor: dict[int, bool] = {}

    def _within(self, target: Target, move: int | None = None) -> bool:
        search = self.search
        if self.horizon is not None:
            if move is None:
                return search.forced(self.key, self.horizon, target)[0]
            return search.forced_after(self.key, move, self.horizon, target)[0]
        return search.least(self.key, target, None, move) is not None

    def win_plies(self, move: int | None = None) -> int | None:
        """The fewest steps of a forced end at the top goal (None: no win)."""
        if self.top is None:
            return None
        return self.search.least(self.key, Target("role", low=self.top), self.horizon, move)

    def _measured_by_floor(self, value: int) -> bool:
        """The ranking's floor: ``value`` the lowest goal of the ends reached, and some end above it."""
        if value not in self._floor:
            reach = (lambda low, high: self._within(Target("anyone", low, high)))
            self._floor[value] = not (value > 0 and reach(0, value - 1)) and reach(value + 1, 1 << 30)
        return self._floor[value]

    def value(self, move: int | None = None) -> RoleValue:
        """The role's value (after ``move`` where given) and its plies."""
        for v in self.values:
            if self._within(Target("role", low=v), move):
                measure = Target("others", high=v) if self._measured_by_floor(v) else Target("role", low=v)
                return RoleValue(v, measure, self.search.least(self.key, measure, self.horizon, move))
        return RoleValue(None, None, None)

    def line(self, target: Target | None, plies: int | None) -> list[SearchStep]:
        if target is None or plies is None:
            return []
        return self.search.line(self.key, target, plies)


def own_moves(line: list[SearchStep]) -> int:
    """The steps of ``line`` where the role chose among more than one legal move."""
    return sum(1 for step in line if step.choices > 1)


def line_plies(game: GroundGame, start: GameState, line: list[SearchStep]) -> tuple[Ply, ...]:
    """The line a depth-first search found as the answer's steps: each its joint move (each
    role's move as KIF) and the state after it, from ``start``."""
    out, before, names = [], start, tuple(game.role_names)
    for index, step in enumerate(line):
        joint = [symbol_kif(game.moves[r][m]) for r, m in enumerate(step.joint)]
        after = GameState(tuple(game.fluent_texts(key_bits(step.after, len(game.fluents)))))
        out.append(Ply(index, names, " ".join(joint), before, after, dict(zip(names, joint))))
        before = after
    return tuple(out)
