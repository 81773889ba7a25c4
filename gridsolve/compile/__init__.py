"""Stage 2, the compiler: a board, its rules and a query written as one clingo program.

Owns the position term of a game (``state``), the rules that depend on it (``gamerules``),
the program plan and text (``compiler``) and the instantiation of parameterised parts of the
encodings (``unroll``).

May import: ``gridsolve.language``, ``gridsolve.errors``, ``gridsolve.resources``.
"""
