"""The lengthening walk (gridsolve/generate/lengthen.py): its score, when it is seeded, moves and
is given up, its steps keeping every structural constraint through the proposer, a search that
climbs with it writing the same verified boards for the same seed, and a hand-checked long
non-trivial escape of the kind it climbs to (a long approach that ends at an adaptive fork)."""
from __future__ import annotations

import random
from collections import deque
from pathlib import Path

import pytest

from gridsolve.generate.request import Request
from gridsolve.generate.run import _setup
from gridsolve.generate.search import _Search
from gridsolve.generate.genspec import Requirement, game_spec
from gridsolve.generate.levelfile import board_text
from gridsolve.generate.lengthen import Lengthening, lengthening_score
from gridsolve.generate.mutation import difference
from gridsolve.generate.proposer import Layout, edges
from gridsolve.generate.startgraph import StartGraph, StartVerdict, start_program
from gridsolve.language.loader import load_board
from gridsolve.language.position import Position, Query
from gridsolve.solve.dispatch.dispatcher import solve
from gridsolve.analysis.beeline import check_beeline

from conftest import ROOT
from test_generate import assert_verifies
from test_mutation import LIKE, connected, proposer


def verdict(rank: int, paths: int, winning: int) -> StartVerdict:
    return StartVerdict(((1, 1), (2, 2)), rank, paths, winning)


def layout(*walls) -> Layout:
    return Layout(frozenset(walls), frozenset(), (), (("exit", ((1, 1),)),))


def test_the_score_is_the_longest_non_trivial_start_and_how_many_have_its_plies():
    assert lengthening_score([verdict(25, 2, 1), verdict(13, 2, 0), verdict(17, 3, 0), verdict(17, 2, 0)]) == (17, 2)
    assert lengthening_score([verdict(25, 2, 1), verdict(9, 1, 1)]) is None      # every start trivial
    assert lengthening_score([]) is None


def test_a_walk_is_seeded_by_a_long_enough_start_drifts_on_ties_and_jumps_only_to_better():
    walk = Lengthening(random.Random(1), seed_plies=9, patience=3)
    a, b, c, d = layout((1, 1)), layout((1, 2)), layout((2, 2)), layout((3, 3))
    assert not walk.active and walk.floor() == 9
    assert not walk.ranked(a, [verdict(7, 2, 0)], step=False)          # too short to seed a walk
    assert not walk.ranked(a, None, step=False)                        # not surveyed
    assert walk.ranked(a, [verdict(11, 2, 0)], step=False) and walk.here == a and walk.floor() == 11
    assert not walk.ranked(b, [verdict(11, 2, 0)], step=False)         # another layout must do better
    assert walk.ranked(b, [verdict(11, 2, 0)], step=True) and walk.here == b     # a step may tie (drift)
    assert not walk.ranked(c, [verdict(13, 2, 1)], step=True) and walk.here == b  # trivial: no step
    assert walk.ranked(c, [verdict(13, 2, 0)], step=False) and walk.score == (13, 1) and walk.longest == 13
    for _ in range(3):                                                  # patience spent without a longer start
        walk.ranked(d, [verdict(11, 2, 0)], step=True)
    assert not walk.active and walk.longest == 13 and walk.floor() == 9


def test_the_steps_are_mutations_that_keep_every_structural_constraint():
    maker = proposer(size=(5, 5), walls=(6, 14))
    walk = Lengthening(random.Random(3))
    walk.here = start = maker.propose()
    made = 0
    for _ in range(25):
        child = walk.step(lambda keep, free, marks, flip: maker.propose(None, keep, free, marks, flip=flip),
                          edges(5, 5), None, 5, 5, True, 4)
        if child is None:
            continue
        made += 1
        assert 6 <= len(child.north) + len(child.east) <= 14 and connected(child, 5, 5)
        (exit_cell,) = dict(child.marks)["exit"]
        assert exit_cell[0] in (1, 5) or exit_cell[1] in (1, 5)
        assert 1 <= difference(child, start) <= 5           # 1 to 3 walls toggled, or the exit moved and one wall
    assert made >= 15


