"""One codec for the positions of a board's compiled program: :class:`Position` <-> position term
(a clingo symbol, or its text) <-> number, one at a time or many at once in arrays.

The term ``s(T, X1,Y1, ..., Xn,Yn, fields...)`` is written by the compiler's
:class:`~gridsolve.compile.state.Layout` (which fields a question keeps); the codec numbers it.
Each argument group is a *field* with a range: the side to move (``turns`` entries), each
piece's cell (``1 + (x-1)*H + (y-1)``, 0 for a piece off the board; without optional pieces,
``(x-1)*H + (y-1)``), lost turns, ``was_on`` bits, per collectible the count taken and the item
bit words, the knowledge words and counts of a ``--hidden`` question, the gate bit.  A field
whose range holds one value (the side of a one-entry game) is not numbered.

* **dense** (:class:`MixedRadix`): a position's number is its fields in mixed radix, the first
  most significant, where the product of the ranges fits in int64: a number is its term and back
  without a table;
* **as found** (:class:`FoundNumbering`): where it does not (20 optional chasers on a small board
  have more positions than int64 numbers), the positions are numbered in the order a builder
  finds them and their fields are kept in a table.

The graph builders (:mod:`.scripted`, :mod:`.factored`) number every ply's positions at once
(:meth:`Numbering.keys`, :meth:`Numbering.fields`); answers and the studio convert one position
at a time (:meth:`PositionCodec.text`, :meth:`PositionCodec.term`, :meth:`PositionCodec.position`,
:meth:`PositionCodec.number`, :meth:`PositionCodec.symbol`); a reader of clingo's raw symbols
(the layered table) numbers them all at once (:meth:`PositionCodec.keys_of_symbols`).
"""
from __future__ import annotations

import math
from array import array
from dataclasses import dataclass

import clingo
import numpy as np

from ...compile.state import Layout, WORD_BITS, layout_for, position_of, unjudged
from ...language.model import Board
from ...language.position import Position

INT64 = int(np.iinfo(np.int64).max)


@dataclass(frozen=True)
class Field:
    """One numbered part of a position term: ``name`` (a role or chaser for a cell, else the
    layout's variable name, ``T`` the side), ``radix`` (its values are 0..radix-1) and whether it
    is a cell (two term arguments, X and Y)."""

    name: str
    radix: int
    cell: bool = False


def term_fields(board: Board, layout: Layout, off_board: bool = True) -> tuple[Field, ...]:
    """The fields of ``layout``'s position term on ``board``, in term order (``off_board``: a
    piece's cell number leaves 0 for a piece off the board; the cells just outside the border's
    exit edges are numbered after the board's)."""
    rules = board.rules
    cells = board.width * board.height + len(board.outside()) + (1 if off_board else 0)
    out = [Field("T", len(rules.turns))] + [Field(piece, cells, True) for piece in layout.roles]

    def lost():     # (a turns entry's counter: the turns its movers' bumps cost it, at most)
        most = 1 + sum(m.lose_turns for m in rules.moves.values() if m.bump_on)
        return [Field(f"L{t}", most) for t in range(1, layout.turns + 1)]

    def collect():
        return [part for index, item in enumerate(layout.collect, 1)
                for part in [Field(f"C{index}", len(item.cells) + 1), *_words(f"I{index}_", len(item.cells), item.words)]]

    def knows():
        k = layout.knows
        return (_words("F", len(k.cells), k.words) + _words("O", len(k.cells), k.words)
                + [Field(f"K{j}", count + 1) for j, count in enumerate(k.counts, 1)])

    known = {"lost": lost, "was": lambda: [Field(f"W{k}", 2) for k in range(1, len(layout.was) + 1)],
             "collect": collect, "knows": knows, "gate": lambda: [Field("G", 2)]}
    for field in layout.fields():       # (in term order; a mechanism's own field numbers itself)
        out += known[field.name]() if field.name in known else [
            Field(name, radix) for name, radix in field.numbered(layout, board)]
    return tuple(out)


def _words(prefix: str, bits: int, words: int) -> list[Field]:
    return [Field(f"{prefix}{w}", 1 << max(0, min(WORD_BITS, bits - WORD_BITS * (w - 1))))
            for w in range(1, words + 1)]


# - Numberings ---

