"""One generate run set up: the request checked and completed with the rule set's good level,
the game, the requirement, the structure, the board paths and the method; how a level is
written, with what it carries (its measured expectation and header)."""
from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass
from pathlib import Path

from ..language import wording
from .difficulty import Difficulty, measure
from ..errors import GridsolveError, QueryError
from ..analysis.ends import beeline_unsupported, goal_ends
from .genprogram import Structure, game_size, proposal_program, requirement_races
from .genspec import GameSpec, Requirement, game_spec
from ..analysis.metrics import DIFFICULTY, METRICS, Metrics, why_difficulty
from .genspec import range_text
from .judge import judge, ranks_every_start
from .testing import most_testing_line
from .genchoices import METHODS, REQUIREMENTS, SYMMETRIES
from ..language.model import NO_LIMIT
from ..language.position import initial_position
from ..solve.common.limits import Limits
from .proposer import Layout, Proposer
from ..language.kinds import QueryKind, RequireKind
from .report import Generated, Progress, Report, SearchStats, _exhausted, _timed_out
from .request import (Request, _range_text, _source, _title, command_line, with_border,
                      with_good_level)
from .levelfile import board_text, write_new
from .mutation import difference
from .scriptedlevel import criteria_text
from .scriptedsearch import CLIMB, Found, Level, ScriptedSearch, cast_of, check_request, distance
from ..compile.script import one_mover_script
from .search import _Search


GAME_PART_LIMIT = 10_000  # auto picks asp up to this many positions x levels: 3x3 Mummy Maze at 49 plies
                          # (7,938; asp proves "none exists" in ~40 s where loop runs on; README)


@dataclass
class Run:
    """What one generate run searches for: the request (with the rule set's defaults), the game,
    the requirement, the board paths and how to build its search."""

    request: Request
    spec: GameSpec
    req: Requirement
    structure: Structure
    paths: list[Path]
    method: str
    every_start: bool
    races: object

    @property
    def limits(self) -> Limits:
        """What every solve and grounding of the run may use (the request's memory)."""
        return Limits(memory=self.request.memory)

    def search(self, seed: int) -> "_Search":
        """A new search of this run, seeded with ``seed``."""
        program, parts = proposal_program(self.spec, self.req, self.structure,
                                          self.races if self.method == "asp" else None,
                                          chase=not self.every_start, blind=not self.every_start)
        structure = self.structure
        limits = self.limits
        return _Search(Proposer(program, parts, seed, walks=self.every_start, limits=limits), self.spec, self.req,
                       self.every_start, seed, apart(structure, self.spec), structure.symmetry,
                       structure.walls, any(kind == "mark" for kind, _, _ in structure.keep),
                       plain=structure.symmetry is None and not structure.sealed_ok and not structure.keep,
                       limits=limits)

    def climb(self, seed: int) -> ScriptedSearch:
        """A new climb of this run (a game whose other pieces move by rule), seeded with ``seed``."""
        return ScriptedSearch(self.spec, cast_of(self.spec), self.structure.walls, self.req.plies,
                              self.req.trivial_ok, seed, apart(self.structure, self.spec))

    def report(self) -> "Report":
        """An empty report of this run."""
        return Report(self.request, self.spec, self.req, self.method, apart=apart(self.structure, self.spec))

    def write(self, report: "Report", found: tuple, since: float, tried: int) -> float:
        """Write a level found by a worker: ``found`` = (layout, expect, difficulty, metrics), or
        for a climb (level, expect, metrics, criteria) (:func:`measure_climbed`)."""
        return (write_climbed if self.method == CLIMB else write_level)(self, report, *found, since, tried)

    def near(self, report: "Report", candidate) -> bool:
        """Is ``candidate`` (a worker's layout, or a climb's level) closer than ``report.apart``
        to a board written?"""
        far = distance if self.method == CLIMB else difference
        return any(far(candidate, b.layout) < report.apart for b in report.boards)

    def progress(self, report: "Report", last: str, started: float, stats: "SearchStats") -> "Progress":
        return progress_of(self, report, last, started, stats)

    def stopped(self, report: "Report", timed_out: bool) -> GridsolveError:
        """Why the run stopped before writing every board: the time, or no layout left."""
        return _timed_out(report) if timed_out else _exhausted(report)