# The hand-checked escape: 6x6 under the 2007 rules, the exit at (4,1), the mummy at (1,1) in a
# pocket whose only way out is column 1.  (x, y): a north wall between (x, y) and (x, y+1), an
# east wall between (x, y) and (x+1, y).
NORTH = {(2, 4), (2, 5), (3, 1), (3, 3), (3, 4), (3, 5), (4, 1), (4, 2), (4, 3), (5, 2), (5, 5), (6, 1)}
EAST = {(1, 1), (1, 2), (1, 3), (1, 4), (2, 3), (3, 5), (4, 4), (5, 3), (5, 4), (5, 5)}
EXPLORER, MUMMY, EXIT = (5, 5), (1, 1), (4, 1)


def steps(cell):
    x, y = cell
    for (nx, ny), wall in (((x, y + 1), (x, y) in NORTH), ((x, y - 1), (x, y - 1) in NORTH),
                           ((x + 1, y), (x, y) in EAST), ((x - 1, y), (x - 1, y) in EAST)):
        if 1 <= nx <= 6 and 1 <= ny <= 6 and not wall:
            yield nx, ny


def test_a_long_approach_ending_at_an_adaptive_fork_by_hand():
    """Counted by hand, with no gridsolve code: the explorer's shortest ways (the mummy frozen)
    are 9 moves, three of them; the mummy, one or two steps a move, never back on its cell, is
    16 steps from both (3,1) (the exit's west side, reached down column 2) and (5,1) (its east
    side, down column 6): after 8 moves it can stand on either, and each shortest way is on one
    of them after its 8th move.  It cannot come down both columns; the explorer, at the fork
    (3,2) after 5 moves, sees which one it took."""
    distance, queue = {EXIT: 0}, deque([EXIT])
    while queue:
        cell = queue.popleft()
        for after in steps(cell):
            if after not in distance and after != MUMMY:
                distance[after] = distance[cell] + 1
                queue.append(after)
    length = distance[EXPLORER]
    ways = [[EXPLORER]]
    for k in range(length):
        ways = [w + [a] for w in ways for a in steps(w[-1]) if distance.get(a) == length - k - 1]
    reach = [{MUMMY}]          # where the mummy can stand after k moves
    for _ in range(length):
        reach.append({end for m in reach[-1] for first in steps(m) for end in {first, *steps(first)} - {m}})
    caught = {tuple(w): next(k for k in range(1, length + 1)
                             if w[k] in reach[k - 1] or (k < length and w[k] in reach[k])) for w in ways}
    assert length == 9 and len(ways) == 3
    assert sorted((k, w[k]) for w, k in caught.items()) == [(8, (3, 1)), (8, (3, 1)), (8, (5, 1))]
    assert all(w[5] == (3, 2) for w in ways if w[1] == (5, 4))        # the fork


def board_6x6():
    spec = game_spec("mummy-maze-2007", None, (6, 6), ROOT / "boards", None)
    return spec.board(NORTH, EAST, {"explorer": EXPLORER, "mummy": MUMMY}, {"exit": [EXIT]})


def test_the_engine_agrees_the_escape_is_forced_in_17_plies_and_not_trivial():
    board = board_6x6()
    start = Position((("explorer", EXPLORER), ("mummy", MUMMY)), 0, board.rules.first_step)
    answer = solve(board, Query("explorer", "value", start))
    assert answer.win and answer.win_plies == 17
    beeline = check_beeline(board, "explorer", start, 49)
    assert beeline.holds and beeline.paths == 3 and beeline.length == 9
    req = Requirement("win", (1, 49))
    program = start_program(board, "explorer", req)
    graph = StartGraph(board, "explorer", req, program, program.plan.win)
    survey = graph.survey(17, 49, 49)
    (found,) = [s for s in survey if s.placed == (EXPLORER, MUMMY)]
    assert (found.rank, found.paths, found.winning) == (17, 3, 0)
    assert lengthening_score(survey)[0] >= 17


@pytest.mark.slow
def test_the_reference_search_finds_the_same_17_plies(tmp_path):
    from reference.game import reference_answer
    path = tmp_path / "fork.yaml"
    path.write_text(board_text(board_6x6(), "mummy-maze-2007", [], {"win": True}), encoding="utf-8")
    board = load_board(path)
    start = Position((("explorer", EXPLORER), ("mummy", MUMMY)), 0, board.rules.first_step)
    assert reference_answer(board, "explorer", "win", start)["win_plies"] == 17


