"""The one game graph of gridsolve: positions 0..n-1, their moves in successor rows, the side to
move and the end that decides each position, ranked by the one ranker and patched in place of
building again.

Every solver that ranks a game's positions builds a :class:`GameGraph`: the race solver's
builders (:class:`~gridsolve.solve.graph.racegraph.RaceGraph`: pieces moving alone, pieces
moved by a script, or the compiled ``succ`` rules ground by clingo), ``explain``'s wall graph
(:class:`~gridsolve.explain.walls.WallGraph`) and the studio's live graph
(:class:`~gridsolve.studio.live.LiveGraph`), both from the positions and moves clingo derives
from the compiled game rules (:func:`of_explored`), the abstract game and the layered table's
plain plies (keyed by :func:`position_keys`).  A graph holds:

* ``off``, ``succ``: the successor rows, compressed: the moves of ``s`` lead to
  ``succ[off[s]:off[s + 1]]`` (one entry a move; two moves into one position are two entries);
* ``moves`` (where known): the move term of each entry of ``succ`` (an array of objects; the
  layered table: their raw clingo symbols, uint64);
* ``turn[s]``: the turns entry to move at ``s``; ``outcome[s]``: the index in ``ends`` (end
  names) of the end that decides ``s``, -1 where none does;
* ``names`` (where known): the position term of each position as text; ``codec``: the
  :class:`~gridsolve.solve.graph.codec.PositionCodec` of its terms, where the builder has one;
* ``keys`` (where the builder numbers its positions so): the key of each position, ascending:
  its codec number (a start the rules do not judge, ``start(S)``: S's number plus ``starts_at``),
  or without a codec its term's raw clingo symbol.  :meth:`GameGraph.find` is the one place that
  maps a position term to its number, :meth:`GameGraph.term` and :meth:`GameGraph.texts` the way back,
  :func:`locate` the one lookup of keys among ascending keys;
* the predecessors (``start``, ``pred``, ``outdeg`` of
  :func:`~gridsolve.solve.graph.retrograde.predecessors`), computed from the rows when first
  asked (and the rows from them, for a graph built from its predecessors).

:meth:`GameGraph.ranks` ranks a race on it (:func:`gridsolve.solve.graph.retrograde.ranks`);
:meth:`GameGraph.patched` gives the graph with the moves of some positions replaced and new
positions added (a toggled wall: explain per wall, the studio per edit), sharing the rows it
keeps.  tests/test_gamegraph.py checks a hand-made graph, and that a graph patched after a wall
toggle equals the one built on the toggled board.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence

import clingo
import numpy as np

from ...compile.state import START, unjudged
from ...errors import EncodingError
from .retrograde import predecessors, ranks, successor_moves


def _ranges(lo: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """The indices lo[0]..lo[0]+counts[0]-1, lo[1].., in order (int64)."""
    total = int(counts.sum())
    return np.repeat(lo - np.cumsum(counts) + counts, counts) + np.arange(total, dtype=np.int64)


def locate(keys: np.ndarray, wanted):
    """The index of each of ``wanted`` in the ascending ``keys`` (int64; of one key: an int), -1
    where it is not there: the one lookup of a position by its key (:meth:`GameGraph.row`, and a builder's
    reading of raw symbols before its graph is made)."""
    if np.ndim(wanted) == 0:       # (one key: without arrays, for the lookups of one position at a time)
        i = int(keys.searchsorted(wanted))
        return i if i < len(keys) and int(keys[i]) == int(wanted) else -1
    at = np.searchsorted(keys, wanted)
    inside = at < len(keys)
    found = np.zeros(len(at), dtype=bool)
    found[inside] = keys[at[inside]] == wanted[inside]
    return np.where(found, at, -1).astype(np.int64)


def position_keys(codec, reps: np.ndarray) -> tuple[np.ndarray, int | None]:
    """The keys (:attr:`GameGraph.keys`) of the positions with raw clingo symbols ``reps`` and
    the ``starts_at`` of those keys: with a codec its numbers (a start the rules do not judge,
    ``start(S)``: S's plus ``starts_at``, the codec's size after numbering them; None where
    there is none), without one the raw symbols."""
    if codec is None:
        return reps, None
    keys, started = codec.keys_of_symbols(reps)
    if (keys < 0).any():
        raise EncodingError(f"{clingo.symbol.Symbol(int(reps[keys < 0][0]))} is not a position term (an encoding bug)")
    if not started.any():
        return keys, None
    at = codec.size
    keys[started] += at
    return keys, at


class GameGraph:
    """A game graph (see the module docstring): give it the successor rows (``off``, ``succ``)
    or the predecessors (``preds``: ``(start, pred, outdeg)``); the other is derived when asked."""

    def __init__(self, turn: np.ndarray, outcome: np.ndarray, ends: Sequence[str], *,
                 off: np.ndarray | None = None, succ: np.ndarray | None = None, moves: np.ndarray | None = None,
                 preds: tuple | None = None, names: list[str] | None = None, codec=None,
                 keys: np.ndarray | None = None, starts_at: int | None = None):
        self.turn = np.asarray(turn, dtype=np.int32)
        self.outcome = np.asarray(outcome, dtype=np.int16)
        self.ends = list(ends)
        self.n = len(self.turn)
        self._off, self._succ, self.moves, self._preds = off, succ, moves, preds
        self.names, self.codec = names, codec
        self.keys, self.starts_at = keys, starts_at
        self._index: dict[str, int] | None = None
        self._found: dict[int, int] = {}        # raw symbol of a term -> its position (find)
        self._terms: dict[int, clingo.Symbol] = {}      # position -> its term (term)

    @classmethod
    def of_moves(cls, src: np.ndarray, dst: np.ndarray, turn, outcome, ends, rows: bool = True, **more) -> "GameGraph":
        """The graph of the moves ``src[i] -> dst[i]`` (positions numbered by ``turn``'s length):
        with ``rows``, the successor rows (the predecessors when asked), else the predecessors
        at once (the rows when asked: the race solver, which ranks and rarely walks forward)."""
        n = len(turn)
        if not rows:
            return cls(turn, outcome, ends, preds=predecessors(src, dst, n), **more)
        if len(src) > 1 and bool((src[1:] < src[:-1]).any()):
            order = np.argsort(src, kind="stable")
            src, dst = src[order], dst[order]
        off = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(np.bincount(src, minlength=n), out=off[1:])
        return cls(turn, outcome, ends, off=off, succ=np.asarray(dst, dtype=np.int32), **more)

    # - Moves ---

    def rows(self) -> tuple[np.ndarray, np.ndarray]:
        """(off, succ): the successor rows."""
        if self._off is None:
            start, pred, _ = self._preds
            targets = np.repeat(np.arange(self.n, dtype=np.int32), np.diff(start))
            order = np.argsort(pred, kind="stable")
            self._off = np.zeros(self.n + 1, dtype=np.int64)
            np.cumsum(np.bincount(pred, minlength=self.n), out=self._off[1:])
            self._succ = targets[order]
        return self._off, self._succ

    def successors(self, s: int) -> np.ndarray:
        off, succ = self.rows()
        return succ[off[s]:off[s + 1]]

    def successor_lists(self) -> list[list[int]]:
        """The successors of every position, a list each (for a loop over the positions in Python)."""
        off, succ = self.rows()
        bounds, targets = off.tolist(), succ.tolist()
        return [targets[bounds[s]:bounds[s + 1]] for s in range(self.n)]

    def moves_of(self, s: int) -> list[tuple]:
        """(move term, position after it) of each move of ``s`` (the graph must know its moves' names)."""
        off, succ = self.rows()
        lo, hi = int(off[s]), int(off[s + 1])
        return list(zip(self.moves[lo:hi].tolist(), succ[lo:hi].tolist()))

    def predecessors(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(start, pred, outdeg) of :func:`~gridsolve.solve.graph.retrograde.predecessors`."""
        if self._preds is None:
            off, succ = self.rows()
            src = np.repeat(np.arange(self.n, dtype=np.int32), np.diff(off))
            self._preds = predecessors(src, succ, self.n)
        return self._preds

    @property
    def edges(self) -> int:
        return len(self._succ) if self._succ is not None else len(self._preds[1])

    def outdeg(self) -> np.ndarray:
        """The number of moves of every position."""
        return np.diff(self._off) if self._off is not None else self._preds[2]

    def with_extra(self, extra: np.ndarray) -> "GameGraph":
        """This graph with one more move ``s -> extra[s]`` where ``extra[s] >= 0`` and ``s`` has
        moves (the robust search's bump beside the role's moves; no move names), from its predecessors."""
        src, dst = successor_moves(*self.rows(), extra)
        return GameGraph(self.turn, self.outcome, self.ends, preds=predecessors(src, dst, self.n), codec=self.codec,
                         keys=self.keys, starts_at=self.starts_at)

    # - Positions ---

    def index_of(self, name: str) -> int:
        """The number of the position named ``name`` (term text), -1 where the graph has none."""
        if self._index is None:
            self._index = {name: i for i, name in enumerate(self.names)}
        return self._index.get(name, -1)

    def row(self, key: int) -> int:
        """The number of the position with key ``key`` (:attr:`keys`), -1 where the graph has none."""
        return locate(self.keys, key)

    def key_of(self, term: clingo.Symbol) -> int:
        """The key of position term ``term``: its codec number (``start(S)``: S's plus
        :attr:`starts_at`), or without a codec its raw symbol; -1 where it is none of the codec's."""
        if self.codec is None:
            return term._rep
        try:
            inner = unjudged(term)
        except RuntimeError:        # (not a function: no position)
            return -1
        key, at = self.codec.key_of(inner), self.starts_at
        if key < 0 or (at is not None and key >= at):      # (numbered as found: found after the graph)
            return -1
        if inner is term:
            return key
        return -1 if at is None else key + at

    def find(self, term: clingo.Symbol) -> int:
        """The number of the position with term ``term`` (a clingo symbol), -1 where the graph has
        none (remembered for the terms asked)."""
        rep = term._rep
        found = self._found.get(rep)
        if found is None:
            key = self.key_of(term)
            found = self._found[rep] = self.row(key) if key >= 0 else -1
        return found

    def term(self, s: int) -> clingo.Symbol:
        """The position term of position ``s`` (by its key; remembered for the positions asked)."""
        term = self._terms.get(s)
        if term is None:
            key = int(self.keys[s])
            if self.codec is None:
                term = clingo.symbol.Symbol(key)
            elif self.starts_at is not None and key >= self.starts_at:
                term = clingo.Function(START, [self.codec.symbol(key - self.starts_at)])
            else:
                term = self.codec.symbol(key)
            self._terms[s] = term
        return term

    def texts(self, states: np.ndarray) -> list[str]:
        """The position terms of ``states`` as text (by their keys; the codec writes many at once)."""
        keys = self.keys[states]
        if self.codec is None:
            return [str(clingo.symbol.Symbol(key)) for key in keys.tolist()]
        keys, at = keys.astype(np.int64), self.starts_at
        if at is None:
            return self.codec.texts(keys)
        inner = self.codec.texts(np.where(keys >= at, keys - at, keys))
        return [f"{START}({text})" if key >= at else text for key, text in zip(keys.tolist(), inner)]

    def is_end(self, s: int) -> bool:
        return bool(self.outcome[s] >= 0)

    def end_numbers(self, names: Iterable[str]) -> list[int]:
        """The numbers of the ends ``names`` among this graph's ends."""
        return [self.ends.index(e) for e in names if e in self.ends]

    # - Ranks ---

    def ranks(self, attackers: Iterable[int], targets: Iterable[str] | np.ndarray, levels: int | None = None,
              until: int | None = None, exclude_ends: bool = False) -> tuple[np.ndarray, int]:
        """Race (``attackers``: turns entries, ``targets``: end names, or a bool array: the
        positions aimed at): the rank of every position and the levels computed, by
        :func:`~gridsolve.solve.graph.retrograde.ranks` (``exclude_ends``: a position decided by
        an end that is not a target is never ranked)."""
        start, pred, outdeg = self.predecessors()
        ended = self.outcome >= 0 if exclude_ends else None
        aimed = targets if isinstance(targets, np.ndarray) else np.isin(self.outcome, self.end_numbers(targets))
        return ranks(start, pred, np.isin(self.turn, list(attackers)), aimed, outdeg, levels, excluded=ended, until=until)

    # - Patches ---

    def patched(self, rows: dict[int, Sequence[int]], moves: dict[int, Sequence] | None = None,
                turn: Sequence[int] = (), outcome: Sequence[int] = (), names: Sequence[str] | None = None,
                changed: dict[int, tuple[int, int]] | None = None, take_index: bool = False) -> "GameGraph":
        """This graph with ``len(turn)`` new positions (numbered from ``n`` on; side to move
        ``turn``, end ``outcome``, names ``names``), the moves of each position ``s`` of ``rows``
        replaced by ``rows[s]`` (with names ``moves[s]`` where the graph keeps them), and the side
        to move and end of each ``s`` of ``changed`` set to ``changed[s]``.  This graph is not
        changed, except with ``take_index``: the new graph takes over the index of the names
        (:meth:`index_of`; this one builds it again if asked: for a graph patched again and again)."""
        keys = sorted(rows)
        lengths = np.array([len(rows[s]) for s in keys], dtype=np.int64)
        targets = np.fromiter((t for s in keys for t in rows[s]), dtype=np.int32, count=int(lengths.sum()))
        names_of = None
        if self.moves is not None:
            names_of = np.empty(len(targets), dtype=object)
            names_of[:] = [m for s in keys for m in moves[s]]
        return self.with_rows((np.array(keys, dtype=np.int64), lengths, targets, names_of), turn, outcome, names,
                              changed, take_index)

    def saved_rows(self, states: Iterable[int]) -> tuple:
        """The rows of ``states`` as :meth:`with_rows` takes them (to give them back later)."""
        off, succ = self.rows()
        keys = np.array(sorted(states), dtype=np.int64)
        lengths = off[keys + 1] - off[keys]
        at = _ranges(off[keys], lengths)
        return keys, lengths, succ[at], None if self.moves is None else self.moves[at]

    def with_rows(self, saved: tuple, turn: Sequence[int] = (), outcome: Sequence[int] = (),
                  names: Sequence[str] | None = None, changed: dict[int, tuple[int, int]] | None = None,
                  take_index: bool = False) -> "GameGraph":
        """:meth:`patched` with the rows given as arrays: ``saved`` = (the positions, ascending;
        the length of each one's row; their successors, row after row; their moves' names or None)."""
        off, succ = self.rows()
        keys, lengths, new, names_of = saved
        n = self.n + len(turn)
        counts = np.zeros(n, dtype=np.int64)
        counts[:self.n] = np.diff(off)
        moves_of = self.moves
        if keys.size:
            known = keys < self.n
            keep = np.ones(len(succ), dtype=bool)
            keep[_ranges(off[keys[known]], counts[keys[known]])] = False
            counts[keys] = 0
            at = np.repeat(np.cumsum(counts)[keys], lengths)    # where the kept rows make room
            succ = np.insert(succ[keep], at, new)
            if moves_of is not None:
                moves_of = np.insert(moves_of[keep], at, names_of)
            counts[keys] = lengths
        new_off = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(counts, out=new_off[1:])
        new_turn = np.concatenate([self.turn, np.asarray(turn, dtype=np.int32)])
        new_outcome = np.concatenate([self.outcome, np.asarray(outcome, dtype=np.int16)])
        for s, (side, end) in (changed or {}).items():
            new_turn[s], new_outcome[s] = side, end
        new_names = None if self.names is None or names is None else self.names + list(names)
        same = not len(turn)        # (the same positions: the same keys)
        graph = GameGraph(new_turn, new_outcome, self.ends, off=new_off, succ=succ, moves=moves_of, names=new_names,
                          codec=self.codec, keys=self.keys if same else None, starts_at=self.starts_at if same else None)
        if take_index and self._index is not None and names is not None:   # (the index grows with the graph)
            graph._index = self._index
            for i, name in enumerate(names, self.n):
                graph._index[name] = i
            self._index = None
        return graph


def of_explored(found: dict, ends: Sequence[str], codec=None, named: bool = False) -> GameGraph:
    """The graph of ``found`` ({position term: [side to move, end name or None, moves]}: every
    position it reaches among its keys; the moves successor terms, or with ``named`` (move
    term, successor term) pairs), numbered in ``found``'s order, named by their terms."""
    names = list(found)
    index = {name: i for i, name in enumerate(names)}
    turn = [entry[0] for entry in found.values()]
    outcome = [-1 if entry[1] is None else ends.index(entry[1]) for entry in found.values()]
    off = np.zeros(len(names) + 1, dtype=np.int64)
    np.cumsum([len(entry[2]) for entry in found.values()], out=off[1:])
    if named:
        succ = np.fromiter((index[t] for entry in found.values() for _, t in entry[2]), dtype=np.int32,
                           count=int(off[-1]))
        moves = np.empty(len(succ), dtype=object)
        moves[:] = [m for entry in found.values() for m, _ in entry[2]]
    else:
        succ = np.fromiter((index[t] for entry in found.values() for t in entry[2]), dtype=np.int32,
                           count=int(off[-1]))
        moves = None
    graph = GameGraph(turn, outcome, ends, off=off, succ=succ, moves=moves, names=names, codec=codec)
    graph._index = index
    return graph
