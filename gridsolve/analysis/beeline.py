"""The ``no_beeline`` check: does walking the shortest path to the goal, blindly, already win?

Definitions (also in docs/verify.md):

* The role's **goal** is any end condition that gives it its top score (above its timeout
  score): for the Mummy Maze explorer, standing on the exit.
* A **shortest path** is a shortest sequence of the role's own moves from the position to a
  goal, worked out as if the other pieces stood still where the position has them and the
  role moved on every turn.  A path may not pass through a position where another end holds
  (the explorer does not walk through the mummy).  Moves that lead to the same cell count as
  one (the alphabetically first is played); two paths differ when they visit different cells.
* A shortest path **wins** when the role plays its moves in order, whatever the others do,
  and every line of play ends in a goal within the remaining plies (the step limit or the
  horizon).  A line fails when another end comes first (capture), the plies run out, a side
  has no legal move, the next move of the path is illegal in the actual position, or the
  path is used up without a goal.
* ``no_beeline`` holds when no shortest path wins; in particular when the goal cannot be
  reached at all.  The level is "trivial" if any shortest path wins.

Where the other pieces move by rule after each ply (an ``after_ply`` script: classic Mummy Maze)
a shortest path is a *walk* round the traps and through the gate as it stands, played out on the
game's per-cell tables (:func:`gridsolve.analysis.walks.scripted_beeline`, the function the
generator's climb judges its levels with).

Everything is computed by the game's compiled rules (legal moves, successors and end
conditions, via clingo: the race solver's named moves, :class:`gridsolve.solve.graph.racegraph.NamedMoves`),
never by a second rules engine in Python, and only for the positions the check looks at: the
role's moves from the cells it walks to with the others frozen, and the positions the others'
replies lead to along a path, those of a breadth-first level or a frontier in one ground call.
"""
from __future__ import annotations

from dataclasses import dataclass

import clingo

from ..language import wording
from ..errors import LimitError, QueryError
from .ends import beeline_unsupported, goal_ends
from .walks import ScriptedBeeline, scripted_beeline
from ..language.model import Board
from ..language.position import Position, unjudged_start
from ..compile.state import layout_for
from ..solve.graph.racegraph import NamedMoves, named_moves
from ..solve.graph.scripted import ScriptedMoves
from ..solve.program.driver import format_move

MAX_PREFIXES = 200_000        # path prefixes played out before giving up (LimitError)

_State = tuple                 # (pieces, side): a position without its step number


@dataclass
class BeelineResult:
    holds: bool                          # no shortest path wins
    length: int | None                   # moves of a shortest path; None: the goal is out of reach
    paths: int                           # distinct shortest paths (by the cells they visit)
    winning: tuple[str, ...] | None      # a shortest path that wins against every reply

    def describe(self, role: str) -> str:
        if self.length is None:
            return f"{role} cannot reach its goal even if the others stand still"
        if self.winning is not None:
            moves = ", ".join(self.winning) if self.winning else "no move"
            return (f"the shortest path of {role} ({wording.moves(self.length)}: {moves}) wins against every reply")
        paths = "the shortest path" if self.paths == 1 else f"none of the {self.paths} shortest paths"
        verb = "does not win" if self.paths == 1 else "wins"
        return f"{paths} of {role} ({wording.moves(self.length)}) {verb} against every reply"


