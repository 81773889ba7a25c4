"""The depth-first search (gridsolve/gdl/depthsearch.py, depthanswer.py) answers as the
breadth-first exploration and ranking do: win, its steps, the value, its steps, every role's
value and every move's, on the games written for the tests (tests/gdl/games/) from many states
and horizons, on the seed originals (tests/gdl/reference.py), and against a plain minimax over
the tests' own interpreter (reference/gdl.py); its win lines replayed by the interpreter."""
from __future__ import annotations

import functools
import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from gridsolve.cli import main
from gridsolve.errors import LimitError, MemoryLimitError, QueryError
from gridsolve.gdl import solving
from gridsolve.gdl.solving import GdlSession, chosen_search, solve_gdl
from gridsolve.solve.common.limits import Limits
from reference.gdl import GdlGame, parse_term, to_kif
from tests.gdl.reference import kif_path

GAMES = Path(__file__).parent / "gdl" / "games"
WIN_FIELDS = ("win", "win_plies", "win_moves", "holds")
VALUE_FIELDS = WIN_FIELDS + ("value", "plies", "values", "moves")


def sampled_states(session: GdlSession, count: int, seed: int) -> list[str]:
    """``count`` states the breadth-first exploration reaches from the start, as ``--at`` text."""
    explored = session._explored(session.game.init, None)[0]
    chosen = random.Random(seed).sample(range(explored.count), min(count, explored.count))
    return [" ".join(session.game.fluent_texts(explored.states[s])) for s in chosen]


def position_session(path: Path) -> GdlSession:
    """A session for the questions about one state: its breadth-first answers without a horizon
    from an exploration of that state (a session reads a state an earlier exploration reached off
    that one's graph, whose ends, from another root, may hold other goals: the lowest goal of the
    ends, which measures the plies of the lowest value, is then another)."""
    return GdlSession(path)


def assert_same(session: GdlSession, role: str, kind: str, at: str | None, horizon: int | None):
    breadth = session.answer(role, kind, at, horizon, search="breadth")
    depth = session.answer(role, kind, at, horizon, search="depth")
    fields = WIN_FIELDS if kind == "win" else VALUE_FIELDS
    assert {f: getattr(depth, f) for f in fields} == {f: getattr(breadth, f) for f in fields}, (role, kind, at, horizon)
    assert depth.stats["search"] == "depth" and breadth.stats["search"] == "breadth"
    steps = depth.win_plies if kind == "win" else depth.plies
    assert len(depth.line) == (steps or 0) and len(breadth.line) == len(depth.line) or kind == "win" and not depth.win
    return depth


@pytest.mark.parametrize("name, roles, horizons, start", [
    ("tictactoe.kif", ("xplayer", "oplayer"), (None, 2), False),
    ("nim.kif", ("first", "second"), (None, 4), True),
    ("hanoi.kif", ("player",), (7,), True),
    ("maze.kif", ("robot",), (None, 5, 6), True),
])
def test_the_depth_search_answers_as_the_ranking_from_sampled_states(name, roles, horizons, start):
    states = [None] * start + sampled_states(GdlSession(GAMES / name), 3, seed=47)
    for at in states:
        session = position_session(GAMES / name)
        for horizon in horizons:
            for role in roles:
                for kind in ("win", "value"):
                    assert_same(session, role, kind, at, horizon)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["tictactoe.kif", "nim.kif", "hanoi.kif", "maze.kif"])
def test_the_depth_search_answers_as_the_ranking_from_many_states(name):
    sampler = GdlSession(GAMES / name)
    roles = sampler.game.role_names
    for at in sampled_states(sampler, 40, seed=3):
        session = position_session(GAMES / name)
        for horizon in (None, 1, 3, 4, 7, 9):
            for role in roles:
                for kind in ("win", "value"):
                    assert_same(session, role, kind, at, horizon)


