"""Ground once, ask many times: one grounding of a board's race solver answers many queries.

The race ranks (``won(K,S,D)`` of encodings/solve.lp) are properties of positions: they do not
depend on the position a query starts from nor on its horizon.  An :class:`Engine` grounds the
game rules, every served role's races and the level parts once, over the positions reachable
from its roots, to the level where the ranks stop changing, and adds the answer parts of
encodings/answer.lp once.  Each query then grounds those parts with its own parameters
(``ask(q,role,root,left)``, ``line(q,i)``, ``next(q,i)``, ``output(q)``: multi-shot solving)
and solves; the answer is the one :func:`gridsolve.solve.solver.solve` gives for the query alone
(tests/test_engine.py).  The parts are added once because clingo looks at every statement
added so far in each ground call: text added per query would make each query slower than the
one before.

An engine can also read every answer off the ranks in Python (:meth:`Engine.answer_from_ranks`,
:mod:`gridsolve.solve.rankread`): after a one-time reading of the ranks and moves, a question
costs no ground call and no solve, however many were asked before.  Reading every move takes
as long as some dozens of questions answered by their parts (8 s on a 16x16 maze), so
``gridsolve ask`` answers so once an engine has answered RANKS_AFTER questions by their parts;
verify and play, which ask a few questions with short lines, always use the answer parts.

:class:`Asker` is what verify, play and ask use: it answers each query from an engine when the
race solver can (grounding a new one, with one more root, only for a position the current one
does not reach) and otherwise with a single-shot solve (the layered solver).
"""
from __future__ import annotations

import dataclasses
import time

import clingo

from ..compile.compiler import Program, plan_query, race_program, shared_races
from ..resources import encoding
from ..errors import EncodingError
from ..language.model import Board
from ..language.position import Position, Query
from .rankread import RankIndex
from .limits import Limits
from .solver import Answer, _Model, ground_ranks, race_budget, read_answer, solve


def race_roles(board: Board) -> dict[str, bool]:
    """The roles whose questions the race solver answers, each with whether its value is known
    (its scores are constants; else only its survive questions)."""
    out = {}
    for role in board.rules.roles:
        for kind in ("value", "survive"):
            plan = plan_query(board, Query(role, kind))
            if plan.mode == "race":
                out[role] = plan.value
                break
    return out


