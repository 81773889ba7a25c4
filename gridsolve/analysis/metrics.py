"""Exact difficulty metrics of a won level, read off the solved game graph.

The game graph is every position reachable from the start, computed by the compiled game rules
(:func:`gridsolve.explain.walls.explore_graph`, one clingo run); a retrograde analysis in Python
ranks each position by the plies of the role's fastest forced win (attackers: the turns
entries of the role's team pick one successor; the others must let every successor win), as
``encodings/solve.lp`` ranks the win race.  ``plies`` is checked against the solver's answer
where one is given (an EncodingError if they differ).

Definitions (docs, "Generating levels", and tests/test_metrics.py computes each one again
with an explicit-state model that imports nothing from gridsolve).  ``L`` is the plies left at
the start (step limit or horizon); a position *keeps the win* when its rank is at most the
plies left there.  The *optimal lines* are the lines from the start where every move keeps
the rank falling by one ply: the role plays a fastest win, the others delay it as long as
they can.  ``O`` is the set of positions on them; a *role turn* is a position of ``O``
(before the end) where the role's team moves.  Moves that lead to the same position count once.

* ``plies``: the fastest forced win from the start.
* ``forced_moves``: the share of role turns where exactly one move keeps the win.
* ``path_safety``: over the role turns, the moves that keep the win divided by all moves.
* ``dead_ends``: the share of the positions reachable from the start (reached by the fastest
  way, within ``L`` plies, before an end) from which the role can no longer force the win.
* ``greedy_deviation``: the share of role turns where no move of a fastest win brings the
  role's piece nearer (walking steps through open edges, other pieces ignored) to a goal cell;
  None when the role has no goal mark.
* ``random_win``: the probability that the role wins within ``L`` plies when it plays each
  move uniformly at random (among its distinct moves) and the others play the replies that
  make that probability smallest (a Markov decision process solved backwards over the plies).
* ``greedy_win`` and ``lookahead_win``: the win probability of a *careful greedy* player, the
  model of a person (:func:`careful_win`): at each of its turns it keeps the moves after which
  the others cannot force an end it must avoid within ``k`` plies (the danger it sees: ``k`` =
  1 for ``greedy_win``, "never step where the mummy catches me next", and 3 for
  ``lookahead_win``), among them those that bring its piece nearest a goal (walking steps,
  other pieces ignored), and picks one of those uniformly at random (where no move is safe:
  among all its moves); the others play the replies that make the probability smallest.
* ``hints``: the fewest of the role's moves on a forced win that the careful greedy player
  (seeing 1 ply ahead) would not make, against the defence that makes it most
  (:func:`hints`): at each of the role's turns either one of the careful greedy player's
  choices (free) or any other move (one hint), the others choosing to make the count largest;
  0 when some line of its own choices wins whatever the others do.
* ``optimal_lines``: how many optimal lines the role can choose from against the most
  constraining defence: 1 at the goal, the sum over the role's fastest moves at its turns, the
  fewest over the others' delaying replies at theirs (1: one way to win fastest).
* ``line_safety`` (every game, also where the others move at the same time): along the solver's
  principal line, the share of the role's moves that keep the win (gridsolve/generate/difficulty.py).
* ``difficulty`` (:func:`difficulty_of`): ``easy`` when walking a shortest way blindly wins
  (the ``no_beeline`` check fails) or the level's metrics meet the rule set's ranges for easy;
  else ``medium`` when they meet its ranges for medium; else ``hard``.  The ranges are the
  rule set's ``generate: labels:`` (data; the classic Mummy Maze rule sets label by ``hints``),
  by default (:data:`DEFAULT_LABELS`): easy when the careful greedy player looking 1 ply ahead
  wins with probability at least 3/4; medium when the one looking 3 plies ahead wins at least a
  quarter of the time (a fork or two where the natural choice is a coin toss); else hard: the
  natural choices lose, and a player must plan further than the danger it sees.
"""
from __future__ import annotations

