"""An independent, plain explicit-state solver: the cross-check for the clingo solver.

Written from the semantics in the README ("What the answers mean") and nothing else: it reads
only the :mod:`gridsolve.model` data of a loaded board (and builds :class:`Position` values) and
never touches the compiler, the encodings or clingo.  It is memoised recursion over
(pieces, side to move, plies left); short and slow on purpose.

A state is ``(cells, side)``: ``cells`` the pieces' cells in role order, ``side`` an index
into ``rules.turns``.
"""
from __future__ import annotations

import itertools

from gridsolve.model import Board
from gridsolve.position import Position

DIRECTIONS = ("north", "south", "east", "west")
DELTA = {"north": (0, 1), "south": (0, -1), "east": (1, 0), "west": (-1, 0)}


class Game:
    """The game tree of one board: end conditions and moves (shared by every query on it)."""

    def __init__(self, board: Board):
        self.board = board
        self.rules = board.rules
        self.roles = board.rules.roles
        self._piece_moves: dict = {}
        self._successors: dict = {}
        self._ends: dict = {}

    # --- ends ----------------------------------------------------------------------------
    def end(self, cells):
        """The first end (in rule order) whose every condition holds, or None."""
        if cells not in self._ends:
            at = dict(zip(self.roles, cells))
            found = None
            for end in self.rules.ends:
                same = all(len({at[p] for p in group}) == 1 for group in end.same_cell)
                reach = all(at[piece] in self.board.marks[mark] for piece, mark in end.reaches)
                if same and reach:
                    found = end
                    break
            self._ends[cells] = found
        return self._ends[cells]

    # --- moves ---------------------------------------------------------------------------
    def piece_moves(self, role, start):
        """[(name, end cell)] of ``role`` from ``start``, before looking at the other pieces."""
        key = (role, start)
        if key not in self._piece_moves:
            rule = self.rules.moves[role]
            options = []
            for i in range(rule.steps):
                dirs = list(DIRECTIONS)
                if rule.idle and not (i == 0 and rule.first_step_real):
                    dirs.append("nowhere")
                options.append(dirs)
            out = []
            for seq in itertools.product(*options):
                cell, legal = start, True
                for d in seq:
                    if d == "nowhere":
                        continue
                    if self.board.open_step(cell, d):
                        cell = (cell[0] + DELTA[d][0], cell[1] + DELTA[d][1])
                    elif rule.blocked == "stay":
                        continue
                    else:
                        legal = False
                        break
                if not legal:
                    continue
                if rule.end_differs_from_start and cell == start:
                    continue
                out.append((" ".join(seq), cell))
            self._piece_moves[key] = out
        return self._piece_moves[key]

    def successors(self, state):
        """{move name: successor state} of the side to move (empty if the game has ended)."""
        if state not in self._successors:
            cells, side = state
            out = {}
            if self.end(cells) is None:
                role = self.rules.turns[side][0]
                index = self.roles.index(role)
                at = dict(zip(self.roles, cells))
                banned = {at[p] for p in self.rules.moves[role].may_not_end_on}
                nxt = (side + 1) % len(self.rules.turns)
                for name, cell in self.piece_moves(role, cells[index]):
                    if cell in banned:
                        continue
                    new = cells[:index] + (cell,) + cells[index + 1:]
                    out[name] = (new, nxt)
            self._successors[state] = out
        return self._successors[state]


