"""The position term of a game: ``s(T, X1,Y1, ..., Xn,Yn, fields...)``.

``T`` is the ``turns`` entry to move and ``(Xi,Yi)`` the cell of the i-th role's piece.  The
fields after the pieces hold the state the rules' mechanisms keep, and only those a question
needs (a *projection*: a field that no end, score or move depends on is left out):

* one lost-turn counter per ``turns`` entry (``L1..Lm``), when some move can bump;
* one bit per ``was_on`` pair (``W1..Wk``): the piece stood on the mark in the position before;
* per collectible: the count taken (``C``) and the items left as bit words (``I1..Iq``, 30
  items per word, bit b of word w for the item with index 30*w+b in the sorted mark cells);
* for a ``--hidden`` question (:class:`Knowledge`), last: what the role knows of the marks
  hidden from it, over the cells they may occupy: known free (``F1..Fw``) and found
  obstacles (``O1..Ow``) as bit words, and per hidden mark the obstacles placed so far
  (``K1..Kh``).  Once every obstacle is placed, every unknown cell is free: ``F`` is 0;
* for rules with a gate, last: ``G``, 1 while the board's gates are open.

The pieces are the roles' pieces, then the chasers (pieces moved by rule); a piece that is not
on the board stands on (0,0).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from ..language.model import Board, Cell
from ..language.position import Position, unjudged_start

WORD_BITS = 30
NO_ITEM = 1 << WORD_BITS        # the "bit" of a cell without an item: never set in any word
START = "start"     # start(S): the position a question starts from, where the ends do not judge it


class BitCells:
    """Cells numbered in ``cells`` order, 30 to a bit word."""

    cells: tuple[Cell, ...]

    @property
    def words(self) -> int:
        return max(1, -(-len(self.cells) // WORD_BITS))

    def bit(self, cell: Cell) -> tuple[int, int] | None:
        """(word, bit value) of ``cell``, None if it is not one of the cells."""
        if cell not in self.cells:
            return None
        index = self.cells.index(cell)
        return index // WORD_BITS, 1 << (index % WORD_BITS)

    def pack(self, cells) -> list[int]:
        """The bit words with the bits of ``cells`` (those among the cells) set."""
        words = [0] * self.words
        for cell in cells:
            found = self.bit(cell)
            if found:
                words[found[0]] |= found[1]
        return words

    def unpack(self, words) -> frozenset:
        return frozenset(c for c in self.cells if words[self.bit(c)[0]] & self.bit(c)[1])


@dataclass(frozen=True)
class Collectible(BitCells):
    name: str
    piece: str
    cells: tuple[Cell, ...]      # item cells in index order


@dataclass(frozen=True)
class Knowledge(BitCells):
    """What ``role`` knows of its hidden marks (``marks``, each with ``counts`` cells, allowed on
    ``allowed`` cells), over ``cells``: every cell some hidden mark may occupy."""

    role: str
    marks: tuple[str, ...]
    counts: tuple[int, ...]
    allowed: tuple[frozenset, ...]
    cells: tuple[Cell, ...]

    def values(self, position) -> list[int]:
        """F words, O words, K per mark of ``position``'s knowledge (F includes the role's cell)."""
        used = [sum(1 for mark, _ in position.found if mark == m) for m in self.marks]
        free = set(position.free) | {position.cell(self.role)}
        exhausted = sum(used) >= sum(self.counts)
        return ([0] * self.words if exhausted else self.pack(free)) + \
            self.pack(c for _, c in position.found) + used

    def newly_found(self, cells_before, used_before, cells_after, used_after) -> tuple[str, Cell] | None:
        """The (mark, cell) of the obstacle a ply placed, from the found cells and the obstacles
        placed per mark before and after it; None where it placed none."""
        new = set(cells_after) - set(cells_before)
        if not new:
            return None
        mark = next(m for m, was, now in zip(self.marks, used_before, used_after) if now > was)
        return mark, new.pop()


@dataclass(frozen=True)
class Layout:
    """Which fields the position term of one compiled program has, and their variable names."""

    roles: tuple[str, ...]               # the pieces of the term: the roles', then the chasers
    turns: int
    lost: bool
    was: tuple[tuple[str, str], ...]
    collect: tuple[Collectible, ...]
    knows: Knowledge | None = None
    gate: bool = False                   # a gate field G (1: the gates are open)

    def variables(self, prefix: str = "") -> list[str]:
        """The field variables after T and the pieces, in term order."""
        out = [f"{prefix}L{t}" for t in range(1, self.turns + 1)] if self.lost else []
        out += [f"{prefix}W{k}" for k in range(1, len(self.was) + 1)]
        for index, item in enumerate(self.collect, 1):
            out.append(f"{prefix}C{index}")
            out += [f"{prefix}I{index}_{w}" for w in range(1, item.words + 1)]
        return out + self.knowledge_variables(prefix) + ([f"{prefix}G"] if self.gate else [])

    def knowledge_variables(self, prefix: str = "") -> list[str]:
        """The variables of the knowledge fields: F words, O words, K per hidden mark."""
        k = self.knows
        if k is None:
            return []
        return ([f"{prefix}F{w}" for w in range(1, k.words + 1)] + [f"{prefix}O{w}" for w in range(1, k.words + 1)]
                + [f"{prefix}K{j}" for j in range(1, len(k.marks) + 1)])

    def term(self, turn: str, cells: list[str], fields: list[str]) -> str:
        return f"s({','.join([turn, *cells, *fields])})"

    def state(self, turn="T", prefix="") -> str:
        cells = [f"{prefix}X{i},{prefix}Y{i}" for i in range(1, len(self.roles) + 1)]
        return self.term(turn, cells, self.variables(prefix))

    def values(self, position, board: Board) -> list[int]:
        """The field values of ``position``, in term order."""
        out = list(position.lost_turns(board)) if self.lost else []
        out += [1 if pair in position.was else 0 for pair in self.was]
        left = position.items_left(board)
        for item in self.collect:
            cells = left[item.name]
            words = [0] * item.words
            for cell in cells:
                word, bit = item.bit(cell)
                words[word] |= bit
            out.append(len(item.cells) - len(cells))
            out += words
        out += self.knows.values(position) if self.knows else []
        return out + ([int(position.gates_open)] if self.gate else [])

    def root_term(self, position, board: Board) -> str:
        """The term of the position a question starts from: ``s(...)``, or ``start(s(...))``
        at the game's first step where the rules do not judge the start (``judge_start: false``)
        and an end holds there: a node of its own, not an end, with the moves of ``s(...)`` (the
        same position reached by a ply is judged)."""
        cells = [f"{x},{y}" for _, (x, y) in position.pieces]
        term = self.term(str(position.side), cells, [str(v) for v in self.values(position, board)])
        if unjudged_start(board, position):
            return f"{START}({term})"
        return term

    def position(self, term, board: Board, step: int) -> Position:
        """The :class:`Position` of a position term (a clingo symbol) at ``step``; the knowledge
        fields of a ``--hidden`` term are left out (:func:`learned` adds what the role knows)."""
        return position_of(self.decode([a.number for a in unjudged(term).arguments], board), step)

    def decode(self, args: list[int], board: Board) -> dict:
        """The parts of a position term's arguments: side, pieces and the kept fields."""
        n = len(self.roles)
        pieces = tuple((r, (args[1 + 2 * i], args[2 + 2 * i])) for i, r in enumerate(self.roles))
        rest = args[1 + 2 * n:]
        out = {"side": args[0], "pieces": pieces}
        if self.lost:
            out["lost"], rest = tuple(rest[:self.turns]), rest[self.turns:]
        if self.was:
            bits, rest = rest[:len(self.was)], rest[len(self.was):]
            out["was"] = frozenset(pair for pair, bit in zip(self.was, bits) if bit)
        items = []
        for item in self.collect:
            words, rest = rest[1:1 + item.words], rest[1 + item.words:]
            items.append((item.name, item.unpack(words)))
        if self.collect:
            out["items"] = tuple(items)
        if self.gate:
            out["gates_open"], rest = bool(rest[-1]), rest[:-1]
        if self.knows:
            k = self.knows
            free, found = k.unpack(rest[:k.words]), k.unpack(rest[k.words:2 * k.words])
            out["free"], out["found_cells"], out["used"] = free, found, tuple(rest[2 * k.words:])
        return out


