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

from dataclasses import dataclass, field

import clingo
import numpy as np

from ...compile.facts import board_facts, mechanism_facts, rule_facts
from ...compile.gamerules import game_rules, live_ends, timeout_match_rules, with_domain
from ...compile.state import Layout, layout_for
from ...errors import EncodingError
from ...language.model import Board
from ...language.position import Position
from ...resources import encoding
from .retrograde import UNRANKED, listed_moves, predecessors, ranks, successor_moves
from .codec import PositionCodec

UNFORCED = 1 << 30      # the rank of a position from which a race is not forced


@dataclass
class AbstractGame:
    """Every position reachable from the roots, without the items: ``terms[i]`` its clingo term,
    ``succ[i]`` its plies ``(move symbol, j)``, ``turn[i]`` the ``turns`` entry to move,
    ``outcome[i]`` the end that holds (None while the game goes on), ``tmatch[i]`` the first
    conditional timeout entry that holds (0-based, None for the default), ``cells[i]`` the
    pieces' cells in role order."""

    board: Board
    layout: Layout
    terms: list = field(default_factory=list)
    index: dict = field(default_factory=dict)
    succ: list = field(default_factory=list)
    turn: list = field(default_factory=list)
    outcome: list = field(default_factory=list)
    tmatch: list = field(default_factory=list)
    cells: list = field(default_factory=list)
    ground_s: float = 0.0
    ground_atoms: int = 0
    ground_rules: int = 0
    numbering: PositionCodec | None = None   # joined by pieces (gridsolve/solve/graph/abstractpieces.py): positions by number
    keys: object = None         # ... the sorted numbers of positions 0..n-1 (then no terms nor index)
    _codec: PositionCodec | None = field(default=None, repr=False, compare=False)

    def __len__(self) -> int:
        return len(self.turn)

    @property
    def codec(self) -> PositionCodec:
        """The game's positions: Position <-> term (<-> number, joined by pieces)."""
        if self._codec is None:
            self._codec = self.numbering or PositionCodec(self.board, self.layout)
        return self._codec

    def find(self, position: Position) -> int | None:
        """The index of ``position``, None where the roots do not reach it."""
        term = self.codec.term(position)
        if self.numbering is None:
            return self.index.get(term)
        key = self.numbering.key_of(term)
        if key < 0:
            return None
        i = int(self.keys.searchsorted(key))
        return i if i < len(self.keys) and int(self.keys[i]) == key else None

    def position(self, i: int, step: int) -> Position:
        """Position ``i`` at ``step`` (without the items: the caller adds what it keeps of them)."""
        if self.numbering is None:
            return self.codec.position(self.terms[i], step)
        return self.numbering.position_at(int(self.keys[i]), step)

    def stops(self, i: int) -> bool:
        """The game stops at ``i`` whatever the plies left: an end holds, or the side to move has no move."""
        return self.outcome[i] is not None or not self.succ[i]

    def state_of(self, position: Position) -> int:
        found = self.find(position)
        if found is None:
            raise EncodingError(f"the position {self.codec.text(position)} is not in the abstract game")
        return found

    def retrograde(self, attackers: set[int], target, extra: list | None = None) -> list[int]:
        """The fewest plies in which the sides ``attackers`` (turns entries) force a position
        where ``target(i)`` holds, for every position (UNFORCED where they cannot); the others
        delay.  A position that stops without meeting the target is lost for the attackers.
        ``extra``: per position one more move (its target, None: none) where it has moves (the
        robust search's bump).  The one ranker (:func:`~gridsolve.solve.graph.retrograde.ranks`)
        on this game's moves."""
        n = len(self)
        bump = None if extra is None else np.array([-1 if j is None else j for j in extra], dtype=np.int32)
        start, pred, open_count = predecessors(*successor_moves(*listed_moves(self.succ), bump), n)
        attacks = np.array([t in attackers for t in self.turn], dtype=bool)
        aimed = np.array([bool(target(i)) for i in range(n)], dtype=bool)
        ended = np.array([o is not None for o in self.outcome], dtype=bool)
        rank, _ = ranks(start, pred, attacks, aimed, open_count, excluded=ended)
        rank[rank == UNRANKED] = UNFORCED
        return rank.tolist()


def abstract_program(board: Board, layout: Layout, roots: list[str]) -> str:
    """The compiled game rules over every position reachable from ``roots`` (clingo text)."""
    return "\n".join([
        board_facts(board),
        rule_facts(board.rules), mechanism_facts(board, layout),
        " ".join(f"root({r})." for r in roots),
        "reach(S) :- root(S).", "reach(S) :- edge(_,_,S).",
        with_domain(game_rules(board, layout), "reach(", "reach("),
        with_domain("\n".join(timeout_match_rules(board, layout)), "reach(", "reach("),
        encoding("board.lp"), encoding("moves.lp"), encoding("script.lp"),
        "#show edge/3. #show outcome/2. #show tmatch/2."])


def abstract_game(board: Board, positions: list[Position]) -> AbstractGame:
    """Ground the abstraction of ``board`` (its layout without the collectibles) from ``positions``
    (the caller estimates its size first: :mod:`gridsolve.solve.common.limits`)."""
    import time
    started = time.perf_counter()
    layout = layout_for(board, set())
    game = AbstractGame(board, layout)
    ctl = clingo.Control(["--warn=none"])
    try:
        ctl.add("base", [], abstract_program(board, layout, [game.codec.text(p) for p in positions]))
        ctl.ground([("base", [])])
    except RuntimeError as exc:
        raise EncodingError(f"clingo could not ground the abstract game: {exc}") from exc
    atoms = len(ctl.symbolic_atoms)

    def number(term) -> int:
        found = game.index.get(term)
        if found is None:
            found = game.index[term] = len(game.terms)
            game.terms.append(term)
            game.succ.append([])
            game.outcome.append(None)
            game.tmatch.append(None)
            args = [a.number for a in term.arguments]
            game.turn.append(args[0])
            game.cells.append(tuple((args[1 + 2 * k], args[2 + 2 * k]) for k in range(len(layout.roles))))
        return found

    for atom in ctl.symbolic_atoms.by_signature("reach", 1):
        number(atom.symbol.arguments[0])
    for atom in ctl.symbolic_atoms.by_signature("edge", 3):
        s, move, s2 = atom.symbol.arguments
        game.succ[number(s)].append((move, number(s2)))
    for atom in ctl.symbolic_atoms.by_signature("outcome", 2):
        game.outcome[number(atom.symbol.arguments[0])] = atom.symbol.arguments[1].name
    for atom in ctl.symbolic_atoms.by_signature("tmatch", 2):
        i, entry = number(atom.symbol.arguments[0]), atom.symbol.arguments[1].number - 1
        if game.tmatch[i] is None or entry < game.tmatch[i]:
            game.tmatch[i] = entry
    for i in range(len(game)):
        if game.outcome[i] is not None:
            game.succ[i] = []
        game.succ[i].sort(key=lambda edge: edge[0])
    stats = ctl.statistics
    game.ground_atoms, game.ground_rules = atoms, int(stats["problem"]["lp"]["rules"]) if "problem" in stats else 0
    game.ground_s = time.perf_counter() - started
    return game


def avoid_ends(board: Board, role: str) -> set[str]:
    """The ends the role must avoid (it is among their ``loss_for``)."""
    return {e.name for e in live_ends(board) if role in e.loss_for}
