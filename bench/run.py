#!/usr/bin/env python
"""gridsolve benchmark: one command, one table (bench/RESULTS.md).

    python -m bench run              # full run (several minutes), writes bench/RESULTS.md
    python -m bench run --quick      # smoke run (under a minute), writes bench/RESULTS-quick.md
    python -m bench run --repeat 5   # more repetitions per measurement (default 3; --quick: 1)

Every measured solve runs in a fresh subprocess; its peak memory is that child's ru_maxrss
(read with os.wait4, so it is exactly that child's figure).  See bench/README.md for how to read
the table.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from collections import deque
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
from . import multishot  # noqa: E402  (bench/multishot.py: ground once, ask many times)
from . import engine as engine_bench  # noqa: E402  (bench/engine.py: the race solver per board size)
from . import explainbench  # noqa: E402  (bench/explainbench.py: gridsolve explain, critical walls)
from . import hidden as hidden_bench  # noqa: E402  (bench/hidden.py: the game with secret obstacles)
from . import expected  # noqa: E402  (bench/expected.py: the answers the boards' expect blocks record)
from .launch import LAUNCHER, git_rev, gridsolve_cli, log, machine_info, med, run_child  # noqa: E402,F401  (bench/launch.py)
from .cases import Case  # noqa: E402

CASE = Case('the main table: seed queries, random boards, newer mechanisms, limits, baselines, generation',
            'bench/RESULTS.md', '--quick --out /tmp/quick.md')
GENERATED = BENCH / "boards"
SEED_BOARDS = ["boards/mummymaze2p-2007.yaml", "boards/mummymaze2p.yaml"]
ROLES = ["explorer", "mummy"]
QUERIES = ["value", "win", "survive"]
SIZES = [8, 12, 16]
HORIZONS = [20, 50, 100]
FIELDS = ["holds", "value", "plies", "win", "win_plies", "survives", "doom_plies", "remaining"]
MOVE_FIELDS = ("value", "plies", "win", "survives")

# The seed games with the newer mechanisms (simultaneous moves, teams, collectibles, score
# tables, bumps and lost turns): the queries of the issue.  reference/retrograde.py does not support
# these mechanisms, so they are checked against the answers the boards record only (bench/expected.py).
MECH_CASES = [  # (board, role, query, horizon)
    ("boards/maze-runner-duel.yaml", "p1", "value", None),
    ("boards/maze-runner-duel.yaml", "p2", "survive", None),
    ("boards/wallmaze.yaml", "white", "value", None),
    ("boards/wallmaze.yaml", "white", "value", 8),
    ("boards/pacman3p.yaml", "pacman", "survive", None),
    ("boards/pacman3p.yaml", "pacman", "value", 6),
    ("boards/pacman3p.yaml", "pacman", "value", 10),
    ("boards/pacman3p.yaml", "blinky", "value", None),
]
# Full size: Pacman's value and win at the whole step limit (99 plies; the bounded solver, target
# < 60 s and < 1.5 GB), and a horizon the layered solver alone could not fit (it stopped at 15).
LIMIT_CASES = [("boards/pacman3p.yaml", "pacman", "value", None), ("boards/pacman3p.yaml", "pacman", "win", None),
               ("boards/pacman3p.yaml", "pacman", "value", 15)]
# open boards: the 24x24 answers under the default --max-memory of 2 GB (issue 21), the 64x64 must stop
# before it (issue 13), within a minute
MEMORY_CASES = [("bench/boards/open-24x24.yaml", "explorer", "value", None),
                ("bench/boards/open-64x64.yaml", "explorer", "value", None)]
# The generation of issue 5: five 8x8 Mummy Mazes with non-trivial forced escapes of 20 plies or more.
GENERATION = ["generate", "--rules", "mummy-maze-2007-prose", "--size", "8x8", "--plies", "20..", "--count", "5",
              "--seed", "1"]

TARGET_SEED_S = 0.5
TARGET_RATIO_8 = 3.0
TARGET_16_S = 5.0
TARGET_16_MB = 1024.0


# =========================================================================================
# Random boards

def generate_board(n: int, seed: int, wall_fraction: float = 0.25) -> dict:
    """A random n x n Mummy Maze board: a random spanning tree of open edges keeps every cell
    connected; walls are drawn from the other edges until ``wall_fraction`` of all interior
    edges are walls (so the maze also has loops: the mummy can be dodged).  The exit is on
    the border, the explorer far from it (in the farthest quarter by maze distance), the
    mummy at maze distance >= 3 from the explorer."""
    rng = random.Random(f"gridsolve-bench-{n}x{n}-{seed}")
    cells = [(x, y) for x in range(1, n + 1) for y in range(1, n + 1)]
    edges = [("north", (x, y)) for x in range(1, n + 1) for y in range(1, n)]
    edges += [("east", (x, y)) for x in range(1, n) for y in range(1, n + 1)]
    rng.shuffle(edges)
    parent = {c: c for c in cells}

    def find(c):
        while parent[c] != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c

    rest = []
    for kind, (x, y) in edges:
        other = (x, y + 1) if kind == "north" else (x + 1, y)
        a, b = find((x, y)), find(other)
        if a != b:
            parent[a] = b
        else:
            rest.append((kind, (x, y)))
    walls = rng.sample(rest, min(len(rest), round(wall_fraction * len(edges))))
    north = sorted(c for k, c in walls if k == "north")
    east = sorted(c for k, c in walls if k == "east")
    wn, we = set(north), set(east)

    def neighbours(c):
        x, y = c
        if y < n and (x, y) not in wn:
            yield (x, y + 1)
        if y > 1 and (x, y - 1) not in wn:
            yield (x, y - 1)
        if x < n and (x, y) not in we:
            yield (x + 1, y)
        if x > 1 and (x - 1, y) not in we:
            yield (x - 1, y)

    def distances(src):
        dist, queue = {src: 0}, deque([src])
        while queue:
            c = queue.popleft()
            for d in neighbours(c):
                if d not in dist:
                    dist[d] = dist[c] + 1
                    queue.append(d)
        return dist

    border = [c for c in cells if c[0] in (1, n) or c[1] in (1, n)]
    exit_cell = rng.choice(border)
    from_exit = distances(exit_cell)
    assert len(from_exit) == n * n, "the maze must be connected"
    far = sorted(cells, key=lambda c: from_exit[c])[-max(1, n * n // 4):]
    explorer = rng.choice(far)
    from_explorer = distances(explorer)
    mummy = rng.choice([c for c in cells if from_explorer[c] >= 3 and c != exit_cell])
    return {"n": n, "seed": seed, "north": north, "east": east, "explorer": explorer, "mummy": mummy,
            "exit": exit_cell, "walls": len(walls), "edges": len(edges)}


def board_yaml(spec: dict) -> str:
    def cells(cs):
        return "[" + ", ".join(f"[{x}, {y}]" for x, y in cs) + "]"
    n = spec["n"]
    return "\n".join([
        f"# Generated by bench/run.py (seed {spec['seed']}): {spec['walls']} walls on {spec['edges']} interior",
        "# edges, every cell connected. Regenerated by every benchmark run; do not edit."
        + (f"\n# Position: the deepest forced escape ({spec['escape_rank']} plies) with the explorer to move."
           if "escape_rank" in spec else ""),
        f"name: bench random {n}x{n} (seed {spec['seed']})",
        "rules:",
        "  use: mummy-maze-2007",
        "  steps: {first: 1, last: 101}",
        f"size: [{n}, {n}]",
        "walls:",
        f"  north: {cells(spec['north'])}",
        f"  east: {cells(spec['east'])}",
        "pieces: {explorer: [%d, %d], mummy: [%d, %d]}" % (*spec["explorer"], *spec["mummy"]),
        f"marks: {{exit: {cells([spec['exit']])}}}",
        "",
    ])


def pick_position(path: Path, spec: dict) -> dict:
    """Put the pieces on the position (explorer to move) with the deepest forced escape, found
    with the baseline's ranks, so that the answer depends on the horizon (ties: seeded choice)."""
    from reference import retrograde
    game = retrograde.Game(path, [spec["explorer"], spec["mummy"]], 0)
    rank = game.ranks({0}, {"escaped"}, 10 ** 6)
    best = max(r for i, r in enumerate(rank) if game.states[i][0] == 0)
    choices = sorted(game.states[i] for i, r in enumerate(rank) if r == best and game.states[i][0] == 0)
    state = random.Random(f"gridsolve-bench-pick-{spec['n']}-{spec['seed']}").choice(choices)
    return {**spec, "explorer": game.cells[state[1]], "mummy": game.cells[state[2]], "escape_rank": best}


