"""Play a board in the terminal: humans against the solver's optimal strategy, or against each other.

The game reads one command per line, so a script can drive it: a move name (or an
unambiguous prefix), ``hint`` (every move's value and plies), ``board`` (draw the position)
or ``quit``.  Where several roles move in one ply, every human among them enters a move,
and the solver commits to its roles' moves without seeing the humans' (the conservative
guarantee it solves for).  Cells a role bumps on that the rules mark ``hidden`` are not drawn
for a human player until its piece has bumped on them.

Secret marks the board leaves unplaced are placed first: each human player types its cells
(never shown to the others), the computer chooses its own (:mod:`gridsolve.play.placement`).  A
computer role whose bump marks are hidden does not peek: it decides from its own knowledge
(:mod:`gridsolve.play.blind`), and ``hint`` gives a human in that role the robust answer and each
move's share of the placements it wins against.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass, replace
from typing import Callable, Iterator

from . import blind, placement
from ..errors import LimitError, MemoryLimitError, QueryError
from ..language.secret import hidden_marks, not_on, owner
from ..solve.program.explore import Step, examine, move_parts, stop_scores
from ..language import wording
from ..language.model import OFF_BOARD, Board, Cell
from ..language.position import Position, Query
from ..render import draw_position, puzzle_verdict
from ..solve.dispatch.asker import Asker
from ..solve.common.answer import Answer
from ..solve.common.limits import Limits
from ..language.kinds import QueryKind
from .thinkahead import ThinkAhead

SECONDS_PER_MOVE = 20          # about how long the solver may think about a move

@dataclass
class Outcome:
    end: str                      # the end condition's name, "timeout", "stuck" or "quit"
    scores: dict[str, int]
    plies: int


UNDO = object()      # what a human's "undo" returns: take the last ply back


def _cell(cell) -> str:
    return f"({cell[0]},{cell[1]})"


def target(board: Board, cell: Cell, move: str) -> Cell:
    """The cell ``move`` walks to from ``cell``, before bumps and the other pieces count."""
    for step in move.split():
        cell = board.walk(cell, step)
    return cell


ALIASES = {"up": "north", "down": "south", "left": "west", "right": "east", "stay": "nowhere"}


def _choose(text: str, names: list[str]) -> str | None:
    """The move named by ``text``: an exact name, or a prefix of exactly one name; ``up``,
    ``down``, ``left``, ``right`` and ``stay`` stand for north, south, west, east and nowhere."""
    text = " ".join(ALIASES.get(word, word) for word in text.lower().split())
    if text in names:
        return text
    prefixed = [n for n in names if n.startswith(text)] if text else []
    return prefixed[0] if len(prefixed) == 1 else None


class Thinker:
    """Asks the solver.  Unless the player chose a horizon, the first question of each kind
    about a role tells how far the solver can look for it: to the step limit if that fits in
    about ``SECONDS_PER_MOVE``, else the largest horizon (2, 4, 6, ...) whose answer takes no
    more than an eighth of that.  Questions the race solver answers share one grounding (an
    :class:`~gridsolve.solve.dispatch.asker.Asker` rooted at the first position asked about: every later
    position of the game is reachable from it); only the first move of a principal line is
    computed, which is all the game uses.  While a human chooses a move, the computer's next
    questions are asked ahead in the background (:mod:`gridsolve.play.thinkahead`)."""

    def __init__(self, board: Board, horizon: int | None, say: Callable[[str], None], limits: Limits | None = None):
        self.board, self.horizon, self.say = board, horizon, say
        self.horizons: dict[tuple[str, str], int | None] = {}
        self.stopped: LimitError | None = None     # why the last question did not fit
        self.asker = Asker(board, limits=limits)
        self.ahead = ThinkAhead(self.asker)

    def _solve(self, query: Query, limits: Limits | None = None) -> Answer:
        self.ahead.stop()
        return self.asker.ask(query, limits, line_plies=1)

    def think_ahead(self, asked: list[tuple[str, str, str, Position]], order_by: Query | None = None) -> None:
        """Ask (label, role, kind, position) questions in the background, those whose horizon
        the first question of their kind has fixed; ``order_by``: see :meth:`ThinkAhead.start`."""
        labels, queries = [], []
        for label, role, kind, position in asked:
            if self.horizon is not None or (role, kind) in self.horizons:
                labels.append(label)
                queries.append(Query(role, kind, position, self.horizon if self.horizon is not None
                                     else self.horizons[role, kind]))
        self.ahead.start(queries, order_by, labels)

    def ask(self, role: str, kind: str, position: Position) -> Answer:
        if self.horizon is not None:
            return self._solve(Query(role, kind, position, self.horizon))
        if (role, kind) in self.horizons:
            return self._solve(Query(role, kind, position, self.horizons[role, kind]))
        answer = self._within_budget(role, kind, position, None)
        if answer is not None:
            self.horizons[role, kind] = None
            return answer
        kept, horizon = None, 2
        while horizon < self.board.rules.last_step - position.step:
            started = time.perf_counter()
            answer = self._within_budget(role, kind, position, horizon)
            if answer is None:
                break
            kept = answer
            self.horizons[role, kind] = horizon
            if time.perf_counter() - started > SECONDS_PER_MOVE / 8:
                break
            horizon += 2
        if kept is None and isinstance(self.stopped, MemoryLimitError):
            raise MemoryLimitError(f"the solver cannot look even 2 plies ahead for {role}: {self.stopped.message}",
                                   self.stopped.hint)
        if kept is None:
            raise LimitError(f"the solver cannot look even 2 plies ahead for {role} in {SECONDS_PER_MOVE} s",
                             "try a smaller board, or play between humans (--as every role)")
        self.say(f"(the whole game does not fit in {SECONDS_PER_MOVE} s a move: for {role} the solver "
                 f"looks {wording.plies(self.horizons[role, kind])} ahead; choose with --horizon N)")
        return kept

    def _within_budget(self, role: str, kind: str, position: Position, horizon: int | None) -> Answer | None:
        started = time.perf_counter()
        try:
            answer = self._solve(Query(role, kind, position, horizon),
                                 replace(self.asker.limits, seconds=SECONDS_PER_MOVE / 4))
        except LimitError as exc:
            self.stopped = exc
            return None
        return answer if time.perf_counter() - started <= SECONDS_PER_MOVE else None


class Game:
    """One game in the terminal, from a start position to its end."""

    def __init__(self, board: Board, humans: set[str], lines: Iterator[str], say: Callable[[str], None],
                 horizon: int | None = None, seed: int = 1, clear: Callable[[], None] | None = None,
                 limits: Limits | None = None):
        rules = board.rules
        for role in sorted(humans):
            if role not in rules.roles:
                raise QueryError(f"--as {role}: unknown role", f"roles are: {', '.join(rules.roles)}")
        self.board, self.humans, self.lines, self.say = board, humans, lines, say
        self.thinker = Thinker(board, horizon, say, limits)
        self.found: dict[str, set[Cell]] = {role: set() for role in rules.roles}
        self.stood: dict[str, set[Cell]] = {role: set() for role in rules.roles}
        self.rng, self.clear = random.Random(seed), clear

    # - What a player sees ---
    def hidden(self, viewer: str | None) -> frozenset:
        """(mark, cell) pairs ``viewer`` has not found yet; every role's when nobody in particular looks."""
        rules = self.board.rules
        viewers = [viewer] if viewer else [r for r in rules.roles if r in self.humans]
        out = set()
        for role in viewers:
            move = rules.moves[role]
            if not move.bump_hidden:
                continue
            for mark in move.bump_on:
                out |= {(mark, c) for c in self.board.marks.get(mark, ()) if c not in self.found[role]}
        return frozenset(out)

    def draw(self, position: Position, viewer: str | None = None) -> str:
        return draw_position(self.board, position, self.hidden(viewer))

    # - The game ---
    # - Secret placements ---
    def place_secrets(self) -> bool:
        """Place the marks the board leaves unplaced: humans type their cells, the computer
        chooses; False if the input ended."""
        marks = {}
        for mark, count in sorted(self.board.unplaced.items()):
            role = owner(self.board, mark)
            if role in self.humans:
                cells = self.read_placement(role, mark, count)
                if cells is None:
                    return False
            else:
                cells = placement.choose_placement(self.board, mark, count, self.rng)
                self.say(f"{role} has placed its {count} {mark} cells in secret.")
            marks[mark] = cells
        self.board = replace(self.board, marks={**self.board.marks, **marks}, unplaced={})
        return True

    def read_placement(self, role: str, mark: str, count: int):
        """A human's cells for ``mark``; the screen is cleared (or a line asks to pass the
        keyboard) so that the next player does not see them."""
        while True:
            self.say(f"{role}: place your {count} {mark} cells in secret, as X,Y separated by spaces "
                     f"(not on {', '.join(not_on(self.board, mark))}): ")
            try:
                text = next(self.lines).strip()
            except StopIteration:
                self.say("\nInput ended.")
                return None
            try:
                cells = placement.parse_cells(text, self.board, mark, count)
            except QueryError as exc:
                self.say(f"Not placed: {exc}")
                continue
            if self.clear is not None:
                self.clear()
            self.say(f"{role}'s {mark} cells are placed. -- Pass the keyboard on; do not look back. --")
            return cells

    def run(self, start: Position) -> Outcome:
        try:
            return self._run(start)
        finally:
            self.thinker.ahead.stop()

    def _run(self, start: Position) -> Outcome:
        if self.board.unplaced and not self.place_secrets():
            return Outcome("quit", {}, 0)
        rules = self.board.rules
        position, plies, before = start, 0, None
        history: list[tuple[Position, int, Position | None]] = []     # for undo
        for role in rules.roles:
            self.stood[role].add(position.cell(role))
        self.say(self.draw(position))
        while True:
            end, steps = examine(self.board, position)
            if end is None and position.step >= rules.last_step:
                end = "timeout"
            if end is None and not steps:
                self.say(f"\n{' and '.join(rules.turns[position.side])} cannot move: the game stops.")
                end = "stuck"
            if end is not None:
                return self.finish(position, end, plies)
            movers = rules.turns[position.side]
            self.say("\n" + self.heading(position, before))
            chosen = self.choose(position, movers, steps, bool(history))
            if chosen is None:
                return Outcome("quit", {}, plies)
            if chosen is UNDO:          # back to the last ply a human chose (the computer's replies too)
                position, plies, before = history.pop()
                self.say(f"Undone: back at step {position.step}.")
                self.say(self.draw(position))
                continue
            if any(role in self.humans for role in movers):
                history.append((position, plies, before))
            self.report(position, chosen, movers)
            before, position = position, chosen.position
            plies += 1
            if rules.chasers:
                self.report_chasers(before, position)

    def heading(self, position: Position, before: Position | None) -> str:
        rules = self.board.rules
        movers = rules.turns[position.side]
        names = " and ".join(movers)
        title = f"{names[0].upper()}{names[1:]}'s turn (step {position.step})"
        if before is not None:
            expected = (before.side + 1) % len(rules.turns)
            skipped = []
            while expected != position.side:
                skipped += rules.turns[expected]
                expected = (expected + 1) % len(rules.turns)
            if skipped:
                title += f" ({' and '.join(skipped)} lost a turn)"
        cells = ", ".join(f"{r} {_cell(position.cell(r))}" for r in movers)
        here = _cell(position.cell(movers[0])) if len(movers) == 1 else cells
        return f"{title}:\nCurrent position{'s' if len(movers) > 1 else ''}: {here}"

    def own_moves(self, position: Position, role: str, steps: list[Step]) -> list[str]:
        movers = self.board.rules.turns[position.side]
        return sorted({move_parts(s.move, movers)[role] for s in steps})

    def choose(self, position: Position, movers, steps: list[Step], can_undo: bool = False):
        """The step the movers take: the solver's roles commit first, then the humans enter theirs
        (None: quit; :data:`UNDO`: a human asked to take the last ply back)."""
        solver_roles = [r for r in movers if r not in self.humans]
        planned = self.solver_moves(position, solver_roles) if solver_roles else {}
        picked = dict(planned)
        if any(role in self.humans for role in movers):
            self.think_ahead(position, [s for s in steps
                                        if all(move_parts(s.move, movers)[r] == m for r, m in planned.items())])
        for role in movers:
            if role not in self.humans:
                continue
            names = self.own_moves(position, role, steps)
            here = position.cell(role)
            # where each move leads: by the board (a hidden obstacle is not given away); where gates
            # are, by the rules (a closed gate keeps the piece in place)
            ends = {move_parts(s.move, movers)[role]: s.position.cell(role) for s in steps} \
                if len(movers) == 1 and self.board.has_gates else {n: target(self.board, here, n) for n in names}
            self.say(f"Available moves{'' if len(movers) == 1 else ' of ' + role}: "
                     + ", ".join(f"{n} {_cell(ends[n])}" for n in names))
            move = self.read_move(position, role, names, can_undo)
            if move is None or move is UNDO:
                return move
            picked[role] = move
        for role in solver_roles:
            self.say(f"{role} plays: {picked[role]}")
        return next(s for s in steps if move_parts(s.move, movers) == picked)

    def think_ahead(self, position: Position, steps: list[Step]) -> None:
        """While the humans choose among ``steps`` at ``position``, the computer's question
        after each of them (as :meth:`solver_moves` will ask it) is asked in the background,
        first after the moves that doom a role of the computer soonest (a human who closes in
        plays them; the same measure as :meth:`tie_break`)."""
        rules = self.board.rules
        asked = []
        for step in steps:
            leaders: list[str] = []
            for role in rules.turns[step.position.side]:
                if role in self.humans or hidden_marks(self.board, role) or \
                        any(role in rules.team_of(leader) for leader in leaders):
                    continue
                leaders.append(role)
                asked.append((step.move, role, "value", step.position))
        doomed = [r for r in rules.roles if r not in self.humans and any(r in end.loss_for for end in rules.ends)]
        alone = all(r in self.humans for r in rules.turns[position.side])     # their moves are the steps'
        order_by = Query(doomed[0], QueryKind.SURVIVE, position) if doomed and alone else None
        self.thinker.think_ahead(asked, order_by)

    def read_move(self, position: Position, role: str, names: list[str], can_undo: bool = False):
        prompt = "Enter move" if len(self.board.rules.turns[position.side]) == 1 else f"Enter {role}'s move"
        while True:
            offer = can_undo and len(self.board.rules.roles) == 1     # (a puzzle; every game takes undo)
            self.say(f"{prompt} (or hint, board, {'undo, ' if offer else ''}quit): ")
            try:
                text = next(self.lines).strip()
            except StopIteration:
                self.say("\nInput ended.")
                return None
            if text == "quit":
                return None
            if text == "undo":
                if can_undo:
                    return UNDO
                self.say("Nothing to undo yet.")
                continue
            if text == "board":
                self.say(self.draw(position, role))
                continue
            if text == "hint":
                self.hint(position, role)
                continue
            move = _choose(text, names)
            if move is not None:
                return move
            self.say(f"'{text}' is not one of the available moves.")

    def hint(self, position: Position, role: str) -> None:
        if hidden_marks(self.board, role):
            return self.blind_hint(position, role)
        answer = self.thinker.ask(role, QueryKind.VALUE, position)
        within = "with no step limit" if self.board.rules.unlimited else f"within {wording.plies(answer.remaining)}"
        self.say(f"  value for {role}: {answer.value} {within}")
        puzzle = puzzle_verdict(self.board, answer)
        if puzzle:
            self.say(f"  {puzzle}")
        for m in answer.moves:
            plies_text = "-" if m.plies is None else m.plies
            self.say(f"  {m.move:<14} value {m.value:>4}  plies {plies_text}")

    def knowledge(self, role: str) -> blind.Blind:
        return blind.Blind(set(self.stood[role]), set(self.found[role]))

    def blind_hint(self, position: Position, role: str) -> None:
        """The robust answer from what ``role`` knows (to the step limit), and per move its
        robust value and plies, the share of the placements it cannot rule out that the move
        wins against (with the plies and the sample it was computed on), and whether it walks
        into an obstacle found."""
        known = self.knowledge(role)
        limits = self.thinker.asker.limits
        robust = blind.robust_answer(self.board, role, position, known, limits=limits)
        won, solved, total = blind.shares(self.board, role, position, known, self.rng, limits)
        plies = blind.share_plies(self.board, role, position)
        bumps = blind.found_bumps(self.board, role, position, known)
        state = "a robust win" if robust.win and robust.plies is not None else \
            ("robust survival" if robust.survives else "no robust survival")
        self.say(f"  robust value for {role}: {robust.value} within {wording.plies(robust.remaining)} ({state}, "
                 f"whatever the others hid)")
        sample = "all of them" if solved == total else f"{solved} of them drawn at random"
        self.say(f"  {wording.counted(total, 'placement')} you cannot rule out; {sample} solved with full "
                 f"information, {wording.plies(plies)} ahead")
        for m in robust.moves:
            plies_text = "-" if m.plies is None else m.plies
            note = ""
            if m.move in bumps:
                cell = bumps[m.move]
                note = f"  (bumps into the obstacle you found at ({cell[0]},{cell[1]}))"
            self.say(f"  {m.move:<8} robust value {m.value:>4}  plies {plies_text:<3} "
                     f"wins against {won.get(m.move, 0.0):.0%} of the placements solved{note}")

    def solver_moves(self, position: Position, roles: list[str]) -> dict[str, str]:
        """The moves of the solver's roles: per team, the first move of its principal line."""
        rules = self.board.rules
        movers = rules.turns[position.side]
        out: dict[str, str] = {}
        for role in roles:
            if role in out:
                continue
            if hidden_marks(self.board, role):
                choice = blind.choose(self.board, role, position, self.knowledge(role), self.rng,
                                      self.thinker.asker.limits)
                self.say(f"({role} decides from what it knows: {choice.why})")
                out[role] = choice.move
                continue
            answer = self.thinker.ask(role, QueryKind.VALUE, position)
            label = self.tie_break(position, role, answer) or answer.line[0].move
            parts = move_parts(label, movers if len(answer.line[0].side) > 1 else [role])
            out.update({r: m for r, m in parts.items() if r in roles and r in rules.team_of(role)})
        return out

    def tie_break(self, position: Position, role: str, answer: Answer) -> str | None:
        """Where the role's moves are all worth the same and nothing is forced, the move after
        which another team's role is doomed soonest (the ghosts close in); else None."""
        rules = self.board.rules
        if rules.split_turn(position.side, role) or answer.plies is not None:
            return None
        best = [m for m in answer.moves if m.value == answer.value]
        others = [r for r in rules.roles if r not in rules.team_of(role)
                  and any(r in end.loss_for for end in rules.ends)]
        if len(best) < 2 or not others:
            return None
        doom = {m.move: m for m in self.thinker.ask(others[0], QueryKind.SURVIVE, position).moves}
        doomed = [doom[m.move] for m in best if m.move in doom and not doom[m.move].survives]
        return min(doomed, key=lambda m: (m.doom_plies, m.move)).move if doomed else None

    def report_chasers(self, before: Position, after: Position) -> None:
        """What the pieces moved by rule did this ply, and the gates; then the board."""
        for piece in self.board.rules.chasers:
            was, now = before.cell(piece), after.cell(piece)
            if was == OFF_BOARD:
                continue
            if now == OFF_BOARD:
                self.say(f"{piece} leaves the board (from {_cell(was)})")
            elif now != was:
                self.say(f"{piece} moves {_cell(was)} -> {_cell(now)}")
        if before.gates_open != after.gates_open:
            several = len(self.board.gate_north | self.board.gate_east) > 1
            self.say(f"The gate{'s are' if several else ' is'} {'open' if after.gates_open else 'closed'}.")
        self.say(self.draw(after))

    def report(self, position: Position, chosen: Step, movers) -> None:
        """What happened to each mover: moved, stayed, bumped (and found a hidden cell), collided."""
        board, rules = self.board, self.board.rules
        parts = move_parts(chosen.move, movers)
        after = chosen.position
        aims = {r: target(board, position.cell(r), parts[r]) for r in movers}
        moved_any = any(after.cell(r) != position.cell(r) for r in movers)
        for role in movers:
            here, there, aim = position.cell(role), after.cell(role), aims[role]
            bumped = aim != here and there == here and any(
                aim in board.marks.get(m, ()) for m in rules.moves[role].bump_on)
            prefix = f"{role}: " if len(movers) > 1 else ""
            self.stood[role].add(there)
            if bumped:
                self.found[role].add(aim)
                lost = rules.moves[role].lose_turns
                turns = "your next turn" if lost == 1 else f"your next {lost} turns"
                self.say(f"{prefix}Attempted to move to {_cell(aim)}")
                self.say(f"Encountered an obstacle! You remain at {_cell(here)}"
                         + (f" and lose {turns}." if lost else "."))
            elif there != here:
                self.say(f"{prefix}Moved to {_cell(there)}")
            elif aim != here and not moved_any:
                others = [r for r in movers if r != role and aims[r] == aim]
                self.say(f"{prefix}Collision at {_cell(aim)} with {' and '.join(others) or 'another move'}: "
                         f"nobody moves")
            else:
                self.say(f"{prefix}Stays at {_cell(here)}")
        before_left, after_left = position.items_left(board), after.items_left(board)
        for name, collect in rules.collect.items():
            taken = len(before_left[name]) - len(after_left[name])
            if taken:
                total = len(board.marks.get(collect.mark, ()))
                self.say(f"{collect.piece} takes {taken} of the {name} "
                         f"({total - len(after_left[name])} of {total} taken)")

    def finish(self, position: Position, end: str, plies: int) -> Outcome:
        rules = self.board.rules
        scores = stop_scores(self.board, position) or {}
        if self.hidden(None):
            self.say("\nThe board with everything revealed:")
            self.say(draw_position(self.board, position))
        self.say(f"\nGame over after {wording.plies(plies)}: {end}.")
        self.say(f"Score{'s' if len(rules.roles) > 1 else ''}: "
                 + ", ".join(f"{r} {scores[r]}" for r in rules.roles))
        self.say(result_line(self.board, scores))
        return Outcome(end, dict(scores), plies)


