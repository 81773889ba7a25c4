"""Robust answers (``solve --hidden``) at the full step limit: the role's knowledge searched on
top of the game without it.

The robust game (README, "Secret obstacles") is the game in which the role knows only its own
marks and what it has seen: the cells it stood on (free), the cells it bumped on (obstacles)
and how many obstacles the others have placed.  The others place their obstacles as late as
the role bumps, so every placement is open to them.  A position is therefore an *abstract*
position (pieces, side, lost turns: the game on the board without the hidden marks, ground
once by clingo from the compiled rules, :mod:`gridsolve.solve.graph.abstractgame`) and the knowledge:
three small integers (the cells known free and found blocked, as bits over the cells a hidden
mark may occupy, and the obstacles placed per hidden mark).  Only the role's own plies change
the knowledge: a move into a cell it does not know is answered by the others, ``free`` (the
role steps there and knows it) or ``obstacle`` (placed now: the role stays, loses its turns
and knows it); a found cell always bumps, a known free cell never does.

Every question is a set of threshold races, as in the bounded solver
(:mod:`gridsolve.solve.bounded.search`): "can the role force a stop with a score of at least v within d
plies", "can the others force one below v", "can the others force an end the role must avoid".
Each race is an AND-OR search with a transposition table over (abstract position, knowledge)
(the threshold race search of :mod:`gridsolve.solve.threshold.racesearch`, whose hooks
:class:`KnowingSolver` fills in), and the game without knowledge gives the bounds that decide a position without expanding it:

* the role is never better off than where it may *choose* to bump or not (the abstract game
  with a bump beside every move into a cell a hidden mark may hold): where the others force
  an end the role must avoid in that game within ``d`` plies, they force it in the robust game
  too; where the role cannot force its top end there before the plies run out, no knowledge
  lets it;
* the role is never worse off than where every cell it does not know bumps (the others place
  everywhere they may): a race the role wins there is won in the robust game.

So the step limit (Maze Runner Duel: 40 plies) is no obstacle where the others or the role can
force an end early, which the rule book's game mostly allows.  The answers are those of the
layered solver's robust game (``encodings/layered.lp``), field for field: the role's ply is one
ply in which it commits to its move and the others answer what the cell holds.
"""
from __future__ import annotations

import itertools
import time
from collections import deque
from dataclasses import replace

import clingo

from ...language.distance import UNREACHABLE, board_cells, bump_cells, step_distances
from ...language.position import next_turn
from ...compile.gamerules import live_ends
from ...compile.knowledge import knowledge_for, robust_board
from ...compile.state import learned
from ...language.model import DELTA, DIRECTIONS, Board
from ...language.position import Position, Query
from ..graph.abstractgame import AbstractGame, abstract_game, avoid_ends
from ..common.capabilities import EVERY_POSITION, every_position_count
from ..common.limits import LimitGuard
from ..common.answer import Answer, Ply, ThresholdStats, SolveStats, hidden_move
from ..common.outcome import Candidate, Outcome, keyed, pick, principal_line, read_answer, reference_score
from ..program.driver import format_move
from ..common.limits import Limits
from ..threshold.racesearch import DOWN, UP, ThresholdSearch
from .kernel import KnowingArrays, KnowingKernel, kernel_serves, knowing_arrays, plies_arrays
from ...language.kinds import QueryKind

ENTRY_BYTES = 300          # about this many bytes per transposition-table entry
DEEPENING = 1.5            # each round of iterative deepening looks this many times as far as the last


