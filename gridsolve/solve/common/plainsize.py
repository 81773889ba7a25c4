"""How big ``gridsolve compile``'s program is for plain clingo, estimated before it is printed.

Plain clingo grounds the whole program in one call: the compiled game rules over every reachable
position, and every level part up to the horizon. Three numbers decide whether it answers within
:data:`PLAIN_SECONDS` and :data:`PLAIN_MEMORY` (fitted to bench/RESULTS-compiled.md):

* the program's **text**: :mod:`gridsolve.compile.unroll` spells out each level's range
  conditions, so level ``d`` of the race solver's ``solve.lp`` holds ``d`` literals a rule and
  ``L`` levels grow as ``L**2`` (an unlimited game's horizon is its reachable count); taken from
  the parts, each family growing linearly with its index from its second to its last part (no
  other part is rendered);
* its **ground atoms**, from the positions (the race solver's: the reachable count, where the game
  is unlimited or the bound below alone would flag them, up to :data:`REFINE_LIMIT`; else
  :func:`~.limits.estimate_positions`, within the horizon for the layered solver): a
  position and its moves once a race (race solver), or once a depth (layered solver);
* the **plies** of the layered solver: its single-shot program is not evaluated while grounding
  (the solver is left the values), and its ground rules grow about :data:`LAYERED_GROWTH` times a
  ply whatever the positions (the treasure room: 29 positions, 4,870 rules at 4 plies, 293,578 at 12).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...compile.compiler import compile_program, Program, reachable_positions
from ...compile.planning import Mode
from ...language.model import Board
from ...language.position import Query
from .limits import average_moves, estimate_positions, format_bytes

PLAIN_SECONDS = 60                  # what "too big" means: plain clingo does not answer within these
PLAIN_MEMORY = 4 * 1000 ** 3
TEXT_LIMIT = 2_750_000              # bytes of program text it answers within them (fitted: bench/RESULTS-compiled.md)
GROUND_LIMIT = 5_000_000            # estimated ground atoms it answers within them (fitted: ditto)
LAYERED_PLIES = 14                  # plies of the layered program it answers within them (fitted: ditto)
LAYERED_GROWTH = 1.6                # ... whose ground rules grow about this much a ply (measured: ditto)
REFINE_LIMIT = 100 * GROUND_LIMIT   # past this, the bound of the positions alone flags the program


@dataclass(frozen=True)
class PlainSize:
    """The size of one compiled program for plain clingo: ``positions`` (reachable, or at most),
    ``plies`` (the level or depth parts up to the horizon), ``ground`` (ground atoms, estimated),
    ``text`` (bytes of program text, estimated) and the horizon at which it would fit (None: no
    horizon makes it fit, or it fits as asked)."""

    positions: int
    plies: int
    ground: int
    text: int
    layered: bool = False
    fitting_horizon: int | None = None

    @property
    def too_big(self) -> bool:
        return _too_big(self.text, self.ground, self.plies, self.layered)

    def warning(self) -> str:
        """The one line ``compile`` prints to standard error first when the program is too big."""
        why = []
        if self.layered and self.plies > LAYERED_PLIES:
            why.append(f"{self.plies} plies of the layered solver, whose single-shot program grows about "
                       f"{LAYERED_GROWTH}x a ply, plain clingo manages about {LAYERED_PLIES}")
        if self.ground > GROUND_LIMIT:
            why.append(f"about {self.positions:,} positions x {self.plies:,} plies ≈ {self.ground:,} ground atoms, "
                       f"plain clingo manages about {GROUND_LIMIT:,}")
        if self.text > TEXT_LIMIT:
            why.append(f"{self.plies:,} level parts ≈ {format_bytes(self.text)} of program text, "
                       f"plain clingo manages about {format_bytes(TEXT_LIMIT)}")
        smaller = (f", or compile a smaller question: --horizon {self.fitting_horizon} fits"
                   if self.fitting_horizon else "")
        return (f"warning: this program is too big for plain clingo within {PLAIN_SECONDS} s and "
                f"{format_bytes(PLAIN_MEMORY)} ({'; '.join(why)}); it is printed all the same. "
                f"Ask `gridsolve solve` the same question instead{smaller}")


def plain_program(board: Board, query: Query) -> tuple[Program, PlainSize]:
    """``query``'s program (:func:`~gridsolve.compile.compiler.compile_program`) and its size for plain clingo."""
    program = compile_program(board, query)
    return program, plain_size(board, query, program)


