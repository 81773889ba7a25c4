"""The classic Mummy Maze reference (reference/classic.py) on tiny hand-checked positions.

Every expected position below was worked out by hand from issue 31's rules, one per rule and per
quirk; each test names the rule it pins.  The drawings: north up, x east from 1 on the left,
y north from 1 at the bottom; E explorer, M mummy (1), N mummy 2, S scorpion, X exit, T trap,
K key; ``|`` and ``---`` walls, ``:`` (between two cells of a row) and ``...`` (between two rows)
the gate.  A piece standing on a mark is written over it and the mark named beside the drawing.
The random boards (tests/classic_boards.py) are checked at the end: their promises, and the
reference's search against a plain replay of every short line.
"""
from __future__ import annotations

import itertools

import pytest
import yaml

from classic_boards import random_classic_board
from reference.classic import DEAD, ON, WON, State, draw, parse_board, play, solve, turn


def board(size, *, explorer, exit, mummy=None, mummy2=None, scorpion=None, red=False, north=(), east=(),
          gate_north=(), gate_east=(), trap=(), key=None):
    """A level in the issue's explicit form, written as YAML and read by the reference."""
    cells = lambda cs: "[" + ", ".join(f"[{x}, {y}]" for x, y in cs) + "]"   # noqa: E731
    pieces = {"explorer": explorer, "mummy": mummy, "mummy2": mummy2, "scorpion": scorpion}
    marks = {"exit": [exit], "trap": list(trap), "key": [key] if key else []}
    text = "\n".join([
        f"rules: {'mummy-maze-classic-red' if red else 'mummy-maze-classic'}",
        f"size: [{size[0]}, {size[1]}]",
        f"walls: {{north: {cells(north)}, east: {cells(east)}}}",
        "pieces: {" + ", ".join(f"{p}: [{c[0]}, {c[1]}]" for p, c in pieces.items() if c) + "}",
        "marks: {" + ", ".join(f"{m}: {cells(cs)}" for m, cs in marks.items() if cs) + "}",
        *([f"gates: {{north: {cells(gate_north)}, east: {cells(gate_east)}}}"] if gate_north or gate_east else []),
    ])
    return parse_board(text)


def after(level, move, **changes):
    """The turn from the level's start position, with ``changes`` to it (e.g. the gate open)."""
    return turn(level, level.start._replace(**changes), move)


# --- rule 1: the explorer's step ------------------------------------------------------------

# +---+---+---+
# |           |
# +   +   +   +
# |     E     |
# +   +   +   +
# | X         |
# +---+---+---+
@pytest.mark.parametrize("move,to", [("north", (2, 3)), ("east", (3, 2)), ("south", (2, 1)), ("west", (1, 2)),
                                     ("nowhere", (2, 2))])
def test_rule1_the_explorer_steps_one_cell_or_waits(move, to):
    level = board((3, 3), explorer=(2, 2), exit=(1, 1))
    assert after(level, move) == (State(to), ON)


# +---+---+---+        north: [[2, 2]] is the edge between (2,2) and (2,3);
# |           |        east: [[2, 2]] the edge between (2,2) and (3,2)
# +   +---+   +
# |     E |   |
# +   +   +   +
# | X         |
# +---+---+---+
@pytest.mark.parametrize("start,move,to", [
    ((2, 2), "north", (2, 2)), ((2, 3), "south", (2, 3)), ((2, 2), "east", (2, 2)), ((3, 2), "west", (3, 2)),
    ((2, 2), "south", (2, 1)), ((2, 2), "west", (1, 2)), ((2, 3), "east", (3, 3)), ((3, 2), "north", (3, 3))])
def test_rule1_a_wall_stops_the_explorer_from_either_side_and_only_there(start, move, to):
    level = board((3, 3), explorer=start, exit=(1, 1), north=[(2, 2)], east=[(2, 2)])
    assert after(level, move) == (State(to), ON)


@pytest.mark.parametrize("start,move", [((1, 1), "south"), ((1, 1), "west"), ((3, 3), "north"), ((3, 3), "east")])
def test_rule1_the_border_stops_the_explorer(start, move):
    level = board((3, 3), explorer=start, exit=(3, 1))
    assert after(level, move) == (State(start), ON)


# +---+---+---+---+
# |             X |      west into the border: he stays, and the mummy still takes its two steps
# +   +   +   +   +
# | E         M   |
# +---+---+---+---+
def test_rule1_a_step_into_the_border_still_passes_the_turn():
    level = board((4, 2), explorer=(1, 1), mummy=(4, 1), exit=(4, 2))
    assert after(level, "west") == (State((1, 1), mummy=(2, 1)), ON)


# +---+---+---+     +---+---+---+
# |           |     |           |
# +   +   +   +     +   +...+   +     the gate east of (1,2) (left), north of (2,2) (right)
# |   :       |     |           |
# +   +   +   +     +   +   +   +
# |         X |     |         X |
# +---+---+---+     +---+---+---+
@pytest.mark.parametrize("gate,start,move,to", [
    ("east", (1, 2), "east", (2, 2)), ("east", (2, 2), "west", (1, 2)),
    ("north", (2, 2), "north", (2, 3)), ("north", (2, 3), "south", (2, 2))])
@pytest.mark.parametrize("gate_open", [False, True])
def test_rule1_a_closed_gate_stops_the_explorer_and_an_open_one_does_not(gate, start, move, to, gate_open):
    where = {"gate_east": [(1, 2)]} if gate == "east" else {"gate_north": [(2, 2)]}
    level = board((3, 3), explorer=start, exit=(3, 1), **where)
    assert after(level, move, gate_open=gate_open) == (State(to if gate_open else start, gate_open=gate_open), ON)


