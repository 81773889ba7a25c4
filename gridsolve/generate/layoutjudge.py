"""Every start of a layout judged at once, in C: the rank of each start and its beeline.

:class:`gridsolve.generate.startgraph.StartGraph` grounds each layout's game graph in clingo
(about 10 ms for an 8x8 Mummy Maze) and plays the beeline out in Python.  Where a game is two
pieces that move each on its own (the race solver's graph by pieces), one per turns entry, on
at most 64 cells, :class:`LayoutJudge` grounds the game's pieces' moves and ends **once per
run**, with the walls and marks as external atoms: clingo's ground rules are then a circuit
from the walls and marks to each role's moves from each cell and the end of each position.
Each layout evaluates that circuit, joins every position's successors, ranks every position
for the requirement's race and plays out every start of a band (``layoutkernel.c``): the
same ranks as :meth:`gridsolve.solve.graph.racegraph.RaceGraph.ranks` and the same counts of shortest
and winning paths as :class:`gridsolve.generate.startplay.OthersPlay`, which
tests/test_layoutjudge.py checks on random boards of every Mummy Maze rule set.  Where the C
file cannot be compiled, or the game has another shape, :func:`layout_judge` is None and the
search ranks each layout with :class:`StartGraph`.
"""
from __future__ import annotations

import itertools

import clingo
import numpy as np

from ..compile.compiler import factored_program
from ..compile.gameprogram import board_externals
from ..compile.gamerules import factored_turns
from ..compile.predicates import FGRAPH_END, FGRAPH_MOVE, MARK, WALL_EAST, WALL_NORTH
from ..compile.state import layout_for
from ..ground import circuit as ground
from ..language.model import Board
from .. import native
from ..analysis.ends import beeline_unsupported, goal_ends
from .genspec import GameSpec, Requirement
from .starts import JudgedStarts, Survey
from .startgraph import PATH_LIMIT, start_program
from ..language.kinds import RequireKind

MAX_CELLS = 64          # the frontier of the blind play is a 64-bit set of the other piece's cells
INPUTS = ((WALL_NORTH, "north"), (WALL_EAST, "east"), (MARK, "mark"))     # the externals' atoms and keys


def _externals(board: Board, marks) -> list[tuple]:
    """The external atoms: (kind, x, y) of every interior wall, ("mark", name, x, y) of every cell."""
    w, h = board.width, board.height
    return ([("north", x, y) for x in range(1, w + 1) for y in range(1, h)]
            + [("east", x, y) for x in range(1, w) for y in range(1, h + 1)]
            + [("mark", name, x, y) for name in marks for x in range(1, w + 1) for y in range(1, h + 1)])


class LayoutJudge:
    """Every start of a layout of ``spec`` ranked for ``req``'s race and, with ``survey``, its
    beeline played out, in C (:func:`layout_judge` says whether it serves)."""

    def __init__(self, board: Board, spec: GameSpec, req: Requirement, module, program, turns):
        self.module, self.spec, self.req = module, spec, req
        rules, layout = board.rules, layout_for(board)
        self.width, self.height = board.width, board.height
        self.n = n = board.width * board.height
        self.roles = list(rules.roles)
        self.role = self.roles.index(spec.role)
        self.role_side = rules.side_of(spec.role)
        self.turns = len(turns)
        marks = sorted(set(spec.marks) | set(board.marks))
        empty = spec.board((), (), dict(board.pieces), {}, board.path, board.name)
        self.externals = _externals(board, marks)
        self.slot = {key: i for i, key in enumerate(self.externals)}
        circuit = _ground(empty, layout, board, marks, self.externals)
        self.served = circuit is not None
        if circuit is None:
            return
        (heads, body_ptr, body, ext_atoms, natoms), outputs = circuit
        self.natoms, self.heads, self.body_ptr, self.body, self.ext_atoms = natoms, heads, body_ptr, body, ext_atoms
        ends = [e.name for e in rules.ends]
        moves, finals = [], []
        for symbol, atom in outputs:
            if FGRAPH_MOVE.matches(symbol):
                _, role, x, y, _, ax, ay, px, py = FGRAPH_MOVE.read(symbol)
                moves.append((atom, self.roles.index(role), self._cell(x, y), self._cell(ax, ay),
                              self._cell(px, py)))
            elif FGRAPH_END.matches(symbol):
                _, end, side, (x1, y1, x2, y2) = FGRAPH_END.read(symbol)
                finals.append((atom, (side * n + self._cell(x1, y1)) * n + self._cell(x2, y2), ends.index(end)))
        self.moves = [np.array(column, dtype=np.int32) for column in zip(*moves)] if moves else \
            [np.zeros(0, np.int32)] * 5
        self.ends = [np.array(column, dtype=np.int32) for column in zip(*finals)] if finals else \
            [np.zeros(0, np.int32)] * 3
        self.mover = np.array([self.roles.index(movers[0]) for movers, _ in turns], dtype=np.int32)
        self.avoid = np.array([sum(1 << self.roles.index(p) for p in avoid.get(movers[0], ())) for movers, avoid in turns],
                              dtype=np.int32)
        plan = program.plan
        attackers, targets = plan.races[(plan.win if req.kind == RequireKind.WIN else plan.avoid) - 1]
        goals = set(goal_ends(board, spec.role))
        self.end_flags = np.array([(e in targets) + 2 * (e in goals) for e in ends], dtype=np.uint8)
        self.attack = np.array([t in attackers for t in range(self.turns)], dtype=np.uint8)
        self.levels = len(program.levels)
        self.surveys = not beeline_unsupported(board) and self.role_side == 0
        cells = range(n)
        self.placements = [tuple(self._xy(c) for c in placed) for placed in itertools.permutations(cells, 2)]
        self.start_index = np.array([c0 * n + c1 for c0, c1 in itertools.permutations(cells, 2)], dtype=np.int64)

    def _cell(self, x: int, y: int) -> int:
        return (x - 1) * self.height + y - 1

    def _xy(self, cell: int) -> tuple:
        return cell // self.height + 1, cell % self.height + 1

    def inputs(self, north, east, marks: dict) -> np.ndarray:
        """The truth of every external atom on a layout with these walls and marks."""
        values = np.zeros(len(self.externals), dtype=np.uint8)
        slot = self.slot
        for x, y in north:
            values[slot[("north", x, y)]] = 1
        for x, y in east:
            values[slot[("east", x, y)]] = 1
        for name, cells in marks.items():
            for x, y in cells:
                values[slot[("mark", name, x, y)]] = 1
        return values

    def judge(self, north, east, marks: dict, remaining: int, band: tuple | None = None) -> "JudgedStarts":
        """Every start of the layout with these walls and marks (``marks``: name -> cells):
        the rank of each, and with ``band`` (low, high) the beeline of each start ranked there
        (``remaining``: the plies the beeline has)."""
        n, turns = self.n, self.turns
        out = np.empty(turns * n * n + 2 * n * n, dtype=np.int32)
        low, high = band if band is not None else (0, -1)
        self.module.judge(self.natoms, self.heads, self.body_ptr, self.body, self.ext_atoms,
                          self.inputs(north, east, marks), *self.moves, *self.ends, self.mover, self.avoid,
                          self.end_flags, self.attack, out, turns, n, self.role, self.role_side, self.levels,
                          remaining, PATH_LIMIT, low, high, int(band is not None and self.surveys))
        ranks = out[:n * n][self.start_index]
        survey = None
        if band is not None and self.surveys:
            paths = out[turns * n * n:turns * n * n + n * n][self.start_index]
            winning = out[turns * n * n + n * n:][self.start_index]
            chosen = np.flatnonzero(paths >= 0)
            survey = Survey(self.placements, chosen, ranks[chosen], paths[chosen], winning[chosen])
        return JudgedStarts(self.placements, self.roles, ranks, survey)


