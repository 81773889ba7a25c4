"""``gridsolve solve GAME.kif``: one question about a GDL game, answered by the generic engine.

:func:`solve_gdl` reads and checks the description, grounds its one-ply rules once, explores the
states reachable from the initial state (or the state ``--at`` gives as fluents; within
``--horizon`` steps where given) and reads the answer for the role asked about off the one
ranker (:mod:`gridsolve.gdl.answers`) or the depth-first searches, the one reader building its
:class:`~gridsolve.solve.common.answer.Answer` (:func:`~gridsolve.solve.common.outcome.read_game_answer`):
the board answers' fields (docs/answers.md; ``plies`` count steps, joint moves), and its
:class:`~gridsolve.solve.common.answer.GameDetail`: ``values``, what each role can guarantee from
that state, and ``top``, the role's top goal.
"""
from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from ..errors import ConstantFluentsError, MemoryLimitError, QueryError
from ..language.kinds import QueryKind
from ..solve.common.answer import Answer, GameDetail, GameState, GameStats
from ..solve.common.limits import LimitGuard, Limits
from ..solve.common.outcome import Outcome, read_game_answer
from .answers import forced, ranked_line, role_graph, value_at, value_ranks
from .depthanswer import DepthAnswers, line_plies, own_moves
from .depthsearch import DepthSearch, Target
from .description import read_description
from .engine import explore, ground_game
from .nativedepth import NativeDepthSearch, native_least
from .kif import read_kif
from .translate import symbol_kif

KINDS = ("value", "win")
SEARCHES = ("auto", "depth", "breadth")
SUFFIXES = (".kif", ".gdl")


def limits_guard(path: Path, limits: Limits) -> LimitGuard:
    return LimitGuard(limits, f"the reachable states of {path.name}",
                      lambda needed: "allow more memory with --max-memory, or look fewer steps ahead (--horizon)",
                      smaller="look fewer steps ahead (--horizon), or ask from a later state (--at)")