class Numbering:
    """Positions (rows of field values) as numbers 0..size-1 and back."""

    size: int

    def keys(self, fields: list[np.ndarray]) -> np.ndarray:
        """The numbers of the positions whose numbered fields are ``fields`` (one array a field)."""
        raise NotImplementedError

    def fields(self, keys: np.ndarray) -> list[np.ndarray]:
        """The numbered fields (one int64 array a field) of the positions numbered ``keys``."""
        raise NotImplementedError


class MixedRadix(Numbering):
    """The dense numbering: the fields in mixed radix, the first most significant."""

    dense = True

    def __init__(self, radices: list[int]):
        self.radices = radices
        self.strides = [math.prod(radices[i + 1:]) for i in range(len(radices))]
        self.size = math.prod(radices)

    def keys(self, fields: list[np.ndarray]) -> np.ndarray:
        if not fields:
            return np.zeros(0, dtype=np.int64)
        key = None
        for values, stride in zip(fields, self.strides):
            term = values.astype(np.int64) if stride == 1 else values * stride
            key = term if key is None else key + term
        return key

    def fields(self, keys: np.ndarray) -> list[np.ndarray]:
        return [keys % radix if stride == 1 else keys // stride % radix
                for stride, radix in zip(self.strides, self.radices)]


class FoundNumbering(Numbering):
    """Positions numbered in the order they are found: the fields of each position found are
    kept (int32 rows), and a position is looked up by its fields.  ``size``: the numbers given
    so far."""

    dense = False

    def __init__(self, count: int):
        self._found: dict[bytes, int] = {}
        self._rows = np.zeros((64, count), dtype=np.int32)

    @property
    def size(self) -> int:
        return len(self._found)

    def keys(self, fields: list[np.ndarray]) -> np.ndarray:
        rows = np.stack(fields, axis=1).astype(np.int32)
        if not len(rows):
            return np.zeros(0, dtype=np.int64)
        unique, inverse = np.unique(rows, axis=0, return_inverse=True)
        found, before = self._found, len(self._found)
        numbers = np.array([found.setdefault(row.tobytes(), len(found)) for row in unique], dtype=np.int64)
        if len(found) > len(self._rows):
            grown = np.zeros((max(len(found), 2 * len(self._rows)), self._rows.shape[1]), dtype=np.int32)
            grown[:len(self._rows)] = self._rows
            self._rows = grown
        new = numbers >= before
        self._rows[numbers[new]] = unique[new]
        return numbers[inverse.reshape(-1)]

    def find(self, fields: list[int]) -> int:
        """The number of the position with ``fields``, -1 where it was not found."""
        return self._found.get(np.array(fields, dtype=np.int32).tobytes(), -1)

    def fields(self, keys: np.ndarray) -> list[np.ndarray]:
        rows = self._rows[keys]
        return [rows[:, j].astype(np.int64) for j in range(rows.shape[1])]


# - The codec ---

