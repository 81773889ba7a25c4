"""``gridsolve ask GAME.kif``: many questions about one GDL game from one grounding.

Each question is one line of JSON with the options of ``gridsolve solve GAME.kif``::

    {"role": "oplayer", "query": "win", "at": "(cell 1 1 x) (control oplayer)", "horizon": 5}

(every key optional; ``"line": false`` leaves out the principal line; blank lines and lines
starting with ``#`` are skipped).  One :class:`~gridsolve.gdl.solving.GdlSession` answers them
all: the game is ground once, and a question about a state an earlier exploration reached (with
no horizon) is read off that exploration's graph, so a question about the initial state first
lets every later question about a reachable state share its exploration.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from ..errors import GridsolveError, LimitError, QueryError
from .questions import Reply, question_fields
from ..solve.common.limits import Limits
from ..gdl.solving import GdlSession

KEYS = ("role", "query", "at", "horizon", "line", "search")


def _question(text: str) -> dict:
    fields = question_fields(text)
    unknown = sorted(set(fields) - set(KEYS))
    if unknown:
        raise QueryError(f"{unknown[0]}: not a question key of a GDL game", f"use {', '.join(KEYS)}")
    if "at" in fields and not isinstance(fields["at"], str):
        raise QueryError("at: the state is one string of fluents", 'write "at": "(cell 1 1 x) (control oplayer)"')
    if "horizon" in fields and not (isinstance(fields["horizon"], int) and not isinstance(fields["horizon"], bool)):
        raise QueryError("horizon: not a whole number of steps", 'write e.g. "horizon": 5')
    return fields


def ask_gdl(path: Path | str, lines: Iterable[str], limits: Limits | None = None) -> Iterator[Reply]:
    """The reply to each question line of ``lines`` about the GDL game in ``path`` (a
    :class:`~gridsolve.ask.questions.Reply` each: its answer as ``solve --json`` writes
    it, or the error it raised; a limit reached stops the questions after it)."""
    session = GdlSession(path, limits)
    for number, text in enumerate(lines, 1):
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        try:
            fields = _question(text)
            answer = session.answer(fields.get("role"), fields.get("query", "value"), fields.get("at"),
                                    fields.get("horizon"), fields.get("line", True) is not False,
                                    fields.get("search", "auto"))
        except LimitError as exc:
            yield Reply(number, error=exc)
            return
        except GridsolveError as exc:
            yield Reply(number, error=exc)
            continue
        yield Reply(number, answer.as_dict())
