"""The race solver: one grounding of a board's game graph, its races ranked in arrays, answers
many questions (``racesolver``: :class:`Engine`, :class:`RaceSolver`), each read off the ranks
by the rules of encodings/answer.lp (``rankread``).

May import: ``gridsolve.solve.program`` and the stages below it.
"""
