"""Compile a board, its rules and a query into one plain clingo program.

The program has four layers, each printed under its own header:

1. facts: the board (``dim``, ``wall_north``, ``wall_east``, ``solid``, ``mark``), the rules
   (``move_steps``, ``idle``, ..., ``score``, ``precedes``) and the query (``root``,
   ``remaining``, the races);
2. compiled game rules: the position term ``s(T,X1,Y1,...)`` of this game, its moves
   (``edge/3``), who moves (``mover/2``) and its end conditions (``term/2``);
3. the generic encodings of ``encodings/`` (board, moves, solve, answer), verbatim;
4. their parameterised parts (``level(d)``, ``line(i)``) instantiated for every level up
   to the horizon (see :mod:`gridsolve.compile.unroll`).

The same text is what ``gridsolve compile`` prints and what the solver grounds.
"""
from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field

from collections import deque

from .gamerules import game_rules, live_ends, move_rules, score_rules, with_domain
from ..language.model import DELTA, DIRECTIONS, Board, Rules
from ..language.position import Position, Query
from ..resources import encoding
from .state import NO_ITEM, Layout, layout_for
from .unroll import Instances, instantiate
from .knowledge import knowledge_facts, knowledge_for, robust_board

ENCODINGS = ("board.lp", "moves.lp", "solve.lp", "answer.lp")
LAYERED_ENCODINGS = ("board.lp", "moves.lp", "layered.lp")
OPTIONAL_INPUTS = ("wall_north/2", "wall_east/2", "solid/2", "mark/3", "idle/1", "first_step_real/1",
                   "blocked_stays/1", "end_differs/1", "precedes/2", "race_up/3", "race_down/3",
                   "race_avoid/2", "race_win/2", "win_by_value/2", "race_target/2", "race_attacker/2",
                   "strategy/3", "query/4", "min_score/2", "timeout_value/2", "threshold/2", "role_side/2", "frozen_on/2", "bump_on/2", "lose_turns/2", "markbit/4", "distance/5",
                   "table/3", "turn_after/2", "turn_after/4", "turn_after/6", "turn_after/8",
                   "split_edge/4", "edge/3", "term/2", "tmatch/2", "escore/2", "tscore/2",
                   "own_turn/1", "other_turn/1", "split_turn/1", "wanted/1", "avoid_target/1",
                   "max_score/1", "threshold/1", "value_races/0", "hcand/2", "hallow/3")


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
        out += [f"frozen_on({role},{mark})." for mark in move.frozen_on]
        out += [f"bump_on({role},{mark})." for mark in move.bump_on]
        if move.bump_on:
            out.append(f"lose_turns({role},{move.lose_turns}).")
    for first, second in itertools.combinations([e.name for e in rules.ends], 2):
        out.append(f"precedes({first},{second}).")
    for end in rules.ends:
        out += [f"score({end.name},{role},{value})." for role, value in end.scores.items()
                if isinstance(value, int)]
    for table in rules.tables.values():
        out.append(" ".join(f"table({table.name},{i},{v})." for i, v in enumerate(table.values)))
    return "\n".join(out)


def distances(board: Board, role: str, mark: str, found: frozenset = frozenset()) -> dict:
    """Fewest single steps from each cell to a cell with ``mark`` for ``role``'s piece: through
    open edges, not entering cells it bumps on (and the obstacles ``found``), ignoring the
    other pieces."""
    bumps = {c for m in board.rules.moves[role].bump_on for c in board.marks.get(m, ())} | found
    dist = {c: 0 for c in board.marks.get(mark, ()) if c not in bumps}
    queue = deque(dist)
    while queue:
        cell = queue.popleft()
        for direction in DIRECTIONS:
            dx, dy = DELTA[direction]
            prev = (cell[0] - dx, cell[1] - dy)
            back = {"north": "south", "south": "north", "east": "west", "west": "east"}[direction]
            if prev in dist or not board.on_board(prev) or not board.open_step(cell, back):
                continue
            if cell in bumps:
                continue
            dist[prev] = dist[cell] + 1
            queue.append(prev)
    return dist


