"""The studio's server through Starlette's test client: its guard (token, Host, Origin), the
served folder's limits, clear JSON errors, answers, saving and jobs."""
from __future__ import annotations

import os
import shutil
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
import warnings  # noqa: E402

with warnings.catch_warnings():    # starlette asks for httpx2; httpx does the same job here
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient  # noqa: E402

from gridsolve.errors import QueryError
from gridsolve.generate.genchoices import DEFAULT_TIMEOUT
from gridsolve.generate.request import request_from_options
from gridsolve.language.kinds import RequireKind
from gridsolve.language.loader import load_board
from gridsolve.language.position import make_query
from gridsolve.render import verdict
from gridsolve.solve.dispatch.dispatcher import solve
from gridsolve.explain.walls import Wall, toggled
from gridsolve.studio import adapters
from gridsolve.studio.level import level_of
from gridsolve.studio.server import create_app

ROOT = Path(__file__).resolve().parent.parent
BOARD = "mummymaze2p-2007.yaml"
TOKEN = "t0ken-for-tests"
HOST = "127.0.0.1:8123"


@pytest.fixture()
def folder(tmp_path):
    served = tmp_path / "levels"
    served.mkdir()
    for name in (BOARD, "maze-runner-duel-secret.yaml"):
        shutil.copy(ROOT / "boards" / name, served / name)
    (tmp_path / "outside.yaml").write_text((ROOT / "boards" / BOARD).read_text())
    return served


def client_for(folder, token=TOKEN) -> TestClient:
    app = create_app(folder, TOKEN, {HOST, "localhost:8123"})
    client = TestClient(app, base_url=f"http://{HOST}")
    if token:
        client.cookies.set("gridsolve_studio", token)
    return client


@pytest.fixture()
def client(folder):
    return client_for(folder)


def no_traceback(response):
    assert "Traceback" not in response.text
    assert response.headers["content-type"].startswith("application/json")
    assert response.json()["error"]
    return response.json()


# - The guard ---

def test_every_request_needs_the_token(folder):
    anonymous = client_for(folder, token=None)
    for method, url in (("GET", "/"), ("GET", "/api/boards"), ("GET", f"/api/board?board={BOARD}"),
                        ("POST", "/api/answer"), ("POST", "/api/save"), ("GET", "/assets/studio.js")):
        response = anonymous.request(method, url)
        assert response.status_code == 403, url
        assert "token" in no_traceback(response)["error"]
    assert client_for(folder, token="wrong").get("/api/boards").status_code == 403


def test_the_token_in_the_url_sets_the_cookie(folder):
    anonymous = client_for(folder, token=None)
    response = anonymous.get(f"/?token={TOKEN}")
    assert response.status_code == 200 and "gridsolve studio" in response.text
    cookie = response.headers["set-cookie"]
    assert f"gridsolve_studio={TOKEN}" in cookie and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert anonymous.get("/api/boards").status_code == 200      # the cookie now
    assert client_for(folder, token=None).get("/?token=nope").status_code == 403


def test_host_header_must_be_the_studios(client):
    response = client.get("/api/boards", headers={"Host": "evil.example:8123"})
    assert response.status_code == 403
    assert "DNS rebinding" in no_traceback(response)["hint"]
    assert client.get("/api/boards", headers={"Host": "localhost:8123"}).status_code == 200


@pytest.mark.slow
def test_origin_must_be_the_studios(client):
    response = client.post("/api/answer", json={"board": BOARD}, headers={"Origin": "http://evil.example"})
    assert response.status_code == 403
    assert "Origin" in no_traceback(response)["error"]
    ok = client.post("/api/answer", json={"board": BOARD}, headers={"Origin": f"http://{HOST}"})
    assert ok.status_code == 200


# - The served folder ---

@pytest.mark.parametrize("name, status", [("../outside.yaml", 403), ("/etc/passwd", 403), ("notes.txt", 403),
                                          ("missing.yaml", 404), ("", 400)])
def test_file_names_stay_inside_the_folder(client, name, status):
    response = client.get("/api/board", params={"board": name})
    assert response.status_code == status
    no_traceback(response)


def test_a_link_out_of_the_folder_is_refused(client, folder):
    (folder / "link.yaml").symlink_to(folder.parent / "outside.yaml")
    response = client.get("/api/board", params={"board": "link.yaml"})
    assert response.status_code == 403
    assert "outside the served folder" in no_traceback(response)["error"]


def test_the_boards_of_the_folder(client):
    assert client.get("/api/boards").json()["boards"] == ["maze-runner-duel-secret.yaml", BOARD]


# - Bad requests: a clear JSON error with a 4xx status ---

