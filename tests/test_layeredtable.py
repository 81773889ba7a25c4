"""The layered tables (gridsolve/solve/layered/table.py) give the answers of encodings/layered.lp.

On random tiny boards with the newer mechanisms (``random_mechanism_board``: simultaneous moves
and teams, score tables, conditional timeouts, bumps and lost turns, was_on, items), every
layered question at the positions tests/test_differential.py draws (for every role and kind)
is answered from one table per role and compared field for field, the principal line
included, with the answer of layered.lp (``solve``, one grounding per question) and with the
independent reference (reference/game.py).  On the seed boards the tables answer a session
of questions as ``ask`` does (the table ground again for a position it does not reach), and a
table that does not fit the memory limit leaves the questions to the layered solver.
"""
from __future__ import annotations

import random
import time
from pathlib import Path

import clingo
import numpy as np
import pytest

from reference import game as reference
from randomboards import random_mechanism_board
from test_differential import _comparable, _diff, _expected, _got, _load, mechanism_queries
from gridsolve.compile.compiler import compile_program
from gridsolve.errors import MemoryLimitError
from gridsolve.language.loader import load_board
from gridsolve.language.position import Query, make_query
from gridsolve.solve.dispatch.asker import Asker
from gridsolve.solve.common.capabilities import TABLE, serves
from gridsolve.solve.layered.table import LayeredTable, LayeredTables
from gridsolve.solve.common.limits import Limits
from gridsolve.solve.program import driver
from gridsolve.solve.dispatch.dispatcher import solve

# the mechanism boards of the quick tier: together they ask the tables questions with every
# layered rule option (test_quick_boards_cover_the_layered_rule_options); the others are slow
QUICK = [3, 15, 23, 56]      # every layered rule option (test_quick_boards_cover_the_layered_rule_options)
N_BOARDS = 60
KINDS = ("value", "win", "survive")


def _answer(answer) -> dict:
    out = answer.as_dict()
    out.pop("stats")
    return out


def _questions(board, rb, seed: int) -> list[tuple[str, Query]]:
    """The positions of the differential test's queries, asked for every role and kind, where
    a table answers them."""
    out = []
    for label, query in mechanism_queries(seed, rb, board):
        for role in board.rules.roles:
            for kind in KINDS:
                asked = Query(role, kind, query.position, query.horizon)
                if serves(TABLE, board, asked):
                    out.append((f"{label}; asked: {role} {kind}", asked))
    return out


def _features(table: LayeredTable) -> set[str]:
    """The rule options a table's game has (for the coverage check)."""
    out = set()
    if table.split_turns:
        out.add("simultaneous")
    if table.by_rule.any():
        out.add("conditional timeout")
    if table.layout.lost:
        out.add("lost turns")
    if table.layout.collect:
        out.add("items")
    if table.layout.was:
        out.add("was_on")
    if len(table.thresholds) > 2:
        out.add("score table")
    if table.avoid:
        out.add("ends to avoid")
    return out


def check_board(seed: int, tmp_path) -> tuple[list[str], set[str], int]:
    """The disagreements on ``random_mechanism_board(seed)``, the rule options its tables had
    and the questions compared."""
    rb = random_mechanism_board(seed)
    board = _load(tmp_path, rb.text, f"mechanisms-{seed}.yaml")
    problems, features, tables = [], set(), {}
    questions = _questions(board, rb, seed)
    for label, query in questions:
        table = tables.get(query.role)
        if table is None or table.index(query.position) < 0:
            roots = [q.position for _, q in questions if q.role == query.role]
            table = tables[query.role] = LayeredTable(board, query.role, roots)
            features |= _features(table)
        got = table.answer(query)
        alone = solve(board, query)
        if _answer(got) != _answer(alone):
            diff = {k: (v, _answer(alone)[k]) for k, v in _answer(got).items() if v != _answer(alone)[k]}
            problems.append(f"{label}\n  table vs layered.lp: {diff}")
        want = _expected(reference.reference_answer(board, query.role, query.kind, query.position, query.horizon))
        mine, theirs = _comparable(_got(got), want, query.kind)
        if mine != theirs:
            problems.append(f"{label}\n  table vs reference:\n{_diff(mine, theirs)}")
    return problems, features, len(questions)


@pytest.mark.parametrize("seed", [s if s in QUICK else pytest.param(s, marks=pytest.mark.slow) for s in range(N_BOARDS)],
                         ids=lambda s: f"mech-{s}")
def test_table_agrees_with_layered_solver_and_reference(seed, tmp_path):
    problems, _, _ = check_board(seed, tmp_path)
    assert not problems, (f"seed {seed} (python tests/randomboards.py {seed} mech):\n" + "\n".join(problems)
                          + "\n--- board ---\n" + random_mechanism_board(seed).text)