import functools
import math
from collections import deque
from dataclasses import dataclass

import numpy as np

from .. import native
from ..compile.state import layout_for, unjudged
from ..errors import EncodingError, LimitError, QueryError
from ..language import wording
from ..language.distance import step_distances
from ..language.model import Board
from ..language.position import Position, Query
from ..solve.common.limits import Limits
from ..solve.graph.codec import PositionCodec
from ..solve.graph.racegraph import RaceGraph
from ..solve.graph.scripted import ScriptedMoves
from ..solve.program.driver import race_limits
from .beeline import check_beeline
from .ends import beeline_unsupported, metrics_unsupported, top_score_ends
from .walks import Walks
from ..language.kinds import QueryKind

GRAPH_LIMIT = 400_000       # positions: a larger game graph is not measured (metrics: None)

# name -> (what it is, which way is harder: +1 higher, -1 lower)
METRICS = {
    "plies": ("the fastest forced win, in plies", +1),
    "forced_moves": ("share of the role's turns on the optimal lines with one move that keeps the win", +1),
    "path_safety": ("share of the role's moves on the optimal lines that keep the win", -1),
    "dead_ends": ("share of reachable positions from which the win is lost", +1),
    "greedy_deviation": ("share of the role's turns on the optimal lines where no fastest move nears a goal",
                         +1),
    "random_win": ("win probability of a role that moves at random against the best defence", -1),
    "greedy_win": ("win probability of a careful greedy player that sees the danger 1 ply ahead", -1),
    "lookahead_win": ("win probability of a careful greedy player that sees the danger 3 plies ahead", -1),
    "hints": ("fewest moves of a forced win that the careful greedy player would not make", +1),
    "optimal_lines": ("optimal lines the role can choose from against the best defence", -1),
    "line_safety": ("share of the role's moves along the solver's principal line that keep the win", -1),
}
LINE_SAFETY = "line_safety"     # measured along the principal line (gridsolve/generate/difficulty.py), not the graph
DIFFICULTY = ("easy", "medium", "hard")    # --difficulty NAME (difficulty_of)
LOOKAHEAD = {"greedy_win": 1, "lookahead_win": 3}    # the careful greedy players' plies of danger seen
EASY = 0.75                 # easy: the careful greedy player seeing 1 ply ahead wins this often (or the beeline wins)
MEDIUM = 0.25               # medium: the one seeing 3 plies ahead wins this often (at most two coin tosses lost)
# The labels where a rule set declares none (its generate: labels:): (label, ((metric, min, max), ...)), the
# easier first; a level takes the first whose ranges all hold (the beeline winning: easy), else hard.
DEFAULT_LABELS = (("easy", (("greedy_win", EASY, None),)), ("medium", (("lookahead_win", MEDIUM, None),)))
DIGITS = 4                  # shares and probabilities are written with this many significant digits
SETTLED = 1e-12             # without a step limit the win probabilities are their limits: iterated until a ply
                            # changes none by more than this share of its value (relative, so that a tiny
                            # probability keeps its DIGITS too)


class WinNotByAnEnd(QueryError):
    """The solver forces the role's top score sooner than any end gives it: by a stop (a side
    without a move) or by the step limit's rule (Maze Runner Duel's nearer player).  The metrics
    measure wins by an end only, so they are not defined for such a level."""


