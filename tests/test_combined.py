"""Mechanisms that combine (issue 39, item 2): pieces moved by rule (an after_ply script) with
collectibles, several turns entries, multi-step moves, bumps, was_on and a step limit.

Three meanings of each game must agree: the independent explicit-state reference
(reference/game.py, which imports nothing from gridsolve), plain clingo on the program
``gridsolve compile`` writes, and ``gridsolve solve --json`` (whichever solver answers): the
value, the win, the plies and every first move's value and plies.  On the boards shipped in
boards/combined/ and on random small variants of them (pieces moved, a wall toggled).  Tiny
hand-checked games pin each new combination of the compiled program on its own.
"""
from __future__ import annotations

import json
import random
from pathlib import Path

import clingo
import pytest
import yaml
from click.testing import CliRunner

from reference import game as reference
from reference import board as refboard
from conftest import run_clingo
from gridsolve.generate.genspec import game_spec, kindred_rule_sets
from gridsolve.cli import main
from gridsolve.compile.compiler import compile_program
from gridsolve.compile.script import one_mover_script
from gridsolve.errors import BoardError, QueryError
from gridsolve.language.kinds import QueryKind
from gridsolve.language.loader import load_board
from gridsolve.language.position import Query, initial_position, make_query
from gridsolve.solve.program.driver import format_move

ROOT = Path(__file__).resolve().parent.parent
BOARDS = sorted((ROOT / "boards" / "combined").glob("*.yaml"))
# answered layer by layer (their ends count items): plain clingo on the whole compiled program
# takes 15-25 s each, so they are in the slow tier
LAYERED = {"pacman-chased", "treasure"}
# (the slow tier: the layered games, and the costliest race games; crate-tomb's solve and plain clingo
# stay quick in tests/test_crates.py)
SLOW = LAYERED | {"scorpion-2007", "crate-tomb"}
QUICK = [p for p in BOARDS if p.stem not in LAYERED]


# --- the three meanings ---------------------------------------------------------------------

def reference_says(path, role: str) -> dict:
    """The reference's answer from the board's start, over the whole game."""
    found = reference.whole_game_answer(path, role, "value", initial_position(load_board(path)))
    return {"value": found["value"], "plies": found["value_plies"], "win": found["win"],
            "moves": {name: (v, plies) for name, (v, plies, _, _) in found["moves"].items()}}


def clingo_says(path, role: str) -> dict:
    """Plain clingo on the compiled program of the value question: value(0,P,V) and
    plies(0,P,D) of the position asked about (P = at) and after each move."""
    board = load_board(path)
    program = compile_program(board, Query(role, QueryKind.VALUE, initial_position(board)))
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], program.text)
    ctl.ground([("base", [])])
    shown = []
    ctl.solve(on_model=lambda m: shown.extend(m.symbols(shown=True)))
    values, plies = {}, {}
    for atom in shown:
        if atom.name in ("value", "plies") and len(atom.arguments) == 3 and atom.arguments[0].number == 0:
            where = atom.arguments[1]
            name = "at" if where.type == clingo.SymbolType.Function and where.name == "at" else format_move(where)
            (values if atom.name == "value" else plies)[name] = atom.arguments[2].number
    value = values.pop("at")
    return {"value": value, "plies": plies.pop("at", None), "win": value == max(board.rules.scores_of(role)),
            "moves": {name: (v, plies.get(name)) for name, v in values.items()}}


def solve_says(path, role: str) -> dict:
    done = CliRunner().invoke(main, ["solve", "--json", "--role", role, str(path)])
    assert done.exit_code == 0, done.output
    answer = json.loads(done.stdout)
    return {"value": answer["value"], "plies": answer["plies"], "win": answer["win"],
            "moves": {m["move"]: (m["value"], m["plies"]) for m in answer["moves"]}}


def assert_one_meaning(path, role: str) -> None:
    ref, plain, solved = reference_says(path, role), clingo_says(path, role), solve_says(path, role)
    assert ref == plain, f"{path}: the reference and plain clingo differ\n{ref}\n{plain}"
    assert ref == solved, f"{path}: the reference and gridsolve solve differ\n{ref}\n{solved}"


