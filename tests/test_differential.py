"""The clingo solver against the independent explicit-state search of ``tests/reference.py``.

Random small boards (``tests/randomboards.py``, written as YAML and loaded with the real
loader) cover every rule option; on each, a few random queries (placements, side to move, step,
horizon, role, query kind) must get the same answer from ``gridsolve.solver.solve`` as from the
reference, field by field and move by move, and ``gridsolve.explore.examine`` must list the same
moves and successors.  A failure names the seed and prints the board.  Run one seed:
``python -m pytest tests/test_differential.py -k 'seed-17'``; print its board:
``python tests/randomboards.py 17``.
"""
from __future__ import annotations

import random
import textwrap

import pytest

from gridsolve.explore import examine
from gridsolve.loader import load_board
from gridsolve.position import Position, make_query
from gridsolve.solver import solve

import reference
from randomboards import random_board

N_BOARDS = 100
QUERIES_PER_BOARD = 3


def _load(tmp_path, text: str, name: str = "board.yaml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return load_board(path)


def random_queries(seed: int, rb, board) -> list[dict]:
    """Deterministic queries on a random board: placements, turn, step, horizon, role, kind."""
    rng = random.Random(1_000_003 * seed + 17)
    rules = board.rules
    exits = sorted(board.marks["exit"])
    queries = []
    for _ in range(QUERIES_PER_BOARD):
        at = []
        placed = {}
        for role in rules.roles:
            r = rng.random()
            if r < 0.5:
                cell = rng.choice(rb.free)
            elif r < 0.54 and placed:
                cell = next(iter(placed.values()))     # onto the other piece: a capture
            elif r < 0.58:
                cell = rng.choice(exits)
            elif r < 0.7 and rb.box:
                cell = rb.box                           # walled in: maybe no move at all
            else:
                continue
            placed[role] = cell
            at.append(f"{role}={cell[0]},{cell[1]}")
        queries.append({
            "role": rng.choice(rules.roles),
            "kind": rng.choice(["value", "value", "win", "survive"]),
            "at": tuple(at),
            "turn": rng.choice([None, None, *rules.roles]),
            "step": None if rng.random() < 0.5 else rng.randint(rules.first_step, rules.last_step),
            "horizon": None if rng.random() < 0.6 else rng.randint(0, 6),
        })
    return queries


def _got(answer) -> dict:
    return {
        "value": answer.value, "plies": answer.plies, "holds": answer.holds, "win": answer.win,
        "win_plies": answer.win_plies, "survives": answer.survives, "doom_plies": answer.doom_plies,
        "remaining": answer.remaining,
        "moves": {m.move: (m.value, m.plies, m.win, m.survives) for m in answer.moves},
    }


def _expected(ref: dict) -> dict:
    return {key: ref[key] for key in ("value", "plies", "holds", "win", "win_plies", "survives",
                                      "doom_plies", "remaining", "moves")}


def _diff(got: dict, want: dict) -> str:
    lines = []
    for key in want:
        if key == "moves":
            for move in sorted(set(got[key]) | set(want[key])):
                g, w = got[key].get(move), want[key].get(move)
                if g != w:
                    lines.append(f"  move {move!r}: solver {g}, reference {w}")
        elif got[key] != want[key]:
            lines.append(f"  {key}: solver {got[key]!r}, reference {want[key]!r}")
    return "\n".join(lines)


def _explored(board, position):
    end, steps = examine(board, position)
    return end, {s.move: s.position for s in steps}


def check_board(seed: int, tmp_path) -> list[str]:
    """Every disagreement on the board of ``seed`` (empty: all agree)."""
    rb = random_board(seed)
    board = _load(tmp_path, rb.text, f"random-{seed}.yaml")
    problems = []
    # the loader read the layout as drawn
    layout = {"size": (board.width, board.height), "north": set(board.north), "east": set(board.east),
              "solid": set(board.solid), "pieces": dict(board.pieces),
              "marks": {k: set(v) for k, v in board.marks.items()}}
    meant = {"size": (rb.width, rb.height), "north": rb.north, "east": rb.east, "solid": rb.solid,
             "pieces": rb.pieces, "marks": rb.marks}
    for key in layout:
        if layout[key] != meant[key]:
            problems.append(f"loader: {key} is {layout[key]}, the generator drew {meant[key]}")
    rng = random.Random(seed)
    for i, q in enumerate(random_queries(seed, rb, board)):
        query = make_query(board, q["role"], q["kind"], at=q["at"], turn=q["turn"], step=q["step"],
                           horizon=q["horizon"])
        pos = query.position
        label = (f"query {i}: role={q['role']} kind={q['kind']} at={list(q['at'])} turn={q['turn']} "
                 f"step={q['step']} horizon={q['horizon']} -> position {pos}")
        got = _got(solve(board, query))
        want = _expected(reference.reference_answer(board, q["role"], q["kind"], pos, q["horizon"]))
        if got != want:
            problems.append(f"{label}\n{_diff(got, want)}")
        # the rules as clingo computes them, at the position and at a few successors
        legal = reference.legal_moves(board, pos)
        probes = [pos] + rng.sample(sorted(legal.values(), key=str), min(2, len(legal)))
        for probe in probes:
            end, steps = _explored(board, probe)
            ref_end, ref_steps = reference.end_of(board, probe), reference.legal_moves(board, probe)
            if end != ref_end:
                problems.append(f"{label}\n  examine {probe}: end {end!r}, reference {ref_end!r}")
            if steps != ref_steps:
                only_s = sorted(set(steps.items()) - set(ref_steps.items()), key=str)
                only_r = sorted(set(ref_steps.items()) - set(steps.items()), key=str)
                problems.append(f"{label}\n  examine {probe}: moves only from examine {only_s}, "
                                f"only from the reference {only_r}")
    return problems


def _report(seed: int, problems: list[str]) -> str:
    board = random_board(seed).text
    return (f"seed {seed}: the solver and the reference disagree\n" + "\n".join(problems)
            + f"\n--- board (python tests/randomboards.py {seed}) ---\n{board}")


@pytest.mark.parametrize("seed", range(N_BOARDS), ids=lambda s: f"seed-{s}")
def test_solver_agrees_with_reference(seed, tmp_path):
    problems = check_board(seed, tmp_path)
    assert not problems, _report(seed, problems)


def test_random_boards_are_deterministic():
    assert random_board(5).text == random_board(5).text
    assert random_board(5).text != random_board(6).text


def test_random_boards_cover_every_rule_option(tmp_path):
    """The generated boards use every option of the rule format, in both values."""
    seen = set()
    for seed in range(N_BOARDS):
        board = _load(tmp_path, random_board(seed).text)
        rules = board.rules
        seen.add(("format", "map" if "map:" in random_board(seed).text else "size"))
        seen.add(("solid", bool(board.solid)))
        seen.add(("order", rules.ends[0].name))
        seen.add(("ends", len(rules.ends)))
        seen.add(("first", rules.first_step))
        seen.add(("turns", rules.turns[0][0] == rules.roles[0]))
        for role, move in rules.moves.items():
            seen |= {("steps", move.steps), ("idle", move.idle), ("first_step_real", move.first_step_real),
                     ("blocked", move.blocked), ("end_differs", move.end_differs_from_start),
                     ("may_not_end_on", move.may_not_end_on == (role,),
                      bool(move.may_not_end_on))}
        for end in rules.ends:
            seen.add(("timeout equals an end score", end.scores["explorer"] == rules.timeout["explorer"]))
            seen.add(("loss_for", end.loss_for))
    wanted = {("format", "map"), ("format", "size"), ("solid", True), ("solid", False),
              ("order", "captured"), ("order", "escaped"), ("ends", 2), ("ends", 3), ("first", 0),
              ("first", 1), ("turns", True), ("turns", False), ("steps", 1), ("steps", 2), ("steps", 3),
              ("idle", True), ("idle", False), ("first_step_real", True), ("first_step_real", False),
              ("blocked", "illegal"), ("blocked", "stay"), ("end_differs", True), ("end_differs", False),
              ("may_not_end_on", False, True), ("may_not_end_on", True, True),
              ("may_not_end_on", False, False), ("timeout equals an end score", True),
              ("loss_for", ()), ("loss_for", ("explorer",)), ("loss_for", ("mummy",)),
              ("loss_for", ("explorer", "mummy"))}
    assert wanted <= seen, sorted(wanted - seen, key=str)


# --- the reference itself, on boards small enough to check by hand -------------------------

CORRIDOR = """
name: corridor
rules: {use: mummy-maze-2007, steps: {first: 1, last: 10}}
size: [3, 1]
pieces: {explorer: [2, 1], mummy: [1, 1]}
marks: {exit: [[3, 1]]}
"""


def _position(board, turn, step=None, **cells):
    pieces = dict(board.pieces)
    pieces.update(cells)
    side = board.rules.side_of(turn)
    return Position(tuple((r, pieces[r]) for r in board.rules.roles), side,
                    board.rules.first_step + side if step is None else step)


def _ref(board, role, kind, position, horizon=None):
    return reference.reference_answer(board, role, kind, position, horizon)


def test_reference_explorer_one_step_from_the_exit_wins_in_one(tmp_path):
    board = _load(tmp_path, textwrap.dedent(CORRIDOR))
    pos = _position(board, "explorer")
    ans = _ref(board, "explorer", "win", pos)
    assert (ans["value"], ans["value_plies"], ans["win"], ans["win_plies"]) == (100, 1, True, 1)
    assert ans["holds"] and ans["plies"] == 1
    # east escapes at once; standing still lets the mummy (two steps, first real, not back
    # on its start) catch the explorer: west steps onto the mummy, a capture
    assert ans["moves"]["east"] == (100, 0, True, True)
    assert ans["moves"]["west"] == (0, 0, False, False)
    assert ans["moves"]["nowhere"] == (0, 1, False, False)
    assert set(ans["moves"]) == {"east", "west", "nowhere"}
    assert reference.end_of(board, pos) is None
    assert set(reference.legal_moves(board, pos)) == {"east", "west", "nowhere"}


def test_reference_mummy_adjacent_and_to_move_captures_in_one(tmp_path):
    board = _load(tmp_path, textwrap.dedent(CORRIDOR))
    pos = _position(board, "mummy", explorer=(2, 1), mummy=(1, 1))
    ans = _ref(board, "mummy", "win", pos)
    assert (ans["value"], ans["win"], ans["win_plies"], ans["survives"]) == (100, True, 1, True)
    explorer = _ref(board, "explorer", "survive", pos)
    assert (explorer["value"], explorer["value_plies"], explorer["survives"], explorer["doom_plies"]) \
        == (0, 1, False, 1)
    # the mummy's moves from (1,1): the first step must be real and only east is open;
    # "east west" would end on its start cell, which these rules forbid
    moves = reference.legal_moves(board, pos)
    assert set(moves) == {"east nowhere", "east east"}
    assert moves["east nowhere"].pieces == (("explorer", (2, 1)), ("mummy", (2, 1)))
    assert moves["east nowhere"].side == 0 and moves["east nowhere"].step == pos.step + 1
    assert reference.end_of(board, moves["east nowhere"]) == "captured"
    assert reference.end_of(board, moves["east east"]) is None


def test_reference_draw_by_timeout_has_no_plies(tmp_path):
    # a 2x1 board with a wall between the cells: nobody can reach anybody, nor the exit
    board = _load(tmp_path, textwrap.dedent("""
        rules: {use: mummy-maze-gdl, steps: {first: 0, last: 6}}
        size: [3, 1]
        walls: {east: [[1, 1], [2, 1]]}
        pieces: {explorer: [1, 1], mummy: [2, 1]}
        marks: {exit: [[3, 1]]}
    """))
    pos = _position(board, "explorer")
    ans = _ref(board, "explorer", "value", pos)
    assert (ans["value"], ans["plies"], ans["win"], ans["win_plies"], ans["survives"], ans["doom_plies"]) \
        == (50, None, False, None, True, None)
    assert ans["remaining"] == 6
    # blocked steps stay put under these rules: every direction is a legal (null) move
    assert set(ans["moves"]) == {"north", "south", "east", "west", "nowhere"}
    assert all(m == (50, None, False, True) for m in ans["moves"].values())


def test_reference_no_legal_move_is_scored_as_timeout(tmp_path):
    # the explorer may not stand still and is walled in: no move, so no capture either
    board = _load(tmp_path, textwrap.dedent("""
        rules:
          use: mummy-maze-2007
          moves: {explorer: {idle: false}}
          steps: {first: 1, last: 9}
          timeout: {explorer: 30, mummy: 70}
        size: [3, 1]
        walls: {east: [[1, 1]]}
        pieces: {explorer: [1, 1], mummy: [3, 1]}
        marks: {exit: [[2, 1]]}
    """))
    pos = _position(board, "explorer")
    assert reference.legal_moves(board, pos) == {}
    ans = _ref(board, "explorer", "value", pos)
    assert (ans["value"], ans["plies"], ans["moves"]) == (30, None, {})
    assert ans["survives"] and not ans["win"]


def test_reference_end_order_decides(tmp_path):
    """Capture on the exit: the first end in the list decides."""
    board = _load(tmp_path, textwrap.dedent(CORRIDOR))
    pos = _position(board, "explorer", explorer=(3, 1), mummy=(3, 1))
    assert reference.end_of(board, pos) == "captured"
    ans = _ref(board, "explorer", "value", pos)
    assert (ans["value"], ans["plies"], ans["moves"]) == (0, 0, {})


def test_reference_on_the_corridor_matches_the_solver(tmp_path):
    board = _load(tmp_path, textwrap.dedent(CORRIDOR))
    for turn in ("explorer", "mummy"):
        for role in ("explorer", "mummy"):
            query = make_query(board, role, "value", turn=turn)
            assert _got(solve(board, query)) == _expected(_ref(board, role, "value", query.position))
