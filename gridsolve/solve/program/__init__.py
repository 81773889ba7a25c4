"""The compiled programs run by clingo: the driver that grounds, solves and reads a model
into an answer (``driver``), the compiled programs as a solver (``compiledsolver``) and single
positions' moves, successors and ends (``explore``).

May import: ``gridsolve.solve.common`` and the stages below it.
"""
