"""Single positions, computed by the compiled game rules: legal moves, successors, end conditions.

Used by ``gridsolve play`` and by the tests that compare the rules with the original games.
"""
from __future__ import annotations

from dataclasses import dataclass

import clingo

from .compiler import board_facts, game_rules, rule_facts, OPTIONAL_INPUTS
from .model import Board
from .position import Position
from .resources import encoding
from .solver import format_move


@dataclass(frozen=True)
class Step:
    """One legal move of the side to move and the position it leads to."""

    move: str
    position: Position


def game_program(board: Board, roots: str, explore: bool = False) -> str:
    """The compiled game rules for the ``root/1`` facts in ``roots``: which end decides each
    position (``outcome/2``) and its moves (``edge/3``); with ``explore``, for every position
    reachable from the roots, else for the roots only."""
    return "\n".join([
        " ".join(f"#defined {sig}." for sig in OPTIONAL_INPUTS), board_facts(board),
        rule_facts(board.rules), roots, game_rules(board, explore=explore),
        encoding("board.lp"), encoding("moves.lp"),
        "overridden(S,E) :- term(S,E), term(S,E2), precedes(E2,E).",
        "outcome(S,E) :- term(S,E), not overridden(S,E).",
        "#show edge/3. #show outcome/2."])


def root_fact(position: Position) -> str:
    coords = ",".join(f"{x},{y}" for _, (x, y) in position.pieces)
    return f"root(s({position.side},{coords}))."


def examine(board: Board, position: Position) -> tuple[str | None, list[Step]]:
    """The end condition that holds in ``position`` (None if the game goes on) and its moves."""
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], game_program(board, root_fact(position)))
    ctl.ground([("base", [])])
    end, steps = None, []
    roles = board.rules.roles
    step_number = position.step + 1
    with ctl.solve(yield_=True) as handle:
        for model in handle:
            for sym in model.symbols(shown=True):
                if sym.name == "outcome":
                    end = sym.arguments[1].name
                elif sym.name == "edge":
                    args = [a.number for a in sym.arguments[2].arguments]
                    pieces = tuple((r, (args[1 + 2 * i], args[2 + 2 * i])) for i, r in enumerate(roles))
                    steps.append(Step(format_move(sym.arguments[1]), Position(pieces, args[0], step_number)))
    if end is not None:
        steps = []
    steps.sort(key=lambda s: s.move)
    return end, steps
