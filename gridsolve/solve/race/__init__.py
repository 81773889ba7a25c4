"""The race solver: one grounding of a board's game graph, its races ranked in arrays, answers
many questions (``racesolver``: :class:`Engine`, :class:`RaceSolver`), each read off the ranks
(``rankread``) by the one answer reader, the rules of encodings/answer.lp (``reader``: also
explain's wall graph and the studio's live graph read their answers with it); the ranks of one
race of a compiled program (``ranks``).

May import: ``gridsolve.solve.program``, ``gridsolve.solve.graph`` and the stages below them.
"""
