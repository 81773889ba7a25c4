"""The studio's calls into ``generate`` and ``play``, in one place: where their library entry
points change, only this module follows."""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterator

from ..generate.generate import Request, format_generated, generate, parse_range, parse_size, progress_lines
from ..generate.genchoices import DEFAULT_TIMEOUT, REQUIREMENTS
from ..language.model import Board
from ..play import Game

__all__ = ["Game", "REQUIREMENTS", "generate_levels"]


def generate_levels(like: Path, out: Path, options: dict, echo: Callable[[str], None],
                    fraction: Callable[[float], None]) -> dict:
    """``gridsolve generate --like LIKE --out OUT`` with the page's ``options`` (size, walls,
    require, role, plies, count, seed, timeout as the command line writes them)."""
    count = int(options.get("count") or 1)
    timeout = options.get("timeout")
    request = Request(like=like, size=parse_size(options.get("size") or None),
                      walls=parse_range("--walls", options.get("walls") or None),
                      require=options.get("require") or "win", role=options.get("role") or None,
                      plies=parse_range("--plies", options.get("plies") or None), count=count,
                      seed=int(options.get("seed") or 1), out=out, name=options.get("name") or None,
                      timeout=float(timeout) if timeout else DEFAULT_TIMEOUT, timeout_given=bool(timeout))
    lines = progress_lines(echo, every=1.0)

    def progress(state) -> None:
        lines(state)
        fraction(state.done / max(1, state.count))
    report = generate(request, progress)
    return {"boards": [str(b.path) for b in report.boards], "summary": format_generated(report),
            "error": None if report.error is None else str(report.error)}


def new_game(board: Board, humans: set[str], lines: Iterator[str], say: Callable[[str], None], seed: int,
             game_class=Game) -> Game:
    """A game of ``play`` (the same opponent: the solver's strategy, secret marks unpeeked)."""
    return game_class(board, humans, lines, say, None, seed)
