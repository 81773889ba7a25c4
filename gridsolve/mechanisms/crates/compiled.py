"""Crates in the compiled program: the crates' cells as bit words (``CR1..CRq``) in the position
term, the ``crate_bit`` facts a ply joins with, the ``crates_on`` condition (a sum of bits) and
the cases of a ply's steps (:func:`move_cases`, in place of ``rmove``): each step of the mover, in order
(as ``allowed`` of encodings/moves.lp gives the directions), moves freely,
pushes a crate (a pusher only) or is blocked by a wall or a crate (it stays where the mover's
steps are ``blocked: stay``; there is no such move where they are ``blocked: illegal``); the
cases bind the move's name, aim and end as ``rmove`` would, and :func:`after` writes the crates
after the last step."""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from ...compile.bits import WORD_BITS, BitCells
from ...compile.predicates import declare
from ...language.distance import board_cells
from ...language.model import Cell
from ..base import Encoding, PositionField
from .language import NAME, ON, of, start_cells

CRATE_BIT = declare("crate_bit", "x:int y:int words:ints",
                    "the crate bit words of (X,Y), one argument a word (all 0 for a cell just outside the board)")

MASK = (1 << WORD_BITS) - 1


@dataclass(frozen=True)
class CrateCells(BitCells):
    """The cells a crate may stand on (the board's, in index order), how many crates there are
    and the steps of each role's move."""

    cells: tuple[Cell, ...]
    count: int
    steps: tuple[tuple[str, int], ...]


def _select(board, options) -> CrateCells | None:
    if of(board.rules) is None:
        return None
    rules = board.rules
    return CrateCells(tuple(board_cells(board)), len(start_cells(board)),
                      tuple((role, rules.moves[role].steps) for role in rules.roles))


def _variables(layout, prefix: str) -> list[str]:
    return [f"{prefix}CR{w}" for w in range(1, layout.field(NAME).words + 1)]


def _values(layout, position, board) -> list[int]:
    state = position.plugin(NAME)
    return layout.field(NAME).pack(start_cells(board) if state is None else state)


def _decode(layout, args):
    cells = layout.field(NAME)
    return {"plugins": {NAME: cells.unpack(args[:cells.words])}}, args[cells.words:]


def _numbered(layout, board) -> list[tuple[str, int]]:
    cells = layout.field(NAME)
    return [(f"CR{w}", 1 << max(0, min(WORD_BITS, len(cells.cells) - WORD_BITS * (w - 1))))
            for w in range(1, cells.words + 1)]


POSITION = PositionField(NAME, select=_select, variables=_variables, values=_values, decode=_decode,
                         numbered=_numbered,
                         states=lambda layout, board: math.comb(len(layout.field(NAME).cells), layout.field(NAME).count))


def facts(board, layout, conditions) -> list[str]:
    """``crate_bit(X,Y,W1..Wq)``: the bit of each board cell in its word (0 in the others), and
    0 in every word for the cells just outside the exit edges (no crate ever stands there)."""
    cells = layout.field(NAME)
    if cells is None:
        return []
    rows = []
    for cell in [*cells.cells, *sorted(board.outside())]:
        words = [0] * cells.words
        found = cells.bit(cell)
        if found:
            words[found[0]] = found[1]
        rows.append(CRATE_BIT.fact(cell[0], cell[1], words))
    return [" ".join(rows)]


def _has_crate(words: list[str], bits: list[str]) -> str:
    return "+".join(f"({w}&{b})" for w, b in zip(words, bits))


def literals(when, v, board) -> list[tuple[str, str]]:
    """``crates_on``: the number of crate bits set on the mark's cells, at least the count."""
    cells = v.layout.field(NAME)
    out = []
    for mark, at_least in when.plugin(ON):
        need = cells.count if at_least < 0 else at_least
        words = [f"{v.prefix}CR{w}" for w in range(1, cells.words + 1)]
        terms = [f"({words[w]}&{b})/{b}" for w, b in (cells.bit(c) for c in sorted(board.marks.get(mark, ()))
                                                       if cells.bit(c))]
        total = "+".join(terms) or "0"
        out.append((f"{total} >= {need}", f"{total} < {need}"))
    return out


def can_hold(when, board) -> bool:
    """False where a ``crates_on`` asks more crates than the board has or its mark has cells."""
    asked = when.plugin(ON)
    if not asked:               # (most conditions: the board's cells are not read)
        return True
    cells = set(board_cells(board))
    count = len(start_cells(board)) if of(board.rules) else 0
    return all((count if n < 0 else n) <= min(count, len(cells & board.marks.get(mark, frozenset())))
               for mark, n in asked)


def chaser_obstacle(layout, fields: dict, x: str, y: str, tag: str):
    """A crate is in a chaser's way (a chaser does not push): (the cell (x,y) holds no crate,
    [it holds one]), read from the crate words of the script's stage (None: no crates here)."""
    if layout.field(NAME) is None:
        return None
    words = [fields[name] for name in _variables(layout, "")]
    bits = [f"OB{tag}_{w}" for w in range(1, len(words) + 1)]
    there = CRATE_BIT.atom(x, y, bits)
    return [there, f"{_has_crate(words, bits)} = 0"], [[there, f"{_has_crate(words, bits)} > 0"]]


def _words(i: int, k: int, layout) -> list[str]:
    """The crate words after step ``k`` of the mover with index ``i`` (step 0: the position's)."""
    words = layout.field(NAME).words
    return [f"CR{w}" for w in range(1, words + 1)] if k == 0 else [f"CW{i}_{k}_{w}" for w in range(1, words + 1)]


