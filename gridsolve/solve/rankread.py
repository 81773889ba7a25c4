"""Answers without a principal line, read straight off an engine's race ranks.

A question asked without its line (``"line": false`` in ``gridsolve ask``) needs only the ranks
``won(K,S,D)`` of its position and of the positions after each legal move.  :class:`RankIndex`
reads the ranks, the moves (``edge/3``) and the ends (``terminal/1``) of an engine's grounding
into Python dictionaries once, and :meth:`RankIndex.shown` derives the atoms that the
``output(q)`` part of encodings/answer.lp shows for line state 0 (``value``, ``plies``, ``win``,
``win_plies``, ``survives``, ``doom_plies``), by the same rules, with no ground call and no
solve.  So a question costs the same however many were asked before it; tests/test_engine.py
checks that the answers equal those of the answer parts.
"""
from __future__ import annotations

import clingo

from ..compile.compiler import RacePlan
from ..language.model import Rules

AT = clingo.Function("at")


class RankIndex:
    """The ranks, moves and ends of one grounding of the race solver (``ctl``), by position."""

    def __init__(self, ctl: clingo.Control):
        atoms = ctl.symbolic_atoms
        self.ranks: dict[int, dict[clingo.Symbol, int]] = {}
        for atom in atoms.by_signature("won", 3):
            race, state, rank = atom.symbol.arguments
            self.ranks.setdefault(race.number, {})[state] = rank.number
        self.moves: dict[clingo.Symbol, list[tuple[clingo.Symbol, clingo.Symbol]]] = {}
        for atom in atoms.by_signature("edge", 3):
            state, move, after = atom.symbol.arguments
            self.moves.setdefault(state, []).append((move, after))
        self.terminal = {atom.symbol.arguments[0] for atom in atoms.by_signature("terminal", 1)}

    def shown(self, number: int, rules: Rules, role: str, plan: RacePlan, value_known: bool,
              root: clingo.Symbol, left: int) -> list[clingo.Symbol]:
        """The atoms answer.lp shows for query ``number`` (about ``role``, whose races are
        ``plan``) at position ``root`` with ``left`` plies left: the position itself (probe
        ``at``) and the position after each of its moves (probe: the move, one ply fewer)."""
        probes = [(AT, root, left)]
        if left > 0 and root not in self.terminal:
            probes += [(move, after, left - 1) for move, after in self.moves.get(root, ())]
        scores = rules.scores_of(role) if value_known else []
        timeout = rules.timeout[role] if value_known else None
        q = clingo.Number(number)
        out = []

        def show(name: str, probe: clingo.Symbol, *rest: int) -> None:
            out.append(clingo.Function(name, [q, probe, *map(clingo.Number, rest)]))

        for probe, state, plies_left in probes:
            def forced(race: int | None) -> int | None:
                """The plies in which race ``race`` is forced from the probe, if within its plies left."""
                rank = self.ranks.get(race, {}).get(state) if race is not None else None
                return rank if rank is not None and rank <= plies_left else None

            if value_known:
                ok = [scores[0]] + [t for t, k in plan.up.items() if forced(k) is not None] \
                    + [t for t, k in plan.down.items() if forced(k) is None]
                value = max(ok)
                show("value", probe, value)
                if value in plan.up:
                    show("plies", probe, forced(plan.up[value]))
                elif value < timeout:
                    above = min(t for t in scores if t > value)
                    if above in plan.down and forced(plan.down[above]) is not None:
                        show("plies", probe, forced(plan.down[above]))
                if plan.win is None and value == scores[-1]:
                    show("win", probe)
            if plan.win is not None and forced(plan.win) is not None:
                show("win", probe)
                show("win_plies", probe, forced(plan.win))
            doom = forced(plan.avoid)
            if doom is None:
                show("survives", probe)
            else:
                show("doom_plies", probe, doom)
        return out