class RoleSolver:
    """Minimax values and forced races for one role."""

    def __init__(self, game: Game, role: str):
        self.game = game
        self.role = role
        rules = game.rules
        self.timeout = rules.timeout[role]
        self.scores = sorted({e.scores[role] for e in rules.ends} | {self.timeout})
        self.own = frozenset(i for i, side in enumerate(rules.turns) if role in side)
        self.others = frozenset(range(len(rules.turns))) - self.own
        self._value: dict = {}
        self._forced: dict = {}

    def value(self, state, k):
        key = (state, k)
        if key not in self._value:
            end = self.game.end(state[0])
            if end is not None:
                result = end.scores[self.role]
            else:
                succ = self.game.successors(state)
                if k == 0 or not succ:
                    result = self.timeout
                else:
                    values = [self.value(s, k - 1) for s in succ.values()]
                    result = max(values) if state[1] in self.own else min(values)
            self._value[key] = result
        return self._value[key]

    def targets(self, test):
        return frozenset(e.name for e in self.game.rules.ends if test(e))

    def forced(self, attackers, targets, state, k):
        """Fewest plies (<= k) in which ``attackers`` force an end in ``targets``, or None."""
        key = (attackers, targets, state, k)
        if key not in self._forced:
            end = self.game.end(state[0])
            if end is not None:
                result = 0 if end.name in targets else None
            elif k == 0:
                result = None
            else:
                depths = [self.forced(attackers, targets, s, k - 1)
                          for s in self.game.successors(state).values()]
                if not depths:
                    result = None
                elif state[1] in attackers:
                    done = [d for d in depths if d is not None]
                    result = min(done) + 1 if done else None
                else:
                    result = None if None in depths else max(depths) + 1
            self._forced[key] = result
        return self._forced[key]

    def summary(self, state, k) -> dict:
        """value, value plies, win, win plies, survives, doom plies of ``state`` with ``k`` left."""
        v = self.value(state, k)
        t0 = self.timeout
        if v > t0:
            plies = self.forced(self.own, self.targets(lambda e: e.scores[self.role] >= v), state, k)
        elif v < t0:
            above = min(s for s in self.scores if s > v)
            plies = self.forced(self.others, self.targets(lambda e: e.scores[self.role] < above), state, k)
        else:
            plies = None
        # self-check: a value away from the timeout score is forced by someone
        assert (plies is None) == (v == t0), (v, t0, plies)
        best = self.scores[-1]
        if best > t0:
            win_plies = self.forced(self.own, self.targets(lambda e: e.scores[self.role] >= best), state, k)
            win = win_plies is not None
            assert win == (v == best), (win, v, best)
        else:
            win, win_plies = v == best, None
        doom = self.forced(self.others, self.targets(lambda e: self.role in e.loss_for), state, k)
        return {"value": v, "value_plies": plies, "win": win, "win_plies": win_plies,
                "survives": doom is None, "doom_plies": doom}


# --- the public interface -----------------------------------------------------------------

_GAMES: dict = {}


def game_of(board: Board) -> Game:
    """The (cached) game of ``board``; the cache keeps the board alive so ids stay unique."""
    entry = _GAMES.get(id(board))
    if entry is None or entry[0] is not board:
        if len(_GAMES) > 16:
            _GAMES.clear()
        entry = (board, Game(board), {})
        _GAMES[id(board)] = entry
    return entry[1]


def _solver(board: Board, role: str) -> RoleSolver:
    game_of(board)
    solvers = _GAMES[id(board)][2]
    if role not in solvers:
        solvers[role] = RoleSolver(_GAMES[id(board)][1], role)
    return solvers[role]


def _state(board: Board, position: Position):
    at = dict(position.pieces)
    return tuple(tuple(at[r]) for r in board.rules.roles), position.side


def _position(board: Board, state, step: int) -> Position:
    cells, side = state
    return Position(tuple(zip(board.rules.roles, cells)), side, step)


def remaining(board: Board, position: Position, horizon: int | None = None) -> int:
    left = board.rules.last_step - position.step
    return left if horizon is None else min(left, horizon)


def end_of(board: Board, position: Position) -> str | None:
    end = game_of(board).end(_state(board, position)[0])
    return None if end is None else end.name


def legal_moves(board: Board, position: Position) -> dict[str, Position]:
    """{move name: successor position} of the side to move; empty when the game has ended."""
    succ = game_of(board).successors(_state(board, position))
    return {name: _position(board, s, position.step + 1) for name, s in succ.items()}


def reference_answer(board: Board, role: str, kind: str, position: Position,
                     horizon: int | None = None) -> dict:
    """The answer to a query, as ``gridsolve.solver.solve`` should give it.

    Keys: ``value``, ``plies`` (as ``Answer.plies``: the value plies for ``kind="value"``, the
    win plies for ``"win"``, the doom plies for ``"survive"``), ``value_plies``, ``holds``,
    ``win``, ``win_plies``, ``survives``, ``doom_plies``, ``remaining`` and ``moves``:
    {move name: (value, plies, win, survives)} of the position after each legal move, with one
    ply fewer left (empty when the position has ended or no plies are left).
    """
    solver = _solver(board, role)
    state = _state(board, position)
    k = remaining(board, position, horizon)
    out = solver.summary(state, k)
    out["remaining"] = k
    if kind == "value":
        out["holds"], out["plies"] = True, out["value_plies"]
    elif kind == "win":
        out["holds"], out["plies"] = out["win"], out["win_plies"]
    elif kind == "survive":
        out["holds"], out["plies"] = out["survives"], out["doom_plies"]
    else:
        raise ValueError(kind)
    moves = {}
    if k > 0 and solver.game.end(state[0]) is None:
        for name, succ in solver.game.successors(state).items():
            s = solver.summary(succ, k - 1)
            moves[name] = (s["value"], s["value_plies"], s["win"], s["survives"])
    out["moves"] = moves
    return out
