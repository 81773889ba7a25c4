"""The facts of a program: the board, the rules, the mechanisms (mark and item bits,
distances, the turn order with lost turns) and the query (races, the role, its strategy;
layered.lp's query facts).  Each function returns clingo text."""
from __future__ import annotations

import itertools

from ..language.model import Board, Rules
from ..language.position import Query
from ..mechanisms.encodings import parts
from .gamerules import live_ends
from .planning import RacePlan, period
from .predicates import (AVOID_TARGET, BLOCKED_STAYS, DIM, END_DIFFERS, FIRST_STEP_REAL, FROZEN_ON, IDLE,
                         LAYERED_THRESHOLD, MARK, MAX_SCORE, MIN_SCORE, MOVE_STEPS, OTHER_TURN, OWN_TURN, PERIOD,
                         PRECEDES, RACE, RACE_ATTACKER, RACE_AVOID, RACE_DOWN, RACE_TARGET, RACE_UP, RACE_WIN,
                         REMAINING, ROLE_SIDE, ROOT, SCORE, SOLID, SPLIT_TURN, STRATEGY, THRESHOLD, TIMEOUT_VALUE,
                         WALL_EAST, WALL_NORTH, WIN_BY_VALUE)
from .state import Layout
from ..language.kinds import QueryKind


def board_facts(board: Board) -> str:
    out = [DIM.fact(board.width, board.height)]
    for predicate, cells in ((WALL_NORTH, board.north), (WALL_EAST, board.east), (SOLID, board.solid)):
        out += [predicate.fact(x, y) for x, y in sorted(cells)]
    out += [fact for facts in parts("board_facts") for fact in facts(board)]      # gates, exit edges
    for mark, cells in sorted(board.marks.items()):
        out += [MARK.fact(mark, x, y) for x, y in sorted(cells)]
    return "\n".join(out)


def rule_facts(rules: Rules) -> str:
    out = []
    for role in rules.roles:
        move = rules.moves[role]
        out.append(MOVE_STEPS.fact(role, move.steps))
        for predicate, holds in ((IDLE, move.idle), (FIRST_STEP_REAL, move.first_step_real),
                                 (BLOCKED_STAYS, move.blocked == "stay"), (END_DIFFERS, move.end_differs_from_start)):
            if holds:
                out.append(predicate.fact(role))
        out += [FROZEN_ON.fact(role, mark) for mark in move.frozen_on]
        out += [fact for facts in parts("move_facts") for fact in facts(rules, role)]     # bumps
    out += [fact for facts in parts("rule_facts") for fact in facts(rules)]       # the gate's key, chasers' axes
    out += [rule for rules_of in parts("board_rules") for rule in rules_of(rules)]    # teleporters' pairs
    out += [PRECEDES.fact(first, second) for first, second in itertools.combinations([e.name for e in rules.ends], 2)]
    if len(rules.ends) < 2:
        out.append(f"{PRECEDES.defined()}   % one end: none precedes another")
    for end in rules.ends:
        out += [SCORE.fact(end.name, role, value) for role, value in end.scores.items() if isinstance(value, int)]
    out += [fact for facts in parts("score_facts") for fact in facts(rules)]      # score tables
    return "\n".join(out)


def mechanism_facts(board: Board, layout: Layout) -> str:
    """Facts the compiled rules of the mechanisms join with, each mechanism's (gridsolve/mechanisms/):
    mark bits, item bits, distances, the turn order with lost turns."""
    conditions = [e.when for e in live_ends(board)] + [t.when for t in board.rules.timeout_when]
    return "\n".join(fact for facts in parts("facts") for fact in facts(board, layout, conditions))


def race_facts(races: RacePlan) -> str:
    """``race/1``, ``race_attacker/2``, ``race_target/2`` of every race in the plan's numbering."""
    return "\n".join(" ".join([RACE.fact(number), RACE_ATTACKER.facts((number, t) for t in sorted(attackers)),
                               RACE_TARGET.facts((number, e) for e in sorted(targets))])
                     for number, (attackers, targets) in enumerate(races.races, 1))


def role_facts(board: Board, role: str, plan: RacePlan, value: bool) -> str:
    """What answer.lp knows of ``role``: its side, its scores, which races decide them."""
    rules = board.rules
    scores = rules.scores_of(role)
    out = [ROLE_SIDE.facts((role, t) for t in range(len(rules.turns)) if rules.own_turn(t, role))]
    if value:
        out += [TIMEOUT_VALUE.fact(role, rules.timeout[role]) + " " + MIN_SCORE.fact(role, scores[0]),
                THRESHOLD.facts((role, t) for t in scores)]
    out += [RACE_UP.facts((role, k, t) for t, k in plan.up.items()),
            RACE_DOWN.facts((role, k, t) for t, k in plan.down.items()),
            RACE_AVOID.fact(role, plan.avoid)]
    if plan.win is not None:
        out.append(RACE_WIN.fact(role, plan.win))
    elif value:
        out.append(WIN_BY_VALUE.fact(role, scores[-1]))
    return "\n".join(line for line in out if line.strip())


def strategy_facts(number: int, query: Query, plan: RacePlan) -> str:
    """``strategy(Q,K,reach|avoid)``: the strategy query ``number`` asks for, if any."""
    if query.strategy and query.kind == QueryKind.WIN and plan.win is not None:
        return STRATEGY.fact(number, plan.win, "reach")
    if query.strategy and query.kind == QueryKind.SURVIVE:
        return STRATEGY.fact(number, plan.avoid, "avoid")
    return ""


def layered_query_facts(board: Board, query: Query, layout: Layout) -> str:
    """The query facts of layered.lp; in a ``--hidden`` question the role's plies are split:
    it commits to its move, the others answer what the cell it aims at holds."""
    rules = board.rules
    role = query.role
    scores = rules.scores_of(role)
    turns = range(len(rules.turns))

    def split(t):
        return role in rules.turns[t] if layout.knows else rules.split_turn(t, role)
    out = [
        ROOT.fact(layout.root_term(query.position, board)),
        REMAINING.fact(query.remaining(board)) + " " + PERIOD.fact(period(board, layout)),
        LAYERED_THRESHOLD.facts((t,) for t in scores) + " " + MAX_SCORE.fact(scores[-1]),
        OWN_TURN.facts((t,) for t in turns if rules.own_turn(t, role) and not split(t)),
        SPLIT_TURN.facts((t,) for t in turns if split(t)),
        OTHER_TURN.facts((t,) for t in turns if not set(rules.turns[t]) & set(rules.team_of(role))),
        AVOID_TARGET.facts((e.name,) for e in live_ends(board) if role in e.loss_for),
    ]
    return "\n".join(line for line in out if line.strip())


