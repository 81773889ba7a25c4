"""Generation benchmark: `gridsolve generate --like boards/X.yaml --count 5` with the defaults,
for each seed board, and the Mummy Maze targets (docs/generate.md, issue 20).

    python -m bench generation [--budget 120] [--baseline DIR] [--only NAME ...] [--out FILE]

For each seed board it runs the command with `--timeout BUDGET` in a fresh folder, then
`gridsolve verify` on what was written, and reports the levels written, the total time, the
median time per level, levels per minute and whether every written level verifies (its
expect block, which holds the good-level metrics).  With --baseline DIR (a checkout of the code
before the change) it runs the same command there first, in turn with the new code (paired,
on the same machine state), and reports both and the ratio of levels per minute.  The Mummy
Maze targets (--targets): five non-trivial forced escapes of at least 12 plies under
mummy-maze-2007 (`--no-defaults --plies 12..`) in 60 s, before and after, and the longest
non-trivial escape found within --long seconds.  --rate N: the layouts judged a second on one
core (every start of N random 8x8 2007 layouts: its win, plies and beeline), by the game graph
ground by clingo and played out in Python (before issue 33) and by the C judge (after).
"""
from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from .cases import Case  # noqa: E402

CASE = Case('generate --like each seed board, and the Mummy Maze targets',
            None, '--budget 20 --only wallmaze')

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ("mummymaze2p-2007", "mummymaze2p", "pacman3p", "maze-runner-duel", "wallmaze")
TIMES = re.compile(r"\((\d+(?:\.\d+)?) s, (\d+) candidates\)")


