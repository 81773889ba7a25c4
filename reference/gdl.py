"""A small, plain-Python GDL interpreter (KIF syntax), used by the tests as an
independent oracle for the original rule files (read from ``../shared/reference/gdl/``:
``tests/gdl/reference.py``).

Usage::

    from reference.gdl import GdlGame, parse_term
    game = GdlGame.from_file("../shared/reference/gdl/mummyMaze2p_2007.kif")
    game.roles                        # ["explorer", "mummy"]  (file order)
    state = game.initial()            # frozenset of ground fluents
    game.legal(state, "explorer")     # sorted list of ground moves
    state = game.next(state, {"explorer": parse_term("(move1 east)"),
                              "mummy": parse_term("(move2 nowhere nowhere)")})
    game.terminal(state); game.goal(state, "mummy")

Ground terms are nested tuples of strings: ``(location explorer 6 3)`` is
``("location", "explorer", "6", "3")`` and a constant such as ``noop`` is the
plain string ``"noop"``.  Numbers stay strings, exactly as written.

Semantics: standard GDL.  The program (facts + rules, ``or`` expanded into
separate rules, ``not`` / ``distinct`` as filters) is evaluated bottom-up,
stratum by stratum (semi-naive inside recursive strata), over the static
facts plus ``(true f)`` for the fluents of the state and ``(does r m)`` for
the joint move.  Nothing game-specific is hard-wired.

Speed: every strongly connected component (SCC) of the relation dependency
graph is evaluated at most once per *relevant part* of the context.  An SCC
that depends on no ``true``/``does`` is static and computed once at load
time.  Any other SCC is cached under the sub-state made of the fluents whose
functors it (transitively) reads, plus the joint move if it reads ``does``.
So e.g. ``legalStep`` in mummyMaze2p_2007, which reads only the
``blockedNorth``/``blockedEast`` fluents, is computed once for all states.

A non-recursive SCC whose materialization would exceed ``MATERIALIZE_LIMIT``
tuples is evaluated on demand instead: each lookup runs its rules with the
looked-up arguments bound, memoized.  Only mummymaze1p needs this (its static
``direction-from`` has 6.5 million tuples); the results are the same.
"""

from __future__ import annotations

import itertools
import re
from typing import Iterable, Mapping, Union

__all__ = ["GdlGame", "parse_term", "parse_kif", "to_kif", "term_sort_key"]

Term = Union[str, tuple]

# ---------------------------------------------------------------------------
# Parsing
# ---------------------------------------------------------------------------

_TOKEN_RE = re.compile(r";[^\n]*|(\()|(\))|([^\s();]+)")


def _tokens(text: str):
    for m in _TOKEN_RE.finditer(text):
        if m.group(1):
            yield "("
        elif m.group(2):
            yield ")"
        elif m.group(3):
            yield m.group(3)
        # else: a comment, skipped


def parse_kif(text: str) -> list[Term]:
    """Parse KIF text into a list of terms (nested tuples of strings)."""
    stack: list[list] = []
    out: list[Term] = []
    for tok in _tokens(text):
        if tok == "(":
            stack.append([])
        elif tok == ")":
            if not stack:
                raise ValueError("unbalanced ')' in KIF text")
            items = stack.pop()
            if not items:
                raise ValueError("empty list '()' in KIF text")
            if not isinstance(items[0], str):
                raise ValueError(f"compound term with non-atomic functor: {items!r}")
            term = tuple(items)
            (stack[-1] if stack else out).append(term)
        else:
            (stack[-1] if stack else out).append(tok)
    if stack:
        raise ValueError("unbalanced '(' in KIF text")
    return out


def parse_term(text: str) -> Term:
    """Parse a single KIF term, e.g. ``"(move2 north east)"`` -> ``("move2", "north", "east")``."""
    terms = parse_kif(text)
    if len(terms) != 1:
        raise ValueError(f"expected exactly one term, got {len(terms)} in {text!r}")
    return terms[0]


def to_kif(term: Term) -> str:
    """Inverse of :func:`parse_term` (up to whitespace)."""
    if isinstance(term, tuple):
        return "(" + " ".join(to_kif(t) for t in term) + ")"
    return term


