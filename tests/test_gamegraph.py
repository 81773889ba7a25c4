"""The one game graph (gridsolve/solve/graph/gamegraph.py): built, patched and ranked.

A hand-checked five-position graph pins the rows, the predecessors, the ranks and a patch; on
random boards a graph patched after a wall toggle (explain's wall graph, the studio's live
graph) equals the graph built from scratch on the toggled board, position for position from
the question's position, and ranks it alike.
"""
from __future__ import annotations

import random

import clingo
import numpy as np
import pytest

from gridsolve.compile.state import START
from gridsolve.language.loader import load_board
from gridsolve.language.position import initial_position, make_query
from gridsolve.solve.common.capabilities import LIVE_GRAPH, WALL_GRAPH, serves
from gridsolve.explain.walls import WallGraph, explore_graph, interior_walls, toggled
from gridsolve.solve.graph.codec import PositionCodec
from gridsolve.solve.graph.gamegraph import GameGraph, of_explored
from gridsolve.studio.live import LiveGraph, explore

from randomboards import random_board
from test_differential import _load, plain_queries

from conftest import ROOT

ENDS = ["win", "lose"]


def tiny() -> GameGraph:
    """0 (attacker) -> 1, 2; 1 (defender) -> 3, 4; 2 (defender) -> 3; 3 ends in a win, 4 in a loss."""
    src = np.array([1, 0, 2, 1, 0], dtype=np.int32)      # (not in order: of_moves sorts them)
    dst = np.array([3, 1, 3, 4, 2], dtype=np.int32)
    return GameGraph.of_moves(src, dst, [0, 1, 1, 0, 0], [-1, -1, -1, 0, 1], ENDS)


def test_a_tiny_graph_by_hand():
    graph = tiny()
    assert graph.n == 5 and graph.edges == 5
    assert [graph.successors(s).tolist() for s in range(5)] == [[1, 2], [3, 4], [3], [], []]
    start, pred, outdeg = graph.predecessors()
    assert [pred[start[t]:start[t + 1]].tolist() for t in range(5)] == [[], [0], [0], [1, 2], [1]]
    assert outdeg.tolist() == [2, 2, 1, 0, 0]
    assert [graph.is_end(s) for s in range(5)] == [False, False, False, True, True]
    rank, levels = graph.ranks([0], ["win"])
    assert rank.tolist() == [2, -1, 1, 0, -1] and levels == 3      # 1 may move to the loss
    rank, _ = graph.ranks([1], ["lose"])
    assert rank.tolist() == [-1, 1, -1, -1, 0]                      # the defender of 1 picks the loss
    rank, levels = graph.ranks([0], ["win"], until=2)
    assert rank.tolist() == [-1, -1, 1, 0, -1] and levels == 1
    assert graph.ranks([0], ["win"], levels=1)[0].tolist() == [-1, -1, 1, 0, -1]


def test_rows_and_predecessors_give_each_other():
    graph = tiny()
    src = np.array([1, 0, 2, 1, 0], dtype=np.int32)
    dst = np.array([3, 1, 3, 4, 2], dtype=np.int32)
    by_preds = GameGraph.of_moves(src, dst, graph.turn, graph.outcome, ENDS, rows=False)
    assert [by_preds.successors(s).tolist() for s in range(5)] == [graph.successors(s).tolist() for s in range(5)]
    assert np.array_equal(by_preds.ranks([0], ["win"])[0], graph.ranks([0], ["win"])[0])


def test_positions_are_found_by_their_keys():
    """A position term maps to its row by its key: the codec's number, a start not judged after
    every number, or without a codec its clingo symbol; and back from the row to the term."""
    codec = PositionCodec(load_board(ROOT / "boards" / "wallmaze.yaml"))
    a, b, c = sorted(random.Random(5).sample(range(codec.size), 3))
    start = clingo.Function(START, [codec.symbol(a)])
    keyed = GameGraph([0, 0, 0], [-1, -1, -1], ENDS, off=np.zeros(4, dtype=np.int64), succ=np.zeros(0, dtype=np.int32),
                      codec=codec, keys=np.array([a, b, a + codec.size]), starts_at=codec.size)
    assert [keyed.find(t) for t in (codec.symbol(a), codec.symbol(b), start)] == [0, 1, 2]
    assert [keyed.term(i) for i in range(3)] == [codec.symbol(a), codec.symbol(b), start]
    assert keyed.texts(np.arange(3)) == [str(codec.symbol(a)), str(codec.symbol(b)), str(start)]
    nowhere = [codec.symbol(c), clingo.Function(START, [codec.symbol(b)]), clingo.Number(a), clingo.Function("s", [])]
    assert [keyed.find(t) for t in nowhere] == [-1, -1, -1, -1]
    unstarted = GameGraph([0], [-1], ENDS, codec=codec, keys=np.array([a]), off=keyed.rows()[0][:2], succ=keyed.rows()[1])
    assert unstarted.find(codec.symbol(a)) == 0 and unstarted.find(clingo.Function(START, [codec.symbol(a)])) == -1
    symbols = sorted([codec.symbol(b), start], key=lambda t: t._rep)
    raw = GameGraph([0, 0], [-1, -1], ENDS, off=np.zeros(3, dtype=np.int64), succ=np.zeros(0, dtype=np.int32),
                    keys=np.array([t._rep for t in symbols], dtype=np.uint64))
    assert [raw.find(t) for t in symbols] == [0, 1] and [raw.term(i) for i in range(2)] == symbols
    assert raw.find(codec.symbol(a)) == -1 and raw.texts(np.arange(2)) == [str(t) for t in symbols]


