"""``gridsolve crosscheck`` of each seed board against its original GDL file: positions and moves
compared, seconds (wall and CPU of this process) and positions a second, into
bench/RESULTS-crosscheck.md.  The originals are read from ``shared/reference/gdl/`` beside the
repository (or the folder GRIDSOLVE_GDL_REFERENCE names), never copied.

    python -m bench crosscheck                 # the 2007 game and Wallmaze whole, the others' first 40,000 / 20,000
    python -m bench crosscheck --states 5000   # the first 5,000 positions of each
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gridsolve.crosscheck.compare import crosscheck  # noqa: E402

from .results import Table, context, write  # noqa: E402
from .cases import Case  # noqa: E402

CASE = Case('crosscheck of the seed boards against their GDL originals: agreement and positions a second',
            'bench/RESULTS-crosscheck.md', '--states 1000 --out /tmp/crosscheck.md',
            'the GDL originals (shared/reference/gdl or GRIDSOLVE_GDL_REFERENCE)')

SEEDS = [("mummymaze2p-2007.yaml", "mummyMaze2p_2007.kif", None), ("wallmaze.yaml", "wallmaze.kif", None),
         ("mummymaze2p.yaml", "mummymaze2p.kif", 40_000), ("pacman3p.yaml", "pacman3p.kif", 20_000)]


def reference() -> Path:
    given = os.environ.get("GRIDSOLVE_GDL_REFERENCE")
    return Path(given) if given else ROOT.parent / "shared" / "reference" / "gdl"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, help="compare the first N positions of every board")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "RESULTS-crosscheck.md")
    args = parser.parse_args()
    ran = context("crosscheck")
    table = Table(["board", "against", "agree", "positions:", "moves:", "plies:", "wall s:", "CPU s:",
                   "positions/s (wall):", "positions/s (CPU):", "load:"])
    for board, kif, states in SEEDS:
        states = args.states or states
        load = os.getloadavg()[0]
        wall, cpu = time.perf_counter(), time.process_time()
        r = crosscheck(ROOT / "boards" / board, reference() / kif, states=states)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        print(table.add([f"`boards/{board}`", f"`{kif}`", "yes" if r.agree else "NO",
                         f"{'all' if r.complete else 'first'} {r.positions:,}", f"{r.moves:,}", r.plies,
                         f"{wall:.1f}", f"{cpu:.1f}", f"{r.positions / wall:,.0f}", f"{r.positions / cpu:,.0f}",
                         f"{load:.1f}"]), flush=True)
    write(args.out, "`gridsolve crosscheck`: the seed boards against their originals", ran, [table],
          "One run, on cores shared with other work (the load: the 1-minute load average when the row started). "
          "Positions are (position, step) pairs: a GDL state each; CPU is this process's.")

if __name__ == "__main__":
    main()