def replayed(reference: GdlGame, at: str, line: tuple):
    """The interpreter's state after the joint moves of ``line`` from the state of ``at``."""
    state = frozenset(parse_term(f"({text})" if not text.startswith("(") else text)
                      for text in _fluents(at))
    for step in line:
        joint = {role: parse_term(move) for role, move in step.joint.items()}
        joint = {next(r for r in reference.roles if to_kif(r) == role): move for role, move in joint.items()}
        state = reference.next(state, joint, check_legal=True)
        assert {to_kif(f) for f in state} == set(step.after.fluents)
    return state


def _fluents(at: str) -> list[str]:
    out, depth, start = [], 0, None
    for i, ch in enumerate(at):
        if ch == "(":
            depth, start = depth + 1, i if depth == 0 else start
        elif ch == ")":
            depth -= 1
            if depth == 0:
                out.append(at[start:i + 1])
    return out or at.split()


@pytest.mark.parametrize("name", ["tictactoe.kif", "nim.kif", "hanoi.kif", "maze.kif"])
def test_a_win_line_of_the_depth_search_is_played_by_the_interpreter_to_the_top_goal(name):
    session = GdlSession(GAMES / name)
    reference = GdlGame.from_file(GAMES / name)
    role = session.game.role_names[0]
    wins = [line_wins(reference, role, at, session.answer(role, "win", at, 9, search="depth"))
            for at in sampled_states(session, 12, seed=5)]
    assert any(wins)


def line_wins(reference: GdlGame, role: str, at: str, answer) -> bool:
    """Whether ``answer`` is a win; if so, its line, played by the interpreter from ``at``, ends at the top goal."""
    if not answer.win:
        return False
    end = replayed(reference, at, answer.line)
    assert reference.terminal(end) and reference.goal(end, next(r for r in reference.roles
                                                                 if to_kif(r) == role)) == answer.top
    assert len(answer.line) == answer.win_plies
    return True


def _win_within(reference: GdlGame, role, top: int):
    """Whether ``role`` forces an end at ``top`` within ``steps`` steps: a plain minimax over the interpreter."""

    @functools.lru_cache(maxsize=None)
    def win(state, steps: int) -> bool:
        if reference.terminal(state):
            return reference.goal(state, role) == top
        if steps == 0:
            return False
        joints = reference.joint_moves(state)
        return any(all(win(reference.next(state, j), steps - 1) for j in joints if j[role] == own)
                   for own in reference.legal(state, role))

    return win


@pytest.mark.parametrize("name", ["tictactoe.kif", "nim.kif", "maze.kif"])
def test_the_fewest_steps_of_a_win_equal_the_interpreter_s_minimax(name):
    session = GdlSession(GAMES / name)
    reference = GdlGame.from_file(GAMES / name)
    role = reference.roles[0]
    win = _win_within(reference, role, max(session.game.goals[0])[0])
    for at in sampled_states(session, 12, seed=11):
        state = frozenset(parse_term(text) for text in _fluents(at))
        answer = session.answer(to_kif(role), "win", at, 6, search="depth")
        fewest = next((steps for steps in range(7) if win(state, steps)), None)
        assert answer.win_plies == fewest, at


def test_auto_searches_depth_first_for_a_win_within_a_horizon_and_breadth_first_else():
    assert chosen_search("auto", "win", 5) == "depth"
    assert chosen_search("auto", "win", None) == chosen_search("auto", "value", 5) == "breadth"
    assert chosen_search("breadth", "win", 5) == "breadth" and chosen_search("depth", "value", None) == "depth"
    assert solve_gdl(GAMES / "maze.kif", kind="win", horizon=6).stats["search"] == "depth"
    assert solve_gdl(GAMES / "maze.kif", kind="win").stats["search"] == "breadth"


