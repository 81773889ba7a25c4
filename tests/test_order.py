"""Enemies in the level's order (issue 39, item 2e): kinds of enemies declared once, ``each`` going
through a board's enemies in the order it lists them, and an exit that is an edge of the border
(docs/rule-language.md, "Enemies in the level's order").

* One rule set written with ``each`` answers as the rule set written piece by piece for the
  board's list (tests/scripted_boards.py writes those, action for action the rule set quoted in
  the issue): the same answers on random boards.
* The shipped boards (boards/order/) and random boards of the shipped rule set have one meaning:
  the independent reference (reference/game.py), plain clingo on ``gridsolve compile``'s
  program and ``gridsolve solve`` agree, with the exit on the border edge.
* The issue's smallest case, with the exit cell and with the exit edge.
* Bad input: the file, the line, what is wrong and how to fix it; exit code 2.
"""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from gridsolve.cli import main
from gridsolve.compile.state import layout_for
from gridsolve.language.loader import load_board
from gridsolve.language.position import initial_position
from gridsolve.solve.common.limits import LimitGuard, Limits
from gridsolve.solve.graph.racegraph import RaceGraph
from scripted_boards import KINDS, enemy_names, enemy_rules, random_board
from test_combined import assert_one_meaning, solve_says
from test_scripted import _edges

ROOT = Path(__file__).resolve().parent.parent
ORDER = ROOT / "boards" / "order"
SHIPPED = sorted(ORDER.glob("*.yaml"))
SLOW_SHIPPED = {"scorpion-nest", "gatekeeper", "five-hunters"}     # (5 to 45 s each under load: the slow tier)
DATA = Path(__file__).resolve().parent / "data"


def generic_rules(key_each: bool = False) -> str:
    """The rule set of tests/scripted_boards.py for every list of enemies at once: its kinds are
    ``mw``, ``mr``, ``sw``, ``sr``, so a board's enemies are the pieces ``mw1``, ``mr2``, ... that
    enemy_rules names for the same list."""
    key = "{{pieces: [{}], each_entry: true}}" if key_each else "[{}]"
    kinds = "\n".join(f"  {k}: {{target: explorer, first: {first}, steps: {steps}}}"
                      for k, (first, steps) in KINDS.items())
    return f"""\
name: generic
roles: [explorer]
moves:
  explorer: {{steps: 1, idle: true, blocked: stay}}
enemies:
{kinds}
optional: [trap, key]
gate: {{key: key}}
after_ply:
  - stop: {{reaches: {{explorer: exit}}}}
  - key: {key.format("explorer")}
  - stop: {{reaches: {{explorer: trap}}}}
  - stop: {{same_cell: [explorer, enemies]}}
  - each: enemy
    do:
      - repeat: steps
        do:
          - step: [enemy]
          - key: {key.format("enemy")}
          - remove: {{piece: enemy, by: [mw, mr]}}
            if_kind: [sw, sr]
          - remove: {{piece: enemies, by: [enemy]}}
          - stop: {{same_cell: [explorer, enemy]}}
ends:
  - {{name: trapped, when: {{reaches: {{explorer: trap}}}}, scores: {{explorer: 0}}}}
  - {{name: caught_by, when: {{same_cell: [explorer, enemies]}}, scores: {{explorer: 0}}}}
  - {{name: escaped, when: {{reaches: {{explorer: exit}}}}, scores: {{explorer: 100}}}}
steps: {{first: 1}}
timeout: {{explorer: 50}}
"""


def random_kinds(rng: random.Random) -> list[str]:
    return [rng.choice(list(KINDS)) for _ in range(rng.randint(1, 4))]


