"""Layered games answered from tables: the values and ranks of encodings/layered.lp computed
once for every position and every number of plies left, then read for each question.

encodings/layered.lp answers one question: it explores the positions within the horizon of
the position asked about and computes, from the horizon back, the role's minimax value of each
position with R plies left (``lval(R,S,V)``), the values of the commit nodes of simultaneous
plies (``pval``), and the ranks of the races the answer needs (``lrank(K,R,S,D)``: forcing a
score at least B, a score below T, or an end the role must avoid).  None of these depends on
the position asked about: only on the position valued and its plies left.  A
:class:`LayeredTable` therefore

* grounds the compiled game rules and the role's score rules once with clingo over the
  positions reachable from its roots (``edge/3``, ``split_edge/4``, ``mover/2``,
  ``terminal/1``, ``outcome/2``, ``escore/2``, ``tscore/2``, ``tmatch/2``: the semantics stay
  in the compiled program) and reads them into arrays: the positions keyed by their codec
  numbers and the plain plies as one :class:`~gridsolve.solve.graph.gamegraph.GameGraph`
  (``graph``; the commit nodes of simultaneous plies, not positions, beside it);
* computes the values level by level (plies left R = 0, 1, ...) in numpy, by the rules of
  layered.lp's ``value(r,p)`` part, up to the level where they repeat with the turn order's
  period (``vconv``) or as far as a question needs;
* computes the ranks of a race (``rank(r,p)``) the first time an answer needs it, the same
  way (``rconv``), and keeps them for the next questions;
* answers a question (the ``line(i)`` part: value, plies, win, survive, doom, every move's
  answer and the principal line) by lookups, as the atoms layered.lp shows, read by the same
  :func:`~gridsolve.solve.program.driver.read_answer`.

tests/test_layeredtable.py checks the answers against layered.lp's and the independent
reference's on random boards of every rule option.
"""
from __future__ import annotations

import dataclasses
import time

import clingo
import numpy as np

from ...compile.compiler import Program
from ...compile.gameprogram import GameProgram, show_statements
from ...compile.predicates import (AVOID_TARGET, DOOM_PLIES, EDGE, ESCORE, LAYERED_LINE, LAYERED_LINE_STATE,
                                   LAYERED_THRESHOLD, LINE_ANSWER, MAX_SCORE, MOVER, OTHER_TURN, OUTCOME, OWN_TURN, PERIOD,
                                   PLIES, REACH, SPLIT_EDGE, SPLIT_TURN, SURVIVES, TMATCH, TSCORE, VALUE, WIN, WIN_PLIES)
from ...compile.facts import layered_query_facts
from ...compile.gamerules import game_rules, score_rules
from ...compile.planning import Mode, plan_query
from ...errors import EncodingError, MemoryLimitError
from ...language.kinds import QueryKind
from ...language.model import Board
from ...language.position import Position, Query
from ..common.answer import SolveStats, TableStats
from ..common.outcome import Candidate, line_key, pick, reference_score
from ..program.driver import AT, Model, read_answer
from ..common.limits import LimitGuard, Limits, average_moves, estimate_positions, format_bytes
from ..graph.codec import PositionCodec, distinct, symbol_numbers
from ..graph.gamegraph import GameGraph, locate, position_keys
from ..graph.rawmodel import model_arguments

GROUND_SECONDS_PER_MOVE = 45e-6     # gringo's time a move (open 12x12 Wallmaze: 20 s for 442,603 moves)
TABLE_BYTES = (1_200, 1_200, 500)   # least a position needs, and per position and per move (ground + arrays;
                                    # open 12x12 Wallmaze: 20,878 positions, 442,603 moves, 246 MB)
NO = np.int32(-1)
BIG = np.int32(2 ** 30)


