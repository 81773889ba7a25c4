"""Pictures and explanations: gridsolve/svg.py, gridsolve/explain/explanation.py and walls.py.

The critical walls of the shared game graph (each wall's moves patched in, the races ranked
by the one ranker) are cross-checked against solving each toggled board from scratch with clingo, on
random boards with every rule option and mechanism; the refutation is pinned on a hand-checked
corridor; every seed board renders to SVG that parses, with its walls, pieces and principal line.
"""
from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner

from gridsolve.cli import main
from gridsolve.language.loader import load_board
from gridsolve.language.position import initial_position, make_query
from gridsolve.explain.explanation import critical_walls, explain, wall_outcomes
from gridsolve.solve.dispatch.dispatcher import solve
from gridsolve.solve.common.capabilities import WALL_GRAPH, serves
from gridsolve.errors import LimitError
from gridsolve.explain.walls import Wall, WallGraph, interior_walls, outcomes, solve_outcome, solve_variant, toggled
from gridsolve.svg import board_svg

from reference import game as reference
from conftest import CORRIDOR, ROOT
from randomboards import random_board, random_mechanism_board
from test_differential import _load, mechanism_queries, plain_queries

SVG = "{http://www.w3.org/2000/svg}"
SEEDS = ["mummymaze2p-2007", "mummymaze2p", "wallmaze", "pacman3p", "maze-runner-duel"]
HORIZON = {"wallmaze": 4, "pacman3p": 4, "maze-runner-duel": 6}     # small enough to solve in a second


# - Walls and variants ---

def test_interior_walls_and_toggling(make_board):
    board = make_board(CORRIDOR)
    walls = interior_walls(board)
    assert len(walls) == 3 * 2 + 4          # 4x2: 3 east edges per row, 4 north edges
    middle = Wall((2, 1), "north")
    assert middle.present(board) and middle.describe() == "the wall north of (2,1)"
    assert not toggled(board, middle).north & {(2, 1)} and (2, 1) in board.north
    assert (1, 1) in toggled(board, Wall((1, 1), "north")).north
    assert Wall((3, 2), "east").as_dict() == {"cell": [3, 2], "side": "east"}


def test_corridor_critical_walls_by_hand(make_board):
    """The explorer on (2,2) escapes east in 3 plies.  A wall east of (2,2) or (3,2) blocks the
    only way (the mummy then catches it); no other single wall matters."""
    board = make_board(CORRIDOR)
    query = make_query(board, kind="win")
    found, tried, method = critical_walls(board, query)
    assert (tried, method) == (10, "graph")
    by_wall = {(c.wall.cell, c.wall.side): c for c in found}
    assert by_wall[((2, 2), "east")].change == "add"
    assert by_wall[((2, 2), "east")].outcome.win is False
    assert by_wall[((3, 2), "east")].outcome.win is False
    assert set(by_wall) == {((2, 2), "east"), ((3, 2), "east")}
    for c in found:
        assert solve_variant(board, query, c.wall) == c.outcome


def _cross_check(board, query) -> list[str]:
    """The graph's answers against solving the board, and each toggled board, from scratch."""
    base, outcomes, method = wall_outcomes(board, query, "graph")
    problems = [] if base == solve_outcome(board, query) else [f"board itself: graph {base}"]
    for wall, outcome in outcomes:
        direct = solve_variant(board, query, wall)
        if direct != outcome:
            problems.append(f"{wall.describe()}: graph {outcome}, solve {direct}")
    return problems


@pytest.mark.parametrize("seed", [1, *(pytest.param(s, marks=pytest.mark.slow) for s in (2, 3))])
@pytest.mark.slow
def test_graph_matches_solving_each_variant(seed, tmp_path):
    rb = random_board(seed)
    board = _load(tmp_path, rb.text)
    checked = 0
    for label, query in plain_queries(seed, rb, board)[:2]:
        if serves(WALL_GRAPH, board, query):
            assert _cross_check(board, query) == [], label
            checked += 1
    assert checked


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(4, 16))
def test_graph_matches_solving_each_variant_more(seed, tmp_path):
    rb = random_board(seed)
    board = _load(tmp_path, rb.text)
    for label, query in plain_queries(seed, rb, board)[:3]:
        if serves(WALL_GRAPH, board, query):
            assert _cross_check(board, query) == [], label


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(16))
def test_graph_matches_solving_each_variant_mechanisms(seed, tmp_path):
    """Bumps and lost turns, frozen pieces, collisions, teams, collectibles (survive questions)."""
    rb = random_mechanism_board(seed)
    board = _load(tmp_path, rb.text)
    for label, query in mechanism_queries(seed, rb, board)[:3]:
        if serves(WALL_GRAPH, board, query):
            assert _cross_check(board, query) == [], label


