"""The difficulty metrics (gridsolve/analysis/metrics.py) against an independent computation.

The reference below is a small explicit-state model of the 2007 Mummy Maze (rules/mummy-maze-2007.yaml
in words: the explorer steps or stands; the mummy makes one or two steps, the first a real one,
and may not end on its start cell; steps into walls are illegal; capture beats escape; 49
plies) and computes every metric from its own definitions (docs/generate.md).  It imports
nothing from gridsolve; only the board under test is loaded by gridsolve.
"""
from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest
import yaml

from gridsolve.analysis.metrics import measure_metrics, rounded
from gridsolve.language.loader import load_board
from gridsolve.language.position import initial_position

PLIES = 49
STEPS = {"north": (0, 1), "south": (0, -1), "east": (1, 0), "west": (-1, 0)}


# - The reference model (no gridsolve) ---

class Maze:
    def __init__(self, width, height, north, east, exit_cell):
        self.width, self.height, self.north, self.east, self.exit = width, height, set(north), set(east), exit_cell

    def step(self, cell, direction):
        x, y = cell
        dx, dy = STEPS[direction]
        target = (x + dx, y + dy)
        if not (1 <= target[0] <= self.width and 1 <= target[1] <= self.height):
            return None
        if direction == "north" and (x, y) in self.north or direction == "south" and target in self.north:
            return None
        if direction == "east" and (x, y) in self.east or direction == "west" and target in self.east:
            return None
        return target

    def explorer_moves(self, cell):
        return {cell} | {t for d in STEPS if (t := self.step(cell, d)) is not None}

    def mummy_moves(self, cell):
        out = set()
        for d in STEPS:
            first = self.step(cell, d)
            if first is None:
                continue
            out.add(first)
            out |= {t for d2 in STEPS if (t := self.step(first, d2)) is not None}
        return out - {cell}

    def end(self, state):
        explorer, mummy, _ = state
        if explorer == mummy:
            return "captured"
        return "escaped" if explorer == self.exit else None

    def successors(self, state):
        explorer, mummy, side = state
        if self.end(state):
            return set()
        if side == 0:
            return {(e, mummy, 1) for e in self.explorer_moves(explorer)}
        return {(explorer, m, 0) for m in self.mummy_moves(mummy)}


