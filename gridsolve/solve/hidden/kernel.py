"""The robust search's races run in C (``knowingkernel.c``, an extension module loaded by
:mod:`gridsolve.native`): the one object it reads (:class:`KnowingArrays`, made by
``KnowingSolver.kernel_arrays``), and its tables, one per race.

The C search is ``KnowingSolver.forces`` line for line: the same bounds, the same move orders (so
the same positions searched), the same transposition-table entries, kept in open-addressing
tables of about 26 bytes an entry instead of Python dicts of about 300.  It serves games whose
hidden marks' cells fit 32 bits, with at most four hidden marks of at most 15 obstacles each, and
step-limit rules whose entries each compare the role's distance with another piece's at most
once; the others search in Python with the same answers.  ``tests/test_knowingkernel.py``
compares the two.
"""
from __future__ import annotations

from array import array
from dataclasses import dataclass

import numpy as np

from ...language.distance import UNREACHABLE
from ...language.model import DELTA, DIRECTIONS
from ... import native
from ..bounded.kernelraces import KernelRaces
from ..graph.abstractgame import UNFORCED
from ..graph.retrograde import UNRANKED

CHECK_EVERY = 200_000            # positions searched between two checks of the limits
GROWTH_BYTES = CHECK_EVERY * 40  # table memory those positions may add (about 26 bytes an entry, 70% full)
NO_END = -32768


@dataclass(frozen=True)
class KnowingArrays:
    """What ``knowingkernel.c`` reads of a KnowingSolver, by field name: sizes and constants,
    per-position arrays, the plies, the bounds of the game without knowledge, the step limit's
    score and what the role's distance reads (int32, int16 or int8 bytes as the C file says)."""

    n: int                       # abstract positions
    nbits: int                   # cells a hidden mark may occupy (knowledge bits)
    unreachable: int
    prune: int
    top: int                     # the role's top score
    avoid_best: int              # the best score of an end the role must avoid
    stuck_top: int               # a side without a move can stop the game (then with the top score)
    team: bytes                  # per position: the role's team moves
    role_moves: bytes            # per position: the role itself moves
    avoid: bytes                 # per position: the end that holds is one the role must avoid
    end_score: bytes             # per position: the role's score at the end that holds, NO_END none
    bumped: bytes                # per position: where the role's bump leads, -1 none
    counts: tuple                # obstacles per hidden mark
    allowed: tuple               # cells each hidden mark may occupy, as knowledge bits
    offsets: bytes               # the plies: offsets per position, successors, the role's aim's bit
    successors: bytes
    aims: bytes
    doom_free: bytes             # the bounds (KnowingSolver's)
    top_free: bytes
    knows_distance: int          # the step limit's score reads the role's distance
    default_score: int
    fixed_score: bytes           # per position, where it does not
    entry_scores: tuple          # per conditional timeout entry: its score, the clause that reads the
    entry_clauses: tuple         # role's distance (-1 none), whether it holds but for that, per position,
    entry_base: bytes            # and the other piece's distance per position
    entry_other: bytes
    ncells: int                  # the board's cells: their open steps, knowledge bits, the goal marks
    adjacent: bytes
    cellbit: bytes
    goals: tuple
    role_cell: bytes             # per position: the role's cell


def kernel_serves(solver) -> bool:
    """Whether the C races serve ``solver`` (a KnowingSolver): compiled here, with knowledge
    and step-limit rules that fit the kernel's arrays."""
    kgame = solver.kgame
    knows, board = kgame.knows, kgame.board
    if len(knows.cells) > 32 or len(knows.marks) > 4 or any(c > 15 for c in knows.counts):
        return False
    if board.width * board.height > 64 or board.rules.max_plies > 250 or len(kgame.conditions) > 8:
        return False
    if any(not -32768 < s < 32767 for s in [*solver.at_end.values(), *kgame.at_timeout]):
        return False
    if any(len(solver_clauses(kgame, when)) > 1 for when in kgame.conditions):
        return False
    return native.load("knowingkernel", __package__) is not None