@pytest.mark.parametrize("body, words", [
    ({"board": BOARD, "level": {"walls": {"north": [[9, 9]]}}}, "not a free cell"),
    ({"board": BOARD, "level": {"walls": {"north": [[1, 8]]}}}, "not an interior edge"),
    ({"board": BOARD, "level": {"pieces": {"explorer": [1, 1]}}}, "a cell for each piece"),
    ({"board": BOARD, "level": {"pieces": {"explorer": "a", "mummy": [1, 1]}}}, "not a cell"),
    ({"board": BOARD, "level": [1]}, "expected an object"),
    ({"board": BOARD, "role": "ghost"}, "role: ghost"),
    ({"board": BOARD, "kind": "maybe"}, "kind: maybe"),
    ({"board": 7}, "file name"),
])
def test_bad_answers_requests(client, body, words):
    response = client.post("/api/answer", json=body)
    assert response.status_code == 400
    assert words in no_traceback(response)["error"]


def test_bad_json_unknown_routes_and_methods(client):
    response = client.post("/api/answer", content=b"{not json", headers={"Content-Type": "application/json"})
    assert response.status_code == 400 and "not JSON" in no_traceback(response)["error"]
    assert client.get("/api/nothing").status_code == 404
    no_traceback(client.get("/api/nothing"))
    assert client.get("/api/answer").status_code == 405
    no_traceback(client.get("/api/answer"))
    assert client.get("/assets/../server.py").status_code in (403, 404)
    for route, words in (("/api/jobs/unknown", "no job unknown"), ("/api/play/unknown", "no playtest unknown")):
        response = client.get(route)
        assert response.status_code == 404 and no_traceback(response)["error"] == words
    assert client.post("/api/jobs", json={"job": "rm", "board": BOARD}).status_code == 404


@pytest.mark.parametrize("raw, words", [
    (b"[" * 50_000 + b"]" * 50_000, "nests arrays and objects more than 32 deep"),     # past json's recursion
    (b'{"board": ' + b"[" * 40 + b"]" * 40 + b"}", "nests arrays and objects more than 32 deep"),
    (b"{not json", "not JSON (Expecting property name enclosed in double quotes: line 1 column 2"),
    (b'{"board": "a.yaml",}', "not JSON (Expecting property name enclosed in double quotes: line 1 column 20"),
    (b'{"board": "\xff.yaml"}', "not UTF-8 text (invalid start byte at byte 11)"),
    (b"1" * 5000, "not JSON (Exceeds the limit"),
    (b"[1, 2]", "must be a JSON object"),
    (b"null", "must be a JSON object"),
])
@pytest.mark.parametrize("route", ["/api/answer", "/api/jobs", "/api/save", "/api/play"])
def test_a_malformed_body_is_a_bad_request_that_says_what_is_wrong(client, route, raw, words):
    response = client.post(route, content=raw, headers={"Content-Type": "application/json"})
    assert response.status_code == 400
    assert words in no_traceback(response)["error"]


# - Answers ---

@pytest.mark.slow
def test_a_wall_toggle_gives_the_solvers_answer(client):
    info = client.get("/api/board", params={"board": BOARD}).json()
    board = load_board(ROOT / "boards" / BOARD)
    first = client.post("/api/answer", json={"board": BOARD, "level": info["level"]}).json()["answer"]
    assert first["verdict"] == verdict(solve(board, make_query(board)))
    assert first["verdict"] == "value for explorer: 0 within 49 plies, the game ends in 20 plies"
    for wall in (Wall((7, 3), "east"), Wall((6, 3), "north"), Wall((2, 2), "east")):
        edited = toggled(board, wall)
        for role, kind in (("explorer", "value"), ("mummy", "win")):
            got = client.post("/api/answer", json={"board": BOARD, "level": level_of(edited), "role": role,
                                                   "kind": kind}).json()["answer"]
            expected = solve(edited, make_query(edited, role, kind))
            assert got["verdict"] == verdict(expected)
            assert [(m["move"], m["value"], m["plies"]) for m in got["moves"]] == \
                [(m.move, m.value, m.plies) for m in expected.moves]
            assert [p["move"] for p in got["line"]] == [p.move for p in expected.line]
    svg = client.post("/api/answer", json={"board": BOARD}).json()["svg"]
    assert svg.startswith('<svg data-testid="board"')


def test_the_picture_is_the_board_framed_with_its_legend_apart(client):
    from gridsolve.svg import CELL, MARGIN, TITLE
    for view in (client.get("/api/board", params={"board": BOARD}).json(),
                 client.post("/api/answer", json={"board": BOARD}).json()):
        # the 8x8 board, its coordinates and one margin outside its border: no title, no legend
        assert view["geometry"]["frame"] == [0, TITLE - MARGIN, 8 * CELL + 2 * MARGIN, 8 * CELL + 2 * MARGIN]
        assert view["legend"] == [["E explorer", "#1f5fbf"], ["M mummy", "#c8281e"], ["X exit", "#555555"]]
        assert "explorer to move" not in view["svg"] and "Mummy Maze 2p" not in view["svg"]


