"""``gridsolve solve GAME.kif``: the text and JSON answers, the options, and the errors' exit codes."""
from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from gridsolve.cli import main

GAMES = Path(__file__).parent / "gdl" / "games"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_solve_of_a_kif_file_prints_each_role_s_value_the_moves_and_the_line():
    result = run("solve", GAMES / "hanoi.kif")
    assert result.exit_code == 0, result.output
    assert "value for player: 100 in 7 steps" in result.output
    assert "win (100) for player: yes in 7 steps" in result.output
    assert "(move a c)  value  100  steps   6" in result.output
    assert "    7. player (move a c)" in result.output


def test_solve_json_has_the_board_answers_fields():
    result = run("solve", GAMES / "tictactoe.kif", "--role", "OPLAYER", "--query", "win", "--json")
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    assert {"board", "role", "query", "holds", "value", "plies", "win", "win_plies", "win_moves", "survives",
            "doom_plies", "remaining", "position", "moves", "line", "stats"} <= set(answer)
    assert (answer["role"], answer["query"], answer["holds"], answer["value"]) == ("oplayer", "win", False, 50)
    assert answer["stats"]["solver"] == "gdl engine" and answer["stats"]["positions"] == 5478
    assert "(control xplayer)" in answer["position"]["fluents"]


def test_a_gdl_file_with_a_horizon_and_a_state_given_as_fluents():
    result = run("solve", GAMES / "maze.kif", "--at", "(at 3 2) (clock 0)", "--query", "win", "--horizon", "1")
    assert result.exit_code == 0, result.output
    assert "win (100) for robot: yes in 1 step" in result.output


def test_what_is_not_gdl_exits_2_with_the_file_and_the_line(tmp_path):
    bad = tmp_path / "bad.kif"
    bad.write_text("(role a)\n(init (x)\n")
    result = run("solve", bad)
    assert result.exit_code == 2
    assert result.output.strip() == f"Error: {bad}:2: the '(' on line 2 is never closed (1 open at the end). Add the missing ')'."


def test_a_gdl_ii_game_is_refused_with_the_reason(tmp_path):
    game = tmp_path / "cards.kif"
    game.write_text((GAMES / "maze.kif").read_text() + "\n(<= (sees robot ?x) (true (at ?x ?y)))\n")
    result = run("solve", game)
    assert result.exit_code == 2
    assert "a GDL-II game: it declares what roles see (sees)" in result.output


def test_options_a_gdl_game_has_not_and_unknown_roles_exit_2():
    assert "--turn is not an option of a GDL game" in run("solve", GAMES / "maze.kif", "--turn", "robot").output
    result = run("solve", GAMES / "maze.kif", "--role", "mummy")
    assert result.exit_code == 2 and "Choose one of robot." in result.output
    result = run("solve", GAMES / "maze.kif", "--at", "(at 9 9)")
    assert result.exit_code == 2 and "(at 9 9) is no fluent of maze.kif" in result.output


def test_a_limit_stops_with_exit_3_and_the_states_reached():
    result = run("solve", GAMES / "tictactoe.kif", "--timeout", "1e-9")
    assert result.exit_code == 3
    assert "the reachable states of tictactoe.kif do not fit" in result.output
    assert "states reached" in result.output


def test_time_up_while_ranking_stops_with_exit_3_and_the_states_reached(monkeypatch):
    import gridsolve.gdl.solving as solving
    explore = solving.explore

    def explore_then_late(game, root, guard, depth=None):      # (the clock past --timeout once explored)
        explored = explore(game, root, guard, depth)
        guard.started -= 10_000
        return explored
    monkeypatch.setattr(solving, "explore", explore_then_late)
    result = run("solve", GAMES / "tictactoe.kif", "--timeout", "1000")
    assert result.exit_code == 3, result.output
    assert "the reachable states of tictactoe.kif do not fit" in result.output
    assert "while ranking, after 5,478 states reached" in result.output
    assert "Traceback" not in result.output


