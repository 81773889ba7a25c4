"""The answers of a GDL game read off its explored states by the one ranker.

For the role asked about, the explored states become one :class:`~gridsolve.solve.graph.gamegraph.GameGraph`
of two kinds of positions: a state, where the role commits to one of its legal moves (turns
entry 0), and a state with the role's move chosen, where the other roles, one coalition, choose
theirs (turns entry 1) and the joint move leads to the next state.  So with simultaneous moves
the role commits first and the others answer knowing its move (docs/answers.md); in a game of
turns the side not to move has one move (``noop``) and the graph is the game's.  A step is two
plies of that graph.

The value the role can guarantee is the highest of its goal values ``v`` (those of the reached
terminal states) for which the one ranker (:meth:`GameGraph.ranks`, the role attacking) forces a
terminal state where its goal is at least ``v``; its ``plies`` (steps) the fewest in which it
forces one, the others delaying.  ``win``: it forces its top goal (the highest value its goal
rules can give), ``win_plies`` the fewest steps.  With a horizon, only ends within that many
steps count.  A move's value and steps are those of the position after the role commits to it
(its own step counted); the principal line follows the ranks by the one rule (:class:`RankView`):
the role hurries, the others delay.
"""
from __future__ import annotations

import contextlib
from dataclasses import dataclass

import numpy as np

from ..solve.common.answer import GameState, Ply
from ..solve.common.limits import LimitGuard
from ..solve.common.outcome import Candidate, keyed, pick, principal_line
from ..solve.graph.gamegraph import GameGraph
from .engine import Explored, GroundGame
from .translate import symbol_kif


@dataclass
class RoleGraph:
    """The graph of one role (see the module docstring): states 0..S-1, then a position per
    (state, the role's move) in ``choice_state``/``choice_move`` order."""

    role: int
    graph: GameGraph
    choice_state: np.ndarray
    choice_move: np.ndarray
    thresholds: list[int]
    ranks: list[np.ndarray]         # a rank array per threshold (ascending): the role forces goal >= it
    floor: np.ndarray | None        # the ranks of the others forcing the lowest threshold (goal <= it)


def role_graph(game: GroundGame, explored: Explored, role: int, horizon: int | None,
               guard: LimitGuard | None = None) -> RoleGraph:
    """The graph of ``role`` and its ranks; ``guard``: the limits, checked between the stages
    (the graph, its predecessors, each threshold's ranks): time or memory up stops it with the
    limit's error and the states reached."""
    states = explored.count
    where = f"while ranking, after {states:,} states reached"

    def check():
        if guard is not None:
            guard.after(where)

    with guard.allocating(where) if guard is not None else contextlib.nullcontext():
        return _role_graph(game, explored, role, horizon, check)


def _role_graph(game: GroundGame, explored: Explored, role: int, horizon: int | None, check) -> RoleGraph:
    states = explored.count
    check()
    moves = max(1, len(game.moves[role]))
    own = explored.joints[explored.joint, role] if len(explored.joint) else np.zeros(0, dtype=np.int64)
    pair = explored.src * moves + own
    distinct, choice_of = np.unique(pair, return_inverse=True)
    choice_state, choice_move = distinct // moves, distinct % moves
    choices = len(distinct)
    src = np.concatenate([choice_state, states + choice_of]).astype(np.int32)
    dst = np.concatenate([states + np.arange(choices), explored.dst]).astype(np.int32)
    turn = np.concatenate([np.zeros(states, dtype=np.int32), np.ones(choices, dtype=np.int32)])
    outcome = np.concatenate([np.where(explored.terminal, 0, -1), np.full(choices, -1)]).astype(np.int16)
    graph = GameGraph.of_moves(src, dst, turn, outcome, ["terminal"], rows=True)
    check()
    graph.predecessors()
    goal = explored.goal[:, role]
    thresholds = sorted({int(v) for v in goal[explored.terminal] if v >= 0})
    levels = None if horizon is None else 2 * horizon
    ranks = []
    for value in thresholds:
        check()
        target = np.zeros(graph.n, dtype=bool)
        target[:states] = explored.terminal & (goal >= value)
        ranks.append(graph.ranks([0], target, levels=levels, exclude_ends=True)[0])
    floor = None
    if len(thresholds) > 1:
        check()
        target = np.zeros(graph.n, dtype=bool)
        target[:states] = explored.terminal & (goal >= 0) & (goal <= thresholds[0])
        floor = graph.ranks([1], target, levels=levels, exclude_ends=True)[0]
    return RoleGraph(role, graph, choice_state, choice_move, thresholds, ranks, floor)


