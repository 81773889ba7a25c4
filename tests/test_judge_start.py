"""``judge_start``: whether the ends judge the position a game starts from (docs/rule-language.md,
"Ends").

The original classic Mummy Maze judges a position only after a turn: a level that starts with the
explorer on the exit is not won in 0 moves; he must survive a turn there, or leave and come back
(rules/mummy-maze-classic.yaml and its red variant: ``judge_start: false``).  The GDL seed games
judge every position (the default).  Where the start is not judged and an end holds there, the
question's root is the node ``start(S)``: no end, the moves of S; the same position reached by a
ply is judged.  Checked here on tiny hand-checked boards: gridsolve's answer (the race solver,
through the command line), plain clingo on ``gridsolve compile``'s program, and the independent
reference reference/classic.py (random boards: tests/test_classic_differential.py).
"""
from __future__ import annotations

import json
import re

import clingo
import pytest
from click.testing import CliRunner

from gridsolve.cli import main
from gridsolve.language.loader import load_board
from gridsolve.compile.state import layout_for
from gridsolve.language.position import Position, initial_position, make_position, make_query
from gridsolve.solve.common.limits import LimitGuard, Limits
from gridsolve.solve.dispatch.asker import Asker
from gridsolve.solve.graph.racegraph import NamedMoves, RaceGraph
from gridsolve.solve.program.explore import examine

from reference.classic import ON, WON, parse_board, play, solve as reference_solve
from conftest import ROOT

# +---+---+---+
# | M         |    the explorer starts on the exit (1,2).  Waiting, the mummy steps down onto him;
# +   +---+   +    south, it follows him down (caught); north is onto it, west the border (a wait).
# | E     |   |    East to (2,2): the mummy goes east to (2,3) and stays (the wall under it); south
# +   +   +---+    to (2,1), east to (3,1) (it comes round to (3,2), walled in there), west to
# |           |    (2,1), then west and north, or north and west, home: won in 6 moves.
# +---+---+---+
ON_EXIT = """\
rules: {rules}
size: [3, 3]
walls: {{north: [[2, 2], [3, 1]], east: [[2, 2]]}}
pieces: {{explorer: [1, 2], mummy: [1, 3]}}
marks: {{exit: [[1, 2]]}}
"""
# The same with a wall under the mummy: waiting on the exit he survives the turn: won in 1.
WAIT_WINS = """\
rules: mummy-maze-classic
size: [3, 3]
walls: {north: [[1, 2]]}
pieces: {explorer: [1, 2], mummy: [1, 3]}
marks: {exit: [[1, 2]]}
"""
JUDGED = "{use: mummy-maze-classic, judge_start: true}"


def write(tmp_path, text: str, name: str = "level.yaml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def run(*args, stdin=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=stdin)


def answer(path, *options) -> dict:
    result = run("solve", path, "--json", *options)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def plain_clingo(path, *options) -> set[str]:
    """The atoms plain clingo shows for ``gridsolve compile``'s program."""
    result = run("compile", path, *options)
    assert result.exit_code == 0, result.output
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], result.output)
    ctl.ground([("base", [])])
    shown: set[str] = set()
    ctl.solve(on_model=lambda m: shown.update(str(s) for s in m.symbols(shown=True)))
    return shown


def test_the_classic_rule_sets_judge_only_positions_after_a_turn():
    judged = {}
    for path in sorted((ROOT / "boards").rglob("*.yaml")):
        if path.parent.name == "gdl":     # (GDL games, not boards)
            continue
        rules = load_board(path).rules
        judged.setdefault(rules.name, set()).add(rules.judge_start)
    assert {name for name, values in judged.items() if values == {False}} == {
        "mummy-maze-classic", "mummy-maze-classic-red"}
    assert {"mummy-maze-gdl", "mummy-maze-2007", "wallmaze", "pacman-3p", "maze-runner-duel"} <= {
        name for name, values in judged.items() if values == {True}}


def test_a_start_on_the_exit_is_won_by_leaving_and_coming_back(tmp_path):
    path = write(tmp_path, ON_EXIT.format(rules="mummy-maze-classic"))
    got = answer(path)
    assert (got["value"], got["plies"], got["win"], got["win_moves"]) == (100, 6, True, 6)
    moves = {m["move"]: (m["value"], m["win"], m["plies"]) for m in got["moves"]}
    assert moves == {"east": (100, True, 5), "north": (0, False, 0), "nowhere": (0, False, 0),
                     "south": (0, False, 0), "west": (0, False, 0)}
    line = [step["move"] for step in got["line"]]
    level = parse_board(path.read_text(encoding="utf-8"))
    assert [outcome for _m, _s, outcome in play(level, line)] == [ON] * 5 + [WON]
    expected = reference_solve(level)
    assert (expected.win, expected.moves, expected.by_move["nowhere"].why) == (True, 6, "dies")
    text = run("solve", path).output
    assert "solved in 6 moves: east south east west" in text and "the game ends in 6 plies" in text
    assert "solved in 0 moves" not in text