def test_quick_boards_cover_the_layered_rule_options(tmp_path):
    """The quick tier's boards ask the tables questions with every layered rule option."""
    features, asked = set(), 0
    for seed in QUICK:
        folder = tmp_path / str(seed)
        folder.mkdir()
        rb = random_mechanism_board(seed)
        board = _load(folder, rb.text, "board.yaml")
        questions = [q for _, q in _questions(board, rb, seed)]
        asked += len(questions)
        for role in {q.role for q in questions}:
            features |= _features(LayeredTable(board, role, [q.position for q in questions if q.role == role]))
    assert asked >= 50
    assert features >= {"simultaneous", "conditional timeout", "lost turns", "items", "score table",
                        "ends to avoid"}, features


@pytest.mark.parametrize("name,horizons", [
    pytest.param("wallmaze.yaml", (2, 4, 6), marks=pytest.mark.slow), ("maze-runner-duel.yaml", (2, 4, 6)),
    pytest.param("wallmaze.yaml", (None, None, 3, 8), marks=pytest.mark.slow),
    pytest.param("maze-runner-duel.yaml", (None, None, 3, 8), marks=pytest.mark.slow)])
@pytest.mark.slow
def test_a_session_on_a_seed_board_answers_as_each_question_alone(name, horizons):
    """Random positions far apart, asked one after the other through an Asker (as ``ask`` with
    questions from standard input): the table is ground again where it does not reach the
    position, and every answer, its line included, is layered.lp's."""
    board = load_board(f"boards/{name}")
    rng = random.Random(5)
    cells = [(x, y) for x in range(1, board.width + 1) for y in range(1, board.height + 1) if board.on_board((x, y))]
    asker = Asker(board)
    asked = 0
    for _ in range(40):
        roles = board.rules.roles
        at = tuple(f"{r}={c[0]},{c[1]}" for r, c in zip(roles, rng.sample(cells, len(roles))))
        query = make_query(board, rng.choice(roles), rng.choice(KINDS), at=at, turn=rng.choice(roles),
                           horizon=rng.choice(horizons))
        if not serves(TABLE, board, query):
            continue
        asked += 1
        assert _answer(asker.ask(query)) == _answer(solve(board, query)), query
        if asked == 6:
            break
    assert asked == 6
    assert asker.tables is not None and asker.tables.groundings >= 1


def test_a_table_that_does_not_fit_leaves_the_questions_to_the_layered_solver():
    board = load_board("boards/wallmaze.yaml")
    query = make_query(board, "white", "value", horizon=3)
    with pytest.raises(MemoryLimitError):
        LayeredTable(board, "white", [query.position], Limits(memory=1))
    tables = LayeredTables(board)
    assert tables.answer(query, Limits(memory=1)) is None
    assert "white" in tables.refused
    assert tables.answer(query) is None          # remembered: not ground again


def _race(term) -> tuple:
    """layered.lp's race term (up(B), down(T), avoid) as the table names it."""
    return ("avoid", None) if term.name == "avoid" else (term.name, term.arguments[0].number)


def check_ranks(board, query: Query) -> list[str]:
    """Every value and rank layered.lp computes for ``query`` (``lval``/``pval``,
    ``lrank``/``prank`` of the positions and commit nodes it ranks, at every level it
    computes), against the table's: a position or commit node without a rank in one has none
    in the other."""
    program = compile_program(board, query)
    ctl = clingo.Control(["--warn=none"])
    driver._ground_layers(ctl, program, Limits(), time.perf_counter())
    table = LayeredTable(board, query.role, [query.position])

    def position(symbol) -> int:
        i = table.graph.find(symbol)
        assert i >= 0, symbol
        return i
    commits = {(int(s), int(m)): c for c, (s, m) in enumerate(zip(table.csrc, table.cmove))}

    def node(symbol) -> int:
        s, m = symbol.arguments
        return commits[(position(s), m._rep)]
    atoms = {name: [a.symbol.arguments for a in ctl.symbolic_atoms.by_signature(name, arity)]
             for name, arity in (("lval", 3), ("pval", 3), ("lrank", 4), ("prank", 4), ("rocc", 2),
                                 ("ropen", 3), ("commit", 3))}
    problems = []
    for r, s, v in atoms["lval"]:
        if table.value_at(r.number)[0][position(s)] != v.number:
            problems.append(f"lval({r},{s},{v}): table {table.value_at(r.number)[0][position(s)]}")
    for r, p, v in atoms["pval"]:
        if table.value_at(r.number)[1][node(p)] != v.number:
            problems.append(f"pval({r},{p},{v}): table {table.value_at(r.number)[1][node(p)]}")
    races = {_race(a[0]) for a in atoms["lrank"]} | {_race(a[0]) for a in atoms["prank"]}
    ranked = {(_race(k), r.number, position(s)): d.number for k, r, s, d in atoms["lrank"]}
    pranked = {(_race(k), r.number, node(p)): d.number for k, r, p, d in atoms["prank"]}
    open_at = {(r.number, position(s)) for r, s, _ in atoms["ropen"]}
    for race in races:
        for r, s in atoms["rocc"]:
            i, mine = position(s), int(table.rank_at(race, r.number)[0][position(s)])
            if ranked.get((race, r.number, i), -1) != mine:
                problems.append(f"lrank {race} {r} {s}: layered.lp {ranked.get((race, r.number, i))}, table {mine}")
        for s, m, p in atoms["commit"]:
            for r in {r for r, i in open_at if i == position(s)}:
                c, mine = node(p), int(table.rank_at(race, r)[1][node(p)])
                if pranked.get((race, r, c), -1) != mine:
                    problems.append(f"prank {race} {r} {p}: layered.lp {pranked.get((race, r, c))}, table {mine}")
    return problems


