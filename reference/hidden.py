"""An independent explicit search of the robust game with secret obstacles (``solve --hidden``).

Written from docs/secret-obstacles.md's description of ``--hidden`` and docs/rule-language.md ("Secret
placements") and nothing else: it imports nothing from gridsolve and reads the board and rule
files itself (reference/board.py; a board is given as its path or as a board gridsolve loaded,
of which only the path is used).  An AND-OR search with memo per (state, plies left, plies to
force within), plain on purpose.

The robust game for role R: R knows the cells it has stood on (free), the cells it bumped on
(obstacles) and nothing else of the marks it bumps on that are ``hidden``.  The others (one
coalition, minimising R's score) know everything and place those marks lazily: when R aims at
a cell it does not know, they answer "free" or, with obstacles of that mark left and the cell
allowed for it, "obstacle".  R's distance (``nearer``) is the longest the others can make it
with the obstacles they have left, placed on cells R does not know, around those it found (the
compiled robust game of the layered solver: around the found ones only, ``worst=False``);
every other piece's avoids the cells it bumps on as the board has them.

A state is ``(cells, turn, lost, free, found, used)``: the pieces' cells in role order, the
``turns`` entry to move, the lost-turn counters, the cells R knows free and knows blocked
(frozensets of cells) and how many obstacles of each hidden mark the others have placed.

Supports what Maze Runner Duel uses: one role per ``turns`` entry, one-step moves, ``idle``,
``may_not_end_on``, ``bump`` with ``lose_turns``, ends on ``reaches`` and ``same_cell``, and
timeout entries on ``nearer``.
"""
from __future__ import annotations

import itertools
from collections import deque

