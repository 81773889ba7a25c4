"""The race solver: one grounding of a board's game graph, its races ranked in arrays, answers
many questions (``racesolver``: :class:`Engine`, :class:`RaceSolver`), each read off the ranks
by the rules of encodings/answer.lp (``rankread``); the ranks of one race of a compiled program
(``ranks``).

May import: ``gridsolve.solve.program``, ``gridsolve.solve.graph`` and the stages below them.
"""
