"""The answer types every solver shares, and the one interface every solver fills in.

:class:`Answer` (with its :class:`MoveValue` per move and its principal line of :class:`Ply`)
is what ``gridsolve solve`` reports and its ``--json`` object (docs/answers.md).  :class:`Question` is what a solver is asked: the
board, the query and the caller's limits and options.  :class:`Solver` is the interface: the
race solver (:mod:`gridsolve.solve.race.racesolver`), the compiled programs run by the driver
(:mod:`gridsolve.solve.program.compiledsolver`), the bounded solver (:mod:`gridsolve.solve.bounded.search`) and the
robust solver of ``--hidden`` questions (:mod:`gridsolve.solve.hidden.hiddensolver`) each fill it in, and
:func:`gridsolve.solve.dispatch.dispatcher.solve` picks the first that serves a question; each
builds its :class:`Answer` with the one reader (:mod:`gridsolve.solve.common.outcome`).
:class:`SolveStats` holds the figures every solver has and the answering solver's own
(:class:`RaceStats`, :class:`ProgramStats`, :class:`TableStats`, :class:`ThresholdStats`).
"""
from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field, replace
from functools import cached_property
from typing import Protocol

from ...compile.planning import Plan, plan_query
from ...language.kinds import QueryKind
from ...language.model import Board
from ...language.position import Position, Query
from .limits import Limits


@dataclass(kw_only=True)
class MoveValue:
    """One move of the role asked about and the answer after it."""

    move: str
    value: int | None
    plies: int | None
    win: bool | None
    survives: bool
    doom_plies: int | None = None
    exact: bool | None = None       # --hidden, deepened: the move's answer holds for every horizon


@dataclass(frozen=True)
class GameState:
    """A GDL game's position: the fluents that hold there, as KIF text."""

    fluents: tuple[str, ...]

    def as_dict(self) -> dict:
        """The position as a GDL answer's ``--json`` writes it."""
        return {"fluents": list(self.fluents)}


@dataclass(frozen=True)
class Ply:
    """One ply of a principal line: ply ``index`` (0-based), the roles that move (``side``), the
    move as the answer names it, and the positions before and after it, as the solver that
    found the line holds them (a ``--hidden`` line's positions hold what the role knows); a GDL
    game's ply is a step: ``joint`` each role's move (KIF), its positions :class:`GameState`."""

    index: int
    side: tuple[str, ...]
    move: str
    before: Position | GameState
    after: Position | GameState
    joint: dict[str, str] | None = None

    def as_dict(self) -> dict:
        """The ply as the answer's ``--json`` line writes it (a step: with its joint move and the
        fluents after it)."""
        out = {"ply": self.index, "side": list(self.side), "move": self.move}
        if self.joint is not None:
            out.update(joint=dict(self.joint), after=list(self.after.fluents))
        return out


HIDDEN_ANSWERS = {"free": "free", "obstacle": "obstacle", "placed": "obstacle placed"}


def hidden_move(move: str, answer: str) -> str:
    """A ``--hidden`` line's move with the others' answer to it, as the line names it:
    ``south (obstacle placed)``."""
    return f"{move} ({HIDDEN_ANSWERS.get(answer.split('(')[0], answer)})"


@dataclass(kw_only=True)
class RaceStats:
    """The race solver's figures (docs/answers.md; the studio graph's: its positions)."""

    rank_s: float | None = None             # ranking the races
    levels: int | None = None               # rank levels computed
    positions: int | None = None            # positions of the ground game graph
    moves: int | None = None                # moves of the ground game graph
    queries: int | None = None              # questions the race engine answered so far, this one included
    engine_ground_s: float | None = None    # building the race engine
    graph_ground_s: float | None = None     # grounding its game graph
    graph_read_s: float | None = None       # reading it into arrays


