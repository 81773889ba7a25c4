"""The race solver against the plain retrograde search of reference/retrograde.py, per board size.

Each case is ``gridsolve solve BOARD --json`` (the explorer's value, the game's step limit, the
default memory limit) and ``python -m reference.retrograde BOARD``, run in turn (gridsolve, baseline,
gridsolve, ...) in fresh processes through run.py's launcher: wall clock, CPU time (user +
system) and peak RSS of the whole process, and the in-process time each reports of its own
solve (``stats.total_s``: board loading and imports left out).  The ratios are medians of the
per-pair ratios; the answers of both must agree (the value, the plies, win, survive and every
move's value).  The "before" columns are the race solver before the game graph (issue 21's
table, measured at commit 19dd50a on a quiet machine).

    python -m bench engine                 # -> bench/RESULTS-engine.md (and printed)
    python -m bench engine --repeat 5 --skip-24
    python -m bench engine --before DIR    # and another checkout (git archive COMMIT | tar -x -C DIR)
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
from . import launch as run  # noqa: E402  (bench/launch.py: the launcher and the gridsolve command)
from .cases import Case  # noqa: E402

CASE = Case('the race solver against reference/retrograde.py per board size',
            'bench/RESULTS-engine.md', '--repeat 1 --skip-24 --out /tmp/engine.md')

CASES = [   # (label, board, "before": whole-process seconds, peak MB, ratio to the baseline; None: not measured)
    ("seed: mummymaze2p-2007", "boards/mummymaze2p-2007.yaml", (0.345, 65, 3.9)),
    ("seed: mummymaze2p", "boards/mummymaze2p.yaml", (0.467, 76, 4.4)),
    ("random 8x8", "bench/boards/random-8x8-s1.yaml", None),
    ("open 16x16", "bench/boards/open-16x16.yaml", (9.4, 1000, 11.8)),
    ("open 24x24", "bench/boards/open-24x24.yaml", (63.5, 4600, 14.6)),
    ("open 32x32", "bench/boards/open-32x32.yaml", None),
]
LARGE = ("24x24", "32x32")      # boards measured --repeat-large times
FIELDS = ("value", "plies", "win", "win_plies", "survives", "doom_plies")


def _ours(board: str, timeout: float, code: Path | None = None) -> dict:
    """``gridsolve solve BOARD --json`` of this checkout, or of the checkout ``code``."""
    cli = run.gridsolve_cli() if code is None else run.checkout_cli(code)
    return run.run_child(cli + ["solve", board, "--json"], timeout)


def _theirs(board: str, timeout: float) -> dict:
    return run.run_child([sys.executable, "-m", "reference.retrograde", board], timeout)


def _agree(ours: dict, theirs: dict) -> bool:
    if any(ours.get(f) != theirs.get(f) for f in FIELDS):
        return False
    mine = {m["move"]: (m["value"], m["plies"], m["win"], m["survives"]) for m in ours["moves"]}
    base = {m["move"]: (m["value"], m["plies"], m["win"], m["survives"]) for m in theirs["moves"]}
    return mine == base


def measure(board: str, repeat: int, timeout: float, before: Path | None = None) -> dict:
    """Pairs in turn (gridsolve, [gridsolve of the checkout ``before``,] baseline)."""
    pairs, checks, stats, olds = [], [], [], []
    for _ in range(repeat):
        a = _ours(board, timeout)
        old = _ours(board, timeout, before) if before is not None else None
        b = _theirs(board, timeout)
        if a["rc"] != 0 or b["rc"] != 0:
            return {"error": (a["stderr"] or b["stderr"])[-300:]}
        ours, theirs = json.loads(a["stdout"]), json.loads(b["stdout"])
        checks.append(_agree(ours, theirs))
        stats.append(ours["stats"])
        pairs.append((a, b, ours["stats"]["total_s"], theirs["stats"]["total_s"]))
        if old is not None:
            olds.append((old, b))
    med = statistics.median
    out = {
        "wall": med(p[0]["wall_s"] for p in pairs), "cpu": med(p[0]["cpu_s"] for p in pairs),
        "inproc": med(p[2] for p in pairs), "peak": max(p[0]["maxrss_mb"] for p in pairs),
        "base_wall": med(p[1]["wall_s"] for p in pairs), "base_cpu": med(p[1]["cpu_s"] for p in pairs),
        "base_inproc": med(p[3] for p in pairs), "base_peak": max(p[1]["maxrss_mb"] for p in pairs),
        "r_wall": med(p[0]["wall_s"] / p[1]["wall_s"] for p in pairs),
        "r_cpu": med(p[0]["cpu_s"] / p[1]["cpu_s"] for p in pairs),
        "r_inproc": med(p[2] / p[3] for p in pairs),
        "r_peak": max(p[0]["maxrss_mb"] for p in pairs) / max(p[1]["maxrss_mb"] for p in pairs),
        "agree": all(checks), "stats": stats[-1],
    }
    if olds:
        done = [(o, b) for o, b in olds if o["rc"] == 0]
        out["old"] = ({"wall": med(o["wall_s"] for o, _ in done), "cpu": med(o["cpu_s"] for o, _ in done),
                       "peak": max(o["maxrss_mb"] for o, _ in done),
                       "r_cpu": med(o["cpu_s"] / b["cpu_s"] for o, b in done),
                       "r_peak": max(o["maxrss_mb"] for o, _ in done) / out["base_peak"]}
                      if done else {"error": f"exit {olds[0][0]['rc']}: " + olds[0][0]["stderr"].strip()[:90]})
    return out


def table(results: list[tuple]) -> list[str]:
    previous = any("old" in r for *_, r in results)
    out = ["| case | positions | moves | before (issue): whole process, peak, ÷ baseline "
           + ("| previous: wall / CPU, peak, ÷ baseline (CPU) " if previous else "")
           + "| gridsolve: wall / CPU / in-process, peak "
           "| baseline: wall / CPU / in-process, peak | ÷ baseline: wall / CPU / in-process | peak ÷ baseline | answers |",
           "|---|---|---|---|" + ("---|" if previous else "") + "---|---|---|---|---|"]
    for label, board, before, r in results:
        if "error" in r:
            out.append(f"| {label} | | | | failed: {r['error']} | | | | |")
            continue
        s = r["stats"]
        was = f"{before[0]} s, {before[1]:,} MB, {before[2]}×" if before else "–"
        old = r.get("old")
        prev = "" if not previous else ("| – " if old is None else f"| {old['error']} " if "error" in old else
                                        f"| {old['wall']:.2f} / {old['cpu']:.2f} s, {old['peak']:.0f} MB, "
                                        f"{old['r_cpu']:.2f}× ")
        out.append(f"| {label} | {s['positions']:,} | {s['moves']:,} | {was} {prev}"
                   f"| {r['wall']:.2f} / {r['cpu']:.2f} / {r['inproc']:.2f} s, {r['peak']:.0f} MB "
                   f"| {r['base_wall']:.2f} / {r['base_cpu']:.2f} / {r['base_inproc']:.2f} s, {r['base_peak']:.0f} MB "
                   f"| {r['r_wall']:.2f}× / {r['r_cpu']:.2f}× / {r['r_inproc']:.2f}× | {r['r_peak']:.2f}× "
                   f"| {'agree' if r['agree'] else '**MISMATCH**'} |")
    out += ["", "Where gridsolve's time goes (its own stats, last run): clingo grounding the game graph (by pieces: "
            "each role's moves by cell and the ends), reading it out of clingo or joining it in arrays, the ranks, "
            "the answer.", "",
            "| case | graph ground (s) | graph read / join (s) | ranks (s) | answer (s) | levels |", "|---|---|---|---|---|---|"]
    for label, board, before, r in results:
        if "error" not in r:
            s = r["stats"]
            out.append(f"| {label} | {s['graph_ground_s']:.2f} | {s['graph_read_s']:.2f} | {s['rank_s']:.2f} "
                       f"| {s['answer_s']:.2f} | {s['levels']} |")
    return out


def rows(repeat: int, repeat_large: int = 1, quick: bool = False, log=lambda msg: None) -> list[str]:
    """The table of every case (bench/run.py's section; ``quick``: the seed boards only)."""
    results = []
    for label, board, before in CASES[:2] if quick else CASES:
        count = repeat_large if any(size in board for size in LARGE) else repeat
        log(f"race solver per board size: {label}, {count} pairs ...")
        results.append((label, board, before, measure(board, count, 600)))
    return table(results)


def _compiled(before: Path | None) -> None:
    """Compile the modules to bytecode first, as an installed package has them (this
    environment may set PYTHONDONTWRITEBYTECODE, and then every start compiles them again)."""
    import subprocess
    for code in filter(None, (ROOT, before)):
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(code / "gridsolve"), str(code / "bench")],
                       check=True, capture_output=True)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--repeat-large", type=int, default=1, help="repetitions of the 24x24 and 32x32 cases")
    p.add_argument("--skip-24", action="store_true", help="leave out the 24x24 and 32x32 cases")
    p.add_argument("--before", type=Path, help="another checkout of gridsolve, measured in the same pairs")
    p.add_argument("--timeout", type=float, default=300)
    p.add_argument("--out", default=str(HERE / "RESULTS-engine.md"))
    args = p.parse_args(argv)
    results = []
    started = time.time()
    _compiled(args.before)
    for label, board, before in CASES:
        large = any(size in board for size in LARGE)
        if args.skip_24 and large:
            continue
        repeat = args.repeat_large if large else args.repeat
        print(f"{label}: {repeat} pairs ...", file=sys.stderr, flush=True)
        results.append((label, board, before, measure(board, repeat, args.timeout, args.before)))
    lines = [f"# The race solver against reference/retrograde.py ({time.strftime('%Y-%m-%d %H:%M')}, "
             f"{time.time() - started:.0f} s, git {run.git_rev()})", "", run.machine_info(), "", *table(results), ""]
    Path(args.out).write_text("\n".join(lines))
    print("\n".join(lines))
    return 0 if all("error" not in r and r["agree"] for *_, r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
