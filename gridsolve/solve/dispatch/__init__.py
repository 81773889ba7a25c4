"""The dispatcher: a :class:`~gridsolve.solve.dispatch.dispatcher.Dispatcher` answers a question
with the first of its solvers that serves it.  :func:`~gridsolve.solve.dispatch.dispatcher.solve`
asks one of every solver (``dispatcher``); :class:`~gridsolve.solve.dispatch.asker.Asker`, many
questions about one board (``asker``), is one of the same solvers wrapped to keep their work
between questions (``caching``).

May import: ``gridsolve.solve.race``, ``gridsolve.solve.bounded``, ``gridsolve.solve.layered``,
``gridsolve.solve.hidden`` and the stages below them.
"""
