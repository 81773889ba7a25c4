"""GDL in: game descriptions in KIF (the ggp-base dialect, gdl2qbf's ``.gdl`` files) read,
checked and translated to a clingo program (``kif.py``, ``description.py``, ``translate.py``), the
generic engine that grounds the one-ply rules once and explores the reachable states into the
one game graph (``engine.py``, on :mod:`gridsolve.ground`), the answers read off it (``answers.py``) or off a
depth-first search from the state asked (``depthsearch.py``, ``depthanswer.py``), and
``solve`` of a GDL game and the session ``ask`` answers from (``solving.py``, ``text.py``).

May import: ``gridsolve.solve.graph``, ``gridsolve.solve.common``,
``gridsolve.ground``, ``gridsolve.errors`` and the stages below them.
"""