class GdlSession:
    """Questions about one GDL game from one grounding: the description read and its one-ply
    circuit ground once; each exploration kept, so that a question about a state an earlier
    exploration reached (with no horizon) is read off its graph (:meth:`answer`)."""

    def __init__(self, path: Path | str, limits: Limits | None = None):
        self.started = time.perf_counter()
        self.path = Path(path)
        self.limits = limits or Limits()
        self.description = read_description(self.path)
        self.guard = limits_guard(self.path, self.limits)
        self.game = ground_game(self.description, self.guard)
        self.explorations: list = []
        self.graphs: dict = {}          # (exploration, role) -> RoleGraph
        self.asked = 0

    def _state(self, fluents) -> np.ndarray:
        """The state of ``fluents``; where its constant fluents are not those the game was ground
        for, the game ground again from it (the explorations of the other root dropped)."""
        try:
            return self.game.state_of(fluents)
        except ConstantFluentsError:
            self.game = ground_game(self.description, self.guard, root=fluents)
            self.explorations, self.graphs = [], {}
            return self.game.state_of(fluents)

    def _explored(self, root: np.ndarray, horizon: int | None):
        """An exploration holding ``root`` (reused where one with no horizon reached it) and its number there."""
        if horizon is None:
            for explored in self.explorations:
                if explored.depth is None and (found := explored.find(root)) >= 0:
                    return explored, found
        explored = explore(self.game, root, self.guard, horizon)
        self.explorations.append(explored)
        return explored, 0

    def _graph(self, explored, role: int):
        key = (id(explored), role)
        if key not in self.graphs:
            self.graphs[key] = role_graph(self.game, explored, role, explored.depth, self.guard)
        return self.graphs[key]

    def answer(self, role: str | None = None, kind: str = "value", at: str | None = None,
               horizon: int | None = None, line: bool = True, search: str = "auto") -> Answer:
        """The answer to ``kind`` (value or win) for ``role`` (default: the first) from the
        initial state, or from the state of the fluents ``at`` (KIF text), by the ``search``
        :func:`chosen_search` names."""
        started = time.perf_counter()
        if kind not in KINDS:
            raise QueryError(f"--query {kind}: a GDL game answers value or win",
                             "a GDL game's ends are its goals: ask --query value or --query win")
        if search not in SEARCHES:
            raise QueryError(f"--search {search}: not a search", f"choose one of {', '.join(SEARCHES)}")
        if horizon is not None and horizon < 0:
            raise QueryError(f"--horizon {horizon}: not a number of steps", "give 0 or more")
        game, path = self.game, self.path
        names = game.role_names
        if role is None:
            role = names[0]
        if role.lower() not in names:
            raise QueryError(f"--role {role}: no such role of {path.name}", f"choose one of {', '.join(names)}")
        r = names.index(role.lower())
        fluents = read_kif(at, "--at") if at else None
        if fluents is not None and any(term.is_variable or term.name in ("<=", "not") for term in fluents):
            raise QueryError("--at: a fluent is a ground term", "write e.g. --at '(cell 1 1 x) (control oplayer)'")
        root_bits = game.init if fluents is None else self._state(fluents)
        game = self.game
        if chosen_search(search, kind, horizon) == "depth":
            return self._depth_answer(r, kind, root_bits, horizon, line, started)
        try:
            explored, root = self._explored(root_bits, horizon)
        except MemoryLimitError:
            if search != "auto":
                raise
            return self._depth_answer(r, kind, root_bits, horizon, line, started)     # (what fits: the depth search's)
        ranking = time.perf_counter()
        graphs = [self._graph(explored, other) for other in range(len(names))]
        rg = graphs[r]
        value, rank = value_at(rg, root)
        top = max((v for v, _ in game.goals[r]), default=None)
        win_rank = forced(rg, root, top) if top is not None else None
        moves = []
        for c in np.flatnonzero(rg.choice_state == root):
            node = explored.count + int(c)
            move_value, move_rank = value_at(rg, node)
            moves.append((symbol_kif(game.moves[r][int(rg.choice_move[c])]),
                          Outcome(move_value, None if move_rank is None else (move_rank - 1) // 2,
                                  top is not None and forced(rg, node, top) is not None, None, None, None)))
        win_line, win_moves = ((), None) if win_rank is None else ranked_line(
            game, explored, rg, top, rg.ranks[rg.thresholds.index(top)], root)
        steps = win_line if kind == "win" and win_rank is not None else ranked_line(
            game, explored, rg, value, value_ranks(rg, value), root)[0]
        rank_s = time.perf_counter() - ranking
        first, self.asked = not self.asked, self.asked + 1      # (the first answer's time: the grounding's too)
        at_root = Outcome(value, None if rank is None else (rank + 1) // 2, win_rank is not None,
                          None if win_rank is None else win_rank // 2, None, None)
        stats = GameStats(solver="gdl engine", search="breadth",
                          total_s=time.perf_counter() - (self.started if first else started), ground_s=game.ground_s,
                          explore_s=explored.explore_s, rank_s=rank_s, positions=explored.count,
                          moves=int(len(explored.src)), ground_rules=game.circuit.rule_count,
                          ground_atoms=game.circuit.size - 1, levels=len(game.circuit.levels),
                          fluents=len(game.fluents))
        return read_game_answer(str(path), names[r], QueryKind(kind), at_root, moves, win_moves, horizon,
                                GameState(tuple(game.fluent_texts(root_bits))), steps if line else None, stats,
                                GameDetail(top, {name: value_at(graph, root)[0] for name, graph in zip(names, graphs)}))

    def _depth_answer(self, r: int, kind: str, root_bits: np.ndarray, horizon: int | None, line: bool,
                      started: float) -> Answer:
        """The answer by depth-first searches from the state asked (:mod:`gridsolve.gdl.depthanswer`):
        ``--query win`` searches the win only (value and plies are the win's where there is one,
        else null; values null, no moves); ``--query value`` every field the ranking gives, one
        threshold at a time; each search one call of the circuit's C kernel where it is built
        (:mod:`gridsolve.gdl.nativedepth`), else in Python (:mod:`gridsolve.gdl.depthsearch`)."""
        game, names = self.game, self.game.role_names
        top = max((v for v, _ in game.goals[r]), default=None)
        if kind == "win" and top is not None and game.circuit.kernel is not None:     # (one call of the kernel)
            found = native_least(game, r, self.guard, root_bits, Target("role", low=top), horizon)
            return self._depth_reply(r, kind, root_bits, horizon, line, started, top, found.plies, found.line,
                                     found.stats)
        search = (DepthSearch if game.circuit.kernel is None else NativeDepthSearch)(game, r, self.guard)
        key = search.root(root_bits)
        asked = DepthAnswers(search, key, horizon)
        win_plies = asked.win_plies()
        win_target = None if top is None else Target("role", low=top)
        win_line = asked.line(win_target, win_plies)
        if kind == "win":
            return self._depth_reply(r, kind, root_bits, horizon, line, started, top, win_plies, win_line,
                                     search.stats())
        own = asked.value()
        values = {}
        for other, name in enumerate(names):
            found = own if other == r else DepthAnswers(search.for_role(other), key, horizon).value()
            values[name] = found.value
        moves = []
        for m, number in enumerate([] if search.ends[key][0] else search.moves(key)):
            after = asked.value(m)
            moves.append((symbol_kif(game.moves[r][number]),
                          Outcome(after.value, None if after.plies is None else after.plies - 1,
                                  asked.win_plies(m) is not None, None, None, None)))
        return self._depth_reply(r, kind, root_bits, horizon, line, started, top, win_plies, win_line, search.stats(),
                                 (own.value, own.plies, values, moves, asked.line(own.measure, own.plies)))

    def _depth_reply(self, r: int, kind: str, root_bits: np.ndarray, horizon: int | None, line: bool,
                     started: float, top: int | None, win_plies: int | None, win_line: list, stats: dict,
                     valued: tuple | None = None) -> Answer:
        """The :class:`Answer` of a depth-first search: ``valued`` the value's fields (value, plies,
        values, moves, its line) where the value was asked, else the win's (none where no win)."""
        game, names = self.game, self.game.role_names
        if valued is not None:
            value, plies, values, moves, steps = valued
        else:
            value, plies, values, moves, steps = (top, win_plies, None, [], win_line) if win_plies is not None else (
                None, None, None, [], [])
        first, self.asked = not self.asked, self.asked + 1
        position = GameState(tuple(game.fluent_texts(root_bits)))
        stats = GameStats(solver="gdl engine", **stats, roles=names,
                          total_s=time.perf_counter() - (self.started if first else started), ground_s=game.ground_s,
                          ground_rules=game.circuit.rule_count, ground_atoms=game.circuit.size - 1,
                          levels=len(game.circuit.levels), fluents=len(game.fluents))
        return read_game_answer(str(self.path), names[r], QueryKind(kind),
                                Outcome(value, plies, win_plies is not None, win_plies, None, None), moves,
                                None if win_plies is None else own_moves(win_line), horizon, position,
                                line_plies(game, position, steps) if line else None, stats, GameDetail(top, values))


def chosen_search(search: str, kind: str, horizon: int | None) -> str:
    """``depth`` or ``breadth`` for ``--search`` ``search``: ``auto`` is the depth-first search for
    a win within a horizon (the question that stops at the first winning move: gdl2qbf's), else the
    breadth-first exploration and ranking (one graph answers every field and later questions; where
    its states do not fit in memory, :meth:`GdlSession.answer` asks the depth-first search instead).
    Measured on gdl2qbf's 23 rows (bench/RESULTS-gdl-anchor.md): with the search in one C call (the
    circuit's kernel built) depth-first was the faster on every row where the two differ by more
    than the load's noise; in numpy, too (docs/gdl.md)."""
    if search != "auto":
        return search
    return "depth" if kind == "win" and horizon is not None else "breadth"


def solve_gdl(path: Path | str, role: str | None = None, kind: str = "value", at: str | None = None,
              horizon: int | None = None, limits: Limits | None = None, search: str = "auto") -> Answer:
    """The answer to ``kind`` (value or win) for ``role`` (default: the first) from the initial
    state of the GDL game in ``path``, or from the state of the fluents ``at`` (KIF text), by
    ``search`` (auto, depth or breadth: :func:`chosen_search`)."""
    return GdlSession(path, limits).answer(role, kind, at, horizon, search=search)
