"""Benchmark of the game with secret obstacles (issues 14, 24), for bench/run.py.

* the robust answer from the start for the whole game (40 plies), both players, both boards:
  ``gridsolve solve BOARD --hidden --role R --json`` in a fresh process (target < 10 s, < 500 MB);
* the robust answer from random positions with random knowledge, both roles, 40 plies
  (``python -m bench hidden --random N``; same target, each);
* ``gridsolve ask`` over 1,000 such questions (``python -m bench hidden --ask N``; target < 60 s);
* every position answered exactly (issue 32): 200 random positions with random knowledge and
  100 at step 1 where the asking player knows only its own cell, either role, side and question,
  each answered alone (nothing kept from the one before) with 10 s and 500 MB
  (``python -m bench hidden --exact`` prints the times as JSON; ``--exact-table`` the table);
* a computer move in ``play``: every decision of the computer (p2, it does not peek) in one
  scripted game on ``boards/maze-runner-duel-secret.yaml``, timed around ``blind.choose``
  (``python -m bench hidden --moves`` prints them as JSON; run in a fresh process).
"""
from __future__ import annotations

import json
import math
import statistics
import sys
import time
from pathlib import Path
from .cases import Case  # noqa: E402

CASE = Case("the game with secret obstacles: robust answers, ask, exact positions, the computer's moves",
            None, '--moves')

ROOT = Path(__file__).resolve().parent.parent
BOARD = "boards/maze-runner-duel.yaml"
SECRET = "boards/maze-runner-duel-secret.yaml"
SOLVES = [(BOARD, "p1"), (BOARD, "p2"), (SECRET, "p1"), (SECRET, "p2")]
TARGET_SOLVE_S, TARGET_SOLVE_MB, TARGET_ASK_S = 10.0, 500, 60.0
ASK_CAP_S = 300.0              # ask over the random questions stops here; the rest is extrapolated
RANDOM, ASKED = 40, 1000
TARGET_MOVE_S = 2.0
HUMAN = "3,2 4,3 4,2"          # the human's (p1) obstacles: on the computer's shortest ways
HUMAN_MOVES = ["east", "east", "south", "south", "west", "east"] * 6


def solve_rows(run_child, cli, timeout, mem_limit_mb, log) -> list[str]:
    lines = ["| question | answer | end to end (s) | CPU (s) | peak RSS (MB) | searched |",
             "|---|---|---|---|---|---|"]
    for board, role in SOLVES:
        argv = cli + ["solve", board, "--hidden", "--role", role, "--json"]
        label = f"`{' '.join(argv[len(cli):])}`"
        log(f"  hidden: {label} ...")
        res = run_child(argv, timeout, mem_limit_mb)
        if res["rc"] == 0:
            a = json.loads(res["stdout"])
            answer = (f"value {a['value']} in {a['plies']} plies within {a['remaining']} (survives "
                      f"{str(a['survives']).lower()}, doom {a['doom_plies']})")
            lines.append(f"| {label} | {answer} | {res['wall_s']:.2f} | {res['cpu_s']:.2f} | {res['maxrss_mb']:.0f} | "
                         + (f"{a['stats']['searched']:,}" if a['stats'].get('searched') is not None else '–') + ' |')
        else:
            said = (res["stderr"].strip().splitlines() or ["?"])[-1].replace("|", "/")
            lines.append(f"| {label} | exit {res['rc']}: {said} | {res['wall_s']:.2f} | {res['cpu_s']:.2f} | "
                         f"{res['maxrss_mb']:.0f} | – |")
    for flag, count in (("--random", RANDOM), ("--ask", ASKED)):
        log(f"  hidden: {flag} {count} ...")
        res = run_child([sys.executable, "-m", "bench.hidden", flag, str(count)], timeout * 10, mem_limit_mb)
        if res["rc"] != 0:
            lines.append(f"| {flag} {count} | exit {res['rc']} | {res['wall_s']:.2f} | – | {res['maxrss_mb']:.0f} | – |")
            continue
        data = json.loads(res["stdout"])
        if flag == "--random":
            times = sorted(data["times"])
            over = sum(1 for t in times if t >= TARGET_SOLVE_S)
            lines.append(f"| {count} random positions, random knowledge, both roles | median {statistics.median(times):.2f} s, "
                         f"max {times[-1]:.2f} s; {data['stopped']} of {count} stopped at {TARGET_SOLVE_S:.0f} s "
                         f"({over} reached it) | {res['wall_s']:.2f} | "
                         f"{res['cpu_s']:.2f} | {res['maxrss_mb']:.0f} | – |")
        else:
            whole = "" if data["asked"] == count else f" (capped at {ASK_CAP_S:.0f} s)"
            lines.append(f"| `ask` over {count} random questions{whole} | {data['answered']} answered, {data['errors']} "
                         f"stopped in {data['seconds']:.0f} s; {count:,} in {data['all_s']:.0f} s"
                         f"{' (extrapolated)' if whole else ''}, target < {TARGET_ASK_S:.0f} s | {res['wall_s']:.2f} | "
                         f"{res['cpu_s']:.2f} | {res['maxrss_mb']:.0f} | – |")
    return lines


