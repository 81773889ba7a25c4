"""Pictures of the boards ``gridsolve generate --svg`` wrote: each board file loaded, its
question answered and drawn (:mod:`gridsolve.svg` draws; this module loads and solves).  Where
the role forces a win, the line drawn is the most testing one and its decisive choices are
ringed and named (:mod:`gridsolve.generate.testing`)."""
from __future__ import annotations

import dataclasses
from pathlib import Path

from ..language.loader import load_board
from ..language.position import make_query
from ..solve.common.limits import Limits
from ..solve.dispatch.dispatcher import solve
from ..svg import board_svg, check_target, write_svg
from ..analysis.metrics import measurable
from .testing import most_testing_line


def board_picture(path: Path, role: str | None, kind: str, horizon: int | None,
                  limits: Limits | None = None) -> str:
    """The picture of a board file from its initial position, with the answer to the question."""
    board = load_board(path)
    query = make_query(board, role, kind, horizon=horizon)
    answer, notes = solve(board, query, limits), ()
    if answer.win and measurable(board, query.role):
        testing = most_testing_line(board, query.role, query.position, horizon, limits)
        if testing is not None:
            answer = dataclasses.replace(answer, line=testing.line)
            notes = tuple((c.to, c.describe(query.role)) for c in testing.choices)
    return board_svg(board, query.position, answer, notes=notes)


def write_pictures(paths: list[Path], role: str | None, kind: str, horizon: int | None,
                   force: bool = False, limits: Limits | None = None) -> list[Path]:
    """A picture beside each board file (``NAME.svg``), answering the question; returns the files
    written.  Existing pictures are kept unless ``force`` (then nothing is written)."""
    targets = [path.with_suffix(".svg") for path in paths]
    for target in targets:
        check_target(str(target), force)
    for path, target in zip(paths, targets):
        write_svg(board_picture(path, role, kind, horizon, limits), target, force=True)
    return targets