def _ground(empty: Board, layout, board: Board, marks, externals) -> tuple | None:
    """The circuit of the factored program on ``empty`` (no walls, no marks) with the walls and
    marks external, as the C kernel reads it: ((rule heads, body pointers, body literals, external
    rows, rows), the shown symbols' rows); None where the rules are not a plain circuit
    (:meth:`gridsolve.ground.circuit.Circuit.ordered`: each rule after the rules of its body atoms)."""
    text = factored_program(empty, layout)
    w, h = board.width, board.height
    lines = [text, *board_externals(w, h, marks, gates=False), " ".join(predicate.show() for predicate, _ in INPUTS)]
    observer = ground.Observer()
    ctl = clingo.Control(["--warn=none"])
    ctl.register_observer(observer)
    ctl.add("base", [], "\n".join(lines))
    ctl.ground([("base", [])])
    try:
        circuit = ground.Circuit(observer)
    except ground.NotACircuit:
        return None
    order = circuit.ordered()
    if order is None:
        return None
    rows = {}
    for symbol, row in circuit.rows.items():
        for predicate, kind in INPUTS:
            if predicate.matches(symbol):
                rows[(kind, *predicate.read(symbol))] = row
    ext_rows = np.array([rows.get(key, 0) for key in externals], dtype=np.int32)
    if (ext_rows == 0).any() or circuit.input_rows != set(ext_rows.tolist()):
        return None         # (an external that clingo decided, or a free atom besides them: not a plain circuit)
    heads = np.array([head for head, _ in order], dtype=np.int32)
    body_ptr = np.zeros(len(order) + 1, dtype=np.int32)
    np.cumsum([len(body) for _, body in order], out=body_ptr[1:])
    body = np.array([lit for _, b in order for lit in b], dtype=np.int32)
    return (heads, body_ptr, body, ext_rows, circuit.size), list(circuit.rows.items())


def layout_judge(board: Board, spec: GameSpec, req: Requirement) -> LayoutJudge | None:
    """A :class:`LayoutJudge` for the layouts of ``spec`` (``board``: one of them), or None
    where it does not serve: no C compiler, a game of another shape, more than 64 cells."""
    rules = board.rules
    if len(rules.roles) != 2 or board.width * board.height > MAX_CELLS or req.kind == RequireKind.VALUE:
        return None
    if req.left(board) > 250 or any(board.solid for _ in [0]):
        return None
    layout = layout_for(board)
    turns = factored_turns(board, layout)
    if turns is None or layout.variables() or any(len(movers) != 1 for movers, _ in turns):
        return None
    if sum(movers[0] == spec.role for movers, _ in turns) != 1:
        return None
    program = start_program(board, spec.role, req)
    if program is None:
        return None
    module = native.load("layoutkernel", __package__)
    if module is None:
        return None
    judge = LayoutJudge(board, spec, req, module, program, turns)
    return judge if judge.served else None