# +---+---+---+
# |     X     |      he stands on the exit: north leaves him there, and he is alive on it: won
# +   +   +   +
# |           |
# +---+---+---+
@pytest.mark.parametrize("start", [(2, 2), (2, 1)])
def test_rule1_he_cannot_leave_through_the_exit(start):
    level = board((3, 2), explorer=start, exit=(2, 2))
    assert after(level, "north") == (State((2, 2)), WON)


# +---+---+---+
# |         X |      east onto the mummy: it stays on him (in line on both axes), and he dies
# +   +   +   +
# | E   M     |
# +---+---+---+
def test_rule1_stepping_onto_a_mummy_is_fatal():
    level = board((3, 2), explorer=(1, 1), mummy=(2, 1), exit=(3, 2))
    assert after(level, "east") == (State((2, 1), mummy=(2, 1)), DEAD)


def test_rule1_stepping_onto_the_scorpion_is_fatal():
    level = board((3, 2), explorer=(1, 1), scorpion=(2, 1), exit=(3, 2))
    assert after(level, "east") == (State((2, 1), scorpion=(2, 1)), DEAD)


# --- rule 2: the key, entered by the explorer ----------------------------------------------

# +---+---+---+
# |         X |
# +   +   +...+      the gate north of (3,1)
# | E   K     |
# +---+---+---+
@pytest.mark.parametrize("gate_open", [False, True])
def test_rule2_entering_the_key_sets_the_gate_opposite_to_its_turn_start_state(gate_open):
    level = board((3, 2), explorer=(1, 1), exit=(3, 2), key=(2, 1), gate_north=[(3, 1)])
    assert after(level, "east", gate_open=gate_open) == (State((2, 1), gate_open=not gate_open), ON)


@pytest.mark.parametrize("move", ["nowhere", "south"])     # waiting, or a step into the border
def test_rule2_standing_on_the_key_does_not_flip_the_gate(move):
    level = board((3, 2), explorer=(2, 1), exit=(3, 2), key=(2, 1), gate_north=[(3, 1)])
    assert after(level, move) == (State((2, 1)), ON)


def test_rule2_each_entry_flips_the_gate_again():
    level = board((3, 2), explorer=(1, 1), exit=(3, 2), key=(2, 1), gate_north=[(3, 1)])
    assert [(s.explorer, s.gate_open) for _m, s, _o in play(level, "east west east")] == [
        ((2, 1), True), ((1, 1), True), ((2, 1), False)]


# --- rule 3: traps ---------------------------------------------------------------------------

# +---+---+---+---+
# |         S   X |      east onto the trap: dead, and neither the mummy nor the scorpion moves
# +   +   +   +   +
# | E   T       M |
# +---+---+---+---+
def test_rule3_a_trap_kills_the_explorer_and_the_enemies_do_not_move():
    level = board((4, 2), explorer=(1, 1), mummy=(4, 1), scorpion=(3, 2), exit=(4, 2), trap=[(2, 1)])
    assert after(level, "east") == (State((2, 1), mummy=(4, 1), scorpion=(3, 2)), DEAD)


# +---+---+---+---+---+
# |     T   S         |      the scorpion steps west onto the trap; the mummy walks over the
# +   +   +   +   +   +      trap (4,1) onto the exit (3,1); all of them live on
# | E       X   T   M |
# +---+---+---+---+---+
def test_rule3_and_7_enemies_cross_traps_and_the_exit_freely():
    level = board((5, 2), explorer=(1, 1), mummy=(5, 1), scorpion=(3, 2), exit=(3, 1), trap=[(4, 1), (2, 2)])
    assert after(level, "nowhere") == (State((1, 1), mummy=(3, 1), scorpion=(2, 2)), ON)


# --- rule 4: the scorpion --------------------------------------------------------------------

# +---+---+---+---+---+
# |                 X |
# +   +   +   +   +   +
# |             S     |      white: one step west to (3,4); red: one step south to (4,3)
# +   +   +   +   +   +
# |                   |
# +   +   +   +   +   +
# |                   |
# +   +   +   +   +   +
# | E                 |
# +---+---+---+---+---+
@pytest.mark.parametrize("red,to", [(False, (3, 4)), (True, (4, 3))])
def test_rule4_the_scorpion_takes_one_step_toward_the_explorer(red, to):
    level = board((5, 5), explorer=(1, 1), scorpion=(4, 4), exit=(5, 5), red=red)
    assert after(level, "nowhere") == (State((1, 1), scorpion=to), ON)


@pytest.mark.parametrize("scorpion,move,explorer", [((2, 1), "nowhere", (1, 1)), ((3, 1), "east", (2, 1))])
def test_rule4_the_scorpion_reaching_the_explorer_kills_him(scorpion, move, explorer):
    level = board((4, 2), explorer=(1, 1), scorpion=scorpion, exit=(4, 2))
    assert after(level, move) == (State(explorer, scorpion=explorer), DEAD)


# +---+---+---+---+        +---+---+---+---+
# |             X |        | M           X |    the scorpion steps west onto the mummy (left) or
# +   +   +   +   +        +---+   +   +   +    onto mummy 2 (right): it dies and leaves the board;
# | E     | M   S |        | E     | N   S |    the mummies are walled in and stay
# +---+---+---+---+        +---+---+---+---+
def test_rule4_a_scorpion_stepping_onto_a_mummy_dies():
    level = board((4, 2), explorer=(1, 1), mummy=(3, 1), scorpion=(4, 1), exit=(4, 2), east=[(2, 1)])
    assert after(level, "nowhere") == (State((1, 1), mummy=(3, 1)), ON)


