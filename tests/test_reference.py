"""The reference solver (reference/game.py) on the newer mechanisms, on boards small enough to
work out by hand: a collision, a bump that lets the opponent move twice, a simultaneous race,
a score table, frozen pieces, was_on, nearer and conditional timeouts; and the seed games'
scenario traces (tests/test_seed_games.py) played with the reference's rules instead of
clingo's.  Only the reference is run here: the solver is compared with it in
tests/test_differential.py.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from reference import game as reference
from gridsolve.language.position import Position, initial_position, make_query

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"


def ask(board, role, kind="value", horizon=None, **where):
    """The reference's answer at the position ``make_query`` builds from ``where``."""
    at = tuple(f"{p}={x},{y}" for p, (x, y) in where.pop("at", {}).items())
    query = make_query(board, role, kind, at=at, horizon=horizon, **where)
    return reference.reference_answer(board, role, kind, query.position, horizon)


def fields(ans, *keys):
    return tuple(ans[k] for k in keys)


def play(board, position, *moves):
    for move in moves:
        legal = reference.legal_moves(board, position)
        assert move in legal, f"{move!r} is not legal; legal: {sorted(legal)}"
        position = legal[move]
    return position


# --- collisions: stay --------------------------------------------------------------------

COLLIDE = """
name: collide
rules:
  roles: [a, b]
  turns: [[a, b]]
  teams: [[a], [b]]
  collisions: {collisions}
  ends:
    - name: a_home
      when: {{reaches: {{a: mid}}}}
      scores: {{a: 100, b: 0}}
  steps: {{first: 0, last: 3}}
  timeout: {{a: 0, b: 50}}
size: [3, 1]
pieces: {{a: [1, 1], b: [3, 1]}}
marks: {{mid: [[2, 1]]}}
"""


def test_collision_cancels_the_whole_ply(make_board):
    board = make_board(COLLIDE.format(collisions="stay"))
    start = initial_position(board)
    moves = reference.legal_moves(board, start)
    assert set(moves) == {"a east, b west", "a east, b nowhere", "a nowhere, b west", "a nowhere, b nowhere"}
    # both into the middle: nobody moves, but the ply counts
    assert moves["a east, b west"].pieces == start.pieces and moves["a east, b west"].step == 1
    # one moves onto the other's cell (which stays): a collision too
    after = moves["a nowhere, b west"]
    assert after.cell("b") == (2, 1)
    assert play(board, after, "a east, b nowhere").pieces == after.pieces
    assert reference.end_of(board, moves["a east, b nowhere"]) == "a_home"
    # a commits first, b answers by stepping into the middle too: a never gets there
    ans = ask(board, "a")
    assert fields(ans, "value", "plies", "win", "survives") == (0, None, False, True)
    assert ans["moves"] == {"east": (0, None, False, True), "nowhere": (0, None, False, True)}
    # b commits first: west blocks a, standing still lets a in (a commit node: plies after it)
    ans = ask(board, "b")
    assert fields(ans, "value", "plies", "win", "survives") == (50, None, True, True)
    assert ans["moves"] == {"west": (50, None, True, True), "nowhere": (0, 0, False, False)}


def test_without_collisions_the_race_is_won(make_board):
    board = make_board(COLLIDE.format(collisions="allowed"))
    ans = ask(board, "a", "win")
    assert fields(ans, "value", "plies", "win", "win_plies") == (100, 1, True, 1)
    assert ans["moves"]["east"] == (100, 0, True, True)
    assert ans["moves"]["nowhere"] == (100, 1, True, True)      # a steps in on the next ply


# --- bump: the other moves twice ---------------------------------------------------------

BUMP = """
name: bump
rules:
  roles: [p1, p2]
  moves:
    p1: {{idle: false, bump: {{marks: [mud], lose_turns: {lose}}}}}
    p2: {{idle: false}}
  ends:
    - name: p2_home
      when: {{reaches: {{p2: home}}}}
      scores: {{p1: 0, p2: 100}}
  steps: {{first: 0, last: 10}}
  timeout: {{p1: 50, p2: 50}}
size: [4, 1]
pieces: {{p1: [1, 1], p2: [4, 1]}}
marks: {{mud: [[2, 1]], home: [[2, 1]]}}
"""


