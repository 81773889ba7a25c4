"""`solve --hidden`: the robust game against an independent explicit search (hidden_reference),
from the start and from random positions with random knowledge, on the rule book's board and
on small random boards; and the command line around it."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from gridsolve.cli import main
from gridsolve.language.loader import load_board
from gridsolve.language.position import Position, Query, initial_position, make_position
from gridsolve.solve.dispatch.dispatcher import solve

from reference.hidden import HiddenGame, allowed_cells, start_state

ROOT = Path(__file__).resolve().parent.parent
RULE_BOOK = ROOT / "boards" / "maze-runner-duel.yaml"
FIELDS = ("value", "plies", "win", "win_plies", "survives", "doom_plies")


def compare(board, role, position, horizon, layered=False):
    """The answer (the robust search; with ``layered``, the compiled robust game) and the
    reference agree on every field of the answer and of every move."""
    answer = solve(board, Query(role, "value", position, horizon, hidden=True), bounded=not layered)
    game = HiddenGame(board, role, worst=not layered)
    found = [c for _, c in sorted(position.found)]
    state = start_state(board, role, position, position.free, found)
    expected = game.answer(state, answer.remaining)
    got = {f: getattr(answer, f) for f in FIELDS}
    assert got == expected, (position, horizon)
    moves = {m.move: {"value": m.value, "plies": m.plies, "win": m.win, "survives": m.survives,
                      "doom_plies": m.doom_plies} for m in answer.moves}
    want = {m: {k: s[k] for k in ("value", "plies", "win", "survives", "doom_plies")}
            for m, s in game.move_answers(state, answer.remaining).items()}
    assert moves == want, (position, horizon)
    return answer


def random_position(board, rng: random.Random, role: str) -> Position:
    """A random position with random knowledge of ``role``: pieces apart, a side to move, lost
    turns, cells known free and obstacles found (as many as the mark allows)."""
    rules = board.rules
    cells = [(x, y) for x in range(1, board.width + 1) for y in range(1, board.height + 1)]
    center = board.marks["center"]
    spots = rng.sample([c for c in cells if c not in center], len(rules.roles))
    pieces = tuple(zip(rules.roles, spots))
    side = rng.randrange(len(rules.turns))
    lost = tuple(rng.choice([0, 0, 1]) if t != side else 0 for t in range(len(rules.turns)))
    (mark,) = rules.moves[role].bump_on
    allowed = sorted(allowed_cells(board, mark) - {dict(pieces)[role]})
    count = rules.placement[mark].count
    found = rng.sample(allowed, rng.randint(0, min(count, len(allowed))))
    rest = [c for c in allowed if c not in found]
    free = rng.sample(rest, rng.randint(0, len(rest) // 2))
    return Position(pieces, side, rules.first_step + side, lost=lost, free=frozenset(free),
                    found=frozenset((mark, c) for c in found))


def small_board(make_board, rng: random.Random, seed: int):
    """A random 3x3 to 4x4 board under the rule book's rules with fewer obstacles and plies."""
    width, height = rng.choice([(3, 3), (4, 3), (4, 4)])
    cells = [(x, y) for x in range(1, width + 1) for y in range(1, height + 1)]
    center, p1, p2 = rng.sample(cells, 3)
    north = [[x, y] for x in range(1, width + 1) for y in range(1, height) if rng.random() < 0.15]
    count = rng.choice([1, 2])
    return make_board(f"""
        rules:
          use: maze-runner-duel
          steps: {{first: 1, last: {rng.choice([9, 11, 13])}}}
          placement:
            p1_obstacle: {{by: p1, count: {count}, not_on: [p1, p2, center]}}
            p2_obstacle: {{by: p2, count: {count}, not_on: [p1, p2, center]}}
        size: [{width}, {height}]
        walls: {{north: {north}}}
        pieces: {{p1: {list(p1)}, p2: {list(p2)}}}
        marks:
          center: [{list(center)}]
          p1_obstacle: {{unplaced: {count}}}
          p2_obstacle: {{unplaced: {count}}}
        """, f"small-{seed}.yaml")


@pytest.fixture(scope="module")
def rule_book():
    return load_board(RULE_BOOK)


@pytest.mark.parametrize("role", ["p1", pytest.param("p2", marks=pytest.mark.slow)])
@pytest.mark.slow
def test_rule_book_start_agrees_with_the_reference_at_forty_plies(rule_book, role):
    answer = compare(rule_book, role, initial_position(rule_book), None)
    assert answer.hidden and answer.remaining == 40 and answer.value == 0
    assert answer.stats.solver == "robust search"


