"""``gridsolve crosscheck BOARD --against GAME.kif``: every reachable position of a board's game
compared with the state of the GDL game it models, through the mapping the board names in its
``crosscheck:`` key (docs/crosscheck.md): the mapping read and checked (``mapping.py``), the
board's positions judged a breadth-first layer at a time (``boardside.py``) and the comparison
with the GDL engine's states, moves, ends and goals (``compare.py``).

May import: ``gridsolve.gdl``, ``gridsolve.solve`` and the stages below them.
"""
