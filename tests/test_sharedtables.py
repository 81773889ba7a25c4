"""The per-cell tables of scripted games from the shared circuit of a rule set and size
(gridsolve/solve/graph/sharedtables.py) against each board's own ground call, on random classic
boards (tests/classic_boards.py, ``big``: sizes 4 to 10, square or not) of both rule sets: the
same rows of every table; and the answers of boards whose tables came from a circuit equal those
ground board by board.  Run one board: ``python -m pytest tests/test_sharedtables.py -k 'seed-7'``."""
from __future__ import annotations

import dataclasses

import pytest

from gridsolve.compile.facts import board_facts
from gridsolve.compile.state import layout_for
from gridsolve.language.loader import load_board
from gridsolve.language.kinds import QueryKind
from gridsolve.language.position import make_query
from gridsolve.solve.dispatch.asker import Asker
from gridsolve.solve.graph import sharedtables
from gridsolve.solve.graph.factored import ground_rows
from gridsolve.solve.graph.sharedtables import Circuit, table_program

from classic_boards import random_classic_board
from conftest import tiered

QUICK, SLOW = 12, 150    # seeds of the first test (its first QUICK_RUN in the quick tier), and of its slow one
QUICK_RUN = 4


def _board(tmp_path, seed: int):
    path = tmp_path / f"classic-{seed}.yaml"
    path.write_text(random_classic_board(seed, big=True), encoding="utf-8")
    return load_board(path)


def _own_rows(board) -> dict[int, list]:
    """The tables' rows from the board's own ground call (the per-board path)."""
    rows: dict[int, list] = {}
    program = table_program(board, layout_for(board), board_facts(board))
    for row in ground_rows(program, None, "the tables", "the tables"):
        rows.setdefault(len(row), []).append(tuple(row))
    return {arity: sorted(found) for arity, found in rows.items()}


def _check_rows(board, circuit: Circuit) -> None:
    shared = circuit.rows(board)
    assert shared is not None
    mine = {arity: sorted(map(tuple, rows.tolist())) for arity, rows in shared.items() if len(rows)}
    assert mine == _own_rows(board), board.name


@pytest.mark.parametrize("seed", tiered(range(QUICK), QUICK_RUN), ids=lambda s: f"seed-{s}")
def test_circuit_rows_are_the_ground_ones(tmp_path, seed):
    board = _board(tmp_path, seed)
    circuit = Circuit(board, layout_for(board), sharedtables._mark_names(board))
    assert circuit.served
    _check_rows(board, circuit)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(QUICK, SLOW), ids=lambda s: f"seed-{s}")
def test_circuit_rows_are_the_ground_ones_slow(tmp_path, seed):
    test_circuit_rows_are_the_ground_ones(tmp_path, seed)


@pytest.mark.slow
def test_one_circuit_serves_every_board_of_its_kind(tmp_path):
    """Boards of one rule set and size, drawn one after another, share one circuit: each one's rows
    are its own (walls, gates, traps and keys differ from board to board)."""
    boards = [b for b in (_board(tmp_path, seed) for seed in range(400))
              if (b.width, b.height, b.rules.name) == (6, 6, "mummy-maze-classic")][:6]
    assert len(boards) == 6 and len({(b.north, b.east, b.gate_north, b.gate_east) for b in boards}) == 6
    circuit = Circuit(boards[0], layout_for(boards[0]), sharedtables._mark_names(boards[0]))
    for board in boards:
        _check_rows(board, circuit)


def _answers(board) -> dict:
    answer = Asker(board).ask(make_query(board, None, QueryKind.VALUE), line_plies=None).as_dict()
    answer.pop("stats")
    return answer


@pytest.mark.parametrize("count", [6, pytest.param(40, marks=pytest.mark.slow)])
@pytest.mark.slow
def test_answers_with_shared_tables_equal_those_ground_board_by_board(tmp_path, monkeypatch, count):
    """A board whose tables come from its kind's circuit (here from the second board of a kind in
    a process on) has the answer of the per-board path: every field, the moves and the principal
    line."""
    monkeypatch.setattr(sharedtables, "BUILD_AFTER", 1)     # (a circuit from the second board of a kind on)
    boards = [_board(tmp_path, seed) for seed in range(count)]
    alone = []
    for board in boards:
        monkeypatch.setattr(sharedtables, "_SHARED", sharedtables._SharedCircuits())   # no board seen before
        alone.append(_answers(board))
    monkeypatch.setattr(sharedtables, "_SHARED", sharedtables._SharedCircuits())
    shared = [_answers(board) for board in boards] + [_answers(board) for board in boards]
    assert sharedtables._SHARED.circuits, "no board took its tables from a circuit"
    assert shared == alone + alone