def as_listed(text: str, rules: str, names: list[str], kinds: list[str], edge: bool = False) -> str:
    """A board of tests/scripted_boards.py (its enemies placed by name) with its enemies listed
    under ``enemies:`` for the rule set ``rules``; ``edge``: its exit cell on the border made the
    edge of the border beyond it (the cell is then an ordinary one)."""
    raw = yaml.safe_load(text)
    raw["rules"] = rules
    raw["enemies"] = [{"kind": kind, "at": raw["pieces"].pop(name)} for name, kind in zip(names, kinds)]
    if edge:
        (x, y), = raw["marks"]["exit"]
        width, height = raw["size"]
        side = "south" if y == 1 else "north" if y == height else "west" if x == 1 else "east"
        raw["marks"]["exit"] = {"edge": side, "at": x if side in ("south", "north") else y}
    return yaml.safe_dump(raw, sort_keys=False)


def _answers(path) -> dict:
    return solve_says(path, "explorer")


@pytest.mark.parametrize("seed", [pytest.param(s, marks=[pytest.mark.slow] if s >= 6 else []) for s in range(60)])
def test_one_rule_set_for_every_list_answers_as_the_one_written_for_its_list(tmp_path, seed):
    rng = random.Random(seed)
    kinds = random_kinds(rng)
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "generic.yaml").write_text(generic_rules(), encoding="utf-8")
    (tmp_path / "rules" / "per-list.yaml").write_text(enemy_rules(kinds).replace(
        f"name: other-game-{'-'.join(kinds)}", "name: per-list", 1), encoding="utf-8")
    text = random_board(seed, "per-list", enemy_names(kinds))
    written = tmp_path / "per-list-board.yaml"
    written.write_text(text, encoding="utf-8")
    listed = tmp_path / "listed-board.yaml"
    listed.write_text(as_listed(text, "generic", enemy_names(kinds), kinds), encoding="utf-8")
    board = load_board(listed)
    assert list(board.rules.chasers) == enemy_names(kinds)
    assert _answers(listed) == _answers(written), text


def test_each_writes_the_script_of_the_issue_for_its_list():
    # the shipped rule set on the issue's list: per enemy, its steps, each followed by the key,
    # the removals and the stop; the ends per enemy
    board = load_board(DATA / "order-open-8x8-edge.yaml")
    rules = board.rules
    assert list(rules.chasers) == ["mummy1", "red_mummy2", "red_scorpion3", "scorpion4"]
    assert [c.first for c in rules.chasers.values()] == ["horizontal", "vertical", "vertical", "horizontal"]
    steps = [a.pieces[0] for a in rules.script if a.kind == "step"]
    assert steps == ["mummy1", "mummy1", "red_mummy2", "red_mummy2", "red_scorpion3", "scorpion4"]
    removes = [(a.piece, a.pieces) for a in rules.script if a.kind == "remove"]
    assert removes[:3] == [("red_mummy2", ("mummy1",)), ("red_scorpion3", ("mummy1",)), ("scorpion4", ("mummy1",))]
    assert ("red_scorpion3", ("mummy1", "red_mummy2")) in removes          # a scorpion on a mummy leaves
    assert ("mummy1", ("red_scorpion3",)) in removes
    assert [e.name for e in rules.ends] == ["trapped", "caught_mummy1", "caught_red_mummy2", "caught_red_scorpion3",
                                            "caught_scorpion4", "escaped"]


# --- one meaning: the reference, plain clingo and solve ---------------------------------------

def test_the_shipped_boards_meet_their_expectations():
    done = CliRunner().invoke(main, ["verify", str(ORDER)])
    assert done.exit_code == 0, done.output
    assert f"{4 * len(SHIPPED) + len(SHIPPED)} checks on {len(SHIPPED)} boards: {5 * len(SHIPPED)} passed" in done.output


# The three meanings on the smaller levels (192 and 986 positions). On the larger ones (4,479 and
# 8,569 positions) the reference's memoised search over a horizon of every position and plain
# clingo on the whole compiled program both pass 6 GB: there the arrays' graph is the one clingo
# grounds from the compiled rules (above, quick) and verify checks the answers.
REFERENCE_SIZED = ("crossing", "five-hunters")


