"""Near-misses mutated (gridsolve/generate/mutation.py): the mutation operators through the
proposer (exactly the toggled walls, the symmetric images, the marks moved, the structural
constraints kept), the elites per niche, the graded score of the search, and the same seed
giving the same boards through the mutation search and the walk away from written boards."""
from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from gridsolve.generate.generate import generate
from gridsolve.generate.request import Request
from gridsolve.generate.search import _Search
from gridsolve.generate.genprogram import Structure, proposal_program
from gridsolve.generate.genspec import Requirement, game_spec
from gridsolve.generate.mutation import Elites, Mutation, difference, image, mutation
from gridsolve.generate.proposer import Layout, Proposer, edges
from gridsolve.generate.starts import StartVerdict, Survey

from conftest import ROOT

LIKE = ROOT / "boards" / "mummymaze2p-2007.yaml"


def proposer(size=(5, 5), walls=(6, 14), symmetry=None, seed=1) -> Proposer:
    spec = game_spec(None, LIKE, size, ROOT / "boards", None)
    req = Requirement("win", (1, 49), True)
    program, parts = proposal_program(spec, req, Structure(walls, symmetry), None, chase=False, blind=False)
    return Proposer(program, parts, seed)


def connected(layout: Layout, width: int, height: int) -> bool:
    seen, stack = {(1, 1)}, [(1, 1)]
    while stack:
        x, y = stack.pop()
        for (nx, ny), blocked in (((x, y + 1), (x, y) in layout.north), ((x, y - 1), (x, y - 1) in layout.north),
                                  ((x + 1, y), (x, y) in layout.east), ((x - 1, y), (x - 1, y) in layout.east)):
            if 1 <= nx <= width and 1 <= ny <= height and not blocked and (nx, ny) not in seen:
                seen.add((nx, ny))
                stack.append((nx, ny))
    return len(seen) == width * height


def test_a_toggle_gives_exactly_the_parent_with_those_walls_toggled():
    maker = proposer()
    parent = maker.propose()
    rng, made = random.Random(4), 0
    for _ in range(30):
        change = mutation(rng, edges(5, 5), None, 5, 5, marks_movable=False)
        assert change.marks and not change.free and 1 <= len(change.flip) <= 3
        child = maker.propose(None, parent, change.free, change.marks, flip=change.flip)
        if child is None:            # the toggles broke a constraint (the board's connection, the wall count)
            broken = change.applied(parent)
            assert not connected(broken, 5, 5) or not 6 <= len(broken.north) + len(broken.east) <= 14
            continue
        made += 1
        assert (child.north, child.east, child.marks) == (change.applied(parent).north, change.applied(parent).east,
                                                          parent.marks)
        assert difference(child, parent) == len(change.flip)
    assert made >= 10


def test_a_mark_move_keeps_the_walls_but_one_and_places_the_exit_on_the_border():
    maker = proposer()
    parent = maker.propose()
    rng, moved = random.Random(2), 0
    for _ in range(40):
        change = mutation(rng, edges(5, 5), None, 5, 5, marks_movable=True)
        if change.marks:
            continue
        assert len(change.flip) == 1
        child = maker.propose(None, parent, change.free, change.marks, flip=change.flip)
        if child is None:
            continue
        assert (child.north, child.east) == (change.applied(parent).north, change.applied(parent).east)
        (exit_cell,) = dict(child.marks)["exit"]
        assert exit_cell[0] in (1, 5) or exit_cell[1] in (1, 5)     # the --like board's exit is on the border
        moved += child.marks != parent.marks
    assert moved >= 3


def test_under_a_symmetry_the_images_are_left_to_the_proposer_and_follow():
    assert image(("north", 1, 2), "mirror", 5, 5) == ("north", 5, 2)
    assert image(("east", 1, 2), "mirror", 5, 5) == ("east", 4, 2)
    assert image(("north", 1, 2), "turn", 5, 5) == ("north", 5, 3)
    assert image(("east", 1, 2), "turn", 5, 5) == ("east", 4, 4)
    assert image(("north", 3, 2), "mirror", 5, 5) is None         # its own image
    maker = proposer(symmetry="mirror")
    parent = maker.propose()
    rng, made = random.Random(1), 0
    for _ in range(30):
        change = mutation(rng, edges(5, 5), "mirror", 5, 5, marks_movable=False)
        assert all(image(e, "mirror", 5, 5) in change.free or image(e, "mirror", 5, 5) is None for e in change.flip)
        child = maker.propose(None, parent, change.free, change.marks, flip=change.flip)
        if child is None:
            continue
        made += 1
        for kind, x, y in change.flip:      # toggled, and so is its image
            walls, before = (child.north, parent.north) if kind == "north" else (child.east, parent.east)
            assert ((x, y) in walls) != ((x, y) in before)
            mirrored = image((kind, x, y), "mirror", 5, 5)
            if mirrored is not None:
                assert (mirrored[1:] in walls) == ((x, y) in walls)
    assert made >= 5


