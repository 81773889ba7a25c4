"""Limits of a solve: memory and time, checked by every solver path before and while it grounds.

Every path that grounds (the race solver, the layered solver, the engine of ``ask``, ``verify``
and ``play``, the generator's judge) goes through a :class:`LimitGuard`:

* **before grounding**, :func:`estimate_positions` bounds the positions the program can
  reach from the board (the cells each piece can reach, the sides, the kept state), and
  :meth:`LimitGuard.before` refuses a program whose positions cannot fit: at ``BYTES_PER_POSITION``
  (the least any game measured needs; :func:`graph_bytes` for the race solver's game graph), or, where that leaves it open, at the bytes a
  position and its moves take (:func:`average_moves`, from encodings/moves.lp);
* **between ground calls** (level by level, depth by depth), :meth:`LimitGuard.after` reads the
  resident memory and stops when it, with the growth expected of the next call, passes the
  limit;
* **during a ground call**, which clingo cannot interrupt, :meth:`LimitGuard.ground` caps the
  address space (``RLIMIT_AS``) at what the limit leaves, so that gringo's allocation fails
  with a ``MemoryError`` before the process passes the limit; the grounding is dropped and the
  error is the same :class:`~gridsolve.errors.LimitError`.

The limit is ``Limits.memory``: by default ``GRIDSOLVE_MAX_MEMORY`` (``--max-memory`` sets it
for the command and its worker processes), else ``DEFAULT_MEMORY``.  It bounds the memory a
grounding adds to what the process held when its guard was made (a command holds about
40 MB then; a long-lived process, such as a test run, may hold much more).
"""
from __future__ import annotations

import contextlib
import math
import os
import re
import resource
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ...errors import LimitError, MemoryLimitError, QueryError
from ...language.distance import step_distances
from ...language.model import OFF_BOARD, Board

ENV = "GRIDSOLVE_MAX_MEMORY"
DEFAULT_MEMORY = 2 * 1000 ** 3       # bytes resident: 2 GB
LEAST_MEMORY = 100 * 1000 ** 2       # the interpreter and clingo alone need about half of it
BYTES_PER_POSITION = 2_000           # a game ground with its named moves: 3.2 to 6.8 kB a position measured
POSITION_BYTES, EDGE_BYTES = 2_750, 270     # ... fitted as this much a position and a move (bench boards)
GRAPH_BYTES = (500, 400, 115)        # the race solver's game graph (retro.py): least a position, and fitted
                                     # per position and per move to a distinct cell (1.0 to 1.4 kB a position)
JOINED_BYTES = (250, 110, 34)        # ... joined by pieces (factored.py): 270 to 380 B a position measured (5.7 to 8.6 moves)
MOST_MOVES = 30                      # more moves a position than any seed game has
PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096

_UNITS = {"": 1, "b": 1, "kb": 1000, "mb": 1000 ** 2, "gb": 1000 ** 3, "tb": 1000 ** 4,
          "kib": 1024, "mib": 1024 ** 2, "gib": 1024 ** 3, "k": 1024, "m": 1024 ** 2, "g": 1024 ** 3}


def parse_memory(text: str, source: str = "--max-memory") -> int:
    """Bytes of ``2GB``, ``1500MB``, ``1.5GiB``, ``3G`` (binary) or a number of bytes."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*", str(text))
    unit = match.group(2).lower() if match else None
    where = f"{source} {text}".strip()
    if not match or unit not in _UNITS:
        raise QueryError(f"{where}: not an amount of memory", "write e.g. 2GB, 1500MB or 1.5GiB")
    amount = int(float(match.group(1)) * _UNITS[unit])
    if amount < LEAST_MEMORY:
        raise QueryError(f"{where}: less than {format_bytes(LEAST_MEMORY)}",
                         "the interpreter and clingo alone need about 50 MB; allow at least 100MB")
    return amount


def memory_limit(given: int | None, env_text: str | None) -> int:
    """The memory limit of a command: ``--max-memory`` where ``given``, else the text of
    ``GRIDSOLVE_MAX_MEMORY`` (``env_text``; the command line reads it, gridsolve/cli.py), else
    ``DEFAULT_MEMORY``."""
    if given is not None:
        return given
    return parse_memory(env_text, ENV) if env_text else DEFAULT_MEMORY


def format_bytes(amount: float) -> str:
    return f"{amount / 1000 ** 3:.1f} GB" if amount >= 1000 ** 3 else f"{amount / 1000 ** 2:.0f} MB"


def format_seconds(amount: float) -> str:
    return f"{amount:.0f} s" if amount >= 10 else f"{amount:.2g} s"


def _statm() -> tuple[int, int] | None:
    try:
        with open("/proc/self/statm") as f:
            size, rss = f.read().split()[:2]
        return int(size) * PAGE, int(rss) * PAGE
    except OSError:
        return None


def resident() -> int:
    """Bytes of this process in memory now (the peak where /proc is missing)."""
    statm = _statm()
    if statm:
        return statm[1]
    return peak_resident()


# Linux counts a process's pages in per-thread batches (up to 64 events a thread) that the peak
# of getrusage may not have summed yet: the peak can lag the resident memory /proc reads by that
PEAK_LAG = 1 << 20


def peak_resident() -> int:
    """The most bytes this process has held in memory: never less than :func:`resident` but
    for the kernel's unsummed batches (:data:`PEAK_LAG`; one system call, where reading /proc
    costs a file's opening)."""
    scale = 1 if os.uname().sysname == "Darwin" else 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale


