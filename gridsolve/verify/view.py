"""What the report page (``verify --report``) shows of a board beside its checks: the first
role's answer from the initial position, every move's value, the principal line and its
pictures (:func:`gridsolve.svg.board_svg`: the whole line, and the position after each ply).

Measured in the worker that checks the board, by the board's own :class:`Asker` (the
expectations about the initial position have ground it already)."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ..errors import GridsolveError
from ..language.position import make_query
from ..render import line_move, puzzle_verdict, verdict
from ..solve.dispatch.asker import Asker
from ..svg import board_svg

STEP_PICTURES = 200    # a line of more plies has no picture a ply (the page shows the whole line's)


@dataclass(frozen=True)
class Move:
    """One move of the side to move, with its value for the role and the plies after it."""

    move: str
    value: int | None
    plies: int | None
    win: bool | None


@dataclass(frozen=True)
class Step:
    """Ply ``index`` (from 1) of the principal line (``move``: who moves and how, as ``gridsolve
    solve`` says it) and the picture of the position after it, with that ply's arrow."""

    index: int
    move: str
    picture: str | None


@dataclass(frozen=True)
class BoardView:
    """The answer and pictures of one board (``note``: why there is no answer, else empty)."""

    width: int
    height: int
    role: str
    verdict: str
    win: bool | None
    value: int | None
    plies: int | None
    moves: tuple[Move, ...]
    steps: tuple[Step, ...]
    picture: str                   # the initial position with the whole line
    start: str                     # the initial position alone (the line's step 0)
    note: str = ""


def board_view(board, asker: Asker) -> BoardView:
    """The view of ``board`` from its initial position (the first role's value question; the
    robust one where the board leaves secret obstacles unplaced); a question the solvers cannot
    answer leaves the picture without a line and says why."""
    query = make_query(board, hidden=bool(board.unplaced))
    try:
        answer = asker.ask(query)
    except GridsolveError as exc:
        alone = board_svg(board, query.position)
        return BoardView(board.width, board.height, query.role, "", None, None, None, (), (), alone, alone,
                         note=str(exc))
    unlimited = board.rules.unlimited
    said = puzzle_verdict(board, answer) or verdict(answer, unlimited)
    if answer.hidden:
        said += f" (the robust answer: {answer.role} knows only the obstacles it has found)"
    line = answer.line or ()
    steps = tuple(Step(i + 1, line_move(ply),
                       board_svg(board, ply.after, dataclasses.replace(answer, line=line[i:i + 1]),
                                 title=f"{board.name}: ply {i + 1} of {len(line)}: {line_move(ply)}")
                       if len(line) <= STEP_PICTURES else None)
                  for i, ply in enumerate(line))
    moves = tuple(Move(m.move, m.value, m.plies, m.win) for m in answer.moves)
    return BoardView(board.width, board.height, answer.role, said, answer.win, answer.value, answer.plies,
                     moves, steps, board_svg(board, query.position, answer),
                     board_svg(board, query.position, title=f"{board.name}: the initial position"))