@pytest.mark.parametrize("path", [pytest.param(p, id=p.stem, marks=[pytest.mark.slow] if p.stem in SLOW else [])
                                  for p in BOARDS])
def test_the_shipped_combined_games_have_one_meaning(path):
    """For the first role (the slow tier: every role)."""
    assert_one_meaning(path, load_board(path).rules.roles[0])


@pytest.mark.slow
@pytest.mark.parametrize("path", BOARDS, ids=[p.stem for p in BOARDS])
def test_the_shipped_combined_games_have_one_meaning_for_every_role(path):
    for role in load_board(path).rules.roles[1:]:
        assert_one_meaning(path, role)


# --- random small variants --------------------------------------------------------------------

def variant(path: Path, seed: int, folder: Path) -> Path | None:
    """The board at ``path`` with its pieces on random cells and one random wall edge toggled,
    written out explicitly (size, walls, pieces, marks) with the same rules; None when an end
    holds at the start (the reference judges every start)."""
    rng = random.Random(seed)
    read = refboard.read_board(path)
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    cells = [(x, y) for x in range(1, read.width + 1) for y in range(1, read.height + 1)]
    marked = {c for cells_ in read.marks.values() for c in cells_}
    free = [c for c in cells if c not in marked]
    pieces = dict(zip(read.pieces, rng.sample(free, len(read.pieces))))
    north, east = set(read.north), set(read.east)
    kind, edges = rng.choice([("north", north), ("east", east)])
    edge = (rng.randint(1, read.width - (kind == "east")), rng.randint(1, read.height - (kind == "north")))
    edges ^= {edge}
    rules = raw["rules"]
    if isinstance(rules, str) and (path.parent / "rules" / f"{rules}.yaml").is_file():
        rules = {"use": rules}
    text = yaml.safe_dump({"name": f"{path.stem} variant {seed}", "rules": rules,
                           "size": [read.width, read.height],
                           "walls": {"north": sorted(map(list, north)), "east": sorted(map(list, east))},
                           "pieces": {p: list(c) for p, c in pieces.items()},
                           "marks": {m: sorted(map(list, c)) for m, c in read.marks.items()}}, sort_keys=False)
    out = folder / f"{path.stem}-{seed}.yaml"
    out.write_text(text, encoding="utf-8")
    game = reference.game_of(out)
    if game.end(game.state_of(initial_position(load_board(out)))) is not None:
        return None
    return out


def check_variants(tmp_path, boards, seeds) -> int:
    checked = 0
    for path in boards:
        for seed in seeds:
            out = variant(path, seed, tmp_path)
            if out is None:
                continue
            for role in load_board(out).rules.roles:
                assert_one_meaning(out, role)
            checked += 1
    return checked


@pytest.mark.slow
def test_random_variants_of_the_combined_games_have_one_meaning(tmp_path):
    assert check_variants(tmp_path, QUICK, range(2)) >= len(QUICK)


@pytest.mark.slow
def test_more_random_variants_of_the_combined_games_have_one_meaning(tmp_path):
    assert check_variants(tmp_path, BOARDS, range(3, 9)) >= 3 * len(BOARDS)


# --- each combination pinned on a tiny game (plain clingo on the compiled program) --------------

def value_of(make_board, text: str, role: str | None = None) -> dict:
    board = make_board(text)
    role = role or board.rules.roles[0]
    program = compile_program(board, Query(role, QueryKind.VALUE, initial_position(board)))
    terms = [clingo.parse_term(a) for a in run_clingo(program.text) if a.startswith("value(0,")]
    return {format_move(t.arguments[1]): t.arguments[2].number for t in terms}