def test_rule4_a_scorpion_stepping_onto_mummy_2_dies():
    level = board((4, 2), explorer=(1, 1), mummy=(1, 2), mummy2=(3, 1), scorpion=(4, 1), exit=(4, 2),
                  east=[(2, 1)], north=[(1, 1)])
    assert after(level, "nowhere") == (State((1, 1), mummy=(1, 2), mummy2=(3, 1)), ON)


# +---+---+---+---+
# |             X |      the scorpion steps west onto the key: the gate (north of (4,1)) flips
# +   +   +   +...+
# | E   K   S     |
# +---+---+---+---+
@pytest.mark.parametrize("gate_open", [False, True])
def test_rule4_the_scorpion_entering_the_key_flips_the_gate(gate_open):
    level = board((4, 2), explorer=(1, 1), scorpion=(3, 1), exit=(4, 2), key=(2, 1), gate_north=[(4, 1)])
    assert after(level, "nowhere", gate_open=gate_open) == (State((1, 1), scorpion=(2, 1), gate_open=not gate_open), ON)


# +---+---+---+---+
# |             X |      the scorpion stands on the key, walled off from the explorer: it stays,
# +   +   +   +...+      and the gate stays closed
# | E     | S     |   (S on K)
# +---+---+---+---+
def test_rule4_a_scorpion_staying_on_the_key_does_not_flip_the_gate():
    level = board((4, 2), explorer=(1, 1), scorpion=(3, 1), exit=(4, 2), key=(3, 1), gate_north=[(4, 1)],
                  east=[(2, 1)])
    assert after(level, "nowhere") == (State((1, 1), scorpion=(3, 1)), ON)


# --- rule 5: the mummies' two rounds and the checks a-d ------------------------------------

def test_rule5_a_mummy_takes_two_steps():
    level = board((5, 2), explorer=(1, 1), mummy=(5, 1), exit=(5, 2))
    assert after(level, "nowhere") == (State((1, 1), mummy=(3, 1)), ON)


# +---+---+---+---+---+---+---+
# |                         X |    round 1: M to (4,1) where N stood, N to (3,1); the checks come
# +   +   +   +   +   +   +   +    after both steps, so nobody collides
# | E           N   M         |
# +---+---+---+---+---+---+---+
def test_rule5_the_checks_come_after_both_mummies_stepped():
    level = board((7, 2), explorer=(1, 1), mummy=(5, 1), mummy2=(4, 1), exit=(7, 2))
    assert after(level, "nowhere") == (State((1, 1), mummy=(3, 1), mummy2=(2, 1)), ON)


# +---+---+---+---+---+---+
# |                     X |    round 1: M catches him, N has stepped to (4,1): the turn ends
# +   +   +   +   +   +   +    there (no second round)
# | E   M           N     |
# +---+---+---+---+---+---+
def test_rule5c_a_mummy_catching_him_in_round_1_ends_the_turn():
    level = board((6, 2), explorer=(1, 1), mummy=(2, 1), mummy2=(5, 1), exit=(6, 2))
    assert after(level, "nowhere") == (State((1, 1), mummy=(1, 1), mummy2=(4, 1)), DEAD)


# +---+---+---+---+---+        the walled-in mummy stays on (3,1); the other arrives there in
# |                 X |        round 2: mummy 2 dies, whichever of the two arrived
# +   +   +   +   +   +
# | E     | A   .   B |        (A, B: mummy 2 and mummy 1, then mummy 1 and mummy 2)
# +---+---+---+---+---+
@pytest.mark.parametrize("stuck", ["mummy2", "mummy"])
def test_rule5a_two_mummies_on_one_cell_mummy_2_dies(stuck):
    walker = "mummy" if stuck == "mummy2" else "mummy2"
    level = board((5, 2), explorer=(1, 1), exit=(5, 2), east=[(2, 1)], **{stuck: (3, 1), walker: (5, 1)})
    assert after(level, "nowhere") == (State((1, 1), mummy=(3, 1)), ON)


# +---+---+---+---+---+
# |                 X |        the walled-in scorpion stays; the mummy reaches it in round 2
# +   +   +   +   +   +        and kills it
# | E     | S       M |
# +---+---+---+---+---+
def test_rule5b_a_mummy_on_the_scorpion_kills_it():
    level = board((5, 2), explorer=(1, 1), scorpion=(3, 1), mummy=(5, 1), exit=(5, 2), east=[(2, 1)])
    assert after(level, "nowhere") == (State((1, 1), mummy=(3, 1)), ON)


# +---+---+---+---+---+
# |                 X |    the scorpion enters the key (the gate opens, the key is used); in
# +   +   +   +   +...+    round 2 the mummy reaches it there: (b) kills it and flips the gate
# | E       K   S   M |    back, used key or not; (d) does nothing (the key is used): closed
# +---+---+---+---+---+
def test_rule5b_a_kill_on_the_key_flips_the_gate_whether_or_not_the_key_is_used():
    level = board((5, 2), explorer=(1, 1), scorpion=(4, 1), mummy=(5, 1), exit=(5, 2), key=(3, 1),
                  gate_north=[(5, 1)])
    assert after(level, "nowhere") == (State((1, 1), mummy=(3, 1), gate_open=False), ON)