def test_solve_method_gives_the_graph_answers(make_board):
    board = make_board(CORRIDOR)
    query = make_query(board, at=("explorer=1,2",))
    graph = critical_walls(board, query, "graph")
    direct = critical_walls(board, query, "solve")
    assert [(c.wall, c.change, c.outcome) for c in graph[0]] == [(c.wall, c.change, c.outcome) for c in direct[0]]
    assert direct[2] == "solve"


def test_workers_of_the_one_pool_give_the_same_outcomes(make_board):
    board = make_board(CORRIDOR)
    query = make_query(board, at=("explorer=1,2",))
    graph = WallGraph(board, query)
    walls = interior_walls(board)
    assert len(walls) > 2
    assert outcomes(graph, walls, jobs=2) == outcomes(graph, walls, jobs=1)


def test_an_error_in_a_worker_is_raised_again_as_it_was(make_board, monkeypatch):
    board = make_board(CORRIDOR)
    query = make_query(board, at=("explorer=1,2",))
    graph = WallGraph(board, query)
    walls = interior_walls(board)

    def stopped(self, wall=None):
        raise LimitError("memory limit of 1 MB reached")

    monkeypatch.setattr(WallGraph, "outcome_for", stopped)      # forked workers inherit it
    with pytest.raises(LimitError, match="memory limit of 1 MB reached"):
        outcomes(graph, walls, jobs=2)


# - Refutation ---

def test_refutation_on_the_corridor(make_board):
    """The explorer on (1,2) with the mummy on (2,1), mummy to move: the mummy steps up to
    (2,2)... whatever the explorer then does, the line that answers it is listed."""
    board = make_board(CORRIDOR)
    query = make_query(board, at=("explorer=1,2", "mummy=1,1"), kind="win")
    result = explain(board, query, walls=False)
    assert result.answer.win is False
    moves = {r.move for r in result.refutation}
    assert moves <= {"east", "south", "nowhere"} and "east" in moves
    for r in result.refutation:
        assert r.outcome.win is False
        assert all(p.index >= 1 + len(result.refutation_after) for p in r.line)
        if r.line:
            assert r.line[0].side == ("mummy",)


def test_no_refutation_when_the_role_wins(make_board):
    board = make_board(CORRIDOR)
    result = explain(board, make_query(board), walls=False)
    assert result.answer.win and result.refutation is None
    assert result.as_dict()["refutation"] is None


def test_refutation_when_the_others_move_first():
    board = load_board(ROOT / "boards" / "mummymaze2p-2007.yaml")
    query = make_query(board, turn="mummy")
    result = explain(board, query, walls=False)
    assert [p.side for p in result.refutation_after] == [("mummy",)]
    assert result.refutation and all(r.line and r.line[0].index == 2 for r in result.refutation)


# - Pictures ---

