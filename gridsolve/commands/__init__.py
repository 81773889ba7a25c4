"""The commands of the command line, one module a command (``gridsolve.commands.NAME``, its
``command``), each imported only when it runs (:class:`gridsolve.cli.LazyGroup`); what they share,
options and the one error handler, is :mod:`.options`."""
