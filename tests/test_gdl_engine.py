"""The generic engine (gridsolve/ground/circuit.py, gridsolve/gdl/engine.py, answers.py, solving.py) on GDL games
written for these tests (tests/gdl/games/): the known values, and every reachable state, its
legal moves, ends and goals and the value of the independent interpreter
(reference/gdl.py, which imports nothing from gridsolve) searched by plain minimax."""
from __future__ import annotations

import functools
import importlib
import re
from pathlib import Path

import clingo
import numpy as np
import pytest

from gridsolve.errors import BoardError, ConstantFluentsError, LimitError, MemoryLimitError
from gridsolve.ground.circuit import ground_circuit, pack, unpack
from gridsolve.gdl.description import read_description
from gridsolve.gdl import engine
from gridsolve.gdl.engine import PackedRows, explore, ground_game, native_explore, numpy_explore
from gridsolve.gdl.solving import limits_guard, solve_gdl
from gridsolve.gdl.translate import symbol_kif
from gridsolve.solve.common.limits import Limits
from reference.gdl import GdlGame, to_kif
from tests.gdl.reference import kif_path

GAMES = Path(__file__).parent / "gdl" / "games"


def nim_text(heaps: tuple[int, ...]) -> str:
    text = (GAMES / "nim.kif").read_text()
    text = re.sub(r"\(init \(heap \w \d\)\)\n", "", text)
    inits = "".join(f"(init (heap {name} {size}))\n" for name, size in zip("abcd", heaps))
    return text.replace("(init (control first))", inits + "(init (control first))")


def test_the_circuit_evaluates_negation_and_recursion_for_each_case_of_a_batch():
    circuit = ground_circuit("f(a;b). s(1..3). {true(F)} :- f(F). p(X) :- true(X), s(1). q :- not p(a). "
                             "r(X) :- r(Y), s(X), s(Y), X=Y+1. r(1) :- p(b).")
    rows = [circuit.rows[clingo.parse_term(name)] for name in ("true(a)", "true(b)")]
    cases = np.array([[0, 0], [1, 0], [0, 1], [1, 1]], dtype=bool)
    out = circuit.evaluate(np.array(rows), pack(cases))
    read = {name: unpack(out[[circuit.rows[clingo.parse_term(name)]]], 4)[:, 0].tolist()
            for name in ("p(a)", "q", "r(1)", "r(3)")}
    assert read == {"p(a)": [False, True, False, True], "q": [True, False, True, False],
                    "r(1)": [False, False, True, True], "r(3)": [False, False, True, True]}


def test_pack_and_unpack_are_inverse_over_more_than_one_word():
    bits = np.random.default_rng(1).random((150, 7)) < 0.5
    assert (unpack(pack(bits), 150) == bits).all()


def _explored(path: Path, text: str | None = None):
    description = read_description(path, text)
    guard = limits_guard(path, Limits())
    game = ground_game(description, guard)
    return game, explore(game, game.init, guard)


def _reference_states(reference: GdlGame):
    """Every state the interpreter reaches from the initial one (breadth-first)."""
    seen, todo = {reference.initial()}, [reference.initial()]
    while todo:
        state = todo.pop()
        if reference.terminal(state):
            continue
        for joint in reference.joint_moves(state):
            after = reference.next(state, joint)
            if after not in seen:
                seen.add(after)
                todo.append(after)
    return seen


@pytest.mark.parametrize("name", ["nim.kif", "hanoi.kif", "maze.kif", "chase.kif", "blockade.kif"])
def test_every_reachable_state_its_moves_ends_and_goals_equal_the_interpreter_s(name):
    _equal_to_the_interpreter(GAMES / name)


@pytest.mark.slow
def test_the_seed_original_mummymaze1p_equals_the_interpreter_and_its_value_is_minimax_s():
    # (its one-ply rules ground by demand: 7 million atoms of direction-from bottom-up)
    path = kif_path("mummymaze1p.kif")
    _equal_to_the_interpreter(path)
    answer = solve_gdl(path)
    assert answer.value == _minimax(GdlGame.from_file(path), "explorer") == 100
    assert answer.stats["positions"] == 5058