@dataclass(frozen=True)
class Metrics:
    """A level's metrics; those :func:`measure_metrics` was not asked for are None."""

    plies: int
    forced_moves: float | None
    path_safety: float | None
    dead_ends: float | None
    greedy_deviation: float | None
    random_win: float | None
    optimal_lines: int | None
    positions: int                    # reachable positions measured
    greedy_win: float | None = 0.0
    lookahead_win: float | None = 0.0
    beeline_wins: bool | None = None  # walking a shortest way blindly wins (None: not defined here)
    hints: int | None = None
    labels: tuple = DEFAULT_LABELS    # the rule set's labels (difficulty_of)

    @property
    def difficulty(self) -> str:
        return difficulty_of(self)

    def value(self, name: str):
        return getattr(self, name, None)

    def as_dict(self) -> dict:
        """The metrics as written in a level's expect block (shares rounded)."""
        out = {}
        for name in METRICS:
            value = getattr(self, name, None)
            if value is not None:
                out[name] = rounded(value) if isinstance(value, float) else value
        return out

    def describe(self) -> str:
        greedy = "n/a" if self.greedy_deviation is None else f"{self.greedy_deviation:.0%}"
        return (f"{self.difficulty}: forced win in {wording.plies(self.plies)}; forced moves {self.forced_moves:.0%}, "
                f"path safety {self.path_safety:.0%}, dead ends {self.dead_ends:.0%}, greedy deviation {greedy}, "
                f"random player wins {_percent(self.random_win)}, careful greedy player wins "
                f"{_percent(self.greedy_win)} (looking 3 plies ahead: {_percent(self.lookahead_win)}), "
                f"{self.hints} hint{'s' if self.hints != 1 else ''}, "
                f"{self.optimal_lines} optimal line{'s' if self.optimal_lines != 1 else ''}")


def rounded(value: float) -> float:
    """A share or probability as written in a level's expect block: DIGITS significant digits."""
    return float(f"{value:.{DIGITS}g}")


def _percent(p: float) -> str:
    return f"{p:.1%}" if p >= 0.001 or p == 0 else f"{p:.2g}"


def difficulty_of(metrics: "Metrics") -> str:
    """easy when the beeline wins; else the first of ``metrics.labels`` (the easier first) whose
    ranges all hold; else hard.  By default (:data:`DEFAULT_LABELS`): easy when the careful
    greedy player seeing 1 ply ahead wins with probability at least EASY, medium when the one
    seeing 3 plies ahead wins with probability at least MEDIUM."""
    if metrics.beeline_wins:
        return "easy"
    return next((label for label, ranges in metrics.labels if all(_within(metrics, r) for r in ranges)), "hard")


def _within(metrics: "Metrics", band: tuple) -> bool:
    name, low, high = band
    value = metrics.value(name)
    return value is not None and (low is None or value >= low) and (high is None or value <= high)


def why_difficulty(metrics: "Metrics") -> str:
    """The reason for the level's label, in words."""
    if metrics.beeline_wins:
        return "walking a shortest way to the goal wins whatever the others do"
    if metrics.labels != DEFAULT_LABELS:
        bands = "; ".join(f"{label}: {', '.join(_band(r) for r in ranges)}" for label, ranges in metrics.labels)
        names = dict.fromkeys(name for _, ranges in metrics.labels for name, _, _ in ranges)
        return f"{', '.join(_said(metrics, name) for name in names)} ({bands})"
    seen = (f"a careful greedy player (the nearest step to the goal that the others cannot punish within 1 "
            f"ply) wins {_percent(metrics.greedy_win)} of the time")
    if metrics.greedy_win >= EASY:
        return seen
    ahead = f"looking 3 plies ahead it wins {_percent(metrics.lookahead_win)}"
    return f"{seen}; {ahead}" + ("" if metrics.lookahead_win >= MEDIUM else ": the way to win must be planned")


def _band(band: tuple) -> str:
    name, low, high = band
    if low is None:
        return f"{name} at most {high:g}"
    return f"{name} at least {low:g}" if high is None else f"{name} {low:g} to {high:g}"


def _said(metrics: "Metrics", name: str) -> str:
    """One metric of the level in words."""
    value = metrics.value(name)
    if name == "hints":
        return (f"a win needs {value} move{'s' if value != 1 else ''} that a careful greedy player (the nearest "
                f"step to the goal that the others cannot punish within 1 ply) would not make")
    return f"{name} {rounded(value) if isinstance(value, float) else value}"


