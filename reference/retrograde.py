"""Plain explicit-state baseline: BFS of the reachable positions, then retrograde analysis.

This is the classic algorithm, written in plain Python and independent of gridsolve: it imports
nothing from it and reads the board and rule files as the other references do (reference/board.py:
walls, pieces, marks, the moves and the ends).  It is the fast reference beside
reference/game.py's plain recursion: bench/ times gridsolve against it on boards far larger than
the recursion answers in reasonable time, and tests/test_retrograde_reference.py checks that the
two agree.  It plays one role a side, moves of single-cell steps and ends of pieces on one cell
or on marks (the Mummy Maze family); a board with more refuses with NotImplementedError.

1. enumerate every move of every role from every cell (``steps`` single-cell steps,
   ``idle``, ``first_step_real``, ``blocked: illegal|stay``, ``end_differs_from_start``,
   ``may_not_end_on``), as gridsolve's RULES describe them;
2. BFS from the query position over positions = (side to move, cell of every piece); no
   step counter, so every position is expanded once; a position where an end condition
   holds is terminal (no moves);
3. for every "race" (a set of attacking sides tries to force one of a set of end
   conditions) compute each position's rank level by level with successor counters:
   rank 0 = a target end; an attacker position gets rank d when its first successor gets
   rank d-1; a defender position gets rank d when its last unranked distinct successor
   gets rank d-1.  A position without moves never gets a rank.  Levels stop at the horizon;
4. read the answers off the ranks, as docs/answers.md defines them:
   value/plies, win/win_plies, survives/doom_plies, for the position and after each move.

Usage from Python: ``answer(board, role, position, horizon)`` returns a dict (``board``: a board
file's path, or a board gridsolve loaded, of which only the path is read; ``position``: read by its
``pieces``, ``side`` and ``step``, as reference/board.py describes), and
``python -m reference.retrograde BOARD [--role R] [--horizon N]`` prints it as JSON.
"""
from __future__ import annotations

import itertools
import json
import time
from collections import deque

from . import board as refboard

DELTA = {"north": (0, 1), "south": (0, -1), "east": (1, 0), "west": (-1, 0), "nowhere": (0, 0)}
REAL = ("north", "south", "east", "west")


# ----------------------------------------------------------------------------------------
# Moves of a role from a cell, ignoring the other pieces (except may_not_end_on, below)

def _step(board, cell, direction, blocked_stays):
    """Where one step lands, or None when it is illegal."""
    if direction == "nowhere":
        return cell
    x, y = cell
    dx, dy = DELTA[direction]
    target = (x + dx, y + dy)
    ok = board.on_board(target)
    if ok:
        if direction == "north":
            ok = (x, y) not in board.north
        elif direction == "south":
            ok = (x, y - 1) not in board.north
        elif direction == "east":
            ok = (x, y) not in board.east
        else:
            ok = (x - 1, y) not in board.east
    if ok:
        return target
    return cell if blocked_stays else None


def cell_moves(board, rule, cell):
    """[(move name, end cell)] of one role on ``cell``; names as gridsolve prints them."""
    per_step = []
    for k in range(rule.steps):
        dirs = list(REAL)
        if rule.idle and not (k == 0 and rule.first_step_real):
            dirs.append("nowhere")
        per_step.append(dirs)
    out = []
    for seq in itertools.product(*per_step):
        here = cell
        for d in seq:
            here = _step(board, here, d, rule.blocked == "stay")
            if here is None:
                break
        if here is None:
            continue
        if rule.end_differs_from_start and here == cell:
            continue
        out.append((" ".join(seq), here))
    return out


# ----------------------------------------------------------------------------------------
# The game graph

