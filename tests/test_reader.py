"""The one answer reader (gridsolve/solve/race/reader.py): the race solver, explain's wall graph
and the studio's live graph read their answers through it, so they give the same answers."""
from __future__ import annotations

import dataclasses
import textwrap

import pytest

from gridsolve.compile.planning import plan_query
from gridsolve.language.kinds import QueryKind
from gridsolve.language.loader import load_board
from gridsolve.language.position import make_query
from gridsolve.explain.walls import Outcome, WallGraph
from gridsolve.solve.race.racesolver import Engine
from gridsolve.solve.common.capabilities import LIVE_GRAPH, serves
from gridsolve.studio.live import LiveGraph

from randomrules import random_case

# No step limit, no horizon: the hero, east of the exit's wall, can only walk east and back
# (no standing still, the board's edge and the wall are no moves); nothing ends the game.
BACK_AND_FORTH = """\
    rules:
      roles: [hero]
      moves: {hero: {steps: 1, idle: false, blocked: illegal}}
      ends:
        - {name: out, when: {reaches: {hero: exit}}, scores: {hero: 100}}
      steps: {first: 1}
      timeout: {hero: 50}
    size: [3, 1]
    walls: {east: [[2, 1]]}
    pieces: {hero: [1, 1]}
    marks: {exit: [[3, 1]]}
    """


def load(tmp_path, text: str):
    path = tmp_path / "board.yaml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return load_board(path)


def engine_answer(board, query):
    """The race solver's answer, as RaceSolver asks it."""
    return Engine(board, [query.position], [query.role], query.remaining(board)).answer(query)


def without_stats(answer) -> dict:
    out = answer.as_dict()
    out.pop("stats")
    return out


def test_the_studio_line_stops_where_it_repeats_as_the_race_solvers_does(tmp_path):
    """Hand-checked: the value is the timeout score (50, nothing forced); the line walks east to
    (2,1) and west back to the start, a position it has passed, and stops there: two plies (the
    studio's line used to go on to the step limit of a game without one, a million plies)."""
    board = load(tmp_path, BACK_AND_FORTH)
    query = make_query(board, "hero", "value")
    assert board.rules.unlimited and query.horizon is None and serves(LIVE_GRAPH, board, query)
    race, studio = engine_answer(board, query), LiveGraph(board, [query.position]).answer(query)
    for answer in (race, studio):
        assert (answer.value, answer.plies, answer.win) == (50, None, False)
        assert [ply.move for ply in answer.line] == ["east", "west"]
        assert [(ply.before.cell("hero"), ply.after.cell("hero")) for ply in answer.line] == \
            [((1, 1), (2, 1)), ((2, 1), (1, 1))]
        assert [ply.after.step for ply in answer.line] == [2, 3]
    assert race.line == studio.line
    assert without_stats(race) == without_stats(studio)
    with_horizon = make_query(board, "hero", "value", horizon=5)     # with a horizon: on to it
    assert [ply.move for ply in LiveGraph(board, [query.position]).answer(with_horizon).line] == \
        ["east", "west", "east", "west", "east"]


def supported_cases(tmp_path, wanted: int, seeds: range):
    """The first ``wanted`` random cases (tests/randomrules.py) the studio's live graph answers."""
    found = []
    for seed in seeds:
        case = random_case(seed)
        path = tmp_path / f"case{seed}.yaml"
        path.write_text(case.text, encoding="utf-8")
        board = load_board(path)
        query = make_query(board, case.role, case.kind, horizon=case.horizon, turn=case.turn, at=case.at)
        if serves(LIVE_GRAPH, board, query):
            found.append((seed, board, query))
            if len(found) == wanted:
                break
    assert len(found) == wanted
    return found


@pytest.mark.slow
def test_the_three_readers_give_equal_answers_on_random_boards(tmp_path):
    # (from seed 12: seed 11's graph takes seconds, tests/test_random_rules.py's HEAVY)
    for seed, board, query in supported_cases(tmp_path, 6, range(12, 200)):
        race = engine_answer(board, query)
        assert without_stats(LiveGraph(board, [query.position]).answer(query)) == without_stats(race), seed
        # explain's wall graph reads the outcome of the value question (survive: without values)
        kind = QueryKind.VALUE if plan_query(board, query).value else QueryKind.SURVIVE
        asked = dataclasses.replace(query, kind=kind)
        assert WallGraph(board, asked).outcome_for(None) == Outcome.of(engine_answer(board, asked)), seed
