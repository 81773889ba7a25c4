"""Placement advice (``solve --hidden --placement``): which cells of the role's own secret marks
give it the best robust value from the board's position.

Each placement is put on the board and the robust question (``--hidden``, to the step limit)
is answered for it; the placements are grouped by that value.  Where the robust search applies
and every position of the pieces can be ground at once (Maze Runner Duel), every placement is
answered exactly from one grounding, one of each class of placements the board's symmetries map
onto each other (:mod:`gridsolve.solve.hidden.ownplacements`).  Elsewhere every placement is
solved where there are at most ``SAMPLE``; beyond, the ``SAMPLE // 2`` that hurt the others most
(:func:`gridsolve.play.placement.hurt`: extra steps to their goal, shortest ways cut) and as many
drawn with the seed, and the answer says how many of how many.
"""
from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass, field, replace

from ..errors import LimitError, QueryError
from ..language import wording
from ..language.model import Board, Cell
from ..language.position import Query, initial_position
from ..language.secret import allowed_cells, hidden_marks, secret_count
from .placement import FAR, hurt
from ..solve.common.answer import Answer
from ..solve.common.capabilities import OWN_PLACEMENTS, serves
from ..solve.common.limits import Limits
from ..solve.dispatch.dispatcher import solve
from ..solve.hidden import ownplacements
from ..language.kinds import QueryKind

SAMPLE = 24            # placements solved at most (half the most hurtful, half drawn with the seed)
PLACEMENT_SECONDS = 3.0  # each placement's robust solve stops after this long (counted as not settled)


@dataclass
class Placed:
    cells: tuple[Cell, ...]
    answer: Answer | ownplacements.PlacedAnswer
    extra: int          # extra steps to the others' goal (FAR or more: walled in)
    cut: float          # share of the others' shortest ways cut

    @property
    def kind(self) -> str:
        if self.extra > FAR // 2:          # hurt counts an unreachable goal as FAR steps away
            return "walls the other in (it can never reach its goal)"
        if self.extra > 0:
            return f"lengthens the other's way by {wording.counted(self.extra, 'step')}"
        if self.cut > 0:
            return f"cuts {self.cut:.0%} of the other's shortest ways"
        return "leaves the other's shortest ways open"


@dataclass
class Advice:
    role: str
    mark: str
    possible: int
    placed: list[Placed] = field(default_factory=list)
    unsettled: list[tuple] = field(default_factory=list)     # not solved within PLACEMENT_SECONDS
    solved: int | None = None      # searches where every placement was answered, one per class of symmetric ones

    def groups(self) -> list[tuple[int, list[Placed]]]:
        """(value, placements) from the best value down; in each, the fastest forced first."""
        values = sorted({p.answer.value for p in self.placed}, reverse=True)
        return [(v, sorted((p for p in self.placed if p.answer.value == v),
                           key=lambda p: (p.answer.plies is None, p.answer.plies or 0, -p.extra, p.cells)))
                for v in values]

    def as_dict(self) -> dict:
        return {"role": self.role, "mark": self.mark, "placements": self.possible, "solved": len(self.placed),
                "searched": self.solved if self.solved is not None else len(self.placed),
                "unsettled": [[list(c) for c in cells] for cells in self.unsettled],
                "groups": [{"value": v, "placements": [
                    {"cells": [list(c) for c in p.cells], "plies": p.answer.plies, "survives": p.answer.survives,
                     "kind": p.kind} for p in group]} for v, group in self.groups()]}


def own_mark(board: Board, role: str) -> str:
    marks = [m for m, spec in board.rules.placement.items() if spec.by == role]
    if not marks:
        raise QueryError(f"--placement: {role} places no secret marks in {board.name}",
                         "the rules' placement says who places which mark")
    return marks[0]