def wait(client, job, seconds=120):
    deadline = time.monotonic() + seconds
    while job["state"] == "running" and time.monotonic() < deadline:
        time.sleep(0.2)
        job = client.get(f"/api/jobs/{job['id']}").json()
    return job


@pytest.mark.slow
def test_verify_shows_each_failing_expectation(client):
    board = load_board(ROOT / "boards" / BOARD)
    job = client.post("/api/jobs", json={"job": "verify", "board": BOARD}).json()
    result = wait(client, job)["result"]
    assert result["passed"] and not result["failed"]
    opened = toggled(board, Wall((7, 3), "east"))      # the mummy now catches the explorer in 12 plies
    job = client.post("/api/jobs", json={"job": "verify", "board": BOARD, "level": level_of(opened)}).json()
    result = wait(client, job)["result"]
    failed = {row["name"]: row for row in result["failed"]}
    assert "explorer plies" in failed
    assert failed["explorer plies"]["expected"] == "20" and failed["explorer plies"]["measured"] == "12"
    assert "expected plies: 20, measured 12" in failed["explorer plies"]["message"]


def test_a_job_can_be_cancelled(client):
    job = client.post("/api/jobs", json={"job": "walls", "board": BOARD}).json()
    assert job["state"] == "running"
    cancelled = client.delete(f"/api/jobs/{job['id']}").json()
    assert cancelled["state"] == "cancelled"
    assert client.get(f"/api/jobs/{job['id']}").json()["state"] == "cancelled"


# - Saving ---

def test_save_writes_the_level_and_keeps_the_comments(client, folder):
    path = folder / BOARD
    before = path.read_text()
    info = client.get("/api/board", params={"board": BOARD}).json()
    board = load_board(path)
    edited = toggled(board, Wall((7, 3), "east"))
    level = level_of(edited)
    level["pieces"]["mummy"] = [1, 6]
    response = client.post("/api/save", json={"board": BOARD, "version": info["version"], "level": level})
    assert response.status_code == 200
    after = path.read_text()
    assert after != before
    for line in before.splitlines():
        if line.lstrip().startswith("#") or "expect" in line or "plies:" in line:
            assert line in after                    # comments and the expect block as they were
    saved = load_board(path)
    assert level_of(saved) == level
    assert not [p for p in folder.iterdir() if p.name.startswith(".")]      # no temporary file left
    assert response.json()["version"] == client.get("/api/board", params={"board": BOARD}).json()["version"]


def test_save_refuses_a_file_changed_on_disk(client, folder):
    path = folder / BOARD
    info = client.get("/api/board", params={"board": BOARD}).json()
    changed = path.read_text() + "# edited elsewhere\n"
    path.write_text(changed)
    level = level_of(toggled(load_board(path), Wall((7, 3), "east")))
    response = client.post("/api/save", json={"board": BOARD, "version": info["version"], "level": level})
    assert response.status_code == 409
    assert "changed on disk" in no_traceback(response)["error"]
    assert path.read_text() == changed


def test_save_never_writes_outside_the_folder(client, folder):
    outside = folder.parent / "outside.yaml"
    text = outside.read_text()
    response = client.post("/api/save", json={"board": "../outside.yaml", "version": "x", "level": None})
    assert response.status_code == 403
    no_traceback(response)
    assert outside.read_text() == text


def test_save_is_atomic(client, folder, monkeypatch):
    """The file is replaced by a rename: a failure while writing leaves the old text."""
    import gridsolve.verify.update as update
    path = folder / BOARD
    text = path.read_text()
    info = client.get("/api/board", params={"board": BOARD}).json()

    def broken(*args):
        raise OSError("disk full")
    monkeypatch.setattr(update.os, "replace", broken)
    level = level_of(toggled(load_board(path), Wall((7, 3), "east")))
    with pytest.raises(OSError):
        client.post("/api/save", json={"board": BOARD, "version": info["version"], "level": level})
    assert path.read_text() == text
    assert not [p for p in folder.iterdir() if p.name.startswith(".")]


# - Playtests ---