def _equal_to_the_interpreter(path: Path) -> None:
    """Every state the engine reaches from the initial one, its legal moves, ends and goals: the interpreter's."""
    game, explored = _explored(path)
    reference = GdlGame.from_file(path)
    expected = _reference_states(reference)
    ours = {frozenset(game.fluent_texts(bits)): s for s, bits in enumerate(explored.states)}
    assert set(ours) == {frozenset(map(to_kif, state)) for state in expected}
    roles = game.role_names
    for state in expected:
        s = ours[frozenset(map(to_kif, state))]
        assert bool(explored.terminal[s]) == reference.terminal(state)
        for r, role in enumerate(roles):
            legal = {game.moves[r][m] for m in np.flatnonzero(explored.legal[r][s])}
            assert {to_kif(m) for m in reference.legal(state, role)} == {symbol_kif(m) for m in legal}
            values = reference.goal_values(state, role)
            assert explored.goal[s, r] == (max(values) if values else -1)


def _minimax(reference: GdlGame, role: str):
    """The value ``role`` guarantees by plain minimax over the interpreter (the role commits first)."""

    @functools.lru_cache(maxsize=None)
    def value(state) -> int:
        if reference.terminal(state):
            return reference.goal(state, role)
        best = None
        for own in reference.legal(state, role):
            worst = None
            for joint in reference.joint_moves(state):
                if joint[role] == own:
                    v = value(reference.next(state, joint))
                    worst = v if worst is None else min(worst, v)
            best = worst if best is None else max(best, worst)
        return best

    return value(reference.initial())


@pytest.mark.parametrize("heaps", [(1, 2, 3), (1, 2), (3, 3), (2, 5, 7), (1, 4, 6), (4,)])
def test_nim_s_first_player_wins_exactly_when_the_heaps_xor_is_not_0(heaps, tmp_path):
    path = tmp_path / "nim.kif"
    path.write_text(nim_text(heaps))
    xor = functools.reduce(lambda a, b: a ^ b, heaps)
    answer = solve_gdl(path, kind="win")
    assert answer.win == (xor != 0)
    assert answer.values == {"first": 100 if xor else 0, "second": 0 if xor else 100}
    if len(heaps) <= 2:
        assert _minimax(GdlGame.from_file(path), "first") == answer.value


def test_tic_tac_toe_is_a_draw_over_its_5478_states():
    answer = solve_gdl(GAMES / "tictactoe.kif")
    assert (answer.value, answer.values, answer.win) == (50, {"xplayer": 50, "oplayer": 50}, False)
    assert answer.stats["positions"] == 5478
    assert answer.plies == 9 and len(answer.line) == 9
    assert {move.value for move in answer.moves} == {50}


def test_tic_tac_toe_from_a_given_state_the_role_commits_and_loses():
    at = ("(cell 1 1 x) (cell 1 2 x) (cell 1 3 b) (cell 2 1 o) (cell 2 2 b) (cell 2 3 b) (cell 3 1 b) "
          "(cell 3 2 b) (cell 3 3 b) (control oplayer)")
    answer = solve_gdl(GAMES / "tictactoe.kif", role="oplayer", at=at)
    assert answer.values == {"xplayer": 100, "oplayer": 0}
    blocks = {move.move: move for move in answer.moves}
    assert blocks["(mark 1 3)"].plies == 3        # o blocks, x makes two threats, o blocks one, x wins
    assert min(move.plies for move in answer.moves) == 1     # any other move: x completes the row
    assert answer.plies == 4 and answer.line[0].joint["oplayer"] == "(mark 1 3)"


def test_hanoi_with_3_discs_is_a_forced_100_in_7_moves():
    answer = solve_gdl(GAMES / "hanoi.kif", kind="win")
    assert (answer.win, answer.win_plies, answer.value) == (True, 7, 100)
    assert [step.move for step in answer.line] == ["(move a c)", "(move a b)", "(move c b)", "(move a c)",
                                                      "(move b a)", "(move b c)", "(move a c)"]
    assert set(answer.line[-1].after.fluents) >= {"(on 1 c)", "(on 2 c)", "(on 3 c)"}
    assert {m.move: m.plies for m in answer.moves} == {"(move a c)": 6, "(move a b)": 7}
    assert _minimax(GdlGame.from_file(GAMES / "hanoi.kif"), "player") == 100


