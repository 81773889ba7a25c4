"""Crates a role pushes (gridsolve/mechanisms/crates/, docs/rule-language.md "Crates"): the
meaning on tiny hand-checked positions (one ply from the start, by the compiled program:
``examine``), the ``crates_on`` ends, the loader's checks, the paths that refuse crates, the
shipped board, and every solver path against plain clingo on ``gridsolve compile``'s program on
random small crate boards.  Boards are drawn in their comments: x grows east; C a crate, | a wall."""
from __future__ import annotations

import random
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from gridsolve.cli import main
from gridsolve.errors import BoardError, QueryError
from gridsolve.language.loader import load_board
from gridsolve.language.position import end_at, initial_position, make_query
from gridsolve.solve.common.capabilities import decide
from gridsolve.solve.dispatch.dispatcher import solve
from gridsolve.render import draw_position
from gridsolve.solve.program.explore import examine

sys.path.insert(0, str(Path(__file__).resolve().parent))
from conftest import tiered  # noqa: E402
from test_differential import _query_problems  # noqa: E402
from test_random_rules import case_problems  # noqa: E402
from reference import game as reference  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
RULES = """\
rules:
  roles: [a, b]
  turns: [[a], [b]]
  moves:
    a: {{steps: {steps}, idle: true, blocked: {blocked}, pushes: crates}}
    b: {{steps: 1, idle: true, blocked: {blocked}}}
  crates: {{mark: crate}}
  ends:
    - {{name: met, when: {{same_cell: [a, b]}}, scores: {{a: 0, b: 100}}, loss_for: [a]}}
    - {{name: stored, when: {{crates_on: {{goal: {on}}}}}, scores: {{a: 100, b: 0}}, loss_for: [b]}}
  steps: {{first: 1, last: {last}}}
  timeout: {timeout}
"""
PLAIN_TIMEOUT = "{a: 0, b: 100}"
# a conditional timeout entry (the layered solver answers these): a draw with a crate on the goal
TIMEOUT_ENTRY = "[{when: {crates_on: {goal: 1}}, scores: {a: 50, b: 50}}, {scores: {a: 0, b: 100}}]"


def board(tmp_path, size, pieces, crates, goal=(), walls="{}", steps=1, blocked="illegal", on="all", last=6,
          timeout=PLAIN_TIMEOUT):
    text = RULES.format(steps=steps, blocked=blocked, on=on, last=last, timeout=timeout) + textwrap.dedent(f"""\
        size: {list(size)}
        walls: {walls}
        pieces: {{{', '.join(f'{p}: {list(c)}' for p, c in pieces.items())}}}
        marks: {{crate: {[list(c) for c in crates]}, goal: {[list(c) for c in goal]}}}
        """)
    path = tmp_path / "level.yaml"
    path.write_text(text, encoding="utf-8")
    return load_board(path)


def plies(b, position=None) -> dict:
    """{move: ({piece: cell}, crate cells)} of the side to move (default: from the board's start)."""
    _, steps = examine(b, position or initial_position(b))
    return {s.move: (dict(s.position.pieces), s.position.plugin("crates")) for s in steps}


# - The meaning, on tiny boards ---

def test_a_step_into_a_crate_pushes_it_one_cell_on(tmp_path):
    # 5x1: a C . . b ; a east: a on (2,1), the crate on (3,1)
    b = board(tmp_path, (5, 1), {"a": (1, 1), "b": (5, 1)}, [(2, 1)])
    assert plies(b)["east"] == ({"a": (2, 1), "b": (5, 1)}, {(3, 1)})
    assert plies(b)["nowhere"] == ({"a": (1, 1), "b": (5, 1)}, {(2, 1)})


@pytest.mark.parametrize("blocked", ["illegal", "stay"])
@pytest.mark.parametrize("what", ["wall", "border", "crate", "piece"])
def test_a_push_into_a_wall_the_border_a_crate_or_a_piece_is_blocked(tmp_path, blocked, what):
    # 4x1: a C X . where X is a wall east of the crate, the border (a 2x1 board), a crate or b
    size, crates, pieces, walls = (4, 1), [(2, 1)], {"a": (1, 1), "b": (4, 1)}, "{}"
    if what == "wall":
        walls = "{east: [[2, 1]]}"
    elif what == "border":
        size, pieces = (3, 1), {"a": (2, 1), "b": (1, 1)}
        crates = [(3, 1)]
    elif what == "crate":
        crates = [(2, 1), (3, 1)]
    else:
        pieces = {"a": (1, 1), "b": (3, 1)}
    b = board(tmp_path, size, pieces, crates, walls=walls, blocked=blocked)
    east = plies(b).get("east")
    # illegal: no such move; stay: a stays where it is and no crate moves
    assert east == (None if blocked == "illegal" else (pieces, set(crates)))