CORRIDOR_RULES = """\
rules:
  roles: [runner]
  moves: {{runner: {{steps: {steps}, idle: true, blocked: illegal}}}}
  chasers:
    ghost: {{target: runner, first: horizontal}}
  {extra}
  after_ply:
    - stop: {{same_cell: [runner, ghost]}}
    - step: [ghost]
  ends:
    - {{name: caught, when: {{same_cell: [runner, ghost]}}, scores: {{runner: 0}}}}
    {end}
  steps: {{first: 1, last: {last}}}
  timeout: {{runner: 0}}
size: [5, 1]
pieces: {{runner: [3, 1], ghost: [1, 1]}}
"""


def test_items_are_taken_by_the_move_and_the_script_follows(make_board):
    # Pellets on (4,1) and (5,1), two plies: the ghost, from (1,1), follows one cell a ply.  East,
    # east eats both (the ghost reaches (3,1) after the second ply); waiting leaves one pellet;
    # west walks into the ghost's step.
    text = CORRIDOR_RULES.format(steps=1, last=3, extra="collect: {pellets: {piece: runner, mark: pellet}}",
                                 end="- {name: cleared, when: {collected: {pellets: all}}, scores: {runner: 100}}")
    got = value_of(make_board, text + "marks: {pellet: [[4, 1], [5, 1]]}\n")
    assert got == {"at": 100, "east": 100, "nowhere": 0, "west": 0}


def test_a_two_step_move_is_one_ply_before_the_script(make_board):
    # Two steps a move: east east reaches the exit (5,1) in one ply, before the ghost steps.
    text = CORRIDOR_RULES.format(steps=2, last=2, extra="",
                                 end="- {name: out, when: {reaches: {runner: exit}}, scores: {runner: 100}}")
    got = value_of(make_board, text + "marks: {exit: [[5, 1]]}\n")
    assert got == {"at": 100, "east east": 100, "east nowhere": 0, "west west": 0, "west nowhere": 0,
                   "nowhere nowhere": 0, "nowhere east": 0, "nowhere west": 0, "east west": 0, "west east": 0}


def test_the_script_runs_after_the_ply_of_every_turns_entry(make_board):
    # Two roles take turns; the ghost steps after each ply (two steps a round), toward the runner
    # (3,1) from (1,1).  West: caught after 1 ply; waiting: after 2 (the ghost steps after the
    # sitter's ply too); east, east: after 4, on the board's east end.
    text = """\
rules:
  roles: [runner, sitter]
  turns: [[runner], [sitter]]
  moves: {runner: {steps: 1, idle: true, blocked: illegal}, sitter: {steps: 1, idle: true, blocked: illegal}}
  chasers:
    ghost: {target: runner, first: horizontal}
  after_ply:
    - stop: {same_cell: [runner, ghost]}
    - step: [ghost]
  ends:
    - {name: caught, when: {same_cell: [runner, ghost]}, scores: {runner: 0, sitter: 100}}
  steps: {first: 1, last: 9}
  timeout: {runner: 100, sitter: 0}
size: [5, 2]
walls: {north: [[1, 1], [2, 1], [3, 1], [4, 1], [5, 1]]}
pieces: {runner: [3, 1], sitter: [1, 2], ghost: [1, 1]}
"""
    board = make_board(text)
    program = compile_program(board, Query("runner", QueryKind.VALUE, initial_position(board)))
    atoms = run_clingo(program.text)
    assert {"value(0,at,0)", "plies(0,at,4)", "plies(0,east,3)", "plies(0,west,0)", "plies(0,nowhere,1)"} <= atoms


def test_a_bump_leaves_the_runner_in_place_and_the_script_still_runs(make_board):
    # A rock on (4,1): stepping east bumps (the runner stays on (3,1)) and the ghost steps from
    # (1,1) to (2,1) all the same, as after a wait.  (One turns entry: the lost turn is skipped at
    # once, so the counter is back to 0.)
    text = CORRIDOR_RULES.format(steps=1, last=2, extra="", end="").replace(
        "blocked: illegal}", "blocked: illegal, bump: {marks: [rock]}}")
    board = make_board(text + "marks: {rock: [[4, 1]]}\n")
    program = compile_program(board, Query("runner", QueryKind.VALUE, initial_position(board)))
    edges = {a for a in run_clingo(program.text + "\n#show edge/3.") if a.startswith("edge(s(0,3,1,1,1,0),")}
    assert edges == {"edge(s(0,3,1,1,1,0),east,s(0,3,1,2,1,0))", "edge(s(0,3,1,1,1,0),nowhere,s(0,3,1,2,1,0))",
                     "edge(s(0,3,1,1,1,0),west,s(0,2,1,2,1,0))"}


