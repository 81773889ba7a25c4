"""How a query is answered: the races it needs (``RacePlan``, numbered and shared between
roles) and the solver that answers it (``Plan``: races over every reachable position, or
minimax layer by layer within the horizon)."""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from ..language.model import Board, Rules
from ..language.position import Query
from .gamerules import live_ends
from .state import Layout, layout_for
from ..language.kinds import QueryKind


class Mode(StrEnum):
    """How a query is answered: by races over every reachable position (encodings/solve.lp,
    answer.lp; the race solver) or minimax layer by layer within the horizon (layered.lp)."""

    RACE = "race"
    LAYERED = "layered"


@dataclass
class RacePlan:
    """The reachability races a query needs, numbered 1..n (equal races share a number)."""

    races: list[tuple[frozenset[int], frozenset[str]]] = field(default_factory=list)
    up: dict[int, int] = field(default_factory=dict)       # threshold -> race
    down: dict[int, int] = field(default_factory=dict)     # threshold -> race
    avoid: int | None = None
    win: int | None = None

    def race(self, attackers, targets) -> int:
        key = (frozenset(attackers), frozenset(targets))
        if key not in self.races:
            self.races.append(key)
        return self.races.index(key) + 1


def plan_races(rules: Rules, role: str, value: bool = True) -> RacePlan:
    """Thresholds above the timeout score are races the role's team runs; those at or below
    it are races the others run (the role must stop them).  Without ``value`` (the role's
    scores are not constants) only the race to avoid the role's losing ends."""
    plan = RacePlan()
    own = {t for t in range(len(rules.turns)) if rules.own_turn(t, role)}
    others = set(range(len(rules.turns))) - own
    if not value:
        plan.avoid = plan.race(others, {e.name for e in rules.ends if role in e.loss_for})
        return plan
    timeout = rules.timeout[role]
    scores = rules.scores_of(role)
    for threshold in scores:
        if threshold > timeout:
            plan.up[threshold] = plan.race(own, {e.name for e in rules.ends if e.scores[role] >= threshold})
        elif threshold > scores[0]:
            plan.down[threshold] = plan.race(others, {e.name for e in rules.ends if e.scores[role] < threshold})
    plan.avoid = plan.race(others, {e.name for e in rules.ends if role in e.loss_for})
    if scores[-1] > timeout:
        plan.win = plan.up[scores[-1]]
    return plan


def shared_races(rules: Rules, roles: dict[str, bool]) -> tuple[RacePlan, dict[str, tuple[RacePlan, bool]]]:
    """The races of several roles in one numbering (equal races of different roles share a
    number): the table of every race, and {role: (its plan in that numbering, value known)}
    for the roles given as {role: whether its value is known}."""
    table = RacePlan()
    plans = {}
    for role, value in roles.items():
        own = plan_races(rules, role, value)

        def number(k):
            return None if k is None else table.race(*own.races[k - 1])
        shared = RacePlan(table.races, {t: number(k) for t, k in own.up.items()},
                          {t: number(k) for t, k in own.down.items()}, number(own.avoid), number(own.win))
        plans[role] = (shared, value)
    return table, plans


@dataclass
class Plan:
    """How a query is answered: by races over every reachable position (``race``), or by
    minimax layer by layer within the horizon (``layered``); and which state is kept."""

    mode: Mode
    layout: Layout
    value: bool            # the value (and win) is computed
    split_team: tuple[str, ...] = ()


def plan_query(board: Board, query: Query) -> Plan:
    """The cheapest exact way to answer ``query``: races when the role's scores are constants
    and its team never moves at once with others; else the layered solver."""
    rules = board.rules
    role = query.role
    split = any(rules.split_turn(t, role) for t in range(len(rules.turns)))
    by_ends = {name for end in live_ends(board) for name, _ in end.when.collected}
    constant = rules.constant_scores(role)
    if not split and not by_ends and (constant or query.kind == QueryKind.SURVIVE):
        return Plan(Mode.RACE, layout_for(board, by_ends), constant)
    return Plan(Mode.LAYERED, layout_for(board), True, rules.team_of(role) if split else ())


def period(board: Board, layout: Layout) -> int:
    """Plies after which the same turns entry moves again: a round, or 1 when turns can be lost
    (then any entry may follow any other).  A position met at depth k can only occur again at
    depths k + j * period."""
    return 1 if layout.lost else len(board.rules.turns)


