"""An independent, plain explicit-state solver: the cross-check for the clingo solver.

Written from the semantics in docs/answers.md ("What the answers mean") and docs/rule-language.md
and nothing else: it imports nothing from gridsolve.  It reads the board and rule files itself
(reference/board.py: plain YAML and its own reading of every rule option and default); a board
may be given as its path or as a board gridsolve loaded, of which only the path is used.
Positions are read by their fields (``pieces``, ``side``, ``step``, ``items``, ``lost``,
``was``, see reference/board.py) and the positions it returns are the one it was given with
those fields replaced (``dataclasses.replace``), so a caller gets back the kind it passed.  It
is memoised recursion over (state, plies left); short and slow on purpose.

A state is ``(cells, turn, items, lost, was, gates, crates)``:

* ``cells``: the pieces' cells: the roles' in role order, then the chasers' (pieces moved by
  rule, (0,0) when off the board);
* ``turn``: the index of the ``turns`` entry to move;
* ``items``: per collectible (in rule order) the frozenset of cells still holding an item;
* ``lost``: per ``turns`` entry, how many of its next turns are skipped;
* ``was``: the (piece, mark) pairs of the rules' ``was_on`` conditions that held in the
  position before;
* ``gates``: whether the board's gates are open;
* ``crates``: the frozenset of the cells of the crates (empty without crates).

A ply is the roles' move, then the rules' after_ply script (:meth:`Game.after_ply`), then the
ends judge the position (docs/rule-language.md, "Pieces moved by rule" and "Mechanisms
together").

The game, for the question about role R with team T (``rules.team_of(R)``):

* A position *stops* when an end holds (the first in rule order decides), when no plies are
  left, or when a role to move has no legal move; the last two are scored by the first
  conditional timeout entry that holds, else by ``timeout``.
* A ply of entry t: every role of ``turns[t]`` picks a move at once.  T maximises R's score,
  everyone else minimises it.  An entry of T's roles only is T's choice, an entry without
  them the others' (one coalition); in a *split* entry T commits its part first and the
  others answer knowing it (the conservative guarantee).  Every node is therefore a list of
  *groups* (T's choices) of *children* (the others' answers): the value is
  ``max over groups of min over children``; an own entry has one child per group, an entry
  of the others a single group.
* Ranks ("fewest plies to force a stop with a property") are the same game as a reachability
  game; a split ply (commit and answer) counts as one ply.
"""
from __future__ import annotations

import dataclasses
import itertools
import sys
import threading
from collections import deque

from . import board as refboard

DIRECTIONS = ("north", "south", "east", "west")
DELTA = {"north": (0, 1), "south": (0, -1), "east": (1, 0), "west": (-1, 0)}
INF = float("inf")
OFF = (0, 0)          # the cell of a piece off the board (a chaser left out or removed)
MOVE_REF = "query"    # see RoleSolver.move_summaries
# Two readings the rule language leaves open (docs/rule-language.md); the defaults follow the
# docs' words, the other values are there to try the other reading:
# - "When the piece ends its move on a cell that still holds an item, it takes it": only a
#   collector that moves in the ply takes an item ("mover"), or any collector that stands on
#   an item after a ply ("any").
COLLECT_BY = "mover"
# - "a move into a cell with one of these marks fails": a move that stays on its cell
#   (nowhere, a blocked step that stays) on a bump cell is no move into it (False), or bumps
#   too (True).
BUMP_IN_PLACE = False