def test_was_on_reads_the_position_before_the_ply_and_the_script(make_board):
    # A win by leaving home (4,1): was_on holds in the position after a ply from it (the
    # runner's cell before the ply, whatever the script does).  East, then any move: won; waiting
    # first leaves no ply to leave home; west walks into the ghost.
    text = CORRIDOR_RULES.format(steps=1, last=3, extra="",
                                 end="- {name: left, when: {was_on: {runner: home}}, scores: {runner: 100}}")
    got = value_of(make_board, text + "marks: {home: [[4, 1]]}\n")
    assert got == {"at": 100, "east": 100, "nowhere": 0, "west": 0}


def test_gates_need_a_script_and_one_step_moves(make_board):
    gate = """\
rules:
  roles: [explorer]
  moves: {explorer: {steps: %d}}
  gate: {key: key}
  %s
  ends: [{name: out, when: {reaches: {explorer: exit}}, scores: {explorer: 100}}]
  steps: {first: 1, last: 4}
  timeout: {explorer: 0}
size: [3, 1]
pieces: {explorer: [1, 1]}
"""
    with pytest.raises(BoardError, match="gate: the gates change only by a key action"):
        make_board(gate % (1, ""))
    with pytest.raises(BoardError, match="a move of 2 steps with gates"):
        make_board(gate % (2, "after_ply: [{key: [explorer]}]"))


MIXED = """\
rules:
  roles: [red, blue]
  turns: [[red, blue]]                  # both move at once
  teams: [[red], [blue]]
  collisions: stay
  moves:
    red: {steps: 1, idle: true, blocked: illegal, bump: {marks: [rock]}}
    blue: {steps: 2, idle: true, blocked: stay}
  chasers:
    ghost: {target: red, first: vertical}
  collect:
    gems: {piece: red, mark: gem}
  after_ply:
    - stop: {same_cell: [red, ghost]}
    - step: [ghost]
  ends:
    - {name: caught, when: {same_cell: [red, ghost]}, scores: {red: 0, blue: 100}}
    - {name: tagged, when: {same_cell: [red, blue]}, scores: {red: 0, blue: 100}}
    - {name: rich, when: {collected: {gems: all}}, scores: {red: 100, blue: 0}}
    - {name: home, when: {was_on: {red: home}}, scores: {red: 60, blue: 40}}
  steps: {first: 1, last: 5}
  timeout: {red: 50, blue: 50}
size: [4, 3]
walls: {east: [[2, 2]]}
pieces: {red: [1, 1], blue: [4, 3], ghost: [4, 1]}
marks: {gem: [[2, 2], [3, 1]], rock: [[2, 1]], home: [[1, 3]]}
"""


@pytest.mark.slow
def test_simultaneous_moves_collisions_bumps_items_and_was_on_with_a_script(tmp_path):
    # every mechanism of a ply at once before the script: the three meanings agree for both roles
    path = tmp_path / "mixed.yaml"
    path.write_text(MIXED, encoding="utf-8")
    for role in ("red", "blue"):
        assert_one_meaning(path, role)


def test_hidden_questions_on_rules_with_a_script_are_refused(make_board):
    board = make_board(CORRIDOR_RULES.format(steps=1, last=3, extra="", end=""))
    with pytest.raises(QueryError, match="not answered for rules with pieces moved by rule"):
        make_query(board, hidden=True)


