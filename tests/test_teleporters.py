"""Teleporter pairs (gridsolve/mechanisms/teleporters/, docs/rule-language.md "Teleporters"): the
meaning on tiny hand-checked positions (one ply from a stated position, by the compiled program:
``examine``), the loader's checks, the shipped board, the independent reference
(tests/reference.py) on random boards with a pair added, and plain clingo on ``gridsolve compile``
against every solver path.  Boards are drawn in their comments: x grows east; P a pair cell."""
from __future__ import annotations

import random
import sys
import textwrap
from pathlib import Path

import pytest
import yaml

from gridsolve.errors import BoardError
from gridsolve.language.loader import load_board
from gridsolve.language.position import initial_position, make_position, make_query
from gridsolve.solve.dispatch.dispatcher import solve
from gridsolve.solve.program.explore import examine

sys.path.insert(0, str(Path(__file__).resolve().parent))
from conftest import tiered  # noqa: E402
from randomboards import random_board, random_mechanism_board  # noqa: E402
from test_differential import _query_problems, mechanism_queries, plain_queries  # noqa: E402
from test_random_rules import case_problems  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
PLAIN = """\
rules:
  roles: [a, b]
  turns: [[a], [b]]
  moves:
    a: {{steps: {steps}, idle: true{bump}}}
    b: {{steps: 1, idle: true}}
  collect: {{coins: {{piece: a, mark: coin}}}}
  teleporters: {teleporters}
  ends:
    - {{name: met, when: {{same_cell: [a, b]}}, scores: {{a: 100, b: 0}}}}
  steps: {{first: 1, last: 6}}
  timeout: {{a: 0, b: 100}}
"""


def board(tmp_path, size, pieces, marks, teleporters="{pairs: [portal]}", steps=1, bump="", rules=None):
    text = rules or PLAIN.format(teleporters=teleporters, steps=steps, bump=bump)
    text += textwrap.dedent(f"""\
        size: {list(size)}
        pieces: {{{', '.join(f'{p}: {list(c)}' for p, c in pieces.items())}}}
        marks: {{{', '.join(f'{m}: {[list(c) for c in cells]}' for m, cells in marks.items())}}}
        """)
    path = tmp_path / "level.yaml"
    path.write_text(text, encoding="utf-8")
    return load_board(path)


def after(b, move, position=None):
    """{piece: cell} after ``move`` of the side to move (default: from the board's start)."""
    _, steps = examine(b, position or initial_position(b))
    return dict({s.move: s.position for s in steps}[move].pieces)


# - The meaning, on tiny boards ---

def test_a_step_onto_a_pair_cell_puts_the_piece_on_the_other_in_the_same_ply(tmp_path):
    # 5x1: a P . P b ; a east -> onto (2,1) -> on (4,1); b is still to move (one ply)
    b = board(tmp_path, (5, 1), {"a": (1, 1), "b": (5, 1)}, {"portal": [(2, 1), (4, 1)], "coin": [(3, 1)]})
    assert after(b, "east") == {"a": (4, 1), "b": (5, 1)}
    assert after(b, "nowhere")["a"] == (1, 1)
    _, steps = examine(b, initial_position(b))
    assert {s.position.side for s in steps} == {1}


def test_one_jump_no_chain_and_standing_on_a_pair_cell_is_no_teleport(tmp_path):
    # from (4,1), a pair cell: waiting stays there, stepping west leaves it for (3,1)
    b = board(tmp_path, (5, 1), {"a": (4, 1), "b": (5, 1)}, {"portal": [(2, 1), (4, 1)], "coin": [(3, 1)]})
    assert after(b, "nowhere")["a"] == (4, 1)
    assert after(b, "west")["a"] == (3, 1)
    # from (3,1) west onto (2,1): put on (4,1), and not sent back from there
    start = make_position(b, at=("a=3,1",))
    assert after(b, "west", start)["a"] == (4, 1)


def test_the_far_end_is_reached_whatever_stands_there(tmp_path):
    # a P . P(b): the jump lands on b's cell, the end same_cell holds
    b = board(tmp_path, (4, 1), {"a": (1, 1), "b": (4, 1)}, {"portal": [(2, 1), (4, 1)], "coin": [(3, 1)]})
    position = initial_position(b)
    _, steps = examine(b, position)
    landed = {s.move: s.position for s in steps}["east"]
    assert dict(landed.pieces) == {"a": (4, 1), "b": (4, 1)}
    assert examine(b, landed)[0] == "met"
    answer = solve(b, make_query(b, "a", "win"))
    assert answer.win is True and answer.plies == 1


