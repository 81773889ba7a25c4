"""Thinking on the human's time: ``play`` asks the computer's next questions while a human
chooses a move.

While a human reads the board and types a move, the solver would sit idle; the computer's next
question is one of few (its question at the position after each move the human can make).
:class:`ThinkAhead` asks them in a background thread, through the game's
:class:`~gridsolve.solve.dispatch.asker.Asker`, so that the work they leave behind (the bounded solver's
transposition tables, a layered table, the race engine) answers the question that comes at
once.  The answers themselves are not kept: the question is asked again when it comes, and
gives the same answer (the shared work only makes it cheaper).  Before anything else uses the
Asker, :meth:`ThinkAhead.stop` ends the thread: a bounded search checks its limits every few
thousand positions (in C every 200,000: about 25 ms), and a question cut short leaves the tables as they were before it (an entry
is written only when its search ends).
"""
from __future__ import annotations

import dataclasses
import threading

from ..errors import GridsolveError
from ..language.position import Query
from ..solve.dispatch.asker import Asker
from ..solve.common.limits import Limits


class ThinkAhead:
    """Questions answered in the background, one thread at a time, for one Asker."""

    def __init__(self, asker: Asker):
        self.asker = asker
        self.thread: threading.Thread | None = None
        self.limits: Limits | None = None
        self.answered = 0          # questions answered ahead so far

    def start(self, queries: list[Query], order_by: Query | None = None, labels: list[str] = ()) -> None:
        """Answer ``queries`` in turn in a background thread (after ending the last one).  With
        ``order_by`` (a survive question at the humans' position, of a role of the computer),
        the queries, labelled with the humans' moves that lead to them, are asked first where
        that role is doomed soonest: the moves a human who closes in plays."""
        self.stop()
        if not queries:
            return
        limits = self.limits = dataclasses.replace(self.asker.limits, seconds=None, progress=None)

        def run():
            ordered = queries
            if order_by is not None:
                try:
                    doom = {m.move: m.doom_plies for m in self.asker.ask(order_by, limits, line_plies=1).moves}
                except GridsolveError:
                    return
                ordered = [q for _, q in sorted(zip(labels, queries), key=lambda pair: (
                    doom.get(pair[0]) is None, doom.get(pair[0]) or 0))]
            for query in ordered:
                if limits.seconds is not None:      # stopped
                    return
                try:
                    self.asker.ask(query, limits, line_plies=1)
                except GridsolveError:               # stopped, or does not fit: asked again when it comes
                    return
                self.answered += 1
        self.thread = threading.Thread(target=run, name="gridsolve-think-ahead", daemon=True)
        self.thread.start()

    def stop(self) -> None:
        """End the background questions (the one under way stops at its next check of the
        limits) and wait for the thread."""
        if self.thread is None:
            return
        self.limits.seconds = 0.0
        self.thread.join()
        self.thread = None
