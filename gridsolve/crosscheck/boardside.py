"""A board's positions judged by its compiled rules, many at once: for each, the end that holds,
the scores if the game stops there, and its moves with the positions they lead to.

One clingo call judges a batch of positions (the game rules with a ``root/1`` fact each, as
:func:`~gridsolve.solve.program.explore.examine` and ``stop_scores`` ask of one); a position's
answer does not depend on its step, so each is judged once (kept by its term).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import clingo

from ..compile.gamerules import score_rules, with_domain
from ..compile.predicates import EDGE, ESCORE_OF, OUTCOME, ROOT, TSCORE_OF, each_atom
from ..compile.state import layout_for
from ..language.model import Board
from ..language.position import Position
from ..solve.common.limits import LimitGuard
from ..solve.program.driver import format_move
from ..solve.program.explore import game_program

BATCH = 2000        # positions judged by one clingo call


@dataclass(frozen=True)
class Judged:
    """A position's end (None: the game goes on), its end's scores (``ends``), the scores at
    the step limit (``timeouts``) and its moves: (label, position after it at step 0, its
    term), by label."""

    end: str | None
    ends: dict
    timeouts: dict
    steps: tuple[tuple[str, Position, str], ...]


class BoardJudge:
    """The judged positions of one board, kept by position term."""

    def __init__(self, board: Board, guard: LimitGuard):
        self.board, self.guard = board, guard
        self.layout = layout_for(board)
        self.scores = with_domain("\n".join(line for role in board.rules.roles
                                            for line in score_rules(board, self.layout, role, True)),
                                  "reach(", "reach(")
        self.known: dict[str, Judged] = {}

    def term(self, pos: Position) -> str:
        return self.layout.root_term(pos, self.board)

    def judge(self, positions: list[Position]) -> list[Judged]:
        """The judgement of each of ``positions``."""
        terms = [self.term(p) for p in positions]
        fresh = sorted(set(t for t in terms if t not in self.known))
        for lo in range(0, len(fresh), BATCH):
            self._judge(fresh[lo:lo + BATCH])
            self.guard.after(f"after judging {len(self.known):,} board positions")
        return [self.known[t] for t in terms]

    def _judge(self, terms: list[str]) -> None:
        board = self.board
        shown = (EDGE, OUTCOME, ESCORE_OF, TSCORE_OF)
        program = game_program(board, "".join(ROOT.fact(t) for t in terms), shown=shown, rules=[self.scores])
        ctl = clingo.Control(["--warn=none"])
        ctl.add("base", [], program)
        self.guard.ground(ctl, [("base", [])], "grounding the board's moves")
        ends: dict = {t: None for t in terms}
        escores: dict = {t: {} for t in terms}
        tscores: dict = {t: {} for t in terms}
        steps: dict = {t: [] for t in terms}
        with ctl.solve(yield_=True) as handle:
            for model in handle:
                for predicate, fields in each_atom(model.symbols(shown=True), shown):
                    if predicate is EDGE:
                        src, move, after = fields
                        pos = self.layout.position(after, board, 0)
                        steps[str(src)].append((format_move(move), pos, str(after)))
                    elif predicate is OUTCOME:
                        src, end = fields
                        ends[str(src)] = end
                    else:
                        src, role, value = fields
                        (escores if predicate is ESCORE_OF else tscores)[str(src)][role] = value
        for t in terms:
            moves = () if ends[t] is not None else tuple(sorted(steps[t], key=lambda s: s[0]))
            self.known[t] = Judged(ends[t], escores[t], tscores[t], moves)


def at_step(pos: Position, step: int) -> Position:
    return dataclasses.replace(pos, step=step)