def test_ask_answers_many_states_of_one_game_from_one_exploration():
    at = ("(cell 1 1 x) (cell 1 2 x) (cell 1 3 b) (cell 2 1 o) (cell 2 2 b) (cell 2 3 b) (cell 3 1 b) "
          "(cell 3 2 b) (cell 3 3 b) (control oplayer)")
    questions = "\n".join([json.dumps({"role": "xplayer"}), "# a comment", json.dumps({"role": "oplayer", "at": at, "line": False}),
                           json.dumps({"role": "nobody"}), json.dumps({"horizon": 2}), json.dumps({"turn": "x"})])
    result = CliRunner().invoke(main, ["ask", str(GAMES / "tictactoe.kif")], input=questions + "\n")
    assert result.exit_code == 2
    replies = [json.loads(line) for line in result.stdout.splitlines()]
    assert [reply["question"] for reply in replies] == [1, 3, 4, 5, 6]
    assert (replies[0]["values"], len(replies[0]["line"])) == ({"xplayer": 50, "oplayer": 50}, 9)
    assert (replies[1]["values"], replies[1]["line"]) == ({"xplayer": 100, "oplayer": 0}, None)
    assert replies[1]["stats"]["positions"] == 5478         # (read off the first question's exploration)
    assert replies[2]["exit_code"] == 2 and "no such role" in replies[2]["error"]
    assert (replies[3]["value"], replies[3]["stats"]["positions"]) == (None, 82)     # no end within 2 steps
    assert "turn: not a question key of a GDL game" in replies[4]["error"]


def test_svg_draws_the_line_s_states_and_keeps_an_existing_file(tmp_path):
    picture = tmp_path / "line.svg"
    result = run("solve", GAMES / "hanoi.kif", "--svg", picture)
    assert result.exit_code == 0, result.output
    assert "value for player: 100 in 7 steps" in result.output
    svg = picture.read_text()
    assert svg.startswith("<svg") and all(f'id="step-{k}"' in svg for k in range(8)) and 'id="step-8"' not in svg
    assert "hanoi: player gets 100 in 7 steps, a forced win (100) (values: player 100)" in svg
    picture.write_text("mine")
    result = run("solve", GAMES / "hanoi.kif", "--svg", picture)
    assert result.exit_code == 2 and picture.read_text() == "mine"
    assert "--force" in result.output
    result = run("solve", GAMES / "hanoi.kif", "--svg", "-", "--json")
    assert result.exit_code == 2 and "--svg - and --json both write to standard output" in result.output


def _model(program: str) -> set[str]:
    import clingo
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], program)
    ctl.ground([("base", [])])
    shown: set[str] = set()
    ctl.solve(on_model=lambda model: shown.update(map(str, model.symbols(shown=True))))
    return shown


def test_compile_of_a_gdl_game_or_a_yaml_file_naming_one_prints_its_rules_from_a_state():
    board = Path(__file__).parents[1] / "boards" / "gdl" / "tictactoe.yaml"
    result = run("compile", board)
    assert result.exit_code == 0, result.output
    assert result.output == run("compile", board.parent / "tictactoe.kif").output
    shown = _model(result.output)
    assert {s for s in shown if s.startswith("legal(xplayer")} == {f"legal(xplayer,mark({x},{y}))"
                                                                   for x in (1, 2, 3) for y in (1, 2, 3)}
    assert "legal(oplayer,noop)" in shown and "true(control(xplayer))" in shown and "terminal" not in shown
    state = "(cell 1 1 x) (cell 1 2 x) (cell 1 3 x) (cell 2 1 o) (cell 2 2 o) (cell 2 3 b) (cell 3 1 b) " \
            "(cell 3 2 b) (cell 3 3 b) (control oplayer)"
    shown = _model(run("compile", board, "--at", state).output)
    assert {"terminal", "goal(xplayer,100)", "goal(oplayer,0)"} <= shown


def test_compile_of_a_gdl_game_refuses_a_question_s_options_and_names_solve():
    result = run("compile", GAMES / "maze.kif", "--horizon", "3")
    assert result.exit_code == 2
    assert "--horizon: compile prints a GDL game's rules from a state" in result.output
    assert f"gridsolve solve {GAMES / 'maze.kif'} --horizon" in result.output