# What a table reads of the ground game: each atom shown as (its name, its arguments), named as
# the compiled game rules name it (encodings/layered.lp reads the same atoms), with its arity.
SHOWN = (REACH, EDGE, SPLIT_EDGE, MOVER, OUTCOME, ESCORE, TSCORE, TMATCH)
SHOW = "\n".join(show_statements([predicate.tagged() for predicate in SHOWN]))


def _numbers(reps: np.ndarray) -> np.ndarray:
    """The integers of clingo number symbols ``reps`` (raw 64-bit symbols)."""
    values, numbers = symbol_numbers(reps)
    if not numbers.all():
        raise EncodingError("a score or turns entry of the layered game is not a number (an encoding bug)")
    return values


def _segments(values: np.ndarray, starts: np.ndarray, ends: np.ndarray, ufunc, empty) -> np.ndarray:
    """``ufunc`` reduced over values[starts[i]:ends[i]] for each i (``empty`` where none)."""
    out = np.full(len(starts), empty, dtype=values.dtype)
    some = ends > starts
    if values.size and some.any():
        out[some] = ufunc.reduceat(values, starts[some])
    return out


class _Levels:
    """Arrays computed for R = 0, 1, ... plies left until they repeat with period ``period``
    (from level ``converged`` on), read at any number of plies left."""

    def __init__(self, period: int):
        self.period = period
        self.levels: list = []
        self.converged: int | None = None

    def at(self, r: int):
        """The arrays of ``r`` plies left (computed already, or periodic from there)."""
        c = self.converged
        if c is not None and r > c:
            r = c - self.period + (r - c) % self.period
        return self.levels[r]

    def known(self, r: int) -> bool:
        return self.converged is not None or r < len(self.levels)