RANK_CASES = [("boards/wallmaze.yaml", dict(role="white", horizon=7)),
              pytest.param("boards/wallmaze.yaml", dict(role="black", at=("white=11,5", "black=4,8"), horizon=8),
                           marks=pytest.mark.slow),
              ("boards/maze-runner-duel.yaml", dict(role="p1", at=("p1=2,5", "p2=4,3"), turn="p2", horizon=12)),
              ("boards/maze-runner-duel.yaml", dict(role="p2", kind="win", horizon=10))]


@pytest.mark.parametrize("path,options", RANK_CASES,
                         ids=[f"{Path((c.values if hasattr(c, 'values') else c)[0]).stem}-{i}" for i, c in enumerate(RANK_CASES)])
def test_every_value_and_rank_is_layered_lps(path, options):
    board = load_board(path)
    problems = check_ranks(board, make_query(board, **options))
    assert not problems, "\n".join(problems[:20])


@pytest.mark.parametrize("seed", [56, pytest.param(35, marks=pytest.mark.slow)])
@pytest.mark.slow
def test_every_value_and_rank_is_layered_lps_on_simultaneous_boards(seed, tmp_path):
    rb = random_mechanism_board(seed)
    board = _load(tmp_path, rb.text, "board.yaml")
    problems = []
    for label, query in _questions(board, rb, seed):
        problems += [f"{label}: {p}" for p in check_ranks(board, query)]
    assert not problems, "\n".join(problems[:20])


@pytest.mark.slow
def test_a_question_with_a_time_limit_leaves_a_long_grounding_to_a_later_question():
    """A question that must be answered within a time (play's first question of a kind) does
    not wait for a table whose grounding is estimated to take longer; the next question without
    a limit grounds it."""
    board = load_board("boards/wallmaze.yaml")
    query = make_query(board, "white", "value", horizon=3)
    tables = LayeredTables(board)
    assert tables.answer(query, Limits(seconds=0.001)) is None
    assert not tables.tables and not tables.refused
    assert _answer(tables.answer(query, Limits(seconds=1000))) == _answer(solve(board, query))
    assert tables.groundings == 1


def _ground_keys(table: LayeredTable) -> tuple[list[int], set[tuple]]:
    """The codec numbers of the positions of ``table``'s program ground by clingo through the
    public API, ascending, and its plain plies (number, move, number)."""
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], table._program())
    ctl.ground([("base", [])])
    key = table.codec.key_of
    reach = sorted(key(a.symbol.arguments[0]) for a in ctl.symbolic_atoms.by_signature("reach", 1))
    edges = {(key(s), m._rep, key(s2)) for s, m, s2 in (a.symbol.arguments for a in ctl.symbolic_atoms.by_signature("edge", 3))}
    return reach, edges


@pytest.mark.parametrize("seed", QUICK)
def test_the_tables_positions_are_keyed_by_the_codecs_numbers(seed, tmp_path):
    """A table's positions are its game graph's rows in the order of their codec numbers
    (GameGraph.keys), its plain plies the graph's rows, and a position asked is found there."""
    rb = random_mechanism_board(seed)
    board = _load(tmp_path, rb.text, "board.yaml")
    questions = [q for _, q in _questions(board, rb, seed)]
    for role in sorted({q.role for q in questions}):
        roots = [q.position for q in questions if q.role == role]
        table = LayeredTable(board, role, roots)
        graph = table.graph
        reach, edges = _ground_keys(table)
        assert graph.keys.tolist() == reach and len(reach) == table.n > 1
        off, succ = graph.rows()
        src = np.repeat(np.arange(graph.n), np.diff(off))
        assert {(int(graph.keys[s]), int(m), int(graph.keys[t])) for s, m, t in zip(src, graph.moves, succ)} == edges
        for position in roots:
            i = table.index(position)
            assert i >= 0 and graph.term(i) == table.codec.term(position)
            assert graph.keys[i] == table.codec.key(position)
