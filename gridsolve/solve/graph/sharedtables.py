"""The per-cell tables of a game with an ``after_ply`` script (:mod:`.scripted`), ground once per
rule set and board size and kept across the boards of a process.

Boards of one rule set and size share everything in the tables' program but their walls, gates
and marks (the pieces are not in it).  The first boards of a kind (:data:`BUILD_AFTER`) are
ground as they are; then clingo grounds the program once more with every interior wall, gate and mark cell as
an external atom (as the 2007 layout judge does, :mod:`gridsolve.generate.layoutjudge`): its
ground rules are then a circuit from the walls, gates and marks to every shown table row, and
each later board evaluates that circuit (:mod:`gridsolve.ground.circuit`), level by level, with its walls, gates and
marks as the inputs (0.1 to 0.2 ms instead of a ground call of 5 to 10 ms).  The program is stratified, so its one
model with those externals true is the model of the board's own program: the same rows.
``tests/test_sharedtables.py`` checks them equal on random classic boards of both rule sets and
every size.  A board with something outside the inputs (a solid cell, a wall on the border) or a
program whose ground rules are not such a circuit (choices, aggregates) is ground as it is.
"""
from __future__ import annotations

from collections import OrderedDict
from contextlib import contextmanager

import clingo
import numpy as np

from ... import native
from ...compile.facts import mechanism_facts, rule_facts
from ...compile.gameprogram import GameProgram, board_externals
from ...compile.predicates import (DIM, GATE_EAST, GATE_NORTH, MARK, TABLE_CHASE, TABLE_DISTANCE, TABLE_GATE,
                                    TABLE_KEY, TABLE_MARK, TABLE_MOVE, WALL_EAST, WALL_NORTH)
from ...language.model import Board
from ..common.limits import LimitGuard
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
        TABLE_MOVE.when(f"rmove({role},X,Y,M,AX,AY,PX,PY,_)"), TABLE_GATE.when("gate_cross(X,Y,X2,Y2)"),
        *[TABLE_CHASE.when(f"chase({axis},X,Y,SX,SY,G,X2,Y2)", axis=number) for axis, number in AXES.items()],
        TABLE_KEY.when("key_cell(X,Y)"), TABLE_MARK.when("mark(K,X,Y)"),
        TABLE_DISTANCE.when("distance(P,K,X,Y,D)")]).text(rules=False)


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
    return ([(WALL_NORTH, c) for c in north] + [(WALL_EAST, c) for c in east]
            + [(GATE_NORTH, c) for c in north] + [(GATE_EAST, c) for c in east]
            + [(MARK, (name, x, y)) for name in marks for x in range(1, width + 1) for y in range(1, height + 1)])


def _board_inputs(board: Board) -> list[tuple]:
    out = [(WALL_NORTH, c) for c in board.north] + [(WALL_EAST, c) for c in board.east]
    out += [(GATE_NORTH, c) for c in board.gate_north] + [(GATE_EAST, c) for c in board.gate_east]
    return out + [(MARK, (name, x, y)) for name, cells in board.marks.items() for x, y in cells]


class Circuit:
    """The ground rules of a kind's table program with the walls, gates and marks external, as
    one :class:`~gridsolve.ground.circuit.Circuit` (a board one case), and its shown rows."""

    def __init__(self, board: Board, layout, marks: tuple[str, ...]):
        self.width, self.height = width, height = board.width, board.height
        self.inputs = _inputs(width, height, marks)
        self.slot = {key: i for i, key in enumerate(self.inputs)}
        self.served = False
        found = _ground_circuit(board, layout, marks, self.inputs)
        if found is None:
            return
        self.circuit, self.input_rows = found
        by_arity: dict[int, list] = {}
        for symbol, row in self.circuit.rows.items():
            by_arity.setdefault(len(symbol.arguments), []).append((symbol, row))
        self.shown = {size: (np.array([[a._rep for a in symbol.arguments] for symbol, _ in found],
                                      dtype=np.uint64).reshape(-1, size),
                             np.array([row for _, row in found], dtype=np.int64))
                      for size, found in by_arity.items()}
        self.served = True

    def rows(self, board: Board) -> dict[int, np.ndarray] | None:
        """The shown rows of ``board`` (None: it has a wall, gate or mark outside the inputs)."""
        on = np.zeros(len(self.inputs), dtype=np.uint64)
        slot = self.slot
        for key in _board_inputs(board):
            where = slot.get(key)
            if where is None:
                return None
            on[where] = 1
        value = self.circuit.evaluate(self.input_rows, on[:, None])[:, 0] & np.uint64(1)
        return {arity: args[value[rows] != 0] for arity, (args, rows) in self.shown.items()}


