"""A game's rules with each body literal's own variables projected away: fewer ground rules,
the same atoms.

In ``(<= (next (cell ?x ?y ?m)) (true (cell ?x ?y ?m)) (does blocker (mark ?a ?b ?c ?d))
(distinct ?x ?a))`` the variables ``?b ?c ?d`` occur in the ``does`` literal only: the rule
ground bottom-up has one instance per fluent and per move (millions), while what it reads of
the move is ``?a``.  A positive literal whose variables are not all read elsewhere in its rule
(the head, the other literals) becomes a relation of the variables that are, defined by the
literal alone: ``(zzProj3 ?a)`` with ``(<= (zzProj3 ?a) (does blocker (mark ?a ?b ?c ?d)))``,
which holds exactly where the literal holds for some values of the others.  The new relations'
names have capitals, which a KIF symbol (read in lower case) never has.
"""
from __future__ import annotations

from .description import Description, Literal, Rule
from .kif import Term


def projected(description: Description) -> Description:
    """``description`` with the body literals' own variables projected away (the module docstring)."""
    rules: list[Rule] = []
    made: dict[tuple[Term, tuple[str, ...]], Term] = {}
    for rule in description.rules:
        if len(rule.body) < 2:
            rules.append(rule)
            continue
        body = []
        for k, lit in enumerate(rule.body):
            if lit.kind != "pos":
                body.append(lit)
                continue
            elsewhere = rule.head.variables().union(*(other.variables() for j, other in enumerate(rule.body)
                                                       if j != k))
            kept = tuple(sorted(lit.atom.variables() & elsewhere))
            if lit.atom.variables() <= elsewhere:
                body.append(lit)
                continue
            key = (lit.atom, kept)
            if key not in made:
                made[key] = Term(f"zzProj{len(made)}", tuple(Term(v) for v in kept))
                rules.append(Rule(made[key], (lit,), rule.line))
            body.append(Literal("pos", made[key]))
        rules.append(Rule(rule.head, tuple(body), rule.line))
    return Description(description.path, rules)
