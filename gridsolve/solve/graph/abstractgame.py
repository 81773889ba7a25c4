"""The abstract game of a board: its positions without the items left, ground by clingo.

Where a game keeps items (Pacman's pellets), a position is the pieces' cells and the side to
move (with lost turns and ``was_on`` bits) *plus* the items left, and the items multiply the
positions beyond what can be ground.  The items change no move and no end condition unless an
end counts them, so the game without them (the *abstraction*) has the same plies: this module
grounds it once with the compiled game rules (edges, end conditions, conditional timeout
matches) and computes two races on it by retrograde analysis (the one ranker,
:mod:`gridsolve.solve.graph.retrograde`):

* ``doom``: the plies within which the others force an end the role must avoid (the survive
  race), whatever items are left;
* ``stop_rank``: the plies within which a coalition forces the game to stop (an end, or a side
  without a move).

The bounded solver (:mod:`gridsolve.solve.bounded.search`) searches the items on top of this graph.
"""
from __future__ import annotations

import copy
import time

import clingo
import numpy as np

from ...compile.gameprogram import GameProgram
from ...compile.gamerules import live_ends, timeout_match_rules
from ...compile.predicates import EDGE, OUTCOME, REACH, TMATCH
from ...compile.state import Layout, layout_for
from ...errors import EncodingError
from ...language.model import Board
from ...language.position import Position
from .codec import PositionCodec
from .gamegraph import GameGraph
from .retrograde import UNRANKED

UNFORCED = 1 << 30      # the rank of a position from which a race is not forced


class AbstractGame:
    """Every position reachable from the roots, without the items: ``graph`` its
    :class:`~gridsolve.solve.graph.gamegraph.GameGraph` (positions numbered in the order of
    their codec numbers, ``graph.keys``; each position's moves with their move terms, sorted by
    the term; the side to move; the end that decides it, no moves there), ``tmatch[i]`` the first
    conditional timeout entry that holds (0-based, None for the default); read off the graph for
    the searches' loops: ``turn[i]`` the ``turns`` entry to move, ``outcome[i]`` the end's name
    (None while the game goes on), ``has_moves[i]``, ``cells[i]`` the pieces' cells in role order."""

    def __init__(self, board: Board, layout: Layout, graph: GameGraph, tmatch: list,
                 ground_s: float = 0.0, ground_atoms: int = 0, ground_rules: int = 0):
        self.board, self.layout, self.graph, self.tmatch = board, layout, graph, tmatch
        self.codec: PositionCodec = graph.codec
        self.ground_s, self.ground_atoms, self.ground_rules = ground_s, ground_atoms, ground_rules
        self.turn = graph.turn.tolist()
        self.outcome = [None if o < 0 else graph.ends[o] for o in graph.outcome.tolist()]
        self.has_moves = (graph.outdeg() > 0).tolist()
        args, roles = self.codec.rows(graph.keys), len(layout.roles)
        columns = [list(zip(args[:, 1 + 2 * k].tolist(), args[:, 2 + 2 * k].tolist())) for k in range(roles)]
        self.cells = list(zip(*columns)) if columns else [()] * graph.n

    def __len__(self) -> int:
        return self.graph.n

    def moves(self, i: int) -> list[tuple]:
        """(move term, position after it) of each move of ``i``, sorted by the move term."""
        return self.graph.moves_of(i)

    def with_graph(self, graph: GameGraph) -> "AbstractGame":
        """This game with the moves of ``graph`` (the same positions: :meth:`GameGraph.patched`)."""
        game = copy.copy(self)
        game.graph, game.has_moves = graph, (graph.outdeg() > 0).tolist()
        return game

    def find(self, position: Position) -> int | None:
        """The index of ``position``, None where the roots do not reach it."""
        found = self.graph.find(self.codec.term(position))
        return None if found < 0 else found

    def arguments(self, i: int) -> list[int]:
        """The arguments of position ``i``'s term."""
        return self.codec.arguments(int(self.graph.keys[i]))

    def position(self, i: int, step: int) -> Position:
        """Position ``i`` at ``step`` (without the items: the caller adds what it keeps of them)."""
        return self.codec.position_at(int(self.graph.keys[i]), step)

    def stops(self, i: int) -> bool:
        """The game stops at ``i`` whatever the plies left: an end holds, or the side to move has no move."""
        return self.outcome[i] is not None or not self.has_moves[i]

    def stopped(self) -> np.ndarray:
        """:meth:`stops` of every position (a bool array)."""
        return (self.graph.outcome >= 0) | (self.graph.outdeg() == 0)

    def ended_in(self, ends) -> np.ndarray:
        """Whether one of the ends ``ends`` (names) decides each position (a bool array)."""
        return np.isin(self.graph.outcome, self.graph.end_numbers(ends))

    def state_of(self, position: Position) -> int:
        found = self.find(position)
        if found is None:
            raise EncodingError(f"the position {self.codec.text(position)} is not in the abstract game")
        return found

    def state_of_term(self, term: clingo.Symbol) -> int:
        """The index of the position with term ``term``, which the game must hold."""
        found = self.graph.find(term)
        if found < 0:
            raise EncodingError(f"the position {term} is not in the abstract game")
        return found

    def retrograde(self, attackers: set[int], aimed: np.ndarray, extra: list | None = None) -> list[int]:
        """The fewest plies in which the sides ``attackers`` (turns entries) force a position
        ``aimed`` (a bool array), for every position (UNFORCED where they cannot); the others
        delay.  A position that stops without meeting the target is lost for the attackers.
        ``extra``: per position one more move (its target, None: none) where it has moves (the
        robust search's bump: :meth:`GameGraph.with_extra`).  The one ranker, :meth:`GameGraph.ranks`."""
        graph = self.graph
        if extra is not None:
            graph = graph.with_extra(np.array([-1 if j is None else j for j in extra], dtype=np.int32))
        rank, _ = graph.ranks(attackers, aimed, exclude_ends=True)
        rank[rank == UNRANKED] = UNFORCED
        return rank.tolist()


