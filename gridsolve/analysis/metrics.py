"""Exact difficulty metrics of a won level, read off the solved game graph.

The game graph is every position reachable from the start, computed by the compiled game rules
(:func:`gridsolve.solve.explain.walls.explore_graph`, one clingo run); a retrograde analysis in Python
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
* ``optimal_lines``: how many optimal lines the role can choose from against the most
  constraining defence: 1 at the goal, the sum over the role's fastest moves at its turns, the
  fewest over the others' delaying replies at theirs (1: one way to win fastest).
* ``line_safety`` (every game, also where the others move at the same time): along the solver's
  principal line, the share of the role's moves that keep the win (gridsolve/generate/difficulty.py).
* ``difficulty``: ``easy``, ``medium`` or ``hard`` from ``random_win`` (:data:`DIFFICULTY`).
"""
from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass

from ..compile.state import layout_for
from ..errors import EncodingError, LimitError, QueryError
from ..language.distance import step_distances
from ..language.model import Board
from ..language.position import Position, Query
from ..solve.graph.racegraph import rank_by_levels
from ..solve.explain.walls import explore_graph
from .ends import metrics_unsupported, top_score_ends
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
    "optimal_lines": ("optimal lines the role can choose from against the best defence", -1),
    "line_safety": ("share of the role's moves along the solver's principal line that keep the win", -1),
}
LINE_SAFETY = "line_safety"     # measured along the principal line (gridsolve/generate/difficulty.py), not the graph
# --difficulty NAME: random_win in [low, high)
DIFFICULTY = {"easy": (0.001, 1.01), "medium": (0.0001, 0.001), "hard": (0.0, 0.0001)}
DIGITS = 4                  # shares and probabilities are written with this many significant digits


class WinNotByAnEnd(QueryError):
    """The solver forces the role's top score sooner than any end gives it: by a stop (a side
    without a move) or by the step limit's rule (Maze Runner Duel's nearer player).  The metrics
    measure wins by an end only, so they are not defined for such a level."""


@dataclass(frozen=True)
class Metrics:
    plies: int
    forced_moves: float
    path_safety: float
    dead_ends: float
    greedy_deviation: float | None
    random_win: float
    optimal_lines: int
    positions: int                    # reachable positions measured

    @property
    def difficulty(self) -> str:
        return difficulty_of(self.random_win)

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
        return (f"{self.difficulty}: forced win in {self.plies} plies; forced moves {self.forced_moves:.0%}, "
                f"path safety {self.path_safety:.0%}, dead ends {self.dead_ends:.0%}, greedy deviation {greedy}, "
                f"random player wins {_percent(self.random_win)}, {self.optimal_lines} optimal "
                f"line{'s' if self.optimal_lines != 1 else ''}")


def rounded(value: float) -> float:
    """A share or probability as written in a level's expect block: DIGITS significant digits."""
    return float(f"{value:.{DIGITS}g}")


def _percent(p: float) -> str:
    return f"{p:.1%}" if p >= 0.001 or p == 0 else f"{p:.2g}"


def difficulty_of(random_win: float) -> str:
    return next(name for name, (low, high) in DIFFICULTY.items() if low <= random_win < high)


def measurable(board: Board, role: str) -> bool:
    """Whether :func:`measure_metrics` applies (verify.expect.metrics_unsupported)."""
    return metrics_unsupported(board, role) is None