def measurable(board: Board, role: str) -> bool:
    """Whether :func:`measure_metrics` applies (verify.expect.metrics_unsupported)."""
    return metrics_unsupported(board, role) is None


class SolvedGraph:
    """The game graph reachable from a start (the race solver's graph:
    :class:`~gridsolve.solve.graph.racegraph.RaceGraph`), ranked for the role's win: ``succ``
    (distinct successors), ``mover`` (the turns entry to move), ``end`` (the end that holds,
    None), ``goal``, ``rank`` (plies of the fastest forced win, inf: none)."""

    def __init__(self, board: Board, role: str, start: Position, horizon: int | None = None,
                 limits: Limits | None = None):
        layout = layout_for(board)
        self.board, self.role, self.layout = board, role, layout
        self.left = Query(role, QueryKind.VALUE, start, horizon).remaining(board)
        self.horizon = horizon
        self.codec = PositionCodec(board, layout)
        root = self.codec.text(start)
        graph = self.graph = RaceGraph(board, layout, [root], race_limits(board, layout, [start], limits or Limits()))
        if graph.n > GRAPH_LIMIT:
            raise LimitError(f"the game graph has {graph.n} positions, more than {GRAPH_LIMIT} measured")
        self.n = n = graph.n
        self.mover = graph.turn.tolist()
        self.end = [None if o < 0 else graph.ends[o] for o in graph.outcome.tolist()]
        targets = np.repeat(np.arange(n), np.diff(graph.start))     # pred[start[i]:start[i + 1]] lead to i
        order = np.lexsort((targets, graph.pred))                    # by source, then its successor
        self._sources, self._targets = graph.pred[order].astype(np.int64), targets[order]
        rules = board.rules
        self.mine = [rules.own_turn(m, role) for m in range(len(rules.turns))]
        goals = self.goals = set(top_score_ends(board, role))
        self.goal = [e in goals for e in self.end]
        self.start = graph.index(self.codec.term(start))
        attackers = [m for m in range(len(rules.turns)) if self.mine[m]]
        rank, _ = graph.ranks(attackers, [e for e in graph.ends if e in goals], self.left)
        self.rank = [math.inf if r < 0 else r for r in rank.tolist()]
        self.slot = layout.roles.index(role)

    @functools.cached_property
    def succ(self) -> list[list[int]]:
        """Each position's distinct successors (made when first read: the metrics that walk
        the graph position by position read them, those computed in arrays do not)."""
        ptr = np.concatenate([[0], np.cumsum(np.bincount(self._sources, minlength=self.n))]).tolist()
        targets = self._targets.tolist()
        return [targets[ptr[s]:ptr[s + 1]] for s in range(self.n)]

    def cell(self, s: int) -> tuple[int, int]:
        """The role's cell at position ``s``."""
        graph = self.graph
        if graph.numbering is not None:
            if getattr(self, "_cells", None) is None:       # (every position's at once; start(S): S's)
                numbering = graph.numbering
                rows = numbering.rows(graph.graph.keys.astype(np.int64) % graph.graph.starts_at)
                self._cells = list(zip(rows[:, 1 + 2 * self.slot].tolist(), rows[:, 2 + 2 * self.slot].tolist()))
            return self._cells[s]
        numbers = [a.number for a in unjudged(graph.symbol(s)).arguments]
        return numbers[1 + 2 * self.slot], numbers[2 + 2 * self.slot]

    def position(self, s: int, step: int) -> Position:
        """Position ``s`` at ``step``."""
        return self.codec.position(self.graph.symbol(s), step)

    def wins(self, s: int, left: int) -> bool:
        return self.rank[s] <= left

    def goal_steps(self) -> np.ndarray:
        """The careful greedy player's distance to a goal of every position (inf: none; 0
        everywhere where the role has no goal mark): where the others move by rule, the greedy
        distance of :class:`~gridsolve.analysis.walks.Walks` (round the traps, through the gate
        as the position has it, by the key where the gate blocks), on the tables the graph was
        joined on; elsewhere the walking steps of :func:`goal_distance`."""
        if getattr(self, "_goal_steps", None) is None:
            if isinstance(self.graph.named, ScriptedMoves):     # positions by number (ScriptNumbering)
                walks = Walks(self.board, self.graph.named.tables)
                self._goal_steps = walks.position_greedy_distances(self.graph.graph.keys)
            else:
                distance = goal_distance(self.board, self.role)
                self._goal_steps = np.zeros(self.n) if distance is None else \
                    np.array([distance.get(self.cell(s), math.inf) for s in range(self.n)])
        return self._goal_steps

    def edges(self) -> tuple[np.ndarray, np.ndarray]:
        """Every move as (position, position after it), grouped by position."""
        return self._sources, self._targets


