"""Issue 47's speed anchor: the 23 two-player games of gdl2qbf (He, Saffidine, Thielscher,
AAMAS 2024) answered by ``gridsolve solve GAME.gdl --query win --horizon T_max``, against the
paper's Table 2, into bench/RESULTS-gdl-anchor.md.

The paper asks of each game whether the first player (xplayer) can force a win within T_max
steps and times QBF solvers (DepQBF, Caqe under five translations) and a minimax solver with a
transposition table (Minx) on its machine.  ``PAPER`` below types in, per row of Table 2, the
game's file, mu_G, T_max, the answer (T_max in bold: a forced win within T_max; in plain: no
forced win at any depth; in italics: the game unsolved, no forced win within T_max) and the best
time of the row (the fastest solver column; bloqqer's preprocessing column is not a solver).
The games are their authors' data: the bench reads them from a local checkout of
github hharryyf/gdl2qbf (``SinglePlayer/GameDescriptions``, given as an argument) and never
copies them.  Each game runs in its own process with a time and memory limit (run_one of
bench/gdl_repository.py): the paper's question, and the whole game's value (no horizon).

    python -m bench gdl_anchor ~/gdl2qbf/SinglePlayer/GameDescriptions
    python -m bench gdl_anchor GAMES --seconds 120 --memory 4GB --jobs 1 --only connect
"""
from __future__ import annotations

import argparse
import os
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import NamedTuple

from .gdl_repository import ROOT, _cell, run_one, values_text  # noqa: E402
from .cases import Case  # noqa: E402

CASE = Case("gdl2qbf's 23 games against the paper's Table 2",
            'bench/RESULTS-gdl-anchor.md', 'GAMES --only tictactoe --seconds 10 --whole-seconds 0 --out /tmp/anchor.md',
            "GAMES: gdl2qbf's SinglePlayer/GameDescriptions")


class PaperRow(NamedTuple):
    game: str           # the file's stem in SinglePlayer/GameDescriptions
    label: str          # the row as Table 2 names it
    mu: int             # mu_G: the longest play the first player wins
    t_max: int          # the depth asked
    win: bool           # the first player forces a win within t_max steps
    solved: bool        # False: T_max in italics (the largest depth refuted; the game unsolved)
    best: float         # the best time of the row, seconds on the paper's machine
    best_by: str        # the solver (and translation) of that time


PAPER = [
    PaperRow("break-through-2x5", "BT 2×5", 21, 21, False, True, 0.13, "Caqe GD"),
    PaperRow("break-through-2x6", "BT 2×6", 29, 15, True, True, 2.86, "Minx"),
    PaperRow("break-through-3x4", "BT 3×4", 19, 19, False, True, 0.11, "Caqe GD"),
    PaperRow("break-through-3x5", "BT 3×5", 31, 19, False, False, 92.41, "Minx"),
    PaperRow("break-through-4x4", "BT 4×4", 25, 25, False, True, 17.37, "Caqe SD"),
    PaperRow("connect-3-4x4", "C-3 4×4", 15, 9, True, True, 0.03, "DepQBF GD"),
    PaperRow("connect-3-5x5", "C-3 5×5", 25, 9, True, True, 0.09, "DepQBF GD"),
    PaperRow("connect-3-6x6", "C-3 6×6", 35, 9, True, True, 0.15, "DepQBF GN"),
    PaperRow("connect-4-4x4", "C-4 4×4", 15, 15, False, True, 0.30, "Caqe GD"),
    PaperRow("connect-4-5x5", "C-4 5×5", 25, 21, False, False, 135.52, "Caqe GD"),
    PaperRow("connect-4-6x6", "C-4 6×6", 35, 19, False, False, 381.30, "Caqe SD"),
    PaperRow("gttt-4x4-1-1-elly", "GT-1-1 elly", 15, 7, True, True, 0.73, "Caqe GD"),
    PaperRow("gttt-4x4-1-1-fatty", "GT-1-1 fatty", 15, 15, False, True, 188.89, "DepQBF GD"),
    PaperRow("gttt-4x4-1-1-knobby", "GT-1-1 knobby", 15, 15, False, True, 363.81, "DepQBF GD"),
    PaperRow("gttt-4x4-1-1-skinny", "GT-1-1 skinny", 15, 15, False, True, 206.59, "Minx"),
    PaperRow("gttt-4x4-1-1-tippy", "GT-1-1 tippy", 15, 9, True, True, 2.44, "Caqe GD"),
    PaperRow("gttt-4x4-2-2-elly", "GT-2-2 elly", 14, 6, True, True, 0.03, "Caqe SD"),
    PaperRow("gttt-4x4-2-2-fatty", "GT-2-2 fatty", 14, 14, False, True, 148.66, "DepQBF GD"),
    PaperRow("gttt-4x4-2-2-knobby", "GT-2-2 knobby", 14, 6, True, True, 0.03, "Caqe SD"),
    PaperRow("gttt-4x4-2-2-skinny", "GT-2-2 skinny", 14, 14, False, True, 378.89, "DepQBF GD"),
    PaperRow("gttt-4x4-2-2-tippy", "GT-2-2 tippy", 14, 6, True, True, 0.04, "Caqe SD"),
    PaperRow("dots-and-boxes-2x2", "D&B 2×2", 12, 12, True, True, 0.63, "Minx"),
    PaperRow("dots-and-boxes-2x3", "D&B 2×3", 17, 17, False, True, 15.06, "Minx"),
]