class Game:
    """The rules of one board as plain Python: conditions, ends, scores, moves, successors
    (shared by every query on it)."""

    def __init__(self, board: refboard.Board):
        self.board = board
        self.rules = rules = board.rules
        self.roles = rules.roles
        self.pieces = rules.pieces          # the roles' pieces, then the chasers (moved by rule)
        self.index = {r: i for i, r in enumerate(self.pieces)}
        self.keys = board.marks.get(rules.gate_key, frozenset()) if rules.gate_key else frozenset()
        self.collect = list(rules.collect.values())
        self.start_items = tuple(frozenset(board.marks.get(c.mark, ())) for c in self.collect)
        self.collect_index = {c.name: i for i, c in enumerate(self.collect)}
        conditions = [e.when for e in rules.ends] + [t.when for t in rules.timeout_when]
        self.was_pairs = tuple(dict.fromkeys(p for w in conditions for p in w.was_on))
        # how positions are written (as gridsolve.solve.program.explore writes them)
        self.keeps_lost = any(m.bump_on and m.lose_turns for m in rules.moves.values())
        self.start_crates = frozenset(board.marks.get(rules.crates, ())) if rules.crates else frozenset()
        self._piece_moves: dict = {}
        self._successors: dict = {}
        self._ends: dict = {}
        self._moves: dict = {}
        self._distance: dict = {}

    # --- marks, distances, conditions ---------------------------------------------------
    def marked(self, cell, marks) -> bool:
        return any(cell in self.board.marks.get(m, ()) for m in marks)

    def distance(self, piece, mark, start):
        """Fewest single steps from ``start`` to a cell with ``mark`` through open edges and a
        role's exit edges (no step leads on from beyond one), not entering cells the piece bumps
        on; INF when there is no way."""
        key = (piece, mark, start)
        if key not in self._distance:
            goal = self.board.marks.get(mark, frozenset())
            bump = self.rules.moves[piece].bump_on
            seen, queue, found = {start: 0}, deque([start]), INF
            while queue:
                cell = queue.popleft()
                if cell in goal:
                    found = seen[cell]
                    break
                for d in DIRECTIONS if cell not in self.board.outside else ():
                    nxt = self.board.exit_through(cell, d)
                    if nxt is None and not self.board.open_step(cell, d):
                        continue
                    nxt = nxt or (cell[0] + DELTA[d][0], cell[1] + DELTA[d][1])
                    if nxt in seen or (bump and self.marked(nxt, bump)):
                        continue
                    seen[nxt] = seen[cell] + 1
                    queue.append(nxt)
            self._distance[key] = found
        return self._distance[key]

    def taken(self, state, name) -> int:
        i = self.collect_index[name]
        return len(self.start_items[i]) - len(state[2][i])

    def every(self, names, bound=None) -> list:
        """The pieces ``names`` stand for, in order: a kind of enemy its enemies, ``enemies`` every
        enemy (both in the board's order), the name ``each`` binds (``bound``: (name, piece)) its
        enemy, any other name itself."""
        out = []
        for name in names:
            if bound is not None and name == bound[0]:
                found = [bound[1]]
            elif self.rules.kinds and name == "enemies":
                found = [p for p, _ in self.rules.enemies]
            elif name in self.rules.kinds:
                found = [p for p, k in self.rules.enemies if k == name]
            else:
                found = [name]
            out += [p for p in found if p not in out]
        return out

    def plain(self, when: refboard.When, bound=None) -> list:
        """The conditions with one piece per name that ``when`` stands for (it holds when one of
        them does); a choice that puts a piece beside itself in same_cell is none."""
        same = list(when.same_cell[0]) if when.same_cell else []
        reach = list(when.reaches)
        out = []
        for pick in itertools.product(*[self.every([name], bound) for name in same + [p for p, _ in reach]]):
            together = pick[:len(same)]
            if len(set(together)) < len(together):
                continue
            out.append(dataclasses.replace(when, same_cell=(tuple(together),) if together else (),
                                           reaches=tuple(zip(pick[len(same):], [m for _, m in reach]))))
        return out

    def holds(self, when: refboard.When, state) -> bool:
        if self.rules.kinds:
            return any(self.holds_plain(w, state) for w in self.plain(when))
        return self.holds_plain(when, state)

    def holds_plain(self, when: refboard.When, state) -> bool:
        cells, was = state[0], state[4]
        at = {r: cells[i] for r, i in self.index.items()}
        marks = self.board.marks
        for group in when.same_cell:
            if len({at[p] for p in group}) != 1 or at[group[0]] == OFF:     # (off the board: met nowhere)
                return False
        for piece, mark in when.reaches:
            if at[piece] not in marks.get(mark, ()):
                return False
        for pair in when.was_on:
            if pair not in was:
                return False
        for name, at_least in when.collected:
            total = len(self.start_items[self.collect_index[name]])
            if self.taken(state, name) < (total if at_least is None else at_least):
                return False
        for piece, other, mark in when.nearer:
            if not self.distance(piece, mark, at[piece]) < self.distance(other, mark, at[other]):
                return False
        for mark, at_least in when.crates_on:
            on = len(state[6] & marks.get(mark, frozenset()))
            if on < (len(self.start_crates) if at_least is None else at_least):
                return False
        return True

    def end(self, state):
        """The first end (in rule order) whose condition holds, or None."""
        key = state[0], state[2], state[4], state[6]     # ends depend on cells, items, was and crates only
        if key not in self._ends:
            self._ends[key] = next((e for e in self.rules.ends if self.holds(e.when, state)), None)
        return self._ends[key]

    def score(self, score, state) -> int:
        """A score (a number, or the name of a score table) in ``state``."""
        if isinstance(score, int):
            return score
        table = self.rules.tables[score]
        return table.values[self.taken(state, table.count)]

    def by_rule(self, state) -> bool:
        """Whether a conditional timeout entry (the step limit's rule) holds at ``state``."""
        return any(self.holds(entry.when, state) for entry in self.rules.timeout_when)

    def timeout_score(self, role, state) -> int:
        for entry in self.rules.timeout_when:
            if self.holds(entry.when, state):
                return self.score(entry.scores[role], state)
        return self.score(self.rules.timeout[role], state)

    # --- moves ---------------------------------------------------------------------------
    def piece_moves(self, role, start):
        """[(name, aimed cell)] of ``role`` from ``start``, before looking at the other pieces."""
        key = (role, start)
        if key not in self._piece_moves:
            rule = self.rules.moves[role]
            if rule.frozen_on and self.marked(start, rule.frozen_on):
                out = [(" ".join(["nowhere"] * rule.steps), start)] if rule.idle else []
                self._piece_moves[key] = out
                return out
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
                    if self.board.exit_through(cell, d):      # out through an exit edge of the border
                        cell = self.board.exit_through(cell, d)
                    elif self.board.open_step(cell, d):
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

    def role_moves(self, role, cells, gates_open: bool = True):
        """[(name, final cell, bumped)] of ``role``'s legal moves in a ply starting at ``cells``
        (a step into a closed gate is made and stopped: the piece stays, bumping on nothing)."""
        rule = self.rules.moves[role]
        start = cells[self.index[role]]
        banned = frozenset(cells[self.index[p]] for p in rule.may_not_end_on)
        key = (role, start, banned, BUMP_IN_PLACE, gates_open)
        if key not in self._moves:
            out = []
            for name, aim in self.piece_moves(role, start):
                if aim in banned:
                    continue
                if not gates_open and aim != start and self.board.gate_between(start, aim):
                    out.append((name, start, False))
                elif rule.bump_on and (aim != start or BUMP_IN_PLACE) and self.marked(aim, rule.bump_on):
                    out.append((name, start, True))
                else:
                    out.append((name, self.teleported(role, start, aim), False))
            self._moves[key] = out
        return self._moves[key]

    def teleported(self, role, start, cell):
        """Where a move of ``role`` from ``start`` that ends on ``cell`` puts the piece: a move that
        leaves its cell onto one cell of a teleporter pair goes on to the other, whatever stands
        there (one jump; a chaser never teleports)."""
        if cell == start or role not in self.rules.teleporting:
            return cell
        for mark in self.rules.teleporters:
            pair = self.board.marks.get(mark, frozenset())
            if cell in pair:
                return next(other for other in pair if other != cell)
        return cell

    def crate_moves(self, role, cells, crates):
        """[(name, final cell, False, crates after)] of ``role``'s legal moves in a ply starting at
        ``cells`` with the crates on ``crates`` (docs/rule-language.md, "Crates"): step by step, a
        step into a crate pushes it one cell on where the role pushes and that cell is free (no
        wall between, on the board, no crate, no piece), else it is blocked as by a wall (it stays,
        or the move is illegal)."""
        rule = self.rules.moves[role]
        start = cells[self.index[role]]
        banned = {cells[self.index[p]] for p in rule.may_not_end_on}
        others = {cells[self.index[p]] for p in self.pieces if p != role} - {OFF}
        options = [list(DIRECTIONS) + (["nowhere"] if rule.idle and not (i == 0 and rule.first_step_real) else [])
                   for i in range(rule.steps)]
        out = []
        for seq in itertools.product(*options):
            cell, boxes, legal = start, crates, True
            for d in seq:
                if d == "nowhere":
                    continue
                to = self.board.exit_through(cell, d)
                if to is None and self.board.open_step(cell, d):
                    to = (cell[0] + DELTA[d][0], cell[1] + DELTA[d][1])
                    if to in boxes:
                        beyond = (to[0] + DELTA[d][0], to[1] + DELTA[d][1])
                        if (rule.pushes and self.board.open_step(to, d) and beyond not in boxes
                                and beyond not in others):
                            boxes = (boxes - {to}) | {beyond}
                        else:
                            to = None
                if to is not None:
                    cell = to
                elif rule.blocked != "stay":
                    legal = False
                    break
            if legal and not (rule.end_differs_from_start and cell == start) and cell not in banned:
                out.append((" ".join(seq), cell, False, boxes))
        return out

    def moves_in(self, role, state):
        """[(name, final cell, bumped, crates after)] of ``role``'s legal moves in ``state``."""
        if self.rules.crates:
            return self.crate_moves(role, state[0], state[6])
        return [(*move, state[6]) for move in self.role_moves(role, state[0], state[5])]

    def entry_moves(self, state, roles):
        """[(name, {role: (final cell, bumped, crates after)})]: the joint moves of ``roles`` (in
        the order given), named as the solver names them."""
        per_role = [self.moves_in(r, state) for r in roles]
        out = []
        for combo in itertools.product(*per_role):
            if len(roles) == 1:
                name = combo[0][0]
            else:
                name = ", ".join(f"{r} {m[0]}" for r, m in zip(roles, combo))
            out.append((name, {r: (m[1], m[2], m[3]) for r, m in zip(roles, combo)}))
        return out

    def stuck(self, state) -> bool:
        return any(not self.moves_in(r, state) for r in self.rules.turns[state[1]])

    def apply(self, state, chosen: dict):
        """The state after the ply in which each role of ``chosen`` makes its move:
        {role: (final cell, bumped, crates after)} (one mover with crates: the loader refuses
        entries of several)."""
        cells, t, items, lost, was, gates, crates = state
        rules = self.rules
        finals = {r: f for r, (f, _, _) in chosen.items()}
        collide = False
        if rules.collisions == "stay":
            movers = list(chosen)
            for a, b in itertools.combinations(movers, 2):
                if finals[a] == finals[b] and (finals[a] != cells[self.index[a]]
                                               or finals[b] != cells[self.index[b]]):
                    collide = True
                    break
        new_cells, new_items, new_lost = cells, items, list(lost)
        if not collide:
            new_cells = list(cells)
            for r, f in finals.items():
                new_cells[self.index[r]] = f
            new_cells = tuple(new_cells)
            for r, (_, bumped, boxes) in chosen.items():
                if bumped:
                    new_lost[t] += rules.moves[r].lose_turns
                crates = boxes
            new_items = list(items)
            for i, c in enumerate(self.collect):
                if c.piece in finals or COLLECT_BY == "any":
                    cell = new_cells[self.index[c.piece]]
                    if cell in new_items[i]:
                        new_items[i] = new_items[i] - {cell}
            new_items = tuple(new_items)
        entered = {r for r in chosen if new_cells[self.index[r]] != cells[self.index[r]]}
        new_cells, gates = self.after_ply(cells, new_cells, gates, entered, crates)
        new_was = frozenset((p, m) for p, m in self.was_pairs
                            if cells[self.index[p]] in self.board.marks.get(m, ()))
        n = len(rules.turns)
        t2 = (t + 1) % n
        while new_lost[t2] > 0:
            new_lost[t2] -= 1
            t2 = (t2 + 1) % n
        return new_cells, t2, new_items, tuple(new_lost), new_was, gates, crates

    # --- pieces moved by rule (the after_ply script) ----------------------------------------
    def chaser_step(self, chaser, cells, gates_open, crates=frozenset()):
        """Where ``chaser`` lands by one step toward its target: the step on its first axis
        toward the target, else on the other axis, each only where it is not level with the
        target on that axis and the step is open (no wall, no closed gate, no crate on the cell
        it leads to: a chaser does not push); else it stays."""
        at = cells[self.index[chaser.name]]
        goal = cells[self.index[chaser.target]]
        horizontal = ("east" if goal[0] > at[0] else "west") if goal[0] != at[0] else None
        vertical = ("north" if goal[1] > at[1] else "south") if goal[1] != at[1] else None
        order = (horizontal, vertical) if chaser.first == "horizontal" else (vertical, horizontal)
        for d in order:
            if d is None or not self.board.open_step(at, d):
                continue
            to = at[0] + DELTA[d][0], at[1] + DELTA[d][1]
            if to in crates:
                continue
            if gates_open or not self.board.gate_between(at, to):
                return to
        return at

    def after_ply(self, before, cells, gates, entered, crates=frozenset()):
        """(the pieces' cells, the gates) after the script that follows a ply from ``before``
        (with the gates ``gates``) ending on ``cells``, ``entered``: the roles whose move
        changed their cell, ``crates``: the crates after it (they block the chasers' steps).  Chasers step; stop conditions over the pieces on the board end the
        script; met pieces leave (a removed piece stays on its cell, acting no more, until the
        script ends; then it is off the board, on (0,0)); the key flips the gates: once a ply
        relative to their state when the ply began, or (each_entry) at every fresh entry."""
        chasers = self.rules.chasers
        if not self.rules.script:
            return cells, gates
        cells, start_gates, entered = list(cells), gates, set(entered)
        on = {p for p in chasers if cells[self.index[p]] != OFF}
        removed, used = set(), False
        kind_of = dict(self.rules.enemies)

        def acts(piece):
            return piece not in chasers or (piece in on and piece not in removed)

        def run(actions, bound) -> bool:
            """Play ``actions`` (``bound``: (name, piece) under each); False once a stop holds."""
            nonlocal gates, used
            for action in actions:
                if action.if_kind and (bound is None or kind_of[bound[1]] not in action.if_kind):
                    continue
                if action.kind == "each":
                    for piece, _ in self.rules.enemies:
                        if not run(action.do, (action.piece, piece)):
                            return False
                elif action.kind == "repeat":           # repeat: steps, under each
                    for _ in range(self.rules.kinds[kind_of[bound[1]]].steps):
                        if not run(action.do, bound):
                            return False
                elif action.kind == "step":
                    for piece in self.every(action.pieces, bound):
                        if piece in chasers and acts(piece):
                            i = self.index[piece]
                            was, cells[i] = cells[i], self.chaser_step(chasers[piece], cells, gates, crates)
                            entered.discard(piece)
                            if cells[i] != was:
                                entered.add(piece)
                elif action.kind == "stop":
                    for when in self.plain(action.when, bound):
                        pieces = [p for group in when.same_cell for p in group] + [p for p, _ in when.reaches]
                        if all(acts(p) for p in pieces) and self.holds_plain(when, (tuple(cells), None, (), (), frozenset())):
                            return False
                elif action.kind == "remove":
                    for leaving in self.every((action.piece,), bound):
                        if leaving not in on:
                            continue
                        for by in self.every(action.pieces, bound):
                            at = cells[self.index[by]]
                            if by != leaving and acts(by) and at == cells[self.index[leaving]]:
                                removed.add(leaving)
                                if action.flips and at in self.keys:
                                    gates = not gates
                elif action.kind == "key" and action.each:
                    for piece in self.every(action.pieces, bound):
                        if acts(piece) and piece in entered and cells[self.index[piece]] in self.keys:
                            gates = not gates
                            entered.discard(piece)
                elif action.kind == "key" and not used:
                    for piece in self.every(action.pieces, bound):
                        at = cells[self.index[piece]]
                        if acts(piece) and at in self.keys and at != before[self.index[piece]]:
                            gates = not start_gates
                            used = piece in self.every(action.uses, bound)
                            break
            return True
        run(self.rules.script, None)
        for piece in removed:
            cells[self.index[piece]] = OFF
        return tuple(cells), gates

    def successors(self, state):
        """{joint move name: successor state} of the entry to move (empty if the game has
        ended or a role to move has no move)."""
        if state not in self._successors:
            out = {}
            if self.end(state) is None:
                roles = self.rules.turns[state[1]]
                for name, chosen in self.entry_moves(state, roles):
                    out[name] = self.apply(state, chosen)
            self._successors[state] = out
        return self._successors[state]

    # --- positions -----------------------------------------------------------------------
    def state_of(self, position):
        at = dict(position.pieces)
        cells = tuple(tuple(at.get(p, OFF)) for p in self.pieces)
        left = refboard.items_left(self.board, position)
        items = tuple(frozenset(left[c.name]) for c in self.collect)
        lost = refboard.lost_turns(self.board, position)
        was = frozenset(p for p in position.was if p in self.was_pairs)
        return (cells, position.side, items, lost, was, bool(getattr(position, "gates_open", False)),
                refboard.crates_at(self.board, position))

    def position_of(self, state, step: int, like):
        """``state`` at ``step`` as a position of the kind of ``like`` (its fields replaced)."""
        cells, t, items, lost, was, gates, crates = state
        out = dataclasses.replace(
            like, pieces=tuple(zip(self.pieces, cells)), side=t, step=step, gates_open=gates,
            items=tuple((c.name, items[i]) for i, c in enumerate(self.collect)) if self.collect else None,
            lost=lost if self.keeps_lost else (), was=was)
        return dataclasses.replace(out, plugins=(("crates", crates),)) if self.rules.crates else out


