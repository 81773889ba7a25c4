"""The per-cell tables of a game with an ``after_ply`` script (:mod:`.scripted`), ground once per
rule set and board size and kept across the boards of a process.

Boards of one rule set and size share everything in the tables' program but their walls, gates
and marks (the pieces are not in it).  The first boards of a kind (:data:`BUILD_AFTER`) are
ground as they are; then clingo grounds the program once more with every interior wall, gate and mark cell as
an external atom (as the 2007 layout judge does, :mod:`gridsolve.generate.layoutjudge`): its
ground rules are then a circuit from the walls, gates and marks to every shown table row, and
each later board evaluates that circuit in numpy, layer by layer, with its walls, gates and
marks as the inputs (0.1 to 0.2 ms instead of a ground call of 5 to 10 ms).  The program is stratified, so its one
model with those externals true is the model of the board's own program: the same rows.
``tests/test_sharedtables.py`` checks them equal on random classic boards of both rule sets and
every size.  A board with something outside the inputs (a solid cell, a wall on the border) or a
program whose ground rules are not such a circuit (choices, aggregates, cycles) is ground as it is.
"""
from __future__ import annotations

from array import array
from collections import OrderedDict

import clingo
import numpy as np

from ...compile.facts import mechanism_facts, rule_facts
from ...compile.gameprogram import GameProgram, board_externals
from ...compile.predicates import DIM
from ...language.model import Board
from ..common.limits import LimitGuard
from .codec import distinct
from .factored import ground_rows

AXES = {"horizontal": 0, "vertical": 1}
MAX_CELLS = 256         # larger boards are ground one by one (the circuit grows with the cells)
KEPT = 24               # circuits kept in a process (least recently used dropped first)
BUILD_AFTER = 8         # boards of a kind ground one by one before its circuit is built (building
                        # costs about 8 to 13 of their ground calls: a few boards are ground faster)


def table_program(board: Board, layout, facts: str | None) -> str:
    """The program whose shown atoms are the tables (``facts``: the board facts, None: the board's own): the role's
    moves ``tm/7``, gate crossings ``tg/4``, chaser steps ``tc/8``, key cells ``tk/2``, marks ``tx/3``,
    distances to marks ``td/5`` (for ``nearer``)."""
    rules = board.rules
    role = rules.turns[0][0]
    return GameProgram(board, layout, board_text=facts, shown=[
                      "#show.", f"#show tm(M,X,Y,AX,AY,PX,PY) : rmove({role},X,Y,M,AX,AY,PX,PY,_).",
                      "#show tg(X,Y,X2,Y2) : gate_cross(X,Y,X2,Y2).",
                      *[f"#show tc({number},X,Y,SX,SY,G,X2,Y2) : chase({axis},X,Y,SX,SY,G,X2,Y2)."
                        for axis, number in AXES.items()],
                      "#show tk(X,Y) : key_cell(X,Y).", "#show tx(K,X,Y) : mark(K,X,Y).",
                      "#show td(P,K,X,Y,D) : distance(P,K,X,Y,D)."]).text(rules=False)


def table_rows(board: Board, layout, guard: LimitGuard | None = None) -> dict[int, np.ndarray]:
    """The tables' shown rows of ``board`` by arity (raw clingo symbols, one row an atom): from
    the shared circuit of its kind where one serves, else from a ground call of its own."""
    shared = _SHARED.rows(board, layout)
    if shared is not None:
        return shared
    by_arity: dict[int, list] = {}
    program = table_program(board, layout, None)
    for row in ground_rows(program, guard, "the tables of the game's pieces", "the game's tables"):
        by_arity.setdefault(len(row), []).append(row)
    return {arity: np.array(rows, dtype=np.uint64).reshape(-1, arity) for arity, rows in by_arity.items()}


# - The inputs: walls, gates and marks ---

def _mark_names(board: Board) -> tuple[str, ...]:
    """The marks a board of this rule set may have: the board's and the rule set's optional ones."""
    rules = board.rules
    pieces = set(rules.roles) | set(rules.chasers)
    return tuple(sorted(set(board.marks) | {name for name in rules.optional if name not in pieces}))


def _inputs(width: int, height: int, marks: tuple[str, ...]) -> list[tuple]:
    """Every external atom: interior walls and gates, then every cell of each mark."""
    north = [(x, y) for x in range(1, width + 1) for y in range(1, height)]
    east = [(x, y) for x in range(1, width) for y in range(1, height + 1)]
    return ([("wall_north", c) for c in north] + [("wall_east", c) for c in east]
            + [("gate_north", c) for c in north] + [("gate_east", c) for c in east]
            + [("mark", (name, x, y)) for name in marks for x in range(1, width + 1) for y in range(1, height + 1)])


def _board_inputs(board: Board) -> list[tuple]:
    out = [("wall_north", c) for c in board.north] + [("wall_east", c) for c in board.east]
    out += [("gate_north", c) for c in board.gate_north] + [("gate_east", c) for c in board.gate_east]
    return out + [("mark", (name, x, y)) for name, cells in board.marks.items() for x, y in cells]


