"""A GDL game's expectations: a YAML file whose top-level ``game:`` names a ``.kif`` or ``.gdl``
file (relative to the YAML file) and whose ``expect:`` block says what its values are
(docs/verify.md, docs/gdl.md).  Each item is about one ``role`` (default the first) from the
initial state, or from ``at:`` (one string of fluents, as ``solve --at``), within ``horizon``
steps where given, and checks ``value``, ``win``, ``plies`` and ``win_moves`` with their meaning
in ``gridsolve solve GAME.kif --json``.  The game is ground once for all its items
(:class:`~gridsolve.gdl.solving.GdlSession`); items about the same role, state and horizon share
one answer.
"""
from __future__ import annotations

import re
import time
from dataclasses import dataclass
from pathlib import Path

from ..errors import BoardError, GridsolveError
from ..gdl.description import read_description
from ..gdl.solving import SUFFIXES, GdlSession
from ..language.yamlsrc import load_file
from .expect import Expectation, Expected, Range

TOP_KEYS = ("game", "name", "expect")
WHERE_KEYS = ("role", "at", "horizon")
CHECKS = {"value": (int,), "win": (bool,), "plies": (int, None), "win_moves": (int, None)}

# A GDL game's expectations: a top-level `game:` naming a .kif or .gdl file.
GAME_KEY = re.compile(r"""^(?:game|"game"|'game')[ \t]*:[ \t]*["']?[^\s"'#]+\.(?:kif|gdl)\b""",
                      re.MULTILINE | re.IGNORECASE)


@dataclass
class GdlGameFile:
    """A YAML file's GDL game (``kif``) and its expectations (``position``: the ``at`` text or None)."""

    path: str
    kif: Path
    name: str
    roles: list[str]
    expectations: list[Expectation]


def names_gdl_game(raw) -> bool:
    """Does this YAML tree name a GDL game (a top-level ``game:`` and no ``rules:``)?"""
    return isinstance(raw, dict) and "game" in raw and "rules" not in raw


def game_of_file(path: Path) -> Path | None:
    """The GDL game file ``path`` is (a ``.kif`` or ``.gdl`` file) or names (a YAML file whose
    ``game:`` names one: the game checked to exist); None for any other file (a board)."""
    path = Path(path)
    if path.suffix.lower() in SUFFIXES:
        return path
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    if GAME_KEY.search(text) is None:
        return None
    raw = load_file(path)
    return read_gdl_game_file(path, raw).kif if names_gdl_game(raw) else None


def read_gdl_game_file(path: Path, raw) -> GdlGameFile:
    """The game and the expectations of the YAML file ``path`` (``raw``: its tree with lines)."""
    name = str(path)

    def fail(line, message, hint=None):
        raise BoardError(name, line, message, hint)

    for key in raw:
        if key not in TOP_KEYS:
            fail(raw.line_of(key), f"unknown key '{key}' in a GDL game's file", f"use {', '.join(TOP_KEYS)}")
    game = raw["game"]
    if not isinstance(game, str) or Path(game).suffix.lower() not in SUFFIXES:
        fail(raw.line_of("game"), f"game: {game!r} is not a .kif or .gdl file", "write e.g. game: tictactoe.kif")
    kif = path.parent / game
    if not kif.is_file():
        fail(raw.line_of("game"), f"game: no such file {game} (looked for {kif})",
             "give the game's path relative to this file")
    description = read_description(kif)
    roles = [str(rule.head.args[0]) for rule in description.rules
             if rule.head.name == "role" and not rule.body and len(rule.head.args) == 1]
    items = raw.get("expect") or []
    if not isinstance(items, list):
        fail(raw.line_of("expect"), "expect: not a list", "write expect: followed by items '- value: 50'")
    expectations = [_expectation(item, index, items.line_of(index), roles, fail) for index, item in enumerate(items)]
    return GdlGameFile(name, kif, str(raw.get("name") or path.stem), roles, expectations)


