"""Depth-first search from the position asked, with a transposition table: the same questions as
the ranking of the whole graph (:mod:`gridsolve.gdl.answers`), one threshold at a time.

A question is **forced within d steps**: at a state the role commits to one of its moves first,
then the others (one coalition) answer knowing it; a side that attacks needs one option that is
forced within one step fewer, a side that defends needs every option forced.  An end counts where
it is a target (its goal for the role within the question's bounds), else never; a state that is
not an end, with no joint move or with no step left, is not forced.  Three sides can attack:

* ``role``: the role forces an end with goal ``>= low`` (a win: ``low`` its top goal);
* ``others``: the coalition forces an end with goal in ``[0, high]`` (the lowest goal's plies);
* ``anyone``: an end with goal in ``[low, high]`` is reachable (which goals the ends reach).

Forced within d is monotone in d, so the table keeps per state the depth proven not enough
(``lo``; :data:`DEEP` where the search reached no state at 0 steps left that was not an end, so
that more steps change nothing) and the depth proven enough (``hi``), and the move that decided it
last, tried first the next time.  :meth:`DepthSearch.least` deepens one step at a time (up to a
horizon, or without one until the depth stops mattering): the first depth forced is the fewest
steps, the answers' plies.  A node's children are evaluated as one batch through the circuit
(``terminal``, ``goal``, ``legal`` of all of them at once, their next states at once).
"""
from __future__ import annotations

import sys
import time
from dataclasses import dataclass

import numpy as np

from ..errors import QueryError
from ..solve.common.limits import LimitGuard
from ..solve.common.outcome import Candidate, pick
from .engine import GroundGame, joint_moves, next_states, judge_states

DEEP = 1 << 30          # a depth no question reaches: "no depth changes it"
DEEPEST = 500           # the most steps a search goes deep (a frame or two of Python's stack a step)
NODE_BYTES = 400        # a state's key, ends, goals and children in the tables, about (the memory limit)
CHECK_EVERY = 64        # expansions between two checks of the limits


@dataclass(frozen=True)
class Target:
    """Who attacks and which ends they aim at (see the module docstring)."""

    side: str                   # "role", "others" or "anyone"
    low: int = 0
    high: int = 1 << 30

    def hit(self, goal: int) -> bool:
        return goal >= 0 and self.low <= goal <= self.high


@dataclass
class _Node:
    """A state expanded: per move of the role (its number), the joint moves with that move and
    the key of the state after each."""

    moves: list[int]
    joints: list[list[tuple[int, ...]]]
    children: list[list[bytes]]
    legal_count: int            # the role's legal moves (for win_moves)


@dataclass
class _Entry:
    lo: int = -1                # not forced within lo steps (DEEP: within none)
    hi: int = DEEP              # forced within hi steps
    best: int = 0               # the move (index) that decided it last


@dataclass
class SearchStep:
    """One step of a line: the joint move (each role's move number) and the state after it."""

    joint: tuple[int, ...]
    after: bytes
    choices: int                # the role's legal moves before it


def key_bits(key: bytes, width: int) -> np.ndarray:
    """The state (a bool of each of ``width`` fluents) of the packed key ``key`` (np.packbits' order)."""
    return np.unpackbits(np.frombuffer(key, dtype=np.uint8))[:width].astype(bool)


def check_horizon(horizon: int | None) -> None:
    """A horizon the depth-first search can go (at most :data:`DEEPEST` steps), else the QueryError."""
    if horizon is not None and horizon > DEEPEST:
        raise QueryError(f"--horizon {horizon}: the depth-first search goes at most {DEEPEST} steps deep",
                         "ask fewer steps, or --search breadth")


def too_deep(guard: LimitGuard, states: int):
    """The limit's error of a search :data:`DEEPEST` steps deep without an answer."""
    return guard.error(f"{DEEPEST:,} steps deep without an answer (a game whose play can go on forever: ask with "
                       "--horizon)", f"depth-first search: after {states:,} states searched", memory=False)


