"""Ground once, ask many times: one grounding of a board's game graph answers many queries.

The race ranks (what encodings/solve.lp derives as ``won_in(K,S,D)``) are properties of positions:
they do not depend on the position a query starts from nor on its horizon.  An :class:`Engine`
grounds the game graph once with clingo, over the positions reachable from its roots
(:class:`gridsolve.solve.graph.racegraph.RaceGraph`), computes the ranks of every served role's races in
arrays to the level where they stop changing, and reads every answer off them in Python
(:mod:`gridsolve.solve.race.reader` over :mod:`gridsolve.solve.race.rankread`, by the rules of
encodings/answer.lp): a question costs no ground call and no solve, however many were asked
before, except for the names of the moves of the positions its answer looks at (ground once
per position).  The answers are those of the
single-shot program that ``gridsolve compile`` prints (tests/test_retro.py, tests/test_engine.py).

:class:`RaceSolver` is the race solver as a :class:`~gridsolve.solve.common.answer.Solver`: one engine
per question; the Asker's :class:`gridsolve.solve.dispatch.caching.CachingRaceSolver` keeps one for many.
"""
from __future__ import annotations

import dataclasses
import time

from ...compile.planning import plan_query, shared_races
from ...errors import EncodingError
from ...language.model import Board
from ...language.position import Position, Query
from . import reader
from .rankread import RankIndex
from ..common.capabilities import RACE, race_roles, serves_question
from ..common.limits import Limits
from ..graph.codec import PositionCodec
from ..graph.racegraph import RaceGraph
from ..common.answer import Answer, Question, RaceStats, SolveStats
from ..program.driver import race_limits
from ...language.kinds import QueryKind


class Engine:
    """The race solver of ``board`` ground once from ``roots`` for ``roles`` (default: every
    role the race solver serves), with the ranks up to ``plies`` (default: the whole game);
    :meth:`answer` answers any query about those roles at a position reachable from the roots
    with at most ``plies`` plies left (any number, when the ranks stopped changing before).
    ``limits`` (default: :class:`~gridsolve.solve.common.limits.Limits`) bound the grounding."""

    def __init__(self, board: Board, roots: list[Position], roles: list[str] | None = None,
                 plies: int | None = None, limits: Limits | None = None):
        started = time.perf_counter()
        self.board = board
        servable = race_roles(board)
        unknown = [r for r in (roles or []) if r not in servable]
        if unknown:
            raise EncodingError(f"the race solver does not answer the questions of {', '.join(unknown)}")
        roles = list(roles or servable)
        if not roles:
            raise EncodingError(f"the race solver answers no question of {board.name}: ask each with solve()")
        self.races, self.plans = shared_races(board.rules, {role: servable[role] for role in roles})
        self.layout = plan_query(board, Query(roles[0], QueryKind.SURVIVE)).layout
        self.codec = PositionCodec(board, self.layout)
        self.roots = list(roots)
        rules = board.rules
        self.plies = rules.last_step - rules.first_step if plies is None else plies
        guard = race_limits(board, self.layout, self.roots, limits or Limits(), started)
        with guard.allocating("while building the game graph"):
            self.graph = RaceGraph(board, self.layout, [self.codec.text(p) for p in self.roots], guard)
        ranked = time.perf_counter()
        self.levels = 0
        ranks = {}
        with guard.allocating(f"while ranking {self.graph.n:,} positions"):
            for number, (attackers, targets) in enumerate(self.races.races, 1):
                ranks[number], levels = self.graph.ranks(attackers, targets, self.plies)
                self.levels = max(self.levels, levels)
        self.complete = self.levels < self.plies    # a level decided nothing: so would every later one
        self.index = RankIndex(self.graph, ranks, board, self.layout)
        self.asked = 0
        self.ground_s = time.perf_counter() - started
        self.rank_s = time.perf_counter() - ranked

    def serves(self, query: Query) -> bool:
        """Whether :meth:`answer` can answer ``query`` without grounding the game again."""
        if query.role not in self.plans or query.strategy or query.hidden:
            return False
        if not self.plans[query.role][1] and query.kind != QueryKind.SURVIVE:
            return False
        if not self.complete and query.remaining(self.board) > self.plies:
            return False
        root = self.codec.term(query.position)
        return self.graph.index(root) >= 0

    def answer(self, query: Query, line_plies: int | None = None, moves: bool = True) -> Answer:
        """The answer to ``query`` (see :meth:`serves`) read off the ranks, with the principal
        line up to ``line_plies`` plies (None: to its end; 0: no line, the answer's ``line`` is
        None) and, unless ``moves`` is False, every move's outcome."""
        if not self.serves(query):
            raise EncodingError(f"the engine cannot answer {query.kind} for {query.role} at this position")
        started = time.perf_counter()
        self.asked += 1
        plan, value = self.plans[query.role]
        remaining = query.remaining(self.board)
        root = self.codec.term(query.position)
        graph = self.graph
        stats = SolveStats(solver="race", solve_s=0.0, detail=RaceStats(
            engine_ground_s=round(self.ground_s, 4), graph_ground_s=graph.ground_s, graph_read_s=graph.read_s,
            rank_s=round(self.rank_s, 4), levels=self.levels, positions=graph.n, moves=graph.edges,
            queries=self.asked))
        answer = reader.answer(self.index, self.board, query, plan, value, root, remaining, stats, line_plies,
                               moves)
        done = round(time.perf_counter() - started, 4)
        answer.stats = dataclasses.replace(stats, answer_s=done, total_s=done)
        return answer

    answer_from_ranks = answer      # (the name of the answers read off the ranks before every answer was)


class RaceSolver:
    """The race solver as a :class:`~gridsolve.solve.common.answer.Solver`: the questions planned by
    races (:func:`~gridsolve.compile.planning.plan_query`) without ``--strategy``, each from an
    engine ground from its position."""

    name = "race"

    def serves(self, question: Question) -> bool:
        return serves_question(RACE, question)

    def answer(self, question: Question) -> Answer:
        board, query = question.board, question.query
        answer = Engine(board, [query.position], [query.role], query.remaining(board), question.limits).answer(query)
        answer.stats = dataclasses.replace(answer.stats, compile_s=0.0,
                                           total_s=round(time.perf_counter() - question.started, 4))
        return answer
