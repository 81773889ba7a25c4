"""The seed games' GDL originals (read from ../shared/reference/gdl/: tests/gdl/reference.py)
answered by the generic engine from their initial states, compared with the shipped boards'
answers (boards/*.yaml): each role's value, and where the board measures them the plies and
every first move's value and plies.  Slow tier: each original explores 40,000 to 130,000 states."""
from __future__ import annotations

import pytest

from gridsolve.gdl.solving import solve_gdl
from gridsolve.language.kinds import QueryKind
from gridsolve.language.loader import load_board
from gridsolve.language.position import make_query
from gridsolve.solve.common.limits import Limits
from gridsolve.solve.dispatch.dispatcher import solve
from tests.gdl.reference import ROOT, kif_path

pytestmark = pytest.mark.slow


def board_answer(board: str, role: str):
    loaded = load_board(ROOT / "boards" / board)
    return solve(loaded, make_query(loaded, role, QueryKind.VALUE), Limits())


def last_word(move: str) -> str:
    return move.strip("()").split()[-1]


@pytest.mark.parametrize("kif, board, roles", [
    ("mummyMaze2p_2007.kif", "mummymaze2p-2007.yaml", ("explorer", "mummy")),
    ("wallmaze.kif", "wallmaze.yaml", ("white", "black")),
])
def test_each_role_s_value_from_the_start_is_the_board_s(kif, board, roles):
    answer = solve_gdl(kif_path(kif), limits=Limits(seconds=300))
    for role in roles:
        assert answer.values[role] == board_answer(board, role).value, role


def test_the_2007_maze_s_plies_and_first_moves_are_the_board_s():
    gdl = solve_gdl(kif_path("mummyMaze2p_2007.kif"), role="explorer", limits=Limits(seconds=300))
    ours = board_answer("mummymaze2p-2007.yaml", "explorer")
    assert (gdl.value, gdl.plies) == (ours.value, ours.plies) == (0, 20)
    assert {last_word(m.move): (m.value, m.plies) for m in gdl.moves} == {
        m.move: (m.value, m.plies) for m in ours.moves}
    assert [last_word(step.joint["explorer"]) for step in gdl.line[::2]][:3] == [
        ply.move for ply in ours.line[::2]][:3]
