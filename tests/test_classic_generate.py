"""``gridsolve generate`` for classic Mummy Maze (issue 31, item 6): the good-level criteria
(gridsolve/generate/scriptedlevel.py) checked against the independent reference
(reference/classic.py) on hand-made and random boards, and generated levels checked
criterion by criterion with the reference alone, verified, and the same for the same seed."""
from __future__ import annotations

import heapq
import multiprocessing
from collections import deque
from pathlib import Path

import pytest
import yaml

from classic_boards import random_classic_board
from reference.classic import DEAD, DELTA, ON, WON, State, blocked, parse_board, solve, turn

from gridsolve.analysis.metrics import measure_metrics
from gridsolve.analysis.walks import Walks
from gridsolve.errors import QueryError
from gridsolve.generate.generate import generate, request_from_options
from gridsolve.generate.scriptedlevel import judge_board
from gridsolve.language.loader import load_board
from gridsolve.language.position import initial_position
from gridsolve.generate.scriptedlevel import LevelTables
from gridsolve.generate.scriptedsearch import distance
from gridsolve.verify.verify import verify_paths

STEPS = ("north", "east", "south", "west")
FAR = 10 ** 9


# - The criteria by the reference alone (the definitions of docs/generate.md, "Classic Mummy Maze") ---

def _distances(level, sources, gate_open: bool, avoid=frozenset()) -> dict:
    """Fewest steps between each cell and ``sources`` through the walls and the gate as given,
    never onto an ``avoid`` cell (a step is open both ways)."""
    dist = {c: 0 for c in sources}
    queue = deque(dist)
    while queue:
        x, y = cell = queue.popleft()
        for dx, dy in (DELTA[m] for m in STEPS):
            to = (x + dx, y + dy)
            if to not in dist and to not in avoid and not blocked(level, cell, to, gate_open):
                dist[to] = dist[cell] + 1
                queue.append(to)
    return dist


def beeline_wins(level) -> bool:
    """Some sequence of steps, each lowering the walking distance (traps avoided, the gate as
    it is at that turn) by one, wins while the enemies move by rule."""
    walking = {g: _distances(level, level.exits, g, level.traps) for g in (False, True)}
    seen, queue = {level.start}, deque([level.start])
    while queue:
        state = queue.popleft()
        dist = walking[state.gate_open]
        here = dist.get(state.explorer, FAR)
        for move in STEPS:
            to = (state.explorer[0] + DELTA[move][0], state.explorer[1] + DELTA[move][1])
            if blocked(level, state.explorer, to, state.gate_open) or dist.get(to, FAR) != here - 1:
                continue
            after, outcome = turn(level, state, move)
            if outcome == WON:
                return True
            if outcome == ON and after not in seen:
                seen.add(after)
                queue.append(after)
    return False


def key_needed(level) -> bool:
    return not solve(level.__class__(**{**level.__dict__, "key": None})).win


def traps_tempting(level) -> bool:
    """A trap lies on a shortest walk (traps ignored) from the start to an exit: with the
    gate closed, or open if no walk reaches an exit with it closed."""
    for gate_open in (False, True):
        ahead = _distances(level, [level.start.explorer], gate_open)
        behind = _distances(level, level.exits, gate_open)
        length = min((ahead[c] for c in level.exits if c in ahead), default=None)
        if length is not None:
            return any(ahead.get(t, FAR) + behind.get(t, FAR) == length for t in level.traps)
    return False


def explicit(board) -> str:
    """A gridsolve board in the explicit form the reference reads."""
    def cells(found):
        return [list(c) for c in sorted(found)]
    return yaml.safe_dump({
        "rules": board.rules.name, "size": [board.width, board.height],
        "walls": {"north": cells(board.north), "east": cells(board.east)},
        "pieces": {p: list(c) for p, c in board.pieces.items()},
        "marks": {m: cells(c) for m, c in board.marks.items() if c},
        "gates": {"north": cells(board.gate_north), "east": cells(board.gate_east)}})


