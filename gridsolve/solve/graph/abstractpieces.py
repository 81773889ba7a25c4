"""The abstract game joined from each piece's moves, where the pieces move each on its own.

:func:`gridsolve.solve.graph.abstractgame.abstract_game` grounds the compiled game rules over every
position reachable from the roots: on Pacman's random positions (363,000 positions, 1.1 M
moves) that is 7-9 s of clingo and as long again to read the atoms.  Where the compiled moves
have the shape :func:`~gridsolve.compile.gamerules.factored_turns` describes (the race solver
joins its graph so, :mod:`gridsolve.solve.graph.factored`), clingo grounds instead each role's named
moves from each cell and the end that decides each position of the board
(:class:`~gridsolve.solve.graph.factored.PieceMoves`); the positions reachable from the roots
(:class:`~gridsolve.solve.graph.factored.FactoredGraph`) and their named moves are then joined in
arrays.  A ply of ``turns[t]`` moves each mover by one of its named moves from its cell whose
aimed cell holds none of its ``may_not_end_on`` pieces; the move of several movers is the
compiled rules' ``j(mv(R1,M1),...)``.  Games with conditional timeout entries, lost turns,
``was_on`` bits or knowledge keep the ground path (tests/test_abstractpieces.py compares the two
on random boards of every rule option).
"""
from __future__ import annotations

import time

import clingo
import numpy as np

from ...compile.gamerules import factored_turns
from ...compile.gamerules import live_ends
from ...compile.state import layout_for
from ...errors import EncodingError
from ...language.model import Board
from ...language.position import Position
from .abstractgame import AbstractGame, abstract_game
from .gamegraph import GameGraph
from .codec import distinct
from .factored import FactoredGraph, PieceMoves
from ..common.limits import LimitGuard, Limits


def _joint(roles: list[str], names: list[int]) -> clingo.Symbol:
    """The move term of ``roles`` making the moves ``names`` (raw symbols), as edge/3 names it."""
    if len(roles) == 1:
        return clingo.symbol.Symbol(names[0])
    return clingo.Function("j", [clingo.Function("mv", [clingo.Function(r), clingo.symbol.Symbol(m)])
                                 for r, m in zip(roles, names)])


def abstract_by_pieces(board: Board, positions: list[Position], guard: LimitGuard | None = None) -> AbstractGame | None:
    """The abstract game of ``board`` from ``positions`` joined from the pieces' moves; None
    where the compiled moves do not have that shape, a conditional timeout entry applies, or an
    end counts items (the abstract game keeps none)."""
    started = time.perf_counter()
    if board.rules.timeout_when or any(end.when.collected for end in live_ends(board)):
        return None
    layout = layout_for(board, set())
    turns = factored_turns(board, layout)
    if turns is None:
        return None
    guard = guard or LimitGuard(Limits(), "the abstract game", lambda needed: "")
    pieces = PieceMoves(board, layout, turns, guard)
    graph = FactoredGraph(pieces, [pieces.numbering.text(p) for p in positions], guard)
    numbering, keys, roles = pieces.numbering, graph.keys, pieces.roles
    live = keys[graph.outcome < 0]
    side = live // numbering.side_stride
    sources, targets, codes, joints = [], [], [], []
    for t, (movers, avoid) in enumerate(turns):
        src = live[side == t]
        dst = src + ((t + 1) % len(turns) - t) * numbering.side_stride
        names: list[np.ndarray] = []
        for role in movers:
            piece, table = roles.index(role), pieces.tables[role]
            cell = numbering.cell_of(src, piece)
            lo = table.named_start[cell]
            counts = table.named_start[cell + 1] - lo
            which = np.repeat(np.arange(len(src)), counts)
            row = np.repeat(lo - np.cumsum(counts) + counts, counts) + np.arange(int(counts.sum()))
            src, dst, names = src[which], dst[which], [n[which] for n in names]
            keep = np.ones(len(row), dtype=bool)
            for other in avoid[role]:
                keep &= table.named_aim[row] != numbering.cell_of(src, roles.index(other))
            src, dst, row, names = src[keep], dst[keep], row[keep], [n[keep] for n in names]
            dst = dst + (table.named_dest[row] - numbering.cell_of(src, piece)) * numbering.strides[piece]
            names.append(table.names[row])
        if not len(src):
            continue
        code = np.zeros(len(src), dtype=np.int64)      # the joint move, mixed radix over each mover's names
        alphabets = []
        for column in names:
            alphabet, inverse = np.unique(column, return_inverse=True)
            code = code * len(alphabet) + inverse.reshape(-1)
            alphabets.append(alphabet.tolist())
        used, code = np.unique(code, return_inverse=True)
        codes.append(code.reshape(-1) + len(joints))
        for combined in used.tolist():
            combo = []
            for alphabet in reversed(alphabets):
                combined, digit = divmod(combined, len(alphabet))
                combo.append(alphabet[digit])
            joints.append(_joint(list(movers), combo[::-1]))
        sources.append(src)
        targets.append(dst)
    n = len(keys)
    src = dst = np.zeros(0, dtype=np.int64)
    moves = np.empty(0, dtype=object)
    if sources:
        order_of = {j: rank for rank, j in enumerate(sorted(range(len(joints)), key=lambda j: joints[j]))}
        rank = np.array([order_of[j] for j in range(len(joints))], dtype=np.int64)
        src = np.searchsorted(keys, np.concatenate(sources))
        after = np.concatenate(targets)
        dst = np.minimum(np.searchsorted(keys, after), n - 1)
        if not np.array_equal(keys[dst], after):
            raise EncodingError("a move of the abstract game leads out of its positions (an encoding bug)")
        count = len(joints)
        triples = distinct((src * count + rank[np.concatenate(codes)]) * n + dst)      # by position, then move
        by_rank = sorted(range(count), key=lambda j: joints[j])
        src, dst = triples // (count * n), triples % n
        moves = np.empty(len(triples), dtype=object)
        moves[:] = [joints[by_rank[m]] for m in (triples // n % count).tolist()]
    graph = GameGraph.of_moves(src, dst, keys // numbering.side_stride, graph.outcome, pieces.end_names,
                               moves=moves, codec=numbering, keys=keys)
    return AbstractGame(board, layout, graph, [None] * n, time.perf_counter() - started,
                        int(sum(len(t.names) for t in pieces.tables.values())))


def build_abstract_game(board: Board, positions: list[Position], guard: LimitGuard | None = None,
                        by_pieces: bool = True) -> AbstractGame:
    """The abstract game of ``board`` from ``positions``: joined from the pieces' moves where
    it can be (and ``by_pieces``), else ground by :func:`~gridsolve.solve.graph.abstractgame.abstract_game`."""
    game = abstract_by_pieces(board, positions, guard) if by_pieces else None
    return game if game is not None else abstract_game(board, positions)