def label_metrics(labels: tuple) -> set[str]:
    """The metrics the difficulty label reads (:func:`difficulty_of`; the beeline besides)."""
    return {name for _, ranges in labels for name, _, _ in ranges}


def measure_metrics(board: Board, role: str, start: Position, horizon: int | None = None,
                    plies: int | None = None, limits: Limits | None = None,
                    only: set[str] | None = None) -> Metrics:
    """The metrics of the level from ``start`` (the role must force a win from there): every
    one, or with ``only`` those named and those its difficulty label reads (the others None);
    ``plies``: the solver's answer, checked against the graph's rank; ``limits``: the graph's."""
    why = metrics_unsupported(board, role)
    if why:
        raise QueryError(f"the difficulty metrics are not defined here: {why}")
    graph = SolvedGraph(board, role, start, horizon, limits)
    top = graph.rank[graph.start]
    if plies is not None and plies < top:
        by_end = wording.plies(top) if top != math.inf else "never"
        raise WinNotByAnEnd(f"the difficulty metrics are not defined here: {role} forces its top score in "
                            f"{wording.plies(plies)} by a stop or the step limit's rule, sooner than by an end "
                            f"({by_end})")
    if top == math.inf:
        raise QueryError(f"{role} forces no win from this position: no difficulty to measure")
    if plies is not None and plies != top:
        raise EncodingError(f"the game graph ranks the win in {wording.plies(top)}, the solver in {plies}")
    good = board.rules.good_level
    labels = good.labels if good is not None and good.labels else DEFAULT_LABELS
    beeline = None
    if not beeline_unsupported(board):
        try:
            beeline = not check_beeline(board, role, start, graph.left, graph.graph.named_moves()).holds
        except LimitError:
            beeline = None
    wanted = set(METRICS) if only is None else set(only) | (set() if beeline else label_metrics(labels))
    asked = wanted.__contains__
    optimal = _optimal_positions(graph) if asked("optimal_lines") or wanted & set(_ALONG_LINES) else []
    along = _along_optimal_lines(graph, optimal, top) if wanted & set(_ALONG_LINES) else dict.fromkeys(_ALONG_LINES)
    return Metrics(int(top), along["forced_moves"], along["path_safety"], _dead_ends(graph) if asked("dead_ends") else None,
                   along["greedy_deviation"], _random_win(graph) if asked("random_win") else None,
                   _lines(graph, optimal) if asked("optimal_lines") else None, graph.n,
                   *(careful_win(graph, k) if asked(name) else None for name, k in LOOKAHEAD.items()), beeline,
                   hints(graph) if asked("hints") else None, labels)


_ALONG_LINES = ("forced_moves", "path_safety", "greedy_deviation")   # read off the role's turns on the optimal lines


