"""The layered tables: the values and ranks of encodings/layered.lp computed once for every
position and plies left, then read for each question (``table``).

May import: ``gridsolve.solve.program``, ``gridsolve.solve.graph`` and the stages below them.
"""