def unsupported(board) -> None:
    """Raise NotImplementedError when ``board``'s rules go beyond what this baseline plays."""
    rules = board.rules
    found = [what for what, present in [
        ("more than one role a turn", any(len(entry) != 1 for entry in rules.turns)),
        ("teams of several roles", any(len(team) != 1 for team in rules.teams)),
        ("collisions other than allowed", rules.collisions != "allowed"),
        ("pieces moved by rule", bool(rules.chasers or rules.enemies)),
        ("collectibles", bool(rules.collect)), ("score tables", bool(rules.tables)),
        ("conditional timeouts", bool(rules.timeout_when)), ("secret marks", bool(rules.placement)),
        ("an after_ply script", bool(rules.script)), ("gates", bool(board.gate_north or board.gate_east)),
        ("exits", bool(board.exits)), ("teleporters", bool(rules.teleporters)), ("crates", bool(rules.crates)),
        ("bumps, frozen pieces or pushes", any(m.bump_on or m.frozen_on or m.pushes for m in rules.moves.values())),
        ("ends beyond same_cell and reaches", any(e.when.was_on or e.when.collected or e.when.nearer
                                                  or e.when.crates_on for e in rules.ends)),
        ("a game without a step limit", rules.last_step is None)] if present]
    if found:
        raise NotImplementedError(f"baseline: {board.path} has {', '.join(found)}")


class Game:
    """Explicit reachable game graph from one root position."""

    def __init__(self, board, root_cells, root_side):
        board = refboard.board_of(board)
        rules = board.rules
        unsupported(board)
        self.board = board
        self.roles = list(rules.roles)
        self.turns = [list(t) for t in rules.turns]
        self.movers = [self.roles.index(t[0]) for t in self.turns]
        cells = [(x, y) for x in range(1, board.width + 1) for y in range(1, board.height + 1)
                 if board.on_board((x, y))]
        self.cells = cells
        index = {c: i for i, c in enumerate(cells)}
        self.ncell = len(cells)
        # moves per role per cell index: [(name, target index)]
        self.table = []
        for role in self.roles:
            rule = rules.moves[role]
            self.table.append([[(name, index[t]) for name, t in cell_moves(board, rule, c)] for c in cells])
        self.may_not = [[self.roles.index(p) for p in rules.moves[r].may_not_end_on] for r in self.roles]
        self.marks = {m: {index[c] for c in cs if c in index} for m, cs in board.marks.items()}
        self.ends = list(rules.ends)
        self.nsides = len(self.turns)
        root = (root_side,) + tuple(index[c] for c in root_cells)
        self._explore(root)

    def outcome(self, state):
        """Name of the first end condition that holds in ``state`` (side, cell...), or None."""
        for end in self.ends:
            ok = True
            for group in end.when.same_cell:
                first = state[1 + self.roles.index(group[0])]
                if any(state[1 + self.roles.index(o)] != first for o in group[1:]):
                    ok = False
                    break
            if ok:
                for piece, mark in end.when.reaches:
                    if state[1 + self.roles.index(piece)] not in self.marks.get(mark, ()):
                        ok = False
                        break
            if ok:
                return end.name
        return None

    def moves(self, state):
        """[(move name, successor state)] of a non-terminal state."""
        side = state[0]
        r = self.movers[side]
        here = state[1 + r]
        forbidden = {state[1 + p] for p in self.may_not[r]}
        nxt = (side + 1) % self.nsides
        out = []
        for name, target in self.table[r][here]:
            if target in forbidden:
                continue
            s2 = list(state)
            s2[0] = nxt
            s2[1 + r] = target
            out.append((name, tuple(s2)))
        return out

    def _explore(self, root):
        ids = {root: 0}
        states = [root]
        outcome = []
        succ = []          # distinct successor ids per state
        queue = deque([0])
        while queue:
            i = queue.popleft()
            s = states[i]
            end = self.outcome(s)
            outcome.append(end)          # ids are dequeued in order 0, 1, 2, ...
            if end is not None:
                succ.append(())
                continue
            nexts = set()
            for _, s2 in self.moves(s):
                j = ids.get(s2)
                if j is None:
                    j = ids[s2] = len(states)
                    states.append(s2)
                    queue.append(j)
                nexts.add(j)
            succ.append(tuple(nexts))
        self.ids, self.states, self.outcomes, self.succ = ids, states, outcome, succ
        pred = [[] for _ in states]
        for i, nexts in enumerate(succ):
            for j in nexts:
                pred[j].append(i)
        self.pred = pred
        self.n_edges = sum(len(n) for n in succ)

    def ranks(self, attackers, targets, horizon):
        """rank[i] for race (attacking sides, target ends), or -1; levels up to ``horizon``."""
        n = len(self.states)
        rank = [-1] * n
        count = [len(s) for s in self.succ]
        frontier = [i for i, e in enumerate(self.outcomes) if e in targets]
        for i in frontier:
            rank[i] = 0
        states, pred = self.states, self.pred
        d = 0
        while frontier and d < horizon:
            d += 1
            nxt = []
            for j in frontier:
                for i in pred[j]:
                    if rank[i] >= 0:
                        continue
                    if states[i][0] in attackers:
                        rank[i] = d
                        nxt.append(i)
                    else:
                        count[i] -= 1
                        if count[i] == 0:
                            rank[i] = d
                            nxt.append(i)
            frontier = nxt
        return rank


