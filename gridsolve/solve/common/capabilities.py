"""The one table of the paths that answer, and the one chooser: which board and question each
row serves, why it refuses the others, and the order in which its family is tried.

The table has three families, each a tuple in the order it is tried: the solvers of one
question (:data:`SOLVERS`: race, bounded, layered table, robust search, hidden, compiled), the
race solver's graph builders (:data:`GRAPH_BUILDERS`: they depend on the position terms, the
layout, rather than on the question) and the features' own graphs (:data:`FEATURE_GRAPHS`:
the studio's, explain's wall graph, generate's start graph, play's own placements).
:func:`choose` picks the row that answers a question (``solve()``, the Asker of ask, verify,
play and explain, and the studio ask it, and nothing else picks); an answer's ``stats.solver``
is its row's name.  :func:`decide` gives, for a board and a question, each row with the reason
it refuses (None where it serves); :func:`serves` and :func:`refusal` ask about one row.  The
reasons are the game's, in words a user can read (docs/how-it-works.md, "Which path answers",
shows the table).

The mechanisms are read from the rules' named properties (:attr:`~gridsolve.language.model.Rules.has_items`,
:attr:`~gridsolve.language.model.Rules.moved_by_rule`, :attr:`~gridsolve.language.model.Rules.conditions`, ...).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from typing import Callable

from ...compile.gamerules import factored_turns, live_ends
from ...compile.planning import Mode, Plan, plan_query
from ...compile.script import one_mover_script
from ...compile.state import Layout
from ...language.distance import board_cells
from ...language.model import Board
from ...language.kinds import QueryKind
from ...language.position import Query, unjudged_start
from .answer import Question

EVERY_POSITION = 20_000     # the own placements ground every position of the pieces at once: at most this many
START_LIMIT = 20_000        # generate's start graph ranks at most this many placements of the pieces at once


@dataclass(frozen=True)
class Ask:
    """A board and a question about it, as the table reads them: ``query`` (None for the graph
    builders, which read ``layout``: default the question's plan's), ``value_range`` where
    generate asks every start for a value range (a number, not a race's plies), and ``planned``:
    the question's plan where the caller has it (else planned here, once)."""

    board: Board
    query: Query | None = None
    layout: Layout | None = None
    value_range: bool = False
    planned: Plan | None = None

    @cached_property
    def plan(self) -> Plan:
        return self.planned if self.planned is not None else plan_query(self.board, self.query)

    @property
    def rules(self):
        return self.board.rules

    @property
    def positions_layout(self) -> Layout:
        return self.layout if self.layout is not None else self.plan.layout


@dataclass(frozen=True)
class Row:
    """One row of the table: its ``name`` (the answers' ``stats.solver`` where it is a solver),
    what it ``serves`` and ``refuses`` (for the docs), ``check``: the reason it refuses an
    :class:`Ask`, None where it serves it; and ``at_run``: what it must find at run time to
    serve a question its check lets through (None: nothing), asked of its solver by :func:`choose`."""

    name: str
    serves: str
    refuses: str
    check: Callable[[Ask], str | None]
    at_run: str | None = None


# - The checks (each returns the first reason it refuses, None where the path serves) ---

def _first(*reasons) -> str | None:
    """The first reason that holds: each is (condition, text), or a callable giving a reason (or
    a false value), called only when no reason before it holds."""
    for reason in reasons:
        found = reason() if callable(reason) else (reason[1] if reason[0] else None)
        if found:
            return found
    return None


HIDDEN_ONLY = "only --hidden questions (the robust game) are searched here"
NOT_HIDDEN = "--hidden asks the robust game: the hidden solver answers it"
STRATEGY = "--strategy: strategies are written by the compiled program"
SCRIPT = "pieces move by rule (an after_ply script)"
RACED = "the race solver answers it (the role's scores are fixed by the ends, its team moves alone)"
LAYERED = "it needs the layered solver (a score table or timeout entry, items counted, or a team moving at once with others)"


def _own_state(ask: Ask) -> str | None:
    """Refused where the positions keep a mechanism's state of its own (Position.plugins), which
    only the compiled rules (and the graphs ground from them) step."""
    found = ask.rules.own_state
    return f"the positions keep {', '.join(sorted(found))}, which only the compiled rules step" if found else None


def _race(ask: Ask) -> str | None:
    return _first((ask.query.strategy, STRATEGY), (ask.query.hidden, NOT_HIDDEN),
                  (ask.plan.mode is not Mode.RACE, LAYERED))


def _bounded(ask: Ask) -> str | None:
    rules, query = ask.rules, ask.query

    def collector_stays():
        if rules.collisions != "stay":
            return None
        collectors = {c.piece for c in rules.collect.values()}
        if any(rules.moves[p].idle or rules.moves[p].blocked == "stay" for p in collectors):
            return "with collisions: stay a collector may end a ply on its cell without moving there"
        return None

    conditions = [e.when for e in live_ends(ask.board)] + [t.when for t in rules.timeout_when]
    # (the plan last: the bounded search answers a race question too, refused only for RACED)
    return _first((query.strategy, STRATEGY), (query.hidden, NOT_HIDDEN), (not rules.has_items, "the game keeps no items"),
                  lambda: _own_state(ask),
                  (bool(ask.plan.split_team), "the role's team moves at once with others"),
                  (rules.moved_by_rule, SCRIPT),
                  (any(when.collected for when in conditions), "an end or timeout entry counts items"),
                  collector_stays, (ask.plan.mode is not Mode.LAYERED, RACED))


def _table(ask: Ask) -> str | None:
    return _first((ask.query.strategy, STRATEGY), (ask.query.hidden, NOT_HIDDEN),
                  (ask.plan.mode is not Mode.LAYERED, RACED),
                  (_bounded(ask) is None, "the bounded solver answers it (items kept, searched by threshold races)"))


def _hidden(ask: Ask) -> str | None:
    return _first((not ask.query.hidden, HIDDEN_ONLY), lambda: _own_state(ask))


def _robust_search(ask: Ask) -> str | None:
    rules, query = ask.rules, ask.query
    return _first((not query.hidden, HIDDEN_ONLY), (query.strategy, STRATEGY),
                  (rules.has_items, "the game keeps items"), lambda: _own_state(ask), (rules.moved_by_rule, SCRIPT),
                  (not rules.number_scores, "a score is a score table"),
                  (any(when.was_on or when.collected for when in rules.conditions),
                   "an end or timeout entry reads was_on or counts items"),
                  (any(query.role in (piece, other) for e in rules.ends for piece, other, _ in e.when.nearer),
                   f"an end measures {query.role}'s distance (nearer)"),
                  (any(len(movers) > 1 for movers in rules.turns if query.role in movers),
                   f"{query.role} moves at once with another role"))


def every_position_count(board: Board) -> int:
    """How many positions every placement of the pieces on distinct cells makes, with the side
    to move and the turns lost (each turns entry but the one to move may have lost up to the
    most a bump costs): what the own placements ground at once."""
    rules = board.rules
    lose = max((m.lose_turns for m in rules.moves.values() if m.bump_on), default=0)
    entries = len(rules.turns)
    return math.perm(len(board_cells(board)), len(rules.roles)) * entries * (lose + 1) ** (entries - 1)


def _own_placements(ask: Ask) -> str | None:
    rules, role = ask.rules, ask.query.role
    return _first(lambda: _robust_search(ask),
                  (every_position_count(ask.board) > EVERY_POSITION,
                   f"more than {EVERY_POSITION:,} positions of the pieces to ground at once"),
                  (any(len(movers) != 1 for movers in rules.turns), "roles move at once"),
                  (not all(role in (p, o) for t in rules.timeout_when for p, o, _ in t.when.nearer),
                   f"a timeout entry measures a distance that is not {role}'s"))


def _wall_graph(ask: Ask) -> str | None:
    rules = ask.rules
    return _first((ask.plan.mode is not Mode.RACE, LAYERED), lambda: _own_state(ask),
                  (any(e.when.nearer for e in rules.ends), "an end measures distances (nearer), which walls change"),
                  (rules.moved_by_rule, SCRIPT + ": a wall changes where they step"),
                  lambda: unjudged_start(ask.board, ask.query.position) and "the position is a start the rules do not judge")


def _live_graph(ask: Ask) -> str | None:
    # (the role is then one the race solver serves: a race plan for any kind is one for value or survive)
    return _first((ask.query.hidden, NOT_HIDDEN), (ask.query.strategy, STRATEGY), lambda: _wall_graph(ask))


def _studio_scripted(ask: Ask) -> str | None:
    query = ask.query
    return _first((query.hidden, NOT_HIDDEN), (query.strategy, STRATEGY), lambda: _own_state(ask),
                  (not one_mover_script(ask.rules), "no script after the one-step plies of one role alone"),
                  lambda: query.role not in race_roles(ask.board) and f"the race solver answers no question about {query.role}")


def _start_graph(ask: Ask) -> str | None:
    board = ask.board
    return _first((ask.value_range, "a value range is measured on each layout (the start graph ranks races)"),
                  lambda: _own_state(ask),
                  (math.perm(len(board_cells(board)), len(board.rules.roles)) > START_LIMIT,
                   f"more than {START_LIMIT:,} placements of the pieces"),
                  (ask.plan.mode is not Mode.RACE, LAYERED))


def _scripted_graph(ask: Ask) -> str | None:
    return _first(lambda: _own_state(ask), (not one_mover_script(ask.rules),
                   "no script after the one-step plies of one role alone (or items, bumps, was_on, a key each entry flips)"),
                  (ask.positions_layout.knows is not None, "the positions keep what the role knows"))


def _factored_graph(ask: Ask) -> str | None:
    if factored_turns(ask.board, ask.positions_layout) is None:
        return ("the positions keep more than the pieces' cells (lost turns, was_on, items, knowledge), pieces move "
                "by rule, or movers of one entry can cancel the ply (collisions: stay)")
    return None


def _everything(ask: Ask) -> None:
    return None


# - The table ---

RACE, BOUNDED, TABLE, ROBUST, HIDDEN, COMPILED = "race", "bounded", "layered table", "robust search", "hidden", "compiled"
SCRIPTED_GRAPH, FACTORED_GRAPH, GROUND_GRAPH = "scripted graph", "factored graph", "ground graph"
STUDIO_SCRIPTED, LIVE_GRAPH, WALL_GRAPH, START_GRAPH, OWN_PLACEMENTS = (
    "studio scripted", "live graph", "wall graph", "start graph", "own placements")

# The solvers of one question, in the order :func:`choose` tries them (the compiled program, last,
# serves every question).
SOLVERS = (
    Row(RACE, "questions whose role's scores the ends fix (or survive questions), its team moving alone: "
        "every mechanism, ranked on one game graph", "--strategy, --hidden, layered questions", _race),
    Row(BOUNDED, "layered questions of games that keep items, by threshold races",
        "no items, a team moving at once with others, pieces moved by rule, ends counting items, "
        "a collector that may stay with collisions: stay", _bounded),
    Row(TABLE, "the other layered questions: every answer read off one table per role",
        "--strategy, --hidden, race questions, what the bounded solver takes", _table,
        at_run="its table fits the memory limit (and, with a time limit, is ground in time); for solve's one "
               "question, the question looks to the end of the game (with a shorter horizon the compiled program "
               "grounds fewer positions)"),
    Row(ROBUST, "--hidden questions, exact at any number of plies (the role's knowledge searched)",
        "items, pieces moved by rule, score tables, was_on or item counts in ends, an end measuring the role's "
        "distance, the role moving at once with another", _robust_search),
    Row(HIDDEN, "every --hidden question the robust search does not take: the compiled robust game (deepened)",
        "questions without --hidden", _hidden),
    Row(COMPILED, "every question (the compiled program run by clingo)", "nothing", _everything),
)
# The race solver's graph builders, in the order the race graph tries them (the last serves every game).
GRAPH_BUILDERS = (
    Row(SCRIPTED_GRAPH, "the race solver's graph where one role moves one step and a script moves the rest, "
        "joined in arrays", "several turns entries or movers, items, bumps, was_on, a key each entry flips",
        _scripted_graph),
    Row(FACTORED_GRAPH, "the race solver's graph where each piece moves on its own, joined in arrays",
        "lost turns, was_on, items, knowledge, pieces moved by rule, collisions: stay with movers at once",
        _factored_graph),
    Row(GROUND_GRAPH, "the race solver's graph of every other game, ground by clingo", "nothing", _everything),
)
# The features' own graphs, each asked by its feature (the studio tries its two in this order).
FEATURE_GRAPHS = (
    Row(STUDIO_SCRIPTED, "the studio: a level whose pieces move by rule, answered in the request by the "
        "scripted graph", "--hidden, --strategy, scripts the scripted graph does not join, roles the race "
        "solver does not answer", _studio_scripted),
    Row(LIVE_GRAPH, "the studio: the wall graph kept and patched after each edit",
        "what the wall graph refuses, --hidden, --strategy", _live_graph),
    Row(WALL_GRAPH, "explain: every wall toggled on one game graph, for race questions",
        "layered questions, ends measuring distances, pieces moved by rule, an unjudged start", _wall_graph),
    Row(START_GRAPH, "generate: every placement of the pieces ranked at once, for win, lose and survive",
        "value ranges, more than 20,000 placements, layered questions", _start_graph),
    Row(OWN_PLACEMENTS, "play's advice: every placement of the role's own secret marks from one grounding",
        "what the robust search refuses, more than 20,000 positions, roles moving at once, a timeout entry "
        "measuring another's distance", _own_placements),
)
FAMILIES = {"solvers": SOLVERS, "graph builders": GRAPH_BUILDERS, "feature graphs": FEATURE_GRAPHS}
ROWS = {row.name: row for family in FAMILIES.values() for row in family}     # every row, each family in its order
ANSWERING = tuple(row.name for row in SOLVERS)      # the rows that answer one question, in order
STUDIO = (STUDIO_SCRIPTED, LIVE_GRAPH)                # what the studio answers in the request, else in a worker


# - The chooser ---

def choose(question: Question, among=ANSWERING, fits: Callable[[str], bool] | None = None
           ) -> str | None:
    """The name of the row that answers ``question``: the first of ``among`` (default: every
    solver), in the table's order, that serves it and, for a row whose service is decided at run
    time (its ``at_run``: the layered table's memory), that ``fits`` accepts (``fits(name)``:
    None accepts all); None where none serves it.  Every command that picks a path for a
    question asks here: ``solve()`` and the Asker (ask, verify, play, explain) among the solvers,
    the studio among :data:`STUDIO`."""
    ask = Ask(question.board, question.query, planned=question.plan)
    for name in ROWS:
        if name in among and ROWS[name].check(ask) is None and (
                fits is None or ROWS[name].at_run is None or fits(name)):
            return name
    return None


def race_roles(board: Board) -> dict[str, bool]:
    """The roles whose questions the race solver answers, each with whether its value is known
    (its scores are constants; else only its survive questions)."""
    out = {}
    for role in board.rules.roles:
        for kind in (QueryKind.VALUE, QueryKind.SURVIVE):
            plan = plan_query(board, Query(role, kind))
            if plan.mode is Mode.RACE:
                out[role] = plan.value
                break
    return out


@dataclass(frozen=True)
class Decision:
    """Each row asked with the reason it refuses the ask (None: it serves it), in the table's order."""

    ask: Ask
    verdicts: tuple[tuple[Row, str | None], ...]

    def reason(self, name: str) -> str | None:
        for row, reason in self.verdicts:
            if row.name == name:
                return reason
        raise KeyError(f"the row {name!r} was not decided here (give it in decide's names)")

    def serves(self, name: str) -> bool:
        return self.reason(name) is None

    @property
    def served(self) -> list[str]:
        """The names of the rows that serve the ask, in the table's order."""
        return [row.name for row, reason in self.verdicts if reason is None]


def decide(board: Board, query: Query | None = None, names=ANSWERING, layout: Layout | None = None,
           value_range: bool = False) -> Decision:
    """The rows ``names`` (default: the solvers) for ``query`` on ``board``, in the table's
    order, each with the reason it refuses (None where it serves)."""
    ask = Ask(board, query, layout, value_range)
    return Decision(ask, tuple((row, row.check(ask)) for row in ROWS.values() if row.name in names))


def refusal(name: str, board: Board, query: Query | None = None, layout: Layout | None = None,
            value_range: bool = False) -> str | None:
    """Why the row ``name`` does not serve ``query`` on ``board`` (None: it serves it)."""
    return ROWS[name].check(Ask(board, query, layout, value_range))


def serves(name: str, board: Board, query: Query | None = None, layout: Layout | None = None,
           value_range: bool = False) -> bool:
    """Whether the row ``name`` serves ``query`` on ``board`` (see :func:`refusal`)."""
    return refusal(name, board, query, layout, value_range) is None


def serves_question(name: str, question: Question) -> bool:
    """Whether the row ``name`` serves a solver's ``question`` (its plan made once, for every row asked)."""
    return ROWS[name].check(Ask(question.board, question.query, planned=question.plan)) is None
