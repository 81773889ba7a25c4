"""Teleporter pairs (gridsolve/mechanisms/teleporters/, docs/rule-language.md "Teleporters"): the
meaning on tiny hand-checked positions (one ply from a stated position, by the compiled program:
``examine``), with gates and kinds of enemies too (and there the race solver's scripted graph,
numpy and C, against the compiled rules), the shared tables of a rule set following each board's
pair, the loader's checks, the shipped board, the independent reference (reference/game.py) on
random boards with a pair added (plain ones, and scripted ones with gates, chasers and enemies),
and plain clingo on ``gridsolve compile`` against every solver path.  Boards are drawn in their comments: x grows east; P a pair cell."""
from __future__ import annotations

import random
import sys
import textwrap
from pathlib import Path

import pytest
import yaml

from gridsolve.compile.state import layout_for
from gridsolve.errors import BoardError
from gridsolve.language.loader import load_board
from gridsolve.language.position import initial_position, make_position, make_query
from gridsolve.solve.dispatch.dispatcher import solve
from gridsolve.solve.graph import sharedtables
from gridsolve.solve.graph.scripted import ScriptTables
from gridsolve.solve.graph.sharedtables import Circuit
from gridsolve.solve.program.explore import examine

sys.path.insert(0, str(Path(__file__).resolve().parent))
from conftest import tiered  # noqa: E402
from randomboards import random_board, random_mechanism_board  # noqa: E402
from test_differential import _query_problems, mechanism_queries, plain_queries  # noqa: E402
from classic_boards import random_classic_board  # noqa: E402
from test_combined import assert_one_meaning  # noqa: E402
from test_order import _random_order_board, assert_one_graph  # noqa: E402
from test_sharedtables import _check_rows  # noqa: E402
from test_random_rules import case_problems  # noqa: E402
from test_scriptkernel import _differences, _tables  # noqa: E402

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


# - With gates and with kinds of enemies, on tiny boards (and every solver path against plain clingo there) ---

def level(tmp_path, rules: str, lines: str, name: str = "level.yaml"):
    """A board of the shipped rule set ``rules`` with a pair ``portal`` (``lines``: its size,
    gates, pieces, enemies and marks)."""
    path = tmp_path / name
    path.write_text(f"rules:\n  use: {rules}\n  teleporters: {{pairs: [portal]}}\n{textwrap.dedent(lines)}",
                    encoding="utf-8")
    return load_board(path)


def moves_from(b, position) -> dict:
    """{move: ({piece: cell}, gates open)} of every move at ``position``, by the compiled rules."""
    _, steps = examine(b, position)
    return {s.move: (dict(s.position.pieces), s.position.gates_open) for s in steps}


def agrees_with_plain_clingo(b, **question) -> bool:
    """Every solver path answers as plain clingo on the compiled program, and the race solver's
    scripted graph (its numpy search and its C twin) is the graph of the compiled rules."""
    assert_one_graph(b.path)
    tables, root = _tables(b.path)
    assert _differences(tables, root, 0) == []
    return case_problems(b, make_query(b, b.rules.roles[0], "value", horizon=3, **question)) == []


GATED = """\
    size: [4, 2]
    gates: {north: [], east: [[1, 1]]}
    pieces: {explorer: [1, 1]}
    marks: {exit: [[4, 2]], portal: [[2, 1], [1, 2]]}
    """


@pytest.mark.parametrize("blocked", ["stay", "illegal"])
def test_a_closed_gate_into_a_pair_cell_stops_the_step_before_the_jump(tmp_path, blocked):
    # 4x2, P at (2,1) and (1,2), a gate east of the explorer on (1,1):
    #   . . . X
    #   P . . .
    #   E|P . .       (| the gate)
    rules = "mummy-maze-classic" if blocked == "stay" else \
        "mummy-maze-classic\n  moves: {explorer: {steps: 1, idle: true, blocked: illegal}}"
    b = level(tmp_path, rules, GATED)
    closed, opened = make_position(b), make_position(b, gates="open")
    east_closed = moves_from(b, closed).get("east")
    # closed: the step is stopped on (1,1) (stay) or no move (illegal); never the jump to (1,2)
    assert east_closed == (({"explorer": (1, 1), "mummy": (0, 0), "mummy2": (0, 0), "scorpion": (0, 0)}, False)
                           if blocked == "stay" else None)
    assert moves_from(b, opened)["east"][0]["explorer"] == (1, 2)       # open: onto (2,1), on to (1,2)
    assert moves_from(b, closed)["north"][0]["explorer"] == (2, 1)      # no gate north: onto (1,2), on to (2,1)
    assert agrees_with_plain_clingo(b) and agrees_with_plain_clingo(b, gates="open")


