"""The abstract game joined from the pieces' moves (gridsolve/solve/graph/abstractpieces.py) is the one
clingo grounds from the compiled game rules (gridsolve/solve/graph/abstractgame.py): the same positions,
side to move, cells, end, timeout entry and named moves in the same order, on the Pacman seed
and on random boards of every rule option where it applies."""
from __future__ import annotations

import pytest

from gridsolve.language.loader import load_board
from gridsolve.language.position import initial_position
from gridsolve.solve.graph.abstractgame import abstract_game
from gridsolve.solve.graph.abstractpieces import abstract_by_pieces, build_abstract_game
from randomboards import random_board, random_mechanism_board
from test_bounded import pacman_like_board
from test_quotient import room_board

from conftest import ROOT


def _by_position(game) -> dict:
    def name(i):
        return (game.turn[i], *game.cells[i])
    return {name(i): (game.outcome[i], game.tmatch[i], [(str(m), name(j)) for m, j in game.moves(i)])
            for i in range(len(game))}


def _agree(board) -> bool:
    """Whether both ways give the same game (False where the pieces' way does not apply)."""
    roots = [initial_position(board)]
    joined = abstract_by_pieces(board, roots)
    if joined is None:
        return False
    ground = abstract_game(board, roots)
    assert _by_position(joined) == _by_position(ground), board.name
    assert joined.state_of(roots[0]) == joined.find(roots[0]) is not None
    return True


@pytest.mark.slow
def test_the_pacman_seed_joins_as_it_grounds():
    assert _agree(load_board(ROOT / "boards" / "pacman3p.yaml"))


@pytest.mark.parametrize("seeds,least", [(range(2), 5), pytest.param(range(2, 16), 34, marks=pytest.mark.slow)],
                         ids=["quick", "many"])
@pytest.mark.slow
def test_random_boards_join_as_they_ground(tmp_path, seeds, least):
    joined = 0
    for seed in seeds:
        for kind, text in (("like", pacman_like_board(seed)), ("room", room_board(seed)),
                           ("mech", random_mechanism_board(seed).text), ("race", random_board(seed).text)):
            path = tmp_path / f"{kind}-{seed}.yaml"
            path.write_text(text, encoding="utf-8")
            joined += _agree(load_board(path))
    assert joined >= least


def test_games_the_pieces_cannot_join_are_ground():
    """Wallmaze loses turns: the pieces' way does not apply, and the game is ground."""
    board = load_board(ROOT / "boards" / "wallmaze.yaml")
    assert abstract_by_pieces(board, [initial_position(board)]) is None
    game = build_abstract_game(board, [initial_position(board)])
    assert game.graph.n == len(game) == len(game.graph.keys) > 0
