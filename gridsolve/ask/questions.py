"""``gridsolve ask``: many questions about one board, answered from one grounding.

Each question is one line of JSON with the options of ``gridsolve solve``::

    {"role": "mummy", "query": "win", "at": {"explorer": [2, 3]}, "turn": "mummy", "horizon": 10}

(every key optional; ``at`` may also be a list of ``"piece=x,y"``; ``"line": false`` asks
for the answer without its principal line).  Blank lines and lines
starting with ``#`` are skipped.  The answers come from a :class:`~gridsolve.solve.dispatch.asker.Asker`:
the questions the race solver answers share one grounding; when all questions are known in
advance (a file), it is rooted at all their positions, so that it grounds once.

With ``--levels`` (:func:`ask_levels`) each line also holds its board (``"board"``: the board
file's text, or its keys as an object), for tools that keep levels elsewhere than in files; the
boards of one rule set and size share the per-cell tables of the game's pieces
(:mod:`gridsolve.solve.graph.sharedtables`), so many small boards cost about what ``verify``
spends on each.
"""
from __future__ import annotations

import difflib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

from ..solve.common.limits import Limits
from ..solve.dispatch.asker import Asker
from ..errors import GridsolveError, QueryError
from ..language.loader import board_of
from ..language.model import Board
from ..language.yamlsrc import load_text
from ..language.position import Query, make_query
from ..language.kinds import QueryKind

QUESTION_KEYS = ("role", "query", "at", "turn", "step", "gates", "horizon", "hidden", "free", "found", "line")
BOARD_KEY = "board"     # --levels: the board of the question, in the line itself


@dataclass
class Reply:
    """The answer to the question on ``line`` of the input, or the error it raised; as JSON
    (:meth:`as_dict`), the line number is ``question``."""

    line: int
    answer: dict | None = None
    error: GridsolveError | None = None

    def as_dict(self) -> dict:
        if self.error is not None:
            return {"question": self.line, "error": str(self.error), "exit_code": self.error.exit_code}
        return {"question": self.line, **self.answer}


def _at_words(value) -> tuple[str, ...]:
    if isinstance(value, dict):
        words = []
        for piece, cell in value.items():
            if not (isinstance(cell, list) and len(cell) == 2 and all(isinstance(v, int) for v in cell)):
                raise QueryError(f"at: {piece}: {json.dumps(cell)} is not a cell", "write a cell as [x, y]")
            words.append(f"{piece}={cell[0]},{cell[1]}")
        return tuple(words)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    raise QueryError(f"at: {json.dumps(value)} is neither a mapping nor a list",
                     'write {"explorer": [2, 3]} or ["explorer=2,3"]')


@dataclass(frozen=True)
class Question:
    """A parsed question line: the query, and whether its principal line is asked for."""

    query: Query
    line: bool = True


def question_fields(text: str) -> dict:
    """The JSON object of one question line (a QueryError where it is none; also GDL's ``ask``)."""
    try:
        fields = json.loads(text)
    except json.JSONDecodeError as exc:
        raise QueryError(f"not a JSON object: {exc.msg} at column {exc.colno}",
                         'write one object a line, e.g. {"role": "mummy", "query": "win"}') from None
    if not isinstance(fields, dict):
        raise QueryError("not a JSON object", 'write one object a line, e.g. {"role": "mummy", "query": "win"}')
    return fields


def parse_question(board: Board, text: str) -> Question:
    """The question a line asks (see the module docstring)."""
    return question_of(board, question_fields(text))


