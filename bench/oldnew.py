"""Old against new (issue 39, item 5): bench/run.py's engine, classic, hidden and generation figures
for another checkout of gridsolve (``--before DIR``, e.g. ``git worktree add DIR 1639722``) and this
one, taking turns run by run (old, new, old, new, ...) so that both see the same load.

    python -m bench oldnew --before DIR [--quick] [--repeat N] [--out FILE]

Every run is a fresh process started by bench/launch.py's launcher (``run_child``: wall time, CPU
time of the process and its workers, peak RSS), in the checkout's own folder, so that each side
reads its own boards and rule sets; the other checkout's command line and kernels come from
launch.py as bench/races.py uses them.  The cases:

* **engine** (bench/engine.py's ``CASES``): ``gridsolve solve BOARD --json``, the explorer's value
  at the step limit, from the seed boards to the open 32x32 board (``--quick``: up to 16x16);
* **classic** (bench/classic.py): ``verify --jobs 2`` of classic levels drawn by ``classic_level``
  (their expectations written by this checkout, untimed), and ``solve`` of the 10x10 level;
* **hidden** (bench/hidden.py): ``solve --hidden`` of both secret boards for both roles, ``ask``
  over ``random_questions`` and the computer's decisions in a scripted game of ``play`` (each
  checkout's own ``bench/hidden.py --moves``; the row says so where the two scripts differ);
* **generation**: bench/run.py's ``GENERATION``, bench/generation.py's non-trivial escapes
  (``ESCAPES``, five, seed 1) and classic levels like bench/classic_generation.py's 8x8 board
  (a fixed count, seed 1).

The table (``--out``, default bench/RESULTS-oldnew.md) gives each side's medians, the ratios new /
old (the median of the pairs' ratios; each pair ran back to back), a verdict against the 1.1x bound
of each figure, and whether the answers are equal (``stats``, timings and the wording of the
computer's reasons left out; fields only the new checkout gives are named, not counted as a
difference).  Exit code 1 when a run failed or the answers differ, else 0.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

import yaml

HERE = Path(__file__).resolve().parent
from . import classic  # noqa: E402  (bench/classic.py: classic levels)
from . import classic_generation  # noqa: E402  (bench/classic_generation.py: its 8x8 board)
from . import engine  # noqa: E402  (bench/engine.py: the race solver's boards)
from . import generation  # noqa: E402  (bench/generation.py: the non-trivial escapes)
from . import hidden  # noqa: E402  (bench/hidden.py: the secret game)
from .launch import ROOT, bench_script, build_kernels, checkout_cli, git_rev, log, machine_info, run_child  # noqa: E402
from .run import GENERATION  # noqa: E402  (bench/run.py's generation figure)
from .cases import Case  # noqa: E402

CASE = Case('old against new: engine, classic, hidden and generation figures of two checkouts in turn',
            'bench/RESULTS-oldnew.md', '--before DIR --quick --repeat 1 --out /tmp/oldnew.md',
            'DIR: a checkout of an earlier commit')

BOUND = 1.1
OUT = "{out}"                   # in a case's arguments: a fresh folder of the run
SIZES = {                       # (full, --quick)
    "classic levels": (500, 100),
    "hidden questions": (1000, 200),
    "classic generated": (5, 2),
    "repeat": (5, 3),
}


@dataclasses.dataclass
class Case:
    group: str
    label: str
    args: list[str]                              # gridsolve's arguments (or the script's)
    answer: Callable[[dict, Path], object]       # (run_child's result, the run's folder) -> what must be equal
    script: str | None = None                    # a bench script of the checkout, run instead of gridsolve

    def command(self, checkout: Path, folder: Path) -> list[str]:
        program = bench_script(checkout, self.script) if self.script else checkout_cli(checkout)
        return program + [arg.replace(OUT, str(folder / "out")) for arg in self.args]


# --------------------------------------------------------------------------------------------
# What must be equal

def json_answer(res: dict, folder: Path) -> object:
    """The JSON the command printed (one document or one a line), ``stats`` left out."""
    try:
        found = [json.loads(res["stdout"])]
    except ValueError:
        found = [json.loads(line) for line in res["stdout"].splitlines() if line.strip()]
    answers = [{k: v for k, v in a.items() if k != "stats"} if isinstance(a, dict) else a for a in found]
    return answers[0] if len(answers) == 1 else answers


def moves_answer(res: dict, folder: Path) -> object:
    """bench/hidden.py --moves: the moves the computer chose and the game's end (not the times,
    nor the wording of why it chose them)."""
    game = json.loads(res["stdout"])
    return {"moves": [why.split(":")[0] for why in game["why"]], "end": game["end"], "plies": game["plies"]}


def verify_answer(res: dict, folder: Path) -> object:
    """verify's last line (how many checks passed), its times left out."""
    last = (res["stdout"].strip().splitlines() or [""])[-1]
    return re.sub(r"\s*\([\d.]+ s[^)]*\)", "", last)