def reference_metrics(maze: Maze, start) -> dict:
    states, frontier = {start}, [start]
    while frontier:
        frontier = [t for s in frontier for t in maze.successors(s) if t not in states]
        states.update(frontier)
    succ = {s: maze.successors(s) for s in states}

    won: dict = {}

    def win_within(s, k, memo=won):
        key = (s, k)
        if key not in memo:
            if maze.end(s) == "escaped":
                memo[key] = True
            elif maze.end(s) or k == 0 or not succ[s]:
                memo[key] = False
            elif s[2] == 0:
                memo[key] = any(win_within(t, k - 1) for t in succ[s])
            else:
                memo[key] = all(win_within(t, k - 1) for t in succ[s])
        return memo[key]

    def rank(s):
        return next((k for k in range(PLIES + 1) if win_within(s, k)), math.inf)

    top = rank(start)
    if top == math.inf:
        return {"plies": top}
    ranks = {s: rank(s) for s in states}
    optimal, queue = {start}, [start]
    while queue:
        s = queue.pop()
        for t in succ[s]:
            if ranks[s] > 0 and ranks[t] == ranks[s] - 1 and t not in optimal:
                optimal.add(t)
                queue.append(t)
    turns = [s for s in optimal if ranks[s] > 0 and s[2] == 0]
    distance = _distances(maze)
    forced = keep = moves = greedy = 0
    for s in turns:
        left = PLIES - (top - ranks[s]) - 1
        winning = [t for t in succ[s] if win_within(t, left)]
        forced += len(winning) == 1
        keep += len(winning)
        moves += len(succ[s])
        greedy += not any(distance[t[0]] < distance[s[0]] for t in succ[s] if ranks[t] == ranks[s] - 1)
    # dead ends: earliest depth by breadth-first search
    depth, queue = {start: 0}, [start]
    for s in queue:
        if maze.end(s) or depth[s] >= PLIES:
            continue
        for t in sorted(succ[s]):
            if t not in depth:
                depth[t] = depth[s] + 1
                queue.append(t)
    live = [s for s in depth if not maze.end(s) and depth[s] < PLIES and succ[s]]
    lost = sum(1 for s in live if not win_within(s, PLIES - depth[s]))

    def player_win(choices: dict) -> float:
        """The explorer picks uniformly among choices[s] (its moves it considers), the mummy minimises."""
        memo: dict = {}

        def value(s, j):
            key = (s, j)
            if key not in memo:
                if maze.end(s) == "escaped":
                    memo[key] = Fraction(1)
                elif maze.end(s) or j == 0 or not succ[s]:
                    memo[key] = Fraction(0)
                elif s[2] == 0:
                    memo[key] = sum(value(t, j - 1) for t in choices[s]) / len(choices[s])
                else:
                    memo[key] = min(value(t, j - 1) for t in succ[s])
            return memo[key]
        return float(value(start, PLIES))

    def doomed(s, k):
        """The mummy forces a capture within k plies from s (the explorer delaying)."""
        if maze.end(s) == "captured":
            return True
        if maze.end(s) or k == 0 or not succ[s]:
            return False
        if s[2] == 1:
            return any(doomed(t, k - 1) for t in succ[s])
        return all(doomed(t, k - 1) for t in succ[s])

    def choices(k):
        """The careful greedy player seeing k plies of danger: safe moves, nearest the exit."""
        chosen = {}
        for s in states:
            if s[2] == 0 and succ[s]:
                safe = [t for t in succ[s] if not doomed(t, k)] or list(succ[s])
                nearest = min(distance.get(t[0], math.inf) for t in safe)
                chosen[s] = [t for t in safe if distance.get(t[0], math.inf) == nearest]
        return chosen

    def careful(k):
        return player_win(choices(k))

    def hints() -> int:
        """The fewest explorer moves of a forced win that the careful greedy player (1 ply) would
        not make, the mummy making them most."""
        chosen, memo = choices(1), {}

        def value(s, j):
            key = (s, j)
            if key not in memo:
                if maze.end(s) == "escaped":
                    memo[key] = 0
                elif maze.end(s) or j == 0 or not succ[s]:
                    memo[key] = math.inf
                elif s[2] == 0:
                    memo[key] = min(value(t, j - 1) + (t not in chosen[s]) for t in succ[s])
                else:
                    memo[key] = max(value(t, j - 1) for t in succ[s])
            return memo[key]
        return value(start, PLIES)

    def lines(s):
        if ranks[s] == 0:
            return 1
        after = [lines(t) for t in succ[s] if ranks[t] == ranks[s] - 1]
        return sum(after) if s[2] == 0 else min(after)

    share = (lambda a, b: a / b if b else 0.0)
    return {"plies": top, "forced_moves": share(forced, len(turns)), "path_safety": share(keep, moves),
            "dead_ends": share(lost, len(live)), "greedy_deviation": share(greedy, len(turns)),
            "random_win": player_win(succ), "greedy_win": careful(1), "lookahead_win": careful(3),
            "hints": hints(), "optimal_lines": lines(start)}


def _distances(maze: Maze) -> dict:
    distance, queue = {maze.exit: 0}, [maze.exit]
    for cell in queue:
        for d in STEPS:
            other = maze.step(cell, d)
            if other is not None and other not in distance:
                distance[other] = distance[cell] + 1
                queue.append(other)
    return distance


# - The boards under test ---

def _random_maze(rng: random.Random, width: int, height: int):
    north = [(x, y) for x in range(1, width + 1) for y in range(1, height) if rng.random() < 0.3]
    east = [(x, y) for x in range(1, width) for y in range(1, height + 1) if rng.random() < 0.3]
    cells = [(x, y) for x in range(1, width + 1) for y in range(1, height + 1)]
    border = [c for c in cells if c[0] in (1, width) or c[1] in (1, height)]
    exit_cell = rng.choice(border)
    explorer, mummy = rng.sample([c for c in cells if c != exit_cell], 2)
    return Maze(width, height, north, east, exit_cell), explorer, mummy


def _board_file(tmp_path, maze: Maze, explorer, mummy, name: str):
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump({
        "rules": "mummy-maze-2007", "size": [maze.width, maze.height],
        "walls": {"north": [list(c) for c in sorted(maze.north)], "east": [list(c) for c in sorted(maze.east)]},
        "pieces": {"explorer": list(explorer), "mummy": list(mummy)}, "marks": {"exit": [list(maze.exit)]}}))
    return load_board(path)


def _compare(tmp_path, maze, explorer, mummy, name):
    expected = reference_metrics(maze, (explorer, mummy, 0))
    if expected["plies"] == math.inf:
        return False
    board = _board_file(tmp_path, maze, explorer, mummy, name)
    measured = measure_metrics(board, "explorer", initial_position(board))
    for key, value in expected.items():
        got = measured.value(key)
        if isinstance(value, float):
            assert got == pytest.approx(value, abs=1e-12), (name, key)
            assert rounded(got) == rounded(value)
        else:
            assert got == value, (name, key)
    return True


