"""Random classic Mummy Maze boards (issue 31) as YAML text, for the differential tests.

``random_classic_board(seed)`` is deterministic (the same seed gives the same text) and writes
the issue's explicit form: ``rules`` (``mummy-maze-classic`` or ``mummy-maze-classic-red``),
``size``, ``walls``, ``pieces`` (the explorer; 0, 1 or 2 mummies; maybe a scorpion), ``marks``
(an exit on a border cell; up to two traps; a key when there is a gate) and maybe ``gates``
(one interior edge, not a wall).  Sizes 4 to 8 by default (``big=True``: up to 10); about one
board in four is not square.  No two pieces start on one cell; the explorer starts on no mark,
but on the exit with ``on_exit`` (an enemy there takes his cell; the board is otherwise the same),
where the start is not judged: he must survive a turn there, or leave and come back; enemies may
start on any mark, the key included (the scorpion on it about one time in three).
``python tests/classic_boards.py SEED [big] [on-exit]`` prints one.
"""
from __future__ import annotations

import random
import sys


def _flow(cells) -> str:
    return "[" + ", ".join(f"[{x}, {y}]" for x, y in sorted(cells)) + "]"


def random_classic_board(seed: int, big: bool = False, on_exit: bool = False) -> str:
    """One random board as YAML text."""
    rng = random.Random(seed * 7919 + 31)
    top = 10 if big else 8
    width = rng.randint(4, top)
    height = width if rng.random() < 0.75 else rng.randint(4, top)
    cells, walls, gate, exit_cell, key, free = random_layout(rng, width, height, (0.05, 0.35), 0.5)
    traps = [free.pop() for _ in range(rng.choice((0, 0, 1, 1, 2)))]
    explorer = free.pop()
    # enemies: any cell but the explorer's and each other's (marks included)
    spots = [c for c in cells if c != explorer]
    rng.shuffle(spots)
    n_mummies = rng.choices((0, 1, 2), weights=(1, 5, 4))[0]
    pieces = {"explorer": explorer}
    for name in ("mummy", "mummy2")[:n_mummies]:
        pieces[name] = spots.pop()
    if rng.random() < 0.5 or n_mummies == 0:
        # on the key now and then: the mummies that reach it there work the gate (rule 5b)
        on_key = key and key not in pieces.values() and rng.random() < 0.3
        pieces["scorpion"] = key if on_key else spots.pop()

    rules = "mummy-maze-classic-red" if rng.random() < 0.4 else "mummy-maze-classic"
    if on_exit:         # the explorer on the exit; an enemy there takes his cell
        for name, cell in pieces.items():
            if cell == exit_cell:
                pieces[name] = explorer
        pieces["explorer"] = exit_cell
    return board_text(f"random classic board {seed}{' (big)' if big else ''}", rules, (width, height), walls,
                      pieces, {"exit": [exit_cell], "trap": traps, "key": [key] if key else []}, gate)


def random_layout(rng: random.Random, width: int, height: int, density: tuple[float, float], gate_chance: float):
    """The cells of a board, its walls (interior edges: ("north", (x, y)) for y < height, ("east",
    (x, y)) for x < width) at a density drawn from ``density``, one open edge for a gate
    ``gate_chance`` of the time (else None), an exit cell on the border, a key cell where there
    is a gate (else None), and the other cells in random order."""
    cells = [(x, y) for x in range(1, width + 1) for y in range(1, height + 1)]
    edges = [("north", c) for c in cells if c[1] < height] + [("east", c) for c in cells if c[0] < width]
    drawn = rng.uniform(*density)
    walls = [e for e in edges if rng.random() < drawn]
    open_edges = [e for e in edges if e not in walls]
    gate = rng.choice(open_edges) if open_edges and rng.random() < gate_chance else None
    exit_cell = rng.choice([c for c in cells if c[0] in (1, width) or c[1] in (1, height)])
    free = [c for c in cells if c != exit_cell]
    rng.shuffle(free)
    key = free.pop() if gate else None
    return cells, walls, gate, exit_cell, key, free


def board_text(name: str, rules: str, size: tuple[int, int], walls, pieces: dict, marks: dict, gate) -> str:
    """A board file in the explicit form (marks without cells left out)."""
    lines = [
        f"name: {name}",
        f"rules: {rules}",
        f"size: [{size[0]}, {size[1]}]",
        "walls: {north: %s, east: %s}" % (_flow(c for s, c in walls if s == "north"),
                                          _flow(c for s, c in walls if s == "east")),
        "pieces: {" + ", ".join(f"{p}: [{c[0]}, {c[1]}]" for p, c in pieces.items()) + "}",
        "marks: {" + ", ".join(f"{m}: {_flow(cs)}" for m, cs in marks.items() if cs) + "}",
    ]
    if gate:
        lines.append(f"gates: {{{gate[0]}: {_flow([gate[1]])}}}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":   # python tests/classic_boards.py SEED [big] [on-exit]: print a board
    print(random_classic_board(int(sys.argv[1]) if len(sys.argv) > 1 else 0, big="big" in sys.argv[2:],
                               on_exit="on-exit" in sys.argv[2:]), end="")
