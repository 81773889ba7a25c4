"""The threshold races before and after a change: the bounded solver (Pacman from the start, 99
plies) and the robust search (a secret-duel question whose search is the largest of
``bench/hidden.py --exact``'s), each `gridsolve solve ... --json` in a fresh process, this
checkout and another (``--before DIR``: a checkout of the earlier commit, e.g. made with
``git worktree add``) taking turns; the kernels of both are built in place first.

    python -m bench races --before DIR [--repeat N] [--out FILE]

Prints, per question, the medians of wall time, CPU time and the search's own time
(``stats.search_s``) of each checkout, the ratios after / before, and whether the answers
(everything but ``stats``) are equal (bench/results.py's table; ``--out``: into that file).
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from .launch import ROOT, build_kernels, checkout_cli, log, med, run_child
from .results import Table, context, write
from .cases import Case  # noqa: E402

CASE = Case('the threshold races (bounded solver, robust search) of two checkouts in turn',
            None, '--before DIR --repeat 1',
            'DIR: a checkout of an earlier commit')

QUESTIONS = {
    "bounded: Pacman value, 99 plies": ["boards/pacman3p.yaml"],
    "robust: secret duel, p1 value, 40 plies": [
        "boards/maze-runner-duel.yaml", "--hidden", "--role", "p1", "--at", "p1=3,1", "--at", "p2=2,2", "--turn", "p1",
        *(arg for cell in ("4,4", "5,2", "1,1", "5,3", "5,4", "4,1", "2,4", "1,3") for arg in ("--free", cell)),
        "--found", "3,5"],
}

def solve(checkout: Path, args: list[str]) -> dict:
    res = run_child([*checkout_cli(checkout), "solve", *args, "--json"], timeout=600)
    if res["rc"] != 0:
        raise SystemExit(f"{checkout}: gridsolve solve {' '.join(args)} failed:\n{res['stderr']}")
    answer = json.loads(res["stdout"])
    stats = answer.pop("stats")
    return {"wall": res["wall_s"], "cpu": res["cpu_s"], "search": stats["search_s"], "in": stats["search_in"],
            "answer": answer}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", type=Path, required=True, help="a checkout of the earlier commit")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--out", type=Path, help="write the table here (default: standard output)")
    options = parser.parse_args()
    checkouts = {"before": options.before.resolve(), "after": ROOT}
    for checkout in checkouts.values():
        build_kernels(checkout)
    ran = context("races")
    table = Table(["question", "figure", "before (s):", "after (s):", "after / before:"])
    for label, args in QUESTIONS.items():
        runs: dict = {name: [] for name in checkouts}
        for rep in range(options.repeat):
            for name, checkout in checkouts.items():
                log(f"{label}: {name} {rep + 1}/{options.repeat}")
                runs[name].append(solve(checkout, args))
        same = all(r["answer"] == runs["before"][0]["answer"] for rs in runs.values() for r in rs)
        where = "/".join(sorted({r["in"] for rs in runs.values() for r in rs}))
        for figure in ("wall", "cpu", "search"):
            before, after = (med([r[figure] for r in runs[name]]) for name in checkouts)
            log(table.add([f"{label} (search in {where}; answers equal: {'yes' if same else 'NO'})", figure,
                           f"{before:.3f}", f"{after:.3f}", f"{after / before:.2f}"]))
    write(options.out, "The threshold races before and after a change", ran, [table],
          f"Before: {checkouts['before']}; after: this checkout; medians of {options.repeat} runs each, in turn.")

if __name__ == "__main__":
    main()