# +---+---+---+---+
# |             X |    the mummy stands on the key, the closed gate between it and the explorer.
# +   +   +   +   +    The scorpion steps onto the mummy and dies (rule 4: no key).  Round 1: the
# | E     : M   S |    mummy is stopped by the gate and stays; (b) the mummy is on the dead
# +---+---+---+---+    scorpion's cell, the key: the gate flips open ((d): the mummy is on its
#        (M on K)      turn-start cell).  Round 2: the mummy walks through the open gate to (2,1).
def test_rule5b_a_scorpion_killed_earlier_in_the_turn_still_counts():
    level = board((4, 2), explorer=(1, 1), mummy=(3, 1), scorpion=(4, 1), exit=(4, 2), key=(3, 1),
                  gate_east=[(2, 1)])
    assert after(level, "nowhere") == (State((1, 1), mummy=(2, 1), gate_open=True), ON)


# +---+---+---+---+---+
# |                 X |    the scorpion waits on the key, walled off.  Round 1: the mummy steps
# +   +   +   +   +...+    onto it: (b) kills it and flips the gate open; (d) the mummy entered
# | E     | S   M     |    the key: the gate is set opposite to its turn-start state (open: no
# +---+---+---+---+---+    change) and the key is used.  Round 2: the walled-in mummy stays on
#          (S on K)        the dead scorpion's cell: (b) flips the gate again: closed.
def test_rule5bd_a_mummy_staying_on_a_dead_scorpion_on_the_key_flips_the_gate_each_round():
    level = board((5, 2), explorer=(1, 1), scorpion=(3, 1), mummy=(4, 1), exit=(5, 2), key=(3, 1),
                  gate_north=[(5, 1)], east=[(2, 1)])
    assert after(level, "nowhere") == (State((1, 1), mummy=(3, 1), gate_open=False), ON)


# +---+---+---+---+---+
# |                 X |    mummy 1 enters the key in round 2 (left: key at (3,1)), or in round 1
# +   +   +   +   +...+    and walks on (key at (4,1)): the gate is opposite to its turn-start state
# | E       .   .   M |
# +---+---+---+---+---+
@pytest.mark.parametrize("key", [(3, 1), (4, 1)])
@pytest.mark.parametrize("gate_open", [False, True])
def test_rule5d_mummy_1_entering_the_key_flips_the_gate(key, gate_open):
    level = board((5, 2), explorer=(1, 1), mummy=(5, 1), exit=(5, 2), key=key, gate_north=[(5, 1)])
    assert after(level, "nowhere", gate_open=gate_open) == (State((1, 1), mummy=(3, 1), gate_open=not gate_open), ON)


# +---+---+---+---+---+
# |                 X |    the mummy starts on the key and is walled in: it did not enter it
# +   +   +   +   +...+
# | E     | M         |   (M on K)
# +---+---+---+---+---+
def test_rule5d_a_mummy_on_the_key_at_the_turn_start_does_not_flip_the_gate():
    level = board((5, 2), explorer=(1, 1), mummy=(3, 1), exit=(5, 2), key=(3, 1), gate_north=[(5, 1)],
                  east=[(2, 1)])
    assert after(level, "nowhere") == (State((1, 1), mummy=(3, 1)), ON)


# +---+---+---+---+---+
# | M               X |    mummy 1 is walled in at (1,2); mummy 2 walks onto the key: the gate opens
# +---+   +   +   +...+
# | E       K       N |
# +---+---+---+---+---+
def test_rule5d_mummy_2_entering_the_key_flips_the_gate():
    level = board((5, 2), explorer=(1, 1), mummy=(1, 2), mummy2=(5, 1), exit=(5, 2), key=(3, 1),
                  gate_north=[(5, 1)], north=[(1, 1)])
    assert after(level, "nowhere") == (State((1, 1), mummy=(1, 2), mummy2=(3, 1), gate_open=True), ON)


# +---+---+---+---+---+
# |                 X |    the scorpion waits on the key, walled off.  Round 1: M to (4,1), N onto
# +   +   +   +   +...+    the key: (b) kills the scorpion and flips the gate open; (d) N entered the
# | E     | S   N   M |    key: open, but the key is NOT used.  Round 2: M onto the key, N walled in
# +---+---+---+---+---+    stays: (a) N dies; (b) M on the dead scorpion's cell flips the gate
#          (S on K)        closed; (d) the key unused: M entered it: open, used.  Open at the end
#                          (closed if N had used the key).
def test_rule5d_mummy_2_on_the_key_does_not_use_it():
    level = board((5, 2), explorer=(1, 1), scorpion=(3, 1), mummy2=(4, 1), mummy=(5, 1), exit=(5, 2), key=(3, 1),
                  gate_north=[(5, 1)], east=[(2, 1)])
    assert after(level, "nowhere") == (State((1, 1), mummy=(3, 1), gate_open=True), ON)


# +---+---+---+---+---+
# |                 X |    mummy 1 starts on the key, walled in; mummy 2 steps onto it in round 1:
# +   +   +   +   +...+    (a) kills mummy 2, and a dead mummy 2 does not work the key in (d) (as in
# | E     | M   N     |    the original's turn function); mummy 1 did not enter it: still closed
# +---+---+---+---+---+
#          (M on K)
def test_rule5d_a_mummy_2_killed_in_a_does_not_flip_the_gate():
    level = board((5, 2), explorer=(1, 1), mummy=(3, 1), mummy2=(4, 1), exit=(5, 2), key=(3, 1),
                  gate_north=[(5, 1)], east=[(2, 1)])
    assert after(level, "nowhere") == (State((1, 1), mummy=(3, 1)), ON)