def write_boards(sizes, seed) -> dict[int, Path]:
    GENERATED.mkdir(exist_ok=True)
    out = {}
    for n in sizes:
        path = GENERATED / f"random-{n}x{n}-s{seed}.yaml"
        spec = generate_board(n, seed)
        tmp = GENERATED / f".tmp-{n}x{n}-s{seed}.yaml"
        tmp.write_text(board_yaml(spec))
        try:
            spec = pick_position(tmp, spec)
        finally:
            tmp.unlink()
        text = board_yaml(spec)
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
        out[n] = path
    return out


# =========================================================================================
# Workers: each measured thing runs in a fresh interpreter (`run.py --worker JSON`)

def _answer_fields(d: dict) -> dict:
    """The fields the cross-check compares, from a gridsolve --json answer."""
    out = {k: d.get(k) for k in FIELDS}
    out["moves"] = {m["move"]: [m.get(k) for k in MOVE_FIELDS] for m in d.get("moves") or []}
    return out


def _baseline_fields(d: dict, kind: str) -> dict:
    """reference/retrograde.py's answer as the same fields (holds and plies follow the query kind)."""
    out = {k: d.get(k) for k in FIELDS}
    out["holds"], out["plies"] = {"value": (True, d["plies"]), "win": (d["win"], d["win_plies"]),
                                  "survive": (d["survives"], d["doom_plies"])}[kind]
    out["moves"] = {m["move"]: [m.get(k) for k in MOVE_FIELDS] for m in d.get("moves") or []}
    return out


def worker(spec: dict) -> dict:
    sys.path.insert(0, str(ROOT))
    kind = spec["kind"]
    if kind == "multishot":
        return multishot.worker(spec)
    if kind == "ask":
        return multishot.ask_worker(spec)
    from gridsolve.language.loader import load_board
    from gridsolve.language.position import make_query
    t0 = time.perf_counter()
    board = load_board(spec["board"])
    query = make_query(board, spec["role"], spec["query"], horizon=spec.get("horizon"))
    t1 = time.perf_counter()
    if kind == "gridsolve":
        from gridsolve.solve.dispatch.dispatcher import solve
        t1 = time.perf_counter()
        answer = solve(board, query).as_dict()
        t2 = time.perf_counter()
        return {"load_s": t1 - t0, "time_s": t2 - t1, "stats": answer["stats"], "answer": _answer_fields(answer),
                "program_chars": None}
    if kind == "baseline":
        from reference import board as refboard
        from reference import retrograde
        read = refboard.board_of(board)          # (its own reading of the files, not timed, as the loader's)
        t1 = time.perf_counter()
        answer = retrograde.answer(read, query.role, query.position, spec.get("horizon"))
        t2 = time.perf_counter()
        return {"load_s": t1 - t0, "time_s": t2 - t1, "stats": answer["stats"],
                "answer": {kind: _baseline_fields(answer, kind) for kind in QUERIES}}
    if kind == "profile":
        import cProfile
        import io
        import pstats
        from gridsolve.compile.compiler import compile_program
        from gridsolve.solve.dispatch.dispatcher import solve
        program = compile_program(board, query)
        prof = cProfile.Profile()
        t1 = time.perf_counter()
        prof.enable()
        answer = solve(board, query)
        prof.disable()
        t2 = time.perf_counter()
        tables = {}
        for key in ("tottime", "cumulative"):
            buf = io.StringIO()
            pstats.Stats(prof, stream=buf).sort_stats(key).print_stats(10)
            tables[key] = _short_paths(_trim_pstats(buf.getvalue()))
        text = program.text
        sections = {}
        current = "header"
        for line in text.splitlines():
            if line.startswith("% === "):
                current = line[6:].split(" #program ")[0].split(" ===")[0]
                if "#program" in line:
                    current = line[6:].rstrip(" =")
                    current = current.split("(")[0] + "(...)"
            sections[current] = sections.get(current, 0) + len(line) + 1
        return {"time_s": t2 - t1, "stats": answer.stats.as_dict(), "profile": tables,
                "program_chars": len(text), "program_lines": text.count("\n"), "sections": sections}
    if kind == "split":
        return staged_grounding(board, query, spec.get("count_atoms", False))
    raise SystemExit(f"unknown worker kind {kind}")


STAGES = [
    ("graph", "facts, compiled game rules, board.lp, moves.lp: reach/2, edge/3, term/2, cmove/6"),
    ("solve base", "solve.lp + answer.lp base parts: terminal, succ, pred, att/def, level 0"),
    ("levels", "solve.lp `#program level(d)`, d = 1..horizon: the retrograde ranks"),
    ("lines", "answer.lp `#program line(i)`, i = 0..horizon: probes, values, principal line"),
]


