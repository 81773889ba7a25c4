"""The generic engine: a game's one-ply rules ground once by clingo, evaluated as a circuit for
many states at once, and the states reachable from a root explored breadth-first.

1. **Domains.**  The rules without their negated literals, with ``true(F) :- init(F)``,
   ``true(F) :- next(F)`` (and the root's fluents) and ``does(R,M) :- legal(R,M)``, are a
   positive program: clingo grounds its one model, which holds every fluent a reachable state
   can hold and every move a role can make (an over-approximation: a negation dropped only
   derives more).
2. **One ply.**  The game's rules with ``{true(F)}`` and ``{does(R,M)}`` free over those domains
   are ground once (:func:`~gridsolve.ground.circuit.ground_circuit`); the circuit gives, for a
   batch of states, ``terminal``, ``goal``, ``legal`` (no moves given), and for a batch of
   (state, joint move) pairs the ``next`` fluents.
3. **Exploring.**  From the root, breadth-first: each frontier's states evaluated at once, their
   joint moves (every combination of the roles' legal moves) evaluated at once, each new state
   numbered as found.  The limits (:class:`~gridsolve.solve.common.limits.LimitGuard`) are
   checked after every batch: time and memory stop it with exit code 3 and the states reached.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import clingo
import numpy as np

from ..errors import BoardError, ConstantFluentsError, QueryError
from .. import native
from ..solve.common.limits import LimitGuard, format_bytes, resident
from ..ground.circuit import Circuit, UnstratifiedError, Watch, ground_circuit, pack, unpack, watched_ground
from .description import Description
from .kif import Term
from .demand import DemandPlan
from .forked import run_forked
from .projection import projected
from .translate import kif_symbol, mangle, symbol_kif, term_text
from ..compile.predicates import (GDL_DOES, GDL_FLUENT, GDL_GOAL, GDL_INIT, GDL_LEGAL, GDL_MOVE, GDL_NEXT, GDL_TERMINAL,
                                  GDL_TRUE)

SHOWN = "".join(f"#show {p.name}/{p.arity}.\n" for p in (GDL_TRUE, GDL_DOES, GDL_NEXT, GDL_LEGAL, GDL_GOAL,
                                                            GDL_TERMINAL, GDL_INIT))
BATCH = 4096        # (state, joint move) pairs evaluated at once
RULE_BYTES = 600    # a ground rule held by the observer and in the circuit, about (a budget: the memory limit)
CHECK_EVERY = 20_000     # states found between two checks of the limits by the C exploration
KEY_BYTES = 100     # a state's key and entry in the dict of states found, about (counted against the memory limit)


@dataclass
class GroundGame:
    """A game's one-ply circuit and what its rows mean: ``roles`` (file order), ``fluents``
    (the domain, a column each), ``moves[r]`` (role r's move domain), ``goals[r]`` ((value,
    row) pairs), the rows of ``terminal``, of each fluent's ``true`` and ``next``, and of
    each role's ``does`` and ``legal`` per move (-1: no such atom, false)."""

    path: str
    circuit: Circuit
    roles: list[clingo.Symbol]
    fluents: list[clingo.Symbol]
    moves: list[list[clingo.Symbol]]
    true_rows: np.ndarray
    next_rows: np.ndarray
    does_rows: list[np.ndarray]
    legal_rows: list[np.ndarray]
    goals: list[list[tuple[int, int]]]
    terminal_row: int
    init: np.ndarray                    # the initial state: a bool a fluent
    ground_s: float = 0.0
    column: dict = field(default_factory=dict)      # fluent symbol -> its column
    constant: set = field(default_factory=set)      # the constant fluents' relations (name, arity), clingo names
    constant_bits: np.ndarray | None = None         # the values of their columns the circuit was ground for

    @property
    def role_names(self) -> list[str]:
        return [symbol_kif(role) for role in self.roles]

    def state_of(self, fluents: list[Term]) -> np.ndarray:
        """The state (a bool a fluent) holding exactly the fluents ``fluents`` (``--at``); a
        :class:`~gridsolve.errors.ConstantFluentsError` where its constant fluents are not the
        ones the circuit was ground for."""
        bits = np.zeros(len(self.fluents), dtype=bool)
        other = False
        for term in fluents:
            symbol = kif_symbol(term)
            if symbol in self.column:
                bits[self.column[symbol]] = True
            elif (symbol.name, len(symbol.arguments)) in self.constant:
                other = True
            else:
                raise QueryError(f"--at: {term} is no fluent of {Path(self.path).name}",
                                 "name fluents the game's init or next rules derive")
        if other or not self.keeps_constants(bits):
            raise ConstantFluentsError(f"--at: the state's constant fluents are not those {Path(self.path).name} "
                                       "was ground for", "ground the game from that state")
        return bits

    def keeps_constants(self, bits: np.ndarray) -> bool:
        """Whether state ``bits`` holds the constant fluents the circuit was ground for."""
        return self.constant_bits is None or bool((bits[self.constant_columns] == self.constant_bits).all())

    @property
    def constant_columns(self) -> np.ndarray:
        return np.array([i for i, f in enumerate(self.fluents) if (f.name, len(f.arguments)) in self.constant],
                        dtype=np.int64)

    def fluent_texts(self, bits: np.ndarray) -> list[str]:
        return [symbol_kif(self.fluents[i]) for i in np.flatnonzero(bits)]


