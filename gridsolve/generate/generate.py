"""``gridsolve generate``: new board files that meet a request, proposed by clingo, judged exactly.

Two methods (docs/generate.md):

* ``asp``: one clingo program carries the whole request (encodings/generate.lp with its
  ``game`` part): every layout it finds meets the requirement, and when it finds none, none
  exists.  Its ground program grows with positions times plies, so it suits small boards.
* ``loop`` (generate and test): clingo proposes layouts under the structural constraints
  (and, where the game has the shape, the ``blind`` part against trivial levels); the exact
  solver judges them (:mod:`gridsolve.generate.judge`).  Where it can, it judges a new wall-and-mark
  layout for every placement of the pieces at once and adds one nogood that keeps only the
  placements that meet the requirement; clingo then places the pieces on those walls until
  a board is accepted or none is left.

When clingo finds no layout left, the request cannot be met.  The same request with the same
seed writes the same files.
"""
from __future__ import annotations

import dataclasses
import random
import re
import shlex
import statistics
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

from .difficulty import Difficulty, measure
from ..errors import GridsolveError, LimitError, QueryError
from ..analysis.ends import beeline_unsupported, goal_ends
from .genprogram import Structure, game_size, proposal_program, requirement_races
from .genspec import GameSpec, Requirement, game_spec, kindred_rule_sets
from ..language.model import GoodLevel
from ..analysis.metrics import DIFFICULTY, METRICS, Metrics, why_difficulty
from .genspec import range_text
from .judge import (LOST_TOO_FAST, LOST_TOO_SLOWLY, NO_START, NO_WIN, SURVIVES, TOO_FAST, TOO_SLOW, TRIVIAL,
                    Verdict, judge, ranks_every_start, start_graph)
from .lengthen import Lengthening
from .layoutjudge import layout_judge
from .starts import JudgedStarts
from .mutation import Elites, Mutation, difference, mutation
from .quick import QuickLayouts
from .testing import most_testing_line
from .fresh import connected_walls, open_goals
from .genchoices import DEFAULT_TIMEOUT, METHODS, PROGRESS_EVERY, REQUIREMENTS, SYMMETRIES  # noqa: F401
from .pack import write_pack
from .scriptedlevel import criteria_text
from .scriptedsearch import CLIMB, ScriptedSearch, cast_of, check_request
from .jobs import generate_in_jobs, worker_seed
from ..verify.cluster import workers_of
from ..verify.parallel import TIMEOUT
from .levelfile import board_text, check_free, scalar, write_new
from ..language.loader import load_board
from ..language.position import initial_position
from ..solve.common.limits import DEFAULT_MEMORY, Limits
from .proposer import Layout, ProposalTimeout, Proposer, edges, exactly, same_walls
from ..language.kinds import QueryKind, RequireKind

GAME_PART_LIMIT = 10_000  # auto picks asp up to this many positions x levels: 3x3 Mummy Maze at 49 plies
                          # (7,938; asp proves "none exists" in ~40 s where loop runs on; README)


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


@dataclass
class Generated:
    """A board written: where, its layout, its expectation and how long it took."""

    path: Path
    layout: Layout
    expect: dict
    difficulty: Difficulty | None
    seconds: float                  # from the previous board (or the start) to this one, written
    candidates: int                 # layouts judged for this board
    metrics: Metrics | None = None  # the difficulty metrics of a won level (where measured)


@dataclass
class Progress:
    done: int
    count: int
    candidates: int
    last: str                       # what happened to the last candidate
    seconds: float = 0.0            # since the run started
    search: "SearchStats | None" = None
    plies: tuple | None = None      # the requested band (None: survive)


@dataclass
class SearchStats:
    """What the search has seen: how far the request is from what the layouts offer."""

    layouts: int = 0                # wall-and-mark layouts ranked for every placement of the pieces
    in_band: int = 0                # layouts with a placement in the plies band (trivial or not)
    band_starts: int = 0            # such placements
    allowed: int = 0                # layouts where the non-trivial constraint left one of them
    longest: int | None = None      # the most plies of a forced end seen (within the band's upper end)
    longest_offered: int | None = None   # ... of a start that meets the request (not trivial, where asked)
    climbed: int | None = None      # the longest non-trivial start the lengthening walk reached

    def seen(self, top: int | None) -> None:
        if top is not None and (self.longest is None or top > self.longest):
            self.longest = top


@dataclass
class Report:
    request: Request
    spec: GameSpec
    requirement: Requirement
    method: str
    boards: list[Generated] = field(default_factory=list)
    candidates: int = 0
    rejected: Counter = field(default_factory=Counter)
    search: SearchStats = field(default_factory=SearchStats)
    seconds: float = 0.0
    error: GridsolveError | None = None    # why the run stopped before writing every board
    apart: int = 0                          # walls and marked cells two boards differ on at least
    pack: tuple | None = None               # (index, curve) paths of a pack of several levels

    @property
    def times(self) -> list[float]:
        return [b.seconds for b in self.boards]

    def time_summary(self) -> str:
        if not self.times:
            return "no board written"
        return f"per board: median {statistics.median(self.times):.1f} s, max {max(self.times):.1f} s"


