"""The race engine's ranks as the answer reader reads them (:mod:`gridsolve.solve.race.reader`).

A question needs only the ranks (``won_in(K,S,D)`` of encodings/solve.lp) of its position and of
the positions after each legal move, and the principal line those of the positions along it.
:class:`RankIndex` holds the ranks of an engine's races (arrays over the positions of its
:class:`~gridsolve.solve.graph.racegraph.RaceGraph`) and gives the reader the races forced at a
position, its moves (ground once, where an answer looks at them), its end and side to move, and
the positions of the line; the answers are read with no ground call and no solve.
tests/test_retro.py checks that they equal those of the single-shot program.
"""
from __future__ import annotations

import clingo

from ...compile.state import unjudged
from ...language.model import Board
from ...language.position import Position
from ..program.driver import position_after


class RankIndex:
    """The ranks (race number -> rank array of :meth:`RaceGraph.ranks`), moves and ends of one
    engine's game graph ``graph`` (positions in ``layout``), by position term: a
    :class:`~gridsolve.solve.race.reader.GameView`."""

    def __init__(self, graph, ranks: dict, board: Board, layout):
        self.graph, self.ranks, self.board, self.layout = graph, ranks, board, layout

    def forced(self, state: clingo.Symbol, left: int) -> dict[int, int]:
        i = self.graph.index(state)
        if i < 0:
            return {}
        return {race: rank for race, array in self.ranks.items() if 0 <= (rank := int(array[i])) <= left}

    def moves_of(self, state: clingo.Symbol) -> list[tuple[clingo.Symbol, clingo.Symbol]]:
        return self.graph.moves(state)

    def is_end(self, state: clingo.Symbol) -> bool:
        i = self.graph.index(state)
        return i >= 0 and self.graph.terminal(i)

    def side_of(self, state: clingo.Symbol) -> int:
        """The turns entry to move: the first argument of the position's term."""
        return unjudged(state).arguments[0].number

    def position_after(self, before: Position, state: clingo.Symbol, after: clingo.Symbol, turn: int) -> Position:
        return position_after(self.board, self.layout, before, state, after, self.board.rules.turns[turn])