def term_sort_key(term: Term):
    """Total order on ground terms: atoms before compounds, then lexicographic.

    On terms that plain ``sorted`` can compare (e.g. all tuples of strings) this
    gives the same order as ``sorted``.
    """
    if isinstance(term, tuple):
        return (1, tuple(term_sort_key(t) for t in term))
    return (0, term)


def _is_var(t) -> bool:
    return isinstance(t, str) and t.startswith("?")


def _vars_of(t, acc=None) -> set:
    if acc is None:
        acc = set()
    if isinstance(t, tuple):
        for s in t[1:]:
            _vars_of(s, acc)
    elif _is_var(t):
        acc.add(t)
    return acc


def _is_ground(t) -> bool:
    return not _vars_of(t)


# ---------------------------------------------------------------------------
# Relations (sets of argument tuples with lazily built hash indexes)
# ---------------------------------------------------------------------------


class _Rel:
    __slots__ = ("facts", "_idx")

    def __init__(self, facts):
        self.facts = facts  # set/frozenset of argument tuples
        self._idx = {}

    def lookup(self, pos: tuple, key: tuple):
        ix = self._idx.get(pos)
        if ix is None:
            ix = {}
            for f in self.facts:
                k = tuple([f[p] for p in pos])
                lst = ix.get(k)
                if lst is None:
                    ix[k] = [f]
                else:
                    lst.append(f)
            self._idx[pos] = ix
        return ix.get(key, ())


class _LazyRel:
    """A relation evaluated on demand: each lookup runs the rules with the
    looked-up argument positions bound (memoized).  Used for non-recursive
    components too large to materialize (e.g. ``direction-from`` in
    mummymaze1p, 6.5 million tuples)."""

    __slots__ = ("game", "key", "ctx", "memo", "facts")

    def __init__(self, game, key, ctx):
        self.game = game
        self.key = key
        self.ctx = ctx
        self.memo = {}
        self.facts = _LazyFacts(self)

    def lookup(self, pos: tuple, key: tuple):
        mk = (pos, key)
        r = self.memo.get(mk)
        if r is None:
            r = self.memo[mk] = self.game._demand(self.key, pos, key, self.ctx)
        return r


class _LazyFacts:
    __slots__ = ("rel",)

    def __init__(self, rel):
        self.rel = rel

    def __contains__(self, f):
        return bool(self.rel.lookup(tuple(range(len(f))), f))

    def __iter__(self):
        return iter(self.rel.lookup((), ()))

    def __len__(self):
        return len(self.rel.lookup((), ()))


_EMPTY_REL = _Rel(frozenset())
_EMPTY = frozenset()

# ---------------------------------------------------------------------------
# Compiled patterns
#   (0, value)                       ground constant (atom or ground compound)
#   (1, i)                           variable i, already bound
#   (2, i)                           variable i, bound here (first occurrence)
#   (3, functor, subpatterns, n)     compound with variables, n = #arguments
# ---------------------------------------------------------------------------


def _build(p, env):
    t = p[0]
    if t == 1:
        return env[p[1]]
    if t == 0:
        return p[1]
    return (p[1],) + tuple([_build(s, env) for s in p[2]])


def _match(p, val, env) -> bool:
    t = p[0]
    if t == 2:
        env[p[1]] = val
        return True
    if t == 1:
        return env[p[1]] == val
    if t == 0:
        return p[1] == val
    if type(val) is not tuple or len(val) != p[3] + 1 or val[0] != p[1]:
        return False
    for sp, sv in zip(p[2], val[1:]):
        if not _match(sp, sv, env):
            return False
    return True


# literal kinds
_POS, _NEG, _DIST = 0, 1, 2

_TRUE_ALL = ("$true*",)  # (true ?x): reads the whole state
_DOES = ("$does",)


def _is_base_key(key) -> bool:
    return key[0].startswith("$")


class _Lit:
    """A planned body literal."""

    __slots__ = ("kind", "key", "full", "key_pos", "key_pats", "matches", "inner", "a", "b", "text")

    def __init__(self, kind, text):
        self.kind = kind
        self.text = text
        self.key = None
        self.full = False
        self.key_pos = ()
        self.key_pats = ()
        self.matches = ()
        self.inner = None
        self.a = self.b = None


