"""What a generate run reports: the boards written, the search's statistics, the progress
line, why a run stopped early and which part of the request was rarest, and the text printed."""
from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..language import wording
from .difficulty import Difficulty
from ..errors import GridsolveError, LimitError, QueryError
from .genspec import GameSpec, Requirement, kindred_rule_sets
from ..analysis.metrics import Metrics
from .judge import LOST_TOO_FAST, LOST_TOO_SLOWLY, NO_WIN, SURVIVES, TOO_FAST, TOO_SLOW, TRIVIAL
from .genchoices import PROGRESS_EVERY
from .levelfile import scalar
from .proposer import Layout
from ..language.kinds import RequireKind
from .request import Request, _range_text


@dataclass
class Generated:
    """A board written: where, its layout, its expectation and how long it took."""

    path: Path
    layout: Layout                  # (a climbed level: its scriptedsearch.Level, gates included)
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
    longest = "none" if stats.longest is None else wording.plies(stats.longest)
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
        line += f"; longest forced end seen: {wording.plies(stats.longest)}"
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