def _row(circuit: Circuit, symbol: clingo.Symbol) -> int:
    return circuit.rows.get(symbol, -1)


DOMAINS = "grounding the fluents' and moves' domains"
ONE_PLY = "grounding the one-ply rules"
TEXT_CHUNK = 20_000      # domain atoms read or written between two checks of the limits
KILL_GRACE = 1.0         # seconds past the time limit before a grounding in a forked child is killed


def grounding_check(guard: LimitGuard, stage: str):
    """The check a :class:`~gridsolve.ground.circuit.Watch` calls while clingo grounds ``stage``:
    the limits (time, memory), which stop the grounding with what it had ground so far."""
    return lambda count: guard.after(f"{stage} ({count:,} ground rules so far), 0 states reached")


def _domains(plan: DemandPlan, guard: LimitGuard, root: list[str] | None):
    """The fluents (what ``init`` and ``next`` derive), the moves and the demands' facts (text)
    of the domains' program of ``plan`` (positive but for negations of facts and constant
    fluents: clingo's grounding gives its one model).  Where there is a time limit, ground in a
    forked child (:func:`~gridsolve.gdl.forked.run_forked`) killed at the limit (a join can run
    long without deriving anything), itself watching the rules clingo emits."""
    if guard.limits.seconds is None:
        return _ground_domains(plan, guard, root)
    fluents, moves, demands = _forked(guard, DOMAINS, lambda: _as_text(_ground_domains(plan, guard, root)))
    parse = _parsing(guard, "fluents")      # (a symbol is a number of the process's own table: sent as text)
    fluents = [parse(text) for text in fluents]
    parse = _parsing(guard, "moves")
    return fluents, [(parse(role), parse(move)) for role, move in moves], demands


def _forked(guard: LimitGuard, stage: str, step):
    """``step()`` in a forked child (:func:`~gridsolve.gdl.forked.run_forked`), killed
    :data:`KILL_GRACE` past the time limit with the time limit's error for ``stage``."""
    deadline = guard.started + guard.limits.seconds + KILL_GRACE
    return run_forked(step, deadline,
                      lambda: guard.out_of_time(f"{stage} (stopped within clingo's grounding), 0 states reached"))


