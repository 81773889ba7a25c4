"""compile's size estimate for plain clingo (gridsolve/solve/common/plainsize.py, issue 47 item 3).

The boards and verdicts are bench/RESULTS-compiled.md's: plain clingo on ``gridsolve compile``'s
program within 60 s and 4 GB.  The tests use the estimate's numbers only (no timing)."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from gridsolve.cli import main
from gridsolve.compile.compiler import compile_program
from gridsolve.language.loader import load_board
from gridsolve.language.position import make_query
from gridsolve.solve.common.plainsize import GROUND_LIMIT, TEXT_LIMIT, plain_size

ROOT = Path(__file__).resolve().parents[1]


def size(path: str, kind: str = "value", horizon: int | None = None):
    board = load_board(ROOT / path)
    return plain_size(board, make_query(board, None, kind, horizon=horizon))


# measured to answer within the limits (bench/RESULTS-compiled.md)
RUNS = ["boards/mummymaze2p-2007.yaml", "boards/classic/first-steps.yaml", "boards/combined/scorpion-2007.yaml"]
RUNS_SLOW = ["boards/classic/scorpion-nest.yaml", "boards/order/crossing.yaml", "boards/mummymaze2p.yaml",
             "boards/classic/everything-at-once.yaml"]
# measured not to answer within them
FAILS = [("boards/combined/treasure.yaml", "value"), ("boards/maze-runner-duel.yaml", "value"),
         ("bench/boards/compiled-pacman-6x5.yaml", "win"), ("bench/boards/compiled-treasure-6x6.yaml", "value")]
FAILS_SLOW = [("boards/classic/red-ten.yaml", "value"), ("boards/order/five-hunters.yaml", "value"),
              ("bench/boards/compiled-order-9x9.yaml", "value"), ("boards/combined/pacman-chased.yaml", "value")]


@pytest.mark.parametrize("path", RUNS + [pytest.param(p, marks=pytest.mark.slow) for p in RUNS_SLOW])
def test_a_board_plain_clingo_answers_is_not_flagged(path):
    estimate = size(path)
    assert not estimate.too_big, estimate
    assert estimate.fitting_horizon is None


@pytest.mark.parametrize("path, kind", FAILS + [pytest.param(*p, marks=pytest.mark.slow) for p in FAILS_SLOW])
def test_a_board_plain_clingo_does_not_answer_is_flagged(path, kind):
    assert size(path, kind).too_big


def test_the_text_is_estimated_from_two_parts_of_each_family():
    """The estimate renders the second and last part of each family only (their sizes may differ
    a little with the index), and is within 1% of the text printed."""
    for path, horizon in (("boards/mummymaze2p-2007.yaml", None), ("boards/maze-runner-duel.yaml", 8)):
        board = load_board(ROOT / path)
        query = make_query(board, None, "value", horizon=horizon)
        text = len(compile_program(board, query).text)
        assert abs(plain_size(board, query).text - text) <= text / 100


def test_the_layered_solver_grows_with_its_plies_and_the_horizon_suggested_fits():
    """The treasure room: 29 positions and 29 plies (its reachable count) are flagged by the
    layered program's ground rules, though its text is small; the horizon the warning suggests
    is the last that is not flagged (measured: 16 plies answer)."""
    flagged = size("boards/combined/treasure.yaml")
    assert flagged.positions == flagged.plies == 29 and flagged.text < TEXT_LIMIT < 100 * flagged.text
    assert flagged.ground > GROUND_LIMIT and flagged.too_big
    fit = flagged.fitting_horizon
    assert 16 <= fit < 29
    assert not size("boards/combined/treasure.yaml", horizon=fit).too_big
    assert size("boards/combined/treasure.yaml", horizon=fit + 1).too_big


@pytest.mark.slow
def test_the_race_solvers_text_grows_linearly_with_the_levels_and_the_horizon_suggested_fits():
    """Red ten: an unlimited game, its horizon the 4,305 reachable positions; each level part has
    a fixed size (solve.lp reads ``ranked/3`` of the level before, not every earlier level), so
    twice the levels are about twice the text; the horizon suggested gives a program under the limit."""
    flagged = size("boards/classic/red-ten.yaml")
    assert flagged.positions == flagged.plies == 4305 and flagged.text > TEXT_LIMIT and flagged.too_big
    short, long = size("boards/classic/red-ten.yaml", horizon=1000), size("boards/classic/red-ten.yaml", horizon=2000)
    assert 1.8 < long.text / short.text < 2.2
    fits = size("boards/classic/red-ten.yaml", horizon=flagged.fitting_horizon)
    assert not fits.too_big and fits.text > TEXT_LIMIT / 2


def test_compile_warns_in_one_line_first_and_prints_the_program_all_the_same():
    result = CliRunner().invoke(main, ["compile", str(ROOT / "boards/combined/treasure.yaml")])
    assert result.exit_code == 0, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("warning: this program is too big for plain clingo")
    fit = size("boards/combined/treasure.yaml").fitting_horizon
    assert "29 positions x 29 plies" in lines[0] and "gridsolve solve" in lines[0] and f"--horizon {fit} fits" in lines[0]
    assert result.stdout.startswith("% gridsolve program: board The treasure room")


def test_compile_says_nothing_more_where_the_program_fits():
    result = CliRunner().invoke(main, ["compile", str(ROOT / "boards/mummymaze2p-2007.yaml")])
    assert result.exit_code == 0 and result.stderr == ""
