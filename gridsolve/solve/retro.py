"""The race solver's ranks: the game graph ground by clingo, the ranks by a retrograde analysis
in arrays.

clingo grounds the compiled game rules once over the positions reachable from the roots, with
the moves projected on their positions (:func:`gridsolve.compile.compiler.graph_program`):
about one ground atom a distinct move, ``succ(S,S2)``, and one a position, ``reach(S)``.  The
graph is read out of clingo's symbolic atoms as the raw 64-bit symbols of the positions (clingo
makes one symbol of equal terms, so equal positions have equal symbols), numbered in arrays,
and :meth:`RaceGraph.ranks` computes the rank of every position in a race level by level from
the frontier, with a counter of open successors per defending position and the predecessors in
one array (compressed rows): what encodings/solve.lp derives in clingo (``won(K,S,D)``), on the
same graph, in a few array operations a level.  tests/test_retro.py checks that both give the
same ranks on random boards of every rule option.

The names of the moves matter only where an answer looks at them (the position asked about,
its principal line): :meth:`RaceGraph.moves` grounds the compiled moves (``edge(S,M,S2)``) for
one position at a time in a small second program.
"""
from __future__ import annotations

import time
from array import array
from collections.abc import Iterable

import clingo
import numpy as np

from ..compile.compiler import graph_program
from ..errors import EncodingError
from ..language.model import Board
from .limits import Budget

try:        # clingo's own C bindings: the graph is read without a Python object per atom
    from clingo._internal import _ffi, _lib
except ImportError:     # pragma: no cover - other clingo builds read it through the public API
    _ffi = _lib = None

NUMBER_TAG = 1 << 48     # clingo's 64-bit symbol of a number: this tag, the int32 in the low bits


def _atoms(ctl: clingo.Control, name: str, arity: int, args: int) -> array:
    """The raw symbols of the first ``args`` arguments of every atom ``name/arity``, flat."""
    out = array("Q")
    if _lib is None:
        for atom in ctl.symbolic_atoms.by_signature(name, arity):
            out.extend(a._rep for a in atom.symbol.arguments[:args])
        return out
    atoms = ctl.symbolic_atoms._rep
    sig = _ffi.new("clingo_signature_t*")
    _lib.clingo_signature_create(name.encode(), arity, True, sig)
    it, end = _ffi.new("clingo_symbolic_atom_iterator_t*"), _ffi.new("clingo_symbolic_atom_iterator_t*")
    _lib.clingo_symbolic_atoms_begin(atoms, sig, it)
    _lib.clingo_symbolic_atoms_end(atoms, end)
    sym, argv, size = _ffi.new("clingo_symbol_t*"), _ffi.new("clingo_symbol_t**"), _ffi.new("size_t*")
    f_sym, f_args, f_next = _lib.clingo_symbolic_atoms_symbol, _lib.clingo_symbol_arguments, _lib.clingo_symbolic_atoms_next
    append, stop = out.append, end[0]      # (an iterator is a number: equal iterators are equal numbers)
    if args == 1:
        while it[0] != stop:
            f_sym(atoms, it[0], sym)
            f_args(sym[0], argv, size)
            append(argv[0][0])
            f_next(atoms, it[0], it)
        return out
    while it[0] != stop:
        f_sym(atoms, it[0], sym)
        f_args(sym[0], argv, size)
        values = argv[0]
        append(values[0])
        append(values[1])
        f_next(atoms, it[0], it)
    return out


def _first_numbers(reps: np.ndarray) -> np.ndarray:
    """The first argument, a number, of each function symbol in ``reps``."""
    out = np.empty(len(reps), dtype=np.int32)
    if _lib is None:
        for i, rep in enumerate(reps.tolist()):
            out[i] = clingo.symbol.Symbol(rep).arguments[0].number
        return out
    argv, size = _ffi.new("clingo_symbol_t**"), _ffi.new("size_t*")
    f_args = _lib.clingo_symbol_arguments
    firsts = array("Q")
    for rep in reps.tolist():
        f_args(rep, argv, size)
        firsts.append(argv[0][0])
    raw = np.frombuffer(firsts, dtype=np.uint64) if len(firsts) else np.zeros(0, dtype=np.uint64)
    if len(raw) and not np.all((raw >> np.uint64(32)) == np.uint64(NUMBER_TAG >> 32)):
        raise EncodingError("a position term does not start with its turns entry")
    out[:] = (raw & np.uint64(0xFFFFFFFF)).astype(np.uint32).view(np.int32)
    return out


