"""Ground programs as circuits: clingo grounds a program once, its inputs free (choice rules with
no body, external atoms), and the ground rules are evaluated for many inputs at once, 64 cases a
machine word (``circuit``; in C by ``circuitkernel.c`` where it was built, else in numpy, with
the same results), with Python's cycle collector paused while it is built (``collector``, which the
bounded search uses too).  The GDL engine, the shared tables of scripted games and the layout judge read
their ground rules through it.

May import: ``gridsolve.errors``.
"""