KEYED = """\
rules:
  roles: [explorer]
  moves: {explorer: {steps: 1, idle: true, blocked: stay}}
  chasers:
    mummy: {target: explorer, first: horizontal}
  gate: {key: key}
  after_ply:
    - key: %s
    - step: [mummy]
    - key: %s
  ends: [{name: out, when: {reaches: {explorer: exit}}, scores: {explorer: 100}}]
  steps: {first: 1, last: 3}
  timeout: {explorer: 0}
size: [5, 1]
gates: {east: [[4, 1]]}
pieces: {explorer: [1, 1], mummy: [3, 1]}
marks: {key: [[2, 1]], exit: [[5, 1]]}
"""


def edges_from_start(make_board, text: str) -> set[str]:
    board = make_board(text)
    program = compile_program(board, Query("explorer", QueryKind.VALUE, initial_position(board)))
    return {a for a in run_clingo(program.text + "\n#show edge/3.") if a.startswith("edge(s(0,1,1,3,1,0),")}


def test_a_key_that_every_entry_flips(make_board):
    # The explorer steps east onto the key (2,1), then the mummy steps west onto it too: with
    # each_entry both entries flip (the gate ends closed); the classic key flips once a ply
    # (open).  Any other move: only the mummy enters the key (the gate opens).
    each = "{pieces: [%s], each_entry: true}"
    assert edges_from_start(make_board, KEYED % (each % "explorer", each % "mummy")) == {
        "edge(s(0,1,1,3,1,0),east,s(0,2,1,2,1,0))", "edge(s(0,1,1,3,1,0),nowhere,s(0,1,1,2,1,1))",
        "edge(s(0,1,1,3,1,0),west,s(0,1,1,2,1,1))", "edge(s(0,1,1,3,1,0),north,s(0,1,1,2,1,1))",
        "edge(s(0,1,1,3,1,0),south,s(0,1,1,2,1,1))"}
    once = edges_from_start(make_board, KEYED % ("[explorer]", "[mummy]"))
    assert "edge(s(0,1,1,3,1,0),east,s(0,2,1,2,1,1))" in once
    # one entry flips once: the explorer's entry, asked about again after the mummy's step
    again = edges_from_start(make_board, KEYED % (each % "explorer", each % "explorer"))
    assert "edge(s(0,1,1,3,1,0),east,s(0,2,1,2,1,1))" in again


GATED = """\
# classic Mummy Maze on 4x4: the exit behind a gate, the key on (1,3), a scorpion
rules: %s
legend: {X: exit, K: key}
map: |
  +---+---+---+---+
  |           | X |
  +   +   +   +===+
  | K     |       |
  +   +   +   +   +
  |       :       |
  +   +---+   +   +
  |               |
  +---+---+---+---+
pieces: %s
"""
EACH_ENTRY = ("{use: mummy-maze-classic, judge_start: true, after_ply: ["
              "{key: {pieces: [explorer], each_entry: true}}, {step: [scorpion]}, "
              "{stop: {same_cell: [explorer, scorpion]}}, {key: {pieces: [scorpion], each_entry: true}}]}")


@pytest.mark.parametrize("rules, pieces, plies", [
    pytest.param("mummy-maze-classic", "{explorer: [2, 1], scorpion: [1, 2]}", 17, marks=pytest.mark.slow),
    (EACH_ENTRY, "{explorer: [4, 1], scorpion: [2, 3]}", 17)], ids=["once a ply", "each entry"])
@pytest.mark.slow
def test_gates_and_keys_have_one_meaning(tmp_path, rules, pieces, plies):
    # The classic key and a key every entry flips (both answered by the scripted arrays): a win
    # through the gate in 17 moves; the reference agrees with clingo and solve.
    path = tmp_path / "gated.yaml"
    path.write_text(GATED % (rules, pieces), encoding="utf-8")
    assert one_mover_script(load_board(path).rules)
    assert solve_says(path, "explorer")["plies"] == plies
    assert_one_meaning(path, "explorer")


