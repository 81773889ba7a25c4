"""The layered solver's shortcuts give the answer of the plain computation.

* Values and ranks stop at the first number of plies left from which they repeat
  (``vconv``/``rconv`` in encodings/layered.lp): the answer equals the one computed with every
  number of plies left (the same program without the stop).
* The solver grounds the program part by part and stops early; the single-shot text that
  ``gridsolve compile`` prints gives the same answer.
* The limits stop a query before it spends the memory, with the message, and long solves
  report their progress.
"""
from __future__ import annotations

from pathlib import Path

import clingo
import pytest

from gridsolve.solve.program import driver
from gridsolve.solve.common.answer import SolveStats
from gridsolve.compile.compiler import compile_program
from gridsolve.compile.planning import Mode
from gridsolve.errors import LimitError
from gridsolve.language.loader import load_board
from gridsolve.language.position import make_query

ROOT = Path(__file__).resolve().parent.parent
BOARDS = ROOT / "boards"


def _board(name: str):
    return load_board(BOARDS / name)


def _without_stop(program):
    """The program with the rules that stop the values and ranks removed: every level is computed."""
    def strip(text: str) -> str:
        return "\n".join(line for line in text.split("\n") if not line.startswith(("vconv(", "rconv(")))
    program.values = [strip(t) for t in program.values]
    program.ranks = [strip(t) for t in program.ranks]
    return program


def _answer(answer) -> dict:
    out = answer.as_dict()
    out.pop("stats")
    return out


REPEATING = [
    ("maze-runner-duel.yaml", dict(role="p1")),
    ("maze-runner-duel.yaml", dict(role="p2", kind="win")),
    ("maze-runner-duel.yaml", dict(role="p1", at=("p1=2,5", "p2=4,3"), turn="p2")),
    ("wallmaze.yaml", dict(horizon=17)),
    ("wallmaze.yaml", dict(role="black", at=("white=11,5", "black=4,8"), horizon=12)),
    ("pacman3p.yaml", dict(horizon=7)),
]


SLOW = pytest.mark.slow


@pytest.mark.parametrize("name,options", [pytest.param(*case, marks=SLOW if case[0] != "pacman3p.yaml" else ())
                                          for case in REPEATING],
                         ids=[f"{n}-{i}" for i, (n, _) in enumerate(REPEATING)])
@pytest.mark.slow
def test_stopping_where_the_values_repeat_gives_the_answer_of_every_level(name, options):
    board = _board(name)
    query = make_query(board, **options)
    program = compile_program(board, query)
    assert program.mode is Mode.LAYERED
    fast = driver.run_program(program, board)
    full = driver.run_program(_without_stop(compile_program(board, query)), board)
    assert _answer(fast) == _answer(full)
    assert full.stats.detail.value_levels == full.remaining + 1
    if name == "maze-runner-duel.yaml" and "horizon" not in options:
        assert fast.stats.detail.value_levels < fast.remaining     # the shortcut was taken


def _single_shot(program, board):
    """The answer of ``program.text`` ground in one go, as ``gridsolve compile | clingo`` runs it."""
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], program.text)
    ctl.ground([("base", [])])
    model = driver.Model(mode=program.mode)
    ctl.solve(on_model=lambda m: model.collect(m.symbols(shown=True)))
    return driver.read_answer(model, program, board, SolveStats(solver="compiled"))


@pytest.mark.parametrize("name,options", [
    pytest.param("maze-runner-duel.yaml", dict(role="p1", horizon=9), marks=SLOW),
    pytest.param("wallmaze.yaml", dict(at=("white=11,5", "black=4,8"), horizon=5), marks=SLOW),
    ("pacman3p.yaml", dict(horizon=5)),
])
@pytest.mark.slow
def test_the_single_shot_program_gives_the_solver_answer(name, options):
    board = _board(name)
    query = make_query(board, **options)
    program = compile_program(board, query)
    assert program.mode is Mode.LAYERED
    assert _answer(_single_shot(program, board)) == _answer(driver.run_program(program, board))


def test_a_query_past_the_atom_limit_stops_before_the_next_depth():
    board = _board("pacman3p.yaml")
    program = compile_program(board, make_query(board, horizon=10))
    with pytest.raises(LimitError) as error:
        driver.run_program(program, board, driver.Limits(atoms=200_000))
    message = str(error.value)
    assert "the positions within 10 plies do not fit: about" in message
    assert "ground atoms with the values (limit 200,000) after exploring" in message
    assert "--horizon" in message and "--query survive" in message


def test_long_solves_report_their_progress(monkeypatch):
    monkeypatch.setattr(driver, "PROGRESS_AFTER", -1.0)
    board = _board("pacman3p.yaml")
    lines = []
    driver.run_program(compile_program(board, make_query(board, horizon=4)), board,
                       driver.Limits(progress=lines.append))
    assert lines[0].startswith("depth 0/4: ")
    assert any(line.startswith("values, up to ") for line in lines)
    assert lines[-1].startswith("ranks, up to ")