# +---+---+---+---+---+---+
# |                     X |    round 1: M enters the key (5,1) and opens the gate; N is stopped
# +   +   +   +   +   +   +    by the still closed gate.  Round 2: N walks through it.
# | E     : N       K   M |
# +---+---+---+---+---+---+
def test_rule5_a_gate_opened_in_round_1_lets_a_mummy_through_in_round_2():
    level = board((6, 2), explorer=(1, 1), mummy=(6, 1), mummy2=(3, 1), exit=(6, 2), key=(5, 1),
                  gate_east=[(2, 1)])
    assert after(level, "nowhere") == (State((1, 1), mummy=(4, 1), mummy2=(2, 1), gate_open=True), ON)


# +---+---+---+---+---+
# |                 X |    the scorpion enters the key and opens the gate before the mummies
# +   +   +   +   +   +    move: the mummy walks through it and catches the explorer
# | E     : M   K   S |
# +---+---+---+---+---+
def test_rule5_a_gate_the_scorpion_opened_lets_the_mummies_through():
    level = board((5, 2), explorer=(1, 1), mummy=(3, 1), scorpion=(5, 1), exit=(5, 2), key=(4, 1),
                  gate_east=[(2, 1)])
    assert after(level, "nowhere") == (State((1, 1), mummy=(1, 1), scorpion=(4, 1), gate_open=True), DEAD)


def test_the_log_names_the_rules_that_acted_in_order():
    """The positions of test_rule5d_mummy_2_on_the_key_does_not_use_it and
    test_rule5_a_gate_opened_in_round_1_lets_a_mummy_through_in_round_2, and a bump."""
    level = board((5, 2), explorer=(1, 1), scorpion=(3, 1), mummy2=(4, 1), mummy=(5, 1), exit=(5, 2), key=(3, 1),
                  gate_north=[(5, 1)], east=[(2, 1)])
    log = []
    turn(level, level.start, "nowhere", log)
    assert log == ["5b a mummy kills the scorpion", "5b the gate flips", "5d mummy 2 enters the key",
                   "5a mummy 2 dies", "5b a mummy on the dead scorpion", "5b the gate flips", "5d mummy 1 enters the key",
                   "5d a dead mummy 2 on the key"]
    level = board((6, 2), explorer=(1, 1), mummy=(6, 1), mummy2=(3, 1), exit=(6, 2), key=(5, 1),
                  gate_east=[(2, 1)])
    log = []
    turn(level, level.start, "south", log)
    assert log == ["1 a wall or the border stops him", "7 the closed gate stops an enemy", "5d mummy 1 enters the key"]
    log = []
    turn(level, level.start._replace(explorer=(2, 1)), "east", log)
    assert log[0] == "1 the closed gate stops him"


# --- rule 6: the win, and the dead leaving the board -----------------------------------------

# +---+---+---+---+      +---+---+---+---+
# | X             |      | X       M     |    north onto the exit.  Left: the mummy on (4,1) gets
# +   +   +   +   +      +   +   +   +   +    only to (2,1): won.  Right: the mummy on (3,2)
# | E           M |      | E             |    reaches him on the exit: dead.
# +---+---+---+---+      +---+---+---+---+
def test_rule6_the_explorer_alive_on_the_exit_wins():
    level = board((4, 2), explorer=(1, 1), mummy=(4, 1), exit=(1, 2))
    assert after(level, "north") == (State((1, 2), mummy=(2, 1)), WON)


def test_rule6_a_mummy_reaching_him_on_the_exit_kills_him_first():
    level = board((4, 2), explorer=(1, 1), mummy=(3, 2), exit=(1, 2))
    assert after(level, "north") == (State((1, 2), mummy=(1, 2)), DEAD)


def test_rule6_the_scorpion_reaching_him_on_the_exit_kills_him_first():
    level = board((4, 2), explorer=(1, 1), scorpion=(2, 2), exit=(1, 2))
    assert after(level, "north") == (State((1, 2), scorpion=(1, 2)), DEAD)


def test_rule6_the_dead_leave_the_board_and_stay_gone():
    """Turn 1 of the position of test_rule5d_mummy_2_on_the_key_does_not_use_it kills the
    scorpion and mummy 2; on the next turns only mummy 1 moves (it is walled in on the key)."""
    level = board((5, 2), explorer=(1, 1), scorpion=(3, 1), mummy2=(4, 1), mummy=(5, 1), exit=(5, 2), key=(3, 1),
                  gate_north=[(5, 1)], east=[(2, 1)])
    assert [(s, o) for _m, s, o in play(level, "nowhere nowhere nowhere")] == [
        (State((1, 1), mummy=(3, 1), gate_open=True), ON)] * 3


# --- rule 7: how an enemy steps ----------------------------------------------------------------

# +---+---+---+---+
# |             X |    white: east, east to (3,1); red: north, north to (1,3)
# +   +   +   +   +
# |         E     |
# +   +   +   +   +
# |               |
# +   +   +   +   +
# | M             |
# +---+---+---+---+
@pytest.mark.parametrize("red,to", [(False, (3, 1)), (True, (1, 3))])
def test_rule7_white_goes_toward_his_column_first_red_toward_his_row(red, to):
    level = board((4, 4), explorer=(3, 3), mummy=(1, 1), exit=(4, 4), red=red)
    assert after(level, "nowhere") == (State((3, 3), mummy=to), ON)