class KnowingGame:
    """The abstract game of the robust board, closed under the role's bumps, with what the
    role's plies do to its knowledge (``kfree``, ``kfound`` bits over ``knows.cells``,
    ``used`` obstacles per hidden mark)."""

    def __init__(self, board: Board, role: str, positions: list[Position], closed: tuple | None = None):
        """``closed``: (game, bumped) of ``board`` already closed under the role's bumps (else
        ground here from ``positions``; given, ``positions`` are its roots)."""
        self.board, self.role = board, role
        rules = board.rules
        self.knows = knowledge_for(board, role)
        self.robust = robust_board(board, self.knows)
        self.bit = {cell: 1 << k for k, cell in enumerate(self.knows.cells)}
        self.allowed = [sum(self.bit[c] for c in cells if c in self.bit) for cells in self.knows.allowed]
        self.total = sum(self.knows.counts)
        self.index = rules.roles.index(role)
        self.role_turns = {t for t, movers in enumerate(rules.turns) if role in movers}
        self.lose = rules.moves[role].lose_turns
        if closed is None:
            self.roots = [_abstract(p) for p in positions]
            self.game = self._closed(self.roots)
        else:
            self.roots = positions
            self.game, self.bumped = closed
        self.kernel_arrays: dict = {}     # what the races in C read of the positions (kernel.py)
        self.redirected: dict | None = None     # {ply number: successor} where another game's plies were led elsewhere
        self._plies: dict = {}
        self._distance: dict = {}
        self._tscore: dict = {}
        self.conditions = [t.when for t in rules.timeout_when]
        self.at_timeout = [t.scores[role] for t in rules.timeout_when] + [rules.timeout[role]]
        self.knows_distance = any(role in (p, o) for when in self.conditions for p, o, _ in when.nearer)
        self.other_distance = {(p, m): step_distances(self.robust, self.robust.marks.get(m, ()), bump_cells(self.robust, p))
                               for when in self.conditions for piece, other, m in when.nearer
                               for p in (piece, other) if p != role}

    # --- the abstract game, closed under the bumps -------------------------------------------
    def _closed(self, roots: list[Position]) -> AbstractGame:
        """Ground the abstract game from ``roots`` and again from the bump positions it lacks."""
        while True:
            game = abstract_game(self.robust, roots)
            missing = []
            for state in range(len(game)):
                if game.turn[state] in self.role_turns and game.outcome[state] is None:
                    term = self._bump_term(game, state)
                    if game.graph.find(clingo.parse_term(term)) < 0:
                        missing.append(term)
            if not missing:
                break
            roots = roots + [game.codec.position(clingo.parse_term(t), 0) for t in dict.fromkeys(missing)]
        self.bumped = [None] * len(game)
        for state in range(len(game)):
            if game.turn[state] in self.role_turns and game.outcome[state] is None:
                self.bumped[state] = game.state_of_term(clingo.parse_term(self._bump_term(game, state)))
        return game

    def _lost_of(self, game: AbstractGame, state: int) -> tuple[int, ...]:
        if not game.layout.lost:
            return (0,) * len(self.board.rules.turns)
        roles = len(game.layout.roles)
        return tuple(game.arguments(state)[1 + 2 * roles:1 + 2 * roles + game.layout.turns])

    def _bump_term(self, game: AbstractGame, state: int, lose: int | None = None) -> str:
        """The position after the side to move at ``state`` bumps (by default the role): it stays,
        loses ``lose`` turns (the role's), the next moves."""
        lost = list(self._lost_of(game, state))
        lost[game.turn[state]] += self.lose if lose is None else lose
        turn, lost = next_turn(game.turn[state], tuple(lost))
        cells = [f"{x},{y}" for x, y in game.cells[state]]
        fields = [str(v) for v in lost] if game.layout.lost else []
        return game.layout.term(str(turn), cells, fields)

    # --- knowledge -----------------------------------------------------------------------------
    def position_after(self, before: Position, was: tuple, state: int, know: tuple) -> Position:
        """The position of abstract position ``state`` with ``know``, a ply after ``before``
        (whose knowledge was ``was``), with what the role knows there."""
        def found(bits: int) -> set:
            return {cell for cell, bit in self.bit.items() if bits & bit}
        bumped = self.knows.newly_found(found(was[1]), was[2], found(know[1]), know[2])
        return learned(before, self.game.position(state, before.step + 1), self.role, bumped)


    def knowledge(self, position: Position) -> tuple[int, int, tuple[int, ...]]:
        """(free bits, found bits, obstacles placed per hidden mark) of ``position``."""
        used = tuple(sum(1 for m, _ in position.found if m == mark) for mark in self.knows.marks)
        found = sum(self.bit[c] for _, c in position.found if c in self.bit)
        free = sum(self.bit[c] for c in {*position.free, position.cell(self.role)} if c in self.bit)
        return self._canonical(free, found, used)

    def _canonical(self, free: int, found: int, used: tuple) -> tuple:
        """Once every obstacle is placed, every cell not found is free: the free bits say nothing."""
        return (0 if sum(used) >= self.total else free & ~found, found, used)

    def plies(self, state: int, know: tuple) -> list[tuple[str, list[tuple[str | None, int, tuple]]]]:
        """[(move, [(answer, successor, knowledge after)])]: the plies from abstract position ``state`` with
        ``know``; the answers are the others' (``free``, ``obstacle``, ``placed``) where the role
        moves, one ``None`` entry otherwise."""
        key = (state, know)
        found = self._plies.get(key)
        if found is None:
            found = self._plies[key] = self._make_plies(state, know)
        return found

    def _make_plies(self, state: int, know: tuple) -> list:
        game = self.game
        edges = [(format_move(move), successor) for move, successor in game.moves(state)]
        if game.turn[state] not in self.role_turns:
            return [(move, [(None, successor, know)]) for move, successor in edges]
        free, found, used = know
        here = game.cells[state][self.index]
        bump = self.bumped[state]
        out = []
        for move, successor in edges:
            aim = game.cells[successor][self.index]
            bit = self.bit.get(aim, 0)
            if aim == here or not bit or free & bit:
                out.append((move, [("free", successor, know)]))
            elif found & bit:
                out.append((move, [("obstacle", bump, know)]))
            elif sum(used) >= self.total:
                out.append((move, [("free", successor, know)]))
            else:
                answers = [("free", successor, (free | bit, found, used))]
                for mark, count in enumerate(self.knows.counts):
                    if used[mark] < count and self.allowed[mark] & bit:
                        more = tuple(placed + (other == mark) for other, placed in enumerate(used))
                        answers.append((f"placed({mark + 1})" if len(self.knows.marks) > 1 else "placed",
                                        bump, self._canonical(free, found | bit, more)))
                out.append((move, answers))
        return out

    # --- scores --------------------------------------------------------------------------------
    def timeout_score(self, state: int, know: tuple) -> int:
        """The role's score if the plies run out at ``state``: the first timeout entry that holds, the
        role's distance (``nearer``) avoiding the obstacles it found."""
        if not self.knows_distance:
            entry = self.game.tmatch[state]
            return self.at_timeout[entry if entry is not None else -1]
        key = (state, know)
        found = self._tscore.get(key)
        if found is None:
            found = self._tscore[key] = next(
                (s for when, s in zip(self.conditions, self.at_timeout) if self._holds(when, state, know)),
                self.at_timeout[-1])
        return found

    def by_rule(self, state: int, know: tuple) -> bool:
        """Whether a conditional timeout entry (the step limit's rule) holds at ``state``."""
        if not self.knows_distance:
            return self.game.tmatch[state] is not None
        return any(self._holds(when, state, know) for when in self.conditions)

    def _holds(self, when, state: int, know: tuple) -> bool:
        cells = dict(zip(self.board.rules.roles, self.game.cells[state]))
        if not self.holds_but_role(when, cells):
            return False
        for piece, other, mark in when.nearer:
            if self.role in (piece, other) and \
                    not self._dist(piece, mark, cells[piece], know) < self._dist(other, mark, cells[other], know):
                return False
        return True

    def holds_but_role(self, when, cells: dict) -> bool:
        """Whether ``when`` holds with the pieces on ``cells`` ({role: cell}), the clauses
        that read the role's distance left out."""
        for group in when.same_cell:
            if len({cells[p] for p in group}) != 1:
                return False
        for piece, mark in when.reaches:
            if cells[piece] not in self.robust.marks.get(mark, ()):
                return False
        for piece, other, mark in when.nearer:
            if self.role not in (piece, other) and \
                    not self._dist(piece, mark, cells[piece], ()) < self._dist(other, mark, cells[other], ()):
                return False
        return True

    def _dist(self, piece: str, mark: str, cell, know: tuple) -> int:
        """A piece's distance at a stop; the role's is the longest the others can make it with
        the obstacles they have left, on cells it does not know (they place them as late as
        that: the rule book measures "avoiding known obstacles", and the role cannot tell a
        cell it never tried from an obstacle)."""
        if piece != self.role:
            return self.other_distance[(piece, mark)].get(cell, UNREACHABLE)
        free, found, used = know
        obstacles_left = tuple(count - placed for count, placed in zip(self.knows.counts, used))
        key = (mark, cell, free, found, obstacles_left)
        out = self._distance.get(key)
        if out is None:
            out = self._distance[key] = self._longest(mark, cell, found | free, found, obstacles_left)
        return out

    def _longest(self, mark: str, cell, known: int, blocked: int, obstacles_left: tuple) -> int:
        """The role's longest distance from ``cell`` when the others add up to ``obstacles_left[k]``
        obstacles of hidden mark k on allowed cells not ``known``: an added obstacle lengthens
        it only on a shortest way, so only the cells of one such way are tried."""
        path = self._shortest(mark, cell, blocked)
        if path is None:
            return UNREACHABLE
        best = len(path) - 1
        for step in path[1:]:
            bit = self.bit.get(step, 0)
            if not bit or known & bit:
                continue
            for mark_index, more in enumerate(obstacles_left):
                if more and self.allowed[mark_index] & bit:
                    fewer = tuple(count - (index == mark_index) for index, count in enumerate(obstacles_left))
                    best = max(best, self._longest(mark, cell, known | bit, blocked | bit, fewer))
                    if best >= UNREACHABLE:
                        return best
        return best

    def _shortest(self, mark: str, start, blocked: int) -> list | None:
        """A shortest way of the role from ``start`` to ``mark`` never entering a blocked cell."""
        board, goal = self.robust, self.robust.marks.get(mark, ())
        before = {start: None}
        queue = deque([start])
        while queue:
            cell = queue.popleft()
            if cell in goal:
                path = []
                while cell is not None:
                    path.append(cell)
                    cell = before[cell]
                return path[::-1]
            for direction in DIRECTIONS:
                if board.open_step(cell, direction):
                    neighbour = (cell[0] + DELTA[direction][0], cell[1] + DELTA[direction][1])
                    if neighbour not in before and not blocked & self.bit.get(neighbour, 0):
                        before[neighbour] = cell
                        queue.append(neighbour)
        return None