class LayeredTable:
    """Every answer of encodings/layered.lp for ``role`` on ``board`` at the positions reachable
    from ``roots``: the game ground once by clingo (within ``limits``), the values and the
    ranks computed in arrays as questions need them (see the module's docstring)."""

    def __init__(self, board: Board, role: str, roots: list[Position], limits: Limits | None = None):
        started = time.perf_counter()
        self.board, self.role, self.roots = board, role, list(roots)
        probe = Query(role, QueryKind.VALUE, self.roots[0])
        plan = plan_query(board, probe)
        if plan.mode is not Mode.LAYERED:
            raise EncodingError(f"{role}'s questions on {board.name} are answered by races, not by a layered table")
        self.plan, self.layout = plan, plan.layout
        self.codec = PositionCodec(board, plan.layout)
        self._read_query_facts(layered_query_facts(board, probe, self.layout))
        guard = LimitGuard(limits or Limits(), "the positions reachable from the position asked about",
                        lambda needed: "ask each question alone (gridsolve solve), or raise --max-memory"
                        + (f" (to about {format_bytes(needed * 1.25)})" if needed else ""), started)
        guard.before(estimate_positions(board, self.layout, self.roots), board, TABLE_BYTES)
        self._ground(guard)
        guard.after("after reading the layered game")
        self.ground_s = round(time.perf_counter() - started, 4)
        self.values = _Levels(self.period)
        self.pvalues_: list = []
        self.ranks: dict[tuple, _Levels] = {}
        self.asked = 0

    # - The game, ground once ---

    def _read_query_facts(self, facts: str) -> None:
        """The role's turns, scores and ends to avoid, as layered.lp reads them."""
        ctl = clingo.Control(["--warn=none"])
        ctl.add("base", [], facts)
        ctl.ground([("base", [])])

        def values(predicate) -> list:
            return sorted(value for value, in predicate.ground(ctl.symbolic_atoms))
        self.own_turns, self.other_turns = set(values(OWN_TURN)), set(values(OTHER_TURN))
        self.split_turns = set(values(SPLIT_TURN))
        self.thresholds = values(LAYERED_THRESHOLD)
        self.max_score = values(MAX_SCORE)[0]
        self.period = values(PERIOD)[0]
        self.avoid = set(values(AVOID_TARGET))

    def _program(self) -> str:
        board, layout = self.board, self.layout
        rules = game_rules(board, layout, self.plan.split_team) + "\n" + "\n".join(score_rules(board, layout, self.role))
        game = GameProgram(board, layout, [self.codec.text(p) for p in self.roots])
        sections = game.header(f"layered table of {self.role}", Mode.LAYERED) + [
            "% - Roots ---", game.root_facts(), "", *game.encodings(),
            "% - The positions reachable from the roots, with the compiled game rules ---",
            *game.reach_rules(), "reach(S) :- split_edge(_,_,_,S).", game.rules(rules), SHOW]
        return "\n".join(sections)

    def _ground(self, guard: LimitGuard) -> None:
        ctl = clingo.Control(["--warn=none"])
        try:
            ctl.add("base", [], self._program())
            guard.ground(ctl, [("base", [])], "while grounding the game's positions")
        except RuntimeError as exc:
            raise EncodingError(f"clingo could not ground the layered game: {exc}") from exc
        guard.after("after grounding the game's positions")
        rows: dict[int, list] = {}
        tags = {clingo.Function(predicate.name)._rep: predicate for predicate in SHOWN}     # (one arity a name)
        for args in model_arguments(ctl):
            rows.setdefault(tags.get(args[0]), []).append(args[1:])
        del ctl

        def column(predicate) -> np.ndarray:
            found = rows.get(predicate, [])
            return np.array(found, dtype=np.uint64).reshape(len(found), predicate.arity)
        # the positions keyed as every game graph keys them (their codec numbers), in that order;
        # the atoms' raw symbols found among the positions' while reading
        reps = distinct(column(REACH)[:, 0])
        numbers, starts_at = position_keys(self.codec, reps)
        by_key = np.argsort(numbers, kind="stable")
        n = self.n = len(reps)
        row_of = np.empty(n, dtype=np.int64)
        row_of[by_key] = np.arange(n, dtype=np.int64)

        def index(raw: np.ndarray) -> np.ndarray:
            found = locate(reps, raw)
            if (found < 0).any():
                raise EncodingError("the layered game has an atom about an unreachable position (an encoding bug)")
            return row_of[found]
        self.terminal = np.zeros(n, dtype=bool)
        self.outcome = np.full(n, -1, dtype=np.int16)
        self.ends = [end.name for end in self.board.rules.ends]
        outs = column(OUTCOME)
        end_of = {clingo.Function(e)._rep: i for i, e in enumerate(self.ends)}
        self.outcome[index(outs[:, 0])] = [end_of[int(e)] for e in outs[:, 1]]
        self.terminal[self.outcome >= 0] = True
        self.escore = np.zeros(n, dtype=np.int32)
        self.tscore = np.zeros(n, dtype=np.int32)
        self.by_rule = np.zeros(n, dtype=bool)
        self.turn = np.full(n, -1, dtype=np.int32)
        for predicate, into in ((ESCORE, self.escore), (TSCORE, self.tscore), (MOVER, self.turn)):
            pairs = column(predicate)
            into[index(pairs[:, 0])] = _numbers(pairs[:, 1])
        self.by_rule[index(column(TMATCH)[:, 0])] = True
        # plain plies: sorted by position
        edges = column(EDGE)
        src, dst = index(edges[:, 0]), index(edges[:, 2])
        order = np.argsort(src, kind="stable")
        self.esrc, self.edst, self.emove = src[order], dst[order], edges[order, 1]
        self.estart = np.searchsorted(self.esrc, np.arange(n + 1)).astype(np.int64)
        # simultaneous plies: commit nodes (position, the team's move), each with the others' answers
        splits = column(SPLIT_EDGE)
        ssrc = index(splits[:, 0])
        keys = np.stack([ssrc.astype(np.uint64), splits[:, 1]], axis=1) if len(splits) else np.zeros((0, 2), np.uint64)
        commits, which = np.unique(keys, axis=0, return_inverse=True)
        which = which.reshape(-1)
        order = np.argsort(which, kind="stable")
        self.csrc, self.cmove = commits[:, 0].astype(np.int64), commits[:, 1]
        self.cwhich, self.canswer, self.cdst = which[order], splits[order, 2], index(splits[order, 3])
        self.c = len(commits)
        self.cstart = np.searchsorted(self.cwhich, np.arange(self.c + 1)).astype(np.int64)
        self.pstart = np.searchsorted(self.csrc, np.arange(n + 1)).astype(np.int64)   # commits of each position
        moves = (self.estart[1:] > self.estart[:-1]) | (self.pstart[1:] > self.pstart[:-1])
        self.stuck = ~self.terminal & ~moves
        self.own = np.isin(self.turn, list(self.own_turns))
        self.other = np.isin(self.turn, list(self.other_turns))
        self.split = np.isin(self.turn, list(self.split_turns))
        self.edges = len(self.esrc) + len(splits)
        # the plain plies as the one game graph (the commit nodes of simultaneous plies are not
        # positions: they stay beside it)
        self.graph = GameGraph(self.turn, self.outcome, self.ends, off=self.estart, succ=self.edst, moves=self.emove,
                               codec=self.codec, keys=numbers[by_key], starts_at=starts_at)

    def index(self, position: Position) -> int:
        """The number of ``position`` in the table, or -1 when the roots do not reach it."""
        return self.graph.find(self.codec.term(position))

    # - Values (layered.lp's value(r,p)) ---

    def _value_level(self, r: int) -> tuple[np.ndarray, np.ndarray]:
        value = np.where(self.terminal, self.escore, self.tscore).astype(np.int32)
        if r == 0:
            return value, np.zeros(self.c, dtype=np.int32)
        prev = self.values.levels[r - 1][0]
        after = prev[self.edst]
        lo, hi = self.estart[:-1], self.estart[1:]
        open_ = ~self.terminal & ~self.stuck
        best = _segments(after, lo, hi, np.maximum, NO)
        worst = _segments(after, lo, hi, np.minimum, NO)
        pvalue = _segments(prev[self.cdst], self.cstart[:-1], self.cstart[1:], np.minimum, NO)
        committed = _segments(pvalue, self.pstart[:-1], self.pstart[1:], np.maximum, NO)
        value = np.where(open_ & self.own, best, value)
        value = np.where(open_ & self.other, worst, value)
        value = np.where(open_ & self.split, committed, value)
        return value, pvalue

    def _values_to(self, r: int) -> None:
        levels = self.values
        while not levels.known(r):
            k = len(levels.levels)
            levels.levels.append(self._value_level(k))
            p = self.period
            if k > p and all(np.array_equal(a, b) for a, b in zip(levels.levels[k], levels.levels[k - p])):
                levels.converged = k

    def value_at(self, r: int) -> tuple[np.ndarray, np.ndarray]:
        """The values of the positions and of the commit nodes with ``r`` plies left."""
        self._values_to(r)
        return self.values.at(r)

    # - Ranks (layered.lp's rank(r,p)) ---

    def _rank_level(self, race: tuple, r: int, levels: _Levels) -> tuple[np.ndarray, np.ndarray]:
        kind, bound = race
        value, pvalue = self.value_at(r)
        stop = self.terminal | self.stuck | (r == 0)

        def goal(v):
            return v >= bound if kind == "up" else v < bound
        rank = np.full(self.n, -1, dtype=np.int32)
        if kind == "avoid":
            targets = [i for i, e in enumerate(self.ends) if e in self.avoid]
            rank[np.isin(self.outcome, targets)] = 0
        else:
            rank[stop & goal(value)] = 0
        if r == 0:
            return rank, np.full(self.c, -1, dtype=np.int32)
        prev = levels.levels[r - 1][0]
        by_others = kind != "up"
        attacks = self.other if by_others else (self.own | self.split)
        after = prev[self.edst]
        lo, hi = self.estart[:-1], self.estart[1:]
        nearest = _segments(np.where(after >= 0, after, BIG), lo, hi, np.minimum, BIG)
        farthest = _segments(after, lo, hi, np.maximum, NO)
        least = _segments(after, lo, hi, np.minimum, NO)
        cafter = prev[self.cdst]
        c_lo, c_hi = self.cstart[:-1], self.cstart[1:]
        c_near = _segments(np.where(cafter >= 0, cafter, BIG), c_lo, c_hi, np.minimum, BIG)
        c_far = _segments(cafter, c_lo, c_hi, np.maximum, NO)
        pwon = (c_far >= 0) if kind == "avoid" else goal(pvalue) & (c_far >= 0)
        prank = np.where(pwon, 1 + (c_near if by_others else c_far), NO).astype(np.int32)
        p_lo, p_hi = self.pstart[:-1], self.pstart[1:]
        p_near = _segments(np.where(prank >= 0, prank, BIG), p_lo, p_hi, np.minimum, BIG)
        p_far = _segments(prank, p_lo, p_hi, np.maximum, NO)
        p_least = _segments(np.where(pwon, 0, -1).astype(np.int32), p_lo, p_hi, np.minimum, NO)
        open_ = ~stop
        plain = open_ & ~self.split
        split = open_ & self.split
        ranked_after = farthest >= 0
        if kind == "avoid":
            won_plain = plain & np.where(attacks, ranked_after, (least >= 0) & ranked_after)
            won_split = split & ~attacks & (p_least >= 0) & (p_far >= 0)
        else:
            won_plain = plain & goal(value) & ranked_after
            won_split = split & goal(value) & (p_far >= 0)
        rank = np.where(won_plain, 1 + np.where(attacks, nearest, farthest), rank)
        rank = np.where(won_split, np.where(attacks, p_near, p_far), rank).astype(np.int32)
        return rank, prank

    def rank_at(self, race: tuple, r: int) -> tuple[np.ndarray, np.ndarray]:
        """The ranks of ``race`` (("up", B), ("down", T) or ("avoid", None)) with ``r`` plies
        left: of the positions, and of the commit nodes (the ply counted)."""
        levels = self.ranks.get(race)
        if levels is None:
            levels = self.ranks[race] = _Levels(self.period)
        while not levels.known(r):
            k = len(levels.levels)
            levels.levels.append(self._rank_level(race, k, levels))
            p = self.period
            self._values_to(k)
            fixed = self.values.converged is not None and self.values.converged <= k
            if fixed and k > p and all(np.array_equal(a, b) for a, b in zip(levels.levels[k], levels.levels[k - p])):
                levels.converged = k
        return levels.at(r)

    # - Answers (layered.lp's races and line(i)) ---

    def answer(self, query: Query):
        """The answer to ``query`` (a layered question of this table's role at a position the
        table reaches), as encodings/layered.lp gives it."""
        started = time.perf_counter()
        root = self.index(query.position)
        if query.role != self.role or root < 0:
            raise EncodingError("the layered table does not reach this position (ask the table that does)")
        self.asked += 1
        rm = query.remaining(self.board)
        line0 = self._probes(root, rm)
        reading = _Reading(self, root, line0)
        model = Model(mode=Mode.LAYERED)      # the atoms as layered.lp shows them
        self._collect_values(model, reading, line0)
        self._collect_line(model, reading, root, line0, rm)
        program = Program(query, None, rm, "", [], [], "", mode=Mode.LAYERED, layout=self.layout,
                          plan_team=self.plan.split_team)
        done = time.perf_counter()
        stats = SolveStats(solver="layered table", ground_s=self.ground_s, answer_s=round(done - started, 4),
                           solve_s=0.0, total_s=round(done - started, 4), detail=TableStats(
                               positions=self.n, moves=self.edges, value_levels=len(self.values.levels),
                               rank_levels=max((len(r.levels) for r in self.ranks.values()), default=0),
                               races=len(self.ranks), queries=self.asked, choices=0))
        return read_answer(model, program, self.board, stats)

    def _collect_values(self, model: Model, reading: "_Reading", line0: list[tuple]) -> None:
        """layered.lp's answer at line state 0: the value, plies, win, win plies and survival of
        the position (``at``) and of each of its moves."""
        for probe in line0:
            name = AT if probe[0] is None else clingo.symbol.Symbol(int(probe[0]))
            v = int(probe[2])
            model.add(VALUE, 0, name, v)
            d = reading.plies(probe)
            if d is not None:
                model.add(PLIES, 0, name, int(d))
            if v == self.max_score:
                model.add(WIN, 0, name)
            if self.max_score in reading.ups:
                w = reading.forced(("up", self.max_score), probe)
                if w is not None:
                    model.add(WIN_PLIES, 0, name, int(w))
            doom = reading.forced(("avoid", None), probe) if self.avoid else None
            if doom is None:
                model.add(SURVIVES, 0, name)
            else:
                model.add(DOOM_PLIES, 0, name, int(doom))

    def _collect_line(self, model: Model, reading: "_Reading", root: int, line0: list[tuple], rm: int) -> None:
        """layered.lp's principal line from ``root`` with ``rm`` plies left: ``line``,
        ``line_answer`` (a commit's answer) and ``line_state`` atoms, the side to move picking the
        greatest (role's team) or least (others) of its moves' keys."""
        state, probes = root, line0

        def line_state(i: int) -> None:
            model.add(LAYERED_LINE_STATE, i, self.graph.term(state))
        line_state(0)
        for i in range(rm + 1):
            if len(probes) == 1:        # line state i does not go on
                break
            t = int(self.turn[state])
            chosen = pick(filter(None, map(reading.candidate, probes[1:])), t in self.own_turns or t in self.split_turns)
            if chosen is None:
                break
            model.add(LAYERED_LINE, i, t, chosen.order)
            if chosen.move[1] == "pos":
                state = chosen.move[3]
            else:
                c, r = chosen.move[3], rm - i
                values = self.value_at(r - 1)[0]
                replies = (reading.candidate((self.canswer[j], "pos", int(values[self.cdst[j]]), int(self.cdst[j]), r - 1))
                           for j in range(self.cstart[c], self.cstart[c + 1]))
                reply = pick(filter(None, replies), False)
                if reply is None:
                    break
                model.add(LINE_ANSWER, i, reply.order)
                state = reply.move[3]
            line_state(i + 1)
            probes = self._probes(state, rm - i - 1)

    def _probes(self, s: int, r: int) -> list[tuple]:
        """Line state ``s`` with ``r`` plies left and, where it goes on, its moves: (move or None,
        "pos" or "commit", value, position or commit node, plies left of the rank read)."""
        value, _ = self.value_at(r)
        out = [(None, "pos", int(value[s]), s, r)]
        if r <= 0 or self.terminal[s] or self.stuck[s]:
            return out
        after, _ = self.value_at(r - 1)
        for j in range(self.estart[s], self.estart[s + 1]):
            out.append((self.emove[j], "pos", int(after[self.edst[j]]), int(self.edst[j]), r - 1))
        _, pvalue = value, self.value_at(r)[1]
        for c in range(self.pstart[s], self.pstart[s + 1]):
            out.append((self.cmove[c], "commit", int(pvalue[c]), int(c), r))
        return out