class Engine:
    """The race solver of ``board`` ground once from ``roots`` for ``roles`` (default: every
    role the race solver serves), with the ranks up to ``plies`` (default: the whole game);
    :meth:`answer` answers any query about those roles at a position reachable from the roots
    with at most ``plies`` plies left (any number, when the ranks stopped changing before).
    ``limits`` (default: :class:`~gridsolve.solve.limits.Limits`) bound the grounding."""

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
        self.layout = plan_query(board, Query(roles[0], "survive")).layout
        self.roots = list(roots)
        rules = board.rules
        self.plies = rules.last_step - rules.first_step if plies is None else plies
        base, levels = race_program(board, self.layout, self.plans, self.races,
                                    [self.layout.root_term(p, board) for p in self.roots], self.plies,
                                    f"engine: roles {', '.join(roles)}, {len(self.roots)} roots")
        budget = race_budget(board, self.layout, self.roots, limits or Limits(), started)
        self.ctl = clingo.Control(["--warn=none", "--stats"])
        answers = encoding("answer.lp")
        try:
            self.levels = ground_ranks(self.ctl, base, levels, budget)
            self.ctl.add("answers", [], answers[answers.index("\n#program "):])
            self.complete = self.levels < self.plies    # a level decided nothing: so would every later one
        except RuntimeError as exc:
            raise EncodingError(f"clingo could not ground the program: {exc}") from exc
        self.asked = 0
        self.index: RankIndex | None = None     # read on the first question answered from the ranks
        self.base_atoms = len(self.ctl.symbolic_atoms)
        self.ground_s = time.perf_counter() - started

    def serves(self, query: Query) -> bool:
        """Whether :meth:`answer` can answer ``query`` without grounding the game again."""
        if query.role not in self.plans or query.strategy:
            return False
        if not self.plans[query.role][1] and query.kind != "survive":
            return False
        if not self.complete and query.remaining(self.board) > self.plies:
            return False
        root = clingo.parse_term(self.layout.root_term(query.position, self.board))
        return self.ctl.symbolic_atoms[clingo.Function("reach", [root])] is not None

    def answer(self, query: Query, line_plies: int | None = None) -> Answer:
        """The answer to ``query`` (see :meth:`serves`), from this grounding plus its answer
        parts; ``line_plies`` bounds the principal line computed (None: to its end; 0: no line,
        the answer's ``line`` is None and is read off the ranks, see :meth:`answer_without_line`)."""
        if not self.serves(query):
            raise EncodingError(f"the engine cannot answer {query.kind} for {query.role} at this position")
        if line_plies == 0:
            return self.answer_from_ranks(query, 0)
        started = time.perf_counter()
        self.asked += 1
        number = clingo.Number(self.asked)
        plan, value = self.plans[query.role]
        remaining = query.remaining(self.board)
        last = remaining if line_plies is None else min(remaining, max(1, line_plies) - 1)
        try:
            self._ground_line(number, query, last)
        except RuntimeError as exc:
            raise EncodingError(f"clingo could not ground the answer: {exc}") from exc
        grounded = time.perf_counter()
        model = _Model()
        result = self.ctl.solve(on_model=lambda m: model.collect(
            s for s in m.symbols(shown=True) if s.arguments[0] == number))
        if not result.satisfiable:
            raise EncodingError("the program has no answer set (an encoding bug)")
        solved = time.perf_counter()
        stats = {"engine_ground_s": round(self.ground_s, 4), "levels": self.levels, "queries": self.asked,
                 "answer_s": round(grounded - started, 4), "solve_s": round(solved - grounded, 4),
                 "ground_atoms": len(self.ctl.symbolic_atoms), "total_s": round(solved - started, 4)}
        program = Program(query, plan, remaining, "", [], [], "", layout=self.layout, value_known=value)
        return read_answer(model, program, self.board, stats, self.asked)

    def answer_from_ranks(self, query: Query, line_plies: int | None = None) -> Answer:
        """The answer to ``query`` read off the ranks in Python (:mod:`gridsolve.solve.rankread`),
        with the principal line as in :meth:`answer` (``line_plies`` 0: none, ``line`` None):
        no ground call, no solve, so its cost does not grow with the questions asked before."""
        started = time.perf_counter()
        if self.index is None:
            self.index = RankIndex(self.ctl)
            self.index_s = time.perf_counter() - started
        self.asked += 1
        plan, value = self.plans[query.role]
        remaining = query.remaining(self.board)
        root = clingo.parse_term(self.layout.root_term(query.position, self.board))
        model = _Model()
        model.collect(self.index.shown(self.asked, self.board.rules, query.role, plan, value, root, remaining))
        if line_plies != 0:
            last = remaining if line_plies is None else min(remaining, max(1, line_plies) - 1)
            model.collect(self.index.line(self.asked, self.board.rules, query.role, plan, value, root, remaining, last))
        done = time.perf_counter()
        stats = {"engine_ground_s": round(self.ground_s, 4), "index_s": round(self.index_s, 4),
                 "levels": self.levels, "queries": self.asked, "answer_s": round(done - started, 4),
                 "solve_s": 0.0, "ground_atoms": len(self.ctl.symbolic_atoms), "total_s": round(done - started, 4)}
        program = Program(query, plan, remaining, "", [], [], "", layout=self.layout, value_known=value)
        answer = read_answer(model, program, self.board, stats, self.asked)
        if line_plies == 0:
            answer.line = None
        return answer

    @property
    def worn(self) -> bool:
        """Whether the answers have added so many atoms that grounding afresh is cheaper: each
        ground call of a part with new parameters indexes the atoms of earlier queries too."""
        return len(self.ctl.symbolic_atoms) - self.base_atoms > WORN_FRACTION * self.base_atoms

    def _ground_line(self, number: clingo.Symbol, query: Query, last: int) -> None:
        """Ground the answer parts of query ``number``, added once in __init__, with parameters:
        ask, then line(q,i) (with output(q) for i = 0) and next(q,i), one part per call, until
        the line ends or line state ``last`` is probed."""
        root = clingo.parse_term(self.layout.root_term(query.position, self.board))
        remaining = query.remaining(self.board)
        self.ctl.ground([("ask", [number, clingo.Function(query.role), root, clingo.Number(remaining)])])
        self.ctl.ground([("line", [number, clingo.Number(0)]), ("output", [number])])
        i = 0
        while i < last:
            goes_on = self.ctl.symbolic_atoms[clingo.Function("line_goes_on", [number, clingo.Number(i)])]
            if goes_on is None or not goes_on.is_fact:
                break
            self.ctl.ground([("next", [number, clingo.Number(i)])])
            i += 1
            self.ctl.ground([("line", [number, clingo.Number(i)])])