def test_the_maze_is_walked_in_6_steps_and_not_within_5():
    answer = solve_gdl(GAMES / "maze.kif", kind="win")
    assert (answer.win_plies, [step.move for step in answer.line]) == (
        6, ["north", "east", "south", "east", "north", "north"])
    assert solve_gdl(GAMES / "maze.kif", kind="win", horizon=5).win is False
    assert solve_gdl(GAMES / "maze.kif", kind="win", horizon=6).win is True


def test_symbols_clingo_does_not_take_come_back_as_written_in_a_gdl_file(tmp_path):
    game = tmp_path / "race.gdl"
    game.write_text("""(ROLE Red-Car) (role zed)
(init (AT Red-Car 0)) (init (at zed 0))
(next-num 0 1) (next-num 1 2)
(<= (legal ?r (drive +1)) (role ?r))
(<= (legal ?r wait!) (role ?r))
(<= (next (at ?r ?m)) (true (at ?r ?n)) (does ?r (drive +1)) (next-num ?n ?m))
(<= (next (at ?r ?n)) (true (at ?r ?n)) (does ?r wait!))
(<= (arrived ?r) (true (at ?r 2)))
(<= terminal (arrived ?r))
(<= (goal ?r 100) (arrived ?r))
(<= (goal ?r 0) (role ?r) (not (arrived ?r)))
""")
    answer = solve_gdl(game, role="RED-CAR", kind="win")
    assert (answer.role, answer.win, answer.win_plies) == ("red-car", True, 2)     # (zed arriving too takes nothing)
    assert {move.move for move in answer.moves} == {"(drive +1)", "wait!"}
    assert "(at red-car 0)" in answer.position["fluents"]
    assert answer.values == {"red-car": 100, "zed": 100}
    alone = solve_gdl(game, role="red-car", at="(at red-car 1) (at zed 0)", kind="win")
    assert (alone.win, alone.win_plies, alone.line[0].joint["red-car"]) == (True, 1, "(drive +1)")


def test_with_simultaneous_moves_the_role_commits_first_and_the_others_answer_knowing(tmp_path):
    game = tmp_path / "pennies.kif"
    game.write_text("""; matching pennies, twice: even wins when the coins match both times
(role even) (role odd)
(side heads) (side tails)
(init (round 0))
(<= (legal ?r ?s) (role ?r) (side ?s) (not (true (round 2))))
(<= (next (round 1)) (true (round 0)))
(<= (next (round 2)) (true (round 1)))
(<= (next (missed)) (true (missed)))
(<= (next (missed)) (does even ?a) (does odd ?b) (distinct ?a ?b))
(<= terminal (true (round 2)))
(<= (goal even 100) (not (true (missed))))
(<= (goal even 0) (true (missed)))
(<= (goal odd 0) (not (true (missed))))
(<= (goal odd 100) (true (missed)))
""")
    answer = solve_gdl(game)
    assert answer.values == {"even": 0, "odd": 0}      # whoever commits first is answered
    assert answer.values["even"] == _minimax(GdlGame.from_file(game), "even")
    assert answer.values["odd"] == _minimax(GdlGame.from_file(game), "odd")
    assert answer.plies == 2            # (the game ends after its two rounds)
    assert answer.stats["positions"] == 5


def test_a_memory_limit_the_grounding_cannot_fit_stops_with_the_limit_s_error():
    with pytest.raises(MemoryLimitError) as caught:
        solve_gdl(GAMES / "tictactoe.kif", limits=Limits(memory=1))
    assert "the reachable states of tictactoe.kif do not fit" in str(caught.value)
    assert "--max-memory" in str(caught.value)


def test_a_relation_reading_its_own_other_atoms_through_not_is_checked_ground(tmp_path):
    text = (GAMES / "maze.kif").read_text().replace("(<= (goal robot 0) (not out))", "(<= (goal robot 0) (not (goal robot 100)))")
    game = tmp_path / "maze.kif"
    game.write_text(text)
    assert solve_gdl(game, kind="win").win_plies == 6
    game.write_text(text + "\n(<= (blocked ?a ?b ?c ?d) (index ?a) (index ?b) (index ?c) (index ?d) (not (blocked ?a ?b ?c ?d)))\n")
    with pytest.raises(BoardError) as caught:
        solve_gdl(game)
    assert "a ground atom depends on itself through a not" in str(caught.value)