@pytest.mark.slow     # (plain clingo on the whole program: 40 s and 2.5 GB for five-hunters)
@pytest.mark.parametrize("path", [p for p in SHIPPED if p.stem in REFERENCE_SIZED],
                         ids=[p.stem for p in SHIPPED if p.stem in REFERENCE_SIZED])
def test_the_shipped_boards_have_one_meaning(path):
    assert_one_meaning(path, "explorer")


def test_the_order_is_the_levels(tmp_path):
    # five-hunters with its enemies listed the other way round: no forced win (he runs forever)
    raw = yaml.safe_load((ORDER / "five-hunters.yaml").read_text(encoding="utf-8"))
    raw["enemies"].reverse()
    del raw["expect"]
    path = tmp_path / "reversed.yaml"
    path.write_text(yaml.safe_dump(raw, sort_keys=False), encoding="utf-8")
    assert solve_says(ORDER / "five-hunters.yaml", "explorer")["value"] == 100
    assert solve_says(path, "explorer")["value"] == 50


def _random_order_board(tmp_path, seed: int) -> Path:
    rng = random.Random(seed)
    kinds = random_kinds(rng)
    named = {"mw": "mummy", "mr": "red_mummy", "sw": "scorpion", "sr": "red_scorpion"}
    text = random_board(seed, "mummy-maze-order", enemy_names(kinds), (3, 4))
    raw = yaml.safe_load(as_listed(text, "mummy-maze-order", enemy_names(kinds), [named[k] for k in kinds],
                               edge=seed % 4 != 0))
    marked = [tuple(c) for cells in raw["marks"].values() if isinstance(cells, list) for c in cells]
    taken = marked + [tuple(e["at"]) for e in raw["enemies"]]
    if tuple(raw["pieces"]["explorer"]) in marked:     # (the reference judges every start: not on a mark)
        width, height = raw["size"]
        raw["pieces"]["explorer"] = next([x, y] for x in range(1, width + 1) for y in range(1, height + 1)
                                         if (x, y) not in taken)
    path = tmp_path / f"order-{seed}.yaml"
    path.write_text(yaml.safe_dump(raw, sort_keys=False), encoding="utf-8")
    return path


@pytest.mark.parametrize("seed", [pytest.param(s, marks=[pytest.mark.slow] if s >= 3 else []) for s in range(40)])
def test_random_boards_of_the_shipped_rule_set_have_one_meaning(tmp_path, seed):
    assert_one_meaning(_random_order_board(tmp_path, seed), "explorer")


def assert_one_graph(path) -> None:
    """The scripted arrays' positions, ends and moves are those clingo grounds from the compiled
    stage rules (as tests/test_scripted.py on classic boards)."""
    board = load_board(path)
    layout = layout_for(board)
    root = [layout.root_term(initial_position(board), board)]
    guard = LimitGuard(Limits(), "the test's positions", lambda needed: "")
    joined, ground = RaceGraph(board, layout, root, guard), RaceGraph(board, layout, root, guard, by_pieces=False)
    assert joined.numbering is not None and ground.numbering is None
    symbols = [str(joined.symbol(i)) for i in range(joined.n)]
    assert sorted(symbols) == sorted(str(ground.symbol(i)) for i in range(ground.n))
    assert {s: int(o) for s, o in zip(symbols, joined.outcome)} == \
        {str(ground.symbol(i)): int(ground.outcome[i]) for i in range(ground.n)}
    assert _edges(joined) == _edges(ground)


@pytest.mark.parametrize("seed", [pytest.param(s, marks=[pytest.mark.slow] if s >= 8 else []) for s in range(100)])
def test_the_arrays_join_the_graph_clingo_grounds_from_the_compiled_rules(tmp_path, seed):
    # exit edges (three boards in four), a key every entry flips, enemies in order
    path = _random_order_board(tmp_path, seed)
    assert load_board(path).exits or seed % 4 == 0
    assert_one_graph(path)


