"""``gridsolve verify``: check every board file and the expectations written in it.

:func:`verify_paths` finds the board files, checks each one (in worker processes with
``jobs`` > 1 or a ``timeout``; see :mod:`gridsolve.workers`) and returns a :class:`Report`;
:mod:`gridsolve.verify.reports` formats it and :mod:`gridsolve.verify.update` writes measured values back.

A board's expectations share work: expectations about the same role, position and horizon
are answered by one query (value, win and survive at once), and the queries of a board share
one grounding of the race solver (:class:`gridsolve.solve.dispatch.asker.Asker`).
"""
from __future__ import annotations

import contextlib
import functools
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..language import wording
from ..analysis.beeline import check_beeline
from ..errors import BoardError, GridsolveError, QueryError
from .expect import METRIC_KEYS, SOLVER_KEYS, Expectation, holds, load_expectations
from ..solve.program.explore import examine
from ..language.loader import board_of
from ..language.yamlsrc import load_file
from .cluster import run_tasks_on_cluster
from ..workers import CRASHED, DONE, TIMEOUT, run_tasks
from .shard import Shard, select
from ..compile.state import layout_for
from ..language.position import Query
from ..solve.common.limits import Limits
from ..solve.dispatch.asker import Asker
from ..solve.graph.racegraph import prepare_shared_tables
from ..solve.graph.sharedtables import circuits_at_once
from ..solve.program.driver import format_move
from .update import Change, update_file, updated_value
from .gdlgame import GAME_KEY, GdlGameFile, measure_gdl_game, names_gdl_game, open_session, read_gdl_game_file
from ..language.kinds import QueryKind

PASS, FAIL, ERROR, TIMED_OUT, UPDATED = "pass", "fail", "error", "timeout", "updated"
PENDING = "pending"

# A board file has a top-level `rules:` key (rule sets and other YAML files do not).
_BOARD_KEY = re.compile(r"""^(?:rules|"rules"|'rules')[ \t]*:""", re.MULTILINE)
_SUFFIXES = (".yaml", ".yml")


@dataclass
class CheckResult:
    """One row of the report: the schema of a file, or one key of one expectation."""

    name: str                      # "schema", or e.g. "explorer plies at explorer=8,3"
    key: str                       # "schema" or the expectation key (win, plies, ...)
    file: str                      # where the check is written (for file:line)
    line: int | None
    expected: object               # "valid" for the schema; bool, int, None or Range
    measured: object = None
    status: str = PENDING
    message: str = ""              # what is wrong, without the file:line prefix
    time_s: float = 0.0
    expectation: int | None = None  # index in the expect list (for --update)

    @property
    def location(self) -> str:
        return f"{self.file}:{self.line}" if self.line else self.file


@dataclass
class BoardResult:
    path: str
    name: str
    checks: list[CheckResult] = field(default_factory=list)
    time_s: float = 0.0
    invalid: bool = False          # the file (or a rule set it uses) is not a valid board
    difficulty: str | None = None  # the label of the level's measured metrics (where its expect block has some)
    view: object = None            # with views: its answer and pictures (gridsolve.verify.view.BoardView)
    answer: dict | None = None     # with answers: the initial position's answer (view.initial_answer)
    stopped: str = ""              # why its worker stopped before the end (a timeout, an internal error)


@dataclass
class Report:
    boards: list[BoardResult]
    time_s: float = 0.0
    jobs: int = 1
    timeout: float | None = None
    updated_files: list[str] = field(default_factory=list)
    shard: Shard | None = None     # --shard K/N: the boards are part K of N
    found: int = 0                 # boards found under the paths (in every part)

    @property
    def checks(self) -> list[CheckResult]:
        return [check for board in self.boards for check in board.checks]

    @property
    def invalid(self) -> bool:
        """Some file is not a valid board (exit code 2)."""
        return any(board.invalid for board in self.boards)

    @property
    def failed(self) -> bool:
        """Some expectation does not hold, or could not be checked (exit code 1)."""
        return any(check.status in (FAIL, ERROR, TIMED_OUT) for check in self.checks)

    def count(self, status: str) -> int:
        return sum(1 for check in self.checks if check.status == status)


# - Finding the boards ---

