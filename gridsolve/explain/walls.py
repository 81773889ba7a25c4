"""Critical walls: which single wall, removed or added, changes the answer to a question.

A *variant* of a board toggles one interior wall edge: removes the wall that is there, or adds
one where there is none.  Its answer can be computed two ways, with the same results
(tests/test_explain.py):

* :func:`solve_variant`: solve the toggled board (any game; about a second each on 8x8);
* :class:`WallGraph` (race-solver questions whose ends do not depend on walls): the game graph
  is computed once by clingo from the compiled game rules (``explore.game_program``), held as
  the one game graph (:class:`~gridsolve.solve.graph.gamegraph.GameGraph`); for each variant
  only the positions whose side to move has a piece near the toggled edge get their moves again
  from clingo (on the toggled board), the graph is patched with them
  (:meth:`~gridsolve.solve.graph.gamegraph.GameGraph.patched`), and the races of the question
  are ranked on the patched graph by the retrograde analysis of ``encodings/solve.lp`` (the one ranker,
  :mod:`gridsolve.solve.graph.retrograde`: attackers need one successor of rank d-1, defenders
  every successor ranked, the last at d-1; the levels stop once the position asked is ranked),
  from which the answer is read as ``encodings/answer.lp`` reads it (by the one answer reader,
  :mod:`gridsolve.solve.race.reader`).  About 4 to 6 times faster on 8x8 boards
  (bench/run.py, "explain").
"""
from __future__ import annotations

import dataclasses
import multiprocessing
from collections.abc import Sequence
from dataclasses import dataclass

import clingo

from ..compile.planning import plan_query, plan_races
from ..compile.predicates import GRAPH_END, GRAPH_MOVER, GRAPH_STEP, ROOT, Shown, each_atom
from ..compile.state import START, layout_for
from ..errors import EncodingError, GridsolveError
from ..language.model import DELTA, Board, Cell
from ..language.position import Query
from ..solve.graph.codec import PositionCodec, arguments_of_text
from ..solve.program.explore import game_program
from ..solve.common.outcome import Outcome
from ..solve.race.reader import outcome
from ..solve.graph.gamegraph import GameGraph, of_explored
from ..solve.common.limits import Limits
from ..solve.dispatch.dispatcher import solve
from ..solve.common.capabilities import WALL_GRAPH, refusal
from ..workers import DONE, run_tasks
from ..language.kinds import QueryKind

SIDES = ("north", "east")


@dataclass(frozen=True)
class Wall:
    """The edge north or east of ``cell``."""

    cell: Cell
    side: str

    def other(self) -> Cell:
        x, y = self.cell
        return (x, y + 1) if self.side == "north" else (x + 1, y)

    def present(self, board: Board) -> bool:
        return self.cell in (board.north if self.side == "north" else board.east)

    def describe(self) -> str:
        return f"the wall {self.side} of ({self.cell[0]},{self.cell[1]})"

    def as_dict(self) -> dict:
        return {"cell": list(self.cell), "side": self.side}


def interior_walls(board: Board) -> list[Wall]:
    """Every edge between two free cells, in reading order (y, then x; north before east)."""
    out = []
    for y in range(1, board.height + 1):
        for x in range(1, board.width + 1):
            for side in SIDES:
                wall = Wall((x, y), side)
                if board.on_board(wall.cell) and board.on_board(wall.other()):
                    out.append(wall)
    return out


def toggled(board: Board, wall: Wall) -> Board:
    """The board with ``wall`` removed if it is there, added if not."""
    key = "north" if wall.side == "north" else "east"
    return dataclasses.replace(board, **{key: getattr(board, key) ^ {wall.cell}})


def solve_outcome(board: Board, query: Query, limits: Limits | None = None) -> Outcome:
    """The answer to ``query`` on ``board``, solved from scratch with every part of it: the
    value question (the survive question where the role's value is not known)."""
    kind = QueryKind.VALUE if plan_query(board, query).value else QueryKind.SURVIVE
    return Outcome.of(solve(board, dataclasses.replace(query, kind=kind, strategy=False), limits))


def solve_variant(board: Board, query: Query, wall: Wall, limits: Limits | None = None) -> Outcome:
    """The answer to ``query`` on the board with ``wall`` toggled, solved from scratch."""
    return solve_outcome(toggled(board, wall), query, limits)


