"""Items in the compiled program: per collectible the count taken (``C``) and the items left as
bit words (``I1..Iq``) in the position term, the ``ibit`` facts a ply joins with, the score
tables (``table``) and the ``collected`` condition."""
from __future__ import annotations

from dataclasses import dataclass

from ...compile.bits import NO_ITEM, BitCells
from ...compile.predicates import IBIT, TABLE
from ...language.distance import board_cells
from ...language.model import Cell
from ..base import Encoding, PositionField


@dataclass(frozen=True)
class Collectible(BitCells):
    name: str
    piece: str
    cells: tuple[Cell, ...]      # item cells in index order


def count_variable(layout, name: str, prefix: str = "") -> str:
    """The variable of the count of ``name`` taken."""
    return f"{prefix}C{[c.name for c in layout.collect].index(name) + 1}"


def _total(board, name: str) -> int:
    return len(board.marks.get(board.rules.collect[name].mark, ()))


def facts(board, layout, conditions) -> list[str]:
    """``ibit(I,X,Y,W1..Wq)``: the bit of the item on each cell (NO_ITEM where there is none)."""
    out = []
    for item in layout.collect:
        rows = []
        for cell in board_cells(board):
            bits = [NO_ITEM] * item.words
            found = item.bit(cell)
            if found:
                bits[found[0]] = found[1]
            rows.append(IBIT.fact(item.name, cell[0], cell[1], bits))
        out.append(" ".join(rows))
    return out


def literals(when, v, board) -> list[tuple[str, str]]:
    out = []
    for name, at_least in when.collected:
        need = _total(board, name) if at_least < 0 else at_least
        count = count_variable(v.layout, name, v.prefix)
        out.append((f"{count} >= {need}", f"{count} < {need}"))
    return out


def score(name: str, v, rules, out: str) -> str:
    """The literal of a score table's value for the items taken."""
    return TABLE.atom(name, count_variable(v.layout, rules.tables[name].count, v.prefix), out)


def after(ply) -> None:
    """A collector takes the item of the cell it ends its own move on: the count grows, the bit
    is cleared."""
    for index, item in enumerate(ply.layout.collect, 1):
        count, words = f"C{index}", [f"I{index}_{w}" for w in range(1, item.words + 1)]
        if not ply.effect or item.piece not in ply.movers:
            ply.fields += [count, *words]
            continue
        bits = [f"IB{index}_{w}" for w in range(1, item.words + 1)]
        x, y = ply.final[item.piece][1:-1].split(",")
        ply.body.append(IBIT.atom(item.name, x, y, bits))
        taken = "+".join(f"({w}&{b})/{b}" for w, b in zip(words, bits))
        ply.fields.append(f"{count}+{taken}")
        ply.fields += [f"{w}-({w}&{b})" for w, b in zip(words, bits)]


def _select(board, options) -> tuple[Collectible, ...]:
    keep = options.get("keep_collect")
    return tuple(Collectible(name, c.piece, tuple(sorted(board.marks.get(c.mark, ()))))
                 for name, c in board.rules.collect.items() if keep is None or name in keep)


def _variables(layout, prefix: str) -> list[str]:
    out = []
    for index, item in enumerate(layout.collect, 1):
        out.append(f"{prefix}C{index}")
        out += [f"{prefix}I{index}_{w}" for w in range(1, item.words + 1)]
    return out


def _values(layout, position, board) -> list[int]:
    left = position.items_left(board)
    out = []
    for item in layout.collect:
        cells = left[item.name]
        out.append(len(item.cells) - len(cells))
        out += item.pack(cells)
    return out


def _decode(layout, args):
    items = []
    for item in layout.collect:
        words, args = args[1:1 + item.words], args[1 + item.words:]
        items.append((item.name, item.unpack(words)))
    return {"items": tuple(items)}, args


POSITION = PositionField("collect", select=_select, variables=_variables, values=_values, decode=_decode)

ENCODING = Encoding(
    "items", score_facts=lambda rules: [TABLE.facts((t.name, i, x) for i, x in enumerate(t.values))
                                        for t in rules.tables.values()],
    facts=facts, literals=literals, score=score, position=POSITION, after=after,
    can_hold=lambda when, board: all(at_least <= _total(board, name) for name, at_least in when.collected))
