"""Every start of a layout judged on one game graph (gridsolve/generate/startgraph.py): the
ranks of all starts against the solver asked about each start alone, and the beeline played on
the graph (``beeline_wins``, ``survey``) against the ``no_beeline`` check of
gridsolve/analysis/beeline.py (two clingo runs of its own), on random small Mummy Maze boards of
both rule sets (a blocked step illegal, or a stay)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from gridsolve.generate.genspec import Requirement, game_spec
from gridsolve.generate.proposer import edges
from gridsolve.generate import startgraph
from gridsolve.generate.startgraph import StartGraph, StartVerdict, start_program
from gridsolve.language.position import Position, Query
from gridsolve.solve.dispatch.dispatcher import solve
from gridsolve.analysis.beeline import LOST, WON, BlindPlay, shortest_paths, check_beeline

from conftest import ROOT, tiered

RULES = ("mummy-maze-2007", "mummy-maze-gdl")


def random_layout(rules: str, size: tuple, seed: int):
    """A board of ``rules`` with random walls (a third of the edges, the board connected or not)
    and the exit on a random cell."""
    rng = random.Random(seed)
    spec = game_spec(rules, None, size, ROOT / "boards", None)
    walls = [e for e in edges(*size) if rng.random() < 1 / 3]
    north = {(x, y) for kind, x, y in walls if kind == "north"}
    east = {(x, y) for kind, x, y in walls if kind == "east"}
    cells = [(x, y) for x in range(1, size[0] + 1) for y in range(1, size[1] + 1)]
    board = spec.board(north, east, {"explorer": cells[0], "mummy": cells[1]}, {"exit": [rng.choice(cells)]})
    return board


def graph_of(board) -> tuple[StartGraph, int]:
    req = Requirement("win", (1, board.rules.last_step - board.rules.first_step))
    program = start_program(board, "explorer", req)
    return StartGraph(board, "explorer", req, program, program.plan.win), req.left(board)


def position(placed) -> Position:
    return Position(tuple(zip(("explorer", "mummy"), placed)), 0, 1)


# the 3x3 board of each rule set in the quick tier, the others in the slow tier
CASES = tiered([(rules, size, seed) for rules in RULES for size, seed in (((3, 3), 1), ((4, 3), 2), ((3, 4), 3))],
               lambda case: case[1] == (3, 3))
CASES += [pytest.param(rules, size, seed, marks=pytest.mark.slow) for rules in RULES
          for size, seed in (((4, 4), 4), ((4, 4), 5), ((5, 4), 6), ((4, 5), 7))]


@pytest.mark.parametrize("rules,size,seed", CASES)
def test_every_start_has_the_rank_the_solver_gives_it_alone(rules, size, seed):
    board = random_layout(rules, size, seed)
    graph, _ = graph_of(board)
    ranks = graph.start_ranks()
    for placed in random.Random(seed).sample(graph.placements, 12):
        start = position(placed)
        answer = solve(board, Query("explorer", "value", start.__class__(start.pieces, 0, board.rules.first_step)))
        key = tuple(sorted(zip(("explorer", "mummy"), placed)))
        assert ranks.get(key) == (answer.win_plies if answer.win else None), (placed, answer.win_plies)


@pytest.mark.parametrize("rules,size,seed", CASES)
def test_the_beeline_on_the_graph_is_the_no_beeline_check(rules, size, seed):
    board = random_layout(rules, size, seed)
    graph, left = graph_of(board)
    first = board.rules.first_step
    surveyed = {s.placed: s for s in graph.survey(1, left, left)}
    checked = 0
    sample = random.Random(seed).sample(graph.placements, 30)
    for placed in sample + [p for p, s in surveyed.items() if not s.trivial and p not in sample]:
        exact = check_beeline(board, "explorer", Position(position(placed).pieces, 0, first), left)
        on_graph = graph.beeline_wins(placed, left)
        assert on_graph is not None and on_graph == (not exact.holds), placed
        if placed in surveyed:          # the starts the explorer wins from
            verdict = surveyed[placed]
            assert verdict.trivial == (not exact.holds), placed
            assert verdict.paths == min(exact.paths, 16), placed
            checked += 1
    assert checked > 0


def test_a_start_where_the_explorer_must_choose_after_the_mummy_moves_is_not_trivial():
    """4x4 under the 2007 rules (found by the survey, re-checked by the exact check): the
    explorer at (4,4) reaches the exit (3,2) in 3 moves by two ways; the mummy from (1,1) can
    guard either, not both, so each way fixed in advance is caught and the forced escape is
    5 plies."""
    spec = game_spec("mummy-maze-2007", None, (4, 4), ROOT / "boards", None)
    north = {(2, 3), (3, 3), (3, 1)}   # (x, y): a wall between (x, y) and (x, y+1)
    east = {(3, 4), (1, 3), (2, 2)}
    board = spec.board(north, east, {"explorer": (4, 4), "mummy": (1, 1)}, {"exit": [(3, 2)]})
    graph, left = graph_of(board)
    (verdict,) = [s for s in graph.survey(5, 5, left) if s.placed == ((4, 4), (1, 1))]
    assert verdict.rank == 5 and verdict.paths == 2 and verdict.winning == 0 and not verdict.trivial
    exact = check_beeline(board, "explorer", Position(((("explorer", (4, 4)), ("mummy", (1, 1)))), 0, 1), left)
    assert exact.holds and exact.paths == 2


def test_a_start_verdicts_share_of_winning_paths():
    assert StartVerdict(((1, 1), (2, 2)), 7, 4, 1).winning_share == 0.25
    assert StartVerdict(((1, 1), (2, 2)), 7, 0, 0).winning_share == 0.0
    assert not StartVerdict(((1, 1), (2, 2)), 7, 3, 0).trivial


def _path_wins(graph: StartGraph, placed, path: list, left: int) -> bool:
    """Does this one shortest path (cells after each move) win against every reply: the
    verify module's blind play on a DAG of this path alone, over position tuples."""
    start = (tuple(zip(("explorer", "mummy"), placed)), 0)
    cells = [placed[0], *path]
    dag = {a: [((b[0] - a[0], b[1] - a[1]), b)] for a, b in zip(cells, cells[1:])}
    player = BlindPlay(graph, graph.goals, 0, left)
    opening = player.settle({start}, 0)
    if opening is WON or opening is LOST:
        return opening is WON
    return player.search(dag, placed[0], 0, len(path), *opening) is not None


