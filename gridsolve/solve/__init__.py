"""Stage 3, the solvers: clingo runs the compiled programs and the answers come back as objects.

Owns single questions (``solver``), one grounding shared by many questions (``engine``),
many questions from one file or stream (``questions``, ``gridsolve ask``), single
positions' moves and ends (``explore``) and explanations: refutations and the critical walls
(``explain``, ``walls``).

May import: ``gridsolve.compile``, ``gridsolve.language``, ``gridsolve.errors``,
``gridsolve.resources``.
"""
