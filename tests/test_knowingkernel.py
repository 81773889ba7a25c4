"""The robust search's races in C (gridsolve/solve/hidden/knowingkernel.c, kernel.py) against the
same races in Python (``solve_knowing(..., native=False)``), and against the independent
explicit search (hidden_reference) at the full step limit.

The C search is the Python one line for line, so beyond equal answers the two must search the
same number of positions: a bound, a move order or a table entry that differs shows there.
"""
from __future__ import annotations

import random
from dataclasses import replace

import pytest

from gridsolve.errors import LimitError
from gridsolve.language.loader import load_board
from gridsolve.language.position import Query, initial_position
from gridsolve import native
from gridsolve.solve.common.limits import Limits
from gridsolve.solve.hidden import knowing
from gridsolve.solve.hidden.knowing import KnowingGame, KnowingSolver, solve_knowing
from gridsolve.solve.hidden.kernel import KnowingKernel
from reference.hidden import HiddenGame, start_state
from test_hidden import FIELDS, RULE_BOOK, random_position, small_board


@pytest.fixture(autouse=True)
def fresh():
    """Each question searched from empty tables (no answer kept from another test)."""
    knowing._PREPARED.clear()
    yield
    knowing._PREPARED.clear()


@pytest.fixture(scope="module")
def rule_book():
    return load_board(RULE_BOOK)


def _answer(board, role, position, horizon, native_):
    knowing._PREPARED.clear()
    answer = solve_knowing(board, Query(role, "value", position, horizon, hidden=True), native=native_)
    moves = [(m.move, m.value, m.plies, m.win, m.survives, m.doom_plies) for m in answer.moves]
    return {f: getattr(answer, f) for f in FIELDS}, moves, answer.line, answer.stats.detail


def _same_in_c_and_python(board, role, position, horizon):
    fast = _answer(board, role, position, horizon, True)
    slow = _answer(board, role, position, horizon, False)
    assert fast[3].search_in == "C" and slow[3].search_in == "Python"
    assert fast[:3] == slow[:3], (position, horizon)
    assert fast[3].searched == slow[3].searched, (position, horizon)
    return fast


def test_the_kernel_compiles_and_serves_the_rule_book(rule_book):
    """This machine has a C compiler: the races run in C (where none is found they run in Python)."""
    assert native.load("knowingkernel", "gridsolve.solve.hidden") is not None, native.why_not("knowingkernel", "gridsolve.solve.hidden")
    kgame = KnowingGame(rule_book, "p1", [initial_position(rule_book)])
    assert isinstance(KnowingSolver(kgame).kernel, KnowingKernel)
    assert KnowingSolver(kgame, native=False).kernel is None


@pytest.mark.slow
def test_the_bounds_in_c_are_the_bounds_in_python(rule_book, make_board):
    boards = [(rule_book, "p1"), (rule_book, "p2")]
    for seed in range(3):
        rng = random.Random(200 + seed)
        boards.append((small_board(make_board, rng, seed), rng.choice(["p1", "p2"])))
    for board, role in boards:
        kgame = KnowingGame(board, role, [initial_position(board)])
        fast, slow = KnowingSolver(kgame), KnowingSolver(kgame, native=False)
        assert list(fast.doom_free) == list(slow.doom_free) and list(fast.top_free) == list(slow.top_free)


@pytest.mark.parametrize("seed", [0, *(pytest.param(s, marks=pytest.mark.slow) for s in (1, 2))])
@pytest.mark.slow
def test_c_and_python_agree_on_random_knowledge(rule_book, seed):
    rng = random.Random(seed)
    for _ in range(3):
        role = rng.choice(["p1", "p2"])
        _same_in_c_and_python(rule_book, role, random_position(rule_book, rng, role), rng.choice([6, 8, 10]))


@pytest.mark.slow
def test_c_and_python_agree_on_small_boards(make_board):
    for seed in range(3):
        rng = random.Random(100 + seed)
        board = small_board(make_board, rng, seed)
        role = rng.choice(["p1", "p2"])
        _same_in_c_and_python(board, role, initial_position(board), None)
        _same_in_c_and_python(board, role, random_position(board, rng, role), None)


def _reference(board, role, position, remaining):
    game = HiddenGame(board, role)
    state = start_state(board, role, position, position.free, [c for _, c in sorted(position.found)])
    moves = game.move_answers(state, remaining)
    return game.answer(state, remaining), moves


@pytest.mark.parametrize("seed", [0, pytest.param(1, marks=pytest.mark.slow)])
@pytest.mark.slow
def test_c_agrees_with_the_reference_at_the_step_limit(rule_book, seed):
    """Random positions late in the game (the reference's explicit search stays small) with
    random knowledge, answered to the step limit."""
    rng = random.Random(seed)
    for _ in range(3):
        role = rng.choice(["p1", "p2"])
        position = random_position(rule_book, rng, role)
        step = rule_book.rules.last_step - rng.randint(8, 12)
        position = replace(position, step=step)
        got, moves, _, stats = _answer(rule_book, role, position, None, True)
        assert stats.search_in == "C"
        remaining = rule_book.rules.last_step - step
        want, want_moves = _reference(rule_book, role, position, remaining)
        assert got == want, position
        assert {m[0]: {"value": m[1], "plies": m[2], "win": m[3], "survives": m[4], "doom_plies": m[5]}
                for m in moves} == {m: {k: s[k] for k in ("value", "plies", "win", "survives", "doom_plies")}
                                    for m, s in want_moves.items()}, position