@pytest.mark.parametrize("red,explorer,mummy,to", [(False, (3, 4), (3, 1), (3, 3)), (True, (4, 3), (1, 3), (3, 3))])
def test_rule7_in_line_on_its_first_axis_an_enemy_takes_the_other(red, explorer, mummy, to):
    level = board((4, 4), explorer=explorer, mummy=mummy, exit=(1, 4), red=red)
    assert after(level, "nowhere") == (State(explorer, mummy=to), ON)


# +---+---+---+---+      +---+---+---+---+
# |             X |      |             X |     white, a wall east of the mummy: north, then east;
# +   +   +   +   +      +   +   +   +   +     red, a wall north of it: east, then north; both to (2,2)
# |         E     |      |         E     |
# +   +   +   +   +      +   +   +   +   +
# |               |      |               |
# +   +   +   +   +      +---+   +   +   +
# | M |           |      | M             |
# +---+---+---+---+      +---+---+---+---+
@pytest.mark.parametrize("red,walls", [(False, {"east": [(1, 1)]}), (True, {"north": [(1, 1)]})])
def test_rule7_a_blocked_first_axis_falls_back_to_the_other(red, walls):
    level = board((4, 4), explorer=(3, 3), mummy=(1, 1), exit=(4, 4), red=red, **walls)
    assert after(level, "nowhere") == (State((3, 3), mummy=(2, 2)), ON)


@pytest.mark.parametrize("red", [False, True])
def test_rule7_both_axes_blocked_the_enemy_stays(red):
    level = board((4, 4), explorer=(3, 3), mummy=(1, 1), exit=(4, 4), red=red, east=[(1, 1)], north=[(1, 1)])
    assert after(level, "nowhere") == (State((3, 3), mummy=(1, 1)), ON)


# the boards of the test above with the gate where the wall was: closed it blocks like the wall,
# open the mummy goes straight: white to (3,1), red to (1,3)
@pytest.mark.parametrize("red,gate,straight", [(False, {"gate_east": [(1, 1)]}, (3, 1)),
                                               (True, {"gate_north": [(1, 1)]}, (1, 3))])
@pytest.mark.parametrize("gate_open", [False, True])
def test_rule7_a_closed_gate_blocks_an_enemy_and_an_open_one_does_not(red, gate, straight, gate_open):
    level = board((4, 4), explorer=(3, 3), mummy=(1, 1), exit=(4, 4), red=red, **gate)
    assert after(level, "nowhere", gate_open=gate_open) == (
        State((3, 3), mummy=straight if gate_open else (2, 2), gate_open=gate_open), ON)


# +---+---+---+---+
# |             X |    red: he steps north to (1,2); the mummy chases him there: north to (3,2),
# +   +   +   +   +    then (in his row) west to (2,2).  Chasing (1,1) it would have caught him.
# |               |
# +   +   +   +   +
# | E       M     |
# +---+---+---+---+
def test_rule7_the_enemies_chase_the_explorer_where_he_stepped():
    level = board((4, 3), explorer=(1, 1), mummy=(3, 1), exit=(4, 3), red=True)
    assert after(level, "north") == (State((1, 2), mummy=(2, 2)), ON)


# --- rule 8: the gate starts closed, no step limit -------------------------------------------

def test_rule8_the_gate_starts_closed():
    level = board((3, 1), explorer=(1, 1), exit=(3, 1), gate_east=[(1, 1)])
    assert level.start == State((1, 1), gate_open=False)
    assert play(level, ["east"]) == [("east", State((1, 1)), ON)]


# +---+---+---+---+---+---+
# | X                     |    a serpentine: the only way is every cell in turn, 35 moves
# +---+---+---+---+---+   +
# |                       |
# +   +---+---+---+---+---+
# |                       |
# +---+---+---+---+---+   +
# |                       |
# +   +---+---+---+---+---+
# |                       |
# +---+---+---+---+---+   +
# | E                     |
# +---+---+---+---+---+---+
SERPENTINE = [(x, y) for y in (1, 3, 5) for x in range(1, 6)] + [(x, y) for y in (2, 4) for x in range(2, 7)]
SERPENTINE_LINE = (["east"] * 5 + ["north"] + ["west"] * 5 + ["north"]) * 2 + ["east"] * 5 + ["north"] + ["west"] * 5


def test_rule8_no_step_limit_a_35_move_solution():
    level = board((6, 6), explorer=(1, 1), exit=(1, 6), north=SERPENTINE)
    answer = solve(level)
    assert (answer.win, answer.moves, answer.line, answer.why) == (True, 35, SERPENTINE_LINE, None)
    assert answer.states == 35          # every cell but the exit: a won turn ends the game
    assert [o for _m, _s, o in play(level, answer.line)] == [ON] * 34 + [WON]


# --- the search -------------------------------------------------------------------------------

def test_search_a_one_move_win():
    answer = solve(board((2, 1), explorer=(1, 1), exit=(2, 1)))
    assert (answer.win, answer.moves, answer.line, answer.why) == (True, 1, ["east"], None)


