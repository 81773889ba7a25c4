"""The position term of a game: ``s(T, X1,Y1, ..., Xn,Yn, fields...)``.

``T`` is the ``turns`` entry to move and ``(Xi,Yi)`` the cell of the i-th role's piece.  The
fields after the pieces hold the state the rules' mechanisms keep, and only those a question
needs (a *projection*: a field that no end, score or move depends on is left out).  Each
mechanism declares its fields (``position`` of its ``compiled.py``; the order:
gridsolve/mechanisms/encodings.py's ``TERM``):

* one lost-turn counter per ``turns`` entry (``L1..Lm``), when some move can bump;
* one bit per ``was_on`` pair (``W1..Wk``): the piece stood on the mark in the position before;
* per collectible: the count taken (``C``) and the items left as bit words (``I1..Iq``, 30
  items per word, bit b of word w for the item with index 30*w+b in the sorted mark cells);
* for a ``--hidden`` question (:class:`~gridsolve.compile.knowledge.Knowledge`), last: what the role knows of the marks
  hidden from it, over the cells they may occupy: known free (``F1..Fw``) and found
  obstacles (``O1..Ow``) as bit words, and per hidden mark the obstacles placed so far
  (``K1..Kh``).  Once every obstacle is placed, every unknown cell is free: ``F`` is 0;
* for rules with crates: the crates' cells as bit words (``CR1..CRq``, 30 cells a word, the
  board's cells in column order; gridsolve/mechanisms/crates/);
* for rules with a gate, last: ``G``, 1 while the board's gates are open.

The pieces are the roles' pieces, then the chasers (pieces moved by rule); a piece that is not
on the board stands on (0,0).
"""
from __future__ import annotations

from dataclasses import dataclass, fields as dataclass_fields, replace

from ..language.model import Board, Cell
from ..language.position import Position, unjudged_start
from ..mechanisms.encodings import TERM
from .bits import NO_ITEM, WORD_BITS, BitCells

__all__ = ["BitCells", "NO_ITEM", "WORD_BITS"]    # (defined by bits.py)

START = "start"     # start(S): the position a question starts from, where the ends do not judge it


@dataclass(frozen=True)
class Layout:
    """Which fields the position term of one compiled program has, and their variable names."""

    roles: tuple[str, ...]               # the pieces of the term: the roles', then the chasers
    turns: int
    # the mechanisms' fields (each a PositionField's name, gridsolve/mechanisms/encodings.py's TERM)
    lost: bool = False                   # lost-turn counters L1..Lm (bumps)
    was: tuple[tuple[str, str], ...] = ()     # was_on bits W1..Wk
    collect: tuple = ()                  # items: C and I1..Iq per collectible (mechanisms/items: Collectible)
    knows: object = None                 # a --hidden role's Knowledge (compile/knowledge.py): F, O words, K per mark
    gate: bool = False                   # a gate field G (1: the gates are open)
    # the fields of the mechanisms that keep their state with them (Position.plugins): (the
    # PositionField's name, its value) each, in TERM order; no Layout attribute names them
    plugins: tuple[tuple[str, object], ...] = ()

    def field(self, name: str):
        """The value of the mechanisms' field ``name``: a Layout attribute, else one of :attr:`plugins`."""
        return getattr(self, name) if name in LAYOUT_FIELDS else dict(self.plugins).get(name)

    def variables(self, prefix: str = "") -> list[str]:
        """The field variables after T and the pieces, in term order."""
        return [v for field in self.fields() for v in field.variables(self, prefix)]

    def fields(self) -> list:
        """The mechanisms' fields this term keeps (:class:`~gridsolve.mechanisms.base.PositionField`), in order."""
        return [part.position for part in TERM if self.field(part.position.name)]

    def knowledge_variables(self, prefix: str = "") -> list[str]:
        """The variables of the knowledge fields: F words, O words, K per hidden mark (the
        ``knows`` field's, :class:`~gridsolve.mechanisms.base.PositionField`)."""
        return next(part.position for part in TERM if part.position.name == "knows").variables(self, prefix)

    def term(self, turn: str, cells: list[str], fields: list[str]) -> str:
        return f"s({','.join([turn, *cells, *fields])})"

    def state(self, turn="T", prefix="") -> str:
        cells = [f"{prefix}X{i},{prefix}Y{i}" for i in range(1, len(self.roles) + 1)]
        return self.term(turn, cells, self.variables(prefix))

    def values(self, position, board: Board) -> list[int]:
        """The field values of ``position``, in term order."""
        return [value for field in self.fields() for value in field.values(self, position, board)]

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
        for field in self.fields():
            parts, rest = field.decode(self, rest)
            plugins = {**out.get("plugins", {}), **parts.pop("plugins", {})}
            out.update(parts, **({"plugins": plugins} if plugins else {}))
        return out


LAYOUT_FIELDS = frozenset(f.name for f in dataclass_fields(Layout))


def unjudged(term):
    """The position term inside a start that is not judged (``start(S)``: S), else ``term``."""
    return term.arguments[0] if term.name == START else term


def layout_for(board: Board, keep_collect: set[str] | None = None, knows=None) -> Layout:
    """The position term of ``board``; ``keep_collect`` (default: all) names the collectibles kept;
    ``knows``: the knowledge fields of a ``--hidden`` question."""
    options = {"keep_collect": keep_collect, "knows": knows}
    fields = {part.position.name: part.position.select(board, options) for part in TERM}
    plugins = tuple((name, value) for name, value in fields.items() if name not in LAYOUT_FIELDS)
    return Layout(board.rules.pieces, len(board.rules.turns), plugins=plugins,
                  **{name: value for name, value in fields.items() if name in LAYOUT_FIELDS})


def position_of(parts: dict, step: int) -> Position:
    """The :class:`Position` of a decoded position term (:meth:`Layout.decode`) at ``step``."""
    return Position(parts["pieces"], parts["side"], step, parts.get("items"), parts.get("lost", ()),
                    parts.get("was", frozenset()), gates_open=parts.get("gates_open", False),
                    plugins=tuple(sorted(parts.get("plugins", {}).items())))


def learned(before: Position, after: Position, role: str, found: tuple[str, Cell] | None = None) -> Position:
    """``after``, a position a ply after ``before``, with what ``role`` knows there: the cells it
    has stood on known free (but the one it stands on), the obstacles found before and ``found``
    (the (mark, cell) it has just bumped on, if any)."""
    free = (before.free | {before.cell(role)}) - {after.cell(role)}
    return replace(after, free=frozenset(free), found=before.found | ({found} if found else frozenset()))