class _Rule:
    __slots__ = ("head_key", "head_pats", "head_in", "body", "nvars", "text", "head", "body_terms",
                 "variants")

    def __init__(self, head_key, head_pats, head_in, body, nvars, text, head, body_terms):
        self.head_key = head_key
        self.head_pats = head_pats
        self.head_in = head_in  # ((position, match pattern), ...) for demand-driven variants
        self.body = body
        self.nvars = nvars
        self.text = text
        self.head = head
        self.body_terms = body_terms
        self.variants: dict = {}

    def variant(self, in_pos: tuple) -> "_Rule":
        """This rule compiled with the head arguments at ``in_pos`` given (bound) on entry."""
        v = self.variants.get(in_pos)
        if v is None:
            v = self.variants[in_pos] = _compile_rule(self.head, self.body_terms, self.text, in_pos)
        return v


def _classify(lit):
    """Return (kind, key, args) for POS, (NEG, inner) or (DIST, a, b)."""
    if isinstance(lit, str):
        if _is_var(lit):
            raise ValueError(f"variable used as a literal: {lit}")
        if lit in ("true", "does", "not", "distinct", "or", "and"):
            raise ValueError(f"keyword used as a proposition: {lit}")
        return (_POS, (lit, 0), ())
    op = lit[0]
    if op == "not":
        if len(lit) != 2:
            raise ValueError(f"malformed not: {to_kif(lit)}")
        inner = _classify(lit[1])
        if inner[0] == _NEG:  # double negation (after DNF this is rare)
            raise ValueError(f"nested not not supported here: {to_kif(lit)}")
        return (_NEG, inner)
    if op == "distinct":
        if len(lit) != 3:
            raise ValueError(f"distinct takes 2 arguments: {to_kif(lit)}")
        return (_DIST, lit[1], lit[2])
    if op == "true":
        if len(lit) != 2:
            raise ValueError(f"true takes 1 argument: {to_kif(lit)}")
        f = lit[1]
        if _is_var(f):
            return (_POS, _TRUE_ALL, (f,))
        if isinstance(f, str):
            return (_POS, ("$true", f, 0), ())
        return (_POS, ("$true", f[0], len(f) - 1), f[1:])
    if op == "does":
        if len(lit) != 3:
            raise ValueError(f"does takes 2 arguments: {to_kif(lit)}")
        return (_POS, _DOES, (lit[1], lit[2]))
    if op in ("or", "and"):
        raise AssertionError("or/and must be expanded before classification")
    return (_POS, (op, len(lit) - 1), lit[1:])


def _cls_vars(c) -> set:
    if c[0] == _POS:
        return _vars_of(("x",) + tuple(c[2]))
    if c[0] == _NEG:
        return _cls_vars(c[1])
    return _vars_of(("x", c[1], c[2]))


def _dnf(lit) -> list[list]:
    """Expand or/and (also under not, by De Morgan) into a list of conjunctions."""
    if isinstance(lit, tuple):
        op = lit[0]
        if op == "or":
            return [conj for sub in lit[1:] for conj in _dnf(sub)]
        if op == "and":
            return _conj_product([_dnf(s) for s in lit[1:]])
        if op == "not" and len(lit) == 2 and isinstance(lit[1], tuple):
            inner = lit[1]
            if inner[0] == "not" and len(inner) == 2:
                return _dnf(inner[1])
            if inner[0] == "or":
                return _dnf(("and",) + tuple(("not", s) for s in inner[1:]))
            if inner[0] == "and":
                return _dnf(("or",) + tuple(("not", s) for s in inner[1:]))
    return [[lit]]


def _conj_product(alternatives: list[list[list]]) -> list[list]:
    out = [[]]
    for alts in alternatives:
        out = [a + b for a in out for b in alts]
    return out


