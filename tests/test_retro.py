"""The race ranks computed from the game graph (gridsolve/solve/graph/racegraph.py) against the ranks
encodings/solve.lp derives in clingo level by level (the single-shot program of ``gridsolve
compile``): equal for every race, on random boards of every rule option and with every
mechanism the race solver serves; and the game graph's successors are exactly the compiled
moves without their names.
"""
from __future__ import annotations

import clingo
import pytest

from gridsolve.compile.compiler import compile_program
from gridsolve.compile.planning import Mode, plan_query
from gridsolve.language.position import Query
from gridsolve.solve.common.limits import LimitGuard, Limits
from gridsolve.compile.compiler import graph_program
from gridsolve.solve.graph.racegraph import NamedMoves, RaceGraph
from gridsolve.solve.program.driver import ground_ranks
from gridsolve.solve.race.ranks import clingo_race_ranks, race_ranks

from randomboards import random_board, random_mechanism_board
from test_differential import _load, mechanism_queries, plain_queries

SEEDS = 12


def _race_queries(seed, tmp_path, mechanisms):
    rb = (random_mechanism_board if mechanisms else random_board)(seed)
    board = _load(tmp_path, rb.text, f"retro-{seed}.yaml")
    queries = (mechanism_queries if mechanisms else plain_queries)(seed, rb, board)
    return board, [q for _, q in queries if plan_query(board, q).mode is Mode.RACE and not q.strategy]


def rank_differences(seed, tmp_path, mechanisms) -> tuple[int, list[str]]:
    """(races compared, differences) of one random board's race queries."""
    board, queries = _race_queries(seed, tmp_path, mechanisms)
    compared, problems = 0, []
    for query in queries:
        program = compile_program(board, query)
        for race in range(1, len(program.plan.races) + 1):
            old, new = clingo_race_ranks(program, race), race_ranks(program, race, board=board)
            compared += 1
            if old != new:
                only = sorted(set(old.items()) ^ set(new.items()))[:5]
                problems.append(f"seed {seed} {query}: race {race}: {len(old)} vs {len(new)} ranked; {only}")
    return compared, problems


@pytest.mark.parametrize("mechanisms", [False, True], ids=["plain", "mechanisms"])
@pytest.mark.parametrize("seeds", [pytest.param(range(3), id="first"),
                                   pytest.param(range(3, SEEDS), id="rest", marks=pytest.mark.slow)])
def test_graph_ranks_equal_the_ranks_of_solve_lp(tmp_path, mechanisms, seeds):
    compared, problems = 0, []
    for seed in seeds:
        count, found = rank_differences(seed, tmp_path, mechanisms)
        compared, problems = compared + count, problems + found
    assert not problems, "\n".join(problems)
    assert compared >= len(seeds)        # races really were compared


def test_random_boards_cover_every_rule_option_the_race_solver_serves(tmp_path):
    """The boards above use every move option and end the race solver answers (else the
    comparison proves less than it says)."""
    seen = set()
    for seed in range(SEEDS):
        board, queries = _race_queries(seed, tmp_path, False)
        if not queries:
            continue
        for rule in board.rules.moves.values():
            seen |= {f"steps {rule.steps}", f"blocked {rule.blocked}"}
            seen |= {name for name, on in (("idle", rule.idle), ("first_step_real", rule.first_step_real),
                                           ("end_differs", rule.end_differs_from_start),
                                           ("may_not_end_on", bool(rule.may_not_end_on))) if on}
    assert {"steps 1", "steps 2", "blocked stay", "blocked illegal", "idle", "first_step_real",
            "end_differs"} <= seen, seen


@pytest.mark.parametrize("mechanisms", [False, pytest.param(True, marks=pytest.mark.slow)], ids=["plain", "mechanisms"])
def test_the_successors_are_the_compiled_moves_without_their_names(tmp_path, mechanisms):
    """succ(S,S2,_) of the game graph = the pairs of edge(S,M,S2) of the single-shot program,
    and the positions and their ends are the same."""
    checked = 0
    for seed in range(3):
        board, queries = _race_queries(seed, tmp_path, mechanisms)
        for query in queries[:1]:
            program = compile_program(board, query)
            ctl = clingo.Control(["--warn=none"])
            ground_ranks(ctl, program.base, program.levels[:1], LimitGuard(Limits(), "", lambda n: ""))
            atoms = ctl.symbolic_atoms
            edges = {(str(a.symbol.arguments[0]), str(a.symbol.arguments[2])) for a in atoms.by_signature("edge", 3)}
            reach = {str(a.symbol.arguments[0]) for a in atoms.by_signature("reach", 1)}
            ends = {(str(a.symbol.arguments[0]), a.symbol.arguments[1].name) for a in atoms.by_signature("outcome", 2)}
            graph = RaceGraph(board, program.layout, [program.layout.root_term(query.position, board)],
                              LimitGuard(Limits(), "", lambda n: ""))
            succ = set()
            for j in range(graph.n):
                for k in graph.pred[graph.start[j]:graph.start[j + 1]].tolist():
                    succ.add((str(graph.symbol(k)), str(graph.symbol(j))))
            assert succ == edges
            assert {str(graph.symbol(i)) for i in range(graph.n)} == reach
            assert {(str(graph.symbol(i)), graph.ends[e]) for i, e in enumerate(graph.outcome.tolist()) if e >= 0} == ends
            start = graph.symbol(graph.index(clingo.parse_term(program.layout.root_term(query.position, board))))
            named = {(str(m), str(s)) for m, s in graph.moves(start)}
            assert named == {(str(a.symbol.arguments[1]), str(a.symbol.arguments[2]))
                             for a in atoms.by_signature("edge", 3) if a.symbol.arguments[0] == start}
            checked += 1
    assert checked >= 1


