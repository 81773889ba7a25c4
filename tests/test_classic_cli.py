"""Classic Mummy Maze from the command line: the puzzle answer in text and JSON, verify's
``win_moves``, play (the enemies move by rule; undo; hints), show and the SVG with the gate, and
the compiled program that plain clingo solves to the same answer."""
from __future__ import annotations

import json
import re

import clingo
from click.testing import CliRunner

from gridsolve.cli import main

from conftest import ROOT

FIRST_STEPS = str(ROOT / "boards" / "classic" / "first-steps.yaml")
GATE = str(ROOT / "boards" / "classic" / "behind-the-gate.yaml")
NO_WAY_OUT = str(ROOT / "boards" / "classic" / "no-way-out.yaml")
WALLED_IN = str(ROOT / "boards" / "classic" / "walled-in.yaml")


def run(*args, stdin=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=stdin)


def test_solve_says_the_shortest_solution():
    result = run("solve", FIRST_STEPS)
    assert result.exit_code == 0, result.output
    assert "(no step limit)" in result.output
    assert "value for explorer: 100 with no step limit, the game ends in 10 plies" in result.output
    solved = re.search(r"^solved in 10 moves: (.*)$", result.output, re.M)
    assert solved is not None and len(solved.group(1).split()) == 10


def test_json_win_moves():
    answer = json.loads(run("solve", FIRST_STEPS, "--query", "win", "--json").output)
    assert answer["win"] is True and answer["win_moves"] == 10 and answer["win_plies"] == 10
    lost = json.loads(run("solve", NO_WAY_OUT, "--json").output)
    assert lost["win"] is False and lost["win_moves"] is None and lost["survives"] is False


def test_why_a_level_cannot_be_won():
    assert "cannot be won: every line ends in a loss (explorer can hold out for at most 3 moves)" in \
        run("solve", NO_WAY_OUT).output
    assert "cannot be won: explorer can survive forever, but only by never reaching the goal" in \
        run("solve", WALLED_IN).output


def test_win_moves_in_other_games_counts_the_roles_own_moves():
    seed = str(ROOT / "boards" / "mummymaze2p-2007.yaml")
    answer = json.loads(run("solve", seed, "--at", "explorer=8,3", "--query", "win", "--json").output)
    assert answer["win_plies"] == 21 and answer["win_moves"] == 11      # explorer moves at plies 1, 3, ..., 21


def test_verify_checks_win_moves(tmp_path):
    text = (ROOT / "boards" / "classic" / "first-steps.yaml").read_text(encoding="utf-8")
    good = tmp_path / "good.yaml"
    good.write_text(text, encoding="utf-8")
    assert run("verify", good).exit_code == 0
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace("win_moves: 10", "win_moves: 9"), encoding="utf-8")
    result = run("verify", bad)
    assert result.exit_code == 1
    assert re.search(r"explorer win_moves\s+9\s+10\s", result.output)


def test_play_enemies_move_by_rule_and_undo():
    result = run("play", FIRST_STEPS, stdin="south\nundo\nhint\nquit\n")
    assert result.exit_code == 0, result.output
    assert "mummy moves (6,5) -> (4,5)" in result.output
    assert "Undone: back at step 1." in result.output
    assert "solved in 10 moves" in result.output          # the hint, from the start again


def test_show_and_svg_draw_the_gate(tmp_path):
    shown = run("show", GATE).output
    assert "+===+" in shown and "gate (closed)" in shown
    picture = tmp_path / "gate.svg"
    assert run("solve", GATE, "--svg", picture).exit_code == 0
    svg = picture.read_text(encoding="utf-8")
    assert 'id="gates"' in svg and "gate between (3,3) and (3,4): closed" in svg
    # the title says the game has no step limit, not a horizon of a million plies
    assert "<title>Behind the gate: value for explorer: 100 with no step limit, the game ends in" in svg
    assert "1000000" not in svg


def test_plain_clingo_solves_the_compiled_program_to_the_same_answer():
    program = run("compile", FIRST_STEPS, "--query", "win").output
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], program)
    ctl.ground([("base", [])])
    shown = []
    ctl.solve(on_model=lambda m: shown.extend(str(s) for s in m.symbols(shown=True)))
    assert "win(0,at)" in shown and "plies(0,at,10)" in shown