def write(tmp_path: Path, text: str, name: str = "level.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


# - Hand-checked positions ---

def test_a_key_behind_which_the_exit_lies_is_needed_and_no_walk_leads_there(tmp_path):
    # E on (1,1), the key on (2,1), the gate between (2,1) and (3,1), the exit on (3,1): east onto
    # the key opens the gate, east again wins; with the gate closed no walk reaches the exit
    verdict = judge_board(load_board(write(tmp_path, """
rules: mummy-maze-classic
size: [3, 1]
pieces: {explorer: [1, 1]}
marks: {exit: [[3, 1]], key: [[2, 1]]}
gates: {east: [[2, 1]]}
""")))
    assert (verdict.win_moves, verdict.beeline_wins, verdict.key_needed, verdict.traps_tempting) == (2, False, True, None)


def test_a_trap_on_the_straight_way_is_tempting_and_the_walk_goes_round_it(tmp_path):
    # E (1,1), trap (2,1), exit (3,1): the straight way steps on the trap; the walk goes over row 2
    verdict = judge_board(load_board(write(tmp_path, """
rules: mummy-maze-classic
size: [3, 2]
pieces: {explorer: [1, 1]}
marks: {exit: [[3, 1]], trap: [[2, 1]]}
""")))
    assert (verdict.win_moves, verdict.beeline_wins, verdict.traps_tempting) == (4, True, True)
    assert verdict.failed() == "walking the shortest way wins"


def test_a_trap_off_every_shortest_walk_is_not_tempting(tmp_path):
    verdict = judge_board(load_board(write(tmp_path, """
rules: mummy-maze-classic
size: [3, 2]
pieces: {explorer: [1, 1]}
marks: {exit: [[3, 1]], trap: [[1, 2]]}
""")))
    assert (verdict.win_moves, verdict.traps_tempting) == (2, False)


def test_a_mummy_that_catches_the_walker_makes_the_beeline_lose(tmp_path):
    # 4x2, E (1,1), exit (4,1): the one shortest walk is east x3.  The mummy on (4,2) goes west
    # twice to (2,2) after the first step; after the second (E on (3,1)) it goes east to (3,2)
    # and south onto him.  Without the mummy the walk wins.
    text = """
rules: mummy-maze-classic
size: [4, 2]
pieces: {explorer: [1, 1], mummy: [4, 2]}
marks: {exit: [[4, 1]]}
"""
    for with_mummy, wins in ((True, False), (False, True)):
        body = text if with_mummy else text.replace(", mummy: [4, 2]", "")
        board = load_board(write(tmp_path, body))
        tables = LevelTables(board)
        assert tables.beeline_wins(tables.start(board.pieces)) is wins
        assert beeline_wins(parse_board(body)) is wins


# - Random boards: every criterion as the reference measures it ---

@pytest.mark.parametrize("seed", range(24))
def test_criteria_agree_with_the_reference_on_random_boards(tmp_path, seed):
    path = write(tmp_path, random_classic_board(seed))
    level = parse_board(path.read_text())
    verdict = judge_board(load_board(path))
    answer = solve(level)
    assert verdict.win_moves == (answer.moves if answer.win else None)
    if not answer.win:
        return
    assert verdict.beeline_wins == beeline_wins(level)
    gated = bool(level.gates) and level.key is not None
    assert verdict.key_needed == (key_needed(level) if gated else None)
    assert verdict.traps_tempting == (traps_tempting(level) if level.traps else None)


# - Generated levels ---

LIKE = """
# a 6x6 classic level with every kind of mark and a gate (the generator's --like board)
rules: mummy-maze-classic
size: [6, 6]
pieces: {explorer: [1, 1], mummy: [6, 6]}
marks: {exit: [[6, 1]], trap: [[3, 3]], key: [[2, 5]]}
gates: {north: [[4, 3]]}
"""


def _check_levels(report, count: int) -> None:
    """Every level written meets every criterion by the reference, and verify passes on it."""
    assert report.error is None and len(report.boards) == count
    for written in report.boards:
        board = load_board(written.path)
        level = parse_board(explicit(board))
        answer = solve(level)
        assert answer.win and answer.moves == written.expect["win_moves"] >= 12
        assert not beeline_wins(level)
        assert level.key is not None and level.gates and key_needed(level)
        assert level.traps and traps_tempting(level)
        assert written.metrics is not None and written.metrics.greedy_win <= 0.75
        assert written.expect["no_beeline"] is True and written.expect["hints"] == written.metrics.hints
        assert "Criteria met:" in written.path.read_text()
    checked = verify_paths([str(b.path) for b in report.boards])
    assert checked.checks and not checked.failed and not checked.invalid


@pytest.mark.slow
def test_a_generated_level_meets_every_criterion_by_the_reference_and_verify(tmp_path):
    like = write(tmp_path, LIKE, "like.yaml")
    _check_levels(generate(request_from_options(like=like, out=tmp_path / "levels", count=1, timeout=120)), 1)


@pytest.mark.slow
def test_levels_like_a_shipped_board_meet_every_criterion(tmp_path):
    like = Path(__file__).resolve().parent.parent / "boards" / "classic" / "everything-at-once.yaml"
    _check_levels(generate(request_from_options(like=like, out=tmp_path / "levels", count=2, timeout=300)), 2)


@pytest.mark.slow
def test_rules_and_size_write_the_same_level_for_the_same_seed(tmp_path):
    texts = []
    for out in ("one", "two"):
        report = generate(request_from_options(rules="mummy-maze-classic", size="5x5", out=tmp_path / out, count=1,
                                               seed=3, timeout=120))
        board = load_board(report.boards[0].path)
        assert report.error is None and {"explorer", "mummy"} <= set(board.pieces)
        assert not beeline_wins(parse_board(explicit(board)))
        texts.append(report.boards[0].path.read_text())
    assert texts[0] == texts[1]


@pytest.mark.slow
def test_two_jobs_write_levels_apart_that_meet_every_criterion(tmp_path):
    like = write(tmp_path, LIKE, "like.yaml")
    report = generate(request_from_options(like=like, out=tmp_path / "levels", count=2, jobs=2, timeout=120))
    _check_levels(report, 2)
    first, second = report.boards
    assert distance(first.layout, second.layout) >= report.apart > 0
    assert {b.path.name for b in report.boards} == {"like-6x6-s1-1.yaml", "like-6x6-s1-2.yaml"}
    assert multiprocessing.active_children() == []


def test_options_the_climb_does_not_serve_are_refused(tmp_path):
    like = write(tmp_path, LIKE, "like.yaml")
    with pytest.raises(QueryError, match="--symmetry"):
        generate(request_from_options(like=like, out=tmp_path / "x", symmetry="mirror"))
    with pytest.raises(QueryError, match="--require"):
        generate(request_from_options(like=like, out=tmp_path / "x", require="survive"))


# - The difficulty metrics without a step limit ---

def _after(level, state) -> dict:
    """The distinct positions the explorer's moves lead to, with their outcomes."""
    return dict(turn(level, state, move) for move in ("north", "east", "south", "west", "nowhere"))


def _random_win(level, choices=_after) -> float:
    """The limit of the random walker's win probability (uniform over the distinct positions
    its moves lead to; no other side chooses), by value iteration over the reference's states;
    ``choices``: the positions it picks from in a state (all of them)."""
    index, states, successors = {level.start: 0}, [level.start], []
    while len(successors) < len(states):
        state = states[len(successors)]
        after = choices(level, state)
        row = []
        for position, outcome in after.items():
            if outcome == ON and position not in index:
                index[position] = len(states)
                states.append(position)
            row.append(1.0 if outcome == WON else index[position] if outcome == ON else 0.0)
        successors.append(row)
    value = [0.0] * len(states)
    for _ in range(100_000):
        new = [sum(value[t] if isinstance(t, int) else t for t in row) / len(row) for row in successors]
        change, value = max(abs(a - b) for a, b in zip(new, value)), new
        if change <= 1e-13:
            break
    return value[0]


@pytest.mark.parametrize("seed", [1, pytest.param(3, marks=pytest.mark.slow), 5, 6, 9, 12])      # random boards that can be won
def test_random_win_is_the_limit_of_the_random_walkers_chance(tmp_path, seed):
    path = write(tmp_path, random_classic_board(seed))
    level = parse_board(path.read_text())
    answer = solve(level)
    assert answer.win
    board = load_board(path)
    metrics = measure_metrics(board, "explorer", initial_position(board), None, answer.moves)
    assert metrics.plies == answer.moves
    assert metrics.random_win == pytest.approx(_random_win(level), abs=1e-9)


# - The careful greedy player: round the traps, through the gate as it stands, by the key ---

def greedy_distances(level) -> dict:
    """(cell, gate open) -> the fewest steps to an exit: never onto a trap, through the gate only
    while it is open, each step onto the key flipping it (docs/generate.md, "greedy_win")."""
    cells = [(x, y) for x in range(1, level.width + 1) for y in range(1, level.height + 1)]
    into: dict = {}
    for cell in cells:
        for gate_open in (False, True):
            for dx, dy in (DELTA[m] for m in STEPS):
                to = (cell[0] + dx, cell[1] + dy)
                if to not in level.traps and not blocked(level, cell, to, gate_open):
                    into.setdefault((to, gate_open != (to == level.key)), []).append((cell, gate_open))
    dist = {(c, g): 0 for c in level.exits for g in (False, True)}
    queue = deque(dist)
    while queue:
        here = queue.popleft()
        for before in into.get(here, ()):
            if before not in dist:
                dist[before] = dist[here] + 1
                queue.append(before)
    return dist


def careful_choices(level, state, distance: dict) -> dict:
    """The positions the careful greedy player (1 ply of danger) picks from: those where he is
    alive and not doomed to die on his next move, nearest an exit (all positions, nearest, when
    none is safe)."""
    after = _after(level, state)

    def safe(position, outcome):
        return outcome != DEAD and not (outcome == ON and all(o == DEAD for o in _after(level, position).values()))
    pool = {p: o for p, o in after.items() if safe(p, o)} or after
    near = {p: distance.get((p.explorer, p.gate_open), FAR) for p in pool}
    return {p: pool[p] for p in pool if near[p] == min(near.values())}


def _library_distances(board) -> dict:
    """gridsolve's greedy distances (gridsolve/analysis/walks.py) as the reference writes them."""
    walks = Walks(board)
    found = walks.greedy_distances()
    return {((x, y), bool(g)): int(found[g, walks.cell(x, y)]) for g in (0, 1)
            for x in range(1, board.width + 1) for y in range(1, board.height + 1) if found[g, walks.cell(x, y)] < FAR}


def reference_hints(level) -> int:
    """The fewest moves of a win that the careful greedy player would not make (Dijkstra over
    the reference's states: a move he would make costs 0, any other 1)."""
    distance = greedy_distances(level)
    best, heap, count = {level.start: 0}, [(0, 0, level.start)], 1
    while heap:
        cost, _, state = heapq.heappop(heap)
        if state == WON:
            return cost
        if cost > best[state]:
            continue
        chosen = careful_choices(level, state, distance)
        for position, outcome in _after(level, state).items():
            step, target = cost + (position not in chosen), WON if outcome == WON else position
            if outcome != DEAD and step < best.get(target, FAR):
                best[target] = step
                heapq.heappush(heap, (step, count, target))
                count += 1
    raise AssertionError("the level cannot be won")


def test_a_trap_on_the_straight_way_no_longer_stops_the_careful_greedy_player(tmp_path):
    # E (1,1), trap (2,1), exit (3,1) on a 3x2 board: the walls-only distance made him stand
    # beside the trap for ever (east is death, north is farther); round the trap he wins
    board = load_board(write(tmp_path, """
rules: mummy-maze-classic
size: [3, 2]
pieces: {explorer: [1, 1]}
marks: {exit: [[3, 1]], trap: [[2, 1]]}
"""))
    metrics = measure_metrics(board, "explorer", initial_position(board))
    assert (metrics.greedy_win, metrics.hints, metrics.beeline_wins, metrics.difficulty) == (1.0, 0, True, "easy")


def test_the_careful_greedy_player_goes_for_the_key_when_the_gate_blocks(tmp_path):
    # E (1,2); the exit (3,1) lies behind the gate between (2,1) and (3,1) and a wall north of
    # it; the key on (1,1): south onto the key opens the gate, then east twice.  Every first
    # move is as near by the walls alone; by the key only south is nearest.
    board = load_board(write(tmp_path, """
rules: mummy-maze-classic
size: [3, 2]
walls: {north: [[3, 1]]}
pieces: {explorer: [1, 2]}
marks: {exit: [[3, 1]], key: [[1, 1]]}
gates: {east: [[2, 1]]}
"""))
    level = parse_board(explicit(board))
    assert greedy_distances(level)[((1, 2), False)] == 3
    assert _library_distances(board) == greedy_distances(level)
    metrics = measure_metrics(board, "explorer", initial_position(board))
    assert (metrics.plies, metrics.greedy_win, metrics.hints) == (3, 1.0, 0)


# random boards that can be won; the last six need 1 to 5 hints by the reference (gates and traps among them)
@pytest.mark.parametrize("seed", [1, 6, 9, 17, 15, 22, 86, 131, 158, 173])
def test_the_careful_greedy_player_and_hints_match_the_reference(tmp_path, seed):
    path = write(tmp_path, random_classic_board(seed))
    level = parse_board(path.read_text())
    board = load_board(path)
    metrics = measure_metrics(board, "explorer", initial_position(board))
    distance = greedy_distances(level)
    assert _library_distances(board) == distance
    assert metrics.greedy_win == pytest.approx(
        _random_win(level, lambda lv, state: careful_choices(lv, state, distance)), abs=1e-9)
    assert metrics.hints == reference_hints(level)


