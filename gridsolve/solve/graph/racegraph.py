"""The race solver's ranks: the game graph from the compiled rules, the ranks by a retrograde
analysis in arrays.

Where the pieces move each on its own, clingo grounds each role's moves by cell and the ends of
the board's positions, and the graph is joined from them in arrays (:mod:`gridsolve.solve.graph.factored`).
Otherwise clingo grounds the compiled game rules once over the positions reachable from the
roots, with the moves projected on their positions (:func:`gridsolve.compile.compiler.graph_program`):
about one ground atom a distinct move, ``succ(S,S2)``, and one a position, ``reach(S)``, read out
of clingo's symbolic atoms as the raw 64-bit symbols of the positions (clingo makes one symbol of
equal terms, so equal positions have equal symbols).  Either way the positions are numbered in
arrays, held as the one game graph (:class:`~gridsolve.solve.graph.gamegraph.GameGraph`), and
:meth:`RaceGraph.ranks` computes the rank of every position in a race by the one
ranker (:func:`gridsolve.solve.graph.retrograde.ranks`: level by level from the frontier, with a
counter of open successors per defending position and the predecessors in one array, compressed
rows): what encodings/solve.lp derives in clingo (``won_in(K,S,D)``), on the same graph, in a few
array operations a level.  tests/test_retro.py checks that both give
the same ranks on random boards of every rule option, and that both graphs are the same.

The names of the moves matter only where an answer looks at them (the position asked about,
its principal line): the roles' moves by cell give them where each ``turns`` entry moves one
role (:class:`~gridsolve.solve.graph.factored.PieceMoves`), else :class:`NamedMoves` grounds the
compiled moves (``edge(S,M,S2)``) for the positions asked, in a small second program.
"""
from __future__ import annotations

import time
from array import array
from collections.abc import Iterable

import clingo
import numpy as np

from ...compile.gamerules import MOVE_MARK, factored_turns
from ...compile.predicates import EDGE, OUTCOME, REACH, SUCC
from ...compile.state import START, layout_for, unjudged
from ..common.capabilities import SCRIPTED_GRAPH, serves
from ...errors import EncodingError
from ...language.model import Board
from .scripted import ScriptedGraph, ScriptedMoves, ScriptTables
from .sharedtables import build_circuit
from .codec import distinct
from .factored import FactoredGraph, PieceMoves
from ..common.limits import LimitGuard
from . import rawmodel
from .gamegraph import GameGraph
from .rawmodel import FUNCTION_TAG, NUMBER_TAG


def _graph_atoms(ctl: clingo.Control) -> tuple[array, array]:
    """The raw symbols of the game graph ground in ``ctl``: the positions (the argument of every
    atom of one function argument: ``reach/1``, ``root/1``, ``terminal/1``) and the successor
    pairs (the first two arguments of ``succ(S,S2,gridsolve_move)``, the only atoms with that
    constant last), read off the one (choice-free) model: every atom in one call, then one call
    an atom for its arguments."""
    positions, pairs = array("Q"), array("Q")
    mark = clingo.Function(MOVE_MARK)
    if rawmodel.FAST is None:
        for state, after, _ in SUCC.ground(ctl.symbolic_atoms):
            pairs.extend((state._rep, after._rep))
        positions.extend(state._rep for state, in REACH.ground(ctl.symbolic_atoms))
        return positions, pairs
    found, (_ffi, _lib) = [], rawmodel.FAST

    def on_model(model):
        show = _lib.clingo_show_type_atoms
        size = _ffi.new("size_t*")
        _lib.clingo_model_symbols_size(model._rep, show, size)
        buffer = _ffi.new("clingo_symbol_t[]", size[0])
        _lib.clingo_model_symbols(model._rep, show, buffer, size[0])
        found.append(buffer)
    ctl.solve(on_model=on_model)
    if not found:
        raise EncodingError("the game graph has no answer set (an encoding bug)")
    argv, size = _ffi.new("clingo_symbol_t**"), _ffi.new("size_t*")
    f_args, marker = _lib.clingo_symbol_arguments, mark._rep
    add_pair, add_position = pairs.append, positions.append
    for rep in found[0]:
        f_args(rep, argv, size)
        n = size[0]
        if n == 3:
            values = argv[0]
            if values[2] == marker:
                add_pair(values[0])
                add_pair(values[1])
        elif n == 1:
            value = argv[0][0]
            if value >> 48 == FUNCTION_TAG:
                add_position(value)
    return positions, pairs