def run_generate(code: Path, args: list[str], budget: float) -> dict:
    """Run generate from the checkout ``code``; levels, seconds, per-level times, verified."""
    out = Path(tempfile.mkdtemp(prefix="gen-bench-"))
    env = dict(os.environ, PYTHONPATH=str(code))
    started, cpu = time.perf_counter(), os.times()
    done = subprocess.run([sys.executable, "-m", "gridsolve", "generate", *args, "--timeout", str(budget),
                           "--out", str(out)], cwd=code, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    after = os.times()
    cpu = after.children_user + after.children_system - cpu.children_user - cpu.children_system
    levels = sorted(out.glob("*.yaml"))
    per_level = [float(m.group(1)) for m in TIMES.finditer(done.stdout)]
    verified = None
    if levels:
        check = subprocess.run([sys.executable, "-m", "gridsolve", "verify", str(out)], cwd=ROOT,
                               env=dict(os.environ, PYTHONPATH=str(ROOT)), capture_output=True, text=True)
        verified = check.returncode == 0
    return {"levels": len(levels), "seconds": seconds, "cpu": cpu, "per_level": per_level, "verified": verified,
            "exit": done.returncode, "out": out, "stdout": done.stdout, "stderr": done.stderr[-600:]}


def per_minute(result: dict) -> float:
    return 60 * result["levels"] / result["seconds"] if result["seconds"] else 0.0


def row(name: str, result: dict) -> str:
    median = f"{statistics.median(result['per_level']):.1f} s" if result["per_level"] else "-"
    verified = {None: "-", True: "yes", False: "NO"}[result["verified"]]
    return (f"| {name} | {result['levels']} | {result['seconds']:.0f} s | {median} | "
            f"{per_minute(result):.2f} | {verified} |")


ESCAPES = ["--like", "boards/mummymaze2p-2007.yaml", "--no-defaults", "--plies", "12.."]
OFFERED = re.compile(r"of a start that meets the request: (\d+)\)")
PLIES = re.compile(r"plies (\d+),")


def targets(args) -> list[str]:
    """The Mummy Maze targets: five non-trivial escapes of 12 plies or more in 60 s (before and
    after, paired, for each of --seeds seeds, with --target-budget seconds each so that a miss
    still says how long five took), and the longest non-trivial escape in --long seconds
    (`--plies LONG_PLIES..`, as many levels as the time allows, --count 100: the longest written, and the longest start
    the search offered)."""
    lines = ["", f"| mummy-maze-2007, `--no-defaults --plies 12.. --count 5 --seed S` (non-trivial) | levels | time | "
             "median level | levels/min | all verify | CPU | first level |", "|---|---|---|---|---|---|---|---|"]
    runs = ([("before", args.baseline)] if args.baseline else []) + [("after", ROOT)]
    times: dict = {label: [] for label, _ in runs}
    for seed in range(1, args.seeds + 1):
        for label, code in runs:
            result = run_generate(code, ESCAPES + ["--count", "5", "--seed", str(seed)], args.target_budget)
            first = f"{result['per_level'][0]:.1f} s" if result["per_level"] else "-"
            lines.append(row(f"seed {seed}, {label}", result) + f" {result['cpu']:.0f} s | {first} |")
            times[label].append(result["seconds"] if result["levels"] == 5 else None)
            print(lines[-1], flush=True)
    for label, done in times.items():
        met = sum(t is not None and t < 60 for t in done)
        finished = sorted(t for t in done if t is not None)
        median = f"{statistics.median(finished):.0f} s" if len(finished) > len(done) / 2 else "over the budget"
        lines.append(f"\n{label}: 5 levels in < 60 s for {met} of {len(done)} seeds; median time to 5 levels: {median}.")
    escapes = ESCAPES[:-1] + [f"{args.long_plies}.."]
    longest = run_generate(ROOT, escapes + ["--count", "100"], args.long)
    plies = [int(p) for p in PLIES.findall(longest["stdout"])]
    offered = OFFERED.findall(longest["stderr"])
    lines += ["", "| command | levels | time | median level | levels/min | all verify |", "|---|---|---|---|---|---|"]
    lines.append(row(f"`--plies {args.long_plies}..`, as many as {args.long:g} s allow", longest))
    lines += ["", f"Longest non-trivial escape in {args.long:g} s: {max(plies, default=0)} plies written "
              f"(plies of the levels: {sorted(plies)}); the longest start the search offered: "
              f"{offered[-1] if offered else '-'} plies."]
    print("\n".join(lines[-3:]), flush=True)
    return lines


def judging_rate(layouts: int) -> list[str]:
    """Layouts judged a second, every start (rank and beeline, band 1..49), on one core: the
    game graph (StartGraph) and the C judge (LayoutJudge), on the same random layouts."""
    import random
    sys.path.insert(0, str(ROOT))
    from gridsolve.generate.genspec import Requirement, game_spec
    from gridsolve.generate.judge import start_graph
    from gridsolve.generate.layoutjudge import layout_judge
    from gridsolve.generate.proposer import edges
    from gridsolve.language.kinds import RequireKind
    spec = game_spec(None, ROOT / "boards/mummymaze2p-2007.yaml", None, Path(tempfile.mkdtemp()), None)
    rng, border = random.Random(1), [(x, y) for x in range(1, 9) for y in range(1, 9) if x in (1, 8) or y in (1, 8)]
    boards = []
    for _ in range(layouts):
        walls = [e for e in edges(8, 8) if rng.random() < 0.3]
        boards.append(spec.board({(x, y) for k, x, y in walls if k == "north"},
                                 {(x, y) for k, x, y in walls if k == "east"},
                                 {"explorer": (1, 1), "mummy": (2, 2)}, {"exit": [rng.choice(border)]}))
    req = Requirement(RequireKind.WIN, (1, 49))
    started = time.process_time()
    judge = layout_judge(boards[0], spec, req)
    setup = time.process_time() - started
    timed = {}
    for name, count, once in (("game graph (clingo, Python)", max(1, layouts // 20),
                               lambda b: start_graph(b, spec, req).judged((1, 49), 49)),
                              ("C judge", layouts, lambda b: judge.judge(b.north, b.east, dict(b.marks), 49, (1, 49)))):
        started = time.process_time()
        for board in boards[:count]:
            once(board)
        timed[name] = count / (time.process_time() - started)
    (before, slow), (after, fast) = timed.items()
    return ["", f"Judging 8x8 `mummy-maze-2007` layouts, every start (win, plies, beeline), one core (CPU time): "
            f"{before} {slow:.1f} a second, {after} {fast:.0f} a second ({fast / slow:.0f}x; its circuit built "
            f"once in {setup:.2f} s)."]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=120)
    parser.add_argument("--baseline", type=Path)
    parser.add_argument("--only", nargs="*", default=list(SEEDS))
    parser.add_argument("--targets", action="store_true", help="also the Mummy Maze targets")
    parser.add_argument("--long", type=float, default=600, help="seconds for the longest escape")
    parser.add_argument("--long-plies", type=int, default=12,
                        help="the longest escape's run asks for this many plies or more (--count 100)")
    parser.add_argument("--seeds", type=int, default=1, help="the five-escapes target for seeds 1..N")
    parser.add_argument("--target-budget", type=float, default=60, help="seconds for each five-escapes run")
    parser.add_argument("--load", action="store_true", help="report the load average at the start and the end")
    parser.add_argument("--rate", type=int, default=0, help="judge N random 8x8 layouts both ways")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    if args.rate:
        text = "\n".join(judging_rate(args.rate))
        print(text)
        if args.out:
            args.out.write_text(text + "\n")
        return
    start_load = os.getloadavg()[0]
    lines = [f"Generation, `gridsolve generate --like boards/X.yaml --count 5 --timeout {args.budget:g}` "
             "(defaults), 2 shared cores.", "",
             "| command | levels | time | median level | levels/min | all verify |", "|---|---|---|---|---|---|"]
    ratios = []
    for name in args.only:
        command = ["--like", f"boards/{name}.yaml", "--count", "5"]
        before = run_generate(args.baseline, command, args.budget) if args.baseline else None
        after = run_generate(ROOT, command, args.budget)
        if before is not None:
            lines.append(row(f"{name} (before)", before))
            ratios.append((name, per_minute(after), per_minute(before)))
        lines.append(row(name, after))
        print("\n".join(lines[-2:] if before else lines[-1:]), flush=True)
    if ratios:
        lines += ["", "| seed | levels/min after | before | ratio |", "|---|---|---|---|"]
        lines += [f"| {n} | {a:.2f} | {b:.2f} | {'inf' if not b else f'{a / b:.1f}x'} |" for n, a, b in ratios]
    if args.targets:
        lines += targets(args)
    if args.load:
        lines.append(f"\nLoad average: {start_load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end "
                     f"({os.getloadavg()[2]:.1f} over the last 15 minutes).")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        args.out.write_text(text)


if __name__ == "__main__":
    main()
