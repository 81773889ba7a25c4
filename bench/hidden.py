"""Benchmark of the game with secret obstacles (issue 14), for bench/run.py.

* the robust value from the start for the whole game (40 plies), both players:
  ``gridsolve solve boards/maze-runner-duel.yaml --hidden --role R --json`` in a fresh process;
* the largest horizon the robust game is solved at exactly (``--horizon 12``) and the next
  even one, which must stop at the limits (exit 3);
* a computer move in ``play``: every decision of the computer (p2, it does not peek) in one
  scripted game on ``boards/maze-runner-duel-secret.yaml``, timed around ``blind.choose``
  (``python bench/hidden.py --moves`` prints them as JSON; run in a fresh process).
"""
from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BOARD = "boards/maze-runner-duel.yaml"
SECRET = "boards/maze-runner-duel-secret.yaml"
SOLVES = [("p1", None), ("p2", None), ("p1", 12), ("p1", 14)]
TARGET_MOVE_S = 2.0
HUMAN = "3,2 4,3 4,2"          # the human's (p1) obstacles: on the computer's shortest ways
HUMAN_MOVES = ["east", "east", "south", "south", "west", "east"] * 6


def solve_rows(run_child, cli, timeout, mem_limit_mb, log) -> list[str]:
    lines = ["| question | answer | settled at (plies) | end to end (s) | CPU (s) | peak RSS (MB) | ground atoms |",
             "|---|---|---|---|---|---|---|"]
    for role, horizon in SOLVES:
        argv = cli + ["solve", BOARD, "--hidden", "--role", role, "--json"] + (
            ["--horizon", str(horizon)] if horizon else [])
        label = f"`{' '.join(argv[len(cli):])}`"
        log(f"  hidden: {label} ...")
        res = run_child(argv, timeout, mem_limit_mb)
        if res["rc"] == 0:
            a = json.loads(res["stdout"])
            answer = (f"value {a['value']} in {a['plies']} plies within {a['remaining']} (survives "
                      f"{str(a['survives']).lower()}, doom {a['doom_plies']})")
            lines.append(f"| {label} | {answer} | {a['stats'].get('settled_at', '–')} | {res['wall_s']:.2f} | "
                         f"{res['cpu_s']:.2f} | {res['maxrss_mb']:.0f} | {a['stats']['ground_atoms']:,} |")
        else:
            said = (res["stderr"].strip().splitlines() or ["?"])[-1].replace("|", "/")
            lines.append(f"| {label} | exit {res['rc']}: {said} | – | {res['wall_s']:.2f} | {res['cpu_s']:.2f} | "
                         f"{res['maxrss_mb']:.0f} | – |")
    return lines


def move_rows(run_child, timeout, mem_limit_mb, log) -> tuple[list[str], tuple[str, str, str]]:
    """The computer's decisions in one scripted game: the table and (measured, ratio, status)."""
    log("  hidden: the computer's moves in a scripted game ...")
    res = run_child([sys.executable, str(Path(__file__).resolve()), "--moves"], timeout, mem_limit_mb)
    if res["rc"] != 0:
        return ([f"not measured: exit {res['rc']}"], ("not measured", "–", "not measured"))
    data = json.loads(res["stdout"])
    times = data["times"]
    worst, med = max(times), statistics.median(times)
    lines = ["| computer decisions | median (s) | max (s) | min (s) | game | peak RSS (MB) |",
             "|---|---|---|---|---|---|",
             f"| {len(times)} | {med:.2f} | {worst:.2f} | {min(times):.2f} | {data['end']} after {data['plies']} plies | "
             f"{res['maxrss_mb']:.0f} |", "",
             "Each decision: the robust question from the computer's knowledge (6 plies) and 12 placements "
             "it cannot rule out solved with full information (8 plies) in one grounding. Decisions: "
             + "; ".join(data["why"][:6]) + ("; ..." if len(data["why"]) > 6 else "")]
    status = "met" if worst < TARGET_MOVE_S else "**not met**"
    return lines, (f"median {med:.2f} s, max {worst:.2f} s over {len(times)} decisions",
                   f"{worst / TARGET_MOVE_S:.2f}× the target (max)", status)


def scripted_game() -> dict:
    """Play the scripted game; time every decision of the computer."""
    sys.path.insert(0, str(ROOT))
    from gridsolve import blind
    from gridsolve.language.loader import load_board
    from gridsolve.language.position import initial_position
    from gridsolve.play import play
    times, why = [], []
    choose = blind.choose

    def timed(*args, **kwargs):
        started = time.perf_counter()
        choice = choose(*args, **kwargs)
        times.append(time.perf_counter() - started)
        why.append(f"{choice.move}: {choice.why}")
        return choice
    blind.choose = timed
    board = load_board(ROOT / SECRET)
    lines = iter([HUMAN] + HUMAN_MOVES)
    outcome = play(board, {"p1"}, lines, lambda text: None, initial_position(board), seed=1)
    return {"times": times, "why": why, "end": outcome.end, "plies": outcome.plies}


if __name__ == "__main__":
    if sys.argv[1:] == ["--moves"]:
        print(json.dumps(scripted_game()))
