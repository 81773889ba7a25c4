"""The studio on classic Mummy Maze boards (issue 31): the pieces moved by rule, traps, the key
and the gates are placed, added, removed and toggled; each edit's answer is the solver's and the
independent reference's (reference/classic.py), with the principal line stepped (where
every enemy stands and the gate's state after each explorer move); saving writes the file in the
form it was read."""
from __future__ import annotations

import copy
import time
import shutil
import warnings
from pathlib import Path

import pytest
import yaml

with warnings.catch_warnings():    # starlette asks for httpx2; httpx does the same job here
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient  # noqa: E402

from reference import classic as reference
from gridsolve.language.loader import load_board
from gridsolve.language.position import make_query
from gridsolve.render import puzzle_verdict, verdict
from gridsolve.solve.dispatch.dispatcher import solve
from gridsolve.studio.level import apply_level, level_of
from gridsolve.studio.server import create_app

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "t0ken-for-tests"
HOST = "127.0.0.1:8123"
MAP_BOARD = "behind-the-gate.yaml"          # map form: a gate drawn ===, the key, one mummy
EXPLICIT_BOARD = "everything-at-once.yaml"   # explicit form: two mummies, a scorpion, traps, a gate


@pytest.fixture()
def folder(tmp_path):
    served = tmp_path / "levels"
    shutil.copytree(ROOT / "boards" / "classic", served)
    return served


@pytest.fixture()
def client(folder):
    client = TestClient(create_app(folder, TOKEN, {HOST}), base_url=f"http://{HOST}")
    client.cookies.set("gridsolve_studio", TOKEN)
    return client


def info_of(client, name: str) -> dict:
    response = client.get("/api/board", params={"board": name})
    assert response.status_code == 200
    return response.json()


def answer_of(client, name: str, level: dict, kind: str = "value") -> dict:
    response = client.post("/api/answer", json={"board": name, "level": level, "role": "explorer", "kind": kind})
    assert response.status_code == 200, response.text
    data = response.json()
    assert "answer" in data, "a classic board is answered in the request, not in a worker process"
    return data["answer"]


def explicit_text(rules: str, width: int, height: int, level: dict) -> str:
    """The level as a board in the explicit form, for the reference to read."""
    return yaml.safe_dump({"rules": rules, "size": [width, height], **level}, default_flow_style=True)


def reference_of(board, level: dict):
    return reference.parse_board(explicit_text(board.rules.name, board.width, board.height, level))


def check_against_solver_and_reference(got: dict, board, level: dict) -> None:
    """The studio's answer on ``level`` equals gridsolve solve's on the edited board, and the
    reference's win, shortest solution and (for a win) every position along the line."""
    edited = apply_level(board, level)
    expected = solve(edited, make_query(edited, "explorer", "value"))
    assert got["verdict"] == verdict(expected, True)
    assert got["puzzle"] == puzzle_verdict(edited, expected)
    assert got["win_moves"] == expected.win_moves
    assert [(m["move"], m["value"], m["plies"]) for m in got["moves"]] == \
        [(m.move, m.value, m.plies) for m in expected.moves]
    assert [p["move"] for p in got["line"]] == [p.move for p in expected.line]
    ref = reference_of(board, level)
    truth = reference.solve(ref)
    assert got["win"] == truth.win
    assert got["win_moves"] == truth.moves
    if truth.win:
        replayed = reference.play(ref, [p["move"] for p in got["line"]])
        assert replayed[-1][2] == "won"
        for ply, (_, state, _) in zip(got["line"], replayed):
            cells = {piece: None if getattr(state, piece) is None else list(getattr(state, piece))
                     for piece in ("explorer", "mummy", "mummy2", "scorpion") if piece in ply["after"]["pieces"]}
            assert ply["after"]["pieces"] == cells
            assert ply["after"]["gates"] == (("open" if state.gate_open else "closed") if ref.gates else None)
    else:
        assert got["puzzle"].startswith("cannot be won")
        assert ("forever" in got["puzzle"]) == (truth.why == "waits")


# - Opening a board ---

