"""Stage 1, the rule language: board and rule-set files read into checked Python objects.

Owns the game model (``model``), the declarative file format (``spec``, ``schema``), YAML with
line numbers (``yamlsrc``), ASCII maps (``asciimap``), the loader and the positions and
queries a user asks about (``position``), and counts in the words of the messages
(``wording``: "1 ply", "2 plies").

May import: ``gridsolve.errors`` and ``gridsolve.resources`` only.
"""