@pytest.mark.parametrize("path", [pytest.param(p, id=p.stem, marks=[pytest.mark.slow] if p.stem in SLOW_SHIPPED else [])
                                  for p in SHIPPED])
def test_the_arrays_join_the_graph_of_the_compiled_rules_on_the_shipped_boards(path):
    assert_one_graph(path)


# --- the issue's smallest case ------------------------------------------------------------------

@pytest.mark.parametrize("name", ["order-open-8x9-cell.yaml", "order-open-8x8-edge.yaml"])
def test_the_smallest_case_is_won_in_one_move_south(name):
    done = CliRunner().invoke(main, ["solve", "--query", "win", "--json", str(DATA / name)])
    assert done.exit_code == 0, done.output
    answer = json.loads(done.stdout)
    assert (answer["win"], answer["plies"], answer["line"][0]["move"]) == (True, 1, "south")


@pytest.mark.slow
def test_the_smallest_case_with_the_exit_edge_has_one_meaning():
    assert_one_meaning(DATA / "order-open-8x8-edge.yaml", "explorer")


def test_chasers_never_leave_through_the_exit_edge(tmp_path):
    # A mummy two cells above the exit edge, the explorer beside the edge's cell: stepping out
    # wins; standing still, the mummy comes down to the edge's cell and stays (it does not step
    # out after him), then catches him.
    path = tmp_path / "edge.yaml"
    path.write_text("""\
rules: mummy-maze-order
size: [3, 3]
pieces: {explorer: [1, 1]}
enemies: [{kind: scorpion, at: [2, 3]}]
marks: {exit: {edge: south, at: 2}}
""", encoding="utf-8")
    answer = solve_says(path, "explorer")
    assert answer["plies"] == 2 and answer["moves"]["east"] == (100, 1)
    assert_one_meaning(path, "explorer")


MAP_EXITS = """\
rules: mummy-maze-order
legend: {E: explorer, X: exit, T: trap}
map: |2
       1   2   3   4
     +---+ X +---+---+
   4 |     T         |
     +   +   +---+   +
   3 |         E     X
     +   +---+   +   +
   2 |               |
     +   +   +   +   +
   1 |               |
     +---+---+---+---+
enemies:
  - {kind: red_mummy, at: [1, 1]}
  - {kind: scorpion, at: [2, 4]}
"""


def test_exit_edges_drawn_in_the_map_are_the_marks_given_as_edges(tmp_path):
    drawn = tmp_path / "drawn.yaml"
    drawn.write_text(MAP_EXITS, encoding="utf-8")
    board = load_board(drawn)
    assert board.exits == {((2, 4), "north"), ((4, 3), "east")} and board.marks["exit"] == {(2, 5), (5, 3)}
    given = tmp_path / "given.yaml"
    given.write_text(MAP_EXITS.replace("+---+ X +---+---+", "+---+---+---+---+").replace("E     X", "E     |")
                     + "marks: {exit: {edge: north, at: 2}}\n", encoding="utf-8")
    assert load_board(given).exits == {((2, 4), "north")}
    assert_one_meaning(drawn, "explorer")
    assert_one_meaning(given, "explorer")


# --- bad input ----------------------------------------------------------------------------------

def _error(tmp_path, rules: str, board: str) -> str:
    (tmp_path / "rules").mkdir(exist_ok=True)
    (tmp_path / "rules" / "bad.yaml").write_text(rules, encoding="utf-8")
    path = tmp_path / "board.yaml"
    path.write_text(board, encoding="utf-8")
    done = CliRunner().invoke(main, ["solve", str(path)])
    assert done.exit_code == 2, done.output
    assert "Traceback" not in done.output
    return done.stderr


BOARD = """\
rules: bad
size: [4, 4]
pieces: {explorer: [1, 1]}
enemies:
  - {kind: mummy, at: [4, 4]}
marks: {exit: [[4, 1]]}
"""


