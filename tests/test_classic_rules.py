"""The compiled rules of classic Mummy Maze (rules/mummy-maze-classic.yaml and its red variant) on
tiny hand-checked positions: one turn from a stated position, by gridsolve's own compiled program
(``examine``: the moves and the position each leads to), for every rule of the turn function and
its quirks (docs/classic-mummy-maze.md).  Each board is drawn in its comment: x grows east, y
north; E explorer, M mummy, m mummy2, S scorpion, X exit, T trap, K key; '=' / ':' a gate.
"""
from __future__ import annotations

import textwrap

import pytest

from gridsolve.language.loader import load_board
from gridsolve.language.position import initial_position
from gridsolve.solve.program.explore import examine
from gridsolve.solve.dispatch.dispatcher import solve
from gridsolve.language.position import Query

GONE = (0, 0)


def board(tmp_path, size, pieces, marks=None, walls=None, gates=None, rules="mummy-maze-classic"):
    text = textwrap.dedent(f"""\
        rules: {rules}
        size: {list(size)}
        pieces: {{{', '.join(f'{p}: {list(c)}' for p, c in pieces.items())}}}
        marks: {{{', '.join(f'{m}: {[list(c) for c in cells]}' for m, cells in (marks or {'exit': [(size[0], 1)]}).items())}}}
        """)
    if walls:
        text += f"walls: {{{', '.join(f'{k}: {[list(c) for c in v]}' for k, v in walls.items())}}}\n"
    if gates:
        text += f"gates: {{{', '.join(f'{k}: {[list(c) for c in v]}' for k, v in gates.items())}}}\n"
    path = tmp_path / "level.yaml"
    path.write_text(text, encoding="utf-8")
    return load_board(path)


def turn(b, move, position=None):
    """(the end that holds after ``move`` or None, {piece: cell}, gates open) after one turn."""
    position = position or initial_position(b)
    end, steps = examine(b, position)
    assert end is None
    after = {s.move: s.position for s in steps}[move]
    end_after, _ = examine(b, after)
    return end_after, dict(after.pieces), after.gates_open


def test_explorer_steps_waits_and_bumps(tmp_path):
    # 4x1: E . . M ; the explorer steps east, or waits; west is the border: he stays, the turn passes
    b = board(tmp_path, (4, 1), {"explorer": (1, 1), "mummy": (4, 1)}, {"exit": [(3, 1)]})
    _, steps = examine(b, initial_position(b))
    assert sorted(s.move for s in steps) == ["east", "north", "nowhere", "south", "west"]
    end, cells, _ = turn(b, "west")
    assert cells["explorer"] == (1, 1) and cells["mummy"] == (2, 1) and end is None  # the mummy moved two
    end, cells, _ = turn(b, "east")
    assert cells["explorer"] == (2, 1) and cells["mummy"] == (2, 1) and end == "caught"


def test_white_mummy_goes_horizontal_first_then_vertical(tmp_path):
    # 3x3: mummy (3,3), explorer (1,1): white: west twice -> (1,3)
    b = board(tmp_path, (3, 3), {"explorer": (1, 1), "mummy": (3, 3)}, {"exit": [(3, 1)]})
    _, cells, _ = turn(b, "nowhere")
    assert cells["mummy"] == (1, 3)
    # red: south twice -> (3,1)
    r = board(tmp_path, (3, 3), {"explorer": (1, 1), "mummy": (3, 3)}, {"exit": [(2, 3)]},
              rules="mummy-maze-classic-red")
    _, cells, _ = turn(r, "nowhere")
    assert cells["mummy"] == (3, 1)


def test_blocked_horizontal_step_tries_vertical_and_both_blocked_stays(tmp_path):
    # wall west of the mummy at (3,3): it goes south instead, then west at (3,2)? no: wall east of
    # (2,3) only; from (3,2) west is open -> (2,2)
    b = board(tmp_path, (3, 3), {"explorer": (1, 1), "mummy": (3, 3)}, {"exit": [(3, 1)]},
              walls={"east": [(2, 3)]})
    _, cells, _ = turn(b, "nowhere")
    assert cells["mummy"] == (2, 2)
    # walled in west and south: it stays
    b = board(tmp_path, (3, 3), {"explorer": (1, 1), "mummy": (3, 3)}, {"exit": [(3, 1)]},
              walls={"east": [(2, 3)], "north": [(3, 2)]})
    _, cells, _ = turn(b, "nowhere")
    assert cells["mummy"] == (3, 3)


def test_level_with_the_target_only_the_other_axis(tmp_path):
    # mummy in the explorer's column (1,3), explorer (1,1): south twice -> catches him
    b = board(tmp_path, (3, 3), {"explorer": (1, 1), "mummy": (1, 3)}, {"exit": [(3, 1)]})
    end, cells, _ = turn(b, "nowhere")
    assert cells["mummy"] == (1, 1) and end == "caught"