def _first_numbers(reps: np.ndarray) -> np.ndarray:
    """The first argument of each function symbol in ``reps`` where it is a number, else -1."""
    out = np.empty(len(reps), dtype=np.int32)
    if rawmodel.FAST is None:
        for i, rep in enumerate(reps.tolist()):
            first = clingo.symbol.Symbol(rep).arguments[0]
            out[i] = first.number if first.type == clingo.SymbolType.Number else -1
        return out
    _ffi, _lib = rawmodel.FAST
    argv, size = _ffi.new("clingo_symbol_t**"), _ffi.new("size_t*")
    f_args = _lib.clingo_symbol_arguments
    firsts = array("Q")
    for rep in reps.tolist():
        f_args(rep, argv, size)
        firsts.append(argv[0][0])
    raw = np.frombuffer(firsts, dtype=np.uint64) if len(firsts) else np.zeros(0, dtype=np.uint64)
    out[:] = (raw & np.uint64(0xFFFFFFFF)).astype(np.uint32).view(np.int32)
    out[(raw >> np.uint64(32)) != np.uint64(NUMBER_TAG >> 32)] = -1     # (no position: no turns entry)
    return out


def prepare_shared_tables(board: Board) -> None:
    """The shared circuit of ``board``'s kind (:mod:`.sharedtables`) built now, where its race graph
    would read its per-cell tables from one: for a process about to fork workers that check many
    boards of that kind (``verify``), so that each starts with the circuit instead of building it."""
    layout = layout_for(board)
    if serves(SCRIPTED_GRAPH, board, layout=layout):
        build_circuit(board, layout)


class RaceGraph:
    """The game graph of ``board`` (position terms of ``layout``) reachable from ``roots``
    (position terms as text), within ``guard``: joined by pieces where the compiled moves allow
    it (``by_pieces``), else ground by clingo from the compiled ``succ`` rules.  A builder of
    the one game graph (``graph``: its positions keyed by their codec numbers, ``numbering``,
    or by their clingo symbols, :attr:`GameGraph.keys`) and a view of it: ``n``, the side to
    move, the end that decides each terminal position, the distinct successors and the predecessors."""

    def __init__(self, board: Board, layout, roots: list[str], guard: LimitGuard, by_pieces: bool = True):
        started = time.perf_counter()
        self.board, self.layout = board, layout
        self._roots, self._moves_text = roots, None      # (the moves' program: compiled where needed)
        # starts the rules do not judge (start(S), judge_start: false): joined in arrays from the
        # positions after their moves (see _add_starts), where the named moves come without clingo
        starts = [root for root in roots if root.startswith(f"{START}(")]
        plain = [root for root in roots if not root.startswith(f"{START}(")]
        turns = factored_turns(board, layout) if by_pieces else None
        if starts and turns is not None and any(len(movers) > 1 for movers, _ in turns):
            turns = None        # (moves of several pieces at once: their names are ground by clingo)
        numbering, named, starts_at = None, None, None
        if by_pieces and serves(SCRIPTED_GRAPH, board, layout=layout):    # pieces moved by rule: arrays
            tables = ScriptTables(board, layout, guard)
            named = ScriptedMoves(tables)
            joined = ScriptedGraph(tables, plain + _after(named, starts), guard)
            grounded = started + tables.ground_s
        elif turns is not None:      # the pieces move each on its own: the graph joined from their moves
            pieces = PieceMoves(board, layout, turns, guard)
            if pieces.single:       # the named moves too, without a ground call
                named = pieces
            joined = FactoredGraph(pieces, plain + _after(named, starts), guard)
            grounded = started + pieces.ground_s
        else:
            joined = None
            from ...compile.compiler import graph_program     # (the compiled game: not for a graph joined in arrays)
            program = graph_program(board, layout, roots)
            self._moves_text = program.moves
            grounded, (keys, turn, outcome, ends, src, dst) = _ground(program.graph, board, guard)
        if joined is not None:
            numbering, ends = joined.numbering, joined.ends
            keys, turn, outcome, src, dst = joined.keys, joined.turn, joined.outcome, joined.src, joined.dst
            del joined
            keys, turn, outcome, src, dst = _add_starts(numbering, named, starts, keys, turn, outcome, src, dst)
            starts_at = numbering.size
        self.edges = len(src)
        # the one game graph (gamegraph.py), from its predecessors: pred[start[i]:start[i+1]] lead
        # to position i; outdeg: its distinct successors
        self.graph = GameGraph.of_moves(src, dst, turn, outcome, ends, rows=False, codec=numbering, keys=keys,
                                        starts_at=starts_at)
        self.n, self.ends, self.turn, self.outcome = self.graph.n, self.graph.ends, self.graph.turn, self.graph.outcome
        self.start, self.pred, self.outdeg = self.graph.predecessors()
        del src, dst
        guard.after("after reading the game graph")
        self.named = named          # the named moves (NamedMoves: ground where asked; or PieceMoves)
        self.ground_s = round(grounded - started, 4)
        self.read_s = round(time.perf_counter() - grounded, 4)

    # - Positions (the graph's keys: GameGraph.find, term, texts) ---

    @property
    def numbering(self):
        """The codec that numbers the positions (None: keyed by their clingo symbols)."""
        return self.graph.codec

    def index(self, state: clingo.Symbol) -> int:
        """The number of position ``state``, or -1 when the roots do not reach it."""
        return self.graph.find(state)

    def symbol(self, i: int) -> clingo.Symbol:
        """The position term of position number ``i``."""
        return self.graph.term(i)

    def ranked_terms(self, rank: np.ndarray) -> dict[str, int]:
        """Position term (as text) -> rank of the positions ``rank`` (of :meth:`ranks`) ranks."""
        ranked = np.flatnonzero(rank >= 0)
        return dict(zip(self.graph.texts(ranked), rank[ranked].tolist()))

    def terminal(self, i: int) -> bool:
        return self.outcome[i] >= 0

    # - Ranks ---

    def ranks(self, attackers: Iterable[int], targets: Iterable[str], levels: int) -> tuple[np.ndarray, int]:
        """Race (``attackers``: turns entries, ``targets``: end names): the rank of every
        position (plies to a target end under best play, attackers hurrying, defenders
        delaying; -1: not forced within ``levels`` plies), and the levels computed (up to the
        first that decided nothing, at most ``levels``), as encodings/solve.lp's ``won_in/3``."""
        return self.graph.ranks(attackers, targets, levels)

    # - Named moves, where an answer looks at them ---

    def moves(self, state: clingo.Symbol) -> list[tuple[clingo.Symbol, clingo.Symbol]]:
        """The moves of position ``state`` and the positions after them (``edge(S,M,S2)`` of the
        compiled game rules), ground for this position alone the first time it is asked."""
        return self.named_moves().moves(state)

    def named_moves(self) -> "NamedMoves":
        """The named moves and ends of this game's positions, ground where asked (shared by
        every answer read off this graph, and by verify's no_beeline check)."""
        if self.named is None:
            if self._moves_text is None:
                from ...compile.compiler import graph_program
                self._moves_text = graph_program(self.board, self.layout, self._roots).moves
            self.named = NamedMoves(self._moves_text)
        return self.named