# - The command line's text, read into a request ---

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


# - Generating ---

def generate(request: Request, progress: Callable[[Progress], None] | None = None) -> Report:
    """Write ``request.count`` boards; the report lists them (with the seconds each took) and
    says why the run stopped early, if it did (``report.error``, not raised).  With
    ``request.jobs`` above 1 the search runs in that many worker processes (:mod:`.jobs`)."""
    started = time.perf_counter()
    asked, run = request, _setup(request)
    request = run.request
    check_free(run.paths + (pack_paths(run.paths[0]) if request.count > 1 else []), request.force)
    if run.method == CLIMB:
        report = _generate_scripted(run, started, progress)
    elif request.jobs > 1 or request.cluster is not None:
        searches = request.jobs if request.jobs > 1 or request.cluster is None else workers_of(request.cluster)
        report = generate_in_jobs(run, [(asked, k) for k in range(1, searches + 1)], search_candidates,
                                  started, progress)
    else:
        report = _generate_here(run, started, progress)
    if request.count > 1 and report.boards:
        report.pack = write_pack(report.boards, *pack_paths(run.paths[0]),
                                 f"{_source(request)}: {len(report.boards)} levels", request.force)
    report.seconds = time.perf_counter() - started
    return report


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

    def report(self) -> "Report":
        """An empty report of this run."""
        return Report(self.request, self.spec, self.req, self.method, apart=apart(self.structure, self.spec))

    def write(self, report: "Report", found: tuple, since: float, tried: int) -> float:
        """Write a level found by a worker: ``found`` = (layout, expect, difficulty, metrics)."""
        return write_level(self, report, *found, since, tried)

    def progress(self, report: "Report", last: str, started: float, stats: "SearchStats") -> "Progress":
        return progress_of(self, report, last, started, stats)

    def stopped(self, report: "Report", timed_out: bool) -> GridsolveError:
        """Why the run stopped before writing every board: the time, or no layout left."""
        return _timed_out(report) if timed_out else _exhausted(report)


def search_candidates(task):
    """One worker of ``--jobs`` (task: the request as given, the worker's number k from 1):
    (statistics, rejection reason, found) for every candidate judged, found = (layout, expect,
    difficulty, metrics) for an accepted one; finally ("end", why) when the search stops."""
    request, k = task
    run = _setup(request)
    search = run.search(worker_seed(request.seed, k))
    deadline = None if request.timeout is None else time.perf_counter() + request.timeout
    while True:
        try:
            step = search.next(deadline, run.paths[0], _title(run.request, run.spec, 0))
        except ProposalTimeout:
            yield "end", TIMEOUT
            return
        if step is None:
            yield "end", "exhausted"
            return
        board, layout, verdict = step
        found = None
        if verdict.accepted:
            expect, difficulty = _measures(board, run.spec, run.req, verdict.answer, verdict.metrics, verdict.line,
                                           search.limits)
            found = (layout, expect, difficulty, verdict.metrics)
        yield dataclasses.replace(search.stats), verdict.reason, found


def _setup(request: Request) -> Run:
    """The request checked and completed with the rule set's defaults."""
    if (request.rules is None) == (request.like is None):
        raise QueryError("give either --rules NAME or --like BOARD", "e.g. --like boards/mummymaze2p-2007.yaml")
    if request.jobs < 1:
        raise QueryError(f"--jobs {request.jobs}: give at least 1 worker process", "e.g. --jobs 2")
    spec = game_spec(request.rules, request.like, request.size, request.out, request.role)
    request = with_good_level(request, spec.template.rules.good_level)
    if request.role != spec.role:
        spec = game_spec(request.rules, request.like, request.size, request.out, request.role)
    req = _requirement(request, spec)
    structure = Structure(_walls(request, spec), request.symmetry, request.sealed_ok, _kept(request, spec))
    if spec.template.rules.script:          # other pieces moved by rule: a climb over whole levels
        check_request(request, request.require)
        req = dataclasses.replace(req, trivial_ok=request.trivial_ok)
        return Run(request, spec, req, structure, _paths(request, spec), CLIMB, False, None)
    races = requirement_races(spec, req)
    method = _method(request, spec, races)
    every_start = method == "loop" and ranks_every_start(spec, req)
    return Run(request, spec, req, structure, _paths(request, spec), method, every_start, races)


def _generate_here(run: Run, started: float, progress: Callable[[Progress], None] | None) -> Report:
    """The search in this process: the boards written one after the other."""
    request, spec, req, paths = run.request, run.spec, run.req, run.paths
    search = run.search(request.seed)
    report = Report(request, spec, req, run.method, apart=search.apart, search=search.stats)
    deadline = None if request.timeout is None else started + request.timeout
    board_started, tried = started, 0
    while len(report.boards) < request.count:
        index = len(report.boards)
        try:
            step = search.next(deadline, paths[index], _title(request, spec, index))
        except ProposalTimeout:
            report.error = _timed_out(report)
            break
        if step is None:
            report.error = _exhausted(report)
            break
        board, layout, verdict = step
        report.candidates += 1
        tried += 1
        if verdict.accepted:
            expect, difficulty = _measures(board, spec, req, verdict.answer, verdict.metrics, verdict.line,
                                           search.limits)
            board_started = write_level(run, report, layout, expect, difficulty, verdict.metrics, board_started,
                                        tried)
            tried = 0
            last = f"wrote {paths[index].name}"
        else:
            report.rejected[verdict.reason] += 1
            last = verdict.reason
        if progress is not None:
            progress(progress_of(run, report, last, started, search.stats))
    return report


