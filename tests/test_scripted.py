"""The game graph of scripted games joined in arrays (gridsolve/solve/graph/scripted.py) against the one
clingo grounds from the compiled rules (the ``stg`` chain of gridsolve/compile/script.py and its
``succ`` atoms), on random classic boards (tests/classic_boards.py) of both rule sets: the same
positions, the same ends, the same successors, and the same named moves (``edge(S,M,S2)``).
Run one board: ``python -m pytest tests/test_scripted.py -k 'seed-7'``."""
from __future__ import annotations

import random

import pytest

from gridsolve.compile.state import layout_for
from gridsolve.language.loader import load_board
from gridsolve.language.position import initial_position
from gridsolve.solve.common.limits import LimitGuard, Limits
from gridsolve.solve.graph.racegraph import NamedMoves, RaceGraph

from classic_boards import random_classic_board

QUICK, SLOW = 10, 120


def _graphs(tmp_path, seed: int, on_exit: bool = False):
    path = tmp_path / f"classic-{seed}.yaml"
    path.write_text(random_classic_board(seed, on_exit=on_exit), encoding="utf-8")
    board = load_board(path)
    layout = layout_for(board)
    root = [layout.root_term(initial_position(board), board)]
    guard = LimitGuard(Limits(), "the test's positions", lambda needed: "")
    return board, RaceGraph(board, layout, root, guard), RaceGraph(board, layout, root, guard, by_pieces=False)


def _edges(graph: RaceGraph) -> set[tuple[str, str]]:
    out = set()
    for i in range(graph.n):
        for j in graph.pred[graph.start[i]:graph.start[i + 1]]:
            out.add((str(graph.symbol(int(j))), str(graph.symbol(i))))
    return out


def _check(tmp_path, seed: int, on_exit: bool = False):
    board, joined, ground = _graphs(tmp_path, seed, on_exit)
    assert joined.numbering is not None and ground.numbering is None
    positions = {str(joined.symbol(i)) for i in range(joined.n)}
    assert positions == {str(ground.symbol(i)) for i in range(ground.n)}, f"seed {seed}"
    ends = {str(joined.symbol(i)): int(joined.outcome[i]) for i in range(joined.n)}
    assert ends == {str(ground.symbol(i)): int(ground.outcome[i]) for i in range(ground.n)}, f"seed {seed}"
    assert _edges(joined) == _edges(ground), f"seed {seed}"
    named = NamedMoves(ground._moves_text)
    rng = random.Random(seed)
    for i in rng.sample(range(joined.n), min(25, joined.n)):
        state = joined.symbol(i)
        mine = sorted((str(m), str(a)) for m, a in joined.named_moves().moves(state))
        assert mine == sorted((str(m), str(a)) for m, a in named.moves(state)), f"seed {seed} at {state}"
        assert joined.named_moves().end(state) == named.end(state)


@pytest.mark.parametrize("seed", range(QUICK), ids=lambda s: f"seed-{s}")
def test_joined_graph_is_the_ground_one(tmp_path, seed):
    _check(tmp_path, seed)


@pytest.mark.parametrize("seed", (0, 10, 64), ids=lambda s: f"on-exit-{s}")
def test_joined_graph_is_the_ground_one_from_a_start_on_the_exit(tmp_path, seed):
    """The explorer starts on the exit, where the classic rules do not judge the start: the root
    is start(S), a position of its own with the moves of S (judge_start: false)."""
    board, joined, _ground = _graphs(tmp_path, seed, on_exit=True)
    assert str(joined.symbol(joined.n - 1)).startswith("start(") and not joined.terminal(joined.n - 1)
    _check(tmp_path, seed, on_exit=True)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(QUICK, QUICK + SLOW), ids=lambda s: f"seed-{s}")
def test_joined_graph_is_the_ground_one_slow(tmp_path, seed):
    _check(tmp_path, seed)
