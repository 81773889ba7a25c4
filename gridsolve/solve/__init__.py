"""Stage 3, the solvers: clingo runs the compiled programs and the answers come back as objects.

Owns one subpackage a floor, from the ground up: what every solver shares (``common``: the
answer types, the solver interface, the limits), the game graphs ground from the compiled rules
(``graph``), the compiled programs ground and solved by clingo (``program``), the solver
families (the race solver ``race``, the bounded races ``bounded``, the layered tables
``layered``, the ``--hidden`` search ``hidden``), and the dispatchers that pick one (``dispatch``); the
features built on them, ``gridsolve ask`` and ``gridsolve explain``, live beside verify and
play (:mod:`gridsolve.ask`, :mod:`gridsolve.explain`).  Each subpackage says what it owns and may import.

May import: ``gridsolve.compile``, ``gridsolve.language``, ``gridsolve.ground``, ``gridsolve.errors``,
``gridsolve.resources``, ``gridsolve.native`` (the one loader of the C kernels).
"""
