"""The C search of a game with an ``after_ply`` script (gridsolve/solve/graph/scriptkernel.c,
packed by scriptsearch.native_search) against its numpy twin (scripted.frontier_search) on random
boards of the classic rule sets and of the other scripted rule sets of tests/test_scripted.py:
the same positions, and the same moves in the same order, from the start and from random
positions (pieces off the board, on each other, the gate open); a quick sample and a slow sweep.
tests/test_scripted.py and tests/test_sharedtables.py check the graph itself against clingo."""
from __future__ import annotations

import random

import clingo
import numpy as np
import pytest

from gridsolve.compile.state import layout_for, unjudged
from gridsolve.language.loader import load_board
from gridsolve.language.position import initial_position
from gridsolve.solve.common.limits import LimitGuard, Limits
from gridsolve.solve.graph import scriptsearch
from gridsolve.solve.graph.factored import distinct
from gridsolve.solve.graph.scripted import ScriptTables, frontier_search
from gridsolve.solve.graph.scriptsearch import native_search

from classic_boards import random_classic_board
from test_scripted import VARIANTS, _write



def guard() -> LimitGuard:
    """The default limits from now (a guard counts the memory grown since it was made: one made
    at import would count what every earlier test of the worker left resident)."""
    return LimitGuard(Limits(), "the test's positions", lambda needed: "")

ROOTS = 6          # random positions searched from besides the start


def _tables(path):
    board = load_board(path)
    layout = layout_for(board)
    return ScriptTables(board, layout, guard()), layout.root_term(initial_position(board), board)


def _differences(tables, root: str, seed: int) -> list[str]:
    """Where the C search and the numpy search differ from the start, then from random positions."""
    numbering = tables.numbering
    rng = random.Random(seed)
    start = numbering.number([a.number for a in unjudged(clingo.parse_term(root)).arguments])
    problems = []
    for roots in ([start], [rng.randrange(numbering.size) for _ in range(ROOTS)]):
        roots = distinct(np.array(roots, dtype=np.int64))
        found = native_search(tables, roots, guard())
        assert found is not None, "the C search does not serve this board"
        seen, sources, targets = frontier_search(tables, roots, guard())
        c_seen, c_sources, c_targets = found
        for what, mine, theirs in (("positions", c_seen, seen), ("sources", c_sources, sources),
                                   ("targets", c_targets, targets)):
            mine = np.concatenate(mine) if isinstance(mine, list) else mine
            theirs = np.concatenate(theirs) if isinstance(theirs, list) else theirs
            if mine.tolist() != theirs.tolist():
                problems.append(f"{what} from {numbering.texts(roots)}: C {len(mine)}, numpy {len(theirs)}")
        # joined (the race graph's form): the positions sorted, their ends, the moves as indexes
        keys, ends, src, dst = native_search(tables, roots, guard(), joined=True)
        for what, mine, theirs in (("joined positions", keys, seen), ("ends", ends, tables.outcome(seen)),
                                   ("source indexes", src, np.searchsorted(seen, np.concatenate(sources))),
                                   ("target indexes", dst, np.searchsorted(seen, np.concatenate(targets)))):
            if mine.tolist() != theirs.tolist():
                problems.append(f"{what} from {numbering.texts(roots)}: C {len(mine)}, numpy {len(theirs)}")
    return problems


def _classic(tmp_path, seeds) -> list[str]:
    problems = []
    for seed in seeds:
        path = tmp_path / f"classic-{seed}.yaml"
        path.write_text(random_classic_board(seed, big=seed % 3 == 0, on_exit=seed % 7 == 0), encoding="utf-8")
        tables, root = _tables(path)
        problems += [f"classic seed {seed}: {p}" for p in _differences(tables, root, seed)]
    return problems


def _variants(tmp_path, seeds) -> list[str]:
    problems = []
    for variant, (kinds, options) in VARIANTS.items():
        if variant == "slots":      # (numbered as found: numpy alone, below)
            continue
        for seed in seeds:
            tables, root = _tables(_write(tmp_path / variant, kinds, seed, **options))
            problems += [f"{variant} seed {seed}: {p}" for p in _differences(tables, root, seed)]
    return problems


@pytest.fixture(autouse=True)
def built():
    assert scriptsearch.kernel() is not None, "scriptkernel was not built (tests/native_build.py)"


def test_c_and_numpy_find_the_same_classic_positions_and_moves(tmp_path):
    problems = _classic(tmp_path, range(12))
    assert not problems, problems


def test_c_and_numpy_agree_on_the_other_scripted_rule_sets(tmp_path):
    for variant in VARIANTS:
        (tmp_path / variant).mkdir()
    problems = _variants(tmp_path, range(2))
    assert not problems, problems


def test_positions_numbered_as_found_are_left_to_numpy(tmp_path):
    (tmp_path / "slots").mkdir()
    tables, _ = _tables(_write(tmp_path / "slots", *VARIANTS["slots"][0:1], 0, **VARIANTS["slots"][1]))
    assert not tables.numbering.dense        # (numbered as found: codec.FoundNumbering)
    assert native_search(tables, np.zeros(1, dtype=np.int64), guard()) is None


def test_gridsolve_native_0_leaves_the_search_to_numpy(tmp_path, monkeypatch):
    path = tmp_path / "classic.yaml"
    path.write_text(random_classic_board(1), encoding="utf-8")
    tables, root = _tables(path)
    monkeypatch.setenv("GRIDSOLVE_NATIVE", "0")
    assert native_search(tables, np.zeros(1, dtype=np.int64), guard()) is None


@pytest.mark.slow
def test_c_and_numpy_agree_on_many_random_boards(tmp_path):
    for variant in VARIANTS:
        (tmp_path / variant).mkdir()
    problems = _classic(tmp_path, range(12, 312)) + _variants(tmp_path, range(2, 22))
    assert not problems, f"{len(problems)} differences; the first: {problems[0]}"