class _Compiler:
    def __init__(self):
        self.idx: dict[str, int] = {}

    def var(self, v):
        i = self.idx.get(v)
        if i is None:
            i = self.idx[v] = len(self.idx)
        return i

    def build_pat(self, t, bound):
        """Pattern for a term whose variables are all in ``bound``."""
        if _is_var(t):
            if t not in bound:
                raise ValueError(f"unsafe variable {t}")
            return (1, self.var(t))
        if isinstance(t, tuple):
            if _is_ground(t):
                return (0, t)
            return (3, t[0], tuple(self.build_pat(s, bound) for s in t[1:]), len(t) - 1)
        return (0, t)

    def match_pat(self, t, bound):
        """Pattern for matching; binds (and adds to ``bound``) new variables."""
        if _is_var(t):
            if t in bound:
                return (1, self.var(t))
            bound.add(t)
            return (2, self.var(t))
        if isinstance(t, tuple):
            if _is_ground(t):
                return (0, t)
            return (3, t[0], tuple(self.match_pat(s, bound) for s in t[1:]), len(t) - 1)
        return (0, t)

    def plan(self, c, bound, text) -> _Lit:
        kind = c[0]
        if kind == _POS:
            lit = _Lit(_POS, text)
            key, args = c[1], c[2]
            lit.key = key
            key_pos, key_pats, rest = [], [], []
            for i, a in enumerate(args):
                if _vars_of(a) <= bound:
                    key_pos.append(i)
                    key_pats.append(self.build_pat(a, bound))
                else:
                    rest.append((i, a))
            lit.key_pos = tuple(key_pos)
            lit.key_pats = tuple(key_pats)
            lit.full = not rest
            matches = []
            for i, a in rest:
                matches.append((i, self.match_pat(a, bound)))
            lit.matches = tuple(matches)
            return lit
        if kind == _NEG:
            if not _cls_vars(c) <= bound:
                raise ValueError(f"unsafe variable in negation: {to_kif(text)}")
            lit = _Lit(_NEG, text)
            lit.inner = self.plan(c[1], set(bound), text)
            return lit
        if not _cls_vars(c) <= bound:
            raise ValueError(f"unsafe variable in distinct: {to_kif(text)}")
        lit = _Lit(_DIST, text)
        lit.a = self.build_pat(c[1], bound)
        lit.b = self.build_pat(c[2], bound)
        return lit


def _compile_rule(head, body_terms, text, in_pos: tuple = ()) -> _Rule:
    if isinstance(head, str):
        if _is_var(head):
            raise ValueError(f"variable as a rule head: {to_kif(text)}")
        head_key, head_args = (head, 0), ()
    else:
        if head[0] in ("true", "does", "not", "distinct", "or", "and", "<="):
            raise ValueError(f"keyword {head[0]} as a rule head: {to_kif(text)}")
        head_key, head_args = (head[0], len(head) - 1), head[1:]

    comp = _Compiler()
    in_bound: set = set()
    head_in = tuple((p, comp.match_pat(head_args[p], in_bound)) for p in in_pos)

    cls = [(_classify(t), t) for t in body_terms]
    # Order the body: filters (not/distinct) and fully bound positive literals
    # as early as possible; otherwise keep the written order.
    remaining = list(cls)
    bound: set = set(in_bound)
    ordered = []
    while remaining:
        pick = None
        for j, (c, t) in enumerate(remaining):
            if _cls_vars(c) <= bound:
                pick = j
                break
        if pick is None:
            for j, (c, t) in enumerate(remaining):
                if c[0] == _POS:
                    pick = j
                    break
        if pick is None:
            raise ValueError(f"unsafe rule (unbound variables in filters): {to_kif(text)}")
        c, t = remaining.pop(pick)
        ordered.append((c, t))
        if c[0] == _POS:
            bound |= _cls_vars(c)

    bound = set(in_bound)
    body = [comp.plan(c, bound, t) for c, t in ordered]
    if not _vars_of(("x",) + tuple(head_args)) <= bound:
        raise ValueError(f"unsafe rule (head variable not bound in body): {to_kif(text)}")
    head_pats = tuple(comp.build_pat(a, bound) for a in head_args)
    return _Rule(head_key, head_pats, head_in, tuple(body), len(comp.idx), text, head,
                 tuple(body_terms))


class _TooBig(Exception):
    """Materializing a component exceeded the budget: evaluate it on demand."""


