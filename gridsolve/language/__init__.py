"""Stage 1, the rule language: board and rule-set files read into checked Python objects.

Owns the game model (``model``), the declarative file format (``spec``, ``schema``), YAML with
line numbers (``yamlsrc``), ASCII maps (``asciimap``), the loader and the positions and
queries a user asks about (``position``), and counts in the words of the messages
(``wording``: "1 ply", "2 plies").

The mechanisms' parts of the language (their keys, loader parts and names) are in
``gridsolve.mechanisms`` (``NAME/language.py``, listed by ``registry.py``); the schema, the loader
and the model read them from the registry.

May import: ``gridsolve.errors``, ``gridsolve.resources`` and ``gridsolve.mechanisms`` (its language
parts only: the registry and ``NAME/language.py``, held by tests/test_mechanisms.py).
"""
