"""The computer that does not peek: a role whose bump marks are hidden decides from what it knows.

It knows its own marks, the cells it has stood on and the obstacles it found by bumping (the
bumps it sees the others make are on its own marks, which it knows anyway).  It asks the
robust question (``solve --hidden``) from that knowledge, to the step limit; where a robust
win exists it plays it.  Otherwise, among the moves of the best robust value (those that keep
a robust survival when one does), it plays the one that wins against the largest share of the
placements it cannot rule out, each solved with full information to the step limit (all of
them, or ``SAMPLES`` drawn with the seed); between equals it never walks into an obstacle it
has found, then goes nearer its goal.
"""
from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass, replace

from ..language import wording
from ..language.model import DELTA, Board, Cell
from ..language.position import Position, Query
from ..language.secret import allowed_cells, hidden_marks, secret_count
from .placement import goals, routes
from ..solve.hidden import knowing
from ..solve.hidden.placements import placement_values
from ..errors import LimitError
from ..solve.common.answer import Answer
from ..solve.common.capabilities import ROBUST, serves
from ..solve.common.limits import Limits
from ..solve.dispatch.dispatcher import solve
from ..language.kinds import QueryKind

ROBUST_HORIZON = 6       # plies the robust question looks ahead where the whole game does not fit
SHARE_HORIZON = 8        # plies each placement is solved ahead where the robust search does not apply
SAMPLES = 60             # placements solved at most per decision (beyond: drawn with the seed)


@dataclass
class Blind:
    """What a role knows of its hidden marks in a game."""

    stood: set[Cell]
    found: set[Cell]


@dataclass
class Choice:
    move: str
    why: str
    robust: Answer
    shares: dict[str, float]       # move -> share of the placements solved that it wins
    solved: int                    # placements solved
    possible: int                  # placements the role cannot rule out


def known_position(board: Board, role: str, position: Position, blind: Blind) -> Position:
    """``position`` with what ``role`` knows: cells known free and obstacles found."""
    marks = hidden_marks(board, role)
    found = set()
    for cell in blind.found:
        mark = next((m for m in marks if cell in allowed_cells(board, m)), marks[0])
        found.add((mark, cell))
    return replace(position, free=frozenset(blind.stood), found=frozenset(found))


def placements(board: Board, role: str, blind: Blind, rng: random.Random, limit: int) -> tuple[list[dict], int]:
    """The placements of ``role``'s hidden marks it cannot rule out (all, or ``limit`` drawn with
    ``rng``) and how many there are."""
    options = []
    for mark in hidden_marks(board, role):
        have = [c for c in sorted(blind.found) if c in allowed_cells(board, mark)]
        rest = sorted(allowed_cells(board, mark) - blind.stood - blind.found)
        options.append((mark, have, rest, secret_count(board, mark) - len(have)))
    total = math.prod(math.comb(len(rest), k) for _, _, rest, k in options)
    if total <= limit:
        picks = itertools.product(*[[tuple(have) + c for c in itertools.combinations(rest, k)]
                                    for _, have, rest, k in options])
        chosen = [dict(zip([m for m, *_ in options], p)) for p in picks]
    else:
        seen: set = set()
        chosen = []
        while len(chosen) < limit:
            pick = {m: tuple(have) + tuple(sorted(rng.sample(rest, k))) for m, have, rest, k in options}
            key = tuple(sorted(pick.items()))
            if key not in seen:
                seen.add(key)
                chosen.append(pick)
    return chosen, total


def robust_answer(board: Board, role: str, position: Position, blind: Blind, whole: bool = True,
                  limits: Limits | None = None) -> Answer:
    """The robust answer from what ``role`` knows, to the step limit (``answer.remaining`` says
    how far: ``ROBUST_HORIZON`` plies where the whole game does not fit, or where ``whole`` is
    False)."""
    left = board.rules.last_step - position.step
    known = known_position(board, role, position, blind)
    if whole or serves(ROBUST, board, Query(role, QueryKind.VALUE, known, hidden=True)):
        try:
            return solve(board, Query(role, QueryKind.VALUE, known, hidden=True), limits)
        except LimitError:
            pass
    return solve(board, Query(role, QueryKind.VALUE, known, min(left, ROBUST_HORIZON), hidden=True), limits)