def staged_grounding(board, query, count_atoms: bool = False) -> dict:
    """Ground the compiled program in four consecutive stages (multi-shot, one Control) and time
    each; levels are also timed one by one.  Then time the one-shot ground of the same text."""
    import clingo
    from gridsolve.compile.compiler import compile_program
    t0 = time.perf_counter()
    text = compile_program(board, query).text
    compile_s = time.perf_counter() - t0
    marks = ["% === encodings/solve.lp ===", "% === encodings/solve.lp #program level(",
             "% === encodings/answer.lp #program line("]
    cuts = [0] + [text.find(m) if text.find(m) >= 0 else len(text) for m in marks] + [len(text)]
    stage_text = [text[cuts[i]:cuts[i + 1]] for i in range(4)]
    ctl = clingo.Control(["--warn=none"])
    out = {"compile_s": compile_s, "stages": [], "levels": []}
    for index, (name, _) in enumerate(STAGES):
        chunk = stage_text[index]
        if name == "levels":
            pieces = [p for p in chunk.split("% === encodings/solve.lp #program level(") if p.strip()]
            fixpoint = "level_decides(" in chunk
            out["fixpoint"] = fixpoint
            total = 0.0
            for j, piece in enumerate(pieces):
                t0 = time.perf_counter()
                ctl.add(f"lv{j}", [], piece.split("\n", 1)[1] if "\n" in piece else "")
                ctl.ground([(f"lv{j}", [])])
                dt = time.perf_counter() - t0
                out["levels"].append(dt)
                total += dt
                if fixpoint:     # as gridsolve.solve.program.driver.ground_ranks does: stop after the first level deciding nothing
                    atom = ctl.symbolic_atoms[clingo.Function("level_decides", [clingo.Number(j + 1)])]
                    if atom is None or not atom.is_fact:
                        break
            out["stages"].append([name, total])
            continue
        t0 = time.perf_counter()
        ctl.add(f"st{index}", [], chunk)
        ctl.ground([(f"st{index}", [])])
        out["stages"].append([name, time.perf_counter() - t0])
    del ctl
    ctl = clingo.Control(["--warn=none"])
    t0 = time.perf_counter()
    ctl.add("base", [], text)
    ctl.ground([("base", [])])
    out["one_shot_s"] = time.perf_counter() - t0
    if count_atoms:
        counts = {}
        for name, arity, positive in ctl.symbolic_atoms.signatures:
            if positive:
                counts[f"{name}/{arity}"] = sum(1 for _ in ctl.symbolic_atoms.by_signature(name, arity))
        out["atoms"] = counts
    return out


def _short_paths(text: str) -> str:
    """pstats' file names, gridsolve's from the package (``gridsolve/solve/program/driver.py``: the
    module, which a bare ``driver.py`` would not say), the others' without their folders."""
    def short(match: re.Match) -> str:
        path = match.group(0)
        return path[path.rindex("gridsolve/"):] if "gridsolve/" in path else path.rsplit("/", 1)[-1]
    return re.sub(r"/[^\s:()]+\.py(?=:)", short, text)


def _trim_pstats(text: str) -> str:
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.lstrip().startswith("ncalls"):
            return "\n".join(lines[i:]).rstrip()
    return text.rstrip()


# =========================================================================================
# Running a child and measuring it

def run_worker(spec: dict, timeout: float, mem_limit_mb: int | None) -> dict:
    res = run_child([sys.executable, "-m", "bench.run", "--worker", json.dumps(spec)],
                    timeout, mem_limit_mb)
    if res["rc"] == 0:
        res["result"] = json.loads(res["stdout"])
    return res


def run_cli(board: str, role: str, query: str, horizon, timeout, mem_limit_mb) -> dict:
    argv = gridsolve_cli() + ["solve", board, "--role", role, "--query", query, "--json"]
    if horizon is not None:
        argv += ["--horizon", str(horizon)]
    res = run_child(argv, timeout, mem_limit_mb)
    if res["rc"] == 0:
        d = json.loads(res["stdout"])
        res["result"] = {"stats": d["stats"], "answer": _answer_fields(d)}
    return res


def failure(res: dict) -> str:
    if res["timed_out"]:
        return f"killed after {res['wall_s']:.0f} s (time limit), peak {res['maxrss_mb']:.0f} MB"
    tail = res["stderr"].strip().splitlines()[-1:] or ["(no message)"]
    if "MemoryError" in res["stderr"] or "std::bad_alloc" in res["stderr"] or res["rc"] < 0:
        return (f"failed (exit {res['rc']}) after {res['wall_s']:.1f} s, peak {res['maxrss_mb']:.0f} MB "
                f"(memory limit?): {tail[0][:120]}")
    return f"failed (exit {res['rc']}) after {res['wall_s']:.1f} s, peak {res['maxrss_mb']:.0f} MB: {tail[0][:160]}"


# =========================================================================================
# Cases

class Case:
    def __init__(self, group, label, board, role, query, horizon=None):
        self.group, self.label, self.board, self.role, self.query, self.horizon = \
            group, label, board, role, query, horizon
        self.cli, self.inproc, self.base = [], [], []
        self.expected = expected.recorded(ROOT, board, role, query, horizon)   # (key, value, field)
        self.notes: list[str] = []
        self.mismatch: list[str] = []

    def spec(self, kind):
        return {"kind": kind, "board": self.board, "role": self.role, "query": self.query,
                "horizon": self.horizon}


def measure(case: Case, args, do_inproc: bool, baseline_cache: dict | None):
    """Repeat the CLI (and in-process) runs and the baseline (unless ``baseline_cache`` is None:
    it does not support the board's mechanisms); keep every result."""
    limit = args.timeout
    mem = args.mem_limit_mb
    # the baseline answers all three queries at once: it is measured once per (board, role,
    # horizon), interleaved with the first such case's gridsolve runs (gridsolve, baseline,
    # gridsolve, baseline, ...) so that each ratio compares runs made under similar load
    key = (case.board, case.role, case.horizon)
    fresh = baseline_cache is not None and key not in baseline_cache
    runs = baseline_cache.setdefault(key, []) if baseline_cache is not None else []
    for r in range(args.repeat):
        res = run_cli(case.board, case.role, case.query, case.horizon, limit, mem)
        case.cli.append(res)
        if res["rc"] != 0:
            case.notes.append("gridsolve CLI " + failure(res))
        elif do_inproc:
            res = run_worker(case.spec("gridsolve"), limit, mem)
            case.inproc.append(res)
            if res["rc"] != 0:
                case.notes.append("gridsolve in-process " + failure(res))
        if fresh and (not runs or runs[-1]["rc"] == 0):
            runs.append(run_worker(case.spec("baseline"), limit, None))
        if case.cli[-1]["rc"] != 0:
            break
    if fresh:
        while runs and runs[-1]["rc"] == 0 and len(runs) < args.repeat:
            runs.append(run_worker(case.spec("baseline"), limit, None))
    case.base = runs
    cross_check(case)


def _diff(g: dict, other: dict, who: str) -> list[str]:
    # every field the other side gives is compared (None included: "nothing forced")
    diffs = [f"{k}: gridsolve {g[k]!r} vs {who} {other[k]!r}" for k in FIELDS if k in other and g[k] != other[k]]
    if other.get("moves") is not None:
        gm, om = g["moves"], other["moves"]
        if set(gm) != set(om):
            diffs.append(f"moves: gridsolve {sorted(gm)} vs {who} {sorted(om)}")
        else:
            for name in sorted(gm):
                for k, x, y in zip(MOVE_FIELDS, gm[name], om[name]):
                    if x != y:
                        diffs.append(f"move {name} {k}: gridsolve {x!r} vs {who} {y!r}")
    return diffs


def cross_check(case: Case):
    """Every gridsolve answer (CLI and in-process) against the baseline and the recorded answers."""
    got = [r["result"]["answer"] for r in case.cli + case.inproc if r.get("result")]
    base = [r["result"]["answer"][case.query] for r in case.base if r.get("result")]
    if not base and case.base:
        case.notes.append("baseline " + failure(case.base[-1]))
    for g in got:
        diffs = _diff(g, base[0], "baseline") if base else []
        diffs += ["(expect) " + d for d in expected.differences(g, case.expected)]
        if diffs:
            case.mismatch = diffs
            break


# =========================================================================================
# Figures and tables