@pytest.mark.parametrize("blocked", ["illegal", "stay"])
def test_a_crate_blocks_every_piece_that_does_not_push(tmp_path, blocked):
    # 4x1: a . C b ; b (no pushes) west into the crate: blocked
    b = board(tmp_path, (4, 1), {"a": (1, 1), "b": (4, 1)}, [(3, 1)], blocked=blocked)
    before = initial_position(b)
    after_a = examine(b, before)[1]
    position = next(s.position for s in after_a if s.move == "nowhere")     # b to move
    west = plies(b, position).get("west")
    assert west == (None if blocked == "illegal" else ({"a": (1, 1), "b": (4, 1)}, {(3, 1)}))


def test_a_move_of_several_steps_pushes_at_each_step(tmp_path):
    # 5x1: a C . . b ; a (east,east): a on (3,1), the crate on (4,1); (east,west): a back on (1,1)
    # with the crate left on (3,1)
    b = board(tmp_path, (6, 1), {"a": (1, 1), "b": (6, 1)}, [(2, 1)], steps=2)
    moves = plies(b)
    assert moves["east east"] == ({"a": (3, 1), "b": (6, 1)}, {(4, 1)})
    assert moves["east west"] == ({"a": (1, 1), "b": (6, 1)}, {(3, 1)})
    assert moves["east nowhere"] == ({"a": (2, 1), "b": (6, 1)}, {(3, 1)})


@pytest.mark.parametrize("blocked", ["illegal", "stay"])
def test_a_step_of_a_longer_move_whose_push_is_blocked_stays_or_makes_the_move_illegal(tmp_path, blocked):
    # 4x1: a C . | (the border) ; (east,east): the second push hits the border
    b = board(tmp_path, (4, 1), {"a": (1, 1), "b": (4, 1)}, [(2, 1)], steps=2, blocked=blocked)
    moves = plies(b)
    # the first push puts the crate on (3,1); b stands on (4,1): the second is blocked by the piece
    assert moves.get("east east") == (None if blocked == "illegal" else ({"a": (2, 1), "b": (4, 1)}, {(3, 1)}))


def test_crates_on_ends_count_the_crates_on_the_mark(tmp_path):
    # 4x2: a C G . / . . . b ; one push stores the crate: a wins in one ply
    b = board(tmp_path, (4, 2), {"a": (1, 1), "b": (4, 2)}, [(2, 1)], goal=[(3, 1)])
    answer = solve(b, make_query(b, "a", "value"))
    assert (answer.value, answer.plies) == (100, 1)
    assert [ply.move for ply in answer.line] == ["east"]
    # the end judged on a position (Python's reading, as the compiled ends)
    after = examine(b, initial_position(b))[1]
    stored = next(s.position for s in after if s.move == "east")
    assert end_at(b, stored) == "stored" and end_at(b, initial_position(b)) is None
    # at least a count: 0 crates on the goal hold at the start
    zero = board(tmp_path, (4, 2), {"a": (1, 1), "b": (4, 2)}, [(2, 1)], goal=[(3, 1)], on=0)
    assert end_at(zero, initial_position(zero)) == "stored"


def test_an_end_asking_more_crates_than_the_board_has_is_never_live(tmp_path):
    from gridsolve.compile.gamerules import live_ends
    # two crates, a goal of two cells: "all" and 2 can hold, 3 cannot; "met" asks no crates and stays
    def ends(on):
        b = board(tmp_path, (4, 2), {"a": (1, 1), "b": (4, 2)}, [(2, 1), (2, 2)], goal=[(3, 1), (3, 2)], on=on)
        return [end.name for end in live_ends(b)]
    assert ends("all") == ends(2) == ["met", "stored"]
    assert ends(3) == ["met"]
    # one goal cell: two crates can never be on it
    b = board(tmp_path, (4, 2), {"a": (1, 1), "b": (4, 2)}, [(2, 1), (2, 2)], goal=[(3, 1)], on=2)
    assert [end.name for end in live_ends(b)] == ["met"]


