"""The one table of the solver paths (gridsolve/solve/common/capabilities.py): the decisions it
gives every shipped board and the random rule sets, pinned.

Before the table, seven functions decided which path serves a question (the bounded solver's
``applies``, the robust search's ``applies``, the own placements' ``serves``, the layered
tables' ``serves``, explain's ``graph_supported``, the studio's ``supported``, generate's
``ranks_every_start``).  Their decisions were recorded on every shipped board and 300 random rule
sets (every role, kind, ``--hidden`` and ``--strategy``, 8,608 decisions), and the table gives the
same ones; the pins below hold them.  The solver tests (test_dispatch, test_bounded,
test_layeredtable, test_explain, test_studio_live, test_ownplacements, ...) ask the table too.
"""
from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest

from gridsolve.generate.genspec import GameSpec, Requirement
from gridsolve.generate.judge import ranks_every_start
from gridsolve.language.kinds import QueryKind, RequireKind
from gridsolve.language.loader import load_board
from gridsolve.language.model import MECHANISMS
from gridsolve.language.position import Query, initial_position
from gridsolve.solve.common import capabilities as cap
from gridsolve.solve.dispatch.asker import Asker
from gridsolve.solve.dispatch.dispatcher import EVERY

sys.path.insert(0, str(Path(__file__).resolve().parent))
from randomrules import random_case  # noqa: E402

BOARDS = Path(__file__).resolve().parent.parent / "boards"
FLAGS = ("", "hidden", "strategy")
EVERYTHING = (cap.COMPILED, cap.GROUND_GRAPH)     # they serve every question: left out of the pins

# Which paths serve each question at the board's start: "role kind flags" (``*``: every role or
# every kind) -> the paths that serve it, cheapest first (besides the compiled program and the
# graph ground by clingo, which serve all).
CLASSIC = {
    "explorer *": "scripted graph, race, studio scripted, start graph",
    "explorer * hidden": "scripted graph, start graph, hidden",
    "explorer * strategy": "scripted graph, start graph",
}
ONE_ROLE_LAYERED = {"* *": "layered table", "* * hidden": "hidden", "* * strategy": ""}
TWO_PLAYER_2007 = {
    "* *": "factored graph, race, wall graph, live graph, start graph",
    "* * hidden": "factored graph, wall graph, start graph, robust search, own placements, hidden",
    "* * strategy": "factored graph, wall graph, start graph",
}
MAZE_RUNNER = {
    "* value": "layered table", "* win": "layered table",
    "* survive": "race, wall graph, live graph, start graph",
    "* value hidden": "robust search, own placements, hidden", "* win hidden": "robust search, own placements, hidden",
    "* survive hidden": "wall graph, start graph, robust search, own placements, hidden",
    "* value strategy": "", "* win strategy": "", "* survive strategy": "wall graph, start graph",
}
GHOSTS = "factored graph, race, wall graph, live graph"
PACMAN3P = {
    "pacman value": "bounded", "pacman win": "bounded", "pacman survive": GHOSTS, "* *": GHOSTS,
    "pacman value hidden": "hidden", "pacman win hidden": "hidden",
    "* * hidden": "factored graph, wall graph, hidden",
    "pacman value strategy": "", "pacman win strategy": "", "* * strategy": "factored graph, wall graph",
}
SHIPPED = {
    **{f"classic/{name}.yaml": CLASSIC for name in (
        "behind-the-gate", "everything-at-once", "first-steps", "no-way-out", "red-pair", "red-shift", "red-ten",
        "scorpion-nest", "ten-by-ten", "two-mummies", "walled-in")},
    "combined/move-budget.yaml": CLASSIC,
    "order/crossing.yaml": CLASSIC, "order/five-hunters.yaml": CLASSIC, "order/gatekeeper.yaml": CLASSIC,
    "order/scorpion-nest.yaml": CLASSIC,
    "combined/pacman-chased.yaml": ONE_ROLE_LAYERED,
    "combined/treasure.yaml": ONE_ROLE_LAYERED,
    "combined/scorpion-2007.yaml": {"* *": "race, start graph", "* * hidden": "start graph, hidden",
                                    "* * strategy": "start graph"},
    **{f"generated/{name}.yaml": TWO_PLAYER_2007 for name in (
        "difficulty-easy", "difficulty-hard", "difficulty-medium",
        *(f"mummy-maze-2007-prose-8x8-s1-{k}" for k in range(1, 6)))},
    "mummymaze2p-2007.yaml": TWO_PLAYER_2007,
    "mummymaze2p.yaml": TWO_PLAYER_2007,
    "maze-runner-duel.yaml": MAZE_RUNNER,
    "maze-runner-duel-secret.yaml": MAZE_RUNNER,
    "pacman3p.yaml": PACMAN3P,
    "wallmaze.yaml": ONE_ROLE_LAYERED,
}

# How many of the questions of the quick tier's random rule sets (seeds 0-49: every role, kind and
# flag at the start, 558 questions) each path serves.
RANDOM_SERVED = {"bounded": 2, "compiled": 558, "factored graph": 27, "ground graph": 558, "hidden": 186,
                 "layered table": 10, "live graph": 31, "race": 174, "scripted graph": 351, "start graph": 522,
                 "studio scripted": 117, "wall graph": 93}