def figures(case: Case) -> dict:
    ok_cli = [r for r in case.cli if r.get("result")]
    ok_in = [r for r in case.inproc if r.get("result")]
    ok_base = [r for r in case.base if r.get("result")]
    stats = [r["result"]["stats"] for r in ok_cli + ok_in]
    f = {
        "done": bool(ok_cli),
        "cli_s": med(r["wall_s"] for r in ok_cli),
        "cli_cpu_s": med(r["cpu_s"] for r in ok_cli),
        "inproc_s": med(r["result"]["time_s"] for r in ok_in) if ok_in else None,
        "total_s": med(s.get("total_s") for s in stats),
        "compile_s": med(s.get("compile_s") for s in stats),
        "parse_s": med(s.get("parse_s") for s in stats),
        "rank_s": med(s.get("rank_s") for s in stats),
        "answer_s": med(s.get("answer_s") for s in stats),
        "levels": med(s.get("levels") for s in stats),
        "ground_s": med(s.get("ground_s") for s in stats),
        "solve_s": med(s.get("solve_s") for s in stats),
        "ground_rules": stats[0].get("ground_rules") if stats else None,
        "value_levels": stats[0].get("value_levels") if stats else None,
        "rank_levels": stats[0].get("rank_levels") if stats else None,
        "solver": stats[0].get("solver") if stats else None,
        "searched": stats[0].get("searched") if stats else None,
        "rss_mb": max([r["maxrss_mb"] for r in case.cli + case.inproc], default=None),
        "base_s": med(r["result"]["time_s"] for r in ok_base),
        "base_rss_mb": max([r["maxrss_mb"] for r in case.base], default=None),
        "positions": ok_base[0]["result"]["stats"]["positions"] if ok_base else None,
        "edges": ok_base[0]["result"]["stats"]["edges"] if ok_base else None,
        "n": len(ok_cli),
        "answer": ok_cli[0]["result"]["answer"] if ok_cli else None,
    }
    if not f["done"] and case.cli:
        f["fail"] = case.cli[-1]
    solve_s = f["inproc_s"] if f["inproc_s"] is not None else f["total_s"]
    f["solve_time"] = solve_s
    # ratio: median of the per-repetition ratios (run r of gridsolve / run r of the baseline)
    mine = [r["result"]["time_s"] for r in ok_in] if ok_in else [r["result"]["stats"]["total_s"] for r in ok_cli]
    theirs = [r["result"]["time_s"] for r in ok_base]
    pairs = [a / b for a, b in zip(mine, theirs) if b]
    f["ratio"] = med(pairs)
    return f


def fmt(v, digits=3):
    if v is None:
        return "–"
    if isinstance(v, float):
        return f"{v:.{digits}f}"
    return str(v)


def check_cell(case: Case) -> str:
    if case.mismatch:
        return "**MISMATCH**"
    checked = ["baseline"] * any(r.get("result") for r in case.base) + ["expect"] * bool(case.expected)
    if not checked or not [r for r in case.cli if r.get("result")]:
        return "not checked"
    return f"agree ({', '.join(checked)})"


def answer_cell(case: Case, f: dict) -> str:
    a = f["answer"]
    if not a:
        return "–"
    if case.query == "value":
        return f"{a['value']} in {a['plies']}" if a["plies"] is not None else f"{a['value']} (nothing forced)"
    if case.query == "win":
        return f"yes in {a['win_plies']}" if a["win"] else "no"
    return "yes" if a["survives"] else f"no (doom in {a['doom_plies']})"


