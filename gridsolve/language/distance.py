"""Fewest single steps between the cells of a board: the one breadth-first search over the grid
that the compiler's distance facts, the robust game's distances, the generator's goal distance
and the size estimates share."""
from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from .model import DELTA, DIRECTIONS, Board, Cell

UNREACHABLE = 1_000_000     # the distance of a cell from which the targets cannot be reached (in facts)


def board_cells(board: Board) -> list[Cell]:
    """The cells of the board a piece can stand on, column by column."""
    return [(x, y) for x in range(1, board.width + 1) for y in range(1, board.height + 1) if board.on_board((x, y))]


def bump_cells(board: Board, role: str) -> set[Cell]:
    """The cells ``role``'s piece bumps on: it never enters them (a chaser bumps on none)."""
    move = board.rules.moves.get(role)
    return {c for m in (move.bump_on if move else ()) for c in board.marks.get(m, ())}


def open_steps(board: Board) -> dict[Cell, list[Cell]]:
    """The cells each cell of the board can reach in one single step."""
    return {c: [(c[0] + DELTA[d][0], c[1] + DELTA[d][1]) for d in DIRECTIONS if board.open_step(c, d)]
            for c in board_cells(board)}


def step_distances(board: Board, targets: Iterable[Cell], blocked: Iterable[Cell] = (),
                   within: int | None = None, steps: dict[Cell, list[Cell]] | None = None) -> dict[Cell, int]:
    """Fewest single steps from each cell to the nearest of ``targets``, through open edges
    (other pieces and the rules' exceptions left out), never entering a ``blocked`` cell: a
    blocked cell may be stepped off, so it can have a distance, but no path runs through it
    and a blocked target counts for none.  Only cells ``within`` steps (None: any distance).
    An open edge is open both ways, so these are also the distances from the targets.
    ``steps``: :func:`open_steps` of the board, for many searches over one board."""
    if steps is None:
        steps = open_steps(board)
    blocked = frozenset(blocked)
    dist = {c: 0 for c in targets if board.on_board(c) and c not in blocked}
    queue = deque(dist)
    while queue:
        cell = queue.popleft()
        if cell in blocked or (within is not None and dist[cell] >= within):
            continue
        for step in steps[cell]:
            if step not in dist:
                dist[step] = dist[cell] + 1
                queue.append(step)
    return dist


def mark_distances(board: Board, mark: str, blocked: Iterable[Cell] = (),
                   through_exits: bool = True) -> dict[Cell, int]:
    """:func:`step_distances` to the cells of ``mark``, for a role's piece (``through_exits``): a
    step through an exit edge of the border lands on the cell outside, so a cell inside an edge
    with the mark is one step from it, and a piece outside is at 0 from its own edge's mark (no
    step leads on from there: every other mark is infinitely far).  Pieces moved by rule never
    pass an exit edge (``through_exits`` False): for them the cells outside are never reached."""
    marked = board.marks.get(mark, frozenset())
    dist = step_distances(board, marked, blocked)
    if not through_exits:
        return dist
    outside = board.outside()
    through = [inside for beyond, (inside, _) in outside.items() if beyond in marked]
    for cell, d in step_distances(board, through, blocked).items():
        dist[cell] = min(dist.get(cell, d + 1), d + 1)
    dist.update({beyond: 0 for beyond in outside if beyond in marked})
    return dist