def test_a_position_with_crates_as_json(tmp_path):
    b = board(tmp_path, (5, 1), {"a": (1, 1), "b": (5, 1)}, [(2, 1), (3, 1)])
    assert initial_position(b).as_dict(b)["crates"] == [[2, 1], [3, 1]]
    assert initial_position(b).as_dict(b, strategy=True)["crates"] == [[2, 1], [3, 1]]


def test_a_position_is_drawn_with_its_crates_where_they_are(tmp_path):
    b = board(tmp_path, (5, 1), {"a": (1, 1), "b": (5, 1)}, [(2, 1)])
    pushed = next(s.position for s in examine(b, initial_position(b))[1] if s.move == "east")
    row = next(line for line in draw_position(b, pushed).splitlines() if line.startswith(" 1 |"))
    assert row == " 1 |     A   C       B |"


# - Crates and a mummy that chases by the classic rule (after_ply) ---

# the classic rules (two mummy steps after each explorer move, horizontal first) with a pushing explorer
CLASSIC = ("rules:\n  use: {rules}\n  moves:\n    explorer: {{pushes: crates}}\n  crates: {{mark: crate}}\n"
           .format(rules="mummy-maze-classic"))


def classic(tmp_path, size, pieces, crates, exit_cell, walls="{}", rules="mummy-maze-classic"):
    text = CLASSIC.replace("mummy-maze-classic", rules) + textwrap.dedent(f"""\
        size: {list(size)}
        walls: {walls}
        pieces: {{{', '.join(f'{p}: {list(c)}' for p, c in pieces.items())}}}
        marks: {{crate: {[list(c) for c in crates]}, exit: [{list(exit_cell)}]}}
        """)
    path = tmp_path / "classic.yaml"
    path.write_text(text, encoding="utf-8")
    return load_board(path)


def chased(b, move: str) -> tuple[dict, set]:
    """({piece on the board: cell}, crate cells) after the explorer's ``move`` and the script."""
    pieces, crates = plies(b)[move]
    return {p: c for p, c in pieces.items() if c != (0, 0)}, crates


def test_a_crate_blocks_the_mummy_as_a_wall(tmp_path):
    # 5x1: E . C . M ; the explorer waits: the mummy steps west to (4,1), then the crate on (3,1)
    # blocks its second step (it is level with the explorer: no vertical step), so it stays
    b = classic(tmp_path, (5, 1), {"explorer": (1, 1), "mummy": (5, 1)}, [(3, 1)], (1, 1))
    assert chased(b, "nowhere") == ({"explorer": (1, 1), "mummy": (4, 1)}, {(3, 1)})


def test_the_mummy_blocked_by_a_crate_falls_back_to_its_other_axis(tmp_path):
    # 3x2:  . C M   the explorer waits: west is the crate, so the mummy steps south to (3,1),
    #       E . .   then west to (2,1) (without the crate: west twice, to (1,2))
    b = classic(tmp_path, (3, 2), {"explorer": (1, 1), "mummy": (3, 2)}, [(2, 2)], (3, 1))
    assert chased(b, "nowhere") == ({"explorer": (1, 1), "mummy": (2, 1)}, {(2, 2)})
    free = classic(tmp_path, (3, 2), {"explorer": (1, 1), "mummy": (3, 2)}, [], (3, 1))
    assert chased(free, "nowhere")[0] == {"explorer": (1, 1), "mummy": (1, 2)}
    # both of its steps onto crates: it stays
    # 3x2:  C M .
    #       E C .
    both = classic(tmp_path, (3, 2), {"explorer": (1, 1), "mummy": (2, 2)}, [(1, 2), (2, 1)], (3, 1))
    assert chased(both, "nowhere") == ({"explorer": (1, 1), "mummy": (2, 2)}, {(1, 2), (2, 1)})


