"""What the report page (``verify --report``) shows of a GDL game's file (a YAML file naming a
``.kif`` or ``.gdl`` game, :mod:`gridsolve.verify.gdlgame`): the first role's answer from the
initial state, every move's value, the principal line and the states along it
(:mod:`gridsolve.gdlpicture`), in the same :class:`~gridsolve.verify.view.BoardView` a board has.
The answer is read from the session that checked the file's expectations (ground once)."""
from __future__ import annotations

from ..errors import GridsolveError
from ..gdl.kif import read_kif
from ..gdl.solving import GdlSession
from ..solve.common.answer import Answer
from ..gdl.text import gdl_verdict, joint_text
from ..gdlpicture import find_grid, line_svg, state_svg, thumbnail
from .gdlgame import GdlGameFile
from .view import STEP_PICTURES, BoardView, Move, Step


def gdl_answer(game: GdlGameFile, session: GdlSession | GridsolveError) -> Answer | GridsolveError:
    """The first role's value from the initial state, with its line (or the error that stopped it)."""
    if isinstance(session, GridsolveError):
        return session
    try:
        return session.answer(game.roles[0] if game.roles else None, "value")
    except GridsolveError as exc:
        return exc


def gdl_initial_answer(answer: Answer | GridsolveError) -> dict | None:
    """The answer as ``verify --format json`` writes it (``{"role", "value", "win", "plies"}``)."""
    if isinstance(answer, GridsolveError):
        return None
    return {"role": answer.role, "value": answer.value, "win": answer.win, "plies": answer.plies}


def gdl_view(game: GdlGameFile, session: GdlSession | GridsolveError,
             answer: Answer | GridsolveError) -> BoardView:
    """The view of the game from its initial state; where no answer came, the initial state's
    picture (if the game could be read) and why."""
    if isinstance(answer, GridsolveError):
        fluents = [] if isinstance(session, GridsolveError) else session.game.fluent_texts(session.game.init)
        grid = find_grid_of(fluents)
        picture = state_svg(fluents, f"{game.name}: the initial state")
        return BoardView(grid[0], grid[1], game.roles[0] if game.roles else "", "", None, None, None, (), (),
                         picture, thumbnail(fluents), note=str(answer))
    first = answer.position["fluents"]
    line = answer.line or []
    steps = tuple(Step(i + 1, joint_text(step), len(line) <= STEP_PICTURES) for i, step in enumerate(line))
    states = [first] + [list(step.after.fluents) for step, shown in zip(line, steps) if shown.pictured]
    titles = [f"{game.name}: the initial state"] + [
        f"{game.name}: step {s.index} of {len(line)}: {s.move}" for s in steps if s.pictured]
    said = gdl_verdict(answer)
    moves = tuple(Move(m.move, m.value, m.plies, m.win) for m in answer.moves)
    width, height = find_grid_of(first)
    return BoardView(width, height, answer.role, said, answer.win, answer.value, answer.plies, moves, steps,
                     line_svg(states, titles, f"{game.name}: {said}", [s.move for s in steps]),
                     thumbnail(states[-1]))


def find_grid_of(fluents: list[str]) -> tuple[int, int]:
    """The width and height of the grid the fluents draw (0, 0: none)."""
    grid = find_grid([read_kif(" ".join(fluents), "<state>")] if fluents else [])
    return (grid.width, grid.height) if grid else (0, 0)
