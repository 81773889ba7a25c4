"""Classic Mummy Maze against the fastest public port of the original game (issue 45), side by side:
the Rust port of jonahshader/mummymaze-rl (its ``mummymaze-cli``) and gridsolve on the same levels,
the two tools taking turns run by run so that the ratios hold on a busy machine.

Neither the port nor the levels are part of gridsolve: give the port's binary (``--port-bin`` or
``$GRIDSOLVE_PORT_BIN``: a ``mummymaze-cli`` built from a local checkout, whose batch mode with
``--bfs-only`` runs its unchanged ``solver::solve`` over every level and prints ``file,sublevel,
bfs_moves``) and the folder of the original game's ``B-*.dat`` files (``--levels`` or
``$GRIDSOLVE_CLASSIC_LEVELS``, e.g. ``mazes/`` of that checkout). ``bash bench/build_port.sh CHECKOUT
BUILD_DIR`` builds that binary from a copy of the checkout, offline, with Debian's Rust crates (its
header says what it changes, none of it the solver, and what it needs; where cargo or a crate is
missing it says which and stops). The levels are converted to
gridsolve boards in a temporary folder (bench/classic_labels.py's reader, a port of the port's
``parse.rs``); only figures are written.

1. **every level's fastest escape**: the port's BFS batch on ``--jobs`` threads against
   ``gridsolve verify --jobs N`` of the levels with ``win`` and ``win_moves`` expectations written
   from the port's answers, so verify passing every check is the proof that both agree.
2. **the random walker's win probability**: the port's full analysis (its ``win_prob``, by
   Gauss-Seidel) against ``verify`` of a ``random_win`` expectation on ``--metric-files`` files
   spread over the list (so over the sizes); the values gridsolve writes (``verify --update``, untimed) are compared with the
   port's to the digits both print.
3. **one 10x10 level, whole process**: the port's ``--file ... --bfs-only`` against ``gridsolve
   solve LEVEL --json``, with the floor in the same run: ``python -c pass``, and the imports of
   each library the solve still imports (read from ``python -X importtime`` of one solve).

``--base DIR``: a checkout of an older gridsolve measured in turn too.  Each checkout's kernels are
built in place and its modules compiled to bytecode once, in a temporary ``PYTHONPYCACHEPREFIX``
(bench/oldnew.py's ``prepare``), as an installed package has them: where ``PYTHONDONTWRITEBYTECODE``
is set, every start would otherwise compile them again.

    python -m bench classic_port --port-bin BIN --levels MAZES [--jobs 2] [--repeat 3] [--solves 20]
                                 [--metric-files 5] [--base DIR] [--out bench/RESULTS-classic.md]
"""
from __future__ import annotations

import argparse
import csv
from decimal import Decimal
import io
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
from .classic import _timed, run  # noqa: E402  (a timed whole process, its workers' CPU included)
from .classic_labels import board_text, read_levels  # noqa: E402  (the original's level files)
from .oldnew import prepare  # noqa: E402  (kernels built, modules compiled to bytecode once, as installed)
from .cases import Case  # noqa: E402

CASE = Case('gridsolve against the Rust port of the original game on its 10,000 levels',
            'bench/RESULTS-classic.md', '--one-level --levels MAZES --solves 1',
            "MAZES (the B-*.dat files); the port's mummymaze-cli for the full run (bench/build_port.sh)")

PORT_ENV, LEVELS_ENV = "GRIDSOLVE_PORT_BIN", "GRIDSOLVE_CLASSIC_LEVELS"


# - The levels: the original's files as gridsolve boards ---

def dat_files(folder: Path) -> list[Path]:
    """The level files in the port's order (``B-0.dat``, ``B-1.dat``, ...)."""
    return sorted(folder.glob("B-*.dat"), key=lambda p: int(p.stem.split("-")[1]))


