"""The rule language's mechanisms as plug-ins: each in a folder of its own, with what it adds to
the file format, the loader, the facts, the compiled rules and the position term.

A mechanism (items, bumps, gates, chasers and their script, ...) is two modules:

* ``NAME/language.py`` fills in a :class:`~gridsolve.mechanisms.base.Mechanism`: the keys it
  adds to a rule set, a board, a ``when`` or a move (the schema), its loader part (checking its
  keys and building its part of the rules, errors through the loader's context so that they
  name file and line) and ``used(rules)``, the names of the mechanisms the rules use;
* ``NAME/compiled.py`` fills in an :class:`~gridsolve.mechanisms.base.Encoding`: its facts
  (written with the declarations of :mod:`gridsolve.compile.predicates`), its part of the
  compiled rules and its fields of the position term (variables, values, decoding).

``registry.py`` lists the language parts (what :mod:`gridsolve.language` reads: the schema, the
loader, ``Rules.mechanisms``), ``encodings.py`` the compiled parts (what :mod:`gridsolve.compile`
reads: the facts, the game rules, ``Layout``); the core iterates over them and names no
mechanism.  docs/development.md, "Adding a mechanism", says how to add one.

A language part imports only the rule language (its file format types) and never a compiled
part; tests/test_mechanisms.py holds that line, so the rule language stays below the compiler.

May import: ``gridsolve.compile`` and the stages below it.
"""
