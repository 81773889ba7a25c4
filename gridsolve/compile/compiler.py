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

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import clingo

from ..language.model import Board
from ..language.position import Query
from ..resources import encoding
from .facts import layered_query_facts, race_facts, role_facts, strategy_facts
from .gameprogram import GameProgram, show_statements
from .gamerules import STATE, end_rules, factored_turns, game_rules, move_rules, score_rules, with_domain
from .predicates import EDGE, FGRAPH_END, FGRAPH_MOVE, OUTCOME, REACH
from .planning import Mode, period, Plan, plan_query, plan_races, RacePlan
from .state import Layout, layout_for

ENCODINGS = ("board.lp", "moves.lp", "script.lp", "solve.lp", "answer.lp")
LAYERED_ENCODINGS = ("board.lp", "moves.lp", "script.lp", "layered.lp")


def ask_arguments(number: int, board: Board, query: Query, layout: Layout) -> tuple[str, str, str, str]:
    """The parameters of answer.lp's ``#program ask(q,role,root,left)`` for query ``number``."""
    return (str(number), query.role, layout.root_term(query.position, board), str(query.remaining(board)))


def query_parts(number: int, board: Board, query: Query, plan: RacePlan, layout: Layout,
                remaining: int) -> tuple[Sequence[str], str]:
    """The answer parts of query ``number`` as text: its line parts i = 0..remaining (each
    ``line(q,i)`` and ``next(q,i)``; the first with the query's ``ask`` part) and its strategy
    part ("" when none is asked for)."""
    from .unroll import Instances, instantiate     # (the unrolled parts: none for the race solver's graphs)
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
    mode: Mode = Mode.RACE
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
        if self.mode is Mode.LAYERED:
            parts = [self.base, *self.depths, *self.values, self.races, *self.ranks, self.lookup, *self.lines]
            return "\n".join(parts) + "\n"
        return "\n".join([self.base, *self.levels, *self.lines, self.strategy]) + "\n"


