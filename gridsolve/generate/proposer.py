"""clingo proposes board layouts (encodings/generate.lp); rejected families are forbidden.

One :class:`Proposer` keeps one clingo control for a whole run: each :meth:`Proposer.propose`
asks for one more layout, each :meth:`Proposer.forbid` adds a constraint, and clingo's random
choices (seeded) make the proposals independent of each other and the same for the same seed.
"""
from __future__ import annotations

from dataclasses import dataclass

import clingo

from ..compile.predicates import MARK, PLACED, WALL_CHOICE
from ..errors import EncodingError
from ..solve.common.limits import LimitGuard, Limits

KINDS = ("north", "east")
CHOICES = (WALL_CHOICE, PLACED, MARK)       # the atoms a proposal is read from, in this order


@dataclass(frozen=True)
class Layout:
    """Walls, piece starts and marked cells: what clingo chooses."""

    north: frozenset
    east: frozenset
    pieces: tuple                   # ((piece, (x, y)), ...)
    marks: tuple                    # ((mark, ((x, y), ...)), ...)

    @property
    def walls(self) -> int:
        return len(self.north) + len(self.east)


@dataclass(frozen=True)
class Family:
    """Layouts with these walls present (True) or absent (False) on these edges, these piece
    starts and these marks (no pieces: any placement of the pieces)."""

    edges: tuple                    # (((kind, x, y), is_wall), ...)
    pieces: tuple
    marks: tuple

    def literals(self) -> list[tuple[clingo.Symbol, bool]]:
        """The atoms of the layouts in the family, each with whether it holds there."""
        out = [(WALL_CHOICE.symbol(kind, x, y), wall) for (kind, x, y), wall in self.edges]
        out += [(PLACED.symbol(p, x, y), True) for p, (x, y) in self.pieces]
        out += [(MARK.symbol(m, x, y), True) for m, cells in self.marks for x, y in cells]
        return out


def edges(width: int, height: int) -> list[tuple]:
    """Every interior edge of a ``width`` x ``height`` board: ("north" | "east", x, y)."""
    return ([("north", x, y) for x in range(1, width + 1) for y in range(1, height)]
            + [("east", x, y) for x in range(1, width) for y in range(1, height + 1)])


def _edges(layout: Layout, width: int, height: int) -> tuple:
    return tuple(((kind, x, y), (x, y) in (layout.north if kind == "north" else layout.east))
                 for kind, x, y in edges(width, height))


def exactly(layout: Layout, width: int, height: int) -> Family:
    """The family of just this layout."""
    return Family(_edges(layout, width, height), layout.pieces, layout.marks)


def same_walls(layout: Layout, width: int, height: int) -> Family:
    """The layouts with this layout's walls and marks, the pieces anywhere."""
    return Family(_edges(layout, width, height), (), layout.marks)


class ProposalTimeout(Exception):
    """clingo did not find the next layout before the deadline."""


