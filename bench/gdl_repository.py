"""Every .kif game of a local checkout of the GGP repository answered by ``gridsolve solve``
(issue 47), under a per-game time and memory limit, into bench/RESULTS-gdl.md.

The games are their authors' data: the bench reads a checkout given as an argument (the
folder of the games, e.g. ``ggp-repository/war/root/games``, searched for ``*.kif``) and never
copies them.  Each game runs in its own process (``gridsolve solve GAME --json --timeout S
--max-memory M``, killed after S plus a grace where clingo's grounding, which cannot be
interrupted, does not return), and gets one row: answered (reachable states, each role's
value from the initial state), refused (exit 2: the reason), stopped by a limit (exit 3: the
states reached), or a traceback (any other exit: the target is none).

    python -m bench gdl_repository ~/ggp-repository/war/root/games --seconds 8 --jobs 2
    python -m bench gdl_repository GAMES --seconds 60 --names NAMES.txt --append "60 s: ..."

``--names FILE``: only the games named there (one file stem a line); ``--append TITLE``: the
table added to the results file as a section of its own (under ``## TITLE``), not replacing it.
``--from RESULTS --stopped --most N``: only the N games whose rows in the first table of a
previous results file stopped by a limit with the fewest states reached (at least one; a game
of two files, both), fewest first, in that order:

    python -m bench gdl_repository GAMES --seconds 60 --from bench/RESULTS-gdl.md --stopped --most 30 \
        --append "60 s: the 30 games stopped with the fewest states"
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from .cases import Case  # noqa: E402

CASE = Case('every .kif game of the GGP repository under a time and memory limit',
            'bench/RESULTS-gdl.md', 'GGP --only ticTacToe --seconds 8 --out /tmp/gdl.md',
            "GGP: the GGP repository's war/root/games")

ROOT = Path(__file__).resolve().parents[1]
GRACE = 20          # seconds past --seconds before a process that has not stopped is killed (none should be)


def _run(command: list[str], limit: float):
    """``command``'s (exit code, standard output, standard error, its CPU seconds: user and
    system), or None for the exit code where it was killed after ``limit`` seconds."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        process = subprocess.Popen(command, stdout=out, stderr=err, text=True)
        deadline = time.perf_counter() + limit
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline:
                process.kill()
                pid, status, usage = os.wait4(process.pid, 0)
                status = None
                break
            time.sleep(0.05)
        process.returncode = 0      # (reaped here: Popen must not wait for it again)
        out.seek(0)
        err.seek(0)
        code = None if status is None else os.waitstatus_to_exitcode(status)
        return code, out.read(), err.read(), usage.ru_utime + usage.ru_stime


def run_one(path: Path, seconds: float, memory: str, options: tuple[str, ...] = ()) -> dict:
    """One ``gridsolve solve GAME --json`` (with ``options``, e.g. a query) in its own process:
    its outcome row (an answered row holds the whole JSON answer under ``answer``; ``cpu``: the
    process's user and system seconds)."""
    command = [sys.executable, "-m", "gridsolve", "solve", str(path), *options, "--json", "--timeout", str(seconds),
               "--max-memory", memory]
    started = time.perf_counter()
    code, stdout, stderr, cpu = _run(command, seconds + GRACE)
    elapsed = time.perf_counter() - started
    if code is None:
        return {"outcome": "stopped", "killed": True,
                "detail": f"killed after {seconds + GRACE:.0f} s (no answer nor limit's error by then)",
                "seconds": elapsed, "cpu": cpu}
    error = stderr.strip().splitlines()[-1] if stderr.strip() else ""
    error = error.removeprefix("Error: ")
    error = re.sub(re.escape(str(path)) + r":(\d+):", r"line \1:", error).replace(str(path) + ":", "").strip()
    error = error.replace(str(path), "the file")
    if code == 0:
        answer = json.loads(stdout)
        return {"outcome": "answered", "states": answer["stats"]["positions"], "values": answer["values"],
                "seconds": elapsed, "cpu": cpu, "answer": answer}
    if code == 2:
        return {"outcome": "refused", "detail": error, "seconds": elapsed, "cpu": cpu}
    if code == 3:
        return {"outcome": "stopped", "detail": error.split(". ")[0], "seconds": elapsed, "cpu": cpu}
    return {"outcome": "traceback", "detail": f"exit {code}: {error}", "seconds": elapsed, "cpu": cpu}


def stopped_games(results: Path, most: int | None = None) -> list[str]:
    """The games (file stems) of the first table of ``results`` whose rows stopped by a limit
    after at least one state reached, fewest states first (a game's fewest over its rows), at
    most ``most`` of them."""
    reached: dict[str, int] = {}
    for line in results.read_text(encoding="utf-8").split("\n## ")[0].splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        found = re.search(r"after ([\d,]+) states (?:reached|searched)", cells[-1]) if len(cells) == 7 else None
        if cells[1:2] == ["stopped"] and found and (states := int(found.group(1).replace(",", ""))):
            reached[cells[0]] = min(states, reached.get(cells[0], states))
    return sorted(reached, key=lambda name: (reached[name], name))[:most]


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def values_text(values: dict) -> str:
    """Each role's value, ``-`` where it has none: ``white 50, black 50``."""
    return ", ".join(f"{role} {'-' if v is None else v}" for role, v in values.items())


