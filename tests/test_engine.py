"""Ground once, ask many times (gridsolve/solve/race/racesolver.py).

An engine grounds a board's game graph once, computes the race ranks from it and reads each
query's answer off them.  Its answers must be those of solving each query alone and those of
the single-shot program ``gridsolve compile`` prints, field by
field and with the whole principal line, and those of the independent explicit-state search of
``reference/game.py``, on random boards asked many questions in a row; verify and play must
ground each board once.
"""
from __future__ import annotations

import itertools

import clingo
import pytest

from gridsolve.verify import verify
from gridsolve.language.loader import load_board
from gridsolve.compile.compiler import compile_program, query_parts, race_program
from gridsolve.compile.planning import Mode, plan_query, shared_races
from gridsolve.solve.dispatch.asker import Asker
from gridsolve.solve.race.racesolver import Engine
from gridsolve.play.game import play
from gridsolve.language.position import QUERY_KINDS, Query, initial_position, make_position
from gridsolve.solve.program.driver import run_program
from gridsolve.solve.dispatch.dispatcher import solve

from reference import game as reference
import seed_answers
from conftest import CORRIDOR, ROOT, run_clingo
from randomboards import random_board, random_mechanism_board
from test_differential import _comparable, _diff, _expected, _got, _load, mechanism_queries, plain_queries

N_BOARDS = 16           # random boards of each kind
BOARDS = ROOT / "boards"


@pytest.fixture(scope="module")
def seeds():
    return {"2007": load_board(BOARDS / "mummymaze2p-2007.yaml"), "wallmaze": load_board(BOARDS / "wallmaze.yaml")}


@pytest.fixture
def corridor(make_board):
    return make_board(CORRIDOR, "corridor.yaml")


def _without_stats(answer) -> dict:
    out = answer.as_dict()
    out.pop("stats")
    return out


def _more_questions(board, queries):
    """The random queries, and at each of their positions the other kinds and another horizon."""
    out = list(queries)
    for label, query in queries:
        for kind in ("value", "win", "survive"):
            if kind != query.kind:
                out.append((f"{label} [as {kind}]", Query(query.role, kind, query.position, query.horizon)))
        out.append((f"{label} [horizon 3]", Query(query.role, query.kind, query.position, 3)))
    return out


def engine_problems(seed: int, tmp_path, mechanisms: bool) -> tuple[int, list[str]]:
    """(queries the engine answered, disagreements) on one random board: one engine rooted at
    every query position answers them all in a row, then the first again."""
    rb = (random_mechanism_board if mechanisms else random_board)(seed)
    board = _load(tmp_path, rb.text, f"engine-{seed}.yaml")
    queries = (mechanism_queries if mechanisms else plain_queries)(seed, rb, board)
    asked = [(label, q) for label, q in _more_questions(board, queries) if plan_query(board, q).mode is Mode.RACE]
    if not asked:
        return 0, []
    engine = Engine(board, [q.position for _, q in asked])
    problems = []
    for label, query in asked + asked[:1]:
        assert engine.serves(query), label
        answer = engine.answer(query)
        if _without_stats(answer) != _without_stats(solve(board, query)):
            problems.append(f"{label}\n  the engine's answer differs from solving the query alone")
        got = _got(answer)
        want = _expected(reference.reference_answer(board, query.role, query.kind, query.position, query.horizon))
        got, want = _comparable(got, want, query.kind)
        if got != want:
            problems.append(f"{label}\n{_diff(got, want)}")
    return len(asked) + 1, problems


@pytest.mark.slow
@pytest.mark.parametrize("mechanisms", [False, True], ids=["plain", "mechanisms"])
def test_engine_agrees_with_solving_alone_and_with_the_reference(tmp_path, mechanisms):
    answered, problems = 0, []
    for seed in range(N_BOARDS):
        count, found = engine_problems(seed, tmp_path, mechanisms)
        answered += count
        problems += [f"seed {seed}: {p}" for p in found]
    assert not problems, "\n".join(problems)
    assert answered >= (200 if not mechanisms else 100)     # the engine really was asked