@dataclass
class Limits:
    """How much a solve may use before it stops with a :class:`~gridsolve.errors.LimitError`: one
    value from the command line (or the library's caller) to every solver path it asks."""

    atoms: int = 4_500_000          # layered solver: ground atoms with the values and ranks
    seconds: float | None = None    # wall-clock time
    progress: object = None         # called with a line of text as the layers are ground
    memory: int = DEFAULT_MEMORY    # bytes resident


# - Estimates before grounding ---

def _cells_within(board: Board, starts: set, radius: int | None) -> int:
    """Cells a piece can reach from ``starts`` in at most ``radius`` single steps (None: any)
    through open edges, the other pieces and the rules' exceptions left out (an upper bound); a
    piece off the board (a start at ``OFF_BOARD``) stays there, one place more."""
    on_board = starts - {OFF_BOARD}
    return (len(step_distances(board, on_board, within=radius)) if on_board else 0) + (OFF_BOARD in starts)


def _moves_within(board: Board, role: str, plies: int) -> int:
    """How many times ``role`` moves in ``plies`` plies, at most (from any side to move)."""
    turns = board.rules.turns
    own = sum(role in entry for entry in turns)
    return -(-plies * own // len(turns))


def estimate_positions(board: Board, layout, roots: Sequence, plies: int | None = None) -> int:
    """At most how many positions of ``layout`` are reachable from ``roots`` (within ``plies``
    plies of them, or any number with None): the cells each piece reaches (one place, off the
    board, for a piece that starts there), times the sides, the lost-turn counters, the
    ``was_on`` bits, the gate bit and the sets of items taken."""
    rules = board.rules
    count = 1
    for role in layout.roles:
        starts = {position.cell(role) for position in roots}
        moves = rules.moves.get(role)      # (None: a piece moved by rule, whose steps a ply has no bound here)
        radius = None if plies is None or moves is None else _moves_within(board, role, plies) * moves.steps
        count *= _cells_within(board, starts, radius)
    count *= layout.turns * 2 ** len(layout.was) * (2 if layout.gate else 1)
    if layout.lost:
        top = max((m.lose_turns for m in rules.moves.values() if m.bump_on), default=0)
        count *= (top + 1) ** layout.turns
    for item in layout.collect:
        n = len(item.cells)
        taken = n if plies is None else min(n, _moves_within(board, item.piece, plies))
        count *= sum(math.comb(n, j) for j in range(taken + 1))
    for field in layout.fields():       # (a mechanism's own field: as many states as it says)
        if field.states is not None:
            count *= field.states(layout, board)
    return count


def graph_bytes(board: Board, layout) -> tuple[int, int, int]:
    """The bytes of the race solver's game graph of ``layout`` (see :meth:`LimitGuard.before`):
    :data:`JOINED_BYTES` where it is joined by pieces (:mod:`gridsolve.solve.graph.factored`), else
    :data:`GRAPH_BYTES` (ground from the compiled moves)."""
    from ...compile.gamerules import factored_turns
    return JOINED_BYTES if factored_turns(board, layout) is not None else GRAPH_BYTES


def average_moves(board: Board, distinct: bool = False) -> float:
    """The moves of the side to move in a position, on average over the cells and the
    ``turns`` entries (a joint move of roles that move at once counts once): the complete
    moves of encodings/moves.lp from each cell, the other pieces left out (``distinct``: the
    moves to distinct cells only)."""
    import clingo       # (the limits are read by every command: clingo and the compiler only where this runs)

    from ...compile.gameprogram import GameProgram
    from ...compile.predicates import CELL, CMOVE
    program = GameProgram(board, None).text(rules=False, encodings=("board.lp", "moves.lp"),
                                                         mechanisms=False)
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], program)
    ctl.ground([("base", [])])
    moves = {role: 0 for role in board.rules.roles}
    seen = set()
    for role, x, y, _, x2, y2 in CMOVE.ground(ctl.symbolic_atoms):
        if distinct and (role, x, y, x2, y2) in seen:
            continue
        seen.add((role, x, y, x2, y2))
        moves[role] += 1
    cells = max(1, len(CELL.ground(ctl.symbolic_atoms)))
    turns = board.rules.turns
    return sum(math.prod(moves[role] / cells for role in entry) for entry in turns) / len(turns)


# - The guard of one grounding or search ---