def _add_starts(numbering, named, starts: list[str], keys, turn, outcome, src, dst) -> tuple:
    """The joined graph (sorted ``keys``, ``turn``, ``outcome``, moves ``src`` -> ``dst``) with the
    ``starts`` (``start(S)`` terms) as positions of their own after every other (keyed
    ``numbering.size`` + S's number): no end, S's side to move, and S's distinct successors by
    ``named`` (the graph was joined from them); the moves with them."""
    if not starts:
        return keys, turn, outcome, src, dst
    inner = sorted({numbering.key_of(unjudged(clingo.parse_term(s)), add=True) for s in starts})
    n, sources, targets = len(keys), [src], [dst]
    for j, key in enumerate(inner):
        after = [numbering.key_of(t, add=True) for _, t in named.moves(_start_of(numbering.symbol(key)))]
        found = np.searchsorted(keys, np.unique(np.array(after, dtype=keys.dtype)))
        sources.append(np.full(len(found), n + j, dtype=src.dtype))
        targets.append(found.astype(dst.dtype))
    keys = np.concatenate([keys, np.array(inner, dtype=keys.dtype) + numbering.size])
    outcome = np.concatenate([outcome, np.full(len(inner), -1, dtype=outcome.dtype)])
    turn = np.concatenate([turn, np.array([numbering.arguments(k)[0] for k in inner], turn.dtype)])
    return keys, turn, outcome, np.concatenate(sources), np.concatenate(targets)