def _without_line(answer) -> dict:
    out = _without_stats(answer)
    out.pop("line")
    return out


@pytest.mark.parametrize("mechanisms", [False, True], ids=["plain", "mechanisms"])
@pytest.mark.parametrize("seeds", [pytest.param(range(1), id="first"),
                                   pytest.param(range(1, N_BOARDS), id="rest", marks=pytest.mark.slow)])
@pytest.mark.slow
def test_answers_read_off_the_ranks_equal_those_of_the_single_shot_program(tmp_path, mechanisms, seeds):
    """Read off the ranks of the game graph (gridsolve/solve/graph/racegraph.py, rankread.py), every
    question's answer on random boards is the one of the program ``gridsolve compile`` prints
    (encodings/solve.lp and answer.lp in clingo), every move and the whole principal line (or
    its first move) included, and without a line the same but the line; the questions asked
    again at the end."""
    answered, problems = 0, []
    for seed in seeds:
        rb = (random_mechanism_board if mechanisms else random_board)(seed)
        board = _load(tmp_path, rb.text, f"noline-{seed}.yaml")
        queries = (mechanism_queries if mechanisms else plain_queries)(seed, rb, board)
        asked = [(label, q) for label, q in _more_questions(board, queries) if plan_query(board, q).mode is Mode.RACE]
        if not asked:
            continue
        engine = Engine(board, [q.position for _, q in asked])
        for label, query in asked + asked[:3]:
            quick = engine.answer(query, line_plies=0)
            full = engine.answer(query)
            assert quick.line is None and quick.as_dict()["line"] is None
            answered += 1
            if _without_line(quick) != _without_line(full):
                problems.append(f"seed {seed}: {label}\n  {_without_line(quick)}\n  {_without_line(full)}")
            single = _without_stats(run_program(compile_program(board, query), board))
            if _without_stats(full) != single:
                problems.append(f"seed {seed}: {label}\n  {_without_stats(full)}\n  {single}")
            first = _without_stats(engine.answer(query, 1))
            if first != {**single, "line": single["line"][:1]}:
                problems.append(f"seed {seed}: {label}, line plies 1\n  {first}\n  {single}")
    assert not problems, "\n".join(problems)
    assert answered >= 4 * len(seeds)     # the boards really were asked


def test_a_question_asked_again_costs_no_ground_call(seeds, monkeypatch):
    """The moves of a position are ground once: questions at positions seen before (the
    position asked about, its line) need no ground call and no solve."""
    board = seeds["2007"]
    start = initial_position(board)
    engine = Engine(board, [start])
    line = engine.answer(Query("mummy", "win", start)).line
    assert len(line) == seed_answers.MUMMY_2007_WIN[3] and line[0].as_dict() == {"ply": 0, "side": ["explorer"], "move": line[0].move}
    named = engine.graph.named_moves()      # (the moves by cell of the graph joined by pieces: no control)
    for ctl in [named.ctl] if hasattr(named, "ctl") else []:
        monkeypatch.setattr(ctl, "ground", None)     # any ground call would fail now
        monkeypatch.setattr(ctl, "solve", None)
    monkeypatch.setattr(clingo, "Control", None)     # ... and any new control
    answer = engine.answer(Query("mummy", "win", start), line_plies=0)
    assert (answer.value, answer.plies, answer.win, answer.win_plies, answer.line) == (*seed_answers.MUMMY_2007_WIN, None)
    for role, kind in itertools.islice(itertools.cycle(itertools.product(board.rules.roles, QUERY_KINDS)), 100):
        answer = engine.answer(Query(role, kind, start), line_plies=0)
        assert answer.line is None and answer.stats.detail.queries == engine.asked
    assert engine.answer(Query("mummy", "win", start)).line == line


