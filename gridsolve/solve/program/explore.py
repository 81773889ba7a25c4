"""Single positions, computed by the compiled game rules: legal moves, successors, end conditions.

Used by ``gridsolve play`` and by the tests that compare the rules with the original games.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import clingo

from ...compile.gameprogram import GameProgram
from ...compile.gamerules import score_rules, with_domain
from ...compile.predicates import EDGE, ESCORE_OF, OUTCOME, ROOT, TSCORE_OF, model_atoms
from ...language.model import Board
from ...language.position import Position
from .driver import format_move
from ...compile.state import layout_for


@dataclass(frozen=True)
class Step:
    """One legal move of the side to move and the position it leads to."""

    move: str
    position: Position


def move_parts(label: str, roles) -> dict[str, str]:
    """{role: move} of a move label: ``north`` for one role, ``blinky east, inky west`` for
    several (a label of one role may name it too: ``explorer north``; the others' answer a
    ``--hidden`` line names is left out: ``south (free)``)."""
    roles = list(roles)
    if len(roles) == 1:
        label = label.split(" (")[0]
        return {roles[0]: label[len(roles[0]) + 1:] if label.startswith(f"{roles[0]} ") else label}
    return dict(part.split(" ", 1) for part in label.split(", "))


def game_program(board: Board, facts: str, explore: bool = False, shown: Sequence = (EDGE, OUTCOME),
                 rules: Sequence[str] = ()) -> str:
    """The compiled game rules for the ``root/1`` facts in ``facts``: which end decides each
    position (``outcome/2``) and its moves (``edge/3``); with ``explore``, for every position
    reachable from the roots, else for the roots only.  ``shown``: the predicates shown
    (:class:`~gridsolve.compile.gameprogram.GameProgram`); ``rules``: more rules over the positions."""
    game = GameProgram(board, layout_for(board), reached_by="edge(_,_,S)" if explore else None, shown=shown)
    return game.text(facts, *rules)


def root_fact(board: Board, position: Position) -> str:
    return ROOT.fact(layout_for(board).root_term(position, board))


def examine(board: Board, position: Position) -> tuple[str | None, list[Step]]:
    """The end condition that holds in ``position`` (None if the game goes on) and its moves."""
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], game_program(board, root_fact(board, position)))
    ctl.ground([("base", [])])
    layout = layout_for(board)
    step_number = position.step + 1
    atoms = model_atoms(ctl, (EDGE, OUTCOME))
    end = atoms[OUTCOME][-1][1] if atoms[OUTCOME] else None
    steps = [Step(format_move(move), layout.position(after, board, step_number)) for _, move, after in atoms[EDGE]]
    if end is not None:
        steps = []
    steps.sort(key=lambda s: s.move)
    return end, steps


def stop_scores(board: Board, position: Position) -> dict[str, int] | None:
    """Every role's score if the game stops at ``position``: by the end that holds, else (at the
    step limit, or when a role to move has no move) by the timeout entries; None if it goes on."""
    layout = layout_for(board)
    rules_text = "\n".join(line for role in board.rules.roles for line in score_rules(board, layout, role, True))
    shown = (ESCORE_OF, TSCORE_OF, EDGE)
    program = game_program(board, root_fact(board, position), shown=shown,
                           rules=[with_domain(rules_text, "reach(", "reach(")])
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], program)
    ctl.ground([("base", [])])
    atoms = model_atoms(ctl, shown)
    ends = {role: value for _, role, value in atoms[ESCORE_OF]}
    timeouts = {role: value for _, role, value in atoms[TSCORE_OF]}
    moves = bool(atoms[EDGE])
    if ends:
        return ends
    if position.step >= board.rules.last_step or not moves:
        return timeouts
    return None