UNREACHABLE = 1_000_000


def mechanism_facts(board: Board, layout: Layout) -> str:
    """Facts the compiled rules of the mechanisms join with: mark bits, item bits, distances,
    the turn order with lost turns."""
    rules = board.rules
    out = []
    cells = [(x, y) for x in range(1, board.width + 1) for y in range(1, board.height + 1) if board.on_board((x, y))]
    for mark in sorted({m for _, m in layout.was}):
        marked = board.marks.get(mark, frozenset())
        out.append(" ".join(f"markbit({mark},{x},{y},{int((x, y) in marked)})." for x, y in cells))
    for item in layout.collect:
        rows = []
        for cell in cells:
            bits = [NO_ITEM] * item.words
            found = item.bit(cell)
            if found:
                bits[found[0]] = found[1]
            rows.append(f"ibit({item.name},{cell[0]},{cell[1]},{','.join(map(str, bits))}).")
        out.append(" ".join(rows))
    nearer = {(p, m) for when in [e.when for e in live_ends(board)] + [t.when for t in rules.timeout_when]
              for piece, other, m in when.nearer for p in (piece, other)}
    for role, mark in sorted(nearer):
        dist = distances(board, role, mark)
        out.append(" ".join(f"distance({role},{mark},{x},{y},{dist.get((x, y), UNREACHABLE)})." for x, y in cells))
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
            out.append(f"turn_after({turn},{','.join(map(str, lost))},{nxt},{','.join(map(str, after))}).")
    return out


@dataclass
class Plan:
    """How a query is answered: by races over every reachable position (``race``), or by
    minimax layer by layer within the horizon (``layered``); and which state is kept."""

    mode: str
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
    if not split and not by_ends and (constant or query.kind == "survive"):
        return Plan("race", layout_for(board, by_ends), constant)
    return Plan("layered", layout_for(board), True, rules.team_of(role) if split else ())


def race_facts(races: RacePlan) -> str:
    """``race/1``, ``race_attacker/2``, ``race_target/2`` of every race in the plan's numbering."""
    return "\n".join(f"race({number}). " + " ".join(f"race_attacker({number},{t})." for t in sorted(attackers))
                     + " " + " ".join(f"race_target({number},{e})." for e in sorted(targets))
                     for number, (attackers, targets) in enumerate(races.races, 1))


def role_facts(board: Board, role: str, plan: RacePlan, value: bool) -> str:
    """What answer.lp knows of ``role``: its side, its scores, which races decide them."""
    rules = board.rules
    scores = rules.scores_of(role)
    out = [" ".join(f"role_side({role},{t})." for t in range(len(rules.turns)) if rules.own_turn(t, role))]
    if value:
        out += [f"timeout_value({role},{rules.timeout[role]}). min_score({role},{scores[0]}).",
                " ".join(f"threshold({role},{t})." for t in scores)]
    out += [" ".join(f"race_up({role},{k},{t})." for t, k in plan.up.items()),
            " ".join(f"race_down({role},{k},{t})." for t, k in plan.down.items()),
            f"race_avoid({role},{plan.avoid})."]
    if plan.win is not None:
        out.append(f"race_win({role},{plan.win}).")
    elif value:
        out.append(f"win_by_value({role},{scores[-1]}).")
    return "\n".join(line for line in out if line.strip())


def strategy_facts(number: int, query: Query, plan: RacePlan) -> str:
    """``strategy(Q,K,reach|avoid)``: the strategy query ``number`` asks for, if any."""
    if query.strategy and query.kind == "win" and plan.win is not None:
        return f"strategy({number},{plan.win},reach)."
    if query.strategy and query.kind == "survive":
        return f"strategy({number},{plan.avoid},avoid)."
    return ""