def solver_clauses(kgame, when) -> list[tuple[str, bool]]:
    """The nearer clauses of a timeout condition that read the role's distance: (mark, whether
    the role is the one that must be farther)."""
    return [(mark, piece != kgame.role) for piece, other, mark in when.nearer if kgame.role in (piece, other)]


def _int32(values) -> bytes:
    return array("i", values).tobytes()


class KnowingKernel(KernelRaces):
    """The races of one KnowingSolver in C, and a slot per race."""

    check_every, growth_bytes = CHECK_EVERY, GROWTH_BYTES

    def __init__(self, solver):
        module = native.load("knowingkernel", __package__)
        plies = plies_arrays(solver.kgame)
        doom_free, top_free = _bounds(module, solver, plies)
        solver.doom_free, solver.top_free = array("i", doom_free), array("i", top_free)
        super().__init__(module, solver, solver.kernel_arrays(plies))

    def extra(self, know: tuple) -> tuple[int, int, int]:
        """(free, found, used) with the obstacles placed packed 4 bits a hidden mark."""
        free, found, used = know
        return free, found, sum(count << (4 * mark) for mark, count in enumerate(used))


def _bounds(module, solver, plies: tuple) -> tuple[bytes, bytes]:
    """KnowingSolver._bounds by the one ranker's C twin (``ranks``, gridsolve/solve/graph/retrograde.h)
    on the plies with, where the role may bump, a bump beside its moves: (doom_free, top_free) as
    int32 bytes, UNFORCED where not forced."""
    game, positions = solver.game, _position_arrays(solver)
    offsets, successors, _ = plies
    team, avoided, bumped = positions["team"], positions["avoid"], positions["bumped"]
    ended = bytes(int(o is not None) for o in game.outcome)
    others = bytes(1 - t for t in team)
    top = bytes(int(o in solver.top_ends) for o in game.outcome)

    def bound(attacks: bytes, target: bytes) -> bytes:
        rank = np.frombuffer(module.ranks(offsets, successors, bumped, attacks, target, ended, -1, -1)[0], dtype=np.int32)
        return np.where(rank == UNRANKED, UNFORCED, rank).astype(np.int32).tobytes()
    return bound(others, avoided), bound(team, top)


def knowing_arrays(solver, plies: tuple) -> KnowingArrays:
    """The :class:`KnowingArrays` of ``solver`` (a KnowingSolver whose bounds are known) with the
    plies' arrays ``plies`` (:func:`plies_arrays`)."""
    kgame, game = solver.kgame, solver.game
    positions = dict(_position_arrays(solver))
    entry_other = array("i")
    for clause, cells in positions.pop("others"):
        if clause is None:
            entry_other.extend([0] * len(game))
        else:
            distances = kgame.other_distance[clause]
            entry_other.extend([distances.get(cell, UNREACHABLE) for cell in cells])
    offsets, successors, aims = plies
    return KnowingArrays(**positions, prune=int(solver.prune), top=solver.thresholds[-1], avoid_best=solver.avoid_best,
                         stuck_top=int(solver.stuck_can_top()), offsets=offsets, successors=successors, aims=aims,
                         doom_free=array("i", solver.doom_free).tobytes(), top_free=array("i", solver.top_free).tobytes(),
                         entry_other=entry_other.tobytes())


def plies_arrays(kgame) -> tuple[bytes, bytes, bytes]:
    """(offsets, successors, the role's aim) of every position's plies: the aim is the knowledge
    bit of the cell the role steps to, -1 where it stays or the cell has none.  A game that is
    another's with some of the others' plies led elsewhere (``kgame.redirected``: {ply number:
    successor}, :mod:`.ownplacements`) patches the other's (``kgame.kernel_arrays["plies"]``)."""
    redirected, base = kgame.redirected, kgame.kernel_arrays.get("plies")
    if redirected is not None and base is not None:
        successors = array("i", base[1])
        for ply, successor in redirected.items():
            successors[ply] = successor
        return base[0], successors.tobytes(), base[2]
    game, index, bit = kgame.game, kgame.index, kgame.bit
    offsets, successors, aims = array("i", [0]), array("i"), array("i")
    for s, row in enumerate(game.graph.successor_lists()):
        here = game.cells[s][index]
        for successor in row:
            aim = game.cells[successor][index]
            successors.append(successor)
            aims.append(bit[aim].bit_length() - 1 if aim != here and aim in bit else -1)
        offsets.append(len(successors))
    return offsets.tobytes(), successors.tobytes(), aims.tobytes()


