"""How hard a level is for the role that must win it: measured along the winning line.

* ``plies``: the fastest forced win (the forced escape of the Mummy Maze explorer);
* ``winning_first_moves``: the role's first moves that keep a forced win, counting moves that
  lead to the same position once (as ``gridsolve verify`` counts them);
* ``losing_share``: along the principal line, of all the role's moves (distinct positions)
  in the positions where it is to move, the share after which it no longer forces the win.
"""
from __future__ import annotations

from dataclasses import dataclass

from .explore import examine
from .model import Board
from .position import Position, Query
from .solver import Answer, solve


@dataclass(frozen=True)
class Difficulty:
    plies: int | None
    winning_first_moves: int
    losing_moves: int                 # along the line, summed over the role's turns
    moves: int
    turns: int                        # the role's turns on the line

    @property
    def losing_share(self) -> float:
        return self.losing_moves / self.moves if self.moves else 0.0

    def describe(self, role: str) -> str:
        return (f"forced win in {self.plies} plies; {self.winning_first_moves} winning first "
                f"move{'s' if self.winning_first_moves != 1 else ''}; {self.losing_share:.0%} of {role}'s "
                f"moves along the winning line lose the win ({self.losing_moves} of {self.moves} "
                f"in {self.turns} turns)")


def winning_moves(board: Board, position: Position, answer: Answer) -> tuple[set, set, dict]:
    """(winning, all) successor positions of the side to move, and {move: successor}."""
    _, steps = examine(board, position)
    after = {step.move: step.position for step in steps}
    everything = {_key(p) for p in after.values()}
    wins = {_key(after[m.move]) for m in answer.moves if m.win and m.move in after}
    return wins, everything, after


def _key(position: Position) -> tuple:
    return position.pieces, position.side


def measure(board: Board, role: str, start: Position, answer: Answer, horizon: int | None = None) -> Difficulty:
    """The difficulty of a won level; ``answer`` is the value query from ``start`` (looking
    ``horizon`` plies ahead, None: to the step limit)."""
    side = board.rules.side_of(role)
    position, current = start, answer
    first = losing = total = turns = 0
    for played, ply in enumerate(answer.line):
        if position.side == side:
            if current is None:
                ahead = None if horizon is None else horizon - played
                current = solve(board, Query(role, "value", position, ahead))
            wins, everything, after = winning_moves(board, position, current)
            if turns == 0:
                first = len(wins)
            turns += 1
            losing += len(everything - wins)
            total += len(everything)
        else:
            _, steps = examine(board, position)
            after = {step.move: step.position for step in steps}
        if ply["move"] not in after:
            break
        position, current = after[ply["move"]], None
    return Difficulty(answer.win_plies, first, losing, total, turns)
