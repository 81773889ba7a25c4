"""Where a classic level's time goes inside ``gridsolve verify`` (issue 45 item 1): CPU seconds of
each phase of the per-level path, in this process, then the same boards on forked workers.

The phases are gridsolve's own functions, each wrapped by a timer of this process's CPU
(``time.process_time``) for the run: reading the YAML, building the board and its rules, the
expectations, the engine (the position codec, the limits, the per-cell tables from the shared
circuit of the board's kind and their decoding, the C search of the positions, the ranks) and the
answer.  A phase's figure includes the phases under it (the indented lines); a kind's circuit is
built once for all its boards and is shown on its own line, apart from the per-level figures.
Then ``verify_paths(..., jobs=N)`` of the same boards: its workers' CPU (``RUSAGE_CHILDREN``)
against this process's per-level figure is the worker's round trip (the fork, the batches sent
and the results pickled back) and this process's own part (the parent's).

The boards: a folder of board files with expectations (``FOLDER``), or ``--levels MAZES
--files N``: N of the original's ``B-*.dat`` files spread over the list, converted as
bench/classic_port.py does, with ``win`` and ``win_moves`` expectations written by ``verify
--update`` first (untimed).  Every check must pass, else the figures are not printed.

    python -m bench classic_phases (FOLDER | --levels MAZES [--files 10]) [--jobs 2]
"""
from __future__ import annotations

import argparse
import functools
import importlib
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from .cases import Case  # noqa: E402

CASE = Case("where a classic level's CPU goes inside verify, phase by phase",
            None, '--levels MAZES --files 1',
            "MAZES: the original game's B-*.dat files")

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

PHASES = [  # (module, function or Class.method, label, depth): the per-level path, outermost first
    ("gridsolve.verify.verify", "_plan", "the board file read and checked", 0),
    ("gridsolve.verify.verify", "load_file", "the YAML", 1),
    ("gridsolve.verify.verify", "board_of", "the board and its rules (schema, rule set)", 1),
    ("gridsolve.verify.verify", "load_expectations", "the expectations", 1),
    ("gridsolve.solve.dispatch.asker", "Asker.ask", "the question asked (the engine and its answer)", 0),
    ("gridsolve.solve.race.racesolver", "Engine.__init__", "the engine", 1),
    ("gridsolve.solve.graph.codec", "PositionCodec.__init__", "position codecs", 2),
    ("gridsolve.solve.race.racesolver", "race_limits", "the limits' estimate", 2),
    ("gridsolve.solve.graph.racegraph", "RaceGraph.__init__", "the game graph", 2),
    ("gridsolve.solve.graph.scripted", "ScriptTables.__init__", "the per-cell tables", 3),
    ("gridsolve.solve.graph.sharedtables", "Circuit.rows", "the kind's circuit evaluated", 4),
    ("gridsolve.solve.graph.scripted", "ScriptedGraph.__init__", "the positions searched (C)", 3),
    ("gridsolve.solve.graph.scriptkernel", "search", "the C kernel itself (its arrays packed: the rest)", 4),
    ("gridsolve.solve.graph.gamegraph", "GameGraph.of_moves", "the graph's arrays", 3),
    ("gridsolve.solve.graph.gamegraph", "GameGraph.ranks", "the ranks", 2),
    ("gridsolve.solve.race.racesolver", "Engine.answer", "the answer read off the ranks", 1),
]
KIND = ("gridsolve.solve.graph.sharedtables", "Circuit.__init__")   # once per kind, not per level


def _wrap(module: str, name: str, seconds: dict, calls: dict, label: str) -> None:
    try:
        owner = importlib.import_module(module)
    except ImportError:         # (a kernel not built: its line stays 0)
        return
    *path, attr = name.split(".")
    for part in path:
        owner = getattr(owner, part)
    original = getattr(owner, attr)

    @functools.wraps(original)
    def timed(*args, **kwargs):
        started = time.process_time()
        try:
            return original(*args, **kwargs)
        finally:
            seconds[label] += time.process_time() - started
            calls[label] += 1
    setattr(owner, attr, timed)


