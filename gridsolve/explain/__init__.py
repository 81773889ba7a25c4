"""``gridsolve explain``: why a position has its answer (``explanation``) and which single wall
would change it (``walls``: the wall graph, which the studio and the report page also use).

May import: ``gridsolve.workers`` (the one worker pool), ``gridsolve.solve`` and the stages below it.
"""