def placement_advice(board: Board, role: str, seed: int = 0, sample: int = SAMPLE,
                     limits: Limits | None = None, every: bool = True) -> Advice:
    """The robust value of ``role`` from the board's position for its placements: every one
    exactly where the own placements serve (:mod:`gridsolve.solve.common.capabilities`; unless ``every`` is
    False), else all, or ``sample`` of them (half the most hurtful, half drawn with ``seed``)."""
    mark = own_mark(board, role)
    count = secret_count(board, mark)
    allowed = sorted(allowed_cells(board, mark))
    possible = math.comb(len(allowed), count)
    limits = limits or Limits()
    if every and serves(OWN_PLACEMENTS, board, Query(role, QueryKind.VALUE, initial_position(board), hidden=True)):
        return every_placement_advice(board, role, mark, count, possible, limits)
    combos = list(itertools.combinations(allowed, count))
    if possible > sample:
        ranked = sorted(combos, key=lambda c: (hurt(board, mark, frozenset(c)), c), reverse=True)
        rest = ranked[sample // 2:]
        combos = ranked[:sample // 2] + random.Random(seed).sample(rest, sample - sample // 2)
    advice = Advice(role, mark, possible)
    each = replace(limits, seconds=min(limits.seconds or PLACEMENT_SECONDS, PLACEMENT_SECONDS), progress=None)
    for cells in combos:
        placed = replace(board, marks={**board.marks, mark: frozenset(cells)},
                         unplaced={m: n for m, n in board.unplaced.items() if m != mark})
        try:
            answer = solve(placed, Query(role, QueryKind.VALUE, initial_position(placed), hidden=True), each)
        except LimitError:
            advice.unsettled.append(cells)
            continue
        advice.placed.append(Placed(cells, answer, *hurt(board, mark, frozenset(cells))))
    return advice


def every_placement_advice(board: Board, role: str, mark: str, count: int, possible: int, limits: Limits) -> Advice:
    """Every placement answered exactly from one grounding, one search per class of placements
    the board's symmetries map onto each other."""
    own = ownplacements.OwnPlacements(board, role, mark, limits)
    images = ownplacements.symmetries(board, mark, hidden_marks(board, role))
    groups = ownplacements.classes(ownplacements.every_placement(board, mark, count), images)
    advice = Advice(role, mark, possible, solved=len(groups))
    for cells, members in groups.items():
        answer = own.answer(frozenset(cells))
        advice.placed += [Placed(member, answer, *hurt(board, mark, frozenset(member))) for member in members]
    return advice


def format_advice(advice: Advice) -> str:
    tried = len(advice.placed) + len(advice.unsettled)
    if advice.solved is not None:
        said = (f"all {advice.possible} placements answered exactly ({advice.solved} searched: the board's "
                f"symmetries map the others onto them).")
    elif tried == advice.possible:
        said = f"all {advice.possible} placements tried."
    else:
        said = (f"{tried} of {advice.possible} placements tried (the {tried // 2} that hurt the other most, the rest "
                f"drawn at random).")
    lines = [f"Placement advice for {advice.role} ({advice.mark}): the robust value (--hidden, to the step "
             f"limit) with each placement; " + said]
    groups = advice.groups()
    if groups:
        best = groups[0][1][0]
        lines.append(f"Best: {' '.join(f'{x},{y}' for x, y in best.cells)}: value {best.answer.value}"
                     + ("" if best.answer.plies is None else f" in {wording.plies(best.answer.plies)}")
                     + f" ({best.kind}).")
    for value, group in groups:
        lines.append(f"value {value}: {wording.counted(len(group), 'placement')}")
        kinds: dict[str, list] = {}
        for p in group:
            kinds.setdefault(p.kind, []).append(p)
        for kind, members in kinds.items():
            shown = ", ".join(" ".join(f"{x},{y}" for x, y in p.cells) for p in members[:3])
            lines.append(f"  {len(members):>3} {kind}: e.g. {shown}")
    if advice.unsettled:
        shown = ", ".join(" ".join(f"{x},{y}" for x, y in cells) for cells in advice.unsettled[:3])
        lines.append(f"not settled within {PLACEMENT_SECONDS:.0f} s each: {len(advice.unsettled)} placements, "
                     f"e.g. {shown}")
    return "\n".join(lines)
