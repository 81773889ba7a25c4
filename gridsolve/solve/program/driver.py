"""The clingo driver: ground a compiled program part by part within the limits, solve it, and
read the model back into an :class:`~gridsolve.solve.common.answer.Answer`.

The race programs (encodings/solve.lp, answer.lp) are ground level by level until a level
decides nothing (:func:`ground_ranks`); the layered ones (encodings/layered.lp) depth by depth,
then their values and ranks a few plies left per call (:func:`ground_values`); the answer parts
along the principal line until it ends (:func:`ground_answer`).  :func:`read_answer` reads a
model, also one the race solver builds from its ranks (:mod:`gridsolve.solve.race.racesolver`).
"""
from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import clingo

from ...compile.planning import Mode
from ...compile.predicates import (DOOM_PLIES, GROWS, LAYERED_LINE, LAYERED_LINE_GOES_ON, LAYERED_LINE_STATE,
                                   LEVEL_DECIDES, LINE, LINE_ANSWER, LINE_GOES_ON, LINE_PLIES, LINE_STATE, PLIES, RCONV,
                                   STRAT, SURVIVES, VALUE, VCONV, WIN, WIN_PLIES, each_atom)
from ...errors import EncodingError
from ...compile.state import learned
from ...language.model import Board
from ...language.position import Position, Query
from ..common.answer import Answer, Ply, ProgramStats, SolveStats, hidden_move
from ..common.outcome import Outcome, read_answer as common_read_answer
from ..common.limits import LimitGuard, Limits, estimate_positions, format_bytes, graph_bytes, resident
from ...language.kinds import QueryKind

if TYPE_CHECKING:       # (the race solver reads its moves here without the compiler's module)
    from ...compile.compiler import Program


def format_move(term: clingo.Symbol) -> str:
    """``north`` for a one-step move, ``north east`` for the tuple (north,east), and so on;
    ``blinky north, inky west`` for the joint move ``j(mv(blinky,north),mv(inky,west))``."""
    if term.type == clingo.SymbolType.Function:
        if term.name == "" and term.arguments:
            return " ".join(format_move(arg) for arg in term.arguments)
        if term.name == "j":
            return ", ".join(f"{part.arguments[0]} {format_move(part.arguments[1])}" for part in term.arguments)
    return str(term)


PROBES = (VALUE, PLIES, WIN, WIN_PLIES, SURVIVES, DOOM_PLIES)
RACE_ANSWER = (*PROBES, LINE, LINE_STATE, STRAT)                      # what answer.lp shows
LAYERED_ANSWER = (*PROBES, LAYERED_LINE, LAYERED_LINE_STATE, LINE_ANSWER)   # what layered.lp shows
AT = clingo.Function("at")      # the probe of the position itself