class _Reading:
    """How layered.lp reads one question off a table: the reference (the root's timeout score),
    the races it asks (``ups``: the role's team forcing at least v; ``downs``: the others
    forcing below v) for the values at line state 0 (``line0``), and each probe's plies and key."""

    def __init__(self, table: "LayeredTable", root: int, line0: list[tuple]):
        self.table = table
        self.reference = reference_score(int(table.tscore[root]), bool(table.by_rule[root]), table.thresholds[0],
                                         table.max_score)
        wanted = {line0[0][2]} | {p[2] for p in line0[1:]}
        self.ups = {v for v in wanted if self.above(v)}
        self.downs = {self.nxt(v) for v in wanted if self.below(v) and self.nxt(v) is not None}

    def above(self, v: int) -> bool:
        return v in self.table.thresholds and v > self.reference

    def below(self, v: int) -> bool:
        return v in self.table.thresholds and v < self.reference

    def nxt(self, v: int) -> int | None:
        later = [t for t in self.table.thresholds if t > v]
        return later[0] if later else None

    def forced(self, race: tuple, probe: tuple) -> int | None:
        """The plies in which ``race`` is forced at ``probe``, None where it is not."""
        kind, i, r = probe[1], probe[3], probe[4]
        ranks, pranks = self.table.rank_at(race, r)
        d = int(ranks[i]) if kind == "pos" else int(pranks[i]) - 1
        return d if (ranks[i] >= 0 if kind == "pos" else pranks[i] >= 0) else None

    def plies(self, probe: tuple) -> int | None:
        v = probe[2]
        if self.above(v) and v in self.ups:
            return self.forced(("up", v), probe)
        if self.below(v) and self.nxt(v) in self.downs:
            return self.forced(("down", self.nxt(v)), probe)
        return None

    def candidate(self, probe: tuple) -> Candidate | None:
        """The probe as a line candidate (its move term breaks ties), None where it is not one."""
        key = line_key(probe[2], self.plies(probe), self.reference)
        return None if key is None else Candidate(key, clingo.symbol.Symbol(int(probe[0])), probe)