def _along_optimal_lines(graph: SolvedGraph, optimal: list[int], top: int) -> dict:
    """``forced_moves``, ``path_safety`` and ``greedy_deviation`` (module docstring) over the
    role's turns on the optimal lines."""
    rank, succ, left = graph.rank, graph.succ, graph.left
    turns = [s for s in optimal if rank[s] > 0 and graph.mine[graph.mover[s]]]
    forced = keep = moves = greedy = 0
    distance = goal_distance(graph.board, graph.role)
    for s in turns:
        plies_left = left - (top - rank[s]) - 1
        winning = [t for t in succ[s] if rank[t] <= plies_left]
        forced += len(winning) == 1
        keep += len(winning)
        moves += len(succ[s])
        if distance is not None:
            here = distance.get(graph.cell(s), math.inf)
            greedy += not any(distance.get(graph.cell(t), math.inf) < here for t in succ[s] if rank[t] == rank[s] - 1)
    share = (lambda a, b: a / b if b else 0.0)
    return {"forced_moves": share(forced, len(turns)), "path_safety": share(keep, moves),
            "greedy_deviation": None if distance is None else share(greedy, len(turns))}


def _optimal_positions(graph: SolvedGraph) -> list[int]:
    """The positions on the optimal lines (each move lowers the rank by one), start first."""
    rank, seen, order = graph.rank, {graph.start}, [graph.start]
    for s in order:
        if rank[s] == 0:
            continue
        for t in graph.succ[s]:
            if rank[t] == rank[s] - 1 and t not in seen:
                seen.add(t)
                order.append(t)
    return order


def _lines(graph: SolvedGraph, optimal: list[int]) -> int:
    """Optimal lines counted over the role's choices: summed at its turns, the fewest at the
    others' turns (the delaying reply that leaves the role the fewest)."""
    rank = graph.rank
    count: dict[int, int] = {}
    for s in sorted(optimal, key=lambda s: rank[s]):
        after = [count[t] for t in graph.succ[s] if rank[t] == rank[s] - 1]
        count[s] = 1 if rank[s] == 0 else sum(after) if graph.mine[graph.mover[s]] else min(after)
    return count[graph.start]


def _dead_ends(graph: SolvedGraph) -> float:
    """Reachable positions before an end (earliest depth within the plies left) that lose the win."""
    depth = {graph.start: 0}
    queue = deque([graph.start])
    while queue:
        s = queue.popleft()
        if graph.end[s] is not None or depth[s] >= graph.left:
            continue
        for t in graph.succ[s]:
            if t not in depth:
                depth[t] = depth[s] + 1
                queue.append(t)
    live = [s for s, d in depth.items() if graph.end[s] is None and d < graph.left and graph.succ[s]]
    lost = sum(1 for s in live if not graph.wins(s, graph.left - depth[s]))
    return lost / len(live) if live else 0.0


def _random_win(graph: SolvedGraph) -> float:
    """V_k(s): the role wins within k plies moving at random, the others minimising."""
    return _player_win(graph, *graph.edges())


def careful_win(graph: SolvedGraph, k: int) -> float:
    """The win probability within the plies left of the careful greedy player that sees the
    danger ``k`` plies ahead (module docstring), the others minimising; "nearest" by
    :meth:`SolvedGraph.goal_steps`."""
    sources, targets, keep = careful_moves(graph, k)
    return _player_win(graph, sources[keep], targets[keep])


def hints(graph: SolvedGraph) -> int:
    """The fewest of the role's moves on a forced win (within the plies left) that the careful
    greedy player seeing 1 ply ahead would not make, the others making it most: H_j(s), j plies
    left, is 0 at a goal; at the role's turns the least over its moves of H_{j-1} after it, plus
    1 for a move not among the careful greedy player's choices; at the others' the most;
    solved backwards over the plies (to the fixed point without a step limit)."""
    sources, targets, keep = careful_moves(graph, LOOKAHEAD["greedy_win"])
    n = graph.n
    goal, live, mine, use = _positions(graph, sources)
    sources, targets = sources[use], targets[use]
    cost = np.where(mine[sources] & ~keep[use], 1.0, 0.0)
    mine_edge = mine[sources]
    value = np.where(goal, 0.0, np.inf)
    for _ in range(graph.left):
        after = value[targets] + cost
        least = np.full(n, np.inf)
        np.minimum.at(least, sources[mine_edge], after[mine_edge])
        most = np.full(n, -np.inf)
        np.maximum.at(most, sources[~mine_edge], after[~mine_edge])
        new = np.where(goal, 0.0, np.where(live, np.where(mine, least, most), np.inf))
        new[np.isneginf(new)] = np.inf      # a position without a move: no win from there
        if np.array_equal(new, value):      # a fixed point: more plies change nothing
            break
        value = new
    return int(value[graph.start])