def test_a_playtest_against_the_solver(client):
    game = client.post("/api/play", json={"board": BOARD, "as": ["explorer"]}).json()
    deadline = time.monotonic() + 60
    while game["state"] == "thinking" and time.monotonic() < deadline:
        time.sleep(0.1)
        game = client.get(f"/api/play/{game['id']}").json()
    assert game["state"] == "waiting" and game["prompt"]["kind"] == "move"
    assert {m["move"] for m in game["prompt"]["moves"]} == {"east", "nowhere"}
    game = client.post(f"/api/play/{game['id']}", json={"input": "east"}).json()
    while not any(line.startswith("mummy plays:") for line in game["transcript"]) and time.monotonic() < deadline:
        time.sleep(0.1)
        game = client.get(f"/api/play/{game['id']}").json()
    assert any(line.startswith("mummy plays:") for line in game["transcript"])
    bad = client.post(f"/api/play/{game['id']}", json={"input": ""})
    assert bad.status_code == 400
    no_traceback(bad)


def test_a_playtest_does_not_show_the_computers_secret_cells(client):
    game = client.post("/api/play", json={"board": "maze-runner-duel-secret.yaml", "as": ["p1"]}).json()
    deadline = time.monotonic() + 60
    while game["prompt"] is None and time.monotonic() < deadline:
        time.sleep(0.1)
        game = client.get(f"/api/play/{game['id']}").json()
    assert game["prompt"]["kind"] == "placement" and game["prompt"]["mark"] == "p1_obstacle"
    game = client.post(f"/api/play/{game['id']}", json={"input": "2,2 4,4 2,4"}).json()
    while (game["view"] is None or game["state"] != "waiting") and time.monotonic() < deadline:
        time.sleep(0.1)
        game = client.get(f"/api/play/{game['id']}").json()
    studio = client.app.app.state.studio
    secret = studio.playtests.get(game["id"]).game.board.marks["p2_obstacle"]
    assert len(secret) == 3
    svg = game["view"]["svg"]
    from gridsolve.svg import CELL, MARGIN, MARK_COLOURS, TITLE
    marks = sorted(studio.playtests.get(game["id"]).game.board.marks)
    assert MARK_COLOURS[marks.index("p2_obstacle")] not in svg      # the computer's cells: not drawn
    for x, y in ((2, 2), (4, 4), (2, 4)):   # the player's own obstacles are drawn
        assert f'x="{MARGIN + (x - 1) * CELL + 3}" y="{TITLE + (5 - y) * CELL + 3}"' in svg
    assert MARK_COLOURS[marks.index("p1_obstacle")] in svg


@pytest.mark.parametrize("given,timeout,stated", [
    ("", DEFAULT_TIMEOUT, False), (None, DEFAULT_TIMEOUT, False), ("30", 30.0, True), (45, 45.0, True),
    ("0", None, True), (0, None, True), (0.0, None, True),
])
def test_generate_reads_the_timeout_as_the_command_line_does(monkeypatch, tmp_path, given, timeout, stated):
    """An empty timeout is generate's default budget, 0 (text or number) no limit, as
    ``gridsolve generate --timeout 0``; the request is the one the command line builds."""
    asked = []
    monkeypatch.setattr(adapters, "generate", lambda request, progress: asked.append(request) or
                        SimpleNamespace(boards=[], error=None))
    monkeypatch.setattr(adapters, "format_generated", lambda report: "")
    adapters.generate_levels(ROOT / "boards" / BOARD, tmp_path, {"timeout": given, "require": "survive"},
                             lambda line: None, lambda done: None)
    [request] = asked
    assert (request.timeout, request.timeout_given) == (timeout, stated)
    command = request_from_options(like=ROOT / "boards" / BOARD, require="survive",
                                   timeout=None if given in ("", None) else float(given))
    assert (command.timeout, command.timeout_given) == (request.timeout, request.timeout_given)
    assert request.require is RequireKind.SURVIVE


def test_generate_refuses_a_negative_timeout(tmp_path):
    with pytest.raises(QueryError, match="timeout: -5 is negative"):
        adapters.generate_levels(ROOT / "boards" / BOARD, tmp_path, {"timeout": "-5"}, print, print)


@pytest.mark.slow
def test_generate_writes_levels_inside_the_folder(client, folder):
    job = client.post("/api/jobs", json={"job": "generate", "board": BOARD, "options": {
        "size": "5x5", "require": "survive", "count": "1", "seed": "3", "allow_trivial": "1", "out": "new"}}).json()
    done = wait(client, job)
    assert done["state"] == "done", done
    [name] = done["result"]["boards"]
    assert name.startswith("new/") and (folder / name).is_file()
    assert "1 board" in done["result"]["summary"]
    bad = wait(client, client.post("/api/jobs", json={"job": "generate", "board": BOARD,
                                                      "options": {"count": "many"}}).json())
    assert bad["state"] == "error" and "count: 'many' is not a number" in bad["error"]["error"]
    outside = client.post("/api/jobs", json={"job": "generate", "board": BOARD, "options": {"out": "../x"}})
    assert outside.status_code == 403
    no_traceback(outside)