def question_of(board: Board, fields: dict) -> Question:
    """The question of a line's JSON object ``fields``."""
    for key in fields:
        if key not in QUESTION_KEYS:
            close = difflib.get_close_matches(key, QUESTION_KEYS, n=1)
            raise QueryError(f"unknown key '{key}'",
                             f"did you mean '{close[0]}'?" if close else f"the keys are {', '.join(QUESTION_KEYS)}")
    for key in ("step", "horizon"):
        if fields.get(key) is not None and (not isinstance(fields[key], int) or isinstance(fields[key], bool)):
            raise QueryError(f"{key}: {json.dumps(fields[key])} is not a whole number")
    for key in ("role", "query", "turn", "gates"):
        if fields.get(key) is not None and not isinstance(fields[key], str):
            raise QueryError(f"{key}: {json.dumps(fields[key])} is not a name")
    if not isinstance(fields.get("hidden", False), bool):
        raise QueryError(f"hidden: {json.dumps(fields['hidden'])} is not true or false")
    if not isinstance(fields.get("line", True), bool):
        raise QueryError(f"line: {json.dumps(fields['line'])} is not true or false",
                         'write "line": false to leave the principal line out')
    query = make_query(board, fields.get("role"), fields.get("query", QueryKind.VALUE),
                       at=_at_words(fields.get("at", [])), turn=fields.get("turn"), step=fields.get("step"),
                       gates=fields.get("gates"), horizon=fields.get("horizon"), hidden=fields.get("hidden", False),
                       free=_cell_words("free", fields.get("free", [])),
                       found=_cell_words("found", fields.get("found", [])))
    return Question(query, fields.get("line", True))


def _cell_words(key: str, value) -> tuple[str, ...]:
    """``free``/``found`` as the command line writes them: [[x, y], ...] or ["x,y", "MARK=x,y", ...]."""
    if not isinstance(value, list):
        raise QueryError(f"{key}: {json.dumps(value)} is not a list", f'write e.g. "{key}": [[2, 5]]')
    out = []
    for item in value:
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, list) and len(item) == 2 and all(isinstance(v, int) for v in item):
            out.append(f"{item[0]},{item[1]}")
        else:
            raise QueryError(f"{key}: {json.dumps(item)} is not a cell", "write a cell as [x, y]")
    return tuple(out)


def _parsed(board: Board, lines: Iterable[str]) -> Iterator[tuple[int, Question | None, GridsolveError | None]]:
    """(line number, question, None) or (line number, None, error) for each question line."""
    for number, line in enumerate(lines, 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            yield number, parse_question(board, line), None
        except GridsolveError as exc:
            yield number, None, exc


def ask_many(board: Board, lines: Iterable[str], limits: Limits | None = None) -> Iterator[Reply]:
    """A reply to each question line, in order.  A list of lines is read through first, so
    that one grounding is rooted at every position asked about; other iterables (standard
    input) are answered as they come.  The race solver's answers are read off its ranks
    (:meth:`~gridsolve.solve.race.racesolver.Engine.answer`): a question costs the same however many
    were asked before."""
    items: Iterable = _parsed(board, lines)
    asker = Asker(board, limits=limits)
    if isinstance(lines, list):
        items = list(items)
        asker = Asker.for_queries(board, [question.query for _, question, _ in items
                                          if question is not None and not question.query.hidden])
    for number, question, error in items:
        try:
            if error is not None:
                raise error
            yield Reply(number, asker.ask(question.query, line_plies=None if question.line else 0).as_dict())
        except GridsolveError as exc:
            yield Reply(number, error=exc)


def ask_levels(lines: Iterable[str], source: Path, limits: Limits | None = None) -> Iterator[Reply]:
    """A reply to each line of ``lines``, each a question about a board given in the line itself:
    the question's keys and ``"board"``, the board file's text (YAML) or its keys as a JSON
    object; its rule set is found as for a board file in the folder of ``source`` (the lines'
    file).  Consecutive lines with the same board share its :class:`Asker` (one grounding)."""
    kept: tuple[str, Asker] | None = None
    for number, line in enumerate(lines, 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            fields = question_fields(line)
            text = fields.pop(BOARD_KEY, None)
            if isinstance(text, dict):
                text = json.dumps(text)
            if not isinstance(text, str):
                raise QueryError('no "board" (the board file\'s text, or its keys as an object)',
                                 'write e.g. {"board": {"rules": "mummy-maze-classic", "size": [6, 6], ...}}')
            if kept is None or kept[0] != text:
                path = source.with_name(f"{source.stem}#{number}")     # (its name, where it has none)
                board = board_of(load_text(text, str(path)), path)
                kept = (text, Asker(board, limits=limits))
            asker = kept[1]
            question = question_of(asker.board, fields)
            yield Reply(number, asker.ask(question.query, line_plies=None if question.line else 0).as_dict())
        except GridsolveError as exc:
            yield Reply(number, error=exc)