def test_a_classic_board_opens_with_every_piece_mark_and_gate(client):
    info = info_of(client, EXPLICIT_BOARD)
    level = info["level"]
    assert level["pieces"] == {"explorer": [4, 4], "mummy": [4, 1], "mummy2": [6, 1], "scorpion": [5, 2]}
    assert level["marks"] == {"exit": [[1, 7]], "key": [[5, 7]], "trap": [[6, 7], [7, 2]]}
    assert level["gates"] == {"north": [[6, 3]], "east": []}
    assert info["chasers"] == ["mummy", "mummy2", "scorpion"]
    assert info["optional_pieces"] == ["mummy", "mummy2", "scorpion"]
    assert info["optional_marks"] == ["trap", "key"]
    assert info["gates"] is True
    assert set(info["colours"]) == {"explorer", "mummy", "mummy2", "scorpion"}
    svg = info["svg"]
    assert 'id="gates"' in svg and "gate between (6,3) and (6,4): closed" in svg
    for piece in ("mummy", "mummy2", "scorpion"):
        assert f'id="arrow-{piece}"' in svg         # the line's arrows of the enemies have heads


def test_other_games_keep_their_level(client, tmp_path):
    board = load_board(ROOT / "boards" / "mummymaze2p-2007.yaml")
    assert set(level_of(board)) == {"walls", "pieces", "marks"}      # no gates for rules without a gate


# - Answers, live ---

@pytest.mark.parametrize("name", ["everything-at-once.yaml", "behind-the-gate.yaml", "no-way-out.yaml",
                                  "walled-in.yaml", "red-shift.yaml"])
def test_the_answer_is_the_solvers_and_the_references(client, folder, name):
    info = info_of(client, name)
    board = load_board(folder / name)
    got = answer_of(client, name, info["level"])
    check_against_solver_and_reference(got, board, info["level"])
    assert got["start"]["pieces"]["explorer"] == info["level"]["pieces"]["explorer"]


def test_the_answers_words(client):
    won = answer_of(client, EXPLICIT_BOARD, info_of(client, EXPLICIT_BOARD)["level"])
    assert won["verdict"] == "value for explorer: 100 with no step limit, the game ends in 14 plies"
    assert won["puzzle"].startswith("solved in 14 moves: north east ")
    lost = answer_of(client, "no-way-out.yaml", info_of(client, "no-way-out.yaml")["level"])
    assert lost["puzzle"] == "cannot be won: every line ends in a loss (explorer can hold out for at most 3 moves)"
    waits = answer_of(client, "walled-in.yaml", info_of(client, "walled-in.yaml")["level"])
    assert waits["puzzle"] == "cannot be won: explorer can survive forever, but only by never reaching the goal"


def test_the_line_steps_the_enemies_and_the_gate(client):
    """Everything at once: the scorpion dies on the first move, mummy 2 on the second, and the
    explorer opens the gate on the key at the fourth."""
    line = answer_of(client, EXPLICIT_BOARD, info_of(client, EXPLICIT_BOARD)["level"])["line"]
    first, second, fourth = line[0], line[1], line[3]
    assert first["after"] == {"pieces": {"explorer": [4, 5], "mummy": [4, 3], "mummy2": [5, 2], "scorpion": None},
                              "gates": "closed"}
    assert first["paths"] == {"explorer": [[4, 4], [4, 5]], "mummy": [[4, 1], [4, 3]], "mummy2": [[6, 1], [5, 2]]}
    assert second["after"]["pieces"]["mummy2"] is None
    assert fourth["after"]["pieces"]["explorer"] == [5, 7] and fourth["after"]["gates"] == "open"
    assert line[2]["after"]["gates"] == "closed"


def edits(level: dict) -> list[tuple[str, dict]]:
    """Edits of Everything at once, one of each kind the page makes."""
    out = []

    def edit(name, change):
        changed = copy.deepcopy(level)
        change(changed)
        out.append((name, changed))
    edit("gate removed", lambda lv: lv["gates"].update(north=[]))
    edit("gate moved to an east edge", lambda lv: lv.update(gates={"north": [], "east": [[4, 4]]}))
    edit("wall added", lambda lv: lv["walls"]["north"].append([4, 4]))
    edit("mummy moved", lambda lv: lv["pieces"].update(mummy=[8, 8]))
    edit("scorpion removed", lambda lv: lv["pieces"].pop("scorpion"))
    edit("mummy2 and scorpion removed", lambda lv: [lv["pieces"].pop(p) for p in ("mummy2", "scorpion")])
    edit("traps removed", lambda lv: lv["marks"].pop("trap"))
    edit("a trap added", lambda lv: lv["marks"]["trap"].append([4, 6]))
    edit("key moved", lambda lv: lv["marks"].update(key=[[3, 4]]))
    return out


