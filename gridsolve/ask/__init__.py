"""``gridsolve ask``: many questions about one board from a file or a stream (``questions``),
or about one GDL game (``gdl``), each answered as ``solve --json`` writes it.

May import: ``gridsolve.solve``, ``gridsolve.gdl`` (a GDL game's session) and the stages below them.
"""