def _shortest(graph: StartGraph, placed) -> list[list]:
    """Every shortest path of the explorer to the exit, the mummy frozen (cells after each move)."""
    start = (tuple(zip(("explorer", "mummy"), placed)), 0)
    dag, length, _ = shortest_paths(graph, "explorer", start, graph.goals)
    if length is None:
        return []
    out = []

    def walk(cell, path):
        if len(path) == length:
            out.append(path)
            return
        for _, target in dag.get(cell, []):
            walk(target, path + [target])
    walk(placed[0], [])
    return out


@pytest.mark.parametrize("rules,seed", [(rules, seed) for rules in RULES for seed in (1, 4)])
def test_the_survey_counts_each_winning_shortest_path(rules, seed):
    """The survey's counts (shared by the starts with the mummy on one cell) against each
    shortest path played out alone (5x4 boards where some starts have several shortest
    paths and only some of them win)."""
    board = random_layout(rules, (5, 4), seed)
    graph, left = graph_of(board)
    partly = 0
    for verdict in graph.survey(1, left, left):
        paths = _shortest(graph, verdict.placed)
        winning = sum(_path_wins(graph, verdict.placed, path, left) for path in paths)
        assert (verdict.paths, verdict.winning) == (min(len(paths), 16), min(winning, 16)), verdict
        partly += 0 < verdict.winning < verdict.paths
    assert partly > 0


def test_starts_that_share_the_mummys_cell_share_their_counts(monkeypatch):
    """One OthersPlay per mummy cell, its counts shared by the starts, gives what one
    OthersPlay per start gives."""
    board = random_layout("mummy-maze-2007", (5, 4), 1)
    graph, left = graph_of(board)
    shared = graph.survey(1, left, left)

    shared_play = startgraph.OthersPlay

    class Alone(shared_play):
        def judge(self, start, cell):
            return shared_play(self.play, self.frozen, self.remaining, self.limit).judge(start, cell)
    monkeypatch.setattr(startgraph, "OthersPlay", Alone)
    graph, left = graph_of(board)
    assert graph.survey(1, left, left) == shared and len(shared) > 10


def test_the_roots_are_the_compiled_position_terms():
    board = random_layout("mummy-maze-2007", (3, 3), 1)
    req = Requirement("win", (1, 49))
    program = start_program(board, "explorer", req)
    cells = tuple(startgraph.board_cells(board))
    every, met = startgraph._placements(cells, 2, 0)
    rules = board.rules
    assert startgraph._roots(board, program.layout, cells, 2, 0) == [
        program.layout.root_term(Position(tuple(zip(rules.roles, placed)), 0, rules.first_step), board)
        for placed in every + met]
    assert len(every) == 72 and all(p[0] in p[1:] for p in met)
