"""An independent explicit search of the robust game with secret obstacles (``solve --hidden``).

Written from docs/secret-obstacles.md's description of ``--hidden`` and docs/rule-language.md ("Secret
placements") and nothing else: it imports nothing from gridsolve and reads the board and rule
files itself (tests/refboard.py; a board is given as its path or as a board gridsolve loaded,
of which only the path is used).  Memoised recursion over (state, plies left); plain and slow
on purpose.

The robust game for role R: R knows the cells it has stood on (free), the cells it bumped on
(obstacles) and nothing else of the marks it bumps on that are ``hidden``.  The others (one
coalition, minimising R's score) know everything and place those marks lazily: when R aims at
a cell it does not know, they answer "free" or, with obstacles of that mark left and the cell
allowed for it, "obstacle".  R's distance (``nearer``) avoids the obstacles it found; every
other piece's avoids the cells it bumps on as the board has them.

A state is ``(cells, turn, lost, free, found, used)``: the pieces' cells in role order, the
``turns`` entry to move, the lost-turn counters, the cells R knows free and knows blocked
(frozensets of cells) and how many obstacles of each hidden mark the others have placed.

Supports what Maze Runner Duel uses: one role per ``turns`` entry, one-step moves, ``idle``,
``may_not_end_on``, ``bump`` with ``lose_turns``, ends on ``reaches`` and ``same_cell``, and
timeout entries on ``nearer``.
"""
from __future__ import annotations

from collections import deque

try:
    import refboard
except ModuleNotFoundError:            # imported as tests.hidden_reference
    from tests import refboard

DIRECTIONS = ("north", "south", "east", "west")
DELTA = {"north": (0, 1), "south": (0, -1), "east": (1, 0), "west": (-1, 0)}
INF = float("inf")


def allowed_cells(board, mark: str) -> frozenset:
    """Where the rules let an obstacle of ``mark`` go: any cell except those ``not_on`` names
    (a piece: its start cell as the board has it; a mark: its cells)."""
    board = refboard.board_of(board)
    secret = board.rules.placement.get(mark)
    names = secret.not_on if secret else tuple(board.rules.roles)
    banned = set()
    for name in names:
        if name in board.pieces:
            banned.add(board.pieces[name])
        banned |= set(board.marks.get(name, ()))
    return frozenset((x, y) for x in range(1, board.width + 1) for y in range(1, board.height + 1)
                     if board.on_board((x, y)) and (x, y) not in banned)