# Starts of the whole game where the asking player knows only its own cell (role, p1's cell,
# p2's cell; p1 to move): of the first five of bench/hidden.py --exact's, the three the
# reference's explicit search answers, every move included, in seconds (the other two take it
# 10 to 15 minutes).
OWN_CELL_STARTS = [("p2", (3, 1), (3, 2)), ("p2", (5, 1), (5, 4)), ("p1", (4, 4), (4, 3))]


@pytest.mark.slow
@pytest.mark.parametrize("role, p1, p2", OWN_CELL_STARTS)
def test_c_agrees_with_the_reference_at_forty_plies(rule_book, role, p1, p2):
    position = rule_book_position(rule_book, p1, p2)
    got, moves, _, stats = _answer(rule_book, role, position, None, True)
    assert stats.search_in == "C" and got["value"] is not None
    want, want_moves = _reference(rule_book, role, position, 40)
    assert got == want, position
    assert {m[0]: {"value": m[1], "plies": m[2], "win": m[3], "survives": m[4], "doom_plies": m[5]}
            for m in moves} == {m: {k: s[k] for k in ("value", "plies", "win", "survives", "doom_plies")}
                                for m, s in want_moves.items()}, position


@pytest.mark.parametrize("p1, p2", [pytest.param((4, 4), (1, 3), marks=pytest.mark.slow),
                                    pytest.param((4, 1), (2, 4), marks=pytest.mark.slow)])
def test_the_issues_starts_agree_in_c_and_python(rule_book, p1, p2):
    """The two starts that stopped at 2 GB before the search deepened (issue 32)."""
    fast = _same_in_c_and_python(rule_book, "p1", rule_book_position(rule_book, p1, p2), None)
    assert fast[0]["value"] == 0 and fast[3].searched < 200_000


def test_the_time_limit_stops_the_c_search(rule_book):
    """The issue's hard start (p1 near the center, p2 far): stopped by the limit's check in C."""
    position = rule_book_position(rule_book, (4, 1), (2, 4))
    with pytest.raises(LimitError):
        solve_knowing(rule_book, Query("p1", "value", position, hidden=True), Limits(seconds=0.01))


def rule_book_position(board, p1, p2):
    return replace(initial_position(board), pieces=(("p1", p1), ("p2", p2)), side=0)


def test_the_text_output_says_the_search_ran_in_c():
    from click.testing import CliRunner
    from gridsolve.cli import main
    result = CliRunner().invoke(main, ["solve", str(RULE_BOOK), "--hidden", "--role", "p1"])
    assert result.exit_code == 0, result.output
    last = result.output.strip().splitlines()[-1]
    assert "by the robust search: " in last and last.endswith("searched with it (in C)")


@pytest.mark.slow
def test_c_and_python_agree_without_the_bounds(rule_book):
    """``prune=False``: the kernel searches without the bounds of the game without knowledge, as
    Python does (the same positions), with the answers of the search with them."""
    rng = random.Random(5)
    for _ in range(2):
        role = rng.choice(["p1", "p2"])
        query = Query(role, "value", random_position(rule_book, rng, role), 6, hidden=True)
        answers = []
        for prune, native_ in ((False, True), (False, False), (True, True)):
            knowing._PREPARED.clear()
            answers.append(solve_knowing(rule_book, query, prune=prune, native=native_))
        fast, slow, pruned = answers
        assert (fast.stats.detail.search_in, slow.stats.detail.search_in) == ("C", "Python")
        assert fast.stats.detail.searched == slow.stats.detail.searched >= pruned.stats.detail.searched
        for answer in (slow, pruned):
            assert (fast.value, fast.plies, fast.doom_plies, fast.moves, fast.line) == \
                (answer.value, answer.plies, answer.doom_plies, answer.moves, answer.line)


def test_the_kernel_takes_one_object_and_reads_its_fields_by_name(rule_book):
    """The search describes its game in one frozen object (``kernel_arrays``); the kernel reads
    it by field name and refuses a missing field or an array of the wrong size by name."""
    import dataclasses
    from types import SimpleNamespace
    kgame = KnowingGame(rule_book, "p1", [initial_position(rule_book)])
    solver = KnowingSolver(kgame)
    arrays = solver.kernel_arrays()
    with pytest.raises(dataclasses.FrozenInstanceError):
        arrays.n = 0
    module = native.load("knowingkernel", "gridsolve.solve.hidden")
    fields = {f.name: getattr(arrays, f.name) for f in dataclasses.fields(arrays)}
    assert module.new(SimpleNamespace(**fields)) is not None
    with pytest.raises(AttributeError, match="role_cell"):
        module.new(SimpleNamespace(**{k: v for k, v in fields.items() if k != "role_cell"}))
    with pytest.raises(ValueError, match="end_score"):
        module.new(dataclasses.replace(arrays, end_score=arrays.end_score + b"\0\0"))
