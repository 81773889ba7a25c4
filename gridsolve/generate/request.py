"""The ``gridsolve generate`` request: one object built once from the command line's text (or
the studio's form, or a library caller's keywords) and shared by the run and its workers; the
rule set's good level; the command that writes the same boards."""
from __future__ import annotations

import dataclasses
import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..errors import QueryError
from .genspec import GameSpec
from ..language.enemylist import kinds_of
from ..language.model import GoodLevel
from .genspec import range_text
from .genchoices import DEFAULT_TIMEOUT, REQUIREMENTS
from ..solve.common.limits import DEFAULT_MEMORY
from ..language.kinds import RequireKind


@dataclass(frozen=True)
class Request:
    """A ``gridsolve generate`` request; ranges are (min, max) with None for an open end."""

    rules: str | None = None
    like: Path | None = None
    size: tuple | None = None
    walls: tuple = (None, None)
    require: RequireKind | None = None   # None: the rule set's good level (its generate: block), else win
    role: str | None = None
    plies: tuple = (None, None)
    horizon: int | None = None
    count: int = 1
    seed: int = 1
    out: Path = Path(".")
    name: str | None = None
    symmetry: str | None = None
    sealed_ok: bool = False
    trivial_ok: bool = False
    method: str = "auto"
    timeout: float | None = None
    force: bool = False
    keep: tuple = ()                # pieces and marks of the --like board that stay where it has them
    timeout_given: bool = True      # False: the timeout is the default budget (said so when it is reached)
    value: tuple = (None, None)     # --require value: the score the role guarantees
    metrics: tuple = ()             # --metric NAME A..B: ((name, min, max), ...)
    difficulty: str | None = None   # --difficulty easy|medium|hard
    defaults: bool = True           # False (--no-defaults): ignore the rule set's good level
    jobs: int = 1                   # worker processes searching (1: the search runs in this process)
    cluster: str | None = None      # a Dask scheduler's address: the searches run on its workers
    memory: int = DEFAULT_MEMORY    # bytes resident every solve and grounding may use (--max-memory)


_RANGE = re.compile(r"^\s*(\d*)\s*(?:(\.\.)\s*(\d*))?\s*$")


_SIZE = re.compile(r"^\s*(\d+)\s*[xX]\s*(\d+)\s*$")


def parse_range(option: str, text: str | None) -> tuple:
    """``A..B``, ``A..``, ``..B`` or ``A`` as (min, max); None: (None, None)."""
    if text is None:
        return None, None
    match = _RANGE.match(text)
    if not match or not (match.group(1) or match.group(3)):
        raise QueryError(f"{option} {text}: expected a range A..B, A.. or ..B, or a number",
                         f"e.g. {option} 20..30")
    low = int(match.group(1)) if match.group(1) else None
    high = int(match.group(3)) if match.group(3) else None
    return (low, low) if match.group(2) is None else (low, high)


_NUMBER_RANGE = re.compile(r"^\s*(\d*\.?\d*)\s*(?:(\.\.)\s*(\d*\.?\d*))?\s*$")


def parse_metric(name: str, text: str) -> tuple:
    """``--metric NAME A..B`` (numbers with decimals allowed) as (name, min, max)."""
    match = _NUMBER_RANGE.match(text or "")
    try:
        low = float(match.group(1)) if match and match.group(1) else None
        high = float(match.group(3)) if match and match.group(3) else None
    except ValueError:
        match = None
    if not match or (low is None and high is None):
        raise QueryError(f"--metric {name} {text}: expected a range A..B, A.. or ..B, or a number",
                         "e.g. --metric path_safety ..0.8")
    return (name, low, low) if match.group(2) is None else (name, low, high)


def parse_size(text: str | None) -> tuple | None:
    if text is None:
        return None
    match = _SIZE.match(text)
    if not match or min(int(match.group(1)), int(match.group(2))) < 2:
        raise QueryError(f"--size {text}: expected WIDTHxHEIGHT, each at least 2", "e.g. --size 8x8")
    return int(match.group(1)), int(match.group(2))