def test_a_red_mummy_blocked_by_a_crate_falls_back_to_the_horizontal_step(tmp_path):
    # 2x3:  M .   a red mummy tries vertical first: south is the crate, so east to (2,3), then
    #       C .   south to (2,2)
    #       . E
    b = classic(tmp_path, (2, 3), {"explorer": (2, 1), "mummy": (1, 3)}, [(1, 2)], (1, 1),
                rules="mummy-maze-classic-red")
    assert chased(b, "nowhere") == ({"explorer": (2, 1), "mummy": (2, 2)}, {(1, 2)})


def test_the_explorer_pushing_a_crate_with_the_mummy_beside_him(tmp_path):
    # 4x2:  M . . X   east pushes the crate to (3,1); the mummy steps east, then south onto the
    #       E C . .   explorer: caught
    b = classic(tmp_path, (4, 2), {"explorer": (1, 1), "mummy": (1, 2)}, [(2, 1)], (4, 2))
    assert chased(b, "east") == ({"explorer": (2, 1), "mummy": (2, 1)}, {(3, 1)})
    assert solve(b, make_query(b, "explorer", "win")).win is False
    # 3x2:  . . X   the mummy stands beyond the crate: the push is blocked (the explorer stays,
    #       E C M   blocked: stay) and the crate blocks the mummy: nobody moves
    stuck = classic(tmp_path, (3, 2), {"explorer": (1, 1), "mummy": (3, 1)}, [(2, 1)], (3, 2))
    assert chased(stuck, "east") == ({"explorer": (1, 1), "mummy": (3, 1)}, {(2, 1)})
    # the reference reads them alike
    for board_, move in ((b, "east"), (stuck, "east")):
        moved = reference.legal_moves(board_, initial_position(board_))[move]
        assert dict(moved.plugins)["crates"] == plies(board_)[move][1]
        assert {p: c for p, c in moved.pieces if c != (0, 0)} == chased(board_, move)[0]


def random_chased_board(tmp_path, seed: int):
    """A random board of 3x2 to 4x4 cells under the classic rules (or the red ones: vertical
    first) with a pushing explorer, walls, one or two crates, an exit on the border and a mummy,
    in about half of the boards a second mummy or a scorpion."""
    rng = random.Random(seed)
    w, h = rng.randint(3, 4), rng.randint(2, 4)
    cells = [(x, y) for x in range(1, w + 1) for y in range(1, h + 1)]
    border = [c for c in cells if c[0] in (1, w) or c[1] in (1, h)]
    exit_cell = rng.choice(border)
    enemies = ["mummy"] + ([rng.choice(["mummy2", "scorpion"])] if rng.random() < 0.5 else [])
    picks = rng.sample([c for c in cells if c != exit_cell], 1 + len(enemies) + rng.randint(1, 2))
    pieces = dict(zip(["explorer", *enemies], picks))
    north = [list(c) for c in cells if c[1] < h and rng.random() < 0.15]
    east = [list(c) for c in cells if c[0] < w and rng.random() < 0.15]
    return classic(tmp_path, (w, h), pieces, picks[len(pieces):], exit_cell, walls=f"{{north: {north}, east: {east}}}",
                   rules=rng.choice(["mummy-maze-classic", "mummy-maze-classic-red"]))


@pytest.mark.parametrize("seed", tiered(range(40), 2))
def test_every_path_answers_as_plain_clingo_on_random_chased_crate_boards(tmp_path, seed):
    b = random_chased_board(tmp_path, seed)
    rng = random.Random(seed)
    query = make_query(b, "explorer", rng.choice(["value", "win", "survive"]), horizon=rng.choice([None, 4]))
    assert case_problems(b, query) == [], (seed, b.path.read_text())


@pytest.mark.parametrize("seed", tiered(range(40), 2))
def test_solve_and_examine_agree_with_the_reference_on_random_chased_crate_boards(tmp_path, seed):
    """The independent reference (reference/game.py: a crate blocks a chaser's step as a wall)
    against solve's answer and examine's moves at the start and a few positions after it."""
    b = random_chased_board(tmp_path, seed)
    rng = random.Random(seed + 7)     # (the classic rules have no step limit: the reference needs a horizon)
    query = make_query(b, "explorer", rng.choice(["value", "win", "survive"]), horizon=rng.choice([3, 5]))
    assert _query_problems(b, query, f"seed {seed}", rng, 3) == [], b.path.read_text()


# - The loader's checks and the paths that refuse crates ---