def levels_answer(res: dict, folder: Path) -> object:
    """Every board generate wrote, read as YAML (its comments, which name the run, left out)."""
    return [{"file": path.name, **yaml.safe_load(path.read_text(encoding="utf-8"))}
            for path in sorted((folder / "out").glob("*.yaml"))]


def compare(old, new, path: str = "") -> tuple[list[str], set[str]]:
    """(the differences, the fields only ``new`` has) between two answers."""
    if isinstance(old, dict) and isinstance(new, dict):
        diffs, added = [], {re.sub(r"\[\d+\]\.", "", f"{path}{k}") for k in new if k not in old}
        for key in old:
            if key not in new:
                diffs.append(f"{path}{key}: missing")
                continue
            more, also = compare(old[key], new[key], f"{path}{key}.")
            diffs += more
            added |= also
        return diffs, added
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        diffs, added = [], set()
        for i, (a, b) in enumerate(zip(old, new)):
            more, also = compare(a, b, f"{path}[{i}].")
            diffs += more
            added |= also
        return diffs, added
    if old == new:
        return [], set()
    return [f"{path.rstrip('.') or 'answer'}: {str(old)[:40]} -> {str(new)[:40]}"], set()


def answers_cell(answers: dict[str, list], note: str = "") -> tuple[str, bool]:
    """The table's *answers* cell and whether they are equal: every run's against old's first."""
    first = answers["old"][0]
    diffs, added = [], set()
    for side in ("old", "new"):
        for answer in answers[side]:
            more, also = compare(first, answer)
            diffs += [f"{side}: {d}" for d in more]
            added |= also if side == "new" else set()
    if diffs:
        return f"**differ** ({len(diffs)}; first: {diffs[0]})".replace("|", "/") + note, False
    return ("equal" + (f" (new also gives {', '.join(sorted(added))})" if added else "") + note), True


# --------------------------------------------------------------------------------------------
# The cases

def cases(quick: bool, levels: Path, questions: Path) -> list[Case]:
    pick = 1 if quick else 0
    count, asked = SIZES["classic levels"][pick], SIZES["hidden questions"][pick]
    generated = SIZES["classic generated"][pick]
    out = [Case("engine", label, ["solve", board, "--json"], json_answer)
           for label, board, _ in (engine.CASES[:4] if quick else engine.CASES)]
    out += [Case("classic", f"verify --jobs 2, {count} classic levels", ["verify", str(levels), "--jobs", "2"],
                 verify_answer),
            Case("classic", f"solve {classic.LEVEL} --json", ["solve", str(classic.LEVEL), "--json"], json_answer)]
    out += [Case("hidden", f"solve {Path(board).stem} --hidden --role {role}",
                 ["solve", board, "--hidden", "--role", role, "--json"], json_answer) for board, role in hidden.SOLVES]
    out += [Case("hidden", f"ask {Path(hidden.BOARD).stem}, {asked} random questions",
                 ["ask", hidden.BOARD, str(questions)], json_answer),
            Case("hidden", "play: the computer's decisions (bench/hidden.py --moves)", ["--moves"], moves_answer,
                 script="bench/hidden.py")]
    escapes = ["generate", *generation.ESCAPES, "--count", "5", "--seed", "1"]
    like = ["generate", "--like", classic_generation.BOARDS["8x8"], "--count", str(generated), "--seed", "1"]
    out += [Case("generation", " ".join(command), [*command, "--out", OUT, "--timeout", "600"], levels_answer)
            for command in (GENERATION, escapes, like)]
    return out


