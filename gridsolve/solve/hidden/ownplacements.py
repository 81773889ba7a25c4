"""The robust answer for every placement of the role's own secret marks, from one grounding
(``solve --hidden --placement``).

The role's own marks are known to it; they stop the others (they bump on them), so a placement
changes the others' plies and distances only.  The robust game without them (the *base*) is
ground once, every position of the pieces at once; a placement's game is the base with the
others' moves into its cells turned into bumps (the mover stays and loses its turns, as the
rules' ``bump`` says), and its step-limit distances measured around them.  Each is then
searched from the board's position like any robust question (:mod:`.knowing`, in C where
compiled).  Placements that a symmetry of the board maps onto each other (a reflection or a
rotation that keeps the walls, every piece's start and every other mark) have the same answer:
one of each class is searched.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, replace

import clingo

from ...language.model import DELTA, DIRECTIONS, Board, Cell
from ...language.position import Query, initial_position
from ...language.secret import allowed_cells
from ...language.kinds import QueryKind
from ..common.limits import Limits
from .knowing import KnowingGame, KnowingSolver, _abstract, _every_position, _search_limits
from .kernel import plies_arrays


@dataclass
class PlacedAnswer:
    """The robust answer from the board's position with one placement of the role's marks."""

    value: int
    plies: int | None
    win: bool
    survives: bool
    doom_plies: int | None


class OwnPlacements:
    """The base game of ``role`` without its own ``mark``, and the answer for a placement of it."""

    def __init__(self, board: Board, role: str, mark: str, limits: Limits | None = None):
        self.role, self.mark = role, mark
        self.limits = limits or Limits()
        base = replace(board, marks={**board.marks, mark: frozenset()},
                       unplaced={m: n for m, n in board.unplaced.items() if m != mark})
        self.position = initial_position(base)
        self.base = KnowingGame(base, role, _every_position(base))
        game, rules = self.base.game, base.rules
        # per cell: (position, ply's place in its list, ply number) of the others' plies into it
        # where they bump on the mark, and where the bump leads
        self.into: dict[Cell, list[tuple[int, int, int]]] = {}
        self.bump_of: dict[int, int] = {}
        ply = 0
        for state in range(len(game)):
            (mover,) = rules.turns[game.turn[state]]
            bumps = mover != role and game.outcome[state] is None and mark in rules.moves[mover].bump_on
            index = rules.roles.index(mover)
            here = game.cells[state][index]
            for place, successor in enumerate(game.graph.successors(state).tolist()):
                aim = game.cells[successor][index]
                if bumps and aim != here:
                    self.into.setdefault(aim, []).append((state, place, ply))
                    if state not in self.bump_of:
                        term = self.base._bump_term(game, state, rules.moves[mover].lose_turns)
                        self.bump_of[state] = game.state_of_term(clingo.parse_term(term))
                ply += 1
        self.base.kernel_arrays["plies"] = plies_arrays(self.base)

    def game(self, cells: frozenset) -> KnowingGame:
        """The robust game with the role's ``mark`` on ``cells``."""
        base, game = self.base, self.base.game
        board = replace(base.board, marks={**base.board.marks, self.mark: frozenset(cells)})
        rows, redirected = {}, {}
        for cell in cells:
            for state, place, ply in self.into.get(cell, ()):
                if state not in rows:
                    rows[state] = game.graph.successors(state).tolist()
                rows[state][place] = self.bump_of[state]
                redirected[ply] = self.bump_of[state]
        moves = {state: [m for m, _ in game.moves(state)] for state in rows}
        kgame = KnowingGame(board, self.role, base.roots, closed=(game.with_graph(game.graph.patched(rows, moves)),
                                                                   base.bumped))
        kgame.kernel_arrays, kgame.redirected = base.kernel_arrays, redirected     # the positions are the base's
        return kgame

    def answer(self, cells: frozenset) -> PlacedAnswer:
        """The robust answer from the board's position with the role's mark on ``cells``."""
        kgame = self.game(cells)
        query = Query(self.role, QueryKind.VALUE, self.position, hidden=True)
        solver = KnowingSolver(kgame, self.limits, _search_limits(kgame.board, query, self.limits))
        root = kgame.game.state_of(_abstract(self.position))
        know = kgame.knowledge(self.position)
        at = solver.at(root, know, query.remaining(kgame.board), solver.reference(root, know))
        return PlacedAnswer(at.value, at.plies, at.win, at.survives, at.doom_plies)


# - Symmetries of the board ---

def symmetries(board: Board, mark: str, hidden: tuple[str, ...]) -> list[dict[Cell, Cell]]:
    """The reflections and rotations of the board (as {cell: image}) that keep its cells, walls,
    every piece's start, every mark but ``mark`` and the marks in ``hidden`` (placed by the
    others: their allowed cells are kept instead)."""
    w, h = board.width, board.height
    maps = [lambda x, y: (x, y), lambda x, y: (w + 1 - x, y), lambda x, y: (x, h + 1 - y),
            lambda x, y: (w + 1 - x, h + 1 - y)]
    if w == h:
        maps += [lambda x, y: (y, x), lambda x, y: (w + 1 - y, h + 1 - x), lambda x, y: (w + 1 - y, x),
                 lambda x, y: (y, h + 1 - x)]
    cells = [(x, y) for x in range(1, w + 1) for y in range(1, h + 1) if board.on_board((x, y))]
    out = []
    for f in maps:
        image = {c: f(*c) for c in cells}
        if _keeps(board, image, mark, hidden):
            out.append(image)
    return out


def _keeps(board: Board, image: dict, mark: str, hidden: tuple[str, ...]) -> bool:
    if set(image.values()) != set(image):
        return False
    for cell, to in image.items():
        for direction in DIRECTIONS:
            step = (cell[0] + DELTA[direction][0], cell[1] + DELTA[direction][1])
            if board.open_step(cell, direction) != (step in image and _open(board, to, image[step])):
                return False
    if any(image[c] != c for c in board.pieces.values()):
        return False
    for name, marked in board.marks.items():
        if name != mark and name not in hidden and {image[c] for c in marked if c in image} != set(marked):
            return False
    return all({image[c] for c in allowed_cells(board, m)} == set(allowed_cells(board, m)) for m in hidden)


def _open(board: Board, cell: Cell, to: Cell) -> bool:
    """Whether a piece on ``cell`` may step to the adjacent ``to``."""
    return any((cell[0] + DELTA[d][0], cell[1] + DELTA[d][1]) == to and board.open_step(cell, d) for d in DIRECTIONS)


def classes(placements: list[tuple[Cell, ...]], images: list[dict]) -> dict[tuple, list[tuple]]:
    """{representative: the placements a symmetry maps it to}, in the order first met."""
    out: dict[tuple, list[tuple]] = {}
    for cells in placements:
        key = min(tuple(sorted(image[c] for c in cells)) for image in images)
        out.setdefault(key, []).append(cells)
    return out


def every_placement(board: Board, mark: str, count: int) -> list[tuple[Cell, ...]]:
    return list(itertools.combinations(sorted(allowed_cells(board, mark)), count))