class KnowingSolver(ThresholdSearch):
    """Threshold races of one role over a :class:`KnowingGame` (the hooks of
    :class:`~gridsolve.solve.threshold.racesearch.ThresholdSearch`); see the module docstring."""

    entry_bytes = ENTRY_BYTES
    label = "robust search"
    deepening = DEEPENING

    def __init__(self, kgame: KnowingGame, limits: Limits | None = None, guard: LimitGuard | None = None,
                 prune: bool = True, native: bool = True):
        board, role = kgame.board, kgame.role
        rules = board.rules
        limits = limits or Limits()
        super().__init__(kgame.game, {t for t in range(len(rules.turns)) if rules.own_turn(t, role)},
                         avoid_ends(board, role), rules.max_plies, limits,
                         guard or LimitGuard(limits, "the robust positions", lambda needed: ""), prune)
        self.kgame, self.role = kgame, role
        self.thresholds = rules.scores_of(role)
        self.at_end = {e.name: e.scores[role] for e in live_ends(board)}
        self.top_ends = {name for name, s in self.at_end.items() if s == self.thresholds[-1]}
        self.avoid_best = max((self.at_end[name] for name in self.avoid if name in self.at_end),
                              default=self.thresholds[-1])
        self._order: dict = {}
        # the races in C where compiled (gridsolve/solve/hidden/kernel.py; it computes the
        # bounds too, the same ranks as _bounds), else None
        self.kernel = KnowingKernel(self) if native and kernel_serves(self) else None
        if self.kernel is None:
            self._bounds()

    def native(self):
        return self.kernel

    def forget(self) -> None:
        """Drop the transposition tables (kept for the next question until they grow too big)."""
        super().forget()
        self._order.clear()

    def kernel_arrays(self, plies: tuple | None = None) -> KnowingArrays:
        """What the races in C read of this search, one object (:mod:`.kernel`; its bounds known):
        ``plies``, the plies' arrays where built already."""
        return knowing_arrays(self, plies or plies_arrays(self.kgame))

    # --- the bounds of the game without knowledge --------------------------------------------
    def _bounds(self) -> None:
        """``doom_free``: the plies within which the others force an avoided end where the role
        may choose to bump or not (the role at its strongest); ``top_free``: the plies within
        which the role forces an end with its top score there; ``doom_walled``: the others'
        avoided end where every unknown cell the role aims at bumps (the role at its weakest)."""
        game, kgame = self.game, self.kgame
        others = set(range(len(kgame.board.rules.turns))) - self.team_turns
        bumped = kgame.bumped       # (a bump beside the role's moves: its choice)
        self.doom_free = game.retrograde(others, game.ended_in(self.avoid), bumped)
        self.top_free = game.retrograde(self.team_turns, game.ended_in(self.top_ends), bumped)

    # --- the game: the hooks of the threshold search ---------------------------------------------
    def end_score(self, state: int, know: tuple) -> int:
        return self.at_end[self.game.outcome[state]]

    def timeout_score(self, state: int, know: tuple) -> int:
        return self.kgame.timeout_score(state, know)

    def forced_at_limit(self, race: tuple, state: int, know: tuple, plies_left: int) -> bool:
        """The others' race below a threshold at the step limit is the role's race to it, lost."""
        if race[0] == DOWN:
            return not self.forces((UP, race[1]), state, know, plies_left, plies_left)
        return self.forces(race, state, know, plies_left, plies_left)

    def race_plies(self, race: tuple, state: int, know: tuple, attacking: bool) -> list:
        """The plies, the likeliest to decide first: the role's moves nearest its top end, the
        others' nearest an end the role must avoid; each the others' answers to it."""
        key = (state, know)
        found = self._order.get(key)
        if found is None:
            rank = self.top_free if self.game.turn[state] in self.team_turns else self.doom_free
            ordered = sorted(self.kgame.plies(state, know),
                             key=lambda ply: min(rank[successor] for _, successor, _ in ply[1]))
            found = self._order[key] = [tuple((successor, after) for _, successor, after in answers)
                                        for _, answers in ordered]
        return found

    def bound(self, race: tuple, state: int, know: tuple, plies_left: int, within: int) -> bool | None:
        """The race's answer where the game without knowledge decides it, else None."""
        kind, threshold = race
        top = self.thresholds[-1]
        if kind == "avoid":
            if self.doom_free[state] <= within:
                return True          # the others force it even where the role chooses its bumps
            return None
        # where the others force an avoided end within the plies left even where the role
        # chooses its bumps, every play ends there: the role scores at most the best of those ends
        if self.doom_free[state] <= within and self.avoid_best < threshold:
            return kind == "down"
        if kind == "up" and threshold == top and self.top_free[state] > within and within < plies_left:
            # no stop within ``within`` plies can score the top: an end with it is out of reach, and
            # only an end or a side without a move stops the game before the limit
            if not self.stuck_can_top():
                return False
        return None

    def stuck_can_top(self) -> bool:
        """Whether a side without a move can stop the game (where the step limit's rule may give the top)."""
        found = getattr(self, "_stuck_top", None)
        if found is None:
            found = self._stuck_top = any(not self.game.has_moves[state] and self.game.outcome[state] is None
                                          for state in range(len(self.game)))
        return found

    # --- answers -------------------------------------------------------------------------------
    def value(self, state: int, know: tuple, plies_left: int) -> int:
        score = self.stop_score(state, know, plies_left)
        if score is not None:
            return score
        for threshold in reversed(self.thresholds[1:]):
            if self.reaches(threshold, state, know, plies_left):
                return threshold
        return self.thresholds[0]

    def answer_rank(self, race: tuple, answers: list, plies_left: int) -> int | None:
        """The rank of a committed move (the others still to answer; ``plies_left`` plies after the
        ply): the role's races need every answer (the others delay), theirs one (they hurry)."""
        ranks = [self.rank(race, successor, know_after, plies_left) for _, successor, know_after in answers]
        if race[0] == "up":
            return None if None in ranks else max(ranks)
        done = [r for r in ranks if r is not None]
        return min(done) if done else None

    def summary(self, value: int, reference: float, rank) -> Outcome:
        """The outcome (value, plies, win, win plies, survival, doom plies) from the value, the
        reference and ``rank(race)`` of a node (as encodings/layered.lp)."""
        top = self.thresholds[-1]
        if value > reference:
            plies = rank(("up", value))
        elif value < reference:
            plies = rank(("down", min(t for t in self.thresholds if t > value)))
        else:
            plies = None
        win_plies = (plies if value > reference else rank(("up", top))) if value == top and top > reference else None
        # an end the role must avoid scores at most avoid_best: where the role forces more, none is forced
        doom = None if value > self.avoid_best else rank(("avoid", None))
        return Outcome(value, plies, value == top, win_plies, doom is None, doom)

    def reference(self, state: int, know: tuple) -> float:
        """The score the plies of an answer are measured against: the step limit's at ``state``
        (half a point inside where its rule gives the role's top or lowest score: the role, or
        the others, force it, by an end or by the step limit, and the plies count the fastest way)."""
        return reference_score(self.kgame.timeout_score(state, know), self.kgame.by_rule(state, know),
                               self.thresholds[0], self.thresholds[-1])

    def at(self, state: int, know: tuple, plies_left: int, reference: float) -> Outcome:
        return self.summary(self.value(state, know, plies_left), reference, lambda race: self.rank(race, state, know, plies_left))

    def move(self, answers: list, plies_left: int, reference: float) -> Outcome:
        """The outcome of a move whose answers lead to ``answers`` (``plies_left`` plies after it)."""
        values = [self.value(successor, know_after, plies_left) for _, successor, know_after in answers]
        return self.summary(min(values), reference, lambda race: self.answer_rank(race, answers, plies_left))

    def moves(self, state: int, know: tuple, plies_left: int, reference: float) -> list[tuple[str, list, dict]]:
        if self.stop_score(state, know, plies_left) is not None:
            return []
        return [(move, answers, self.move(answers, plies_left - 1, reference)) for move, answers in self.kgame.plies(state, know)]

    def _worth(self, value: int, answers: list, plies_left: int, team: bool) -> bool:
        """Whether a move (the others' answers to it) is worth exactly ``value``: a move of the
        role's side is worth at most the line's value, one of the others at least."""
        if team:
            return value == self.thresholds[0] or all(self.reaches(value, successor, know_after, plies_left)
                                                      for _, successor, know_after in answers)
        above = [t for t in self.thresholds if t > value]
        return not above or not any(self.reaches(above[0], successor, know_after, plies_left)
                                    for _, successor, know_after in answers)

    def plies_of(self, value: int, reference: float, answers: list, plies_left: int) -> int | None:
        """The plies of a move worth ``value`` (the others' answers to it): its race's rank,
        None at the reference."""
        if value > reference:
            return self.answer_rank(("up", value), answers, plies_left)
        if value < reference:
            return self.answer_rank(("down", min(t for t in self.thresholds if t > value)), answers, plies_left)
        return None