def ask_arguments(number: int, board: Board, query: Query, layout: Layout) -> tuple[str, str, str, str]:
    """The parameters of answer.lp's ``#program ask(q,role,root,left)`` for query ``number``."""
    return (str(number), query.role, layout.root_term(query.position, board), str(query.remaining(board)))


def query_parts(number: int, board: Board, query: Query, plan: RacePlan, layout: Layout,
                remaining: int) -> tuple[Sequence[str], str]:
    """The answer parts of query ``number`` as text: its line parts i = 0..remaining (each
    ``line(q,i)`` and ``next(q,i)``; the first with the query's ``ask`` part) and its strategy
    part ("" when none is asked for)."""
    text = encoding("answer.lp")
    origin = "encodings/answer.lp"
    ask = ask_arguments(number, board, query, layout)

    def line(i: int) -> str:
        text_i = (f"% === encodings/answer.lp #program line({number},{i}) and next({number},{i}) ===\n"
                  + instantiate(text, origin, "line", (number, i)) + "\n" + instantiate(text, origin, "next", (number, i)))
        if i > 0:
            return text_i
        return (f"% === encodings/answer.lp #program ask({','.join(ask)}) ===\n"
                + instantiate(text, origin, "ask", ask) + "\n" + text_i + "\n"
                + f"% === encodings/answer.lp #program output({number}) ===\n"
                + instantiate(text, origin, "output", (number,)))
    lines = Instances(line, remaining + 1)
    strategy = ""
    if query.strategy:
        strategy = (f"% === encodings/answer.lp #program strategy({number}) ===\n"
                    + strategy_facts(number, query, plan) + "\n"
                    + instantiate(text, origin, "strategy", (number,)))
    return lines, strategy


def period(board: Board, layout: Layout) -> int:
    """Plies after which the same turns entry moves again: a round, or 1 when turns can be lost
    (then any entry may follow any other).  A position met at depth k can only occur again at
    depths k + j * period."""
    return 1 if layout.lost else len(board.rules.turns)


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
        f"root({layout.root_term(query.position, board)}).",
        f"remaining({query.remaining(board)}). period({period(board, layout)}).",
        " ".join(f"threshold({t})." for t in scores) + f" max_score({scores[-1]}).",
        " ".join(f"own_turn({t})." for t in turns if rules.own_turn(t, role) and not split(t)),
        " ".join(f"split_turn({t})." for t in turns if split(t)),
        " ".join(f"other_turn({t})." for t in turns if not set(rules.turns[t]) & set(rules.team_of(role))),
        " ".join(f"avoid_target({e.name})." for e in live_ends(board) if role in e.loss_for),
    ]
    return "\n".join(line for line in out if line.strip())


def base_part(text: str) -> str:
    """The encoding up to its first ``#program`` directive."""
    index = text.find("\n#program ")
    return text if index < 0 else text[:index + 1]


@dataclass
class Program:
    """The program as one text, and as the pieces it is made of, so that the solver can ground
    it step by step (levels up to the fixpoint; layers, then the races the answer needs).

    Race mode: ``base``, ``levels`` (solve.lp level(d)), ``lines`` (answer.lp line(i)),
    ``strategy``.  Layered mode: ``base``, ``depths`` (depth(k) with the game rules, k = 0..Rm),
    ``values`` and ``ranks`` (value(r,p), rank(r,p) for r = 0..Rm plies left), ``races`` (which
    races the answer needs, from the values), ``lookup`` (where the ranks are read), ``lines``
    (line(i))."""

    query: Query
    plan: RacePlan | None
    remaining: int
    base: str
    levels: Sequence[str]
    lines: Sequence[str]
    strategy: str
    mode: str = "race"
    layout: Layout | None = None
    value_known: bool = True
    depths: Sequence[str] = field(default_factory=list)
    values: Sequence[str] = field(default_factory=list)
    ranks: Sequence[str] = field(default_factory=list)
    races: str = ""
    lookup: str = ""
    plan_team: tuple[str, ...] = ()     # the team that commits first in split plies

    @property
    def text(self) -> str:
        if self.mode == "layered":
            parts = [self.base, *self.depths, *self.values, self.races, *self.ranks, self.lookup, *self.lines]
            return "\n".join(parts) + "\n"
        return "\n".join([self.base, *self.levels, *self.lines, self.strategy]) + "\n"