class Proposer:
    """Layouts from encodings/generate.lp with the request's facts and parts."""

    def __init__(self, program: str, parts: tuple[str, ...], seed: int, walks: bool = False,
                 limits: Limits | None = None):
        # Random signs (and a few random choices) spread the proposals over the layouts.
        options = ["--warn=none", "--models=1", f"--seed={seed}", "--sign-def=rnd", "--rand-freq=0.02"]
        self.ctl = clingo.Control(options)
        try:
            self.ctl.add("base", [], program)
            guard = LimitGuard(limits or Limits(), "the layouts clingo chooses from",
                            lambda needed: "ask for a smaller --size, or raise --max-memory if the machine has it")
            guard.ground(self.ctl, [("base", [])] + [(part, []) for part in parts], "while grounding the proposals")
        except RuntimeError as exc:
            raise EncodingError(f"clingo could not ground encodings/generate.lp: {exc}") from exc
        atoms = self.ctl.symbolic_atoms
        chosen = [(predicate, atom) for predicate in CHOICES for atom in atoms.by_signature(predicate.name, predicate.arity)]
        self._atoms = [(atom.symbol, atom.literal) for _, atom in chosen]
        self._literal = dict(self._atoms)
        # each atom read once: (its predicate, first argument's name, (x, y), literal)
        self._decoded = [(predicate, first, (x, y), atom.literal)
                         for predicate, atom in chosen for first, x, y in [predicate.read(atom.symbol)]]
        self._forbidden = 0
        self._walks = walks               # keep_apart's constraints can be switched off (propose's apart)
        self._apart = False               # ... and they exist (they hold while apart_on is true)

    def propose(self, seconds: float | None = None, keep: Layout | None = None, free: frozenset = frozenset(),
                marks: bool = True, among=None, flip: frozenset = frozenset(), apart: bool = True) -> Layout | None:
        """The next layout; None when no layout is left; ProposalTimeout after ``seconds``.

        With ``keep``, the walls are those of ``keep`` except on the edges in ``free``
        (("north" | "east", x, y) triples) and the opposite of those on the edges in ``flip``
        (a mutation: these walls toggled), and so are the marks (unless not ``marks``); with
        ``among`` (a collection of ``Layout.pieces`` tuples), the pieces are placed as one of those;
        without ``apart``, the layout may be near the ones :meth:`keep_apart` named (a step of
        a walk away from them)."""
        assumptions = [] if keep is None else self._assume(keep, free, marks, flip)
        if self._apart and not apart:
            self.ctl.assign_external(clingo.Function("apart_on"), False)
        external = None if among is None else self._among(among)
        if external is not None:
            self.ctl.assign_external(external, True)
        found = []
        try:
            with self.ctl.solve(assumptions=assumptions, on_model=lambda m: found.append(self._read(m)),
                                async_=True) as handle:
                if not handle.wait(seconds):
                    handle.cancel()
                    raise ProposalTimeout()
                handle.get()
        finally:
            if external is not None:
                self.ctl.release_external(external)
            if self._apart and not apart:
                self.ctl.assign_external(clingo.Function("apart_on"), True)
        return found[-1] if found else None

    def forbid(self, family: Family) -> None:
        """No later layout is in ``family``: one integrity constraint added to the ground
        program through clingo's backend (no ground call: a ground call per rejected layout
        took longer the more had been added, 60 ms after 500)."""
        body = []
        for symbol, holds in family.literals():
            literal = self._literal.get(symbol)
            if literal is None:             # an atom the program never derives
                if holds:
                    return                  # no layout is in the family
                continue
            body.append(literal if holds else -literal)
        with self.ctl.backend() as backend:
            backend.add_rule([], body)

    def keep_apart(self, layout: Layout, distance: int) -> None:
        """From now on, the layouts differ from ``layout`` on at least ``distance`` wall edges and
        marked cells (a wall or a mark present in one and not in the other counts once); with
        ``walks``, :meth:`propose` can leave these constraints out (its ``apart``)."""
        if self._walks and not self._apart:
            self.ctl.add("apart_switch", [], "#external apart_on.")
            self.ctl.ground([("apart_switch", [])])
            self.ctl.assign_external(clingo.Function("apart_on"), True)
            self._apart = True
        switch = "apart_on, " if self._walks else ""
        self._forbidden += 1
        name = f"apart_{self._forbidden}"
        facts = [f"{name}_wall({kind},{x},{y})." for kind, cells in (("north", layout.north), ("east", layout.east))
                 for x, y in sorted(cells)]
        facts += [f"{name}_mark({m},{x},{y})." for m, cells in layout.marks for x, y in cells]
        rule = (f":- {switch}#count{{ w,K,X,Y : wall(K,X,Y), not {name}_wall(K,X,Y); "
                f"w,K,X,Y : {name}_wall(K,X,Y), not wall(K,X,Y); "
                f"m,M,X,Y : mark(M,X,Y), not {name}_mark(M,X,Y); "
                f"m,M,X,Y : {name}_mark(M,X,Y), not mark(M,X,Y) }} < {distance}.")
        self.ctl.add(name, [], "\n".join([f"#defined {name}_wall/3.", f"#defined {name}_mark/3.", *facts, rule]))
        self.ctl.ground([(name, [])])

    def _among(self, placements) -> clingo.Symbol:
        """A new external atom that, while true, allows only ``placements`` (released after
        one solve: then it is false for good and its rules are void)."""
        self._forbidden += 1
        name = f"among_{self._forbidden}"
        rules = [f"{name}_ok :- " + ", ".join(f"at({p},{x},{y})" for p, (x, y) in pieces) + "."
                 for pieces in sorted(placements)]
        self.ctl.add(name, [], "\n".join([f"#external {name}.", *rules, f":- {name}, not {name}_ok."]))
        self.ctl.ground([(name, [])])
        return clingo.Function(name)

    def _assume(self, layout: Layout, free: frozenset, marks: bool, flip: frozenset = frozenset()) -> list[int]:
        """Literals that fix the walls of ``layout`` but on ``free`` edges (toggled on ``flip``
        edges), and (``marks``) its marks."""
        marked = {(m, cell) for m, cells in layout.marks for cell in cells}
        out = []
        for predicate, first, cell, literal in self._decoded:
            if predicate is WALL_CHOICE:
                if (first, *cell) in free:
                    continue
                present = (cell in (layout.north if first == "north" else layout.east)) != ((first, *cell) in flip)
            elif predicate is MARK and marks:
                present = (first, cell) in marked
            else:
                continue
            out.append(literal if present else -literal)
        return out

    def _read(self, model: clingo.Model) -> Layout:
        walls = {kind: set() for kind in KINDS}
        pieces, marks = {}, {}
        is_true = model.is_true
        for predicate, first, cell, literal in self._decoded:
            if not is_true(literal):
                continue
            if predicate is WALL_CHOICE:
                walls[first].add(cell)
            elif predicate is PLACED:
                pieces[first] = cell
            else:
                marks.setdefault(first, []).append(cell)
        return Layout(frozenset(walls["north"]), frozenset(walls["east"]), tuple(sorted(pieces.items())),
                      tuple(sorted((m, tuple(sorted(c))) for m, c in marks.items())))
