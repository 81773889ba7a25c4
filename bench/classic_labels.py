"""The difficulty labels of classic Mummy Maze levels (issue 37): how `gridsolve generate` would
label real published levels and random ones, with the metrics behind the labels.

* **published levels**: the original game's level files (``B-*.dat``, e.g. ``mazes/`` of a
  checkout of jonahshader/mummymaze-rl, read as its ``crates/mummymaze/src/parse.rs`` reads them).
  They are the publisher's data: give their folder as an argument; the levels are converted to
  gridsolve boards in a temporary folder, measured, and only figures are printed (no level is
  written anywhere else).
* **random levels**: the boards ``bench/classic.py`` verifies (tests/classic_boards.py,
  ``big=True``, the 8x8 and 10x10 ones, seeds from 0), those that can be won.

For each level: ``gridsolve solve``'s fewest moves (the graph's rank), and every difficulty
metric with the label (gridsolve/analysis/metrics.py: ``measure_metrics``, ``difficulty_of``).
Printed: the label distribution overall and by kind (size, enemies, traps, gate), and the
median metrics by label and by band of moves.

    python -m bench classic_labels MAZES_DIR [--every 10] [--random 1000] [--out bench/RESULTS-classic-labels.md]
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
from classic_boards import random_classic_board  # noqa: E402  (the tests' random classic boards)

from gridsolve.analysis.metrics import DEFAULT_LABELS, DIFFICULTY, measure_metrics  # noqa: E402
from gridsolve.errors import GridsolveError  # noqa: E402
from gridsolve.language.loader import load_board  # noqa: E402
from gridsolve.language.position import initial_position  # noqa: E402
from .cases import Case  # noqa: E402

CASE = Case("the difficulty labels of the original's levels and of random classic levels",
            'bench/RESULTS-classic-labels.md', 'MAZES --every 100 --random 10',
            "MAZES: the original game's B-*.dat files (mummymaze-rl's mazes/)")

# - The original's level files (a port of parse.rs: the engine's cells are (row, col), 0-based) ---

WALL_W, WALL_E, WALL_S, WALL_N = 1, 2, 4, 8


def _wall_bits(data: bytes, pos: int, n: int) -> tuple[int, int]:
    bits = data[pos]
    if n > 8:
        return bits | data[pos + 1] << 8, pos + 2
    return bits, pos + 1


def _entity(byte: int, n: int, flip: bool) -> tuple[int, int]:
    col, row = byte & 0x0F, byte >> 4 & 0x0F
    return (n - row - 1, col) if flip else (col, row)


def _exit(side: int, p: int, n: int, flip: bool) -> tuple[int, int]:
    if flip:
        return {0: (n - 1, p), 1: (n - p - 1, 0), 2: (n - 1 - p, n - 1), 3: (0, p)}[side]
    return {0: (p, 0), 1: (0, p), 2: (n - 1, p), 3: (p, n - 1)}[side]


# The two loops of wall bits, by flip: (outer, inner, n) -> (cell, its wall bit, its neighbour, the neighbour's)
_WALL_LOOPS = {
    False: (lambda o, i, n: ((i, o), WALL_N, (i - 1, o), WALL_S),            # N/S walls
            lambda o, i, n: ((i, o), WALL_W, (i, o - 1), WALL_E)),           # W/E walls
    True: (lambda o, i, n: ((n - o - 1, i), WALL_W, (n - o - 1, i - 1), WALL_E),
           lambda o, i, n: ((n - o - 1, i), WALL_S, (n - o, i), WALL_N)),
}


def read_levels(path: Path) -> list[dict]:
    """The sublevels of one ``.dat`` file: size, red, walls (a bitmask per engine cell) and pieces."""
    data = path.read_bytes()
    if len(data) < 6:
        return []
    n, flip = data[0] & 0x0F, bool(data[0] & 0xF0)
    subs, mummies, gates, traps, scorpion = data[1], data[2], data[3], data[4], data[5]
    wall_bytes = n * (2 if n > 8 else 1) * 2
    per_sub = wall_bytes + 3 + (mummies - 1) + 2 * gates + scorpion + traps
    levels = []
    for k in range(subs):
        pos = 6 + k * per_sub
        walls = {(r, c): 0 for r in range(n) for c in range(n)}
        for edges in _WALL_LOOPS[flip]:         # two loops of n columns (rows when flipped)
            for outer in range(n):
                bits, pos = _wall_bits(data, pos, n)
                for inner in range(n):
                    if bits >> inner & 1:
                        cell, bit, other, other_bit = edges(outer, inner, n)
                        walls[cell] |= bit
                        if other in walls:
                            walls[other] |= other_bit
        side, p = data[pos] & 0x0F, data[pos] >> 4 & 0x0F
        exit_cell = _exit(side, p, n, flip)
        pos += 1
        names = ["explorer", "mummy"] + (["mummy2"] if mummies >= 2 else []) + (["scorpion"] if scorpion else [])
        names += [f"trap{i}" for i in range(traps)] + (["gate", "key"] if gates else [])
        cells = {name: _entity(data[pos + i], n, flip) for i, name in enumerate(names)}
        levels.append({"n": n, "red": flip, "walls": walls, "exit": exit_cell, "cells": cells,
                       "name": f"{path.stem}-{k}"})
    return levels


def board_text(level: dict) -> str:
    """The level as a gridsolve board (docs/classic-mummy-maze.md's explicit form): gridsolve's x
    is the engine's row and y its column, so a white enemy's first (engine: row) step is
    gridsolve's horizontal one; the gate closes the engine's east edge of its cell."""
    n, walls, cells = level["n"], level["walls"], level["cells"]

    def xy(cell):
        return [cell[0] + 1, cell[1] + 1]
    east = [xy((r, c)) for r in range(n - 1) for c in range(n)
            if walls[(r, c)] & WALL_S or walls[(r + 1, c)] & WALL_N]
    north = [xy((r, c)) for r in range(n) for c in range(n - 1)
             if walls[(r, c)] & WALL_E or walls[(r, c + 1)] & WALL_W]
    pieces = {p: xy(cells[p]) for p in ("explorer", "mummy", "mummy2", "scorpion") if p in cells}
    marks = {"exit": [xy(level["exit"])]}
    traps = [xy(cells[t]) for t in sorted(cells) if t.startswith("trap")]
    if traps:
        marks["trap"] = traps
    lines = [f"rules: mummy-maze-classic{'-red' if level['red'] else ''}", f"size: [{n}, {n}]",
             f"walls: {{north: {north}, east: {east}}}", f"pieces: {pieces}".replace("'", "")]
    if "gate" in cells:
        marks["key"] = [xy(cells["key"])]
        gate = xy(cells["gate"])
        if gate not in north:
            lines.append(f"gates: {{north: [{gate}]}}")
    lines.append(f"marks: {marks}".replace("'", ""))
    return "\n".join(lines) + "\n"


def kind(board) -> str:
    """The level's kind: size, enemies, traps, gate, colour."""
    parts = [f"{board.width}x{board.height}"]
    mummies = sum(p in board.pieces for p in ("mummy", "mummy2"))
    parts.append(f"{mummies} mumm{'y' if mummies == 1 else 'ies'}")
    if "scorpion" in board.pieces:
        parts.append("scorpion")
    if board.marks.get("trap"):
        parts.append("trap")
    if board.has_gates:
        parts.append("gate")
    return ", ".join(parts)


# - Measuring ---

def measure(path: Path) -> dict | None:
    """The metrics and label of one board file (None: it cannot be won)."""
    board = load_board(path)
    start = initial_position(board)
    try:
        metrics = measure_metrics(board, "explorer", start)
    except GridsolveError:
        return None
    red = board.rules.name.endswith("-red")
    return {"kind": kind(board), "red": red, "label": metrics.difficulty, **metrics.as_dict(),
            "beeline_wins": metrics.beeline_wins,
            "default": dataclasses.replace(metrics, labels=DEFAULT_LABELS).difficulty}


def measure_all(paths: list[Path]) -> list[dict]:
    return [found for found in map(measure, paths) if found is not None]


# - Reporting ---

def _share(count: int, total: int) -> str:
    return f"{count} ({count / total:.0%})" if total else "0"


def distribution(rows: list[dict], by: str) -> list[str]:
    groups: dict = defaultdict(Counter)
    for row in rows:
        groups[row[by]][row["label"]] += 1
    out = [f"| {by} | levels | " + " | ".join(DIFFICULTY) + " |", "|---|---|" + "---|" * len(DIFFICULTY)]
    for key in sorted(groups, key=str):
        counts, total = groups[key], sum(groups[key].values())
        out.append(f"| {key} | {total} | " + " | ".join(_share(counts[d], total) for d in DIFFICULTY) + " |")
    return out


METRICS = ("plies", "hints", "forced_moves", "path_safety", "dead_ends", "random_win", "greedy_win",
           "lookahead_win", "optimal_lines")


def medians(rows: list[dict], by: str) -> list[str]:
    groups: dict = defaultdict(list)
    for row in rows:
        groups[row[by]].append(row)
    out = [f"| {by} | levels | " + " | ".join(METRICS) + " |", "|---|---|" + "---|" * len(METRICS)]
    order = DIFFICULTY if by == "label" else sorted(groups, key=str)
    for key in order:
        found = groups.get(key, [])
        if found:
            out.append(f"| {key} | {len(found)} | " + " | ".join(
                f"{statistics.median(r[m] for r in found):.3g}" for m in METRICS) + " |")
    return out


def band(moves: int) -> str:
    for low, high in ((0, 9), (10, 19), (20, 29), (30, 39)):
        if moves <= high:
            return f"{low:02d}-{high}"
    return "40+"


def section(title: str, rows: list[dict], note: str) -> list[str]:
    for row in rows:
        row["moves"] = band(row["plies"])
        row["colour"] = "red" if row["red"] else "white"
        row["all"] = "all"
    beeline = sum(1 for r in rows if r["beeline_wins"])
    default = Counter(r["default"] for r in rows)
    stuck = sum(1 for r in rows if r["greedy_win"] == 0 and r["lookahead_win"] == 0)
    return [f"## {title}", "", note, "", *distribution(rows, "all"), "",
            f"Walking the shortest way wins {_share(beeline, len(rows))} of them. By the default labels (the "
            f"careful greedy players' win probabilities, which these levels would get without the rule set's "
            f"`labels`): " + ", ".join(f"{d} {_share(default[d], len(rows))}" for d in DIFFICULTY) +
            f"; `greedy_win` and `lookahead_win` both 0: {_share(stuck, len(rows))}.", "",
            "By kind:", "", *distribution(rows, "kind"), "", "By colour:", "", *distribution(rows, "colour"), "",
            "By fewest moves:", "", *distribution(rows, "moves"), "",
            "Median metrics by label:", "", *medians(rows, "label"), "",
            "Median metrics by fewest moves:", "", *medians(rows, "moves"), ""]


def published(folder: Path, every: int, tmp: Path) -> tuple[list[dict], int]:
    paths, read = [], 0
    for dat in sorted(folder.glob("B-*.dat"), key=lambda p: int(p.stem.split("-")[1])):
        for level in read_levels(dat):
            if read % every == 0:
                path = tmp / f"{level['name']}.yaml"
                path.write_text(board_text(level), encoding="utf-8")
                paths.append(path)
            read += 1
    return measure_all(paths), len(paths)


def random_levels(count: int, tmp: Path) -> tuple[list[dict], int]:
    paths, seed = [], 0
    while len(paths) < count:
        text = random_classic_board(seed, big=True)
        seed += 1
        if "size: [8, 8]" in text or "size: [10, 10]" in text:      # the boards bench/classic.py verifies
            path = tmp / f"random-{seed}.yaml"
            path.write_text(text, encoding="utf-8")
            paths.append(path)
    return measure_all(paths), seed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("mazes", type=Path, help="folder of the original game's B-*.dat files (never committed)")
    parser.add_argument("--every", type=int, default=10, help="measure every k-th published level (default 10)")
    parser.add_argument("--random", type=int, default=1000, help="random boards to measure (default 1000)")
    parser.add_argument("--out", type=Path, help="also write the report here (figures only)")
    args = parser.parse_args()
    started = time.perf_counter()
    lines = ["# Classic Mummy Maze: difficulty labels", "",
             f"`python -m bench classic_labels MAZES --every {args.every} --random {args.random}`, "
             f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average {os.getloadavg()[0]:.1f}.", ""]
    with tempfile.TemporaryDirectory() as tmp:
        rows, read = published(args.mazes, args.every, Path(tmp))
        lines += section("Published levels", rows, f"Every {args.every}th level of the original game's files "
                         f"({read} read, {len(rows)} can be won and were measured).")
    with tempfile.TemporaryDirectory() as tmp:
        rows, seeds = random_levels(args.random, Path(tmp))
        lines += section("Random levels", rows, f"The 8x8 and 10x10 boards of tests/classic_boards.py (big, seeds "
                         f"0..{seeds - 1}; {args.random} boards, {len(rows)} can be won and were measured).")
    lines += [f"({time.perf_counter() - started:.0f} s in all.)", ""]
    text = "\n".join(lines)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
