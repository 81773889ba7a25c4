"""The independent references that the tests and bench/ share: each imports nothing from gridsolve
(tests/test_reference_reading.py checks) and answers from the manual's words alone.

- board.py: board and rule files read from the manual (plain YAML), for game.py, hidden.py and
  retrograde.py;
- game.py: every rule option, by plain memoised recursion over (state, plies left);
- retrograde.py: the Mummy Maze family by BFS and retrograde analysis (the fast baseline bench/
  times gridsolve against);
- hidden.py: the game with secret obstacles (``--hidden``), by explicit search over knowledge;
- classic.py: the classic Mummy Maze of the original game, from its own rules;
- gdl.py: a plain GDL interpreter (KIF) for the GDL engine and ``crosscheck``.
"""
