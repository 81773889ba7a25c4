"""The command line: exit codes, exact error messages, and the commands end to end."""
from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from gridsolve.cli import main

from classic_boards import random_classic_board
from conftest import CORRIDOR, ROOT, run_clingo

SEED_2007 = str(ROOT / "boards" / "mummymaze2p-2007.yaml")
SEED_GDL = str(ROOT / "boards" / "mummymaze2p.yaml")



def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def assert_error(result, message):
    assert result.exit_code == 2, result.output
    assert result.stderr == f"Error: {message}\n"
    assert "Traceback" not in result.output


# - Bad input: file:line, what, how to fix; exit code 2 ---

def test_invalid_yaml(board_file):
    path = board_file("rules: [unclosed\nsize: [3, 1]\n")
    assert_error(run("solve", path), f"{path}:2: invalid YAML: expected ',' or ']', but got ':'. "
                                     "Check the indentation and quoting on this line.")


def test_unknown_key_suggests_the_nearest(board_file):
    path = board_file("rules: mummy-maze-2007\nlegend: {E: explorer}\nmapp: x\n")
    assert_error(run("solve", path), f"{path}:3: unknown key 'mapp'. Did you mean 'map'?")


def test_unknown_key_in_an_override(board_file):
    path = board_file("rules: {use: mummy-maze-2007, moves: {mummy: {stepz: 2}}}\nsize: [3, 1]\n")
    assert_error(run("solve", path), f"{path}:1: rules.moves.mummy: unknown key 'stepz'. Did you mean 'steps'?")


def test_piece_off_the_board(board_file):
    path = board_file("rules: mummy-maze-2007\nsize: [3, 1]\npieces: {explorer: [1, 1], mummy: [5, 1]}\n"
                      "marks: {exit: [[3, 1]]}\n")
    assert_error(run("solve", path), f"{path}:3: the piece 'mummy' at (5,1) is off the 3x1 board")


def test_piece_inside_a_wall(board_file):
    path = board_file("rules: mummy-maze-2007\nlegend: {E: explorer, X: exit}\nmap: |\n"
                      "  +---+---+---+\n  | E |###  X |\n  +---+---+---+\npieces: {mummy: [2, 1]}\n")
    assert_error(run("solve", path), f"{path}:7: the piece 'mummy' at (2,1) stands inside a wall")


def test_map_rows_of_different_widths(board_file):
    path = board_file("rules: mummy-maze-2007\nlegend: {E: explorer, M: mummy, X: exit}\nmap: |\n"
                      "  +---+---+---+\n  | E   M   X |\n  +---+---+---+---+\n")
    assert_error(run("solve", path), f"{path}:6: map: this line is 17 characters wide, the board is 13. "
                                     "Every map line must have the same width.")


def test_map_character_missing_from_the_legend(board_file):
    path = board_file("rules: mummy-maze-2007\nlegend: {E: explorer, M: mummy}\nmap: |\n"
                      "  +---+---+---+\n  | E   M   X |\n  +---+---+---+\n")
    assert_error(run("solve", path), f"{path}:5: map: the character 'X' at (3,1) is not in the legend. "
                                     "Add it under 'legend:', e.g. X: exit.")


def test_unknown_rule_set(board_file):
    path = board_file("rules: mummy-maze-1999\nsize: [2, 1]\n")
    result = run("solve", path)
    assert result.exit_code == 2
    assert result.stderr == (f"Error: {path}:1: rules: no rule set named 'mummy-maze-1999'. "
                             "Known rule sets: maze-runner-duel, mummy-maze-2007, mummy-maze-2007-prose, "
                             "mummy-maze-2007-scorpion, mummy-maze-classic, mummy-maze-classic-red, "
                             "mummy-maze-classic-treasure, mummy-maze-gdl, mummy-maze-order, pacman-3p, pacman-3p-prose, pacman-chased, "
                             "wallmaze.\n")


def test_unknown_role_in_at():
    assert_error(run("solve", SEED_GDL, "--at", "ghost=1,1"),
                 "--at ghost=1,1: unknown piece 'ghost'. The pieces of Mummy Maze 2p are: explorer, mummy.")


def test_cell_off_the_board_in_at():
    assert_error(run("solve", SEED_GDL, "--at", "explorer=9,1"),
                 "--at explorer=9,1: (9,1) is not a free cell of the 8x8 board")
    assert_error(run("solve", SEED_GDL, "--at", "explorer=nine"),
                 "--at explorer=nine: 'nine' is not a cell. Write X,Y, e.g. 3,4.")


