"""Benchmark of the studio's live answers: how long a wall toggle takes to give the new answer.

For each 8×8 Mummy Maze, the studio's server (in process, through Starlette's test client: the
JSON request, the level checked, the warm game graph patched and ranked, the answer with every
move and the principal line, the picture, the JSON reply) answers the initial position once
(cold: the game graph is computed), then every interior wall is toggled and toggled back, each
toggle one request.  Paired with it, on the first ``--baseline`` walls: the same toggled board
solved from scratch by ``gridsolve.solve.dispatch.dispatcher.solve`` in this process (what a studio without a
warm engine would do at the least; a fresh ``gridsolve solve`` process costs more).  Every live
answer is checked against the solver's on those walls.  Target: median < 150 ms.

    python -m bench studio                 # -> bench/RESULTS-studio.md
    python -m bench studio --walls 20      # fewer walls per board (a quick look)
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import warnings  # noqa: E402

with warnings.catch_warnings():    # starlette asks for httpx2; httpx does the same job here
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient  # noqa: E402

from gridsolve.language.loader import load_board  # noqa: E402
from gridsolve.language.position import make_query  # noqa: E402
from gridsolve.render import verdict  # noqa: E402
from gridsolve.solve.dispatch.dispatcher import solve  # noqa: E402
from gridsolve.explain.walls import interior_walls, toggled  # noqa: E402
from gridsolve.studio.level import level_of  # noqa: E402
from gridsolve.studio.server import create_app  # noqa: E402
from .cases import Case  # noqa: E402

CASE = Case("the studio's edit-to-answer latency (a wall toggle through the server)",
            'bench/RESULTS-studio.md', '--walls 2 --baseline 1 --out /tmp/studio.md')

TARGET_MS = 150.0
BOARDS = ["boards/mummymaze2p-2007.yaml", "boards/generated/mummy-maze-2007-prose-8x8-s1-1.yaml",
          "boards/generated/mummy-maze-2007-prose-8x8-s1-2.yaml", "bench/boards/random-8x8-s1.yaml"]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(board_file: str, walls_limit: int | None, baseline: int) -> dict:
    path = ROOT / board_file
    app = create_app(path.parent, "bench", {"testserver"})
    client = TestClient(app)
    client.cookies.set("gridsolve_studio", "bench")
    board = load_board(path)
    name = path.name

    cpu: list[float] = []

    def ask(level) -> tuple[float, dict]:
        started, cpu_started = time.perf_counter(), time.process_time()
        response = client.post("/api/answer", json={"board": name, "level": level})
        seconds = time.perf_counter() - started
        cpu.append(time.process_time() - cpu_started)
        data = response.json()
        if response.status_code != 200 or "answer" not in data:
            raise SystemExit(f"{board_file}: no live answer: {data}")
        return seconds, data["answer"]

    cold, _ = ask(level_of(board))
    walls = interior_walls(board)[:walls_limit] if walls_limit else interior_walls(board)
    live, solver, mismatches = [], [], 0
    for i, wall in enumerate(walls):
        edited = toggled(board, wall)
        seconds, answer = ask(level_of(edited))
        live.append(seconds)
        if i < baseline:
            started = time.perf_counter()
            expected = solve(edited, make_query(edited))
            solver.append(time.perf_counter() - started)
            mismatches += answer["verdict"] != verdict(expected)
        seconds, _ = ask(level_of(board))
        live.append(seconds)
    paired = live[:2 * baseline:2]
    return {"board": board_file, "cold": cold, "toggles": len(live), "median": statistics.median(live),
            "median_on": statistics.median(live[0::2]), "median_back": statistics.median(live[1::2]),
            "cpu_on": statistics.median(cpu[1::2]),
            "p90": percentile(live, 0.9), "max": max(live), "solver_median": statistics.median(solver) if solver else None,
            "paired_ratio": statistics.median(solver) / statistics.median(paired) if solver else None,
            "checked": len(solver), "mismatches": mismatches}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--walls", type=int, help="toggle only the first N interior walls of each board")
    parser.add_argument("--baseline", type=int, default=10, help="walls also solved from scratch (default 10)")
    parser.add_argument("--out", default=str(ROOT / "bench" / "RESULTS-studio.md"))
    args = parser.parse_args()
    rows = [measure(board, args.walls, args.baseline) for board in BOARDS]
    every = [r["median_on"] for r in rows]
    lines = ["# Studio: edit-to-answer latency (bench/studio.py)", "",
             f"Machine: 2 cores shared with other jobs; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; "
             f"load average {os.getloadavg()[0]:.1f} at the end (the wall clock suffers from other jobs, "
             "the CPU time of this process less).",
             "Each toggle is one `POST /api/answer` through the studio's server in process (JSON in and out, "
             "the level checked, the warm game graph patched and ranked, every move, the principal line "
             "and the picture). `solve` is the same toggled board solved from scratch in process, "
             "paired on the first walls; its answers must equal the studio's.", "",
             "Each wall is toggled (a new layout: the moves near it from clingo) and toggled back (an undo: "
             "the moves restored without clingo); the medians of each kind are shown beside the median "
             "of all toggles.", "",
             "| board | first answer (cold) ms | toggles | median ms | median, toggled ms | median, toggled "
             "back ms | CPU, toggled ms | p90 ms | max ms | solve from scratch, median ms | ratio solve ÷ live (paired) | "
             "answers checked | mismatches |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['board']} | {1000 * r['cold']:.0f} | {r['toggles']} | {1000 * r['median']:.1f} | "
                     f"{1000 * r['median_on']:.1f} | {1000 * r['median_back']:.1f} | {1000 * r['cpu_on']:.1f} | "
                     f"{1000 * r['p90']:.1f} | {1000 * r['max']:.1f} | {1000 * r['solver_median']:.0f} | "
                     f"{r['paired_ratio']:.1f} | {r['checked']} | {r['mismatches']} |")
    worst = max(every)
    lines += ["", f"Target: median < {TARGET_MS:.0f} ms per wall toggle; measured (toggles to a new layout "
              f"only, undos left out): worst board median "
              f"{1000 * worst:.1f} ms ({'met' if 1000 * worst < TARGET_MS else 'NOT met'}, "
              f"{TARGET_MS / (1000 * worst):.1f}x under the target)."]
    text = "\n".join(lines) + "\n"
    Path(args.out).write_text(text, encoding="utf-8")
    print(text)
    return 1 if any(r["mismatches"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