def write_results(rows: list[tuple[str, dict]], out: Path, seconds: float, memory: str, folder: Path,
                  load: str = "", jobs: int = 1, title: str | None = None, before: str = "",
                  chosen: tuple[str, str] = ("", "every `.kif` file of a local checkout")) -> None:
    """The results as a Markdown page at ``out``; with ``title``, as a section under that heading
    after ``before`` (the page's text before this run).  ``chosen``: the options that chose the
    files and what they chose (default: every file of the folder)."""
    counts = {kind: sum(1 for _, row in rows if row["outcome"] == kind)
              for kind in ("answered", "refused", "stopped", "traceback")}
    killed = sum(1 for _, row in rows if row.get("killed"))
    wall, cpu = sum(row["seconds"] for _, row in rows), sum(row["cpu"] for _, row in rows)
    options, which = chosen
    lines = ([f"# GDL games of the GGP repository, answered by `gridsolve solve GAME.kif`", ""] if title is None
             else [before.rstrip("\n"), "", f"## {title}", ""])
    lines += [f"Written by `python -m bench gdl_repository {folder.name} --seconds {seconds:g} --memory {memory} "
              f"--jobs {jobs}{options}` (bench/gdl_repository.py): {which} ({len(rows)} files), each in its own "
              f"process, {seconds:g} s and {memory} a game, {jobs} at once; one run, on a machine shared with other "
              f"work (load average {load}; the seconds, wall and CPU (user and system) of the game's process, "
              f"include the process's start; in all {wall:,.0f} s wall, {cpu:,.0f} s CPU).", "",
              f"**{counts['answered']} answered, {counts['refused']} refused, {counts['stopped']} stopped by a limit "
              f"({killed} killed past the limit and its grace), {counts['traceback']} tracebacks.**", "",
             "| game | outcome | reachable states | value per role (initial state) | seconds | CPU s | detail |",
             "|---|---|---:|---|---:|---:|---|"]
    for name, row in rows:
        values = values_text(row.get("values", {}))
        states = f"{row['states']:,}" if "states" in row else ""
        lines.append(f"| {name} | {row['outcome']} | {states} | {_cell(values)} | {row['seconds']:.1f} | "
                     f"{row['cpu']:.1f} | {_cell(row.get('detail', ''))} |")
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="the games' folder of a GGP repository checkout (searched for *.kif)")
    parser.add_argument("--seconds", type=float, default=60.0, help="the time limit of a game (default 60)")
    parser.add_argument("--memory", default="2GB", help="the memory limit of a game (default 2GB)")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "RESULTS-gdl.md")
    parser.add_argument("--only", help="only the games whose file name contains this")
    parser.add_argument("--jobs", type=int, default=1, help="games run at once (default 1: the seconds measured alone)")
    parser.add_argument("--names", type=Path, help="only the games named in this file (one file stem a line)")
    parser.add_argument("--append", metavar="TITLE", help="add the table to --out as a section of this title")
    parser.add_argument("--from", dest="previous", type=Path, metavar="RESULTS",
                        help="with --stopped: the games of this previous results file's first table")
    parser.add_argument("--stopped", action="store_true",
                        help="only the games stopped by a limit in --from's table, fewest states reached first")
    parser.add_argument("--most", type=int, help="with --stopped: at most this many games")
    args = parser.parse_args(argv)
    if args.stopped != bool(args.previous):
        print("--stopped and --from RESULTS go together: the games stopped in that previous table.", file=sys.stderr)
        return 2
    if not args.folder.is_dir():
        print(f"{args.folder}: no such folder. Give the games' folder of a checkout of the GGP repository "
              "(github ggp-org/ggp-repository, war/root/games).", file=sys.stderr)
        return 2
    files = sorted(args.folder.rglob("*.kif"), key=lambda p: p.name.lower())
    if args.only:
        files = [p for p in files if args.only in p.name]
    if args.names:
        wanted = {line.strip() for line in args.names.read_text().splitlines() if line.strip()}
        files = [p for p in files if p.stem in wanted]
    if args.stopped:
        order = {name: k for k, name in enumerate(stopped_games(args.previous, args.most))}
        files = sorted((p for p in files if p.stem in order), key=lambda p: order[p.stem])
    if not files:
        print(f"{args.folder}: no .kif files there.", file=sys.stderr)
        return 2
    rows = []
    chosen = choice(args)
    before = args.out.read_text(encoding="utf-8") if args.append and args.out.exists() else ""
    first = "{:.1f}".format(os.getloadavg()[0])
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        runs = pool.map(lambda path: (path, run_one(path, args.seconds, args.memory)), files)
        for i, (path, row) in enumerate(runs, 1):
            rows.append((path.stem, row))
            print(f"[{i}/{len(files)}] {path.stem}: {row['outcome']} {row.get('states', '')} "
                  f"{row.get('values', row.get('detail', ''))} {row['seconds']:.1f} s (CPU {row['cpu']:.1f} s)",
                  flush=True)
            write_results(rows, args.out, args.seconds, args.memory, args.folder,
                          f"{first} at the start, {os.getloadavg()[0]:.1f} at the end", args.jobs, args.append, before, chosen)
    return 0


def choice(args: argparse.Namespace) -> tuple[str, str]:
    """(the options that chose the files, as written on the command line; what they chose)."""
    options, parts = "", []
    if args.only:
        options += f" --only {args.only}"
        parts.append(f"whose name contains `{args.only}`")
    if args.names:
        options += f" --names {args.names.name}"
        parts.append(f"named in {args.names.name}")
    if args.stopped:
        most = f" --most {args.most}" if args.most else ""
        options += f" --from {args.previous.name} --stopped{most}"
        parts.append(f"stopped by a limit in the first table of {args.previous.name}, fewest states reached first"
                     + (f", at most {args.most} games" if args.most else ""))
    which = "every `.kif` file of a local checkout" + (" " + " and ".join(parts) if parts else "")
    return options, which


if __name__ == "__main__":
    sys.exit(main())
