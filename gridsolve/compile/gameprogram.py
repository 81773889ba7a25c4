"""The game program: the one builder of every clingo program that grounds a game's rules.

A :class:`GameProgram` is a board, its layout (the position term), the roots the positions are
reached from and the statements that show what its reader wants; it writes the facts the rules
read (board, rule set, mechanisms), the roots, how a position is reached, the compiled game rules
and the generic encodings they join with, each under its ``% - Section ---`` header.  The
compiler (:mod:`.compiler`), the solvers' graphs, tables and explorers and the layout judge put
their programs together from its parts, so the game program is written in this one place.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import EncodingError
from ..language.model import Board
from ..resources import encoding
from .facts import board_facts, mechanism_facts, rule_facts
from .gamerules import game_rules, with_domain
from .planning import Mode
from .predicates import DECLARED, ROOT, Predicate, Shown, declared
from .state import Layout

GAME_ENCODINGS = ("board.lp", "moves.lp", "script.lp")     # what the compiled game rules join with


def base_part(text: str) -> str:
    """The encoding up to its first ``#program`` directive."""
    index = text.find("\n#program ")
    return text if index < 0 else text[:index + 1]


def board_externals(width: int, height: int, marks: Sequence[str], gates: bool = True) -> list[str]:
    """A board's walls (with ``gates``, its gates) and its ``marks`` as inputs: the ``#external``
    statements of every interior edge of a ``width`` by ``height`` board and every cell of each mark
    (a program ground once for every board of the size: its ground rules are a circuit)."""
    edges = [("north", f"X = 1..{width}, Y = 1..{height - 1}"), ("east", f"X = 1..{width - 1}, Y = 1..{height}")]
    kinds = ("wall", "gate") if gates else ("wall",)
    return ([f"#external {kind}_{side}(X,Y) : {cells}." for kind in kinds for side, cells in edges]
            + [f"#external mark({name},X,Y) : X = 1..{width}, Y = 1..{height}." for name in marks])


def show_statements(shown: Sequence[Predicate | Shown | str]) -> list[str]:
    """The ``#show`` statements of ``shown`` (declared predicates, by object or ``name/arity``,
    or :class:`~gridsolve.compile.predicates.Shown` terms), after ``#show.`` (nothing else is
    shown); none where ``shown`` is empty (every atom is shown but where the encodings say)."""
    statements = []
    for item in shown:
        predicate = declared(item) if isinstance(item, str) else item.predicate if isinstance(item, Shown) else item
        if not isinstance(predicate, Predicate) or DECLARED.get(predicate.signature) is not predicate:
            raise EncodingError(f"{item!r} is shown but not declared in gridsolve/compile/predicates.py "
                                "(declare it there)")
        statements.append(item.show() if isinstance(item, Shown) else predicate.show())
    return ["#show.", *statements] if statements else []


@dataclass(frozen=True)
class GameProgram:
    """The game program of ``board`` with position term ``layout``: the positions reachable from
    ``roots`` (position terms) by ``reached_by`` (the body of a rule with the position ``S`` reached
    from another; None: the roots only), shown by ``shown`` (the predicates, by
    :func:`show_statements`: nothing else is shown; none given, every atom); ``board_text``:
    the board facts where they are not the board's own (a board with its walls as externals)."""

    board: Board
    layout: Layout | None      # None: a program without the position term (no game rules, no mechanisms)
    roots: Sequence[str] = ()
    shown: Sequence[Predicate | Shown | str] = ()
    reached_by: str | None = "edge(_,_,S)"
    board_text: str | None = None

    def facts(self, mechanisms: bool = True) -> list[str]:
        """The facts the rules read, each under its header: the board, the rule set and (with
        ``mechanisms``) the mechanisms' facts."""
        board = board_facts(self.board) if self.board_text is None else self.board_text
        sections = ["% - Board facts ---", board, "", "% - Rule facts ---", rule_facts(self.board.rules), ""]
        if mechanisms:
            sections += ["% - Mechanism facts ---", mechanism_facts(self.board, self.layout), ""]
        return sections

    def header(self, what: str, solver: Mode) -> list[str]:
        """The title of a printed program (``what`` it is, for the ``solver``) and its facts."""
        return [f"% gridsolve program: board {self.board.name} ({self.board.path}), rules {self.board.rules.name}",
                f"% {what}, {solver} solver. Run: clingo THIS_FILE", "", *self.facts()]

    def root_facts(self) -> str:
        """The ``root/1`` facts of the roots."""
        return ROOT.facts((r,) for r in self.roots)

    def reach_rules(self) -> list[str]:
        """The rules of ``reach/1``: the roots and, where positions are explored, what they reach."""
        return ["reach(S) :- root(S).", f"reach(S) :- {self.reached_by}." if self.reached_by else ""]

    def rules(self, text: str | None = None, **options) -> str:
        """The compiled game rules (``text``: rules written over the position term instead),
        ground over the reachable positions only; ``options``: those of
        :func:`~gridsolve.compile.gamerules.game_rules`."""
        return with_domain(game_rules(self.board, self.layout, **options) if text is None else text,
                           "reach(", "reach(")

    @staticmethod
    def encodings(names: Sequence[str] = GAME_ENCODINGS, headed: bool = False) -> list[str]:
        """The base parts of the encodings ``names``; ``headed``: each under its
        ``% === encodings/NAME ===`` header, with a blank line after it."""
        if not headed:
            return [base_part(encoding(name)).rstrip() for name in names]
        return [line for name in names
                for line in (f"% === encodings/{name} ===", base_part(encoding(name)).rstrip(), "")]

    def text(self, *extra: str, rules: bool = True, encodings: Sequence[str] = GAME_ENCODINGS,
             mechanisms: bool = True) -> str:
        """The whole program: its facts, roots, the reach rules and compiled game rules (with
        ``rules``), the ``extra`` rules, the ``encodings`` and the shown statements."""
        sections = self.facts(mechanisms)
        if self.roots:
            sections += ["% - Roots ---", self.root_facts(), ""]
        if rules:
            sections += ["% - The positions reachable from the roots, with the compiled game rules ---",
                         *self.reach_rules(), self.rules()]
        return "\n".join([*sections, *extra, *self.encodings(encodings), *show_statements(self.shown)])