def test_mummy_reaching_him_on_the_exit_kills_him(tmp_path):
    # E at (2,1) steps east onto the exit (3,1); the mummy at (3,3) comes south twice
    b = board(tmp_path, (3, 3), {"explorer": (2, 1), "mummy": (3, 3)}, {"exit": [(3, 1)]})
    end, cells, _ = turn(b, "east")
    assert cells["explorer"] == (3, 1) and cells["mummy"] == (3, 1) and end == "caught"


def test_a_caught_explorer_stops_the_turn_after_the_first_round(tmp_path):
    # mummy (2,1) one step from E (1,1); mummy2 far away at (5,5) moves only in round 1
    b = board(tmp_path, (5, 5), {"explorer": (1, 1), "mummy": (2, 1), "mummy2": (5, 5)}, {"exit": [(5, 1)]})
    end, cells, _ = turn(b, "nowhere")
    assert end == "caught" and cells["mummy"] == (1, 1) and cells["mummy2"] == (4, 5)


def test_trap_kills_and_the_enemies_do_not_move(tmp_path):
    b = board(tmp_path, (4, 1), {"explorer": (1, 1), "mummy": (4, 1)}, {"exit": [(4, 1)], "trap": [(2, 1)]})
    end, cells, _ = turn(b, "east")
    assert end == "trapped" and cells["mummy"] == (4, 1)


def test_stepping_onto_an_enemy_is_fatal(tmp_path):
    b = board(tmp_path, (4, 1), {"explorer": (1, 1), "mummy": (4, 1), "scorpion": (2, 1)}, {"exit": [(4, 1)]})
    end, cells, _ = turn(b, "east")
    assert end == "stung" and cells["scorpion"] == (2, 1) and cells["mummy"] == (4, 1)


def test_scorpion_one_step_and_dies_on_a_mummy(tmp_path):
    # scorpion (3,1) steps west onto mummy2 (2,1)? mummy2 must stand there: it dies, leaves the board
    b = board(tmp_path, (5, 2), {"explorer": (1, 2), "mummy": (5, 2), "mummy2": (2, 1), "scorpion": (3, 1)},
              {"exit": [(5, 1)]})
    _, cells, _ = turn(b, "nowhere")
    assert cells["scorpion"] == GONE


def test_two_mummies_on_one_cell_mummy2_leaves(tmp_path):
    # explorer (1,1); mummy (3,1) and mummy2 (3,2): round 1: mummy -> (2,1), mummy2 -> (2,2);
    # round 2: mummy -> (1,1) catches him... use a wall so both meet: mummy2 in the same row
    b = board(tmp_path, (6, 1), {"explorer": (1, 1), "mummy": (4, 1), "mummy2": (5, 1)}, {"exit": [(6, 1)]},
              walls={"east": [(2, 1)]})
    # round 1: mummy -> (3,1) (west of it is the wall at (2,1)|(3,1)), mummy2 -> (4,1);
    # round 2: mummy stays (3,1), mummy2 -> (3,1): mummy2 leaves the board
    _, cells, _ = turn(b, "nowhere")
    assert cells["mummy"] == (3, 1) and cells["mummy2"] == GONE


def test_gate_blocks_when_closed_and_key_opens_it(tmp_path):
    # 3x2, gate between (1,1) and (2,1); key at (1,2). E at (1,1): east is blocked by the closed gate
    # the mummy at (3,1): west to (2,1), then the closed gate blocks it and it is level: it stays
    b = board(tmp_path, (3, 2), {"explorer": (1, 1), "mummy": (3, 1)}, {"exit": [(3, 2)], "key": [(1, 2)]},
              gates={"east": [(1, 1)]})
    _, cells, opened = turn(b, "east")
    assert cells["explorer"] == (1, 1) and cells["mummy"] == (2, 1) and not opened
    # north onto the key: the gate opens, and the mummy's steps see it open: west twice... through it
    _, cells, opened = turn(b, "north")
    assert cells["explorer"] == (1, 2) and cells["mummy"] == (1, 1) and opened


def test_key_once_per_turn_scorpion_after_explorer(tmp_path):
    # explorer enters the key; the scorpion steps onto... a second key cell: the key is used
    b = board(tmp_path, (4, 2), {"explorer": (2, 1), "mummy": (4, 2), "scorpion": (4, 1)},
              {"exit": [(4, 2)], "key": [(1, 1), (3, 1)]}, gates={"north": [(4, 1)]})
    _, cells, opened = turn(b, "west")
    # explorer entered the key at (1,1): open; the scorpion steps west onto the key (3,1): used, no flip
    assert cells["explorer"] == (1, 1) and cells["scorpion"] == (3, 1) and opened