def _generate_scripted(run: Run, started: float, progress: Callable[[Progress], None] | None) -> Report:
    """A game whose other pieces move by rule: levels climbed (:mod:`.scriptedsearch`), each
    judged exactly (win, its plies, the metrics' ranges) before it is written."""
    request, spec, req = run.request, run.spec, run.req
    cast = cast_of(spec)
    search = ScriptedSearch(spec, cast, run.structure.walls, req.plies, req.trivial_ok, request.seed,
                            apart(run.structure, spec))
    report = run.report()
    deadline = None if request.timeout is None else started + request.timeout
    since = started

    def tick(last: str = "climbing") -> None:
        report.candidates = search.levels
        report.search.layouts, report.search.longest = search.layouts, search.longest_any
        report.search.in_band = report.search.band_starts = search.in_band
        report.search.longest_offered = search.longest
        if progress is not None:
            progress(progress_of(run, report, last, started, report.search))
    while len(report.boards) < request.count:
        found = search.next(deadline, tick)
        if found is None:
            tick()
            report.error = _timed_out(report)
            break
        index = len(report.boards)
        path = run.paths[index]
        board = found.level.board(spec.template, str(path), _title(request, spec, index), cast.legend)
        verdict = judge(board, spec, dataclasses.replace(req, trivial_ok=True), Limits(memory=request.memory))
        if not verdict.accepted:
            search.refused(found.level)
            report.rejected[verdict.reason] += 1
            continue
        search.written(found.level)
        expect = {"win": True, "win_moves": verdict.answer.win_moves}
        if verdict.metrics is not None:
            expect.update({name: value for name, value in verdict.metrics.as_dict().items() if name != "plies"})
        header = _header(request, spec, req, index, None, verdict.metrics)
        header[-1:-1] = [f"Criteria met: {criteria_text(found.verdict, req.trivial_ok)}."]
        write_new(path, board_text(board, spec.rules_yaml, header, expect), request.force)
        now = time.perf_counter()
        report.boards.append(Generated(path, found.level.layout(), expect, None, now - since, search.levels,
                                       verdict.metrics))
        since = now
        tick(f"wrote {path.name}")
    return report


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


def progress_of(run: Run, report: Report, last: str, started: float, stats: SearchStats) -> Progress:
    """The progress of the run after a candidate (``last``: what happened to it)."""
    req = run.req
    return Progress(len(report.boards), run.request.count, report.candidates, last, time.perf_counter() - started,
                    stats, None if req.kind in (RequireKind.SURVIVE, RequireKind.VALUE) else req.plies)


