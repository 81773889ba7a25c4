"""The studio's calls into ``generate`` and ``play``, in one place: where their library entry
points change, only this module follows."""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterator

from ..generate.generate import generate
from ..generate.report import format_generated, progress_lines
from ..generate.request import request_from_options
from ..errors import QueryError
from ..generate.genchoices import REQUIREMENTS, SYMMETRIES
from ..language.model import Board
from ..play.game import Game
from ..solve.common.limits import DEFAULT_MEMORY, Limits

__all__ = ["Game", "REQUIREMENTS", "generate_levels"]


def generate_levels(like: Path, out: Path, options: dict, echo: Callable[[str], None],
                    fraction: Callable[[float], None], memory: int = DEFAULT_MEMORY) -> dict:
    """``gridsolve generate --like LIKE --out OUT`` with the page's ``options`` (size, walls,
    require, role, plies, horizon, count, seed, symmetry, keep, timeout as the command line
    writes them; allow_sealed and allow_trivial: the flags).  ``timeout`` reads as
    ``--timeout`` does: empty for the default budget (:data:`DEFAULT_TIMEOUT`), 0 for no limit."""
    def number(key: str, default):
        given = options.get(key)
        text = "" if given is None else str(given).strip()     # 0 is a number, not an empty field
        if not text:
            return default
        try:
            return float(text) if key == "timeout" else int(text)
        except ValueError:
            raise QueryError(f"{key}: '{text[:20]}' is not a number") from None

    def choice(key: str, allowed, default=None):
        value = options.get(key) or default
        if value is not None and value not in allowed:
            raise QueryError(f"{key}: '{str(value)[:20]}' is not one of {', '.join(allowed)}")
        return value
    timeout = number("timeout", None)
    if timeout is not None and timeout < 0:
        raise QueryError(f"timeout: {timeout:g} is negative", "give the seconds, or 0 for no limit")
    request = request_from_options(like=like, size=options.get("size") or None, walls=options.get("walls") or None,
                                   require=choice("require", REQUIREMENTS), role=options.get("role") or None,
                                   plies=options.get("plies") or None, horizon=number("horizon", None),
                                   count=number("count", 1), seed=number("seed", 1), out=out,
                                   name=options.get("name") or None, symmetry=choice("symmetry", SYMMETRIES),
                                   allow_sealed=bool(options.get("allow_sealed")),
                                   allow_trivial=bool(options.get("allow_trivial")),
                                   keep=str(options.get("keep") or "") or None, timeout=timeout, memory=memory)
    lines = progress_lines(echo, every=1.0)

    def progress(state) -> None:
        lines(state)
        fraction(state.done / max(1, state.count))
    report = generate(request, progress)
    return {"boards": [str(b.path) for b in report.boards], "summary": format_generated(report),
            "error": None if report.error is None else str(report.error)}


def new_game(board: Board, humans: set[str], lines: Iterator[str], say: Callable[[str], None], seed: int,
             limits: Limits, game_class=Game) -> Game:
    """A game of ``play`` (the same opponent: the solver's strategy, secret marks unpeeked)."""
    return game_class(board, humans, lines, say, None, seed, limits=limits)
