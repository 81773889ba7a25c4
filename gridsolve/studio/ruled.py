"""Answers on games with pieces moved by rule (an ``after_ply`` script: classic Mummy Maze),
given at once in the request.

A wall toggle changes where every chaser steps, which the warm graph's patches (moves by role,
:mod:`gridsolve.studio.live`) do not follow; but the race solver's scripted graph
(:mod:`gridsolve.solve.graph.scripted`) answers such a level from scratch in well under a second.
The positions after each move (where the chasers went, the gates' state) are read from the
script's per-cell tables; those along the principal line come with the answer."""
from __future__ import annotations

import dataclasses

from ..compile.state import layout_for
from ..language.model import Board
from ..language.position import Position, Query
from ..solve.common.answer import Answer
from ..solve.common.limits import Limits
from ..solve.dispatch.dispatcher import solve
from ..solve.graph.scripted import ScriptedMoves, ScriptTables
from ..solve.program.driver import format_move

ANSWER_SECONDS = 60.0     # a request's solve stops (with a clear error) after this long


class Successors:
    """The moves of a position of ``board`` and the position each leads to, by the script's tables."""

    def __init__(self, board: Board):
        self.board, self.layout = board, layout_for(board)
        self.moves = ScriptedMoves(ScriptTables(board, self.layout))

    def __call__(self, position: Position) -> dict[str, Position]:
        codec = self.moves.numbering
        return {format_move(move): codec.position(after, position.step + 1)
                for move, after in self.moves.moves(codec.term(position))}


def answer(board: Board, query: Query, limits: Limits) -> tuple[Answer, dict]:
    """The answer to ``query`` within ``limits`` (the studio's; a request stops after
    :data:`ANSWER_SECONDS` where they set no time), as ``gridsolve solve`` gives it (its line
    with its positions), and the position after each of its moves ({move: position})."""
    found = solve(board, query, limits if limits.seconds is not None else
                  dataclasses.replace(limits, seconds=ANSWER_SECONDS))
    return found, Successors(board)(query.position)
