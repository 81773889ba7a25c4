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

* ``--jobs 1,2``: each levels-per-minute run once per count of worker processes (``generate
  --jobs N``), in turn, ``--repeat`` times (the pairs are measured side by side in time, so a
  change of the machine's load shows in both); the load average is printed before and after.

* ``--base DIR`` (issue 45, item 4: generation against an older checkout, e.g. main at 7f7e9ea):
  instead, the same seeded request in each checkout in turn, ``--repeat`` rounds, each a whole
  ``gridsolve generate --like BOARD --count N --seed S --jobs 1`` process of that checkout
  (PYTHONPATH), its kernels built and its modules compiled to bytecode once, as installed: the
  wall and CPU seconds (user + system) of each, the CPU per level written, the ratio base / this
  checkout per round, and whether both wrote the same boards (the same seed writes the same boards
  within one checkout; across checkouts only where the search did not change).

    python -m bench classic_generation [--rate 120] [--longest 600] [--sizes 8x8,10x10] [--jobs 1] [--repeat 1]
    python -m bench classic_generation --base DIR [--sizes 10x10] [--count 3] [--seed 1] [--repeat 2]
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
from .cases import Case  # noqa: E402

CASE = Case('classic Mummy Maze generation: levels per minute, the longest solution a climb finds',
            None, '--rate 10 --longest 0 --sizes 8x8')

ROOT = Path(__file__).resolve().parent.parent
BOARDS = {"8x8": "boards/classic/everything-at-once.yaml", "10x10": "boards/classic/ten-by-ten.yaml"}


def gridsolve(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "gridsolve", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True)


def rate(size: str, seconds: int, out: Path, jobs: int = 1) -> str:
    folder = out / f"{size}-j{jobs}-{len(list(out.iterdir()))}"
    command = ["generate", "--like", BOARDS[size], "--count", "1000", "--timeout", str(seconds), "--jobs", str(jobs),
               "--out", str(folder)]
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


def seeded(checkout: Path, size: str, count: int, seed: int, out: Path) -> dict:
    """One seeded ``generate`` of ``checkout``: its seconds, the levels written and their texts."""
    from .classic import run      # (bench/classic.py: a whole timed process of a checkout)
    folder = out / f"{checkout.name}-{size}-{len(list(out.iterdir()))}"
    wall, cpu, done = run(checkout, "generate", "--like", str(ROOT / BOARDS[size]), "--count", str(count),
                          "--seed", str(seed), "--jobs", "1", "--timeout", "0", "--out", str(folder))
    levels = sorted(folder.glob("*-[0-9]*.yaml"))
    return {"wall": wall, "cpu": cpu, "rc": done.returncode, "levels": len(levels),
            "boards": [re.sub(r"(?m)^#.*\n", "", f.read_text()) for f in levels],
            "error": (done.stderr.strip().splitlines() or [""])[-1]}


def against_base(base: Path, sizes: list[str], count: int, seed: int, repeat: int):
    """The seeded request in ``base`` and in this checkout, in turn: a Markdown table and its
    verdicts, line by line as the runs end."""
    from .oldnew import prepare   # (bench/oldnew.py: kernels built, bytecode compiled once)
    sides = {"base": base.resolve(), "this": ROOT}
    yield from [f"load average at the start: {load()}", "",
                "| size | round | checkout | levels | wall s | CPU s | CPU s a level | base / this (CPU) |",
                "|---|---|---|---:|---:|---:|---:|---:|"]
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        prepare(sides, out / "pycache")
        (out / "runs").mkdir()
        for size in sizes:
            for round_ in range(1, repeat + 1):
                got = {name: seeded(path, size, count, seed, out / "runs") for name, path in sides.items()}
                for name, res in got.items():
                    if res["rc"] != 0:
                        yield f"| {size} | {round_} | {name} | failed: exit {res['rc']}: {res['error']} | | | | |"
                        continue
                    ratio = got["base"]["cpu"] / got["this"]["cpu"] if name == "this" and got["this"]["cpu"] else None
                    yield (f"| {size} | {round_} | {name} | {res['levels']} | {res['wall']:.1f} | "
                           f"{res['cpu']:.1f} | {res['cpu'] / max(res['levels'], 1):.1f} | "
                           f"{'' if ratio is None else f'{ratio:.2f}x'} |")
                same = got["base"]["boards"] == got["this"]["boards"]
                yield f"| {size} | {round_} | boards | {'the same' if same else 'different'} | | | | |"
    yield from ["", f"load average at the end: {load()}"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rate", type=int, default=120, help="seconds of each levels-per-minute run")
    parser.add_argument("--longest", type=int, default=600, help="seconds of the longest-solution run (0: none)")
    parser.add_argument("--sizes", default=",".join(BOARDS), help="the levels-per-minute runs' sizes")
    parser.add_argument("--jobs", default="1", help="comma-separated worker counts (generate --jobs), run in turn")
    parser.add_argument("--repeat", type=int, default=1, help="rounds of the levels-per-minute runs")
    parser.add_argument("--base", type=Path, help="an older checkout: the seeded request in both, in turn")
    parser.add_argument("--count", type=int, default=3, help="with --base: the levels each run writes")
    parser.add_argument("--seed", type=int, default=1, help="with --base: the request's seed")
    options = parser.parse_args()
    if options.base is not None:
        if not (options.base / "gridsolve").is_dir():
            parser.error(f"--base {options.base}: not a checkout of gridsolve (no gridsolve/ folder)")
        for line in against_base(options.base, options.sizes.split(","), options.count, options.seed, options.repeat):
            print(line, flush=True)
        return
    print(f"load average at the start: {load()}")
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        print("| size | command (--out DIR) | levels | per minute | win_moves | verify |")
        print("|---|---|---|---|---|---|")
        for _ in range(options.repeat):
            for size in options.sizes.split(","):
                for jobs in (int(j) for j in options.jobs.split(",")):
                    print(rate(size, options.rate, out, jobs), flush=True)
        if options.longest:
            print()
            print(longest(options.longest, out), flush=True)
    print(f"load average at the end: {load()}")


def load() -> str:
    """The load average over 1, 5 and 15 minutes."""
    return ", ".join(f"{v:.1f}" for v in os.getloadavg())


if __name__ == "__main__":
    main()
