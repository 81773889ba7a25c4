"""The depth-first search in one call of the circuit's C kernel (gridsolve/gdl/nativedepth.py,
gridsolve/ground/circuitdepth.h) answers as the Python depth-first search (gridsolve/gdl/depthsearch.py)
does, the same fewest steps and the same line, for every kind of target, and as the breadth-first
ranking does (win, its steps and its moves), on the games written for the tests from sampled states
and horizons; its win lines are played by the tests' own interpreter to the top goal; its limits
stop it with the states searched (exit code 3); without the kernel the Python search answers."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from gridsolve import native
from gridsolve.cli import main
from gridsolve.errors import LimitError, MemoryLimitError, QueryError
from gridsolve.gdl.depthsearch import DepthSearch, Target
from gridsolve.gdl.nativedepth import NativeDepthSearch, native_least
from gridsolve.gdl import solving
from gridsolve.gdl.solving import GdlSession, solve_gdl
from gridsolve.solve.common.limits import Limits
from reference.gdl import GdlGame
from tests.test_gdl_depthsearch import line_wins, sampled_states

GAMES = Path(__file__).parent / "gdl" / "games"
NAMES = ["tictactoe.kif", "nim.kif", "hanoi.kif", "maze.kif"]

pytestmark = pytest.mark.skipif(native.load("circuitkernel", "gridsolve.ground") is None,
                                reason="the circuit's C kernel is not built")


def targets(session: GdlSession, role: int) -> list[Target]:
    """Every kind of target over the role's goal values: its win, the others' forcing each value
    or less, and any end within each pair of values."""
    values = sorted({v for v, _ in session.game.goals[role]})
    return ([Target("role", low=values[-1])] + [Target("others", high=v) for v in values]
            + [Target("anyone", low, high) for low in values for high in values if low <= high])


def sampled_bits(session: GdlSession, count: int, seed: int) -> list:
    """The initial state and ``count`` states the breadth-first exploration reaches (bools a fluent)."""
    explored = session._explored(session.game.init, None)[0]
    chosen = random.Random(seed).sample(range(explored.count), min(count, explored.count))
    return [session.game.init] + [explored.states[s] for s in chosen]


def python_least(session: GdlSession, role: int, bits, target: Target, horizon: int | None):
    search = DepthSearch(session.game, role, session.guard)
    key = search.root(bits)
    plies = search.least(key, target, horizon)
    return plies, [] if plies is None else search.line(key, target, plies)


def steps_of(line) -> list[tuple]:
    return [(step.joint, step.after, step.choices) for step in line]


@pytest.mark.parametrize("name, states, horizons", [
    ("nim.kif", 4, (0, 1, 3, 6)), ("hanoi.kif", 4, (0, 1, 3, 6)), ("maze.kif", 4, (0, 1, 3, 6)),
    ("tictactoe.kif", 2, (0, 1, 3)),
    pytest.param("tictactoe.kif", 6, (2, 4, 6, 9), marks=pytest.mark.slow)])
def test_the_kernel_s_search_equals_the_python_search_for_every_target_from_sampled_states(name, states, horizons):
    session = GdlSession(GAMES / name)
    compared = forced = 0
    for bits in sampled_bits(session, states, seed=47):
        for role in range(len(session.game.roles)):
            for target in targets(session, role):
                for horizon in horizons:
                    found = native_least(session.game, role, session.guard, bits, target, horizon)
                    plies, line = python_least(session, role, bits, target, horizon)
                    assert (found.plies, steps_of(found.line)) == (plies, steps_of(line)), (role, target, horizon)
                    compared, forced = compared + 1, forced + (plies is not None)
    assert forced and forced < compared         # (both answers met)


@pytest.mark.parametrize("name", ["nim.kif", "maze.kif", pytest.param("tictactoe.kif", marks=pytest.mark.slow)])
def test_the_kernel_s_search_without_a_horizon_equals_the_python_search(name):
    session = GdlSession(GAMES / name)
    for bits in sampled_bits(session, 4, seed=3):
        for role in range(len(session.game.roles)):
            for target in targets(session, role):
                found = native_least(session.game, role, session.guard, bits, target, None)
                plies, line = python_least(session, role, bits, target, None)
                assert (found.plies, steps_of(found.line)) == (plies, steps_of(line)), (role, target)


def test_a_win_within_a_horizon_by_the_kernel_equals_the_breadth_first_ranking_from_sampled_states():
    for name in NAMES:
        session = GdlSession(GAMES / name)
        for at in [None] + sampled_states(session, 5, seed=7):
            for role in session.game.role_names:
                for horizon in (1, 2, 5, 9):
                    depth = session.answer(role, "win", at, horizon, search="depth")
                    breadth = session.answer(role, "win", at, horizon, search="breadth")
                    fields = ("win", "win_plies", "win_moves", "holds")
                    assert [getattr(depth, f) for f in fields] == [getattr(breadth, f) for f in fields], (name, at)
                    assert depth.stats["kernel"] == "C" and len(depth.line) == (depth.win_plies or 0)


@pytest.mark.parametrize("name", NAMES)
def test_a_win_line_of_the_kernel_s_search_is_played_by_the_interpreter_to_the_top_goal(name):
    session = GdlSession(GAMES / name)
    reference = GdlGame.from_file(GAMES / name)
    wins = [line_wins(reference, role, at, session.answer(role, "win", at, 8, search="depth"))
            for role in session.game.role_names for at in sampled_states(session, 10, seed=19)]
    assert any(wins)


def test_the_kernel_s_search_stops_at_the_time_limit_with_the_states_searched():
    session = GdlSession(GAMES / "tictactoe.kif")
    session.guard.limits = Limits(seconds=1e-9)         # (the time is up from the first check in the call on)
    with pytest.raises(LimitError, match="depth-first search: after [0-9,]+ states searched"):
        session.answer(kind="win", horizon=9, search="depth")


def test_the_kernel_s_search_stops_at_the_memory_limit_with_the_states_searched():
    session = GdlSession(GAMES / "tictactoe.kif")
    session.guard.limits = Limits(memory=1000)          # (the tables the call holds pass it at the first check)
    with pytest.raises(MemoryLimitError, match="depth-first search: after [0-9,]+ states searched"):
        session.answer(kind="win", horizon=9, search="depth")


def test_a_limit_of_the_kernel_s_search_exits_with_code_3_and_the_states_searched(monkeypatch):
    def tight(game, role, guard, *args):        # (the memory limit down to 1000 bytes once the game is ground)
        guard.limits = Limits(memory=1000)
        return native_least(game, role, guard, *args)
    monkeypatch.setattr(solving, "native_least", tight)
    result = CliRunner().invoke(main, ["solve", str(GAMES / "tictactoe.kif"), "--query", "win", "--horizon", "9",
                                       "--search", "depth"])
    assert result.exit_code == 3, result.output
    assert "depth-first search: after" in result.output and "states searched" in result.output
    assert "Traceback" not in result.output


def test_a_game_that_goes_on_forever_stops_the_kernel_s_search_without_a_horizon(tmp_path):
    game = tmp_path / "loop.kif"
    game.write_text("(role p) (init (at a)) (legal p go) (<= (next (at b)) (true (at a))) "
                    "(<= (next (at a)) (true (at b))) (<= terminal (true (at c))) (goal p 100)\n")
    assert solve_gdl(game, kind="win", horizon=20, search="depth").win is False
    with pytest.raises(LimitError, match="500 steps deep without an answer"):
        solve_gdl(game, kind="win", search="depth")
    with pytest.raises(QueryError, match="at most 500 steps deep"):
        solve_gdl(game, kind="win", horizon=501, search="depth")


def test_without_the_kernel_the_python_search_answers_alike(monkeypatch):
    with_kernel = solve_gdl(GAMES / "tictactoe.kif", "xplayer", "win", "(cell 1 1 x) (cell 2 2 o) (cell 3 3 x) "
                            "(cell 1 2 b) (cell 1 3 b) (cell 2 1 b) (cell 2 3 b) (cell 3 1 b) (cell 3 2 b) "
                            "(control xplayer)", 5, search="depth")
    monkeypatch.setenv("GRIDSOLVE_NATIVE", "0")
    without = solve_gdl(GAMES / "tictactoe.kif", "xplayer", "win", "(cell 1 1 x) (cell 2 2 o) (cell 3 3 x) "
                        "(cell 1 2 b) (cell 1 3 b) (cell 2 1 b) (cell 2 3 b) (cell 3 1 b) (cell 3 2 b) "
                        "(control xplayer)", 5, search="depth")
    assert with_kernel.stats["kernel"] == "C" and "kernel" not in without.stats
    assert (with_kernel.win, with_kernel.win_plies, with_kernel.line) == (without.win, without.win_plies, without.line)
    assert with_kernel.win


def test_the_json_answer_names_the_kernel_s_search():
    result = CliRunner().invoke(main, ["solve", str(GAMES / "hanoi.kif"), "--query", "win", "--horizon", "7",
                                       "--search", "depth", "--json"])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    assert (answer["win"], answer["win_plies"], answer["stats"]["search"], answer["stats"]["kernel"]) == (
        True, 7, "depth", "C")
    assert answer["stats"]["positions"] > 0 and answer["stats"]["expanded"] <= answer["stats"]["positions"]


# - The value a role guarantees, depth-first in C ---

VALUE_FIELDS = ("value", "plies", "values", "moves", "win", "win_plies", "win_moves", "holds")
GGP = Path("/work/data/ggp-repository/war/root/games")
GGP_SMALL = ["gt_centipede", "gt_dollar", "onestep", "switches", "roshambo2", "minichess"]
GGP_MORE = ["colonelBlotto", "gt_coordination", "nim1", "circlesolitaire", "kitten_escapes_from_fire", "coins",
            "buttons", "tictactoe-init1", "stateSpaceSmall", "twisty-passages"]


def value_fields(answer) -> dict:
    return {f: getattr(answer, f) for f in VALUE_FIELDS}


def assert_value_as_breadth(path: Path, at: str | None = None, horizon: int | None = None) -> list:
    """Every role's value question depth-first in C answers as the breadth-first ranking (and its
    line has the value's steps); the depth-first answers."""
    session = GdlSession(path)
    answers = []
    for role in session.game.role_names:
        breadth = session.answer(role, "value", at, horizon, search="breadth")
        depth = session.answer(role, "value", at, horizon, search="depth")
        assert value_fields(depth) == value_fields(breadth), (path.name, role, at, horizon)
        assert depth.stats["kernel"] == "C" and depth.stats["searches"] > 0
        assert len(depth.line) == (depth.plies or 0)
        answers.append(depth)
    return answers