# ----------------------------------------------------------------------------------------
# Answers

def answer(board, role, position, horizon=None, want_moves=True) -> dict:
    """value/plies/win/win_plies/survives/doom_plies of ``position`` (a gridsolve Position)
    for ``role``, and the same for the position after each legal move."""
    board = refboard.board_of(board)
    rules = board.rules
    started = time.perf_counter()
    cells = [c for _, c in position.pieces]
    game = Game(board, cells, position.side)
    explored = time.perf_counter()
    remaining = rules.last_step - position.step
    if horizon is not None:
        remaining = min(remaining, horizon)
    scores = sorted({e.scores[role] for e in rules.ends} | {rules.timeout[role]})
    timeout = rules.timeout[role]
    own = {next(i for i, entry in enumerate(rules.turns) if role in entry)}
    others = set(range(len(rules.turns))) - own
    races = {}

    def race(attackers, targets):
        key = (frozenset(attackers), frozenset(targets))
        if key not in races:
            races[key] = game.ranks(key[0], key[1], remaining)
        return races[key]

    up = {t: race(own, {e.name for e in rules.ends if e.scores[role] >= t}) for t in scores if t > timeout}
    down = {t: race(others, {e.name for e in rules.ends if e.scores[role] < t})
            for t in scores if t <= timeout and t > scores[0]}
    avoid = race(others, {e.name for e in rules.ends if role in e.loss_for})
    ranked = time.perf_counter()

    def forced(rank, i, rm):
        return rank[i] if 0 <= rank[i] <= rm else None

    def probe(i, rm):
        value = scores[0]
        for t in scores:
            if t > timeout and forced(up[t], i, rm) is not None:
                value = max(value, t)
            elif scores[0] < t <= timeout and forced(down[t], i, rm) is None:
                value = max(value, t)
        if value > timeout:
            plies = forced(up[value], i, rm)
        elif value < timeout:
            nxt = min(t for t in scores if t > value)
            plies = forced(down[nxt], i, rm)
        else:
            plies = None
        top = scores[-1]
        if top > timeout:
            win_plies = forced(up[top], i, rm)
            win = win_plies is not None
        else:
            win_plies, win = None, value == top
        doom = forced(avoid, i, rm)
        return {"value": value, "plies": plies, "win": win, "win_plies": win_plies,
                "survives": doom is None, "doom_plies": doom}

    root_state = game.states[0]
    out = probe(0, remaining)
    out["remaining"] = remaining
    if want_moves:
        moves = []
        if remaining > 0 and game.outcomes[0] is None:
            for name, s2 in game.moves(root_state):
                moves.append({"move": name, **probe(game.ids[s2], remaining - 1)})
        moves.sort(key=lambda m: m["move"])
        out["moves"] = moves
    out["stats"] = {"positions": len(game.states), "edges": game.n_edges, "races": len(races),
                    "explore_s": round(explored - started, 4), "retro_s": round(ranked - explored, 4),
                    "total_s": round(time.perf_counter() - started, 4)}
    return out


def main(argv=None):
    import argparse

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("board")
    p.add_argument("--role")
    p.add_argument("--horizon", type=int)
    args = p.parse_args(argv)
    board = refboard.read_board(args.board)
    print(json.dumps(answer(board, args.role or board.rules.roles[0], refboard.initial_position(board), args.horizon),
                     indent=1))


if __name__ == "__main__":
    main()
