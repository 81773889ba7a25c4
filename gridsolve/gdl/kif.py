"""KIF text read into terms: comments ``;`` to the end of the line, symbols case-insensitive
(read in lower case), variables ``?name``, every term with the line it starts on.

A term is a :class:`Term`: a symbol (``args`` empty, ``name`` the symbol) or a list
``(name arg ...)``; :func:`read_kif` gives the sentences of a file.  A text that is not KIF
(unbalanced parentheses, a list that does not start with a symbol, ``()``) is a
:class:`~gridsolve.errors.BoardError` with the file and the line.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..errors import BoardError

_TOKENS = re.compile(r";[^\n]*|\n|[ \t\r\f\v]+|\(|\)|[^\s();]+")


@dataclass(frozen=True)
class Term:
    """A KIF term: ``name`` and its arguments (none: a symbol or variable), from ``line``."""

    name: str
    args: tuple["Term", ...] = ()
    line: int = field(default=0, compare=False)
    listed: bool = field(default=False, compare=False)      # written in parentheses: (terminal) as a list

    @property
    def is_variable(self) -> bool:
        return not self.args and self.name.startswith("?")

    def variables(self) -> set[str]:
        if self.is_variable:
            return {self.name}
        out: set[str] = set()
        for arg in self.args:
            out |= arg.variables()
        return out

    def __str__(self) -> str:
        if not self.args and not self.listed:
            return self.name
        return "(" + " ".join([self.name, *map(str, self.args)]) + ")"


def read_kif(text: str, path: str = "<text>") -> list[Term]:
    """The sentences of KIF ``text`` (from file ``path``, named in errors)."""
    line = 1
    stack: list[tuple[int, list[Term]]] = []
    out: list[Term] = []
    for match in _TOKENS.finditer(text):
        token = match.group()
        if token == "\n":
            line += 1
        elif token[0] in " \t\r\f\v;":
            continue
        elif token == "(":
            stack.append((line, []))
        elif token == ")":
            if not stack:
                raise BoardError(path, line, "a ')' closes no '('", "remove it, or add the '(' it closes")
            start, items = stack.pop()
            if not items:
                raise BoardError(path, start, "an empty list '()' is not a GDL term", "remove it")
            head = items[0]
            if head.args or head.listed or head.is_variable:
                raise BoardError(path, start, f"the list {_show(items)} does not start with a name",
                                 "write a relation or function name after '('")
            term = Term(head.name, tuple(items[1:]), start, listed=True)
            (stack[-1][1] if stack else out).append(term)
        else:
            symbol = Term(token.lower(), (), line)
            (stack[-1][1] if stack else out).append(symbol)
    if stack:
        start = stack[-1][0]
        raise BoardError(path, start, f"the '(' on line {start} is never closed ({len(stack)} open at the end)",
                         "add the missing ')'")
    return out


def _show(items: list[Term]) -> str:
    text = "(" + " ".join(map(str, items)) + ")"
    return text if len(text) <= 60 else text[:57] + "..."
