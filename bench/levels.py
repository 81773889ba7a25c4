"""Throughput for level packs (issue 21, item 5): ``gridsolve verify`` of many random 8x8 levels
and the generator's layout judge (every placement of the pieces on one layout ranked at once).

The levels are random 8x8 Mummy Maze boards (bench/run.py's ``generate_board``: a spanning tree
of open edges, a quarter of the interior edges walls, the exit on the border) under the rule set
``mummy-maze-2007-prose``, each with five checks from the initial position (``win``, ``plies``,
``value``, ``winning_first_moves``, ``no_beeline``), their expected values written by ``gridsolve
verify --update``.  Timed: ``gridsolve verify DIR --jobs N`` as a whole process (wall, CPU, peak
RSS).  The judge: :func:`gridsolve.generate.judge.start_ranks` (a forced win in 20 to 49 plies)
on random 8x8 layouts, timed in one worker process, the median per layout.

With ``--before DIR`` (another checkout of gridsolve, e.g. ``git archive COMMIT | tar -x -C DIR``)
the same is run with that code, in turn with this one (this, before, this, ...).

    python -m bench levels --count 1000 --jobs 2 [--before /tmp/old] [--repeat 1]
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
from . import run  # noqa: E402  (bench/run.py: random boards, the launcher)
from .cases import Case  # noqa: E402

CASE = Case('level packs: verify of many random 8x8 levels, and the layout judge',
            None, '--count 20 --layouts 2')

EXPECT = "expect:\n  - win: true\n    plies: 0\n    value: 0\n    winning_first_moves: 0\n    no_beeline: true\n"
CHECKS = 5


def level_yaml(seed: int) -> str:
    """A random 8x8 level under mummy-maze-2007-prose with the five checks (values to update)."""
    spec = run.generate_board(8, seed)
    text = run.board_yaml(spec).replace("rules:\n  use: mummy-maze-2007\n  steps: {first: 1, last: 101}\n",
                                        "rules: mummy-maze-2007-prose\n")
    return text.replace("bench random 8x8", "level pack 8x8") + EXPECT


def cli(code: Path) -> list[str]:
    """The gridsolve command line of the checkout ``code``."""
    return [sys.executable, "-c", f"import sys; sys.path.insert(0, {str(code)!r}); sys.argv[0] = 'gridsolve'; "
            "from gridsolve.cli import main; main()"]


JUDGE = """
import json, statistics, sys, tempfile, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[2])
from bench import run
from gridsolve.generate.genspec import Requirement, game_spec
from gridsolve.generate.judge import start_ranks
from gridsolve.language.loader import load_board
out, times, starts = Path(tempfile.mkdtemp()), [], []
for seed in range(1, int(sys.argv[3]) + 1):
    path = out / f"layout-{seed}.yaml"
    text = run.board_yaml(run.generate_board(8, seed))
    path.write_text(text.replace("rules:\\n  use: mummy-maze-2007\\n  steps: {first: 1, last: 101}\\n",
                                 "rules: mummy-maze-2007-prose\\n"))
    board = load_board(path)
    spec = game_spec(None, path, None, out, None)
    started = time.perf_counter()
    ranks = start_ranks(board, spec, Requirement("win", (20, 49)))
    times.append(time.perf_counter() - started)
    starts.append(len(ranks))
print(json.dumps({"median": statistics.median(times), "max": max(times), "starts": sum(starts)}))
"""


def judge(code: Path, layouts: int) -> dict:
    out = subprocess.run([sys.executable, "-c", JUDGE, str(code), str(ROOT), str(layouts)],
                         capture_output=True, text=True, cwd=ROOT)
    if out.returncode:
        raise SystemExit(out.stderr[-2000:])
    return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--layouts", type=int, default=20)
    parser.add_argument("--before", type=Path, help="another checkout of gridsolve to compare with")
    args = parser.parse_args()
    codes = [("this", ROOT)] + ([("before", args.before)] if args.before else [])
    for _, code in codes:       # bytecode first, as an installed package has it (see bench/engine.py)
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(code / "gridsolve"), str(code / "bench")],
                       check=True, capture_output=True)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "levels"
        folder.mkdir()
        for seed in range(1, args.count + 1):
            (folder / f"level-{seed:04d}.yaml").write_text(level_yaml(seed))
        filled = run.run_child(cli(ROOT) + ["verify", str(folder), "--update", "--jobs", str(args.jobs)], 3600)
        if filled["rc"] not in (0, 1):
            raise SystemExit(filled["stderr"][-2000:])
        runs = {name: [] for name, _ in codes}
        for _ in range(args.repeat):
            for name, code in codes:
                res = run.run_child(cli(code) + ["verify", str(folder), "--jobs", str(args.jobs), "--format", "json"],
                                    3600)
                summary = json.loads(res["stdout"])["summary"] if res["stdout"].strip().startswith("{") else {}
                runs[name].append({**{k: res[k] for k in ("wall_s", "cpu_s", "maxrss_mb", "rc")}, "summary": summary})
                print(name, runs[name][-1]["wall_s"], runs[name][-1]["cpu_s"], summary, file=sys.stderr)
    med = statistics.median
    lines = [f"`python -m bench levels --count {args.count} --jobs {args.jobs} --repeat {args.repeat}"
             + (" --before DIR`" if args.before else "`") + f": {args.count} random 8x8 levels, {CHECKS} checks each",
             "", "| code | `verify --jobs %d`: wall (s) | CPU (s) | CPU a level (ms) | peak RSS (MB) | levels/s | checks passed (with the schema) |" % args.jobs,
             "|---|---|---|---|---|---|---|"]
    for name, _ in codes:
        rs = runs[name]
        wall, cpu = med(r["wall_s"] for r in rs), med(r["cpu_s"] for r in rs)
        summary = rs[-1]["summary"]     # (the checks include each file's schema check)
        lines.append(f"| {name} | {wall:.1f} | {cpu:.1f} | {1000 * cpu / args.count:.0f} | "
                     f"{max(r['maxrss_mb'] for r in rs):.0f} | {args.count / wall:.0f} | "
                     f"{summary.get('pass', '?')} of {summary.get('checks', '?')} |")
    if args.before:
        ratio = med(a["wall_s"] / b["wall_s"] for a, b in zip(runs["this"], runs["before"]))
        lines.append(f"\nthis ÷ before (wall, paired): {ratio:.2f}×")
    lines += ["", f"| code | layout judged, every placement (`start_ranks`), median of {args.layouts} layouts (s) | max (s) |",
              "|---|---|---|"]
    for name, code in codes:
        found = judge(code, args.layouts)
        lines.append(f"| {name} | {found['median']:.3f} | {found['max']:.3f} |")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