# - One program, several queries: the encoding's query numbers (hand-checked) ---

def test_two_queries_in_one_program_each_get_their_own_answer(corridor):
    """On the corridor the explorer escapes in 3 plies (east, the mummy's move, east);
    query 1 asks for the explorer, query 2 for the mummy, in one plain clingo program."""
    board = corridor
    start = initial_position(board)
    layout = plan_query(board, Query("explorer", position=start)).layout
    table, plans = shared_races(board.rules, {"explorer": True, "mummy": True})
    base, levels = race_program(board, layout, plans, table, [layout.root_term(start, board)], 6, "test")
    parts = [base, *levels]
    for number, role in ((1, "explorer"), (2, "mummy")):
        query = Query(role, "value", start, 6)
        lines, _ = query_parts(number, board, query, plans[role][0], layout, 6)
        parts += lines
    atoms = run_clingo("\n".join(parts))
    assert {"value(1,at,100)", "plies(1,at,3)", "win(1,at)", "survives(1,at)",
            "value(1,east,100)", "plies(1,east,2)", "value(1,west,0)", "value(1,nowhere,0)",
            "line(1,0,0,east)", "line(1,2,0,east)"} <= atoms
    assert {"value(2,at,0)", "plies(2,at,3)", "doom_plies(2,at,3)",
            "value(2,west,100)", "plies(2,west,1)", "line(2,0,0,east)"} <= atoms
    assert "win(2,at)" not in atoms and "survives(2,at)" not in atoms
    assert not any(a.startswith(("value(0,", "line(0,")) for a in atoms)


# - When the engine grounds again ---

@pytest.mark.slow
def test_one_grounding_answers_every_question_about_a_board(seeds):
    board = seeds["2007"]
    asker = Asker(board, [initial_position(board)])
    start = initial_position(board)
    later = make_position(board, at=("explorer=2,3",), turn="mummy")
    for role, kind, horizon, position in itertools.product(board.rules.roles, ("value", "survive"),
                                                           (None, 6), (start, later)):
        query = Query(role, kind, position, horizon)
        if asker.engine is not None:
            assert asker.engine.serves(query)
        assert _without_stats(asker.ask(query)) == _without_stats(solve(board, query))
    assert asker.groundings == 1


def test_an_answer_asked_without_its_moves_names_none_and_keeps_every_other_field(seeds, monkeypatch):
    """verify asks for no moves where no key reads them: the engine then never names the
    positions after the first ply, and the answer's other fields are the whole answer's."""
    board = seeds["2007"]
    start = initial_position(board)
    asker = Asker(board, [start])
    whole = asker.ask(Query("mummy", "win", start), line_plies=0)
    assert whole.moves
    monkeypatch.setattr(asker.engine.index, "moves_of", None)     # naming any move would fail now
    bare = asker.ask(Query("mummy", "win", start), line_plies=0, moves=False)
    assert bare.moves == [] and {**_without_stats(bare), "moves": whole.as_dict()["moves"]} == _without_stats(whole)
    assert (bare.value, bare.plies, bare.win, bare.win_plies) == seed_answers.MUMMY_2007_WIN


def test_a_position_the_roots_do_not_reach_is_ground_as_one_more_root(corridor):
    board = corridor
    escaped = make_position(board, at=("explorer=4,2",), turn="mummy")    # on the exit: the game is over
    start = initial_position(board)
    asker = Asker(board)
    assert asker.ask(Query("explorer", "value", escaped)).value == 100
    assert not asker.engine.serves(Query("explorer", "value", start))
    answer = asker.ask(Query("explorer", "value", start))
    assert (answer.value, answer.plies, asker.groundings) == (100, 3, 2)
    assert asker.roots == [escaped, start]


