"""Answers carry their positions: every solver's principal line is a tuple of plies whose
positions follow the game's rules.

For each solver family (the race solver, the compiled programs: layered, ``--strategy`` and a
team that moves at once with others, the layered table, the bounded search, the robust search
of ``--hidden`` questions and its compiled robust game, the scripted classic Mummy Maze, the
studio's graph and generate's most testing line) on random and shipped boards: the first ply
starts at the query position, each ply starts where the last one ended, and each ply ends on
the position ``examine`` (the rules, asked independently) gives for its move.  Drawing,
explaining and playing read the plies: they never run the rules to follow a line.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path

import clingo
import pytest

from gridsolve.generate.testing import most_testing_line
from gridsolve.language.loader import load_board
from gridsolve.language.position import make_query
from gridsolve.render import format_answer
from gridsolve.solve.common.answer import Ply
from gridsolve.solve.common import capabilities
from gridsolve.solve.common.capabilities import ROBUST
from gridsolve.solve.dispatch.asker import Asker
from gridsolve.solve.dispatch.dispatcher import solve
from gridsolve.explain import explanation
from gridsolve.explain.walls import Wall
from gridsolve.solve.program import explore
from gridsolve.solve.program.explore import examine, move_parts
from gridsolve.studio.live import LiveGraph
from gridsolve.svg import board_svg

from randomboards import random_board, random_mechanism_board
from test_differential import _load, plain_queries

ROOT = Path(__file__).resolve().parent.parent
BOARDS = ROOT / "boards"


def followed(board, query, line) -> int:
    """Check ``line`` from ``query``'s position against the rules; the plies checked."""
    position = query.position
    for ply in line:
        assert isinstance(ply, Ply)
        assert ply.before == position, f"ply {ply.index} starts elsewhere"
        _, steps = examine(board, ply.before)
        wanted = move_parts(ply.move, ply.side)
        after = [step.position for step in steps if move_parts(step.move, ply.side) == wanted]
        assert after == [ply.after], f"ply {ply.index} {ply.move}: the rules give {after}, the line {ply.after}"
        position = ply.after
    assert [ply.index for ply in line] == list(range(len(line)))
    return len(line)


def hidden_followed(board, query, line) -> int:
    """As :func:`followed` for a ``--hidden`` line: each ply against the rules on the board with
    the obstacles the role has found placed; the knowledge grows as the moves' answers say."""
    role, position = query.role, query.position
    for ply in line:
        assert ply.before == position
        marks = dict(board.marks)
        for mark, cell in ply.after.found:
            marks[mark] = marks.get(mark, frozenset()) | {cell}
        placed = dataclasses.replace(board, marks=marks)
        _, steps = examine(placed, dataclasses.replace(ply.before, free=frozenset(), found=frozenset()))
        wanted = move_parts(ply.move, ply.side)
        after = [step.position for step in steps if move_parts(step.move, ply.side) == wanted]
        assert after == [dataclasses.replace(ply.after, free=frozenset(), found=frozenset())], ply
        new = ply.after.found - ply.before.found
        assert len(new) == (1 if ply.move.endswith("(obstacle placed)") else 0), ply
        if new:
            assert ply.after.cell(role) == ply.before.cell(role)        # it bumped, and stayed
        stood = ply.before.free | {ply.before.cell(role)}
        assert ply.after.free == stood - {ply.after.cell(role)}
        position = ply.after
    return len(line)


# - The solvers ---

@pytest.mark.slow
def test_race_and_layered_lines_on_random_boards(tmp_path):
    lines = []
    for seed in range(1, 7):
        rb = random_board(seed)
        board = _load(tmp_path, rb.text, f"random-{seed}.yaml")
        for _, query in plain_queries(seed, rb, board):
            lines.append(followed(board, query, solve(board, query).line))
    assert sum(1 for plies in lines if plies) >= 6, lines


MECHANISMS = {   # seed -> the solvers that answer its questions (horizon 4)
    7: "race, bounded", 13: "bounded", 9: "compiled", 14: "compiled", 35: "compiled, a team moving with others",
    29: "race (items left out of its positions), compiled", 34: "race (items left out)", 22: "compiled",
}


SLOW_MECHANISMS = {9, 14, 22, 35}     # (the costliest seeds: the slow tier)


@pytest.mark.parametrize("seed", [pytest.param(s, marks=[pytest.mark.slow] if s in SLOW_MECHANISMS else [])
                                  for s in sorted(MECHANISMS)])
def test_lines_on_boards_with_the_newer_mechanisms(seed, tmp_path):
    board = _load(tmp_path, random_mechanism_board(seed).text)
    plies, solvers = 0, set()
    for role in board.rules.roles:
        for kind in ("value", "survive"):
            query = make_query(board, role, kind, horizon=4)
            answer = solve(board, query)
            solvers.add(answer.stats.solver)
            plies += followed(board, query, answer.line)
    assert plies > 0, solvers


def test_a_team_committing_first_gets_its_joint_plies(tmp_path):
    board = _load(tmp_path, random_mechanism_board(35).text)
    query = make_query(board, "ann", "value", horizon=4)
    answer = solve(board, query)
    assert answer.stats.solver == "compiled" and any(", " in ply.move for ply in answer.line)
    assert followed(board, query, answer.line) == len(answer.line) > 0