def test_bump_skips_the_next_turn(make_board):
    board = make_board(BUMP.format(lose=1))
    start = initial_position(board)
    # p1's only move is east, into the mud: it stays and its entry loses a turn
    assert set(reference.legal_moves(board, start)) == {"east"}
    bumped = play(board, start, "east")
    assert (bumped.cell("p1"), bumped.side, bumped.lost, bumped.step) == ((1, 1), 1, (1, 0), 1)
    once = play(board, bumped, "west")
    assert (once.cell("p2"), once.side, once.lost, once.step) == ((3, 1), 1, (0, 0), 2)   # p2 again
    twice = play(board, once, "west")
    assert reference.end_of(board, twice) == "p2_home" and twice.side == 0
    ans = ask(board, "p2", "win")
    assert fields(ans, "value", "plies", "win", "win_plies") == (100, 3, True, 3)
    assert ans["moves"] == {"east": (100, 2, True, True)}          # p1 to move: its moves
    p1 = ask(board, "p1", "survive")
    assert fields(p1, "value", "plies", "survives", "doom_plies") == (0, 3, False, 3)


def test_bump_without_lost_turns_only_stops_the_piece(make_board):
    board = make_board(BUMP.format(lose=0))
    bumped = play(board, initial_position(board), "east")
    assert (bumped.cell("p1"), bumped.side, bumped.lost) == ((1, 1), 1, ())
    assert fields(ask(board, "p2", "win"), "value", "win_plies") == (100, 4)


def test_bump_counts_the_turns_lost(make_board):
    board = make_board(BUMP.format(lose=2))
    bumped = play(board, initial_position(board), "east")
    assert bumped.lost == (2, 0) and bumped.side == 1
    after = play(board, bumped, "west")
    assert (after.side, after.lost) == (1, (1, 0))


# --- a simultaneous race -----------------------------------------------------------------

RACE = """
name: race
rules:
  roles: [a, b]
  turns: [[a, b]]
  teams: [[a], [b]]
  ends:
    - name: both
      when: {reaches: {a: agoal, b: bgoal}}
      scores: {a: 50, b: 50}
    - name: a_first
      when: {reaches: {a: agoal}}
      scores: {a: 100, b: 0}
    - name: b_first
      when: {reaches: {b: bgoal}}
      scores: {a: 0, b: 100}
  steps: {first: 0, last: 6}
  timeout: {a: 25, b: 25}
size: [3, 2]
walls: {north: [[1, 1], [2, 1], [3, 1]]}
pieces: {a: [1, 1], b: [1, 2]}
marks: {agoal: [[2, 1]], bgoal: [[2, 2]]}
"""


def test_simultaneous_race_arrives_together(make_board):
    board = make_board(RACE)
    moves = reference.legal_moves(board, initial_position(board))
    assert set(moves) == {f"a {x}, b {y}" for x in ("east", "nowhere") for y in ("east", "nowhere")}
    assert reference.end_of(board, moves["a east, b east"]) == "both"
    # a commits first; b answers knowing it: east is met by east (both arrive: 50), standing
    # still by b arriving alone (0)
    ans = ask(board, "a")
    assert fields(ans, "value", "plies", "win", "win_plies", "survives", "doom_plies") == \
        (50, 1, False, None, True, None)
    assert ans["moves"] == {"east": (50, 0, False, True), "nowhere": (0, 0, False, False)}
    ans = ask(board, "b", "survive")
    assert fields(ans, "value", "plies", "survives") == (50, None, True)


def test_simultaneous_team_moves_together(make_board):
    """With one team the entry is one joint choice of the team."""
    board = make_board(RACE.replace("teams: [[a], [b]]", "teams: [[a, b]]"))
    ans = ask(board, "a")
    assert fields(ans, "value", "plies", "win") == (100, 1, True)
    assert set(ans["moves"]) == {f"a {x}, b {y}" for x in ("east", "nowhere") for y in ("east", "nowhere")}
    assert ans["moves"]["a east, b nowhere"] == (100, 0, True, True)
    assert ans["moves"]["a east, b east"] == (50, 0, False, True)
    assert ans["moves"]["a nowhere, b east"] == (0, 0, False, False)


