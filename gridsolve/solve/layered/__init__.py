"""The layered tables: the values and ranks of encodings/layered.lp computed once for every
position and plies left, then read for each question (``table``).

May import: ``gridsolve.solve.bounded`` and the stages below it.
"""
