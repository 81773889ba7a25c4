"""Every placement of the role's own marks from one grounding (gridsolve/solve/hidden/ownplacements.py,
``solve --hidden --placement``): each placement's game is the game ground with the marks on the
board, ply for ply, and its answer is the robust answer of the board with the marks placed."""
from __future__ import annotations

import random
from dataclasses import replace

import pytest

from gridsolve.language.loader import load_board
from gridsolve.language.position import Query, initial_position
from gridsolve.play.advice import format_advice, placement_advice
from gridsolve.solve.dispatch.dispatcher import solve
from gridsolve.solve.hidden import knowing
from gridsolve.solve.hidden.knowing import KnowingGame
from gridsolve.solve.common.capabilities import OWN_PLACEMENTS, serves
from gridsolve.solve.hidden.ownplacements import OwnPlacements, classes, every_placement, symmetries
from test_hidden import RULE_BOOK, small_board

FIELDS = ("value", "plies", "win", "survives", "doom_plies")


@pytest.fixture(scope="module")
def rule_book():
    return load_board(RULE_BOOK)


def placed(board, mark, cells):
    return replace(board, marks={**board.marks, mark: frozenset(cells)},
                   unplaced={m: n for m, n in board.unplaced.items() if m != mark})


def direct(board, role, mark, cells) -> tuple:
    """The robust answer of the board with the marks placed, ground for it."""
    knowing._PREPARED.clear()
    board = placed(board, mark, cells)
    answer = solve(board, Query(role, "value", initial_position(board), hidden=True))
    return tuple(getattr(answer, f) for f in FIELDS)


@pytest.mark.slow
def test_a_placements_game_is_the_game_ground_with_it(rule_book):
    """Ply for ply, by the positions' terms: the others' plies into the marks bump."""
    own = OwnPlacements(rule_book, "p1", "p1_obstacle")
    for cells in [((3, 4), (2, 3), (3, 2)), ((4, 1), (5, 2), (2, 2))]:
        got = own.game(frozenset(cells))
        ground = placed(rule_book, "p1_obstacle", cells)
        want = KnowingGame(ground, "p1", knowing._every_position(ground))
        wanted, had = want.game.graph, got.game.graph
        terms = {str(wanted.term(i)): i for i in range(wanted.n)}
        plies = {str(had.term(s)): sorted(str(had.term(t)) for t in had.successors(s)) for s in range(had.n)}
        assert set(plies) == set(terms)
        for term, index in terms.items():
            assert plies[term] == sorted(str(wanted.term(t)) for t in wanted.successors(index)), term


@pytest.mark.parametrize("role", ["p1", pytest.param("p2", marks=pytest.mark.slow)])
@pytest.mark.slow
def test_placements_on_the_rule_book_agree_with_their_own_grounding(rule_book, role):
    mark = f"{role}_obstacle"
    assert serves(OWN_PLACEMENTS, rule_book, Query(role, hidden=True))
    own = OwnPlacements(rule_book, role, mark)
    rng = random.Random(role)
    for cells in rng.sample(every_placement(rule_book, mark, 3), 3) + [((4, 1), (5, 2), (1, 1))]:
        answer = own.answer(frozenset(cells))
        assert tuple(getattr(answer, f) for f in FIELDS) == direct(rule_book, role, mark, cells), cells


@pytest.mark.parametrize("seeds, most", [pytest.param(range(1), 6), pytest.param(range(1, 4), None, marks=pytest.mark.slow)])
@pytest.mark.slow
def test_every_placement_on_small_boards_agrees_with_its_own_grounding(make_board, seeds, most):
    served = 0
    for seed in seeds:
        rng = random.Random(300 + seed)
        board = small_board(make_board, rng, seed)
        role = rng.choice(["p1", "p2"])
        mark = f"{role}_obstacle"
        count = board.rules.placement[mark].count
        if not serves(OWN_PLACEMENTS, board, Query(role, hidden=True)):
            continue
        served += 1
        own = OwnPlacements(board, role, mark)
        for cells in every_placement(board, mark, count)[:most]:
            answer = own.answer(frozenset(cells))
            assert tuple(getattr(answer, f) for f in FIELDS) == direct(board, role, mark, cells), (seed, cells)
    assert served


def test_the_rule_books_symmetry_maps_a_placement_onto_one_as_good(rule_book):
    """The reflection across the diagonal through both corners keeps the starts and the center."""
    images = symmetries(rule_book, "p1_obstacle", ("p2_obstacle",))
    assert len(images) == 2
    mirror = next(image for image in images if image[(1, 1)] != (1, 1))
    assert mirror[(1, 1)] == (5, 5) and mirror[(1, 5)] == (1, 5) and mirror[(5, 1)] == (5, 1)
    groups = classes(every_placement(rule_book, "p1_obstacle", 3), images)
    assert len(groups) == 780 and sum(len(m) for m in groups.values()) == 1540
    cells = ((1, 1), (2, 2), (4, 3))
    assert direct(rule_book, "p1", "p1_obstacle", cells) == \
        direct(rule_book, "p1", "p1_obstacle", tuple(mirror[c] for c in cells))


@pytest.mark.slow
def test_placement_advice_answers_every_placement(rule_book):
    advice = placement_advice(rule_book, "p1")
    assert advice.solved == 780 and not advice.unsettled
    assert len(advice.placed) == advice.possible == 1540
    best_value, best = advice.groups()[0]
    assert best_value == 50 and all(p.kind.startswith("walls the other in") for p in best)
    assert "all 1540 placements answered exactly" in format_advice(advice)