def is_board_file(path: Path) -> bool:
    """A YAML file with a top-level ``rules:`` key, or ``game:`` naming a GDL game (unreadable
    files count: verify reports them)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return True
    return _BOARD_KEY.search(text) is not None or GAME_KEY.search(text) is not None


def find_boards(paths) -> list[Path]:
    """The board files among ``paths``: files, and folders searched recursively for *.yaml
    and *.yml (hidden folders such as .git are skipped)."""
    found: list[Path] = []
    for path in map(Path, paths):
        if path.is_dir():
            candidates = sorted(p for p in path.rglob("*") if p.suffix in _SUFFIXES and p.is_file()
                                and not any(part.startswith(".") for part in p.relative_to(path).parts))
        elif path.is_file():
            candidates = [path]
        else:
            raise QueryError(f"{path}: no such file or folder", "give board files or folders that hold them")
        found += [p for p in candidates if is_board_file(p)]
    unique, seen = [], set()
    for path in found:
        if path.resolve() not in seen:
            seen.add(path.resolve())
            unique.append(path)
    return unique


# - Checking one board (runs in a worker process) ---

def _plan(path: Path):
    """Load the board and its expectations: the report rows to fill, or the invalid file."""
    started = time.perf_counter()
    result = BoardResult(str(path), path.stem)
    try:
        raw = load_file(path)
        if names_gdl_game(raw):     # (a GDL game's values: gridsolve/verify/gdlgame.py)
            board = read_gdl_game_file(path, raw)
            expectations = board.expectations
        else:
            board = board_of(raw, path)
            expectations = load_expectations(board, raw)
        result.name = board.name
    except BoardError as exc:
        result.invalid = True
        result.checks.append(CheckResult("schema", "schema", exc.path, exc.line, "valid", "invalid", ERROR,
                                         _without_location(exc), time.perf_counter() - started))
        return result, None, []
    result.checks.append(CheckResult("schema", "schema", str(path), 1, "valid", "valid", PASS, "",
                                     time.perf_counter() - started))
    names: dict[str, int] = {}
    for expectation in expectations:
        for expected in expectation.checks:
            name = expectation.check_name(expected.key)
            names[name] = names.get(name, 0) + 1
            if names[name] > 1:
                name = f"{name} #{names[name]}"
            result.checks.append(CheckResult(name, expected.key, str(path), expected.line, expected.value,
                                             expectation=expectation.index))
    return result, board, expectations


def _without_location(exc: BoardError) -> str:
    text, prefix = str(exc), f"{exc.path}:{exc.line}: " if exc.line else f"{exc.path}: "
    return text[len(prefix):] if text.startswith(prefix) else text


def check_board(path: Path, explain: bool = False, limits: Limits | None = None, difficulty: bool = False,
                view: bool = False, answer: bool = False):
    """Check one board file within ``limits`` (with ``explain``: failing expectations name the
    single wall changes that restore them), yielding ``("plan", BoardResult)`` first, then
    ``("check", row, status, measured, message, seconds)`` for each expectation key; with
    ``difficulty``, ``("difficulty", label)`` where metrics were measured; with ``answer``,
    ``("answer", dict)`` (the initial position's answer); with ``view``, ``("view", BoardView)``
    last (:mod:`gridsolve.verify.view`)."""
    result, board, expectations = _plan(path)
    yield ("plan", result)
    if board is None:
        return
    rows = {}
    row = 1
    for expectation in expectations:
        for expected in expectation.checks:
            rows[(expectation.index, expected.key)] = row
            row += 1
    if isinstance(board, GdlGameFile):
        session = open_session(board, limits)
        for index, expected, measured, error, seconds in measure_gdl_game(board, limits, session):
            ok = error is None and holds(expected.value, measured)
            yield ("check", rows[(index, expected.key)], ERROR if error else PASS if ok else FAIL, measured,
                   error or ("" if ok else _mismatch(expected, measured, "")), seconds)
        if answer or view:
            from .gdlview import gdl_answer, gdl_initial_answer, gdl_view
            said = gdl_answer(board, session)
            yield ("answer", gdl_initial_answer(said))
            if view:
                yield ("view", gdl_view(board, session, said))
        return
    groups: dict[tuple, list[Expectation]] = {}
    for expectation in expectations:
        groups.setdefault(expectation.group, []).append(expectation)
    asker = Asker.for_queries(board, [Query(m[0].role, position=m[0].position, horizon=m[0].horizon)
                                      for m in groups.values() if not m[0].hidden], limits)
    labels: list[str] = []
    for members in groups.values():
        for index, key, status, measured, message, seconds in _measure_group(board, members, asker, explain,
                                                                               labels):
            yield ("check", rows[(index, key)], status, measured, message, seconds)
    if difficulty and labels:
        yield ("difficulty", labels[0])
    if answer or view:
        from .view import board_view, initial_answer
        yield ("answer", initial_answer(board, asker))
        if view:
            yield ("view", board_view(board, asker))


def _measure_group(board, members: list[Expectation], asker: Asker, explain: bool = False,
                   labels: list | None = None):
    """Measure every key of expectations that share (role, position, horizon); the board's
    groups share ``asker``, so the race solver grounds the board once for all of them.  The
    difficulty label of measured metrics is added to ``labels``."""
    first = members[0]
    wanted = [(e.index, x) for e in members for x in e.checks]
    solver_keys = [(i, x) for i, x in wanted if x.key in SOLVER_KEYS]
    query = Query(first.role, _query_kind({x.key for _, x in solver_keys}), first.position, first.horizon,
                  hidden=first.hidden)
    if solver_keys:
        started = time.perf_counter()
        first_moves = any(x.key == "winning_first_moves" for _, x in solver_keys)
        try:
            answer = asker.ask(query, line_plies=0, moves=first_moves)   # (no key reads the line)
            measured = {"win": answer.win, "survive": answer.survives, "value": answer.value,
                        "plies": answer.plies, "win_moves": answer.win_moves}
            summary = _summary(answer)
            details = {key: summary for key in measured}
            if first_moves:
                moves = winning_first_moves(board, first.role, first.position, answer, asker)
                measured["winning_first_moves"] = len(set(moves.values()))
                details["winning_first_moves"] = (
                    f"winning first moves: {', '.join(sorted(moves))}, leading to "
                    f"{len(set(moves.values()))} distinct positions" if moves else "no first move wins")
            seconds = time.perf_counter() - started
            restore = _restorer(board, query, asker.limits) if explain else None
            for index, expected in solver_keys:
                value = measured[expected.key]
                ok = holds(expected.value, value)
                yield (index, expected.key, PASS if ok else FAIL, value,
                       "" if ok else _mismatch(expected, value, details[expected.key]) +
                       (restore(expected) if restore else ""), seconds)
        except GridsolveError as exc:
            seconds = time.perf_counter() - started
            for index, expected in solver_keys:
                yield (index, expected.key, ERROR, None, str(exc), seconds)
    yield from _measure_metrics(board, first, [(i, x) for i, x in wanted if x.key in METRIC_KEYS], asker.limits,
                                labels if labels is not None else [])
    for index, expected in wanted:
        if expected.key != "no_beeline":
            continue
        started = time.perf_counter()
        try:
            beeline = check_beeline(board, first.role, first.position, query.remaining(board), _named_moves(board, asker))
        except GridsolveError as exc:
            yield (index, expected.key, ERROR, None, str(exc), time.perf_counter() - started)
            continue
        ok = holds(expected.value, beeline.holds)
        yield (index, expected.key, PASS if ok else FAIL, beeline.holds,
               "" if ok else _mismatch(expected, beeline.holds, beeline.describe(first.role)),
               time.perf_counter() - started)


def _named_moves(board, asker: Asker):
    """The named moves of the race engine ``asker`` has ground, where its positions are those
    of the no_beeline check (the pieces' cells and the side), else None."""
    engine = asker.engine
    if engine is None or engine.layout != layout_for(board):
        return None
    return engine.graph.named_moves()


def _measure_metrics(board, first: Expectation, checks: list, limits: Limits, labels: list):
    """The difficulty metrics the group's checks name, measured once (gridsolve/analysis/metrics.py),
    with those their difficulty label reads; the label is added to ``labels``."""
    if not checks:
        return
    from ..analysis.metrics import measure_metrics
    started = time.perf_counter()
    try:
        measured = measure_metrics(board, first.role, first.position, first.horizon, limits=limits,
                                   only={expected.key for _, expected in checks})
    except GridsolveError as exc:
        for index, expected in checks:
            yield (index, expected.key, ERROR, None, str(exc), time.perf_counter() - started)
        return
    metrics = measured.as_dict()
    labels.append(measured.difficulty)
    seconds = time.perf_counter() - started
    for index, expected in checks:
        value = metrics.get(expected.key)
        ok = holds(expected.value, value)
        yield (index, expected.key, PASS if ok else FAIL, value,
               "" if ok else _mismatch(expected, value, f"{expected.key} measured {show(value)}"), seconds)


FEW_WALLS = 3     # --explain names this many wall changes that restore an expectation, else counts them


def _restorer(board, query: Query, limits: Limits):
    """For --explain: a function from a failing expectation key to the note on the single wall
    changes that restore it; the walls are tried once, when the first note is asked for."""
    from ..explain.explanation import wall_outcomes
    cache: list = []

    def note(expected) -> str:
        if expected.key not in ("win", "survive", "value", "plies"):
            return ""
        if not cache:
            cache.append(wall_outcomes(board, query, limits=limits))
        _, outcomes, _ = cache[0]
        fixes = [(wall, outcome) for wall, outcome in outcomes
                 if holds(expected.value, {"win": outcome.win, "survive": outcome.survives, "value": outcome.value,
                                           "plies": outcome.plies}[expected.key])]
        if not fixes:
            return f"; no single wall change restores it ({len(outcomes)} tried)"
        named = "; ".join(f"{'remove' if wall.present(board) else 'add'} {wall.describe()} "
                          f"({outcome.describe(query.role, 'value')})" for wall, outcome in fixes[:FEW_WALLS])
        if len(fixes) <= FEW_WALLS:
            return f"; restored by: {named}"
        return f"; {len(fixes)} single wall changes restore it, e.g. {named}"
    return note


def _query_kind(keys: set[str]) -> QueryKind:
    """The cheapest query that measures ``keys``: survive alone needs no value."""
    return QueryKind.SURVIVE if keys == {"survive"} else QueryKind.VALUE


def winning_first_moves(board, role: str, position, answer, asker: Asker | None = None) -> dict[str, tuple]:
    """{move: resulting position} for the first moves of ``role`` in ``position`` that keep a
    forced win (``answer``: the value query from there); moves that lead to the same position
    count once.  Where the role's team moves at once with others, the position after a move
    depends on their moves too: each of the team's winning moves counts as one.  (The
    generator's difficulty measure counts with this too, so its files verify.)  The moves are
    those ``asker``'s race engine has ground, where its positions are the whole game's."""
    winning = [m.move for m in answer.moves if m.win]
    if board.rules.split_turn(position.side, role):
        return {move: move for move in winning}
    named = _named_moves(board, asker) if asker is not None else None
    if named is not None:
        root = asker.engine.codec.term(position)
        after = {format_move(move): state for move, state in named.moves(root)}
        return {move: after[move] for move in winning if move in after}
    _, steps = examine(board, position)
    after = {step.move: _without_step(step.position) for step in steps}
    return {move: after[move] for move in winning if move in after}


def _without_step(position):
    """A position without its step number: moves that lead to it count once."""
    return (position.pieces, position.side, position.items, position.lost, position.was)


def _summary(answer) -> str:
    plies = "nothing is forced" if answer.plies is None else f"forced in {wording.plies(answer.plies)}"
    return f"value {answer.value}, {plies}"


def show(value) -> str:
    """An expected or measured value as written in a board file."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    return str(value)


def _mismatch(expected, measured, detail: str) -> str:
    text = f"expected {expected.key}: {show(expected.value)}, measured {show(measured)}"
    return f"{text} ({detail})" if detail else text


# - Checking many boards ---

MANY_BOARDS = 100       # boards a worker at least: each kind's shared circuit is built at its first board
                        # (sharedtables.circuits_at_once), none of the kind ground one by one first
KIND_SAMPLE = 48        # boards read before the workers fork, spread over the list: their kinds' circuits


def _prepare_kinds(boards: list[Path]) -> None:
    """Before the workers fork: the shared circuits of the kinds among :data:`KIND_SAMPLE` boards
    spread over ``boards``, built once here, so that the workers start with them (each would build
    every kind's own).  A board that does not load is left to its worker (which reports it)."""
    for path in boards[::max(1, len(boards) // KIND_SAMPLE)]:
        try:
            raw = load_file(path)
            if not names_gdl_game(raw):
                prepare_shared_tables(board_of(raw, path))
        except GridsolveError:
            continue


def verify_paths(paths, jobs: int = 1, timeout: float | None = None, update: bool = False,
                 shard: Shard | None = None, explain: bool = False, cluster: str | None = None,
                 limits: Limits | None = None, views: bool = False, answers: bool = False) -> Report:
    """Check every board file found under ``paths`` (with ``shard``, only its part of them:
    :mod:`gridsolve.verify.shard`); with ``update``, write measured values into the expect
    blocks of the valid boards whose expectations failed; with ``explain``, failing
    expectations name the single wall changes that would restore them; with ``cluster`` (a Dask
    scheduler's address), the boards are checked on its workers (:mod:`gridsolve.verify.cluster`);
    ``limits`` bound every solve; with ``views``, each board's answer and pictures are measured
    too (for the report page, :mod:`gridsolve.verify.page`); with ``answers`` (or ``views``), the
    first role's answer from each board's initial position (``verify --format json``'s)."""
    started = time.perf_counter()
    found = find_boards(paths)
    boards = select(found, paths, shard)
    results: list[BoardResult | None] = [None] * len(boards)

    def on_item(i: int, item):
        if item[0] == "plan":
            results[i] = item[1]
        elif item[0] == "difficulty":
            results[i].difficulty = item[1]
        elif item[0] == "view":
            results[i].view = item[1]
        elif item[0] == "answer":
            results[i].answer = item[1]
        else:
            _, row, status, measured, message, seconds = item
            check = results[i].checks[row]
            check.status, check.measured, check.message, check.time_s = status, measured, message, seconds

    work = functools.partial(check_board, explain=explain, limits=limits, difficulty=True, view=views,
                             answer=answers)
    if cluster is not None:
        outcomes = run_tasks_on_cluster(cluster, boards, work, timeout, on_item)
    else:
        many = len(boards) >= MANY_BOARDS * max(1, jobs)
        with circuits_at_once() if many else contextlib.nullcontext():
            if many and jobs > 1:
                _prepare_kinds(boards)
            outcomes = run_tasks(boards, work, jobs, timeout, on_item)
    for i, (path, outcome) in enumerate(zip(boards, outcomes)):
        if results[i] is None:
            results[i] = BoardResult(str(path), path.stem, [CheckResult("board", "board", str(path), None, "valid")])
        result = results[i]
        result.time_s = outcome.elapsed
        if outcome.status == TIMEOUT:
            result.stopped = f"the board did not finish within {timeout:g} s"
        elif outcome.status == CRASHED:
            result.stopped = _crash_message(outcome.detail)
        for check in result.checks:
            if check.status != PENDING:
                continue
            check.time_s = outcome.elapsed
            if outcome.status == TIMEOUT:
                check.status, check.message = TIMED_OUT, result.stopped
            elif outcome.status == CRASHED:
                check.status, check.message = ERROR, result.stopped
            elif outcome.status == DONE:
                check.status, check.message = ERROR, "not checked (internal error: please report it)"
    report = Report(results, jobs=jobs, timeout=timeout, shard=shard, found=len(found))
    if update:
        _write_measured_values(report)
    report.time_s = time.perf_counter() - started
    return report


def _write_measured_values(report: Report) -> None:
    """--update: write the measured values of failed checks into their boards' expect blocks.

    Files that are not valid boards are never touched; checks that timed out or could not be
    measured keep their expected values."""
    for board in report.boards:
        if board.invalid:
            continue
        pairs = [(check, Change(check.expectation, check.key, check.expected,
                                updated_value(check.expected, check.measured)))
                 for check in board.checks if check.status == FAIL and check.expectation is not None]
        if not pairs:
            continue
        try:
            update_file(board.path, [change for _, change in pairs])
        except GridsolveError as exc:
            for check, _ in pairs:
                check.status, check.message = ERROR, f"not updated: {exc}"
            continue
        for check, change in pairs:
            check.status = UPDATED
            check.message = f"updated: {check.key}: {show(change.old)} -> {show(change.new)}"
        report.updated_files.append(board.path)


def _crash_message(detail: str) -> str:
    lines = [line for line in detail.strip().splitlines() if line.strip()]
    return f"internal error: {lines[-1].strip() if lines else 'the check stopped'} (please report it)"