@dataclass(kw_only=True)
class ProgramStats:
    """A compiled program's figures, as clingo ground and solved it (race program, layered)."""

    rank_s: float | None = None             # grounding the ranks (layered: the depths, values and ranks)
    levels: int | None = None               # rank levels ground (layered: depths explored)
    ground_rules: int | None = None         # clingo's ground rules
    ground_atoms: int | None = None         # clingo's ground atoms
    choices: int | None = None              # clingo's choices
    value_levels: int | None = None         # layered: value parts ground
    rank_levels: int | None = None          # layered: rank parts ground


@dataclass(kw_only=True)
class TableStats:
    """The layered table's figures."""

    positions: int | None = None            # positions of its game
    moves: int | None = None                # moves of its game
    queries: int | None = None              # questions it answered so far, this one included
    races: int | None = None                # races ranked so far
    choices: int | None = None              # 0: no search
    value_levels: int | None = None         # levels of plies left whose values are computed
    rank_levels: int | None = None          # the longest race's levels of ranks computed


@dataclass(kw_only=True)
class ThresholdStats:
    """The threshold searches' figures (bounded, robust search)."""

    abstract_positions: int | None = None   # positions without items (or knowledge)
    ground_atoms: int | None = None         # the abstract game's ground atoms
    search_s: float | None = None           # seconds searching
    searched: int | None = None             # positions searched
    remembered: int | None = None           # transposition-table entries
    races: int | None = None                # bounded: threshold races run
    choices: int | None = None              # bounded: 0 (a ply has one outcome)
    search_in: str | None = None            # "C" (raceskernel.c, knowingkernel.c) or "Python"


STATS_FIELDS = ("solver", "total_s", "compile_s", "ground_s", "solve_s", "answer_s", "rank_s", "levels",
                "positions", "moves", "queries", "engine_ground_s", "graph_ground_s", "graph_read_s",
                "ground_rules", "ground_atoms", "choices", "value_levels", "rank_levels", "abstract_positions",
                "search_s", "searched", "remembered", "races", "search_in", "settled_at")
# (the fields of --json's stats, in its order: docs/answers.md)


@dataclass(kw_only=True)
class SolveStats:
    """How an answer was computed: the fields every solver has, and its own figures
    (``detail``); ``solver`` names the one that answered.  :meth:`as_dict` writes them as
    ``--json`` does: every field of docs/answers.md, None where a solver has no such figure."""

    solver: str                             # the row of the table that answered (capabilities.ROWS)
    total_s: float | None = None            # seconds from the question to the answer
    compile_s: float | None = None          # writing the program (compiled solvers; 0 for the race solver)
    ground_s: float | None = None           # grounding (the program's parts, or the searches' abstract game)
    solve_s: float | None = None            # clingo's search for the model (0 where there is none)
    answer_s: float | None = None           # reading the answer (race solver) or grounding its parts
    settled_at: int | None = None           # --hidden, deepened: the horizon whose answer was certain
    detail: RaceStats | ProgramStats | TableStats | ThresholdStats | None = None

    def figure(self, name: str):
        """The field ``name`` of docs/answers.md's stats (None where this solver has no such figure)."""
        if name != "detail" and name in self.__dataclass_fields__:
            return getattr(self, name)
        return getattr(self.detail, name, None)

    def as_dict(self) -> dict:
        """The stats as ``--json`` writes them."""
        return {name: self.figure(name) for name in STATS_FIELDS}


class GameStats(dict):
    """How a GDL game's answer was computed: the engine's figures, in the order ``--json``
    writes them (docs/gdl.md; a breadth-first and a depth-first answer have different ones)."""

    def as_dict(self) -> dict:
        """The stats as ``--json`` writes them."""
        return dict(self)


GAME_FIELDS = ("board", "role", "query", "holds", "value", "plies", "win", "win_plies", "win_moves", "top",
               "remaining", "position", "values", "moves", "line", "stats", "survives", "doom_plies")
