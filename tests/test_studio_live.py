"""The studio's warm game graph answers exactly as the solver does, after any wall toggles;
the level written back into a board file keeps every other character."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from gridsolve.errors import QueryError
from gridsolve.language.loader import load_board
from gridsolve.language.position import initial_position, make_query
from gridsolve.solve.dispatch.dispatcher import solve
from gridsolve.explain.walls import Wall, interior_walls, toggled
from gridsolve.studio.files import load_text
from gridsolve.studio.level import apply_level, level_of
from gridsolve.studio.leveltext import level_text
from gridsolve.solve.common.capabilities import LIVE_GRAPH, serves
from gridsolve.studio.live import LiveGraph

ROOT = Path(__file__).resolve().parent.parent


def same_answer(got, expected):
    a, b = got.as_dict(), expected.as_dict()
    a.pop("stats"), b.pop("stats")
    assert a == b


@pytest.mark.parametrize("name, toggles", [pytest.param("mummymaze2p-2007.yaml", 3, marks=pytest.mark.slow),
                                            ("maze-runner-duel.yaml", 2)])
def test_the_graph_answers_as_solve_does_after_toggles(name, toggles):
    board = load_board(ROOT / "boards" / name)
    graph = LiveGraph(board, [initial_position(board)])
    rng = random.Random(7)
    edited, compared = board, 0
    for _ in range(toggles):
        edited = toggled(edited, rng.choice(interior_walls(board)))
        graph.set_walls(edited.north, edited.east)
        for role in board.rules.roles:
            for kind in ("value", "win", "survive"):
                query = make_query(edited, role, kind)
                if serves(LIVE_GRAPH, edited, query):
                    same_answer(graph.answer(query), solve(edited, query))
                    compared += 1
    assert compared >= 2 * toggles


@pytest.mark.slow
def test_the_graph_follows_a_moved_piece():
    board = load_board(ROOT / "boards" / "mummymaze2p-2007.yaml")
    graph = LiveGraph(board, [initial_position(board)])
    query = make_query(board, at=("explorer=8,3",))
    same_answer(graph.answer(query), solve(board, query))


@pytest.mark.slow
def test_the_graph_answers_as_solve_does_after_many_toggles():
    board = load_board(ROOT / "boards" / "mummymaze2p-2007.yaml")
    graph = LiveGraph(board, [initial_position(board)])
    rng = random.Random(11)
    edited = board
    for _ in range(12):
        edited = toggled(edited, rng.choice(interior_walls(board)))
        graph.set_walls(edited.north, edited.east)
        for role, kind in (("explorer", "value"), ("mummy", "value"), ("explorer", "survive")):
            query = make_query(edited, role, kind)
            same_answer(graph.answer(query), solve(edited, query))


def test_a_saved_level_keeps_every_other_character():
    path = ROOT / "boards" / "mummymaze2p-2007.yaml"
    text = path.read_text()
    board = load_board(path)
    assert level_text(text, str(path), board, board) == text
    edited = toggled(toggled(board, Wall((7, 3), "east")), Wall((1, 1), "north"))
    level = level_of(edited)
    level["pieces"]["explorer"] = [8, 1]
    level["marks"]["exit"] = [[1, 1]]
    edited = apply_level(board, level)
    new = level_text(text, str(path), board, edited)
    assert level_of(load_text(path, new)) == level
    head, tail = text.split("map: |2\n")[0], text.split("\n\n", 1)[1]
    assert new.startswith(head) and new.endswith(tail)       # the comments, the expect block: unchanged


def test_a_map_cell_holds_one_piece_or_mark():
    path = ROOT / "boards" / "mummymaze2p-2007.yaml"
    board = load_board(path)
    level = level_of(board)
    level["pieces"]["explorer"] = level["marks"]["exit"][0]
    with pytest.raises(QueryError, match="a map cell draws one character"):
        level_text(path.read_text(), str(path), board, apply_level(board, level))


def test_boards_without_a_map_save_their_walls_and_pieces(tmp_path):
    path = tmp_path / "plain.yaml"
    path.write_text("# a board given by its walls\nrules: mummy-maze-2007\nsize: [3, 2]\n"
                    "walls:\n  north: [[1, 1]]   # the wall above the start\n  east: []\n"
                    "pieces: {explorer: [1, 1], mummy: [3, 2]}\nmarks: {exit: [[3, 1]]}\n")
    board = load_board(path)
    edited = apply_level(board, {"walls": {"north": [], "east": [[2, 1]]}, "pieces": {"explorer": [1, 2],
                                 "mummy": [3, 2]}, "marks": {"exit": [[3, 1]]}})
    new = level_text(path.read_text(), str(path), board, edited)
    assert new.startswith("# a board given by its walls\n")
    assert level_of(load_text(path, new)) == level_of(edited)


@pytest.mark.slow
def test_undone_toggles_restore_the_moves_without_clingo():
    board = load_board(ROOT / "boards" / "mummymaze2p-2007.yaml")
    graph = LiveGraph(board, [initial_position(board)])
    wall = Wall((7, 3), "east")
    edited = toggled(board, wall)
    graph.set_walls(edited.north, edited.east)
    patched = graph.patches
    assert patched > 0
    for walls in (board, edited, board, edited):       # back, on again, back, on: restored each time
        graph.set_walls(walls.north, walls.east)
        for role, kind in (("explorer", "value"), ("mummy", "win")):
            query = make_query(walls, role, kind)
            same_answer(graph.answer(query), solve(walls, query))
    assert graph.patches == patched