def _questions(board):
    position = initial_position(board)
    for role in board.rules.roles:
        for kind in QueryKind:
            for flags in FLAGS:
                yield role, str(kind), flags, Query(role, kind, position, hidden=flags == "hidden",
                                                    strategy=flags == "strategy")


def _pinned(pins: dict, role: str, kind: str, flags: str) -> str:
    """The pin of the most specific pattern that matches the question."""
    for r, k in ((role, kind), (role, "*"), ("*", kind), ("*", "*")):
        key = f"{r} {k} {flags}".strip()
        if key in pins:
            return pins[key]
    raise KeyError(f"no pin for {role} {kind} {flags}")


def test_every_shipped_board_is_pinned():
    assert sorted(SHIPPED) == sorted(str(p.relative_to(BOARDS)) for p in BOARDS.rglob("*.yaml")
                               if p.parent.name != "gdl")     # (boards/gdl: GDL games)


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_the_table_gives_each_shipped_board_its_paths(name):
    board = load_board(BOARDS / name)
    for role, kind, flags, query in _questions(board):
        decision = cap.decide(board, query, names=cap.PATHS)
        served = ", ".join(path for path in decision.served if path not in EVERYTHING)
        assert served == _pinned(SHIPPED[name], role, kind, flags), (role, kind, flags)
        assert decision.serves(cap.COMPILED) and decision.serves(cap.GROUND_GRAPH)
        for path, reason in decision.verdicts:      # every refusal says why, in words
            assert reason is None or (isinstance(reason, str) and len(reason) > 10), (path.name, reason)


def test_the_random_rule_sets_keep_their_paths(tmp_path):
    served = Counter()
    for seed in range(50):
        path = tmp_path / f"rules-{seed}.yaml"
        path.write_text(random_case(seed).text, encoding="utf-8")
        board = load_board(path)
        for *_, query in _questions(board):
            served.update(cap.decide(board, query, names=cap.PATHS).served)
    assert dict(served) == RANDOM_SERVED


def test_the_start_graph_refuses_a_value_range_and_too_many_placements():
    board = load_board(BOARDS / "mummymaze2p-2007.yaml")
    spec = GameSpec(board, "", {}, "explorer", {}, frozenset(), (), ())
    assert ranks_every_start(spec, Requirement(RequireKind.WIN, (1, 9)))
    assert not ranks_every_start(spec, Requirement(RequireKind.VALUE, (1, 9)))
    query = Query("explorer", QueryKind.VALUE, initial_position(board))
    assert "value range" in cap.refusal(cap.START_GRAPH, board, query, value_range=True)
    pacman = load_board(BOARDS / "pacman3p.yaml")
    assert "placements" in cap.refusal(cap.START_GRAPH, pacman, Query("blinky", QueryKind.VALUE,
                                                                        initial_position(pacman)))


def test_a_refusal_names_the_game_s_reason():
    treasure = load_board(BOARDS / "combined" / "treasure.yaml")
    query = Query("explorer", QueryKind.VALUE, initial_position(treasure))
    assert cap.refusal(cap.RACE, treasure, query).startswith("it needs the layered solver")
    assert cap.refusal(cap.BOUNDED, treasure, query) == "pieces move by rule (an after_ply script)"
    assert cap.refusal(cap.ROBUST, treasure, query) == cap.HIDDEN_ONLY
    classic = load_board(BOARDS / "classic" / "first-steps.yaml")
    asked = Query("explorer", QueryKind.WIN, initial_position(classic))
    assert cap.refusal(cap.WALL_GRAPH, classic, asked).startswith("pieces move by rule")


def test_the_dispatchers_try_their_solvers_in_the_table_s_order_of_cost():
    for dispatcher in (EVERY, Asker(load_board(BOARDS / "wallmaze.yaml"))):
        costs = [cap.PATHS[solver.name].cost for solver in dispatcher.solvers]
        assert costs == sorted(costs) and len(set(costs)) == len(costs)
    assert list(cap.PATHS) == sorted(cap.PATHS, key=lambda name: cap.PATHS[name].cost)


@pytest.mark.parametrize("name, mechanisms", [
    ("classic/first-steps.yaml", {"chasers", "script", "optional", "gates", "no step limit", "unjudged start"}),
    ("combined/treasure.yaml", {"chasers", "script", "items", "collected", "optional", "gates", "no step limit"}),
    ("maze-runner-duel-secret.yaml", {"bumps", "several turns entries", "secret marks", "timeout entries", "nearer"}),
    ("pacman3p.yaml", {"items", "several turns entries", "moving at once", "collected", "score tables"}),
])
def test_the_rules_name_their_mechanisms(name, mechanisms):
    rules = load_board(BOARDS / name).rules
    assert rules.mechanisms == mechanisms
    assert rules.mechanisms <= set(MECHANISMS)
    assert rules.has_items == ("items" in mechanisms) and rules.moved_by_rule == ("script" in mechanisms)


def test_the_docs_show_the_table():
    """docs/how-it-works.md's table has a row for each path, with its cost."""
    text = (BOARDS.parent / "docs" / "how-it-works.md").read_text(encoding="utf-8")
    for path in cap.PATHS.values():
        assert f"| `{path.name}` | {path.serves} | {path.refuses} | {path.cost} |" in text, path.name