GAME_MOVE_FIELDS = ("move", "value", "plies", "win", "survives")
# (a GDL answer's --json fields and its moves', in their order: docs/gdl.md)


@dataclass(frozen=True)
class GameDetail:
    """What a GDL game's answer has that a board's has not: the role's ``top`` goal (what
    ``--query win`` asks for) and ``values``, what every role guarantees from the position
    (None: not searched)."""

    top: int | None
    values: dict[str, int | None] | None

    def written(self, out: dict) -> dict:
        """The answer's ``--json`` object ``out`` as a GDL answer writes it (docs/gdl.md)."""
        out = {**out, "top": self.top, "values": self.values,
               "moves": [{name: move[name] for name in GAME_MOVE_FIELDS} for move in out["moves"]]}
        return {name: out[name] for name in GAME_FIELDS}


@dataclass(kw_only=True)
class Answer:
    """What ``gridsolve solve`` reports (also its ``--json`` object).  ``value`` and ``win``
    are None when a survive question was answered without them (see docs/answers.md).  A GDL
    game's answer (``game``: its :class:`GameDetail`) counts its plies in steps (joint moves),
    its position as fluents; ``remaining`` is its horizon (None: none), ``survives`` None."""

    board: str
    role: str
    query: QueryKind
    holds: bool
    value: int | None
    plies: int | None
    win: bool | None
    win_plies: int | None
    win_moves: int | None = None    # the role's own moves in its fastest forced win (None: no win)
    survives: bool | None
    doom_plies: int | None
    remaining: int | None
    position: dict
    moves: list[MoveValue]
    line: tuple[Ply, ...] | None      # None: asked without the principal line (gridsolve ask)
    stats: SolveStats | GameStats
    strategy: list[dict] | None = None
    hidden: bool = False        # the robust answer of a --hidden question
    game: GameDetail | None = None  # a GDL game's answer

    @property
    def top(self) -> int | None:
        """A GDL game's answer: the role's top goal."""
        return self.game.top

    @property
    def values(self) -> dict[str, int | None] | None:
        """A GDL game's answer: what every role guarantees from the position."""
        return self.game.values

    def as_dict(self) -> dict:
        out = asdict(replace(self, line=None, game=None))
        out["line"] = None if self.line is None else [ply.as_dict() for ply in self.line]
        out["stats"] = self.stats.as_dict()
        if self.game is not None:
            return self.game.written(out)
        out.pop("game")
        if self.strategy is None:
            out.pop("strategy")
        if not self.hidden:
            out.pop("hidden")
        for move in out["moves"]:
            if move["exact"] is None:
                move.pop("exact")
        return out


@dataclass
class Question:
    """One question to a solver: ``query`` on ``board`` within ``limits``; the principal line
    stops after ``line_plies`` plies when given (the bounded and robust searches' and the
    Asker's race engine; the other solvers' lines are cheap and always whole; for the Asker, 0:
    no line); with ``moves`` False the caller reads none of the answer's moves, and the race
    engine leaves them out (the positions after the first ply are not named; the other solvers
    list them anyway); ``memo`` (a
    :class:`~gridsolve.solve.bounded.memo.BoundedMemo`) keeps the bounded solver's work for the
    next questions.  ``started``: when it was asked (the answers' ``total_s``)."""

    board: Board
    query: Query
    limits: Limits | None = None
    line_plies: int | None = None
    moves: bool = True
    memo: object | None = None
    started: float = field(default_factory=time.perf_counter)

    @cached_property
    def plan(self) -> Plan:
        """The cheapest exact way to answer the query (races or layers), planned once."""
        return plan_query(self.board, self.query)


class Solver(Protocol):
    """What every solver fills in: :meth:`serves` says whether it answers a question, and
    :meth:`answer` answers one it serves."""

    name: str

    def serves(self, question: Question) -> bool:
        """Whether this solver answers ``question``."""

    def answer(self, question: Question) -> Answer:
        """The answer to ``question`` (one this solver serves)."""
