"""clingo's internals behind a guard (gridsolve/solve/graph/rawmodel.py): the fast reader of raw
symbols is used only where clingo's C bindings are there and read what the public API reads,
and every reader of raw symbols gives the same results through the public API (``FAST`` None,
as on a clingo without those internals)."""
from __future__ import annotations

import types

import clingo
import numpy as np
import pytest

from gridsolve.generate import startgraph
from gridsolve.language.loader import load_board
from gridsolve.language.position import Query, initial_position
from gridsolve.solve.dispatch.asker import Asker
from gridsolve.solve.graph import rawmodel
from gridsolve.language.kinds import QueryKind


def test_this_clingo_has_the_internals_the_fast_reader_is_tested_with():
    assert rawmodel.FAST is not None


def test_internals_without_a_function_the_reader_calls_are_refused():
    ffi, lib = rawmodel.FAST
    partial = types.SimpleNamespace(**{name: getattr(lib, name) for name in rawmodel.NEEDED[1:]})
    assert rawmodel.checked(ffi, partial) is None
    assert rawmodel.checked(ffi, lib) == rawmodel.FAST


def test_internals_that_read_other_symbols_are_refused():
    ffi, lib = rawmodel.FAST

    def shifted(rep, argv, size):       # a changed layout: every argument read one bit off
        lib.clingo_symbol_arguments(rep, argv, size)
        argv[0] = argv[0] + 1
    wrong = types.SimpleNamespace(**{name: getattr(lib, name) for name in rawmodel.NEEDED},)
    wrong.clingo_symbol_arguments = shifted
    assert rawmodel.checked(ffi, wrong) is None


def _answers(board, queries):
    asker = Asker(board)
    return [{k: v for k, v in asker.ask(query).as_dict().items() if k != "stats"} for query in queries]


@pytest.mark.parametrize("name,kinds", [("mummymaze2p.yaml", ("value", "win")),
                                        pytest.param("wallmaze.yaml", ("value",), marks=pytest.mark.slow)])
def test_the_public_api_reads_the_same_answers(name, kinds, monkeypatch):
    board = load_board(f"boards/{name}")
    queries = [Query(role, QueryKind(kind), initial_position(board), 12 if name == "wallmaze.yaml" else None)
               for role in board.rules.roles for kind in kinds]
    fast = _answers(board, queries)
    monkeypatch.setattr(rawmodel, "FAST", None)
    assert _answers(board, queries) == fast


def test_the_start_graph_reads_the_same_positions_through_the_public_api(monkeypatch):
    terms = ["s(0,1,2,3,4)", "s(1,3,1,2,2)", "s(0,2,2,1,-1)"]
    reps = np.array([clingo.parse_term(term)._rep for term in terms], dtype=np.uint64)
    fast = startgraph._numbers(reps, 3)
    monkeypatch.setattr(rawmodel, "FAST", None)
    assert startgraph._numbers(reps, 3).tolist() == fast.tolist() == [[0, 1, 2], [1, 3, 1], [0, 2, 2]]


def test_model_arguments_are_the_same_through_the_public_api(monkeypatch):
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], "p(s(1,2),-3). p(a,\"b\"). q(7). #show p/2. #show q/1.")
    ctl.ground([("base", [])])
    fast = sorted(rawmodel.model_arguments(ctl))
    monkeypatch.setattr(rawmodel, "FAST", None)
    assert sorted(rawmodel.model_arguments(ctl)) == fast
    assert len(fast) == 3


@pytest.mark.parametrize("mechanisms", [False, True], ids=["plain", "mechanisms"])
@pytest.mark.slow
def test_the_race_graph_ranks_through_the_public_api_equal_solve_lps(tmp_path, mechanisms, monkeypatch):
    from test_retro import rank_differences
    monkeypatch.setattr(rawmodel, "FAST", None)
    compared, problems = 0, []
    for seed in range(3):
        count, found = rank_differences(seed, tmp_path, mechanisms)
        compared, problems = compared + count, problems + found
    assert not problems, "\n".join(problems)
    assert compared >= 3