class DepthSearch:
    """Depth-first searches for ``role`` from any states of ``game`` (their keys: :meth:`key`),
    sharing the states evaluated and one transposition table per :class:`Target`."""

    def __init__(self, game: GroundGame, role: int, guard: LimitGuard, judged: "DepthSearch | None" = None):
        self.game, self.role, self.guard = game, role, guard
        self.width = len(game.fluents)
        # key -> (terminal, goal per role), and its legal moves: shared with ``judged``'s (another role's)
        self.ends: dict[bytes, tuple[bool, np.ndarray]] = {} if judged is None else judged.ends
        self.legal: dict[bytes, list[np.ndarray]] = {} if judged is None else judged.legal
        self.nodes: dict[bytes, _Node] = {}
        self.tables: dict[Target, dict[bytes, _Entry]] = {}
        self.history: dict[tuple[int, ...], int] = {}     # a joint move -> the searches it decided (move ordering)
        self.visits = 0
        self.started = time.perf_counter()
        sys.setrecursionlimit(max(sys.getrecursionlimit(), 3 * DEEPEST + 1000))

    def for_role(self, role: int) -> "DepthSearch":
        """The same questions for another role (the states judged shared)."""
        return DepthSearch(self.game, role, self.guard, judged=self)

    # - States ---

    def key(self, bits: np.ndarray) -> bytes:
        return np.packbits(bits[None, :], axis=1)[0].tobytes()

    def bits(self, key: bytes) -> np.ndarray:
        return key_bits(key, self.width)

    def _judge(self, keys: list[bytes], bits: np.ndarray) -> None:
        terminal, goal, legal = judge_states(self.game, bits)
        for i, key in enumerate(keys):
            self.ends[key] = (bool(terminal[i]), goal[i])
            self.legal[key] = [part[i] for part in legal]

    def root(self, bits: np.ndarray) -> bytes:
        key = self.key(bits)
        if key not in self.ends:
            self._judge([key], bits[None, :])
        return key

    def _expand(self, key: bytes) -> _Node:
        node = self.nodes.get(key)
        if node is None:
            self._expand_all([key])
            node = self.nodes[key]
        return node

    def _expand_all(self, keys: list[bytes]) -> None:
        """Expand the states ``keys`` not expanded yet, as one batch: their joint moves' next
        states in one evaluation of the circuit, the new states judged in one more."""
        keys = [key for key in dict.fromkeys(keys) if key not in self.nodes]
        if not keys:
            return
        bits = np.array([self.bits(key) for key in keys])
        legal = [np.array([self.legal[key][r] for key in keys]) for r in range(len(self.game.roles))]
        pair_state, chosen = joint_moves(np.arange(len(keys)), legal)
        after = (next_states(self.game, bits[pair_state], chosen) if len(chosen)
                 else np.zeros((0, self.width), dtype=bool))
        packed = np.packbits(after, axis=1)
        child_keys = [row.tobytes() for row in packed]
        fresh = {k: i for i, k in enumerate(child_keys) if k not in self.ends}
        if fresh:
            self._judge(list(fresh), after[list(fresh.values())])
        nodes = [_Node([], [], [], int(legal[self.role][i].sum())) for i in range(len(keys))]
        slots: list[dict[int, int]] = [{} for _ in keys]
        for s, joint, child in zip(pair_state.tolist(), map(tuple, chosen.tolist()), child_keys):
            node, slot, own = nodes[s], slots[s], joint[self.role]
            if own not in slot:
                slot[own] = len(node.moves)
                node.moves.append(own)
                node.joints.append([])
                node.children.append([])
            node.joints[slot[own]].append(joint)
            node.children[slot[own]].append(child)
        before = len(self.nodes)
        self.nodes.update(zip(keys, nodes))
        if len(self.nodes) // CHECK_EVERY != before // CHECK_EVERY:
            self.guard.after(f"depth-first search: after {len(self.ends):,} states searched",
                             held=len(self.ends) * NODE_BYTES)

    # - Forced within d steps ---

    def forced(self, key: bytes, depth: int, target: Target) -> tuple[bool, bool]:
        """Whether ``target``'s side forces one of its ends from state ``key`` within ``depth``
        steps, and whether a false answer depended on the depth (a state cut off at 0 steps)."""
        table = self.tables.setdefault(target, {})
        return self._state(key, depth, target, table)

    def forced_after(self, key: bytes, move: int, depth: int, target: Target) -> tuple[bool, bool]:
        """:meth:`forced` after the role commits to ``move`` (an index of the node's moves),
        within ``depth`` steps counting this one."""
        table = self.tables.setdefault(target, {})
        if depth <= 0:
            return False, True
        return self._choice(self._expand(key), move, depth, target, table)

    def moves(self, key: bytes) -> list[int]:
        """The role's moves from state ``key`` (their numbers), in the order :meth:`forced_after` numbers them."""
        return self._expand(key).moves

    def _attacks(self, target: Target) -> tuple[bool, bool]:
        """(the role attacks, the others attack)."""
        return target.side in ("role", "anyone"), target.side in ("others", "anyone")

    def _state(self, key: bytes, depth: int, target: Target, table: dict) -> tuple[bool, bool]:
        terminal, goal = self.ends[key]
        if terminal:
            return target.hit(int(goal[self.role])), False
        entry = table.get(key)
        if entry is not None:
            if depth >= entry.hi:
                return True, False
            if depth <= entry.lo:
                return False, entry.lo < DEEP
        if depth <= 0:
            return False, True
        if entry is None:
            entry = table[key] = _Entry()
        self.visits += 1
        node = self._expand(key)
        if not node.moves:                  # (no joint move: neither side forces anything, at any depth)
            entry.lo = DEEP
            return False, False
        own_attacks, _ = self._attacks(target)
        order = sorted(range(len(node.moves)), key=lambda m: -self.history.get((node.moves[m],), 0))
        if entry.best < len(order):
            order.insert(0, order.pop(entry.best))
        cut = False
        result = not own_attacks
        for m in order:
            won, moved_cut = self._choice(node, m, depth, target, table)
            if won == own_attacks:          # (an attacker's move that forces, a defender's that escapes)
                entry.best = m
                self.history[(node.moves[m],)] = self.history.get((node.moves[m],), 0) + depth * depth
                result, cut = won, (moved_cut if not won else False)
                break
            cut = cut or moved_cut
        if result:
            entry.hi = min(entry.hi, depth)
            return True, False
        entry.lo = max(entry.lo, DEEP if not cut else depth)
        return False, cut

    def _choice(self, node: _Node, m: int, depth: int, target: Target, table: dict) -> tuple[bool, bool]:
        """The role's move ``m`` committed: the others' answers (``depth`` counts this step)."""
        _, others_attack = self._attacks(target)
        children, joints = node.children[m], node.joints[m]
        order = sorted(range(len(children)), key=lambda i: (self._rank(children[i], depth - 1, target, table,
                                                                       others_attack), -self.history.get(joints[i], 0)))
        cut = False
        for i in order:
            won, child_cut = self._state(children[i], depth - 1, target, table)
            if won == others_attack:
                self.history[joints[i]] = self.history.get(joints[i], 0) + depth * depth
                return won, (child_cut if not won else False)
            cut = cut or child_cut
        return not others_attack, (cut if others_attack else False)

    def _rank(self, key: bytes, depth: int, target: Target, table: dict, attacking: bool) -> int:
        """The order children are tried in: the answer known to decide first (an end, or the table's)."""
        terminal, goal = self.ends[key]
        entry = table.get(key)
        if terminal:
            decides = target.hit(int(goal[self.role])) == attacking
        elif entry is not None and (depth >= entry.hi or depth <= entry.lo):
            decides = (depth >= entry.hi) == attacking
        else:
            return 1
        return 0 if decides else 2

    # - Fewest steps, and the line ---

    def least(self, key: bytes, target: Target, horizon: int | None, move: int | None = None) -> int | None:
        """The fewest steps within which ``target``'s side forces from ``key`` (after the role
        commits to ``move`` where given, its step counted; None: not within ``horizon``, or,
        without one, at no depth), deepening one step at a time."""
        depth = 0
        check_horizon(horizon)
        while horizon is None or depth <= horizon:
            won, cut = (self.forced(key, depth, target) if move is None
                        else self.forced_after(key, move, depth, target))
            if won:
                return depth
            if not cut:
                return None
            depth += 1
            if depth > DEEPEST:
                raise too_deep(self.guard, len(self.ends))
        return None

    def line(self, key: bytes, target: Target, steps: int) -> list[SearchStep]:
        """The play from ``key`` forced in exactly ``steps`` steps (its fewest): the attackers
        hurry (an option forced within one step fewer), the defenders delay (an option not forced
        within two steps fewer, so that the fewest steps stay exact)."""
        own_attacks, others_attack = self._attacks(target)

        def keeps(m: int) -> bool:      # (the role's move keeps the end forced in exactly ``steps``)
            if own_attacks:
                return self.forced_after(key, m, steps, target)[0]
            return not self.forced_after(key, m, steps - 1, target)[0]

        def answers(child: bytes) -> bool:      # (the others' answer keeps it so)
            within = self.forced(child, steps - 1, target)[0]
            sooner = steps >= 2 and self.forced(child, steps - 2, target)[0]
            return within if others_attack else within and not sooner

        line = []
        while not self.ends[key][0] and steps > 0:
            node = self._expand(key)
            # (each side's pick by the one rule's pick, the first move of the search's order it
            # accepts: every accepted move is worth the same, the end forced in exactly ``steps``)
            m = pick([Candidate((), -m, m) for m in range(len(node.moves))], True, lambda c: keeps(c.move)).move
            i = pick([Candidate((), i, i) for i in range(len(node.children[m]))], False,
                     lambda c: answers(node.children[m][c.move])).move
            line.append(SearchStep(node.joints[m][i], node.children[m][i], node.legal_count))
            key, steps = node.children[m][i], steps - 1
        return line

    def stats(self) -> dict:
        return {"search": "depth", "positions": len(self.ends), "expanded": len(self.nodes),
                "visits": self.visits, "search_s": time.perf_counter() - self.started}