def _run_rule(rule: _Rule, rels: list, out: set, in_vals: tuple = (), limit=None) -> None:
    """Evaluate one rule; ``rels[i]`` is the relation for body literal i
    (for a negated literal: the relation of its inner literal).  ``in_vals``
    are the values of the head arguments given on entry (``rule.head_in``).
    With ``limit``, raise ``_TooBig`` when ``out`` grows beyond it or when the
    rule would have to enumerate a demand-driven relation completely."""
    body = rule.body
    n = len(body)
    env = [None] * rule.nvars
    head_pats = rule.head_pats
    for (_, pat), v in zip(rule.head_in, in_vals):
        if not _match(pat, v, env):
            return
    if limit is not None:
        for lit, rel in zip(body, rels):
            if lit.kind == _POS and not lit.key_pos and not lit.full and isinstance(rel, _LazyRel):
                raise _TooBig

    def rec(i):
        while i < n:
            lit = body[i]
            kind = lit.kind
            if kind == _POS:
                rel = rels[i]
                if lit.full:
                    if tuple([_build(p, env) for p in lit.key_pats]) not in rel.facts:
                        return
                    i += 1
                    continue
                if lit.key_pos:
                    cands = rel.lookup(lit.key_pos, tuple([_build(p, env) for p in lit.key_pats]))
                else:
                    cands = rel.facts
                ms = lit.matches
                i1 = i + 1
                for fact in cands:
                    for pos, pat in ms:
                        if not _match(pat, fact[pos], env):
                            break
                    else:
                        rec(i1)
                return
            if kind == _NEG:
                inner = lit.inner
                if inner.kind == _DIST:
                    if _build(inner.a, env) != _build(inner.b, env):
                        return
                elif tuple([_build(p, env) for p in inner.key_pats]) in rels[i].facts:
                    return
                i += 1
                continue
            # distinct
            if _build(lit.a, env) == _build(lit.b, env):
                return
            i += 1
        out.add(tuple([_build(p, env) for p in head_pats]))
        if limit is not None and len(out) > limit:
            raise _TooBig

    rec(0)


# ---------------------------------------------------------------------------
# Evaluation contexts
# ---------------------------------------------------------------------------


class _Ctx:
    """A state (and optionally a joint move) with its fluents grouped by functor."""

    __slots__ = ("state", "groups", "rels", "all_rel", "does_rel", "does_key")

    def __init__(self, state: frozenset):
        self.state = state
        groups: dict = {}
        for f in state:
            if isinstance(f, tuple):
                k = ("$true", f[0], len(f) - 1)
                a = f[1:]
            else:
                k = ("$true", f, 0)
                a = ()
            lst = groups.get(k)
            if lst is None:
                groups[k] = [a]
            else:
                lst.append(a)
        self.groups = {k: frozenset(v) for k, v in groups.items()}
        self.rels: dict = {}
        self.all_rel = None
        self.does_rel = _EMPTY_REL
        self.does_key = None

    def with_does(self, does_key: tuple) -> "_Ctx":
        c = object.__new__(_Ctx)
        c.state = self.state
        c.groups = self.groups
        c.rels = self.rels
        c.all_rel = self.all_rel
        c.does_key = does_key
        c.does_rel = _Rel(frozenset(does_key))
        return c

    def base_rel(self, key) -> _Rel:
        if key == _DOES:
            return self.does_rel
        if key == _TRUE_ALL:
            if self.all_rel is None:
                self.all_rel = _Rel(frozenset((f,) for f in self.state))
            return self.all_rel
        r = self.rels.get(key)
        if r is None:
            r = self.rels[key] = _Rel(self.groups.get(key, _EMPTY))
        return r

    def projection(self, fluent_keys):
        if fluent_keys is None:  # reads (true ?x): the whole state
            return self.state
        g = self.groups
        return tuple([g.get(k, _EMPTY) for k in fluent_keys])


class _Scc:
    __slots__ = ("id", "members", "rules", "recursive", "static", "fluents", "does", "rec_pos",
                 "lazy")

    def __init__(self, cid, members):
        self.id = cid
        self.members = members
        self.rules: list[_Rule] = []
        self.recursive = False
        self.static = True
        self.fluents: object = set()  # set of $true keys, or None for "all"
        self.does = False
        self.rec_pos: dict = {}  # rule index -> positions of positive in-SCC literals
        self.lazy = False  # evaluate on demand instead of materializing


# ---------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------