class _Search:
    """Proposals and verdicts.

    Without ``every_start`` each proposed layout is judged alone.  With it, a new wall-and-mark
    layout is ranked for every placement of the pieces at once on one game graph
    (:func:`~gridsolve.generate.judge.start_graph`); where a level must not be trivial, every
    start in the requirement's band is also played out there (its shortest paths against every
    reply, :meth:`~gridsolve.generate.startgraph.StartGraph.survey`), so only the starts that
    meet the request are offered.  clingo places the pieces on the layout among them, under the
    encoding's constraints, and the judge re-checks one exactly.  The walls and marks are then
    forbidden.

    Good levels are rare among random layouts, so most proposals are *mutations* of a near-miss
    (:mod:`gridsolve.generate.mutation`: a few walls toggled, or the marks moved), drawn from
    elite layouts kept per niche (the plies of their best start) under a graded score
    (:meth:`_score`): how near the layout comes to a start that meets the request.

    Good layouts come in neighbourhoods (most walls can be toggled without losing the start that
    makes the level), but the boards of one run must differ on :func:`apart` walls and marks.
    So after a board that took WALK_AFTER layouts or more (or, after one found sooner, once
    WALK_AFTER more layouts have brought none) the search *walks away* from it: it
    toggles one wall at a time that the written board has as it is, keeps the step while the
    layout still offers a start
    (the steps may come near the written boards, they are not judged there), and offers the
    layout to the judge once it is far enough from every board written."""

    NEAR = 0.8            # share of proposals that mutate an elite (when there is one)
    NEAR_SURVEYED = 0.2   # ... where levels must not be trivial: fresh layouts with the goal open hold one about
                          # three times as often as before, and mutations stalled (8x8 2007, seeds 1-4: 5 levels in
                          # 24-56 s; with 0.8 one seed of four wrote none in 100 s)
    TRIES = 4             # mutations tried before a fresh proposal (a mutation can break a constraint)
    CHASED = 6            # placements offered first: the hunters nearest the role (_chased)
    PER_LAYOUT = 4        # placements judged on one wall layout before the search moves on
    SCATTER = 0.5         # layouts judged alone: share of proposals anchored on random walls (clingo's
                          # next model is near its last one; an anchor moves it elsewhere)
    BELOW = 4             # starts surveyed this many plies short of the band too (stepping stones)
    WALK_AFTER = 20       # a board that took this many layouts or more starts a walk (where boards are common,
                          # fresh layouts find the next one sooner than 17 steps of a walk)
    WALK_PATIENCE = 12    # failed steps in a row before a walk away from a written board is given up
    LENGTHEN = 0.9        # share of proposals that step the lengthening walk, while there is one
                          # (half of them while the search also walks away from a written board)
    LENGTHEN_ABOVE = 17   # the walk runs where the band starts above this many plies: below, the search alone
                          # writes non-trivial 2007 escapes in seconds (13 to 17 plies), and a walk taking most
                          # proposals delayed its first level (--plies 12.., seed 1: 24.5 s -> 64 s)

    def __init__(self, proposer: Proposer, spec: GameSpec, req: Requirement, every_start: bool, seed: int,
                 apart: int, symmetry: str | None = None, walls: tuple = (0, 0), kept_marks: bool = False,
                 plain: bool = False, limits: Limits | None = None):
        self.proposer, self.spec, self.req, self.every_start = proposer, spec, req, every_start
        self.limits = limits or Limits()
        self.apart, self.symmetry, self.walls = apart, symmetry, walls
        self.low = 0 if req.kind == RequireKind.SURVIVE else req.plies[0]   # start_ranks: 0 for every surviving start
        self.random = random.Random(seed)
        self.edges = edges(spec.template.width, spec.template.height)
        self.elites = Elites(self.random)
        self.surveyed = req.kind == RequireKind.WIN and not req.trivial_ok   # starts played out on the graph
        self.current = None          # (board, layout, {placement left to try: rank}, graded score)
        self.judged_here = 0         # placements judged on the current layout
        self.archive: Counter = Counter()   # (plies, difficulty) of the levels written: other plies first
        self.stats = SearchStats()
        self.allowed_on = None       # the layout last counted in stats.allowed
        self.written: list[Layout] = []     # the layouts of the boards written
        self.walk: list | None = None       # [the written layout walked from, the layout reached, failed steps]
        self.walking = False                # the layout being ranked is a step of the walk
        self.found_at = 0                   # the layouts ranked when the last board was written
        self.unwalked = None                # the last board written, found fast, not walked from (yet)
        self.open_goals = (bool(spec.marks) and set(spec.marks) <= set(spec.goal_marks) and symmetry is None
                           and not kept_marks)  # fresh layouts: the goal marks open on every side
        self.lengthening = (Lengthening(self.random) if self.surveyed and every_start
                            and self.low > self.LENGTHEN_ABOVE else None)
        self.lengthening_step = False       # the layout being ranked is a step of the lengthening walk
        self.fast = None                    # the layouts' starts judged in C (False: not served here)
        self.quick = (QuickLayouts(self.random, spec, self.edges, walls, apart)    # layouts made in Python
                      if plain and self.surveyed and every_start and self.open_goals else None)

    def next(self, deadline: float | None, path: Path, title: str):
        """(board, layout, verdict) for the next candidate; None when no layout is left;
        ProposalTimeout after ``deadline`` (a ``time.perf_counter`` value)."""
        width, height = self.spec.template.width, self.spec.template.height
        while True:
            if self.current is None:
                layout = self._propose(deadline)
                if layout is None:
                    return None
                board = self.spec.board(layout.north, layout.east, dict(layout.pieces), dict(layout.marks),
                                        str(path), title)
                if not self.every_start:
                    verdict = judge(board, self.spec, self.req, self.limits)
                    self.stats.seen(_forced_plies(verdict, self.req))
                    self.proposer.forbid(exactly(layout, width, height))
                    if verdict.accepted:
                        self._accepted(layout)
                    return board, layout, verdict
                self._rank(board, layout)
            step = self._place(deadline, path, title)
            if step is not None:
                return step

    def _rank(self, board, layout: Layout) -> None:
        """Rank every start of a new layout; the ones the search may offer become ``current``."""
        floor = max(1, self.low - self.BELOW)
        if self.lengthening is not None:
            floor = min(floor, self.lengthening.floor())
        band = (floor, self.req.plies[1]) if self.surveyed else None
        starts = self._judged(board, layout, band)
        survey = starts.survey
        ranks = starts.within(self.req, self.req.left(board))
        self._count(ranks)
        if self.lengthening is not None:
            self.lengthening.ranked(layout, survey, self.lengthening_step)
            self.stats.climbed = self.lengthening.longest or None
        if survey is not None:
            picked = survey.chosen[~survey.trivial & (survey.rank >= self.low)]
        else:
            picked = np.flatnonzero(ranks >= self.low)
        offered = {starts.key(k): int(ranks[k]) for k in picked.tolist()}
        score = self._score(ranks, survey, offered)
        if offered and self.req.kind != RequireKind.SURVIVE:
            top = max(offered.values())
            self.stats.longest_offered = max(top, self.stats.longest_offered or 0)
        if self.walking:
            offered = self._stepped(layout, offered)
        elif self.lengthening_step and self.written and \
                min(difference(layout, written) for written in self.written) < self.apart:
            offered = {}                    # a step may come near a written board: not a board of its own
        self.current = (board, layout, offered, score)
        self.judged_here = 0

    def _judged(self, board, layout: Layout, band: tuple | None) -> JudgedStarts:
        """Every start of ``layout`` ranked (and the band's played out): in C where
        :func:`~gridsolve.generate.layoutjudge.layout_judge` serves, else on the game graph."""
        if self.fast is None:
            self.fast = layout_judge(board, self.spec, self.req) or False
        if self.fast:
            return self.fast.judge(layout.north, layout.east, dict(layout.marks), self.req.left(board), band)
        graph = start_graph(board, self.spec, self.req, self.limits)
        return graph.judged(band, self.req.left(board))

    def _stepped(self, layout: Layout, offered: dict) -> dict:
        """A step of the walk ranked: kept when the layout offers a start; the starts offered
        to the judge only once the layout is far enough from every board written."""
        if not offered:
            self.walk[2] += 1
            if self.walk[2] >= self.WALK_PATIENCE:
                self.walk = None
            return offered
        self.walk[1:] = [layout, 0]
        if min(difference(layout, written) for written in self.written) < self.apart:
            return {}
        return offered

    def _score(self, ranks: np.ndarray, survey, offered: dict) -> tuple:
        """The graded score of a layout (higher is nearer the request): the best rank offered,
        then, where starts must not be trivial, the longest non-trivial start a little short of
        the band (a stepping stone: mutations lengthen it), how near the starts come to being
        non-trivial (the smallest share of a start's shortest paths that win, negated, and how
        many starts have at most half of their paths winning), then the best rank of any start
        (``ranks``: -1 where a start is not in reach)."""
        top = max(int(ranks.max(initial=0)), 0)
        best = max(offered.values(), default=0)
        if survey is None:
            return (best, top)
        several = survey.paths > 1
        shares = survey.winning[several] / survey.paths[several]
        short = survey.rank[~survey.trivial & (survey.rank < self.low)]
        return (best, int(short.max(initial=0)), -float(shares.min(initial=1.0)), int((shares <= 0.5).sum()), top)

    def _place(self, deadline, path: Path, title: str):
        """Place the pieces on the current walls: a judged candidate, or the walls' rejection."""
        board, layout, left, score = self.current
        while left and self.judged_here < self.PER_LAYOUT:
            near = self._chased(left)
            found = self.proposer.propose(_seconds(deadline), layout, among=near) if near else None
            if found is None:
                found = self.proposer.propose(_seconds(deadline), layout, among=left)
            if found is None:
                break
            rank = left.pop(found.pieces)
            if self.allowed_on is not layout:       # the first on these walls the constraints allow
                self.stats.allowed, self.allowed_on = self.stats.allowed + 1, layout
            placed = self.spec.board(found.north, found.east, dict(found.pieces), dict(found.marks),
                                     str(path), title)
            self.judged_here += 1
            verdict = judge(placed, self.spec, self.req, self.limits)
            if verdict.accepted:
                difficulty = verdict.metrics.difficulty if verdict.metrics is not None else None
                self.archive[(rank, difficulty)] += 1
                self._leave(layout)
                self._accepted(layout)
            return placed, found, verdict
        self._leave(layout)
        self.elites.offer(score[-1], layout, score)
        return board, layout, Verdict(None, NO_START)

    def _chased(self, left: dict) -> list | None:
        """The CHASED placements offered where a hunter starts nearest the role (steps on the
        board, walls ignored), longest forced end first among equals: a hunter that can reach
        the role's way makes the role's moves matter.  Plies that the levels written have least
        come first (an archive over plies and difficulty: a pack of varied levels).  None
        without hunters."""
        if not self.spec.hunters:
            return None
        role, hunters = self.spec.role, set(self.spec.hunters)
        written = Counter(plies for plies, _ in self.archive.elements())

        def distance(placement) -> int:
            cells = dict(placement)
            x, y = cells[role]
            return min(abs(x - hx) + abs(y - hy) for h, (hx, hy) in cells.items() if h in hunters)
        return sorted(left, key=lambda p: (written[left[p]], distance(p), -left[p], p))[:self.CHASED]

    def _count(self, ranks: np.ndarray) -> None:
        """Statistics of one layout's ranked placements (ranks: the plies of each, up to the
        band's top; -1 for the others)."""
        stats = self.stats
        stats.layouts += 1
        band = int((ranks >= self.low).sum())
        stats.in_band += bool(band)
        stats.band_starts += band
        if self.req.kind != RequireKind.SURVIVE and (ranks >= 0).any():
            stats.seen(int(ranks.max()))

    def _leave(self, layout: Layout) -> None:
        """Done with these walls and marks: never propose them again."""
        self.current = None
        if self.quick is not None:
            self.quick.seen.add((layout.north, layout.east, layout.marks))
        else:
            self.proposer.forbid(same_walls(layout, self.spec.template.width, self.spec.template.height))

    def _accepted(self, layout: Layout) -> None:
        """A board is written on this layout: every later board of the run differs from it on at
        least :func:`apart` wall edges and marked cells (else other starts or another exit on
        nearly the same walls would be a near copy); the elites that near it are dropped."""
        self.proposer.forbid(same_walls(layout, self.spec.template.width, self.spec.template.height))
        self.proposer.keep_apart(layout, self.apart)
        self.elites.drop_near(layout, self.apart)
        self.written.append(layout)
        if self.quick is not None:
            self.quick.written.append(layout)
        self.unwalked = None
        if self.every_start and self.stats.layouts - self.found_at >= self.WALK_AFTER:
            self.walk = [layout, layout, 0]
        elif self.every_start:
            self.unwalked = layout
        self.found_at = self.stats.layouts

    def _propose(self, deadline) -> Layout | None:
        _seconds(deadline)                  # ProposalTimeout once the time is up
        self.walking = self.lengthening_step = False
        if self.walk is None and self.unwalked is not None and self.stats.layouts - self.found_at >= self.WALK_AFTER:
            self.walk, self.unwalked = [self.unwalked, self.unwalked, 0], None   # the next one is not as quick
        share = self.LENGTHEN if self.walk is None else 0.5      # the walk away from a written board: every other
        if self.lengthening is not None and self.lengthening.active and self.random.random() < share:
            board = self.spec.template

            def propose(keep, free, marks, flip):
                return self._mutated(deadline, keep, Mutation(flip, free, marks), apart=False)
            layout = self.lengthening.step(propose, self.edges, self.symmetry, board.width, board.height,
                                           bool(self.spec.marks), self.TRIES)
            if layout is not None:
                self.lengthening_step = True
                return layout
        if self.walk is not None:
            layout = self._walk_step(deadline)
            if layout is not None:
                self.walking = True
                return layout
        if self.every_start and self.random.random() < (self.NEAR_SURVEYED if self.surveyed else self.NEAR):
            board = self.spec.template
            for _ in range(self.TRIES):
                parent = self.elites.parent()
                if parent is None:
                    break
                change = mutation(self.random, self.edges, self.symmetry, board.width, board.height,
                                  bool(self.spec.marks))
                layout = self._mutated(deadline, parent, change)
                if layout is not None:
                    return layout
        if self.surveyed:
            layout = self._fresh(deadline)
            if layout is not None:
                return layout
        elif self.random.random() < self.SCATTER:
            layout = self.proposer.propose(_seconds(deadline), self._anchor(), self._scattered_free(), False)
            if layout is not None:
                return layout
        return self.proposer.propose(_seconds(deadline))

    def _mutated(self, deadline, parent: Layout, change: Mutation, apart: bool = True) -> Layout | None:
        """``change`` applied to ``parent``: by :class:`~gridsolve.generate.quick.QuickLayouts`
        where it serves, else by the proposer (None: refused)."""
        if self.quick is not None:
            return self.quick.mutated(parent, change, apart)
        return self.proposer.propose(_seconds(deadline), parent, change.free, change.marks, flip=change.flip,
                                     apart=apart)

    def _walk_step(self, deadline) -> Layout | None:
        """The walk's next layout: one more wall toggled where the reached layout still equals
        the written one (None: the proposer refused TRIES of them; the walk counts a failure)."""
        origin, here, _ = self.walk
        board = self.spec.template
        same = [e for e in self.edges if _has_wall(here, e) == _has_wall(origin, e)]
        for _ in range(self.TRIES):
            change = mutation(self.random, same, self.symmetry, board.width, board.height, False, most=1)
            layout = self._mutated(deadline, here, change, apart=False)
            if layout is not None:
                return layout
        self.walk[2] += 1
        if self.walk[2] >= self.WALK_PATIENCE:
            self.walk = None
        return None

    def _fresh(self, deadline) -> Layout | None:
        """Where starts must not be trivial: a layout away from the elites, its wall count drawn
        evenly from the lower half of the allowed range (clingo's random choices alone fill the range's top: on 8x8 Mummy Mazes
        non-trivial escapes are several times as common with 34 walls as with 45): random walls
        of that count that keep the board connected (:func:`~gridsolve.generate.fresh.connected_walls`),
        all kept but a tenth of the edges; with ``open_goals``, the goal marks on random cells
        open on every side (:func:`~gridsolve.generate.fresh.open_goals`), else the marks left to
        clingo (None: the proposer refused TRIES of them).  With :class:`QuickLayouts`, the
        layout is made in Python, every edge kept."""
        low, high = self.walls
        for _ in range(self.TRIES):
            if self.quick is not None:
                layout = self.quick.fresh()
                if layout is not None:
                    return layout
                continue
            count = self.random.randint(low, (low + high) // 2)
            marks, around = open_goals(self.random, self.spec) if self.open_goals else ((), frozenset())
            walls = connected_walls(self.random, self.edges, count, around)
            anchor = Layout(frozenset((x, y) for kind, x, y in walls if kind == "north"),
                            frozenset((x, y) for kind, x, y in walls if kind == "east"), (), marks)
            free = frozenset(self.random.sample(self.edges, len(self.edges) // 10)) - around
            layout = self.proposer.propose(_seconds(deadline), anchor, free, bool(marks))
            if layout is not None:
                return layout
        return None

    def _anchor(self) -> Layout:
        """Random walls (a third of the edges) that a scattered proposal keeps on some edges."""
        walls = [e for e in self.edges if self.random.random() < 1 / 3]
        return Layout(frozenset((x, y) for kind, x, y in walls if kind == "north"),
                      frozenset((x, y) for kind, x, y in walls if kind == "east"), (), ())

    def _scattered_free(self) -> frozenset:
        """All edges but a random fifth: the proposal keeps the anchor's walls on that fifth."""
        return frozenset(self.random.sample(self.edges, len(self.edges) - len(self.edges) // 5))


def _has_wall(layout: Layout, edge: tuple) -> bool:
    kind, x, y = edge
    return (x, y) in (layout.north if kind == "north" else layout.east)


def _forced_plies(verdict: Verdict, req: Requirement) -> int | None:
    """The plies of the forced end the requirement is about, as judged (None: none forced)."""
    answer = verdict.answer
    if answer is None or req.kind in (RequireKind.SURVIVE, RequireKind.VALUE):
        return None
    return answer.win_plies if req.kind == RequireKind.WIN else answer.doom_plies


def _seconds(deadline: float | None) -> float | None:
    if deadline is None:
        return None
    left = deadline - time.perf_counter()
    if left <= 0:
        raise ProposalTimeout()
    return left


# - The request, checked ---

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


def states_requirement(request: Request) -> bool:
    """Does the request say what it asks for (then the rule set's good level is not used)?"""
    return (request.require is not None or request.role is not None or request.plies != (None, None)
            or request.value != (None, None) or request.horizon is not None or bool(request.metrics)
            or request.difficulty is not None or request.trivial_ok or bool(request.keep)
            or request.walls != (None, None))


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
    original = load_board(request.like)
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


def _source(request: Request) -> str:
    return request.rules or Path(request.like).stem


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


def _title(request: Request, spec: GameSpec, index: int) -> str:
    board = spec.template
    return f"{_source(request)} {board.width}x{board.height}, seed {request.seed}, no. {index + 1}"


# - What a written board carries ---

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
    words += [flag for flag, on in (("--allow-sealed", request.sealed_ok), ("--allow-trivial", request.trivial_ok))
              if on]
    return shlex.join(words)


def _range_text(bounds: tuple) -> str | None:
    low, high = bounds
    if low is None and high is None:
        return None
    return str(low) if low == high else f"{'' if low is None else low}..{'' if high is None else high}"


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
        lines.append(f"The most testing line ({len(testing.line)} plies): {testing.describe()}.")
        lines += [f"Decisive: {choice.describe(spec.role)}." for choice in testing.choices]
    lines.append("The expect block holds the measured values; `gridsolve verify` re-checks them.")
    return lines


# - Stopping early ---

def _done(report: Report) -> str:
    written = len(report.boards)
    return (f"wrote {written} of {report.request.count} boards after {report.candidates} candidates"
            + (f" ({_rejections(report)})" if report.rejected else ""))


def _rejections(report: Report) -> str:
    return ", ".join(f"{n} {reason}" for reason, n in report.rejected.most_common())


def _timed_out(report: Report) -> LimitError:
    finding, hints = diagnosis(report)
    budget = "" if report.request.timeout_given else " (the default time budget)"
    return LimitError(f"--timeout {report.request.timeout:g} s{budget} reached: {_done(report)}"
                      + (f". {finding[:1].upper()}{finding[1:]}" if finding else ""),
                      "allow more time (--timeout SECONDS, 0: no limit), or relax the request: "
                      + "; ".join(hints or ["fewer plies, a larger board or other --walls"]))


def _exhausted(report: Report) -> QueryError:
    board = report.spec.template
    what = f"{board.width}x{board.height} board where {report.requirement.describe(report.spec.role)}"
    if not report.requirement.trivial_ok and report.requirement.kind == RequireKind.WIN:
        what += ", not by walking the shortest way,"
    if not report.boards and not report.candidates:
        return QueryError(f"no {what} exists with these walls and marks (clingo proved it)",
                          "ask for fewer plies, a larger board or other --walls")
    finding, hints = diagnosis(report)
    return QueryError(f"no other {what} exists that differs from the boards written on at least "
                      f"{report.apart} walls and marked cells: {_done(report)}"
                      + (f". {finding[:1].upper()}{finding[1:]}" if finding else ""),
                      "ask for fewer boards, or relax the request: "
                      + "; ".join(hints or ["fewer plies, a larger board or other --walls"]))


def diagnosis(report: Report) -> tuple[str, list[str]]:
    """Which part of the request the layouts tried met least often, and the options that relax
    it: (a sentence, or "" when there is nothing to say; hints)."""
    req, stats, rejected = report.requirement, report.search, report.rejected
    if req.kind == RequireKind.VALUE and rejected:
        reason, _ = rejected.most_common(1)[0]
        return (f"of {report.candidates} candidates, the most rejected as '{reason}'",
                ["another --value band", "a larger board or other --walls"])
    if req.kind == RequireKind.SURVIVE:
        return "", []
    low, high = req.plies
    band = f"{low} plies" if low == high else f"{low} to {high} plies"
    forced = "a forced win" if req.kind == RequireKind.WIN else "a forced loss"
    trivial = req.kind == RequireKind.WIN and not req.trivial_ok
    fewer = (f"fewer plies (--plies {stats.longest}..)" if stats.longest and stats.longest < low
             else "fewer plies")
    kindred = kindred_rule_sets(report.spec, Path(report.request.out))
    variants = [f"another rule set for the same pieces and marks, e.g. --rules {kindred[0]} "
                f"(also: {', '.join(kindred[1:])})" if len(kindred) > 1 else f"the rule set --rules {kindred[0]}"] \
        if kindred else []
    longest = "none" if stats.longest is None else f"{stats.longest} plies"
    if stats.layouts and not stats.in_band:
        return (f"none of the {stats.layouts} wall layouts ranked has a start with {forced} in {band} "
                f"(the longest seen: {longest}): the plies are the rarest part of the request",
                [fewer, "a larger board or other --walls", *variants])
    if stats.layouts and trivial and stats.in_band and not report.boards:
        return (f"{stats.in_band} of the {stats.layouts} wall layouts ranked {'has' if stats.in_band == 1 else 'have'} "
                f"starts with {forced} in {band} "
                f"({stats.band_starts} starts), but "
                + ("walking the shortest way wins from every one of them (the non-trivial constraint allowed none)"
                   if not stats.allowed else
                   f"the non-trivial constraint allowed starts on {stats.allowed} of them only, and the exact "
                   f"check judged {rejected.get(TRIVIAL, 0)} trivial")
                + ": a level that is not trivial is the rarest part"
                + (f" (the longest non-trivial start seen: {stats.climbed} plies)" if stats.climbed else ""),
                ["--allow-trivial", f"fewer plies (--plies {stats.climbed}..)" if stats.climbed and stats.climbed < low
                 else fewer, *variants])
    if not stats.layouts and rejected:
        reason, _ = rejected.most_common(1)[0]
        hint = {TRIVIAL: "--allow-trivial", NO_WIN: fewer, TOO_SLOW: fewer, TOO_FAST: "more plies",
                SURVIVES: fewer, LOST_TOO_SLOWLY: fewer, LOST_TOO_FAST: "more plies"}.get(reason)
        return (f"of {report.candidates} candidates, the most rejected as '{reason}' (the longest forced end "
                f"seen: {longest})", [h for h in (hint, "a larger board or other --walls") if h] + variants)
    return "", []


def describe_progress(progress: Progress) -> str:
    """One progress line: time, boards, candidates and what the search has seen."""
    line = (f"generate: {progress.seconds:.0f} s, {progress.done} of {progress.count} boards, "
            f"{progress.candidates} candidates")
    stats = progress.search
    if stats is not None and stats.layouts:
        band = "" if progress.plies is None else f" ({_range_text(progress.plies)} plies)"
        line += f"; {stats.layouts} wall layouts ranked, {stats.in_band} with a start in the band{band}"
    if stats is not None and stats.longest is not None:
        line += f"; longest forced end seen: {stats.longest} plies"
    if stats is not None and stats.longest_offered is not None:
        line += f" (of a start that meets the request: {stats.longest_offered})"
    return line + f"; last: {progress.last}"


def progress_lines(echo: Callable[[str], None], every: float = PROGRESS_EVERY) -> Callable[[Progress], None]:
    """A progress callback that writes a line with ``echo`` when a board is written and at most
    every ``every`` seconds otherwise (on a terminal and on a pipe alike)."""
    state = {"at": 0.0, "done": 0}

    def report(progress: Progress) -> None:
        if progress.done != state["done"] or progress.seconds - state["at"] >= every:
            state["at"], state["done"] = progress.seconds, progress.done
            echo(describe_progress(progress))
    return report


def format_generated(report: Report) -> str:
    """What ``gridsolve generate`` prints: a line per board written, then the totals."""
    lines = []
    for board in report.boards:
        measured = ", ".join(f"{k} {scalar(v)}" for k, v in board.expect.items())
        lines.append(f"{board.path}: {measured} ({board.seconds:.1f} s, {board.candidates} candidates)")
        if board.metrics is not None:
            lines.append(f"  difficulty {board.metrics.describe()}")
        elif board.difficulty is not None:
            lines.append(f"  difficulty: {board.difficulty.describe(report.spec.role)}")
    if report.pack:
        lines.append(f"pack: {report.pack[0]} (levels easiest first), {report.pack[1]} (difficulty curve)")
    if report.boards:
        lines.append(f"{len(report.boards)} board{'s' if len(report.boards) != 1 else ''} in "
                     f"{report.seconds:.1f} s ({report.time_summary()}; method {report.method})")
    return "".join(line + "\n" for line in lines)

