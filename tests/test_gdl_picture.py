"""Pictures of GDL states (gridsolve/gdlpicture.py) and a GDL game's file on the report page
(gridsolve/verify/gdlview.py): the grid the fluents draw, the fluents listed beside it, the
line's states at ``#step-K``, on hand-written states and the tests' tic-tac-toe."""
from __future__ import annotations

import xml.etree.ElementTree as ET

from conftest import ROOT
from gridsolve.gdl.kif import read_kif
from gridsolve.gdlpicture import find_grid, line_svg, state_svg, thumbnail
from gridsolve.errors import LimitError, QueryError
from gridsolve.language.yamlsrc import load_file
from gridsolve.verify.gdlgame import open_session, read_gdl_game_file
from gridsolve.verify.gdlview import gdl_view
from gridsolve.verify.verify import verify_paths

NS = {"s": "http://www.w3.org/2000/svg"}
TICTACTOE = ["(cell 1 1 x)", "(cell 1 2 b)", "(cell 2 1 o)", "(cell 2 2 b)", "(control oplayer)"]


def texts(svg: str, group: str | None = None) -> list[str]:
    root = ET.fromstring(svg)
    if group is not None:
        root = root.find(f".//s:g[@id='{group}']", NS)
    return [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]


def test_the_grid_is_the_largest_group_of_one_relation_with_a_pair_of_numbers():
    grid = find_grid([read_kif(" ".join(TICTACTOE))])
    assert grid.places == frozenset({("cell", 0)})
    assert (grid.columns, grid.rows, grid.width, grid.height) == ((1, 2), (1, 2), 2, 2)
    assert grid.background is None             # b fills 2 of 4 cells: not more than half


def test_what_fills_most_cells_is_the_background_and_other_fluents_are_listed():
    state = TICTACTOE + ["(cell 1 3 b)", "(cell 2 3 b)"]      # b on 4 of 6 cells
    grid = find_grid([read_kif(" ".join(state))])
    assert grid.background == "b" and (grid.width, grid.height) == (2, 3)
    words = texts(state_svg(state, "ttt: a state"))
    assert "x" in words and "o" in words and "control oplayer" in words
    assert words.count("b") == 4                # drawn pale, once a cell
    assert ["1", "2"] == [w for w in words if w in ("1", "2")][:2]      # the columns' labels first


def test_pieces_placed_by_a_relation_with_a_name_before_the_pair():
    state = ["(location explorer 2 3)", "(location mummy 1 1)", "(location exit 3 1)", "(step 4)"]
    grid = find_grid([read_kif(" ".join(state))])
    assert grid.places == frozenset({("location", 1)}) and (grid.columns, grid.rows) == ((1, 3), (1, 3))
    words = texts(state_svg(state, "maze: step 4"))
    assert {"explorer", "mummy", "exit", "step 4"} <= set(words)


def test_a_game_without_a_grid_is_its_fluents_listed():
    state = ["(heap a 3)", "(control first)"]
    assert find_grid([read_kif(" ".join(state))]) is None
    words = texts(state_svg(state, "nim: the initial state"))
    assert "heap a 3" in words and "control first" in words
    assert "2 fluents" in texts(thumbnail(state))


def test_the_line_picture_has_a_group_a_state_and_the_whole_line_last():
    states = [["(cell 1 1 b)", "(control x)"], ["(cell 1 1 x)", "(control o)"]]
    svg = line_svg(states, ["g: the initial state", "g: step 1 of 1: x (mark 1 1)"], "g: x wins", ["x (mark 1 1)"])
    assert ET.fromstring(svg).find(".//s:style", NS).text.startswith(".step{display:none}")
    assert "x" in texts(svg, "step-1") and "x" not in texts(svg, "step-0")
    whole = texts(svg, "whole")
    assert whole[:2] == ["g", "x wins"] and "the line:" in whole and "1. x (mark 1 1)" in whole
    assert "control o" in whole                 # the whole line: its last state


def test_the_shipped_gdl_game_has_a_view_with_its_answer_and_line():
    report = verify_paths([ROOT / "boards/gdl/tictactoe.yaml"], views=True)
    board = report.boards[0]
    view = board.view
    assert not view.note and view.verdict == "xplayer gets 50 in 9 steps, no forced win (values: xplayer 50, oplayer 50)"
    assert (view.width, view.height, view.value, view.plies, view.win) == (3, 3, 50, 9, False)
    assert len(view.moves) == 9 and all(m.value == 50 for m in view.moves)
    assert [s.index for s in view.steps] == list(range(1, 10)) and view.steps[0].move.startswith("xplayer (mark")
    assert all(f'id="step-{k}"' in view.picture for k in range(10))
    assert board.answer == {"role": "xplayer", "value": 50, "win": False, "plies": 9}


def test_a_gdl_game_with_no_answer_shows_its_initial_state_and_why():
    game = read_gdl_game_file(ROOT / "boards/gdl/tictactoe.yaml", load_file(ROOT / "boards/gdl/tictactoe.yaml"))
    session = open_session(game)
    view = gdl_view(game, session, LimitError("the reachable states of tictactoe.kif do not fit: 1 s (limit 1 s)"))
    assert view.note.startswith("the reachable states of tictactoe.kif do not fit") and not view.verdict
    assert (view.width, view.height, view.steps, view.moves) == (3, 3, (), ())
    assert "control xplayer" in texts(view.picture) and "b" in texts(view.picture)
    unread = gdl_view(game, QueryError("no game"), QueryError("no game"))
    assert unread.note == "no game" and (unread.width, unread.height) == (0, 0)
