"""Stage 4, verification: the ``expect:`` blocks of board files checked against the solver.

Owns the expectations (``expect``), running the checks
(``verify``, in the worker processes of :mod:`gridsolve.workers`; one part of them with ``--shard``: ``shard``),
writing measured values back (``update``), the report formats (``reports``) and the report page
(each board's answer and pictures: ``view``; the page: ``page``; what changed since an earlier run: ``compare``).

May import: ``gridsolve.workers`` (the one worker pool), ``gridsolve.analysis``, ``gridsolve.explain`` (the critical walls of `--explain`), ``gridsolve.gdl`` (a GDL game's values: ``gdlgame``), ``gridsolve.svg``,
``gridsolve.gdlpicture`` and ``gridsolve.render`` (the pictures and verdicts of the report page) and the stages below them.
"""