@pytest.mark.parametrize("role", ["p1", "p2"])
@pytest.mark.slow
def test_compiled_robust_game_agrees_with_the_reference(rule_book, role):
    """The layered solver's robust game (the path of games the robust search does not take)."""
    answer = compare(rule_book, role, initial_position(rule_book), 6, layered=True)
    assert answer.value == 0 and answer.stats.solver != "robust search"


@pytest.mark.slow
def test_rule_book_random_knowledge_agrees_with_the_reference(rule_book):
    rng = random.Random(14)
    for _ in range(3):
        role = rng.choice(["p1", "p2"])
        compare(rule_book, role, random_position(rule_book, rng, role), rng.choice([8, 10, 12]))


@pytest.mark.slow
def test_small_boards_agree_with_the_reference(make_board):
    for seed in range(2):
        rng = random.Random(seed)
        board = small_board(make_board, rng, seed)
        role = rng.choice(["p1", "p2"])
        compare(board, role, initial_position(board), None)
        compare(board, role, random_position(board, rng, role), None)
        compare(board, role, random_position(board, rng, role), None, layered=True)


@pytest.mark.slow
def test_rule_book_random_knowledge_at_forty_plies_agrees_with_the_reference(rule_book):
    rng = random.Random(1)
    for _ in range(3):
        role = rng.choice(["p1", "p2"])
        position = random_position(rule_book, rng, role)
        assert compare(rule_book, role, position, None).remaining == rule_book.rules.last_step - position.step


@pytest.mark.slow
@pytest.mark.parametrize("role", ["p1", "p2"])
def test_compiled_robust_game_at_eight_plies_agrees_with_the_reference(rule_book, role):
    compare(rule_book, role, initial_position(rule_book), 8, layered=True)


@pytest.mark.slow
def test_rule_book_many_random_positions_agree_with_the_reference(rule_book):
    rng = random.Random(3)
    for _ in range(25):
        role = rng.choice(["p1", "p2"])
        compare(rule_book, role, random_position(rule_book, rng, role), rng.choice([4, 5, 6, 7]),
                layered=rng.random() < 0.3)


@pytest.mark.slow
def test_many_small_boards_agree_with_the_reference(make_board):
    for seed in range(3, 18):
        rng = random.Random(seed)
        board = small_board(make_board, rng, seed)
        role = rng.choice(["p1", "p2"])
        compare(board, role, initial_position(board), None)
        for _ in range(3):
            compare(board, role, random_position(board, rng, role), None)


# - The whole game: exact at the step limit ---

def test_from_the_start_the_answer_is_exact_for_all_forty_plies(rule_book):
    answer = solve(rule_book, Query("p1", "value", initial_position(rule_book), hidden=True))
    assert answer.remaining == 40
    # 0 is also the step limit's score from here (the others could wall p1 in): they force it
    assert (answer.value, answer.plies, answer.survives, answer.doom_plies) == (0, 6, False, 6)
    assert answer.line[0].side == ("p1",) and answer.line[0].move.endswith(")")   # the others' answer


def test_one_step_from_the_center_wins_in_one_ply(rule_book):
    """The issue's case: player 1 next to the center steps in, whatever is hidden."""
    position = make_position(rule_book, ("p1=3,4", "p2=5,1"), "p1")
    answer = solve(rule_book, Query("p1", "value", position, hidden=True))
    assert (answer.value, answer.plies, answer.win, answer.win_plies) == (100, 1, True, 1)
    assert answer.line[0].move == "south (free)"


def test_win_question_is_settled_by_the_value(rule_book):
    answer = solve(rule_book, Query("p1", "win", initial_position(rule_book), hidden=True))
    assert answer.holds is False and answer.value == 0


# - Command line ---

def run(*args):
    return CliRunner().invoke(main, [*map(str, args)])


