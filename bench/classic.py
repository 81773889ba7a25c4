"""Classic Mummy Maze speed (issue 37): ``verify --jobs 2`` of many classic levels, one 10x10 level
solved as a whole process, and ``ask --levels`` over the same levels; each against a checkout of
an older gridsolve (``--base``) in the same run, in turn, so that the ratios hold on a busy machine.

* **levels**: ``--count`` classic levels that mirror the original game's mix (:func:`classic_level`:
  6x6, 8x8 and 10x10; one or two mummies; a scorpion in about one level in three; traps, a gate
  and its key in some; white and red mummies), drawn from a fixed seed and kept where the explorer
  can win (every level of the original can be won; ``--all`` keeps the others too), each with a
  ``win`` and a ``win_moves`` expectation written by ``gridsolve verify --update`` (untimed).
* **verify**: ``gridsolve verify DIR --jobs 2`` as a whole process, this checkout and the base in
  turn (``--repeat`` pairs): wall seconds, and CPU seconds of the process and its workers.  The
  base passing every expectation this checkout wrote is the check that both answer alike.
* **one level**: ``gridsolve solve boards/classic/ten-by-ten.yaml --json`` in a fresh process,
  this checkout and the base in turn (``--solves`` pairs), and what importing numpy, clingo, yaml
  and click alone costs (the floor of any ``gridsolve`` command).
* **ask**: ``gridsolve ask --levels FILE`` with one line a level (its text, ``"query": "win"``,
  ``"line": false``), whole process; its answers are checked against the levels' expectations.

    python -m bench classic [--count 10000] [--base /work/base-1639722] [--repeat 1] [--solves 10]
                            [--levels DIR] [--out bench/RESULTS-classic.md]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from .cases import Case  # noqa: E402

CASE = Case('classic Mummy Maze at scale: verify of many levels, one 10x10 solve, ask --levels, against --base',
            'bench/RESULTS-classic-random.md', '--count 20 --solves 1 --out /tmp/classic.md')

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
LEVEL = Path("boards") / "classic" / "ten-by-ten.yaml"
EXPECT = "expect:\n  - win: true\n    win_moves: 0\n"
BATCH = 2000            # candidate levels written and measured at once


def _cells(cells) -> str:
    return "[" + ", ".join(f"[{x}, {y}]" for x, y in sorted(cells)) + "]"


def classic_level(seed: int) -> str:
    """One classic level as board-file text (without its expect block), the same for a seed."""
    rng = random.Random(seed * 104729 + 7)
    side = rng.choice((6, 8, 10))
    cells = [(x, y) for x in range(1, side + 1) for y in range(1, side + 1)]
    edges = [("north", c) for c in cells if c[1] < side] + [("east", c) for c in cells if c[0] < side]
    density = rng.uniform(0.15, 0.35)
    walls = [e for e in edges if rng.random() < density]
    gate = rng.choice([e for e in edges if e not in walls]) if rng.random() < 0.3 else None
    exit_cell = rng.choice([c for c in cells if c[0] in (1, side) or c[1] in (1, side)])
    free = [c for c in cells if c != exit_cell]
    rng.shuffle(free)
    marks = {"exit": [exit_cell]}
    if gate:
        marks["key"] = [free.pop()]
    traps = [free.pop() for _ in range(rng.choice((0, 0, 0, 1, 2)))]
    if traps:
        marks["trap"] = traps
    pieces = {"explorer": free.pop()}
    for name in ("mummy", "mummy2")[:rng.choice((1, 1, 2))]:
        pieces[name] = free.pop()
    if rng.random() < 0.35:
        pieces["scorpion"] = free.pop()
    rules = "mummy-maze-classic-red" if rng.random() < 0.4 else "mummy-maze-classic"
    lines = [f"name: classic bench level {seed}", f"rules: {rules}", f"size: [{side}, {side}]",
             "walls: {north: %s, east: %s}" % (_cells(c for s, c in walls if s == "north"),
                                               _cells(c for s, c in walls if s == "east")),
             "pieces: {" + ", ".join(f"{p}: [{x}, {y}]" for p, (x, y) in pieces.items()) + "}",
             "marks: {" + ", ".join(f"{m}: {_cells(cs)}" for m, cs in marks.items()) + "}"]
    if gate:
        lines.append(f"gates: {{{gate[0]}: {_cells([gate[1]])}}}")
    return "\n".join(lines) + "\n"


def run(checkout: Path, *args: str, stdin: str | None = None) -> tuple[float, float, subprocess.CompletedProcess]:
    """``python -m gridsolve ARGS`` of ``checkout`` in a fresh process (in the checkout's folder):
    its wall seconds, its CPU seconds (user + system, its workers included) and its result."""
    env = dict(os.environ, PYTHONPATH=str(checkout))
    return _timed([sys.executable, "-m", "gridsolve", *args], checkout, env, stdin)


def _timed(command: list[str], folder: Path, env: dict, stdin: str | None = None):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=folder, input=stdin)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), done


def write_levels(count: int, folder: Path, keep_all: bool, candidates: int = BATCH) -> tuple[int, int]:
    """``count`` levels in ``folder`` with their measured expectations, ``candidates`` drawn and
    measured at once: (seeds drawn, levels kept)."""
    seed = kept = 0
    while kept < count:
        batch = folder / f"batch-{seed}"
        batch.mkdir()
        for _ in range(candidates):
            (batch / f"level-{seed:06d}.yaml").write_text(classic_level(seed) + EXPECT, encoding="utf-8")
            seed += 1
        run(ROOT, "verify", str(batch), "--update", "--jobs", "2")
        for path in sorted(batch.glob("*.yaml")):
            text = path.read_text(encoding="utf-8")
            if kept < count and (keep_all or "win: true" in text):
                path.rename(folder / path.name)
                kept += 1
            else:
                path.unlink()
        batch.rmdir()
    return seed, kept


def _row(label: str, walls: list[float], cpus: list[float]) -> str:
    return (f"| {label} | {min(walls):.3f} s | {statistics.median(walls):.3f} s | {min(cpus):.3f} s | "
            f"{statistics.median(cpus):.3f} s |")


def _ratios(what: str, new: list[float], old: list[float]) -> str:
    ratios = [b / a for a, b in zip(new, old)]
    return f"{what} min {min(ratios):.2f}, median {statistics.median(ratios):.2f}"


HEADER = "| {} | wall min | wall median | CPU min | CPU median |\n|---|---|---|---|---|"


def verify_pairs(folder: Path, base: Path | None, repeat: int) -> list[str]:
    times: dict[str, list[tuple[float, float]]] = {"new": [], "base": []}
    summary = {}
    for _ in range(repeat):
        for name, checkout in (("new", ROOT), ("base", base)):
            if checkout is None:
                continue
            wall, cpu, done = run(checkout, "verify", str(folder), "--jobs", "2")
            if done.returncode != 0:
                raise SystemExit(f"verify ({name}) failed: {done.stdout[-800:]}{done.stderr[-400:]}")
            times[name].append((wall, cpu))
            summary[name] = done.stdout.strip().splitlines()[-1]
    lines = [HEADER.format("verify --jobs 2")]
    for name in ("new", "base"):
        if times[name]:
            lines.append(_row(name, [w for w, _ in times[name]], [c for _, c in times[name]]))
    if times["base"]:
        lines += ["", "base / new, pair by pair: " + _ratios("wall", *[[w for w, _ in times[k]] for k in ("new", "base")])
                  + "; " + _ratios("CPU", *[[c for _, c in times[k]] for k in ("new", "base")]) + "."]
    return lines + ["", *(f"- {name}: {text}" for name, text in summary.items())]


def solve_pairs(base: Path | None, repeat: int) -> list[str]:
    times: dict[str, list[tuple[float, float]]] = {"new": [], "base": [], "floor": []}
    floor_env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    for _ in range(repeat):
        for name, checkout in (("new", ROOT), ("base", base)):
            if checkout is not None:
                wall, cpu, done = run(checkout, "solve", str(LEVEL), "--json")
                if done.returncode != 0:
                    raise SystemExit(f"solve ({name}) failed: {done.stderr[-400:]}")
                times[name].append((wall, cpu))
        wall, cpu, _ = _timed([sys.executable, "-c", "import numpy, clingo, yaml, click"], ROOT, floor_env)
        times["floor"].append((wall, cpu))
    lines = [HEADER.format("solve ten-by-ten --json")]
    for name, label in (("new", "new"), ("base", "base"), ("floor", "import numpy, clingo, yaml, click only")):
        if times[name]:
            lines.append(_row(label, [w for w, _ in times[name]], [c for _, c in times[name]]))
    if times["base"]:
        lines += ["", "base / new, pair by pair: " + _ratios("wall", *[[w for w, _ in times[k]] for k in ("new", "base")])
                  + "; " + _ratios("CPU", *[[c for _, c in times[k]] for k in ("new", "base")]) + "."]
    return lines


def ask_levels(folder: Path, scratch: Path) -> list[str]:
    """``ask --levels`` over the levels; its answers checked against their expectations."""
    paths = sorted(folder.glob("*.yaml"))
    texts = [p.read_text(encoding="utf-8") for p in paths]
    lines = [json.dumps({"board": text.split("expect:")[0], "query": "win", "line": False}) for text in texts]
    questions = scratch / "levels.jsonl"
    questions.write_text("\n".join(lines) + "\n", encoding="utf-8")
    wall, cpu, done = run(ROOT, "ask", "--levels", str(questions))
    if done.returncode != 0:
        raise SystemExit(f"ask --levels failed: {done.stderr[-400:]}")
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    wrong = 0
    for text, reply in zip(texts, replies):
        expect = text.split("expect:")[1]
        win = "win: true" in expect
        moves = expect.split("win_moves: ")[1].split()[0]
        wrong += reply["win"] != win or str(reply["win_moves"]).replace("None", "null") != moves
    return [f"`gridsolve ask --levels` (one process) over the same {len(paths)} levels, one line each "
            f"(`\"query\": \"win\", \"line\": false`): wall {wall:.2f} s, CPU {cpu:.2f} s "
            f"({1000 * cpu / len(paths):.1f} ms of CPU a level); {len(replies)} answers, "
            f"{wrong} differing from the levels' expectations."]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=10000, help="how many levels (default 10,000)")
    parser.add_argument("--base", type=Path, help="a checkout of the gridsolve to compare with (e.g. main at 1639722)")
    parser.add_argument("--repeat", type=int, default=1, help="verify runs of each checkout, in turn")
    parser.add_argument("--solves", type=int, default=10, help="single-level solves of each checkout, in turn")
    parser.add_argument("--all", action="store_true", help="keep the levels the explorer cannot win too")
    parser.add_argument("--levels", type=Path, help="keep the levels in this folder, and use those it holds "
                        "(written by an earlier run with the same --count and --all)")
    parser.add_argument("--out", default=str(HERE / "RESULTS-classic-random.md"))
    args = parser.parse_args()
    base = args.base.resolve() if args.base else None
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    load = os.getloadavg()
    lines = ["# Classic Mummy Maze: speed", "",
             f"`python -m bench classic --count {args.count}{' --base ' + str(args.base) if base else ''} "
             f"--repeat {args.repeat} --solves {args.solves}`, {when}, on {os.cpu_count()} cores; load average "
             f"{load[0]:.1f} (1 min) at the start.", ""]
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.levels.resolve() if args.levels else Path(tmp) / "levels"
        folder.mkdir(parents=True, exist_ok=True)
        started = time.perf_counter()
        found = sorted(folder.glob("level-*.yaml"))
        if len(found) == args.count:
            seeds, kept = int(found[-1].stem.split("-")[1]) + 1, len(found)
        else:
            for path in found:
                path.unlink()
            seeds, kept = write_levels(args.count, folder, args.all)
        sizes = {side: sum(f"size: [{side}, {side}]" in p.read_text() for p in folder.glob("*.yaml"))
                 for side in (6, 8, 10)}
        lines += ["## Levels", "",
                  f"{kept} levels of bench/classic.py's `classic_level` (seeds 0..{seeds - 1}, "
                  f"{'all' if args.all else 'those the explorer can win'}): 6x6 {sizes[6]}, 8x8 {sizes[8]}, "
                  f"10x10 {sizes[10]}; written and measured in {time.perf_counter() - started:.0f} s (untimed below).",
                  "", "## verify --jobs 2, whole process", ""]
        lines += verify_pairs(folder, base, args.repeat)
        lines += ["", "## One 10x10 level, whole process", ""]
        lines += solve_pairs(base, args.solves)
        lines += ["", "## ask --levels", ""]
        lines += ask_levels(folder, Path(tmp))
    load = os.getloadavg()
    lines += ["", f"Load average at the end: {load[0]:.1f} (1 min), {load[1]:.1f} (5 min), {load[2]:.1f} (15 min).", ""]
    Path(args.out).write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