class KnowingView:
    """The outcome view of a robust search (a :class:`~gridsolve.solve.common.outcome.OutcomeView`):
    a view position is (abstract position, knowledge, plies left), its plies measured against
    ``reference``; a move is followed by the others' answers to it.  The principal line from
    ``root`` (by the one rule, as encodings/layered.lp) has the root's value at every position,
    so only the moves worth exactly that are candidates (one race each tells); after the role's
    move the others pick their answer by the same rule."""

    def __init__(self, solver: KnowingSolver, reference: float, root: tuple):
        self.solver, self.reference, self.root = solver, reference, root
        self._outcomes: dict = {}

    def outcome(self, view_state: tuple) -> Outcome:
        found = self._outcomes.get(view_state)
        if found is None:
            found = self._outcomes[view_state] = self.solver.at(*view_state, self.reference)
        return found

    def moves(self, view_state: tuple) -> list[tuple[str, list, Outcome]]:
        return self.solver.moves(*view_state, self.reference)

    @property
    def value(self) -> int:
        """The line's value: the root's."""
        return self.outcome(self.root).value

    def line(self, start: Position, most: int | None = None) -> tuple[Ply, ...]:
        """The principal line from ``start`` (the root), at most ``most`` plies (None: to its end)."""
        return principal_line(self, start, self.root, most)

    def candidates(self, line_state: tuple) -> list[Candidate]:
        solver, value = self.solver, self.value
        state, know, plies_left = line_state
        if solver.stop_score(state, know, plies_left) is not None:
            return []
        team = self.maximises(line_state)
        return keyed(((move, answers, value, solver.plies_of(value, self.reference, answers, plies_left - 1))
                      for move, answers in solver.kgame.plies(state, know)
                      if solver._worth(value, answers, plies_left - 1, team)), self.reference)

    def maximises(self, line_state: tuple) -> bool:
        return self.solver.game.turn[line_state[0]] in self.solver.team_turns

    def accept(self, line_state: tuple, candidate: Candidate) -> bool:
        return True

    def side(self, line_state: tuple) -> tuple[str, ...]:
        return tuple(self.solver.kgame.board.rules.turns[self.solver.game.turn[line_state[0]]])

    def play(self, line_state: tuple, candidate: Candidate, before: Position) -> tuple[str, tuple, Position]:
        solver, value = self.solver, self.value
        _, was, plies_left = line_state
        answers, said = candidate.move, candidate.order
        if answers[0][0] is not None:
            replies = keyed(((name, (name, successor, after), value,
                              solver.plies_of(value, self.reference, [(name, successor, after)], plies_left - 1))
                             for name, successor, after in answers
                             if solver._worth(value, [(name, successor, after)], plies_left - 1, False)),
                            self.reference)
            name, state, know = pick(replies, False).move
            said = hidden_move(said, name)
        else:
            state, know = answers[0][1], answers[0][2]
        return said, (state, know, plies_left - 1), solver.kgame.position_after(before, was, state, know)