def test_three_roles_with_a_split_entry(make_board):
    """a alone against the team b+c moving with it: a commits, b and c answer together."""
    board = make_board("""
        name: three
        rules:
          roles: [a, b, c]
          turns: [[a, b, c]]
          teams: [[a], [b, c]]
          moves: {c: {idle: false}}
          ends:
            - name: caught
              when: {same_cell: [a, c]}
              scores: {a: 0, b: 100, c: 100}
            - name: out
              when: {reaches: {a: exit}}
              scores: {a: 100, b: 0, c: 0}
          steps: {first: 0, last: 4}
          timeout: {a: 50, b: 50, c: 50}
        size: [3, 1]
        pieces: {a: [2, 1], b: [1, 1], c: [1, 1]}
        marks: {exit: [[3, 1]]}
    """)
    start = initial_position(board)
    moves = reference.legal_moves(board, start)
    assert "a east, b nowhere, c east" in moves and "a east, b nowhere, c nowhere" not in moves
    # a steps out at once whatever b and c do (c, on the same ply, catches it only by
    # standing where a ends: c cannot reach the exit in one step)
    ans = ask(board, "a", "win")
    assert fields(ans, "value", "plies", "win") == (100, 1, True)
    assert ans["moves"]["east"] == (100, 0, True, True)
    # standing still: c steps onto a (caught); west: into c's start while c leaves, or onto c
    assert ans["moves"]["nowhere"] == (0, 0, False, False)
    # c's team commits first (named by its part of the joint move); a escapes in one ply
    c = ask(board, "c")
    assert fields(c, "value", "plies") == (0, 1)
    assert c["moves"] == {"b east, c east": (0, 0, False, False), "b nowhere, c east": (0, 0, False, False)}


# --- collectibles and a score table -------------------------------------------------------

COINS = """
name: coins
rules:
  roles: [c, g]
  moves: {c: {idle: false}}
  collect: {coins: {piece: c, mark: coin}}
  score_tables: {coin_score: {count: coins, values: [0, 3, 7]}}
  ends:
    - name: all_coins
      when: {collected: {coins: all}}
      scores: {c: coin_score, g: 0}
      loss_for: [g]
  steps: {first: 0, last: 4}
  timeout: TIMEOUT
size: [3, 2]
walls: {north: [[1, 1], [2, 1], [3, 1]]}
pieces: {c: [1, 1], g: [1, 2]}
marks: {coin: [[2, 1], [3, 1]]}
"""


def test_table_score_counts_the_items_taken(make_board):
    board = make_board(COINS.replace("TIMEOUT", "{c: coin_score, g: 0}"))
    start = initial_position(board)
    after = play(board, start, "east")
    assert after.items == (("coins", frozenset({(3, 1)})),)
    assert reference.stop_scores(board, after, horizon=0) == {"c": 3, "g": 0}
    assert reference.end_of(board, play(board, after, "nowhere", "east")) == "all_coins"
    ans = ask(board, "c", "win")
    assert fields(ans, "value", "plies", "win", "win_plies") == (7, 3, True, 3)
    # two plies: one coin, scored by the timeout table (3); the move's plies are counted
    # against the timeout score of the position asked about (0)
    ans = ask(board, "c", horizon=2)
    assert fields(ans, "value", "plies", "win", "win_plies") == (3, 2, False, None)
    assert ans["moves"] == {"east": (3, 1, False, True)}
    query = make_query(board, "c", "value", horizon=2)
    as_asked = reference.reference_answer(board, "c", "value", query.position, 2, move_ref="position")
    assert as_asked["moves"] == {"east": (3, None, False, True)}
    # the others can only hold c's score down to what it has
    g = ask(board, "g", horizon=2)
    assert fields(g, "value", "plies") == (0, None)


def test_the_collector_takes_an_item_only_by_ending_its_move_there(make_board):
    board = make_board(COINS.replace("TIMEOUT", "{c: coin_score, g: 0}"))
    query = make_query(board, "c", "value", at=("c=2,1",), turn="g")
    after = play(board, query.position, "nowhere")                 # g's ply: c stays put
    assert after.items_left(board)["coins"] == {(2, 1), (3, 1)}
    assert play(board, after, "east").items_left(board)["coins"] == {(2, 1)}


def test_conditional_timeout_entries(make_board):
    board = make_board(COINS.replace(
        "TIMEOUT", "[{when: {collected: {coins: 1}, reaches: {c: coin}}, scores: {c: 50, g: 50}},"
                   " {scores: {c: coin_score, g: 0}}]"))
    start = initial_position(board)
    one = play(board, start, "east")
    assert reference.stop_scores(board, one, horizon=0) == {"c": 50, "g": 50}
    assert reference.stop_scores(board, start, horizon=0) == {"c": 0, "g": 0}
    ans = ask(board, "c", horizon=2)
    assert fields(ans, "value", "plies") == (50, 2)


