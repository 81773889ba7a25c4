"""Benchmark of "ground once, ask many times" (gridsolve/solve/engine.py), for bench/run.py.

Each set of questions is answered twice in one fresh worker process: by one engine
(``gridsolve.solve.engine.Asker``, as verify, play and ``gridsolve ask`` use it) and by
``gridsolve.solve.solver.solve`` for each question alone.  The answers must agree (every field and
every move; the principal line where the engine computed all of it, else its first move).
"""
from __future__ import annotations

import random
import statistics
import time

# (label, board, what is asked, engine line plies)
SETS = [
    ("verify: 12 expectations (2 roles × value/win/survive × 2 positions)", "boards/mummymaze2p-2007.yaml",
     "expectations", 1),
    ("ask: the same 12 questions with whole principal lines", "boards/mummymaze2p-2007.yaml", "expectations", None),
    ("play: the solver's move at each of 24 positions of a game", "boards/mummymaze2p-2007.yaml", "game", 1),
    ("ask: value, every move's value and the line at 12 positions, 8×8 h50", "RANDOM8", "walk", None),
]
QUICK_SETS = SETS[1:2]


def _walk(board, plies: int, seed: int):
    """Positions along a random game of at most ``plies`` plies from the initial position."""
    from gridsolve.solve.explore import examine
    from gridsolve.language.position import initial_position
    rng = random.Random(seed)
    position, out = initial_position(board), []
    for _ in range(plies):
        out.append(position)
        end, steps = examine(board, position)
        if end is not None or not steps or position.step >= board.rules.last_step:
            break
        position = rng.choice(steps).position
    return out


def questions(board, what: str):
    from gridsolve.language.position import Query
    rules = board.rules
    if what == "expectations":
        positions = _walk(board, 7, 1)[::6][:2]
        return [Query(role, kind, p) for p in positions for role in rules.roles for kind in ("value", "win", "survive")]
    if what == "game":
        return [Query(rules.turns[p.side][0], "value", p) for p in _walk(board, 24, 2)]
    return [Query("explorer", "value", p, 50) for p in _walk(board, 12, 3)]


def _comparable(answer, whole_line: bool) -> dict:
    out = answer.as_dict()
    out.pop("stats")
    if not whole_line:
        out["line"] = out["line"][:1]
    return out


def worker(spec: dict) -> dict:
    """Time one set: the engine's answers, then each question solved alone."""
    from gridsolve.solve.engine import Asker
    from gridsolve.language.loader import load_board
    from gridsolve.solve.solver import solve
    board = load_board(spec["board"])
    asked = questions(board, spec["what"])
    line_plies = spec["line_plies"]
    started = time.perf_counter()
    asker = Asker.for_queries(board, asked)
    engine_answers = []
    for query in asked:
        t = time.perf_counter()
        engine_answers.append((asker.ask(query, line_plies=line_plies), time.perf_counter() - t))
    engine_s = time.perf_counter() - started
    started = time.perf_counter()
    alone = [solve(board, q) for q in asked]
    alone_s = time.perf_counter() - started
    agree = sum(_comparable(a, line_plies is None) == _comparable(b, line_plies is None)
                for (a, _), b in zip(engine_answers, alone))
    ground_s = engine_answers[0][0].stats["engine_ground_s"]
    return {"questions": len(asked), "engine_s": engine_s, "ground_s": ground_s,
            "per_question_s": statistics.median(t for _, t in engine_answers[1:]) if len(asked) > 1 else None,
            "alone_s": alone_s, "agree": agree, "groundings": asker.groundings}


def rows(args, run_worker, random_board: str, log) -> list[str]:
    """The table of the sets (medians over ``args.repeat`` worker runs)."""
    lines = ["| questions | n | engine: grounding once (s) | engine: each further question (s) | "
             "engine, all (s) | `solve` each, all (s) | engine ÷ `solve` each | check |",
             "|---|---|---|---|---|---|---|---|"]
    for label, board, what, line_plies in (QUICK_SETS if args.quick else SETS):
        board = random_board if board == "RANDOM8" else board
        log(f"  ground once, ask many: {label} ...")
        runs = [run_worker({"kind": "multishot", "board": board, "what": what, "line_plies": line_plies},
                           args.timeout, args.mem_limit_mb) for _ in range(args.repeat)]
        done = [r["result"] for r in runs if r.get("result")]
        if not done:
            lines.append(f"| {label} | – | – | – | – | – | – | did not finish |")
            continue

        def m(key):
            return statistics.median(d[key] for d in done)
        n = done[0]["questions"]
        agree = min(d["agree"] for d in done)
        grounds = max(d["groundings"] for d in done)
        check = (f"all {n} agree" if agree == n else f"**{n - agree} of {n} differ**") + f", {grounds} grounding(s)"
        per = f"{m('per_question_s'):.3f}" if done[0]["per_question_s"] is not None else "–"
        lines.append(f"| {label} | {n} | {m('ground_s'):.2f} | {per} | {m('engine_s'):.2f} | {m('alone_s'):.2f} | "
                     f"{statistics.median(d['engine_s'] / d['alone_s'] for d in done):.2f}× | {check} |")
    return lines