def _ground_circuit(board: Board, layout, marks: tuple[str, ...], inputs: list[tuple]) -> tuple | None:
    """The circuit of the kind's table program with every input external, and the inputs'
    rows (None where clingo decided an input, or the ground rules are no circuit of them)."""
    from ...ground import circuit as ground     # (a board of its own is ground as it is: no circuit)
    width, height = board.width, board.height
    facts = [DIM.fact(width, height), *board_externals(width, height, marks)]
    observer = ground.Observer()
    ctl = clingo.Control(["--warn=none"])
    ctl.register_observer(observer)
    ctl.add("base", [], table_program(board, layout, "\n".join(facts)))
    ctl.ground([("base", [])])
    atoms = []
    for predicate, args in inputs:
        found = ctl.symbolic_atoms[predicate.symbol(*args)]
        if found is None or found.is_fact:
            return None
        atoms.append(found.literal)
    del ctl         # (the grounding let go before the circuit is built)
    try:
        circuit = ground.Circuit(observer, native.load("circuitkernel", "gridsolve.ground"))
    except ground.NotACircuit:
        return None
    rows = np.array([circuit.atom_rows.get(atom, -1) for atom in atoms], dtype=np.int64)
    if (rows < 0).any() or circuit.input_rows != set(rows.tolist()):
        return None
    return circuit, rows


class _SharedCircuits:
    """A process's circuits by kind (the program without the walls, gates and marks): a kind's
    circuit is built once ``build_after`` (:data:`BUILD_AFTER`) boards of that kind were ground
    one by one (a few boards are ground faster as they are; :func:`circuits_at_once`: none)."""

    def __init__(self):
        self.circuits: OrderedDict = OrderedDict()
        self.seen: dict = {}
        self.build_after: int | None = None      # (None: BUILD_AFTER)

    def rows(self, board: Board, layout) -> dict[int, np.ndarray] | None:
        if board.solid or board.exits or board.width * board.height > MAX_CELLS or board.width < 2 \
                or board.height < 2:
            return None
        marks = _mark_names(board)
        kind = (board.width, board.height, marks, board.rules.turns[0][0], rule_facts(board.rules),
                mechanism_facts(board, layout))
        circuit = self.circuits.get(kind)
        if circuit is None:
            if self.seen.get(kind, 0) < (BUILD_AFTER if self.build_after is None else self.build_after):
                self.seen[kind] = self.seen.get(kind, 0) + 1
                return None
            circuit = self.circuits[kind] = Circuit(board, layout, marks)
            while len(self.circuits) > KEPT:
                self.circuits.popitem(last=False)
        self.circuits.move_to_end(kind)
        return circuit.rows(board) if circuit.served else None


_SHARED = _SharedCircuits()


def build_circuit(board: Board, layout) -> None:
    """The circuit of ``board``'s kind built now where one would serve it (nothing ground for
    the board itself otherwise)."""
    with circuits_at_once():
        _SHARED.rows(board, layout)


@contextmanager
def circuits_at_once():
    """Within the block, a kind's circuit is built at its first board, none ground one by one:
    for a run that checks many boards (``verify`` of a large folder: its workers, forked in the
    block, start that way), where most kinds have many more boards than :data:`BUILD_AFTER`.
    The same rows either way (the module docstring)."""
    before, _SHARED.build_after = _SHARED.build_after, 0
    try:
        yield
    finally:
        _SHARED.build_after = before
