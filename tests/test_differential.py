"""The clingo solver against the independent explicit-state search of ``reference/game.py``.

Random small boards (``tests/randomboards.py``, written as YAML and loaded with the real
loader) cover every rule option; on each, a few random queries (placements, side to move, step,
horizon, role, query kind) must get the same answer from ``gridsolve.solve.dispatch.dispatcher.solve`` as from the
reference, field by field and move by move, and ``gridsolve.solve.program.explore.examine`` must list the same
moves and successors.  A second set of tiny boards with two or three roles
(``random_mechanism_board``) draws the newer mechanisms: simultaneous moves and teams,
collisions, collectibles and score tables, frozen pieces, bumps and lost turns, was_on, nearer
and conditional timeouts; their queries sometimes start a few random plies in.  A failure names
the seed and prints the board.  Run one seed: ``python -m pytest tests/test_differential.py -k
'seed-17'`` (or ``'mech-17'``); print its board: ``python tests/randomboards.py 17`` (or
``17 mech``).  Run with ``-n 0``, the boards are checked in two processes (see ``WORKERS``);
in pytest-xdist's workers (the default ``-n auto``), in the worker, xdist being the parallelism.
"""
from __future__ import annotations

import multiprocessing
import os
import random
import tempfile
import textwrap
import traceback
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from gridsolve.solve.program.explore import examine
from gridsolve.language.loader import load_board
from gridsolve.language.position import Position, Query, make_query
from gridsolve.solve.dispatch.dispatcher import solve

from reference import game as reference
from conftest import tiered
from randomboards import random_board, random_mechanism_board

N_BOARDS = 100
QUERIES_PER_BOARD = 3
QUICK = 5                 # boards of each kind in the quick tier (the rest run in the slow tier)
N_MECH_BOARDS = 50        # boards with the newer mechanisms (random_mechanism_board)
# the board checks run in this many processes (GRIDSOLVE_TEST_WORKERS=1: in the test process);
# in an xdist worker in the test process: a pool there would start its processes (each importing
# gridsolve) beside xdist's workers, and each xdist worker's pool would check the module's
# boards the other worker runs too
WORKERS = int(os.environ.get("GRIDSOLVE_TEST_WORKERS",
                             1 if "PYTEST_XDIST_WORKER" in os.environ else min(2, os.cpu_count() or 1)))


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


VALUE_FIELDS = ("value", "win", "win_plies")


def _comparable(got: dict, want: dict, kind: str) -> tuple[dict, dict]:
    """``got`` and ``want`` with the fields left out that the solver may leave open: a survive
    question answered without values (value None) has no value, win or win plies, nor per-move
    values, plies or wins.  Anywhere else a None stays in and must match the reference."""
    if not (kind == "survive" and got["value"] is None):
        return got, want
    got, want = dict(got), dict(want)
    for key in VALUE_FIELDS:
        if got[key] is None:
            del got[key], want[key]
    moves_g, moves_w = {}, {}
    for move in set(got["moves"]) | set(want["moves"]):
        g, w = got["moves"].get(move), want["moves"].get(move)
        if g is not None and w is not None:
            keep = [i for i in range(4) if g[i] is not None or i == 3]
            g, w = tuple(g[i] for i in keep), tuple(w[i] for i in keep)
        moves_g[move], moves_w[move] = g, w
    got["moves"], want["moves"] = moves_g, moves_w
    return got, want


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


def _normal(board, position) -> tuple:
    """A position with the mechanisms' state spelled out (items left, lost turns, was_on
    pairs, the state a mechanism keeps with it), so that positions written with and without the
    default fields compare equal."""
    items = position.items_left(board)
    return (position.pieces, position.side, position.step,
            tuple(sorted((name, frozenset(cells)) for name, cells in items.items())),
            tuple(position.lost_turns(board)), frozenset(position.was), tuple(position.plugins))


def _explored(board, position):
    end, steps = examine(board, position)
    return end, {s.move: _normal(board, s.position) for s in steps}