def test_more_plies_than_were_ground_are_ground_again(seeds):
    board = seeds["2007"]
    start = initial_position(board)
    asker = Asker(board, [start], plies=2)
    assert asker.ask(Query("mummy", "value", start, 2)).value == 50    # the timeout score: nothing is forced
    assert not asker.engine.complete and not asker.engine.serves(Query("mummy", "value", start, 30))
    answer = asker.ask(Query("mummy", "value", start, 30))
    assert (answer.value, answer.plies, asker.groundings) == (*seed_answers.MUMMY_2007_WITHIN_30, 2)


@pytest.mark.slow
def test_many_questions_in_a_row_keep_their_answers_apart(seeds):
    """Forty questions of four kinds, asked round after round of one engine: each round gives
    the first round's answers (the whole line, or only its first move where that is asked)."""
    board = seeds["2007"]
    start = initial_position(board)
    engine = Engine(board, [start])
    asked = [(Query("explorer", "value", start, 6), None), (Query("mummy", "win", start), None),
             (Query("explorer", "survive", start), 1), (Query("mummy", "value", start, 3), 1)]
    first = [_without_stats(engine.answer(q, plies)) for q, plies in asked]
    for _ in range(9):
        assert [_without_stats(engine.answer(q, plies)) for q, plies in asked] == first
    assert engine.asked == 40
    assert first[0] == _without_stats(solve(board, asked[0][0]))
    alone = _without_stats(solve(board, asked[2][0]))
    assert first[2] == {**alone, "line": alone["line"][:1]}


def test_an_engine_does_not_answer_what_the_race_solver_cannot(seeds):
    board = seeds["wallmaze"]
    with pytest.raises(Exception, match="race solver does not answer"):
        Engine(board, [initial_position(board)], roles=["white"])
    with pytest.raises(Exception, match="race solver answers no question of Wallmaze"):
        Engine(board, [initial_position(board)])


# - verify and play ground each board once ---

class _Counting:
    """Engine constructions, counted."""

    def __init__(self, monkeypatch):
        self.built = 0
        original = Engine.__init__

        def counted(engine, *args, **kwargs):
            self.built += 1
            original(engine, *args, **kwargs)
        monkeypatch.setattr(Engine, "__init__", counted)


@pytest.mark.slow
def test_verify_grounds_a_board_once_for_all_its_expectations(seeds, tmp_path, monkeypatch):
    """Seven expectation groups (two roles, three positions, a horizon), their values measured
    by solving each query alone: verify passes them all from one grounding."""
    board = seeds["2007"]
    groups = [(role, x, None) for role in ("explorer", "mummy") for x in (5, 6, 7)] + [("explorer", None, 4)]
    expect = ""
    for role, x, horizon in groups:
        at = ("explorer=" + f"{x},1",) if x else ()
        answer = solve(board, Query(role, "value", make_position(board, at=at), horizon))
        expect += (f"  - role: {role}\n" + (f"    at: {{explorer: [{x}, 1]}}\n" if x else "")
                   + (f"    horizon: {horizon}\n" if horizon else "")
                   + f"    value: {answer.value}\n    survive: {str(answer.survives).lower()}\n")
    path = tmp_path / "many.yaml"
    path.write_text((BOARDS / "mummymaze2p-2007.yaml").read_text().split("\nexpect:")[0] + "\nexpect:\n" + expect)
    counting = _Counting(monkeypatch)
    checks = [e for e in verify.check_board(path) if e[0] == "check"]
    assert len(checks) == 14 and all(e[2] == "pass" for e in checks), checks
    assert counting.built == 1


def test_play_grounds_once_for_a_whole_game(seeds, monkeypatch):
    board = seeds["2007"]
    counting = _Counting(monkeypatch)
    said = []
    outcome = play(board, {"explorer"}, iter(["hint"] + ["east", "west", "north", "south"] * 20), said.append,
                   initial_position(board))
    assert outcome.end in ("captured", "escaped", "timeout") and outcome.plies > 4
    assert any("value for explorer" in line for line in said)
    assert counting.built == 1
