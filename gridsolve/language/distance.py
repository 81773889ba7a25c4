"""Fewest single steps between the cells of a board: the one breadth-first search over the grid
that the compiler's distance facts, the robust game's distances, the generator's goal distance
and the size estimates share."""
from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from .model import DELTA, DIRECTIONS, Board, Cell


def step_distances(board: Board, targets: Iterable[Cell], blocked: Iterable[Cell] = (),
                   within: int | None = None) -> dict[Cell, int]:
    """Fewest single steps from each cell to the nearest of ``targets``, through open edges
    (other pieces and the rules' exceptions left out), never entering a ``blocked`` cell: a
    blocked cell may be stepped off, so it can have a distance, but no path runs through it
    and a blocked target counts for none.  Only cells ``within`` steps (None: any distance).
    An open edge is open both ways, so these are also the distances from the targets."""
    blocked = frozenset(blocked)
    dist = {c: 0 for c in targets if board.on_board(c) and c not in blocked}
    queue = deque(dist)
    while queue:
        cell = queue.popleft()
        if cell in blocked or (within is not None and dist[cell] >= within):
            continue
        for direction in DIRECTIONS:
            if board.open_step(cell, direction):
                dx, dy = DELTA[direction]
                step = (cell[0] + dx, cell[1] + dy)
                if step not in dist:
                    dist[step] = dist[cell] + 1
                    queue.append(step)
    return dist