def prepare(checkouts: dict[str, Path], pycache: Path) -> None:
    """Kernels built in place, and the modules compiled to bytecode once (in ``pycache``, outside
    the checkouts), as an installed package has them: otherwise every start compiles them again
    where PYTHONDONTWRITEBYTECODE is set."""
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ["PYTHONPYCACHEPREFIX"] = str(pycache)
    for checkout in checkouts.values():
        build_kernels(checkout)
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(checkout / "gridsolve"), str(checkout / "bench")],
                       check=True, capture_output=True)


# --------------------------------------------------------------------------------------------
# Measuring

FIGURES = (("wall", "wall_s"), ("CPU", "cpu_s"), ("peak RSS", "maxrss_mb"))


def failed(res: dict) -> str | None:
    if res["timed_out"]:
        return f"timed out after {res['wall_s']:.0f} s"
    if res["rc"] != 0:
        said = (res["stderr"].strip().splitlines() or ["?"])[-1]
        return f"exit {res['rc']}: {said[:120]}"
    return None


def measure(case: Case, checkouts: dict[str, Path], repeat: int, timeout: float) -> dict:
    """``repeat`` pairs of runs (old, then new) of ``case``: their figures and answers, or the
    first failure."""
    runs: dict[str, list[dict]] = {side: [] for side in checkouts}
    answers: dict[str, list] = {side: [] for side in checkouts}
    for rep in range(repeat):
        for side, checkout in checkouts.items():
            log(f"{case.group}: {case.label}: {side} {rep + 1}/{repeat}")
            with tempfile.TemporaryDirectory(prefix="oldnew-") as folder:
                res = run_child(case.command(checkout, Path(folder)), timeout, cwd=checkout)
                why = failed(res)
                if why:
                    return {"error": f"{side} failed: {why}"}
                runs[side].append(res)
                answers[side].append(case.answer(res, Path(folder)))
    note = ""
    if case.script and (checkouts["old"] / case.script).read_bytes() != (ROOT / case.script).read_bytes():
        note = f"; {case.script} differs between the checkouts"
    return {"runs": runs, "answers": answers_cell(answers, note)}


def row(case: Case, result: dict) -> tuple[str, bool, bool]:
    """(the table's row, all three figures within the bound, the answers equal)."""
    if "error" in result:
        return f"| {case.group} | {case.label} | | | | | | not measured | {result['error']} |".replace("\n", " "), \
            False, False
    runs = result["runs"]
    cells, over = [], []
    for side in ("old", "new"):
        wall, cpu, rss = (statistics.median(r[key] for r in runs[side]) for _, key in FIGURES)
        cells.append(f"{wall:.2f} / {cpu:.2f} s, {rss:.0f} MB")
    ratios = []
    for name, key in FIGURES:
        ratio = statistics.median(new[key] / old[key] for old, new in zip(runs["old"], runs["new"]))
        ratios.append(f"{ratio:.2f}")
        if ratio > BOUND:
            over.append(f"{name} {ratio:.2f}×")
    verdict = "within" if not over else "**over**: " + ", ".join(over)
    answers, equal = result["answers"]
    line = f"| {case.group} | `{case.label}` | {cells[0]} | {cells[1]} | {' | '.join(ratios)} | {verdict} | {answers} |"
    return line, not over, equal