class _Game:
    """The game as the beeline looks at it: for each position, the end that holds and the legal
    moves by name, by the compiled game rules (:func:`~gridsolve.solve.graph.racegraph.named_moves`: each
    role's moves by cell, or ground for the positions looked at, those of a :meth:`fetch` in one
    ground call).
    Positions are ``(pieces, side)``, without the step number."""

    def __init__(self, board: Board, named: NamedMoves):
        self.roles, self.named = board.rules.roles, named
        self.graph: dict[_State, tuple[str | None, dict[str, _State]]] = {}
        self._decoded: dict = {}       # position symbol or number -> position
        self._names: dict = {}         # raw move symbol -> its name
        self._numbering = getattr(named, "numbering", None)     # PieceMoves: positions by number

    @staticmethod
    def _symbol(state: _State) -> clingo.Symbol:
        return clingo.Function("s", [clingo.Number(state[1])] + [clingo.Number(v) for _, cell in state[0] for v in cell])

    def _state(self, symbol: clingo.Symbol) -> _State:
        found = self._decoded.get(symbol)
        if found is None:
            args = [a.number for a in symbol.arguments]
            found = self._decoded[symbol] = (
                tuple((r, (args[1 + 2 * i], args[2 + 2 * i])) for i, r in enumerate(self.roles)), args[0])
        return found

    def fetch(self, states) -> None:
        """Ground the moves of ``states`` not looked at before, in one call."""
        if self._numbering is None:
            self.named.fetch([self._symbol(s) for s in states if s not in self.graph])

    def look(self, state: _State) -> tuple[str | None, dict[str, _State]]:
        found = self.graph.get(state)
        if found is not None:
            return found
        if self._numbering is not None:         # each role's moves by cell: positions by number
            numbering, named = self._numbering, self.named
            key = numbering.number([state[1], *(v for _, cell in state[0] for v in cell)])
            end = int(named.ends[key])
            found = (named.end_names[end] if end >= 0 else None,
                     {self._move(m): self._state_of(after) for m, after in named.successors(key)})
        else:
            symbol = self._symbol(state)
            end = self.named.end(symbol)
            found = (end, {} if end is not None else
                     {format_move(m): self._state(after) for m, after in self.named.moves(symbol)})
        self.graph[state] = found
        return found

    def _move(self, rep: int) -> str:
        found = self._names.get(rep)
        if found is None:
            found = self._names[rep] = format_move(clingo.symbol.Symbol(rep))
        return found

    def _state_of(self, key: int) -> _State:
        found = self._decoded.get(key)
        if found is None:
            args = self._numbering.arguments(key)
            found = self._decoded[key] = (
                tuple((r, (args[1 + 2 * i], args[2 + 2 * i])) for i, r in enumerate(self.roles)), args[0])
        return found


def _term(side: int, coords) -> str:
    return f"s({side},{','.join(f'{x},{y}' for x, y in coords)})"


def check_beeline(board: Board, role: str, position: Position, remaining: int,
                  named: NamedMoves | None = None) -> BeelineResult | ScriptedBeeline:
    """Measure ``no_beeline`` for ``role`` from ``position`` with ``remaining`` plies left;
    ``named``: the board's named moves to look positions up in (a race engine's, where one
    was ground: :meth:`~gridsolve.solve.graph.racegraph.RaceGraph.named_moves`), else new ones.
    Where the others move by rule (an ``after_ply`` script) the walks of
    :func:`gridsolve.analysis.walks.scripted_beeline` decide it, on the tables ``named`` holds."""
    rules = board.rules
    reason = beeline_unsupported(board)
    if reason:
        raise QueryError(f"no_beeline is not defined for {board.name}: {reason}",
                         "remove no_beeline from the expectation")
    if unjudged_start(board, position):
        raise QueryError(f"no_beeline is not defined for {board.name} from this position: an end holds at the "
                         "start, which the rules do not judge (judge_start: false)",
                         "remove no_beeline from the expectation")
    if rules.script:       # the others move by rule: walks on the game's tables (gridsolve/analysis/walks.py)
        return scripted_beeline(board, role, position, remaining,
                                named.tables if isinstance(named, ScriptedMoves) else None)
    goals = set(goal_ends(board, role))
    side = rules.side_of(role)
    start = (position.pieces, position.side)
    frozen_start = (position.pieces, side)
    game = _Game(board, named or named_moves(board, layout_for(board)))
    dag, length, goal_cells, winning = winning_path(game, role, start, frozen_start, goals, remaining)
    if length is None:
        return BeelineResult(True, None, 0, None)
    paths = _count_paths(dag, piece_cell(frozen_start, role), goal_cells, length)
    return BeelineResult(winning is None, length, paths, None if winning is None else tuple(winning))


def winning_path(game, role: str, start: _State, frozen: _State, goals: set[str], remaining: int):
    """The role's shortest paths from ``frozen`` (``start`` with the role to move) played out from
    ``start`` against every reply: (their DAG, length and goal cells, as :func:`shortest_paths`;
    the moves of a path that wins, [] where the game is won before the role moves, or None where
    none wins).  ``game``: what the play looks positions up in (a :class:`_Game`, or the
    generator's start graph)."""
    # The role's moves from every cell it walks to, the others where the position has them.
    dag, length, goal_cells = shortest_paths(game, role, frozen, goals)
    if length is None:
        return None, None, None, None
    player = BlindPlay(game, goals, frozen[1], remaining)
    opening = player.settle({start}, 0)
    if opening is WON or opening is LOST:
        return dag, length, goal_cells, [] if opening is WON else None
    return dag, length, goal_cells, player.search(dag, piece_cell(frozen, role), 0, length, *opening)


def piece_cell(state: _State, role: str):
    return dict(state[0])[role]