def test_a_board_outside_the_inputs_is_ground_as_it_is(tmp_path, monkeypatch):
    """A wall on the border is no input of the circuit: the circuit gives no rows for the board,
    and its tables come from its own ground call, even where its kind has a circuit."""
    board = _board(tmp_path, 3)
    border = dataclasses.replace(board, north=board.north | {(1, board.height)})
    circuit = Circuit(board, layout_for(board), sharedtables._mark_names(board))
    assert circuit.rows(border) is None
    monkeypatch.setattr(sharedtables, "_SHARED", sharedtables._SharedCircuits())
    monkeypatch.setattr(sharedtables, "BUILD_AFTER", 1)
    for each in (board, board, border):
        rows = sharedtables.table_rows(each, layout_for(each))
        assert {arity: sorted(map(tuple, found.tolist())) for arity, found in rows.items() if len(found)} == \
            _own_rows(each)
    assert sharedtables._SHARED.circuits      # (the second board built the kind's circuit)


def test_the_first_boards_of_a_kind_are_ground_as_they_are(tmp_path, monkeypatch):
    """A kind's circuit is built once BUILD_AFTER of its boards were ground one by one."""
    monkeypatch.setattr(sharedtables, "_SHARED", sharedtables._SharedCircuits())
    board = _board(tmp_path, 3)
    for _ in range(sharedtables.BUILD_AFTER):
        sharedtables.table_rows(board, layout_for(board))
        assert not sharedtables._SHARED.circuits
    sharedtables.table_rows(board, layout_for(board))
    assert len(sharedtables._SHARED.circuits) == 1


def test_circuits_at_once_builds_a_kinds_circuit_at_its_first_board(tmp_path, monkeypatch):
    """Within circuits_at_once (verify of many boards) no board is ground one by one first; the
    rows are the ground ones; after the block, BUILD_AFTER again."""
    monkeypatch.setattr(sharedtables, "_SHARED", sharedtables._SharedCircuits())
    board = _board(tmp_path, 4)
    ground = sharedtables.table_rows(board, layout_for(board))      # (the first board of the kind: ground)
    assert not sharedtables._SHARED.circuits
    monkeypatch.setattr(sharedtables, "_SHARED", sharedtables._SharedCircuits())
    with sharedtables.circuits_at_once():
        shared = sharedtables.table_rows(board, layout_for(board))
        assert len(sharedtables._SHARED.circuits) == 1
    def rows(by_arity):
        return {a: sorted(map(tuple, r.tolist())) for a, r in by_arity.items() if len(r)}
    assert rows(shared) == rows(ground)
    assert sharedtables._SHARED.build_after is None


def test_verify_of_many_boards_builds_circuits_at_once(tmp_path, monkeypatch):
    from gridsolve.verify import verify as verifying
    seen = []
    monkeypatch.setattr(verifying, "run_tasks", lambda *args: seen.append(sharedtables._SHARED.build_after) or [])
    monkeypatch.setattr(verifying, "find_boards", lambda paths: [tmp_path / f"{i}.yaml" for i in range(n)])
    monkeypatch.setattr(verifying, "select", lambda found, paths, shard: found)
    for n, jobs in ((verifying.MANY_BOARDS * 2, 2), (verifying.MANY_BOARDS * 2 - 1, 2), (verifying.MANY_BOARDS, 1)):
        verifying.verify_paths([tmp_path], jobs=jobs)
    assert seen == [0, None, 0]


def test_verify_builds_the_kinds_circuits_before_its_workers_fork(tmp_path, monkeypatch):
    """verify of many boards with several jobs builds the circuits of a sample's kinds in the
    parent (the workers fork with them); a file that does not load is left to its worker."""
    from gridsolve.verify import verify as verifying
    monkeypatch.setattr(sharedtables, "_SHARED", sharedtables._SharedCircuits())
    paths = []
    for seed in (4, 5):
        paths.append(tmp_path / f"classic-{seed}.yaml")
        paths[-1].write_text(random_classic_board(seed, big=True), encoding="utf-8")
    (tmp_path / "broken.yaml").write_text("rules: mummy-maze-classic\nsize: [1]\n", encoding="utf-8")
    verifying._prepare_kinds([tmp_path / "broken.yaml", *paths])
    kinds = {(b.width, b.rules.name) for b in map(load_board, paths)}
    assert len(sharedtables._SHARED.circuits) == len(kinds)
    assert sharedtables._SHARED.build_after is None      # (only the circuits built; nothing else changed)