class RoleSolver:
    """Minimax values and forced races for one role."""

    def __init__(self, game: Game, role: str):
        self.game = game
        self.role = role
        rules = game.rules
        self.team = frozenset(rules.team_of(role))
        self.scores = rules.scores_of(role)
        self._value: dict = {}
        self._rank: dict = {}
        self._stop: dict = {}
        self._groups: dict = {}

    # --- the tree ----------------------------------------------------------------------
    def stop(self, state, k):
        """None if the game goes on from ``state`` with ``k`` plies left, else (the role's
        score, the deciding end or None for a timeout stop)."""
        key = (state, k == 0)
        if key not in self._stop:
            game = self.game
            end = game.end(state)
            if end is not None:
                result = (game.score(end.scores[self.role], state), end)
            elif k == 0 or game.stuck(state):
                result = (game.timeout_score(self.role, state), None)
            else:
                result = None
            self._stop[key] = result
        return self._stop[key]

    def groups(self, state):
        """[(name of the team's choice or None, [child states])] of a position that goes on."""
        if state not in self._groups:
            game = self.game
            roles = game.rules.turns[state[1]]
            mine = [r for r in roles if r in self.team]
            theirs = [r for r in roles if r not in self.team]
            if not mine:
                out = [(None, [game.apply(state, c) for _, c in game.entry_moves(state, theirs)])]
            else:
                answers = game.entry_moves(state, theirs) if theirs else [("", {})]
                out = [(name, [game.apply(state, {**c, **a}) for _, a in answers])
                       for name, c in game.entry_moves(state, mine)]
            self._groups[state] = out
        return self._groups[state]

    def moves(self, state):
        """[(move name as listed in answers, [child states])]: the team's moves (a split
        entry: its commits) or the others' joint moves."""
        groups = self.groups(state)
        if groups[0][0] is None:
            names = [n for n, _ in self.game.entry_moves(state, self.game.rules.turns[state[1]])]
            return [(n, [child]) for n, child in zip(names, groups[0][1])]
        return groups

    def value(self, state, k):
        key = (state, k)
        if key not in self._value:
            stop = self.stop(state, k)
            if stop is not None:
                result = stop[0]
            else:
                result = max(min(self.value(c, k - 1) for c in children)
                             for _, children in self.groups(state))
            self._value[key] = result
        return self._value[key]

    def goal(self, goal, stop) -> bool:
        kind, x = goal
        if kind == "ge":
            return stop[0] >= x
        if kind == "lt":
            return stop[0] < x
        return stop[1] is not None and self.role in stop[1].loss_for     # "loss"

    def group_rank(self, team_attacks: bool, goal, children, k):
        """The rank of a commit node (its children have ``k`` plies left), minus the ply."""
        ranks = [self.rank(team_attacks, goal, c, k) for c in children]
        if team_attacks:      # the others answer: they delay; every answer must be ranked
            return None if None in ranks else max(ranks)
        done = [r for r in ranks if r is not None]
        return min(done) if done else None

    def rank(self, team_attacks: bool, goal, state, k):
        """Fewest plies (<= k) in which the attackers (the role's team, or the others) force
        a stop with the property ``goal``; None if they cannot."""
        key = (team_attacks, goal, state, k)
        if key not in self._rank:
            stop = self.stop(state, k)
            if stop is not None:
                result = 0 if self.goal(goal, stop) else None
            else:
                ranks = [self.group_rank(team_attacks, goal, children, k - 1)
                         for _, children in self.groups(state)]
                if team_attacks:
                    done = [r for r in ranks if r is not None]
                    result = min(done) + 1 if done else None
                else:
                    result = None if None in ranks else max(ranks) + 1
            self._rank[key] = result
        return self._rank[key]

    # --- answers -----------------------------------------------------------------------
    def _summary(self, v, ref, rank, by_rule=False) -> dict:
        """value, plies, win, win plies, survives, doom plies from the value ``v``, the timeout
        score ``ref`` (``by_rule``: given by a conditional timeout entry) and
        ``rank(team_attacks, goal)`` of the node."""
        best, lowest = self.scores[-1], self.scores[0]
        # a top or lowest score that the step limit's rule gives too is still forced: by the
        # role (top) or the others (lowest), by an end or by the step limit, fastest
        forced_top = by_rule and v == ref == best
        forced_low = by_rule and v == ref == lowest and v != best
        if v > ref or forced_top:
            plies = rank(True, ("ge", v))
        elif v < ref or forced_low:
            above = min(s for s in self.scores if s > v)
            plies = rank(False, ("lt", above))
        else:
            plies = None
        # self-check: a value away from the timeout score (or forced as above) is forced by someone
        assert (plies is None) == (v == ref and not forced_top and not forced_low), (v, ref, plies)
        if best > ref or forced_top:
            win_plies = rank(True, ("ge", best))
            win = win_plies is not None
            assert win == (v == best), (win, v, best)
        else:
            win, win_plies = v == best, None
        doom = rank(False, ("loss", None))
        return {"value": v, "value_plies": plies, "win": win, "win_plies": win_plies,
                "survives": doom is None, "doom_plies": doom}

    def summary(self, state, k, ref=None) -> dict:
        """The answer's fields for ``state`` with ``k`` plies left; ``ref`` (default: the
        role's timeout score in ``state`` and whether the step limit's rule gives it) is the
        score that nobody needs to force."""
        if ref is None:
            ref = (self.game.timeout_score(self.role, state), self.game.by_rule(state))
        return self._summary(self.value(state, k), ref[0], lambda team, goal: self.rank(team, goal, state, k), ref[1])

    def commit_summary(self, state, children, k) -> dict:
        """The fields of a commit node of ``state`` (the others still to answer; the children
        have ``k`` plies left): its plies count the plies after the joint ply."""
        v = min(self.value(c, k) for c in children)
        return self._summary(v, self.game.timeout_score(self.role, state),
                             lambda team, goal: self.group_rank(team, goal, children, k), self.game.by_rule(state))

    def move_summaries(self, state, k, move_ref: str | None = None) -> dict:
        """{move name: summary} of the moves listed in an answer (``k`` plies left).

        ``move_ref`` (default ``MOVE_REF``) says which timeout score a move's value is compared
        with (value above it: the role's team forces it; below: the others do; equal: plies
        null): ``"query"`` the role's timeout score in the position asked about (one reference
        for every move of an answer, as for a split entry's commits, whose position is still
        the one asked about), ``"position"`` the one in the position after the move (as if
        that position were asked about).  The two differ only with conditional timeout
        entries or score tables."""
        if k == 0 or self.stop(state, k) is not None:
            return {}
        roles = self.game.rules.turns[state[1]]
        split = any(r in self.team for r in roles) and any(r not in self.team for r in roles)
        ref = ((self.game.timeout_score(self.role, state), self.game.by_rule(state))
               if (move_ref or MOVE_REF) == "query" else None)
        out = {}
        for name, children in self.moves(state):
            if split:
                out[name] = self.commit_summary(state, children, k - 1)
            else:
                out[name] = self.summary(children[0], k - 1, ref)
        return out


