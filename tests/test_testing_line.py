"""The most testing line of a won level and its decisive choices (gridsolve/generate/testing.py)
against the explicit-state Mummy Maze of tests/test_metrics.py, which imports nothing from
gridsolve: along the line the explorer plays a fastest win; at each of the mummy's turns its move
leaves the explorer the fewest winning replies, then the slowest win; the line ends with the
escape; and a decisive choice is named exactly at the explorer's turns where a move of the
careful greedy player (safe from capture in the next ply, nearest the exit) loses the win."""
from __future__ import annotations

import math
import random
from functools import lru_cache

import pytest

from gridsolve.generate.testing import most_testing_line
from gridsolve.language.position import initial_position

from test_metrics import PLIES, Maze, _board_file, _distances, _random_maze

# A non-trivial 8x8 escape written by `gridsolve generate --like boards/mummymaze2p-2007.yaml --seed 9`:
# the explorer must choose its way after the mummy's first run (the decisive choices).
LEVEL = """\
name: Fork
rules: mummy-maze-2007
legend: {E: explorer, M: mummy, X: exit}
map: |2
       1   2   3   4   5   6   7   8
     +---+---+---+---+---+---+---+---+
   8 |   |                       |   |
     +   +---+   +   +---+   +   +   +
   7 | M |       |       |           |
     +   +   +   +---+---+---+---+   +
   6 |       |   |                   |
     +   +---+   +   +   +---+   +   +
   5 |           |       |           |
     +   +---+---+---+---+   +   +   +
   4 |   |   |               |   |   |
     +   +   +   +   +   +---+   +   +
   3 |   |       |         E |     X |
     +   +   +   +   +   +---+   +   +
   2 |           |       |   |   |   |
     +   +   +   +---+   +   +   +   +
   1 |   |   |                       |
     +---+---+---+---+---+---+---+---+
"""


def _apply(maze, cell, move: str):
    for step in move.split():
        if step != "nowhere":
            cell = maze.step(cell, step)
    return cell


def _reference(maze):
    def succ(s):
        explorer, mummy, side = s
        if maze.end(s):
            return []
        if side == 0:
            return [(e, mummy, 1) for e in maze.explorer_moves(explorer)]
        return [(explorer, m, 0) for m in maze.mummy_moves(mummy)]

    @lru_cache(maxsize=None)
    def forced(s, k, end, side):
        """``side`` (0: the explorer, 1: the mummy) forces ``end`` within k plies from s."""
        if maze.end(s) == end:
            return True
        if maze.end(s) or k == 0 or not succ(s):
            return False
        after = [forced(t, k - 1, end, side) for t in succ(s)]
        return any(after) if s[2] == side else all(after)

    def wins(s, k):
        return forced(s, k, "escaped", 0)

    def caught(s, k):
        return forced(s, k, "captured", 1)

    def rank(s, left):
        return next((k for k in range(left + 1) if wins(s, k)), math.inf)
    return succ, wins, caught, rank


def _check(maze, start, found) -> int:
    """The line and its choices against the reference; the number of decisive choices."""
    succ, wins, caught, rank = _reference(maze)
    distance = _distances(maze)
    s, choices = start, {c.ply: c for c in found.choices}
    for ply in found.line:
        left = PLIES - ply.index
        if s[2] == 0:
            t = (_apply(maze, s[0], ply.move), s[1], 1)
            assert rank(t, left - 1) == rank(s, left) - 1           # a fastest win
            safe = [u for u in succ(s) if not caught(u, 1)] or succ(s)
            near = min(distance.get(u[0], math.inf) for u in safe)
            losing = [u for u in safe if distance.get(u[0], math.inf) == near and not wins(u, left - 1)]
            assert (ply.index in choices) == bool(losing)
            if losing:
                choice = choices[ply.index]
                assert choice.to in {u[0] for u in losing} and choice.cell == s[0]
                assert 1 <= choice.plies <= next(k for k in range(left) if caught((choice.to, s[1], 1), k))
        else:
            t = (s[0], _apply(maze, s[1], ply.move), 0)
            assert t in succ(s)

            def testing(u):
                replies = 0 if maze.end(u) else sum(wins(v, left - 2) for v in succ(u))
                return replies, -rank(u, left - 1)
            assert testing(t) == min(testing(u) for u in succ(s))
        s = t
    assert maze.end(s) == "escaped" and len(found.line) == rank(start, PLIES)
    return len(found.choices)


@pytest.mark.slow
def test_a_fork_level_names_its_decisive_choice(make_board):
    board = make_board(LEVEL)
    maze = Maze(8, 8, board.north, board.east, next(iter(board.marks["exit"])))
    found = most_testing_line(board, "explorer", initial_position(board))
    assert _check(maze, (board.pieces["explorer"], board.pieces["mummy"], 0), found) >= 1
    assert found.choices[0].describe("explorer").startswith("ply 3, explorer on (5, 3): south")


@pytest.mark.parametrize("seed", [0, *(pytest.param(k, marks=pytest.mark.slow) for k in range(1, 8))])
@pytest.mark.slow
def test_the_testing_line_on_random_boards_matches_the_reference(tmp_path, seed):
    rng = random.Random(100 + seed)
    checked = 0
    for attempt in range(60):
        maze, explorer, mummy = _random_maze(rng, rng.choice((4, 5)), 4)
        start = (explorer, mummy, 0)
        if _reference(maze)[3](start, PLIES) in (math.inf, 0):
            continue
        board = _board_file(tmp_path, maze, explorer, mummy, f"t{seed}-{attempt}")
        _check(maze, start, most_testing_line(board, "explorer", initial_position(board)))
        checked += 1
        if checked == 2:
            break
    assert checked >= 1


def test_a_decisive_choice_counts_its_plies_in_words():
    from gridsolve.generate.testing import Choice
    choice = Choice(ply=32, cell=(10, 10), to=(10, 9), natural="south", caught=(10, 9), plies=1, keeps="west")
    assert choice.describe("explorer") == ("ply 33, explorer on (10, 10): south (a nearest safe-looking step) is "
                                           "caught on (10, 9) 1 ply later; west keeps the win")
    assert "caught on (1, 2) 2 plies later;" in Choice(0, (1, 1), (1, 2), "north", (1, 2), 2, "east").describe("e")