@dataclass
class Model:
    """The shown atoms of a model, read by their declarations (:mod:`gridsolve.compile.predicates`),
    and which encoding showed them (``mode``): the race encodings' (answer.lp, :data:`RACE_ANSWER`)
    or layered.lp's (:data:`LAYERED_ANSWER`).  Both number the answer atoms by query:
    ``value(Q,P,V)``, ``win(Q,P)``, ... (layered.lp answers one query, numbered 0).  The
    principal line and the strategy differ: answer.lp shows ``line(Q,I,T,M)`` and
    ``strat(Q,S,M)``; layered.lp shows ``line(I,T,M)`` and the others' answers
    ``line_answer(I,M)``, and no strategy.  Both show the line's states (before each ply, and
    after the last): ``line_state(Q,I,S)``, layered.lp ``line_state(I,S)``."""

    mode: Mode = Mode.RACE
    atoms: dict = field(default_factory=dict)       # {predicate: [fields, ...]}

    def collect(self, symbols):
        for predicate, fields in each_atom(symbols, RACE_ANSWER if self.mode is Mode.RACE else LAYERED_ANSWER):
            self.atoms.setdefault(predicate, []).append(fields)

    def add(self, predicate, *values) -> None:
        """One atom of ``predicate`` with these fields (as :meth:`collect` reads them)."""
        self.atoms.setdefault(predicate, []).append(values)

    def of_query(self, predicate, number: int) -> dict:
        """{probe: rest of the fields} of the atoms ``name(number,P,...)`` (the probe ``at`` as text)."""
        return {("at" if probe == AT else probe): rest
                for query, probe, *rest in self.atoms.get(predicate, []) if query == number}

    def _numbered(self, predicate, number: int) -> list:
        """The fields after the query number of the atoms ``name(number,...)``."""
        return [fields[1:] for fields in self.atoms.get(predicate, []) if fields[0] == number]

    def line_moves(self, number: int) -> list:
        """(I, T, M) of each ply of query ``number``'s principal line."""
        if self.mode is Mode.LAYERED:
            return list(self.atoms.get(LAYERED_LINE, [])) if number == 0 else []
        return self._numbered(LINE, number)

    def line_states(self, number: int) -> dict:
        """{I: S}: the position term S before ply I of query ``number``'s line (and after its last)."""
        if self.mode is Mode.LAYERED:
            rows = self.atoms.get(LAYERED_LINE_STATE, []) if number == 0 else []
        else:
            rows = self._numbered(LINE_STATE, number)
        return dict(rows)

    def line_answers(self, number: int) -> list:
        """(I, M): the others' answer at ply I of the line, where the role's team moves first
        (layered.lp only; answer.lp's lines have one move a ply)."""
        if self.mode is Mode.LAYERED:
            return list(self.atoms.get(LINE_ANSWER, [])) if number == 0 else []
        return []

    def strategy(self, number: int) -> list:
        """(S, M): the strategy's move M in state S (answer.lp's ``strat``; layered.lp has none)."""
        return self._numbered(STRAT, number) if self.mode is Mode.RACE else []


def run_program(program: Program, board: Board, limits: Limits | None = None) -> Answer:
    """Ground and solve ``program``; every answer comes from the one model clingo computes.
    ``limits`` (default: :class:`Limits`) are checked before and while it is ground."""
    started = time.perf_counter()
    ctl = clingo.Control(["--warn=none", "--stats"])
    limits = limits or Limits()
    try:
        layered = {}
        if program.mode is Mode.LAYERED:
            layered = _ground_layers(ctl, program, limits, started)
            levels = layered.pop("depths")
        else:
            guard = race_limits(board, program.layout, [program.query.position], limits, started)
            levels = ground_ranks(ctl, program.base, program.levels, guard)
        parsed = time.perf_counter()
        ground_answer(ctl, program, 0 if program.mode is Mode.RACE else None)
    except RuntimeError as exc:
        raise EncodingError(f"clingo could not ground the program: {exc}") from exc
    grounded = time.perf_counter()
    model = Model(mode=program.mode)
    result = ctl.solve(on_model=lambda m: model.collect(m.symbols(shown=True)))
    solved = time.perf_counter()
    if not result.satisfiable:
        raise EncodingError("the program has no answer set (an encoding bug)")
    stats = ctl.statistics
    lp = stats["problem"]["lp"]
    timing = SolveStats(
        solver="compiled",
        answer_s=round(grounded - parsed, 4),
        ground_s=round(grounded - started, 4),
        solve_s=round(solved - grounded, 4),
        detail=ProgramStats(levels=levels, rank_s=round(parsed - started, 4), ground_rules=int(lp["rules"]),
                            ground_atoms=int(lp["atoms"]), choices=int(stats["solving"]["solvers"]["choices"]),
                            **layered),
    )
    return read_answer(model, program, board, timing)


def race_limits(board: Board, layout, roots: list, limits: Limits, started: float | None = None) -> LimitGuard:
    """The limit guard of a race solver's grounding from ``roots``: it ranks every position reachable
    from them, whatever the horizon, so the error suggests a smaller board or more memory."""
    def hint(needed: int | None) -> str:
        more = (f"raise --max-memory (to about {format_bytes(needed * 1.25)}) if the machine has it"
                if needed else "raise --max-memory if the machine has it")
        return (f"The race solver ranks every position reachable from the position asked about, whatever "
                f"the horizon: ask about a smaller board, or {more}")
    guard = LimitGuard(limits, "the positions reachable from the position asked about", hint, started,
                       smaller="ask about a smaller board")
    if not board.rules.script:      # (pieces moved by rule reach far fewer positions than any estimate)
        guard.before(estimate_positions(board, layout, roots), board, graph_bytes(board, layout))
    return guard


