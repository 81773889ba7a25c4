"""``gridsolve generate`` for classic Mummy Maze (issue 31, item 6): the good-level criteria
(gridsolve/generate/scriptedlevel.py) checked against the independent reference
(tests/classic_reference.py) on hand-made and random boards, and generated levels checked
criterion by criterion with the reference alone, verified, and the same for the same seed."""
from __future__ import annotations

from collections import deque
from pathlib import Path

import pytest
import yaml

from classic_boards import random_classic_board
from classic_reference import DELTA, ON, WON, State, blocked, parse_board, solve, turn

from gridsolve.errors import QueryError
from gridsolve.generate.generate import generate, request_from_options
from gridsolve.generate.scriptedlevel import judge_board
from gridsolve.language.loader import load_board
from gridsolve.generate.scriptedlevel import LevelTables
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
        assert "Criteria met:" in written.path.read_text()
    checked = verify_paths([str(b.path) for b in report.boards])
    assert checked.checks and not checked.failed and not checked.invalid


def test_a_generated_level_meets_every_criterion_by_the_reference_and_verify(tmp_path):
    like = write(tmp_path, LIKE, "like.yaml")
    _check_levels(generate(request_from_options(like=like, out=tmp_path / "levels", count=1, timeout=120)), 1)


@pytest.mark.slow
def test_levels_like_a_shipped_board_meet_every_criterion(tmp_path):
    like = Path(__file__).resolve().parent.parent / "boards" / "classic" / "everything-at-once.yaml"
    _check_levels(generate(request_from_options(like=like, out=tmp_path / "levels", count=2, timeout=300)), 2)


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


def test_options_the_climb_does_not_serve_are_refused(tmp_path):
    like = write(tmp_path, LIKE, "like.yaml")
    with pytest.raises(QueryError, match="--jobs"):
        generate(request_from_options(like=like, out=tmp_path / "x", jobs=2))
    with pytest.raises(QueryError, match="--require"):
        generate(request_from_options(like=like, out=tmp_path / "x", require="survive"))