def write_boards(files: list[Path], folder: Path, expect) -> dict[str, dict]:
    """Every sublevel of ``files`` as ``folder/B-F-K.yaml`` with the expect block ``expect(name)``
    (None: none): the levels by name."""
    levels = {}
    for dat in files:
        for level in read_levels(dat):
            block = expect(level["name"])
            (folder / f"{level['name']}.yaml").write_text(board_text(level) + (block or ""), encoding="utf-8")
            levels[level["name"]] = level
    return levels


def port_rows(text: str) -> dict[str, dict]:
    """The port's CSV by level name (``B-F-K``)."""
    return {f"{row['file']}-{row['sublevel']}": row for row in csv.DictReader(io.StringIO(text))}


def escape_block(moves: str) -> str:
    """The expectation of a level from the port's ``bfs_moves`` (empty: it cannot be won)."""
    if moves:
        return f"expect:\n  - win: true\n    win_moves: {int(moves)}\n"
    return "expect:\n  - win: false\n    win_moves: null\n"


# - Timing ---

def _fail(what: str, done: subprocess.CompletedProcess) -> None:
    raise SystemExit(f"{what} failed (exit code {done.returncode}): {done.stdout[-800:]}{done.stderr[-800:]}")


def port(binary: Path, *args: str) -> tuple[float, float, subprocess.CompletedProcess]:
    wall, cpu, done = _timed([str(binary), *args], ROOT, dict(os.environ))
    if done.returncode != 0:
        _fail(f"the port ({' '.join(args[:3])} ...)", done)
    return wall, cpu, done


def gridsolve(checkout: Path, *args: str) -> tuple[float, float, subprocess.CompletedProcess]:
    wall, cpu, done = run(checkout, *args)
    if done.returncode != 0:
        _fail(f"gridsolve {args[0]} ({checkout})", done)
    return wall, cpu, done


def _med(values: list[float]) -> float:
    return statistics.median(values)


def table(title: str, rows: dict[str, list[tuple[float, float]]], against: str) -> list[str]:
    """Wall and CPU, min and median, of each tool, and each one's ratio to ``against`` pair by pair
    (wall and CPU: on a shared machine the CPU ratio is the steadier one)."""
    lines = [f"| {title} | wall min | wall median | CPU min | CPU median | ÷ {against}, wall (median of pairs) "
             f"| ÷ {against}, CPU (median of pairs) |",
             "|---|---|---|---|---|---|---|"]
    reference = rows[against]
    for name, times in rows.items():
        walls, cpus = [w for w, _ in times], [c for _, c in times]
        wall_ratio = _med([w / r for (w, _), (r, _) in zip(times, reference)]) if name != against else 1.0
        cpu_ratio = _med([c / r for (_, c), (_, r) in zip(times, reference)]) if name != against else 1.0
        lines.append(f"| {name} | {min(walls):.3f} s | {_med(walls):.3f} s | {min(cpus):.3f} s | {_med(cpus):.3f} s "
                     f"| {wall_ratio:.1f} | {cpu_ratio:.1f} |")
    return lines


# - 1. Every level's fastest escape ---

def escapes(binary: Path, mazes: Path, folder: Path, checkouts: dict[str, Path], jobs: int, repeat: int):
    """Both tools in turn ``repeat`` times: the table, the port's answers and the levels' count."""
    times: dict[str, list] = defaultdict(list)
    answers, summaries = None, {}
    for turn in range(repeat + 1):          # turn 0: the port's answers become the expectations (untimed)
        wall, cpu, done = port(binary, str(mazes), "--bfs-only", "--jobs", str(jobs))
        rows = {name: row["bfs_moves"] for name, row in port_rows(done.stdout).items()}
        if answers is None:
            answers = rows
            write_boards(dat_files(mazes), folder, lambda name: escape_block(answers[name]))
            continue
        if rows != answers:
            raise SystemExit("the port's answers differ between two runs")
        times["the port (BFS batch)"].append((wall, cpu))
        for name, checkout in checkouts.items():
            wall, cpu, done = gridsolve(checkout, "verify", str(folder), "--jobs", str(jobs))
            times[name].append((wall, cpu))
            summaries[name] = done.stdout.strip().splitlines()[-1]
    return times, answers, summaries


# - 2. The random walker's win probability ---