def _search_limits(board: Board, query: Query, limits: Limits) -> LimitGuard:
    plies_left = query.remaining(board)

    fewer = f"ask about fewer plies with --horizon N (N < {plies_left})"
    return LimitGuard(limits, f"the robust positions within {plies_left} plies",
                      lambda needed: f"raise --max-memory, or {fewer}", smaller=fewer)


def _abstract(position: Position) -> Position:
    return replace(position, free=frozenset(), found=frozenset())


SHARED_ENTRIES = 1_000_000    # the transposition table kept for the next question: at most this many entries
_PREPARED: dict = {}      # (board id, role, prune, native) -> (board, KnowingGame, KnowingSolver): the last few


def _prepared(board: Board, query: Query, limits: Limits, guard: LimitGuard, prune: bool, native: bool = True):
    """The game and solver of ``board`` and the query's role, kept between questions (``ask``:
    the abstract game is ground once for the positions asked about so far, and the races'
    transposition table, which does not depend on the position asked about, is shared)."""
    key = (id(board), query.role, prune, native)
    found = _PREPARED.get(key)
    roots = [query.position]
    if found is not None and found[0] is board:
        kgame, solver = found[1], found[2]
        if kgame.game.find(_abstract(query.position)) is not None:
            if solver.remembered() + len(kgame._plies) > SHARED_ENTRIES:
                solver.forget(), kgame._plies.clear()
            solver.limits, solver.guard, solver.nodes, solver._reported = limits, guard, 0, 0.0
            if solver.kernel:
                solver.kernel.counted = solver.kernel.stats()[0]
            return kgame, solver
        roots = _every_position(board) or [*kgame.roots, query.position]
    kgame = KnowingGame(board, query.role, roots)
    solver = KnowingSolver(kgame, limits, guard, prune, native)
    if len(_PREPARED) >= 4:
        _PREPARED.pop(next(iter(_PREPARED)))
    _PREPARED[key] = (board, kgame, solver)
    return kgame, solver