def _ref_moves(board, position):
    return {name: _normal(board, p) for name, p in reference.legal_moves(board, position).items()}


def _layout_problems(board, rb) -> list[str]:
    """The loader read the layout as the generator drew it."""
    problems = []
    layout = {"size": (board.width, board.height), "north": set(board.north), "east": set(board.east),
              "solid": set(board.solid), "pieces": dict(board.pieces),
              "marks": {k: set(v) for k, v in board.marks.items()}}
    meant = {"size": (rb.width, rb.height), "north": rb.north, "east": rb.east, "solid": rb.solid,
             "pieces": rb.pieces, "marks": {k: set(v) for k, v in rb.marks.items()}}
    for key in layout:
        if layout[key] != meant[key]:
            problems.append(f"loader: {key} is {layout[key]}, the generator drew {meant[key]}")
    return problems


def _query_problems(board, query, label: str, rng: random.Random, successors: int) -> list[str]:
    """The solver's answer against the reference's, and the rules as clingo computes them
    (gridsolve.solve.program.explore) at the query position and at ``successors`` of its successors."""
    problems = []
    pos = query.position
    answer = solve(board, query)
    got = _got(answer)
    want = _expected(reference.reference_answer(board, query.role, query.kind, pos, query.horizon))
    if query.kind != "survive" and got["value"] is None:
        problems.append(f"{label}\n  the solver gives no value to a {query.kind} question")
    got, want = _comparable(got, want, query.kind)
    if got != want:
        problems.append(f"{label}\n{_diff(got, want)}")
    legal = reference.legal_moves(board, pos)
    probes = [pos] + rng.sample(sorted(legal.values(), key=str), min(successors, len(legal)))
    for probe in probes:
        end, steps = _explored(board, probe)
        ref_end, ref_steps = reference.end_of(board, probe), _ref_moves(board, probe)
        if end != ref_end:
            problems.append(f"{label}\n  examine {probe}: end {end!r}, reference {ref_end!r}")
        if steps != ref_steps:
            only_s = sorted(set(steps.items()) - set(ref_steps.items()), key=str)
            only_r = sorted(set(ref_steps.items()) - set(steps.items()), key=str)
            problems.append(f"{label}\n  examine {probe}: moves only from examine {only_s}, "
                            f"only from the reference {only_r}")
    return problems


def plain_queries(seed: int, rb, board) -> list[tuple[str, Query]]:
    """The queries of ``random_queries`` with their labels."""
    out = []
    for i, q in enumerate(random_queries(seed, rb, board)):
        query = make_query(board, q["role"], q["kind"], at=q["at"], turn=q["turn"], step=q["step"],
                           horizon=q["horizon"])
        out.append((f"query {i}: role={q['role']} kind={q['kind']} at={list(q['at'])} turn={q['turn']} "
                    f"step={q['step']} horizon={q['horizon']} -> position {query.position}", query))
    return out


def _check(seed: int, tmp_path, rb, name: str, queries) -> list[str]:
    board = _load(tmp_path, rb.text, name)
    problems = _layout_problems(board, rb)
    rng = random.Random(seed)
    for label, query in queries(seed, rb, board):
        problems += _query_problems(board, query, label, rng, 2)
    return problems


def check_board(seed: int, tmp_path) -> list[str]:
    """Every disagreement on the board of ``random_board(seed)`` (empty: all agree)."""
    return _check(seed, tmp_path, random_board(seed), f"random-{seed}.yaml", plain_queries)


