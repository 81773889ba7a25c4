"""The crosscheck itself: a board's reachable positions, breadth-first from its start, each
mapped to a GDL state and compared with the GDL game's own: the state (the start is the GDL's
initial state, each move's successor the GDL's successor), terminal, every role's goal against
the board's scores, and the legal joint moves.

The GDL side is the product's engine (:mod:`gridsolve.gdl.engine`: the game's one-ply rules
ground once, evaluated for a layer of states at once); the board side its compiled rules
(:mod:`gridsolve.crosscheck.boardside`).  The first difference, in the fewest plies from the
start, stops the comparison.  Static fluents (walls, exits, cells) are the GDL initial state's
fluents the mapping does not write: a position's state is those and the fluents it writes.
"""
from __future__ import annotations

import itertools
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from ..errors import BoardError
from ..gdl.description import read_description
from ..gdl.engine import GroundGame, ground_game, judge_states, next_states
from ..gdl.kif import read_kif
from ..gdl.translate import kif_symbol, symbol_kif
from ..language.position import Position, make_position
from ..solve.common.limits import LimitGuard, Limits
from .boardside import BoardJudge, Judged, at_step
from .mapping import Mapping, read_mapping

SUFFIXES = (".kif", ".gdl")


@dataclass
class Difference:
    """The first difference: at ``ply`` (from the start), what differs, the board position and
    the GDL state there (its fluents but the static ones), the move (if a move's), what each side says,
    and the moves from the start that lead there."""

    ply: int
    what: str
    position: str
    fluents: list[str]
    move: str | None = None
    gdl: str | None = None
    board: str | None = None
    line: list[str] = field(default_factory=list)


@dataclass
class Crosscheck:
    """What ``gridsolve crosscheck`` reports (its ``--json`` object: docs/crosscheck.md)."""

    board: str
    against: str
    agree: bool
    complete: bool              # every reachable position compared (False: --states or a difference stopped it)
    positions: int              # (position, step) pairs compared
    moves: int                  # moves whose successors were compared
    plies: int                  # the deepest ply compared
    limit: int | None           # --states
    seconds: float
    difference: Difference | None
    layers: list[int] = field(default_factory=list)     # positions compared at each ply

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass(eq=False)
class _Node:
    pos: Position
    since: tuple                # per arrival: the {since} step, None while unset
    term: str                   # the board's position term
    parent: "_Node | None" = None
    move: str | None = None

    @property
    def key(self) -> tuple:
        return self.term, self.pos.step, self.since

    def line(self) -> list[str]:
        out, node = [], self
        while node.parent is not None:
            out.append(node.move)
            node = node.parent
        return out[::-1]


class _Unmapped(Exception):
    """A fluent the mapping writes is none of the game's fluents."""


class _States:
    """GDL states of board positions through the mapping: the static fluents, a column a fluent."""

    def __init__(self, mapping: Mapping, board, game: GroundGame):
        self.mapping, self.board, self.game = mapping, board, game
        self.columns: dict[str, int | None] = {}
        self.static = np.zeros(len(game.fluents), dtype=bool)
        self.empty: dict | None = None      # open cell -> the column of its empty fluent

    def column(self, text: str) -> int:
        if text not in self.columns:
            try:
                (term,) = read_kif(text, "the mapping")
                self.columns[text] = self.game.column.get(kif_symbol(term))
            except (BoardError, ValueError, RuntimeError):
                self.columns[text] = None
        found = self.columns[text]
        if found is None:
            raise _Unmapped(text)
        return found

    def dynamic(self, node: _Node) -> list[int]:
        columns = [self.column(t) for t in self.mapping.fluents(self.board, node.pos, node.since, empty=False)]
        if self.mapping.empty is not None:
            if self.empty is None:
                self.empty = {cell: self.column(self.mapping.at(self.mapping.empty, cell)) for cell in self.mapping.open}
            taken = {cell for _, cell in node.pos.pieces}
            columns += [c for cell, c in self.empty.items() if cell not in taken]
        return columns

    def bits(self, node: _Node) -> np.ndarray:
        bits = self.static.copy()
        bits[self.dynamic(node)] = True
        return bits

    def texts(self, bits: np.ndarray) -> list[str]:
        """The fluents of a state but the static ones, in KIF's order."""
        return sorted(self.game.fluent_texts(bits & ~self.static))


def show_position(pos: Position, board) -> str:
    """A position in one line: pieces, side to move, step, items left, was_on pairs."""
    parts = [", ".join(f"{r} {x},{y}" for r, (x, y) in pos.pieces), f"{'+'.join(board.rules.turns[pos.side])} to move",
             f"step {pos.step}"]
    for name, left in pos.items_left(board).items():
        parts.append(f"{len(left)} {name} left")
    if pos.was:
        parts.append("was on " + ", ".join(f"{p} {m}" for p, m in sorted(pos.was)))
    return "; ".join(parts)


def _since(mapping: Mapping, before: _Node, after: Position) -> tuple:
    """The arrivals' {since} after a move: the step of ``before`` where the pair is newly kept."""
    return tuple(None if a.pair not in after.was else (before.pos.step if at is None else at)
                 for a, at in zip(mapping.arrivals, before.since))


