"""Classic Mummy Maze generation (issue 31, item 6): levels per minute with the rule set's good
level (the defaults), and the longest solution a 10x10 climb finds.

* **levels per minute**: ``gridsolve generate --like BOARD --count 1000 --timeout SECONDS`` (8x8:
  boards/classic/everything-at-once.yaml, 10x10: boards/classic/ten-by-ten.yaml: two mummies, a
  scorpion, a gate and its key, a trap), whole processes; the levels written are then checked by
  ``gridsolve verify``.
* **longest**: ``gridsolve generate --like boards/classic/ten-by-ten.yaml --plies 70.. --count 1000
  --timeout SECONDS`` (the longest original level needs 69 moves): every level written is won in
  70 moves or more and meets every other criterion, measured by the exact solver; the longest of
  them is reported (and verified).

    python bench/classic_generation.py [--rate 120] [--longest 600]
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BOARDS = {"8x8": "boards/classic/everything-at-once.yaml", "10x10": "boards/classic/ten-by-ten.yaml"}


def gridsolve(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "gridsolve", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True)


def rate(size: str, seconds: int, out: Path) -> str:
    folder = out / size
    command = ["generate", "--like", BOARDS[size], "--count", "1000", "--timeout", str(seconds), "--out", str(folder)]
    started = time.perf_counter()
    gridsolve(*command)
    took = time.perf_counter() - started
    levels = sorted(folder.glob("*-[0-9]*.yaml"))
    verified = gridsolve("verify", str(folder)) if levels else None
    moves = [int(m) for f in levels for m in re.findall(r"win_moves: (\d+)", f.read_text())]
    return (f"| {size} | `gridsolve {' '.join(command[:-2])}` | {len(levels)} | {len(levels) * 60 / took:.1f} | "
            f"{min(moves, default=0)}-{max(moves, default=0)} | "
            f"{'pass' if verified is not None and verified.returncode == 0 else 'FAIL'} |")


def longest(seconds: int, out: Path) -> str:
    folder = out / "longest"
    command = ["generate", "--like", BOARDS["10x10"], "--plies", "70..", "--count", "1000", "--timeout", str(seconds),
               "--out", str(folder)]
    gridsolve(*command)
    levels = sorted(folder.glob("*-[0-9]*.yaml"))
    moves = {int(m): f for f in levels for m in re.findall(r"win_moves: (\d+)", f.read_text())}
    verified = gridsolve("verify", str(folder)) if levels else None
    best = max(moves, default=None)
    return (f"`gridsolve {' '.join(command[:-2])}`: {len(levels)} levels of 70 moves or more, the longest "
            f"{best} moves (verify: {'pass' if verified is not None and verified.returncode == 0 else 'FAIL'})"
            + (f"\n\n{moves[best].read_text()}" if best else ""))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rate", type=int, default=120, help="seconds of each levels-per-minute run")
    parser.add_argument("--longest", type=int, default=600, help="seconds of the longest-solution run")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        print("| size | command (--out DIR) | levels | per minute | win_moves | verify |")
        print("|---|---|---|---|---|---|")
        for size in BOARDS:
            print(rate(size, options.rate, out), flush=True)
        print()
        print(longest(options.longest, out), flush=True)


if __name__ == "__main__":
    main()