class RaceGraph:
    """The game graph of ``board`` (position terms of ``layout``) reachable from ``roots``
    (position terms as text), ground by clingo within ``budget``: positions numbered 0..n-1
    (by their clingo symbol), the side to move, the end that decides each terminal position,
    the distinct successors and the predecessors."""

    def __init__(self, board: Board, layout, roots: list[str], budget: Budget):
        started = time.perf_counter()
        self.board, self.layout = board, layout
        program = graph_program(board, layout, roots)
        self._moves_text = program.moves
        ctl = clingo.Control(["--warn=none"])
        try:
            ctl.add("base", [], program.graph)
            budget.ground(ctl, [("base", [])], "while grounding the game's positions")
        except RuntimeError as exc:
            raise EncodingError(f"clingo could not ground the game graph: {exc}") from exc
        budget.after("after grounding the game's positions")
        grounded = time.perf_counter()
        self.reps = np.sort(np.frombuffer(_atoms(ctl, "reach", 1, 1), dtype=np.uint64))
        self.n = len(self.reps)
        pairs = np.frombuffer(_atoms(ctl, "succ", 2, 2), dtype=np.uint64)
        self.ends = [end.name for end in board.rules.ends]
        self.outcome = np.full(len(self.reps), -1, dtype=np.int16)
        for atom in ctl.symbolic_atoms.by_signature("outcome", 2):
            state, end = atom.symbol.arguments
            self.outcome[self._index(state._rep)] = self.ends.index(end.name)
        del ctl
        self.turn = _first_numbers(self.reps)
        src = np.searchsorted(self.reps, pairs[0::2]).astype(np.int32)
        dst = np.searchsorted(self.reps, pairs[1::2]).astype(np.int32)
        del pairs
        self.edges = len(src)
        self.outdeg = np.bincount(src, minlength=self.n).astype(np.int32)
        order = np.argsort(dst, kind="stable")
        self.pred = src[order]                      # predecessors of position i: pred[start[i]:start[i+1]]
        self.start = np.zeros(self.n + 1, dtype=np.int64)
        np.cumsum(np.bincount(dst, minlength=self.n), out=self.start[1:])
        del order, src, dst
        budget.after("after reading the game graph")
        self._moves: dict[clingo.Symbol, list] = {}
        self._moves_ctl: clingo.Control | None = None
        self.ground_s = round(grounded - started, 4)
        self.read_s = round(time.perf_counter() - grounded, 4)

    # - Positions ---

    def _index(self, rep: int) -> int:
        i = int(np.searchsorted(self.reps, np.uint64(rep)))
        return i if i < self.n and int(self.reps[i]) == rep else -1

    def index(self, state: clingo.Symbol) -> int:
        """The number of position ``state``, or -1 when the roots do not reach it."""
        return self._index(state._rep)

    def symbol(self, i: int) -> clingo.Symbol:
        """The position term of position number ``i``."""
        return clingo.symbol.Symbol(int(self.reps[i]))

    def terminal(self, i: int) -> bool:
        return self.outcome[i] >= 0

    # - Ranks ---

    def ranks(self, attackers: Iterable[int], targets: Iterable[str], levels: int) -> tuple[np.ndarray, int]:
        """Race (``attackers``: turns entries, ``targets``: end names): the rank of every
        position (plies to a target end under best play, attackers hurrying, defenders
        delaying; -1: not forced within ``levels`` plies), and the levels computed (up to the
        first that decided nothing, at most ``levels``), as encodings/solve.lp's ``won/3``."""
        rank = np.full(self.n, -1, dtype=np.int32)
        wanted = [self.ends.index(e) for e in targets if e in self.ends]
        frontier = np.flatnonzero(np.isin(self.outcome, wanted)).astype(np.int32)
        rank[frontier] = 0
        attacks = np.isin(self.turn, list(attackers))
        left = self.outdeg.copy()
        depth = 0
        while depth < levels:
            depth += 1
            lo, hi = self.start[frontier], self.start[frontier + 1]
            counts = hi - lo
            total = int(counts.sum())
            if total == 0:
                break
            offsets = np.repeat(lo - np.cumsum(counts) + counts, counts) + np.arange(total)
            cand = self.pred[offsets]
            cand = cand[rank[cand] < 0]
            mask = attacks[cand]
            won = np.unique(cand[mask])
            defending, hits = np.unique(cand[~mask], return_counts=True)
            left[defending] -= hits.astype(np.int32)
            frontier = np.concatenate([won, defending[left[defending] == 0]])
            if frontier.size == 0:
                break
            rank[frontier] = depth
        return rank, depth

    # - Named moves, where an answer looks at them ---

    def moves(self, state: clingo.Symbol) -> list[tuple[clingo.Symbol, clingo.Symbol]]:
        """The moves of position ``state`` and the positions after them (``edge(S,M,S2)`` of the
        compiled game rules), ground for this position alone the first time it is asked."""
        found = self._moves.get(state)
        if found is not None:
            return found
        if self._moves_ctl is None:
            self._moves_ctl = clingo.Control(["--warn=none"])
            self._new: list[clingo.Symbol] = []
            self._moves_ctl.add("base", [], self._moves_text)
            self._moves_ctl.register_observer(_Collector(self._new))
            self._moves_ctl.ground([("base", [])])
        self._new.clear()
        self._moves_ctl.ground([("moves", [state])])
        found = self._moves[state] = [(s.arguments[1], s.arguments[2]) for s in self._new if s.name == "edge"]
        return found


class _Collector:
    """A ground program observer that keeps the atoms each ground call outputs."""

    def __init__(self, into: list):
        self.into = into

    def output_atom(self, symbol: clingo.Symbol, atom: int) -> None:
        self.into.append(symbol)