def boards_from_levels(mazes: Path, files: int, folder: Path) -> None:
    """``files`` of the original's level files spread over the list, as boards with measured
    ``win`` and ``win_moves`` expectations (``verify --update``, untimed)."""
    from .classic_port import dat_files, write_boards
    every = [p for p in dat_files(mazes) if p.stat().st_size]
    chosen = every[::max(1, len(every) // files)][:files]
    write_boards(chosen, folder, lambda name: "expect:\n  - win: true\n    win_moves: 0\n")
    subprocess.run([sys.executable, "-m", "gridsolve", "verify", str(folder), "--update", "--jobs", "2"],
                   cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)), capture_output=True, check=False)


def measure(folder: Path, jobs: int) -> list[str]:
    """The phases' table, and the workers' figure, for the boards of ``folder``."""
    seconds: dict = defaultdict(float)
    calls: dict = defaultdict(int)
    for module, name, label, _ in PHASES:
        _wrap(module, name, seconds, calls, label)
    _wrap(*KIND, seconds, calls, "kind")
    from gridsolve.solve.graph.sharedtables import circuits_at_once
    from gridsolve.verify.verify import verify_paths
    started = time.process_time()
    with circuits_at_once():
        report = verify_paths([folder], jobs=1)
    total = time.process_time() - started
    n, passed = len(report.boards), report.count("pass")
    if passed != len(report.checks):
        raise SystemExit(f"{len(report.checks) - passed} of {len(report.checks)} checks did not pass: no figures")
    kinds = seconds["kind"]
    level = (total - kinds) / n
    lines = [f"{n} boards, {passed} checks passed; in this process {total:.2f} s CPU, of which "
             f"{calls['kind']} kinds' circuits built {kinds:.2f} s ({kinds / max(1, calls['kind']):.2f} s a kind): "
             f"**{1000 * level:.2f} ms a level**.", "",
             "| phase (a line includes the lines below it with more dots) | ms a level | share of a level |", "|---|---|---|"]
    for module, name, label, depth in PHASES:
        spent = seconds[label] - (kinds if label in ("the engine", "the question asked (the engine and its answer)",
                                                      "the game graph", "the per-cell tables") else 0.0)
        lines.append(f"| {'· ' * depth}{label} | {1000 * spent / n:.3f} | {100 * spent / n / level:.0f}% |")
    inside = sum(seconds[label] for _, _, label, depth in PHASES if depth == 0) - kinds
    lines.append(f"| the rest (verify's loop, the rows of the report) | {1000 * (total - kinds - inside) / n:.3f} "
                 f"| {100 * (total - kinds - inside) / n / level:.0f}% |")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    mine = time.process_time()
    wall = time.perf_counter()
    report = verify_paths([folder], jobs=jobs)     # (the circuits built above: the workers fork with them)
    wall = time.perf_counter() - wall
    mine = time.process_time() - mine
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    workers = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    lines += ["", f"The same boards on {jobs} forked workers ({report.count('pass')} checks passed, {wall:.1f} s wall): "
              f"the workers {1000 * workers / n:.2f} ms CPU a level, the parent {1000 * mine / n:.2f} ms a level "
              f"(its own CPU while they ran): the round trip and the parent cost "
              f"{1000 * (workers + mine) / n - 1000 * level:.2f} ms a level beyond the path above."]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder", nargs="?", type=Path, help="board files with expectations")
    parser.add_argument("--levels", type=Path, help="the folder of the original's B-*.dat files")
    parser.add_argument("--files", type=int, default=10, help="level files converted from --levels (default 10)")
    parser.add_argument("--jobs", type=int, default=2, help="workers of the second run (default 2)")
    args = parser.parse_args()
    if (args.folder is None) == (args.levels is None):
        raise SystemExit("give a folder of board files, or --levels MAZES (the original's B-*.dat files)")
    load = os.getloadavg()
    head = (f"`python -m bench classic_phases {'--levels MAZES --files ' + str(args.files) if args.levels else 'FOLDER'}"
            f" --jobs {args.jobs}`, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, on {os.cpu_count()} cores; "
            f"load average {load[0]:.1f} (1 min) at the start.")
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.folder
        if folder is None:
            folder = Path(tmp) / "levels"
            folder.mkdir()
            boards_from_levels(args.levels.resolve(), args.files, folder)
        lines = measure(folder, args.jobs)
    load = os.getloadavg()
    print("\n".join([head, "", *lines, "", f"Load average at the end: {load[0]:.1f} (1 min)."]))


if __name__ == "__main__":
    main()