def value_ranks(rg: RoleGraph, value: int | None) -> np.ndarray | None:
    """The ranks that measure ``value``'s plies: at the lowest of several goal values the
    others force it, hurrying, the role delaying; else the role forces it, hurrying."""
    if value is None:
        return None
    if rg.floor is not None and value == rg.thresholds[0]:
        return rg.floor
    return rg.ranks[rg.thresholds.index(value)]


def value_at(rg: RoleGraph, node: int) -> tuple[int | None, int | None]:
    """(value, its rank) at ``node``: the highest threshold forced there, and the rank that
    measures it (:func:`value_ranks`; None where it is not measured: the others cannot force
    the game to end)."""
    best = None
    for value, rank in zip(rg.thresholds, rg.ranks):
        if rank[node] >= 0:
            best = value
    if best is None:
        return None, None
    rank = int(value_ranks(rg, best)[node])
    return best, rank if rank >= 0 else None


def forced(rg: RoleGraph, node: int, value: int) -> int | None:
    """The rank at ``node`` of the threshold ``value`` (None: not forced, or no such end)."""
    if value not in rg.thresholds:
        return None
    rank = int(rg.ranks[rg.thresholds.index(value)][node])
    return rank if rank >= 0 else None


class RankView:
    """The one outcome view (:class:`~gridsolve.solve.common.outcome.OutcomeView`) of a role's
    graph at one threshold's ranks (``ranks``: :func:`value_ranks`, or the role's of the
    threshold ``value``), for its principal line: a view position is a state's number; the role
    picks one of its moves, then the others their answer, each by the one rule
    (:func:`~gridsolve.solve.common.outcome.pick`): every move forced there is worth ``value`` in
    its rank's plies, measured against a reference just below ``value`` where the role forces
    it (it hurries, the others delay) and just above where the others force it (the floor: they
    hurry, it delays), the first move of the graph's order taken among equals."""

    def __init__(self, game: GroundGame, explored: Explored, rg: RoleGraph, value: int, ranks: np.ndarray):
        self.game, self.explored, self.rg, self.value, self.rank = game, explored, rg, value, ranks
        self.reference = value + 0.5 if ranks is rg.floor else value - 0.5
        self.off, self.succ = rg.graph.rows()
        self.order = np.argsort(explored.src, kind="stable")
        self.src_sorted = explored.src[self.order]
        self.played: list[int] = []     # the states the line left, in order

    def _keyed(self, node: int, first_greatest: bool) -> list[Candidate]:
        options = self.succ[self.off[node]:self.off[node + 1]]
        sign = -1 if first_greatest else 1
        return keyed(((sign * i, int(c), self.value, int(self.rank[c]) if self.rank[c] >= 0 else None)
                      for i, c in enumerate(options)), self.reference)

    def candidates(self, state: int) -> list[Candidate]:
        if self.explored.terminal[state] or self.rank[state] <= 0:
            return []
        return self._keyed(state, True)

    def maximises(self, state: int) -> bool:
        return True

    def accept(self, state: int, candidate: Candidate) -> bool:
        return True

    def side(self, state: int) -> tuple[str, ...]:
        return tuple(self.game.role_names)

    def play(self, state: int, candidate: Candidate, before: GameState) -> tuple:
        explored, game = self.explored, self.game
        choice = candidate.move
        nxt = pick(self._keyed(choice, False), False).move
        lo, hi = np.searchsorted(self.src_sorted, [state, state + 1])
        own = self.rg.choice_move[choice - explored.count]
        edge = next(int(e) for e in self.order[lo:hi] if explored.dst[e] == nxt
                    and explored.joints[explored.joint[e], self.rg.role] == own)
        joint = [symbol_kif(game.moves[r][m]) for r, m in enumerate(explored.joints[explored.joint[edge]])]
        self.played.append(state)
        return (" ".join(joint), nxt, GameState(tuple(game.fluent_texts(explored.states[nxt]))),
                dict(zip(game.role_names, joint)))


def ranked_line(game: GroundGame, explored: Explored, rg: RoleGraph, value: int | None, ranks: np.ndarray | None,
                root: int = 0) -> tuple[tuple[Ply, ...], int]:
    """The principal line from state ``root`` at ``value`` (``ranks``: :func:`value_ranks`, or the
    role's of the threshold), by the one rule on a :class:`RankView`, and the role's own choices
    on it (the steps where it had more than one legal move)."""
    if value is None or ranks is None:
        return (), 0
    view = RankView(game, explored, rg, value, ranks)
    line = principal_line(view, GameState(tuple(game.fluent_texts(explored.states[root]))), root)
    return line, sum(1 for state in view.played if explored.legal[rg.role][state].sum() > 1)