# --- frozen_on, was_on, nearer -----------------------------------------------------------

def test_frozen_pieces_can_only_stand_still(make_board):
    text = """
        name: frozen
        rules:
          roles: [a, b]
          moves: {a: {idle: IDLE, steps: 2, frozen_on: [ice]}}
          ends:
            - name: met
              when: {same_cell: [a, b]}
              scores: {a: 100, b: 0}
          steps: {first: 0, last: 4}
          timeout: {a: 10, b: 90}
        size: [3, 1]
        pieces: {a: [1, 1], b: [3, 1]}
        marks: {ice: [[1, 1]]}
    """
    board = make_board(text.replace("IDLE", "true"))
    start = initial_position(board)
    assert set(reference.legal_moves(board, start)) == {"nowhere nowhere"}
    board = make_board(text.replace("IDLE", "false"), "stuck.yaml")
    start = initial_position(board)
    assert reference.legal_moves(board, start) == {}
    ans = ask(board, "a")
    assert fields(ans, "value", "plies", "moves") == (10, None, {})


def test_was_on_looks_at_the_position_before(make_board):
    board = make_board("""
        name: was
        rules:
          roles: [a, b]
          ends:
            - name: left_home
              when: {was_on: {a: home}}
              scores: {a: 100, b: 0}
          steps: {first: 0, last: 4}
          timeout: {a: 0, b: 100}
        size: [3, 1]
        pieces: {a: [1, 1], b: [3, 1]}
        marks: {home: [[1, 1]]}
    """)
    start = initial_position(board)
    assert reference.end_of(board, start) is None      # false where the question starts
    after = play(board, start, "nowhere")
    assert after.was == frozenset({("a", "home")}) and reference.end_of(board, after) == "left_home"
    ans = ask(board, "a")
    assert fields(ans, "value", "plies") == (100, 1)
    # b to move first: a is still home after b's ply
    assert fields(ask(board, "a", turn="b"), "value", "plies") == (100, 1)
    assert fields(ask(board, "a", at={"a": (2, 1)}), "value", "plies") == (100, 2)    # back home first


def test_nearer_avoids_the_bump_cells(make_board):
    text = """
        name: near
        rules:
          roles: [p1, p2]
          moves: {p1: {bump: {marks: [mud]}}}
          ends:
            - name: p1_center
              when: {reaches: {p1: center}}
              scores: {p1: 100, p2: 0}
              loss_for: [p2]
          steps: {first: 0, last: 6}
          timeout:
            - when: {nearer: {piece: p1, than: p2, to: center}}
              scores: {p1: 100, p2: 0}
            - when: {nearer: {piece: p2, than: p1, to: center}}
              scores: {p1: 0, p2: 100}
            - scores: {p1: 50, p2: 50}
        size: [5, 1]
        pieces: {p1: [1, 1], p2: [5, 1]}
        marks: {center: [[3, 1]], mud: [MUD]}
    """
    board = make_board(text.replace("MUD", "[5, 1]"))     # mud behind p2: distances 2 and 2
    assert reference.stop_scores(board, initial_position(board), horizon=0) == {"p1": 50, "p2": 50}
    board = make_board(text.replace("MUD", "[2, 1]"), "mud.yaml")   # p1 cannot get past
    start = initial_position(board)
    assert reference.stop_scores(board, start, horizon=0) == {"p1": 0, "p2": 100}
    game = reference.game_of(board)
    assert game.distance("p1", "center", (1, 1)) == reference.INF
    assert game.distance("p2", "center", (5, 1)) == 2
    assert game.distance("p1", "center", (2, 1)) == 1        # standing on mud: it is not entered


# --- the seed games, played with the reference's rules ----------------------------------

@pytest.fixture(scope="module")
def wallmaze():
    from gridsolve.language.loader import load_board
    return load_board(ROOT / "boards/wallmaze.yaml")


def run_wallmaze(board, white, black):
    position = initial_position(board)
    for ply in range(max(len(white), len(black))):
        if reference.stop_scores(board, position) is not None:
            break
        legal = reference.legal_moves(board, position)
        w = white[ply] if ply < len(white) else "nowhere"
        b = black[ply] if ply < len(black) else "nowhere"
        w = w if any(m.startswith(f"white {w},") for m in legal) else "nowhere"
        b = b if any(m.endswith(f"black {b}") for m in legal) else "nowhere"
        position = legal[f"white {w}, black {b}"]
    return position


