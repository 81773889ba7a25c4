"""What every solver shares: the answer types and the one solver interface (``answer``); the
one outcome view every solver fills, the principal line's one rule and the one answer reader
(``outcome``); the limits of a solve, checked by every path that grounds (``limits``); and the
one table of the solver paths: which board and question each serves, why it refuses the
others, and their order of cost (``capabilities``).

May import: ``gridsolve.compile`` and the stages below it.
"""
