"""How big ``gridsolve compile``'s program is for plain clingo, estimated before it is printed.

Plain clingo grounds the whole program in one call: the compiled game rules over every reachable
position, and every level part up to the horizon. Two numbers decide whether it answers within
:data:`PLAIN_SECONDS` and :data:`PLAIN_MEMORY` (fitted to bench/RESULTS-compiled.md):

* the program's **text**: one part a level (and a line step) up to the horizon (an unlimited
  game's horizon is its reachable count), each of about the same size (the race solver's
  ``solve.lp`` reads only the level before); the limit stands for what plain clingo spends on
  each part (gringo keeps every part's rules: about 30 ms and 1 MB a level part on a 10x10
  classic level), so it is about a thousand levels; taken from the parts, each family growing
  linearly with its index from its second to its last part (no other part is rendered);
* its **ground atoms**, from the positions (:func:`~.limits.estimate_positions`, within the horizon
  for the layered solver; the reachable count where it is smaller and known, or counted: a game
  without a step limit, or a race solver's bound that alone would flag it, up to
  :data:`REFINE_LIMIT`): for the race solver a position and its moves once a race; for the
  layered solver, whose single-shot program is not evaluated while grounding (the solver is left
  the values) and whose ground rules grow about :data:`LAYERED_GROWTH` times a ply whatever the
  positions (the treasure room, 29 positions: 41,415 rules at 8 plies, 293,578 at 12, 783,346 at
  16), a position and its moves times ``LAYERED_GROWTH ** plies / LAYERED_SHARE``.
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
TEXT_LIMIT = 4_000_000              # bytes of program text it answers within them (fitted: bench/RESULTS-compiled.md)
GROUND_LIMIT = 3_000_000            # estimated ground atoms or rules it answers within them (fitted: ditto)
LAYERED_GROWTH = 1.6                # the layered program's ground rules grow about this much a ply (measured: ditto)
LAYERED_SHARE = 6                   # ... from a position and its moves, divided by this (the treasure room: 5.9 to 8)
LAYERED_PLIES_COUNTED = 1_000       # (plies past these grow the estimate no more: it is far past the limit)
FIT_MARGIN = 1.03                   # the horizon suggested is estimated to fit with this much to spare
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
        return _too_big(self.text, self.ground)

    def warning(self) -> str:
        """The one line ``compile`` prints to standard error first when the program is too big."""
        why = []
        if self.ground > GROUND_LIMIT:
            grows = f", the layered program growing about {LAYERED_GROWTH}x a ply" if self.layered else ""
            why.append(f"about {self.positions:,} positions x {self.plies:,} plies ≈ {self.ground:.2g} ground "
                       f"{'rules' if self.layered else 'atoms'}{grows}; plain clingo manages about {GROUND_LIMIT:,}")
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
    moves = average_moves(board)
    ground = _ground(program, positions, plies, moves)
    if not _exact(board, query) and (board.rules.unlimited or (
            program.mode is Mode.RACE and GROUND_LIMIT < ground <= REFINE_LIMIT)):
        # every reachable position, at most (the race solver's: exactly), whatever the horizon:
        # counted for an unlimited game, as its program without a horizon is, and where the bound
        # alone flags the race solver's
        reachable = reachable_positions(board, program.layout, program.layout.root_term(query.position, board))
        positions = min(positions, reachable)
        ground = _ground(program, positions, plies, moves)
    fitting = None
    if _too_big(text, ground):
        fitting = _fitting_horizon(program, families, positions, moves, text)
    return PlainSize(positions, plies, ground, text, program.mode is Mode.LAYERED, fitting)


def _too_big(text: int, ground: int) -> bool:
    return text > TEXT_LIMIT or ground > GROUND_LIMIT


def _exact(board: Board, query: Query) -> bool:
    """The compiler's horizon is the reachable count (an unlimited game asked without one)."""
    return board.rules.unlimited and query.horizon is None


def _positions(board: Board, query: Query, program: Program) -> int:
    plies = program.remaining if program.mode is Mode.LAYERED else None
    bound = max(1, estimate_positions(board, program.layout, [query.position], plies))
    return min(bound, program.remaining) if _exact(board, query) else bound


def _ground(program: Program, positions: int, plies: int, moves: float) -> int:
    """The ground atoms (race solver) or rules (layered solver) of ``positions`` positions with
    ``moves`` moves each on average, over ``plies`` plies."""
    if program.mode is Mode.LAYERED:
        return int(positions * (1 + moves) * LAYERED_GROWTH ** min(plies, LAYERED_PLIES_COUNTED) / LAYERED_SHARE)
    return int(positions * (1 + moves) * (1 + len(program.plan.races)))


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


def _fitting_horizon(program: Program, families: list[Sequence[str]], positions: int, moves: float,
                     text: int) -> int | None:
    """The largest horizon whose program fits both limits, by the same estimate (None: none
    does; a race program's ground atoms do not shrink with the horizon)."""
    fixed = text - sum(_family_bytes(f, len(f)) for f in families)

    def fits(horizon: int) -> bool:
        ratio = (horizon + 1) / (program.remaining + 1)
        size = fixed + sum(_family_bytes(f, max(1, round(len(f) * ratio))) for f in families)
        # (the parts of a smaller horizon are not quite those of this one: a margin for the estimate)
        return not _too_big(int(size * FIT_MARGIN), _ground(program, positions, horizon, moves))

    if not fits(1):
        return None
    low, high = 1, program.remaining
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if fits(middle) else (low, middle)
    return low
