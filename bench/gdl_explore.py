"""States a second of the GDL engine's exploration (gridsolve/gdl/engine.py ``explore``) three
ways: all numpy (``numpy_explore``, the circuit in numpy), numpy with the circuit's levels in C
(``numpy_explore``, ``circuitkernel.evaluate``) and the whole exploration in C
(``native_explore``, ``circuitkernel.explore``), on a few games of the GGP repository and of
gdl2qbf (read from their checkouts, never copied): each game ground once, then explored within a
horizon from its initial state once a way, the states and moves checked equal; one row a game
into bench/RESULTS-gdl-explore.md (or standard output).

    python -m bench gdl_explore --ggp /work/data/ggp-repository/war/root/games \
        --qbf /work/data/gdl2qbf/SinglePlayer/GameDescriptions --out bench/RESULTS-gdl-explore.md
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from gridsolve.gdl.description import read_description  # noqa: E402
from gridsolve.gdl.engine import ground_game, native_explore, numpy_explore  # noqa: E402
from gridsolve.gdl.solving import limits_guard  # noqa: E402
from gridsolve import native  # noqa: E402
from gridsolve.solve.common.limits import Limits  # noqa: E402
from .cases import Case  # noqa: E402
from .results import Table, context, write  # noqa: E402

CASE = Case('the GDL exploration three ways, numpy against C',
            'bench/RESULTS-gdl-explore.md', '--ggp GGP --qbf GAMES --out /tmp/explore.md',
            "GGP: the GGP repository's games; GAMES: gdl2qbf's GameDescriptions")

# (row name, "ggp" or "qbf", file under that folder, horizon: steps explored)
GAMES = [("tictactoe", "ggp", "ticTacToe/ticTacToe.kif", None),
         ("connectfour", "ggp", "connectFour/connectFour.kif", 7),
         ("breakthrough", "ggp", "breakthrough/breakthrough.kif", 4),
         ("BT 3x4", "qbf", "break-through-3x4.gdl", 9),
         ("C-4 4x4", "qbf", "connect-4-4x4.gdl", 9),
         ("D&B 2x3", "qbf", "dots-and-boxes-2x3.gdl", 7)]


def same(a, b) -> bool:
    return (a.count == b.count and (a.states.packed == b.states.packed).all() and (a.src == b.src).all()
            and (a.dst == b.dst).all() and (a.joints[a.joint] == b.joints[b.joint]).all())


def row(name: str, path: Path, horizon: int | None) -> list:
    guard = limits_guard(path, Limits(seconds=600))
    game = ground_game(read_description(path), guard)
    kernel = native.load("circuitkernel", "gridsolve.ground")
    runs = {}
    for way, module, how in (("numpy", None, numpy_explore), ("levels", kernel, numpy_explore),
                             ("C", kernel, native_explore)):
        game.circuit.kernel = module
        runs[way] = how(game, game.init, guard, horizon)
    a, b = runs["numpy"], runs["C"]
    rate = {way: run.count / run.explore_s for way, run in runs.items()}
    equal = same(a, b) and same(a, runs["levels"])
    return [name, "all" if horizon is None else horizon, f"{a.count:,}", f"{len(a.src):,}", f"{a.explore_s:.2f}",
            f"{runs['levels'].explore_s:.2f}", f"{b.explore_s:.2f}", f"{rate['numpy']:,.0f}", f"{rate['C']:,.0f}",
            f"{a.explore_s / runs['levels'].explore_s:.2f}", f"{a.explore_s / b.explore_s:.1f}", "yes" if equal else "NO"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ggp", type=Path, required=True, help="the GGP repository's games folder")
    parser.add_argument("--qbf", type=Path, required=True, help="gdl2qbf's GameDescriptions folder")
    parser.add_argument("--out", type=Path, help="the Markdown file (default: standard output)")
    args = parser.parse_args()
    if native.load("circuitkernel", "gridsolve.ground") is None:
        sys.exit(f"the circuit kernel does not load: {native.why_not('circuitkernel', 'gridsolve.ground')}")
    ran = context("gdl_explore")
    table = Table(["game", "horizon", "states", "moves", "numpy s", "C levels s", "C explore s", "numpy states/s",
                   "C states/s", "numpy / C levels", "numpy / C explore", "equal"])
    for name, where, file, horizon in GAMES:
        print(table.add(row(name, (args.ggp if where == "ggp" else args.qbf) / file, horizon)), flush=True)
    write(args.out, "The GDL exploration in numpy and in C", ran, [table],
          "One run a way, times of `explore` alone (the grounding not counted).")

if __name__ == "__main__":
    main()