@pytest.mark.parametrize("change, board, where, says", [
    ("", BOARD.replace("kind: mummy", "kind: mumy"), "board.yaml:5", "unknown kind 'mumy'"),
    ("enemies:", BOARD, "- each", "each: enemy: the rules declare no enemies"),
    ("repeat: steps", BOARD, "- repeat", "repeat: steps outside each"),
    ("if_kind: [mummy]", BOARD, "- stop", "if_kind outside each"),
    ("if_kind: [mumy]", BOARD, "- each", "if_kind: unknown kind 'mumy'"),
    ("each: mummy", BOARD, "- each", "each: 'mummy' is already the name of a piece or a kind"),
    ("", BOARD.replace("marks: {exit: [[4, 1]]}", "marks: {exit: {edge: south, at: 5}}"), "board.yaml:6",
     "the south side has 4 columns, not 5"),
    ("", BOARD.replace("marks: {exit: [[4, 1]]}", "marks: {exit: {edge: south}}"), "board.yaml:6",
     "give either unplaced: N"),
], ids=["unknown kind", "each over no enemies", "repeat steps outside each", "if_kind outside each",
        "if_kind unknown kind", "each names a kind", "exit edge off the side", "exit edge without at"])
def test_bad_input_names_the_file_and_line(tmp_path, change, board, where, says):
    rules = """\
name: bad
roles: [explorer]
moves: {explorer: {steps: 1, idle: true, blocked: stay}}
enemies:
  mummy: {target: explorer, steps: 2}
after_ply:
  - each: enemy
    do:
      - step: [enemy]
      - stop: {same_cell: [explorer, enemy]}
ends:
  - {name: caught, when: {same_cell: [explorer, enemies]}, scores: {explorer: 0}}
  - {name: out, when: {reaches: {explorer: exit}}, scores: {explorer: 100}}
steps: {first: 1}
timeout: {explorer: 50}
"""
    if change == "enemies:":
        rules = rules.replace("enemies:\n  mummy: {target: explorer, steps: 2}\n", "chasers: {m: {target: explorer}}\n")
        rules = rules.replace("[explorer, enemies]", "[explorer, m]")
        board = board.replace("enemies:\n  - {kind: mummy, at: [4, 4]}\n", "pieces: {m: [4, 4]}\n").replace(
            "pieces: {explorer: [1, 1]}\n", "pieces: {explorer: [1, 1], m: [4, 4]}\n", 1).replace(
            "pieces: {m: [4, 4]}\n", "")
    elif change == "repeat: steps":
        rules = rules.replace("  - each: enemy\n    do:\n", "  - repeat: steps\n    do:\n")
    elif change.startswith("if_kind"):
        rules = rules.replace("  - each: enemy\n    do:\n      - step: [enemy]\n      - stop: {same_cell: [explorer, enemy]}\n",
                              f"  - each: enemy\n    do:\n      - step: [enemy]\n  - stop: {{same_cell: [explorer, enemies]}}\n"
                              f"    {change}\n" if change == "if_kind: [mummy]" else
                              f"  - each: enemy\n    do:\n      - step: [enemy]\n        {change}\n")
    elif change == "each: mummy":
        rules = rules.replace("each: enemy", "each: mummy").replace("[enemy]", "[mummy]").replace(
            "[explorer, enemy]", "[explorer, mummy]")
    if where.startswith("- "):      # the line of the rule set's first line with it
        where = f"bad.yaml:{next(i for i, line in enumerate(rules.split(chr(10)), 1) if where in line)}:"
    message = _error(tmp_path, rules, board)
    assert where in message and says in message, message
    assert "\n" in message.strip() or "." in message        # a hint follows what is wrong