def _parse(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == f"{SVG}svg"
    return root


@pytest.mark.parametrize("name", SEEDS)
def test_every_seed_board_renders(name):
    board = load_board(ROOT / "boards" / f"{name}.yaml")
    position = initial_position(board)
    root = _parse(board_svg(board, position))
    walls = [e for e in root.iter(f"{SVG}line")]
    assert len(walls) == len(board.north) + len(board.east)
    texts = [e.text for e in root.iter(f"{SVG}text")]
    assert board.name in root.find(f"{SVG}title").text
    assert len([e for e in root.iter(f"{SVG}circle")]) == len(board.rules.roles)
    assert all(str(x) in texts for x in range(1, board.width + 1))


@pytest.mark.parametrize("name", SEEDS)
def test_every_seed_board_renders_its_principal_line(name):
    board = load_board(ROOT / "boards" / f"{name}.yaml")
    query = make_query(board, horizon=HORIZON.get(name))
    answer = solve(board, query)
    root = _parse(board_svg(board, query.position, answer))
    assert root.find(f"{SVG}title").text == f"{board.name}: {documented_value_line(answer)}"
    labels = [g.find(f"{SVG}title").text for g in root.iter(f"{SVG}g") if g.find(f"{SVG}title") is not None]
    numbered = [int(n) for label in labels for n in label.split(":")[0].split(" ", 1)[1].split(", ")]
    movers = sum(len(p.side) for p in answer.line)
    assert len(numbered) == movers and labels[0].startswith(("ply 1: ", "plies 1, "))
    assert sorted(set(numbered)) == list(range(1, len(answer.line) + 1))


def documented_value_line(answer) -> str:
    """The answer line of a value question as the README writes it ("value for explorer: 0
    within 49 plies, the game ends in 20 plies"; "nothing better or worse can be forced" where
    the plies are null), filled in from the answer's fields; the picture's title is the board's
    name and this line."""
    assert answer.query == "value"
    tail = (f"the game ends in {answer.plies} plies" if answer.plies is not None
            else "nothing better or worse can be forced")
    return f"value for {answer.role}: {answer.value} within {answer.remaining} plies, {tail}"


def test_line_ends_where_the_rules_put_the_pieces():
    board = load_board(ROOT / "boards" / "mummymaze2p-2007.yaml")
    query = make_query(board)
    answer = solve(board, query)
    last = answer.line[-1].after
    assert last.cell("explorer") == last.cell("mummy")          # captured in 20 plies


# - Command line ---

@pytest.mark.slow
def test_cli_explain_json(tmp_path):
    path = tmp_path / "corridor.yaml"
    path.write_text(CORRIDOR, encoding="utf-8")
    result = CliRunner().invoke(main, ["explain", str(path), "--at", "explorer=1,2", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert {"value", "plies", "line", "moves", "refutation", "critical_walls"} <= set(data)
    assert data["stats"]["walls_tried"] == 10 and data["stats"]["walls_method"] == "graph"
    # explorer (1,2) right above the mummy (1,1), to move: whatever it does the mummy catches it
    assert (data["value"], data["plies"]) == (0, 2)
    assert data["critical_walls"] == reference_critical_walls(tmp_path, {"explorer": [1, 2], "mummy": [1, 1]})
    assert data["critical_walls"], "the wall between the two pieces changes the answer"


def reference_critical_walls(tmp_path, pieces: dict) -> list[dict]:
    """The critical walls of the corridor (its 10 interior edges, each removed where there is a
    wall, added where there is none) as reference/game.py answers each toggled board: the edges
    whose value or plies differ from the board's own, in the order explain lists them (north
    edges, then east edges, by cell)."""
    north, east = {(2, 1), (3, 1)}, set()

    def answer(north, east) -> dict:
        text = (f"rules: mummy-maze-2007\nsize: [4, 2]\nwalls: {{north: {[list(c) for c in sorted(north)]}, "
                f"east: {[list(c) for c in sorted(east)]}}}\npieces: {json.dumps(pieces)}\n"
                f"marks: {{exit: [[4, 2]]}}\n")
        board = _load(tmp_path, text, "toggled.yaml")
        return reference.reference_answer(board, "explorer", "value", initial_position(board))
    base = answer(north, east)
    out = []
    edges = [("north", (x, 1)) for x in range(1, 5)] + [("east", (x, y)) for x in range(1, 4) for y in (1, 2)]
    for side, cell in sorted(edges, key=lambda e: (e[0] != "north", e[1])):
        walls = {"north": set(north), "east": set(east)}
        change = "remove" if cell in walls[side] else "add"
        walls[side] ^= {cell}
        got = answer(walls["north"], walls["east"])
        if (got["value"], got["plies"]) != (base["value"], base["plies"]):
            out.append({"wall": {"cell": list(cell), "side": side}, "change": change, "value": got["value"],
                        "plies": got["plies"], "win": got["win"]})
    return out


def test_cli_explain_text(tmp_path):
    path = tmp_path / "corridor.yaml"
    path.write_text(CORRIDOR, encoding="utf-8")
    result = CliRunner().invoke(main, ["explain", str(path)])
    assert result.exit_code == 0, result.output
    assert "critical walls (10 interior edges tried" in result.output
    # walled in on (2,2), the explorer is caught at once (the mummy: north, east); walled in on
    # (3,2) after its step east, two plies later (the mummy: north east to (2,2), then east)
    assert "2 change the answer; now: explorer forces a win in 3 plies, value 100)" in result.output
    assert "add the wall east of (2,2): value 0, forced in 2 plies" in result.output
    assert "add the wall east of (3,2): value 0, forced in 4 plies" in result.output


def test_cli_explain_with_no_plies_left_finds_no_critical_wall(tmp_path):
    """--horizon 0: the position is scored by the timeout (50), and no wall can change that."""
    path = tmp_path / "corridor.yaml"
    path.write_text(CORRIDOR, encoding="utf-8")
    result = CliRunner().invoke(main, ["explain", str(path), "--method", "graph", "--horizon", "0"])
    assert result.exit_code == 0, result.output
    assert "value for explorer: 50 within 0 plies, nothing better or worse can be forced" in result.output
    assert "critical walls (10 interior edges tried, 0 change the answer; now: value 50, nothing is forced):\n" \
        "  none: no single wall removed or added changes the answer" in result.output


@pytest.mark.parametrize("args, message", [
    (["--role", "ghost"], "Error: --role ghost: unknown role"),
    (["--at", "explorer=9,9"], "is not a free cell"),
])
def test_cli_explain_errors(tmp_path, args, message):
    path = tmp_path / "corridor.yaml"
    path.write_text(CORRIDOR, encoding="utf-8")
    result = CliRunner().invoke(main, ["explain", str(path), *args])
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output


@pytest.mark.slow
def test_cli_explain_graph_method_refused_for_layered_games():
    result = CliRunner().invoke(main, ["explain", str(ROOT / "boards" / "wallmaze.yaml"), "--method", "graph",
                                       "--horizon", "2"])
    assert result.exit_code == 2
    assert "Error: --method graph:" in result.output and "--method solve" in result.output


def test_cli_svg_files(tmp_path):
    path = tmp_path / "corridor.yaml"
    path.write_text(CORRIDOR, encoding="utf-8")
    picture = tmp_path / "c.svg"
    runner = CliRunner()
    result = runner.invoke(main, ["solve", str(path), "--svg", str(picture)])
    assert result.exit_code == 0 and "value for explorer" in result.output
    _parse(picture.read_text(encoding="utf-8"))
    again = runner.invoke(main, ["solve", str(path), "--svg", str(picture)])
    assert again.exit_code == 2 and "the file exists" in again.output
    assert runner.invoke(main, ["solve", str(path), "--svg", str(picture), "--force"]).exit_code == 0
    shown = runner.invoke(main, ["show", str(path), "--svg", "-"])
    assert shown.exit_code == 0
    _parse(shown.output)
    both = runner.invoke(main, ["solve", str(path), "--svg", "-", "--json"])
    assert both.exit_code == 2 and "Error: --svg - and --json" in both.output
    nowhere = runner.invoke(main, ["show", str(path), "--svg", str(tmp_path / "missing" / "c.svg")])
    assert nowhere.exit_code == 2 and "cannot write the picture" in nowhere.output
    assert "Traceback" not in nowhere.output


def test_cli_verify_explain_names_the_restoring_walls(tmp_path):
    """The corridor with the explorer walled in: the expectation of an escape fails, and the
    one wall change that restores it is named."""
    text = CORRIDOR.replace("|     E       X |", "|     E     | X |") + \
        "expect:\n  - win: true\n"
    path = tmp_path / "walled.yaml"
    path.write_text(text, encoding="utf-8")
    plain = CliRunner().invoke(main, ["verify", str(path)])
    assert plain.exit_code == 1 and "restored by" not in plain.output
    result = CliRunner().invoke(main, ["verify", str(path), "--explain"])
    assert result.exit_code == 1
    assert "restored by: remove the wall east of (3,2)" in result.output


def test_cli_generate_svg_writes_a_picture_beside_each_board(tmp_path):
    runner = CliRunner()
    argv = ["generate", "--rules", "mummy-maze-2007", "--size", "3x3", "--plies", "3..5", "--allow-trivial",
            "--count", "2", "--out", str(tmp_path), "--svg"]
    result = runner.invoke(main, argv)
    assert result.exit_code == 0, result.output
    boards = sorted(tmp_path.glob("*.yaml"))
    assert len(boards) == 2
    for board in boards:
        picture = board.with_suffix(".svg")
        assert f"picture: {picture}" in result.output
        root = _parse(picture.read_text(encoding="utf-8"))
        assert "explorer" in root.find(f"{SVG}title").text
        assert [g for g in root.iter(f"{SVG}g") if g.get("id") == "principal-line"]


def test_readme_picture_is_the_2007_seed():
    """docs/mummymaze2p-2007.svg, shown in the README, is what `solve --svg` draws for the seed."""
    board = load_board(ROOT / "boards" / "mummymaze2p-2007.yaml")
    answer = solve(board, make_query(board))
    root = _parse((ROOT / "docs" / "mummymaze2p-2007.svg").read_text(encoding="utf-8"))
    # the README's explain example states the answer: the mummy catches the explorer in 20 plies
    stated = "value for explorer: 0 within 49 plies, the game ends in 20 plies"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert stated in readme and "docs/mummymaze2p-2007.svg" in readme
    assert (answer.value, answer.remaining, answer.plies) == (0, 49, 20)
    assert root.find(f"{SVG}title").text == f"{board.name}: {stated}"
