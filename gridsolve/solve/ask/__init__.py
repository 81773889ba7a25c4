"""``gridsolve ask``: many questions about one board from a file or a stream (``questions``).

May import: ``gridsolve.solve.dispatch`` and the stages below it.
"""