def test_auto_asks_the_depth_search_where_the_breadth_first_states_do_not_fit(monkeypatch):
    def no_room(*_args):
        raise MemoryLimitError("the reachable states do not fit: (the test's)")
    monkeypatch.setattr(solving, "explore", no_room)
    answer = solve_gdl(GAMES / "nim.kif")
    assert (answer.stats["search"], answer.value, answer.values) == ("depth", 0, {"first": 0, "second": 100})
    with pytest.raises(MemoryLimitError):
        solve_gdl(GAMES / "nim.kif", search="breadth")


def test_a_depth_searched_win_question_gives_the_win_s_value_or_none():
    won = solve_gdl(GAMES / "hanoi.kif", kind="win", horizon=7, search="depth")
    assert (won.win, won.win_plies, won.value, won.plies, won.values, won.moves) == (True, 7, 100, 7, None, [])
    lost = solve_gdl(GAMES / "hanoi.kif", kind="win", horizon=6, search="depth")
    assert (lost.win, lost.value, lost.plies, lost.values, lost.line) == (False, None, None, None, ())


def test_solve_search_option_and_its_stats():
    runner = CliRunner()
    result = runner.invoke(main, ["solve", str(GAMES / "nim.kif"), "--search", "depth", "--json"])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    assert answer["stats"]["search"] == "depth" and answer["values"] == {"first": 0, "second": 100}
    text = runner.invoke(main, ["solve", str(GAMES / "hanoi.kif"), "--query", "win", "--horizon", "6", "--search", "depth"]).output
    assert "states searched depth-first, within 6 steps" in text and "win (100) for player: no" in text
    refused = runner.invoke(main, ["solve", "boards/wallmaze.yaml", "--search", "depth"])
    assert refused.exit_code == 2 and "--search depth is an option of a GDL game" in refused.output


def test_ask_takes_the_search_as_a_question_key():
    questions = "\n".join(json.dumps(q) for q in [{"query": "win", "horizon": 7, "search": "depth"},
                                                         {"query": "win", "horizon": 7, "search": "breadth"}])
    result = CliRunner().invoke(main, ["ask", str(GAMES / "hanoi.kif")], input=questions + "\n")
    assert result.exit_code == 0, result.output
    replies = [json.loads(line) for line in result.output.splitlines()]
    assert [(r["stats"]["search"], r["win"], r["win_plies"]) for r in replies] == [("depth", True, 7),
                                                                                 ("breadth", True, 7)]


def test_the_depth_search_stops_at_the_time_limit_with_the_states_searched():
    session = GdlSession(GAMES / "tictactoe.kif")
    session.guard.limits = Limits(seconds=1e-9)         # (the time is up from the first check of the search on)
    with pytest.raises(LimitError, match="depth-first search: after [0-9,]+ states searched"):
        session.answer(kind="value", search="depth")


def test_a_game_that_can_go_on_forever_stops_the_depth_search_without_a_horizon(tmp_path):
    game = tmp_path / "loop.kif"
    game.write_text("(role p) (init (at a)) (legal p go) (<= (next (at b)) (true (at a))) "
                    "(<= (next (at a)) (true (at b))) (<= terminal (true (at c))) (goal p 100)\n")
    assert solve_gdl(game, search="breadth").value is None
    assert solve_gdl(game, kind="win", horizon=20, search="depth").win is False
    with pytest.raises(LimitError, match="500 steps deep without an answer"):
        solve_gdl(game, search="depth")
    with pytest.raises(QueryError, match="at most 500 steps deep"):
        solve_gdl(game, kind="win", horizon=501, search="depth")


@pytest.mark.slow
def test_the_seed_originals_depth_search_answers_as_the_ranking_within_a_horizon():
    for name in ("mummyMaze2p_2007.kif", "wallmaze.kif"):
        session = GdlSession(kif_path(name), Limits(seconds=300))
        for role in session.game.role_names:
            for horizon in (3, 6):
                assert_same(session, role, "win", None, horizon)
                assert_same(session, role, "value", None, horizon)