def ground_ranks(ctl: clingo.Control, base: str, levels: Sequence[str], guard: LimitGuard) -> int:
    """Ground the base part, then the level parts one call each until a level decides nothing;
    returns the levels ground.  ``guard`` is checked after each call, with the growth of the
    last level expected of the next one.

    The levels after that one would derive nothing, so the answer is the one of the
    single-shot program (what ``gridsolve compile`` prints); each level only reads ranks of
    earlier calls, so no atom is used before the call that defines it."""
    ctl.add("base", [], base)
    guard.ground(ctl, [("base", [])], "while grounding the game's positions")
    guard.after("after grounding the game's positions")
    before = resident_now = resident()
    for depth, text in enumerate(levels, 1):
        name = f"level_{depth}"
        ctl.add(name, [], text)
        guard.ground(ctl, [(name, [])], f"while ranking level {depth}")
        if not _is_fact(ctl, LEVEL_DECIDES, depth):
            return depth
        before, resident_now = resident_now, resident()
        guard.after(f"after ranking {depth} levels", max(0, resident_now - before))
    return len(levels)


VALUES_FACTOR = 3      # the values and ranks: about this many times the atoms of the explored positions
PROGRESS_AFTER = 2.0   # seconds before progress lines are reported
BYTES_PER_ATOM = 250   # resident memory per ground atom of the layered solver (160 to 330 measured)
LEVEL_CHUNK = 4        # value or rank parts per call: fewer calls, few parts ground past the last needed


class _LayeredGrounding:
    """The limits of one layered solve, checked as it is ground; reports progress."""

    def __init__(self, ctl: clingo.Control, program: Program, limits: Limits, started: float):
        self.ctl, self.program, self.limits, self.started = ctl, program, limits, started
        self.hint_plies = program.remaining
        self.memory = LimitGuard(limits, f"the positions within {program.remaining} plies",
                                 lambda needed: self._smaller(), started, smaller=self._smaller())

    def _smaller(self) -> str:
        program = self.program
        return (f"ask with a smaller horizon, e.g. --horizon {max(1, self.hint_plies)}" + (
            f", or ask --query survive (it does not need the {', '.join(c.name for c in program.layout.collect)})"
            if program.layout.collect and program.query.kind != QueryKind.SURVIVE else ""))

    def ground(self, name: str, text: str, where: str) -> None:
        """Ground one part, within the memory limit (see :meth:`gridsolve.solve.common.limits.LimitGuard.ground`)."""
        self.ctl.add(name, [], text)
        self.memory.ground(self.ctl, [(name, [])], where)

    def check(self, label: str, where: str, expected: int, hint_plies: int) -> None:
        """Report progress (``label``); stop when ``expected`` atoms, the memory they need or the
        time exceed the limits, saying ``where`` it got and which horizon to try."""
        self.hint_plies = hint_plies
        self.memory.smaller = self._smaller()
        atoms, elapsed = len(self.ctl.symbolic_atoms), time.perf_counter() - self.started
        if self.limits.progress and elapsed > PROGRESS_AFTER:
            self.limits.progress(f"{label}: {atoms:,} ground atoms, {elapsed:.1f} s")
        if expected <= self.limits.atoms:
            self.memory.after(f"after {where}", max(0, expected - atoms) * BYTES_PER_ATOM)
            return
        raise self.memory.out_of_time(f"after {where}") or self.memory.error(
            f"about {expected:,} ground atoms with the values (limit {self.limits.atoms:,})", f"after {where}")


