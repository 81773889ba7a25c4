"""The three seed games added to the rule language: scenario traces played move by move with
the compiled rules (gridsolve.solve.program.explore), and solver answers checked by hand.

* Wallmaze: the four scenario playouts of RULES.md (section C).
* Pacman 3p: a capture by inky (inky 100, blinky 0, pacman keeps its pellets), the pellet
  count, the timeout.
* Maze Runner Duel: the rule book's 9-turn worked example, turn by turn.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from gridsolve.solve.program.explore import examine, stop_scores
from gridsolve.language.loader import load_board
from gridsolve.language.position import Position, initial_position, make_query
from gridsolve.solve.dispatch.dispatcher import solve

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"


def play(board, position, move):
    """The position after ``move`` (a move name as examine lists it)."""
    end, steps = examine(board, position)
    assert end is None, f"the game has ended ({end})"
    found = {s.move: s.position for s in steps}
    assert move in found, f"{move!r} is not legal; legal: {sorted(found)}"
    return found[move]


# - Wallmaze ---

@pytest.fixture(scope="module")
def wallmaze():
    return load_board(ROOT / "boards/wallmaze.yaml")


EAST, WEST, NORTH, SOUTH = "east", "west", "north", "south"
TOP_LOOP_WHITE = [EAST, EAST, NORTH, NORTH, NORTH] + [EAST] * 6 + [SOUTH, SOUTH, SOUTH, EAST, EAST]
BOTTOM_LOOP_BLACK = [WEST, WEST, SOUTH, SOUTH, SOUTH] + [WEST] * 6 + [NORTH, NORTH, NORTH, WEST, WEST]


def run_wallmaze(board, white_moves, black_moves):
    """Play joint moves; a player whose list has run out (or who has arrived) plays noop."""
    position = initial_position(board)
    for ply in range(max(len(white_moves), len(black_moves))):
        if stop_scores(board, position) is not None:
            break
        w = white_moves[ply] if ply < len(white_moves) else "nowhere"
        b = black_moves[ply] if ply < len(black_moves) else "nowhere"
        legal = {s.move for s in examine(board, position)[1]}
        w = w if any(m.startswith(f"white {w},") for m in legal) else "nowhere"
        b = b if any(m.endswith(f"black {b}") for m in legal) else "nowhere"
        position = play(board, position, f"white {w}, black {b}")
    return position


@pytest.mark.slow
def test_wallmaze_white_straight_black_bottom_loop(wallmaze):
    position = run_wallmaze(wallmaze, [EAST] * 10, BOTTOM_LOOP_BLACK)
    assert position.cell("white") == (12, 5) and position.cell("black") == (2, 5)
    assert position.step == 17
    assert stop_scores(wallmaze, position) == {"white": 75, "black": 25}


@pytest.mark.slow
def test_wallmaze_white_arrives_at_step_11(wallmaze):
    position = run_wallmaze(wallmaze, [EAST] * 10, BOTTOM_LOOP_BLACK[:10])
    assert position.step == 11 and position.cell("white") == (12, 5)
    assert stop_scores(wallmaze, position) is None          # black has not arrived: play on
    frozen = {s.move for s in examine(wallmaze, position)[1]}
    assert all(m.startswith("white nowhere,") for m in frozen)


@pytest.mark.slow
def test_wallmaze_head_on_collides_and_times_out(wallmaze):
    position = run_wallmaze(wallmaze, [EAST] * 4, [WEST] * 4)
    assert (position.cell("white"), position.cell("black")) == ((6, 5), (8, 5))
    after = play(wallmaze, position, "white east, black west")      # both into (7,5)
    assert (after.cell("white"), after.cell("black")) == ((6, 5), (8, 5))
    final = run_wallmaze(wallmaze, [EAST] * 40, [WEST] * 40)
    assert final.step == 30
    assert stop_scores(wallmaze, final) == {"white": 0, "black": 0}


@pytest.mark.slow
def test_wallmaze_no_entering_a_cell_being_left(wallmaze):
    position = run_wallmaze(wallmaze, [EAST] * 4, [WEST] * 5)       # white (6,5), black (7,5)
    assert (position.cell("white"), position.cell("black")) == ((6, 5), (7, 5))
    legal = {s.move for s in examine(wallmaze, position)[1]}
    assert "white east, black east" not in legal and "white east, black north" not in legal


@pytest.mark.slow
def test_wallmaze_loops_arrive_together(wallmaze):
    position = run_wallmaze(wallmaze, TOP_LOOP_WHITE, BOTTOM_LOOP_BLACK)
    assert position.step == 17
    assert stop_scores(wallmaze, position) == {"white": 50, "black": 50}


@pytest.mark.slow
def test_wallmaze_both_next_to_their_goals(wallmaze):
    """White commits first: black arrives at the same time (50), not later (white first: 75).
    Plies count to the game's stop with at least 50 while black delays it: black can stay away
    (white then scores more, but only when the horizon stops the game)."""
    query = make_query(wallmaze, "white", "value", at=("white=11,5", "black=3,5"), horizon=6)
    answer = solve(wallmaze, query)
    assert (answer.value, answer.plies) == (50, 6)
    assert {m.move: m.value for m in answer.moves} == {"east": 50, "west": 25, "nowhere": 25}


# - Pacman ---

@pytest.fixture(scope="module")
def pacman():
    return load_board(ROOT / "boards/pacman3p.yaml")


def test_pacman_capture_by_inky(pacman):
    position = initial_position(pacman)
    for move in ["east", "blinky west, inky east", "north", "blinky east, inky south"]:
        position = play(pacman, position, move)
    assert position.as_dict(pacman)["collected"] == {"pellets": 2}
    caught = play(pacman, position, "north")                        # onto inky, on a pellet
    assert caught.as_dict(pacman)["collected"] == {"pellets": 3}
    assert examine(pacman, caught)[0] == "caught_by_inky"
    assert stop_scores(pacman, caught) == {"pacman": 6, "blinky": 0, "inky": 100}


def test_pacman_timeout_scores_the_pellets(pacman):
    board_pellets = sorted(pacman.marks["pellet"])
    left = frozenset(board_pellets[:5]) | {(6, 3)}                  # 27 eaten, (6,3) still there
    position = Position(tuple(pacman.pieces.items()), 0, 99, (("pellets", left),))
    position = Position(tuple((r, pacman.pieces[r]) for r in pacman.rules.roles), 0, 99,
                        (("pellets", left),))
    assert stop_scores(pacman, position) is None
    after = play(pacman, position, "east")
    assert after.step == 100 and after.as_dict(pacman)["collected"] == {"pellets": 28}
    assert stop_scores(pacman, after) == {"pacman": 74, "blinky": 0, "inky": 0}


def test_pacman_original_pellet_end_never_fires(pacman, tmp_path):
    """The original's "35 pellets" end cannot hold on a board of 33 pellets; the prose rule set's
    "all pellets" end can (the same board under rules: pacman-3p-prose)."""
    from gridsolve.compile.gamerules import live_ends
    assert pacman.rules.name == "pacman-3p" and len(pacman.marks["pellet"]) == 33
    assert [e.name for e in live_ends(pacman)] == ["caught_by_both", "caught_by_blinky", "caught_by_inky"]
    text = (ROOT / "boards/pacman3p.yaml").read_text(encoding="utf-8")
    assert "rules: pacman-3p\n" in text
    (tmp_path / "prose.yaml").write_text(text.replace("rules: pacman-3p\n", "rules: pacman-3p-prose\n"),
                                         encoding="utf-8")
    prose = load_board(tmp_path / "prose.yaml")
    assert prose.rules.name == "pacman-3p-prose"
    assert [e.name for e in live_ends(prose)] == ["caught_by_both", "caught_by_blinky", "caught_by_inky",
                                                  "no_pellets"]


@pytest.mark.slow
def test_pacman_ghosts_force_a_capture(pacman):
    answer = solve(pacman, make_query(pacman, "pacman", "survive"))
    assert (answer.survives, answer.doom_plies) == (False, 16)
    assert answer.value is None


def test_pacman_value_within_a_horizon(pacman):
    answer = solve(pacman, make_query(pacman, "pacman", "value", horizon=6))
    # 3 pellets in 3 moves; the ghosts cannot be made to catch pacman, so the game stops at
    # the horizon
    assert (answer.value, answer.plies) == (6, 6)


# - Maze Runner Duel ---

RC = {"up": "north", "down": "south", "left": "west", "right": "east"}


def cell(row: int, column: int) -> tuple[int, int]:
    """The rule book's (row, column) as the board's (x, y)."""
    return column, 6 - row


WORKED_EXAMPLE = [   # (turn, player, direction, where the player stands after, bumped)
    (1, "p1", "right", (1, 2), False),
    (2, "p2", "left", (5, 4), False),
    (3, "p1", "down", (1, 2), True),     # P2's obstacle (2,2)
    (4, "p2", "up", (4, 4), False),
    (5, "p2", "up", (4, 4), True),       # (3,4); player 1 lost this turn
    (6, "p1", "right", (1, 3), False),
    (7, "p1", "down", (2, 3), False),    # its own obstacle; player 2 lost this turn
    (8, "p2", "up", (4, 4), True),       # (3,4) again
    (9, "p1", "down", (3, 3), False),    # the center
]


def test_maze_runner_duel_worked_example():
    board = load_board(DATA / "maze-runner-duel-example.yaml")
    position = initial_position(board)
    assert position.cell("p1") == cell(1, 1) and position.cell("p2") == cell(5, 5)
    for turn, player, direction, where, bumped in WORKED_EXAMPLE:
        assert board.rules.turns[position.side] == (player,), f"turn {turn}"
        after = play(board, position, RC[direction])
        assert after.cell(player) == cell(*where), f"turn {turn}"
        # a bump: the player stays and its turns entry skips its next turn (the other then
        # moves twice: the next rows' players, checked above); no bump: nobody skips a turn
        side = board.rules.side_of(player)
        assert after.lost_turns(board) == tuple(int(bumped and t == side) for t in range(2)), f"turn {turn}"
        if bumped:
            assert after.cell(player) == position.cell(player), f"turn {turn}"
        position = after
    assert examine(board, position)[0] == "p1_reaches_center"
    assert stop_scores(board, position) == {"p1": 100, "p2": 0}


def test_maze_runner_duel_own_obstacles_do_not_stop():
    board = load_board(ROOT / "boards/maze-runner-duel.yaml")
    moves = {s.move: s.position for s in examine(board, initial_position(board))[1]}
    assert set(moves) == {"east", "south"}          # up and left are off the board


@pytest.mark.slow
def test_maze_runner_duel_first_player_wins():
    board = load_board(ROOT / "boards/maze-runner-duel.yaml")
    answer = solve(board, make_query(board, "p1", "value"))
    assert (answer.value, answer.plies, answer.win) == (100, 7, True)