TOP = ["east", "east", "north", "north", "north"] + ["east"] * 6 + ["south"] * 3 + ["east"] * 2
BOTTOM = ["west", "west", "south", "south", "south"] + ["west"] * 6 + ["north"] * 3 + ["west"] * 2


def test_wallmaze_scenarios(wallmaze):
    final = run_wallmaze(wallmaze, ["east"] * 10, BOTTOM)
    assert (final.cell("white"), final.cell("black"), final.step) == ((12, 5), (2, 5), 17)
    assert reference.stop_scores(wallmaze, final) == {"white": 75, "black": 25}
    assert reference.stop_scores(wallmaze, run_wallmaze(wallmaze, TOP, BOTTOM)) == {"white": 50, "black": 50}
    arrived = run_wallmaze(wallmaze, ["east"] * 10, BOTTOM[:10])
    assert all(m.startswith("white nowhere,") for m in reference.legal_moves(wallmaze, arrived))
    head_on = run_wallmaze(wallmaze, ["east"] * 4, ["west"] * 4)
    assert play(wallmaze, head_on, "white east, black west").pieces == head_on.pieces
    timeout = run_wallmaze(wallmaze, ["east"] * 40, ["west"] * 40)
    assert timeout.step == 30 and reference.stop_scores(wallmaze, timeout) == {"white": 0, "black": 0}
    side_by_side = run_wallmaze(wallmaze, ["east"] * 4, ["west"] * 5)
    legal = reference.legal_moves(wallmaze, side_by_side)
    assert "white east, black east" not in legal and "white east, black north" not in legal


def test_wallmaze_both_next_to_their_goals(wallmaze):
    ans = ask(wallmaze, "white", horizon=6, at={"white": (11, 5), "black": (3, 5)})
    assert fields(ans, "value", "plies") == (50, 6)
    assert {m: v[0] for m, v in ans["moves"].items()} == {"east": 50, "west": 25, "nowhere": 25}


def test_pacman_capture_and_pellets():
    from gridsolve.language.loader import load_board
    pacman = load_board(ROOT / "boards/pacman3p.yaml")
    position = play(pacman, initial_position(pacman), "east", "blinky west, inky east", "north",
                    "blinky east, inky south")
    assert position.as_dict(pacman)["collected"] == {"pellets": 2}
    caught = play(pacman, position, "north")
    assert caught.as_dict(pacman)["collected"] == {"pellets": 3}
    assert reference.end_of(pacman, caught) == "caught_by_inky"
    assert reference.stop_scores(pacman, caught) == {"pacman": 6, "blinky": 0, "inky": 100}
    left = frozenset(sorted(pacman.marks["pellet"])[:5]) | {(6, 3)}
    late = Position(tuple((r, pacman.pieces[r]) for r in pacman.rules.roles), 0, 99, (("pellets", left),))
    assert reference.stop_scores(pacman, late) is None
    assert reference.stop_scores(pacman, play(pacman, late, "east")) == {"pacman": 74, "blinky": 0, "inky": 0}
    assert fields(ask(pacman, "pacman", horizon=6), "value", "plies") == (6, 6)


@pytest.mark.slow
def test_maze_runner_duel_first_player_wins_in_seven():
    from gridsolve.language.loader import load_board
    board = load_board(ROOT / "boards/maze-runner-duel.yaml")
    ans = ask(board, "p1", "win")
    assert fields(ans, "value", "plies", "win", "win_plies", "survives") == (100, 7, True, 7, True)
    assert ans["moves"] == {"east": (100, 6, True, True), "south": (100, 6, True, True)}


def test_maze_runner_duel_worked_example():
    from gridsolve.language.loader import load_board
    board = load_board(DATA / "maze-runner-duel-example.yaml")
    moves = {"right": "east", "left": "west", "up": "north", "down": "south"}
    trace = [("p1", "right", (2, 5)), ("p2", "left", (4, 1)), ("p1", "down", (2, 5)),
             ("p2", "up", (4, 2)), ("p2", "up", (4, 2)), ("p1", "right", (3, 5)),
             ("p1", "down", (3, 4)), ("p2", "up", (4, 2)), ("p1", "down", (3, 3))]
    position = initial_position(board)
    for player, direction, where in trace:
        assert board.rules.turns[position.side] == (player,)
        position = play(board, position, moves[direction])
        assert position.cell(player) == where
    assert reference.end_of(board, position) == "p1_reaches_center"
    assert reference.stop_scores(board, position) == {"p1": 100, "p2": 0}
