"""Stage 5, generation: new boards that meet a request, proposed by clingo and judged exactly.

Owns the request and what it places (``genspec``, ``genchoices``), the proposing program
(``genprogram``, ``proposer``), the judge and the difficulty measures (``judge``,
``difficulty``, over :mod:`gridsolve.analysis.metrics`), the written board files (``levelfile``)
and the run (``generate``).

May import: ``gridsolve.verify``, ``gridsolve.svg`` (its pictures) and the stages below them.
"""