class HiddenGame:
    """The robust game of ``role`` on ``board``, from R's knowledge."""

    def __init__(self, board, role: str):
        board = refboard.board_of(board)
        self.board, self.role = board, role
        rules = board.rules
        self.rules = rules
        self.roles = rules.roles
        self.index = {r: i for i, r in enumerate(self.roles)}
        move = rules.moves[role]
        self.hidden = tuple(m for m in move.bump_on if move.bump_hidden)
        self.counts = tuple(self.count(m) for m in self.hidden)
        self.allowed = tuple(allowed_cells(board, m) for m in self.hidden)
        self.scores = rules.scores_of(role)
        self._value, self._rank = {}, {}

    def count(self, mark):
        secret = self.rules.placement.get(mark)
        unplaced = self.board.unplaced.get(mark)
        if unplaced is not None:
            return unplaced
        return secret.count if secret else len(self.board.marks.get(mark, ()))

    def known_marks(self, role):
        """Cells ``role`` bumps on that are fixed on the board (not the hidden ones of R)."""
        skip = self.hidden if role == self.role else ()
        return {c for m in self.rules.moves[role].bump_on if m not in skip for c in self.board.marks.get(m, ())}

    # --- distances, ends, scores ---
    def distance(self, piece, mark, start, found):
        goal = self.board.marks.get(mark, frozenset())
        blocked = self.known_marks(piece) | (found if piece == self.role else set())
        seen, queue = {start: 0}, deque([start])       # a piece may step off a cell it bumps on
        while queue:
            cell = queue.popleft()
            if cell in goal:
                return seen[cell]
            for d in DIRECTIONS:
                if not self.board.open_step(cell, d):
                    continue
                nxt = (cell[0] + DELTA[d][0], cell[1] + DELTA[d][1])
                if nxt in seen or nxt in blocked:
                    continue
                seen[nxt] = seen[cell] + 1
                queue.append(nxt)
        return INF

    def holds(self, when, state):
        cells, found = state[0], state[4]
        at = {r: cells[i] for r, i in self.index.items()}
        for group in when.same_cell:
            if len({at[p] for p in group}) != 1:
                return False
        for piece, mark in when.reaches:
            if at[piece] not in self.board.marks.get(mark, ()):
                return False
        for piece, other, mark in when.nearer:
            if not self.distance(piece, mark, at[piece], found) < self.distance(other, mark, at[other], found):
                return False
        if when.was_on or when.collected:
            raise NotImplementedError("hidden_reference: was_on and collected are not modelled")
        return True

    def end_score(self, state):
        for end in self.rules.ends:
            if self.holds(end.when, state):
                return end.scores[self.role]
        return None

    def timeout_score(self, state):
        for entry in self.rules.timeout_when:
            if self.holds(entry.when, state):
                return entry.scores[self.role]
        return self.rules.timeout[self.role]

    # --- moves ---
    def moves(self, state):
        """[(move, [children])]: per legal move of the side to move, the states the others may
        make of it (one unless R aims at a cell it does not know)."""
        cells, turn, lost, free, found, used = state
        (mover,) = self.rules.turns[turn]
        rule = self.rules.moves[mover]
        here = cells[self.index[mover]]
        banned = {cells[self.index[p]] for p in rule.may_not_end_on}
        out = []
        options = list(DIRECTIONS) + (["nowhere"] if rule.idle else [])
        for d in options:
            if d == "nowhere":
                aim = here
            elif self.board.open_step(here, d):
                aim = (here[0] + DELTA[d][0], here[1] + DELTA[d][1])
            else:
                continue
            if aim in banned:
                continue
            if aim == here:
                out.append((d, [self.after(state, mover, aim, False, free, found, used)]))
                continue
            if aim in self.known_marks(mover) or (mover == self.role and aim in found):
                out.append((d, [self.after(state, mover, here, True, free, found, used)]))
                continue
            if mover != self.role:
                out.append((d, [self.after(state, mover, aim, False, free, found, used)]))
                continue
            children = [self.after(state, mover, aim, False, free | {aim}, found, used)]
            if aim not in free:
                for i, mark in enumerate(self.hidden):
                    if used[i] < self.counts[i] and aim in self.allowed[i]:
                        more = tuple(u + (j == i) for j, u in enumerate(used))
                        children.append(self.after(state, mover, here, True, free, found | {aim}, more))
            out.append((d, children))
        return out

    def after(self, state, mover, cell, bumped, free, found, used):
        cells, turn, lost, _, _, _ = state
        cells = tuple(cell if r == mover else cells[i] for i, r in enumerate(self.roles))
        lost = list(lost)
        if bumped:
            lost[turn] += self.rules.moves[mover].lose_turns
        n = len(self.rules.turns)
        nxt = (turn + 1) % n
        while lost[nxt] > 0:
            lost[nxt] -= 1
            nxt = (nxt + 1) % n
        return cells, nxt, tuple(lost), frozenset(free), frozenset(found), used

    def own(self, state):
        return self.role in self.rules.turns[state[1]]

    # --- values and ranks ---
    def stop(self, state, k):
        """R's score if the game stops at ``state`` with ``k`` plies left, else None."""
        score = self.end_score(state)
        if score is not None:
            return score
        if k == 0 or not self.moves(state):
            return self.timeout_score(state)
        return None

    def value(self, state, k):
        key = (state, k)
        if key not in self._value:
            stopped = self.stop(state, k)
            if stopped is not None:
                result = stopped
            else:
                per_move = [min(self.value(c, k - 1) for c in children) for _, children in self.moves(state)]
                result = max(per_move) if self.own(state) else min(per_move)
            self._value[key] = result
        return self._value[key]

    def rank(self, up: bool, bound: int, state, k):
        """Fewest plies in which R (``up``: a stop with score >= bound) or the others (a stop
        with score < bound) force such a stop; INF if they cannot."""
        key = (up, bound, state, k)
        if key in self._rank:
            return self._rank[key]

        def good(v):
            return v >= bound if up else v < bound
        if not good(self.value(state, k)):
            result = INF
        elif self.stop(state, k) is not None:
            result = 0
        else:
            attacker = self.own(state) == up
            per_move = []
            for _, children in self.moves(state):
                child = [self.rank(up, bound, c, k - 1) for c in children]
                # R's move: the others answer; an attacker R needs every answer, the others one
                per_move.append(max(child) if up else min(child))
            result = 1 + (min(per_move) if attacker else max(per_move))
        self._rank[key] = result
        return result

    def answer(self, state, k):
        """{value, plies, win, win_plies, survives, doom_plies} as ``solve --hidden --json``."""
        v = self.value(state, k)
        ref = self.timeout_score(state)
        above = [t for t in self.scores if t > v]
        if v > ref:
            plies = self.rank(True, v, state, k)
        elif v < ref:
            plies = self.rank(False, above[0], state, k)
        else:
            plies = None
        top = self.scores[-1]
        win = v == top
        # as the solver reports it: the plies of a win only where it is more than the timeout score
        win_plies = self.rank(True, top, state, k) if win and top > ref else None
        losing = [e for e in self.rules.ends if self.role in e.loss_for]
        doom = self.doom(state, k, frozenset(e.name for e in losing))
        return {"value": v, "plies": plies, "win": win, "win_plies": win_plies,
                "survives": doom == INF, "doom_plies": None if doom == INF else doom}

    def doom(self, state, k, targets, memo=None):
        """Fewest plies in which the others force an end in ``targets``; INF if they cannot."""
        memo = {} if memo is None else memo
        key = (state, k)
        if key in memo:
            return memo[key]
        end = next((e for e in self.rules.ends if self.holds(e.when, state)), None)
        if end is not None:
            result = 0 if end.name in targets else INF
        elif k == 0 or not self.moves(state):
            result = INF
        else:
            per_move = [min(self.doom(c, k - 1, targets, memo) for c in children)
                        for _, children in self.moves(state)]
            result = 1 + (max(per_move) if self.own(state) else min(per_move))
        memo[key] = result
        return result


def start_state(board, role: str, position, free=(), found=()) -> tuple:
    """The state of ``position`` with R's knowledge: ``free`` and ``found`` cells (R's own cell
    counts as free); the found obstacles are charged to the hidden marks in order."""
    game = HiddenGame(board, role)
    board = game.board
    cells = tuple(dict(position.pieces)[r] for r in board.rules.roles)
    used = [0] * len(game.hidden)
    for cell in found:
        i = next(i for i, m in enumerate(game.hidden) if used[i] < game.counts[i] and cell in game.allowed[i])
        used[i] += 1
    lost = refboard.lost_turns(board, position)
    own = cells[board.rules.roles.index(role)]
    return cells, position.side, lost, frozenset(free) | {own}, frozenset(found), tuple(used)
