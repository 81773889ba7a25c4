"""Answers read off the race ranks, by the rules of encodings/answer.lp.

A question needs only the ranks (``won_in(K,S,D)`` of encodings/solve.lp) of its position and of
the positions after each legal move, and the principal line those of the positions along it.
:class:`RankIndex` holds the ranks of an engine's races (arrays over the positions of its
:class:`~gridsolve.solve.graph.racegraph.RaceGraph`), and derives the atoms that the ``output(q)`` part
of encodings/answer.lp shows for line state 0 (``value``, ``plies``, ``win``, ``win_plies``,
``survives``, ``doom_plies``) and the ``line(q,i)`` parts' ``line/4`` (with the line's states), by the same rules, with
no ground call and no solve; the moves of a position are ground once, where an answer looks
at them.  tests/test_retro.py checks that the answers equal those of the single-shot program.
"""
from __future__ import annotations

import clingo

from ...compile.planning import RacePlan
from ...compile.state import unjudged
from ...language.model import NO_LIMIT, Rules

AT = clingo.Function("at")


class _Ranks:
    """The ranks of one race by position term (``get``: None where unranked or unreached)."""

    def __init__(self, graph, ranks):
        self.graph, self.array = graph, ranks

    def get(self, state: clingo.Symbol, default=None):
        i = self.graph.index(state)
        rank = int(self.array[i]) if i >= 0 else -1
        return rank if rank >= 0 else default


class _Moves:
    """The moves of a position by position term, ground where asked (``RaceGraph.moves``)."""

    def __init__(self, graph):
        self.graph = graph

    def get(self, state: clingo.Symbol, default=()):
        return self.graph.moves(state)


class _Terminal:
    def __init__(self, graph):
        self.graph = graph

    def __contains__(self, state: clingo.Symbol) -> bool:
        i = self.graph.index(state)
        return i >= 0 and self.graph.terminal(i)


class _Mover:
    """The turns entry to move in a position: the first argument of its term."""

    def __getitem__(self, state: clingo.Symbol) -> clingo.Symbol:
        return unjudged(state).arguments[0]


class RankIndex:
    """The ranks (race number -> rank array of :meth:`RaceGraph.ranks`), moves and ends of
    one engine's game graph ``graph``, by position term."""

    def __init__(self, graph, ranks: dict):
        self.ranks = {race: _Ranks(graph, array) for race, array in ranks.items()}
        self.moves = _Moves(graph)
        self.terminal = _Terminal(graph)
        self.mover = _Mover()

    def shown(self, number: int, rules: Rules, role: str, plan: RacePlan, value_known: bool,
              root: clingo.Symbol, left: int) -> list[clingo.Symbol]:
        """The atoms answer.lp shows for query ``number`` (about ``role``, whose races are
        ``plan``) at position ``root`` with ``left`` plies left: the position itself (probe
        ``at``) and the position after each of its moves (probe: the move, one ply fewer)."""
        probes = [(AT, root, left)]
        if left > 0 and root not in self.terminal:
            probes += [(move, after, left - 1) for move, after in self.moves.get(root, ())]
        q = clingo.Number(number)
        out = []
        for probe, state, plies_left in probes:
            found = self.probe(rules, role, plan, value_known, state, plies_left)
            for name, rest in found.items():
                if rest is not None and rest is not False:
                    numbers = [] if rest is True else [clingo.Number(rest)]
                    out.append(clingo.Function(name, [q, probe, *numbers]))
        return out

    def probe(self, rules: Rules, role: str, plan: RacePlan, value_known: bool, state: clingo.Symbol,
              left: int) -> dict:
        """What answer.lp derives for a probe of ``state`` with ``left`` plies left: {name: True,
        a number, or None/False where the atom is not derived} for value, plies, win, win_plies,
        survives and doom_plies."""
        def forced(race: int | None) -> int | None:
            """The plies in which race ``race`` is forced from ``state``, if within the plies left."""
            rank = self.ranks.get(race, {}).get(state) if race is not None else None
            return rank if rank is not None and rank <= left else None

        out = {"value": None, "plies": None, "win": False, "win_plies": None, "survives": False, "doom_plies": None}
        if value_known:
            scores, timeout = rules.scores_of(role), rules.timeout[role]
            ok = [scores[0]] + [t for t, k in plan.up.items() if forced(k) is not None] \
                + [t for t, k in plan.down.items() if forced(k) is None]
            value = out["value"] = max(ok)
            if value in plan.up:
                out["plies"] = forced(plan.up[value])
            elif value < timeout:
                above = min(t for t in scores if t > value)
                out["plies"] = forced(plan.down[above]) if above in plan.down else None
            out["win"] = plan.win is None and value == scores[-1]
        if plan.win is not None and forced(plan.win) is not None:
            out["win"], out["win_plies"] = True, forced(plan.win)
        out["doom_plies"] = forced(plan.avoid)
        out["survives"] = out["doom_plies"] is None
        return out

    def line(self, number: int, rules: Rules, role: str, plan: RacePlan, value_known: bool,
             root: clingo.Symbol, left: int, last: int) -> list[clingo.Symbol]:
        """The principal line of query ``number`` as answer.lp's ``line(Q,I,T,M)`` with the
        driver's ``line_state(Q,I,S)`` (the state before ply I, and after the last), line states
        0..``last``: at each, the side to move picks its best move by (value, tie), tie =
        -plies above the role's timeout score (hurry), +plies below (delay); the role's side
        takes the greatest (key, move), the others the least.  None without values.  Without a
        step limit (``rules.unlimited``) and without a horizon the line stops before a position it
        has passed (with a horizon it goes on to it, as answer.lp's)."""
        if not value_known:
            return []
        timeout = rules.timeout[role]
        own = {t for t in range(len(rules.turns)) if rules.own_turn(t, role)}
        q, state = clingo.Number(number), root
        out = [clingo.Function("line_state", [q, clingo.Number(0), root])]
        seen = set()        # without a step limit a line that ends nowhere stops where it repeats
        for i in range(min(last, left) + 1):
            if i == left or state in self.terminal or state in seen:
                break
            if rules.unlimited and left >= NO_LIMIT // 2:
                seen.add(state)
            keyed = []
            for move, after in self.moves.get(state, ()):
                found = self.probe(rules, role, plan, True, after, left - i - 1)
                value, plies = found["value"], found["plies"]
                if value != timeout and plies is None:
                    continue
                tie = 0 if value == timeout else (-plies if value > timeout else plies)
                keyed.append(((value, tie), move, after))
            if not keyed:
                break
            turn = self.mover[state]
            pick = (max if turn.number in own else min)(keyed, key=lambda k: (k[0], k[1]))
            out.append(clingo.Function("line", [q, clingo.Number(i), turn, pick[1]]))
            state = pick[2]
            out.append(clingo.Function("line_state", [q, clingo.Number(i + 1), state]))
        return out
