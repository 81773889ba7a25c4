"""The facts of a program: the board, the rules, the mechanisms (mark and item bits,
distances, the turn order with lost turns) and the query (races, the role, its strategy;
layered.lp's query facts).  Each function returns clingo text."""
from __future__ import annotations

import itertools

from ..language.distance import board_cells, step_distances
from ..language.model import OFF_BOARD, Board, Rules
from ..language.position import Query
from .gamerules import live_ends
from .planning import RacePlan, period
from .predicates import (AVOID_TARGET, BLOCKED_STAYS, BUMP_ON, CHASE_AXIS, DIM, DISTANCE, END_DIFFERS,
                         FIRST_STEP_REAL, FROZEN_ON, GATE_EAST, GATE_KEY, GATE_NORTH, EXIT_EDGE, IBIT, IDLE,
                         LAYERED_THRESHOLD, LOSE_TURNS, MARK, MARKBIT, MAX_SCORE, MIN_SCORE, MOVE_STEPS,
                         OTHER_TURN, OWN_TURN, PERIOD, PRECEDES, RACE, RACE_ATTACKER, RACE_AVOID, RACE_DOWN,
                         RACE_TARGET, RACE_UP, RACE_WIN, REMAINING, ROLE_SIDE, ROOT, SCORE, SOLID,
                         SPLIT_TURN, STRATEGY, TABLE, THRESHOLD, TIMEOUT_VALUE, TURN_AFTER, WALL_EAST,
                         WALL_NORTH, WIN_BY_VALUE, Predicate)
from .state import NO_ITEM, Layout
from ..language.kinds import QueryKind

UNREACHABLE = 1_000_000     # the distance fact of a cell from which the mark cannot be reached


def board_facts(board: Board) -> str:
    out = [DIM.fact(board.width, board.height)]
    for predicate, cells in ((WALL_NORTH, board.north), (WALL_EAST, board.east), (SOLID, board.solid),
                             (GATE_NORTH, board.gate_north), (GATE_EAST, board.gate_east)):
        out += [predicate.fact(x, y) for x, y in sorted(cells)]
    out += [EXIT_EDGE.fact(x, y, d) for (x, y), d in sorted(board.exits)]
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
        out += [BUMP_ON.fact(role, mark) for mark in move.bump_on]
        if move.bump_on:
            out.append(LOSE_TURNS.fact(role, move.lose_turns))
    if rules.gate_key is not None:
        out.append(GATE_KEY.fact(rules.gate_key))
    out += [CHASE_AXIS.fact(axis) for axis in sorted({c.first for c in rules.chasers.values()})]
    out += [PRECEDES.fact(first, second) for first, second in itertools.combinations([e.name for e in rules.ends], 2)]
    if len(rules.ends) < 2:
        out.append(f"{PRECEDES.defined()}   % one end: none precedes another")
    for end in rules.ends:
        out += [SCORE.fact(end.name, role, value) for role, value in end.scores.items() if isinstance(value, int)]
    for table in rules.tables.values():
        out.append(TABLE.facts((table.name, i, v) for i, v in enumerate(table.values)))
    return "\n".join(out)


def bump_cells(board: Board, role: str) -> set[tuple[int, int]]:
    """The cells ``role``'s piece bumps on: it never enters them (a chaser bumps on none)."""
    move = board.rules.moves.get(role)
    return {c for m in (move.bump_on if move else ()) for c in board.marks.get(m, ())}


def distance_facts(predicate: Predicate, key: tuple, dist: dict, cells, middle: tuple = ()) -> str:
    """``predicate(*key,X,Y,*middle,D).`` for every cell: its distance in ``dist`` (UNREACHABLE
    where it has none), as ``distance(runner,exit,X,Y,D)``."""
    return predicate.facts((*key, x, y, *middle, dist.get((x, y), UNREACHABLE)) for x, y in cells)


def mechanism_facts(board: Board, layout: Layout) -> str:
    """Facts the compiled rules of the mechanisms join with: mark bits, item bits, distances,
    the turn order with lost turns."""
    rules = board.rules
    out = []
    cells = board_cells(board)
    placed = cells + [OFF_BOARD] if rules.chasers else cells     # (a chaser off the board stands on (0,0))
    for mark in sorted({m for _, m in layout.was}):
        marked = board.marks.get(mark, frozenset())
        out.append(MARKBIT.facts((mark, x, y, int((x, y) in marked)) for x, y in placed))
    for item in layout.collect:
        rows = []
        for cell in cells:
            bits = [NO_ITEM] * item.words
            found = item.bit(cell)
            if found:
                bits[found[0]] = found[1]
            rows.append(IBIT.fact(item.name, cell[0], cell[1], bits))
        out.append(" ".join(rows))
    nearer = {(p, m) for when in [e.when for e in live_ends(board)] + [t.when for t in rules.timeout_when]
              for piece, other, m in when.nearer for p in (piece, other)}
    for role, mark in sorted(nearer):
        dist = step_distances(board, board.marks.get(mark, ()), bump_cells(board, role))
        out.append(distance_facts(DISTANCE, (role, mark), dist, cells))
        if role in rules.chasers:     # a chaser off the board is infinitely far
            out.append(DISTANCE.fact(role, mark, 0, 0, UNREACHABLE))
    if layout.lost:
        out.append(" ".join(turn_order_facts(rules)))
    return "\n".join(out)


def next_turn(turn: int, lost: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """The entry after ``turn`` and the lost-turn counters after skipping."""
    lost = list(lost)
    nxt = (turn + 1) % len(lost)
    while lost[nxt] > 0:
        lost[nxt] -= 1
        nxt = (nxt + 1) % len(lost)
    return nxt, tuple(lost)


def turn_order_facts(rules: Rules) -> list[str]:
    """``turn_after(T,L1..Lm,T2,L1'..Lm')`` for every counter combination a game can have."""
    top = max(m.lose_turns for m in rules.moves.values() if m.bump_on) * max(len(t) for t in rules.turns)
    m = len(rules.turns)
    out = []
    for turn in range(m):
        for lost in itertools.product(range(top + 1), repeat=m):
            nxt, after = next_turn(turn, lost)
            out.append(TURN_AFTER.fact(turn, lost, nxt, after))
    return out


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