def request_from_options(*, rules: str | None = None, like: Path | None = None, size: str | None = None,
                         walls: str | None = None, require: str | None = None, role: str | None = None,
                         plies: str | None = None, horizon: int | None = None, count: int = 1, seed: int = 1,
                         out: Path = Path("."), name: str | None = None, symmetry: str | None = None,
                         allow_sealed: bool = False, allow_trivial: bool = False, method: str = "auto",
                         timeout: float | None = None, force: bool = False, keep: str | None = None,
                         value: str | None = None, metrics: Sequence[tuple[str, str]] = (),
                         difficulty: str | None = None, defaults: bool = True, jobs: int = 1,
                         cluster: str | None = None, memory: int = DEFAULT_MEMORY) -> Request:
    """The request of ``gridsolve generate``'s options as typed: ``size`` WxH, ``walls``,
    ``plies`` and ``value`` ranges A..B, ``keep`` names separated by commas, ``metrics``
    (name, A..B) pairs; ``timeout`` None: the default budget (:data:`DEFAULT_TIMEOUT`), 0: no
    limit.  A text that does not read raises :class:`~gridsolve.errors.QueryError`."""
    if require is not None and require not in REQUIREMENTS:
        raise QueryError(f"--require {require}: unknown", f"use one of: {', '.join(REQUIREMENTS)}")
    return Request(rules=rules, like=like, size=parse_size(size), walls=parse_range("--walls", walls),
                   require=None if require is None else RequireKind(require), role=role, plies=parse_range("--plies", plies), horizon=horizon,
                   count=count, seed=seed, out=out, name=name, symmetry=symmetry, sealed_ok=allow_sealed,
                   trivial_ok=allow_trivial, method=method,
                   timeout=DEFAULT_TIMEOUT if timeout is None else timeout or None, force=force,
                   keep=tuple(n.strip() for n in keep.split(",") if n.strip()) if keep else (),
                   timeout_given=timeout is not None, value=parse_range("--value", value),
                   metrics=tuple(parse_metric(n, t) for n, t in metrics), difficulty=difficulty,
                   defaults=defaults, jobs=jobs, cluster=cluster, memory=memory)


def with_good_level(request: Request, good: GoodLevel | None) -> Request:
    """The request, or, when it states no requirement of its own (:func:`states_requirement`),
    the rule set's good level (its ``generate:`` block); without one (or with ``--no-defaults``)
    a win is asked."""
    if not request.defaults or good is None or states_requirement(request):
        return request if request.require is not None else dataclasses.replace(request, require=RequireKind.WIN)
    changes = {"require": good.require or RequireKind.WIN, "role": good.role, "plies": good.plies, "value": good.value,
               "horizon": good.horizon, "trivial_ok": good.allow_trivial, "metrics": good.good,
               "walls": good.walls}
    if request.like is not None:
        changes["keep"] = good.keep
    return dataclasses.replace(request, **changes)


def with_border(spec: GameSpec, request: Request) -> GameSpec:
    """``spec`` with the rule set's ``generate: border`` marks on the border, for ``--rules``
    (``--like`` follows its board; ``--no-defaults`` drops them): on an edge of the border (an
    exit edge) for rules whose boards list their enemies by kind, as their levels draw the exit."""
    good = spec.template.rules.good_level
    if request.rules is None or not request.defaults or good is None or not good.border:
        return spec
    if kinds_of(spec.template):
        return dataclasses.replace(spec, edge_marks=spec.edge_marks | frozenset(good.border))
    return dataclasses.replace(spec, border_marks=spec.border_marks | frozenset(good.border))


def states_requirement(request: Request) -> bool:
    """Does the request say what it asks for (then the rule set's good level is not used)?"""
    return (request.require is not None or request.role is not None or request.plies != (None, None)
            or request.value != (None, None) or request.horizon is not None or bool(request.metrics)
            or request.difficulty is not None or request.trivial_ok or bool(request.keep)
            or request.walls != (None, None))


def _source(request: Request) -> str:
    return request.rules or Path(request.like).stem


def _title(request: Request, spec: GameSpec, index: int) -> str:
    board = spec.template
    return f"{_source(request)} {board.width}x{board.height}, seed {request.seed}, no. {index + 1}"


def command_line(request: Request, spec: GameSpec) -> str:
    """The ``gridsolve generate`` command that writes the same boards."""
    board = spec.template
    words = ["gridsolve", "generate"]
    words += ["--rules", request.rules] if request.rules else ["--like", str(request.like)]
    words += ["--size", f"{board.width}x{board.height}", "--require", request.require or RequireKind.WIN]
    options = [("--walls", _range_text(request.walls)), ("--plies", _range_text(request.plies)),
               ("--value", _range_text(request.value)), ("--difficulty", request.difficulty),
               ("--role", request.role), ("--horizon", request.horizon), ("--symmetry", request.symmetry),
               ("--method", None if request.method == "auto" else request.method),
               ("--count", request.count), ("--seed", request.seed)]
    for option, value in options:
        if value is not None:
            words += [option, str(value)]
    if request.keep:
        words += ["--keep", ",".join(request.keep)]
    for name, low, high in request.metrics:
        words += ["--metric", name, range_text(low, high)]
    words += [flag for flag, on in (("--allow-sealed", request.sealed_ok), ("--allow-trivial", request.trivial_ok),
                                    ("--no-defaults", not request.defaults)) if on]
    return shlex.join(words)


def _range_text(bounds: tuple) -> str | None:
    low, high = bounds
    if low is None and high is None:
        return None
    return str(low) if low == high else f"{'' if low is None else low}..{'' if high is None else high}"
