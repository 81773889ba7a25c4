"""A ground normal program as a circuit evaluated for many inputs at once.

clingo grounds the program once, its inputs free (choice rules ``{a}.`` with no body, and
``#external`` atoms); :func:`ground_circuit` (or an :class:`Observer` registered by the caller)
reads the ground program through clingo's ground-program observer and :class:`Circuit`
evaluates it for a batch of inputs, 64 a machine word: every atom a row of bit words, the rules
in levels of the atoms' strongly connected components (an atom's level is one more than the
highest of the components it reads), each level one AND over each rule's body and one OR over
the rules of each head; a level with recursion (a component of several atoms, or an atom reading
itself) is repeated until nothing changes.  Negation must be stratified (a negated atom is always
of a lower level, so its row is final when read; else :class:`UnstratifiedError`).  A shown term
with a condition (``#show t : body.``) is a row of its own, true where its condition holds.

The levels are evaluated in C (``circuitkernel.c``) where the caller passes the kernel
(``kernel``: the extension module, loaded by :mod:`gridsolve.native`), else in numpy
(``reduceat``): the same rows.
"""
from __future__ import annotations

from dataclasses import dataclass

import clingo
import numpy as np

from ..errors import EncodingError
from .collector import collector_paused

ONES = np.uint64(0xFFFFFFFFFFFFFFFF)


class NotACircuit(EncodingError):
    """The ground program is not a plain circuit: weight rules, a choice rule with a body, a
    disjunction, or an input atom that rules derive."""


class UnstratifiedError(NotACircuit):
    """The ground program's negation is not stratified (the reader names the file)."""


CHECK_RULES = 512       # ground rules between two checks of a watch


class Stopped(Exception):
    """Raised inside clingo's grounding by a :class:`Watch` whose check failed: clingo aborts the
    grounding at a callback's exception; :func:`watched_ground` raises the check's own error."""


class Watch:
    """A ground-program observer (register it with ``ctl.register_observer``) that counts the
    ground rules as clingo emits them, while it grounds, and calls ``check(rules)`` every
    :data:`CHECK_RULES` of them: clingo's grounding cannot be interrupted from Python, but an
    exception in an observer's callback aborts it, so a check that raises (a limit's error)
    stops the grounding there (:func:`watched_ground`)."""

    def __init__(self, check=None):
        self.check = check
        self.count = 0
        self.error: BaseException | None = None

    def rule(self, choice, head, body):
        self.count += 1
        if self.check is not None and not self.count % CHECK_RULES:
            self._checked()

    def _checked(self):
        try:
            self.check(self.count)
        except Exception as exc:        # (kept, and clingo's grounding aborted by Stopped)
            self.stop(exc)

    def stop(self, error: BaseException):
        self.error = error
        raise Stopped(str(error))


def watched_ground(ctl, watch: Watch, ground, parts: list) -> None:
    """``ground(ctl, parts)`` (e.g. ``ctl.ground``) with ``watch`` registered on ``ctl``: where
    its check stopped the grounding, the check's error is raised."""
    try:
        ground(ctl, parts)
    except Exception:
        if watch.error is not None:
            raise watch.error from None
        raise
    if watch.error is not None:
        raise watch.error


class Observer(Watch):
    """The ground program as clingo hands it over (register it with ``ctl.register_observer``):
    its rules, its external atoms, its shown atoms' symbols and its shown terms' conditions;
    ``budget``: the most rules kept (more: the grounding stopped with a MemoryError), ``check``:
    a :class:`Watch`'s."""

    def __init__(self, budget: int | None = None, check=None):
        super().__init__(check)
        self.rules: list[tuple[bool, list[int], list[int]]] = []
        self.symbols: dict[clingo.Symbol, int] = {}     # 0: a fact
        self.terms: list[tuple[clingo.Symbol, list[int]]] = []
        self.externals: list[int] = []
        self.weights = 0
        self.budget = budget

    def rule(self, choice, head, body):
        rules = self.rules
        if self.budget is not None and len(rules) >= self.budget:
            self._overflowed(f"more than {self.budget:,} ground rules")
        try:
            rules.append((choice, list(head), list(body)))
        except MemoryError:
            self._overflowed("the ground rules do not fit in memory")
        if self.check is not None and not len(rules) % CHECK_RULES:
            self.count = len(rules)
            self._checked()

    def weight_rule(self, choice, head, lower_bound, body):
        self.weights += 1

    def output_atom(self, symbol, atom):
        try:
            self.symbols[symbol] = atom
        except MemoryError:
            self._overflowed("the ground atoms do not fit in memory")

    def output_term(self, symbol, condition):
        self.terms.append((symbol, list(condition)))

    def external(self, atom, value):
        self.externals.append(atom)

    def _overflowed(self, why: str):
        self.rules, self.symbols, self.terms = [], {}, []   # (the memory back before the error is raised)
        self.stop(MemoryError(why))