@pytest.mark.parametrize("name, values, plies", [
    ("tictactoe.kif", {"xplayer": 50, "oplayer": 50}, 9), ("hanoi.kif", {"player": 100}, 7),
    ("nim.kif", None, None), ("maze.kif", None, None)])
def test_the_value_depth_first_in_c_is_the_known_value_and_the_ranking_s(name, values, plies):
    first = assert_value_as_breadth(GAMES / name)[0]
    if values is not None:
        assert (first.values, first.plies) == (values, plies)


@pytest.mark.parametrize("name, horizon", [("tictactoe.kif", 3), ("nim.kif", 2), ("maze.kif", 5), ("hanoi.kif", 6)])
def test_the_value_depth_first_in_c_within_a_horizon_and_from_sampled_states_is_the_ranking_s(name, horizon):
    for at in [None] + sampled_states(GdlSession(GAMES / name), 2, seed=11):
        assert_value_as_breadth(GAMES / name, at, horizon)


def test_the_value_depth_first_in_c_equals_the_python_depth_search(monkeypatch):
    at = ("(cell 1 1 x) (cell 2 2 o) (cell 1 2 b) (cell 1 3 b) (cell 2 1 b) (cell 2 3 b) (cell 3 1 b) (cell 3 2 b) "
          "(cell 3 3 b) (control xplayer)")
    with_kernel = solve_gdl(GAMES / "tictactoe.kif", "oplayer", "value", at, search="depth")
    monkeypatch.setenv("GRIDSOLVE_NATIVE", "0")
    without = solve_gdl(GAMES / "tictactoe.kif", "oplayer", "value", at, search="depth")
    assert "kernel" not in without.stats
    assert value_fields(with_kernel) == value_fields(without) and with_kernel.line == without.line


