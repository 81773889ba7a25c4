"""The exact solver judges the proposed layouts.

:func:`judge` measures one layout as ``gridsolve verify`` will: the value query from the
initial position (win, survive, plies; the survive query where the role's scores are not
constants) and, for ``win``, the ``no_beeline`` check.  A rejected layout is forbidden alone.

:func:`start_graph` judges the walls and marks of a layout for every placement of the pieces
at once: one retrograde analysis ranks every position, and so every start (the race solver's
game graph with every start as a root; :mod:`gridsolve.generate.startgraph` also plays out
the beeline of every start there).
"""
from __future__ import annotations

from dataclasses import dataclass


from ..analysis.beeline import check_beeline
from ..errors import QueryError
from .genspec import GameSpec, Requirement, range_text
from .difficulty import Difficulty, measure
from ..analysis.metrics import LINE_SAFETY, Metrics, WinNotByAnEnd, measurable, measure_metrics
from ..analysis.ends import metrics_unsupported
from ..language.model import Board
from ..language.position import Position, Query, initial_position
from ..solve.common.answer import Answer
from ..solve.common.capabilities import START_GRAPH, serves
from ..solve.common.limits import Limits
from ..solve.dispatch.dispatcher import solve
from .startgraph import StartGraph, query_kind, start_program, start_query
from ..language.kinds import RequireKind

SHORT_HORIZON = 12         # up to this --horizon, games with items are judged by the layered solver (no
                           # bounded solver): 0.4 s instead of 14 s for a Pacman layout at horizon 10

# Why a layout was rejected (the keys of Report.rejected).
NO_WIN, TOO_FAST, TOO_SLOW, TRIVIAL = "no forced win", "won too fast", "won too slowly", "trivial"
SURVIVES, LOST_TOO_FAST, LOST_TOO_SLOWLY = "role survives", "lost too fast", "lost too slowly"
LOSES = "role loses"
VALUE_LOW, VALUE_HIGH = "value too low", "value too high"
HELD = "top score held from the start"   # a conditional timeout already gives it: no forced end to measure
NO_START = "no placement meets the requirement"     # start_ranks: on these walls and marks


@dataclass
class Verdict:
    answer: Answer | None             # the query from the initial position (None: not asked)
    reason: str | None = None         # None: accepted
    metrics: Metrics | None = None    # a won level's difficulty metrics (where measured)
    line: Difficulty | None = None    # the principal line's measure, where the test needed it

    @property
    def accepted(self) -> bool:
        return self.reason is None


def judge(board: Board, spec: GameSpec, req: Requirement, limits: Limits | None = None) -> Verdict:
    """Measure ``board`` against ``req``, each solve within ``limits``."""
    role, (low, high) = spec.role, req.plies
    start = initial_position(board)
    answer = solve(board, Query(role, query_kind(board, role, req.kind), start, req.horizon),
                   limits, bounded=req.horizon is None or req.horizon > SHORT_HORIZON)
    if req.kind == RequireKind.WIN:
        if answer.win and answer.win_plies is None:
            return Verdict(answer, HELD)
        if not answer.win or answer.win_plies > high:
            return Verdict(answer, NO_WIN if not answer.win else TOO_SLOW)
        if answer.win_plies < low:
            return Verdict(answer, TOO_FAST)
        if not req.trivial_ok and not check_beeline(board, role, start, req.left(board)).holds:
            return Verdict(answer, TRIVIAL)
        return _tested(board, role, start, req, answer, limits)
    elif req.kind == RequireKind.VALUE:
        low, high = req.value
        if low is not None and answer.value < low:
            return Verdict(answer, VALUE_LOW)
        if high is not None and answer.value > high:
            return Verdict(answer, VALUE_HIGH)
    elif req.kind == RequireKind.LOSE:
        if answer.survives or answer.doom_plies > high:
            return Verdict(answer, SURVIVES if answer.survives else LOST_TOO_SLOWLY)
        if answer.doom_plies < low:
            return Verdict(answer, LOST_TOO_FAST)
    elif not answer.survives:
        return Verdict(answer, LOSES)
    return Verdict(answer)


def _tested(board: Board, role: str, start: Position, req: Requirement, answer: Answer,
            limits: Limits | None = None) -> Verdict:
    """A won level measured (where the metrics apply) and put to the good-level test."""
    graph_wanted = [m for m in req.metrics if m[0] != LINE_SAFETY]
    metrics = None
    if measurable(board, role):
        try:
            metrics = measure_metrics(board, role, start, req.horizon, answer.win_plies, limits)
        except WinNotByAnEnd as error:
            if graph_wanted or req.difficulty:
                return Verdict(answer, str(error).partition(": ")[2])
    elif graph_wanted or req.difficulty:
        raise QueryError(f"the difficulty metrics {', '.join(m[0] for m in graph_wanted) or 'difficulty'} are not "
                         f"defined for {role} under {board.rules.name}: {metrics_unsupported(board, role)}",
                         "leave them out (line_safety is defined for every game), or ask with --no-defaults")
    line = None
    for name, low, high in req.metrics:
        if name == LINE_SAFETY:
            line = line or measure(board, role, start, answer, req.horizon, limits)
            value = line_safety(line)
        else:
            value = metrics.value(name)
        if value is None or (low is not None and value < low) or (high is not None and value > high):
            return Verdict(answer, f"{name} outside {range_text(low, high)}", metrics, line)
    if req.difficulty and metrics.difficulty != req.difficulty:
        return Verdict(answer, f"not {req.difficulty}", metrics, line)
    return Verdict(answer, None, metrics, line)


def line_safety(difficulty: Difficulty) -> float:
    """Along the solver's principal line, the share of the role's moves that keep the win."""
    return 1.0 - difficulty.losing_share


def ranks_every_start(spec: GameSpec, req: Requirement) -> bool:
    """Does :func:`start_ranks` apply to this request (else each layout is judged alone)?"""
    return serves(START_GRAPH, spec.template, start_query(spec.template, spec.role, req),
                  value_range=req.kind == RequireKind.VALUE)


def start_graph(board: Board, spec: GameSpec, req: Requirement, limits: Limits | None = None) -> StartGraph:
    """``board``'s walls and marks ranked for every placement of the pieces (the race of
    ``req``: the role's win, or the others' end it must avoid).  Only when :func:`ranks_every_start`."""
    program = start_program(board, spec.role, req)
    plan = program.plan
    return StartGraph(board, spec.role, req, program, plan.win if req.kind == RequireKind.WIN else plan.avoid, limits)


def start_ranks(board: Board, spec: GameSpec, req: Requirement) -> dict:
    """For every placement of the pieces on ``board``'s walls and marks (as ``Layout.pieces``)
    from which the requirement's race is decided within ``req.plies``' upper end: the plies it
    is forced in (``win``: the role's fastest forced win; ``lose``: the others' fastest forced
    end the role must avoid).  For ``survive``: 0 for every placement from which the role
    survives.  Only when :func:`ranks_every_start`."""
    return start_ranks_of(start_graph(board, spec, req), board, req)


def start_ranks_of(graph: StartGraph, board: Board, req: Requirement) -> dict:
    """:func:`start_ranks` read off the layout's :func:`start_graph`."""
    high = req.plies[1] if req.kind != RequireKind.SURVIVE else req.left(board)
    ranks = {placement: rank for placement, rank in graph.start_ranks().items() if rank <= high}
    if req.kind == RequireKind.SURVIVE:
        every = (tuple(sorted(zip(board.rules.roles, placed))) for placed in graph.placements)
        return {placement: 0 for placement in every if placement not in ranks}
    return ranks
