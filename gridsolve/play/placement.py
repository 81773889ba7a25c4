"""Secret placements before the game: reading a player's cells, and the computer's choice.

The computer prefers the placement that hurts the other side most: the roles that bump on
the mark should need more steps to their goal (an end where they reach a mark), and of their
shortest routes as many as possible should run into an obstacle.  Ties are broken by the seed.
"""
from __future__ import annotations

import itertools
import random
import re
from collections import deque

from ..errors import QueryError
from ..language.model import DELTA, DIRECTIONS, Board, Cell
from ..language.celltext import not_free
from ..language.secret import allowed_cells, not_on

SAMPLE = 4000          # placements scored at most (seeded sample beyond)
FAR = 1000             # the extra steps of a goal made unreachable

_CELL = re.compile(r"\(?\s*(\d+)\s*,\s*(\d+)\s*\)?")


def parse_cells(text: str, board: Board, mark: str, count: int) -> frozenset[Cell]:
    """``count`` distinct cells for ``mark`` written as ``X,Y`` pairs; a QueryError says what is wrong."""
    cells = [(int(x), int(y)) for x, y in _CELL.findall(text)]
    rest = _CELL.sub("", text).replace(" ", "").replace(";", "")
    if rest or len(cells) != count:
        raise QueryError(f"expected {count} cells as X,Y separated by spaces, e.g. "
                         + " ".join(f"{x},{y}" for x, y in sorted(allowed_cells(board, mark))[:count]))
    if len(set(cells)) != count:
        raise QueryError("a cell is given twice", f"give {count} different cells")
    allowed = allowed_cells(board, mark)
    for cell in cells:
        if not board.on_board(cell):
            raise QueryError(not_free(cell, board))
        if cell not in allowed:
            raise QueryError(f"({cell[0]},{cell[1]}) is not allowed", f"{mark} may not go on the cells of "
                             f"{', '.join(not_on(board, mark))}")
    return frozenset(cells)


def goals(board: Board, role: str) -> frozenset[Cell]:
    """The cells of the marks the role's piece reaches in an end."""
    return frozenset(c for end in board.rules.ends for piece, m in end.when.reaches if piece == role
                     for c in board.marks.get(m, ()))


def victims(board: Board, mark: str) -> list[tuple[str, Cell, frozenset]]:
    """(role, start, goal cells) of the roles that bump on ``mark`` and have an end for reaching a mark."""
    return [(role, board.pieces[role], goals(board, role)) for role in board.rules.roles
            if mark in board.rules.moves[role].bump_on and goals(board, role)]


def routes(board: Board, start: Cell, goals: frozenset, blocked: frozenset) -> tuple[int, int]:
    """(fewest steps from start to a goal never entering a blocked cell, number of such routes);
    (FAR, 0) when there is none."""
    dist, ways, queue = {start: 0}, {start: 1}, deque([start])
    best = None
    while queue:
        cell = queue.popleft()
        if best is not None and dist[cell] >= best:
            continue
        for d in DIRECTIONS:
            if not board.open_step(cell, d):
                continue
            nxt = (cell[0] + DELTA[d][0], cell[1] + DELTA[d][1])
            if nxt in blocked:
                continue
            if nxt not in dist:
                dist[nxt], ways[nxt] = dist[cell] + 1, 0
                queue.append(nxt)
                if nxt in goals:
                    best = dist[nxt] if best is None else best
            if dist[nxt] == dist[cell] + 1:
                ways[nxt] += ways[cell]
    if best is None:
        return FAR, 0
    return best, sum(ways[g] for g in goals if dist.get(g) == best)


def hurt(board: Board, mark: str, cells: frozenset) -> tuple[int, float]:
    """(extra steps, share of shortest routes cut) the placement costs the roles that bump on it."""
    extra, cut = 0, 0.0
    for role, start, goal in victims(board, mark):
        seen = frozenset(c for m in board.rules.moves[role].bump_on if m != mark for c in board.marks.get(m, ()))
        steps, ways = routes(board, start, goal, seen)
        after, kept = routes(board, start, goal, seen | cells)
        extra += after - steps
        cut += 1.0 if after > steps else 1.0 - kept / max(ways, 1)
    return extra, cut


def choose_placement(board: Board, mark: str, count: int, rng: random.Random) -> frozenset[Cell]:
    """The computer's cells for ``mark``: the placement that hurts the others most (seeded among equals)."""
    allowed = sorted(allowed_cells(board, mark))
    combos = list(itertools.combinations(allowed, count)) if _few(len(allowed), count) else \
        [tuple(sorted(rng.sample(allowed, count))) for _ in range(SAMPLE)]
    scored = [(hurt(board, mark, frozenset(c)), c) for c in combos]
    best = max(score for score, _ in scored)
    return frozenset(rng.choice([c for score, c in scored if score == best]))


def _few(n: int, k: int) -> bool:
    total = 1
    for i in range(k):
        total = total * (n - i) // (i + 1)
    return total <= SAMPLE