def _ground_layers(ctl: clingo.Control, program: Program, limits: Limits, started: float,
                   ranks: bool = True) -> dict:
    """Ground the layered program (``ranks``: with the ranks): the positions depth by depth, one call each (a depth part
    negates the positions of earlier calls, so that each is stratified) until a depth meets no
    new position (the later depth parts are empty); then the values, the races and the ranks,
    a few plies left per call, until they repeat (the later parts derive nothing).  The
    limits are checked after each call, before a depth with the atoms it will add (the growth
    of the last one) and its values.  Returns the depths explored and the value and rank parts
    ground (the levels of plies left computed)."""
    grounding = _LayeredGrounding(ctl, program, limits, started)
    grounding.ground("base", program.base, "while grounding the game's facts")
    total = len(program.depths)
    k, atoms = 0, len(ctl.symbolic_atoms)
    while k < total:
        grounding.ground(f"depth_{k}", program.depths[k], f"while exploring {k} of {program.remaining} plies")
        k, before, atoms = k + 1, atoms, len(ctl.symbolic_atoms)
        goes_on = k < total and _is_fact(ctl, GROWS, k)
        growth = atoms / max(before, 1) if goes_on and k < program.remaining else 1.0   # depth Rm: no moves
        grounding.check(f"depth {k - 1}/{total - 1}", f"exploring {k - 1} of {program.remaining} plies",
                     int(atoms * growth * VALUES_FACTOR), k - 1)
        if not goes_on:
            break
    values = _ground_levels(grounding, program.values, "value", VCONV)
    grounding.ground("races", program.races, "while grounding the races")
    if not ranks:
        return {"depths": k, "value_levels": values}
    ranks = _ground_levels(grounding, program.ranks, "rank", RCONV)
    grounding.ground("lookup", program.lookup, "while grounding the ranks' lookup")
    return {"depths": k, "value_levels": values, "rank_levels": ranks}


def ground_values(ctl: clingo.Control, program: Program, limits: Limits | None = None) -> dict:
    """Ground a layered program's positions and values only (no ranks, no answer parts): every
    position's value is then a fact ``lval``/``pval`` of ``ctl``'s symbolic atoms."""
    return _ground_layers(ctl, program, limits or Limits(), time.perf_counter(), ranks=False)


def _ground_levels(grounding: _LayeredGrounding, parts: list[str], name: str, stop) -> int:
    """Ground the parts r = 0, 1, ... a chunk per call until ``stop(r)`` holds: the later parts
    would derive nothing.  Returns the number of levels computed (r = 0..stop)."""
    r, ctl = 0, grounding.ctl
    while r < len(parts):
        chunk = parts[r:r + LEVEL_CHUNK]
        grounding.ground(f"{name}_{r}", "\n".join(chunk), f"while computing the {name}s with up to {r + len(chunk) - 1} plies left")
        r += len(chunk)
        grounding.check(f"{name}s, up to {r - 1} plies left", f"the {name}s with up to {r - 1} plies left",
                     len(ctl.symbolic_atoms), grounding.program.remaining - 1)
        for j in range(r - len(chunk), r):
            if _is_fact(ctl, stop, j):
                return j + 1
    return r


def _is_fact(ctl: clingo.Control, predicate, *values) -> bool:
    """The atom of ``predicate`` with these fields is a fact of ``ctl``'s ground program."""
    atom = ctl.symbolic_atoms[predicate.symbol(*values)]
    return atom is not None and atom.is_fact


LINE_CHUNK = 10   # line parts ground per call past the expected end of the line


def ground_answer(ctl: clingo.Control, program: Program, number: int | None) -> None:
    """Ground the answer parts along the principal line until the line has ended (the later
    parts are empty), then the strategy part when one is asked for.  Part 0 comes first: where
    it forces an end in D plies, the line ends there, so parts 1..D follow in one call (else
    parts 1..remaining); should the line still go on, a chunk per call.  ``number`` is the
    query number of the race solver's parts (``line_goes_on(Q,I)``, ``plies(Q,I,P,D)``), None
    for the layered solver's (``line_goes_on(I)``, ``plies(I,P,D)``)."""
    def goes_on(i: int) -> bool:
        return _is_fact(ctl, LAYERED_LINE_GOES_ON, i) if number is None else _is_fact(ctl, LINE_GOES_ON, number, i)

    def ground(first: int, last: int) -> None:
        name = f"line_{number}_{first}"
        ctl.add(name, [], "\n".join(program.lines[first:last + 1]))
        ctl.ground([(name, [])])

    total = len(program.lines)
    ground(0, 0)
    last = 0
    if goes_on(0) and total > 1:
        end = _forced_plies(ctl, number)
        last = min(total - 1, end if end is not None else total - 1)
        ground(1, last)
        while goes_on(last) and last < total - 1:
            first, last = last + 1, min(total - 1, last + LINE_CHUNK)
            ground(first, last)
    if program.strategy:
        name = f"strategy_{number}"
        ctl.add(name, [], program.strategy)
        ctl.ground([(name, [])])