def test_hand_checked_corridor(tmp_path):
    # A 3x1 corridor: explorer (1,1), exit (2,1), mummy (3,1).  The explorer's moves: east
    # (escapes in 1 ply) or stand (the mummy then walks two steps west and captures it).
    maze = Maze(3, 1, [], [], (2, 1))
    board = _board_file(tmp_path, maze, (1, 1), (3, 1), "corridor")
    metrics = measure_metrics(board, "explorer", initial_position(board))
    assert metrics.plies == 1
    assert metrics.forced_moves == 1.0          # one turn, one saving move
    assert metrics.path_safety == 0.5           # east keeps the win, standing loses it
    assert metrics.greedy_deviation == 0.0      # east is one step nearer the exit
    assert metrics.random_win == 0.5            # half the time east; else the mummy captures
    # Reachable before an end: the start (won), after standing (mummy to move), the mummy on the
    # exit (explorer to move: stepping onto it is a capture) and the explorer standing again.
    assert metrics.dead_ends == 0.75
    assert metrics.optimal_lines == 1
    assert reference_metrics(maze, ((1, 1), (3, 1), 0)) == metrics.as_dict()


@pytest.mark.parametrize("seed", [pytest.param(s, marks=pytest.mark.slow) if s in (0, 5) else s for s in range(8)])
def test_metrics_match_the_independent_model(tmp_path, seed):
    rng = random.Random(seed)
    compared = 0
    for attempt in range(40):
        maze, explorer, mummy = _random_maze(rng, rng.choice((3, 4)), 3)
        compared += _compare(tmp_path, maze, explorer, mummy, f"b{seed}-{attempt}")
        if compared >= 2:
            break
    assert compared >= 1      # the seeds are chosen so that random boards include won levels


# A duel where player 2 is walled into its corner: once player 1 has moved, player 2 has no
# move, the game stops and the step limit's rule scores it (player 1 is nearer the center), so
# player 1 forces its top score in 1 ply, and no end is ever reached (the game stops first).
# The metrics measure wins by an end only.
STUCK_DUEL = """\
name: Stuck
rules: maze-runner-duel
legend: {P: p1, A: p2, C: center}
map: |
  +---+---+---+
  |       | A |
  +   +   +---+
  | P       C |
  +---+---+---+
"""


def test_a_win_by_a_stop_has_no_metrics(make_board):
    from gridsolve.analysis.metrics import WinNotByAnEnd
    from gridsolve.language.position import make_query
    from gridsolve.solve.dispatch.dispatcher import solve
    board = make_board(STUCK_DUEL)
    start = initial_position(board)
    answer = solve(board, make_query(board, "p1", "win"))
    assert (answer.holds, answer.win_plies) == (True, 1)
    with pytest.raises(WinNotByAnEnd, match=r"in 1 ply by a stop or the step limit's rule, sooner than by an "
                                            r"end \(never\)"):
        measure_metrics(board, "p1", start, None, answer.win_plies)


def test_a_tiny_win_probability_keeps_its_digits(tmp_path):
    # A classic corridor without a step limit: the exit at the east end, a trap north of every
    # other cell.  Moving at random the explorer steps east, west, onto the trap or stays (a
    # step into the border stays too), so the win probability p(i) of cell i solves
    # 3 p(i) = p(i-1) + p(i+1), 2 p(1) = p(2), p(n) = 1: p(i) = F(2i-1) / F(2n-1) (Fibonacci).
    # From the west end that is 1 / F(49) = 1.286e-10: an absolute stopping rule of 1e-12 would
    # stop long before its fourth digit settles.
    n = 25
    fibonacci = [0, 1]
    while len(fibonacci) < 2 * n:
        fibonacci.append(fibonacci[-1] + fibonacci[-2])
    exact = Fraction(1, fibonacci[2 * n - 1])
    path = tmp_path / "corridor.yaml"
    path.write_text(yaml.safe_dump({
        "rules": "mummy-maze-classic", "size": [n, 2], "pieces": {"explorer": [1, 1]},
        "marks": {"exit": [[n, 1]], "trap": [[x, 2] for x in range(1, n)]}}))
    board = load_board(path)
    measured = measure_metrics(board, "explorer", initial_position(board)).random_win
    assert measured == pytest.approx(float(exact), rel=1e-9, abs=0)
    assert rounded(measured) == rounded(float(exact)) == 1.286e-10