WORN_FRACTION = 0.5   # answers' atoms, as a fraction of the grounding's, after which it is ground afresh
RANKS_AFTER = 30      # questions an Asker answers by their parts before it reads the ranks (from_ranks)


class Asker:
    """Answers queries about one board: from an :class:`Engine` where the race solver answers
    them, else by solving the query alone.  The engine is ground from ``roots`` with the ranks
    up to ``plies`` (None: the whole game); it is ground again only for a position the roots
    do not reach (which becomes one more root), for more plies, or when it is worn (after some
    hundreds of questions).
    ``groundings`` counts the engines built."""

    def __init__(self, board: Board, roots: list[Position] = (), plies: int | None = None,
                 from_ranks: bool = False):
        self.board = board
        self.from_ranks = from_ranks     # an engine's answers read off its ranks after RANKS_AFTER questions
        self.roots = list(dict.fromkeys(roots))
        self.plies = plies
        self.engine: Engine | None = None
        self.groundings = 0

    @classmethod
    def for_queries(cls, board: Board, queries: list[Query], from_ranks: bool = False) -> "Asker":
        """An Asker whose first grounding serves all of ``queries``: rooted at their positions,
        with the ranks up to the most plies any of them has left."""
        return cls(board, [q.position for q in queries], max((q.remaining(board) for q in queries), default=None),
                   from_ranks)

    def ask(self, query: Query, limits: Limits | None = None, line_plies: int | None = None) -> Answer:
        """The answer to ``query``; ``limits`` bound a layered solve, ``line_plies`` the
        principal line of an engine's answer (see :meth:`Engine.answer`; 0: no line)."""
        if query.strategy or query.hidden or plan_query(self.board, query).mode != "race":
            answer = solve(self.board, query, limits, line_plies=None if line_plies is None else max(1, line_plies))
            if line_plies == 0:
                answer.line = None
            return answer
        if self.engine is None or self.engine.worn or not self.engine.serves(query):
            if query.position not in self.roots:
                self.roots.append(query.position)
            if self.plies is not None:
                self.plies = max(self.plies, query.remaining(self.board))
            # the engine serves the questions after this one too: their memory limit, not this one's time
            shared = None if limits is None else dataclasses.replace(limits, seconds=None, progress=None)
            self.engine = Engine(self.board, self.roots, plies=self.plies, limits=shared)
            self.groundings += 1
        if self.from_ranks and (self.engine.index is not None or self.engine.asked >= RANKS_AFTER):
            return self.engine.answer_from_ranks(query, line_plies)
        answer = self.engine.answer(query, 1 if line_plies == 0 else line_plies)
        if line_plies == 0:
            answer.line = None
        return answer