def test_a_gate_beside_the_far_cell_does_not_stop_the_jump_and_the_key_counts_where_it_ends(tmp_path):
    # 4x2, P at (2,1) and (1,2), closed gates on both open edges of (1,2); the explorer steps
    # west from (3,1) onto (2,1) and lands on (1,2), walled in by the gates:
    #   P|. . X       (| and = the gates)
    #   =
    #   . P E .
    lines = """\
        size: [4, 2]
        gates: {north: [[1, 1]], east: [[1, 2]]}
        pieces: {explorer: [3, 1]}
        marks: {exit: [[4, 2]], portal: [[2, 1], [1, 2]], key: [[KEY]]}
        """
    near = level(tmp_path, "mummy-maze-classic", lines.replace("KEY", "2, 1"), "near.yaml")
    far = level(tmp_path, "mummy-maze-classic", lines.replace("KEY", "1, 2"), "far.yaml")
    # the key on the near cell: passed, not entered (he ends on (1,2)): the gates stay closed
    assert moves_from(near, make_position(near))["west"] == (
        {"explorer": (1, 2), "mummy": (0, 0), "mummy2": (0, 0), "scorpion": (0, 0)}, False)
    # the key on the far cell: entered by the jump: the gates open
    assert moves_from(far, make_position(far))["west"] == (
        {"explorer": (1, 2), "mummy": (0, 0), "mummy2": (0, 0), "scorpion": (0, 0)}, True)
    # from (1,2) behind its closed gates: east and south are stopped, no jump from standing there
    inside = make_position(near, at=("explorer=1,2",))
    assert {m: cells["explorer"] for m, (cells, _) in moves_from(near, inside).items()} == {
        "east": (1, 2), "south": (1, 2), "north": (1, 2), "west": (1, 2), "nowhere": (1, 2)}
    assert agrees_with_plain_clingo(near) and agrees_with_plain_clingo(far)


def scorpion_level(tmp_path, size, explorer, scorpion, exit_, pair):
    """A board of mummy-maze-order with one scorpion (the piece ``scorpion1``) and a pair."""
    return level(tmp_path, "mummy-maze-order", f"""\
        size: {list(size)}
        pieces: {{explorer: {list(explorer)}}}
        enemies: [{{kind: scorpion, at: {list(scorpion)}}}]
        marks: {{exit: [{list(exit_)}], portal: {[list(c) for c in pair]}}}
        """)


def after_with_end(b, move) -> tuple[dict, str | None]:
    """({piece: cell} after ``move`` from the start, the end that holds there)."""
    _, steps = examine(b, make_position(b))
    landed = {s.move: s.position for s in steps}[move]
    return dict(landed.pieces), examine(b, landed)[0]


def test_an_enemy_steps_onto_a_pair_cell_and_stays_there(tmp_path):
    # mummy-maze-order, 4x2: the scorpion (1,1) steps east toward the explorer (4,1) onto the
    # pair cell (2,1) and stays there (it is not put on (3,2))
    b = scorpion_level(tmp_path, (4, 2), (4, 1), (1, 1), (4, 2), [(2, 1), (3, 2)])
    assert after_with_end(b, "nowhere") == ({"explorer": (4, 1), "scorpion1": (2, 1)}, None)
    assert agrees_with_plain_clingo(b)


def test_the_enemies_chase_the_explorer_where_he_lands(tmp_path):
    # 5x1: X E P S P; east onto (3,1) puts him on (5,1), beside the scorpion, which steps east
    # onto him (had it seen him on (3,1) it would have stepped west); waiting, the scorpion steps
    # west onto the pair cell (3,1) and stays there
    b = scorpion_level(tmp_path, (5, 1), (2, 1), (4, 1), (1, 1), [(3, 1), (5, 1)])
    assert after_with_end(b, "east") == ({"explorer": (5, 1), "scorpion1": (5, 1)}, "caught_scorpion1")
    assert after_with_end(b, "nowhere") == ({"explorer": (2, 1), "scorpion1": (3, 1)}, None)
    assert agrees_with_plain_clingo(b)


