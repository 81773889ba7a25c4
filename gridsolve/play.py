"""Play a board in the terminal: humans against the solver's optimal strategy, or against each other.

The game reads one command per line, so a script can drive it:
a move name (or an unambiguous prefix), ``hint`` (every move's value and plies),
``board`` (draw the position) or ``quit``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator

from .errors import QueryError
from .explore import Step, examine
from .model import Board
from .position import Position, Query
from .render import draw_position
from .solver import solve


@dataclass
class Outcome:
    end: str                      # the end condition's name, or "timeout", or "quit"
    scores: dict[str, int]
    plies: int


def _cell(cell) -> str:
    return f"({cell[0]},{cell[1]})"


def _choose(text: str, steps: list[Step]) -> Step | None:
    """The move named by ``text``: an exact name, or a prefix of exactly one name."""
    text = " ".join(text.lower().split())
    exact = [s for s in steps if s.move == text]
    if exact:
        return exact[0]
    prefixed = [s for s in steps if s.move.startswith(text)] if text else []
    return prefixed[0] if len(prefixed) == 1 else None


def _optimal(board: Board, position: Position, role: str) -> str:
    answer = solve(board, Query(role, "value", position))
    return answer.line[0]["move"]


def play(board: Board, humans: set[str], lines: Iterator[str], say: Callable[[str], None],
         start: Position) -> Outcome:
    """Run one game from ``start``; roles in ``humans`` read their moves from ``lines``."""
    for role in humans:
        if role not in board.rules.roles:
            raise QueryError(f"--as {role}: unknown role", f"roles are: {', '.join(board.rules.roles)}")
    rules = board.rules
    position = start
    say(draw_position(board, position))
    plies = 0
    while True:
        end, steps = examine(board, position)
        if end is None and position.step >= rules.last_step:
            end = "timeout"
        if end is not None:
            scores = rules.timeout if end == "timeout" else next(e.scores for e in rules.ends if e.name == end)
            say(f"\nGame over after {plies} plies: {end}.")
            say("Scores: " + ", ".join(f"{r} {scores[r]}" for r in rules.roles))
            best = max(scores.values())
            winners = [r for r in rules.roles if scores[r] == best]
            say(f"{' and '.join(winners).capitalize()} win{'s' if len(winners) == 1 else ''}!"
                if len(winners) < len(rules.roles) else "A draw.")
            return Outcome(end, dict(scores), plies)
        (role,) = rules.turns[position.side]
        here = dict(position.pieces)[role]
        say(f"\n{role.capitalize()}'s turn (step {position.step}):")
        say(f"Current position: {_cell(here)}")
        if not steps:
            say("No legal move: the game cannot go on.")
            return Outcome("stuck", dict(rules.timeout), plies)
        say("Available moves: " + ", ".join(f"{s.move} {_cell(dict(s.position.pieces)[role])}" for s in steps))
        if role in humans:
            chosen = None
            while chosen is None:
                say("Enter move (or hint, board, quit): ")
                try:
                    text = next(lines).strip()
                except StopIteration:
                    say("\nInput ended.")
                    return Outcome("quit", {}, plies)
                if text == "quit":
                    return Outcome("quit", {}, plies)
                if text == "board":
                    say(draw_position(board, position))
                    continue
                if text == "hint":
                    answer = solve(board, Query(role, "value", position))
                    for m in answer.moves:
                        plies_text = "-" if m.plies is None else m.plies
                        say(f"  {m.move:<14} value {m.value:>4}  plies {plies_text}")
                    continue
                chosen = _choose(text, steps)
                if chosen is None:
                    say(f"'{text}' is not one of the available moves.")
        else:
            name = _optimal(board, position, role)
            chosen = next(s for s in steps if s.move == name)
            say(f"{role} plays: {chosen.move}")
        there = dict(chosen.position.pieces)[role]
        say(f"Moved to {_cell(there)}" if there != here else f"Stays at {_cell(here)}")
        position = chosen.position
        plies += 1