def test_the_kernel_s_search_after_a_committed_move_counts_its_step():
    session = GdlSession(GAMES / "hanoi.kif")
    game = session.game
    win = Target("role", low=100)
    moves = [native_least(game, 0, session.guard, game.init, win, 9, move).plies for move in range(2)]
    assert moves == [8, 7]     # ((move a b) wins in 7 steps after it, (move a c) in 6: its own step counted)
    assert native_least(game, 0, session.guard, game.init, win, 7, 0).plies is None
    with pytest.raises(ValueError, match="no such move of the role at the root"):
        native_least(game, 0, session.guard, game.init, win, 7, 5)


# - One search kept open over many questions: a table a target ---

@pytest.mark.parametrize("name, states", [("nim.kif", 3), ("hanoi.kif", 3), ("maze.kif", 3), ("tictactoe.kif", 1)])
def test_an_open_search_asked_targets_in_any_order_answers_as_a_search_of_its_own_each(name, states):
    session = GdlSession(GAMES / name)
    game, guard = session.game, session.guard
    asked = 0
    for bits in sampled_bits(session, states, seed=5):
        for role in range(len(game.roles)):
            search = NativeDepthSearch(game, role, guard)
            key = search.root(bits)
            moves = 0 if search.ends[key][0] else len(search.moves(key))      # (a move committed: not at an end)
            questions = [(target, horizon, move) for target in targets(session, role) for horizon in (None, 4, 1)
                         for move in [None] + list(range(min(moves, 2)))]
            random.Random(role).shuffle(questions)       # (the targets interleaved: each table set aside and back)
            for target, horizon, move in questions + questions[:len(questions) // 2]:
                own = native_least(game, role, guard, bits, target, horizon, move)
                assert search.least(key, target, horizon, move) == own.plies, (role, target, horizon, move)
                if own.plies is not None and move is None:
                    assert steps_of(search.line(key, target, own.plies)) == steps_of(own.line)
                asked += 1
    assert asked > 50


def test_a_target_asked_again_deepens_through_what_its_table_proved():
    session = GdlSession(GAMES / "hanoi.kif")
    search = NativeDepthSearch(session.game, 0, session.guard)
    key = search.root(session.game.init)
    win, other = Target("role", low=100), Target("anyone", 0, 0)
    visits = []
    for target in (win, other, win):
        before = search.counts["visits"]
        own = native_least(session.game, 0, session.guard, session.game.init, target, None)
        assert search.least(key, target, None) == own.plies
        visits.append(search.counts["visits"] - before)
    assert native_least(session.game, 0, session.guard, session.game.init, win, None).plies == 7
    assert visits[0] > 0 and visits[2] < visits[0]      # (the win's bounds set aside while the other was asked)


def _ggp(name: str) -> Path:
    path = GGP / name / f"{name}.kif"
    if not path.exists():
        pytest.skip(f"the GGP repository's checkout is not at {GGP} (read only, never copied)")
    return path


@pytest.mark.parametrize("name", GGP_SMALL)
def test_the_value_depth_first_in_c_is_the_ranking_s_on_small_ggp_games(name):
    assert_value_as_breadth(_ggp(name))


@pytest.mark.slow
@pytest.mark.parametrize("name", GGP_MORE)
def test_the_value_depth_first_in_c_is_the_ranking_s_on_more_ggp_games(name):
    assert_value_as_breadth(_ggp(name))