def abstract_program(board: Board, layout: Layout, roots: list[str]) -> str:
    """The compiled game rules over every position reachable from ``roots`` (clingo text)."""
    game = GameProgram(board, layout, roots, shown=(EDGE, OUTCOME, TMATCH))
    return game.text(game.rules("\n".join(timeout_match_rules(board, layout))))


def abstract_game(board: Board, positions: list[Position]) -> AbstractGame:
    """Ground the abstraction of ``board`` (its layout without the collectibles) from ``positions``
    (the caller estimates its size first: :mod:`gridsolve.solve.common.limits`)."""
    started = time.perf_counter()
    layout = layout_for(board, set())
    codec = PositionCodec(board, layout)
    ctl = clingo.Control(["--warn=none"])
    try:
        ctl.add("base", [], abstract_program(board, layout, [codec.text(p) for p in positions]))
        ctl.ground([("base", [])])
    except RuntimeError as exc:
        raise EncodingError(f"clingo could not ground the abstract game: {exc}") from exc
    atoms = ctl.symbolic_atoms
    terms = [term for term, in REACH.ground(atoms)]
    found = codec.numbers(np.array([[a.number for a in t.arguments] for t in terms], dtype=np.int64))
    order = np.argsort(found, kind="stable")
    keys, n = found[order], len(terms)
    index = dict(zip([terms[i] for i in order.tolist()], range(n)))       # (while reading the atoms)
    ends = [end.name for end in board.rules.ends]
    outcome, tmatch = np.full(n, -1, dtype=np.int16), [None] * n
    for term, end in OUTCOME.ground(atoms):
        outcome[index[term]] = ends.index(end)
    for term, entry in TMATCH.ground(atoms):
        i, entry = index[term], entry - 1
        if tmatch[i] is None or entry < tmatch[i]:
            tmatch[i] = entry
    edges = EDGE.ground(atoms)
    src = np.fromiter((index[s] for s, _, _ in edges), dtype=np.int32, count=len(edges))
    dst = np.fromiter((index[s2] for _, _, s2 in edges), dtype=np.int32, count=len(edges))
    names = [move for _, move, _ in edges]
    alphabet = {move: k for k, move in enumerate(sorted(set(names)))}
    code = np.fromiter((alphabet[m] for m in names), dtype=np.int64, count=len(names))
    keep = outcome[src] < 0                     # (an end holds: no moves)
    at = np.flatnonzero(keep)[np.lexsort((code[keep], src[keep]))]     # by position, then move term (stable)
    moves = np.empty(len(at), dtype=object)
    moves[:] = [names[e] for e in at.tolist()]
    turn = codec.rows(keys)[:, 0] if n else np.zeros(0, dtype=np.int64)
    graph = GameGraph.of_moves(src[at], dst[at], turn, outcome, ends, moves=moves, codec=codec, keys=keys)
    stats = ctl.statistics
    rules = int(stats["problem"]["lp"]["rules"]) if "problem" in stats else 0
    return AbstractGame(board, layout, graph, tmatch, time.perf_counter() - started, len(atoms), rules)


def avoid_ends(board: Board, role: str) -> set[str]:
    """The ends the role must avoid (it is among their ``loss_for``)."""
    return {e.name for e in live_ends(board) if role in e.loss_for}
