"""The studio on boards whose enemies move in the level's order, with exit edges (issue 39, item
2e): the enemies listed (placed, moved, reordered, removed) and the exit moved onto another edge,
each edit answered as ``gridsolve solve`` answers the edited board, and saved so that the file
loads back to the level as edited, every other line kept."""
from __future__ import annotations

import copy
import shutil
from pathlib import Path

import pytest

from test_studio_api import wait
from test_studio_classic import client, info_of, settled  # noqa: F401  (the served folder's client, ...)
from gridsolve.language.enemylist import enemies_of
from gridsolve.language.loader import load_board
from gridsolve.language.position import make_query
from gridsolve.render import puzzle_verdict, verdict
from gridsolve.solve.dispatch.dispatcher import solve
from gridsolve.studio.level import apply_level, level_of

ROOT = Path(__file__).resolve().parent.parent

DRAWN = """\
# an exit drawn in the map's border
name: Drawn exit
rules: mummy-maze-order
legend: {E: explorer, X: exit}
map: |
  +---+---+---+---+
  | E             |
  +   +   +   +   +
  |       |       X
  +   +   +   +   +
  |               |
  +---+---+---+---+
enemies:
  - {kind: mummy, at: [1, 1]}    # the first to move
"""


@pytest.fixture()
def folder(tmp_path):
    served = tmp_path / "levels"
    shutil.copytree(ROOT / "boards" / "order", served)
    (served / "drawn.yaml").write_text(DRAWN, encoding="utf-8")
    return served


def answered_as_solve(client, name: str, folder: Path, level: dict) -> dict:
    """The studio's answer on ``level`` equals gridsolve solve's on the edited board."""
    response = client.post("/api/answer", json={"board": name, "level": level, "role": "explorer", "kind": "value"})
    assert response.status_code == 200, response.text
    got = response.json()["answer"]
    edited = apply_level(load_board(folder / name), level)
    expected = solve(edited, make_query(edited, "explorer", "value"))
    assert got["verdict"] == verdict(expected, True) and got["puzzle"] == puzzle_verdict(edited, expected)
    assert got["win_moves"] == expected.win_moves
    return got


def saved(client, name: str, info: dict, level: dict, folder: Path):
    response = client.post("/api/save", json={"board": name, "level": level, "version": info["version"]})
    assert response.status_code == 200, response.text
    board = load_board(folder / name)
    assert level_of(board) == level
    return board, (folder / name).read_text(encoding="utf-8")


def test_an_order_board_opens_with_its_enemies_in_order_and_its_exit_edge(client):
    info = info_of(client, "gatekeeper.yaml")
    assert info["enemy_kinds"] == ["mummy", "red_mummy", "scorpion", "red_scorpion"] and info["exit_edges"]
    level = info["level"]
    assert level["enemies"] == [{"kind": "mummy", "at": [6, 8]}, {"kind": "red_scorpion", "at": [2, 3]},
                                {"kind": "scorpion", "at": [5, 3]}]
    assert level["pieces"] == {"explorer": [4, 7]} and level["marks"]["exit"] == [[0, 5]]


def test_enemies_reordered_added_and_moved_are_answered_and_saved(client, folder):
    name = "gatekeeper.yaml"
    info = info_of(client, name)
    before = answered_as_solve(client, name, folder, info["level"])
    assert before["win_moves"] == 24
    level = copy.deepcopy(info["level"])
    level["enemies"].reverse()
    level["enemies"].append({"kind": "red_mummy", "at": [8, 1]})
    level["enemies"][0]["at"] = [5, 2]
    level["marks"]["exit"] = [[3, 0]]            # the south edge of column 3
    after = answered_as_solve(client, name, folder, level)
    assert after["verdict"] != before["verdict"]
    original = (folder / name).read_text(encoding="utf-8")
    board, text = saved(client, name, info, level, folder)
    assert board.exits == {((3, 1), "south")} and list(board.rules.chasers) == [
        "scorpion1", "red_scorpion2", "mummy3", "red_mummy4"]
    assert "  exit: {edge: south, at: 3}\n" in text
    assert "enemies:\n  - {kind: scorpion, at: [5, 2]}\n  - {kind: red_scorpion, at: [2, 3]}\n" in text
    assert text.split("map:")[0] == original.split("map:")[0]       # the comment, name and description kept
    assert text.split("expect:")[1] == original.split("expect:")[1]


