"""Demand-driven grounding of a game's one-ply rules: the auxiliary relations computed only for
the arguments the rules that read them can pass (a magic-set rewriting), and the fluents a
game never changes read as the root's.

A game's auxiliary relations are often written for every combination of their arguments
(``(direction-from ?x1 ?y1 ?x2 ?y2 ?dir)`` over 51 numbers: millions of atoms) while the rules
reading them pass a few (the locations a piece can be at).  Grounding them bottom-up, as clingo
does, builds them all.  Here:

- **Constant fluents.**  A fluent relation whose only ``next`` rules are its frame,
  ``(<= (next (wall ?x ?y ?d)) (true (wall ?x ?y ?d)))``, holds in every state reachable from a
  root exactly what it holds there (``zzc``): the domains' program reads it so, which keeps
  the negations on what depends only on it and the facts (``(not (true (wall ...)))`` blocks a
  move off the board, as it does in play).
- **Static relations** (which read neither ``true`` nor ``does``, the constant fluents aside),
  other than GDL's own, are computed per *adornment* (which arguments a reading binds, ``b``,
  and which it leaves free, ``f``: ``zza_bbf_rel``) only where their *demand* (``zzm_bbf_rel``:
  the bound arguments) holds; a reading's demand is derived from the literals before it
  (positive ones, in the written order) and, inside such a relation, from its own demand.
- **The domains' program** (:meth:`DemandPlan.domain_text`) is the rules with the negations of
  what changes dropped (a positive over-approximation of every reachable state), rewritten
  so, with the demand rules: its model gives the fluents' and moves' domains and every demand.
- **The one-ply program** (:meth:`DemandPlan.ply_text`) is the game's rules rewritten alike
  (every negation kept, ``true`` and ``does`` free) with the demands as facts: for every state
  reachable from the root, each demanded atom is what the game's rules derive, and no reading
  asks for one not demanded.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .description import Description, Literal, Rule
from .kif import Term
from .translate import literal_text, mangle, term_text

GDL_OWN = {"role", "init", "true", "does", "next", "legal", "goal", "terminal"}
Signature = tuple[str, int]


def _signature(term: Term) -> Signature:
    return term.name, len(term.args)


def constant_relations(description: Description) -> set[Signature]:
    """The fluent relations (signatures of the fluents' terms) that only their frame rule carries
    to the next state: ``(<= (next (f ?a ?b)) (true (f ?a ?b)))`` with distinct variables."""
    framed, changed = set(), set()
    for rule in description.rules:
        if rule.head.name != "next" or len(rule.head.args) != 1:
            continue
        fluent = rule.head.args[0]
        if fluent.is_variable:
            if not (len(rule.body) == 1 and rule.body[0].kind == "pos" and rule.body[0].atom.name == "true"
                    and rule.body[0].atom.args == (fluent,)):
                return set()        # (a next of any fluent: none is known constant)
            continue
        frame = (len(rule.body) == 1 and rule.body[0].kind == "pos" and rule.body[0].atom.name == "true"
                 and rule.body[0].atom.args == (fluent,) and all(arg.is_variable for arg in fluent.args)
                 and len({arg.name for arg in fluent.args}) == len(fluent.args))
        (framed if frame else changed).add(_signature(fluent))
    return framed - changed


@dataclass
class DemandPlan:
    """The rewriting of one description: which relations are demand-driven (``driven``), their
    adornments, and the two programs' text."""

    description: Description
    constant: set[Signature] = field(default_factory=set)
    driven: set[Signature] = field(default_factory=set)
    adornments: dict[Signature, set[str]] = field(default_factory=dict)
    facts: set[Signature] = field(default_factory=set)      # the relations given by facts alone

    @classmethod
    def of(cls, description: Description) -> "DemandPlan":
        """The plan of ``description``."""
        plan = cls(description)
        plan.constant = constant_relations(description)
        plan.facts = plan._facts_only()
        plan.driven = {sig for sig in plan._static() if sig[0] not in GDL_OWN} - plan.facts
        plan._adorn()
        return plan

    # - Which relations ---

    def _heads(self) -> set[Signature]:
        return {_signature(rule.head) for rule in self.description.rules}

    def _facts_only(self) -> set[Signature]:
        with_body = {_signature(rule.head) for rule in self.description.rules if rule.body}
        return self._heads() - with_body

    def _reads_state(self, lit: Literal) -> bool:
        """Whether literal ``lit`` itself reads the state or the moves (a constant fluent does not)."""
        if lit.atom is None:
            return False
        if lit.atom.name == "does":
            return True
        return lit.atom.name == "true" and not self._constant_true(lit.atom)

    def _constant_true(self, atom: Term) -> bool:
        return (atom.name == "true" and len(atom.args) == 1 and not atom.args[0].is_variable
                and _signature(atom.args[0]) in self.constant)

    def _static(self) -> set[Signature]:
        """The relations that depend on no state nor move (the constant fluents aside)."""
        reads = {}
        for rule in self.description.rules:
            entry = reads.setdefault(_signature(rule.head), [False, set()])
            for lit in rule.body:
                if self._reads_state(lit):
                    entry[0] = True
                elif lit.atom is not None and lit.atom.name not in ("true", "does"):
                    entry[1].add(_signature(lit.atom))
        dynamic = {sig for sig, (direct, _) in reads.items() if direct}
        grown = True
        while grown:
            grown = False
            for sig, (_, others) in reads.items():
                if sig not in dynamic and others & dynamic:
                    dynamic.add(sig)
                    grown = True
        return set(reads) - dynamic

    # - Adornments ---

    def _order(self, rule: Rule) -> list[Literal]:
        """A rule's body as read: its positive literals in the written order, then the rest."""
        return [lit for lit in rule.body if lit.kind == "pos"] + [lit for lit in rule.body if lit.kind != "pos"]

    @staticmethod
    def _adornment(atom: Term, bound: set[str]) -> str:
        return "".join("b" if arg.variables() <= bound else "f" for arg in atom.args)

    @staticmethod
    def _head_bound(head: Term, adornment: str | None) -> set[str]:
        if adornment is None:
            return set()
        return {v for arg, a in zip(head.args, adornment) if a == "b" for v in arg.variables()}

    def _readings(self, rule: Rule, adornment: str | None):
        """Each literal of ``rule`` (its head read with ``adornment``, None: not driven) in order,
        with the adornment it is read with (None where its relation is not driven) and the
        positive literals before it."""
        bound = self._head_bound(rule.head, adornment)
        before: list[tuple[Literal, str | None]] = []
        out = []
        for lit in self._order(rule):
            reading = None
            if lit.atom is not None and _signature(lit.atom) in self.driven:
                reading = self._adornment(lit.atom, bound)
            out.append((lit, reading, list(before)))
            if lit.kind == "pos":
                before.append((lit, reading))
                bound |= lit.atom.variables()
        return out

    def _adorn(self) -> None:
        todo = [(rule, None) for rule in self.description.rules if _signature(rule.head) not in self.driven]
        by_head: dict[Signature, list[Rule]] = {}
        for rule in self.description.rules:
            by_head.setdefault(_signature(rule.head), []).append(rule)
        while todo:
            rule, adornment = todo.pop()
            for lit, reading, _ in self._readings(rule, adornment):
                if reading is None:
                    continue
                sig = _signature(lit.atom)
                if reading not in self.adornments.setdefault(sig, set()):
                    self.adornments[sig].add(reading)
                    todo += [(other, reading) for other in by_head.get(sig, [])]

    # - The programs ---

    def _atom(self, atom: Term, reading: str | None, relaxed: bool) -> str:
        if relaxed and self._constant_true(atom):
            return f"zzc({term_text(atom.args[0])})"
        if reading is None:
            return term_text(atom)
        name = f"zza_{reading}_{mangle(atom.name)}" if reading else f"zza__{mangle(atom.name)}"
        return f"{name}({','.join(term_text(arg) for arg in atom.args)})" if atom.args else name

    @staticmethod
    def _demand(atom: Term, reading: str) -> str:
        args = [term_text(arg) for arg, a in zip(atom.args, reading) if a == "b"]
        name = f"zzm_{reading}_{mangle(atom.name)}" if reading else f"zzm__{mangle(atom.name)}"
        return f"{name}({','.join(args)})" if args else name

    def _literal(self, lit: Literal, reading: str | None, relaxed: bool) -> str | None:
        if lit.atom is None:
            return literal_text(lit)
        text = self._atom(lit.atom, reading, relaxed)
        if lit.kind == "pos":
            return text
        if relaxed and not (self._constant_true(lit.atom) or _signature(lit.atom) in self.facts):
            return None     # (a negation of anything but facts and constant fluents: dropped)
        return "not " + text

    def _rules(self, relaxed: bool) -> list[str]:
        out = []
        for rule in self.description.rules:
            sig = _signature(rule.head)
            if sig in self.driven:
                readings = sorted(self.adornments.get(sig, ()))
            else:
                readings = [None]
            for adornment in readings:
                parts, magic = [], []
                if adornment is not None:
                    parts.append(self._demand(rule.head, adornment))
                for lit, reading, before in self._readings(rule, adornment):
                    text = self._literal(lit, reading, relaxed)
                    if text is not None:
                        parts.append(text)
                    if reading is not None and relaxed:
                        guard = [self._demand(rule.head, adornment)] if adornment is not None else []
                        body = guard + [self._atom(b.atom, r, True) for b, r in before]
                        magic.append(_rule_text(self._demand(lit.atom, reading), body))
                out.append(_rule_text(self._atom(rule.head, adornment, relaxed), parts))
                out += magic
        return out

    def domain_text(self, root: list[str] | None = None) -> str:
        """The domains' program (the module docstring); the root the initial state (its fluents
        ``init`` derives) or, given, the clingo text of the root's fluents."""
        lines = self._rules(relaxed=True)
        lines += ["true(F) :- init(F).", "true(F) :- next(F).", "does(R,M) :- legal(R,M)."]
        for name, arity in sorted(self.constant):
            pattern = term_text(Term(name, tuple(Term(f"?v{i}") for i in range(arity))))
            if root is None:
                lines.append(f"zzc({pattern}) :- init({pattern}).")
            else:
                lines.append(f"zzc({pattern}) :- zz_root({pattern}).")
        if root is not None:
            lines += [f"zz_root({fluent}).\ntrue({fluent})." for fluent in root]
        return "\n".join(lines) + "\n"

    def ply_text(self) -> str:
        """The one-ply program's rules (the demands added as facts)."""
        return "\n".join(self._rules(relaxed=False)) + "\n"

    def demands(self) -> list[Signature]:
        """The signatures (clingo name, arity) of the demand atoms the domains' model gives."""
        out = []
        for (name, _), readings in sorted(self.adornments.items()):
            for reading in sorted(readings):
                out.append((f"zzm_{reading}_{mangle(name)}" if reading else f"zzm__{mangle(name)}",
                            reading.count("b")))
        return out


def _rule_text(head: str, body: list[str]) -> str:
    return f"{head} :- {', '.join(body)}." if body else f"{head}."
