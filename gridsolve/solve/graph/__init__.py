"""The game graphs the solvers search, ground by clingo from the compiled rules and kept in
arrays: the one retrograde ranker every graph's ranks come from (``retrograde``, with its C twin
``retrograde.h``), the one game graph every ranked graph is, built and patched
(``gamegraph``), the race graph and its ranks (``racegraph``), the graph joined
from each piece's moves (``factored``), the abstract game without the items (``abstractgame``,
joined from the pieces: ``abstractpieces``), the graph of games with pieces moved by rule
joined in arrays (``scripted``), clingo's model read as raw symbols (``rawmodel``) and the one
codec of positions, Position <-> term <-> number (``codec``).

May import: ``gridsolve.solve.common``, ``gridsolve.ground`` and the stages below them, and ``gridsolve.native`` (the C kernels' loader).
"""
