"""Compile a board, its rules and a query into one plain clingo program.

The program has four layers, each printed under its own header:

1. facts: the board (``dim``, ``wall_north``, ``wall_east``, ``solid``, ``mark``), the rules
   (``move_steps``, ``idle``, ..., ``score``, ``precedes``) and the query (``root``,
   ``remaining``, the races);
2. compiled game rules: the position term ``s(T,X1,Y1,...)`` of this game, its moves
   (``edge/3``), who moves (``mover/2``) and its end conditions (``term/2``);
3. the generic encodings of ``encodings/`` (board, moves, solve, answer), verbatim;
4. their parameterised parts (``level(d)``, ``line(i)``) instantiated for every level up
   to the horizon (see :mod:`gridsolve.unroll`).

The same text is what ``gridsolve compile`` prints and what the solver grounds.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from .model import Board, Rules
from .position import Position, Query
from .resources import encoding
from .unroll import instantiate

ENCODINGS = ("board.lp", "moves.lp", "solve.lp", "answer.lp")
OPTIONAL_INPUTS = ("wall_north/2", "wall_east/2", "solid/2", "mark/3", "idle/1", "first_step_real/1",
                   "blocked_stays/1", "end_differs/1", "precedes/2", "race_up/2", "race_down/2",
                   "race_avoid/1", "race_win/1", "win_by_value/1", "race_target/2", "race_attacker/2",
                   "strategy/2")


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


def plan_races(rules: Rules, role: str) -> RacePlan:
    """Thresholds above the timeout score are races the role's side runs; those at or below
    it are races the other sides run (the role must stop them)."""
    plan = RacePlan()
    timeout = rules.timeout[role]
    own = {rules.side_of(role)}
    others = set(range(len(rules.turns))) - own
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


def _state(side, roles, prefix="") -> str:
    coords = ",".join(f"{prefix}X{i},{prefix}Y{i}" for i in range(1, len(roles) + 1))
    return f"s({side},{coords})"


class _Vars:
    """Variable names of a piece's coordinates in the compiled rules."""

    def __init__(self, roles):
        self.index = {r: i for i, r in enumerate(roles, 1)}

    def cell(self, piece, prefix="") -> str:
        i = self.index[piece]
        return f"({prefix}X{i},{prefix}Y{i})"

    def xy(self, piece, prefix="") -> str:
        i = self.index[piece]
        return f"{prefix}X{i},{prefix}Y{i}"


def _end_literals(end, v: _Vars) -> list[tuple[str, str]]:
    """(literal, negated literal) pairs whose conjunction is the end condition."""
    literals = []
    for group in end.same_cell:
        for other in group[1:]:
            a, b = v.cell(group[0]), v.cell(other)
            literals.append((f"{a} = {b}", f"{a} != {b}"))
    for piece, mark in end.reaches:
        atom = f"mark({mark},{v.xy(piece)})"
        literals.append((atom, f"not {atom}"))
    return literals


def game_rules(board: Board, explore: bool = True) -> str:
    """The rules that depend on this game's position term: moves, movers, end conditions.

    With ``explore`` false only the root's own moves are derived (for listing legal moves)."""
    rules = board.rules
    roles = rules.roles
    v = _Vars(roles)
    sides = len(rules.turns)
    any_state = _state("T", roles)
    out = [
        "% - Position term ---",
        f"% {any_state}: side T to move ("
        + ", ".join(f"{t}: {'+'.join(side)}" for t, side in enumerate(rules.turns))
        + "); " + ", ".join(f"{r} on (X{i},Y{i})" for r, i in v.index.items()) + ".",
        "reach(S) :- root(S).",
        "reach(S) :- edge(_,_,S)." if explore else "% (only the root's moves: no exploration)",
        f"mover({any_state},T) :- reach({any_state}).",
        "",
        "% - End conditions ---",
    ]
    for end in rules.ends:
        body = ", ".join(lit for lit, _ in _end_literals(end, v))
        out.append(f"term({any_state},{end.name}) :- reach({any_state}), {body}.")
    out += ["", "% - Moves: one rule per side and per way of not having ended ---"]
    negations = [[neg for _, neg in _end_literals(end, v)] for end in rules.ends]
    for side, members in enumerate(rules.turns):
        role = members[0]
        move = rules.moves[role]
        now = _state(side, roles)
        after_coords = [v.xy(r, "N") if r == role else v.xy(r) for r in roles]
        after = f"s({(side + 1) % sides},{','.join(after_coords)})"
        extra = [f"{v.cell(role, 'N')} != {v.cell(piece)}" for piece in move.may_not_end_on]
        for choice in itertools.product(*negations) if negations else [()]:
            body = [f"reach({now})", *choice, f"cmove({role},{v.xy(role)},M,{v.xy(role, 'N')})", *extra]
            out.append(f"edge({now},M,{after}) :- {', '.join(body)}.")
    return "\n".join(out)