def mechanism_queries(seed: int, rb, board) -> list[tuple[str, Query]]:
    """Deterministic queries on a board with the newer mechanisms: placements (also onto marked
    cells and onto other pieces), turn, step, horizon, role and kind as on the other boards,
    and sometimes a few random plies played from there (so that the query position has items
    taken, lost turns or was_on pairs)."""
    rng = random.Random(1_000_033 * seed + 29)
    rules = board.rules
    marked = sorted({c for cells in board.marks.values() for c in cells})
    out = []
    for i in range(QUERIES_PER_BOARD):
        at, placed = [], []
        for role in rules.roles:
            r = rng.random()
            if r < 0.45:
                cell = rng.choice(rb.free)
            elif r < 0.55 and placed:
                cell = rng.choice(placed)
            elif r < 0.75:
                cell = rng.choice(marked)
            else:
                continue
            placed.append(cell)
            at.append(f"{role}={cell[0]},{cell[1]}")
        role = rng.choice(rules.roles)
        kind = rng.choice(["value", "value", "win", "survive"])
        turn = rng.choice([None, None, *rules.roles])
        step = None if rng.random() < 0.5 else rng.randint(rules.first_step, rules.last_step)
        horizon = None if rng.random() < 0.6 else rng.randint(0, 5)
        query = make_query(board, role, kind, at=tuple(at), turn=turn, step=step, horizon=horizon)
        label = (f"query {i}: role={role} kind={kind} at={at} turn={turn} step={step} "
                 f"horizon={horizon}")
        position, played = query.position, []
        for _ in range(rng.choice([0, 0, 1, 2, 3])):
            legal = reference.legal_moves(board, position)
            if not legal or position.step >= rules.last_step - 1:
                break
            move = rng.choice(sorted(legal))
            played.append(move)
            position = legal[move]
        if played:
            label += f", then {played}"
            query = Query(role, kind, position, horizon)
        out.append((f"{label} -> position {position}", query))
    return out


def check_mechanism_board(seed: int, tmp_path) -> list[str]:
    """Every disagreement on the board of ``random_mechanism_board(seed)``."""
    return _check(seed, tmp_path, random_mechanism_board(seed), f"mechanisms-{seed}.yaml", mechanism_queries)


def _report(seed: int, problems: list[str], mechanisms: bool = False) -> str:
    board = (random_mechanism_board if mechanisms else random_board)(seed).text
    how = f"{seed} mech" if mechanisms else f"{seed}"
    return (f"seed {seed}: the solver and the reference disagree\n" + "\n".join(problems)
            + f"\n--- board (python tests/randomboards.py {how}) ---\n{board}")


CHECKS = {"plain": check_board, "mech": check_mechanism_board}


def run_check(kind: str, seed: int) -> list[str]:
    """One board's check in a fresh temporary folder; an exception is reported as a problem
    (so that a worker process never has to send one back)."""
    try:
        with tempfile.TemporaryDirectory() as tmp:
            return CHECKS[kind](seed, Path(tmp))
    except Exception:                                   # noqa: BLE001 - reported as a failure
        return [f"the check raised:\n{traceback.format_exc()}"]