def careful_moves(graph: SolvedGraph, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every move as (position, position after it) and whether the careful greedy player that
    sees the danger ``k`` plies ahead may make it (the others' moves: always)."""
    sources, targets = graph.edges()
    mine = np.array([graph.mine[m] for m in graph.mover], dtype=bool)
    others = [m for m in range(len(graph.mine)) if not graph.mine[m]]
    doom, _ = graph.graph.ranks(others, [e for e in graph.graph.ends if e not in graph.goals], k)
    safe = doom[targets] < 0
    near = graph.goal_steps()[targets]
    keep = np.ones(len(sources), dtype=bool)
    at = mine[sources]
    # at each of the role's positions: the safe moves if any, and among them the nearest
    rank = np.where(safe, near, near + 1e9)
    best = np.full(graph.n, np.inf)
    np.minimum.at(best, sources[at], rank[at])
    keep[at] = rank[at] == best[sources[at]]
    return sources, targets, keep


def _positions(graph: SolvedGraph, sources: np.ndarray) -> tuple:
    """Each position's masks (a goal, no end, the role to move) and the moves (by ``sources``)
    out of positions where no end holds."""
    live = np.array([e is None for e in graph.end], dtype=bool)
    mine = np.array([graph.mine[m] for m in graph.mover], dtype=bool)
    return np.array(graph.goal, dtype=bool), live, mine, live[sources]


def _player_win(graph: SolvedGraph, sources: np.ndarray, targets: np.ndarray) -> float:
    """The role's win probability within the plies left when at its turns it picks uniformly
    among its moves in (``sources``, ``targets``), and at the others' the move that makes it
    smallest (a Markov decision process solved backwards over the plies: :func:`chances`)."""
    goal, _, mine, use = _positions(graph, sources)
    if graph.board.rules.unlimited and graph.horizon is None:     # the limit of the plies
        return float(limit_chances(graph.n, sources[use], targets[use], mine, goal, graph.left)[graph.start])
    settled = SETTLED if graph.board.rules.unlimited else 0.0
    return float(chances(graph.n, sources[use], targets[use], mine, goal, graph.left, settled)[graph.start])


def _in_kernel(function: str, n: int, sources: np.ndarray, targets: np.ndarray, mine: np.ndarray,
               goal: np.ndarray, steps: int, settled: float, kernel: bool) -> np.ndarray | None:
    """``chancekernel``'s ``function`` of the graph (its values, float64), None where the kernel
    is not built or ``kernel`` is False."""
    module = native.load("chancekernel", __package__) if kernel else None
    if module is None:
        return None
    values, _ = getattr(module, function)(
        n, np.ascontiguousarray(sources, dtype=np.int64), np.ascontiguousarray(targets, dtype=np.int64),
        np.ascontiguousarray(mine[sources], dtype=np.uint8), np.ascontiguousarray(goal, dtype=np.uint8),
        np.bincount(sources, minlength=n).astype(np.int64), steps, settled)
    return np.frombuffer(values, dtype=np.float64).copy()


def limit_chances(n: int, sources: np.ndarray, targets: np.ndarray, mine: np.ndarray, goal: np.ndarray,
                  sweeps: int, settled: float = SETTLED, kernel: bool = True) -> np.ndarray:
    """The limit of :func:`chances` over the plies (a game without a step limit), by Gauss-Seidel
    sweeps over the positions that reach a goal, nearer ones first (docs/generate.md, "The random
    walker's limit"): each position's value in place, the moves onto itself solved for; stopped
    after the first sweep that changes no value by more than ``settled`` times it (or ``sweeps``
    sweeps).  In C where ``chancekernel`` is built, else in Python (the same doubles)."""
    values = _in_kernel("player_win_limit", n, sources, targets, mine, goal, sweeps, settled, kernel)
    if values is not None:
        return values
    counts, mine_edge = np.bincount(sources, minlength=n), mine[sources]
    src, dst, count, is_goal = sources.tolist(), targets.tolist(), counts.tolist(), goal.tolist()
    mover = [False] * n
    moves: list[list[int]] = [[] for _ in range(n)]
    into: list[list[int]] = [[] for _ in range(n)]
    for e, (a, b) in enumerate(zip(src, dst)):
        moves[a].append(b)
        into[b].append(a)
        mover[a] = mover[a] or bool(mine_edge[e])
    value = [1.0 if g else 0.0 for g in is_goal]
    order = [i for i in range(n) if is_goal[i]]
    seen = set(order)
    for here in order:                  # (the list grows as the backward search finds positions)
        for before in into[here]:
            if before not in seen:
                seen.add(before)
                order.append(before)
    for _ in range(sweeps):
        settles = True
        for i in order:
            if is_goal[i]:
                continue
            if count[i] <= 0:
                v = 0.0
            elif mover[i]:
                total, loops = 0.0, 0
                for t in moves[i]:
                    if t == i:
                        loops += 1
                    else:
                        total += value[t]
                v = total / (count[i] - loops) if loops < count[i] else 0.0
            else:
                v = min(0.0 if t == i else value[t] for t in moves[i])
            if not abs(v - value[i]) <= settled * v:
                settles = False
            value[i] = v
        if settles:
            break
    return np.array(value, dtype=np.float64)


def chances(n: int, sources: np.ndarray, targets: np.ndarray, mine: np.ndarray, goal: np.ndarray, left: int,
            settled: float, kernel: bool = True) -> np.ndarray:
    """Every position's win probability (float64) within ``left`` plies: 1 at a ``goal``, 0
    without a move, at the role's positions (``mine``) the mean over its moves (``sources`` to
    ``targets``) of the probability after it, at the others' the least; stopped at the first ply
    that changes no value by more than ``settled`` times it.  In C where ``chancekernel`` is built
    (the same doubles, ply by ply), else in numpy (``kernel=False`` asks for numpy)."""
    values = _in_kernel("player_win", n, sources, targets, mine, goal, left, settled, kernel)
    if values is not None:
        return values
    counts, mine_edge = np.bincount(sources, minlength=n), mine[sources]
    value = goal.astype(float)
    for _ in range(left):
        after = value[targets]
        mean = np.bincount(sources[mine_edge], weights=after[mine_edge], minlength=n)
        least = np.full(n, np.inf)
        np.minimum.at(least, sources[~mine_edge], after[~mine_edge])
        new = np.where(mine, mean / np.maximum(counts, 1), least)
        new = np.where(goal, 1.0, np.where(counts > 0, new, 0.0))
        settles = bool(np.all(np.abs(new - value) <= settled * new))
        value = new
        if settles:                 # a fixed point: more plies change nothing (or, without a step limit, the limit)
            break
    return value


def goal_distance(board: Board, role: str) -> dict | None:
    """Walking steps from each cell to the nearest cell of a mark the role wins by reaching."""
    goals = top_score_ends(board, role)
    marks = {mark for end in board.rules.ends if end.name in goals for piece, mark in end.when.reaches
             if piece == role}
    cells = {c for m in marks for c in board.marks.get(m, ())}
    if not cells:
        return None
    return step_distances(board, cells)