def _forced_plies(ctl: clingo.Control, number: int | None) -> int | None:
    """D of ``plies(Q,0,at,D)`` (layered.lp, ``number`` None: ``plies(0,at,D)``): the plies to
    the end forced at line state 0 of query ``number``, if any."""
    atoms = ctl.symbolic_atoms
    rows = (PLIES.ground(atoms) if number is None
            else [row[1:] for row in LINE_PLIES.ground(atoms) if row[0] == number])
    return next((d for i, probe, d in rows if i == 0 and probe == AT), None)


def _opt_number(value):
    return value[0] if value else None


def read_answer(model: Model, program: Program, board: Board, stats: SolveStats, number: int = 0) -> Answer:
    """The answer to query ``number`` of ``program`` in clingo's model."""
    query: Query = program.query
    values, plies, wins, win_plies, survives, doom = (model.of_query(predicate, number) for predicate in PROBES)
    known = program.value_known
    if known and "at" not in values:
        raise EncodingError("clingo's answer has no value for the query position")

    def outcome(probe) -> Outcome:
        return Outcome(values[probe][0] if known else None, _opt_number(plies.get(probe)),
                       (probe in wins) if known else None, _opt_number(win_plies.get(probe)), probe in survives,
                       _opt_number(doom.get(probe)))
    probes = values if known else survives_or_doom(survives, doom)
    moves = [(format_move(probe), outcome(probe)) for probe in probes if probe != "at"]
    strategy = None
    if query.strategy:
        strategy = [{"position": program.layout.position(s, board, 0).as_dict(board, strategy=True),
                     "move": format_move(m)} for s, m in model.strategy(number)]
        strategy.sort(key=lambda e: str(e["position"]))
    return common_read_answer(board, query, outcome("at"), moves, _read_line(model, program, board, number),
                              program.remaining, stats, strategy)


def survives_or_doom(survives: dict, doom: dict) -> list:
    """The probes of a survive question answered without values."""
    return list(dict.fromkeys([*survives, *doom]))


def _read_line(model: Model, program: Program, board: Board, number: int) -> tuple[Ply, ...]:
    """The principal line, with the positions read off its states; a ply where the role's team
    commits first and the others answer is one entry with the joint move."""
    rules, layout = board.rules, program.layout
    answers = dict(model.line_answers(number))
    states = model.line_states(number)
    line, before = [], program.query.position
    for ply, turn, played in sorted(model.line_moves(number), key=lambda a: a[0]):
        move = format_move(played)
        if ply in answers and layout.knows is not None:
            move = hidden_move(move, answers[ply].name)
        elif ply in answers:
            team = [r for r in rules.turns[turn] if r in program.plan_team]
            others = [r for r in rules.turns[turn] if r not in program.plan_team]
            first = move if len(team) > 1 else f"{team[0]} {move}"
            second = format_move(answers[ply])
            second = second if len(others) > 1 else f"{others[0]} {second}"
            move = f"{first}, {second}"
        after = position_after(board, layout, before, states[ply], states[ply + 1], rules.turns[turn])
        line.append(Ply(ply, tuple(rules.turns[turn]), move, before, after))
        before = after
    return tuple(line)


def position_after(board: Board, layout, before: Position, state, state_after, movers) -> Position:
    """The position of ``state_after``, the line state a ply after ``state`` (at ``before``):
    with the items a layout without them leaves out (a collector takes the item where its move
    ends) and, in a ``--hidden`` question, with what the role knows."""
    after = layout.position(state_after, board, before.step + 1)
    rules = board.rules
    kept = {item.name for item in layout.collect}
    if any(name not in kept for name in rules.collect):
        left = {**before.items_left(board), **dict(after.items or ())}
        for name, collect in rules.collect.items():
            if name not in kept and collect.piece in movers:
                left[name] = left[name] - {after.cell(collect.piece)}
        after = replace(after, items=tuple((name, frozenset(left[name])) for name in rules.collect))
    if layout.knows is None:
        return after
    was, now = (layout.decode([a.number for a in s.arguments], board) for s in (state, state_after))
    found = layout.knows.newly_found(was["found_cells"], was["used"], now["found_cells"], now["used"])
    return learned(before, after, layout.knows.role, found)