def shortest_paths(game: _Game, role: str, start: _State, goals: set[str]):
    """Breadth-first over the role's moves with everyone else frozen.

    Returns the DAG of shortest paths ``{cell: [(move, next cell), ...]}``, their length in
    moves and the goal cells (None, None, None when no goal is reachable)."""
    side = start[1]
    pieces = dict(start[0])

    def state_at(cell) -> _State:
        return (tuple((p, cell if p == role else c) for p, c in pieces.items()), side)

    origin = pieces[role]
    dist = {origin: 0}
    edges: dict = {}
    level, depth, goal_cells = [origin], 0, set()
    while level:
        game.fetch([state_at(cell) for cell in level])
        for cell in level:
            end, _ = game.look(state_at(cell))
            if end in goals:
                goal_cells.add(cell)
        if goal_cells:
            break
        following = []
        for cell in level:
            end, moves = game.look(state_at(cell))
            if end is not None:
                continue                      # another end: the path may not pass through here
            targets = {}
            for move in sorted(moves):
                target = piece_cell(moves[move], role)
                targets.setdefault(target, move)
            edges[cell] = [(move, target) for target, move in targets.items()]
            for target in targets:
                if target not in dist:
                    dist[target] = depth + 1
                    following.append(target)
        level, depth = following, depth + 1
    if not goal_cells:
        return None, None, None
    # Keep only the edges that lie on a shortest path to a goal cell.
    useful = set(goal_cells)
    for d in range(depth - 1, -1, -1):
        for cell in [c for c, k in dist.items() if k == d]:
            if any(t in useful and dist.get(t) == d + 1 for _, t in edges.get(cell, [])):
                useful.add(cell)
    dag = {cell: [(m, t) for m, t in edges.get(cell, []) if t in useful and dist[t] == dist[cell] + 1]
           for cell in useful if dist[cell] < depth}
    return dag, depth, goal_cells


def _count_paths(dag, origin, goal_cells, length) -> int:
    counts = {}

    def count(cell, k):
        if k == length:
            return 1 if cell in goal_cells else 0
        if (cell, k) not in counts:
            counts[(cell, k)] = sum(count(t, k + 1) for _, t in dag.get(cell, []))
        return counts[(cell, k)]
    return count(origin, 0)


WON, LOST = object(), object()


class BlindPlay:
    """Play a fixed sequence of the role's moves against every reply of the others.

    A *frontier* is the set of positions (all with the role to move, at the same ply) that
    the others can bring about; the sequence wins when every line ends in a goal."""

    def __init__(self, game: _Game, goals: set[str], side: int, remaining: int):
        self.game, self.goals, self.side, self.remaining = game, goals, side, remaining
        self.failed: set = set()
        self.prefixes = 0

    def settle(self, level: set, ply: int):
        """Let the game run from ``level`` (positions at ``ply``) until the role is to move.

        Returns WON (every line reached a goal), LOST (some line did not) or
        ``(frontier, ply)`` with the role to move."""
        while True:
            alive = set()
            self.game.fetch(level)
            for state in level:
                end, moves = self.game.look(state)
                if end is not None:
                    if end in self.goals:
                        continue
                    return LOST                         # another end came first
                if ply >= self.remaining or not moves:
                    return LOST                         # out of plies, or a side cannot move
                alive.add(state)
            if not alive:
                return WON
            if next(iter(alive))[1] == self.side:
                return frozenset(alive), ply
            level = {target for state in alive for target in self.game.look(state)[1].values()}
            ply += 1

    def search(self, dag, cell, k: int, length: int, frontier: frozenset, ply: int):
        """A winning continuation (list of moves) of the path from ``cell`` after ``k`` moves, or None."""
        if k == length or (cell, frontier, ply) in self.failed:
            return None
        for move, target in dag.get(cell, []):
            self.prefixes += 1
            if self.prefixes > MAX_PREFIXES:
                raise LimitError(f"no_beeline: more than {MAX_PREFIXES} shortest-path prefixes to play out",
                                 "state the expectation from a position closer to the goal, or drop no_beeline")
            moved = set()
            for state in frontier:
                target_state = self.game.look(state)[1].get(move)
                if target_state is None:
                    break                                # the move is illegal here: this path fails
                moved.add(target_state)
            else:
                outcome = self.settle(moved, ply + 1)
                if outcome is WON:
                    return [move]
                if outcome is not LOST:
                    rest = self.search(dag, target, k + 1, length, *outcome)
                    if rest is not None:
                        return [move] + rest
        self.failed.add((cell, frontier, ply))
        return None