def _header(board: Board, what: str, mode: str) -> list[str]:
    return [
        f"% gridsolve program: board {board.name} ({board.path}), rules {board.rules.name}",
        f"% {what}, {mode} solver. Run: clingo THIS_FILE",
        "",
        "% - Input predicates that a board may leave empty ---",
        " ".join(f"#defined {sig}." for sig in OPTIONAL_INPUTS),
        "",
        "% - Board facts ---", board_facts(board), "",
        "% - Rule facts ---", rule_facts(board.rules), "",
    ]


def compile_program(board: Board, query: Query) -> Program:
    """The complete program for ``query`` on ``board``, as plain single-shot clingo text."""
    if query.hidden:
        return compile_hidden(board, query)
    plan = plan_query(board, query)
    if plan.mode == "layered":
        return _compile_layered(board, query, plan)
    races = plan_races(board.rules, query.role, plan.value)
    remaining = query.remaining(board)
    root = plan.layout.root_term(query.position, board)
    base, levels = race_program(board, plan.layout, {query.role: (races, plan.value)}, races, [root], remaining,
                                f"query 0: {query.kind} for {query.role}, {remaining} plies left")
    lines, strategy = query_parts(0, board, query, races, plan.layout, remaining)
    return Program(query, races, remaining, base, levels, lines, strategy, layout=plan.layout,
                   value_known=plan.value)


def race_program(board: Board, layout: Layout, roles: dict[str, tuple[RacePlan, bool]], races: RacePlan,
                 roots: list[str], levels: int, what: str) -> tuple[str, Sequence[str]]:
    """The base part and the level parts 1..``levels`` of the race solver for ``roles`` (each
    with its races, numbered in ``races``, and whether its value is known), over the positions
    reachable from ``roots``; the queries are added as answer parts (:func:`query_parts`)."""
    rules_text = with_domain(game_rules(board, layout), "reach(", "reach(")
    sections = _header(board, what, "race") + [
        "% - Mechanism facts ---", mechanism_facts(board, layout), "",
        "% - Roots: the positions the ranks are computed from ---", " ".join(f"root({r})." for r in roots), "",
        "% - Races and roles ---", race_facts(races),
        *(role_facts(board, role, plan, value) for role, (plan, value) in roles.items()), "",
        "% === Compiled game rules ===",
        f"% Position term {layout.state()}: turns entry T to move; pieces {', '.join(layout.roles)}.",
        "reach(S) :- root(S).", "reach(S) :- edge(_,_,S).", rules_text, "",
    ]
    for name in ENCODINGS:
        sections += [f"% === encodings/{name} ===", base_part(encoding(name)).rstrip(), ""]
    solve_text = encoding("solve.lp")
    parts = Instances(lambda i: f"% === encodings/solve.lp #program level({i + 1}) ===\n"
                      + instantiate(solve_text, "encodings/solve.lp", "level", (i + 1,)), levels)
    return "\n".join(sections), parts


@dataclass
class GraphProgram:
    """The race solver's game graph as clingo programs (see :func:`graph_program`)."""

    graph: str      # positions reachable from the roots, their successors and their ends
    moves: str      # the moves and their names at one position p: #program moves(p)


