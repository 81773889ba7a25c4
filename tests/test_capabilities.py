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
from gridsolve.solve.common.answer import Question

sys.path.insert(0, str(Path(__file__).resolve().parent))
from randomrules import random_case  # noqa: E402

BOARDS = Path(__file__).resolve().parent.parent / "boards"
FLAGS = ("", "hidden", "strategy")
EVERYTHING = (cap.COMPILED, cap.GROUND_GRAPH)     # they serve every question: left out of the pins

# Which paths serve each question at the board's start: "role kind flags" (``*``: every role or
# every kind) -> the rows that serve it, in the table's order (besides the compiled program and the
# graph ground by clingo, which serve all).
CLASSIC = {
    "explorer *": "race, scripted graph, studio scripted, start graph",
    "explorer * hidden": "hidden, scripted graph, start graph",
    "explorer * strategy": "scripted graph, start graph",
}
ONE_ROLE_LAYERED = {"* *": "layered table", "* * hidden": "hidden", "* * strategy": ""}
TWO_PLAYER_2007 = {
    "* *": "race, factored graph, live graph, wall graph, start graph",
    "* * hidden": "robust search, hidden, factored graph, wall graph, start graph, own placements",
    "* * strategy": "factored graph, wall graph, start graph",
}
MAZE_RUNNER = {
    "* value": "layered table", "* win": "layered table",
    "* survive": "race, live graph, wall graph, start graph",
    "* value hidden": "robust search, hidden, own placements", "* win hidden": "robust search, hidden, own placements",
    "* survive hidden": "robust search, hidden, wall graph, start graph, own placements",
    "* value strategy": "", "* win strategy": "", "* survive strategy": "wall graph, start graph",
}
GHOSTS = "race, factored graph, live graph, wall graph"
PACMAN3P = {
    "pacman value": "bounded", "pacman win": "bounded", "pacman survive": GHOSTS, "* *": GHOSTS,
    "pacman value hidden": "hidden", "pacman win hidden": "hidden",
    "* * hidden": "hidden, factored graph, wall graph",
    "pacman value strategy": "", "pacman win strategy": "", "* * strategy": "factored graph, wall graph",
}
SHIPPED = {
    **{f"classic/{name}.yaml": CLASSIC for name in (
        "behind-the-gate", "everything-at-once", "first-steps", "no-way-out", "red-pair", "red-shift", "red-ten",
        "scorpion-nest", "ten-by-ten", "two-mummies", "walled-in")},
    "combined/move-budget.yaml": CLASSIC, "combined/portal-escape.yaml": CLASSIC,
    "combined/crate-tomb.yaml": {"* *": "race", "* * hidden": "", "* * strategy": ""},
    "combined/crate-chase.yaml": {"* *": "race", "* * hidden": "", "* * strategy": ""},
    "order/crossing.yaml": CLASSIC, "order/five-hunters.yaml": CLASSIC, "order/gatekeeper.yaml": CLASSIC,
    "order/scorpion-nest.yaml": CLASSIC,
    "combined/pacman-chased.yaml": ONE_ROLE_LAYERED,
    "combined/treasure.yaml": ONE_ROLE_LAYERED,
    "combined/scorpion-2007.yaml": {"* *": "race, start graph", "* * hidden": "hidden, start graph",
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
RANDOM_SERVED = {"bounded": 2, "compiled": 558, "factored graph": 27, "ground graph": 558, "hidden": 177,
                 "layered table": 10, "live graph": 22, "race": 174, "scripted graph": 351, "start graph": 495,
                 "studio scripted": 117, "wall graph": 66}


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
        decision = cap.decide(board, query, names=cap.ROWS)
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
            served.update(cap.decide(board, query, names=cap.ROWS).served)
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


def test_the_table_has_three_families_in_their_order_and_one_chooser():
    assert [row.name for row in cap.SOLVERS] == ["race", "bounded", "layered table", "robust search", "hidden",
                                                 "compiled"]
    assert [row.name for row in cap.GRAPH_BUILDERS] == ["scripted graph", "factored graph", "ground graph"]
    assert list(cap.ROWS) == [row.name for family in cap.FAMILIES.values() for row in family]
    assert [row.name for row in cap.ROWS.values() if row.at_run] == ["layered table"]
    board = load_board(BOARDS / "wallmaze.yaml")
    question = Question(board, Query("white", QueryKind.VALUE, initial_position(board), 3))
    asked = []
    assert cap.choose(question, fits=lambda row: asked.append(row) or False) == "compiled" and asked == ["layered table"]
    assert cap.choose(question, among=("compiled", "race", "layered table")) == "layered table"    # the table's order
    assert cap.choose(question, among=("race", "bounded")) is None
    assert cap.choose(question, among=cap.STUDIO) is None


def test_the_roles_the_race_solver_answers():
    pacman = load_board(BOARDS / "pacman3p.yaml")
    assert cap.race_roles(pacman) == {"pacman": False, "blinky": True, "inky": True}    # pacman: survive only
    assert cap.race_roles(load_board(BOARDS / "wallmaze.yaml")) == {}


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
    """docs/how-it-works.md has a table for each family, a row for each of its rows, in order."""
    text = (BOARDS.parent / "docs" / "how-it-works.md").read_text(encoding="utf-8")
    for family, rows in cap.FAMILIES.items():
        lines = ["| " + " | ".join([f"`{row.name}`", row.serves, row.refuses] +
                                   ([row.at_run or "-"] if family == "solvers" else [])) + " |" for row in rows]
        assert "\n".join(lines) in text, family
