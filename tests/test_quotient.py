"""The coarsest bisimulation (gridsolve/solve/bounded/quotient.py) and the bounded solver's use of it.

The classes are checked against a plain fixpoint written here (split by label and set of
successor classes until nothing splits), on hand-made and random graphs; the bounded solver,
which keys its tables by class and searches one move per class, is checked against
reference/game.py on random Pacman-like boards where a ghost is shut in a room of its own
(there the quotient merges positions).
"""
from __future__ import annotations

import random

import pytest

from gridsolve.language.position import make_query
from gridsolve.solve.graph.abstractpieces import build_abstract_game
from gridsolve.solve.bounded.search import BoundedSearch
from gridsolve.solve.bounded.quotient import bisimulation, representatives
from test_bounded import agrees_with_the_reference, board_from_text, pacman_board_text


def _plain(labels, successors) -> list[frozenset]:
    """The coarsest bisimulation by the textbook fixpoint, as a set of blocks."""
    block = {i: (labels[i],) for i in range(len(labels))}
    while True:
        signature = {i: (block[i], frozenset(block[j] for j in successors[i])) for i in range(len(labels))}
        names = {sig: k for k, sig in enumerate(dict.fromkeys(signature.values()))}
        refined = {i: names[signature[i]] for i in range(len(labels))}
        if len(set(refined.values())) == len(set(block.values())):
            break
        block = refined
    return _blocks(block)


def _blocks(classes) -> set[frozenset]:
    out: dict = {}
    for i, c in (classes.items() if isinstance(classes, dict) else enumerate(classes)):
        out.setdefault(c if isinstance(c, (str, tuple)) else int(c), set()).add(i)
    return {frozenset(b) for b in out.values()}


def test_two_alike_chains_merge_and_a_different_end_splits_them():
    # 0 -> 1 -> 2 (end a) and 3 -> 4 -> 5 (end a): alike; 6 -> 7 -> 8 (end b): not
    labels = ["x", "x", "a", "x", "x", "a", "x", "x", "b"]
    successors = [[1], [2], [], [4], [5], [], [7], [8], []]
    assert _blocks(bisimulation(labels, successors)) == {frozenset({0, 3}), frozenset({1, 4}), frozenset({2, 5}),
                                                         frozenset({6}), frozenset({7}), frozenset({8})}


def test_a_position_with_one_more_kind_of_move_is_not_merged():
    # 0 moves to an a-end only; 1 to an a-end and a b-end; 2 to two a-ends
    labels = ["x", "x", "x", "a", "b", "a"]
    successors = [[3], [3, 4], [3, 5], [], [], []]
    classes = bisimulation(labels, successors)
    assert classes[0] == classes[2] != classes[1]
    assert representatives(classes)[2] == 0


def test_random_graphs_agree_with_the_plain_fixpoint():
    rng = random.Random(5)
    for _ in range(60):
        n = rng.randint(1, 40)
        labels = [rng.choice("ab" if rng.random() < 0.5 else "a") for _ in range(n)]
        successors = [sorted({rng.randrange(n) for _ in range(rng.randint(0, 3))}) for _ in range(n)]
        for seed in (0, 1):
            assert _blocks(bisimulation(labels, successors, seed)) == _plain(labels, successors)


def room_board(seed: int) -> str:
    """A small board under the Pacman seed's rules: a main area with pellets, pacman and one
    ghost, and a room of 2x2 cells (walled off) holding the other ghost (in a room of two
    cells a ghost's cell follows from the plies played, so nothing would merge)."""
    rng = random.Random(seed)
    width, height = rng.choice([(5, 3), (4, 4), (5, 4)])
    room = [(width - 1, 1), (width, 1), (width - 1, 2), (width, 2)]     # the south-east corner
    north = [[width - 1, 2], [width, 2]]       # shut above the room
    east = [[width - 2, 1], [width - 2, 2]]    # and to its west
    main = [(x, y) for x in range(1, width + 1) for y in range(1, height + 1) if (x, y) not in room]
    north += [[x, y] for x, y in main if y < height and rng.random() < 0.1]
    east += [[x, y] for x, y in main if x < width and [x, y] not in east and rng.random() < 0.1]
    pacman, hunter = rng.sample(main, 2)
    roomed = rng.choice(room)
    blinky, inky = (hunter, roomed) if rng.random() < 0.5 else (roomed, hunter)
    rest = [c for c in main if c not in (pacman, hunter)]
    pellets = sorted(rng.sample(rest, max(2, len(rest) // 2)))
    return pacman_board_text(f"pacman-room {seed}", (width, height), north, east, (pacman, blinky, inky), pellets,
                             rng.choice([9, 11]))


def _check_rooms(tmp_path, seeds) -> int:
    checked = 0
    for seed in seeds:
        board = board_from_text(tmp_path, f"pacman-room-{seed}", room_board(seed))
        query = make_query(board, "pacman", "value")
        game = build_abstract_game(board, [query.position])
        search = BoundedSearch(board, game, "pacman")
        assert len(set(search.canon)) < len(game), seed           # the room ghost's cells are merged
        for kind in ("value", "win"):
            assert agrees_with_the_reference(board, "pacman", kind, seed).stats.solver == "bounded"
            checked += 1
    return checked


@pytest.mark.slow
def test_pacman_with_a_ghost_in_a_room_agrees_with_the_reference(tmp_path):
    """Value, plies, win, survive and every move against reference/game.py, where the bounded
    solver merges the positions that differ in the shut-in ghost's cell."""
    assert _check_rooms(tmp_path, range(4)) == 8