def run_game(path: Path, row: PaperRow, seconds: float, memory: str, whole_seconds: float,
             search: str = "auto", against: str | None = None, against_first: bool = False) -> dict:
    """The paper's question (the first role, ``--query win --horizon T_max``, by ``search``; and by
    ``against`` where given, before it where ``against_first``: the bench alternates) and, unless
    ``whole_seconds`` is 0, the whole game's value (no horizon), each in its own process."""
    def ask(how: str) -> dict:
        return run_one(path, seconds, memory, ("--query", "win", "--horizon", str(row.t_max), "--search", how))
    runs = {}
    if against and against_first:
        runs["against"] = ask(against)
    runs["question"] = ask(search)
    if against and not against_first:
        runs["against"] = ask(against)
    if whole_seconds:
        runs["whole"] = run_one(path, whole_seconds, memory)
    return runs


def engine_cells(run: dict) -> str:
    """Where an answered question's engine time went: reading and grounding, then the search."""
    if run["outcome"] != "answered":
        return ""
    stats = run["answer"]["stats"]
    searched = stats["search_s"] if "search_s" in stats else stats.get("explore_s", 0) + stats.get("rank_s", 0)
    return f"{stats['ground_s']:.2f} + {searched:.2f}"


def against_cells(question: dict, run: dict | None) -> list[str]:
    """The other search's answer, its seconds (CPU) and our seconds over its (wall; CPU)."""
    if run is None:
        return []
    said = _outcome(run) if run["outcome"] != "answered" else (
        f"win in {run['answer']['win_plies']}" if run["answer"]["win"] else "no win")
    ratio = question["seconds"] / run["seconds"]
    cpu_ratio = question["cpu"] / run["cpu"] if run.get("cpu") else float("nan")
    bound = "" if run["outcome"] == "answered" else "≤ "
    return [_cell(said), f"{run['seconds']:.2f} ({run.get('cpu', float('nan')):.2f})",
            f"{bound}{ratio:.3f}; {bound}{cpu_ratio:.3f}"]


def _outcome(run: dict) -> str:
    """What a run that gave no answer said, in a table cell."""
    return f"{run['outcome']}: {run.get('detail', '')}"