class SolvedGraph:
    """The game graph reachable from a start, ranked for the role's win."""

    def __init__(self, board: Board, role: str, start: Position, horizon: int | None = None):
        layout = layout_for(board)
        self.board, self.role = board, role
        self.left = Query(role, QueryKind.VALUE, start, horizon).remaining(board)
        self.root = layout.root_term(start, board).replace(" ", "")
        found = explore_graph(board, [self.root], True)
        if len(found) > GRAPH_LIMIT:
            raise LimitError(f"the game graph has {len(found)} positions, more than {GRAPH_LIMIT} measured")
        names = list(found)
        index = {name: i for i, name in enumerate(names)}
        self.names = names
        self.mover = [found[n][0] for n in names]
        self.end = [found[n][1] for n in names]
        self.succ = [sorted({index[t] for t in found[n][2]}) for n in names]
        rules = board.rules
        self.mine = [rules.own_turn(m, role) for m in range(len(rules.turns))]
        goals = top_score_ends(board, role)
        self.goal = [e in goals for e in self.end]
        self.start = index[self.root]
        self.rank = self._ranks()
        self.slot = layout.roles.index(role)

    def _ranks(self) -> list[float]:
        """Plies of the role's fastest forced win from each position (inf: none)."""
        n = len(self.names)
        pred: list[list[int]] = [[] for _ in range(n)]
        for s, targets in enumerate(self.succ):
            if self.end[s] is None:
                for t in targets:
                    pred[t].append(s)
        rank = [math.inf] * n
        frontier = [s for s in range(n) if self.goal[s]]
        for s in frontier:
            rank[s] = 0
        attacks = [self.mine[m] for m in self.mover]
        return rank_by_levels(rank, frontier, pred, attacks, [len(t) for t in self.succ],
                              lambda s: rank[s] != math.inf, self.left)

    def cell(self, s: int) -> tuple[int, int]:
        numbers = [int(a) for a in self.names[s][2:-1].split(",")]
        return numbers[1 + 2 * self.slot], numbers[2 + 2 * self.slot]

    def wins(self, s: int, left: int) -> bool:
        return self.rank[s] <= left


def measure_metrics(board: Board, role: str, start: Position, horizon: int | None = None,
                    plies: int | None = None) -> Metrics:
    """Every metric of the level from ``start`` (the role must force a win from there);
    ``plies``: the solver's answer, checked against the graph's rank."""
    why = metrics_unsupported(board, role)
    if why:
        raise QueryError(f"the difficulty metrics are not defined here: {why}")
    graph = SolvedGraph(board, role, start, horizon)
    top = graph.rank[graph.start]
    if plies is not None and plies < top:
        by_end = f"{top} plies" if top != math.inf else "never"
        raise WinNotByAnEnd(f"the difficulty metrics are not defined here: {role} forces its top score in {plies} "
                            f"plies by a stop or the step limit's rule, sooner than by an end ({by_end})")
    if top == math.inf:
        raise QueryError(f"{role} forces no win from this position: no difficulty to measure")
    if plies is not None and plies != top:
        raise EncodingError(f"the game graph ranks the win in {top} plies, the solver in {plies}")
    rank, succ, left = graph.rank, graph.succ, graph.left
    optimal = _optimal_positions(graph)
    turns = [s for s in optimal if rank[s] > 0 and graph.mine[graph.mover[s]]]
    forced = keep = moves = greedy = 0
    distance = _goal_distance(board, role)
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
    return Metrics(int(top), share(forced, len(turns)), share(keep, moves), _dead_ends(graph),
                   None if distance is None else share(greedy, len(turns)), _random_win(graph),
                   _lines(graph, optimal), len(graph.names))


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
    n = len(graph.names)
    goal, end, succ, mover, mine = graph.goal, graph.end, graph.succ, graph.mover, graph.mine
    value = [1.0 if goal[s] else 0.0 for s in range(n)]
    live = [s for s in range(n) if end[s] is None and succ[s]]
    for _ in range(graph.left):
        new = list(value)
        for s in live:
            after = [value[t] for t in succ[s]]
            new[s] = sum(after) / len(after) if mine[mover[s]] else min(after)
        value = new
    return value[graph.start]


def _goal_distance(board: Board, role: str) -> dict | None:
    """Walking steps from each cell to the nearest cell of a mark the role wins by reaching."""
    goals = top_score_ends(board, role)
    marks = {mark for end in board.rules.ends if end.name in goals for piece, mark in end.when.reaches
             if piece == role}
    cells = {c for m in marks for c in board.marks.get(m, ())}
    if not cells:
        return None
    return step_distances(board, cells)