def test_generate_refuses_the_scripts_its_climb_does_not_play(tmp_path):
    done = CliRunner().invoke(main, ["generate", "--like", str(ROOT / "boards" / "combined" / "scorpion-2007.yaml"),
                                     "--out", str(tmp_path), "--count", "1"])
    assert done.exit_code == 2, done.output
    assert "generate does not write levels of mummy-maze-2007-scorpion yet" in done.stderr
    # --rules places the chaser the rules need, so the same refusal comes (not "the piece
    # 'scorpion' is not on the board", which a --rules user cannot fix)
    done = CliRunner().invoke(main, ["generate", "--rules", "mummy-maze-2007-scorpion", "--size", "5x5",
                                     "--out", str(tmp_path), "--count", "1"])
    assert done.exit_code == 2, done.output
    assert "generate does not write levels of mummy-maze-2007-scorpion yet" in done.stderr


def test_a_rule_set_with_another_chaser_is_not_suggested_as_kindred(tmp_path):
    # mummy-maze-2007-scorpion has the roles and marks of mummy-maze-2007 but one more piece
    spec = game_spec("mummy-maze-2007", None, (5, 5), tmp_path, None)
    kindred = kindred_rule_sets(spec, tmp_path)
    assert "mummy-maze-2007-prose" in kindred and "mummy-maze-2007-scorpion" not in kindred


MEETING = """name: meeting
rules:
  roles: [explorer]
  turns: [[explorer]]
  moves:
    explorer: {steps: 1, idle: true, blocked: stay}
  chasers:
    m1: {target: explorer, first: horizontal}
    m2: {target: explorer, first: vertical}
  optional: [m1, m2]
  after_ply:
    - stop: {reaches: {explorer: exit}}
    - step: [m1]
    - step: [m2]
  ends:
    - {name: clash, when: {same_cell: [m1, m2]}, scores: {explorer: 100}}
    - {name: caught, when: {same_cell: [explorer, m1]}, scores: {explorer: 0}}
    - {name: escaped, when: {reaches: {explorer: exit}}, scores: {explorer: 100}}
  steps: {first: 1}
  timeout: {explorer: 50}
size: [4, 2]
pieces: {explorer: [1, 1]%s}
marks: {exit: [[4, 1]]}
"""


@pytest.mark.parametrize("chasers, plies", [("", 3), (", m2: [3, 2]", 3), (", m1: [4, 2], m2: [3, 1]", 1)],
                         ids=["neither", "one", "both"])
def test_pieces_off_the_board_meet_nowhere(tmp_path, chasers, plies):
    # Two chasers left out are both off the board: the end where they meet does not hold at the
    # start (the explorer walks out in 3 plies); on the board, the explorer steps north to (1,2):
    # m1 steps west to (3,2) and m2 north onto it, and the clash ends the game after 1 ply.
    path = tmp_path / "meeting.yaml"
    path.write_text(MEETING % chasers, encoding="utf-8")
    assert solve_says(path, "explorer")["plies"] == plies
    assert_one_meaning(path, "explorer")


def test_placing_a_piece_the_board_leaves_out_is_refused(tmp_path):
    # The board's script drops the actions of a piece it leaves out: placed with --at, it would
    # stand still for the whole game, so the command says so instead of answering another game.
    path = tmp_path / "meeting.yaml"
    path.write_text(MEETING % "", encoding="utf-8")
    done = CliRunner().invoke(main, ["solve", str(path), "--at", "m1=4,2"])
    assert done.exit_code == 2, done.output
    assert done.stderr == ("Error: --at m1=4,2: meeting leaves the piece 'm1' out, and a piece the board leaves "
                           "out takes no part in its game. Draw it on the board instead (pieces: {m1: [4, 2]}).\n")


def test_an_end_name_that_is_not_a_name_is_refused(tmp_path):
    # Found by the mutants of tests/test_fuzz_boards.py: a character clingo cannot read in an end's
    # name reached the compiled program (a traceback); it is the rule set's error now.
    path = tmp_path / "meeting.yaml"
    path.write_text((MEETING % "").replace("name: clash", "name: cl★sh"), encoding="utf-8")
    done = CliRunner().invoke(main, ["solve", str(path)])
    assert done.exit_code == 2, done.output
    assert done.stderr == (f"Error: {path}:16: ends: 'cl★sh' is not an end name. Write a name as a lowercase "
                           "letter followed by letters, digits or _, e.g. escaped.\n")
