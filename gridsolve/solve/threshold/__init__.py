"""Threshold races, written once: "can a side force a stop meeting a goal (a score of at least v,
one below v, an end the role must avoid) within d plies?" as an AND-OR search with one
transposition table per race, bounds that decide a position unexpanded, iterative deepening and
the limits checked as it runs (``racesearch``; both answers are read by the one answer reader,
:mod:`gridsolve.solve.common.outcome`).  The bounded races (games with items,
:mod:`gridsolve.solve.bounded`) and the robust search (``--hidden``, :mod:`gridsolve.solve.hidden`)
fill in its hooks: a position's plies in the order tried, its stop score, the race's key and the
bounds.  Their C kernels are the same search in C, written once here: ``racekernel.h`` (the
tables, the races, the fields of the one object a kernel is made from, read by name, and the
search without the GIL) and ``racesearch.h`` (the search and the module's functions), which
``bounded/raceskernel.c`` and ``hidden/knowingkernel.c`` include around their game's hooks.

May import: ``gridsolve.solve.common`` and the stages below it.
"""
