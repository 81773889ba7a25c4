"""Benchmark of ``gridsolve explain`` (critical walls), for bench/run.py.

Each case runs ``gridsolve explain BOARD --json`` end to end in a fresh process: the shared game
graph (``--method graph``, one process and ``--jobs 2``) and one solve per wall variant
(``--method solve``).  The critical walls of the methods must agree.  Target: < 10 s on 8×8.
"""
from __future__ import annotations

import json

TARGET_S = 10.0
BOARDS = ["boards/mummymaze2p-2007.yaml", "RANDOM8"]
METHODS = [("graph", 1), ("graph", 2), ("solve", 1)]


def _walls(result: dict) -> list:
    return sorted((tuple(c["wall"]["cell"]), c["wall"]["side"], c["change"], c["value"], c["plies"], c["win"])
                  for c in result["critical_walls"])


def rows(args, run_child, cli: list[str], random8: str, log) -> tuple[list[str], list[str]]:
    """The table of explain runs and the target row ``[target, measured, ratio, status]``."""
    lines = ["| board | method | end to end (s) | CPU (s) | peak RSS (MB) | walls tried | critical | "
             "critical walls (s, as explain reports) | agrees |", "|---|---|---|---|---|---|---|---|---|"]
    worst = None
    boards = BOARDS[:1] if args.quick else BOARDS
    methods = METHODS[:1] if args.quick else METHODS
    for board in boards:
        path = random8 if board == "RANDOM8" else board
        reference = None
        for method, jobs in methods:
            argv = cli + ["explain", path, "--json", "--method", method, "--jobs", str(jobs)]
            log(f"  explain: {' '.join(argv[len(cli):])} ...")
            res = run_child(argv, max(args.timeout, 600), args.mem_limit_mb)
            label = f"{method}" + (f", --jobs {jobs}" if jobs > 1 else "")
            if res["rc"] != 0:
                lines.append(f"| {path} | {label} | failed (exit {res['rc']}) | – | – | – | – | – | – |")
                continue
            result = json.loads(res["stdout"])
            walls = _walls(result)
            reference = reference if reference is not None else walls
            stats = result["stats"]
            lines.append(f"| {path} | {label} | {res['wall_s']:.1f} | {res['cpu_s']:.1f} | {res['maxrss_mb']:.0f} | "
                         f"{stats['walls_tried']} | {len(walls)} | {stats['walls_s']:.1f} | "
                         f"{'yes' if walls == reference else '**NO**'} |")
            if method == "graph" and jobs == 1:
                worst = max(worst or 0.0, res["wall_s"])
    if worst is None:
        return lines, ["explain (critical walls) on 8×8 < 10 s end to end", "not measured", "–", "not measured"]
    return lines, [f"explain (critical walls, every interior wall edge) on 8×8 < {TARGET_S:.0f} s end to end, "
                   "one process", f"{worst:.1f} s (slowest board)", f"{worst / TARGET_S:.2f}× the target",
                   "met" if worst < TARGET_S else "**not met**"]