def compile_program(board: Board, query: Query) -> Program:
    """The complete program for ``query`` on ``board``, as plain single-shot clingo text."""
    if query.hidden:
        return compile_hidden(board, query)
    plan = plan_query(board, query)
    if board.rules.unlimited and query.horizon is None:
        # no step limit: no rank exceeds the number of reachable positions, so the levels up to it
        # answer the question exactly (and the program is finite)
        query = replace(query, horizon=reachable_positions(board, plan.layout, plan.layout.root_term(query.position, board)))
    if plan.mode is Mode.LAYERED:
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
    from .unroll import Instances, instantiate
    game = GameProgram(board, layout, roots)
    sections = game.header(what, Mode.RACE) + [
        "% - Roots: the positions the ranks are computed from ---", game.root_facts(), "",
        "% - Races and roles ---", race_facts(races),
        *(role_facts(board, role, plan, value) for role, (plan, value) in roles.items()), "",
        "% === Compiled game rules ===",
        f"% Position term {layout.state()}: turns entry T to move; pieces {', '.join(layout.roles)}.",
        *game.reach_rules(), game.rules(), "", *game.encodings(ENCODINGS, headed=True)]
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
    ranks are computed from it by :mod:`gridsolve.solve.graph.racegraph`); and the named moves
    (``edge(S,M,S2)``) and the end that decides (``outcome(S,E)``) as a part ``moves(p)`` for
    one position p at a time, ground only where an answer looks at the moves."""
    game = GameProgram(board, layout, roots, reached_by="succ(_,S,_)")
    facts = game.header(f"game graph from {len(roots)} roots", Mode.RACE)
    encodings = game.encodings()
    graph = "\n".join(facts + [
        "% - Roots ---", game.root_facts(), "",
        "% - The game graph: positions and their successors (the moves without their names) ---",
        "rdest(R,X,Y,AX,AY,PX,PY,B) :- rmove(R,X,Y,_,AX,AY,PX,PY,B).",
        *game.reach_rules(), game.rules(graph=True), "", *encodings, "", "#show."])
    named = "\n".join(line for line in move_rules(board, layout) if line.startswith(("edge(", "stg")))
    ends = with_domain("\n".join(end_rules(board, layout)), "p = (", "")
    moves = "\n".join(facts + [*encodings, *show_statements([EDGE, OUTCOME]), "#program moves(p).",
                               with_domain(named, "", "p = ("), ends])
    return GraphProgram(graph, moves)


def reachable_positions(board: Board, layout: Layout, root: str) -> int:
    """How many positions are reachable from ``root`` (the game graph, ground by clingo)."""
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], graph_program(board, layout, [root]).graph)
    ctl.ground([("base", [])])
    return len(REACH.ground(ctl.symbolic_atoms))


def factored_program(board: Board, layout: Layout) -> str | None:
    """The game graph of the race solver by pieces, where the compiled moves have that shape
    (:func:`~gridsolve.compile.gamerules.factored_turns`; else None), shown as ``fgraph/N``:
    each role's moves from each cell (``fgraph(move,R,X,Y,M,AX,AY,PX,PY)``: ``rmove`` of
    encodings/moves.lp without the turns a bump loses) and the end that decides every position
    of the board where one holds (``fgraph(end,E,T,X1,Y1,...)``: the compiled end conditions
    over every side and cell of each piece); :mod:`gridsolve.solve.graph.factored` joins them into
    the positions and moves reachable from the roots."""
    if factored_turns(board, layout) is None:
        return None
    state = layout.state()
    pieces = ", ".join(f"cell(X{i},Y{i})" for i in range(1, len(layout.roles) + 1))
    ends = "\n".join(end_rules(board, layout)).replace(f"{STATE}({state})", f"side(T), {pieces}")
    ends = ends.replace(f"{STATE}(S), ", "")
    fields = state[2:-1]
    game = GameProgram(board, layout)
    return "\n".join(game.header("game graph by pieces", Mode.RACE) + [
        "% - The sides to move and each role's moves from each cell ---",
        f"side(0..{len(board.rules.turns) - 1}).",
        "fgraph(move,R,X,Y,M,AX,AY,PX,PY) :- rmove(R,X,Y,M,AX,AY,PX,PY,_).", ends,
        f"fgraph(end,E,{fields}) :- outcome({state},E).", "",
        *game.encodings(), "",
        *show_statements([FGRAPH_MOVE]), FGRAPH_END.show(3 + 2 * len(layout.roles))])


def compile_hidden(board: Board, query: Query, found_sets=None) -> Program:
    """The robust game of a ``--hidden`` question for the layered solver: the board without
    the role's hidden marks, the position term with its knowledge (:mod:`.knowledge`);
    ``found_sets``: the only sets of found obstacles the positions have (complete placements)."""
    from .knowledge import knowledge_facts, knowledge_for, robust_board     # (--hidden questions only)
    knows = knowledge_for(board, query.role)
    robust = robust_board(board, knows)
    layout = layout_for(robust, knows=knows)
    facts = knowledge_facts(robust, layout, frozenset(c for _, c in query.position.found), found_sets)
    return _compile_layered(robust, query, Plan(Mode.LAYERED, layout, True), facts)


def _compile_layered(board: Board, query: Query, plan: Plan, knowledge: str = "") -> Program:
    from .unroll import Instances, instantiate
    remaining = query.remaining(board)
    layout = plan.layout
    text = encoding("layered.lp")
    origin = "encodings/layered.lp"
    rules_text = game_rules(board, layout, plan.split_team) + "\n" + "\n".join(score_rules(board, layout, query.role))
    sections = GameProgram(board, layout).header(f"query: {query.kind} for {query.role}, {remaining} plies left",
                                                 Mode.LAYERED) + [
        *(["% - What the role knows of its hidden marks ---", knowledge, ""] if knowledge else []),
        "% - Query facts ---", layered_query_facts(board, query, layout), "",
    ]
    sections += GameProgram.encodings(LAYERED_ENCODINGS, headed=True)

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
    return Program(query, None, remaining, "\n".join(sections), [], lines, "", mode=Mode.LAYERED, layout=layout,
                   depths=depths, values=values, ranks=ranks, races=races, lookup=lookup,
                   plan_team=plan.split_team)
