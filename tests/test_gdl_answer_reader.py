"""A GDL game's answer through the one reader (gridsolve/solve/common/outcome.py, issue 44): the
breadth-first ranking's principal line walked by the one rule on its :class:`RankView`, against
the walk written here (each side steps into the rank one lower, the first such in the graph's
order); the answer's ``--json`` fields and their order (docs/gdl.md); a line hand-checked."""
from __future__ import annotations

from pathlib import Path

import pytest

from gridsolve.gdl.answers import ranked_line, role_graph
from gridsolve.gdl.engine import explore, ground_game
from gridsolve.gdl.description import read_description
from gridsolve.gdl.solving import limits_guard, solve_gdl
from gridsolve.gdl.translate import symbol_kif
from gridsolve.solve.common.answer import GAME_FIELDS, GAME_MOVE_FIELDS, Answer, GameDetail
from gridsolve.solve.common.limits import Limits

GAMES = Path(__file__).parent / "gdl" / "games"


def rank_walk(game, explored, rg, ranks) -> list[str]:
    """The line's joint moves by the walk written here: from state 0 while not at an end and
    forced later, the role's move into the rank one lower, then the others' answer into the rank
    one lower after it, each the first such in the graph's order."""
    off, succ = rg.graph.rows()
    out, state = [], 0
    while not explored.terminal[state] and ranks[state] > 0:
        options = succ[off[state]:off[state + 1]]
        choice = int(next(c for c in options if ranks[c] == ranks[state] - 1))
        answers = succ[off[choice]:off[choice + 1]]
        nxt = int(next(c for c in answers if ranks[c] == ranks[choice] - 1))
        own = rg.choice_move[choice - explored.count]
        edge = next(e for e in range(len(explored.src)) if explored.src[e] == state and explored.dst[e] == nxt
                    and explored.joints[explored.joint[e], rg.role] == own)
        out.append(" ".join(symbol_kif(game.moves[r][m]) for r, m in enumerate(explored.joints[explored.joint[edge]])))
        state = nxt
    return out


@pytest.mark.parametrize("name", ["nim", "maze", "chase", "hanoi", "blockade", "tictactoe"])
def test_the_ranked_line_is_the_walk_into_the_rank_one_lower_at_every_threshold(name):
    guard = limits_guard(GAMES / f"{name}.kif", Limits())
    game = ground_game(read_description(GAMES / f"{name}.kif"), guard)
    explored = explore(game, game.init, guard)
    checked = 0
    for role in range(len(game.role_names)):
        rg = role_graph(game, explored, role, None)
        measured = [(value, ranks) for value, ranks in zip(rg.thresholds, rg.ranks)]
        if rg.floor is not None:
            measured.append((rg.thresholds[0], rg.floor))
        for value, ranks in measured:
            line, _ = ranked_line(game, explored, rg, value, ranks)
            assert [ply.move for ply in line] == rank_walk(game, explored, rg, ranks), (name, role, value)
            assert [ply.index for ply in line] == list(range(len(line)))
            checked += bool(line)
    assert checked > 0


def test_the_role_hurries_to_its_win_by_the_one_rule(tmp_path):
    # (from 0: go 1 wins at once; go 2 wins a step later, through 2 then 3)
    path = tmp_path / "hurry.kif"
    path.write_text("(role p) (init (at 0))\n"
                    "(<= (legal p (go 2)) (true (at 0))) (<= (legal p (go 1)) (true (at 0)))\n"
                    "(<= (legal p (go 3)) (true (at 2)))\n"
                    "(<= (next (at ?x)) (does p (go ?x)))\n"
                    "(<= terminal (true (at 1))) (<= terminal (true (at 3)))\n"
                    "(<= (goal p 100) terminal) (<= (goal p 0) (not terminal))\n")
    answer = solve_gdl(path)
    assert (answer.value, answer.plies, answer.win, answer.win_plies, answer.win_moves) == (100, 1, True, 1, 1)
    assert [(ply.move, ply.joint, ply.after.fluents) for ply in answer.line] == [("(go 1)", {"p": "(go 1)"}, ("(at 1)",))]
    assert {move.move: (move.value, move.plies) for move in answer.moves} == {"(go 1)": (100, 0), "(go 2)": (100, 1)}


def test_a_gdl_answer_is_the_one_answer_with_its_game_detail_and_writes_the_gdl_fields_in_order():
    answer = solve_gdl(GAMES / "nim.kif")
    assert isinstance(answer, Answer) and answer.game == GameDetail(100, {"first": 0, "second": 100})
    written = answer.as_dict()
    assert tuple(written) == GAME_FIELDS
    assert all(tuple(move) == GAME_MOVE_FIELDS for move in written["moves"]) and written["moves"]
    assert [list(step) for step in written["line"]] == [["ply", "side", "move", "joint", "after"]] * len(answer.line)
    assert written["line"][-1]["after"] == list(answer.line[-1].after.fluents)
    assert (written["query"], written["survives"], written["doom_plies"], written["remaining"]) == ("value", None, None, None)
    assert written["stats"]["solver"] == "gdl engine" and written["stats"]["positions"] == 40
    depth = solve_gdl(GAMES / "nim.kif", search="depth")
    assert tuple(depth.as_dict()) == GAME_FIELDS and depth.as_dict()["stats"]["search"] == "depth"
    assert (depth.value, depth.plies, depth.values, len(depth.line)) == (answer.value, answer.plies, answer.values, 6)
    assert [(m.move, m.value, m.plies) for m in depth.moves] == [(m.move, m.value, m.plies) for m in answer.moves]