class GdlGame:
    """A GDL game description, evaluated bottom-up with stratified negation."""

    #: clear the per-state caches when they grow beyond this many entries
    CACHE_LIMIT = 200_000
    #: a non-recursive component with more tuples than this is evaluated on demand
    MATERIALIZE_LIMIT = 50_000

    def __init__(self, sentences: Iterable[Term]):
        facts: dict = {}
        rules: list[_Rule] = []
        role_order: list = []
        for s in sentences:
            if isinstance(s, tuple) and s[0] == "<=":
                if len(s) < 2:
                    raise ValueError("rule without head")
                head = s[1]
                for body in _conj_product([_dnf(b) for b in s[2:]]):
                    if body:
                        rules.append(_compile_rule(head, body, s))
                    else:
                        self._add_fact(facts, head, s)
                        if isinstance(head, tuple) and head[0] == "role" and len(head) == 2:
                            role_order.append(head[1])
            else:
                self._add_fact(facts, s, s)
                if isinstance(s, tuple) and s[0] == "role" and len(s) == 2:
                    role_order.append(s[1])
        self._facts = facts
        self._rules = rules
        self._build_sccs()
        self._static_ext: dict = {}
        self._cache: dict = {}
        self._ctx_cache: dict = {}
        for scc in self._sccs:
            if scc.static:
                self._static_ext.update(self._eval_scc(scc, None))

        init_rel = self._ext(("init", 1), self._ctx(frozenset()))
        self._initial = frozenset(f[0] for f in init_rel.facts)
        roles = list(dict.fromkeys(role_order))
        derived = self._ext(("role", 1), self._ctx(frozenset())).facts
        for (r,) in sorted(derived, key=lambda f: term_sort_key(f[0])):
            if r not in roles:
                roles.append(r)
        self.roles: list = roles

    # -- construction -----------------------------------------------------

    @classmethod
    def from_string(cls, text: str) -> "GdlGame":
        return cls(parse_kif(text))

    @classmethod
    def from_file(cls, path) -> "GdlGame":
        with open(path, encoding="utf-8") as fh:
            return cls.from_string(fh.read())

    @staticmethod
    def _add_fact(facts, s, text):
        if isinstance(s, str):
            if _is_var(s):
                raise ValueError(f"variable as a fact: {s}")
            key, args = (s, 0), ()
        else:
            if s[0] in ("true", "does", "not", "distinct", "or", "and"):
                raise ValueError(f"keyword {s[0]} in a fact: {to_kif(text)}")
            key, args = (s[0], len(s) - 1), s[1:]
        if not _is_ground(("x",) + tuple(args)):
            raise ValueError(f"fact with variables: {to_kif(text)}")
        facts.setdefault(key, set()).add(tuple(args))

    def _build_sccs(self):
        deps: dict = {}  # ordinary key -> set of ordinary keys read by its rules
        base: dict = {}  # ordinary key -> set of base keys ($true.., $does) read directly
        nodes = set(self._facts)
        for r in self._rules:
            nodes.add(r.head_key)
            d = deps.setdefault(r.head_key, set())
            b = base.setdefault(r.head_key, set())
            for lit in r.body:
                inner = lit.inner if lit.kind == _NEG else lit
                if inner.kind != _POS:
                    continue
                if _is_base_key(inner.key):
                    b.add(inner.key)
                else:
                    d.add(inner.key)
                    nodes.add(inner.key)

        # Tarjan's algorithm (iterative); SCCs come out dependencies first.
        index: dict = {}
        low: dict = {}
        on_stack: set = set()
        stack: list = []
        order: list = []
        counter = itertools.count()
        for root in sorted(nodes):
            if root in index:
                continue
            work = [(root, iter(sorted(deps.get(root, ()))))]
            index[root] = low[root] = next(counter)
            stack.append(root)
            on_stack.add(root)
            while work:
                v, it = work[-1]
                advanced = False
                for w in it:
                    if w not in index:
                        index[w] = low[w] = next(counter)
                        stack.append(w)
                        on_stack.add(w)
                        work.append((w, iter(sorted(deps.get(w, ())))))
                        advanced = True
                        break
                    if w in on_stack:
                        low[v] = min(low[v], index[w])
                if advanced:
                    continue
                work.pop()
                if work:
                    u = work[-1][0]
                    low[u] = min(low[u], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    order.append(frozenset(comp))

        self._scc_of: dict = {}
        self._sccs: list[_Scc] = []
        for cid, members in enumerate(order):
            scc = _Scc(cid, members)
            for k in members:
                self._scc_of[k] = cid
            self._sccs.append(scc)
        for r in self._rules:
            self._sccs[self._scc_of[r.head_key]].rules.append(r)

        for scc in self._sccs:  # dependencies first
            fluents: set = set()
            whole = False
            does = False
            for k in scc.members:
                for bk in base.get(k, ()):
                    if bk == _DOES:
                        does = True
                    elif bk == _TRUE_ALL:
                        whole = True
                    else:
                        fluents.add(bk)
                for dk in deps.get(k, ()):
                    if dk in scc.members:
                        scc.recursive = True
                        continue
                    dep = self._sccs[self._scc_of[dk]]
                    does |= dep.does
                    if dep.fluents is None:
                        whole = True
                    else:
                        fluents.update(dep.fluents)
            scc.does = does
            scc.fluents = None if whole else tuple(sorted(fluents))
            scc.static = not does and not whole and not fluents
            for ri, r in enumerate(scc.rules):
                pos = []
                for li, lit in enumerate(r.body):
                    if lit.kind == _NEG:
                        ik = lit.inner.key if lit.inner.kind == _POS else None
                        if ik in scc.members:
                            raise ValueError(
                                f"program is not stratified: negation of {ik} inside its own "
                                f"recursive component, in {to_kif(r.text)}"
                            )
                    elif lit.kind == _POS and lit.key in scc.members:
                        pos.append(li)
                if pos:
                    scc.rec_pos[ri] = pos

    # -- evaluation -------------------------------------------------------

    def _ctx(self, state: frozenset) -> _Ctx:
        c = self._ctx_cache.get(state)
        if c is None:
            if len(self._ctx_cache) >= self.CACHE_LIMIT:
                self._ctx_cache.clear()
            c = self._ctx_cache[state] = _Ctx(state)
        return c

    def _ext(self, key, ctx: _Ctx) -> _Rel:
        """The extension of ordinary relation ``key`` in context ``ctx``."""
        cid = self._scc_of.get(key)
        if cid is None:
            return _EMPTY_REL
        scc = self._sccs[cid]
        if scc.static:
            return self._static_ext[key]
        ck = (cid, ctx.projection(scc.fluents), ctx.does_key if scc.does else None)
        hit = self._cache.get(ck)
        if hit is None:
            if len(self._cache) >= self.CACHE_LIMIT:
                self._cache.clear()
            hit = self._eval_scc(scc, ctx)
            self._cache[ck] = hit
        return hit[key]

    def _rel_for(self, key, ctx, local):
        if key in local:
            return local[key]
        if _is_base_key(key):
            if ctx is None:
                raise AssertionError("static component reads true/does")
            return ctx.base_rel(key)
        return self._ext(key, ctx)

    def _resolve(self, rule: _Rule, ctx, local) -> list:
        rels = []
        for lit in rule.body:
            if lit.kind == _POS:
                rels.append(self._rel_for(lit.key, ctx, local))
            elif lit.kind == _NEG and lit.inner.kind == _POS:
                rels.append(self._rel_for(lit.inner.key, ctx, local))
            else:
                rels.append(None)
        return rels

    def _eval_scc(self, scc: _Scc, ctx) -> dict:
        facts = self._facts
        total = {k: set(facts.get(k, ())) for k in scc.members}
        if not scc.recursive:
            if not scc.lazy:
                try:
                    for r in scc.rules:
                        _run_rule(r, self._resolve(r, ctx, {}), total[r.head_key],
                                  limit=self.MATERIALIZE_LIMIT)
                    return {k: _Rel(frozenset(v)) for k, v in total.items()}
                except _TooBig:
                    scc.lazy = True
            return {k: _LazyRel(self, k, ctx) for k in scc.members}

        # semi-naive evaluation of a recursive component
        snapshot = {k: _Rel(frozenset(v)) for k, v in total.items()}
        new = {k: set() for k in scc.members}
        for r in scc.rules:
            _run_rule(r, self._resolve(r, ctx, snapshot), new[r.head_key])
        delta = {}
        for k in scc.members:
            d = new[k] - total[k]
            total[k] |= d
            delta[k] = d
        while any(delta.values()):
            full = {k: _Rel(frozenset(v)) for k, v in total.items()}
            drel = {k: _Rel(frozenset(v)) for k, v in delta.items()}
            new = {k: set() for k in scc.members}
            for ri, positions in scc.rec_pos.items():
                r = scc.rules[ri]
                base_rels = self._resolve(r, ctx, full)
                for p in positions:
                    if not delta[r.body[p].key]:
                        continue
                    rels = list(base_rels)
                    rels[p] = drel[r.body[p].key]
                    _run_rule(r, rels, new[r.head_key])
            delta = {}
            for k in scc.members:
                d = new[k] - total[k]
                total[k] |= d
                delta[k] = d
        return {k: _Rel(frozenset(v)) for k, v in total.items()}

    def _demand(self, key, pos: tuple, vals: tuple, ctx) -> list:
        """Tuples of a (non-recursive, lazy) relation with ``pos`` fixed to ``vals``."""
        out = set()
        for f in self._facts.get(key, ()):
            if all(f[p] == v for p, v in zip(pos, vals)):
                out.add(f)
        for r in self._sccs[self._scc_of[key]].rules:
            if r.head_key == key:
                v = r.variant(pos)
                _run_rule(v, self._resolve(v, ctx, {}), out, vals)
        return list(out)

    # -- public API -------------------------------------------------------

    def initial(self) -> frozenset:
        """The initial state: the set of ``(init f)`` fluents."""
        return self._initial

    def _state(self, state) -> frozenset:
        return state if isinstance(state, frozenset) else frozenset(state)

    def legal(self, state, role) -> list:
        """Sorted list (see :func:`term_sort_key`) of the legal moves of ``role``."""
        rel = self._ext(("legal", 2), self._ctx(self._state(state)))
        moves = [f[1] for f in rel.lookup((0,), (role,))]
        moves.sort(key=term_sort_key)
        return moves

    def legal_moves(self, state) -> dict:
        """``{role: legal(state, role)}`` for every role."""
        return {r: self.legal(state, r) for r in self.roles}

    def joint_moves(self, state) -> list[dict]:
        """All joint moves (cartesian product of the roles' legal moves)."""
        per_role = [self.legal(state, r) for r in self.roles]
        return [dict(zip(self.roles, combo)) for combo in itertools.product(*per_role)]

    def is_legal(self, state, role, move) -> bool:
        move = self._move(move)
        rel = self._ext(("legal", 2), self._ctx(self._state(state)))
        return (role, move) in rel.facts

    @staticmethod
    def _move(move) -> Term:
        if isinstance(move, str) and ("(" in move or move != move.strip()):
            return parse_term(move)
        return move

    def next(self, state, moves: Mapping, check_legal: bool = False) -> frozenset:
        """The successor state given one move per role.

        Moves may be given as terms or as KIF strings.  With ``check_legal``
        an illegal move raises ``ValueError`` (by default the rules are simply
        applied to whatever ``does`` facts are given, as GDL defines)."""
        state = self._state(state)
        if set(moves) != set(self.roles):
            raise ValueError(f"need exactly one move per role {self.roles}, got {sorted(moves)}")
        does_key = tuple((r, self._move(moves[r])) for r in self.roles)
        if check_legal:
            for r, m in does_key:
                if not self.is_legal(state, r, m):
                    raise ValueError(f"illegal move for {r}: {to_kif(m)}")
        ctx = self._ctx(state).with_does(does_key)
        rel = self._ext(("next", 1), ctx)
        return frozenset(f[0] for f in rel.facts)

    def terminal(self, state) -> bool:
        rel = self._ext(("terminal", 0), self._ctx(self._state(state)))
        return () in rel.facts

    def goal_values(self, state, role) -> list[int]:
        """All goal values that hold for ``role`` (normally exactly one)."""
        rel = self._ext(("goal", 2), self._ctx(self._state(state)))
        return sorted(int(f[1]) for f in rel.lookup((0,), (role,)))

    def goal(self, state, role) -> int:
        """The goal value of ``role``; ``ValueError`` unless exactly one holds."""
        vals = self.goal_values(state, role)
        if len(vals) != 1:
            raise ValueError(f"{len(vals)} goal values hold for {role}: {vals}")
        return vals[0]

    def goals(self, state) -> dict:
        return {r: self.goal(state, r) for r in self.roles}

    def query(self, state, relation: str, arity: int, moves: Mapping | None = None) -> set:
        """Debug helper: the ground tuples of any relation in a state (and joint move)."""
        ctx = self._ctx(self._state(state))
        if moves is not None:
            ctx = ctx.with_does(tuple((r, self._move(moves[r])) for r in self.roles))
        return set(self._ext((relation, arity), ctx).facts)

    def clear_cache(self) -> None:
        self._cache.clear()
        self._ctx_cache.clear()
