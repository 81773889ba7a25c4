"""A game description read and checked: its rules with ``or`` expanded (each a head and a
conjunction of literals), refused with the file, the line and the reason where it is not a GDL
game gridsolve answers.

Checks, in order: each sentence is a fact or a ``(<= head body ...)`` rule whose head is a
relation (not ``true``, ``does``, ``not``, ``or``, ``distinct``); GDL-II (``sees``, ``random``) is
refused; ``role``, ``legal``, ``next``, ``goal`` and ``terminal`` are there (``init`` is optional, as in
GDL: without it the game starts from the empty state); every
rule is safe (each variable of its head, of a negated literal and of a ``distinct`` occurs in a
positive literal of its body); negation is stratified (no relation depends on itself through a
``not`` of another relation; a relation's ground atoms reading its own other atoms through a
``not``, ``(<= (goal r 100) (not (goal r 0)))``, is checked on the ground game); ``legal``, ``goal`` and ``terminal`` do not depend on ``does``.  ``base`` and
``input`` are optional: read as any other relation.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..errors import BoardError
from .kif import Term, read_kif

KEYWORDS = ("role", "init", "true", "does", "next", "legal", "goal", "terminal")
REQUIRED = ("role", "legal", "next", "goal", "terminal")      # (no init: the empty state)
GDL_II = {"sees": "it declares what roles see (sees): incomplete information",
          "random": "it has a chance role (random)"}


@dataclass(frozen=True)
class Literal:
    """One literal of a rule's body: ``kind`` is ``pos`` or ``neg`` (``atom`` a relation atom),
    ``ne`` or ``eq`` (``atom`` is None, ``pair`` the two terms)."""

    kind: str
    atom: Term | None = None
    pair: tuple[Term, Term] | None = None

    def variables(self) -> set[str]:
        if self.atom is not None:
            return self.atom.variables()
        return self.pair[0].variables() | self.pair[1].variables()


@dataclass(frozen=True)
class Rule:
    """``head`` holds where every literal of ``body`` holds (a fact: no body); from ``line``."""

    head: Term
    body: tuple[Literal, ...]
    line: int


@dataclass
class Description:
    """A checked game description: its rules (facts among them) and the file it came from."""

    path: str
    rules: list[Rule]

    def relations(self) -> set[tuple[str, int]]:
        return {(rule.head.name, len(rule.head.args)) for rule in self.rules}


def read_description(path: Path | str, text: str | None = None) -> Description:
    """The checked description of the KIF file ``path`` (its ``text`` where given)."""
    name = str(path)
    if text is None:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except FileNotFoundError:
            raise BoardError(name, None, "no such file", "check the path") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise BoardError(name, None, f"cannot read the file ({exc})") from None
    sentences = read_kif(text, name)
    if not sentences:
        raise BoardError(name, None, "no GDL sentences in the file", "write the game's role, init, legal, next, goal "
                         "and terminal rules in KIF")
    rules = [rule for sentence in sentences for rule in _rules(sentence, name)]
    description = Description(name, rules)
    _refuse_gdl_ii(description)
    _require(description)
    for rule in rules:
        _check_safe(rule, name)
    _check_strata(description)
    return description


# - Sentences into rules ---

def _rules(sentence: Term, path: str) -> list[Rule]:
    if sentence.name == "<=":
        if not sentence.args:
            raise BoardError(path, sentence.line, "a rule (<= ...) without a head", "write (<= head body ...)")
        head = _head(sentence.args[0], path)
        alternatives = [[]]
        for part in sentence.args[1:]:
            alternatives = [done + more for done in alternatives for more in _dnf(part, path, False)]
        return [Rule(head, tuple(body), sentence.line) for body in alternatives]
    return [Rule(_head(sentence, path), (), sentence.line)]


def _head(term: Term, path: str) -> Term:
    if term.is_variable:
        raise BoardError(path, term.line, f"the variable {term.name} cannot be a sentence or a rule's head",
                         "write a relation there")
    if term.name in ("true", "does", "not", "or", "and", "distinct", "<="):
        raise BoardError(path, term.line, f"{term} cannot be a fact or a rule's head ({term.name} is GDL's own)",
                         "derive next, legal, goal or terminal instead")
    return term


def _dnf(term: Term, path: str, negated: bool) -> list[list[Literal]]:
    """The alternatives (each a conjunction) of body part ``term``, negated where ``negated``."""
    name, args = term.name, term.args
    if term.is_variable:
        raise BoardError(path, term.line, f"the variable {name} cannot be a literal", "write a relation there")
    if name in ("not", "or", "and", "distinct") and not term.listed:
        raise BoardError(path, term.line, f"'{name}' without arguments", f"write ({name} ...)")
    if name == "not":
        if len(args) != 1:
            raise BoardError(path, term.line, f"(not ...) takes one literal, not {len(args)}", "write (not literal)")
        return _dnf(args[0], path, not negated)
    if name in ("or", "and"):
        conjunction = (name == "and") != negated      # not (a or b) = not a and not b
        parts = [_dnf(arg, path, negated) for arg in args]
        if conjunction:
            out = [[]]
            for alternatives in parts:
                out = [done + more for done in out for more in alternatives]
            return out
        return [alternative for alternatives in parts for alternative in alternatives]
    if name == "distinct":
        if len(args) != 2:
            raise BoardError(path, term.line, f"(distinct ...) compares two terms, not {len(args)}",
                             "write (distinct a b)")
        return [[Literal("eq" if negated else "ne", pair=(args[0], args[1]))]]
    if name == "<=":
        raise BoardError(path, term.line, "a rule (<= ...) inside a rule's body", "close the rule before it")
    return [[Literal("neg" if negated else "pos", term)]]


# - Checks ---

def _first(description: Description, names) -> Rule | None:
    return next((rule for rule in description.rules if rule.head.name in names
                 or any(lit.atom is not None and lit.atom.name in names for lit in rule.body)), None)


def _refuse_gdl_ii(description: Description) -> None:
    for rule in description.rules:
        terms = [rule.head] + [lit.atom for lit in rule.body if lit.atom is not None]
        for term in terms:
            if term.name == "sees":
                reason = GDL_II["sees"]
            elif term.name == "role" and term.args and term.args[0].name == "random":
                reason = GDL_II["random"]
            else:
                continue
            raise BoardError(description.path, rule.line, f"a GDL-II game: {reason}",
                             "only games of complete information without chance (GDL) are answered")


def _require(description: Description) -> None:
    heads = {rule.head.name for rule in description.rules}
    missing = [name for name in REQUIRED if name not in heads]
    if missing:
        raise BoardError(description.path, None, f"not a GDL game: no {', '.join(missing)} "
                         f"{'rule' if len(missing) == 1 else 'rules'}",
                         "a game needs role, legal, next, goal and terminal (init is optional)")


def _check_safe(rule: Rule, path: str) -> None:
    bound = set()
    for lit in rule.body:
        if lit.kind == "pos":
            bound |= lit.atom.variables()
    unsafe = [(f"the head {rule.head}", rule.head.variables() - bound)]
    unsafe += [(f"(not {lit.atom})" if lit.kind == "neg" else
                f"({'distinct' if lit.kind == 'ne' else 'not (distinct'} {lit.pair[0]} {lit.pair[1]})",
                lit.variables() - bound) for lit in rule.body if lit.kind != "pos"]
    for where, free in unsafe:
        if free:
            names = ", ".join(sorted(free))
            raise BoardError(path, rule.line, f"an unsafe rule: {names} in {where} occurs in no positive literal "
                             "of its body", "bind each variable by a relation in the body")


def _check_strata(description: Description) -> None:
    """No relation depends on itself through a negation; legal, goal, terminal not on does."""
    edges: dict[str, set[tuple[str, bool, int]]] = {}
    for rule in description.rules:
        out = edges.setdefault(rule.head.name, set())
        for lit in rule.body:
            if lit.atom is not None:
                out.add((lit.atom.name, lit.kind == "neg", rule.line))
    reach: dict[str, set[str]] = {}

    def reached(name: str) -> set[str]:
        if name not in reach:
            seen, todo = set(), [name]
            while todo:
                for other, _, _ in edges.get(todo.pop(), ()):
                    if other not in seen:
                        seen.add(other)
                        todo.append(other)
            reach[name] = seen
        return reach[name]

    for head, out in edges.items():
        for other, negative, line in sorted(out, key=lambda e: e[2]):
            if negative and other != head and head in reached(other):     # (through itself: checked ground)
                raise BoardError(description.path, line, f"negation is not stratified: {head} depends on itself "
                                 f"through (not ({other} ...))", "GDL forbids recursion through not")
    for name in ("legal", "goal", "terminal"):
        if "does" in reached(name):
            rule = _first(description, {name})
            raise BoardError(description.path, rule.line if rule else None,
                             f"{name} depends on does (the moves of the step being played)",
                             f"GDL's {name} may read only the state (true)")