class _Observer:
    """clingo's ground rules and shown terms (its observer interface), kept flat: a rule's head,
    its body's length and literals in arrays (a Python list a rule cost about ten times the
    memory of these, and the largest circuits have some 20,000 rules)."""

    def __init__(self):
        self.heads, self.sizes, self.lits = array("q"), array("q"), array("q")
        self.shown: list[clingo.Symbol] = []
        self.shown_sizes, self.shown_lits = array("q"), array("q")
        self.other = 0

    def rule(self, choice: bool, head, body) -> None:
        if choice or len(head) != 1:
            self.other += 1
        else:
            self.heads.append(head[0])
            self.sizes.append(len(body))
            self.lits.extend(body)

    def weight_rule(self, choice, head, lower, body) -> None:
        self.other += 1

    def output_atom(self, symbol: clingo.Symbol, atom: int) -> None:
        self.output_term(symbol, [atom] if atom else [])

    def output_term(self, symbol: clingo.Symbol, condition) -> None:
        self.shown.append(symbol)
        self.shown_sizes.append(len(condition))
        self.shown_lits.extend(condition)


def _flat(values: array) -> np.ndarray:
    return np.frombuffer(values, dtype=np.int64) if len(values) else np.zeros(0, dtype=np.int64)


def _conjunctions(sizes: np.ndarray, lits: np.ndarray, picked: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The body literals of the non-empty conjunctions ``picked`` (of those with ``sizes``, their
    literals one after another in ``lits``) as arrays: atoms, negated, segment starts."""
    ends = np.cumsum(sizes)
    lengths = sizes[picked]
    starts = np.cumsum(lengths) - lengths
    chosen = lits[np.repeat(ends[picked] - lengths - starts, lengths) + np.arange(lengths.sum())]
    return np.abs(chosen), chosen < 0, starts


class Circuit:
    """The ground rules of a kind's table program with the walls, gates and marks external, in
    layers (each rule's body atoms are decided in earlier layers), and its shown rows."""

    def __init__(self, board: Board, layout, marks: tuple[str, ...]):
        self.width, self.height = width, height = board.width, board.height
        self.inputs = _inputs(width, height, marks)
        self.slot = {key: i for i, key in enumerate(self.inputs)}
        self.served = False
        observer, atoms = _ground_circuit(board, layout, marks, self.inputs)
        if atoms is None:
            return
        self.input_atoms = atoms
        heads, sizes, lits = _flat(observer.heads), _flat(observer.sizes), _flat(observer.lits)
        layer = layer_numbers(heads, sizes, lits) if not observer.other and not np.isin(atoms, heads).any() else None
        if layer is None:
            return
        shown_sizes, shown_lits = _flat(observer.shown_sizes), _flat(observer.shown_lits)
        natoms = 1 + int(max(heads.max(initial=0), np.abs(lits).max(initial=0), atoms.max(initial=0),
                             np.abs(shown_lits).max(initial=0)))
        self.initial = np.zeros(natoms, dtype=bool)
        self.initial[heads[sizes == 0]] = True
        self.layers = []
        for depth in range(int(layer.max(initial=-1)) + 1):
            picked = np.flatnonzero((layer == depth) & (sizes > 0))
            if len(picked):
                self.layers.append((heads[picked], *_conjunctions(sizes, lits, picked)))
        arity = np.array([len(symbol.arguments) for symbol in observer.shown], dtype=np.int64)
        self.shown = {}
        for size in distinct(arity).tolist():
            picked = np.flatnonzero(arity == size)
            args = np.array([[a._rep for a in observer.shown[k].arguments] for k in picked.tolist()],
                            dtype=np.uint64).reshape(-1, size)
            always = shown_sizes[picked] == 0
            conditioned = picked[~always]
            self.shown[size] = (args, always, *(_conjunctions(shown_sizes, shown_lits, conditioned)
                                                if len(conditioned) else (None,) * 3))
        self.served = True

    def rows(self, board: Board) -> dict[int, np.ndarray] | None:
        """The shown rows of ``board`` (None: it has a wall, gate or mark outside the inputs)."""
        on = np.zeros(len(self.inputs), dtype=bool)
        slot = self.slot
        for key in _board_inputs(board):
            where = slot.get(key)
            if where is None:
                return None
            on[where] = True
        value = self.initial.copy()
        value[self.input_atoms] = on
        for heads, atoms, negated, starts in self.layers:
            holds = np.logical_and.reduceat(value[atoms] != negated, starts)
            value[heads[holds]] = True
        out = {}
        for arity, (args, always, atoms, negated, starts) in self.shown.items():
            keep = always.copy()
            if atoms is not None:
                keep[~always] = np.logical_and.reduceat(value[atoms] != negated, starts)
            out[arity] = args[keep]
        return out


def _ground_circuit(board: Board, layout, marks: tuple[str, ...], inputs: list[tuple]) -> tuple:
    """clingo's ground rules of the kind's table program with every input external (the
    observer), and the inputs' atoms (None where clingo decided one: no circuit).  The grounding
    itself is let go here, before the rules are put in layers."""
    width, height = board.width, board.height
    facts = [DIM.fact(width, height), *board_externals(width, height, marks)]
    observer = _Observer()
    ctl = clingo.Control(["--warn=none"])
    ctl.register_observer(observer)
    ctl.add("base", [], table_program(board, layout, "\n".join(facts)))
    ctl.ground([("base", [])])
    atoms = []
    for name, args in inputs:
        values = args if name != "mark" else (clingo.Function(args[0]), *args[1:])
        found = ctl.symbolic_atoms[clingo.Function(name, [v if isinstance(v, clingo.Symbol) else clingo.Number(v)
                                                          for v in values])]
        if found is None or found.is_fact:
            return observer, None
        atoms.append(found.literal)
    return observer, np.array(atoms, dtype=np.int64)


def layer_numbers(heads: np.ndarray, sizes: np.ndarray, lits: np.ndarray) -> np.ndarray | None:
    """The layer of each ground rule (rule k: head ``heads[k]``, body literals the next
    ``sizes[k]`` of ``lits``): 0 where no rule defines a body atom, else one more than the
    last layer of the rules that define its body atoms, so that every body atom is decided
    before the rule; None where the rules have a cycle."""
    count = len(heads)
    atoms = np.abs(lits)
    natoms = 1 + int(max(heads.max(initial=0), atoms.max(initial=0)))
    left = np.bincount(heads, minlength=natoms)             # rules of each atom not yet placed
    rule = np.repeat(np.arange(count), sizes)
    defined = left[atoms] > 0
    pairs = distinct(atoms[defined] * count + rule[defined])  # (body atom, rule) once, by atom
    users, by = pairs % count, pairs // count
    first = np.zeros(natoms + 1, dtype=np.int64)            # the users of atom a: users[first[a]:first[a + 1]]
    np.cumsum(np.bincount(by, minlength=natoms), out=first[1:])
    waiting = np.bincount(users, minlength=count)           # body atoms of each rule not yet decided
    layer = np.full(count, -1, dtype=np.int64)
    ready, depth = np.flatnonzero(waiting == 0), 0
    while len(ready):
        layer[ready] = depth
        placed = heads[ready]
        np.subtract.at(left, placed, 1)
        done = distinct(placed[left[placed] == 0])
        lengths = first[done + 1] - first[done]
        woken = users[np.repeat(first[done] - np.cumsum(lengths) + lengths, lengths) + np.arange(lengths.sum())]
        np.subtract.at(waiting, woken, 1)
        ready, depth = distinct(woken[waiting[woken] == 0]), depth + 1
    return None if (layer < 0).any() else layer


def rule_layers(rules: list[tuple[int, list[int]]]) -> list[list[int]] | None:
    """The ground rules ``(head, body literals)`` in layers, by index (:func:`layer_numbers`:
    every rule of a body atom stands in an earlier layer than the rules that use it, facts in
    the first); None where the rules have a cycle.  (The 2007 layout judge orders its circuit by
    it.)"""
    heads = np.array([head for head, _ in rules], dtype=np.int64)
    sizes = np.array([len(body) for _, body in rules], dtype=np.int64)
    lits = np.array([lit for _, body in rules for lit in body], dtype=np.int64)
    layer = layer_numbers(heads, sizes, lits)
    if layer is None:
        return None
    order = np.argsort(layer, kind="stable")
    return [part.tolist() for part in np.split(order, np.cumsum(np.bincount(layer))[:-1])] if len(layer) else []


class _SharedCircuits:
    """A process's circuits by kind (the program without the walls, gates and marks): a kind's
    circuit is built once :data:`BUILD_AFTER` boards of that kind were ground one by one (a few
    boards are ground faster as they are)."""

    def __init__(self):
        self.circuits: OrderedDict = OrderedDict()
        self.seen: dict = {}

    def rows(self, board: Board, layout) -> dict[int, np.ndarray] | None:
        if board.solid or board.exits or board.width * board.height > MAX_CELLS or board.width < 2 \
                or board.height < 2:
            return None
        marks = _mark_names(board)
        kind = (board.width, board.height, marks, board.rules.turns[0][0], rule_facts(board.rules),
                mechanism_facts(board, layout))
        circuit = self.circuits.get(kind)
        if circuit is None:
            if self.seen.get(kind, 0) < BUILD_AFTER:
                self.seen[kind] = self.seen.get(kind, 0) + 1
                return None
            circuit = self.circuits[kind] = Circuit(board, layout, marks)
            while len(self.circuits) > KEPT:
                self.circuits.popitem(last=False)
        self.circuits.move_to_end(kind)
        return circuit.rows(board) if circuit.served else None


_SHARED = _SharedCircuits()