def test_a_game_without_init_starts_from_the_empty_state(tmp_path):
    game = tmp_path / "noinit.kif"
    game.write_text("""; no init: the first state holds no fluent
(role p)
(<= (legal p step) (not (true (two))))
(<= (next (one)) (does p step) (not (true (one))))
(<= (next (two)) (true (one)))
(<= terminal (true (two)))
(<= (goal p 100) (true (two)))
(<= (goal p 0) (not (true (two))))
""")
    answer = solve_gdl(game, kind="win")
    assert answer.position["fluents"] == []
    assert (answer.win, answer.win_plies, answer.stats["positions"]) == (True, 2, 3)
    assert [list(step.after.fluents) for step in answer.line] == [["one"], ["two"]]
    assert _minimax(GdlGame.from_file(game), "p") == 100


def _same_explored(game, depth=None) -> None:
    """The numpy and the C exploration of ``game`` from its initial state: every field equal."""
    guard = limits_guard(Path(game.path), Limits())
    kernel = importlib.import_module("gridsolve.ground.circuitkernel")      # (built for the test session)
    game.circuit.kernel = None
    by_numpy = numpy_explore(game, game.init, guard, depth)
    game.circuit.kernel = kernel
    in_c = native_explore(game, game.init, guard, depth)
    assert in_c.states.columns == by_numpy.states.columns == len(game.fluents)
    for name in ("states", "terminal", "goal", "src", "dst", "joint", "joints"):
        mine, theirs = getattr(in_c, name), getattr(by_numpy, name)
        if name == "states":
            mine, theirs = mine.packed, theirs.packed
        assert mine.dtype == theirs.dtype and mine.shape == theirs.shape and (mine == theirs).all(), name
    assert [a.columns for a in in_c.legal] == [b.columns for b in by_numpy.legal] == list(map(len, game.moves))
    assert all((a[:] == b[:]).all() and a[:].shape == b[:].shape for a, b in zip(in_c.legal, by_numpy.legal))
    assert (in_c.count, in_c.depth) == (by_numpy.count, by_numpy.depth)
    assert [in_c.find(bits) for bits in by_numpy.states[::97]] == list(range(0, by_numpy.count, 97))


@pytest.mark.parametrize("name", ["tictactoe", "nim", "hanoi", "maze"])
@pytest.mark.parametrize("depth", [None, 2])
def test_the_c_exploration_equals_numpy_s(name, depth):
    description = read_description(GAMES / f"{name}.kif")
    _same_explored(ground_game(description, limits_guard(GAMES / f"{name}.kif", Limits())), depth)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["mummyMaze2p_2007.kif", "wallmaze.kif", "mummymaze2p.kif", "pacman3p.kif",
                                  "mummymaze1p.kif"])
def test_the_c_exploration_equals_numpy_s_on_the_seed_originals(name):
    path = kif_path(name)
    game = ground_game(read_description(path), limits_guard(path, Limits()))
    _same_explored(game, 3 if name == "pacman3p.kif" else 6)


def test_the_c_exploration_stops_at_the_limit_with_the_states_reached(monkeypatch):
    monkeypatch.setattr(engine, "CHECK_EVERY", 100)
    path = GAMES / "tictactoe.kif"
    game = ground_game(read_description(path), limits_guard(path, Limits()))
    game.circuit.kernel = importlib.import_module("gridsolve.ground.circuitkernel")
    late = limits_guard(path, Limits(seconds=1))
    late.started -= 10_000      # (the time up from the first check on)
    with pytest.raises(LimitError, match=r"after \d[\d,]* states reached"):
        native_explore(game, game.init, late)


# - Demand-driven grounding (gridsolve/gdl/demand.py) ---

CHASE_AT = ("(at runner 1 1) (at chaser 3 1) (exit 3 3) (step 0) (wall 1 3 north) (wall 2 3 north) (wall 3 3 north) "
            "(wall 1 1 south) (wall 2 1 south) (wall 3 1 south) (wall 1 1 west) (wall 1 2 west) (wall 1 3 west) "
            "(wall 3 1 east) (wall 3 2 east) (wall 3 3 east) (wall 1 2 north) (wall 1 3 south) (wall 2 2 east) "
            "(wall 3 2 west)")      # (the inner wall moved: (1 2)-(1 3) and (2 2)-(3 2) instead of (2 1)-(2 2))