def test_plain_clingo_solves_the_compiled_program_to_the_same_answer(tmp_path):
    path = write(tmp_path, ON_EXIT.format(rules="mummy-maze-classic"))
    shown = plain_clingo(path)
    assert {"value(0,at,100)", "plies(0,at,6)", "win(0,at)", "value(0,east,100)", "plies(0,east,5)",
            "value(0,nowhere,0)", "line(0,0,0,east)", "line_state(0,0,start(s(0,1,2,1,3,0,0,0,0,0)))"} <= shown
    assert not any(atom.startswith("win(0,nowhere") for atom in shown)
    assert "line_state(0,6,s(0,1,2,3,2,0,0,0,0,0))" in shown     # home on the exit, the mummy walled in


def test_a_rule_set_that_judges_the_start_answers_won_in_0(tmp_path):
    path = write(tmp_path, ON_EXIT.format(rules=JUDGED))
    got = answer(path)
    assert (got["value"], got["plies"], got["win"], got["win_moves"], got["moves"]) == (100, 0, True, 0, [])
    assert "solved in 0 moves" in run("solve", path).output
    shown = plain_clingo(path)
    assert {"value(0,at,100)", "plies(0,at,0)"} <= shown and not any("start(" in atom for atom in shown)


def test_surviving_a_wait_on_the_exit_wins_in_1(tmp_path):
    path = write(tmp_path, WAIT_WINS)
    got = answer(path)
    assert (got["value"], got["plies"], got["win_moves"]) == (100, 1, 1)
    moves = {m["move"]: (m["value"], m["plies"]) for m in got["moves"]}
    assert moves["nowhere"] == (100, 0) and moves["east"] == (0, 0)     # east: the mummy comes down, then east
    assert "plies(0,at,1)" in plain_clingo(path)
    assert reference_solve(parse_board(WAIT_WINS)).moves == 1


@pytest.mark.parametrize("rules", ["mummy-maze-classic", "mummy-maze-classic-red"])
def test_both_colours_agree_with_the_reference(tmp_path, rules):
    text = ON_EXIT.format(rules=rules)
    got = answer(write(tmp_path, text))
    expected = reference_solve(parse_board(text))
    assert (got["win"], got["win_moves"]) == (expected.win, expected.moves)
    assert {m["move"]: m["win"] for m in got["moves"]} == {m: o.win for m, o in expected.by_move.items()}


def test_a_position_reached_by_a_ply_is_judged(tmp_path):
    board = load_board(write(tmp_path, ON_EXIT.format(rules="mummy-maze-classic")))
    start = initial_position(board)
    end, steps = examine(board, start)
    assert end is None and sorted(s.move for s in steps) == ["east", "north", "nowhere", "south", "west"]
    later = Position(start.pieces, 0, start.step + 1)       # the same pieces after a ply
    assert examine(board, later) == ("escaped", [])
    asker = Asker(board)        # both questions from one engine: the start and the position after a ply
    first = asker.ask(make_query(board, "explorer"))
    again = asker.ask(make_query(board, "explorer", step=start.step + 1))
    assert (first.value, first.plies) == (100, 6) and (again.value, again.plies, again.moves) == (100, 0, [])
    assert asker.engine.graph.n == 14       # the 13 positions from the start, and the start judged


def test_ask_verify_explain_and_play(tmp_path):
    path = write(tmp_path, ON_EXIT.format(rules="mummy-maze-classic"))
    lines = run("ask", path, stdin='{"query": "win"}\n{"query": "win", "step": 2}\n').output.splitlines()
    assert [json.loads(line)["win_plies"] for line in lines] == [6, 0]
    expect = path.read_text(encoding="utf-8") + "expect:\n  - {win: true, win_moves: 6}\n"
    assert run("verify", write(tmp_path, expect, "verified.yaml")).exit_code == 0
    wrong = path.read_text(encoding="utf-8") + "expect:\n  - {win: true, win_moves: 0}\n"
    assert run("verify", write(tmp_path, wrong, "wrong.yaml")).exit_code == 1
    assert "solved in 6 moves" in run("explain", path).output
    caught = run("play", path, stdin="nowhere\n").output
    assert "Game over after 1 ply: caught." in caught
    home = run("play", path, stdin="east\nsouth\neast\nwest\nnorth\nwest\n").output
    assert "Game over after 6 plies: escaped." in home