def main_table(cases: list[Case]) -> list[str]:
    head = ["case", "query", "plies left", "answer", "positions / moves", "end to end (s)", "CPU (s)",
            "in-process (s)",
            "compile", "ground", "solve", "ground_rules", "peak RSS (MB)", "baseline (s)",
            "÷ baseline", "check"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for c in cases:
        f = figures(c)
        a = f["answer"]
        if not f["done"]:
            row = [c.label, f"{c.role} {c.query}", fmt(c.horizon), "**did not finish**",
                   f"{fmt(f['positions'])} / {fmt(f['edges'])}", failure(f["fail"]) if "fail" in f else "–",
                   "–", "–", "–", "–", "–", "–", fmt(f["rss_mb"], 0), fmt(f["base_s"]), "–", check_cell(c)]
        else:
            row = [c.label, f"{c.role} {c.query}", fmt(a["remaining"]), answer_cell(c, f),
                   f"{fmt(f['positions'])} / {fmt(f['edges'])}", fmt(f["cli_s"]), fmt(f["cli_cpu_s"]),
                   fmt(f["solve_time"]),
                   fmt(f["compile_s"]), fmt(f["ground_s"]), fmt(f["solve_s"]), fmt_count(f['ground_rules']),
                   fmt(f["rss_mb"], 0), fmt(f["base_s"]),
                   f"{f['ratio']:.1f}×" if f["ratio"] else "–", check_cell(c)]
        lines.append("| " + " | ".join(row) + " |")
    return lines


def solver_cell(f: dict) -> str:
    """Which solver answered: races, or layered with the levels of plies left it computed."""
    if f.get("solver") == "bounded":
        return f"bounded ({f['searched']:,} positions searched)"
    if f["value_levels"] is None:
        return "race"
    depths = f"depths {int(f['levels'])}; " if f["levels"] is not None else ""      # (not every layered solver reports them)
    return f"layered ({depths}values {f['value_levels']}, ranks {f['rank_levels']} levels)"


def mech_table(cases: list[Case]) -> list[str]:
    """The seed games with the newer mechanisms: checked against the recorded answers only."""
    head = ["case", "query", "plies left", "answer", "solver", "end to end (s)", "CPU (s)", "in-process (s)",
            "compile", "ground", "solve", "ground rules", "peak RSS (MB)", "check"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for c in cases:
        f = figures(c)
        if not f["done"]:
            row = [c.label, f"{c.role} {c.query}", fmt(c.horizon), "**did not finish**", "–",
                   failure(f["fail"]) if "fail" in f else "–"] + ["–"] * 6 + [fmt(f["rss_mb"], 0), check_cell(c)]
        else:
            row = [c.label, f"{c.role} {c.query}", fmt(f["answer"]["remaining"]), answer_cell(c, f), solver_cell(f),
                   fmt(f["cli_s"]), fmt(f["cli_cpu_s"]), fmt(f["solve_time"]), fmt(f["compile_s"]),
                   fmt(f["ground_s"]), fmt(f["solve_s"]), fmt_count(f["ground_rules"]), fmt(f["rss_mb"], 0), check_cell(c)]
        lines.append("| " + " | ".join(row) + " |")
    return lines


def fmt_count(n) -> str:
    """A count with thousands separators, "–" where the solver reports none."""
    return "–" if n is None else f"{n:,}"


def limit_rows(args) -> list[str]:
    """One run each of LIMIT_CASES: answered (with time and peak memory), or stopped by the limits (exit 3)."""
    lines = ["| case | outcome | end to end (s) | peak RSS (MB) | ground atoms | what gridsolve says |",
             "|---|---|---|---|---|---|"]
    for board, role, query, horizon in LIMIT_CASES + MEMORY_CASES:
        log(f"  limits: {board} {role} {query} --horizon {horizon} ...")
        res = run_cli(board, role, query, horizon, args.timeout, args.mem_limit_mb)
        label = f"{Path(board).stem} {role} {query} " + (f"h{horizon}" if horizon is not None else "full step limit")
        if res.get("result"):
            stats, a = res["result"]["stats"], res["result"]["answer"]
            lines.append(f"| {label} | answered: value {a['value']} (plies {a['plies']}), win {a['win']} | "
                         f"{res['wall_s']:.1f} | {res['maxrss_mb']:.0f} | {fmt_count(stats.get('ground_atoms'))} | "
                         f"{stats.get('solver', 'clingo')} solver |")
        else:
            said = res["stderr"].strip().splitlines()[-1:] or [failure(res)]
            outcome = "stopped by the limits (exit 3)" if res["rc"] == 3 else f"**failed** ({failure(res)})"
            lines.append(f"| {label} | {outcome} | {res['wall_s']:.1f} | {res['maxrss_mb']:.0f} | – | "
                         f"{said[0].replace('|', '/')} |")
    return lines


def generation_row(args) -> tuple[str, str]:
    """Time ``gridsolve generate`` writing the GENERATION boards: (figures, status)."""
    cli = gridsolve_cli()
    probe = run_child(cli + ["generate", "--help"], 60)
    if probe["rc"] != 0:
        return ("not measured: `gridsolve generate` is not available (" + failure(probe) + ")", "not measured")
    with tempfile.TemporaryDirectory() as out:
        argv = cli + GENERATION + ["--out", out, "--timeout", str(int(args.gen_timeout))]
        log(f"  generation: {' '.join(argv[len(cli):])} ...")
        res = run_child(argv, args.gen_timeout + 60, args.mem_limit_mb)
    command = "`gridsolve " + " ".join(GENERATION) + "`"
    if res["rc"] != 0:
        return (f"{command}: not measured: {failure(res)}", "not measured")
    summary = [line.strip() for line in res["stdout"].splitlines() if line.strip()]
    return (f"{command}: {res['wall_s']:.1f} s end to end (CPU {res['cpu_s']:.1f} s), peak {res['maxrss_mb']:.0f} MB, "
            f"one run; it reports: {'; '.join(summary)[:400].replace('|', '/')}", "measured (no target set)")


def _under_target(cases: list[Case]) -> tuple[str, str, bool] | None:
    """(measured, ratio, met) of "every query < TARGET_SEED_S end to end" over ``cases``."""
    fs = [(c, figures(c)) for c in cases]
    done = [(c, f) for c, f in fs if f["cli_s"] is not None]
    if not done:
        return None
    worst_c, worst = max(done, key=lambda cf: cf[1]["cli_s"])
    best = min(f["cli_s"] for _, f in done)
    n_ok = sum(f["cli_s"] < TARGET_SEED_S for _, f in done)
    measured = (f"{n_ok}/{len(fs)} under; slowest {worst['cli_s']:.2f} s ({worst_c.label}, {worst_c.role} "
                f"{worst_c.query}), fastest {best:.2f} s" + ("" if len(done) == len(fs) else "; some did not finish"))
    return measured, f"{worst['cli_s'] / TARGET_SEED_S:.1f}× the target", n_ok == len(fs)


def targets_table(seed_cases, random_cases, mech_cases, gen_note, extra_rows=()) -> list[str]:
    rows = []
    # 1. every seed query < 0.5 s end to end (the Mummy Maze seeds; the newer games for information)
    seed_f = [(c, figures(c)) for c in seed_cases]
    under = _under_target(seed_cases)
    if under:
        rows.append([f"every seed query < {TARGET_SEED_S} s end to end (`gridsolve solve ... --json`)",
                     under[0], under[1], "met" if under[2] else "**not met**"])
    under = _under_target(mech_cases)
    if under:
        rows.append([f"(for information) the queries of the seed games with the newer mechanisms < {TARGET_SEED_S} s",
                     under[0], under[1], "no target"])
    # 2. clingo within 3x of the plain-Python baseline on 8x8
    eight = [(c, figures(c)) for c in random_cases if c.label.startswith("8×8")]
    eight = [(c, f) for c, f in eight if f["ratio"]]
    if eight:
        worst_c, worst = max(eight, key=lambda cf: cf[1]["ratio"])
        best = min(f["ratio"] for _, f in eight)
        seeds = [f["ratio"] for _, f in seed_f if f["ratio"]]
        extra = f"; seed boards (also 8×8): {min(seeds):.2f}×–{max(seeds):.2f}×" if seeds else ""
        rows.append([f"clingo within {TARGET_RATIO_8:.0f}× of the plain-Python baseline on 8×8; baseline: "
                     "`reference/retrograde.py` (BFS + retrograde analysis, successor counters)",
                     f"in-process solve ÷ baseline, random 8×8: {best:.2f}×–{worst['ratio']:.2f}× "
                     f"(worst: {worst_c.label}){extra}",
                     f"{worst['ratio']:.2f}× (target ≤ {TARGET_RATIO_8:.0f}×)",
                     "met" if worst["ratio"] <= TARGET_RATIO_8 else "**not met**"])
    # 3. 16x16 at full horizon
    full = [(c, figures(c)) for c in random_cases if c.label.startswith("16×16") and c.horizon == max(HORIZONS)]
    for c, f in full:
        if f["done"]:
            rows.append([f"16×16 at the full horizon ({c.horizon} plies) < {TARGET_16_S:.0f} s end to end",
                         f"{f['cli_s']:.2f} s", f"{f['cli_s'] / TARGET_16_S:.1f}× the target",
                         "met" if f["cli_s"] < TARGET_16_S else "**not met**"])
            rows.append([f"16×16 at the full horizon < {TARGET_16_MB:.0f} MB peak RSS",
                         f"{f['rss_mb']:.0f} MB", f"{f['rss_mb'] / TARGET_16_MB:.2f}× the target",
                         "met" if f["rss_mb"] < TARGET_16_MB else "**not met**"])
        else:
            fail = f.get("fail")
            rows.append([f"16×16 at the full horizon ({c.horizon} plies) < {TARGET_16_S:.0f} s and "
                         f"< {TARGET_16_MB:.0f} MB", "did not finish: " + (failure(fail) if fail else "?"),
                         "–", "**not met**"])
    rows.append(["generation: five 8×8 Mummy Maze boards, forced escapes of 20+ plies, not trivial",
                 gen_note[0], "–", gen_note[1]])
    rows += list(extra_rows)
    lines = ["| target | measured | ratio | status |", "|---|---|---|---|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return lines


# =========================================================================================
# Where the time goes (one representative case)

def breakdown(case: Case, args) -> list[str]:
    f = figures(case)
    lines = [f"### Where the time goes: {case.label}, {case.role} {case.query}, {case.horizon} plies", ""]
    if not f["done"]:
        return lines + ["(the case did not finish; no breakdown)"]
    prof = run_worker(case.spec("profile"), args.timeout, args.mem_limit_mb)
    cli, total = f["cli_s"], f["total_s"]
    parts = [("Python start-up, imports, loading the board, printing (end to end − solve())",
              cli - total if cli and total else None),
             ("compile: Python writes the ASP text (`compile_program`)", f["compile_s"])]
    if f["rank_s"] is not None:      # the solver grounds the levels one call each, to the fixpoint
        parts += [(f"clingo ranks: base part, then levels one call each until one decides nothing "
                   f"(`rank_s`; {fmt(f['levels'])} levels): the answer is computed here", f["rank_s"]),
                  ("clingo grounds the answer parts (principal line) in one call (`answer_s`)", f["answer_s"])]
        accounted = (f["compile_s"], f["rank_s"], f["answer_s"], f["solve_s"])
    else:                            # one single-shot program
        parts += [("clingo parses the text (`Control.add`)", f["parse_s"]),
                  ("clingo grounds (`Control.ground`): the answer is computed here", f["ground_s"])]
        accounted = (f["compile_s"], f["parse_s"], f["ground_s"], f["solve_s"])
    parts += [("clingo solves (`Control.solve`, 0 choices) and Python collects the model", f["solve_s"]),
              ("Python reads the answer back (rest of `solve()`)",
               total - sum(x or 0 for x in accounted) if total else None)]
    lines += [f"Medians of {f['n']} runs. End to end {cli:.3f} s; `gridsolve.solve.dispatch.dispatcher.solve` {total:.3f} s.", "",
              "| part | seconds | share of end to end |", "|---|---|---|"]
    for name, v in parts:
        lines.append(f"| {name} | {fmt(v)} | {100 * v / cli:.0f}% |" if v is not None and cli else f"| {name} | – | – |")
    split = run_worker({**case.spec("split"), "count_atoms": True}, args.timeout, args.mem_limit_mb)
    lines += [""] + split_lines(case, split)
    if prof.get("result"):
        p = prof["result"]
        lines += ["", f"Compiled program: {p['program_chars']:,} characters, {p['program_lines']:,} lines; by section:", "",
                  "| section | characters |", "|---|---|"]
        for name, size in sorted(p["sections"].items(), key=lambda kv: -kv[1]):
            lines.append(f"| {name} | {size:,} |")
        lines += ["", f"cProfile of the in-process `gridsolve.solve.dispatch.dispatcher.solve` ({p['time_s']:.3f} s under the "
                  "profiler), top 10 by own time:", "", "```", p["profile"]["tottime"], "```", "",
                  "Top 10 by cumulative time:", "", "```", p["profile"]["cumulative"], "```"]
    else:
        lines += ["", "(profile run failed: " + failure(prof) + ")"]
    return lines


def split_lines(case: Case, res: dict) -> list[str]:
    if not res.get("result"):
        return [f"(staged grounding of {case.label} failed: {failure(res)})"]
    d = res["result"]
    total = sum(t for _, t in d["stages"])
    how = (f"levels one call each until the first that decides nothing ({len(d['levels'])} of {case.horizon}), "
           "as `gridsolve.solve.program.driver.ground_ranks` does" if d.get("fixpoint") else f"all {len(d['levels'])} levels one call each")
    out = [f"Grounding by stage, {case.label} (one run: the compiled program ground stage by stage in one Control, "
           f"{how}; {total:.3f} s in all. The whole text in one shot, as `gridsolve compile | clingo` "
           f"runs it: {d['one_shot_s']:.3f} s):", "",
           "| stage | what | seconds | share |", "|---|---|---|---|"]
    for (name, what), (_, t) in zip(STAGES, d["stages"]):
        out.append(f"| {name} | {what} | {t:.3f} | {100 * t / total:.0f}% |")
    lv = d["levels"]
    if lv:
        top = max(range(len(lv)), key=lambda i: lv[i])
        tens = [f"{10 * k + 1}–{min(10 * k + 10, len(lv))}: {sum(lv[10 * k:10 * k + 10]):.3f}"
                for k in range((len(lv) + 9) // 10)]
        out += ["", f"Levels by tens (seconds): {'; '.join(tens)}. Slowest level: {top + 1} ({lv[top]:.3f} s); "
                f"mean of the last 10 levels: {sum(lv[-10:]) / len(lv[-10:]):.4f} s."]
    if d.get("atoms"):
        total_atoms = sum(d["atoms"].values())
        top = sorted(d["atoms"].items(), key=lambda kv: -kv[1])[:12]
        out += ["", f"Ground atoms by predicate ({total_atoms:,} in all; the 12 largest): "
                + ", ".join(f"`{k}` {v:,} ({100 * v / total_atoms:.0f}%)" for k, v in top) + "."]
    return out


def grounding_scaling(random_cases: list[Case]) -> list[str]:
    """Per random case: shares of compile / ground / solve+read in solve(), levels ground, rules per move."""
    lines = ["| case | compile | ground (all clingo calls before solve) | of which ranks (`rank_s`) | "
             "of which answer parts (`answer_s`) | solve+read | levels ground | ground_rules / baseline move | "
             "ground s per 1k positions |", "|---|---|---|---|---|---|---|---|---|"]
    for c in random_cases:
        f = figures(c)
        if not f["done"] or not f["total_s"]:
            lines.append(f"| {c.label} | – | – | – | – | – | – | – | – |")
            continue
        t = f["total_s"]
        ground = (f["ground_s"] or 0) + (f["parse_s"] or 0)
        rest = t - (f["compile_s"] or 0) - ground
        per_move = f["ground_rules"] / f["edges"] if f["edges"] and f["ground_rules"] is not None else None
        per_pos = 1000 * ground / f["positions"] if f["positions"] else None

        def share(v):
            return f"{100 * v / t:.0f}%" if v is not None else "–"
        lines.append(f"| {c.label} | {share(f['compile_s'])} | {share(ground)} | {share(f['rank_s'])} | "
                     f"{share(f['answer_s'])} | {share(rest)} | "
                     f"{fmt(f['levels']) if f['levels'] is not None else f'all {c.horizon} (single shot)'} | "
                     f"{fmt(per_move, 1)} | {fmt(per_pos, 4)} |")
    return lines


# =========================================================================================

def tree_fingerprint() -> str:
    """Hash of the code a run measures (gridsolve/, encodings/, rules/, boards/): the tree
    is shared with other engineers, so the runner checks that it did not change during the run."""
    import hashlib
    h = hashlib.sha1()
    files = sorted([*ROOT.glob("gridsolve/**/*.py"), *ROOT.glob("encodings/*.lp"), *ROOT.glob("rules/*.yaml"),
                    *ROOT.glob("boards/*.yaml")])
    for path in files:
        if path.exists():
            h.update(str(path.relative_to(ROOT)).encode())
            h.update(path.read_bytes())
    return h.hexdigest()[:12]


def main(argv=None):
    p = argparse.ArgumentParser(description="gridsolve benchmark: writes bench/RESULTS.md and prints it.")
    p.add_argument("--quick", action="store_true", help="smoke run: few cases, 1 repetition")
    p.add_argument("--repeat", type=int, help="repetitions per measurement (default 3, --quick 1)")
    p.add_argument("--seed", type=int, default=1, help="seed of the random boards (default 1)")
    p.add_argument("--timeout", type=float, default=120.0, help="seconds before a run is killed (default 120)")
    p.add_argument("--mem-limit-mb", type=int, default=8192,
                   help="address-space limit of each gridsolve run, MB (default 8192; 0: none)")
    p.add_argument("--gen-timeout", type=float, default=600.0,
                   help="seconds gridsolve generate may take for its one board (default 600)")
    p.add_argument("--out", help="output file (default bench/RESULTS.md, --quick: bench/RESULTS-quick.md)")
    p.add_argument("--worker", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.worker:
        print(json.dumps(worker(json.loads(args.worker))))
        return 0
    args.repeat = args.repeat or (1 if args.quick else 3)
    args.mem_limit_mb = args.mem_limit_mb or None
    out = Path(args.out) if args.out else BENCH / ("RESULTS-quick.md" if args.quick else "RESULTS.md")
    started = time.perf_counter()
    date = datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")
    rev, fingerprint = git_rev(), tree_fingerprint()
    machine = machine_info()
    log(f"gridsolve bench: repeat {args.repeat}; {machine}")

    sizes = [8] if args.quick else SIZES
    horizons = [20] if args.quick else HORIZONS
    boards = write_boards(sizes, args.seed)
    seed_cases = []
    for board in SEED_BOARDS:
        for role in ROLES:
            for query in (["value"] if args.quick else QUERIES):
                seed_cases.append(Case("seed", Path(board).stem, board, role, query))
    random_cases = []
    for n in sizes:
        for h in horizons:
            rel = str(boards[n].relative_to(ROOT))
            random_cases.append(Case("random", f"{n}×{n} h{h}", rel, "explorer", "value", h))
    mech_cases = [Case("mech", Path(board).stem + (f" h{h}" if h is not None else ""), board, role, query, h)
                  for board, role, query, h in (MECH_CASES[:1] + MECH_CASES[5:6] if args.quick else MECH_CASES)]

    baseline_cache: dict = {}
    for case in seed_cases + random_cases + mech_cases:
        t = time.perf_counter()
        measure(case, args, case.group != "random", None if case.group == "mech" else baseline_cache)
        f = figures(case)
        status = "MISMATCH " + "; ".join(case.mismatch[:3]) if case.mismatch else check_cell(case)
        log(f"  {case.label:24s} {case.role:8s} {case.query:7s} end-to-end {fmt(f['cli_s'])} s, "
            f"solve {fmt(f['total_s'])} s, baseline {fmt(f['base_s'])} s, rss {fmt(f['rss_mb'], 0)} MB, "
            f"{status} [{time.perf_counter() - t:.0f} s]" + (f" NOTE {case.notes}" if case.notes else ""))
    # representative case: 8x8, horizon 50 (the quick run: its only random case)
    rep = next((c for c in random_cases if c.label == "8×8 h50"), random_cases[0])
    log(f"  breakdown of {rep.label} ...")
    split = breakdown(rep, args)
    size_splits = []
    if not args.quick:
        for c in random_cases:
            if c.horizon == max(horizons):
                log(f"  grounding stages of {c.label} ...")
                res = run_worker({**c.spec("split"), "count_atoms": c.label.startswith(("8×8", "12×12"))},
                                 args.timeout, args.mem_limit_mb)
                size_splits += split_lines(c, res) + [""]

    limits = [] if args.quick else limit_rows(args)
    sizes = engine_bench.rows(args.repeat, 1, args.quick, log)
    many = multishot.rows(args, run_worker, str(boards[8].relative_to(ROOT)), log)
    explained, explain_target = explainbench.rows(args, run_child, gridsolve_cli(), str(boards[8].relative_to(ROOT)),
                                                  log)
    hidden_solves = [] if args.quick else hidden_bench.solve_rows(run_child, gridsolve_cli(), args.timeout,
                                                                  args.mem_limit_mb, log)
    hidden_moves, move_target = hidden_bench.move_rows(run_child, args.timeout * 5, args.mem_limit_mb, log)
    hidden_target = [f"a computer move in `play` < {hidden_bench.TARGET_MOVE_S:.0f} s (secret obstacles, the "
                     "computer does not peek)", *move_target]
    asked = [] if args.quick else multishot.ask_rows(args, run_worker, log)
    gen_note = (("not measured in the quick run", "not measured") if args.quick else generation_row(args))
    mismatches = [c for c in seed_cases + random_cases + mech_cases if c.mismatch]
    changed = tree_fingerprint() != fingerprint
    if changed:
        log("WARNING: gridsolve's code changed during the run; the results mix versions")
    doc = [f"# gridsolve benchmark results{' (quick smoke run)' if args.quick else ''}", "",
           f"- date: {date}; gridsolve commit {rev} at the start (working tree as found; code fingerprint "
           f"{fingerprint}{', CHANGED during the run' if changed else ', unchanged during the run'})",
           f"- machine: {machine}",
           f"- command: `python -m bench run {' '.join(a for a in (argv if argv is not None else sys.argv[1:]))}`"
           .rstrip() + f" — {args.repeat} repetition(s) per measurement, medians reported; "
           f"run took {{ELAPSED}}",
           "- the machine is shared: absolute timings are noisy; ratios are measured within this one run",
           "- baselines: `reference/retrograde.py` (the classic explicit-state algorithm: BFS of the reachable "
           "positions, retrograde analysis with successor counters, plain Python); the answers are also "
           "checked against those the boards' `expect:` blocks record (`bench/expected.py`)", ""]
    if changed:
        doc += ["## ⚠ The code changed during this run", "",
                f"gridsolve/, encodings/, rules/ or boards/ changed between the start (commit {rev}) "
                f"and the end (commit {git_rev()}) of the run: the rows below mix versions. Run it again.", ""]
    if mismatches:
        doc += ["## ⚠ MISMATCHES between gridsolve and the baseline or the recorded answers", ""]
        for c in mismatches:
            doc += [f"- **{c.label} {c.role} {c.query}**: " + "; ".join(c.mismatch[:8])]
        doc += [""]
    doc += ["## Targets", ""] + targets_table(seed_cases, random_cases, mech_cases, gen_note,
                                              [explain_target, hidden_target]) + [""]
    doc += ["## Main table", "",
            "Times are medians, in seconds. *end to end*: `gridsolve solve BOARD --role R --query Q --json "
            "[--horizon H]` in a fresh process, wall clock. *in-process*: `gridsolve.solve.dispatch.dispatcher.solve` timed around "
            "the call in a fresh worker (for random boards: the `total_s` the CLI reports). "
            "*compile/ground/solve*: the solver's own stats. *peak RSS*: the largest ru_maxrss of the measured "
            "child processes. *baseline*: `reference/retrograde.py` timed the same way (board loading excluded). "
            "*÷ baseline*: median over the repetitions of (gridsolve in-process time ÷ baseline time) for "
            "runs made one after the other (above 1: gridsolve is slower). *check*: gridsolve (every CLI and "
            "in-process run) agrees with the baseline on holds, value, plies, win, win_plies, survives, "
            "doom_plies, remaining and every move's value/plies/win/survives, and with the answers the board's "
            "`expect:` block records for the case (`bench/expected.py`; *expect*). *positions / moves*: the reachable graph "
            "as the baseline counts it (distinct successors).", ""]
    doc += main_table(seed_cases + random_cases) + [""]
    doc += ["| generation | " + gen_note[0] + " |", "|---|---|", ""]
    doc += ["## Seed games with the newer mechanisms", "",
            "Maze Runner Duel, Wallmaze and Pacman 3p: the queries of issue 6, measured like the rows above. "
            "Baseline: `reference/retrograde.py` does not support these games' mechanisms (simultaneous moves, teams, "
            "collisions, collectibles and score tables, bumps and lost turns, conditional timeouts), so each row "
            "is checked against the answers recorded for it only (its board's `expect:` block, else "
            "`bench/expected.py`'s `BENCH_ONLY`; *check* says not checked where there is none). *solver*: `race` (the race solver) or `layered` with the depths it explored and "
            "the levels of plies left it computed for the values and the ranks before they repeat. *ground "
            "rules*: the size of the ground program (clingo's statistics; every ground rule is a fact, so it "
            "is also the number of ground atoms).", ""]
    doc += mech_table(mech_cases) + [""]
    if limits:
        from gridsolve.solve.program.driver import VALUES_FACTOR
        from gridsolve.solve.common.limits import Limits
        doc += ["### Full size and limits", "",
                "`gridsolve.solve.common.limits.Limits`: a layered solve stops (exit code 3) when its ground atoms, with the "
                f"values and ranks still to come (estimated as {VALUES_FACTOR}× the explored positions' atoms, "
                "after the next depth at the growth of the last one), would exceed "
                f"{Limits().atoms:,}: about 1.5 GB. Pacman's value and win are answered by the bounded solver "
                "(`gridsolve/solve/bounded/search.py`) at the full step limit (target < 60 s and < 1.5 GB), and at the "
                "horizon where the layered solver alone stopped (15). One run each. Every solver path also stops "
                "before it passes `--max-memory` (default 2 GB; `gridsolve/solve/common/limits.py`): the positions are "
                "estimated before grounding, the resident memory is read between ground calls and the address space "
                "is capped during each: the open 24×24 board (`bench/boards/`) answers within it, the 64×64 one must stop so.",
                ""] + limits + [""]
    notes = [(c, n) for c in seed_cases + random_cases + mech_cases for n in c.notes]
    if notes:
        doc += ["Notes:", ""] + [f"- {c.label} {c.role} {c.query}: {n}" for c, n in notes] + [""]
    doc += ["## The race solver per board size", "",
            "`gridsolve solve BOARD --json` against `python -m reference.retrograde BOARD` in turn, whole process and "
            "in process (each one's own `stats.total_s`), the explorer's value at the step limit, default memory "
            "limit; *before*: issue 21's table (the level-by-level race solver, commit 19dd50a). "
            "`bench/engine.py`.", ""] + sizes + [""]
    doc += ["## Ground once, ask many times", "",
            "`gridsolve/solve/race/racesolver.py`: one grounding of a board's race solver answers many questions, each adding "
            "only its answer parts (multi-shot solving); `verify` (a board's expectations), `play` (the solver's "
            "moves and hints) and `gridsolve ask` use it. Each set is answered in one fresh worker by one engine "
            "and by `gridsolve.solve.dispatch.dispatcher.solve` for each question alone (medians of the runs; *engine, all* includes "
            "the grounding). *check*: both give the same answers (every field and move; the principal line, or "
            "its first move where the engine computed only that, as play does). Bench script: "
            "`bench/multishot.py`.", ""] + many + [""]
    doc += ["## Measured by hand, outside this run", "",
            "- `docs/history/RESULTS-issue21.md`: 1,000 random questions on Wallmaze, Maze Runner Duel and Pacman in one "
            "`ask` session (`bench/ask.py`: layered tables, the bounded search and its races in C), Pacman's `play`, "
            "and the level packs' throughput (`bench/levels.py`), stop by stop, each with its before and after;",
            "- `bench/RESULTS-engine.md`: the last standalone run of `bench/engine.py` (the race solver per size);",
            "- `docs/history/RESULTS-generation.md`: the generator's targets (`bench/generation.py`);",
            "- `bench/RESULTS-studio.md`: the studio's edit-to-answer latency (`bench/studio.py`);",
            "- `docs/history/RESULTS-hidden.md`: the secret game answered exactly from every position (issue 32: "
            "`bench/hidden.py --exact`, before and after), `ask`, `play` and the placement advice.", ""]
    doc += ["## explain: critical walls", "",
            "`gridsolve explain BOARD --json --method M [--jobs N]` end to end, one run each: every interior wall "
            "edge toggled (removed or added) and the question answered again. *graph*: the game graph computed "
            "once, each variant's affected positions re-derived by clingo and the races ranked on the patched "
            "graph (`gridsolve/explain/walls.py`); *solve*: one solve of each toggled board. *agrees*: the same "
            "critical walls as the first method. `bench/explainbench.py`.", ""] + explained + [""]
    doc += ["## Secret obstacles (`--hidden`)", "",
            "Maze Runner Duel as its rule book plays it (issue 14): the robust value from the start for the whole "
            "game (40 plies; deepened until the answer is certain, *settled at*), the largest exact horizon "
            "and the next one, and the computer's moves in `play`. Bench script: `bench/hidden.py`.", ""]
    doc += hidden_solves + [""] + hidden_moves + [""]
    if asked:
        doc += ["### 1,000 random questions per seed board", "",
                f"`gridsolve ask` as a library call in a fresh worker (board loading included, Python start-up not): "
                f"{multishot.ASK_QUESTIONS:,} random positions (pieces on random free cells, random side, role and "
                "kind), with `\"line\": false` and, on the boards the race solver answers, with their principal lines; "
                f"a set stops after {multishot.ASK_CAP_S:.0f} s and the rest is extrapolated from its pace. The race "
                "solver's answers, lines included, are read off its ranks (`gridsolve/solve/race/rankread.py`); the first "
                "reply includes the grounding and reading the ranks and moves. Layered questions (Wallmaze, Maze Runner Duel) "
                "are read off a layered table per role (`gridsolve/solve/layered/table.py`), Pacman's value and win are "
                "searched by the bounded solver (its memo shared); an *error* is a question that does not fit the limits (exit "
                "code 3). *check*: the answers with lines, their line left out, equal those without. One run each.",
                ""] + asked + [""]
    doc += ["## Where the time goes", ""] + split + [""]
    doc += ["### Shares of `solve()` per random case", "",
            "compile = Python writes the program; ground = every clingo call before solving (parsing "
            "included): gringo computes the answer there; when the solver reports them, `rank_s` (base part "
            "and levels up to the fixpoint) and `answer_s` (principal line) split it; solve+read = the "
            "(choice-free) solve call and reading the model back. Baseline moves = distinct (position, "
            "successor) pairs of the reachable graph.", ""]
    doc += grounding_scaling(random_cases) + [""]
    if size_splits:
        doc += ["### Grounding by stage at the full horizon, per size", ""] + size_splits
    base_rows = [(c, figures(c)) for c in random_cases]
    doc += ["### Baseline detail", "", "| case | positions | moves | baseline (s) | baseline peak RSS (MB) |",
            "|---|---|---|---|---|"]
    for c, f in base_rows:
        doc.append(f"| {c.label} | {fmt(f['positions'])} | {fmt(f['edges'])} | {fmt(f['base_s'])} | "
                   f"{fmt(f['base_rss_mb'], 0)} |")
    doc += ["", "Random boards: `bench/boards/` (regenerated from the seed by each run; "
            "25% of interior edges are walls, every cell connected; rules `mummy-maze-2007` with steps 1..101)."]
    elapsed = time.perf_counter() - started
    text = "\n".join(doc).replace("{ELAPSED}", f"{elapsed / 60:.1f} min") + "\n"
    out.write_text(text)
    print(text)
    log(f"wrote {out.relative_to(ROOT) if out.is_relative_to(ROOT) else out} in {elapsed:.0f} s")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
