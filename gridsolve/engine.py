"""Ground once, ask many times: one grounding of a board's race solver answers many queries.

The race ranks (``won(K,S,D)`` of encodings/solve.lp) are properties of positions: they do not
depend on the position a query starts from nor on its horizon.  An :class:`Engine` grounds the
game rules, every served role's races and the level parts once, over the positions reachable
from its roots, to the level where the ranks stop changing.  Each query then only adds its
answer parts to the same ``clingo.Control`` (``query(q,R,S0,Rm)``, ``ask(q)``, ``line(q,i)``
and ``strategy(q)`` of encodings/answer.lp: multi-shot solving) and solves; the answer is the
one :func:`gridsolve.solver.solve` gives for the query alone (tests/test_engine.py).

:class:`Asker` is what verify and play use: it answers each query from an engine when the race
solver can (grounding a new one, with one more root, only for a position the current one does
not reach) and otherwise with a single-shot solve (the layered solver).
"""
from __future__ import annotations

import time

import clingo

from .compiler import Program, plan_query, query_parts, race_program, shared_races
from .errors import EncodingError
from .model import Board
from .position import Position, Query
from .solver import Answer, Limits, _Model, ground_answer, ground_ranks, read_answer, solve


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
    with at most ``plies`` plies left (any number, when the ranks stopped changing before)."""

    def __init__(self, board: Board, roots: list[Position], roles: list[str] | None = None,
                 plies: int | None = None):
        started = time.perf_counter()
        self.board = board
        servable = race_roles(board)
        unknown = [r for r in (roles or []) if r not in servable]
        if unknown:
            raise EncodingError(f"the race solver does not answer the questions of {', '.join(unknown)}")
        roles = list(roles or servable)
        self.races, self.plans = shared_races(board.rules, {role: servable[role] for role in roles})
        self.layout = plan_query(board, Query(roles[0], "survive")).layout
        self.roots = list(roots)
        rules = board.rules
        self.plies = rules.last_step - rules.first_step if plies is None else plies
        base, levels = race_program(board, self.layout, self.plans, self.races,
                                    [self.layout.root_term(p, board) for p in self.roots], self.plies,
                                    f"engine: roles {', '.join(roles)}, {len(self.roots)} roots")
        self.ctl = clingo.Control(["--warn=none", "--stats"])
        try:
            self.levels = ground_ranks(self.ctl, base, levels)
            self.complete = self.levels < self.plies    # a level decided nothing: so would every later one
        except RuntimeError as exc:
            raise EncodingError(f"clingo could not ground the program: {exc}") from exc
        self.asked = 0
        self.parts = 0
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
        parts; ``line_plies`` (at least 1) bounds the principal line computed (None: to its end)."""
        if not self.serves(query):
            raise EncodingError(f"the engine cannot answer {query.kind} for {query.role} at this position")
        started = time.perf_counter()
        self.asked += 1
        number = self.asked
        plan, value = self.plans[query.role]
        remaining = query.remaining(self.board)
        lines, strategy = query_parts(number, self.board, query, plan, self.layout, remaining)
        if line_plies is not None:
            lines = lines[:max(1, line_plies)]
        program = Program(query, plan, remaining, "", [], lines, strategy, layout=self.layout, value_known=value)
        try:
            self.parts += ground_answer(self.ctl, program, number)
        except RuntimeError as exc:
            raise EncodingError(f"clingo could not ground the answer: {exc}") from exc
        grounded = time.perf_counter()
        model = _Model()
        wanted = clingo.Number(number)
        result = self.ctl.solve(on_model=lambda m: model.collect(
            s for s in m.symbols(shown=True) if s.arguments[0] == wanted))
        if not result.satisfiable:
            raise EncodingError("the program has no answer set (an encoding bug)")
        solved = time.perf_counter()
        stats = {"engine_ground_s": round(self.ground_s, 4), "levels": self.levels, "queries": self.asked,
                 "answer_s": round(grounded - started, 4), "solve_s": round(solved - grounded, 4),
                 "ground_atoms": len(self.ctl.symbolic_atoms), "total_s": round(solved - started, 4)}
        return read_answer(model, program, self.board, stats, number)

    @property
    def worn(self) -> bool:
        """Whether so many answer parts were added that grounding afresh is cheaper: clingo
        looks at every part added so far in each ground call."""
        return self.parts > WORN_PARTS


WORN_PARTS = 400   # answer parts (each some 40 rules) after which each ground call costs ~0.05 s


class Asker:
    """Answers queries about one board: from an :class:`Engine` where the race solver answers
    them, else by solving the query alone.  The engine is ground from ``roots`` with the ranks
    up to ``plies`` (None: the whole game); it is ground again only for a position the roots
    do not reach (which becomes one more root), for more plies, or when it is worn.
    ``groundings`` counts the engines built."""

    def __init__(self, board: Board, roots: list[Position] = (), plies: int | None = None):
        self.board = board
        self.roots = list(dict.fromkeys(roots))
        self.plies = plies
        self.engine: Engine | None = None
        self.groundings = 0

    def ask(self, query: Query, limits: Limits | None = None, line_plies: int | None = None) -> Answer:
        """The answer to ``query``; ``limits`` bound a layered solve, ``line_plies`` the
        principal line of an engine's answer (see :meth:`Engine.answer`)."""
        if query.strategy or plan_query(self.board, query).mode != "race":
            return solve(self.board, query, limits)
        if self.engine is None or self.engine.worn or not self.engine.serves(query):
            if query.position not in self.roots:
                self.roots.append(query.position)
            if self.plies is not None:
                self.plies = max(self.plies, query.remaining(self.board))
            self.engine = Engine(self.board, self.roots, plies=self.plies)
            self.groundings += 1
        return self.engine.answer(query, line_plies)