class PositionCodec:
    """The positions of ``board``'s program with position terms ``layout`` (default: every
    field of the board's rules): Position <-> term <-> number.  ``off_board``: pieces may stand
    off the board (cell 0); ``found``: number as found (None: where the dense numbers do not fit
    in int64; False: dense always, for a builder that holds an array over every number)."""

    def __init__(self, board: Board, layout: Layout | None = None, off_board: bool = True,
                 found: bool | None = None):
        self.board, self.layout = board, layout or layout_for(board)
        self.width, self.height, self.off = board.width, board.height, int(off_board)
        # the cells: the board's, then those just outside the border's exit edges
        self.outside = list(board.outside())
        self.inside = board.width * board.height
        self.cells = self.inside + len(self.outside)
        numbers = np.arange(self.cells + self.off) - self.off
        self._x = np.where(numbers < 0, 0, numbers // self.height + 1)
        self._y = np.where(numbers < 0, 0, numbers % self.height + 1)
        for k, (x, y) in enumerate(self.outside, self.inside + self.off):
            self._x[k], self._y[k] = x, y
        self._outside_number = {cell: k for k, cell in enumerate(self.outside, self.inside + self.off)}
        self.term_fields = term_fields(board, self.layout, off_board)
        self.pieces = len(self.layout.roles)
        self.sides = self.term_fields[0].radix
        self.gate = self.layout.gate
        self.arity = sum(2 if f.cell else 1 for f in self.term_fields)     # the arguments of a position term
        self.span = math.prod(f.radix for f in self.term_fields)          # the dense numbers
        self.numbered = tuple(f for f in self.term_fields if f.radix > 1)   # the fields numbered
        radices = [f.radix for f in self.numbered]
        if found is None:
            found = self.span > INT64
        self.numbering: Numbering = FoundNumbering(len(radices)) if found else MixedRadix(radices)
        self.dense = self.numbering.dense
        # the stride of every field by name (dense numbers only; a field not numbered: the size)
        strides = [math.prod(f.radix for f in self.term_fields[i + 1:]) for i in range(len(self.term_fields))]
        self.stride = {f.name: s for f, s in zip(self.term_fields, strides)}
        self.side_stride = self.stride["T"]
        self.strides = [self.stride[piece] for piece in self.layout.roles]       # of each piece's cell

    @property
    def size(self) -> int:
        """The numbers given: every dense number, or the positions found so far."""
        return self.numbering.size

    # - Many positions at once: fields <-> numbers <-> arguments ---

    def keys(self, fields: list[np.ndarray]) -> np.ndarray:
        """The numbers of the positions whose numbered fields (:attr:`numbered`) are ``fields``."""
        return self.numbering.keys(fields)

    def fields(self, keys: np.ndarray) -> list[np.ndarray]:
        """The numbered fields (:attr:`numbered`) of the positions numbered ``keys``."""
        return self.numbering.fields(keys)

    def cell_of(self, keys: np.ndarray, piece: int) -> np.ndarray:
        """The cell number of the ``piece``-th piece of each position numbered ``keys`` (dense)."""
        return keys // self.strides[piece] % (self.cells + self.off)

    def cell_numbers(self, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        """The cell numbers of the cells (``xs``, ``ys``) (arrays; (0, 0) is off the board, 0,
        where pieces may leave it)."""
        value = (xs - 1) * self.height + ys - 1 + self.off
        if self.off:
            value = np.where(xs == 0, 0, value)
        for (x, y), k in self._outside_number.items():     # (x or y may be 0 there)
            value = np.where((xs == x) & (ys == y), k, value)
        return value

    def cell_xy(self, cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The x and y of the cell numbers ``cells`` (0, 0 for a piece off the board)."""
        return self._x[cells], self._y[cells]

    def numbers(self, rows: np.ndarray) -> np.ndarray:
        """The numbers of the positions whose terms have the arguments in the rows of ``rows``."""
        rows = np.asarray(rows, dtype=np.int64).reshape(-1, self.arity)
        return self.keys(self._fields_of_rows(rows)) if self.numbered else np.zeros(len(rows), dtype=np.int64)

    def rows(self, keys: np.ndarray) -> np.ndarray:
        """The arguments of the position terms of ``keys``, as rows."""
        keys = np.asarray(keys, dtype=np.int64)
        values = iter(self.fields(keys))
        columns = []
        for f in self.term_fields:
            v = next(values) if f.radix > 1 else np.zeros(len(keys), dtype=np.int64)
            if f.cell:
                columns += list(self.cell_xy(v))
            else:
                columns.append(v)
        return np.stack(columns, axis=1) if columns else np.zeros((len(keys), 0), dtype=np.int64)

    def texts(self, keys: np.ndarray) -> list[str]:
        """The position terms of ``keys`` as clingo writes them."""
        return [f"s({','.join(map(str, row))})" for row in self.rows(keys).tolist()]

    def _fields_of_rows(self, rows: np.ndarray) -> list[np.ndarray]:
        out, at = [], 0
        for f in self.term_fields:
            if f.cell:
                value = self.cell_numbers(rows[:, at], rows[:, at + 1])
                at += 2
            else:
                value = rows[:, at]
                at += 1
            if f.radix > 1:
                out.append(value)
        return out

    def rows_of_texts(self, texts: list[str]) -> np.ndarray:
        """The arguments of the position terms ``texts`` (``s(...)``, as clingo writes them), as
        rows: read in one pass where every term is written plainly, else term by term."""
        terms = [t.strip() for t in texts]
        width = self.arity
        if all(t.startswith("s(") and t.count(",") == width - 1 for t in terms):
            try:
                return np.array(",".join(t[2:-1] for t in terms).split(","), dtype=np.int64).reshape(len(terms), width)
            except ValueError:
                pass
        return np.array([arguments_of_text(t) for t in terms], dtype=np.int64).reshape(len(terms), width)

    # - One position: arguments <-> number <-> term ---

    def holds(self, args: list[int]) -> bool:
        """Whether ``args`` (ints) are the arguments of a position term of this codec."""
        if len(args) != self.arity:
            return False
        at = 0
        for f in self.term_fields:
            if f.cell:
                x, y = args[at], args[at + 1]
                if not ((self.off and x == 0 and y == 0) or (1 <= x <= self.width and 1 <= y <= self.height)
                        or (x, y) in self._outside_number):
                    return False
                at += 2
            else:
                if not 0 <= args[at] < f.radix:
                    return False
                at += 1
        return True

    def number(self, args: list[int], add: bool = True) -> int:
        """The number of the position whose term has arguments ``args`` (ints; see :meth:`holds`);
        numbered as found: a new number where ``add``, else -1 for a position not found."""
        values, at = [], 0
        for f in self.term_fields:
            if f.cell:
                x, y = args[at], args[at + 1]
                value = self._outside_number.get((x, y), 0 if self.off and x == 0 else (x - 1) * self.height + y - 1 + self.off)
                at += 2
            else:
                value = args[at]
                at += 1
            if f.radix > 1:
                values.append(value)
        if self.dense:
            return sum(v * stride for v, stride in zip(values, self.numbering.strides))
        if not add:
            return self.numbering.find(values)
        return int(self.keys([np.array([v], dtype=np.int64) for v in values])[0])

    def arguments(self, key: int) -> list[int]:
        """The arguments of the position term of number ``key``."""
        if not self.dense:
            return self.rows(np.array([key], dtype=np.int64))[0].tolist()
        numbering, out = self.numbering, []
        values = iter([key // stride % radix for stride, radix in zip(numbering.strides, numbering.radices)])
        for f in self.term_fields:
            value = next(values) if f.radix > 1 else 0
            if f.cell:
                out += [int(self._x[value]), int(self._y[value])]
            else:
                out.append(value)
        return out

    def symbol(self, key: int) -> clingo.Symbol:
        """The position term of number ``key``."""
        return clingo.Function("s", [clingo.Number(a) for a in self.arguments(key)])

    def key_of(self, term: clingo.Symbol, add: bool = False) -> int:
        """The number of the position term ``term`` (``s(...)``), -1 where it is not one of this
        codec's (or, numbered as found and not ``add``, not found)."""
        try:
            args = [a.number for a in term.arguments]
        except RuntimeError:        # (an argument that is not a number)
            return -1
        return self.number(args, add) if term.name == "s" and self.holds(args) else -1

    # - Position <-> term ---

    def text(self, position: Position) -> str:
        """The term of ``position`` as text: ``s(...)``, or ``start(s(...))`` at a start the rules
        do not judge (:meth:`gridsolve.compile.state.Layout.root_term`)."""
        return self.layout.root_term(position, self.board)

    def term(self, position: Position) -> clingo.Symbol:
        """The term of ``position`` as a clingo symbol."""
        return clingo.parse_term(self.text(position))

    def position(self, term: clingo.Symbol, step: int) -> Position:
        """The :class:`Position` of the term ``term`` (``start(S)``: S's) at ``step``."""
        return self.layout.position(term, self.board, step)

    def position_of_arguments(self, args: list[int], step: int) -> Position:
        """The :class:`Position` whose term has arguments ``args`` at ``step``."""
        return position_of(self.layout.decode(args, self.board), step)

    def position_at(self, key: int, step: int) -> Position:
        """The :class:`Position` numbered ``key`` at ``step``."""
        return self.position_of_arguments(self.arguments(key), step)

    def key(self, position: Position, add: bool = False) -> int:
        """The number of ``position`` (its term's; a start not judged: S's), -1 as :meth:`key_of`."""
        return self.key_of(unjudged(self.term(position)), add)

    def keys_of_symbols(self, reps: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The numbers of the position terms with raw clingo symbols ``reps`` (numbered as found:
        added; a start not judged, ``start(S)``: S's), and which of them are such starts (a bool
        array); -1 where a symbol is none of this codec's terms."""
        values, plain = symbol_arguments(reps, self.arity)
        keys = np.full(len(reps), -1, dtype=np.int64)
        started = np.zeros(len(reps), dtype=bool)
        if plain.any():
            keys[plain] = self.numbers(values[plain])
        for i in np.flatnonzero(~plain).tolist():       # (start(S), read term by term)
            term = clingo.symbol.Symbol(int(reps[i]))
            try:
                inner = unjudged(term)
            except RuntimeError:        # (not a function: no position)
                continue
            keys[i], started[i] = self.key_of(inner, add=True), inner is not term
        return keys, started


def symbol_arguments(reps: np.ndarray, arity: int) -> tuple[np.ndarray, np.ndarray]:
    """The arguments (int64 rows of ``arity``) of the function symbols ``reps`` (raw clingo
    symbols), and whether each has ``arity`` arguments, every one a number (where not, its row is
    left 0): through clingo's C bindings where :mod:`.rawmodel` has them, else the public API."""
    from . import rawmodel      # (its check grounds a tiny program: only for the readers of raw symbols)
    found, at = array("Q"), array("q")
    if rawmodel.FAST is None:
        for i, rep in enumerate(reps.tolist()):
            args = clingo.symbol.Symbol(rep).arguments
            if len(args) == arity:
                found.extend(a._rep for a in args)
                at.append(i)
    else:
        ffi, lib = rawmodel.FAST
        argv, size, f_args = ffi.new("clingo_symbol_t**"), ffi.new("size_t*"), lib.clingo_symbol_arguments
        for i, rep in enumerate(reps.tolist()):
            f_args(rep, argv, size)
            if size[0] == arity:
                found.extend(argv[0][0:arity])
                at.append(i)
    raw = np.frombuffer(found, dtype=np.uint64).reshape(-1, arity) if len(found) else np.zeros((len(at), arity), np.uint64)
    rows = np.frombuffer(at, dtype=np.int64) if len(at) else np.zeros(0, dtype=np.int64)
    ints, each = symbol_numbers(raw)
    numbers = each.all(axis=1)
    values = np.zeros((len(reps), arity), dtype=np.int64)
    values[rows[numbers]] = ints[numbers]
    plain = np.zeros(len(reps), dtype=bool)
    plain[rows[numbers]] = True
    return values, plain


def symbol_numbers(raw: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The integers (int32) of the raw clingo symbols ``raw`` (any shape), and whether each is a
    number (where not, its integer means nothing)."""
    from .rawmodel import NUMBER_TAG
    numbers = (raw >> np.uint64(32)) == np.uint64(NUMBER_TAG >> 32)
    return (raw & np.uint64(0xFFFFFFFF)).astype(np.uint32).view(np.int32), numbers


def arguments_of_text(term: str) -> list[int]:
    """The arguments of a position term written as text, ``s(0,1,2,3,4)``."""
    try:
        return [int(v) for v in term.strip()[2:-1].split(",")]
    except ValueError:      # (not written plainly: as clingo reads it)
        return [a.number for a in clingo.parse_term(term).arguments]


def distinct(values: np.ndarray) -> np.ndarray:
    """The distinct values, sorted (``np.unique`` without its check for masked arrays, which
    imports numpy.ma: a sixth of numpy's start-up)."""
    values = np.sort(values)
    if values.size:
        keep = np.empty(values.size, dtype=bool)
        keep[0] = True
        np.not_equal(values[1:], values[:-1], out=keep[1:])
        values = values[keep]
    return values


def distinct_pairs(src: np.ndarray, dst: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """The distinct pairs (``src[i]``, ``dst[i]``) of position numbers below ``size``, sorted (by
    source, then target): as one number ``src * size + dst`` where that fits in int64, else
    sorted as pairs (the product would wrap around and join pairs that differ)."""
    if size <= _PAIRED:
        pairs = distinct(src * size + dst)
        return pairs // size, pairs % size
    order = np.lexsort((dst, src))
    src, dst = src[order], dst[order]
    keep = np.ones(len(src), dtype=bool)
    keep[1:] = (src[1:] != src[:-1]) | (dst[1:] != dst[:-1])
    return src[keep], dst[keep]


_PAIRED = math.isqrt(INT64)     # the largest size whose pairs fit in one int64
