"""The dispatchers: :func:`~gridsolve.solve.dispatch.dispatcher.solve` answers a question with
the first solver that serves it (``dispatcher``); :class:`~gridsolve.solve.dispatch.asker.Asker`
answers many questions about one board, sharing the solvers' work (``asker``).

May import: ``gridsolve.solve.race``, ``gridsolve.solve.layered``, ``gridsolve.solve.hidden``
and the stages below them.
"""