@pytest.mark.parametrize("cases", [[("explorer", ("explorer=8,8",))],
                                   pytest.param([("mummy", ("explorer=8,8", "mummy=6,8")),
                                                 ("explorer", ("explorer=8,8", "mummy=7,7"))], marks=pytest.mark.slow)],
                         ids=["explorer", "more"])
@pytest.mark.slow
def test_a_gdl_seed_game_judges_its_start(tmp_path, cases):
    seed = ROOT / "boards" / "mummymaze2p.yaml"
    got = answer(seed, "--at", "explorer=8,8")
    assert (got["value"], got["plies"], got["moves"]) == (100, 0, [])
    unjudged = write(tmp_path, seed.read_text(encoding="utf-8").replace(
        "rules: mummy-maze-gdl", "rules: {use: mummy-maze-gdl, judge_start: false}"))
    for role, at in cases:
        options = ["--role", role, *[arg for cell in at for arg in ("--at", cell)]]
        got = answer(unjudged, *options)
        shown = plain_clingo(unjudged, *options)
        assert got["plies"] >= 1 and {f"value(0,at,{got['value']})", f"plies(0,at,{got['plies']})"} <= shown
        assert {m["move"]: m["value"] for m in got["moves"]} == {
            atom[len("value(0,"):-1].rsplit(",", 1)[0]: int(atom.rsplit(",", 1)[1][:-1])
            for atom in shown if atom.startswith("value(0,") and not atom.startswith("value(0,at,")}


@pytest.mark.slow      # (the quick tier: tests/test_scripted.py joins the graph from a start on the exit)
def test_the_graph_joined_by_pieces_is_the_ground_one_from_a_start_not_judged(tmp_path):
    seed = (ROOT / "boards" / "mummymaze2p.yaml").read_text(encoding="utf-8")
    board = load_board(write(tmp_path, seed.replace("rules: mummy-maze-gdl",
                                                    "rules: {use: mummy-maze-gdl, judge_start: false}")))
    layout = layout_for(board)
    root = layout.root_term(make_position(board, ("explorer=8,8", "mummy=7,7")), board)
    assert root.startswith("start(s(0,8,8,7,7)")
    guard = LimitGuard(Limits(), "the test's positions", lambda needed: "")
    joined, ground = RaceGraph(board, layout, [root], guard), RaceGraph(board, layout, [root], guard, by_pieces=False)
    assert joined.numbering is not None and ground.numbering is None

    def graph(g):
        return ({str(g.symbol(i)): (int(g.outcome[i]), int(g.turn[i])) for i in range(g.n)},
                {(str(g.symbol(int(p))), str(g.symbol(i)))
                 for i in range(g.n) for p in g.pred[g.start[i]:g.start[i + 1]]})
    assert graph(joined) == graph(ground)
    start = clingo.parse_term(root)
    moves = [sorted((str(m), str(a)) for m, a in named.moves(start)) for named in (joined.named_moves(),
                                                                                   NamedMoves(ground._moves_text))]
    assert moves[0] == moves[1] and len(moves[0]) == 5        # the explorer's four steps and waiting
    assert joined.named_moves().end(start) is None and joined.named_moves().end(start.arguments[0]) == "escaped"


def test_no_beeline_is_not_defined_from_a_start_not_judged(tmp_path):
    text = ("rules: {use: mummy-maze-gdl, judge_start: false}\nsize: [3, 3]\n"
            "pieces: {explorer: [3, 3], mummy: [1, 1]}\nmarks: {exit: [[3, 3]]}\n")
    result = run("verify", write(tmp_path, text + "expect:\n  - {no_beeline: true}\n  - {value: 100, plies: 1}\n"))
    assert result.exit_code != 0
    assert "no_beeline is not defined for level from this position: an end holds at the start" in result.output
    assert re.search(r"explorer plies +1 +1 +\S+ +pass", result.output)       # waiting there: escaped after the ply


def test_judge_start_false_only_where_the_race_solver_answers(tmp_path):
    wallmaze = (ROOT / "boards" / "wallmaze.yaml").read_text(encoding="utf-8")
    path = write(tmp_path, wallmaze.replace("rules: wallmaze", "rules: {use: wallmaze, judge_start: false}"))
    result = run("solve", path)
    assert result.exit_code == 2
    assert "judge_start: false is answered by the race solver alone" in result.stderr


def test_generate_refuses_a_rule_set_that_does_not_judge_its_start(tmp_path):
    seed = (ROOT / "boards" / "mummymaze2p.yaml").read_text(encoding="utf-8")
    like = write(tmp_path, seed.replace("rules: mummy-maze-gdl", "rules: {use: mummy-maze-gdl, judge_start: false}"))
    result = run("generate", "--like", like, "--count", "1", "--out", tmp_path / "out")
    assert result.exit_code == 2 and "its start is not judged (judge_start: false)" in result.stderr