GRAPH_SHOW = (GRAPH_STEP.when("edge(S,_,S2)"), GRAPH_MOVER.when("mover(S,T)"), GRAPH_END.when("outcome(S,E)"))


class TermTexts(dict):
    """The text of each clingo term, written once (a position recurs in many atoms)."""

    def __missing__(self, term: clingo.Symbol) -> str:
        text = self[term] = str(term)
        return text


def graph_atoms(board: Board, roots: list[str], explore: bool, show: Sequence[Shown]):
    """Each term ``show`` shows of the compiled game rules for the ``roots`` (position terms;
    with ``explore``, and every position reachable from them) on ``board``, in clingo's order:
    its predicate and its fields (:func:`~gridsolve.compile.predicates.each_atom`)."""
    program = game_program(board, ROOT.facts((r,) for r in roots), explore, show)
    ctl = clingo.Control(["--warn=none"])
    try:
        ctl.add("base", [], program)
        ctl.ground([("base", [])])
    except RuntimeError as exc:
        raise EncodingError(f"clingo could not ground the game graph: {exc}") from exc
    with ctl.solve(yield_=True) as handle:
        for model in handle:
            yield from each_atom(model.symbols(shown=True), [shown.predicate for shown in show])


def explore_graph(board: Board, roots: list[str], explore: bool) -> dict:
    """{position: [mover, end or None, successors]} of the ``roots`` (position terms; with
    ``explore``, and of every position reachable from them) on ``board``, by the compiled game rules."""
    out: dict = {}
    texts = TermTexts()
    for predicate, (state, *rest) in graph_atoms(board, roots, explore, GRAPH_SHOW):
        entry = out.setdefault(texts[state], [0, None, set()])
        if predicate is GRAPH_STEP:
            entry[2].add(texts[rest[0]])
        elif predicate is GRAPH_MOVER:
            entry[0] = rest[0]
        else:
            entry[1] = rest[0]
    return out


class WallGraph:
    """The game graph of ``board`` from ``query``'s position, computed once; :meth:`outcome_for`
    answers ``query`` on the board with one wall toggled (None: the board as it is)."""

    def __init__(self, board: Board, query: Query):
        refused = refusal(WALL_GRAPH, board, query)
        if refused:
            raise EncodingError(f"the shared wall graph does not answer this question: {refused}")
        self.board, self.query = board, query
        rules = board.rules
        self.plan = plan_query(board, query)
        self.races = plan_races(rules, query.role, self.plan.value)
        self.layout = layout_for(board)
        codec = PositionCodec(board, self.layout)
        self.root = codec.text(query.position)
        self.graph = of_explored(explore_graph(board, [self.root], True), [end.name for end in rules.ends], codec)
        self.moving = moving_roles(self.graph, self.layout, rules)

    def walls(self) -> list[Wall]:
        return interior_walls(self.board)

    def affected(self, wall: Wall) -> set[int]:
        """The positions whose moves may cross or bump into ``wall``: a role of the side to move
        stands where it can walk to one of the edge's two cells in fewer steps than its move has
        (along open steps of the board: those do not depend on the toggled edge)."""
        out: set[int] = set()
        board = self.board
        for role in self.layout.roles:
            near = {wall.cell, wall.other()}
            frontier = set(near)
            for _ in range(board.rules.moves[role].steps - 1):
                frontier = {(x + dx, y + dy) for (x, y) in frontier for d, (dx, dy) in DELTA.items()
                            if d != "nowhere" and board.open_step((x, y), d)} - near
                near |= frontier
            for cell in near:
                out.update(self.moving.get((role, cell), ()))
        return out

    def patched(self, wall: Wall) -> GameGraph:
        """The game graph with ``wall`` toggled: the affected positions' moves again from
        clingo, and the positions the toggled wall opens explored."""
        graph = self.graph
        board = toggled(self.board, wall)
        affected = self.affected(wall)
        found = explore_graph(board, [graph.names[s] for s in affected], False) if affected else {}
        index = graph.index_of
        unseen = {t for entry in found.values() for t in entry[2] if index(t) < 0}
        while unseen:   # the toggled wall opens positions the board never reaches: explore them
            more = explore_graph(board, sorted(unseen), False)
            found.update(more)
            unseen = {t for entry in more.values() for t in entry[2] if index(t) < 0 and t not in found}
        added = {name: i for i, name in enumerate((name for name in found if index(name) < 0), graph.n)}

        def number(name: str) -> int:
            i = added.get(name)
            return index(name) if i is None else i
        rows = {number(name): [number(t) for t in targets] for name, (_, _, targets) in found.items()}
        new = [found[name] for name in added]
        return graph.patched(rows, turn=[m for m, _, _ in new], names=list(added),
                             outcome=[-1 if end is None else graph.ends.index(end) for _, end, _ in new])

    def outcome_for(self, wall: Wall | None = None) -> Outcome:
        """The answer with ``wall`` toggled (None: the board as it is): the affected positions'
        moves again from clingo, then the races ranked on the patched graph."""
        graph = self.graph if wall is None else self.patched(wall)
        root = self.graph.index_of(self.root)
        left = self.query.remaining(self.board)
        forced = {}
        for race, (attackers, targets) in enumerate(self.races.races, 1):
            # (the levels stop once the root is ranked: its rank is all the answer reads)
            rank, _ = graph.ranks(attackers, targets, left, until=root)
            if rank[root] >= 0:
                forced[race] = int(rank[root])
        return read_outcome(self.board, self.query.role, self.races, self.plan.value, forced)


