"""The robust search of ``solve --hidden``: the solver that deepens or searches the role's
knowledge (``hiddensolver``), the knowledge search at the full step limit (``knowing``) and the
full-information values of the role's moves under many placements (``placements``).

May import: ``gridsolve.solve.program``, ``gridsolve.solve.graph``,
``gridsolve.solve.threshold`` and the stages below them, ``gridsolve.solve.bounded.kernelraces`` (what the C races share) and ``gridsolve.native``.
"""