def question_cells(row: PaperRow, run: dict) -> list[str]:
    """Our answer, equal or not, our seconds (process; in-process), its CPU seconds, the ratios, states."""
    cpu = f"{run['cpu']:.2f}" if "cpu" in run else ""
    if run["outcome"] != "answered":
        return [_cell(_outcome(run)), "", f"{run['seconds']:.2f}", cpu, f"≥ {run['seconds'] / row.best:.2f}", ""]
    answer = run["answer"]
    ours = bool(answer["win"])
    said = f"win in {answer['win_plies']}" if ours else "no win"
    total = answer["stats"]["total_s"]
    return [said, "yes" if ours == row.win else "**no**", f"{run['seconds']:.2f} ({total:.2f})", cpu,
            f"{run['seconds'] / row.best:.2f} ({total / row.best:.2f}; CPU {run['cpu'] / row.best:.2f})",
            f"{answer['stats']['positions']:,} ({answer['stats'].get('search', '')})"]


def whole_cells(run: dict | None) -> list[str]:
    """The whole game's value per role (no horizon), its seconds and states."""
    if run is None:
        return ["not run", "", ""]
    if run["outcome"] != "answered":
        return [_cell(_outcome(run)), f"{run['seconds']:.2f}", ""]
    return [values_text(run["values"]), f"{run['seconds']:.2f}", f"{run['states']:,}"]


