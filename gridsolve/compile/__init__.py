"""Stage 2, the compiler: a board, its rules and a query written as one clingo program.

Owns the position term of a game (``state``), the rules that depend on it (``gamerules``),
the plan of a query (``planning``: its races, race or layered solver), the facts of a
program (``facts``), the one builder of the game program (``gameprogram``), the robust game of a
``--hidden`` question (``knowledge``), the programs of a query assembled from them (``compiler``) and the instantiation of parameterised parts of the
encodings (``unroll``).

The mechanisms' parts of the program (facts, compiled rules, fields of the position term) are in
``gridsolve.mechanisms`` (``NAME/compiled.py``, listed by ``encodings.py``).

May import: ``gridsolve.language``, ``gridsolve.mechanisms``, ``gridsolve.errors``, ``gridsolve.resources``.
"""