def _setup(request: Request) -> Run:
    """The request checked and completed with the rule set's defaults."""
    if (request.rules is None) == (request.like is None):
        raise QueryError("give either --rules NAME or --like BOARD", "e.g. --like boards/mummymaze2p-2007.yaml")
    if request.jobs < 1:
        raise QueryError(f"--jobs {request.jobs}: give at least 1 worker process", "e.g. --jobs 2")
    spec = game_spec(request.rules, request.like, request.size, request.out, request.role)
    request = with_good_level(request, spec.template.rules.good_level)
    if request.role != spec.role:
        spec = spec.for_role(request.role)
    spec = with_border(spec, request)
    req = _requirement(request, spec)
    structure = Structure(_walls(request, spec), request.symmetry, request.sealed_ok, _kept(request, spec))
    if spec.template.rules.script and spec.template.rules.own_state:
        raise QueryError(f"generate does not write levels of {spec.template.rules.name} yet: its positions keep "
                         f"{', '.join(sorted(spec.template.rules.own_state))}, which the climb over levels of pieces "
                         "moved by rule does not step", "generate levels of the rules without them and add them by "
                         "hand (gridsolve verify checks the board's expect:)")
    if spec.template.rules.script and not one_mover_script(spec.template.rules):
        raise QueryError(f"generate does not write levels of {spec.template.rules.name} yet: its pieces move by "
                         "rule after plies of several roles, or of moves with several steps, bumps, items or "
                         "was_on conditions", "generate levels of rules whose script follows the one-step move "
                         "of one role (classic Mummy Maze)")
    if spec.template.rules.script:          # other pieces moved by rule: a climb over whole levels
        check_request(request, request.require)
        req = dataclasses.replace(req, trivial_ok=request.trivial_ok)
        return Run(request, spec, req, structure, _paths(request, spec), CLIMB, False, None)
    if not spec.template.rules.judge_start:     # (its judges rank every placement, starts where an end holds too)
        raise QueryError(f"generate does not write levels of {spec.template.rules.name}: its start is not judged "
                         "(judge_start: false)", "generate levels of rules that judge their start, or with pieces "
                         "moved by rule (after_ply)")
    races = requirement_races(spec, req)
    method = _method(request, spec, races)
    every_start = method == "loop" and ranks_every_start(spec, req)
    return Run(request, spec, req, structure, _paths(request, spec), method, every_start, races)


def write_level(run: Run, report: Report, layout: Layout, expect: dict, difficulty, metrics, since: float,
                tried: int) -> float:
    """Write the next board of the run on ``layout`` (with its measured expectation), the
    previous one written at ``since``; returns when this one was written."""
    request, spec, index = run.request, run.spec, len(report.boards)
    path = run.paths[index]
    board = spec.board(layout.north, layout.east, dict(layout.pieces), dict(layout.marks), str(path),
                       _title(request, spec, index))
    testing = (most_testing_line(board, spec.role, initial_position(board), run.req.horizon, run.limits)
               if metrics is not None else None)
    text = board_text(board, spec.rules_yaml, _header(request, spec, run.req, index, difficulty, metrics, testing),
                      expect)
    write_new(path, text, request.force)
    now = time.perf_counter()
    report.boards.append(Generated(path, layout, expect, difficulty, now - since, tried, metrics))
    return now


