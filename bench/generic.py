"""The generic engine against the hand-written paths on our own boards (issue 47 item 2): each seed
board that has a GDL original, asked the same question two ways, the two taking turns run by run:
``gridsolve solve BOARD --role R --json`` (the board's own path: whichever solver the capability
table chooses) and ``gridsolve solve ORIGINAL.kif --role R --json`` (the generic engine: the GDL
file's one-ply rules ground once, a circuit, the reachable states explored and ranked).  Each in a
fresh process (bench/launch.py's launcher: wall, CPU with children, peak RSS of exactly that
process); the value and win of both compared, the plies of both shown (a board counts plies to its
end, a GDL game to its terminal state).  Medians of ``--repeat`` pairs; the ratio generic / board.

The originals are read from ``shared/reference/gdl/`` beside the repository (or the folder
GRIDSOLVE_GDL_REFERENCE names), never copied.

    python -m bench generic                 # 3 pairs a question -> bench/RESULTS-generic.md
    python -m bench generic --repeat 1 --out /tmp/x.md
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from .cases import Case
from .launch import ROOT, gridsolve_cli, log, med, run_child
from .results import Table, context, write

CASE = Case("the generic engine (a seed's GDL original) against the board's own solver: CPU ratio, same values",
            "bench/RESULTS-generic.md", "--repeat 1 --timeout 20 --out /tmp/generic.md",
            "the GDL originals (shared/reference/gdl or GRIDSOLVE_GDL_REFERENCE)")

# (board, original, roles): the seed boards whose rules came as GDL (docs/original-games.md).
SEEDS = [("boards/mummymaze2p-2007.yaml", "mummyMaze2p_2007.kif", ("explorer", "mummy")),
         ("boards/wallmaze.yaml", "wallmaze.kif", ("white", "black")),
         ("boards/mummymaze2p.yaml", "mummymaze2p.kif", ("explorer", "mummy")),
         ("boards/pacman3p.yaml", "pacman3p.kif", ("pacman",))]


def reference() -> Path:
    given = os.environ.get("GRIDSOLVE_GDL_REFERENCE")
    return Path(given) if given else ROOT.parent / "shared" / "reference" / "gdl"


def answer(res: dict) -> dict | None:
    """The fields compared, or None when the run gave no answer."""
    if res["rc"] != 0:
        return None
    data = json.loads(res["stdout"])
    return {"value": data.get("value"), "win": data.get("win"), "plies": data.get("plies"),
            "solver": (data.get("stats") or {}).get("solver")}


def measure(args: list[str], role: str, repeat: int, timeout: float, memory: int) -> list[dict]:
    """``repeat`` pairs of (board run, generic run), alternated; each run under gridsolve's own
    ``--timeout`` (it stops with exit code 3 and says how far it got), killed 30 s past it."""
    cli = gridsolve_cli()
    runs = []
    for _ in range(repeat):
        pair = []
        for target in args:
            res = run_child([*cli, "solve", target, "--role", role, "--json", "--timeout", str(timeout)],
                            timeout + 30, memory)
            pair.append(res)
        runs.append(pair)
    return runs


def cell(runs: list[dict], key: str) -> float | None:
    return med([r[key] for r in runs if r["rc"] == 0])


def fmt(x: float | None, spec: str = ".2f") -> str:
    return "-" if x is None else format(x, spec)


def why(res: dict) -> str:
    lines = [ln for ln in res["stderr"].splitlines() if ln.strip()]
    return ("killed at the time limit" if res["timed_out"] else
            f"exit {res['rc']}: {lines[-1][:120] if lines else ''}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="pairs a question (default 3)")
    parser.add_argument("--timeout", type=float, default=120.0,
                        help="gridsolve's --timeout of a run, seconds (default 120)")
    parser.add_argument("--memory", type=int, default=4096, help="MB of address space a run (default 4096)")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "RESULTS-generic.md")
    opts = parser.parse_args(argv)
    ref = reference()
    if not ref.is_dir():
        log(f"no GDL originals at {ref}: set GRIDSOLVE_GDL_REFERENCE to the folder of the seed games' .kif files")
        return 2
    ran = context("generic", argv)
    table = Table(["board", "original", "role", "board's solver", "board wall / CPU s:", "board MB:",
                   "generic wall / CPU s:", "generic MB:", "generic / board, CPU / wall:", "value board / generic",
                   "plies board / generic", "same value and win"])
    bad = 0
    for board, kif, roles in SEEDS:
        original = ref / kif
        if not original.exists():
            log(f"{original} is absent; its rows are left out")
            continue
        for role in roles:
            runs = measure([board, str(original)], role, opts.repeat, opts.timeout, opts.memory)
            ours, generic = [p[0] for p in runs], [p[1] for p in runs]
            a, g = answer(ours[-1]), answer(generic[-1])
            same = a is not None and g is not None and (a["value"], a["win"]) == (g["value"], g["win"])
            bad += a is not None and g is not None and not same
            both = [p for p in runs if p[0]["rc"] == 0 and p[1]["rc"] == 0]
            cpu = med([p[1]["cpu_s"] / p[0]["cpu_s"] for p in both])
            wall = med([p[1]["wall_s"] / p[0]["wall_s"] for p in both])
            print(table.add([
                f"`{board}`", f"`{kif}`", role, a["solver"] if a else why(ours[-1]),
                f"{fmt(cell(ours, 'wall_s'))} / {fmt(cell(ours, 'cpu_s'))}", fmt(cell(ours, "maxrss_mb"), ".0f"),
                f"{fmt(cell(generic, 'wall_s'))} / {fmt(cell(generic, 'cpu_s'))}",
                fmt(cell(generic, "maxrss_mb"), ".0f") if g else why(generic[-1]),
                f"**{fmt(cpu)}x** / {fmt(wall)}x" if both else "-",
                f"{a['value'] if a else '-'} / {g['value'] if g else '-'}",
                f"{a['plies'] if a else '-'} / {g['plies'] if g else '-'}",
                "yes" if same else "no" if a and g else "not compared"]), flush=True)
    end = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    write(opts.out, "The generic engine against the hand-written paths on the seed boards", ran, [table],
          "Each seed board with a GDL original asked `solve --role R --json` as a board (the solver the "
          "capability table chooses) and as its original `.kif` (the generic engine), the two in turn, each a "
          f"fresh process; medians of {opts.repeat} pairs (CPU: user + system of the process). Load average at "
          f"the end {end}.")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