def test_the_same_seed_draws_the_same_mutations():
    draw = lambda seed: [mutation(random.Random(seed), edges(8, 8), "turn", 8, 8, True) for _ in range(5)]  # noqa: E731
    assert draw(7) == draw(7)
    assert draw(7) != draw(8)


def layout(walls: set) -> Layout:
    return Layout(frozenset(walls), frozenset(), (), (("exit", ((1, 1),)),))


def test_elites_keep_the_best_of_each_niche_and_drop_a_spent_one():
    elites = Elites(random.Random(1), patience=3)
    a, b, c = layout({(1, 1)}), layout({(1, 2)}), layout({(2, 2)})
    assert elites.offer(9, a, (0, -0.5, 1, 9))
    assert not elites.offer(9, b, (0, -1.0, 0, 9))           # worse: refused
    assert elites.offer(9, c, (0, -0.5, 1, 9))               # a tie replaces (drifts across a plateau)
    assert elites.parent() == c and elites.best() == (0, -0.5, 1, 9)
    for _ in range(3):
        elites.parent()
    assert elites.parent() is None                           # its neighbourhood is spent


def test_elites_near_a_written_board_are_dropped():
    elites = Elites(random.Random(1))
    near, far = layout({(1, 1), (1, 2)}), layout({(3, 3), (3, 4), (4, 4), (2, 4)})
    elites.offer(5, near, (0, 5))
    elites.offer(7, far, (0, 7))
    written = layout({(1, 1)})
    assert difference(near, written) == 1 and difference(far, written) == 5
    elites.drop_near(written, 3)
    assert list(elites.niches) == [7]


def test_the_graded_score_prefers_a_start_that_meets_the_request_then_nearer_misses():
    spec = game_spec(None, LIKE, None, ROOT / "boards", None)
    search = _Search(None, spec, Requirement("win", (12, 49)), True, 1, 10)
    verdict = lambda rank, paths, winning: StartVerdict(((1, 1), (2, 2)), rank, paths, winning)  # noqa: E731
    score = lambda survey: search._score(np.array([max(s.rank for s in survey)]), Survey.of(survey),  # noqa: E731
                                         {s: s.rank for s in survey if not s.trivial and s.rank >= 12})
    met = score([verdict(13, 2, 0), verdict(30, 4, 4)])
    half = score([verdict(13, 2, 1), verdict(30, 4, 4)])
    quarter = score([verdict(13, 4, 1), verdict(30, 4, 4)])
    far = score([verdict(13, 1, 1), verdict(30, 4, 4)])
    short = score([verdict(10, 2, 0), verdict(13, 4, 1), verdict(30, 4, 4)])     # non-trivial, 2 plies short
    assert met > short > quarter > half > far
    assert met[:2] == (13, 0) and short[:2] == (0, 10) and far == (0, 0, -1.0, 0, 30)
    assert score([verdict(13, 4, 1), verdict(14, 2, 1)]) > quarter[:4] + (13,)   # then more near-misses


@pytest.mark.slow
def test_the_mutation_search_and_the_walk_write_the_same_boards_for_the_same_seed(tmp_path, monkeypatch):
    monkeypatch.setattr(_Search, "WALK_AFTER", 0)      # every board starts a walk
    walked = []
    step = _Search._walk_step
    monkeypatch.setattr(_Search, "_walk_step", lambda self, deadline: walked.append(1) or step(self, deadline))

    def run(out: Path) -> list[bytes]:
        request = Request(like=LIKE, size=(5, 5), require="win", plies=(5, None), trivial_ok=True, count=3,
                          seed=11, out=out, timeout=120)
        report = generate(request)
        assert report.error is None and len(report.boards) == 3
        return [b.path.read_bytes() for b in report.boards]
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    assert run(tmp_path / "a") == run(tmp_path / "b")
    assert walked


def test_a_board_found_fast_is_walked_from_once_the_next_is_slow():
    """A board that took fewer than WALK_AFTER layouts starts no walk; once WALK_AFTER more
    layouts have brought no board, the search walks away from it."""
    from gridsolve.generate import request as R, run as G
    run = G._setup(R.request_from_options(like=LIKE, defaults=False, plies="12..", seed=5, out=Path("/nonexistent"),
                                          timeout=100))
    search = run.search(5)
    layout = search._fresh(None)
    search.stats.layouts = 3
    search._accepted(layout)
    assert search.walk is None and search.unwalked == layout
    search.stats.layouts += _Search.WALK_AFTER - 1
    search._propose(None)
    assert search.walk is None and not search.walking
    search.stats.layouts += 1
    stepped = search._propose(None)
    assert search.unwalked is None and search.walking and difference(stepped, layout) == 1