def _position_arrays(solver) -> dict:
    """The fields of :class:`KnowingArrays` that do not read the plies, the bounds or the search's
    options (the games of the placements of the role's own marks share them, :mod:`.ownplacements`:
    kept in ``kgame.kernel_arrays``), and ``others``: per timeout entry the (piece, mark) whose
    distance it compares the role's with and that piece's cell per position."""
    kgame, game = solver.kgame, solver.game
    found = kgame.kernel_arrays.get("positions")
    if found is not None:
        return found
    board, role, n = kgame.board, kgame.role, len(game)
    robust = kgame.robust
    cells = [(x, y) for y in range(1, board.height + 1) for x in range(1, board.width + 1)]
    number = {cell: i for i, cell in enumerate(cells)}
    goals, entry_clauses, entry_base, others = [], [], array("b"), []
    for when in kgame.conditions:
        clauses = solver_clauses(kgame, when)
        other = next((o if p == role else p for p, o, _ in when.nearer if role in (p, o)), None)
        if clauses:
            mark, farther = clauses[0]
            if mark not in goals:
                goals.append(mark)
            entry_clauses.append(2 * goals.index(mark) + int(farther))
            where = board.rules.roles.index(other)
            others.append(((other, mark), [game.cells[s][where] for s in range(n)]))
        else:
            entry_clauses.append(-1)
            others.append((None, None))
        for s in range(n):
            entry_base.append(int(kgame.holds_but_role(when, dict(zip(board.rules.roles, game.cells[s])))))
    adjacent = array("i")
    for cell in cells:
        for direction in DIRECTIONS:
            step = (cell[0] + DELTA[direction][0], cell[1] + DELTA[direction][1])
            adjacent.append(number[step] if board.on_board(cell) and robust.open_step(cell, direction)
                            and step in number else -1)
    cellbit = array("i", [kgame.bit[c].bit_length() - 1 if c in kgame.bit else -1 for c in cells])
    goal_masks = tuple(sum(1 << number[c] for c in robust.marks.get(mark, ()) if c in number) for mark in goals)
    fixed = array("h", [kgame.at_timeout[-1 if t is None else t] if not kgame.knows_distance else 0
                        for t in game.tmatch])
    end_score = array("h", [NO_END if o is None else solver.at_end[o] for o in game.outcome])
    team = bytes(int(t in solver.team_turns) for t in game.turn)
    found = kgame.kernel_arrays["positions"] = dict(
        n=n, nbits=len(kgame.knows.cells), unreachable=UNREACHABLE,
        team=team, role_moves=bytes(int(t in kgame.role_turns) for t in game.turn),
        avoid=bytes(int(o in solver.avoid) for o in game.outcome), end_score=end_score.tobytes(),
        bumped=_int32([-1 if b is None else b for b in kgame.bumped]), counts=tuple(kgame.knows.counts),
        allowed=tuple(kgame.allowed), knows_distance=int(kgame.knows_distance), default_score=kgame.at_timeout[-1],
        fixed_score=fixed.tobytes(), entry_scores=tuple(kgame.at_timeout[:-1]), entry_clauses=tuple(entry_clauses),
        entry_base=entry_base.tobytes(), ncells=len(cells), adjacent=adjacent.tobytes(), cellbit=cellbit.tobytes(),
        goals=goal_masks, role_cell=_int32([number[game.cells[s][kgame.index]] for s in range(n)]), others=others)
    return found