def _board_scores(judged: Judged) -> dict:
    return judged.ends if judged.end is not None else judged.timeouts


def crosscheck(board_path: Path | str, kif_path: Path | str, states: int | None = None,
               limits: Limits | None = None) -> Crosscheck:
    """Compare the board ``board_path``'s reachable positions (the first ``states`` of them,
    breadth-first, where given) with the GDL game ``kif_path`` through the board's mapping."""
    started = time.perf_counter()
    limits = limits or Limits()
    board, mapping = read_mapping(board_path)
    kif_path = Path(kif_path)
    if kif_path.suffix.lower() not in SUFFIXES:
        raise BoardError(str(kif_path), None, "not a GDL file (.kif or .gdl)", "give --against the game's KIF file")
    guard = LimitGuard(limits, "the positions to crosscheck",
                       lambda needed: "allow more memory with --max-memory, or compare fewer positions (--states N)",
                       smaller="compare fewer positions (--states N)")
    game = ground_game(read_description(kif_path), guard)
    checker = _Checker(board, mapping, game, guard)
    difference, complete = checker.run(states)
    return Crosscheck(str(board_path), str(kif_path), difference is None, complete, checker.compared, checker.moves,
                      checker.ply, states, round(time.perf_counter() - started, 3), difference, checker.layers)