# --- the public interface -----------------------------------------------------------------

# ``board`` below: a board file's path, or a board gridsolve loaded (only its path is read).

_GAMES: dict = {}


def _entry(board) -> tuple:
    """(the board as read here, its game, {role: solver}), cached per file while it is unchanged."""
    read = refboard.board_of(board)
    entry = _GAMES.get(read.path)
    if entry is None or entry[0] is not read:
        if len(_GAMES) > 16:
            _GAMES.clear()
        entry = _GAMES[read.path] = (read, Game(read), {})
    return entry


def game_of(board) -> Game:
    return _entry(board)[1]


def _solver(board, role: str) -> RoleSolver:
    _, game, solvers = _entry(board)
    if role not in solvers:
        solvers[role] = RoleSolver(game, role)
    return solvers[role]


def remaining(board, position, horizon: int | None = None) -> int:
    """The plies left: to the step limit, or ``horizon`` when it is sooner (a game without a step
    limit needs one: with at least as many plies as it has positions, the answer is the one of
    the unlimited game, whose ranks never exceed that count)."""
    last = game_of(board).rules.last_step
    if last is None and horizon is None:
        raise ValueError("a game without a step limit: give the reference a horizon")
    left = horizon if last is None else last - position.step
    return left if horizon is None else min(left, horizon)