def load_text() -> str:
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def parse(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].replace("\n", " "))
    parser.add_argument("--before", type=Path, required=True, help="a checkout of the earlier commit")
    parser.add_argument("--quick", action="store_true", help="fewer and smaller cases (a few minutes)")
    parser.add_argument("--repeat", type=int, help="pairs of runs of each case (default 5; --quick: 3)")
    parser.add_argument("--timeout", type=float, default=900, help="seconds before a run is killed (default 900)")
    parser.add_argument("--out", type=Path, default=HERE / "RESULTS-oldnew.md")
    args = parser.parse_args(argv)
    if args.repeat is None:
        args.repeat = SIZES["repeat"][1 if args.quick else 0]
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    if not (args.before / "gridsolve" / "cli.py").is_file():
        parser.error(f"--before {args.before}: not a checkout of gridsolve (no gridsolve/cli.py)")
    return args


def main(argv=None) -> int:
    args = parse(argv)
    checkouts = {"old": args.before.resolve(), "new": ROOT}
    started, machine, first = time.perf_counter(), machine_info(), os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="oldnew-") as scratch:
        scratch = Path(scratch)
        log("building the kernels and compiling both checkouts ...")
        prepare(checkouts, scratch / "pycache")
        levels, questions = scratch / "levels", scratch / "questions.jsonl"
        levels.mkdir()
        count = SIZES["classic levels"][1 if args.quick else 0]
        log(f"writing {count} classic levels and their expectations (this checkout, untimed) ...")
        classic.write_levels(count, levels, keep_all=False, candidates=3 * count)
        asked = SIZES["hidden questions"][1 if args.quick else 0]
        questions.write_text("\n".join(hidden.random_questions(asked)) + "\n", encoding="utf-8")
        rows, within, equal = [], 0, 0
        todo = cases(args.quick, levels, questions)
        for case in todo:
            line, ok, same = row(case, measure(case, checkouts, args.repeat, args.timeout))
            rows.append(line)
            within += ok
            equal += same
            log(line)
    took = time.perf_counter() - started
    loads = os.getloadavg()
    command = f"python -m bench oldnew --before {args.before}" + (" --quick" if args.quick else "") \
        + f" --repeat {args.repeat}"
    busy = max(loads[0], first)
    lines = [f"# Old against new: engine, classic, hidden and generation{' (quick)' if args.quick else ''}", "",
             f"- `{command}`, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {took / 60:.1f} min",
             f"- old: `{checkouts['old']}` at {git_rev(checkouts['old'])}; new: this checkout at {git_rev()}",
             f"- machine: {machine}; load average at the end {load_text()}",
             ("- **measured under load**: the machine is shared (load average above 1 at the start or the end), "
              "so absolute times are noisy and the ratios less so; the lead reruns this on a quiet machine"
              if busy > 1 else "- the machine was quiet at the start and the end (load average at most 1)"),
             "", f"Each case: {args.repeat} pairs of runs, old then new, each a fresh process in its own checkout "
             "(wall, CPU of the process and its workers, peak RSS: medians). *new / old*: the median of the pairs' "
             f"ratios. *verdict*: every figure at most {BOUND}× old (*within*), else which is over. *answers*: every "
             "run's answer against old's first (`stats`, timings and the wording of the computer's reasons left "
             "out; fields only new gives are named).", "",
             "| group | case | old: wall / CPU, peak | new: wall / CPU, peak | new / old wall | CPU | peak RSS "
             "| verdict | answers |", "|---|---|---|---|---|---|---|---|---|", *rows, "",
             f"{within} of {len(todo)} rows within {BOUND}× on wall, CPU and peak RSS; answers equal in {equal} of "
             f"{len(todo)}.", ""]
    args.out.write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))
    return 0 if equal == len(todo) else 1


if __name__ == "__main__":
    sys.exit(main())