@dataclass
class _Level:
    lit_rows: np.ndarray        # the row of each body literal, rule after rule
    lit_neg: np.ndarray         # ONES where the literal is negated, else 0
    rule_starts: np.ndarray     # where each rule's literals start
    heads: np.ndarray           # the distinct heads' rows
    head_starts: np.ndarray     # where each head's rules start (the rules ordered by head)
    recursive: bool


def _components(n: int, deps: list[list[int]]) -> list[int]:
    """The strongly connected component of each of ``n`` nodes (Tarjan, iterative), numbered in
    an order where a component comes after every component it depends on."""
    index = [-1] * n
    low = [0] * n
    on_stack = [False] * n
    comp = [-1] * n
    stack: list[int] = []
    counter = 0
    found = 0
    for root in range(n):
        if index[root] >= 0:
            continue
        work = [(root, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack[node] = True
            children = deps[node]
            while i < len(children):
                child = children[i]
                if index[child] < 0:
                    work.append((node, i + 1))
                    work.append((child, 0))
                    break
                if on_stack[child]:
                    low[node] = min(low[node], index[child])
                i += 1
            else:
                if low[node] == index[node]:
                    while True:
                        top = stack.pop()
                        on_stack[top] = False
                        comp[top] = found
                        if top == node:
                            break
                    found += 1
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
    return comp


class Circuit:
    """A ground program's rules as levels over rows of bit words (see the module docstring):
    ``input_rows`` the rows of the free atoms, ``rows`` the row of every shown atom and term by
    symbol (facts: the row :attr:`true_row`; atoms no rule derives are not there: false),
    ``atom_rows`` the row of each program atom clingo numbered (``ctl.symbolic_atoms[...].literal``)."""

    def __init__(self, observer: Observer, kernel=None, check=None):
        """``check``: called (no arguments) between the stages of the building and every
        :data:`CHECK_RULES` rules read (a limit's error raised there stops it)."""
        check = check or (lambda: None)
        if observer.weights:
            raise NotACircuit("the ground program has weight rules (an aggregate): no circuit")
        atom_row: dict = {}

        def row(atom) -> int:
            found = atom_row.get(atom)
            if found is None:
                found = atom_row[atom] = len(atom_row) + 1      # (row 0: always true)
            return found

        def literals(body) -> list[int]:
            return [row(abs(lit)) * (1 if lit > 0 else -1) for lit in body]

        self.true_row = 0
        inputs, derived, facts = {row(a) for a in observer.externals}, [], set()
        wanted = {abs(lit) for _, _, body in observer.rules for lit in body}      # (a fact nothing reads nor
        wanted.update(observer.symbols.values())                                    # shows: no row)
        wanted.update(abs(lit) for _, condition in observer.terms for lit in condition)
        for number, (choice, head, body) in enumerate(observer.rules):
            if not number % CHECK_RULES:
                check()
            if choice:
                if body:
                    raise NotACircuit("a choice rule with a body in the ground program")
                inputs.update(row(a) for a in head)
            elif len(head) != 1:
                if not head:
                    continue        # (an integrity constraint: no circuit reads it)
                raise NotACircuit("a disjunctive rule in the ground program")
            elif not body:
                if head[0] in wanted:
                    facts.add(row(head[0]))
            else:
                derived.append((row(head[0]), literals(body)))
        for symbol, condition in observer.terms:        # (a shown term: a row of its own, one rule a condition)
            term = row(("term", symbol))
            if condition:
                derived.append((term, literals(condition)))
            else:
                facts.add(term)
        if inputs & (facts | {head for head, _ in derived}):
            raise NotACircuit("an input atom of the ground program is derived by its rules")
        self.size = len(atom_row) + 1
        rows = {symbol: (0 if atom == 0 else atom_row.get(atom, -1)) for symbol, atom in observer.symbols.items()}
        self.rows = {symbol: r for symbol, r in rows.items() if r >= 0}
        self.rows.update((key[1], r) for key, r in atom_row.items() if isinstance(key, tuple))
        self.atom_rows = {atom: r for atom, r in atom_row.items() if not isinstance(atom, tuple)}
        self.input_rows = inputs
        self.fact_rows = np.array(sorted(facts), dtype=np.int64)
        self.rule_count = len(derived) + len(facts)
        check()
        self.levels = self._levels(derived, check)
        self.kernel = kernel
        self._flat = None

    def _levels(self, derived, check) -> list[_Level]:
        deps: list[list[int]] = [[] for _ in range(self.size)]
        for head, body in derived:
            deps[head].extend(abs(lit) for lit in body)
        check()
        comp = _components(self.size, deps)
        check()
        level_of_comp: dict[int, int] = {}
        recursive_comp = set()
        for node in sorted(range(self.size), key=lambda node: comp[node]):    # (dependencies first)
            c = comp[node]
            top = level_of_comp.get(c, 1 if deps[node] else 0)
            for dep in deps[node]:
                if comp[dep] == c:
                    recursive_comp.add(c)
                else:
                    top = max(top, level_of_comp[comp[dep]] + 1)
            level_of_comp[c] = top
        level = [level_of_comp[comp[node]] for node in range(self.size)]
        for head, body in derived:
            if any(lit < 0 and comp[-lit] == comp[head] for lit in body):
                raise UnstratifiedError("an atom depends on itself through a not in the ground game")
        by_level: dict[int, list] = {}
        for head, body in derived:
            by_level.setdefault(level[head], []).append((head, body))
        levels = []
        for number in sorted(by_level):
            check()
            rules = sorted(by_level[number], key=lambda rule: rule[0])
            lits = [lit for _, body in rules for lit in body]
            lengths = np.array([len(body) for _, body in rules], dtype=np.int64)
            heads = np.array([head for head, _ in rules], dtype=np.int64)
            distinct, head_starts = np.unique(heads, return_index=True)
            rec = any(comp[head] in recursive_comp for head, _ in rules)
            levels.append(_Level(np.abs(np.array(lits, dtype=np.int64)),
                                 np.where(np.array(lits) < 0, ONES, np.uint64(0)).astype(np.uint64)[:, None],
                                 np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64),
                                 distinct.astype(np.int64), head_starts.astype(np.int64), rec))
        return levels

    def evaluate(self, given: np.ndarray, values: np.ndarray) -> np.ndarray:
        """Every atom's row for the inputs ``given`` (rows) set to ``values`` (len(given) × words
        uint64, a bit a case): an array of self.size rows × words."""
        words = values.shape[1]
        out = np.zeros((self.size, words), dtype=np.uint64)
        out[self.true_row] = ONES
        if len(self.fact_rows):
            out[self.fact_rows] = ONES
        out[np.asarray(given, dtype=np.int64)] = values
        if self.kernel is not None:
            self.kernel.evaluate(*self.flat(), out, words)
            return out
        for level in self.levels:
            while True:
                gathered = out[level.lit_rows] ^ level.lit_neg
                bodies = np.bitwise_and.reduceat(gathered, level.rule_starts, axis=0)
                heads = np.bitwise_or.reduceat(bodies, level.head_starts, axis=0)
                merged = heads | out[level.heads]
                if not level.recursive:
                    out[level.heads] = merged
                    break
                if np.array_equal(merged, out[level.heads]):
                    break
                out[level.heads] = merged
        return out

    def flat(self) -> tuple[np.ndarray, ...]:
        """The levels as the C kernel reads them: per level its first rule and whether it
        recurs (levels + 1 starts, int64; uint8), per rule its head row and its first literal
        (rules + 1 starts), per literal its row and whether it is negated (uint8)."""
        if self._flat is None:
            self._flat = _flat_arrays(self.levels)
        return self._flat

    def ordered(self) -> list[tuple[int, list[int]]] | None:
        """The rules (head row, body rows, negative where negated) in an order that decides
        every body atom before its rule, the facts first with empty bodies (row 0, always true,
        is no head); None where a level recurs (no such order)."""
        if any(level.recursive for level in self.levels):
            return None
        out = [(int(r), []) for r in self.fact_rows.tolist()]
        for level in self.levels:
            signed = np.where(level.lit_neg[:, 0] != 0, -level.lit_rows, level.lit_rows).tolist()
            bounds = level.rule_starts.tolist() + [len(level.lit_rows)]
            counts = np.diff(np.append(level.head_starts, len(level.rule_starts)))
            heads = np.repeat(level.heads, counts).tolist()
            out += [(head, signed[bounds[k]:bounds[k + 1]]) for k, head in enumerate(heads)]
        return out


def _flat_arrays(levels: list[_Level]) -> tuple[np.ndarray, ...]:
    """:meth:`Circuit.flat` of ``levels``."""
    level_start = np.zeros(len(levels) + 1, dtype=np.int64)
    rule_heads, rule_starts, lit_rows, lit_neg = [], [], [], []
    rules = lits = 0
    for k, level in enumerate(levels):
        counts = np.diff(np.append(level.head_starts, len(level.rule_starts)))
        rule_heads.append(np.repeat(level.heads, counts))
        rule_starts.append(level.rule_starts + lits)
        lit_rows.append(level.lit_rows)
        lit_neg.append((level.lit_neg[:, 0] != 0).astype(np.uint8))
        rules += len(level.rule_starts)
        lits += len(level.lit_rows)
        level_start[k + 1] = rules
    join = (lambda parts, dtype: np.ascontiguousarray(np.concatenate(parts), dtype=dtype) if parts
            else np.zeros(0, dtype=dtype))
    return (level_start, np.array([level.recursive for level in levels], dtype=np.uint8),
            join(rule_heads, np.int64), np.append(join(rule_starts, np.int64), lits).astype(np.int64),
            join(lit_rows, np.int64), join(lit_neg, np.uint8))


def ground_circuit(program: str, ground=None, budget: int | None = None, kernel=None, check=None,
                   building=None) -> Circuit:
    """The circuit of clingo program ``program`` (its inputs free atoms of choice rules and
    externals); ``ground``: called as ``ground(ctl, parts)`` in place of ``ctl.ground(parts)``
    (the limits' guard); ``budget``: the most ground rules (more: the grounding stopped, a
    MemoryError); ``check``: called with the rules ground so far while clingo grounds (its
    exception stops the grounding: :class:`Watch`); ``building``: the :class:`Circuit`'s check
    while it is built from the ground rules; ``kernel``: the C kernel (None: numpy)."""
    ctl = clingo.Control(["--warn=none"])
    observer = Observer(budget, check)
    ctl.register_observer(observer)
    try:
        ctl.add("base", [], program)
    except RuntimeError as exc:
        raise EncodingError(f"the translated game is not a clingo program ({exc})") from None
    with collector_paused():
        watched_ground(ctl, observer, ground or (lambda c, parts: c.ground(parts)), [("base", [])])
        return Circuit(observer, kernel, building)


def pack(bits: np.ndarray) -> np.ndarray:
    """Cases × columns bools as columns × words of 64 cases (uint64; bit b of word w: case 64w + b)."""
    cases, columns = bits.shape
    words = -(-max(cases, 1) // 64)
    full = np.zeros((words * 64, columns), dtype=bool)
    full[:cases] = bits
    full = full.reshape(words, 64, columns)
    out = np.zeros((words, columns), dtype=np.uint64)
    for bit in range(64):       # (64 shifts of words × columns: faster than packbits across the cases)
        out |= full[:, bit, :].astype(np.uint64) << np.uint64(bit)
    return np.ascontiguousarray(out.T)


def unpack(rows: np.ndarray, cases: int) -> np.ndarray:
    """Rows × words (uint64) as cases × rows bools (the inverse of :func:`pack`)."""
    if rows.shape[0] == 0:
        return np.zeros((cases, 0), dtype=bool)
    bits = np.unpackbits(np.ascontiguousarray(rows).view(np.uint8), axis=1, bitorder="little")
    return bits[:, :cases].T.astype(bool)