def graph_program(board: Board, layout: Layout, roots: list[str]) -> GraphProgram:
    """The game graph of the race solver over the positions reachable from ``roots``: the
    compiled game rules with the moves projected on their positions (``succ(S,S2,gridsolve_move)``,
    no move names, no ``mover/2``), ``reach/1``, ``terminal/1`` and ``outcome/2``, nothing shown (the
    ranks are computed from it by :mod:`gridsolve.solve.retro`); and the named moves
    (``edge(S,M,S2)``) as a part ``moves(p)`` for one position p at a time, ground only where
    an answer looks at the moves."""
    facts = _header(board, f"game graph from {len(roots)} roots", "race") + [
        "% - Mechanism facts ---", mechanism_facts(board, layout), ""]
    encodings = [base_part(encoding(name)).rstrip() for name in ("board.lp", "moves.lp")]
    graph_rules = with_domain(game_rules(board, layout, graph=True), "reach(", "reach(")
    graph = "\n".join(facts + [
        "% - Roots ---", " ".join(f"root({r})." for r in roots), "",
        "% - The game graph: positions and their successors (the moves without their names) ---",
        "rdest(R,X,Y,AX,AY,PX,PY,B) :- rmove(R,X,Y,_,AX,AY,PX,PY,B).",
        "reach(S) :- root(S).", "reach(S) :- succ(_,S,_).", graph_rules, "", *encodings, "", "#show."])
    named = "\n".join(line for line in move_rules(board, layout) if line.startswith("edge("))
    moves = "\n".join(facts + [*encodings, "#show edge/3.", "#program moves(p).", with_domain(named, "", "p = (")])
    return GraphProgram(graph, moves)


def compile_hidden(board: Board, query: Query, found_sets=None) -> Program:
    """The robust game of a ``--hidden`` question for the layered solver: the board without
    the role's hidden marks, the position term with its knowledge (:mod:`.knowledge`);
    ``found_sets``: the only sets of found obstacles the positions have (complete placements)."""
    knows = knowledge_for(board, query.role)
    robust = robust_board(board, knows)
    layout = layout_for(robust, knows=knows)
    facts = knowledge_facts(robust, layout, frozenset(c for _, c in query.position.found), found_sets)
    return _compile_layered(robust, query, Plan("layered", layout, True), facts)


def _compile_layered(board: Board, query: Query, plan: Plan, knowledge: str = "") -> Program:
    remaining = query.remaining(board)
    layout = plan.layout
    text = encoding("layered.lp")
    origin = "encodings/layered.lp"
    rules_text = game_rules(board, layout, plan.split_team) + "\n" + "\n".join(score_rules(board, layout, query.role))
    sections = _header(board, f"query: {query.kind} for {query.role}, {remaining} plies left", "layered") + [
        "% - Mechanism facts ---", mechanism_facts(board, layout), "",
        *(["% - What the role knows of its hidden marks ---", knowledge, ""] if knowledge else []),
        "% - Query facts ---", layered_query_facts(board, query, layout), "",
    ]
    for name in LAYERED_ENCODINGS:
        sections += [f"% === encodings/{name} ===", base_part(encoding(name)).rstrip(), ""]

    def depth(k: int) -> str:
        return (f"% === encodings/layered.lp #program depth({k}), with the compiled game rules ===\n"
                + instantiate(text, origin, "depth", (k,)) + "\n" + with_domain(rules_text, f"fresh({k},", f"expand({k},"))

    def backwards(part: str) -> Instances:
        return Instances(lambda r: f"% === encodings/layered.lp #program {part}({r},{p}) ===\n"
                         + instantiate(text, origin, part, (r, p)), remaining + 1)
    p = period(board, layout)
    depths, values, ranks = Instances(depth, remaining + 1), backwards("value"), backwards("rank")
    lines = Instances(lambda i: f"% === encodings/layered.lp #program line({i}) ===\n"
                      + instantiate(text, origin, "line", (i,)), remaining + 1)
    races, lookup = (f"% === encodings/layered.lp #program {part} ===\n" + instantiate(text, origin, part, ())
                     for part in ("races", "lookup"))
    return Program(query, None, remaining, "\n".join(sections), [], lines, "", mode="layered", layout=layout,
                   depths=depths, values=values, ranks=ranks, races=races, lookup=lookup,
                   plan_team=plan.split_team)
