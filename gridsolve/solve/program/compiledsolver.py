"""The compiled programs as a solver: ``gridsolve compile``'s program, ground and solved by the
driver (:mod:`gridsolve.solve.program.driver`).

It answers the questions no other solver serves: those planned layer by layer
(encodings/layered.lp) that the bounded solver does not take, and the race questions asking
for a ``--strategy`` (the single-shot race program, encodings/solve.lp and answer.lp, which
writes the strategy).
"""
from __future__ import annotations

import dataclasses
import time

from ...compile.planning import Mode
from ...compile.compiler import compile_program
from ...errors import QueryError
from ..common.answer import Answer, Question
from ..common.capabilities import COMPILED, serves_question
from .driver import run_program


class CompiledSolver:
    """The compiled program of a question, run by the driver: a
    :class:`~gridsolve.solve.common.answer.Solver` that serves every question (the last one tried)."""

    name = "compiled"

    def serves(self, question: Question) -> bool:
        return serves_question(COMPILED, question)

    def answer(self, question: Question) -> Answer:
        board, query = question.board, question.query
        program = compile_program(board, query)
        if query.strategy and program.mode is Mode.LAYERED:
            raise QueryError("--strategy: strategies are written for games solved by races only; "
                             f"{board.name} asked this way needs the layered solver",
                             "Ask without --strategy; per-move values and the principal line show the best play.")
        compiled = time.perf_counter()
        answer = run_program(program, board, question.limits)
        answer.stats = dataclasses.replace(answer.stats, compile_s=round(compiled - question.started, 4),
                                           total_s=round(time.perf_counter() - question.started, 4))
        return answer