class _Checker:
    def __init__(self, board, mapping: Mapping, game: GroundGame, guard: LimitGuard):
        self.board, self.mapping, self.game, self.guard = board, mapping, game, guard
        self.rules = board.rules
        self.states = _States(mapping, board, game)
        self.judge = BoardJudge(board, guard)
        self.roles = game.role_names
        self.compared = self.moves = self.ply = 0
        self.layers: list[int] = []
        self.names: dict = {}           # (role, GDL move, cell) -> the board's move
        self.move_texts = [[symbol_kif(m) for m in moves] for moves in game.moves]

    def difference(self, node: _Node, what: str, bits: np.ndarray | None, **more) -> Difference:
        fluents = self.states.texts(bits) if bits is not None else []
        return Difference(node.pos.step - self.rules.first_step, what, show_position(node.pos, self.board), fluents,
                          line=node.line(), **more)

    def start(self) -> tuple[_Node, Difference | None]:
        start = make_position(self.board)
        node = _Node(start, (None,) * len(self.mapping.arrivals), self.judge.term(start))
        if sorted(self.roles) != sorted(self.rules.roles):
            return node, self.difference(node, "the roles differ", None, gdl=" ".join(self.roles),
                                         board=" ".join(self.rules.roles))
        init = self.game.init
        try:
            mine = self.states.dynamic(node)
        except _Unmapped as exc:
            return node, self.difference(node, f"the mapping writes {exc}, which is no fluent of the game", init)
        written = np.zeros(len(init), dtype=bool)
        written[mine] = True
        self.states.static = init & ~written
        if not init[mine].all():
            return node, self.difference(node, "the start is not the GDL's initial state", init,
                                         gdl="initial state", board="also " + " ".join(self.game.fluent_texts(written & ~init)))
        return node, None

    def run(self, limit: int | None) -> tuple[Difference | None, bool]:
        node, found = self.start()
        if found is not None:
            return found, False
        layer, seen = [node], {node.key}
        while layer:
            if limit is not None and self.compared + len(layer) > limit:
                layer = layer[:limit - self.compared]
                return (self._layer(layer, seen, expand=False) if layer else None), False
            found, layer = self._layer(layer, seen)
            if found is not None:
                return found, False
        return None, True

    def _layer(self, layer: list[_Node], seen: set, expand: bool = True):
        """Compare a layer's positions; their children, unless a difference (returned) is found."""
        try:
            bits = np.array([self.states.bits(n) for n in layer])
        except _Unmapped:
            for n in layer:
                try:
                    self.states.bits(n)
                except _Unmapped as exc:
                    return self._result(self.difference(n, f"the mapping writes {exc}, which is no fluent of the game",
                                                        None), expand)
        judged = self.judge.judge([n.pos for n in layer])
        terminal, goal, legal = judge_states(self.game, bits)
        self.compared += len(layer)
        self.layers.append(len(layer))
        self.ply = max(self.ply, layer[0].pos.step - self.rules.first_step)
        pairs = []          # (node index, joint move numbers, label, board successor)
        for i, (node, j) in enumerate(zip(layer, judged)):
            found = self._position(i, node, j, bits[i], terminal[i], goal[i], legal, pairs)
            if found is not None:
                return self._result(found, expand)
        self.guard.after(f"after {self.compared:,} positions compared")
        if not pairs:
            return self._result(None, expand)
        at = np.array([i for i, _, _, _ in pairs], dtype=np.int64)
        joints = np.array([joint for _, joint, _, _ in pairs], dtype=np.int64)
        after = np.concatenate([next_states(self.game, bits[at[lo:lo + 4096]], joints[lo:lo + 4096])
                                for lo in range(0, len(at), 4096)])
        following, packed, known = [], np.packbits(after, axis=1), {}
        for k, (i, _, label, (succ, term)) in enumerate(pairs):
            parent = layer[i]
            child = _Node(succ, _since(self.mapping, parent, succ), term, parent, label)
            step = parent.pos.step + 1
            self.moves += 1
            key = (term, step, child.since)
            if known.get(key) == packed[k].tobytes():
                continue        # a position the layer has already reached, the GDL's state as before
            child.pos = at_step(succ, step)
            try:
                mine = self.states.bits(child)
            except _Unmapped as exc:
                return self._result(self.difference(child, f"the mapping writes {exc}, which is no fluent of the game",
                                                    after[k]), expand)
            if not np.array_equal(mine, after[k]):
                return self._result(self.difference(
                    parent, "the successors differ", bits[i], move=label,
                    gdl="only in GDL: " + (" ".join(self.game.fluent_texts(after[k] & ~mine)) or "-"),
                    board=f"{show_position(child.pos, self.board)}; only in the board's: "
                          + (" ".join(self.game.fluent_texts(mine & ~after[k])) or "-")), expand)
            known[key] = packed[k].tobytes()
            if key not in seen:
                seen.add(key)
                following.append(child)
        return self._result(None, expand, following)

    @staticmethod
    def _result(found, expand, following=()):
        return found if not expand else (found, list(following))

    def _position(self, i, node, judged: Judged, bits, terminal, goal, legal, pairs) -> Difference | None:
        pos, rules = node.pos, self.rules
        board_terminal = judged.end is not None or pos.step >= rules.last_step or not judged.steps
        if bool(terminal) != board_terminal:
            why = judged.end or ("the step limit" if pos.step >= rules.last_step else "no move")
            return self.difference(node, "terminal differs", bits, gdl=f"terminal: {'yes' if terminal else 'no'}",
                                   board=f"terminal: {'yes (' + why + ')' if board_terminal else 'no'}")
        if terminal:
            goals = {r: int(goal[k]) for k, r in enumerate(self.roles)}
            scores = {r: _board_scores(judged).get(r) for r in self.roles}
            if goals != scores:
                return self.difference(node, "the goals differ", bits,
                                       gdl="goals " + ", ".join(f"{r} {v}" for r, v in goals.items()),
                                       board=f"{judged.end or 'timeout'}: scores "
                                             + ", ".join(f"{r} {v}" for r, v in scores.items()))
            return None
        movers = rules.turns[pos.side]
        choices = []
        for r, role in enumerate(self.roles):
            numbers = np.flatnonzero(legal[r][i]).tolist()
            texts = [self.move_texts[r][n] for n in numbers]
            if role not in movers:
                idle = self.mapping.idle.get(role)
                if len(texts) != 1 or (idle is not None and texts != [idle]):
                    return self.difference(node, f"{role} is not to move but its GDL moves are not its idle move",
                                           bits, gdl=" ".join(texts) or "no move", board=f"idle: {idle or 'one move'}")
                choices.append([(numbers[0], None)])
                continue
            named = []
            for n, text in zip(numbers, texts):
                name = self._move_name(role, text, pos.cell(role))
                if name is None:
                    return self.difference(node, f"the GDL move {text} of {role} matches no move of the mapping", bits,
                                           move=text)
                named.append((n, name))
            choices.append(named)
        gdl = {}
        for combo in itertools.product(*choices):
            key = tuple(name for _, name in combo if name is not None)
            label = key[0] if len(movers) == 1 else ", ".join(f"{r} {n}" for r, (_, n) in zip(self.roles, combo)
                                                               if n is not None)
            if label in gdl:
                return self.difference(node, "two GDL joint moves have one board name", bits, move=label,
                                       gdl=" and ".join(" ".join(self.move_texts[r][n] for r, n in enumerate(joint))
                                                        for joint in (gdl[label], tuple(n for n, _ in combo))))
            gdl[label] = tuple(n for n, _ in combo)
        ours = {self._label(label, movers): (succ, term) for label, succ, term in judged.steps}
        only_gdl, only_board = sorted(set(gdl) - set(ours)), sorted(set(ours) - set(gdl))
        if only_gdl or only_board:
            return self.difference(node, "the legal moves differ", bits, move=" | ".join(only_gdl + only_board),
                                   gdl="only in GDL: " + (", ".join(only_gdl) or "-"),
                                   board="only in the board: " + (", ".join(only_board) or "-"))
        for label in sorted(gdl):
            pairs.append((i, gdl[label], label, ours[label]))
        return None

    def _move_name(self, role: str, text: str, cell) -> str | None:
        key = (role, text, cell)
        if key not in self.names:
            self.names[key] = self.mapping.move_name(role, text, cell)
        return self.names[key]

    def _label(self, label: str, movers) -> str:
        """A board move's label in the order of the GDL's roles (``white east, black west``)."""
        if len(movers) == 1:
            return label.split(" (")[0]
        parts = dict(part.split(" ", 1) for part in label.split(", "))
        return ", ".join(f"{r} {parts[r]}" for r in self.roles if r in parts)