def write_results(results: list[tuple[PaperRow, dict]], out: Path, folder: Path, seconds: float,
                  whole_seconds: float, memory: str, jobs: int, loads: list[float], search: str = "auto",
                  against: str | None = None) -> None:
    asked = [(row, runs["question"]) for row, runs in results]
    answered = [(row, run) for row, run in asked if run["outcome"] == "answered"]
    equal = sum(1 for row, run in answered if bool(run["answer"]["win"]) == row.win)
    faster = sum(1 for row, run in answered
                 if run["seconds"] < row.best and bool(run["answer"]["win"]) == row.win)
    lines = ["# gdl2qbf's 23 games (issue 47's speed anchor), answered by `gridsolve solve GAME.gdl`", "",
             f"Written by `python -m bench gdl_anchor {folder.name} --seconds {seconds:g} --memory {memory} "
             f"--whole-seconds {whole_seconds:g} --jobs {jobs} --search {search}"
             + (f" --against {against}" if against else "") + "` (bench/gdl_anchor.py): each game of gdl2qbf's "
             "`SinglePlayer/GameDescriptions` "
             "(a local checkout of github hharryyf/gdl2qbf; never copied) asked the paper's question, "
             "`gridsolve solve GAME.gdl --query win --horizon T_max --json` for the first role (xplayer), "
             f"with {seconds:g} s and {memory}, and the whole game's value (`gridsolve solve GAME.gdl --json`, no "
             f"horizon) with {whole_seconds:g} s and {memory}, each in its own process, {jobs} at once. One run, on a "
             "machine of 2 cores shared with "
             "other work (a CI run), so our seconds are high rather than low; they are the whole process's "
             "(Python's start, reading and grounding the rules included), with the engine's own `total_s` in "
             "brackets. The paper's times are from its machine (a Latitude 5430 laptop), Table 2 of "
             "He, Saffidine, Thielscher, *Solving Two-player Games with QBF Solvers in General Game Playing* "
             "(AAMAS 2024): the best time of the row over DepQBF and Caqe under five translations "
             "and the minimax + transposition-table solver (Minx); the bloqqer preprocessing column left out. "
             "The paper's answer: T_max in bold is a forced win within T_max steps; plain, no forced win at "
             "any depth (T_max = mu_G); italics, the game unsolved and no forced win within T_max (its largest "
             "refuted depth). ratio = our process seconds ÷ the paper's best (below 1: faster), the engine's "
             "`total_s` ÷ the paper's best in brackets; a run stopped by a limit gets ≥ its seconds' ratio (a bound "
             "from below only).", "",
             f"CPU s: the question's process, user + sys (its own where one game runs at a time, --jobs 1). "
             f"Load average (1 min) while the bench ran: {min(loads):.1f} to {max(loads):.1f} (read before each "
             "game).", "",
             f"**{len(answered)} of {len(asked)} answered, {equal} equal to the paper's answer, {faster} of those "
             "faster than the best time of their row (process seconds).**", "",
             "| game | mu_G | T_max | paper | our answer | equal | our s (engine s) | CPU s | paper's best s | ratio "
             "(engine; CPU) | states (question; search) | engine: ground s + search s |"
             + (f" --search {against}: answer | its s (CPU) | ours ÷ its (wall; CPU) |" if against else "")
             + " whole game: value per role | whole s | whole states |",
             "|---|---:|---:|---|---|---|---:|---:|---:|---:|---:|---:|" + ("---|---:|---:|" if against else "")
             + "---|---:|---:|"]
    for row, runs in results:
        paper = ("win" if row.win else "no win") + ("" if row.solved else " (unsolved)")
        cells = [row.label, str(row.mu), str(row.t_max), paper, *question_cells(row, runs["question"])]
        cells.insert(8, f"{row.best:g} ({row.best_by})")
        cells.append(engine_cells(runs["question"]))
        if against:
            cells += against_cells(runs["question"], runs.get("against"))
        cells += whole_cells(runs.get("whole"))
        lines.append("| " + " | ".join(cells) + " |")
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="gdl2qbf's SinglePlayer/GameDescriptions folder")
    parser.add_argument("--seconds", type=float, default=120.0, help="the time limit of a run (default 120)")
    parser.add_argument("--memory", default="4GB", help="the memory limit of a run (default 4GB)")
    parser.add_argument("--jobs", type=int, default=1, help="games run at once (default 1; at most 2)")
    parser.add_argument("--only", help="only the games whose file name contains this")
    parser.add_argument("--search", choices=("auto", "depth", "breadth"), default="auto",
                        help="the question's --search (default auto)")
    parser.add_argument("--against", choices=("auto", "depth", "breadth"),
                        help="also ask each question by this --search, the two alternated from row to row")
    parser.add_argument("--whole-seconds", type=float, help="the time limit of the whole game's value "
                        "(default --seconds; 0: ask the paper's question only)")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "RESULTS-gdl-anchor.md")
    args = parser.parse_args(argv)
    whole_seconds = args.seconds if args.whole_seconds is None else args.whole_seconds
    if not args.folder.is_dir():
        print(f"{args.folder}: no such folder. Give the SinglePlayer/GameDescriptions folder of a checkout of "
              "gdl2qbf (github hharryyf/gdl2qbf).", file=sys.stderr)
        return 2
    rows = [row for row in PAPER if not args.only or args.only in row.game]
    missing = [row.game for row in rows if not (args.folder / f"{row.game}.gdl").is_file()]
    if missing:
        named = (f"none of the games asked ({len(rows)}: {missing[0]}.gdl, ...)" if len(missing) == len(rows)
                 else "no " + ", ".join(name + ".gdl" for name in missing))
        print(f"{args.folder}: {named} there: is it gdl2qbf's SinglePlayer/GameDescriptions?", file=sys.stderr)
        return 2
    results, loads = [], []
    with ThreadPoolExecutor(max_workers=min(2, max(1, args.jobs))) as pool:
        def one(row: PaperRow):
            loads.append(os.getloadavg()[0])
            return row, run_game(args.folder / f"{row.game}.gdl", row, args.seconds, args.memory, whole_seconds,
                                 args.search, args.against, rows.index(row) % 2 == 1)
        runs = pool.map(one, rows)
        for i, (row, result) in enumerate(runs, 1):
            results.append((row, result))
            question = result["question"]
            print(f"[{i}/{len(rows)}] {row.game}: {question['outcome']} "
                  f"{question.get('answer', {}).get('win', question.get('detail', ''))} "
                  f"{question['seconds']:.1f} s (paper {row.best:g} s)", flush=True)
            write_results(results, args.out, args.folder, args.seconds, whole_seconds, args.memory,
                          args.jobs, loads, args.search, args.against)
    return 0


if __name__ == "__main__":
    sys.exit(main())