def test_only_the_listed_pieces_teleport(tmp_path):
    # pieces: [a]: b steps onto (2,1) and stays there
    b = board(tmp_path, (4, 1), {"a": (4, 1), "b": (3, 1)}, {"portal": [(2, 1), (1, 1)], "coin": [(3, 1)]},
              teleporters="{pairs: [portal], pieces: [a]}")
    assert after(b, "west", make_position(b, turn="b"))["b"] == (2, 1)
    both = board(tmp_path, (4, 1), {"a": (4, 1), "b": (3, 1)}, {"portal": [(2, 1), (1, 1)], "coin": [(3, 1)]})
    assert after(both, "west", make_position(both, turn="b"))["b"] == (1, 1)


def test_only_the_end_of_a_move_of_several_steps_counts(tmp_path):
    # steps: 2: east east passes over (2,1) and ends on (3,1); east nowhere ends on (2,1) -> (5,1)
    b = board(tmp_path, (6, 1), {"a": (1, 1), "b": (6, 1)}, {"portal": [(2, 1), (5, 1)], "coin": [(4, 1)]}, steps=2)
    assert after(b, "east east")["a"] == (3, 1)
    assert after(b, "east nowhere")["a"] == (5, 1)


def test_a_bump_on_a_pair_cell_stays_and_does_not_teleport(tmp_path):
    b = board(tmp_path, (4, 1), {"a": (1, 1), "b": (4, 1)},
              {"portal": [(2, 1), (3, 1)], "mud": [(2, 1)], "coin": [(3, 1)]}, bump=", bump: {marks: [mud]}")
    assert after(b, "east")["a"] == (1, 1)


def test_a_collector_takes_the_item_on_the_far_end_not_the_near_one(tmp_path):
    b = board(tmp_path, (5, 1), {"a": (1, 1), "b": (5, 1)}, {"portal": [(2, 1), (4, 1)], "coin": [(2, 1), (4, 1)]})
    _, steps = examine(b, initial_position(b))
    landed = {s.move: s.position for s in steps}["east"]
    assert dict(landed.items_left(b))["coins"] == frozenset({(2, 1)})


def test_a_chaser_never_teleports(tmp_path):
    # classic Mummy Maze, 4x2: the mummy (1,1) steps east onto the pair cell (2,1) and stays there
    rules = "rules:\n  use: mummy-maze-classic\n  teleporters: {pairs: [portal]}\n"
    b = board(tmp_path, (4, 2), {"explorer": (4, 2), "mummy": (1, 1)},
              {"portal": [(2, 1), (1, 2)], "exit": [(4, 1)]}, rules=rules)
    moved = after(b, "nowhere")
    assert moved["explorer"] == (4, 2) and moved["mummy"] == (3, 1)     # two steps east, through (2,1)
    blocked = board(tmp_path, (4, 2), {"explorer": (2, 2), "mummy": (1, 1)},
                    {"portal": [(2, 1), (4, 2)], "exit": [(4, 1)]}, rules=rules)
    # the explorer waits above (2,1): the mummy steps east onto the pair cell (2,1), then north onto him
    moved = after(blocked, "nowhere")
    assert (moved["explorer"], moved["mummy"]) == ((2, 2), (2, 2))


# - The loader ---

@pytest.mark.parametrize("teleporters, marks, message", [
    ("{pairs: [portal]}", {"portal": [(2, 1)], "coin": [(3, 1)]}, "has 1 cell"),
    ("{pairs: [portal]}", {"portal": [(2, 1), (3, 1), (1, 1)], "coin": [(3, 1)]}, "has 3 cell"),
    ("{pairs: [portal]}", {"coin": [(3, 1)]}, "needs cells marked 'portal'"),
    ("{pairs: [portal], pieces: [zed]}", {"portal": [(2, 1), (3, 1)], "coin": [(3, 1)]}, "zed"),
    ("{pairs: [portal, portal]}", {"portal": [(2, 1), (3, 1)], "coin": [(3, 1)]}, "listed twice"),
    ("{pieces: [a]}", {"portal": [(2, 1), (3, 1)], "coin": [(3, 1)]}, "pairs"),
    ("{pairs: [portal]}", {"portal": [(2, 1), (3, 1)], "coin": [(3, 1)], "mud": [(1, 1)]}, "hidden marks"),
])
def test_the_loader_refuses_a_pair_that_is_not_two_cells_and_unknown_pieces(tmp_path, teleporters, marks, message):
    bump = ", bump: {marks: [mud], hidden: true}" if "mud" in marks else ""
    with pytest.raises(BoardError, match=message):
        board(tmp_path, (4, 1), {"a": (1, 1), "b": (4, 1)}, marks, teleporters=teleporters, bump=bump)