@pytest.mark.parametrize("index", range(9))
def test_each_edit_is_answered_live(client, folder, index):
    info = info_of(client, EXPLICIT_BOARD)
    name, level = edits(info["level"])[index]
    got = answer_of(client, EXPLICIT_BOARD, level)
    check_against_solver_and_reference(got, load_board(folder / EXPLICIT_BOARD), level)


def test_pieces_and_marks_added_to_a_board_without_them(client, folder):
    info = info_of(client, "first-steps.yaml")
    level = copy.deepcopy(info["level"])
    assert set(level["pieces"]) == {"explorer", "mummy"} and "gates" in level
    level["pieces"].update(mummy2=[1, 1], scorpion=[6, 1])
    level["marks"].update(trap=[[2, 4]], key=[[4, 2]])
    level["gates"] = {"north": [[3, 5]], "east": [[5, 6]]}
    got = answer_of(client, "first-steps.yaml", level)
    check_against_solver_and_reference(got, load_board(folder / "first-steps.yaml"), level)
    svg = client.post("/api/answer", json={"board": "first-steps.yaml", "level": level}).json()["svg"]
    assert "gate between (5,6) and (6,6): closed" in svg


@pytest.mark.parametrize("change, words", [
    (lambda lv: lv["pieces"].pop("explorer"), "a cell for each piece"),
    (lambda lv: lv["pieces"].update(mummy2=[4, 1]), "starts on the cell of"),
    (lambda lv: lv["gates"]["north"].append([2, 2]), "both a wall and a gate"),
    (lambda lv: lv["gates"]["north"].append([6, 8]), "not an interior edge"),
    (lambda lv: lv["marks"].update(treasure=[[1, 1]]), "the cells of each mark"),
    (lambda lv: lv["marks"].pop("exit"), "the cells of each mark"),
    (lambda lv: lv["pieces"].update(ghost=[1, 1]), "a cell for each piece"),
])
def test_bad_classic_levels_get_clear_errors(client, change, words):
    level = copy.deepcopy(info_of(client, EXPLICIT_BOARD)["level"])
    change(level)
    response = client.post("/api/answer", json={"board": EXPLICIT_BOARD, "level": level})
    assert response.status_code == 400
    assert words in response.json()["error"] and "Traceback" not in response.text


def test_gates_on_rules_without_a_gate_are_refused(tmp_path):
    served = tmp_path / "levels"
    served.mkdir()
    shutil.copy(ROOT / "boards" / "mummymaze2p-2007.yaml", served / "m.yaml")
    client = TestClient(create_app(served, TOKEN, {HOST}), base_url=f"http://{HOST}")
    client.cookies.set("gridsolve_studio", TOKEN)
    level = client.get("/api/board", params={"board": "m.yaml"}).json()["level"]
    response = client.post("/api/answer", json={"board": "m.yaml", "level": {**level, "gates": {"north": [[1, 1]]}}})
    assert response.status_code == 400 and "have no gate" in response.json()["error"]


# - Saving, in the form the file was read ---

def save(client, name: str, level: dict) -> None:
    response = client.post("/api/save", json={"board": name, "version": info_of(client, name)["version"],
                                              "level": level})
    assert response.status_code == 200, response.text


def kept_lines(before: str, after: str) -> None:
    for line in before.splitlines():
        if line.lstrip().startswith("#") or "win" in line or line.startswith(("name:", "rules:", "expect:")):
            assert line in after


