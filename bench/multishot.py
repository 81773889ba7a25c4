"""Benchmark of "ground once, ask many times" (gridsolve/solve/race/racesolver.py), for bench/run.py.

Each set of questions is answered twice in one fresh worker process: by one engine
(``gridsolve.solve.dispatch.asker.Asker``, as verify, play and ``gridsolve ask`` use it) and by
``gridsolve.solve.dispatch.dispatcher.solve`` for each question alone.  The answers must agree (every field and
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
    ("play: Pacman's value and first move at the whole step limit, 24 positions of a game (bounded memo)",
     "boards/pacman3p.yaml", "game", 1),
]
QUICK_SETS = SETS[1:2]


def _walk(board, plies: int, seed: int):
    """Positions along a random game of at most ``plies`` plies from the initial position."""
    from gridsolve.solve.program.explore import examine
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
    from gridsolve.solve.dispatch.asker import Asker
    from gridsolve.language.loader import load_board
    from gridsolve.solve.dispatch.dispatcher import solve
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
    alone = [solve(board, q, line_plies=line_plies) for q in asked]
    alone_s = time.perf_counter() - started
    agree = sum(_comparable(a, line_plies is None) == _comparable(b, line_plies is None)
                for (a, _), b in zip(engine_answers, alone))
    first = engine_answers[0][0].stats
    ground_s = first.engine_ground_s if first.engine_ground_s is not None else first.ground_s
    return {"questions": len(asked), "engine_s": engine_s, "ground_s": ground_s,
            "first_s": engine_answers[0][1], "later_max_s": max((t for _, t in engine_answers[1:]), default=None),
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


# - 1,000 random questions per seed board (gridsolve ask) ---

ASK_BOARDS = ["boards/mummymaze2p-2007.yaml", "boards/mummymaze2p.yaml", "boards/wallmaze.yaml",
              "boards/pacman3p.yaml", "boards/maze-runner-duel.yaml"]
ASK_QUESTIONS = 1000
ASK_CAP_S = 60.0      # a set stops after this many seconds; the rest is extrapolated from its pace
ASK_TARGET_S = 60.0   # issue 21's target for the whole set of questions


def question_lines(board, n: int, seed: int, line: bool) -> list[str]:
    """``n`` random questions as ``gridsolve ask`` reads them: the pieces on random free cells
    (two never share one), a random side to move, role and kind; ``"line": false`` unless ``line``."""
    import json
    rng = random.Random(seed)
    cells = [(x, y) for x in range(1, board.width + 1) for y in range(1, board.height + 1) if board.on_board((x, y))]
    roles = board.rules.roles
    out = []
    for _ in range(n):
        question = {"role": rng.choice(roles), "query": rng.choice(["value", "win", "survive"]),
                    "at": {r: list(c) for r, c in zip(roles, rng.sample(cells, len(roles)))},
                    "turn": rng.choice(roles)}
        if not line:
            question["line"] = False
        out.append(json.dumps(question))
    return out


def ask_worker(spec: dict) -> dict:
    """Answer the random questions of ``spec`` as ``gridsolve ask`` does (load the board, then
    :func:`gridsolve.ask.questions.ask_many` over the lines) until all are answered or
    ASK_CAP_S has passed: the time of each reply and a digest of each answer (stats and line left out)."""
    import hashlib
    import json
    from gridsolve.language.loader import load_board
    from gridsolve.ask.questions import ask_many
    started = time.perf_counter()
    board = load_board(spec["board"])
    lines = question_lines(board, spec["n"], spec["seed"], spec["line"])
    times, digests, errors, last = [], [], 0, time.perf_counter()
    for reply in ask_many(board, lines):
        now = time.perf_counter()
        times.append(now - last)
        last = now
        answer = reply.as_dict()
        errors += "error" in answer
        for key in ("stats", "line", "question"):
            answer.pop(key, None)
        digests.append(hashlib.sha1(json.dumps(answer, sort_keys=True).encode()).hexdigest())
        if now - started > spec["cap_s"]:
            break
    return {"total_s": time.perf_counter() - started, "times": times, "digests": digests, "errors": errors}


def ask_rows(args, run_worker, log) -> list[str]:
    """One run per seed board and mode: ASK_QUESTIONS random questions without lines (every
    board) and with lines (the boards the race solver answers: elsewhere the line costs nothing
    more), capped at ASK_CAP_S."""
    lines = [f"| board | questions | lines | answered (errors) | time (s) | first reply (s) | median of replies 2-100 (s) | "
             f"median of the last 100 (s) | {ASK_QUESTIONS:,} questions (s) | < {ASK_TARGET_S:.0f} s | check |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for board in ASK_BOARDS:
        runs = {}
        for line in (False, True):
            if line and board not in ASK_BOARDS[:2]:
                continue
            log(f"  ask: {ASK_QUESTIONS} random questions on {board}, lines {line} ...")
            res = run_worker({"kind": "ask", "board": board, "n": ASK_QUESTIONS, "seed": args.seed, "line": line,
                              "cap_s": ASK_CAP_S}, ASK_CAP_S + args.timeout, args.mem_limit_mb)
            runs[line] = res.get("result")
            r = runs[line]
            if r is None:
                lines.append(f"| {board} | {ASK_QUESTIONS:,} | {'yes' if line else 'no'} | – | – | – | – | – | – | – | "
                             f"did not finish |")
                continue
            n, times = len(r["times"]), r["times"]
            whole = r["total_s"] if n == ASK_QUESTIONS else r["total_s"] / n * ASK_QUESTIONS
            early = statistics.median(times[1:100]) if n > 1 else None
            late = statistics.median(times[-100:]) if n >= 200 else None
            check = "–"
            if line and runs.get(False):
                same = sum(a == b for a, b in zip(r["digests"], runs[False]["digests"]))
                check = f"{same} of {n} equal to the answers without lines" + ("" if same == n else " **differ**")
            fmt = (lambda v: f"{v:.4f}" if v is not None else "–")
            lines.append(f"| {board} | {ASK_QUESTIONS:,} | {'yes' if line else 'no'} | {n} ({r['errors']}) | "
                         f"{r['total_s']:.1f} | {times[0]:.2f} | {fmt(early)} | {fmt(late)} | "
                         f"{whole:.0f}{'' if n == ASK_QUESTIONS else ' (extrapolated)'} | "
                         f"{'met' if whole < ASK_TARGET_S else f'**not met** ({whole / ASK_TARGET_S:.1f}×)'} | {check} |")
    return lines