# +---+---+---+
# | M         |    the explorer starts on the exit (1,2): the start is not a win (rule 6 judges the
# +   +---+   +    end of a turn).  Waiting: the mummy steps down onto him (dead).  East to (2,2):
# | E     |   |    the mummy goes east to (2,3) and stays there (the wall under it); then south,
# +   +   +---+    east (it comes round to (3,2), walled in), west, north, west home: won in 6.
# |           |
# +---+---+---+
def test_search_a_start_on_the_exit_is_not_a_win():
    level = board((3, 3), explorer=(1, 2), mummy=(1, 3), exit=(1, 2), north=[(2, 2), (3, 1)], east=[(2, 2)])
    answer = solve(level)
    assert (answer.win, answer.moves, answer.line) == (True, 6, ["east", "south", "east", "west", "north", "west"])
    assert after(level, "nowhere") == (State((1, 2), mummy=(1, 2)), DEAD)
    assert after(level, "east") == (State((2, 2), mummy=(2, 3)), ON)
    assert [o for _m, _s, o in play(level, answer.line)] == [ON] * 5 + [WON]
    assert {m: (o.win, o.moves, o.why) for m, o in answer.by_move.items()} == {
        "east": (True, 6, None), "north": (False, None, "dies"), "south": (False, None, "dies"),
        "west": (False, None, "dies"), "nowhere": (False, None, "dies")}


def test_search_a_start_on_the_exit_survived_is_a_win_in_one():
    """The board above with a wall under the mummy: waiting, he is alive on the exit after the
    turn (won in 1)."""
    level = board((3, 3), explorer=(1, 2), mummy=(1, 3), exit=(1, 2), north=[(1, 2)])
    answer = solve(level)
    assert (answer.win, answer.moves, answer.line) == (True, 1, ["nowhere"])
    assert after(level, "nowhere") == (State((1, 2), mummy=(1, 3)), WON)


def test_search_the_line_is_the_least_in_the_order_north_east_south_west():
    answer = solve(board((2, 2), explorer=(1, 1), exit=(2, 2)))
    assert (answer.moves, answer.line) == (2, ["north", "east"])


# +---+---+---+
# | K         |    the key (1,2) opens the gate east of (2,1), the only way to the exit
# +   +---+---+
# | E     : X |
# +---+---+---+
def test_search_a_key_then_the_gate():
    level = board((3, 2), explorer=(1, 1), exit=(3, 1), key=(1, 2), gate_east=[(2, 1)], north=[(2, 1), (3, 1)])
    answer = solve(level)
    assert (answer.win, answer.moves, answer.line) == (True, 4, ["north", "south", "east", "east"])


# +---+---+---+---+---+
# | X                 |    the mummy walks onto the key in the first turn and opens the gate north of
# +...+   +   +   +   +    the explorer; he then walks through: "nowhere north" (a step into the
# | E       K       M |    closed gate would do as well as waiting, but the line only waits)
# +---+---+---+---+---+
def test_search_waiting_for_the_mummy_to_open_the_gate():
    level = board((5, 2), explorer=(1, 1), mummy=(5, 1), exit=(1, 2), key=(3, 1), gate_north=[(1, 1)])
    answer = solve(level)
    assert (answer.win, answer.moves, answer.line) == (True, 2, ["nowhere", "north"])


def test_search_each_first_move():
    """The board above: north, south and west are steps into the gate or the border, waits that
    win in 2.  East: the mummy still opens the gate (it enters the key at (3,1)), but then stands
    next to him at (2,1): north to (2,2) it catches him (west, then north), west to (1,1) too,
    waiting or a bump too, east onto it is fatal: he dies on move 2 at the latest."""
    level = board((5, 2), explorer=(1, 1), mummy=(5, 1), exit=(1, 2), key=(3, 1), gate_north=[(1, 1)])
    outlooks = {move: (o.win, o.moves, o.why, o.holds_out) for move, o in solve(level).by_move.items()}
    win_in_2 = (True, 2, None, None)
    assert outlooks == {"north": win_in_2, "east": (False, None, "dies", 2), "south": win_in_2, "west": win_in_2,
                        "nowhere": win_in_2}


# +---+---+---+     +---+---+---+---+---+
# | E       M |     | E               M |    the mummy corners him in a corridor: every line dies
# +---+---+---+     +---+---+---+---+---+
#                                               he holds out: 3 cells, 1 move; 5 cells, 2 moves
@pytest.mark.parametrize("length,holds_out", [(3, 1), (5, 2)])
def test_search_every_line_dies(length, holds_out):
    answer = solve(board((length, 1), explorer=(1, 1), mummy=(length, 1), exit=(length, 1)))
    assert (answer.win, answer.moves, answer.line, answer.why, answer.holds_out) == (False, None, [], "dies", holds_out)


# +---+---+---+---+      +---+---+---+
# | E     | M   X |      | E     | X |    the exit walled off: he can wait forever (left: the mummy
# +---+---+---+---+      +---+---+---+    walled in too), but never escape
@pytest.mark.parametrize("mummy", [(3, 1), None])
def test_search_he_can_only_wait(mummy):
    level = board((4 if mummy else 3, 1), explorer=(1, 1), mummy=mummy, exit=(4 if mummy else 3, 1), east=[(2, 1)])
    answer = solve(level)
    assert (answer.win, answer.moves, answer.why, answer.holds_out) == (False, None, "waits", None)


def test_search_a_trap_on_the_only_way_waits_or_dies():
    answer = solve(board((3, 1), explorer=(1, 1), exit=(3, 1), trap=[(2, 1)]))
    assert (answer.win, answer.why) == (False, "waits")
    answer = solve(board((3, 1), explorer=(1, 1), exit=(3, 1), trap=[(2, 1)], mummy=(3, 1)))
    assert (answer.win, answer.why) == (False, "dies")


def test_play_stops_at_the_end_of_the_game():
    level = board((2, 1), explorer=(1, 1), exit=(2, 1))
    assert play(level, "east") == [("east", State((2, 1)), WON)]
    with pytest.raises(ValueError, match="after the game ended"):
        play(level, "east west")