def test_enemies_on_a_board_of_rules_without_kinds(tmp_path):
    path = tmp_path / "board.yaml"
    path.write_text("rules: mummy-maze-classic\nsize: [3, 3]\npieces: {explorer: [1, 1]}\n"
                    "enemies: [{kind: mummy, at: [3, 3]}]\nmarks: {exit: [[3, 1]]}\n", encoding="utf-8")
    done = CliRunner().invoke(main, ["solve", str(path)])
    assert done.exit_code == 2 and "board.yaml:4" in done.stderr
    assert "declare no kinds of enemies" in done.stderr


def test_an_exit_edge_where_the_rules_are_not_answered_with_one(tmp_path):
    path = tmp_path / "board.yaml"
    path.write_text("rules: wallmaze\nsize: [3, 3]\npieces: {white: [1, 1], black: [3, 3]}\n"
                    "marks: {exit: {edge: east, at: 2}}\n", encoding="utf-8")
    done = CliRunner().invoke(main, ["solve", str(path)])
    assert done.exit_code == 2 and "board.yaml:4" in done.stderr, done.output
    assert "give the mark a cell on the board instead" in done.stderr


def test_a_map_that_draws_an_enemy_says_to_list_it(tmp_path):
    path = tmp_path / "board.yaml"
    path.write_text(MAP_EXITS.replace("legend: {E: explorer,", "legend: {M: mummy, E: explorer,").replace(
        "   2 |               |", "   2 |     M         |"), encoding="utf-8")
    done = CliRunner().invoke(main, ["solve", str(path)])
    assert done.exit_code == 2 and "board.yaml:10" in done.stderr, done.output
    assert "'M' draws the enemy 'mummy'" in done.stderr and "enemies: [{kind: mummy, at: [2, 2]}]" in done.stderr


def test_play_names_the_step_through_the_exit_edge_by_the_cell_beyond_it():
    # The explorer beside the south exit edge: the step out leads to the edge's cell (8,0), not
    # back to the cell it stands on (play used to list "south (8,1)", as if the border blocked it).
    from click.testing import CliRunner
    from gridsolve.cli import main
    result = CliRunner().invoke(main, ["play", str(DATA / "order-open-8x8-edge.yaml")], input="south\n")
    assert result.exit_code == 0, result.output
    assert "Available moves: east (8,1), north (8,2), nowhere (8,1), south (8,0), west (7,1)" in result.output
    assert "Moved to (8,0)" in result.output
    assert "Game over after 1 ply: escaped." in result.output


def test_gates_whose_only_keys_are_under_each_need_an_enemy_on_the_board(tmp_path):
    # The rule set's key actions are all under each: a board that lists no enemy has no action
    # that can move its gates; the loader says which and how to fix it (it used to say the rules
    # have no key action, though they do).
    from gridsolve.cli import main
    from click.testing import CliRunner
    text = """\
name: gate without enemies
rules:
  roles: [explorer]
  turns: [[explorer]]
  moves: {explorer: {steps: 1, idle: true, blocked: stay}}
  enemies: {mummy: {target: explorer, first: horizontal, steps: 2}}
  gate: {key: key}
  optional: [key]
  after_ply:
    - each: enemy
      do:
        - repeat: steps
          do:
            - step: [enemy]
            - key: [enemy]
  ends:
    - {name: escaped, when: {reaches: {explorer: exit}}, scores: {explorer: 100}}
  steps: {first: 1, last: 8}
  timeout: {explorer: 0}
size: [3, 2]
pieces: {explorer: [1, 1]}
gates: {east: [[1, 1]]}
marks: {exit: [[3, 1]]}
"""
    path = tmp_path / "gates.yaml"
    path.write_text(text)
    result = CliRunner().invoke(main, ["solve", str(path)])
    assert result.exit_code == 2
    assert result.output == (
        f"Error: {path}:7: gate: the gates change only by a key action of the after_ply script, and none plays "
        "on this board (the rules have none, or only under each: and the board lists no enemies). Add after_ply: "
        "with a key action, list an enemy on the board, or remove gate:.\n")
