"""Classic Mummy Maze speed (issue 31, item 5): one 10x10 level solved as a whole process, and
``gridsolve verify --jobs 2`` of 1,000 classic 8x8 and 10x10 levels.

* **one level**: ``gridsolve solve boards/classic/ten-by-ten.yaml --json`` (10x10, two mummies,
  a scorpion, a gate and a trap; target < 0.3 s) in a fresh process, in turn with the 2007 seed
  board (``boards/mummymaze2p-2007.yaml``, the same whole-process path), so that the ratio of the
  two is measured in one run on a noisy machine: min and median of ``--repeat`` pairs.
* **level packs**: random classic boards of tests/classic_boards.py (``big=True``) whose size is
  8x8 or 10x10, both rule sets, each with one ``win`` and one ``win_moves`` expectation (their
  values written by ``gridsolve verify --update`` first, untimed); then ``gridsolve verify DIR
  --jobs 2`` as a whole process (target < 15 s for 1,000).

    python bench/classic.py [--count 1000] [--repeat 5] [--out bench/RESULTS-classic.md]
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "tests"))
from classic_boards import random_classic_board  # noqa: E402  (the tests' random classic boards)

LEVEL = ROOT / "boards" / "classic" / "ten-by-ten.yaml"
SEED = ROOT / "boards" / "mummymaze2p-2007.yaml"
EXPECT = "expect:\n  - win: true\n    win_moves: 0\n"


def gridsolve(*args: str, check: bool = True) -> tuple[float, subprocess.CompletedProcess]:
    """Wall-clock seconds of ``python -m gridsolve ARGS`` in a fresh process, and its result (its CPU
    seconds, user + system of it and its children, in ``result.cpu``)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "gridsolve", *args], capture_output=True, text=True, env=env)
    seconds = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    done.cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if check and done.returncode != 0:
        raise SystemExit(f"gridsolve {' '.join(args)} failed ({done.returncode}): {done.stderr[-400:]}")
    return seconds, done


def one_level(repeat: int) -> list[str]:
    level, seed, level_cpu, seed_cpu = [], [], [], []
    for _ in range(repeat):
        for times, cpus, board in ((level, level_cpu, LEVEL), (seed, seed_cpu, SEED)):
            seconds, done = gridsolve("solve", str(board), "--json")
            times.append(seconds)
            cpus.append(done.cpu)
    ratios = [a / b for a, b in zip(level, seed)]
    return ["## One 10x10 level, whole process", "",
            f"`gridsolve solve boards/classic/ten-by-ten.yaml --json` (two mummies, a scorpion, a gate, a trap; "
            f"35 moves), in turn with the 2007 seed board, {repeat} pairs:", "",
            "| | min | median |", "|---|---|---|",
            f"| ten-by-ten, wall | {min(level):.3f} s | {statistics.median(level):.3f} s |",
            f"| ten-by-ten, CPU | {min(level_cpu):.3f} s | {statistics.median(level_cpu):.3f} s |",
            f"| 2007 seed, wall | {min(seed):.3f} s | {statistics.median(seed):.3f} s |",
            f"| 2007 seed, CPU | {min(seed_cpu):.3f} s | {statistics.median(seed_cpu):.3f} s |",
            f"| ratio of the walls (pairs) | {min(ratios):.2f} | {statistics.median(ratios):.2f} |", "",
            f"Target < 0.3 s: {'met' if min(level) < 0.3 else 'not met'} (min {min(level):.3f} s).", ""]


def level_pack(count: int, folder: Path) -> int:
    """Write ``count`` random classic 8x8 and 10x10 levels with their measured expectations."""
    seed, written = 0, 0
    while written < count:
        text = random_classic_board(seed, big=True)
        seed += 1
        if "size: [8, 8]" not in text and "size: [10, 10]" not in text:
            continue
        (folder / f"level-{written:04d}.yaml").write_text(text + EXPECT, encoding="utf-8")
        written += 1
    gridsolve("verify", str(folder), "--update", "--jobs", "2", check=False)
    return seed


def packs(count: int, repeat: int) -> list[str]:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        seeds = level_pack(count, folder)
        times = []
        for _ in range(repeat):
            seconds, done = gridsolve("verify", str(folder), "--jobs", "2", check=False)
            if done.returncode != 0:
                raise SystemExit(f"verify failed: {done.stdout[-600:]}{done.stderr[-400:]}")
            times.append(seconds)
        summary = done.stdout.strip().splitlines()[-1]
    return ["## verify --jobs 2 of a level pack", "",
            f"{count} random classic levels of 8x8 and 10x10 (tests/classic_boards.py, seeds 0..{seeds - 1}, "
            f"both rule sets), one `win` and one `win_moves` expectation each; whole process, {repeat} runs:", "",
            f"min {min(times):.2f} s, median {statistics.median(times):.2f} s ({summary}).", "",
            f"Target < 15 s: {'met' if min(times) < 15 else 'not met'}.", ""]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--out", default=str(HERE / "RESULTS-classic.md"))
    args = parser.parse_args()
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    load = os.getloadavg()[0]
    lines = ["# Classic Mummy Maze: speed", "", f"`python bench/classic.py --count {args.count} --repeat "
             f"{args.repeat}`, {when}, load average {load:.1f} at the start (2 cores).", ""]
    lines += one_level(args.repeat)
    lines += packs(args.count, max(1, args.repeat // 2))
    Path(args.out).write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