def test_a_jump_onto_an_enemys_cell_meets_it_before_it_moves(tmp_path):
    # 3x2: the explorer (3,1) steps west onto (2,1) and lands on (1,2), the scorpion's cell:
    # caught there (the script's stop holds; the scorpion does not move)
    b = scorpion_level(tmp_path, (3, 2), (3, 1), (1, 2), (3, 2), [(2, 1), (1, 2)])
    assert after_with_end(b, "west") == ({"explorer": (1, 2), "scorpion1": (1, 2)}, "caught_scorpion1")
    assert agrees_with_plain_clingo(b)


def test_the_shared_tables_of_a_rule_set_follow_each_boards_pair(tmp_path):
    """The race solver grounds the tables of a rule set and size once for its boards, with the
    walls, gates and marks as inputs (solve/graph/sharedtables.py): each board's pair is read
    from its marks.  (Written as facts per board, the pair was left out of that program: from
    the ninth board of a kind on, no move teleported.)"""
    lines = """\
        size: [4, 3]
        gates: {north: [[2, 2]], east: [[3, 1]]}
        pieces: {explorer: [1, 1], mummy: [4, 3]}
        marks: {exit: [[4, 1]], key: [[1, 3]], portal: PAIR}
        """
    pairs = ([[2, 1], [3, 3]], [[1, 2], [4, 2]], [[2, 3], [3, 2]], [[1, 3], [4, 1]])
    boards = [level(tmp_path, "mummy-maze-classic", lines.replace("PAIR", str(pair)), f"pair-{i}.yaml")
              for i, pair in enumerate(pairs)]
    circuit = Circuit(boards[0], layout_for(boards[0]), sharedtables._mark_names(boards[0]))
    assert circuit.served
    for b in boards:
        _check_rows(b, circuit)
        tables = ScriptTables(b, layout_for(b))
        assert (tables.move_aim != tables.move_to).any()      # moves that jump
    assert agrees_with_plain_clingo(boards[0])


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


# - The reference, plain clingo and solve on random boards with gates, chasers and enemies, a pair added ---

def scripted_with_pair(tmp_path, seed: int, enemies: bool) -> Path:
    """A random board of mummy-maze-order (kinds of enemies in the level's order, a gate and its
    key, an exit cell or edge: tests/test_order.py) or of classic Mummy Maze (chasers, a gate
    and its key), with a pair on two cells that no piece starts on."""
    if enemies:
        path = _random_order_board(tmp_path, seed)
        text = path.read_text(encoding="utf-8")
    else:
        path, text = tmp_path / f"classic-{seed}.yaml", random_classic_board(seed)
    data = yaml.safe_load(text)
    width, height = data["size"]
    taken = {tuple(c) for c in data["pieces"].values()} | {tuple(e["at"]) for e in data.get("enemies") or []}
    free = [(x, y) for x in range(1, width + 1) for y in range(1, height + 1) if (x, y) not in taken]
    path.write_text(with_pair(text, seed, free), encoding="utf-8")
    board = load_board(path)
    assert "teleporters" in board.rules.mechanisms
    return path


def _small_classic(seed: int) -> bool:
    """Is the classic board of ``seed`` 25 cells or fewer (the reference's whole-game search of a
    7x7 board with its chasers takes minutes)?"""
    width, height = yaml.safe_load(random_classic_board(seed))["size"]
    return width * height <= 25


SMALL_CLASSIC = [seed for seed in range(120) if _small_classic(seed)][:30]
SCRIPTED = [(False, seed) for seed in SMALL_CLASSIC] + [(True, seed) for seed in range(30)]
SCRIPTED_QUICK = [case for case in SCRIPTED if case[1] in (SMALL_CLASSIC[:2] if not case[0] else (0, 1))]


def _scripted_id(case) -> str:
    return f"{'enemies' if case[0] else 'chasers'}-{case[1]}"


@pytest.mark.parametrize("case", SCRIPTED_QUICK, ids=_scripted_id)
def test_the_reference_agrees_on_random_scripted_boards_with_a_pair(tmp_path, case):
    enemies, seed = case
    path = scripted_with_pair(tmp_path, seed, enemies)
    assert_one_meaning(path, "explorer")
    assert_one_graph(path)


@pytest.mark.slow
@pytest.mark.parametrize("case", [case for case in SCRIPTED if case not in SCRIPTED_QUICK], ids=_scripted_id)
def test_the_reference_agrees_on_random_scripted_boards_with_a_pair_slow(tmp_path, case):
    test_the_reference_agrees_on_random_scripted_boards_with_a_pair(tmp_path, case)
