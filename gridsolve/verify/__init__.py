"""Stage 4, verification: the ``expect:`` blocks of board files checked against the solver.

Owns the expectations (``expect``), running the checks
(``verify``, in worker processes: ``parallel``; one part of them with ``--shard``: ``shard``),
writing measured values back (``update``) and the report formats (``reports``).

May import: ``gridsolve.analysis``, ``gridsolve.gdl`` (a GDL game's values: ``gdlgame``)
and the stages below them.
"""