class LayeredTables:
    """The layered tables of one board, a table per role, for a session of questions (an
    :class:`~gridsolve.solve.dispatch.asker.Asker`): a role's table is ground from the positions asked
    about so far, again (with one more root) for a position it does not reach.  A role whose
    table does not fit the memory limit is remembered: its questions are answered alone
    (:meth:`answer` returns None)."""

    def __init__(self, board: Board, roots: list[Position] = ()):
        self.board = board
        self.roots = list(roots)
        self.tables: dict[str, LayeredTable] = {}
        self.refused: set[str] = set()
        self.groundings = 0

    def answer(self, query: Query, limits: Limits | None = None):
        """The answer to ``query`` from its role's table, or None when there is no such table
        (see :meth:`table_for`)."""
        table = self.table_for(query, limits)
        return None if table is None else table.answer(query)

    def table_for(self, query: Query, limits: Limits | None = None) -> LayeredTable | None:
        """The table that answers ``query``, ground (again) when its role has none that reaches
        the position; None when it does not fit (or, for a question with a time limit, when
        grounding it would take longer: a later question without one grounds it)."""
        role = query.role
        if role in self.refused:
            return None
        table = self.tables.get(role)
        if table is None or table.index(query.position) < 0:
            roots = list(dict.fromkeys([*(table.roots if table else self.roots), query.position]))
            if limits is not None and limits.seconds is not None and self._seconds(roots) > limits.seconds:
                return None
            self.tables.pop(role, None)
            shared = None if limits is None else dataclasses.replace(limits, seconds=None, progress=None)
            try:
                table = LayeredTable(self.board, role, roots, shared)
            except MemoryLimitError:
                self.refused.add(role)
                return None
            self.tables[role] = table
            self.groundings += 1
        return table

    def _seconds(self, roots: list[Position]) -> float:
        """About how long grounding a table from ``roots`` takes at most (from the positions
        estimated before grounding and the moves a position has)."""
        layout = plan_query(self.board, Query(self.board.rules.roles[0], QueryKind.VALUE, roots[0])).layout
        return estimate_positions(self.board, layout, roots) * average_moves(self.board) * GROUND_SECONDS_PER_MOVE
