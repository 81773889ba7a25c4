"""The two references of the Mummy Maze family agree: reference/retrograde.py (BFS and retrograde
analysis, the baseline bench/ times gridsolve against) and reference/game.py (plain recursion over
every rule option), on a hand-checked corridor and on the seed boards at small horizons; and the
retrograde refuses the boards whose rules it does not play.  (On bench/'s boards they agree at the
full step limit of the two seeds and at horizon 20 on the random 8x8 and 12x12 boards, the
recursion 15 to 140 times slower: too slow for the tests.)"""
from __future__ import annotations

import pytest

from conftest import CORRIDOR, ROOT, tiered
from reference import game, retrograde
from reference.board import initial_position


def both(path, role, horizon):
    """(retrograde's answer, the recursion's) as the same fields, every move's included."""
    start = initial_position(path)
    mine = retrograde.answer(path, role, start, horizon)
    theirs = game.reference_answer(path, role, "value", start, horizon)
    keys = ("value", "win", "win_plies", "survives", "doom_plies", "remaining")
    return ({**{k: mine[k] for k in keys}, "plies": mine["plies"],
             "moves": {m["move"]: (m["value"], m["plies"], m["win"], m["survives"]) for m in mine["moves"]}},
            {**{k: theirs[k] for k in keys}, "plies": theirs["value_plies"], "moves": theirs["moves"]})


def test_the_explorer_escapes_the_corridor_in_three_plies(tmp_path):
    path = tmp_path / "corridor.yaml"
    path.write_text(CORRIDOR, encoding="utf-8")
    mine, theirs = both(path, "explorer", None)
    assert mine == theirs
    assert (mine["win"], mine["win_plies"]) == (True, 3)          # east, (the mummy), east
    assert mine["moves"]["east"][2] is True and mine["moves"]["west"][2] is False


@pytest.mark.parametrize("board, role, horizon", tiered([
    ("boards/mummymaze2p-2007.yaml", "explorer", 6), ("boards/mummymaze2p-2007.yaml", "mummy", 6),
    ("boards/mummymaze2p.yaml", "explorer", 10), ("boards/mummymaze2p.yaml", "mummy", 10),
    ("bench/boards/random-8x8-s1.yaml", "explorer", 20)], 2))
def test_retrograde_and_recursion_agree_on_the_seeds(board, role, horizon):
    mine, theirs = both(ROOT / board, role, horizon)
    assert mine == theirs
    assert mine["moves"]


@pytest.mark.parametrize("board, reason", [("boards/pacman3p.yaml", "collectibles"),
                                           ("boards/maze-runner-duel.yaml", "secret marks, bumps"),
                                           ("boards/wallmaze.yaml", "collisions other than allowed")])
def test_the_retrograde_refuses_what_it_does_not_play(board, reason):
    with pytest.raises(NotImplementedError, match=f"baseline: .*{reason}"):
        retrograde.Game(ROOT / board, [(1, 1)] * 3, 0)