def end_of(board, position) -> str | None:
    game = game_of(board)
    end = game.end(game.state_of(position))
    return None if end is None else end.name


def legal_moves(board, position) -> dict:
    """{joint move name: successor position} of the entry to move; empty when the game has
    ended or a role to move has no move."""
    game = game_of(board)
    succ = game.successors(game.state_of(position))
    return {name: game.position_of(s, position.step + 1, position) for name, s in succ.items()}


def stop_scores(board, position, horizon: int | None = None) -> dict | None:
    """Every role's score if the game stops at ``position`` (by an end, the step limit or the
    horizon, or a role to move without a move); None if it goes on."""
    game = game_of(board)
    state = game.state_of(position)
    k = remaining(board, position, horizon)
    end = game.end(state)
    if end is not None:
        return {r: game.score(end.scores[r], state) for r in game.roles}
    if k <= 0 or game.stuck(state):
        return {r: game.timeout_score(r, state) for r in game.roles}
    return None


def reference_answer(board, role: str, kind: str, position,
                     horizon: int | None = None, move_ref: str | None = None) -> dict:
    """The answer to a query, as ``gridsolve.solve.dispatch.dispatcher.solve`` should give it.

    Keys: ``value``, ``plies`` (as ``Answer.plies``: the value plies for ``kind="value"``, the
    win plies for ``"win"``, the doom plies for ``"survive"``), ``value_plies``, ``holds``,
    ``win``, ``win_plies``, ``survives``, ``doom_plies``, ``remaining`` and ``moves``:
    {move name: (value, plies, win, survives)} after each move listed (empty when the
    position has stopped): the moves of the entry to move; in a split entry the role's
    team's commits, valued at the commit node (plies counted after the joint ply).
    """
    solver = _solver(board, role)
    state = solver.game.state_of(position)
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
    out["moves"] = {name: (s["value"], s["value_plies"], s["win"], s["survives"])
                    for name, s in solver.move_summaries(state, k, move_ref).items()}
    return out


def whole_game_answer(board, role: str, kind: str, position) -> dict:
    """:func:`reference_answer` over the whole game: a game without a step limit is asked with
    a horizon of as many plies as it has positions reachable from ``position`` (its ranks never
    exceed that count; the recursion limit raised to fit)."""
    game = game_of(board)
    horizon = None
    if game.rules.last_step is None:
        start = game.state_of(position)
        seen, queue = {start}, deque([start])
        while queue:
            for after in game.successors(queue.popleft()).values():
                if after not in seen:
                    seen.add(after)
                    queue.append(after)
        horizon = len(seen) + 1
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20 * (horizon or 0) + 1000))
    found: list = []
    # (the recursion runs as deep as the horizon: in a thread with a stack that holds it)
    size = threading.stack_size(min(max(threading.stack_size(), 20_000 * (horizon or 0)), 1 << 30))
    try:
        worker = threading.Thread(target=lambda: found.append(reference_answer(board, role, kind, position, horizon)))
        worker.start()
        worker.join()
    finally:
        sys.setrecursionlimit(limit)
        threading.stack_size(size)
    if not found:
        raise RuntimeError("the reference's search failed (see the thread's traceback above)")
    return found[0]