def test_save_a_map_board_draws_the_gates_and_extends_the_legend(client, folder):
    path = folder / MAP_BOARD
    before = path.read_text()
    level = copy.deepcopy(info_of(client, MAP_BOARD)["level"])
    level["gates"] = {"north": [[2, 4]], "east": [[6, 2]]}      # the === gate moved, a ":" gate added
    level["pieces"]["scorpion"] = [8, 8]                         # a piece the legend has no letter for
    level["marks"]["trap"] = [[4, 2]]
    level["pieces"]["mummy"] = [5, 5]
    save(client, MAP_BOARD, level)
    after = path.read_text()
    kept_lines(before, after)
    assert "legend: {E: explorer, M: mummy, X: exit, K: key, S: scorpion, T: trap}" in after
    assert "+===+" in after and ":" in after.split("map:")[1].split("expect:")[0]
    assert "gates:" not in after and "pieces:" not in after
    assert level_of(load_board(path)) == level
    level["pieces"].pop("scorpion")
    level["gates"] = {"north": [], "east": []}
    save(client, MAP_BOARD, level)
    again = path.read_text()
    assert "===" not in again and level_of(load_board(path)) == level


def test_save_an_explicit_board_writes_gates_and_drops_entries(client, folder):
    path = folder / EXPLICIT_BOARD
    before = path.read_text()
    level = copy.deepcopy(info_of(client, EXPLICIT_BOARD)["level"])
    level["pieces"].pop("mummy2")
    level["marks"].pop("trap")
    level["gates"] = {"north": [], "east": [[4, 4]]}
    save(client, EXPLICIT_BOARD, level)
    after = path.read_text()
    kept_lines(before, after)
    assert "pieces: {explorer: [4, 4], mummy: [4, 1], scorpion: [5, 2]}" in after
    assert "marks: {exit: [[1, 7]], key: [[5, 7]]}" in after
    assert "gates: {east: [[4, 4]]}" in after and "map:" not in after
    assert level_of(load_board(path)) == level
    level["pieces"]["mummy2"] = [8, 8]
    level["marks"]["trap"] = [[2, 2]]
    save(client, EXPLICIT_BOARD, level)
    assert "pieces: {explorer: [4, 4], mummy: [4, 1], scorpion: [5, 2], mummy2: [8, 8]}" in path.read_text()
    assert level_of(load_board(path)) == level


def test_save_keeps_a_comment_on_the_gates_line(client, folder):
    path = folder / "no-way-out.yaml"
    level = copy.deepcopy(info_of(client, "no-way-out.yaml")["level"])
    level["gates"]["north"] = [[4, 2]]
    level["pieces"].pop("scorpion")
    save(client, "no-way-out.yaml", level)
    text = path.read_text()
    assert "gates: {north: [[4, 2]]}          # the gate's edge, written like a wall; closed at the start" in text
    assert "pieces: {explorer: [1, 1], mummy: [6, 6], mummy2: [3, 4]}\n" in text
    assert level_of(load_board(path)) == level


# - Playtests ---

def settled(client, game: dict) -> dict:
    for _ in range(300):
        if game["state"] != "thinking":
            return game
        time.sleep(0.1)
        game = client.get(f"/api/play/{game['id']}").json()
    return game


def test_a_classic_playtest_reports_the_enemies_and_undoes(client):
    game = settled(client, client.post("/api/play", json={"board": EXPLICIT_BOARD, "as": ["explorer"]}).json())
    assert game["state"] == "waiting" and game["prompt"]["can_undo"] is False
    game = settled(client, client.post(f"/api/play/{game['id']}", json={"input": "north"}).json())
    text = "\n".join(game["transcript"])
    assert "mummy moves (4,1) -> (4,3)" in text and "scorpion leaves the board (from (5,2))" in text
    assert game["prompt"]["can_undo"] is True
    game = settled(client, client.post(f"/api/play/{game['id']}", json={"input": "undo"}).json())
    assert game["transcript"][-2] == "Available moves: east (5,4), north (4,5), nowhere (4,4), south (4,3), west (3,4)"
    assert game["prompt"]["can_undo"] is False


@pytest.mark.parametrize("kind", ["win", "survive"])
def test_the_other_questions_on_a_classic_board(client, folder, kind):
    info = info_of(client, "no-way-out.yaml")
    board = load_board(folder / "no-way-out.yaml")
    got = answer_of(client, "no-way-out.yaml", info["level"], kind)
    expected = solve(board, make_query(board, "explorer", kind))
    assert got["verdict"] == verdict(expected, True)
    assert got["holds"] is False