def random_questions(count: int, seed: int = 7) -> list[str]:
    """``count`` ask lines: random positions of both tokens, side, random knowledge, both roles."""
    sys.path.insert(0, str(ROOT))
    import random
    from gridsolve.language.loader import load_board
    board = load_board(ROOT / BOARD)
    rng = random.Random(seed)
    cells = [(x, y) for x in range(1, 6) for y in range(1, 6) if (x, y) != (3, 3)]
    out = []
    for _ in range(count):
        role = rng.choice(["p1", "p2"])
        p1, p2 = rng.sample(cells, 2)
        allowed = [c for c in cells if c not in ((1, 5), (5, 1), p1 if role == "p1" else p2)]
        found = rng.sample(allowed, rng.randint(0, 3))
        rest = [c for c in allowed if c not in found]
        free = rng.sample(rest, rng.randint(0, len(rest) // 2))
        out.append(json.dumps({"role": role, "hidden": True, "at": {"p1": list(p1), "p2": list(p2)},
                               "turn": rng.choice(board.rules.roles), "free": [list(c) for c in free],
                               "found": [list(c) for c in found], "line": False}))
    return out


def random_solves(count: int) -> dict:
    from gridsolve.errors import LimitError
    from gridsolve.language.loader import load_board
    from gridsolve.ask.questions import parse_question
    from gridsolve.solve.common.limits import Limits
    from gridsolve.solve.dispatch.dispatcher import solve
    board = load_board(ROOT / BOARD)
    times, stopped = [], 0
    for line in random_questions(count, seed=11):
        query = parse_question(board, line).query
        started = time.perf_counter()
        try:
            solve(board, query, Limits(seconds=TARGET_SOLVE_S))
        except LimitError:
            stopped += 1
        times.append(time.perf_counter() - started)
    return {"times": times, "stopped": stopped}


EXACT_RANDOM, EXACT_START, EXACT_SEED = 200, 100, 32
EXACT_MEMORY = 500 * 1000 ** 2


def exact_questions(seed: int = EXACT_SEED) -> dict[str, list[str]]:
    """Item 1's questions: ``random`` (random knowledge, as :func:`random_questions` draws them, a
    random question kind) and ``start`` (step 1, the asking player knows only its own cell)."""
    import random
    rng = random.Random(seed)
    kinds = ["value", "win", "survive"]
    randoms = []
    for line in random_questions(EXACT_RANDOM, seed=seed):
        fields = json.loads(line)
        fields["query"] = rng.choice(kinds)
        randoms.append(json.dumps(fields))
    cells = [(x, y) for x in range(1, 6) for y in range(1, 6) if (x, y) != (3, 3)]
    starts = []
    for _ in range(EXACT_START):
        p1, p2 = rng.sample(cells, 2)
        starts.append(json.dumps({"role": rng.choice(["p1", "p2"]), "hidden": True, "query": rng.choice(kinds),
                                  "at": {"p1": list(p1), "p2": list(p2)}, "turn": rng.choice(["p1", "p2"]),
                                  "step": 1, "line": False}))
    return {"random": randoms, "start": starts}


def exact_solves() -> dict:
    """Each of item 1's questions answered alone: {set: [[seconds, stopped, question]]}."""
    from gridsolve.errors import LimitError
    from gridsolve.language.loader import load_board
    from gridsolve.solve.hidden import knowing
    from gridsolve.ask.questions import parse_question
    from gridsolve.solve.common.limits import Limits
    from gridsolve.solve.dispatch.dispatcher import solve
    board = load_board(ROOT / BOARD)
    out = {}
    for name, lines in exact_questions().items():
        rows = out[name] = []
        for line in lines:
            knowing._PREPARED.clear()
            query = parse_question(board, line).query
            started = time.perf_counter()
            try:
                solve(board, query, Limits(seconds=TARGET_SOLVE_S, memory=EXACT_MEMORY), line_plies=0)
                stopped = False
            except LimitError:
                stopped = True
            rows.append([time.perf_counter() - started, stopped, line])
    return out


def exact_table(before: dict | None, after: dict) -> list[str]:
    """Item 1's table: median, 99th percentile, max and stopped, before and after."""
    def figures(rows):
        times = sorted(t for t, _, _ in rows)
        p99 = times[min(len(times) - 1, math.ceil(0.99 * len(times)) - 1)]
        return (f"{statistics.median(times):.2f} s", f"{p99:.2f} s", f"{times[-1]:.2f} s",
                f"{sum(1 for _, s, _ in rows if s)} of {len(rows)}")
    lines = ["| positions | | median | 99th percentile | max | stopped at 10 s / 500 MB |", "|---|---|---|---|---|---|"]
    labels = {"random": f"{EXACT_RANDOM} random, random knowledge", "start": f"{EXACT_START} at step 1, own cell known"}
    for name, label in labels.items():
        for when, data in (("before", before), ("after", after)):
            if data is not None:
                lines.append(f"| {label} | {when} | " + " | ".join(figures(data[name])) + " |")
    return lines


def ask_many(count: int, cap_s: float = None) -> dict:
    """``gridsolve ask`` over ``count`` random questions, stopped after ``cap_s`` seconds (the
    pace then extrapolated to all of them)."""
    from gridsolve.language.loader import load_board
    from gridsolve.ask.questions import ask_many as ask
    cap_s = ASK_CAP_S if cap_s is None else cap_s
    board = load_board(ROOT / BOARD)
    started = time.perf_counter()
    replies = []
    for reply in ask(board, random_questions(count)):
        replies.append(reply)
        if time.perf_counter() - started > cap_s:
            break
    elapsed = time.perf_counter() - started
    errors = sum(1 for r in replies if r.error is not None)
    return {"answered": len(replies) - errors, "errors": errors, "asked": len(replies), "seconds": elapsed,
            "all_s": elapsed if len(replies) == count else elapsed / max(1, len(replies)) * count}


def move_rows(run_child, timeout, mem_limit_mb, log) -> tuple[list[str], tuple[str, str, str]]:
    """The computer's decisions in one scripted game: the table and (measured, ratio, status)."""
    log("  hidden: the computer's moves in a scripted game ...")
    res = run_child([sys.executable, "-m", "bench.hidden", "--moves"], timeout, mem_limit_mb)
    if res["rc"] != 0:
        return ([f"not measured: exit {res['rc']}"], ("not measured", "–", "not measured"))
    data = json.loads(res["stdout"])
    times = data["times"]
    worst, med = max(times), statistics.median(times)
    lines = ["| computer decisions | median (s) | max (s) | min (s) | game | peak RSS (MB) |",
             "|---|---|---|---|---|---|",
             f"| {len(times)} | {med:.2f} | {worst:.2f} | {min(times):.2f} | {data['end']} after {data['plies']} plies | "
             f"{res['maxrss_mb']:.0f} |", "",
             "Each decision: the robust question from the computer's knowledge (to the step limit) and up to 60 "
             "placements it cannot rule out solved with full information to the step limit. Decisions: "
             + "; ".join(data["why"][:6]) + ("; ..." if len(data["why"]) > 6 else "")]
    status = "met" if worst < TARGET_MOVE_S else "**not met**"
    return lines, (f"median {med:.2f} s, max {worst:.2f} s over {len(times)} decisions",
                   f"{worst / TARGET_MOVE_S:.2f}× the target (max)", status)


def scripted_game() -> dict:
    """Play the scripted game; time every decision of the computer."""
    sys.path.insert(0, str(ROOT))
    from gridsolve.play import blind
    from gridsolve.language.loader import load_board
    from gridsolve.language.position import initial_position
    from gridsolve.play.game import play
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
    elif sys.argv[1:2] == ["--random"]:
        sys.path.insert(0, str(ROOT))
        print(json.dumps(random_solves(int(sys.argv[2]))))
    elif sys.argv[1:] == ["--exact"]:
        sys.path.insert(0, str(ROOT))
        print(json.dumps(exact_solves()))
    elif sys.argv[1:2] == ["--exact-table"]:
        # --exact-table AFTER.json [BEFORE.json]
        files = [json.loads(Path(f).read_text()) for f in sys.argv[2:4]]
        print("\n".join(exact_table(files[1] if len(files) > 1 else None, files[0])))
    elif sys.argv[1:2] == ["--ask"]:
        sys.path.insert(0, str(ROOT))
        print(json.dumps(ask_many(int(sys.argv[2]))))