def _step_cases(board, layout, role: str, v, k: int):
    """The body of each way step ``k`` of ``role`` goes (they exclude each other), from
    (SX{i}_{k-1},SY{i}_{k-1}) (step 1: the piece's cell) to (SX{i}_{k},SY{i}_{k}), the crates
    from the words after step k-1 to those after step k: no step (``nowhere``), a free step, a
    push (a pusher's step into a crate whose next cell is free) and, where a blocked step stays,
    a step into a wall or the border and a step a crate blocks (each reason the push fails, or a
    crate in the way of a piece that does not push)."""
    rules = board.rules
    i = v.index[role]
    q = layout.field(NAME).words
    x0, y0 = (f"X{i}", f"Y{i}") if k == 1 else (f"SX{i}_{k - 1}", f"SY{i}_{k - 1}")
    x1, y1 = f"SX{i}_{k}", f"SY{i}_{k}"
    d, dx, dy = f"SD{i}_{k}", f"DX{i}_{k}", f"DY{i}_{k}"
    tx, ty, ux, uy = f"{x0}+{dx}", f"{y0}+{dy}", f"{x0}+2*{dx}", f"{y0}+2*{dy}"
    before, after = _words(i, k - 1, layout), _words(i, k, layout)
    tbits, ubits = [f"TB{i}_{k}_{w}" for w in range(1, q + 1)], [f"UB{i}_{k}_{w}" for w in range(1, q + 1)]
    same = [f"{a} = {b}" for a, b in zip(after, before)]
    stay = [f"{x1} = {x0}", f"{y1} = {y0}", *same]
    go = [f"{x1} = {tx}", f"{y1} = {ty}"]
    step = [f"{d} != nowhere", f"open_step({x0},{y0},{d})", f"delta({d},{dx},{dy})"]
    target = CRATE_BIT.atom(tx, ty, tbits)
    crate_there = [target, f"{_has_crate(before, tbits)} > 0"]
    cases = [[f"{d} = nowhere", *stay], [*step, target, f"{_has_crate(before, tbits)} = 0", *go, *same]]
    others = [p for p in layout.roles if p != role]
    beyond = f"open_step({tx},{ty},{d})"
    if role in of(rules).pushers:
        free = [beyond, f"not outside({ux},{uy})", CRATE_BIT.atom(ux, uy, ubits), f"{_has_crate(before, ubits)} = 0",
                *[f"({ux},{uy}) != {v.cell(p)}" for p in others]]
        moved = [f"{a} = {b}-({b}&{t})+{u}" for a, b, t, u in zip(after, before, tbits, ubits)]
        cases.append([*step, *crate_there, *free, *go, *moved])
        stopped = [[f"not {beyond}"], [beyond, f"outside({ux},{uy})"],
                   [beyond, CRATE_BIT.atom(ux, uy, ubits), f"{_has_crate(before, ubits)} > 0"],
                   *[[beyond, f"({ux},{uy}) = {v.cell(p)}"] for p in others]]
    else:
        stopped = [[]]
    if rules.moves[role].blocked == "stay":
        cases.append([f"{d} != nowhere", f"not open_step({x0},{y0},{d})", *stay])
        cases += [[*step, *crate_there, *why, *stay] for why in stopped]
    return cases


def _move(role: str, i: int, steps: int, move) -> list[str]:
    """The move's steps as ``allowed`` (encodings/moves.lp) gives them, ``M{i}`` its name (the
    direction for one step, (D1,D2) for two, ...), and its aim, end and turns lost, as ``rmove``
    binds them (the ply reads no ``rmove``: :func:`own_moves`)."""
    names = [f"SD{i}_{k}" for k in range(1, steps + 1)]
    term = names[0]
    for name in names[1:]:
        term = f"({term},{name})"
    end = f"(SX{i}_{steps},SY{i}_{steps})"
    out = [f"allowed({role},{k},{name})" for k, name in enumerate(names, 1)]
    out += [f"M{i} = {term}", f"(AX{i},AY{i}) = {end}", f"(PX{i},PY{i}) = {end}", f"B{i} = 0"]
    return out + ([f"{end} != (X{i},Y{i})"] if move.end_differs_from_start else [])


def move_cases(board, layout, movers, v) -> list | None:
    """(extra body, cell after the move per mover, no turns lost) for each way the crates treat
    the mover's steps, one step after the other (the loader allows one mover a turns entry).
    None: no crates here."""
    if layout.field(NAME) is None:
        return None
    (role,) = movers
    i, steps = v.index[role], board.rules.moves[role].steps
    out = []
    for combo in itertools.product(*(_step_cases(board, layout, role, v, k) for k in range(1, steps + 1))):
        body = [lit for case in combo for lit in case] + _move(role, i, steps, board.rules.moves[role])
        out.append((body, {role: f"(SX{i}_{steps},SY{i}_{steps})"}, {}))
    return out


def own_moves(board, role: str) -> bool:
    """With crates every role's moves are the move cases' (a crate blocks every piece)."""
    return of(board.rules) is not None


def after(ply) -> None:
    """The crates after the ply: the words after the mover's last step."""
    (role,) = ply.movers
    ply.fields += _words(ply.v.index[role], dict(ply.layout.field(NAME).steps)[role], ply.layout)


ENCODING = Encoding(NAME, facts=facts, literals=literals, can_hold=can_hold, move_cases=move_cases, own_moves=own_moves, after=after,
                    chaser_obstacle=chaser_obstacle,
                    position=POSITION)