def test_an_exit_drawn_in_the_border_is_redrawn_there(client, folder):
    name = "drawn.yaml"
    info = info_of(client, name)
    assert info["level"]["marks"] == {"exit": [[5, 2]]}
    level = copy.deepcopy(info["level"])
    level["marks"]["exit"] = [[2, 4]]            # the north edge of column 2
    level["enemies"] = []                        # the only enemy removed
    answered_as_solve(client, name, folder, level)
    board, text = saved(client, name, info, level, folder)
    assert board.exits == {((2, 3), "north")} and not board.rules.chasers
    assert "     +---+ X +---+---+\n" in text and "enemies:\n  []" in text
    assert text.startswith("# an exit drawn in the map's border\n")


def test_bad_enemies_and_edges_are_refused_with_a_reason(client):
    info = info_of(client, "crossing.yaml")
    for change, says in ((lambda lv: lv["enemies"].append({"kind": "sphinx", "at": [1, 1]}), "unknown kind 'sphinx'"),
                         (lambda lv: lv["enemies"].append({"kind": "mummy", "at": [1, 2]}),
                          "starts on the cell of"),
                         (lambda lv: lv["marks"].__setitem__("exit", [[0, 0]]), "not a free cell"),
                         (lambda lv: lv.__setitem__("enemies", {"kind": "mummy"}), "a list of enemies")):
        level = copy.deepcopy(info["level"])
        change(level)
        response = client.post("/api/answer", json={"board": "crossing.yaml", "level": level, "role": "explorer"})
        assert response.status_code == 400 and says in response.json()["error"], response.text


@pytest.mark.slow
def test_verify_play_and_generate_take_the_edited_enemies(client, folder):
    name = "scorpion-nest.yaml"       # (listed the other way round, the scorpions let him out in 14)
    info = info_of(client, name)
    level = copy.deepcopy(info["level"])
    level["enemies"].reverse()
    edited = apply_level(load_board(folder / name), level)
    moves = solve(edited, make_query(edited, "explorer", "value")).win_moves
    checked = wait(client, client.post("/api/jobs", json={"job": "verify", "board": name, "level": level}).json())
    assert checked["state"] == "done", checked
    assert "win_moves" in str(checked["result"]) and str(moves) in str(checked["result"])
    assert checked["result"] != wait(client, client.post("/api/jobs", json={
        "job": "verify", "board": name, "level": info["level"]}).json())["result"]
    game = settled(client, client.post("/api/play", json={"board": name, "level": level,
                                                          "as": ["explorer"]}).json())
    game = settled(client, client.post(f"/api/play/{game['id']}", json={"input": "nowhere"}).json())
    last = level["enemies"][-1]             # the fourth to move in the edited order
    assert f"{last['kind']}4 moves ({last['at'][0]},{last['at'][1]}) ->" in "\n".join(game["transcript"])
    made = wait(client, client.post("/api/jobs", json={"job": "generate", "board": name, "options": {
        "size": "5x5", "plies": "6..", "count": "1", "seed": "3", "out": "new"}}).json(), 300)
    assert made["state"] == "done", made
    [written] = made["result"]["boards"]
    board = load_board(folder / written)
    assert sorted(k for _, k in enemies_of(board)) == sorted(e["kind"] for e in level["enemies"]) and board.exits


EXPLICIT = """\
rules: mummy-maze-order   # the explicit form
size: [4, 3]
walls: {north: [[2, 1]], east: []}
pieces: {explorer: [1, 3]}
marks: {exit: [[4, 1]], trap: [[3, 3]]}   # the exit on a cell
enemies: [{kind: mummy, at: [1, 1]}, {kind: scorpion, at: [2, 2]}]
"""


def test_the_explicit_form_keeps_its_flow_lists_and_takes_an_exit_edge(client, folder):
    (folder / "explicit.yaml").write_text(EXPLICIT, encoding="utf-8")
    info = info_of(client, "explicit.yaml")
    level = copy.deepcopy(info["level"])
    level["marks"]["exit"] = [[4, 0]]            # from the cell (4,1) to its south edge
    level["enemies"] = level["enemies"][1:] + [{"kind": "red_mummy", "at": [4, 3]}]
    answered_as_solve(client, "explicit.yaml", folder, level)
    board, text = saved(client, "explicit.yaml", info, level, folder)
    assert board.exits == {((4, 1), "south")}
    assert text == EXPLICIT.replace("exit: [[4, 1]]", "exit: {edge: south, at: 4}").replace(
        "[{kind: mummy, at: [1, 1]}, {kind: scorpion, at: [2, 2]}]", "[{kind: scorpion, at: [2, 2]}, {kind: red_mummy, "
        "at: [4, 3]}]")