def test_unknown_role():
    assert_error(run("solve", SEED_GDL, "--role", "ghost"),
                 "--role ghost: unknown role. Roles are: explorer, mummy.")


def test_missing_file(tmp_path):
    path = tmp_path / "nothere.yaml"
    assert_error(run("solve", path), f"{path}: no such file. Check the path.")


# - Commands ---

def test_show_draws_the_board(board_file):
    result = run("show", board_file(CORRIDOR), "--at", "mummy=2,1", "--at", "explorer=1,2")
    assert result.exit_code == 0
    assert result.output.splitlines()[1:8] == [
        "     1   2   3   4",
        "   +---+---+---+---+",
        " 2 | E           X |",
        "   +   +---+---+   +",
        " 1 |     M         |",
        "   +---+---+---+---+",
        "   E = explorer, M = mummy, X = exit, * = pieces together",
    ]


TRAPPED = """\
name: Trap
rules: mummy-maze-classic
legend: {E: explorer, M: mummy, S: scorpion, X: exit, T: trap}
map: |
  +---+---+---+---+---+
  | E       T   T   X |
  +---+---+---+---+---+
  | M               S |
  +---+---+---+---+---+
"""


def test_show_draws_a_piece_on_a_mark(board_file):
    # the mummy on a trap: both are drawn, the piece first; then the explorer on the exit too,
    # and two pieces together on the other trap
    trapped = board_file(TRAPPED)
    result = run("show", trapped, "--at", "mummy=3,2")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[3] == " 2 | E       MT  T   X |"
    assert lines[7].endswith(", * = pieces together, two letters = a piece on a mark")
    lines = run("show", trapped, "--at", "mummy=4,2", "--at", "scorpion=4,2", "--at", "explorer=5,2").output.splitlines()
    assert lines[3] == " 2 |         T   *T  EX|"
    assert not run("show", trapped).output.splitlines()[7].endswith("a piece on a mark")


def test_solve_json_fields(board_file):
    result = run("solve", board_file(CORRIDOR), "--query", "win", "--json")
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    for key in ("role", "query", "holds", "value", "plies", "moves", "line", "stats"):
        assert key in answer
    # The explorer steps east twice; in between the mummy (two steps a move) only gets next to it.
    assert answer["role"] == "explorer" and answer["query"] == "win"
    assert answer["holds"] is True and answer["plies"] == 3
    assert answer["line"][0] == {"ply": 0, "side": ["explorer"], "move": "east"}
    assert {m["move"] for m in answer["moves"]} == {"east", "west", "nowhere"}
    assert answer["stats"]["positions"] > 0 and answer["stats"]["moves"] > 0


@pytest.mark.slow
def test_compile_runs_in_plain_clingo_with_the_same_answer(board_file):
    board = board_file(CORRIDOR)
    for role in ("explorer", "mummy"):
        program = run("compile", board, "--role", role).output
        answer = json.loads(run("solve", board, "--role", role, "--json").output)
        atoms = run_clingo(program)
        assert f"value(0,at,{answer['value']})" in atoms
        if answer["plies"] is not None:
            assert f"plies(0,at,{answer['plies']})" in atoms


def test_compile_output_of_a_seed_is_a_documented_program():
    program = run("compile", SEED_2007).output
    assert program.startswith("% gridsolve program: board Mummy Maze 2p (2007 competition)")
    for header in ("% - Board facts ---", "% === Compiled game rules ===", "% === encodings/solve.lp ===",
                   "% === encodings/solve.lp #program level(49) ==="):
        assert header in program


def test_strategy_file_is_written_and_never_overwritten(board_file, tmp_path):
    board = board_file(CORRIDOR)
    target = tmp_path / "strategy.json"
    first = run("solve", board, "--query", "win", "--strategy", target)
    assert first.exit_code == 0, first.output
    strategy = json.loads(target.read_text())
    assert strategy["holds"] is True and strategy["strategy"]
    target.write_text("my notes")
    again = run("solve", board, "--query", "win", "--strategy", target)
    assert again.exit_code == 2
    assert again.stderr == f"Error: --strategy {target}: the file exists. Choose another name, or add --force.\n"
    assert target.read_text() == "my notes"
    forced = run("solve", board, "--query", "win", "--strategy", target, "--force")
    assert forced.exit_code == 0 and json.loads(target.read_text())["holds"] is True