def test_cli_json_says_hidden_and_knowledge():
    result = run("solve", RULE_BOOK, "--hidden", "--role", "p1", "--at", "p1=3,5", "--free", "2,5",
                 "--found", "3,4", "--turn", "p1", "--horizon", "4", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["hidden"] is True
    assert data["position"]["known_free"] == [[2, 5]] and data["position"]["found"] == [["p2_obstacle", [3, 4]]]
    assert {m["move"] for m in data["moves"]} == {"east", "south", "west"}


@pytest.mark.parametrize("args, message", [
    (["--free", "2,5"], "Error: --free and --found state what the role knows: they need --hidden\n"),
    (["--hidden", "--found", "3,3"], "Error: --found 3,3: the rules allow no p2_obstacle on (3,3)\n"),
    (["--hidden", "--found", "9,9"], "Error: --found 9,9: (9,9) is not a free cell of the 5x5 board\n"),
    (["--hidden", "--found", "p2_obstacle=9,9"],
     "Error: --found p2_obstacle=9,9: (9,9) is not a free cell of the 5x5 board\n"),
    (["--hidden", "--free", "2;5"], "Error: --free 2;5: '2;5' is not a cell. Write X,Y, e.g. 3,4.\n"),
    (["--hidden", "--found", "2,2", "--found", "2,3", "--found", "2,4", "--found", "4,4"],
     "Error: --found: 4 obstacles of p2_obstacle, but it has only 3\n"),
])
def test_cli_bad_knowledge(args, message):
    result = run("solve", RULE_BOOK, *args)
    assert result.exit_code == 2 and result.stderr == message


def test_cli_hidden_needs_hidden_marks():
    result = run("solve", ROOT / "boards" / "mummymaze2p-2007.yaml", "--hidden")
    assert result.exit_code == 2
    assert "--hidden: explorer sees every mark" in result.stderr


def test_unplaced_board_needs_hidden(board_file):
    text = RULE_BOOK.read_text().replace("p2_obstacle: [[2, 4], [4, 3], [2, 2]]", "p2_obstacle: {unplaced: 3}")
    path = board_file(text)
    result = run("solve", path)
    assert result.exit_code == 2 and "leaves p2_obstacle unplaced" in result.stderr
    result = run("solve", path, "--hidden", "--horizon", "4", "--json")
    assert result.exit_code == 0 and json.loads(result.stdout)["hidden"] is True


@pytest.mark.parametrize("replace, message", [
    ("p2_obstacle: [[2, 4], [4, 3], [3, 3]]", ":26: marks.p2_obstacle: (3,3) is a cell the rules forbid for it"),
    ("p2_obstacle: {unplaced: 30}", ":26: marks.p2_obstacle: 30 cells to place, but the rules allow only 22"),
    ("p2_obstacle: {unplaced: two}", ":26: marks.p2_obstacle.unplaced: expected"),
])
def test_bad_placement_in_the_board_file(board_file, replace, message):
    path = board_file(RULE_BOOK.read_text().replace("p2_obstacle: [[2, 4], [4, 3], [2, 2]]", replace))
    result = run("solve", path)
    assert result.exit_code == 2 and message in result.stderr, result.stderr


def test_readable_answer_draws_only_what_the_role_knows():
    result = run("solve", RULE_BOOK, "--hidden", "--role", "p2", "--at", "p2=5,2", "--found", "4,2",
                 "--free", "4,1", "--horizon", "2")
    assert result.exit_code == 0, result.output
    rows = [line for line in result.stdout.splitlines() if "|" in line]
    assert rows[2] == " 3 |         C   p     |"               # p1's obstacles on the board are not drawn
    assert rows[3] == " 2 |     p       P   2 |"               # the one p2 found is
    assert "robust answer (--hidden): p2 does not see p1_obstacle (not drawn)" in result.stdout
    assert "It knows: free (4,1); found (4,2)." in result.stdout


def test_verify_checks_hidden_expectations(board_file):
    result = run("verify", ROOT / "boards" / "maze-runner-duel-secret.yaml")
    assert result.exit_code == 0, result.output
    assert "p1 value hidden" in result.stdout and "p2 plies hidden" in result.stdout
    text = (ROOT / "boards" / "maze-runner-duel-secret.yaml").read_text().replace("hidden: true\n    value: 0\n    plies: 6\n    survive",
                                                                                  "value: 0\n    plies: 6\n    survive", 1)
    result = run("verify", board_file(text))
    assert result.exit_code == 2 and "the board leaves p1_obstacle, p2_obstacle unplaced. Add hidden: true" in result.stderr


def test_ask_takes_hidden_questions():
    questions = ('{"role": "p1", "hidden": true, "horizon": 4, "at": {"p1": [3, 5]}, "free": [[2, 5]], '
                 '"found": [[3, 4]]}\n{"hidden": "yes"}\n')
    result = CliRunner().invoke(main, ["ask", str(RULE_BOOK)], input=questions)
    first, second = [json.loads(line) for line in result.stdout.splitlines()]
    assert first["hidden"] is True and first["position"]["found"] == [["p2_obstacle", [3, 4]]]
    assert second["error"] == 'hidden: "yes" is not true or false' and result.exit_code == 2
