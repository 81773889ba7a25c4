"""gridsolve's exceptions.  Library code raises these; only the CLI turns them into exit codes.

Exit codes (documented in the README):

* 0 - the command ran and (for ``verify``) every expectation holds
* 1 - ``verify``: an expectation does not hold
* 2 - invalid input: a board, rule set or command-line option is wrong
* 3 - a query does not fit the limits (states, time); the message says what to try
* 4 - internal error in an encoding (a bug: please report it)
"""
from __future__ import annotations

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_INVALID = 2
EXIT_LIMIT = 3
EXIT_INTERNAL = 4


def _sentence(text: str) -> str:
    """A hint as a sentence: capitalised, ending with a full stop or question mark."""
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "?", "!")) else text + "."


class GridsolveError(Exception):
    """Base class of every error gridsolve reports to the user."""

    exit_code = EXIT_INTERNAL

    def __init__(self, message: str, hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return self.message if not self.hint else f"{self.message}. {_sentence(self.hint)}"


class BoardError(GridsolveError):
    """A board or rule-set file is wrong: where, what, and how to fix it."""

    exit_code = EXIT_INVALID

    def __init__(self, path: str, line: int | None, message: str, hint: str | None = None):
        super().__init__(message, hint)
        self.path = str(path)
        self.line = line

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        text = f"{where}: {self.message}"
        return f"{text}. {_sentence(self.hint)}" if self.hint else text


class QueryError(GridsolveError):
    """A command-line query is wrong (unknown role, bad position, ...)."""

    exit_code = EXIT_INVALID


class ConstantFluentsError(QueryError):
    """A GDL state asked about holds other constant fluents (ones no move changes) than the root
    its game was ground for: ground it again from that state."""


class LimitError(GridsolveError):
    """A query does not fit the limits; the hint says what to try instead."""

    exit_code = EXIT_LIMIT


class MemoryLimitError(LimitError):
    """A query does not fit the memory limit (``--max-memory``): fewer plies may not help."""


class EncodingError(GridsolveError):
    """An encoding could not be parsed or grounded: a bug in gridsolve itself."""

    exit_code = EXIT_INTERNAL
