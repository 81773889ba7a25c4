"""Anchors of fresh layouts (gridsolve/generate/fresh.py): random walls around a spanning tree
keep every cell joined, never wall the edges asked open, and come from the seed; the goal
marks are drawn on the border where the --like board has them there, with the edges around
them; and the search's fresh proposals keep the exit open on every side and are accepted by
clingo."""
from __future__ import annotations

import random

import pytest

from gridsolve.generate.fresh import cells_of, connected_walls, open_goals
from gridsolve.generate.genspec import game_spec
from gridsolve.generate.proposer import Layout, edges

from conftest import ROOT
from test_mutation import LIKE, connected


def layout_of(walls) -> Layout:
    return Layout(frozenset((x, y) for k, x, y in walls if k == "north"),
                  frozenset((x, y) for k, x, y in walls if k == "east"), (), ())


@pytest.mark.parametrize("size,count", [((8, 8), 34), ((8, 8), 49), ((5, 4), 7), ((3, 3), 20)])
def test_connected_walls_keep_every_cell_joined(size, count):
    every = edges(*size)
    most = len(every) - (size[0] * size[1] - 1)      # beyond: no spanning tree left open
    for seed in range(20):
        rng = random.Random(seed)
        keep_open = frozenset(rng.sample(every, 3))
        walls = connected_walls(rng, every, count, keep_open)
        assert len(walls) == min(count, most) and len(set(walls)) == len(walls)
        assert not keep_open & set(walls) and set(walls) <= set(every)
        assert connected(layout_of(walls), *size)


def test_connected_walls_come_from_the_seed():
    every = edges(8, 8)
    assert connected_walls(random.Random(3), every, 40) == connected_walls(random.Random(3), every, 40)
    assert connected_walls(random.Random(3), every, 40) != connected_walls(random.Random(4), every, 40)


def test_an_edge_lies_between_two_neighbours():
    assert cells_of(("north", 2, 3)) == ((2, 3), (2, 4)) and cells_of(("east", 2, 3)) == ((2, 3), (3, 3))


def test_the_exit_is_drawn_on_the_border_with_the_edges_around_it():
    spec = game_spec(None, LIKE, (8, 8), ROOT / "boards", None)
    seen = set()
    for seed in range(40):
        marks, around = open_goals(random.Random(seed), spec)
        ((name, (cell,)),) = marks
        assert name == "exit" and (cell[0] in (1, 8) or cell[1] in (1, 8))
        corner = cell[0] in (1, 8) and cell[1] in (1, 8)
        assert len(around) == (2 if corner else 3) and all(cell in cells_of(e) for e in around)
        seen.add(cell)
    assert len(seen) > 10


def test_fresh_proposals_keep_the_exit_open_and_are_accepted():
    from pathlib import Path

    from gridsolve.generate import request as R, run as G
    request = R.request_from_options(like=LIKE, defaults=False, plies="12..", seed=5, out=Path("/nonexistent"),
                                     timeout=100)
    run = G._setup(request)
    search = run.search(5)
    assert search.open_goals
    for _ in range(8):
        layout = search._fresh(None)
        assert layout is not None
        board = run.spec.board(layout.north, layout.east, dict(layout.pieces), dict(layout.marks))
        (exit_cell,) = board.marks["exit"]
        assert all(board.open_step(exit_cell, d) for d in ("north", "south", "east", "west")
                   if board.on_board((exit_cell[0] + {"east": 1, "west": -1}.get(d, 0),
                                      exit_cell[1] + {"north": 1, "south": -1}.get(d, 0))))
