"""Stage 3.5, analysis: what verification and generation both measure of a board's solved game.

Owns the ends a role wins by and whether the rules allow each measure (``ends``), the
``no_beeline`` check: does walking a shortest path win? (``beeline``) and the difficulty
metrics of a won level (``metrics``).

May import: ``gridsolve.solve`` and the stages below it.
"""
