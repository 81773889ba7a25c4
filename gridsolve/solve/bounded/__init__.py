"""The bounded races: games with items searched exactly on top of the abstract game
(``search``), its positions merged by bisimulation (``quotient``), its work kept across
questions (``memo``), and the races in C (``raceskernel.c``, driven by ``kernel`` through
``kernelraces``, loaded by ``gridsolve.native``).

May import: ``gridsolve.solve.program``, ``gridsolve.solve.graph``,
``gridsolve.solve.threshold`` and the stages below them, and ``gridsolve.native`` (the C kernels' loader).
"""