def unjudged(term):
    """The position term inside a start that is not judged (``start(S)``: S), else ``term``."""
    return term.arguments[0] if term.name == START else term


def layout_for(board: Board, keep_collect: set[str] | None = None, knows: Knowledge | None = None) -> Layout:
    """The position term of ``board``; ``keep_collect`` (default: all) names the collectibles kept;
    ``knows``: the knowledge fields of a ``--hidden`` question."""
    rules = board.rules
    lost = any(m.bump_on and m.lose_turns for m in rules.moves.values())
    was = []
    conditions = [end.when for end in rules.ends] + [entry.when for entry in rules.timeout_when]
    for when in conditions:
        for pair in when.was_on:
            if pair not in was:
                was.append(pair)
    collect = []
    for name, c in rules.collect.items():
        if keep_collect is None or name in keep_collect:
            collect.append(Collectible(name, c.piece, tuple(sorted(board.marks.get(c.mark, ())))))
    return Layout(rules.pieces, len(rules.turns), lost, tuple(was), tuple(collect), knows,
                  rules.gate_key is not None)


def position_of(parts: dict, step: int) -> Position:
    """The :class:`Position` of a decoded position term (:meth:`Layout.decode`) at ``step``."""
    return Position(parts["pieces"], parts["side"], step, parts.get("items"), parts.get("lost", ()),
                    parts.get("was", frozenset()), gates_open=parts.get("gates_open", False))


def learned(before: Position, after: Position, role: str, found: tuple[str, Cell] | None = None) -> Position:
    """``after``, a position a ply after ``before``, with what ``role`` knows there: the cells it
    has stood on known free (but the one it stands on), the obstacles found before and ``found``
    (the (mark, cell) it has just bumped on, if any)."""
    free = (before.free | {before.cell(role)}) - {after.cell(role)}
    return replace(after, free=frozenset(free), found=before.found | ({found} if found else frozenset()))