def _graph_sets(graph: RaceGraph) -> tuple[set, set, set, set]:
    """The positions, (position, successor) pairs, ends and sides of a game graph, as text."""
    names = [str(graph.symbol(i)) for i in range(graph.n)]
    pairs = {(names[k], names[j]) for j in range(graph.n) for k in graph.pred[graph.start[j]:graph.start[j + 1]].tolist()}
    ends = {(names[i], graph.ends[e]) for i, e in enumerate(graph.outcome.tolist()) if e >= 0}
    return set(names), pairs, ends, set(zip(names, graph.turn.tolist()))


def graph_differences(seed, tmp_path, mechanisms) -> tuple[int, list[str]]:
    """(graphs joined by pieces, differences from the graph clingo grounds from the compiled
    succ rules) of one random board, rooted at its race queries' positions."""
    board, queries = _race_queries(seed, tmp_path, mechanisms)
    if not queries:
        return 0, []
    layout = plan_query(board, queries[0]).layout
    roots = list(dict.fromkeys(layout.root_term(q.position, board) for q in queries))
    budget = LimitGuard(Limits(), "", lambda n: "")
    joined, ground = RaceGraph(board, layout, roots, budget), RaceGraph(board, layout, roots, budget, by_pieces=False)
    if joined.numbering is None:
        return 0, []
    problems = []
    for name, a, b in zip(("positions", "successors", "ends", "sides"), _graph_sets(joined), _graph_sets(ground)):
        if a != b:
            problems.append(f"seed {seed} ({'mechanisms' if mechanisms else 'plain'}): {name} differ: {sorted(a ^ b)[:4]}")
    starts = [clingo.parse_term(r) for r in roots]
    if [joined.index(s) >= 0 for s in starts] != [True] * len(starts):
        problems.append(f"seed {seed}: a root is not found by its term")
    named, ground = joined.named_moves(), NamedMoves(graph_program(board, layout, []).moves)
    for i in range(0, joined.n, max(1, joined.n // 40)):      # the named moves and ends, by cell and ground
        state = joined.symbol(i)
        if sorted(map(str, named.moves(state))) != sorted(map(str, ground.moves(state))) \
                or named.end(state) != ground.end(state):
            problems.append(f"seed {seed}: the named moves of {state} differ: {named.moves(state)} {ground.moves(state)}")
    return 1, problems


@pytest.mark.parametrize("mechanisms", [False, True], ids=["plain", "mechanisms"])
@pytest.mark.parametrize("seeds", [pytest.param(range(6), id="first"),
                                   pytest.param(range(6, 3 * SEEDS), id="rest", marks=pytest.mark.slow)])
@pytest.mark.slow
def test_the_graph_joined_by_pieces_is_the_ground_graph(tmp_path, mechanisms, seeds):
    """Where the pieces move each on its own (gridsolve/solve/graph/factored.py), the positions,
    successors, ends and sides joined from each piece's moves are those clingo grounds from the
    compiled succ rules, and the named moves and ends of positions (PieceMoves) those of the
    compiled edge rules, on random boards of every rule option (simultaneous moves without
    collisions, may_not_end_on, frozen pieces, bumps without lost turns among them)."""
    joined, problems = 0, []
    for seed in seeds:
        count, found = graph_differences(seed, tmp_path, mechanisms)
        joined, problems = joined + count, problems + found
    assert not problems, "\n".join(problems)
    assert joined >= (1 if mechanisms else 2)      # graphs really were joined by pieces and compared


def test_the_graph_is_joined_by_pieces_only_where_the_moves_allow_it(tmp_path):
    """Lost turns, was_on bits, items and collisions that cancel a ply keep the ground graph."""
    from gridsolve.compile.gamerules import factored_turns
    kinds = set()
    for seed in range(SEEDS):
        board, queries = _race_queries(seed, tmp_path, True)
        if not queries:
            continue
        layout = plan_query(board, queries[0]).layout
        simple = not (layout.lost or layout.was or layout.collect) and not (
            board.rules.collisions == "stay" and any(len(e) > 1 for e in board.rules.turns))
        assert (factored_turns(board, layout) is not None) == simple
        kinds.add(simple)
    assert kinds == {True, False}


def test_a_rank_is_the_plies_of_the_forced_end(tmp_path, make_board):
    """Hand-checked on the corridor: the explorer to move two steps west of the exit escapes in
    3 plies (its step, the mummy's move, its step)."""
    from conftest import CORRIDOR
    from gridsolve.language.position import make_position
    board = make_board(CORRIDOR, "corridor.yaml")
    query = Query("explorer", "win", make_position(board))
    program = compile_program(board, query)
    ranks = race_ranks(program, program.plan.win, board=board)
    assert ranks == clingo_race_ranks(program, program.plan.win)
    start = program.layout.root_term(query.position, board)
    assert ranks[start] == 3
