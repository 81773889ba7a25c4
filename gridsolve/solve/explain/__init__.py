"""``gridsolve explain``: why a position has its answer (``explanation``) and which single wall
would change it (``walls``).

May import: ``gridsolve.solve.dispatch`` and the stages below it.
"""
