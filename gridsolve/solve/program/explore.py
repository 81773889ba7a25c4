"""Single positions, computed by the compiled game rules: legal moves, successors, end conditions.

Used by ``gridsolve play`` and by the tests that compare the rules with the original games.
"""
from __future__ import annotations

from dataclasses import dataclass

import clingo

from ...compile.gameprogram import GameProgram
from ...compile.gamerules import score_rules, with_domain
from ...compile.predicates import EDGE, ESCORE_OF, OUTCOME, ROOT, TSCORE_OF
from ...language.model import Board
from ...language.position import Position
from .driver import format_move
from ...compile.state import layout_for, position_of


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


def game_program(board: Board, roots: str, explore: bool = False,
                 show: str = "#show edge/3. #show outcome/2.") -> str:
    """The compiled game rules for the ``root/1`` facts in ``roots``: which end decides each
    position (``outcome/2``) and its moves (``edge/3``); with ``explore``, for every position
    reachable from the roots, else for the roots only.  ``show``: the #show statements."""
    game = GameProgram(board, layout_for(board), reached_by="edge(_,_,S)" if explore else None, shown=(show,))
    return game.text(roots)


def root_fact(board: Board, position: Position) -> str:
    return ROOT.fact(layout_for(board).root_term(position, board))


def examine(board: Board, position: Position) -> tuple[str | None, list[Step]]:
    """The end condition that holds in ``position`` (None if the game goes on) and its moves."""
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], game_program(board, root_fact(board, position)))
    ctl.ground([("base", [])])
    end, steps = None, []
    layout = layout_for(board)
    step_number = position.step + 1
    with ctl.solve(yield_=True) as handle:
        for model in handle:
            for sym in model.symbols(shown=True):
                if OUTCOME.matches(sym):
                    end = OUTCOME.read(sym)[1]
                elif EDGE.matches(sym):
                    _, move, after = EDGE.read(sym)
                    parts = layout.decode([a.number for a in after.arguments], board)
                    steps.append(Step(format_move(move), position_of(parts, step_number)))
    if end is not None:
        steps = []
    steps.sort(key=lambda s: s.move)
    return end, steps


def stop_scores(board: Board, position: Position) -> dict[str, int] | None:
    """Every role's score if the game stops at ``position``: by the end that holds, else (at the
    step limit, or when a role to move has no move) by the timeout entries; None if it goes on."""
    layout = layout_for(board)
    rules_text = "\n".join(line for role in board.rules.roles for line in score_rules(board, layout, role, True))
    program = game_program(board, root_fact(board, position)) + "\n" + \
        with_domain(rules_text, "reach(", "reach(") + "\n#show escore/3. #show tscore/3. #show edge/3."
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], program)
    ctl.ground([("base", [])])
    ends, timeouts, moves = {}, {}, False
    with ctl.solve(yield_=True) as handle:
        for model in handle:
            for sym in model.symbols(shown=True):
                if EDGE.matches(sym):
                    moves = True
                elif ESCORE_OF.matches(sym) or TSCORE_OF.matches(sym):
                    _, role, value = ESCORE_OF.read(sym) if sym.name == ESCORE_OF.name else TSCORE_OF.read(sym)
                    (ends if sym.name == ESCORE_OF.name else timeouts)[role] = value
    if ends:
        return ends
    if position.step >= board.rules.last_step or not moves:
        return timeouts
    return None