def test_an_extra_move_is_a_move():
    """with_extra (the robust search's bump) ranks as the graph built with the extra moves."""
    graph = tiny()
    extra = np.array([4, -1, 0, 1, -1], dtype=np.int32)      # (3 ends: no moves, no extra move)
    built = GameGraph.of_moves(np.array([1, 0, 2, 1, 0, 0, 2]), np.array([3, 1, 3, 4, 2, 4, 0]), graph.turn,
                               graph.outcome, ENDS)
    bumped = graph.with_extra(extra)
    assert bumped.outdeg().tolist() == [3, 2, 2, 0, 0] and bumped.edges == 7
    for attackers, targets in (([0], ["win"]), ([1], ["lose"]), ([0, 1], ["win"])):
        assert bumped.ranks(attackers, targets)[0].tolist() == built.ranks(attackers, targets)[0].tolist()
    assert bumped.ranks([0], ["lose"])[0].tolist() == [1, -1, -1, -1, 0] != graph.ranks([0], ["lose"])[0].tolist()


def test_a_patch_by_hand():
    graph = tiny()
    # 1 now moves to the win only; 2 moves to a new position 5 (defender, no end, no moves)
    patched = graph.patched({1: [3], 2: [5], 5: []}, turn=[1], outcome=[-1])
    assert patched.n == 6
    assert [patched.successors(s).tolist() for s in range(6)] == [[1, 2], [3], [5], [], [], []]
    start, pred, _ = patched.predecessors()
    assert pred[start[5]:start[6]].tolist() == [2]
    assert patched.ranks([0], ["win"])[0].tolist() == [2, 1, -1, 0, -1, -1]
    # the graph patched is not changed
    assert [graph.successors(s).tolist() for s in range(5)] == [[1, 2], [3, 4], [3], [], []]
    assert graph.ranks([0], ["win"])[0].tolist() == [2, -1, 1, 0, -1]
    changed = graph.patched({}, changed={4: (0, 0)})      # 4 ends in a win too: 1 is won at 1, 0 at 2
    assert changed.ranks([0], ["win"])[0].tolist() == [2, 1, 1, 0, 0]


def test_named_moves_and_positions_are_patched_with_the_rows():
    north, south = clingo.Function("north"), clingo.Function("south")
    found = {"a": [0, None, [(north, "b"), (south, "c")]], "b": [1, "win", []], "c": [1, None, [(north, "a")]]}
    graph = of_explored(found, ENDS, named=True)
    assert graph.moves_of(0) == [(north, 1), (south, 2)] and graph.moves_of(2) == [(north, 0)]
    assert graph.outcome.tolist() == [-1, 0, -1] and graph.index_of("c") == 2 and graph.index_of("d") == -1
    patched = graph.patched({2: [3], 3: [1]}, {2: [south], 3: [north]}, turn=[0], outcome=[-1], names=["d"],
                            take_index=True)
    assert patched.moves_of(2) == [(south, 3)] and patched.moves_of(3) == [(north, 1)]
    assert patched.moves_of(0) == [(north, 1), (south, 2)]
    assert patched.index_of("d") == 3 and patched.names == ["a", "b", "c", "d"]
    assert graph.moves_of(2) == [(north, 0)] and graph.index_of("d") == -1


def reachable(graph: GameGraph, root: str) -> dict:
    """{name: (side to move, end, sorted successors (move text and name, or name))} of every
    position reachable from ``root``."""
    out, todo = {}, [graph.index_of(root)]
    seen = set(todo)
    while todo:
        s = todo.pop()
        if graph.moves is not None:
            row = sorted((str(m), graph.names[t]) for m, t in graph.moves_of(s))
            after = [graph.index_of(name) for _, name in row]
        else:
            after = graph.successors(s).tolist()
            row = sorted(graph.names[t] for t in after)
        out[graph.names[s]] = (int(graph.turn[s]), int(graph.outcome[s]), row)
        for t in after:
            if t not in seen:
                seen.add(t)
                todo.append(t)
    return out


@pytest.mark.parametrize("seed", [1, 2, *(pytest.param(s, marks=pytest.mark.slow) for s in range(3, 9))])
def test_a_patched_graph_is_the_graph_of_the_toggled_board(seed, tmp_path):
    rb = random_board(seed)
    board = _load(tmp_path, rb.text)
    rng = random.Random(seed)
    queries = [query for _, query in plain_queries(seed, rb, board) if serves(WALL_GRAPH, board, query)]
    walls = interior_walls(board)
    if not queries or not walls:
        pytest.fail(f"seed {seed}: no question the wall graph answers (pick another seed)")
    wall_graph = WallGraph(board, queries[0])
    ends = wall_graph.graph.ends
    for wall in rng.sample(walls, min(4, len(walls))):
        patched = wall_graph.patched(wall)
        fresh = of_explored(explore_graph(toggled(board, wall), [wall_graph.root], True), ends)
        assert reachable(patched, wall_graph.root) == reachable(fresh, wall_graph.root), wall.describe()
        root_p, root_f = patched.index_of(wall_graph.root), fresh.index_of(wall_graph.root)
        for attackers, targets in wall_graph.races.races:
            assert patched.ranks(attackers, targets)[0][root_p] == fresh.ranks(attackers, targets)[0][root_f]
    if not serves(LIVE_GRAPH, board, make_query(board, board.rules.roles[0], "survive")):
        return
    live, edited = LiveGraph(board, [initial_position(board)]), board
    root = live.term(initial_position(board))
    for wall in rng.sample(walls, min(3, len(walls))):
        edited = toggled(edited, wall)
        live.set_walls(edited.north, edited.east)
        fresh = of_explored(explore(edited, [root], True), ends, named=True)
        assert reachable(live.graph, root) == reachable(fresh, root), wall.describe()