def measure_climbed(run: Run, found: Found) -> tuple:
    """A level the climb found, measured by the exact solver: (None, (level, expect, metrics,
    criteria)) when it holds, else (why it was refused, None)."""
    level, req = found.level, run.req
    board = level.board(run.spec.template, legend=cast_of(run.spec).legend)
    verdict = judge(board, run.spec, dataclasses.replace(req, trivial_ok=True), run.limits)
    if not verdict.accepted:
        return verdict.reason, None
    expect = {"win": True, "win_moves": verdict.answer.win_moves}
    if not req.trivial_ok:          # the climb's criterion, re-checked by verify (gridsolve/analysis/walks.py)
        expect["no_beeline"] = True
    if verdict.metrics is not None:
        expect.update({name: value for name, value in verdict.metrics.as_dict().items() if name != "plies"})
    return None, (level, expect, verdict.metrics, criteria_text(found.verdict, req.trivial_ok))


def write_climbed(run: Run, report: Report, level: Level, expect: dict, metrics, criteria: str, since: float,
                  tried: int) -> float:
    """Write the next board of the run on a climbed ``level`` measured by :func:`measure_climbed`
    (``tried``: the levels judged for it); returns when it was written."""
    request, spec, index = run.request, run.spec, len(report.boards)
    path = run.paths[index]
    board = level.board(spec.template, str(path), _title(request, spec, index), cast_of(spec).legend)
    header = _header(request, spec, run.req, index, None, metrics)
    header[-1:-1] = [f"Criteria met: {criteria}."]
    write_new(path, board_text(board, spec.rules_yaml, header, expect), request.force)
    now = time.perf_counter()
    report.boards.append(Generated(path, level, expect, None, now - since, tried, metrics))
    return now


def progress_of(run: Run, report: Report, last: str, started: float, stats: SearchStats) -> Progress:
    """The progress of the run after a candidate (``last``: what happened to it)."""
    req = run.req
    plies = None if req.kind in (RequireKind.SURVIVE, RequireKind.VALUE) else req.plies
    if plies is not None and plies[1] is not None and plies[1] >= NO_LIMIT // 2:
        plies = (plies[0], None)      # no step limit: the band is open above
    return Progress(len(report.boards), run.request.count, report.candidates, last, time.perf_counter() - started,
                    stats, plies)


def _requirement(request: Request, spec: GameSpec) -> Requirement:
    if request.require not in REQUIREMENTS:
        raise QueryError(f"--require {request.require}: unknown", f"use one of: {', '.join(REQUIREMENTS)}")
    if request.horizon is not None and request.horizon < 1:
        raise QueryError(f"--horizon {request.horizon}: must be at least 1")
    board = spec.template
    if request.require == RequireKind.WIN and not can_win(board, spec.role):
        raise QueryError(f"--require win: no end gives {spec.role} a top score above its timeout score "
                         f"under {board.rules.name}", "ask --require survive or --require lose")
    # Trivial levels are defined where no_beeline is (README): elsewhere every level is kept.
    trivial_ok = request.trivial_ok or beeline_unsupported(board) is not None
    left = Requirement(request.require, (0, 0), horizon=request.horizon).left(board)
    metrics = _metric_bounds(request)
    if (metrics or request.difficulty) and request.require != RequireKind.WIN:
        raise QueryError(f"--metric and --difficulty measure a won level, not --require {request.require}",
                         "ask --require win, or leave them out")
    if request.value != (None, None) and request.require != RequireKind.VALUE:
        raise QueryError("--value applies to --require value", "add --require value")
    if request.require == RequireKind.VALUE:
        if request.plies != (None, None):
            raise QueryError("--plies does not apply to --require value", "give the score band with --value A..B")
        if request.value == (None, None):
            raise QueryError("--require value needs --value A..B", "e.g. --value 6..12")
        low, high = request.value
        if low is not None and high is not None and low > high:
            raise QueryError(f"--value {low}..{high}: the range is empty")
        return Requirement(RequireKind.VALUE, (left, left), True, request.horizon, request.value)
    if request.require == RequireKind.SURVIVE:
        if request.plies != (None, None):
            raise QueryError("--plies does not apply to --require survive", "nothing is forced when the role survives")
        return Requirement(RequireKind.SURVIVE, (left, left), trivial_ok, request.horizon)
    low, high = request.plies
    low = 1 if low is None else low
    if low > left:
        limit = "the horizon" if request.horizon == left else "the step limit"
        raise QueryError(f"--plies {low}..: the game ends after {left} plies ({limit})",
                         f"ask for at most {left} plies")
    high = left if high is None else high
    if low > high:
        raise QueryError(f"--plies {low}..{high}: the range is empty")
    return Requirement(request.require, (low, min(high, left)), trivial_ok, request.horizon,
                       metrics=metrics, difficulty=request.difficulty)