def climb(seed: int, candidates: int = 200) -> list:
    """A search of 6x6 non-trivial escapes of 17 plies or more whose walk starts on the
    hand-checked layout: the layouts it ranks, up to the first board accepted (with it)."""
    run = _setup(Request(like=LIKE, size=(6, 6), plies=(17, None), defaults=False, seed=seed, out=Path("."),
                         timeout=120))
    search = run.search(seed)
    walk = search.lengthening
    walk.here = Layout(frozenset(NORTH), frozenset(EAST), (), (("exit", (EXIT,)),))
    walk.score = (17, 1)
    seen = []
    for _ in range(candidates):
        board, found, verdict = search.next(None, Path("level.yaml"), "t")
        seen.append((found, verdict.reason))
        if verdict.accepted:
            return seen + [(board, verdict)]
    return seen


@pytest.mark.slow
def test_a_search_on_the_walk_writes_a_long_non_trivial_escape_and_the_same_for_the_same_seed(monkeypatch):
    monkeypatch.setattr(_Search, "LENGTHEN_ABOVE", 16)       # the walk for a 17-ply band
    seen = climb(5)
    board, verdict = seen[-1]
    assert verdict.accepted and verdict.answer.win_plies >= 17
    start = Position(tuple(board.pieces.items()), 0, board.rules.first_step)
    assert solve(board, Query("explorer", "value", start)).win_plies == verdict.answer.win_plies
    assert check_beeline(board, "explorer", start, 49).holds
    seed_layout = Layout(frozenset(NORTH), frozenset(EAST), (), (("exit", (EXIT,)),))
    assert all(difference(found, seed_layout) >= 1 for found, _ in seen[:-1])   # mutations of the seed's walk
    assert seen[:-1] == climb(5)[:-1]


def test_a_27_ply_non_trivial_escape_exists_on_8x8():
    """Found by a (1+1) climb on the lengthening score (docs/generate.md, "Where good levels
    exist"), re-checked here by the solver and the exact no_beeline check: 8x8, the exit on the
    border, 42 walls, the board connected (the structure --like boards/mummymaze2p-2007.yaml asks for)."""
    north = {(1, 2), (2, 5), (2, 7), (4, 1), (4, 3), (5, 1), (5, 2), (5, 5), (6, 1), (6, 3), (6, 4)}
    east = {(1, 5), (1, 6), (1, 7), (2, 1), (2, 2), (2, 3), (2, 4), (2, 5), (2, 7), (3, 2), (3, 3), (3, 5), (3, 6),
            (3, 7), (3, 8), (4, 4), (4, 5), (4, 6), (4, 8), (5, 3), (5, 6), (5, 7), (6, 2), (6, 3), (6, 6), (6, 7),
            (7, 3), (7, 4), (7, 5), (7, 6), (7, 8)}
    spec = game_spec(None, LIKE, None, ROOT / "boards", None)
    board = spec.board(north, east, {"explorer": (6, 3), "mummy": (1, 1)}, {"exit": [(8, 5)]})
    start = Position((("explorer", (6, 3)), ("mummy", (1, 1))), 0, board.rules.first_step)
    answer = solve(board, Query("explorer", "value", start))
    assert answer.win and answer.win_plies == 27
    beeline = check_beeline(board, "explorer", start, 49)
    assert beeline.holds and beeline.length == 14


def test_when_no_start_is_non_trivial_the_message_names_the_longest_the_walk_reached(tmp_path):
    from test_generate import _diagnosed
    finding, hints = _diagnosed(tmp_path, (21, 49), layouts=26, in_band=5, band_starts=41, allowed=0, longest=29,
                                climbed=17)
    assert finding.endswith("a level that is not trivial is the rarest part (the longest non-trivial start seen: "
                            "17 plies)")
    assert hints[:2] == ["--allow-trivial", "fewer plies (--plies 17..)"]


def test_the_walk_runs_only_where_the_band_starts_above_what_the_search_writes_alone():
    spec = game_spec(None, LIKE, None, ROOT / "boards", None)
    assert _Search(None, spec, Requirement("win", (12, 49)), True, 1, 10).lengthening is None
    assert _Search(None, spec, Requirement("win", (21, 49)), True, 1, 10).lengthening is not None
    assert _Search(None, spec, Requirement("win", (21, 49), True), True, 1, 10).lengthening is None   # trivial ok