from . import board as refboard

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

    def __init__(self, board, role: str, worst: bool = True):
        board = refboard.board_of(board)
        self.board, self.role, self.worst = board, role, worst
        self._worst = {}
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
    def measured(self, piece, mark, start, state):
        """A piece's distance at a stop.  R's (with ``worst``): the longest it can be once the
        others place the obstacles they have left on cells R does not know (R sees only
        what it bumped on, and the others choose); without ``worst``, around the found ones."""
        found = state[4]
        if piece != self.role or not self.worst:
            return self.distance(piece, mark, start, found)
        free, used = state[3], state[5]
        key = (mark, start, free, found, used)
        if key not in self._worst:
            options = [[()]]
            for i, hidden in enumerate(self.hidden):
                unknown = sorted(self.allowed[i] - free - found - {start})
                left = min(self.counts[i] - used[i], len(unknown))
                options.append(list(itertools.combinations(unknown, left)))
            self._worst[key] = max(self.distance(piece, mark, start, found | {c for part in pick for c in part})
                                   for pick in itertools.product(*options))
        return self._worst[key]

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
            if not self.measured(piece, mark, at[piece], state) < self.measured(other, mark, at[other], state):
                return False
        if when.was_on or when.collected:
            raise NotImplementedError("hidden_reference: was_on and collected are not modelled")
        return True

    def end_score(self, state):
        for end in self.rules.ends:
            if self.holds(end.when, state):
                return end.scores[self.role]
        return None

    def by_rule(self, state):
        """Whether a conditional timeout entry (the step limit's rule) holds at ``state``."""
        return any(self.holds(entry.when, state) for entry in self.rules.timeout_when)

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

    def forced(self, goal, state, k, d):
        """Whether the attackers force a stop meeting ``goal`` within ``d <= k`` plies (``k`` left):
        ``("ge", b)`` R, a score of at least b; ``("lt", b)`` the others, a score below b;
        ``("loss", ends)`` the others, one of those ends.  A plain AND-OR search that stops at
        the first move deciding it; within d < k plies the step limit is never reached, so
        the answer does not depend on k there."""
        key = (goal, state, k if d == k else None, d)
        if key in self._rank:
            return self._rank[key]
        kind, x = goal
        score = self.stop(state, k)
        if score is not None:
            if kind == "loss":
                end = next((e for e in self.rules.ends if self.holds(e.when, state)), None)
                result = end is not None and end.name in x
            else:
                result = score >= x if kind == "ge" else score < x
        elif d == 0:
            result = False
        else:
            up = kind == "ge"
            attacker = self.own(state) == up
            result = not attacker
            for _, children in self.moves(state):
                # R's move: the others answer; an attacker R needs every answer, the others one
                # (the obstacle answers first: they decide most races soonest)
                per = (all if up else any)(self.forced(goal, c, k - 1, d - 1) for c in reversed(children))
                if per == attacker:
                    result = attacker
                    break
        self._rank[key] = result
        return result

    def value(self, state, k):
        """R's minimax score: the largest score it forces (by a stop within the k plies)."""
        for bound in reversed(self.scores[1:]):
            if self.forced(("ge", bound), state, k, k):
                return bound
        return self.scores[0]

    def least(self, goal, state, k):
        """The fewest plies in which ``goal`` is forced; INF if it is not."""
        if not self.forced(goal, state, k, k):
            return INF
        return next(d for d in range(k + 1) if self.forced(goal, state, k, d))

    def rank(self, up: bool, bound: int, state, k):
        """Fewest plies in which R (``up``: a stop with score >= bound) or the others (a stop
        with score < bound) force such a stop; INF if they cannot."""
        return self.least(("ge" if up else "lt", bound), state, k)

    def answer(self, state, k):
        """{value, plies, win, win_plies, survives, doom_plies} as ``solve --hidden --json``."""
        losing = frozenset(e.name for e in self.rules.ends if self.role in e.loss_for)
        return self._summary(self.value(state, k), self.timeout_score(state),
                             lambda up, bound: self.rank(up, bound, state, k), self.doom(state, k, losing),
                             self.by_rule(state))

    def move_answers(self, state, k):
        """{move: the answer's fields} of the side to move's moves at ``state`` (``k`` plies
        left), measured against the timeout score at ``state``; a move of R is valued before
        the others answer: its value is the least of the answers', its plies count after the
        ply (R's races need every answer, the others' one)."""
        if self.stop(state, k) is not None:
            return {}
        ref = self.timeout_score(state)
        losing = frozenset(e.name for e in self.rules.ends if self.role in e.loss_for)
        out = {}
        for move, children in self.moves(state):
            def rank(up, bound, children=children):
                ranks = [self.rank(up, bound, c, k - 1) for c in children]
                return max(ranks) if up else min(ranks)
            v = min(self.value(c, k - 1) for c in children)
            doom = min(self.doom(c, k - 1, losing) for c in children)
            out[move] = self._summary(v, ref, rank, doom, self.by_rule(state))
        return out

    def _summary(self, v, ref, rank, doom, by_rule):
        above = [t for t in self.scores if t > v]
        top, lowest = self.scores[-1], self.scores[0]
        # the top or lowest score where the step limit's rule (a conditional timeout entry) gives
        # it: R (top) or the others (lowest) force it, by an end or by the step limit, fastest
        forced_top = by_rule and v == ref == top
        forced_low = by_rule and v == ref == lowest and v != top
        if v > ref or forced_top:
            plies = rank(True, v)
        elif v < ref or forced_low:
            plies = rank(False, above[0])
        else:
            plies = None
        plies = None if plies == INF else plies
        win = v == top
        # as the solver reports it: the plies of a win only where the role forces it
        win_plies = rank(True, top) if win and (top > ref or forced_top) else None
        win_plies = None if win_plies == INF else win_plies
        return {"value": v, "plies": plies, "win": win, "win_plies": win_plies,
                "survives": doom == INF, "doom_plies": None if doom == INF else doom}

    def doom(self, state, k, targets):
        """Fewest plies in which the others force an end in ``targets``; INF if they cannot."""
        return self.least(("loss", targets), state, k)


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