class LimitGuard:
    """The limits of one grounding or search, checked as it goes, with what the error says: ``subject`` (what does not fit,
    e.g. "the positions within 50 plies"), ``hint`` (what to try when the memory does not
    suffice; called with the amount of memory the program was seen to need, or None) and
    ``smaller`` (how to ask a smaller question, said with ``--timeout`` when the time is up)."""

    def __init__(self, limits: Limits, subject: str, hint: Callable[[int | None], str],
                 started: float | None = None, smaller: str | None = None):
        self.limits, self.subject, self.hint, self.smaller = limits, subject, hint, smaller
        self.started = time.perf_counter() if started is None else started
        self.base = resident()      # what the process held before: not counted

    def error(self, amount: str, where: str, needed: int | None = None, memory: bool = True) -> LimitError:
        """The error to raise: a :class:`MemoryLimitError` unless ``memory`` is False (time)."""
        if not memory:
            return LimitError(f"{self.subject} do not fit: {amount} {where}", self.time_hint())
        return MemoryLimitError(f"{self.subject} do not fit: {amount} {where}", self.hint(needed))

    def time_hint(self) -> str:
        """What to try when the time is up: more time (``--timeout``), or a smaller question."""
        more = f"allow more time with --timeout (now {format_seconds(self.limits.seconds or 0)})"
        return f"{more}, or {self.smaller}" if self.smaller else more

    def out_of_time(self, where: str) -> LimitError | None:
        """The error to raise when the time is up (None while it is not)."""
        elapsed = time.perf_counter() - self.started
        if self.limits.seconds is None or elapsed <= self.limits.seconds:
            return None
        return self.error(f"{format_seconds(elapsed)} (limit {format_seconds(self.limits.seconds)})", where,
                          memory=False)

    def before(self, positions: int, board: Board | None = None,
               bytes_: tuple[int, int, int] = (BYTES_PER_POSITION, POSITION_BYTES, EDGE_BYTES)) -> None:
        """Refuse, before grounding, ``positions`` positions that need more than the limit: at
        the least a position needs, and, with ``board``, where the moves could make them pass
        it, at what its positions and their moves need (``bytes_``: the least a position
        needs, and the bytes of a position and of a move; default: a game ground with its
        named moves, :func:`graph_bytes` for the race solver's game graph)."""
        least, per_position, per_move = bytes_
        now = resident() - self.base
        needed = now + positions * least
        if (board is not None and needed <= self.limits.memory
                < now + positions * (per_position + per_move * MOST_MOVES)):
            moves = average_moves(board, distinct=bytes_ in (GRAPH_BYTES, JOINED_BYTES))
            needed = max(needed, now + int(positions * (per_position + per_move * moves)))
        if needed > self.limits.memory:
            raise self.error(f"about {positions:,} positions need about {format_bytes(needed)} "
                             f"(limit {format_bytes(self.limits.memory)})", "by an estimate before grounding", needed)

    def after(self, where: str, growth: int = 0, held: int = 0) -> None:
        """Stop when the time is up, or when the memory resident now and ``growth`` more bytes
        (what the next call is expected to add) pass the limit; ``held``: the bytes the caller
        knows it holds, counted where the resident memory does not show them (pages the process
        had already, reused)."""
        late = self.out_of_time(where)
        if late is not None:
            raise late
        if max(peak_resident() + PEAK_LAG - self.base, held) + growth <= self.limits.memory:
            return          # (the peak bounds the memory resident now: it fits, /proc need not be read)
        now = max(resident() - self.base, held)
        if now + growth > self.limits.memory:
            amount = (f"{format_bytes(now)} in use" if not growth else
                      f"{format_bytes(now)} in use and about {format_bytes(growth)} more expected")
            raise self.error(f"{amount} (limit {format_bytes(self.limits.memory)})", where, now + growth)

    @contextlib.contextmanager
    def allocating(self, where: str):
        """Arrays allocated within: one the machine cannot hold (numpy's MemoryError, before
        the limit was reached) stops with the limit's error, as one past the limit does."""
        try:
            yield
        except MemoryError as exc:
            raise self.error(f"an array did not fit in the machine's memory ({exc})", where) from None

    def ground(self, ctl, parts: list, where: str) -> None:
        """``ctl.ground(parts)`` with the address space capped at what the limit leaves: a
        grounding that would pass the limit fails (MemoryError) and is reported as a LimitError."""
        statm = _statm()
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        cap = None
        if statm:
            size, rss = statm
            cap = size + max(0, self.limits.memory - (rss - self.base))
            for bound in (soft, hard):
                if bound != resource.RLIM_INFINITY:
                    cap = min(cap, bound)
        try:
            if cap is not None:
                resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
            try:
                ctl.ground(parts)
            finally:
                if cap is not None:
                    resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
        except MemoryError:
            raise self.error(f"they reached the limit of {format_bytes(self.limits.memory)}", where) from None