def moving_roles(graph: GameGraph, layout, rules) -> dict[tuple[str, Cell], set[int]]:
    """Where each role moves in ``graph`` (named positions): (role, cell) -> the positions not
    decided by an end in which its side moves it from there (a ``start(S)`` term: S's cells)."""
    out: dict[tuple[str, Cell], set[int]] = {}
    add_moving(out, graph, range(graph.n), layout, rules)
    return out


def add_moving(out: dict, graph: GameGraph, states, layout, rules) -> None:
    """:func:`moving_roles` of the positions ``states`` of ``graph``, added to ``out``."""
    roles, names, turn, ended = layout.roles, graph.names, graph.turn.tolist(), graph.outcome >= 0
    for s in states:
        if ended[s]:
            continue
        name = names[s]
        numbers = arguments_of_text(name[len(START) + 1:-1] if name.startswith(f"{START}(") else name)
        for role in rules.turns[turn[s]]:
            i = roles.index(role)
            out.setdefault((role, (numbers[1 + 2 * i], numbers[2 + 2 * i])), set()).add(s)


_SHARED: list = []      # the graph a forked worker of :func:`outcomes` reads (inherited, never pickled)


def _outcomes_in_worker(wall: Wall):
    """A task of :func:`outcomes` in a worker of the one pool: the outcome with ``wall`` toggled,
    or the error that stopped it (raised again in the parent, as if computed there)."""
    try:
        yield _SHARED[0].outcome_for(wall)
    except GridsolveError as error:
        yield error


def outcomes(graph: WallGraph, walls: list[Wall], jobs: int = 1) -> list[Outcome]:
    """:meth:`WallGraph.outcome_for` of every wall; with ``jobs`` > 1, in that many worker
    processes of the one pool (:func:`gridsolve.workers.run_tasks`; forked, each inherits the
    graph; where fork is missing, one after the other here)."""
    if jobs <= 1 or len(walls) < 2 or "fork" not in multiprocessing.get_all_start_methods():
        return [graph.outcome_for(wall) for wall in walls]
    found: dict[int, Outcome] = {}
    _SHARED[:] = [graph]
    try:
        ended = run_tasks(walls, _outcomes_in_worker, jobs, None, found.__setitem__)
    finally:
        _SHARED.clear()
    for i, ending in enumerate(ended):
        if isinstance(found.get(i), GridsolveError):
            raise found[i]
        if ending.status != DONE:
            last = ending.detail.strip().splitlines()[-1] if ending.detail.strip() else ending.status
            raise EncodingError(f"the answer with {walls[i].describe()} toggled was not computed: "
                                f"its worker process failed ({last})")
    return [found[i] for i in range(len(walls))]


def read_outcome(board: Board, role: str, races, value_known: bool, forced: dict[int, int]) -> Outcome:
    """The answer at a position from the races forced there within its plies ({race: plies}),
    read by the one answer reader (:func:`gridsolve.solve.race.reader.outcome`)."""
    return outcome(board.rules, role, races, value_known, forced)
