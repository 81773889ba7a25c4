"""The positions of a game with an ``after_ply`` script found in C (``scriptkernel.c``): the twin
of the numpy search of :class:`~gridsolve.solve.graph.scripted.ScriptedGraph` (the role's move,
then each script action, level by level), with the same positions and moves in the same order.

:func:`native_search` packs a :class:`~gridsolve.solve.graph.scripted.ScriptTables`' per-cell
tables, its ends and its script actions into the arrays and small int32 programs the kernel
reads (their codes are listed at the top of ``scriptkernel.c``).  It returns None where the
kernel is not built, ``GRIDSOLVE_NATIVE=0`` asks for Python, the positions are numbered as
found (many pieces: :class:`~gridsolve.solve.graph.codec.FoundNumbering`) or a key flips the
gates at every entry; the numpy search runs then.  ``tests/test_scriptkernel.py`` compares the two on random boards.
"""
from __future__ import annotations


import numpy as np

from .retrograde import native_kernel
from .sharedtables import AXES

SAME, REACH, NEARER, ON = 0, 1, 2, 3           # conditions
KEY, STOP, STEP, REMOVE = 0, 1, 2, 3           # script actions
ROW_BYTES = 56        # a move's source and target, and the position it finds in the set and the lists
CHECK_EVERY = 20_000  # positions found between two checks of the limits (after the first, before any level)

kernel = native_kernel      # the C search (None where it was not built, or GRIDSOLVE_NATIVE=0)


def native_search(tables, start: np.ndarray, guard, joined: bool = False) -> tuple | None:
    """(positions found, sorted; [sources]; [targets]) of every move of the positions reachable
    from ``start`` (sorted, distinct), as the numpy search gives them; with ``joined``, (positions
    found, sorted; the end that decides each, int16 as ``tables.outcome``; sources; targets) with
    the moves as int32 indexes into the positions, as the race graph keeps them.  None where the
    C search does not serve (module docstring).  ``guard`` checks the limits before the first level, then
    every CHECK_EVERY positions found (a check reads the process's memory: it costs as much as a
    small board's search)."""
    module, numbering = kernel(), tables.numbering
    if module is None or not numbering.dense or any(a.kind == "key" and a.each for a in tables.actions):
        return None         # (a key every entry flips: the numpy search plays it)
    rules, index = tables.board.rules, tables.index
    marks = {mark: number for number, mark in enumerate(tables.marks)}
    distances = {name: number for number, name in enumerate(tables.distance)}
    size = numbering.cells + 1

    def reaches(piece, mark, alive=False) -> list:
        return ([ON, index[piece]] if alive else []) + [REACH, index[piece], marks.get(mark, -1)]

    def same(groups, alive=False) -> list:
        out = []
        for group in groups:
            out += [c for piece in group for c in ([ON, index[piece]] if alive else [])]
            out += [c for other in group[1:] for c in (SAME, index[group[0]], index[other])]
        return out

    def counted(conditions: list) -> list:      # the count of conditions first (each starts with its code)
        n, at = 0, 0
        while at < len(conditions):
            n, at = n + 1, at + {SAME: 3, REACH: 3, NEARER: 5, ON: 2}[conditions[at]]
        return [n] + conditions

    roles = set(rules.roles)
    ends = [len(rules.ends)]
    for end in rules.ends:
        when = end.when
        met = [c for group in when.same_cell if not set(group) & roles for c in (ON, index[group[0]])]
        ends += counted(met + same(when.same_cell) + [c for p, m in when.reaches for c in reaches(p, m)]
                        + [c for p, o, m in when.nearer
                           for c in (NEARER, index[p], index[o], distances[(p, m)], distances[(o, m)])])
    script = [len(tables.actions)]
    for action in tables.actions:
        if action.kind == "key":
            script += [KEY, len(action.pieces)] + [c for p in action.pieces for c in (index[p], p in action.uses)]
        elif action.kind == "stop":
            script += [STOP] + counted(same(action.when.same_cell, True)
                                       + [c for p, m in action.when.reaches for c in reaches(p, m, True)])
        elif action.kind == "step":
            piece = action.pieces[0]
            chaser = rules.chasers[piece]
            script += [STEP, index[piece], index[chaser.target], AXES[chaser.first]]
        else:
            script += [REMOVE, index[action.pieces[0]], index[action.piece], bool(action.flips)]
    rule = rules.moves[tables.role]

    def table(arrays: list, dtype) -> np.ndarray:
        return np.ascontiguousarray(np.concatenate(arrays) if arrays else np.zeros(0), dtype=dtype)
    most = int(np.diff(tables.move_start).max(initial=0))

    def check(found: int, frontier: int) -> None:      # (what the next CHECK_EVERY positions' moves need)
        guard.after(f"while finding the game's positions ({found:,} found)",
                    (frontier + CHECK_EVERY) * most * ROW_BYTES)
    found = module.search(
        np.ascontiguousarray(start, dtype=np.int64), np.array(numbering.strides, dtype=np.int64),
        *(np.ascontiguousarray(a, dtype=np.int64) for a in (tables.move_start, tables.move_aim, tables.move_to)),
        np.ascontiguousarray(tables.gate_cross, dtype=np.uint8), np.ascontiguousarray(tables.chase, dtype=np.int64),
        np.ascontiguousarray(tables.key, dtype=np.uint8),
        np.ascontiguousarray(tables.x, dtype=np.int64), np.ascontiguousarray(tables.y, dtype=np.int64),
        table(list(tables.marks.values()), np.uint8), table(list(tables.distance.values()), np.int64),
        np.array(ends, dtype=np.int32), np.array(script, dtype=np.int32),
        np.array([index[p] for p in rule.may_not_end_on], dtype=np.int32),
        np.array([p in rules.chasers for p in index], dtype=np.uint8),
        numbering.cells + numbering.off, numbering.pieces, int(numbering.gate), index[tables.role], int(rule.blocked == "illegal"),
        check, CHECK_EVERY, joined)
    if joined:
        found, ends, src, dst = found
        return (np.frombuffer(found, dtype=np.int64), np.frombuffer(ends, dtype=np.int16),
                np.frombuffer(src, dtype=np.int32), np.frombuffer(dst, dtype=np.int32))
    found, src, dst = found
    return (np.sort(np.frombuffer(found, dtype=np.int64)), [np.frombuffer(src, dtype=np.int64)],
            [np.frombuffer(dst, dtype=np.int64)])