def agree(ours: str, theirs: str) -> bool:
    """Whether two printed numbers agree to the digits both print: the intervals their last digits
    stand for overlap (``0.0008265`` and ``0.000827`` do; rounding the first to six places would
    round twice)."""
    def interval(text: str) -> tuple[Decimal, Decimal]:
        value = Decimal(text)
        half = Decimal(1).scaleb(value.as_tuple().exponent) / 2
        return value - half, value + half
    (low, high), (low2, high2) = interval(ours), interval(theirs)
    return low <= high2 and low2 <= high


def random_walker(binary: Path, mazes: Path, scratch: Path, checkouts: dict[str, Path], jobs: int,
                  files: int, repeat: int) -> list[str]:
    """The port's full analysis and ``verify`` of ``random_win`` on ``files`` files spread over the list."""
    every = [p for p in dat_files(mazes) if p.stat().st_size]
    chosen = every[::max(1, len(every) // files)][:files]     # spread over the sizes
    subset, folder = scratch / "metric-dat", scratch / "metric-levels"
    subset.mkdir()
    folder.mkdir()
    for path in chosen:
        shutil.copy(path, subset / path.name)
    _, _, done = port(binary, str(subset), "--jobs", str(jobs))
    rows = port_rows(done.stdout)
    winnable = [name for name, row in rows.items() if row["bfs_moves"]]
    write_boards(chosen, folder, lambda name: "expect:\n  - random_win: 0\n" if rows[name]["bfs_moves"] else None)
    for name in rows:
        if not rows[name]["bfs_moves"]:
            (folder / f"{name}.yaml").unlink()
    started = time.perf_counter()
    gridsolve(ROOT, "verify", str(folder), "--update", "--jobs", str(jobs))
    written = time.perf_counter() - started
    equal, differ = 0, []
    for name in winnable:
        ours = re.search(r"random_win: ([0-9.e+-]+)", (folder / f"{name}.yaml").read_text(encoding="utf-8")).group(1)
        theirs = rows[name]["win_prob"]
        if agree(ours, theirs):
            equal += 1
        else:
            differ.append(f"{name} (gridsolve {ours}, port {theirs})")
    times: dict[str, list] = defaultdict(list)
    for _ in range(repeat):
        wall, cpu, _ = port(binary, str(subset), "--jobs", str(jobs))
        times["the port (full analysis)"].append((wall, cpu))
        for name, checkout in checkouts.items():
            wall, cpu, _ = gridsolve(checkout, "verify", str(folder), "--jobs", str(jobs))
            times[name].append((wall, cpu))
    return [f"{len(chosen)} level files ({', '.join(p.stem for p in chosen)}; ({len(rows)} levels, {len(winnable)} winnable; `random_win` "
            f"is checked on the winnable ones). The values gridsolve wrote (`verify --update`, {written:.0f} s, "
            f"untimed) equal the port's `win_prob` to the digits both print on {equal} of {len(winnable)}"
            + (f"; they differ on {', '.join(differ[:10])}" if differ else "") + ".", "",
            *table(f"{len(winnable)} levels", times, "the port (full analysis)")]


# - 3. One 10x10 level ---

def import_shares(level: Path) -> list[str]:
    """What one ``gridsolve solve`` spends importing, by top-level package (``-X importtime``)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "gridsolve", "solve", str(level), "--json"],
                          capture_output=True, text=True, env=env, cwd=ROOT)
    own: dict[str, int] = defaultdict(int)
    for line in done.stderr.splitlines():
        found = re.match(r"import time:\s+(\d+) \|\s+\d+ \|\s*(\S+)", line)
        if found:
            own[found.group(2).split(".")[0]] += int(found.group(1))
    top = sorted(own.items(), key=lambda kv: -kv[1])
    shown = [f"{name} {us / 1000:.1f} ms" for name, us in top[:8]]
    rest = sum(us for _, us in top[8:])
    return [f"Imports of one solve (`-X importtime`, own time by package): {', '.join(shown)}, "
            f"the other {len(top) - 8} packages {rest / 1000:.1f} ms; in all {sum(own.values()) / 1000:.1f} ms."]


FLOOR = {"floor: python -c pass": "pass", "python -c 'import yaml'": "import yaml",
         "python -c 'import click'": "import click", "python -c 'import clingo'": "import clingo",
         "python -c 'import numpy'": "import numpy",
         "python -c 'import numpy, clingo, yaml, click'": "import numpy, clingo, yaml, click"}
"""The floor of one level's process: Python's start, and the libraries a classic solve still imports."""


def untimed(answer: dict) -> dict:
    """An answer without its timings (the stats' ``*_s`` fields): what must be equal run by run."""
    return {**answer, "stats": {k: v for k, v in answer["stats"].items() if not k.endswith("_s")}}


def one_level(binary: Path | None, mazes: Path, levels: dict[str, dict], folder: Path, checkouts: dict[str, Path],
              repeat: int) -> list[str]:
    """The port (where ``binary`` is given), each checkout's ``solve LEVEL --json`` and the floor
    (:data:`FLOOR`) in turn ``repeat`` times, on the first level of the largest size; the
    checkouts' order reversed every other round (ABBA), as the second run of a pair was measured
    4-8% faster here."""
    side = max(level["n"] for level in levels.values())        # 10 in the original's files
    name = next(name for name, level in levels.items() if level["n"] == side)
    stem, sub = name.rsplit("-", 1)
    level = folder / f"{name}.yaml"
    times: dict[str, list] = defaultdict(list)
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    answers = set()
    for turn in range(repeat):
        if binary is not None:
            wall, cpu, _ = port(binary, str(mazes), "--file", f"{stem}.dat", "--sublevel", sub, "--bfs-only")
            times["the port (--file --bfs-only)"].append((wall, cpu))
        for label, checkout in list(checkouts.items())[::-1 if turn % 2 else 1]:
            wall, cpu, done = gridsolve(checkout, "solve", str(level), "--json")
            times[label].append((wall, cpu))
            answers.add(json.dumps(untimed(json.loads(done.stdout)), sort_keys=True))
        for label, code in FLOOR.items():
            wall, cpu, _ = _timed([sys.executable, "-c", code], ROOT, env)
            times[label].append((wall, cpu))
    against = "the port (--file --bfs-only)" if binary is not None else "floor: python -c pass"
    return [f"Level {name} ({side}x{side}), {repeat} runs of each in turn"
            + ("" if binary is not None else " (the port not given: gridsolve and the floor alone)")
            + f"; {'the same answer' if len(answers) == 1 else 'DIFFERENT answers'} from every checkout.", "",
            *table("one level, whole process", times, against), "",
            *import_shares(level)]


def one_level_only(args, checkouts: dict[str, Path]) -> list[str]:
    """``--one-level``: target 3 alone, from the level files (``--levels``), the port where given."""
    mazes = args.levels.resolve()
    with tempfile.TemporaryDirectory() as tmp:
        prepare(checkouts, Path(tmp) / "pycache")
        folder = Path(tmp) / "levels"
        folder.mkdir()
        levels = dict(sorted(write_boards(dat_files(mazes), folder, lambda name: None).items()))  # (as main reads them)
        return ["## 3. One 10x10 level", "",
                *one_level(args.port_bin.resolve() if args.port_bin else None, mazes, levels, folder, checkouts,
                           args.solves), ""]


# - The report ---

def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port-bin", type=Path, default=os.environ.get(PORT_ENV),
                        help=f"the port's mummymaze-cli (default ${PORT_ENV})")
    parser.add_argument("--levels", type=Path, default=os.environ.get(LEVELS_ENV),
                        help=f"the folder of the original's B-*.dat files (default ${LEVELS_ENV})")
    parser.add_argument("--jobs", type=int, default=2, help="threads of the port, workers of verify (default 2)")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs of each tool in turn (default 3)")
    parser.add_argument("--solves", type=int, default=20, help="single-level runs of each tool in turn (default 20)")
    parser.add_argument("--metric-files", type=int, default=5,
                        help="level files whose random walker is measured (default 5; 0: skip)")
    parser.add_argument("--base", type=Path, help="a checkout of an older gridsolve, measured in turn too")
    parser.add_argument("--out", type=Path, default=HERE / "RESULTS-classic.md")
    parser.add_argument("--one-level", action="store_true",
                        help="target 3 alone (the port optional), printed and not written to --out")
    args = parser.parse_args()
    checkouts = {"gridsolve": ROOT} | ({f"gridsolve base ({args.base.name})": args.base.resolve()} if args.base else {})
    if args.one_level:
        if args.levels is None or not dat_files(Path(args.levels)):
            raise SystemExit("--one-level needs the original's B-*.dat files (--levels or $" + LEVELS_ENV + ")")
        load = os.getloadavg()
        print(f"`python -m bench classic_port --one-level --solves {args.solves}"
              f"{' --base ' + args.base.name if args.base else ''}`, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}"
              f", on {os.cpu_count()} cores; load average {load[0]:.1f} (1 min) at the start.\n")
        print("\n".join(one_level_only(args, checkouts)))
        load = os.getloadavg()
        print(f"Load average at the end: {load[0]:.1f} (1 min), {load[1]:.1f} (5 min).")
        return
    missing = [f"{what} (give {flag} or set ${env})" for what, value, flag, env in (
        ("the port's binary", args.port_bin, "--port-bin", PORT_ENV),
        ("the original's level files", args.levels, "--levels", LEVELS_ENV))
        if value is None or not Path(value).exists()]
    if args.levels and Path(args.levels).is_dir() and not dat_files(Path(args.levels)):
        missing.append(f"B-*.dat files in {args.levels}")
    if missing:
        raise SystemExit("bench/classic_port.py needs " + "; ".join(missing) + ". The port is built from a local "
                         "checkout of jonahshader/mummymaze-rl by `bash bench/build_port.sh CHECKOUT BUILD_DIR` "
                         "(cargo and Debian's Rust crates; it says what is missing); neither it nor the levels "
                         "are part of gridsolve.")
    binary, mazes = args.port_bin.resolve(), args.levels.resolve()
    load = os.getloadavg()
    lines = ["# Classic Mummy Maze: gridsolve and the Rust port, side by side", "",
             f"`python -m bench classic_port --port-bin BIN --levels MAZES --jobs {args.jobs} --repeat {args.repeat} "
             f"--solves {args.solves} --metric-files {args.metric_files}{' --base ' + args.base.name if args.base else ''}`"
             f", {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, on {os.cpu_count()} cores; load average "
             f"{load[0]:.1f} (1 min) at the start.", ""]
    with tempfile.TemporaryDirectory() as tmp:
        prepare(checkouts, Path(tmp) / "pycache")
        folder = Path(tmp) / "levels"
        folder.mkdir()
        times, answers, summaries = escapes(binary, mazes, folder, checkouts, args.jobs, args.repeat)
        levels = {p.stem: {"n": int(re.search(r"size: \[(\d+)", p.read_text()).group(1))}
                  for p in sorted(folder.glob("*.yaml"))}
        unwinnable = sum(1 for moves in answers.values() if not moves)
        lines += ["## 1. Every level's fastest escape", "",
                  f"{len(answers)} levels ({unwinnable} cannot be won), expectations written from the port's answers "
                  f"(`win`, `win_moves`).", "", *table(f"{args.jobs} threads / jobs", times, "the port (BFS batch)"), "",
                  *(f"- {name}: {text}" for name, text in summaries.items()), ""]
        lines += ["## 3. One 10x10 level", "", *one_level(binary, mazes, levels, folder, checkouts, args.solves), ""]
        if args.metric_files:
            lines += ["## 2. The random walker's win probability", "",
                      *random_walker(binary, mazes, Path(tmp), checkouts, args.jobs, args.metric_files, args.repeat), ""]
    load = os.getloadavg()
    lines += [f"Load average at the end: {load[0]:.1f} (1 min), {load[1]:.1f} (5 min).", ""]
    text = "\n".join(lines)
    args.out.write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
