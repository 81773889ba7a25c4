"""The bounded solver's races in C (gridsolve/solve/bounded/raceskernel.c, kernel.py) against the
same races in Python (BoundedSearch with ``native=False``).

The C search is the Python one line for line, so beyond equal answers the two must search the
same number of positions: a bound, a move order or a table entry that differs shows there.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from gridsolve.errors import MemoryLimitError
from gridsolve.language.loader import load_board
from gridsolve.language.position import make_query
from gridsolve import native
from gridsolve.solve.bounded.kernelraces import KernelRaces
from gridsolve.solve.graph.abstractgame import abstract_game
from gridsolve.solve.bounded.search import BoundedSearch, solve_bounded
from gridsolve.solve.common.capabilities import BOUNDED, RACED, refusal
from gridsolve.solve.bounded.kernel import RacesKernel
from gridsolve.solve.common.limits import Limits
from randomboards import random_mechanism_board
from test_bounded import CORRIDOR, _same, board_from_text, pacman_like_board

from conftest import ROOT


@pytest.fixture(autouse=True)
def c_from_the_first_position(monkeypatch):
    """These tests compare C with Python position for position: C from the start."""
    monkeypatch.setattr("gridsolve.solve.bounded.search.NATIVE_AFTER", 0)


def _pair(board, role: str, position, game=None):
    """Two searches over one abstract game (``game``, else the game ground from ``position``): in C
    and in Python."""
    game = game if game is not None else abstract_game(board, [position])
    return game, BoundedSearch(board, game, role), BoundedSearch(board, game, role, native=False)


@pytest.fixture(scope="module")
def pacman():
    """The Pacman seed board and its abstract game from the initial position, ground once for the
    module (the searches only read the game; each test makes its own searches)."""
    board = load_board(ROOT / "boards" / "pacman3p.yaml")
    return board, abstract_game(board, [make_query(board, "pacman").position])


def _pacman_pair(pacman, horizon: int):
    """The query for Pacman at ``horizon`` from the initial position, and its two searches."""
    board, game = pacman
    query = make_query(board, "pacman", "value", horizon=horizon)
    return query, *_pair(board, "pacman", query.position, game)


@pytest.mark.slow
def test_the_kernel_is_built_and_serves_pacman(pacman):
    """This machine has a C compiler: the races run in C (where none is found they run in Python)."""
    assert native.load("raceskernel", "gridsolve.solve.bounded") is not None, native.why_not("raceskernel", "gridsolve.solve.bounded")
    _, _, fast, slow = _pacman_pair(pacman, 6)
    assert isinstance(fast.kernel, RacesKernel)
    assert slow.kernel is None
    assert BoundedSearch(fast.board, fast.game, "pacman", prune=False).kernel is None   # no bounds: Python


def _random_calls(fast, slow, rng, calls: int) -> int:
    """``forces`` of both at random representatives, item sets, plies and races: equal results
    and equal positions searched; returns how many were forced."""
    board, game = fast.board, fast.game
    full = (1 << fast.item_bits) - 1
    states = sorted(set(fast.canon))
    forced = 0
    for _ in range(calls):
        up = rng.random() < 0.6
        threshold = rng.choice(fast.thresholds)
        state = rng.choice(states)
        items = full & rng.getrandbits(max(1, fast.item_bits)) if rng.random() < 0.7 else full
        plies_left = rng.randint(0, board.rules.max_plies)
        within = rng.randint(0, plies_left)
        before = (fast.nodes, slow.nodes)
        got = fast.forces(fast.race(up, threshold), state, items, plies_left, within)
        want = slow.forces(slow.race(up, threshold), state, items, plies_left, within)
        assert got == want, (board.name, up, threshold, state, items, plies_left, within)
        assert fast.nodes - before[0] == slow.nodes - before[1], (board.name, up, threshold, state)
        forced += got
    assert fast.remembered() == slow.remembered()
    return forced


@pytest.mark.parametrize("seeds", [range(3), pytest.param(range(3, 8), marks=pytest.mark.slow)], ids=["quick", "more"])
@pytest.mark.slow
def test_random_races_agree_on_pacman_like_boards(tmp_path, seeds):
    rng = random.Random(5)
    forced = total = 0
    for seed in seeds:
        board = board_from_text(tmp_path, f"pacman-like-{seed}", pacman_like_board(seed))
        for role in ("pacman", "blinky"):
            _, fast, slow = _pair(board, role, make_query(board, role).position)
            forced += _random_calls(fast, slow, rng, 150)
            total += 150
    assert 0 < forced < total                      # both answers occur


def _item_board_queries(tmp_path, seeds):
    for seed in seeds:
        board = board_from_text(tmp_path, f"mech-{seed}", random_mechanism_board(seed).text)
        if len(board.rules.collect) != 1:
            continue
        for role in board.rules.roles:
            query = make_query(board, role, "value", horizon=6)
            if refusal(BOUNDED, board, query) in (None, RACED):     # (a race question: searched too)
                yield seed, board, query


def _check_answers(tmp_path, seeds, monkeypatch) -> int:
    """solve_bounded in C and in Python: every field of the answer, and the positions searched."""
    checked = 0
    for seed, board, query in _item_board_queries(tmp_path, seeds):
        fast = solve_bounded(board, query)
        with monkeypatch.context() as m:
            m.setenv("GRIDSOLVE_NATIVE", "0")
            slow = solve_bounded(board, query)
        assert _same(fast, slow) == {}, seed
        assert fast.stats.detail.searched == slow.stats.detail.searched, seed
        checked += 1
    return checked


@pytest.mark.slow
def test_answers_agree_on_random_item_boards_of_every_mechanism(tmp_path, monkeypatch):
    assert _check_answers(tmp_path, range(0, 22), monkeypatch) >= 5


@pytest.mark.slow
def test_answers_agree_on_many_random_item_boards(tmp_path, monkeypatch):
    assert _check_answers(tmp_path, range(22, 300), monkeypatch) >= 30


@pytest.mark.parametrize("seeds,least", [(range(0, 22), 3), pytest.param(range(22, 60), 5, marks=pytest.mark.slow)],
                         ids=["quick", "more"])
@pytest.mark.slow
def test_random_races_agree_on_random_item_boards(tmp_path, seeds, least):
    rng = random.Random(11)
    boards = 0
    for seed, board, query in _item_board_queries(tmp_path, seeds):
        _, fast, slow = _pair(board, query.role, query.position)
        if fast.kernel is None:
            continue
        _random_calls(fast, slow, rng, 60)
        boards += 1
    assert boards >= least


@pytest.mark.slow
def test_pacman_seed_in_c_and_python_at_a_horizon(monkeypatch):
    board = load_board(ROOT / "boards" / "pacman3p.yaml")
    query = make_query(board, "pacman", "value", horizon=14)
    fast = solve_bounded(board, query)
    monkeypatch.setenv("GRIDSOLVE_NATIVE", "0")
    slow = solve_bounded(board, query)
    assert _same(fast, slow) == {} and fast.stats.detail.searched == slow.stats.detail.searched > 0


@pytest.mark.slow
def test_a_limit_reached_in_c_stops_the_search_and_keeps_the_tables_true(pacman):
    """The limits' check, called from C, raises: the search stops with that error, and the
    tables hold only finished results (the same race asked again gives the right answer)."""
    board, plies = pacman[0], 20
    query, game, fast, slow = _pacman_pair(pacman, plies)
    fast.kernel.check_every = 300
    calls = []

    def refuse(growth):
        calls.append(growth)
        if len(calls) == 3:
            raise MemoryLimitError(f"the positions within {plies} plies do not fit", "ask with a smaller horizon")
    fast.check_limits = refuse
    root = game.state_of(query.position)
    items = fast.items.of(query.position.items_left(board))
    with pytest.raises(MemoryLimitError):
        for threshold in fast.thresholds[:10]:
            fast.forces(fast.race(True, threshold), root, items, plies, plies)
    assert len(calls) == 3
    fast.check_limits = lambda growth: None
    for threshold in fast.thresholds[:10]:
        for up in (True, False):
            assert (fast.forces(fast.race(up, threshold), root, items, plies, plies)
                    == slow.forces(slow.race(up, threshold), root, items, plies, plies)), (up, threshold)


def test_the_memory_limit_is_reported_from_a_search_in_c(tmp_path):
    """A limit passed during a C search is the same error, with its hint, as in Python."""
    board = load_board(ROOT / "boards" / "pacman3p.yaml")
    query = make_query(board, "pacman", "value")
    with pytest.raises(MemoryLimitError) as raised:
        solve_bounded(board, query, Limits(memory=1))
    assert "do not fit" in str(raised.value)


def test_without_the_built_kernel_the_races_run_in_python_and_the_text_says_why(tmp_path, monkeypatch):
    """An install without a compiler has no kernel: native.load says why and returns None, the
    answer is the same, and the text output says why it searched in Python."""
    import sys
    from gridsolve.render import format_answer
    monkeypatch.setattr(native, "_loaded", {})
    monkeypatch.setattr(native, "_why_not", {})
    monkeypatch.setitem(sys.modules, "gridsolve.solve.bounded.raceskernel", None)     # as if never built
    assert native.load("raceskernel", "gridsolve.solve.bounded") is None
    assert native.why_not("raceskernel", "gridsolve.solve.bounded") == native.NOT_BUILT
    board = board_from_text(tmp_path, "corridor", CORRIDOR)
    query = make_query(board, "pacman")
    answer = solve_bounded(board, query)
    assert (answer.value, answer.plies) == (30, 6)
    assert "in Python: the C search is missing: it was not built when gridsolve was installed" in \
        format_answer(board, answer, query.position)


@pytest.mark.slow
def test_a_kernel_searches_for_one_thread_at_a_time(pacman):
    """While a search runs (here: paused in its check of the limits), another thread's search
    on the same kernel is refused, not interleaved; afterwards both answer as Python does."""
    import threading
    from gridsolve.solve.bounded.kernel import RacesKernel as Kernel
    board = pacman[0]
    query, game, fast, slow = _pacman_pair(pacman, 20)
    kernel: Kernel = fast.kernel
    kernel.check_every = 1
    inside, release = threading.Event(), threading.Event()

    def pause(growth):
        inside.set()
        release.wait(10)
    fast.check_limits = pause
    root = game.state_of(query.position)
    items = fast.items.of(query.position.items_left(board))
    threshold = fast.thresholds[5]
    results = []
    worker = threading.Thread(target=lambda: results.append(fast.forces(fast.race(True, threshold), root, items, 20, 20)))
    worker.start()
    assert inside.wait(10)
    with pytest.raises(RuntimeError, match="searching"):
        kernel.forces(fast.race(True, threshold), fast.canon[root], items, 20, 20)
    release.set()
    worker.join(20)
    fast.check_limits = lambda growth: None
    assert results == [slow.forces(slow.race(True, threshold), root, items, 20, 20)]
    assert fast.forces(fast.race(True, threshold), root, items, 20, 20) == results[0]


@pytest.mark.slow
def test_a_search_moves_to_c_when_it_has_cost_what_c_costs_to_build(tmp_path, monkeypatch):
    """By default a search starts in Python and moves to C after NATIVE_AFTER positions an
    abstract position: between two questions of the search, or in the middle of one (it stops
    there and is asked again in C). A small search stays in Python, a large one ends in C, with
    the answers of Python alone."""
    from gridsolve.solve.bounded import search as bounded
    from gridsolve.solve.threshold.racesearch import NODE_CHECK
    monkeypatch.setattr(bounded, "NATIVE_AFTER", 0.05)      # Pacman from the start: about 1,200 positions
    stopped = []

    class Counted(bounded._ToNative):
        def __init__(self, *args):
            stopped.append(True)
            super().__init__(*args)
    monkeypatch.setattr(bounded, "_ToNative", Counted)
    board = load_board(ROOT / "boards" / "pacman3p.yaml")
    small = solve_bounded(board, make_query(board, "pacman", "value", horizon=4))
    assert small.stats.detail.search_in == "Python" and small.stats.detail.searched < 0.05 * 22_104      # classes from the start
    query = make_query(board, "pacman", "value", horizon=14)
    with monkeypatch.context() as m:
        m.setenv("GRIDSOLVE_NATIVE", "0")
        alone = solve_bounded(board, query)
    assert alone.stats.detail.search_in == "Python" and alone.stats.detail.searched < NODE_CHECK
    for check_every, midway in ((NODE_CHECK, False), (100, True)):
        monkeypatch.setattr(bounded.BoundedSearch, "node_check", check_every)
        stopped.clear()
        mixed = solve_bounded(board, query)
        assert _same(mixed, alone) == {}, check_every
        assert mixed.stats.detail.search_in == "C"
        # under NODE_CHECK positions in all: it moves between questions; checked every 100: midway
        assert bool(stopped) == midway, check_every


def test_the_kernel_is_the_packages_extension_module_and_nothing_is_compiled_at_run_time(tmp_path, monkeypatch):
    """The kernel loads as a module of the package, from beside its C file, and loading it runs
    no compiler and writes no cache."""
    import subprocess
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(native, "_loaded", {})
    monkeypatch.setattr(subprocess, "run", lambda *args, **kwargs: pytest.fail(f"ran {args}"))
    import gridsolve.solve.bounded as bounded_package
    kernel = native.load("raceskernel", "gridsolve.solve.bounded")
    assert kernel.__name__ == "gridsolve.solve.bounded.raceskernel"
    assert Path(kernel.__file__).parent == Path(bounded_package.__file__).parent
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_the_kernel_takes_one_object_and_reads_its_fields_by_name(pacman):
    """The search describes its game in one frozen object (``kernel_arrays``); the kernel reads
    it by field name: any object with those fields serves, a missing field or an array of the
    wrong size is refused by name, and a kernel made from a copy answers as the search's own."""
    import dataclasses
    from types import SimpleNamespace
    board = pacman[0]
    query, game, fast, slow = _pacman_pair(pacman, 12)
    arrays = fast.kernel_arrays()
    with pytest.raises(dataclasses.FrozenInstanceError):
        arrays.n = 0
    module = native.load("raceskernel", "gridsolve.solve.bounded")
    fields = {f.name: getattr(arrays, f.name) for f in dataclasses.fields(arrays)}
    with pytest.raises(AttributeError, match="doom"):
        module.new(SimpleNamespace(**{k: v for k, v in fields.items() if k != "doom"}))
    with pytest.raises(ValueError, match="turn"):
        module.new(dataclasses.replace(arrays, turn=arrays.turn[:-1]))
    with pytest.raises(ValueError, match="successors"):
        module.new(dataclasses.replace(arrays, attack=arrays.attack._replace(successors=b"")))
    copy = RacesKernel.__new__(RacesKernel)
    KernelRaces.__init__(copy, module, fast, SimpleNamespace(**fields))
    root, items = fast.canon[game.state_of(query.position)], fast.items.of(query.position.items_left(board))
    for threshold in fast.thresholds:
        race = fast.race(True, threshold)
        assert copy.forces(race, root, items, 12, 12) == slow.forces(race, root, items, 12, 12)