def board_facts(board: Board) -> str:
    out = [f"dim({board.width},{board.height})."]
    out += [f"wall_north({x},{y})." for x, y in sorted(board.north)]
    out += [f"wall_east({x},{y})." for x, y in sorted(board.east)]
    out += [f"solid({x},{y})." for x, y in sorted(board.solid)]
    for mark, cells in sorted(board.marks.items()):
        out += [f"mark({mark},{x},{y})." for x, y in sorted(cells)]
    return "\n".join(out)


def rule_facts(rules: Rules) -> str:
    out = []
    for role in rules.roles:
        move = rules.moves[role]
        out.append(f"move_steps({role},{move.steps}).")
        if move.idle:
            out.append(f"idle({role}).")
        if move.first_step_real:
            out.append(f"first_step_real({role}).")
        if move.blocked == "stay":
            out.append(f"blocked_stays({role}).")
        if move.end_differs_from_start:
            out.append(f"end_differs({role}).")
    for first, second in itertools.combinations([e.name for e in rules.ends], 2):
        out.append(f"precedes({first},{second}).")
    for end in rules.ends:
        out += [f"score({end.name},{role},{value})." for role, value in end.scores.items()]
    return "\n".join(out)


def query_facts(board: Board, query: Query, plan: RacePlan) -> str:
    rules = board.rules
    pos: Position = query.position
    coords = ",".join(f"{x},{y}" for _, (x, y) in pos.pieces)
    scores = rules.scores_of(query.role)
    out = [
        f"root(s({pos.side},{coords})).",
        f"remaining({query.remaining(board)}).",
        f"role_side({rules.side_of(query.role)}).",
        f"timeout_value({rules.timeout[query.role]}).",
        f"min_score({scores[0]}).",
        " ".join(f"threshold({t})." for t in scores),
    ]
    for number, (attackers, targets) in enumerate(plan.races, 1):
        out.append(f"race({number}). " + " ".join(f"race_attacker({number},{t})." for t in sorted(attackers))
                   + " " + " ".join(f"race_target({number},{e})." for e in sorted(targets)))
    out += [f"race_up({k},{t})." for t, k in plan.up.items()]
    out += [f"race_down({k},{t})." for t, k in plan.down.items()]
    out.append(f"race_avoid({plan.avoid}).")
    if plan.win is not None:
        out.append(f"race_win({plan.win}).")
    else:
        out.append(f"win_by_value({scores[-1]}).")
    if query.strategy:
        if query.kind == "win" and plan.win is not None:
            out.append(f"strategy({plan.win},reach).")
        elif query.kind == "survive":
            out.append(f"strategy({plan.avoid},avoid).")
    return "\n".join(line for line in out if line.strip())


def base_part(text: str) -> str:
    """The encoding up to its first ``#program`` directive."""
    index = text.find("\n#program ")
    return text if index < 0 else text[:index + 1]


@dataclass
class Program:
    """The program as one text, and as the pieces it is made of (base, one text per level,
    the answer parts), so that the solver can stop grounding levels at the fixpoint."""

    query: Query
    plan: RacePlan
    remaining: int
    base: str
    levels: list[str]
    lines: list[str]
    strategy: str

    @property
    def text(self) -> str:
        return "\n".join([self.base, *self.levels, *self.lines, self.strategy]) + "\n"


def compile_program(board: Board, query: Query) -> Program:
    """The complete program for ``query`` on ``board``, as plain single-shot clingo text."""
    plan = plan_races(board.rules, query.role)
    remaining = query.remaining(board)
    sections = [
        f"% gridsolve program: board {board.name} ({board.path}), rules {board.rules.name}",
        f"% query: {query.kind} for {query.role}, {remaining} plies left. Run: clingo THIS_FILE",
        "",
        "% - Input predicates that a board may leave empty ---",
        " ".join(f"#defined {sig}." for sig in OPTIONAL_INPUTS),
        "",
        "% - Board facts ---", board_facts(board), "",
        "% - Rule facts ---", rule_facts(board.rules), "",
        "% - Query facts ---", query_facts(board, query, plan), "",
        "% === Compiled game rules ===", game_rules(board), "",
    ]
    for name in ENCODINGS:
        sections += [f"% === encodings/{name} ===", base_part(encoding(name)).rstrip(), ""]
    solve_text, answer_text = encoding("solve.lp"), encoding("answer.lp")
    levels = [f"% === encodings/solve.lp #program level({d}) ===\n"
              + instantiate(solve_text, "encodings/solve.lp", "level", (d,)) for d in range(1, remaining + 1)]
    lines = [f"% === encodings/answer.lp #program line({i}) ===\n"
             + instantiate(answer_text, "encodings/answer.lp", "line", (i,)) for i in range(0, remaining + 1)]
    strategy = ""
    if query.strategy:
        strategy = ("% === encodings/answer.lp #program strategy ===\n"
                    + instantiate(answer_text, "encodings/answer.lp", "strategy", ()))
    return Program(query, plan, remaining, "\n".join(sections), levels, lines, strategy)
