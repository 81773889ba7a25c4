"""Stage 5, generation: new boards that meet a request, proposed by clingo and judged exactly.

Owns the request (``request``: one object for the CLI, the studio and the workers) and what
it places (``genspec``, ``genchoices``), the run set up (``run``), the proposing program
(``genprogram``, ``proposer``, layouts made in Python: ``fresh``, ``quick``, ``mutation``), the
search (``search``, ``lengthen``), every start of a layout judged (``startgraph``,
``startplay``, and in C: ``layoutjudge``, ``layoutkernel.c``; both give ``starts``), the judge
and the difficulty measures (``judge``, ``difficulty``, over :mod:`gridsolve.analysis.metrics`),
the most testing line (``testing``), the written board files (``levelfile``), packs and
pictures (``pack``, ``pictures``), the report (``report``) and the run (``generate``; in
worker processes or on a Dask cluster: ``jobs``).

May import: ``gridsolve.verify``, ``gridsolve.svg`` (its pictures) and the stages below them.
"""