def _ground(text: str, board: Board, guard: LimitGuard):
    """The game graph ground by clingo from the compiled ``succ`` rules, its positions keyed by
    their raw symbols: (time grounded, (keys, turn, outcome, ends, sources, targets))."""
    ctl = clingo.Control(["--warn=none"])
    try:
        ctl.add("base", [], text)
        guard.ground(ctl, [("base", [])], "while grounding the game's positions")
    except RuntimeError as exc:
        raise EncodingError(f"clingo could not ground the game graph: {exc}") from exc
    guard.after("after grounding the game's positions")
    grounded = time.perf_counter()
    positions, pairs = _graph_atoms(ctl)
    keys = distinct(np.frombuffer(positions, dtype=np.uint64))
    pairs = np.frombuffer(pairs, dtype=np.uint64)
    ends = [end.name for end in board.rules.ends]
    decided = [(state._rep, ends.index(end)) for state, end in OUTCOME.ground(ctl.symbolic_atoms)]
    del ctl
    outcome = np.full(len(keys), -1, dtype=np.int16)
    if decided:
        reps = np.array([rep for rep, _ in decided], dtype=np.uint64)
        outcome[np.searchsorted(keys, reps)] = [end for _, end in decided]
    turn = _first_numbers(keys)
    for i in np.flatnonzero(turn < 0).tolist():     # start(S): the side to move in S
        inner = unjudged(clingo.symbol.Symbol(int(keys[i])))
        turn[i] = inner.arguments[0].number if inner.arguments else -1
    src = np.searchsorted(keys, pairs[0::2]).astype(np.int32)
    dst = np.searchsorted(keys, pairs[1::2]).astype(np.int32)
    return grounded, (keys, turn, outcome, ends, src, dst)


def _start_of(term: clingo.Symbol) -> clingo.Symbol:
    return clingo.Function(START, [term])


def _after(named, starts: list[str]) -> list[str]:
    """The positions after the moves of the ``starts`` (start(S) terms as text), by ``named``."""
    return [str(after) for start in starts for _, after in named.moves(clingo.parse_term(start))]


class NamedMoves:
    """The moves of positions with their names and the end that decides each position, by the
    compiled game rules (the ``moves(p)`` part of :func:`~gridsolve.compile.compiler.graph_program`,
    text ``program``), ground for the positions asked (:meth:`fetch`: many in one ground call)."""

    def __init__(self, program: str):
        self.ctl = clingo.Control(["--warn=none"])
        self.ctl.add("base", [], program)
        self._new: list[clingo.Symbol] = []
        self.ctl.register_observer(_Collector(self._new))
        self.ctl.ground([("base", [])])
        self._moves: dict[clingo.Symbol, list] = {}
        self._ends: dict[clingo.Symbol, str] = {}

    def fetch(self, states: Iterable[clingo.Symbol]) -> None:
        """Ground the moves and ends of ``states`` not ground before, in one call."""
        new = [s for s in dict.fromkeys(states) if s not in self._moves]
        if not new:
            return
        self._new.clear()
        self.ctl.ground([("moves", [s]) for s in new])
        for state in new:
            self._moves[state] = []
        for atom in self._new:
            if EDGE.matches(atom):
                state, move, after = EDGE.read(atom)
                self._moves[state].append((move, after))
            elif OUTCOME.matches(atom):
                state, end = OUTCOME.read(atom)
                self._ends[state] = end

    def moves(self, state: clingo.Symbol) -> list[tuple[clingo.Symbol, clingo.Symbol]]:
        """(move, position after it) of each move of ``state``; none where an end holds."""
        if state not in self._moves:
            self.fetch([state])
        return self._moves[state]

    def end(self, state: clingo.Symbol) -> str | None:
        """The end that decides ``state``, None where none holds."""
        if state not in self._moves:
            self.fetch([state])
        return self._ends.get(state)


def named_moves(board: Board, layout) -> "NamedMoves":
    """The named moves and ends of ``board``'s positions (terms of ``layout``): from each role's
    moves by cell where every ``turns`` entry moves one piece on its own
    (:class:`~gridsolve.solve.graph.factored.PieceMoves`), else ground where asked (:class:`NamedMoves`)."""
    turns = factored_turns(board, layout)
    if turns is not None and all(len(movers) == 1 for movers, _ in turns):
        return PieceMoves(board, layout, turns)
    from ...compile.compiler import graph_program
    return NamedMoves(graph_program(board, layout, []).moves)


class _Collector:
    """A ground program observer that keeps the atoms each ground call outputs."""

    def __init__(self, into: list):
        self.into = into

    def output_atom(self, symbol: clingo.Symbol, atom: int) -> None:
        self.into.append(symbol)