def _metric_bounds(request: Request) -> tuple:
    """--metric NAME A..B, checked: known names, ranges that are not empty."""
    out = []
    for name, low, high in request.metrics:
        if name not in METRICS:
            raise QueryError(f"--metric {name}: unknown metric", f"use one of: {', '.join(METRICS)}")
        if low is not None and high is not None and low > high:
            raise QueryError(f"--metric {name} {range_text(low, high)}: the range is empty")
        out.append((name, low, high))
    if request.difficulty is not None and request.difficulty not in DIFFICULTY:
        raise QueryError(f"--difficulty {request.difficulty}: unknown", f"use one of: {', '.join(DIFFICULTY)}")
    return tuple(out)


APART = 1 / 3    # boards of one run differ on this share of the walls and marked cells they may have


def apart(structure: Structure, spec: GameSpec) -> int:
    """How many wall edges and marked cells two boards of one run differ on at least: a third of
    the most walls the request allows plus the marked cells it places (not the kept ones)."""
    kept = sum(len(cells) for kind, _, cells in structure.keep if kind == "mark")
    return max(1, round(APART * (structure.walls[1] + sum(spec.marks.values()) - kept)))


def _kept(request: Request, spec: GameSpec) -> tuple:
    """``--keep``: (("at" | "mark", name, cells), ...) from the --like board, checked."""
    if not request.keep:
        return ()
    if request.like is None:
        raise QueryError("--keep needs --like BOARD", "name pieces or marks of that board, e.g. --keep p1,p2,center")
    original = spec.like
    board = spec.template
    out = []
    for name in request.keep:
        if name in original.pieces:
            kind, cells = "at", (original.pieces[name],)
        elif name in original.marks:
            kind, cells = "mark", tuple(sorted(original.marks[name]))
        else:
            names = ", ".join([*original.pieces, *sorted(original.marks)])
            raise QueryError(f"--keep {name}: {request.like} has no piece or mark of that name", f"name one of: {names}")
        off = [c for c in cells if not (1 <= c[0] <= board.width and 1 <= c[1] <= board.height)]
        if off:
            raise QueryError(f"--keep {name}: {off[0]} is off a {board.width}x{board.height} board",
                             "keep the size of the --like board, or keep fewer names")
        out.append((kind, name, cells))
    return tuple(out)


def can_win(board, role: str) -> bool:
    """Can ``role`` have a top score to force: an end that gives it a score above its timeout score,
    or scores that depend on the position (a score table, a conditional timeout: then a win is
    forcing the role's highest score, whatever ends the game)."""
    scores = board.rules.scores_of(role)
    return bool(goal_ends(board, role)) or (not board.rules.constant_scores(role) and len(scores) > 1)


def _walls(request: Request, spec: GameSpec) -> tuple:
    board = spec.template
    slots = board.width * (board.height - 1) + board.height * (board.width - 1)
    most = slots if request.sealed_ok else slots - (board.width * board.height - 1)
    low, high = request.walls
    low = min(round(0.3 * slots), most, most if high is None else high) if low is None else low
    if max(low, high or 0) > most:
        what = f"a connected {board.width}x{board.height} board has at most {most} walls" if not request.sealed_ok \
            else f"a {board.width}x{board.height} board has {slots} interior edges"
        raise QueryError(f"--walls {_range_text(request.walls)}: {what}", f"ask for at most {most} walls")
    high = most if high is None else high
    if low > high:
        raise QueryError(f"--walls {low}..{high}: the range is empty")
    return low, high