def plain_size(board: Board, query: Query, program: Program | None = None) -> PlainSize:
    """The size for plain clingo of ``query``'s program (compiled here when not given)."""
    program = program or compile_program(board, query)
    families = _families(program)
    plies = program.remaining
    text = len(program.base) + len(program.strategy) + sum(_family_bytes(f, len(f)) for f in families)
    positions = _positions(board, query, program)
    ground = _ground(board, program, positions, plies)
    if program.mode is Mode.RACE and not _exact(board, query) and (
            board.rules.unlimited or GROUND_LIMIT < ground <= REFINE_LIMIT):
        # the race solver's positions are every reachable one, whatever the horizon: counted where
        # the bound flags them (and always for an unlimited game, as its program without a horizon is)
        positions = reachable_positions(board, program.layout, program.layout.root_term(query.position, board))
        ground = _ground(board, program, positions, plies)
    layered = program.mode is Mode.LAYERED
    fitting = None
    if _too_big(text, ground, plies, layered):
        fitting = _fitting_horizon(board, program, families, positions, text)
    return PlainSize(positions, plies, ground, text, layered, fitting)


def _too_big(text: int, ground: int, plies: int, layered: bool) -> bool:
    return text > TEXT_LIMIT or ground > GROUND_LIMIT or (layered and plies > LAYERED_PLIES)


def _exact(board: Board, query: Query) -> bool:
    """The compiler's horizon is the reachable count (an unlimited game asked without one)."""
    return board.rules.unlimited and query.horizon is None


def _positions(board: Board, query: Query, program: Program) -> int:
    if _exact(board, query):
        return program.remaining
    plies = program.remaining if program.mode is Mode.LAYERED else None
    return max(1, estimate_positions(board, program.layout, [query.position], plies))


def _ground(board: Board, program: Program, positions: int, plies: int) -> int:
    per_position = 1 + average_moves(board)
    if program.mode is Mode.LAYERED:
        return int(positions * per_position * (plies + 1))
    return int(positions * per_position * (1 + len(program.plan.races)))


def _families(program: Program) -> list[Sequence[str]]:
    """The families of parts instantiated once a level (or depth, or line step)."""
    if program.mode is Mode.LAYERED:
        return [program.depths, program.values, program.ranks, program.lines, [program.races, program.lookup]]
    return [program.levels, program.lines]


def _family_bytes(parts: Sequence[str], count: int) -> int:
    """The bytes of the first ``count`` parts of ``parts``, the first as it is and the others
    growing linearly from the second to the last (rendering those two only)."""
    count = min(count, len(parts))
    if count <= 2:
        return sum(len(parts[i]) for i in range(count))
    second, last = len(parts[1]), len(parts[len(parts) - 1])
    slope = (last - second) / max(1, len(parts) - 2)
    rest = count - 1
    return len(parts[0]) + int(rest * second + slope * rest * (rest - 1) / 2)


def _fitting_horizon(board: Board, program: Program, families: list[Sequence[str]], positions: int,
                     text: int) -> int | None:
    """The largest horizon whose program fits both limits, by the same estimate (None: none
    does; a race program's ground atoms do not shrink with the horizon)."""
    fixed = text - sum(_family_bytes(f, len(f)) for f in families)

    def fits(horizon: int) -> bool:
        ratio = (horizon + 1) / (program.remaining + 1)
        size = fixed + sum(_family_bytes(f, max(1, round(len(f) * ratio))) for f in families)
        return not _too_big(size, _ground(board, program, positions, horizon), horizon, program.mode is Mode.LAYERED)

    low, high = 0, program.remaining
    if not fits(1):
        return None
    low = 1
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if fits(middle) else (low, middle)
    return low
