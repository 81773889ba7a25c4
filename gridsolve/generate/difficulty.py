"""How hard a level is for the role that must win it: measured along the winning line.

* ``plies``: the fastest forced win (the forced escape of the Mummy Maze explorer);
* ``winning_first_moves``: the role's first moves that keep a forced win, counting moves that
  lead to the same position once (as ``gridsolve verify`` counts them);
* ``losing_share``: along the principal line, of all the role's moves (distinct positions)
  in the positions where it is to move, the share after which it no longer forces the win.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..language import wording
from ..compile.planning import Mode
from ..compile.compiler import compile_program
from ..solve.program.explore import examine
from ..language.model import Board
from ..language.position import Position, Query
from ..solve.common.answer import Answer
from ..solve.race.ranks import race_ranks
from ..solve.common.limits import Limits
from ..solve.graph.codec import PositionCodec
from ..solve.dispatch.dispatcher import solve
from ..verify.verify import winning_first_moves
from ..language.kinds import QueryKind


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
        return (f"forced win in {wording.plies(self.plies)}; {self.winning_first_moves} winning first "
                f"move{'s' if self.winning_first_moves != 1 else ''}; {self.losing_share:.0%} of {role}'s "
                f"moves along the winning line lose the win ({self.losing_moves} of {self.moves} "
                f"in {self.turns} turns)")


def winning_moves(board: Board, role: str, position: Position, answer: Answer) -> tuple[set, set, dict]:
    """(winning, all) successor positions of the side to move, and {move: successor}.  Where
    the role's team moves at once with others, its own moves instead of the positions."""
    _, steps = examine(board, position)
    after = {step.move: step.position for step in steps}
    if board.rules.split_turn(position.side, role):
        return {m.move for m in answer.moves if m.win}, {m.move for m in answer.moves}, after
    everything = {_key(p) for p in after.values()}
    wins = {_key(after[m.move]) for m in answer.moves if m.win and m.move in after}
    return wins, everything, after


def _key(position: Position) -> tuple:
    return position.pieces, position.side


def measure(board: Board, role: str, start: Position, answer: Answer, horizon: int | None = None,
            limits: Limits | None = None) -> Difficulty:
    """The difficulty of a won level; ``answer`` is the value query from ``start`` (looking
    ``horizon`` plies ahead, None: to the step limit).  Where the race solver answers, one
    grounding ranks every position reachable from ``start`` and the moves along the line are
    read off the ranks; elsewhere each of the role's positions on the line is solved."""
    side = board.rules.side_of(role)
    ranked = win_ranks(board, role, start, horizon)
    current = answer
    first = losing = total = turns = 0
    for played, ply in enumerate(answer.line):
        position = ply.before
        if position.side == side:
            if ranked is not None:
                wins, everything = _ranked_moves(board, position, ranked, played)
            else:
                if current is None:
                    ahead = None if horizon is None else horizon - played
                    current = solve(board, Query(role, QueryKind.VALUE, position, ahead), limits)
                wins, everything, _ = winning_moves(board, role, position, current)
            if turns == 0:             # counted as `gridsolve verify` counts them
                first = len(set(winning_first_moves(board, role, start, answer).values()))
            turns += 1
            losing += len(everything - wins)
            total += len(everything)
        current = None
    return Difficulty(answer.win_plies, first, losing, total, turns)


@dataclass(frozen=True)
class WinRanks:
    """The role's fastest forced win from every position reachable from a start (race games)."""

    ranks: dict            # position term -> plies of the fastest forced win
    codec: PositionCodec   # the board's compiled position terms
    remaining: int         # plies left at the start

    def wins(self, position: Position, plies_left: int) -> bool:
        rank = self.ranks.get(self.codec.text(position))
        return rank is not None and rank <= plies_left


def win_ranks(board: Board, role: str, start: Position, horizon: int | None) -> WinRanks | None:
    """The ranks of ``role``'s win race for every position reachable from ``start``, from one
    grounding of the race solver's program; None where the race solver does not answer."""
    program = compile_program(board, Query(role, QueryKind.VALUE, start, horizon))
    if program.mode is not Mode.RACE or program.plan is None or program.plan.win is None:
        return None
    ranks = race_ranks(program, program.plan.win, board=board)
    return WinRanks(ranks, PositionCodec(board, program.layout), program.remaining)


def _ranked_moves(board: Board, position: Position, ranked: WinRanks, played: int) -> tuple[set, set]:
    """(winning, all) successor positions, as :func:`winning_moves`, read off the ranks: after
    the move, ``played + 1`` plies are gone."""
    _, steps = examine(board, position)
    everything = {_key(step.position) for step in steps}
    left = ranked.remaining - played - 1
    wins = {_key(step.position) for step in steps if ranked.wins(step.position, left)}
    return wins, everything