def _one_ply(program: str, guard: LimitGuard, budget: int) -> Circuit:
    """The circuit of the one-ply ``program``, its grounding watched (the limits, the rule
    budget) and its building checked.  Where there is a time limit, ground and build it in a
    forked child (:func:`_forked`) killed at the limit (a join that emits nothing leaves the watch
    uncalled: quad_5x5's), the circuit sent back with its rows' symbols as text."""
    kernel = native.load("circuitkernel", "gridsolve.ground")
    where = f"{ONE_PLY}, 0 states reached"

    def ground(kernel) -> Circuit:
        return ground_circuit(program, lambda ctl, parts: guard.ground(ctl, parts, where), budget=budget,
                              kernel=kernel, check=grounding_check(guard, ONE_PLY),
                              building=lambda: guard.after(f"after {ONE_PLY}, building its circuit, 0 states reached"))
    if guard.limits.seconds is None:
        return ground(kernel)

    def portable() -> tuple[Circuit, list[tuple[str, int]]]:
        circuit = ground(None)          # (a module is not pickled: the kernel set again here)
        rows, circuit.rows = [(str(symbol), r) for symbol, r in circuit.rows.items()], {}
        return circuit, rows
    circuit, rows = _forked(guard, ONE_PLY, portable)
    parse = _parsing(guard, "shown atoms", ONE_PLY)
    circuit.rows = {parse(text): r for text, r in rows}
    circuit.kernel = kernel
    return circuit


def _as_text(domains: tuple) -> tuple:
    fluents, moves, demands = domains
    return [str(f) for f in fluents], [(str(role), str(move)) for role, move in moves], demands


def _parsing(guard: LimitGuard, what: str, stage: str = DOMAINS):
    """``clingo.parse_term``, the limits checked every :data:`TEXT_CHUNK` terms parsed."""
    count = 0

    def parse(text: str) -> clingo.Symbol:
        nonlocal count
        count += 1
        if not count % TEXT_CHUNK:
            guard.after(f"after {stage}, reading its {what} ({count:,} so far), 0 states reached")
        return clingo.parse_term(text)
    return parse


def _ground_domains(plan: DemandPlan, guard: LimitGuard, root: list[str] | None):
    """:func:`_domains` in this process, the limits checked as clingo grounds (where there is a
    time limit: a watch of its rules, :class:`~gridsolve.ground.circuit.Watch`) and as its atoms are read."""
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], plan.domain_text(root))
    if guard.limits.seconds is None:        # (memory: the address space capped while it grounds)
        guard.ground(ctl, [("base", [])], f"{DOMAINS}, 0 states reached")
    else:
        watch = Watch(grounding_check(guard, DOMAINS))
        ctl.register_observer(watch)
        watched_ground(ctl, watch, lambda c, parts: guard.ground(c, parts, f"{DOMAINS}, 0 states reached"),
                       [("base", [])])
    guard.after(f"after {DOMAINS}, 0 states reached")
    atoms = ctl.symbolic_atoms
    fluents = [symbol.arguments[0] for symbol in _read_atoms(guard, atoms, [(GDL_TRUE.name, GDL_TRUE.arity)], "fluents")]
    moves = [tuple(symbol.arguments) for symbol in _read_atoms(guard, atoms, [(GDL_DOES.name, GDL_DOES.arity)], "moves")]
    fluents.sort()
    guard.after(f"after {DOMAINS}: {len(fluents):,} fluents sorted, 0 states reached")
    moves.sort()
    guard.after(f"after {DOMAINS}: {len(moves):,} moves sorted, 0 states reached")
    demands = "".join(f"{symbol}.\n" for symbol in _read_atoms(guard, atoms, plan.demands(), "demands"))
    return fluents, moves, demands


def _read_atoms(guard: LimitGuard, atoms, signatures, what: str) -> list[clingo.Symbol]:
    """The symbols of the atoms of ``signatures`` (name, arity) in ``atoms``, the limits checked
    every :data:`TEXT_CHUNK` of them."""
    found = []
    for name, arity in signatures:
        for atom in atoms.by_signature(name, arity):
            found.append(atom.symbol)
            if not len(found) % TEXT_CHUNK:
                guard.after(f"after {DOMAINS}, reading its {what} ({len(found):,} so far), 0 states reached")
    return found


def _facts_text(guard: LimitGuard, facts) -> str:
    """The lines of ``facts`` (texts, lazily), the limits checked every :data:`TEXT_CHUNK`."""
    parts, chunk = [], []
    for fact in facts:
        chunk.append(fact)
        if len(chunk) == TEXT_CHUNK:
            parts.append("\n".join(chunk) + "\n")
            chunk = []
            guard.after(f"writing the one-ply program, {TEXT_CHUNK * len(parts):,} domain facts written, "
                        "0 states reached")
    parts.append("\n".join(chunk) + "\n" if chunk else "")
    return "".join(parts)


