"""The ranks of one race of a compiled program, for every position reachable from its root:
:func:`race_ranks` from the race graph ground once (what generate's difficulty measures), and
:func:`clingo_race_ranks`, the same as the single-shot program computes them (encodings/solve.lp
ground level by level; the reference of tests/test_retro.py).
"""
from __future__ import annotations

import clingo

from ...compile.compiler import Program
from ...compile.predicates import ROOT, WON_IN
from ...language.model import Board
from ..common.limits import LimitGuard, Limits
from ..graph.racegraph import RaceGraph
from ..program.driver import ground_ranks, race_limits


def race_ranks(program: Program, race: int, roots: str = "", board: Board = None,
               limits: Limits | None = None) -> dict[str, int]:
    """The ranks of race ``race`` (plies to its forced end) of every position reachable from the
    program's root (and ``roots``, more root facts ``root(S).``), up to the program's plies left:
    position term -> rank, from the game graph ground once (:class:`~gridsolve.solve.graph.racegraph.RaceGraph`).
    The positions are estimated before grounding (from the cells each piece reaches on
    ``board``, the program's board); ``limits`` apply in any case."""
    guard = race_limits(board, program.layout, [program.query.position], limits or Limits())
    terms = [str(term) for term in _root_facts(program, roots)]
    graph = RaceGraph(board, program.layout, terms, guard)
    attackers, targets = program.plan.races[race - 1]
    ranks, _ = graph.ranks(attackers, targets, len(program.levels))
    return graph.ranked_terms(ranks)


def _root_facts(program: Program, roots: str) -> list:
    """The position terms of the root facts in the program's base and in ``roots``, as clingo
    reads them (:data:`~gridsolve.compile.predicates.ROOT`)."""
    facts = [line for line in (program.base + "\n" + roots).splitlines() if line.startswith(ROOT.name + "(")]
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], "\n".join(facts))
    ctl.ground([("base", [])])
    return [term for term, in ROOT.ground(ctl.symbolic_atoms)]


def clingo_race_ranks(program: Program, race: int, roots: str = "") -> dict[str, int]:
    """:func:`race_ranks` as the single-shot program computes them: encodings/solve.lp ground
    level by level in clingo (``won_in/3``); the reference of tests/test_retro.py."""
    ctl = clingo.Control(["--warn=none"])
    guard = LimitGuard(Limits(), "the positions reachable from the position asked about", lambda needed: "")
    ground_ranks(ctl, program.base + "\n" + roots, program.levels, guard)
    ranks = {}
    for number, state, rank in WON_IN.ground(ctl.symbolic_atoms):
        if number == race:
            ranks[str(state)] = rank
    return ranks