@pytest.mark.parametrize("name,options", [
    ("classic/first-steps.yaml", {}),
    pytest.param("classic/behind-the-gate.yaml", {}, marks=pytest.mark.slow),
    ("classic/red-pair.yaml", {}),
    pytest.param("mummymaze2p.yaml", {}, marks=pytest.mark.slow),
    ("mummymaze2p-2007.yaml", {"role": "mummy", "kind": "win"}),
    pytest.param("pacman3p.yaml", {"horizon": 8}, marks=pytest.mark.slow),     # the bounded search
    ("pacman3p.yaml", {"role": "blinky", "horizon": 6}),     # the race solver, without the pellets
    pytest.param("wallmaze.yaml", {"horizon": 6}, marks=pytest.mark.slow),    # layered
])
def test_lines_on_shipped_boards(name, options):
    board = load_board(BOARDS / name)
    query = make_query(board, **options)
    answer = solve(board, query)
    assert followed(board, query, answer.line) > 0
    if "pacman" in name:
        assert all(ply.after.items is not None for ply in answer.line)


@pytest.mark.slow
def test_strategy_lines_come_from_the_compiled_race_program():
    board = load_board(BOARDS / "mummymaze2p.yaml")
    query = make_query(board, strategy=True)
    answer = solve(board, query)
    assert answer.stats.solver == "compiled"
    assert followed(board, query, answer.line) > 0


@pytest.mark.slow
def test_the_layered_table_lines():
    board = load_board(BOARDS / "wallmaze.yaml")
    query = make_query(board, horizon=5)
    answer = Asker(board, [query.position]).ask(query)
    assert followed(board, query, answer.line) > 0


@pytest.mark.slow
def test_hidden_lines_of_the_robust_search():
    board = load_board(BOARDS / "maze-runner-duel-secret.yaml")
    for role in board.rules.roles:
        query = make_query(board, role, hidden=True)
        answer = solve(board, query)
        assert answer.stats.solver == "robust search"
        assert hidden_followed(board, query, answer.line) > 0
    query = make_query(board, "p1", hidden=True, found=("1,4",))
    assert hidden_followed(board, query, solve(board, query).line) > 0


@pytest.mark.slow
def test_hidden_lines_of_the_compiled_robust_game(monkeypatch):
    monkeypatch.setitem(capabilities.ROWS, ROBUST,      # every row as the table says, but the robust search
                        dataclasses.replace(capabilities.ROWS[ROBUST], check=lambda ask: "left out here"))
    board = load_board(BOARDS / "maze-runner-duel-secret.yaml")
    for role in board.rules.roles:
        query = make_query(board, role, hidden=True, horizon=5)
        answer = solve(board, query)
        assert answer.stats.solver == "hidden"
        assert hidden_followed(board, query, answer.line) > 0


@pytest.mark.parametrize("name", [pytest.param("mummymaze2p.yaml", marks=pytest.mark.slow), "mummymaze2p-2007.yaml"])
@pytest.mark.slow
def test_the_studio_graph_lines(name):
    board = load_board(BOARDS / name)
    graph = LiveGraph(board, [])
    for role in board.rules.roles:
        query = make_query(board, role)
        assert followed(board, query, graph.answer(query).line) > 0
    graph.toggle(Wall((3, 3), "east"))
    query = make_query(graph.board, board.rules.roles[0])
    assert followed(graph.board, query, graph.answer(query).line) > 0


def test_the_most_testing_line():
    board = load_board(BOARDS / "classic" / "first-steps.yaml")
    query = make_query(board)
    testing = most_testing_line(board, query.role, query.position)
    assert followed(board, query, testing.line) > 0


def test_the_json_answer_writes_each_ply_as_before():
    board = load_board(BOARDS / "mummymaze2p.yaml")
    answer = solve(board, make_query(board))
    line = answer.as_dict()["line"]
    assert line == [{"ply": p.index, "side": list(p.side), "move": p.move} for p in answer.line]
    assert all(set(entry) == {"ply", "side", "move"} for entry in line)


# - The readers never run the rules to follow a line ---

def _no_rules(*args, **kwargs):
    raise AssertionError("the rules were run")


def test_drawing_and_writing_an_answer_run_no_rules(monkeypatch):
    board = load_board(BOARDS / "mummymaze2p-2007.yaml")
    query = make_query(board)
    answer = solve(board, query)
    assert len(answer.line) > 5
    monkeypatch.setattr(explore, "examine", _no_rules)
    monkeypatch.setattr(clingo, "Control", _no_rules)
    svg = board_svg(board, query.position, answer)
    assert svg.count('<g id="principal-line">') == 1 and "ply 1" in svg
    assert "principal line: " in format_answer(board, answer, query.position)


def test_explaining_follows_the_line_without_the_rules(monkeypatch):
    """The others move first: the role's moves are listed after their first ply, which the
    line holds; the rules are asked once, for the role's moves there."""
    board = load_board(BOARDS / "mummymaze2p-2007.yaml")
    query = make_query(board, turn="mummy")
    asked = []

    def listed(board, position):
        asked.append(position)
        return examine(board, position)
    monkeypatch.setattr(explanation, "examine", listed)
    result = explanation.explain(board, query, walls=False)
    assert result.refutation and asked == [result.answer.line[0].after]


def test_playing_runs_the_rules_once_a_position(monkeypatch, board_file):
    """The game asks the rules for the moves of each position it reaches, once; the computer's
    moves come from its answers' plies."""
    from click.testing import CliRunner
    from conftest import CORRIDOR
    from gridsolve.cli import main
    from gridsolve.play import game

    asked = []

    def listed(board, position):
        asked.append(position)
        return examine(board, position)
    monkeypatch.setattr(game, "examine", listed)
    result = CliRunner().invoke(main, ["play", str(board_file(CORRIDOR))], input="east\neast\n")
    assert result.exit_code == 0, result.output
    assert "mummy plays: north nowhere" in result.output and "Game over after 3 plies" in result.output
    assert len(asked) == len(set(asked)) == 4