@pytest.fixture(scope="module")
def checks(request):
    """{(kind, seed): future} of the board checks this session runs, started at once in
    WORKERS processes (the tests then wait for their own); empty with WORKERS = 1."""
    wanted = [(TEST_KIND[item.originalname], item.callspec.params["seed"])
              for item in request.session.items
              if getattr(item, "module", None) is request.module and getattr(item, "originalname", None) in TEST_KIND]
    if WORKERS <= 1 or len(wanted) < 2:
        yield {}
        return
    with ProcessPoolExecutor(WORKERS, mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = {job: pool.submit(run_check, *job) for job in wanted}
        try:
            yield futures
        finally:
            for future in futures.values():
                future.cancel()


def _problems(checks: dict, kind: str, seed: int) -> list[str]:
    future = checks.get((kind, seed))
    return future.result() if future is not None else run_check(kind, seed)


@pytest.mark.parametrize("seed", tiered(range(N_BOARDS), QUICK), ids=lambda s: f"seed-{s}")
def test_solver_agrees_with_reference(seed, checks):
    problems = _problems(checks, "plain", seed)
    assert not problems, _report(seed, problems)


@pytest.mark.parametrize("seed", tiered(range(N_MECH_BOARDS), QUICK), ids=lambda s: f"mech-{s}")
def test_solver_agrees_with_reference_on_mechanisms(seed, checks):
    problems = _problems(checks, "mech", seed)
    assert not problems, _report(seed, problems, mechanisms=True)


TEST_KIND = {test_solver_agrees_with_reference.__name__: "plain",
             test_solver_agrees_with_reference_on_mechanisms.__name__: "mech"}


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


def _mechanisms_seen(board, text: str) -> set:
    rules = board.rules
    seen = {("roles", len(rules.roles)), ("format", "map" if "map:" in text else "size"),
            ("teams given", "teams:" in text), ("collisions", rules.collisions),
            ("collectibles", len(rules.collect)), ("tables", bool(rules.tables)),
            ("conditional timeout", bool(rules.timeout_when))}
    for t, entry in enumerate(rules.turns):
        seen.add(("entry size", len(entry)))
        for role in rules.roles:
            if rules.split_turn(t, role):
                seen.add(("split entry", True))
            if len(entry) > 1 and rules.own_turn(t, role):
                seen.add(("joint entry of one team", True))
    for role, move in rules.moves.items():
        seen |= {("steps", move.steps), ("frozen_on", bool(move.frozen_on)), ("bump", bool(move.bump_on)),
                 ("first_step_real", move.first_step_real), ("idle", move.idle), ("blocked", move.blocked),
                 ("end_differs", move.end_differs_from_start), ("may_not_end_on", len(move.may_not_end_on))}
        if move.bump_on:
            seen.add(("lose_turns", move.lose_turns))
    conditions = [e.when for e in rules.ends] + [t.when for t in rules.timeout_when]
    for when in conditions:
        seen |= {("same_cell", len(g)) for g in when.same_cell}
        seen |= {("reaches", True) for _ in when.reaches} | {("was_on", m) for _, m in when.was_on}
        seen |= {("collected", "all" if n < 0 else "some") for _, n in when.collected}
        seen |= {("nearer", True) for _ in when.nearer}
    scores = [s for e in rules.ends for s in e.scores.values()]
    seen.add(("table score in an end", any(isinstance(s, str) for s in scores)))
    timeouts = list(rules.timeout.values()) + [s for t in rules.timeout_when for s in t.scores.values()]
    seen.add(("table score at timeout", any(isinstance(s, str) for s in timeouts)))
    return seen


def test_mechanism_boards_cover_every_mechanism(tmp_path):
    """The boards of random_mechanism_board use every newer mechanism (and some use none)."""
    seen, plain = set(), 0
    for seed in range(N_MECH_BOARDS):
        text = random_mechanism_board(seed).text
        board = _load(tmp_path, text)
        found = _mechanisms_seen(board, text)
        seen |= found
        rules = board.rules
        plain += (rules.collisions == "allowed" and not rules.collect and not rules.timeout_when
                  and all(len(e) == 1 for e in rules.turns)
                  and not any(m.frozen_on or m.bump_on for m in rules.moves.values()))
    wanted = {("roles", 2), ("roles", 3), ("format", "map"), ("format", "size"), ("teams given", True),
              ("collisions", "stay"), ("collisions", "allowed"), ("collectibles", 1), ("collectibles", 2),
              ("tables", True), ("conditional timeout", True), ("entry size", 1), ("entry size", 2),
              ("entry size", 3), ("split entry", True), ("joint entry of one team", True),
              ("steps", 1), ("steps", 2), ("frozen_on", True), ("bump", True), ("lose_turns", 0),
              ("lose_turns", 1), ("lose_turns", 2), ("first_step_real", True), ("idle", False),
              ("blocked", "stay"), ("end_differs", True), ("may_not_end_on", 1), ("may_not_end_on", 2),
              ("same_cell", 2), ("same_cell", 3), ("reaches", True), ("was_on", "goal"), ("was_on", "mud"),
              ("collected", "all"), ("collected", "some"), ("nearer", True),
              ("table score in an end", True), ("table score at timeout", True)}
    assert wanted <= seen, sorted(wanted - seen, key=str)
    assert plain >= 1, "no board without the newer mechanisms"