def _expectation(item, index: int, line: int, roles: list[str], fail) -> Expectation:
    if not isinstance(item, dict):
        fail(line, "an expectation is a mapping", "write e.g. '- value: 50'")
    for key in item:
        if key not in WHERE_KEYS and key not in CHECKS:
            fail(item.line_of(key), f"unknown key '{key}' in an expectation of a GDL game",
                 f"use {', '.join(WHERE_KEYS + tuple(CHECKS))}")
    role = item.get("role")
    if role is not None and str(role).lower() not in roles:
        fail(item.line_of("role"), f"unknown role '{role}'", f"roles are: {', '.join(roles)}")
    at, horizon = item.get("at"), item.get("horizon")
    if at is not None and not isinstance(at, str):
        fail(item.line_of("at"), "at: the state is one string of fluents", "write at: '(cell 1 1 x) (control oplayer)'")
    if horizon is not None and (isinstance(horizon, bool) or not isinstance(horizon, int) or horizon < 0):
        fail(item.line_of("horizon"), f"horizon: {horizon!r} is not a number of steps", "give 0 or more")
    checks = []
    for key, kinds in CHECKS.items():
        if key not in item:
            continue
        value = item[key]
        if isinstance(value, dict) and key in ("plies", "win_moves"):
            value = _range(value, item.line_of(key), fail)
        elif not (value is None and None in kinds) and not (
                isinstance(value, kinds[0]) and (kinds[0] is bool or not isinstance(value, bool))):
            fail(item.line_of(key), f"{key}: {value!r} is not {'true or false' if kinds[0] is bool else 'a whole number'}"
                 + (", null or a range {min: A, max: B}" if None in kinds else ""), f"write e.g. {key}: "
                 + ("true" if kinds[0] is bool else "7"))
        checks.append(Expected(key, value, item.line_of(key)))
    if not checks:
        fail(line, "this expectation checks nothing", f"give at least one of: {', '.join(CHECKS)}")
    role = (role and str(role).lower()) or roles[0]
    stated = " ".join(part for part in (f"at {at}" if at else "", f"horizon {horizon}" if horizon is not None else "")
                      if part)
    return Expectation(index, line, role, at, horizon, stated, tuple(checks))


def _range(value: dict, line: int, fail) -> Range:
    unknown = set(value) - {"min", "max"}
    low, high = value.get("min"), value.get("max")
    if unknown or not all(v is None or (isinstance(v, int) and not isinstance(v, bool)) for v in (low, high)):
        fail(line, f"a range takes whole numbers min and max, not {dict(value)}", "write e.g. {min: 5, max: 9}")
    if low is None and high is None:
        fail(line, "an empty range", "give min, max or both, e.g. {min: 5, max: 9}")
    if low is not None and high is not None and low > high:
        fail(line, f"the range {low}..{high} is empty", "min must not be greater than max")
    return Range(low, high)


def open_session(game: GdlGameFile, limits=None) -> GdlSession | GridsolveError:
    """The game's session (read and ground once), or the error that stopped it."""
    try:
        return GdlSession(game.kif, limits)
    except GridsolveError as exc:
        return exc


def measure_gdl_game(game: GdlGameFile, limits=None, session: GdlSession | GridsolveError | None = None):
    """``(index, expected, measured, error, seconds)`` for each key of each expectation: the
    measured value, or the error (a message) that stopped it (``session``: :func:`open_session`'s,
    else one opened here)."""
    started = time.perf_counter()
    if session is None:
        session = open_session(game, limits)
    if isinstance(session, GridsolveError):
        exc = session
        for expectation in game.expectations:
            for expected in expectation.checks:
                yield expectation.index, expected, None, str(exc), time.perf_counter() - started
        return
    answers: dict = {}
    for expectation in game.expectations:
        begun = started if not answers else time.perf_counter()      # (the first: the grounding's too)
        try:
            if expectation.group not in answers:
                answers[expectation.group] = session.answer(expectation.role, "value", expectation.position,
                                                            expectation.horizon, line=False)
            answer, error = answers[expectation.group], None
        except GridsolveError as exc:
            answer, error = None, str(exc)
        seconds = time.perf_counter() - begun
        for expected in expectation.checks:
            yield (expectation.index, expected, None if answer is None else getattr(answer, expected.key), error,
                   seconds)
