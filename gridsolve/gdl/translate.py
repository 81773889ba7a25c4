"""A checked game description written as a clingo program, and clingo's symbols read back as KIF.

Symbols clingo takes as they are (a lower-case letter, then lower-case letters, digits and
``_``; numbers without leading zeros, as integers) are kept; every other symbol is mangled
reversibly: ``z_`` and the symbol with each character other than ``a-z0-9`` written ``_XX`` (its
code in hex: ``my-cell`` is ``z_my_2Dcell``, ``zone`` is ``z_zone``: a kept symbol never starts
with ``z``).  Variables ``?x`` are ``V`` and the escaped name.  The names the engine adds start
with ``zz``, which neither a kept nor a mangled symbol does.  ``(distinct a b)`` is ``a != b``; ``(not (distinct a b))`` is ``a = b``.
"""
from __future__ import annotations

import re
from urllib.parse import unquote

import clingo

from .description import Description, Literal, Rule
from .kif import Term

_KEPT = re.compile(r"[a-z][a-z0-9_]*")
_NUMBER = re.compile(r"0|[1-9][0-9]{0,8}")
_ESCAPE = re.compile(r"_([0-9A-F]{2})")
RESERVED = {"not"}      # (a clingo keyword)


def _encode(name: str) -> str:
    return "".join(c if c.isascii() and (c.islower() or c.isdigit()) else
                   "".join(f"_{b:02X}" for b in c.encode("utf-8")) for c in name)


def mangle(name: str) -> str:
    """The clingo name of GDL symbol ``name`` (see the module docstring)."""
    if _KEPT.fullmatch(name) and not name.startswith("z") and name not in RESERVED:
        return name
    return "z_" + _encode(name)


def unmangle(name: str) -> str:
    """The GDL symbol of clingo name ``name`` (the inverse of :func:`mangle`)."""
    if not name.startswith("z_"):
        return name
    return unquote(_ESCAPE.sub(lambda m: f"%{m.group(1)}", name[2:]))


def term_text(term: Term) -> str:
    """The clingo text of a GDL term."""
    if term.is_variable:
        return "V" + _encode(term.name[1:])
    if not term.args:
        return term.name if _NUMBER.fullmatch(term.name) else mangle(term.name)
    return f"{mangle(term.name)}({','.join(term_text(arg) for arg in term.args)})"


def literal_text(lit: Literal) -> str:
    """The clingo text of a literal of a rule's body."""
    if lit.kind == "pos":
        return term_text(lit.atom)
    if lit.kind == "neg":
        return "not " + term_text(lit.atom)
    left, right = (term_text(t) for t in lit.pair)
    return f"{left}{'!=' if lit.kind == 'ne' else '='}{right}"


def rule_text(rule: Rule) -> str:
    head = term_text(rule.head)
    if not rule.body:
        return head + "."
    return f"{head} :- {', '.join(literal_text(lit) for lit in rule.body)}."


def program_text(description: Description) -> str:
    """The rules of ``description`` as one clingo program (every relation as a predicate)."""
    lines = [f"% {description.path}: {len(description.rules)} rules"]
    lines += [rule_text(rule) for rule in description.rules]
    return "\n".join(lines) + "\n"


def state_program(description: Description, fluents: list[Term] | None = None) -> str:
    """The game's rules as one clingo program with the state fixed: the initial state (what
    ``init`` derives) or the state of ``fluents``; plain clingo prints its one model's ``true``,
    ``legal``, ``goal`` and ``terminal`` (``gridsolve compile GAME.kif``)."""
    where = "the initial state" if fluents is None else "the state given (--at)"
    head = [f"% The rules of {description.path} in clingo (docs/gdl.md), from {where}: its one model shows that",
            "% state (true), each role's legal moves, the goals and whether it is terminal.  The game's",
            "% values: gridsolve solve on the game file."]
    state = (["true(F) :- init(F)."] if fluents is None else [f"true({term_text(term)})." for term in fluents])
    shown = ["#defined does/2.", "#show true/1.", "#show legal/2.", "#show goal/2.", "#show terminal/0."]
    return "\n".join(head) + "\n" + program_text(description) + "\n".join(state + shown) + "\n"


def symbol_kif(symbol: clingo.Symbol) -> str:
    """A clingo symbol of the program as GDL text (KIF)."""
    if symbol.type == clingo.SymbolType.Number:
        return str(symbol.number)
    if symbol.type != clingo.SymbolType.Function:
        return str(symbol)
    name = unmangle(symbol.name)
    if not symbol.arguments:
        return name
    return "(" + " ".join([name, *(symbol_kif(arg) for arg in symbol.arguments)]) + ")"


def kif_symbol(term: Term) -> clingo.Symbol:
    """The clingo symbol of a ground GDL term (its text parsed by clingo)."""
    return clingo.parse_term(term_text(term))