def _every_position(board: Board) -> list[Position] | None:
    """Every placement of the pieces on distinct cells, side to move and lost turns (each turns
    entry but the one to move may have lost up to the most a bump costs), if at most
    ``EVERY_POSITION``: the abstract game of many questions, ground once."""
    rules = board.rules
    if every_position_count(board) > EVERY_POSITION:
        return None
    cells = board_cells(board)
    lose = max((m.lose_turns for m in rules.moves.values() if m.bump_on), default=0)
    entries = len(rules.turns)
    out = []
    for placed in itertools.permutations(cells, len(rules.roles)):
        pieces = tuple(zip(rules.roles, placed))
        for side in range(entries):
            for lost in itertools.product(range(lose + 1), repeat=entries):
                if lost[side] == 0 and (lose or not any(lost)):
                    out.append(Position(pieces, side, 0, lost=lost if lose else ()))
    return out


def solve_knowing(board: Board, query: Query, limits: Limits | None = None, line_plies: int | None = None,
                  prune: bool = True, native: bool = True) -> Answer:
    """The robust answer to the ``--hidden`` question ``query`` (the caller checked
    that the robust search serves it: :mod:`gridsolve.solve.common.capabilities`), exact for its plies left (the step limit, or ``--horizon``); ``native=False``
    searches in Python where the races in C would serve."""
    started = time.perf_counter()
    limits = limits or Limits()
    guard = _search_limits(board, query, limits)
    kgame, solver = _prepared(board, query, limits, guard, prune, native)
    grounded = time.perf_counter()
    root = kgame.game.state_of(_abstract(query.position))
    know = kgame.knowledge(query.position)
    plies_left = query.remaining(board)
    reference = solver.reference(root, know)
    view = KnowingView(solver, reference, (root, know, plies_left))
    at = view.outcome(view.root)
    probes = view.moves(view.root)
    line = view.line(query.position, line_plies)
    solved = time.perf_counter()
    stats = SolveStats(solver="robust search", ground_s=round(grounded - started, 4),
                       total_s=round(solved - started, 4), detail=ThresholdStats(
                           abstract_positions=len(kgame.game), ground_atoms=kgame.game.ground_atoms,
                           search_s=round(solved - grounded, 4), searched=solver.nodes, remembered=solver.remembered(),
                           search_in="C" if solver.kernel else "Python"))
    return read_answer(board, query, at, ((move, there) for move, _, there in probes), line, plies_left, stats,
                       hidden=True)


def placement_values(board: Board, role: str, position: Position, placements: list[dict],
                     limits: Limits | None = None) -> list[dict[str, int]]:
    """For each placement ({hidden mark: cells}) of the marks hidden from ``role``, {move: value}
    of the role's moves from ``position`` (the role to move) with full information, to the step
    limit: the robust position with every obstacle found (then every other cell is free)."""
    limits = limits or Limits()
    query = Query(role, QueryKind.VALUE, position, hidden=True)
    kgame, solver = _prepared(board, query, limits, _search_limits(board, query, limits), True)
    state = kgame.game.state_of(_abstract(position))
    plies_left = query.remaining(board)
    marks = kgame.knows.marks
    out = []
    for placement in placements:
        used = tuple(len(placement.get(m, ())) for m in marks)
        found = sum(kgame.bit[c] for cells in placement.values() for c in cells)
        know = kgame._canonical(0, found, used)
        values = {}
        for move, answers in kgame.plies(state, know):
            values[move] = min(solver.value(successor, know_after, plies_left - 1) for _, successor, know_after in answers)
        out.append(values)
    return out
