"""Every .kif game of a local checkout of the GGP repository answered by ``gridsolve solve``
(issue 47), under a per-game time and memory limit, into bench/RESULTS-gdl.md.

The games are their authors' data: the bench reads a checkout given as an argument (the
folder of the games, e.g. ``ggp-repository/war/root/games``, searched for ``*.kif``) and never
copies them.  Each game runs in its own process (``gridsolve solve GAME --json --timeout S
--max-memory M``, killed after S plus a grace where clingo's grounding, which cannot be
interrupted, does not return), and gets one row: answered (reachable states, each role's
value from the initial state), refused (exit 2: the reason), stopped by a limit (exit 3: the
states reached), or a traceback (any other exit: the target is none).

    python bench/gdl_repository.py ~/ggp-repository/war/root/games
    python bench/gdl_repository.py GAMES --seconds 60 --memory 2GB --out bench/RESULTS-gdl.md
"""
from __future__ import annotations

import argparse
import json
import re
import resource
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GRACE = 20          # seconds past --seconds before a process still grounding is killed


def run_one(path: Path, seconds: float, memory: str, options: tuple[str, ...] = ()) -> dict:
    """One ``gridsolve solve GAME --json`` (with ``options``, e.g. a query) in its own process:
    its outcome row (an answered row holds the whole JSON answer under ``answer``; ``cpu``: the
    user + sys seconds of the processes ended meanwhile, its own where one runs at a time)."""
    command = [sys.executable, "-m", "gridsolve", "solve", str(path), *options, "--json", "--timeout", str(seconds),
               "--max-memory", memory]
    started, cpu_before = time.perf_counter(), _children_cpu()
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=seconds + GRACE)
    except subprocess.TimeoutExpired:
        return {"outcome": "stopped",
                "detail": f"killed after {seconds + GRACE:.0f} s (no answer nor limit's error by then)",
                "seconds": time.perf_counter() - started, "cpu": _children_cpu() - cpu_before}
    elapsed = time.perf_counter() - started
    cpu = _children_cpu() - cpu_before
    error = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else ""
    error = error.removeprefix("Error: ")
    error = re.sub(re.escape(str(path)) + r":(\d+):", r"line \1:", error).replace(str(path) + ":", "").strip()
    error = error.replace(str(path), "the file")
    if done.returncode == 0:
        answer = json.loads(done.stdout)
        return {"outcome": "answered", "states": answer["stats"]["positions"], "values": answer["values"],
                "seconds": elapsed, "cpu": cpu, "answer": answer}
    if done.returncode == 2:
        return {"outcome": "refused", "detail": error, "seconds": elapsed, "cpu": cpu}
    if done.returncode == 3:
        return {"outcome": "stopped", "detail": error.split(". ")[0], "seconds": elapsed, "cpu": cpu}
    return {"outcome": "traceback", "detail": f"exit {done.returncode}: {error}", "seconds": elapsed, "cpu": cpu}


def _children_cpu() -> float:
    """The user + sys seconds of this process's children ended so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def values_text(values: dict) -> str:
    """Each role's value, ``-`` where it has none: ``white 50, black 50``."""
    return ", ".join(f"{role} {'-' if v is None else v}" for role, v in values.items())


def write_results(rows: list[tuple[str, dict]], out: Path, seconds: float, memory: str, folder: Path) -> None:
    counts = {kind: sum(1 for _, row in rows if row["outcome"] == kind)
              for kind in ("answered", "refused", "stopped", "traceback")}
    lines = ["# GDL games of the GGP repository, answered by `gridsolve solve GAME.kif`", "",
             f"Written by `python bench/gdl_repository.py {folder.name} --seconds {seconds:g} --memory {memory}` "
             f"(bench/gdl_repository.py): every `.kif` file of a local checkout ({len(rows)} files), each in its own "
             f"process, {seconds:g} s and {memory} a game; one run, on a machine shared with other work "
             "(the seconds include the process's start).", "",
             f"**{counts['answered']} answered, {counts['refused']} refused, {counts['stopped']} stopped by a limit, "
             f"{counts['traceback']} tracebacks.**", "",
             "| game | outcome | reachable states | value per role (initial state) | seconds | detail |",
             "|---|---|---:|---|---:|---|"]
    for name, row in rows:
        values = values_text(row.get("values", {}))
        states = f"{row['states']:,}" if "states" in row else ""
        lines.append(f"| {name} | {row['outcome']} | {states} | {_cell(values)} | {row['seconds']:.1f} | "
                     f"{_cell(row.get('detail', ''))} |")
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="the games' folder of a GGP repository checkout (searched for *.kif)")
    parser.add_argument("--seconds", type=float, default=60.0, help="the time limit of a game (default 60)")
    parser.add_argument("--memory", default="2GB", help="the memory limit of a game (default 2GB)")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "RESULTS-gdl.md")
    parser.add_argument("--only", help="only the games whose file name contains this")
    parser.add_argument("--jobs", type=int, default=1, help="games run at once (default 1: the seconds measured alone)")
    args = parser.parse_args(argv)
    if not args.folder.is_dir():
        print(f"{args.folder}: no such folder. Give the games' folder of a checkout of the GGP repository "
              "(github ggp-org/ggp-repository, war/root/games).", file=sys.stderr)
        return 2
    files = sorted(args.folder.rglob("*.kif"), key=lambda p: p.name.lower())
    if args.only:
        files = [p for p in files if args.only in p.name]
    if not files:
        print(f"{args.folder}: no .kif files there.", file=sys.stderr)
        return 2
    rows = []
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        runs = pool.map(lambda path: (path, run_one(path, args.seconds, args.memory)), files)
        for i, (path, row) in enumerate(runs, 1):
            rows.append((path.stem, row))
            print(f"[{i}/{len(files)}] {path.stem}: {row['outcome']} {row.get('states', '')} "
                  f"{row.get('values', row.get('detail', ''))} {row['seconds']:.1f} s", flush=True)
            write_results(rows, args.out, args.seconds, args.memory, args.folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
