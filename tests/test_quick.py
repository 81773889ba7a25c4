"""Layouts made in Python for ranking (gridsolve/generate/quick.py): every fresh layout and
mutation meets the structural constraints (the wall count, every cell joined, the goal on the
border, apart from the boards written), and clingo, asked to place the pieces on it with its
walls and marks fixed, accepts it as encodings/generate.lp's constraints stand."""
from __future__ import annotations

import random
from pathlib import Path

from gridsolve.generate.request import request_from_options
from gridsolve.generate.run import _setup
from gridsolve.generate.mutation import difference, mutation
from gridsolve.generate.proposer import edges

from conftest import ROOT

LIKE = ROOT / "boards" / "mummymaze2p-2007.yaml"


def _joined(layout, width, height) -> bool:
    open_edges = {((x, y), (x, y + 1)) for x in range(1, width + 1) for y in range(1, height)
                  if (x, y) not in layout.north}
    open_edges |= {((x, y), (x + 1, y)) for x in range(1, width) for y in range(1, height + 1)
                   if (x, y) not in layout.east}
    seen, todo = {(1, 1)}, [(1, 1)]
    while todo:
        cell = todo.pop()
        for a, b in open_edges:
            for here, there in ((a, b), (b, a)):
                if here == cell and there not in seen:
                    seen.add(there)
                    todo.append(there)
    return len(seen) == width * height


def test_fresh_layouts_and_mutations_meet_the_structure_and_clingo_places_pieces_on_them():
    run = _setup(request_from_options(like=LIKE, seed=3, out=Path("/nonexistent")))
    search = run.search(3)
    quick = search.quick
    assert quick is not None
    rng, low, high = random.Random(3), *run.structure.walls
    made = []
    for _ in range(30):
        layout = quick.fresh()
        if layout is None:
            continue
        made.append(layout)
        change = mutation(rng, edges(8, 8), None, 8, 8, True)
        child = quick.mutated(layout, change)
        if child is not None:
            made.append(child)
    assert len(made) >= 20
    for layout in made:
        assert low <= layout.walls <= high and _joined(layout, 8, 8)
        ((name, (cell,)),) = layout.marks
        assert name == "exit" and (cell[0] in (1, 8) or cell[1] in (1, 8))
    for layout in made[:5]:
        placed = search.proposer.propose(None, layout)
        assert placed is not None and (placed.north, placed.east, placed.marks) == (layout.north, layout.east,
                                                                                   layout.marks)
    quick.written.append(made[0])
    near = [quick.mutated(made[0], mutation(rng, edges(8, 8), None, 8, 8, False, most=1)) for _ in range(20)]
    assert not any(n is not None and difference(n, made[0]) < quick.apart for n in near)
    for _ in range(20):                 # toggling a wall back gives a layout handed out before: never again
        change = mutation(rng, edges(8, 8), None, 8, 8, False, most=1)
        child = quick.mutated(made[1], change, apart=False)
        if child is not None:
            assert quick.mutated(child, change, apart=False) is None
            break
    else:
        raise AssertionError("no mutation of the layout kept the structure")
