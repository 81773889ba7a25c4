"""The solver on the seed boards and on small boards: answers, strategies, positions."""
from __future__ import annotations

import pytest

from gridsolve.solve.program.explore import examine
from gridsolve.language.loader import load_board
from gridsolve.language.position import Position, make_query
from gridsolve.compile.compiler import compile_program
from gridsolve.solve.program.driver import run_program
from gridsolve.solve.dispatch.dispatcher import solve

from conftest import ROOT

SEEDS = {"2007": ROOT / "boards" / "mummymaze2p-2007.yaml", "gdl": ROOT / "boards" / "mummymaze2p.yaml"}


@pytest.fixture(scope="module")
def seeds():
    return {name: load_board(path) for name, path in SEEDS.items()}


@pytest.mark.slow
@pytest.mark.parametrize("seed,plies", [("2007", 20), ("gdl", 18)])
def test_seed_initial_positions_are_forced_captures(seeds, seed, plies):
    board = seeds[seed]
    explorer = solve(board, make_query(board, "explorer", "value"))
    mummy = solve(board, make_query(board, "mummy", "win"))
    assert (explorer.value, explorer.plies, explorer.win, explorer.survives) == (0, plies, False, False)
    assert (mummy.value, mummy.holds, mummy.plies, mummy.survives) == (100, True, plies, True)
    # the principal line ends in the capture
    assert len(explorer.line) == plies
    # the program gridsolve compile prints answers the same, and clingo makes no choice in it
    single = run_program(compile_program(board, make_query(board, "explorer", "value")), board)
    assert single.stats.detail.choices == 0
    assert {**single.as_dict(), "stats": None} == {**explorer.as_dict(), "stats": None}


def test_best_move_carries_the_value(seeds):
    board = seeds["2007"]
    answer = solve(board, make_query(board, "explorer", "value", at=("explorer=2,3",), turn="explorer"))
    assert answer.moves
    assert max(m.value for m in answer.moves) == answer.value


def test_horizon_bounds_the_look_ahead(seeds):
    board = seeds["2007"]
    short = solve(board, make_query(board, "explorer", "survive", horizon=10))
    assert short.remaining == 10 and short.holds is True and short.plies is None
    assert short.value == 50      # within 10 plies nothing is forced: scored as at timeout


def test_step_sets_the_side_and_the_remaining_plies(seeds):
    board = seeds["2007"]
    answer = solve(board, make_query(board, "explorer", "value", step=48))
    assert answer.position["turn"] == ["mummy"] and answer.remaining == 2


def test_a_terminal_position_has_its_end_scores(seeds):
    board = seeds["2007"]
    answer = solve(board, make_query(board, "explorer", "value", at=("explorer=1,3",)))
    assert (answer.value, answer.plies, answer.moves, answer.win) == (100, 0, [], True)
    caught = solve(board, make_query(board, "explorer", "value", at=("explorer=1,3", "mummy=1,3")))
    assert (caught.value, caught.plies) == (0, 0)      # capture beats escape


def _check_strategy(board, answer, role, kind):
    """Every strategy move is legal, and every reply leads back into the strategy or to an end
    that is good for the role (win: the role's best score; survive: not a losing end)."""
    policy = {}
    for entry in answer.strategy:
        pieces = tuple((r, tuple(entry["position"]["pieces"][r])) for r in board.rules.roles)
        side = board.rules.turns.index(tuple(entry["position"]["turn"]))
        policy[(pieces, side)] = entry["move"]
    best = max(board.rules.scores_of(role))
    ends = {e.name: e for e in board.rules.ends}
    own = board.rules.side_of(role)
    for (pieces, side), move in policy.items():
        assert side == own
        end, steps = examine(board, Position(pieces, side, 0))
        assert end is None
        chosen = [s for s in steps if s.move == move]
        assert chosen, f"strategy move {move} is not legal"
    # play every line from the query position for the remaining plies
    root = answer_root(board, answer)
    frontier = [(root, 0)]
    seen = set()
    while frontier:
        pos, played = frontier.pop()
        if (pos.pieces, pos.side, played) in seen:
            continue
        seen.add((pos.pieces, pos.side, played))
        end, replies = examine(board, pos)
        if end is not None:
            if kind == "win":
                assert ends[end].scores[role] == best
            else:
                assert role not in ends[end].loss_for
            continue
        if played == answer.remaining:
            assert kind == "survive", "a win strategy must have won by now"
            continue
        if pos.side == own:
            move = policy[(pos.pieces, pos.side)]
            frontier += [(r.position, played + 1) for r in replies if r.move == move]
        else:
            frontier += [(r.position, played + 1) for r in replies]


def answer_root(board, answer):
    pieces = tuple((r, tuple(answer.position["pieces"][r])) for r in board.rules.roles)
    return Position(pieces, board.rules.turns.index(tuple(answer.position["turn"])), answer.position["step"])


@pytest.mark.slow
def test_win_strategy_is_closed_and_winning(seeds):
    board = seeds["2007"]
    query = make_query(board, "explorer", "win", at=("explorer=2,3", "mummy=8,8"), strategy=True)
    answer = solve(board, query)
    assert answer.holds and answer.strategy
    _check_strategy(board, answer, "explorer", "win")


@pytest.mark.slow
def test_survive_strategy_avoids_capture(seeds):
    board = seeds["gdl"]
    query = make_query(board, "explorer", "survive", horizon=6, strategy=True)
    answer = solve(board, query)
    assert answer.holds and answer.strategy
    _check_strategy(board, answer, "explorer", "survive")


@pytest.mark.slow
@pytest.mark.parametrize("role", ["explorer", "mummy"])
def test_stopping_at_the_fixpoint_gives_the_single_shot_answer(seeds, role):
    """solve() grounds levels until they stop changing; plain clingo grounds every level."""
    from gridsolve.compile.compiler import compile_program
    from conftest import run_clingo
    board = seeds["gdl"]
    query = make_query(board, role, "value")
    answer = solve(board, query)
    assert answer.stats.detail.levels < answer.remaining
    atoms = run_clingo(compile_program(board, query).text)
    assert f"value(0,at,{answer.value})" in atoms and f"plies(0,at,{answer.plies})" in atoms
    line = sorted((a for a in atoms if a.startswith("line(")), key=lambda a: int(a[5:a.index(",")]))
    assert len(line) == len(answer.line)
    values = sorted(int(a[a.rindex(",") + 1:-1]) for a in atoms if a.startswith("value(0,") and ",at," not in a)
    assert values == sorted(m.value for m in answer.moves)
