"""Stage 3, the solvers: clingo runs the compiled programs and the answers come back as objects.

Owns the answer types and the one solver interface (``answer``), the clingo driver
(``driver``), the solvers that fill the interface in (races: ``engine``; compiled programs:
``compiled``; games with items: ``bounded``; ``--hidden``: ``robust``, ``knowing``), the
dispatcher that picks one (``solver``), many questions about one board (``asker``), many
questions from one file or stream (``questions``, ``gridsolve ask``), single
positions' moves and ends (``explore``) and explanations: refutations and the critical walls
(``explain``, ``walls``).

May import: ``gridsolve.compile``, ``gridsolve.language``, ``gridsolve.errors``,
``gridsolve.resources``.
"""
