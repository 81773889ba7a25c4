"""What the report page (``verify --report``) shows of a board beside its checks: the first
role's answer from the initial position, every move's value, the principal line and its
picture (:func:`gridsolve.svg.stepped_svg`: the whole line, and the position after each ply).

Measured in the worker that checks the board, by the board's own :class:`Asker` (the
expectations about the initial position have ground it already)."""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import GridsolveError
from ..language.position import make_query
from ..render import line_move, puzzle_verdict, verdict
from ..solve.dispatch.asker import Asker
from ..svg import board_svg, stepped_svg, thumbnail_svg

STEP_PICTURES = 200    # a line of more plies is not pictured ply by ply (the page shows the whole line)


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
    solve`` says it); ``pictured``: the view's picture shows the position after it at ``#step-INDEX``."""

    index: int
    move: str
    pictured: bool


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
    picture: str                   # the whole line; at #step-0 the initial position, at #step-K after ply K
    thumbnail: str                 # the board and the whole line, small (thumbnail_svg)
    note: str = ""


def initial_query(board):
    """The first role's value question from the initial position (the robust one where the board
    leaves secret obstacles unplaced): the one the page and ``verify --format json`` answer."""
    return make_query(board, hidden=bool(board.unplaced))


def initial_answer(board, asker: Asker) -> dict | None:
    """The answer to :func:`initial_query` as ``verify --format json`` writes it (``{"role",
    "value", "win", "plies"}``); None: the solvers cannot answer it."""
    try:
        answer = asker.ask(initial_query(board))
    except GridsolveError:
        return None
    return {"role": answer.role, "value": answer.value, "win": answer.win, "plies": answer.plies}


def board_view(board, asker: Asker) -> BoardView:
    """The view of ``board`` from its initial position (:func:`initial_query`); a question the
    solvers cannot answer leaves the picture without a line and says why."""
    query = initial_query(board)
    try:
        answer = asker.ask(query)
    except GridsolveError as exc:
        return BoardView(board.width, board.height, query.role, "", None, None, None, (), (),
                         board_svg(board, query.position), thumbnail_svg(board, query.position, None),
                         note=str(exc))
    unlimited = board.rules.unlimited
    said = puzzle_verdict(board, answer) or verdict(answer, unlimited)
    if answer.hidden:
        said += f" (the robust answer: {answer.role} knows only the obstacles it has found)"
    line = answer.line or ()
    steps = tuple(Step(i + 1, line_move(ply), len(line) <= STEP_PICTURES) for i, ply in enumerate(line))
    titles = [f"{board.name}: the initial position"] + [
        f"{board.name}: ply {step.index} of {len(line)}: {step.move}" for step in steps if step.pictured]
    moves = tuple(Move(m.move, m.value, m.plies, m.win) for m in answer.moves)
    return BoardView(board.width, board.height, answer.role, said, answer.win, answer.value, answer.plies,
                     moves, steps, stepped_svg(board, query.position, answer, titles),
                     thumbnail_svg(board, query.position, answer))