def test_auxiliary_relations_are_ground_only_for_what_their_readers_pass():
    # chase.kif's toward is about 900,000 atoms over its numbers 0..30; the constant walls keep
    # the pieces' fluents on the 3 x 3 board (dropping the negation that blocks a move off it
    # would let them run to 30).
    path = GAMES / "chase.kif"
    game = ground_game(read_description(path), limits_guard(path, Limits()))
    places = [f for f in game.fluents if f.name == "at"]
    assert places and all(1 <= arg.number <= 3 for f in places for arg in f.arguments[1:])
    assert game.circuit.size < 20_000
    assert game.constant == {("wall", 3), ("exit", 2)}


def test_a_state_with_other_constant_fluents_grounds_the_game_again_from_it(tmp_path):
    path = GAMES / "chase.kif"
    game = ground_game(read_description(path), limits_guard(path, Limits()))
    from gridsolve.gdl.kif import read_kif
    with pytest.raises(ConstantFluentsError):
        game.state_of(read_kif(CHASE_AT))
    moved = tmp_path / "moved.kif"
    text = path.read_text()
    text = text.replace("(init (wall 2 1 north)) (init (wall 2 2 south))",
                        "(init (wall 1 2 north)) (init (wall 1 3 south)) (init (wall 2 2 east)) (init (wall 3 2 west))")
    moved.write_text(text)
    asked, alone = solve_gdl(path, at=CHASE_AT), solve_gdl(moved)
    assert "(wall 2 2 east)" in asked.position["fluents"] and "(wall 2 1 north)" not in asked.position["fluents"]
    assert (asked.value, asked.plies, asked.stats["positions"]) == (alone.value, alone.plies, alone.stats["positions"])
    assert asked.value == _minimax(GdlGame.from_file(moved), "runner")
    assert (solve_gdl(path).value, solve_gdl(path).plies) == (100, 4)


def test_a_literal_s_own_variables_are_projected_away_from_the_ground_rules():
    # blockade.kif's frame rules read both roles' moves (16 each) and use two of their four
    # numbers: 3,910 ground rules as written, a few hundred projected.
    from gridsolve.gdl.projection import projected
    path = GAMES / "blockade.kif"
    description = read_description(path)
    rules = projected(description).rules
    frame = [r for r in rules if r.head.name == "next" and str(r.head.args[0]) == "(cell1 ?x ?y ?m)"][0]
    defined = {r.head.name: r for r in rules if r.head.name.startswith("zzProj")}
    read = [(str(defined[lit.atom.name].body[0].atom), [str(a) for a in lit.atom.args])
            for lit in frame.body if lit.atom.name in defined]
    assert read == [("(does blocker (mark ?bx ?by ?bx2 ?by2))", ["?bx", "?by"]),
                    ("(does crosser (mark ?cx ?cy ?cx2 ?cy2))", ["?cx", "?cy"])]
    assert [lit.atom.name for lit in frame.body if lit.atom.name not in defined] == ["true", "distinctcell",
                                                                                      "distinctcell"]
    game = ground_game(description, limits_guard(path, Limits()))
    assert game.circuit.rule_count < 1_000
    answer = solve_gdl(path)
    assert answer.values == {"crosser": 0, "blocker": 100} and answer.stats["positions"] == 257


def test_packed_rows_read_back_as_the_bools_they_were_packed_from():
    bits = np.array([[True, False, True, False, False, False, False, False, True, True],
                     [False] * 9 + [True], [False] * 10], dtype=bool)
    states = PackedRows.of(bits)
    assert states.packed.shape == (3, 2) and states.nbytes == 6 and len(states) == 3
    assert states.packed[0].tolist() == [0b10100000, 0b11000000]
    assert (states[0] == bits[0]).all() and states[0].dtype == bool and states[0].shape == (10,)
    assert (states[1:] == bits[1:]).all() and (np.array(list(states)) == bits).all()
    tail = PackedRows(states.packed, 10, 8)         # (columns 8 and 9 only: a role's moves of all the moves)
    assert tail.columns == 2 and tail[0].tolist() == [True, True] and tail[:].tolist() == [[True, True], [False, True],
                                                                                           [False, False]]
