"""The robust search's races run in C (``knowingkernel.c``, an extension module loaded by
:mod:`gridsolve.solve.bounded.native`): the arrays it reads, built from a
:class:`~gridsolve.solve.knowing.KnowingSolver`, and its tables, one per race.

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

from ...compile.facts import UNREACHABLE
from ...language.model import DELTA, DIRECTIONS
from ..bounded import native

CHECK_EVERY = 200_000            # positions searched between two checks of the limits
GROWTH_BYTES = CHECK_EVERY * 40  # table memory those positions may add (about 26 bytes an entry, 70% full)
NO_END = -32768
KINDS = {"up": 0, "down": 1, "avoid": 2}


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


class KnowingKernel(native.KernelRaces):
    """The arrays of one KnowingSolver in C, and a slot per race."""

    check_every, growth_bytes = CHECK_EVERY, GROWTH_BYTES

    def __init__(self, solver):
        super().__init__(native.load("knowingkernel", __package__), solver)
        kgame, game = solver.kgame, solver.game
        fixed = kgame.kernel_arrays.get("positions")
        if fixed is None:
            fixed = kgame.kernel_arrays["positions"] = _position_arrays(solver)
        sizes, positions, timeout, distance, others = fixed
        entry_other = array("i")
        for clause, cells in others:
            if clause is None:
                entry_other.extend([0] * len(game))
            else:
                distances = kgame.other_distance[clause]
                entry_other.extend([distances.get(cell, UNREACHABLE) for cell in cells])
        plies = plies_arrays(kgame)
        doom_free, top_free = self._bounds(plies, positions)
        solver.doom_free, solver.top_free = array("i", doom_free), array("i", top_free)
        self.capsule = self.module.new(
            (*sizes, int(solver.prune), solver.thresholds[-1], solver.avoid_best, int(solver._stuck_can_top())),
            positions, plies, (doom_free, top_free), (*timeout, entry_other.tobytes()), distance)

    def _bounds(self, plies: tuple, positions: tuple) -> tuple[bytes, bytes]:
        """KnowingSolver._bounds in C: (doom_free, top_free) as int32 bytes."""
        solver, game = self.search, self.search.game
        offsets, successors, _ = plies
        team, _, avoided, _, bumped = positions[:5]
        ended = bytes(int(o is not None) for o in game.outcome)
        others = bytes(1 - t for t in team)
        top = bytes(int(o in solver.top_ends) for o in game.outcome)
        return (self.module.retrograde(len(game), offsets, successors, bumped, others, avoided, ended),
                self.module.retrograde(len(game), offsets, successors, bumped, team, top, ended))

    def slot(self, race: tuple) -> int:
        if race not in self.slots:
            kind, threshold = race
            self.slots[race] = self.module.race(self.capsule, KINDS[kind], 0 if threshold is None else threshold)
        return self.slots[race]

    def forces(self, race: tuple, state: int, know: tuple, plies_left: int, within: int) -> bool:
        """KnowingSolver.forces for ``race`` (its ``(kind, threshold)``)."""
        free, found, used = know
        packed = sum(count << (4 * mark) for mark, count in enumerate(used))
        return self.call(self.slot(race), state, (free, found, packed), plies_left, within)


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
    for s in range(len(game)):
        here = game.cells[s][index]
        for _, successor in game.succ[s]:
            aim = game.cells[successor][index]
            successors.append(successor)
            aims.append(bit[aim].bit_length() - 1 if aim != here and aim in bit else -1)
        offsets.append(len(successors))
    return offsets.tobytes(), successors.tobytes(), aims.tobytes()


def _position_arrays(solver) -> tuple:
    """What the kernel reads of the positions, not of their plies (the games of the placements of
    the role's own marks share it, :mod:`.ownplacements`): sizes, per-position arrays, the step
    limit's rule but the other pieces' distances, the board's cells, and per timeout entry the
    (piece, mark) whose distance it compares the role's with and that piece's cell per position."""
    kgame, game = solver.kgame, solver.game
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
    positions = (team, bytes(int(t in kgame.role_turns) for t in game.turn),
                 bytes(int(o in solver.avoid) for o in game.outcome), end_score.tobytes(),
                 _int32([-1 if b is None else b for b in kgame.bumped]), tuple(kgame.knows.counts), tuple(kgame.allowed))
    timeout = (int(kgame.knows_distance), kgame.at_timeout[-1], fixed.tobytes(), tuple(kgame.at_timeout[:-1]),
               tuple(entry_clauses), entry_base.tobytes())
    distance = (len(cells), adjacent.tobytes(), cellbit.tobytes(), goal_masks,
                _int32([number[game.cells[s][kgame.index]] for s in range(n)]))
    return (n, len(kgame.knows.cells), UNREACHABLE), positions, timeout, distance, others