def test_mummy_waiting_on_the_key_does_not_flip(tmp_path):
    # the mummy starts the turn on the key (2,2) and the explorer stands in its column below: it
    # leaves and does not come back; a mummy that stays on the key cell does not flip it either
    b = board(tmp_path, (3, 3), {"explorer": (2, 1), "mummy": (2, 3)}, {"exit": [(3, 3)], "key": [(2, 3)]},
              gates={"east": [(1, 1)]}, walls={"north": [(2, 2)]})
    _, cells, opened = turn(b, "nowhere")
    assert cells["mummy"] == (2, 3) and not opened


def test_mummy_entering_the_key_flips(tmp_path):
    b = board(tmp_path, (3, 3), {"explorer": (1, 1), "mummy": (3, 1)}, {"exit": [(3, 3)], "key": [(2, 1)]},
              gates={"north": [(3, 2)]}, walls={"east": [(1, 1)]})
    _, cells, opened = turn(b, "nowhere")
    # mummy: west to the key (2,1) (flip: open), then west is walled, vertical level: stays
    assert cells["mummy"] == (2, 1) and opened


REMOVED = """\
name: Removed
rules:
  use: mummy-maze-classic
  after_ply:
    - step: [scorpion]                           # the scorpion steps onto the mummy (and the key)
    - remove: {piece: scorpion, by: [mummy]}     # it is removed: it stays on that cell to the ply's end
    - step: [scorpion]                           # a removed piece takes no step,
    - remove: {piece: mummy, by: [scorpion]}     # removes no one as a `by` piece,
    - stop: {same_cell: [mummy, scorpion]}       # and holds in no condition,
    - remove: {piece: scorpion, by: [mummy], flips_on_key: true}   # but it can be met again
    - step: [mummy]
    - stop: {same_cell: [explorer, mummy]}
size: [5, 1]
pieces: {explorer: [1, 1], mummy: [3, 1], scorpion: [4, 1]}
marks: {exit: [[5, 1]], key: [[3, 1]]}
gates: {east: [[4, 1]]}
"""


def test_a_piece_being_removed_stays_but_no_longer_acts(tmp_path):
    # docs/rule-language.md's example: E . M S : X, the key under M, the gate east of (4,1).
    # S steps onto M and is removed; had it stepped again it would not be met on the key (the
    # gate stays closed); had it removed M, M would be gone; had the stop held, M would not step.
    path = tmp_path / "removed.yaml"
    path.write_text(REMOVED, encoding="utf-8")
    b = load_board(path)
    end, cells, gates_open = turn(b, "nowhere")
    assert cells["scorpion"] == GONE and cells["mummy"] == (2, 1) and gates_open and end is None
    # the solver and the compiled program (clingo) give the same answer: the mummy, not removed,
    # catches him in 2 plies (3 had the stop held; a win had the scorpion removed the mummy)
    from gridsolve.compile.compiler import compile_program
    from gridsolve.solve.common.limits import Limits
    from gridsolve.solve.program.driver import run_program
    query = Query("explorer", "value", initial_position(b))
    solved, compiled = solve(b, query), run_program(compile_program(b, query), b, Limits())
    assert solved.stats.solver == "race" and compiled.stats.solver != "race"
    for answer in (solved, compiled):
        assert (answer.value, answer.plies, answer.win) == (0, 2, False)
        assert {m.move: (m.value, m.plies) for m in answer.moves} == {
            "east": (0, 0), "north": (0, 1), "nowhere": (0, 1), "south": (0, 1), "west": (0, 1)}


def test_no_step_limit_waiting_forever_is_not_a_win(tmp_path):
    # the explorer shut in a room with no way to the exit; the mummy shut out: he survives forever
    b = board(tmp_path, (3, 1), {"explorer": (1, 1), "mummy": (3, 1)}, {"exit": [(3, 1)]},
              walls={"east": [(1, 1), (2, 1)]})
    answer = solve(b, Query("explorer", "value", initial_position(b)))
    assert answer.win is False and answer.survives is True and answer.value == 50
    assert answer.win_moves is None


@pytest.mark.parametrize("rules", ["mummy-maze-classic", "mummy-maze-classic-red"])
def test_shortest_solution_and_win_moves(tmp_path, rules):
    # a corridor: E (1,1) -> exit (4,1); the mummy locked away behind walls at (4,3)
    b = board(tmp_path, (4, 3), {"explorer": (1, 1), "mummy": (4, 3)}, {"exit": [(4, 1)]},
              walls={"north": [(4, 2), (3, 2)], "east": [(3, 3)]}, rules=rules)
    answer = solve(b, Query("explorer", "win", initial_position(b)))
    assert answer.win is True and answer.win_moves == 3 and answer.plies == 3