def test_strategy_needs_win_or_survive(board_file, tmp_path):
    assert_error(run("solve", board_file(CORRIDOR), "--strategy", tmp_path / "s.json"),
                 "--strategy needs --query win or --query survive")


@pytest.mark.slow
def test_a_query_past_the_time_limit_stops_with_exit_code_3_and_says_what_to_try():
    # one ghost shut in a room, the other alone against pacman: 36 M positions searched to the
    # step limit (about 6 s in C), where the start takes under a second
    result = run("solve", ROOT / "boards/pacman3p.yaml", "--at", "pacman=6,5", "--at", "blinky=2,2",
                 "--at", "inky=1,4", "--turn", "blinky", "--timeout", "1")
    assert result.exit_code == 3, result.output
    last = result.stderr.strip().splitlines()[-1]
    assert re.fullmatch(r"Error: the positions within 98 plies do not fit: [\d.]+ s \(limit 1 s\) after searching "
                        r"[\d,]+ positions\. Allow more time with --timeout \(now 1 s\), or ask with a smaller "
                        r"horizon, e\.g\. --horizon \d+, or ask --query survive \(it does not need the pellets\)\.",
                        last), last
    assert all(line.startswith("bounded search: ") for line in result.stderr.strip().splitlines()[:-1])


# - ask: many questions, one grounding ---

def _replies(output: str) -> list[dict]:
    return [json.loads(line) for line in output.splitlines()]


def test_ask_answers_each_question_line_as_solve_does(board_file, tmp_path):
    board = board_file(CORRIDOR)
    questions = tmp_path / "questions.jsonl"
    questions.write_text('# the corridor\n{"query": "win"}\n\n{"role": "mummy", "at": {"explorer": [3, 2]}}\n'
                         '{"role": "mummy", "at": ["explorer=3,2"], "turn": "mummy", "horizon": 1}\n')
    result = run("ask", board, questions)
    assert result.exit_code == 0, result.output
    replies = _replies(result.stdout)
    assert [r["question"] for r in replies] == [2, 4, 5]
    assert [r["stats"]["queries"] for r in replies] == [1, 2, 3]     # one grounding, rooted at all three
    cli = [json.loads(run("solve", board, *args, "--json").output) for args in
           (["--query", "win"], ["--role", "mummy", "--at", "explorer=3,2"],
            ["--role", "mummy", "--at", "explorer=3,2", "--turn", "mummy", "--horizon", "1"])]
    for reply, alone in zip(replies, cli):
        reply.pop("question"), reply.pop("stats"), alone.pop("stats")
        assert reply == alone
    assert replies[0]["holds"] is True and replies[0]["plies"] == 3


def test_ask_reads_standard_input_and_keeps_going_after_a_bad_question(board_file):
    board = board_file(CORRIDOR)
    result = CliRunner().invoke(main, ["ask", str(board)],
                                input='{"role": "mummy"}\n{"rol": "mummy"}\n[1]\n{"horizon": "5"}\n{"role": "explorer"}\n')
    assert result.exit_code == 2
    assert result.stderr == (f"Error: <stdin>:2: unknown key 'rol'. Did you mean 'role'?\n"
                             f"Error: <stdin>:3: not a JSON object. Write one object a line, "
                             'e.g. {"role": "mummy", "query": "win"}.\n'
                             f'Error: <stdin>:4: horizon: "5" is not a whole number\n')
    replies = _replies(result.stdout)
    assert [r["question"] for r in replies] == [1, 2, 3, 4, 5]
    assert replies[1] == {"question": 2, "error": "unknown key 'rol'. Did you mean 'role'?", "exit_code": 2}
    assert replies[0]["value"] == 0 and replies[4]["value"] == 100
    assert replies[4]["stats"]["queries"] == 2          # the second question of one grounding


@pytest.mark.slow
def test_ask_without_a_line(board_file):
    """``"line": false``: the same answer with ``line`` null, also for a layered question;
    anything but true or false is an error at its line."""
    board = board_file(CORRIDOR)
    result = CliRunner().invoke(main, ["ask", str(board)],
                                input='{"query": "win", "line": false}\n{"query": "win"}\n{"line": "no"}\n')
    assert result.exit_code == 2
    assert result.stderr == ('Error: <stdin>:3: line: "no" is not true or false. '
                             'Write "line": false to leave the principal line out.\n')
    quick, full, _ = _replies(result.stdout)
    assert quick["line"] is None and len(full["line"]) == 3
    for reply in (quick, full):
        reply.pop("question"), reply.pop("stats"), reply.pop("line")
    assert quick == full
    layered = CliRunner().invoke(main, ["ask", str(ROOT / "boards/wallmaze.yaml")],
                                 input='{"at": {"white": [11, 5], "black": [4, 8]}, "horizon": 3, "line": false}\n')
    assert layered.exit_code == 0, layered.output
    answer = _replies(layered.stdout)[0]
    assert answer["line"] is None and answer["value"] is not None


