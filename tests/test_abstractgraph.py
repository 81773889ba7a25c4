"""The abstract game's one game graph (gridsolve/solve/graph/abstractgame.py, abstractpieces.py) is
the game read the old way, straight from clingo's atoms into Python lists (positions by their
terms, each one's moves sorted by the move term), on random boards of every rule option, both
builders (ground, and joined from the pieces' moves where it can be): the same positions, side to
move, end, timeout entry, moves in the same order, each position found by its term at its row;
and every race it ranks, with and without a bump beside the moves, is solve.lp's ``won_in/3`` on
those lists (tests/test_retrograde.py's transcription with sets)."""
from __future__ import annotations

import random

import clingo
import numpy as np
import pytest

from gridsolve.compile.gamerules import live_ends
from gridsolve.compile.state import layout_for
from gridsolve.language.loader import load_board
from gridsolve.language.position import initial_position
from gridsolve.solve.graph.abstractgame import UNFORCED, abstract_game, abstract_program
from gridsolve.solve.graph.abstractpieces import abstract_by_pieces
from gridsolve.solve.graph.codec import PositionCodec
from randomboards import random_board, random_mechanism_board
from test_bounded import pacman_like_board
from test_quotient import room_board
from test_retrograde import declared


def old_way(board, roots) -> dict:
    """{term text: (side to move, end or None, timeout entry or None, [(move, successor term)])}
    read off clingo's atoms into lists, as the abstract game was read before it built a graph."""
    layout = layout_for(board, set())
    codec = PositionCodec(board, layout)
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], abstract_program(board, layout, [codec.text(p) for p in roots]))
    ctl.ground([("base", [])])
    atoms = ctl.symbolic_atoms
    game = {atom.symbol.arguments[0]: [atom.symbol.arguments[0].arguments[0].number, None, None, []]
            for atom in atoms.by_signature("reach", 1)}
    for atom in atoms.by_signature("edge", 3):
        s, move, s2 = atom.symbol.arguments
        game[s][3].append((move, s2))
    for atom in atoms.by_signature("outcome", 2):
        game[atom.symbol.arguments[0]][1] = atom.symbol.arguments[1].name
    for atom in atoms.by_signature("tmatch", 2):
        entry = game[atom.symbol.arguments[0]]
        number = atom.symbol.arguments[1].number - 1
        entry[2] = number if entry[2] is None else min(entry[2], number)
    return {str(term): (side, end, tmatch, [] if end is not None else
                        [(str(m), str(t)) for m, t in sorted(moves, key=lambda edge: edge[0])])
            for term, (side, end, tmatch, moves) in game.items()}


def new_way(game) -> dict:
    graph = game.graph
    terms = [str(graph.term(i)) for i in range(graph.n)]
    assert graph.texts(np.arange(graph.n)) == terms
    return {terms[i]: (game.turn[i], game.outcome[i], game.tmatch[i], [(str(m), terms[j]) for m, j in game.moves(i)])
            for i in range(graph.n)}


def check_races(game, rng: random.Random) -> int:
    """Random races on ``game`` against won_in/3 on its lists; the positions ranked past level 0."""
    n, graph = len(game), game.graph
    succ = [[j for _, j in game.moves(i)] for i in range(n)]
    ended = [o is not None for o in game.outcome]
    sides = sorted(set(game.turn))
    ranked = 0
    for _ in range(3):
        attackers = {t for t in sides if rng.random() < 0.5}
        ends = [e for e in graph.ends if rng.random() < 0.5]
        for aimed in (game.ended_in(ends), game.stopped()):
            bump = [rng.choice([None, rng.randrange(n)]) for _ in range(n)] if rng.random() < 0.5 else None
            moves = [row + ([bump[i]] if bump is not None and bump[i] is not None and row else [])
                     for i, row in enumerate(succ)]
            want, _ = declared(moves, [t in attackers for t in game.turn], aimed.tolist(), ended, None, None)
            got = game.retrograde(attackers, aimed, bump)
            assert got == [UNFORCED if r < 0 else r for r in want], (attackers, ends)
            ranked += sum(r > 0 for r in want)
    return ranked


def boards(seeds, tmp_path):
    for seed in seeds:
        for kind, text in (("like", pacman_like_board(seed)), ("room", room_board(seed)),
                           ("mech", random_mechanism_board(seed).text), ("race", random_board(seed).text)):
            path = tmp_path / f"{kind}-{seed}.yaml"
            path.write_text(text, encoding="utf-8")
            yield seed, load_board(path)


@pytest.mark.parametrize("seeds,least", [([1], 7), pytest.param([0, *range(2, 12)], 78, marks=pytest.mark.slow)],
                         ids=["quick", "many"])
def test_the_abstract_graph_is_the_game_read_into_lists(tmp_path, seeds, least):
    joined = ranked = 0
    for seed, board in boards(seeds, tmp_path):
        if any(end.when.collected for end in live_ends(board)):
            continue        # (an end counts the items: the game has no abstraction)
        roots = [initial_position(board)]
        want = old_way(board, roots)
        for game in (abstract_game(board, roots), abstract_by_pieces(board, roots)):
            if game is None:        # (the pieces' way does not apply)
                continue
            joined += 1
            assert new_way(game) == want, board.name
            graph = game.graph
            assert bool(np.all(graph.keys[1:] > graph.keys[:-1]))        # ascending: found by search
            rows = [graph.find(clingo.parse_term(term)) for term in want]        # each term at its row
            assert sorted(rows) == list(range(graph.n)) and [str(graph.term(i)) for i in rows] == list(want)
            assert game.state_of(roots[0]) == game.find(roots[0]) is not None
            ranked += check_races(game, random.Random(seed))
    assert joined >= least and ranked > 0, (joined, ranked)
