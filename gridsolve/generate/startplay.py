"""The beeline of every start of a layout, played out on its numbered game graph.

:meth:`gridsolve.generate.startgraph.StartGraph.survey` asks, for each start in a band of
plies, how many of the role's shortest paths to its goal (the others frozen) win against
every reply: the ``no_beeline`` definition of :mod:`gridsolve.analysis.beeline`, played here
on the positions' numbers (indexes into the layout's game graph,
:class:`~gridsolve.solve.graph.gamegraph.GameGraph`, which its
:class:`~gridsolve.solve.graph.racegraph.RaceGraph` holds) instead of position tuples.

The starts that share the others' cells share everything the count looks at: the role's
shortest paths (one walk back from the goal), and the count of winning paths from a cell
against a frontier of positions (the frontier determines what follows, whichever start led
there). So a :class:`OthersPlay` is built once per placement of the others and serves each
of its starts; its counts equal those of one count per start (tests/test_startgraph.py).
"""
from __future__ import annotations

import numpy as np

WON, LOST = "won", "lost"      # settle's outcomes besides a frontier


class GraphPlay:
    """What the blind play reads off a layout's game graph (a
    :class:`~gridsolve.solve.graph.gamegraph.GameGraph`), by position index: the side to
    move (``side``), the end that holds (``outcome``, -1: none; ``goals``: the end indexes
    that give the role its goal), the successors, and the role's cell (``x``, ``y``)."""

    def __init__(self, graph, role_x: np.ndarray, role_y: np.ndarray, goals: set, role_side: int):
        self.side = graph.turn.tolist()
        self.outcome = graph.outcome.tolist()
        self.goals, self.role_side = goals, role_side
        self.x, self.y = role_x.tolist(), role_y.tolist()
        off, succ = graph.rows()
        self._targets = succ.tolist()       # the successors of i: _targets[_ptr[i]:_ptr[i + 1]]
        self._ptr = off.tolist()
        self._moves: dict = {}

    def successors(self, i: int) -> list:
        return self._targets[self._ptr[i]:self._ptr[i + 1]]

    def role_moves(self, i: int) -> dict:
        """The role's moves from position ``i`` (its turn), by the step they make: {(dx, dy):
        position after it}; moves that lead to one cell are one (the last in successor order)."""
        found = self._moves.get(i)
        if found is None:
            x, y = self.x[i], self.y[i]
            found = self._moves[i] = {(self.x[j] - x, self.y[j] - y): j for j in self.successors(i)}
        return found

    def settle(self, level, ply: int, remaining: int):
        """Let the game run from ``level`` (positions at ``ply``) until the role is to move:
        WON (every line reached a goal), LOST (another end, the plies ran out, or a side
        cannot move) or (frontier, ply) with the role to move (verify.beeline's settle)."""
        outcome, goals, targets, ptr = self.outcome, self.goals, self._targets, self._ptr
        while True:
            alive = []
            for i in level:
                end = outcome[i]
                if end >= 0:
                    if end in goals:
                        continue
                    return LOST
                if ply >= remaining or ptr[i] == ptr[i + 1]:
                    return LOST
                alive.append(i)
            if not alive:
                return WON
            if self.side[alive[0]] == self.role_side:
                return frozenset(alive), ply
            level = set()
            for i in alive:
                level.update(targets[ptr[i]:ptr[i + 1]])
            ply += 1


class OthersPlay:
    """The starts whose other pieces stand where ``frozen`` (cell -> the position with the role
    on that cell, the others frozen, the role to move) has them: the role's steps to its goal
    from each cell (``distance``; cells where another end holds are not passed), the DAG of
    its shortest paths (``dag``: cell -> [(step, next cell), ...]) and the counts of paths."""

    def __init__(self, play: GraphPlay, frozen: dict, remaining: int, limit: int):
        self.play, self.frozen, self.remaining, self.limit = play, frozen, remaining, limit
        outcome, goals = play.outcome, play.goals
        ahead = {}
        for cell, i in frozen.items():
            ahead[cell] = {} if outcome[i] >= 0 else {
                step: (play.x[j], play.y[j]) for step, j in play.role_moves(i).items()}
        behind: dict = {}
        for cell, moves in ahead.items():
            for target in moves.values():
                behind.setdefault(target, []).append(cell)
        distance = {cell: 0 for cell, i in frozen.items() if outcome[i] in goals}
        level = list(distance)
        while level:
            following = []
            for target in level:
                for cell in behind.get(target, ()):
                    if cell not in distance:
                        distance[cell] = distance[target] + 1
                        following.append(cell)
            level = following
        self.distance = distance
        self.dag = {cell: [(m, t) for m, t in moves.items() if distance.get(t) == distance[cell] - 1]
                    for cell, moves in ahead.items() if cell in distance and distance[cell] > 0}
        self._paths: dict = {}
        self._winning: dict = {}

    def paths(self, cell) -> int:
        """Shortest paths from ``cell`` to a goal (uncapped)."""
        found = self._paths.get(cell)
        if found is None:
            found = 1 if self.distance[cell] == 0 else sum(self.paths(t) for _, t in self.dag.get(cell, ()))
            self._paths[cell] = found
        return found

    def judge(self, start: int, cell) -> tuple[int, int]:
        """(shortest paths, capped at the limit; how many of them win against every reply) of
        the start at position ``start`` with the role on ``cell``."""
        if cell not in self.distance:
            return 0, 0
        paths = min(self.limit, self.paths(cell))
        opening = self.play.settle((start,), 0, self.remaining)
        if opening is WON or opening is LOST:
            return paths, paths if opening is WON else 0
        return paths, min(paths, self.winning(cell, *opening))

    def winning(self, cell, frontier: frozenset, ply: int) -> int:
        """Shortest paths from ``cell`` that win against every reply, played from ``frontier``
        at ``ply`` (a path that wins before its end counts with every continuation); counting
        stops at the limit."""
        if self.distance[cell] == 0:
            return 0
        key = (cell, frontier, ply)
        found = self._winning.get(key)
        if found is not None:
            return found
        play, total = self.play, 0
        for step, target in self.dag.get(cell, ()):
            moved = set()
            for i in frontier:
                after = play.role_moves(i).get(step)
                if after is None:
                    break
                moved.add(after)
            else:
                outcome = play.settle(moved, ply + 1, self.remaining)
                if outcome is WON:
                    total += self.paths(target)
                elif outcome is not LOST:
                    total += self.winning(target, *outcome)
            if total >= self.limit:
                break
        self._winning[key] = total
        return total