def _paths(request: Request, spec: GameSpec) -> list[Path]:
    if request.count < 1:
        raise QueryError(f"--count {request.count}: must be at least 1")
    board = spec.template
    prefix = request.name or f"{_source(request)}-{board.width}x{board.height}-s{request.seed}"
    return [Path(request.out) / f"{prefix}-{i}.yaml" for i in range(1, request.count + 1)]


def pack_paths(first: Path) -> list[Path]:
    """The index and the curve of a pack whose first level is ``first`` (PREFIX-1.yaml)."""
    prefix = first.name[:-len("-1.yaml")]
    return [first.with_name(f"{prefix}-index.md"), first.with_name(f"{prefix}-curve.svg")]


def _method(request: Request, spec: GameSpec, races) -> str:
    if request.method not in METHODS:
        raise QueryError(f"--method {request.method}: unknown", f"use one of: {', '.join(METHODS)}")
    if request.symmetry not in (None, *SYMMETRIES):
        raise QueryError(f"--symmetry {request.symmetry}: unknown", f"use one of: {', '.join(SYMMETRIES)}")
    if request.method == "asp" and races is None:
        raise QueryError("--method asp: this requirement cannot be written as races of the rules "
                         "(sides that move at once mix teams)", "use --method loop")
    if request.method == "auto":
        return "asp" if races is not None and game_size(spec, races) <= GAME_PART_LIMIT else "loop"
    return request.method


def _measures(board, spec: GameSpec, req: Requirement, answer, metrics: Metrics | None = None,
              line: Difficulty | None = None, limits: Limits | None = None) -> tuple[dict, Difficulty | None]:
    """The expectation (measured values, for `gridsolve verify`) and, for a win, the difficulty."""
    rules = board.rules
    expect = {} if spec.role == rules.roles[0] else {"role": spec.role}
    if req.horizon is not None:
        expect["horizon"] = req.horizon
    if req.kind == RequireKind.WIN:
        start = initial_position(board)
        difficulty = line or measure(board, spec.role, start, answer, req.horizon, limits)
        expect.update({"win": True, "plies": answer.plies})
        if start.side == rules.side_of(spec.role):
            expect["winning_first_moves"] = difficulty.winning_first_moves
        if not req.trivial_ok:
            expect["no_beeline"] = True
        if metrics is not None:
            expect.update({name: value for name, value in metrics.as_dict().items() if name != "plies"})
        return expect, difficulty
    valued = answer.query == QueryKind.VALUE and answer.value is not None   # else plies are the survive query's
    if valued:
        expect.update({"value": answer.value, "win": answer.win})
    expect["survive"] = answer.survives
    if valued:
        expect["plies"] = answer.plies
    return expect, None


def _header(request: Request, spec: GameSpec, req: Requirement, index: int, difficulty,
            metrics: Metrics | None = None, testing=None) -> list[str]:
    trivial = "" if req.trivial_ok or req.kind != RequireKind.WIN else ", and not by walking the shortest way"
    lines = [f"Board {index + 1} of `{command_line(request, spec)}`:",
             f"{req.describe(spec.role)}{trivial}."]
    if req.test():
        lines.append(f"Good-level test: {req.test()}.")
    if metrics is not None:
        lines.append(f"Difficulty {metrics.describe()}.")
        lines.append(f"Why {metrics.difficulty}: {why_difficulty(metrics)}.")
    if difficulty is not None:
        lines.append(f"Along the principal line: {difficulty.describe(spec.role)}.")
    if testing is not None:
        lines.append(f"The most testing line ({wording.plies(len(testing.line))}): {testing.describe()}.")
        lines += [f"Decisive: {choice.describe(spec.role)}." for choice in testing.choices]
    lines.append("The expect block holds the measured values; `gridsolve verify` re-checks them.")
    return lines