def ground_game(description: Description, guard: LimitGuard, root: list[Term] | None = None) -> GroundGame:
    """The one-ply circuit of ``description``, for the states reachable from the initial state
    or, given, from the state of the fluents ``root``: every state any question asks about is
    one of its domain's (:meth:`GroundGame.state_of`) whose constant fluents are the root's
    (:mod:`~gridsolve.gdl.demand`).  The limits stop it at any stage: between them, while clingo
    grounds (a watch of the rules it emits), and before the one-ply grounding where its domains
    alone (a choice rule a fluent and a move) need more rules than the memory left holds."""
    started = time.perf_counter()
    root_text = None if root is None else [term_text(term) for term in root]
    plan = DemandPlan.of(projected(description))
    guard.after("after reading the rules, 0 states reached")
    fluents, moves, demands = _domains(plan, guard, root_text)
    roles = [kif_symbol(rule.head.args[0]) for rule in description.rules
             if rule.head.name == "role" and not rule.body and len(rule.head.args) == 1]
    if not roles:
        raise BoardError(description.path, None, "no (role ...) facts", "name each role with a fact (role name)")
    left = guard.limits.memory - max(0, resident() - guard.base)     # (the process may hold less than at the start)
    budget = max(10_000, left // RULE_BYTES)
    needed = (len(fluents) + len(moves)) * RULE_BYTES
    if needed > left:
        raise guard.error(f"{len(fluents):,} fluents and {len(moves):,} moves need about {format_bytes(needed)} "
                          f"for their ground rules alone (limit {format_bytes(guard.limits.memory)})",
                          f"by an estimate before {ONE_PLY}, 0 states reached", needed)
    program = (f"% {description.path}: {len(description.rules)} rules\n" + plan.ply_text() + demands
               + _facts_text(guard, (GDL_FLUENT.fact(f) for f in fluents))
               + _facts_text(guard, (GDL_MOVE.fact(r, m) for r, m in moves))
               + "{true(F)} :- zz_fluent(F).\n{does(R,M)} :- zz_move(R,M).\n" + SHOWN)
    where = f"{ONE_PLY}, 0 states reached"
    try:
        circuit = _one_ply(program, guard, budget)
    except MemoryError as exc:
        raise guard.error(f"the one-ply rules need more memory than is left ({exc})", where) from None
    except UnstratifiedError:
        raise BoardError(description.path, None, "negation is not stratified: a ground atom depends on itself "
                         "through a not", "GDL forbids recursion through not") from None
    guard.after(f"after {ONE_PLY}, 0 states reached")
    column = {f: i for i, f in enumerate(fluents)}
    true_rows = np.array([_row(circuit, GDL_TRUE.symbol(f)) for f in fluents], dtype=np.int64)
    next_rows = np.array([_row(circuit, GDL_NEXT.symbol(f)) for f in fluents], dtype=np.int64)
    per_role = [[m for r, m in moves if r == role] for role in roles]
    does_rows = [np.array([_row(circuit, GDL_DOES.symbol(role, m)) for m in ms], dtype=np.int64)
                 for role, ms in zip(roles, per_role)]
    legal_rows = [np.array([_row(circuit, GDL_LEGAL.symbol(role, m)) for m in ms], dtype=np.int64)
                  for role, ms in zip(roles, per_role)]
    goals, init = _goals_and_init(circuit, roles, column)
    game = GroundGame(description.path, circuit, roles, fluents, per_role, true_rows, next_rows, does_rows,
                      legal_rows, goals, _row(circuit, GDL_TERMINAL.symbol()), init,
                      time.perf_counter() - started, column, {(mangle(name), arity) for name, arity in plan.constant})
    if game.constant:
        game.constant_bits = (init if root is None else _bits(column, map(kif_symbol, root)))[game.constant_columns]
    guard.after(f"after {ONE_PLY}: its circuit read, 0 states reached")
    return game


def _bits(column: dict, symbols) -> np.ndarray:
    bits = np.zeros(len(column), dtype=bool)
    for symbol in symbols:
        bits[column[symbol]] = True
    return bits


def _goals_and_init(circuit: Circuit, roles: list[clingo.Symbol], column: dict) -> tuple[list, np.ndarray]:
    """Per role its (value, row) pairs of ``goal`` (ascending), and the initial state (a bool a
    fluent): one pass over the circuit's shown rows, reading a symbol's name once (each of
    clingo's symbol calls costs; on the small games of gdl2qbf these scans were a fifth of the
    grounding's time)."""
    which = {role: k for k, role in enumerate(roles)}
    goals: list[list[tuple[int, int]]] = [[] for _ in roles]
    init = np.zeros(len(column), dtype=bool)
    function = clingo.SymbolType.Function
    for symbol, r in circuit.rows.items():
        if symbol.type != function:
            continue
        name = symbol.name
        if name == GDL_GOAL.name and GDL_GOAL.matches(symbol):
            role, value = symbol.arguments
            if role in which and value.type == clingo.SymbolType.Number:
                goals[which[role]].append((value.number, r))
        elif name == GDL_INIT.name and GDL_INIT.matches(symbol):
            init[column[symbol.arguments[0]]] = True
    return [sorted(pairs) for pairs in goals], init


def _read(out: np.ndarray, rows: np.ndarray, cases: int) -> np.ndarray:
    """The bools of ``rows`` (-1: false) for each case: cases × len(rows)."""
    values = np.zeros((cases, len(rows)), dtype=bool)
    known = rows >= 0
    if known.any():
        values[:, known] = unpack(out[rows[known]], cases)
    return values


class PackedRows:
    """Rows of bits packed (np.packbits' order, a row of bytes each), of which columns ``start``
    to ``stop`` are read: a row or a slice of rows unpacked (a bool a column) when read.  The
    explored states (a column a fluent) and each role's legal moves (a column a move)."""

    def __init__(self, packed: np.ndarray, stop: int, start: int = 0):
        self.packed, self.start, self.stop = packed, start, stop

    @classmethod
    def of(cls, bits: np.ndarray) -> "PackedRows":
        return cls(np.packbits(bits, axis=1), bits.shape[1])

    @property
    def columns(self) -> int:
        return self.stop - self.start

    def __len__(self) -> int:
        return len(self.packed)

    def __getitem__(self, which) -> np.ndarray:
        return np.unpackbits(self.packed[which], axis=-1, count=self.stop)[..., self.start:].astype(bool)

    def __iter__(self):
        return (self[k] for k in range(len(self)))

    @property
    def nbytes(self) -> int:
        return self.packed.nbytes


@dataclass
class Explored:
    """The states reachable from the root (state 0), packed bits a state (a bool a fluent each
    when read: :class:`PackedRows`), and every joint move
    between them: ``src[i]`` to ``dst[i]`` by ``joint[i]`` (a row of :attr:`joints`: each
    role's move number); per state ``terminal`` and each role's ``goal`` (-1: none defined),
    and per state and role its legal moves (``legal[r]``: states × moves)."""

    states: PackedRows                  # a column a fluent
    terminal: np.ndarray
    goal: np.ndarray                    # states × roles
    legal: list[PackedRows]             # per role: a column a move
    src: np.ndarray
    dst: np.ndarray
    joint: np.ndarray
    joints: np.ndarray                  # joint moves × roles
    explore_s: float
    depth: int | None = None            # the steps explored (None: every reachable state)
    index: dict = field(default_factory=dict, repr=False)      # packed bits -> state

    @property
    def count(self) -> int:
        return len(self.states)

    def find(self, bits: np.ndarray) -> int:
        """The number of the state ``bits`` (-1: not reached; the index built on first use where
        the exploration gave none)."""
        if not self.index and self.count:
            self.index.update((row.tobytes(), k) for k, row in enumerate(self.states.packed))
        return self.index.get(np.packbits(bits[None, :], axis=1)[0].tobytes(), -1)


class _States:
    """The states found so far, numbered as found (a dict of their packed bits; their bits in
    one array that doubles as it fills)."""

    def __init__(self, width: int):
        self.index: dict[bytes, int] = {}
        self.bits = np.zeros((1024, width), dtype=bool)

    def add(self, bits: np.ndarray) -> np.ndarray:
        """The number of each row of ``bits`` (new ones numbered next, in the order of their first row)."""
        packed = np.ascontiguousarray(np.packbits(bits, axis=1))
        keys = packed.view(np.dtype((np.void, packed.shape[1]))).ravel()
        distinct, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        numbers = np.empty(len(distinct), dtype=np.int64)
        fresh = []
        for k in np.argsort(first, kind="stable").tolist():
            key = distinct[k].tobytes()
            found = self.index.get(key)
            if found is None:
                found = self.index[key] = len(self.index)
                fresh.append(first[k])
            numbers[k] = found
        if fresh:
            start, count = len(self.index) - len(fresh), len(self.index)
            if count > len(self.bits):
                grown = np.zeros((max(count, 2 * len(self.bits)), self.bits.shape[1]), dtype=bool)
                grown[:start] = self.bits[:start]
                self.bits = grown
            self.bits[start:count] = bits[np.array(fresh, dtype=np.int64)]
        return numbers[inverse.ravel()]

    def all(self) -> np.ndarray:
        """The bits of every state found (a view: valid until the next :meth:`add`)."""
        return self.bits[:len(self.index)]

    def nbytes(self) -> int:
        """The bytes the states hold, at the least: their bits and their keys in the dict."""
        return self.bits.nbytes + len(self.index) * KEY_BYTES


def judge_states(game: GroundGame, bits: np.ndarray):
    """terminal, goals (cases × roles, -1 none), legal (per role: cases × moves) of states ``bits``."""
    cases = len(bits)
    circuit = game.circuit
    given = game.true_rows
    out = circuit.evaluate(given[given >= 0], pack(bits[:, given >= 0]))
    terminal = (_read(out, np.array([game.terminal_row]), cases)[:, 0] if game.terminal_row >= 0
                else np.zeros(cases, dtype=bool))
    goal = np.full((cases, len(game.roles)), -1, dtype=np.int32)
    for r, pairs in enumerate(game.goals):
        if pairs:
            values = _read(out, np.array([row for _, row in pairs], dtype=np.int64), cases)
            for k, (value, _) in enumerate(pairs):      # (ascending: the highest defined wins)
                goal[values[:, k], r] = value
    legal = [_read(out, rows, cases) for rows in game.legal_rows]
    return terminal, goal, legal


def next_states(game: GroundGame, bits: np.ndarray, joints: np.ndarray) -> np.ndarray:
    """The next states (cases × fluents) of states ``bits`` under joint moves ``joints`` (cases × roles)."""
    cases = len(bits)
    given_true = game.true_rows >= 0
    does_cols, does_given = [], []
    for r, rows in enumerate(game.does_rows):
        chosen = np.zeros((cases, len(rows)), dtype=bool)
        chosen[np.arange(cases), joints[:, r]] = True
        keep = rows >= 0
        does_cols.append(chosen[:, keep])
        does_given.append(rows[keep])
    given = np.concatenate([game.true_rows[given_true], *does_given])
    values = np.concatenate([bits[:, given_true], *does_cols], axis=1)
    out = game.circuit.evaluate(given, pack(values))
    return _read(out, game.next_rows, cases)


def joint_moves(states: np.ndarray, legal: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Every joint move of each of ``states`` (rows of the ``legal`` matrices, one a role): the
    state of each and each role's move number (pairs × roles), state by state."""
    pair_state = states.astype(np.int64)
    chosen = np.zeros((len(pair_state), 0), dtype=np.int64)
    for part in legal:
        pair, move = np.nonzero(part[pair_state])
        pair_state = pair_state[pair]
        chosen = np.concatenate([chosen[pair], move[:, None].astype(np.int64)], axis=1)
    return pair_state, chosen


def explore(game: GroundGame, root: np.ndarray, guard: LimitGuard, depth: int | None = None) -> Explored:
    """Every state reachable from ``root`` and the joint moves between them (breadth-first);
    with ``depth``, only those within that many steps (the states found at the last step are
    judged, terminal and goals, but not expanded).  In one call of the circuit's C kernel
    where it was built (:func:`native_explore`), else batch by batch in numpy: the same states,
    numbered alike, and the same moves."""
    if game.circuit.kernel is not None:
        return native_explore(game, root, guard, depth)
    return numpy_explore(game, root, guard, depth)


def native_explore(game: GroundGame, root: np.ndarray, guard: LimitGuard, depth: int | None = None) -> Explored:
    """:func:`explore` by the kernel (``circuitkernel.explore``), the limits checked every
    :data:`CHECK_EVERY` states found."""
    started = time.perf_counter()
    circuit, roles = game.circuit, len(game.roles)
    buffers = kernel_buffers(game, root)
    move_start, weights = buffers[9], buffers[15]

    def check(count: int, held: int) -> None:
        guard.after(f"after {count:,} states reached", held=held)
    with guard.allocating("while exploring"):
        found = circuit.kernel.explore(*buffers, BATCH // 64, game.terminal_row, -1 if depth is None else depth,
                                       CHECK_EVERY, check)
    keys, terminal, goal, legal, src, dst, codes = (part or b"" for part in found)
    fluents, width = len(game.fluents), (len(game.fluents) + 7) // 8
    packed = np.frombuffer(keys, dtype=np.uint8).reshape(-1, width)
    count = len(packed)
    legal_all = np.frombuffer(legal, dtype=np.uint8).reshape(count, (int(move_start[-1]) + 7) // 8)
    where = f"after {count:,} states reached, joining their moves"
    guard.after(where, held=sum(len(part) for part in found if part))
    with guard.allocating(where):       # (the kernel's buffers read in place, not copied)
        joints, joint = _joint_numbers(game, np.frombuffer(codes, dtype=np.int64), weights)
        return Explored(PackedRows(packed, fluents), np.frombuffer(terminal, dtype=np.uint8).view(bool),
                        np.frombuffer(goal, dtype=np.int32).reshape(count, roles),
                        [PackedRows(legal_all, int(move_start[r + 1]), int(move_start[r])) for r in range(roles)],
                        np.frombuffer(src, dtype=np.int64), np.frombuffer(dst, dtype=np.int64),
                        joint, joints, time.perf_counter() - started, depth)


def kernel_buffers(game: GroundGame, root: np.ndarray) -> tuple:
    """The circuit and the game's rows as the kernel's explore and search read them: the
    circuit's levels (:meth:`Circuit.flat`), its facts' rows, each fluent's true and next rows,
    per role the start of its moves, each move's does and legal rows, per role the start of its
    goals, their rows and values (ascending), each role's weight in a joint move's code, the
    root (packed fluents) and the circuit's rows (one int64)."""
    circuit = game.circuit
    move_start = np.concatenate([[0], np.cumsum([len(rows) for rows in game.does_rows])]).astype(np.int64)
    goal_start = np.concatenate([[0], np.cumsum([len(pairs) for pairs in game.goals])]).astype(np.int64)
    goal_rows = np.array([row for pairs in game.goals for _, row in pairs], dtype=np.int64)
    goal_values = np.array([value for pairs in game.goals for value, _ in pairs], dtype=np.int64)
    join = (lambda parts: np.ascontiguousarray(np.concatenate(parts), dtype=np.int64) if parts else np.zeros(0, np.int64))
    return (*circuit.flat(), np.ascontiguousarray(circuit.fact_rows, dtype=np.int64),
            np.ascontiguousarray(game.true_rows, dtype=np.int64), np.ascontiguousarray(game.next_rows, dtype=np.int64),
            move_start, join(game.does_rows), join(game.legal_rows), goal_start, goal_rows, goal_values,
            _joint_weights(game), np.packbits(root.astype(bool)).tobytes(), np.array([circuit.size], dtype=np.int64))


def joint_of(game: GroundGame, code: int) -> tuple[int, ...]:
    """Each role's move number in the joint move numbered ``code`` (role 0's move the highest digit)."""
    joints, _ = _joint_numbers(game, np.array([code], dtype=np.int64), _joint_weights(game))
    return tuple(joints[0].tolist())


def numpy_explore(game: GroundGame, root: np.ndarray, guard: LimitGuard, depth: int | None = None) -> Explored:
    """:func:`explore` in numpy, batch by batch."""
    started = time.perf_counter()
    store = _States(len(game.fluents))
    store.add(root[None, :])
    terminal_parts, goal_parts = [], []
    legal_parts: list[list[np.ndarray]] = [[] for _ in game.roles]
    src_parts, dst_parts, joint_parts = [], [], []
    done, layer = 0, 0
    while done < len(store.index):
        frontier = np.arange(done, len(store.index))
        bits_all = store.all()
        for lo in range(0, len(frontier), BATCH):
            batch = frontier[lo:lo + BATCH]
            bits = bits_all[batch]
            terminal, goal, legal = judge_states(game, bits)
            terminal_parts.append(terminal)
            goal_parts.append(goal)
            for r, part in enumerate(legal):
                legal_parts[r].append(part)
            expand = ~terminal if depth is None or layer < depth else np.zeros(len(batch), dtype=bool)
            pair_state, chosen = joint_moves(np.flatnonzero(expand), legal)
            for plo in range(0, len(pair_state), BATCH):
                at = pair_state[plo:plo + BATCH]
                moves = chosen[plo:plo + BATCH]
                after = next_states(game, bits[at], moves)
                src_parts.append(batch[at])
                dst_parts.append(store.add(after))
                joint_parts.append(moves)
                guard.after(f"after {len(store.index):,} states reached", held=store.nbytes())
            guard.after(f"after {len(store.index):,} states reached", held=store.nbytes())
        done, layer = len(frontier) + done, layer + 1
    where = f"after {len(store.index):,} states reached, joining their moves"
    guard.after(where, held=store.nbytes())
    with guard.allocating(where):
        return _explored(game, store, terminal_parts, goal_parts, legal_parts, src_parts, dst_parts, joint_parts,
                         started, depth)


def _explored(game, store, terminal_parts, goal_parts, legal_parts, src_parts, dst_parts, joint_parts,
              started, depth) -> Explored:
    """The parts an exploration found joined into one :class:`Explored` (the distinct joint
    moves numbered in their order as rows, by one number each: role 0's move the highest digit)."""
    cat = (lambda parts, dtype: np.concatenate(parts).astype(dtype) if parts else np.zeros(0, dtype=dtype))
    chosen = np.concatenate(joint_parts) if joint_parts else np.zeros((0, len(game.roles)), dtype=np.int64)
    weights = _joint_weights(game)
    joints, joint = _joint_numbers(game, chosen @ weights, weights)
    return Explored(PackedRows.of(store.all()), cat(terminal_parts, bool),
                    np.concatenate(goal_parts) if goal_parts else np.zeros((0, len(game.roles)), np.int32),
                    [PackedRows.of(np.concatenate(parts)) for parts in legal_parts],
                    cat(src_parts, np.int64), cat(dst_parts, np.int64), joint, joints,
                    time.perf_counter() - started, depth, store.index)


def _joint_weights(game: GroundGame) -> np.ndarray:
    """Each role's weight in a joint move's number (role 0's move the highest digit)."""
    radix = np.array([max(1, len(ms)) for ms in game.moves], dtype=np.int64)
    return np.concatenate([np.cumprod(radix[::-1])[::-1][1:], [1]]).astype(np.int64)


def _joint_numbers(game: GroundGame, codes: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(the distinct joint moves, a row each in their order as rows; each move's row) of the
    joint moves numbered ``codes``."""
    radix = np.array([max(1, len(ms)) for ms in game.moves], dtype=np.int64)
    distinct, joint = np.unique(codes, return_inverse=True)
    return ((distinct[:, None] // weights) % radix).astype(np.int64), joint.ravel().astype(np.int64, copy=False)