def result_line(board: Board, scores: dict[str, int]) -> str:
    """Who won: the roles with the best score, or a draw when every role has it; a game of one
    role is won at its top score and lost at its lowest (else it says what was scored)."""
    roles = board.rules.roles
    if len(roles) == 1:
        role, score = roles[0], scores[roles[0]]
        possible = board.rules.scores_of(role)
        if score >= possible[-1]:
            return f"{role.capitalize()} wins!"
        if score <= possible[0]:
            return f"{role.capitalize()} loses."
        return f"{role.capitalize()} scores {score} of a possible {possible[-1]}."
    best = max(scores.values())
    winners = [r for r in roles if scores[r] == best]
    if len(winners) == len(roles):
        return "A draw."
    return f"{' and '.join(winners).capitalize()} win{'s' if len(winners) == 1 else ''}!"


def play(board: Board, humans: set[str], lines: Iterator[str], say: Callable[[str], None],
         start: Position, horizon: int | None = None, seed: int = 1,
         clear: Callable[[], None] | None = None, limits: Limits | None = None) -> Outcome:
    """Run one game from ``start``; roles in ``humans`` read their moves (and secret cells) from
    ``lines``; ``seed`` drives the computer's placements and samples; ``clear`` clears the screen;
    ``limits`` bound every question the solver is asked."""
    return Game(board, humans, lines, say, horizon, seed, clear, limits).run(start)