def test_the_difficulty_help_says_how_the_labels_are_given():
    """--difficulty's help names the careful greedy player and the thresholds difficulty_of uses."""
    from gridsolve.analysis.metrics import EASY, LOOKAHEAD, MEDIUM
    result = run("generate", "--help")
    assert result.exit_code == 0
    text = " ".join(result.output.split())
    start = text.index("--difficulty [easy|medium|hard]")
    helped = text[start:text.index("--no-defaults", start)]
    assert "careful greedy player" in helped and "random" not in helped
    assert f"easy if it wins at least {EASY:.0%} of the time seeing the danger {LOOKAHEAD['greedy_win']} ply" in helped
    assert f"medium if at least {MEDIUM:.0%} seeing {LOOKAHEAD['lookahead_win']} plies ahead" in helped


def test_ask_levels_answers_each_line_about_its_own_board(tmp_path):
    """``ask --levels``: each line holds its board (the file's text, or its keys as an object); the
    answers are those of ``solve --json`` on the same board files, whatever came before them."""
    texts = [random_classic_board(seed, big=True) for seed in range(6)]
    keys = {"rules": "mummy-maze-classic", "size": [4, 4], "pieces": {"explorer": [1, 1], "mummy": [4, 4]},
            "marks": {"exit": [[1, 4]]}}
    lines = [json.dumps({"board": text, "query": "win"}) for text in texts]
    lines += [json.dumps({"board": texts[0], "role": "explorer", "line": False}), json.dumps({"board": keys})]
    levels = tmp_path / "levels.jsonl"
    levels.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = run("ask", "--levels", levels)
    assert result.exit_code == 0, result.output
    replies = _replies(result.stdout)
    assert [r["question"] for r in replies] == list(range(1, 9))
    files = []
    for number, text in enumerate([*texts, texts[0], json.dumps(keys)], 1):
        files.append(tmp_path / f"board-{number}.yaml")
        files[-1].write_text(text, encoding="utf-8")
    alone = [json.loads(run("solve", path, "--json", *args).output) for path, args in
             zip(files, [["--query", "win"]] * 6 + [[], []])]
    alone[6]["line"] = None
    for reply, answer in zip(replies, alone):
        reply.pop("question"), reply.pop("stats"), reply.pop("board"), answer.pop("stats"), answer.pop("board")
        assert reply == answer
    assert any(r["win"] for r in replies[:6]) and not all(r["win"] for r in replies[:6])


def test_ask_levels_errors(tmp_path):
    """A line without its board, or with a board that is wrong, is an error at its line; BOARD and
    --levels together, or neither, are refused."""
    levels = tmp_path / "levels.jsonl"
    levels.write_text('{"query": "win"}\n{"board": "rules: nothing\\nsize: [3, 3]\\n"}\n'
                      '{"board": {"rules": "mummy-maze-classic", "size": [4, 4], "pieces": {"explorer": [1, 1]}, '
                      '"marks": {"exit": [[1, 4]]}}}\n', encoding="utf-8")
    result = run("ask", "--levels", levels)
    assert result.exit_code == 2
    errors = result.stderr.splitlines()
    assert errors[0] == (f'Error: {levels}:1: no "board" (the board file\'s text, or its keys as an object). '
                         'Write e.g. {"board": {"rules": "mummy-maze-classic", "size": [6, 6], ...}}.')
    assert errors[1].startswith(f"Error: {levels}:2: {tmp_path / 'levels#2'}:1: rules: no rule set named 'nothing'")
    assert len(errors) == 2 and _replies(result.stdout)[2]["holds"] is True
    assert_error(run("ask"), "give either BOARD or --levels FILE. Ask about one board file (BOARD), or about "
                             "the board in each line (--levels FILE).")
    assert run("ask", ROOT / "boards/mummymaze2p-2007.yaml", "--levels", levels).exit_code == 2