def test_teleporters_name_their_mechanism(tmp_path):
    b = board(tmp_path, (4, 1), {"a": (1, 1), "b": (4, 1)}, {"portal": [(2, 1), (3, 1)], "coin": [(3, 1)]})
    assert "teleporters" in b.rules.mechanisms
    without = PLAIN.format(teleporters="X", steps=1, bump="").replace("  teleporters: X\n", "")
    assert "teleporters" not in board(tmp_path, (4, 1), {"a": (1, 1), "b": (4, 1)}, {"coin": [(3, 1)]},
                                      rules=without).rules.mechanisms


# - The shipped board ---

def test_the_shipped_board_is_won_through_the_pair_and_not_without_it(tmp_path):
    path = ROOT / "boards" / "combined" / "portal-escape.yaml"
    b = load_board(path)
    answer = solve(b, make_query(b, "explorer", "win"))
    assert answer.win is True and answer.win_moves == 12
    without = tmp_path / "no-portal.yaml"
    without.write_text(path.read_text(encoding="utf-8").replace("  teleporters: {pairs: [portal]}\n", ""),
                       encoding="utf-8")
    plain = load_board(without)
    assert "teleporters" not in plain.rules.mechanisms
    assert solve(plain, make_query(plain, "explorer", "win")).win is False


def test_the_shipped_board_against_plain_clingo():
    b = load_board(ROOT / "boards" / "combined" / "portal-escape.yaml")
    assert case_problems(b, make_query(b, "explorer", "win", horizon=14)) == []


# - The independent reference, on random boards with a pair added ---

def with_pair(text: str, seed: int, free: list, pieces=None) -> str:
    """The random board ``text`` with a teleporter pair ``portal`` on two of its ``free`` cells
    (``pieces``: the roles that teleport; None: every role)."""
    rng = random.Random(seed * 31 + 44)
    data = yaml.safe_load(text)
    rules = data["rules"] if isinstance(data["rules"], dict) else {"use": data["rules"]}
    rules["teleporters"] = {"pairs": ["portal"], **({"pieces": pieces} if pieces else {})}
    data["rules"] = rules
    data.setdefault("marks", {})
    data["marks"] = dict(data["marks"] or {}, portal=[list(c) for c in rng.sample(sorted(free), 2)])
    return yaml.safe_dump(data, sort_keys=False)


def reference_problems(tmp_path, seed: int, mechanisms: bool) -> list[str]:
    rb = random_mechanism_board(seed) if mechanisms else random_board(seed)
    path = tmp_path / f"teleport-{seed}.yaml"
    path.write_text(with_pair(rb.text, seed, rb.free), encoding="utf-8")
    b = load_board(path)
    assert "teleporters" in b.rules.mechanisms
    queries = mechanism_queries if mechanisms else plain_queries
    problems = []
    for label, query in queries(seed, rb, b):
        problems += _query_problems(b, query, label, random.Random(seed), 3)
    return problems


QUICK = range(2)        # seed 0 in the slow tier (its plain board takes more than a second), seed 1 quick
SLOW = range(2, 60)


@pytest.mark.parametrize("seed", tiered(QUICK, lambda seed: seed != 0))
@pytest.mark.parametrize("mechanisms", [False, True], ids=["plain", "mechanisms"])
def test_the_reference_agrees_on_random_boards_with_a_pair(tmp_path, seed, mechanisms):
    assert reference_problems(tmp_path, seed, mechanisms) == []


@pytest.mark.slow
@pytest.mark.parametrize("seed", SLOW)
@pytest.mark.parametrize("mechanisms", [False, True], ids=["plain", "mechanisms"])
def test_the_reference_agrees_on_random_boards_with_a_pair_slow(tmp_path, seed, mechanisms):
    assert reference_problems(tmp_path, seed, mechanisms) == []
