"""The computer that does not peek: a role whose bump marks are hidden decides from what it knows.

It knows its own marks, the cells it has stood on and the obstacles it found by bumping (the
bumps it sees the others make are on its own marks, which it knows anyway).  It asks the
robust question (``solve --hidden``) from that knowledge; where a robust win exists it plays
it.  Otherwise it plays the move that wins against the largest share of the placements it
cannot rule out, each solved with full information (:func:`gridsolve.solve.share.placement_values`;
a seeded sample when there are too many), among the moves that keep a robust survival when
one exists.
"""
from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass, replace

from .language.model import DELTA, Board, Cell
from .language.position import Position, Query
from .language.secret import allowed_cells, hidden_marks, secret_count
from .placement import goals, routes
from .solve.share import placement_values
from .errors import LimitError
from .solve.robust import solve_hidden
from .solve.solver import Answer, solve

ROBUST_HORIZON = 6       # plies the robust question looks ahead in play
SHARE_HORIZON = 8        # plies each placement is solved ahead
SAMPLES = 12             # placements solved at most per decision
WHOLE_PLIES = 10         # hint: the robust answer for the rest of the game, if settled within this many plies


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


def robust_answer(board: Board, role: str, position: Position, blind: Blind, whole: bool = False) -> Answer:
    """The robust answer from what ``role`` knows, within ``ROBUST_HORIZON`` plies; with ``whole``,
    for the rest of the game where that is settled within ``WHOLE_PLIES``."""
    left = board.rules.last_step - position.step
    known = known_position(board, role, position, blind)
    if whole and left > ROBUST_HORIZON:
        try:
            return solve_hidden(board, Query(role, "value", known, hidden=True), deepest=WHOLE_PLIES)
        except LimitError:
            pass
    return solve(board, Query(role, "value", known, min(left, ROBUST_HORIZON), hidden=True))


def shares(board: Board, role: str, position: Position, blind: Blind, rng: random.Random) -> tuple[dict, int, int]:
    """{move: share of the placements solved that it wins}, placements solved, placements possible."""
    chosen, total = placements(board, role, blind, rng, SAMPLES)
    left = board.rules.last_step - position.step
    top = board.rules.scores_of(role)[-1]
    values = placement_values(board, role, known_position(board, role, position, blind), chosen,
                              min(left, SHARE_HORIZON))
    moves = sorted({m for v in values for m in v})
    return {m: sum(1 for v in values if v.get(m) == top) / max(len(values), 1) for m in moves}, len(chosen), total


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
    if move == "nowhere" or not board.open_step(cell, move):
        return cell
    return (cell[0] + DELTA[move][0], cell[1] + DELTA[move][1])


def choose(board: Board, role: str, position: Position, blind: Blind, rng: random.Random) -> Choice:
    """The move of ``role`` (to move) from its own knowledge only."""
    robust = robust_answer(board, role, position, blind)
    if robust.win and robust.plies is not None:
        move = robust.line[0]["move"].split(" (")[0]
        return Choice(move, f"robust win in {robust.plies} plies", robust, {}, 0, 0)
    won, solved, total = shares(board, role, position, blind, rng)
    keep = [m for m in robust.moves if m.survives] if robust.survives else robust.moves
    why = "keeps a robust survival, " if robust.survives else ""
    ahead = progress(board, role, position, blind)
    best = max(keep, key=lambda m: (won.get(m.move, 0.0), m.value, -ahead(m.move), m.move))
    return Choice(best.move, f"{why}wins against {won.get(best.move, 0.0):.0%} of the placements it cannot "
                  f"rule out", robust, won, solved, total)