def test_the_reader_refuses_what_it_does_not_know():
    with pytest.raises(ValueError, match="rules must be"):
        parse_board("rules: mummy-maze-2007\nsize: [2, 1]\npieces: {explorer: [1, 1]}\nmarks: {exit: [[2, 1]]}\n")
    with pytest.raises(ValueError, match="mummy2 without mummy"):
        parse_board("rules: mummy-maze-classic\nsize: [3, 1]\npieces: {explorer: [1, 1], mummy2: [2, 1]}\n"
                    "marks: {exit: [[3, 1]]}\n")
    with pytest.raises(ValueError, match="map"):
        parse_board("rules: mummy-maze-classic\nmap: |\n  +---+\n")


def test_draw_shows_the_gate_closed_and_open():
    level = board((2, 1), explorer=(1, 1), exit=(2, 1), gate_east=[(1, 1)])
    assert draw(level, level.start).splitlines()[:3] == ["+---+---+", "| E : X |", "+---+---+"]
    assert draw(level, level.start._replace(gate_open=True)).splitlines()[1] == "| E   X |"


# --- the random boards --------------------------------------------------------------------------

SEEDS = range(60)


def _cells(value) -> list:
    return [tuple(c) for c in value or []]


@pytest.mark.parametrize("big", [False, True])
@pytest.mark.slow
def test_random_boards_keep_their_promises(big):
    """Deterministic; sizes 4..8 (big: 4..10); pieces on distinct cells; the exit on the border;
    the explorer on no mark (with on_exit, on the exit, the board otherwise the same); a key
    exactly when there is a gate, the gate an interior edge that is no wall; at most two traps,
    off the exit and the key; and every option drawn somewhere."""
    seen = set()
    for seed in SEEDS:
        text = random_classic_board(seed, big)
        assert text == random_classic_board(seed, big)
        raw = yaml.safe_load(text)
        width, height = raw["size"]
        assert 4 <= width <= (10 if big else 8) and 4 <= height <= (10 if big else 8)
        pieces = {name: tuple(c) for name, c in raw["pieces"].items()}
        assert len(set(pieces.values())) == len(pieces), text
        assert set(pieces) <= {"explorer", "mummy", "mummy2", "scorpion"} and "explorer" in pieces
        assert "mummy2" not in pieces or "mummy" in pieces
        (ex, ey), = _cells(raw["marks"]["exit"])
        assert ex in (1, width) or ey in (1, height)
        traps, keys = _cells(raw["marks"].get("trap")), _cells(raw["marks"].get("key"))
        assert len(traps) <= 2 and len(set(traps)) == len(traps) and (ex, ey) not in traps + keys
        assert not set(traps) & set(keys)
        assert pieces["explorer"] not in [(ex, ey), *traps, *keys]
        on_exit = yaml.safe_load(random_classic_board(seed, big, on_exit=True))
        swapped = {name: (ex, ey) if name == "explorer" else pieces["explorer"] if cell == (ex, ey) else cell
                   for name, cell in pieces.items()}        # (an enemy on the exit takes his cell)
        assert {name: tuple(c) for name, c in on_exit["pieces"].items()} == swapped, text
        assert {k: v for k, v in on_exit.items() if k not in ("pieces", "name")} == \
            {k: v for k, v in raw.items() if k not in ("pieces", "name")}
        gates = [(side, c) for side, cs in (raw.get("gates") or {}).items() for c in _cells(cs)]
        assert len(gates) == len(keys) <= 1
        for side, (x, y) in gates:
            assert (x < width if side == "east" else y < height) and (x, y) not in _cells(raw["walls"][side])
        seen |= {raw["rules"], f"mummies {sum(p.startswith('mummy') for p in pieces)}", *pieces,
                 f"traps {len(traps)}", *(side for side, _c in gates), width != height,
                 *(["scorpion on the key"] if keys and pieces.get("scorpion") == keys[0] else [])}
        parse_board(text)
    assert seen >= {"mummy-maze-classic", "mummy-maze-classic-red", "mummies 0", "mummies 1", "mummies 2",
                    "scorpion", "traps 0", "traps 1", "traps 2", "north", "east", True, False, "scorpion on the key"}


def _replayed(level, line):
    return [o for _m, _s, o in play(level, line)]


@pytest.mark.slow
def test_random_boards_the_search_agrees_with_replaying_every_short_line():
    """On the random boards the search wins in 1 to 4 moves, no line of fewer moves wins, and
    its line wins in exactly its number of moves; on those it cannot win in 4, no line of at
    most 4 moves wins (a plain replay of all of them)."""
    checked = 0
    for seed in SEEDS:
        level = parse_board(random_classic_board(seed))
        answer = solve(level)
        if answer.win:
            assert _replayed(level, answer.line) == [ON] * (answer.moves - 1) + [WON]
        limit = min(answer.moves - 1, 4) if answer.win else 4
        for length in range(1, limit + 1):
            for line in itertools.product(("north", "east", "south", "west", "nowhere"), repeat=length):
                assert WON not in _ended(level, line), (seed, line)
        checked += 1
    assert checked == len(SEEDS)


def _ended(level, line):
    """The outcomes of ``line`` up to its first end (the rest of the line is not played)."""
    state, outcomes = level.start, []
    for move in line:
        state, outcome = turn(level, state, move)
        outcomes.append(outcome)
        if outcome != ON:
            break
    return outcomes