def share_plies(board: Board, role: str, position: Position) -> int:
    """The plies each placement is solved ahead by :func:`shares`: the step limit where the
    robust search applies, else at most ``SHARE_HORIZON``."""
    left = board.rules.last_step - position.step
    if serves(ROBUST, board, Query(role, QueryKind.VALUE, position, hidden=True)):
        return left
    return min(left, SHARE_HORIZON)


def shares(board: Board, role: str, position: Position, blind: Blind, rng: random.Random,
           limits: Limits | None = None) -> tuple[dict, int, int]:
    """{move: share of the placements solved that it wins}, placements solved, placements
    possible; each placement solved with full information :func:`share_plies` ahead."""
    chosen, total = placements(board, role, blind, rng, SAMPLES)
    top = board.rules.scores_of(role)[-1]
    known = known_position(board, role, position, blind)
    plies = share_plies(board, role, position)
    if plies == board.rules.last_step - position.step and serves(ROBUST, board, Query(role, QueryKind.VALUE, known, hidden=True)):
        values = knowing.placement_values(board, role, known, chosen, limits)
    else:
        values = placement_values(board, role, known, chosen, plies, limits)
    moves = sorted({m for v in values for m in v})
    return {m: sum(1 for v in values if v.get(m) == top) / max(len(values), 1) for m in moves}, len(chosen), total


def found_bumps(board: Board, role: str, position: Position, blind: Blind) -> dict[str, Cell]:
    """{move: cell} of the moves that walk into an obstacle ``role`` has found."""
    here = position.cell(role)
    out = {}
    for move in DELTA:
        aim = target(board, here, move)
        if aim != here and aim in blind.found:
            out[move] = aim
    return out


def progress(board: Board, role: str, position: Position, blind: Blind):
    """Steps from the cell a move aims at to the role's goal, around the obstacles it knows (the
    tie-break between moves of equal worth: go ahead)."""
    seen = {c for m in board.rules.moves[role].bump_on if m not in hidden_marks(board, role)
            for c in board.marks.get(m, ())}
    here, goal = position.cell(role), goals(board, role)

    def steps(move: str) -> int:
        aim = target(board, here, move)
        if aim in blind.found or aim in seen:
            aim = here
        return 0 if aim in goal else routes(board, aim, goal, frozenset(blind.found | seen))[0]
    return steps


def target(board: Board, cell: Cell, move: str) -> Cell:
    """The cell ``move`` (one step or ``nowhere``) aims at from ``cell``."""
    return board.walk(cell, move)


def choose(board: Board, role: str, position: Position, blind: Blind, rng: random.Random,
           limits: Limits | None = None) -> Choice:
    """The move of ``role`` (to move) from its own knowledge only."""
    robust = robust_answer(board, role, position, blind, limits=limits)
    if robust.win and robust.plies is not None:
        move = robust.line[0].move.split(" (")[0]
        return Choice(move, f"robust win in {wording.plies(robust.plies)}", robust, {}, 0, 0)
    won, solved, total = shares(board, role, position, blind, rng, limits)
    best_value = max(m.value for m in robust.moves)
    keep = [m for m in robust.moves if m.value == best_value]
    if robust.survives:
        keep = [m for m in keep if m.survives] or keep
    bumps = found_bumps(board, role, position, blind)
    ahead = progress(board, role, position, blind)
    best = max(keep, key=lambda m: (won.get(m.move, 0.0), m.move not in bumps, -ahead(m.move), m.move))
    plies = share_plies(board, role, position)
    why = (f"robust value {best_value} within {wording.plies(robust.remaining)}"
           + (", keeps a robust survival" if robust.survives else "")
           + f"; wins against {won.get(best.move, 0.0):.0%} of "
           + (f"the {total} placements" if solved == total else f"{solved} of the {total} placements (drawn at random)")
           + f" it cannot rule out, each solved {wording.plies(plies)} ahead")
    if bumps and best.move not in bumps:
        why += "; not into the obstacle it found at " + ", ".join(f"({c[0]},{c[1]})" for c in sorted(bumps.values()))
    return Choice(best.move, why, robust, won, solved, total)