def test_pushes_without_crates_and_crates_with_gates_on_the_board_are_refused(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(RULES.format(steps=1, blocked="illegal", on="all", last=4, timeout=PLAIN_TIMEOUT).replace("  crates: {mark: crate}\n", "")
                    .replace("    - {name: stored, when: {crates_on: {goal: all}}, scores: {a: 100, b: 0}, loss_for: [b]}\n", "")
                    + "size: [3, 1]\npieces: {a: [1, 1], b: [3, 1]}\n", encoding="utf-8")
    with pytest.raises(BoardError, match="pushes: the rules have no crates"):
        load_board(path)
    path.write_text(CLASSIC + "size: [3, 2]\ngates: {east: [[1, 1]]}\npieces: {explorer: [1, 1], mummy: [3, 1]}\n"
                    "marks: {exit: [[2, 2]], crate: []}\n", encoding="utf-8")
    with pytest.raises(BoardError, match="crates with gates on the board are not answered"):
        load_board(path)


def test_a_piece_may_not_start_on_a_crate(tmp_path):
    with pytest.raises(BoardError, match="a starts on a crate"):
        board(tmp_path, (3, 1), {"a": (1, 1), "b": (3, 1)}, [(1, 1)])


def test_only_the_paths_of_the_compiled_rules_serve_crates(tmp_path):
    layered = board(tmp_path, (4, 1), {"a": (1, 1), "b": (4, 1)}, [(2, 1)], goal=[(3, 1)], timeout=TIMEOUT_ENTRY)
    assert decide(layered, make_query(layered, "a", "value")).served == ["layered table", "compiled"]
    b = board(tmp_path, (4, 1), {"a": (1, 1), "b": (4, 1)}, [(2, 1)], goal=[(3, 1)])
    decision = decide(b, make_query(b, "a", "value"))
    assert decision.served == ["race", "compiled"]
    with pytest.raises(QueryError, match="--hidden: the robust question is not answered for rules with crates"):
        make_query(b, "a", "value", hidden=True)
    with pytest.raises(QueryError, match="--at a=2,1: a crate stands there"):
        make_query(b, "a", "value", at=("a=2,1",))
    from gridsolve.solve.common.capabilities import GRAPH_BUILDERS, FEATURE_GRAPHS
    graphs = decide(b, make_query(b, "a", "value"), names=[r.name for r in GRAPH_BUILDERS + FEATURE_GRAPHS])
    assert graphs.served == ["ground graph"]
    assert "crates, which only the compiled rules step" in graphs.reason("wall graph")


# - Against plain clingo on the compiled program ---

def random_crate_board(tmp_path, seed: int):
    """A random board of 2x2 to 4x4 cells, walls, one or two crates and goals, a pusher with 1 or
    2 steps, the other role blocked by crates, blocked: illegal or stay, and in about a third of
    the boards a conditional timeout entry counting crates on the goal (a layered question)."""
    rng = random.Random(seed)
    w, h = rng.randint(2, 4), rng.randint(1, 4)
    if w * h < 5:
        w, h = 3, 2
    cells = [(x, y) for x in range(1, w + 1) for y in range(1, h + 1)]
    picks = rng.sample(cells, 5 if rng.random() < 0.5 or w * h < 7 else 7)
    a, b_, crates, goal = picks[0], picks[1], picks[2:3] if len(picks) == 5 else picks[2:4], picks[3:] \
        if len(picks) == 5 else picks[4:]
    north = [list(c) for c in cells if c[1] < h and rng.random() < 0.2]
    east = [list(c) for c in cells if c[0] < w and rng.random() < 0.2]
    on = rng.choice(["all", 1, len(crates)])
    return board(tmp_path, (w, h), {"a": a, "b": b_}, crates, goal=goal, walls=f"{{north: {north}, east: {east}}}",
                 steps=rng.choice([1, 1, 2]), blocked=rng.choice(["illegal", "stay"]), on=on, last=rng.randint(4, 8),
                 timeout=TIMEOUT_ENTRY if rng.random() < 0.3 else PLAIN_TIMEOUT)


@pytest.mark.parametrize("seed", tiered(range(40), (0, 1, 3).__contains__))   # (seed 2: 6 s, in the slow tier)
def test_every_path_answers_as_plain_clingo_on_random_crate_boards(tmp_path, seed):
    b = random_crate_board(tmp_path, seed)
    rng = random.Random(seed)
    for role in b.rules.roles:
        query = make_query(b, role, rng.choice(["value", "win", "survive"]), horizon=rng.choice([None, 3]))
        assert case_problems(b, query) == [], (seed, role, b.path.read_text())


@pytest.mark.parametrize("seed", tiered(range(40), 4))
def test_solve_and_the_rules_as_examine_reads_them_agree_with_the_reference_on_random_crate_boards(tmp_path, seed):
    """The independent reference (reference/game.py: its own reading of the crates) against
    solve's answer and against examine's moves at the start and at a few positions after it."""
    b = random_crate_board(tmp_path, seed)
    rng = random.Random(seed + 7)
    for role in b.rules.roles:
        query = make_query(b, role, rng.choice(["value", "win", "survive"]), horizon=rng.choice([None, 3]))
        assert _query_problems(b, query, f"seed {seed} {role}", rng, 3) == [], b.path.read_text()


def test_the_reference_reads_the_tiny_positions_as_the_compiled_rules(tmp_path):
    # 4x1: a C . b with steps 2 and blocked: stay: (east,east) pushes once, then the crate meets b
    b = board(tmp_path, (4, 1), {"a": (1, 1), "b": (4, 1)}, [(2, 1)], steps=2, blocked="stay")
    moves = reference.legal_moves(b, initial_position(b))
    assert dict(moves["east east"].pieces)["a"] == (2, 1) and moves["east east"].plugins == (("crates", {(3, 1)}),)
    assert plies(b)["east east"] == ({"a": (2, 1), "b": (4, 1)}, {(3, 1)})


# - The shipped board ---

SHIPPED = ROOT / "boards" / "combined" / "crate-tomb.yaml"


def test_the_shipped_board_against_plain_clingo():
    b = load_board(SHIPPED)
    assert case_problems(b, make_query(b, "explorer", "value")) == []


def test_the_shipped_board_is_won_in_four_moves_and_lost_with_the_crate_one_cell_north(tmp_path):
    b = load_board(SHIPPED)
    answer = solve(b, make_query(b, "explorer", "win"))
    assert (answer.win, answer.plies) == (True, 7)
    moved = tmp_path / "moved.yaml"
    moved.write_text(SHIPPED.read_text(encoding="utf-8").replace(" 3 |       |           |\n",
                                                                 " 3 |       |     C     |\n")
                     .replace(" 2 |             C     |\n", " 2 |                   |\n"), encoding="utf-8")
    lost = load_board(moved)
    assert lost.marks["crate"] == {(4, 3)}
    assert solve(lost, make_query(lost, "explorer", "win")).win is False


CHASE = ROOT / "boards" / "combined" / "crate-chase.yaml"


def test_the_shipped_classic_board_against_plain_clingo_and_the_reference():
    b = load_board(CHASE)
    assert case_problems(b, make_query(b, "explorer", "win")) == []
    assert _query_problems(b, make_query(b, "explorer", "win", horizon=16), "crate-chase", random.Random(3), 2) == []


def test_the_shipped_classic_board_is_won_in_sixteen_moves_and_lost_without_the_crate(tmp_path):
    b = load_board(CHASE)
    answer = solve(b, make_query(b, "explorer", "win"))
    assert (answer.win, answer.plies) == (True, 16)
    bare = tmp_path / "bare.yaml"
    bare.write_text(CHASE.read_text(encoding="utf-8").replace(" 2 |           | C     |\n", " 2 |           |       |\n")
                    .replace("  moves:\n    explorer: {pushes: crates}\n  crates: {mark: crate}\n", ""), encoding="utf-8")
    lost = load_board(bare)
    assert "crates" not in lost.rules.plugins and lost.pieces == b.pieces
    assert solve(lost, make_query(lost, "explorer", "win")).win is False


def test_generate_refuses_crates_with_pieces_moved_by_rule(tmp_path):
    # its climb over classic levels steps the pieces' cells and the gate only
    done = CliRunner().invoke(main, ["generate", "--like", str(CHASE), "--out", str(tmp_path), "--count", "1"])
    assert done.exit_code == 2, done.output
    assert "its positions keep crates, which the climb over levels of pieces moved by rule does not step" in done.stderr
