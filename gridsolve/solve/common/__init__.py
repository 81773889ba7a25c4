"""What every solver shares: the answer types and the one solver interface (``answer``) and the
limits of a solve, checked by every path that grounds (``limits``), and which layered questions
the bounded solver answers, read by it and by the layered tables (``boundedplan``).

May import: ``gridsolve.compile`` and the stages below it.
"""