def test_mistakes_in_scripts_and_gates_are_clear_errors(tmp_path):
    cases = {
        "rules:\n  use: mummy-maze-classic\n  after_ply:\n    - remove: {piece: mummy, by: [mummy]}\n":
            "3: after_ply: remove: 'mummy' removes itself. List the other pieces under by.",
        "rules:\n  use: mummy-maze-classic\n  after_ply:\n    - step: [mummy]\n      stop: {reaches: {explorer: exit}}\n":
            "3: after_ply: an action gives stop, step. Give exactly one of key, stop, step, remove (or repeat with do).",
        "rules:\n  use: mummy-maze-classic\n  after_ply:\n    - step: [explorer]\n":
            "3: after_ply: step: unknown chaser 'explorer'. Chasers are: mummy, mummy2, scorpion.",
        "rules: mummy-maze-2007\ngates: {north: [[1, 1]]}\n":
            "gates: the board has gates, but the rules 'mummy-maze-2007' have none. Use rules that declare "
            "gate: {key: MARK}.",
    }
    for head, message in cases.items():
        path = tmp_path / "bad.yaml"
        path.write_text(head + "size: [3, 3]\npieces: {explorer: [1, 1], mummy: [3, 3]}\nmarks: {exit: [[3, 1]]}\n",
                        encoding="utf-8")
        result = run("solve", path)
        assert result.exit_code == 2, result.output
        assert result.stderr.startswith(f"Error: {path}:") and message in result.stderr, result.stderr


# The exit lies behind the gate: closed, the explorer fetches the key (which opens it) first.
GATE_BEFORE_THE_EXIT = """\
name: Gate before the exit
rules: mummy-maze-classic
legend: {E: explorer, X: exit, K: key}
map: |2
       1   2   3   4
     +---+---+---+---+
   2 | K           E |
     +---+---+---+===+
   1 |             X |
     +---+---+---+---+
"""


def _clingo_plies(program: str) -> list[str]:
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], program)
    ctl.ground([("base", [])])
    shown = []
    ctl.solve(on_model=lambda m: shown.extend(str(s) for s in m.symbols(shown=True)))
    return [s for s in shown if s.startswith("plies(0,at,")]


def test_gates_open_states_a_position_with_the_gate_open(tmp_path):
    path = tmp_path / "gate.yaml"
    path.write_text(GATE_BEFORE_THE_EXIT, encoding="utf-8")
    answers = {state: json.loads(run("solve", path, "--json", *(("--gates", state) if state else ())).output)
               for state in (None, "closed", "open")}
    for answer in answers.values():
        del answer["stats"]           # (the timings)
    assert answers[None] == answers["closed"]
    assert answers["closed"]["position"]["gates"] == "closed" and answers["open"]["position"]["gates"] == "open"
    assert (answers["closed"]["win_moves"], answers["open"]["win_moves"]) == (7, 1)
    assert [m["move"] for m in answers["open"]["line"]] == ["south"]
    # the compiled program states the open gate too: plain clingo finds the same answer
    for state, plies in (("closed", 7), ("open", 1)):
        compiled = run("compile", path, "--query", "win", "--gates", state)
        assert compiled.exit_code == 0, compiled.output
        assert _clingo_plies(compiled.output) == [f"plies(0,at,{plies})"]
    shown = run("show", path, "--gates", "open").output
    assert "the gates are open" in shown
    # ask: one grounding rooted at both positions answers each as solve does
    questions = tmp_path / "questions.jsonl"
    questions.write_text('{"gates": "open"}\n{}\n{"gates": "closed"}\n', encoding="utf-8")
    asked = run("ask", path, questions)
    assert asked.exit_code == 0, asked.output
    replies = [json.loads(line) for line in asked.output.splitlines()]
    assert [(r["win_moves"], r["position"]["gates"]) for r in replies] == [(1, "open"), (7, "closed"), (7, "closed")]


def test_gates_on_a_board_without_a_gate_is_a_clear_error():
    result = run("solve", FIRST_STEPS, "--gates", "open")
    assert result.exit_code == 2
    assert result.stderr == "Error: --gates open: First steps has no gate. Leave out --gates.\n"
    assert "Traceback" not in result.output
    wrong = run("solve", GATE, "--gates", "ajar")
    assert wrong.exit_code == 2 and "'ajar' is not one of 'open', 'closed'" in wrong.output
