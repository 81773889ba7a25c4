"""The mapping a board names in its ``crosscheck:`` key: how its positions read as GDL fluents
and its moves as GDL moves (docs/crosscheck.md), read from the board file and checked with the
file and line of each mistake.

A fluent or move is KIF text with fields in braces, filled from the position: ``{x} {y}`` a
cell (plus ``shift``), ``{step}``, ``{taken}`` (items taken), ``{since}`` (the step of the
position where a piece was first seen on a mark); a GDL move's template gives the board's move
from its words (``{1} {2}``) or from where the piece goes (``{to_x} {to_y}``: ``{direction}``).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import BoardError
from ..language.loader import board_of
from ..language.model import Board
from ..language.position import Position
from ..language.schema import CROSSCHECK
from ..language.spec import Where
from ..language.yamlsrc import load_file

FIELD = re.compile(r"\{(\w+)\}")
DIRECTIONS = {(0, 1): "north", (0, -1): "south", (1, 0): "east", (-1, 0): "west", (0, 0): "nowhere"}
WORDS = tuple(str(n) for n in range(1, 10))


def kif_text(text: str) -> str:
    """KIF text as the engine writes it: lower case (KIF symbols are), single spaces, no space
    inside the parentheses."""
    text = " ".join(text.lower().replace("(", " ( ").replace(")", " ) ").split())
    return text.replace("( ", "(").replace(" )", ")")


@dataclass(frozen=True)
class Template:
    """A fluent or move with fields in braces, and where it was written."""

    text: str
    fields: tuple[str, ...]
    filled: dict = field(default_factory=dict, compare=False, hash=False, repr=False)     # values -> text

    @classmethod
    def read(cls, text: str, where: Where, allowed: tuple[str, ...]) -> "Template":
        text = kif_text(text)
        fields = tuple(FIELD.findall(text))
        for name in fields:
            if name not in allowed:
                where.fail(f"unknown field {{{name}}} in '{text}'",
                           f"use {', '.join('{' + a + '}' for a in allowed) or 'no fields'} here")
        return cls(text, fields)

    def fill(self, **values) -> str:
        key = tuple(values.items())
        text = self.filled.get(key)
        if text is None:
            text = self.filled[key] = FIELD.sub(lambda m: str(values[m.group(1)]), self.text)
        return text

    def pattern(self) -> re.Pattern:
        """A regular expression matching the GDL texts of this template, a group a field."""
        parts, seen, at = [], set(), 0
        for m in FIELD.finditer(self.text):
            parts.append(re.escape(self.text[at:m.start()]))
            name = m.group(1)
            parts.append(f"(?P=f_{name})" if name in seen else f"(?P<f_{name}>[^\\s()]+)")
            seen.add(name)
            at = m.end()
        parts.append(re.escape(self.text[at:]))
        return re.compile("".join(parts) + r"\Z")


@dataclass(frozen=True)
class Arrival:
    """The fluent of one ``was_on`` pair: ``unset`` until the piece has stood on the mark, then ``set``."""

    pair: tuple[str, str]
    unset: Template
    set: Template


@dataclass(frozen=True)
class MoveTemplate:
    """One GDL move of a role and the board move it is."""

    gdl: Template
    name: Template
    pattern: re.Pattern


@dataclass
class Mapping:
    """A board's ``crosscheck:`` mapping, checked against the board (roles, pieces, collectibles, marks)."""

    path: str
    against: str
    shift: tuple[int, int]
    pieces: dict[str, Template]
    empty: Template | None
    items: dict[str, Template]
    counts: dict[str, Template]
    control: tuple[Template, ...] | None
    step: Template
    arrivals: tuple[Arrival, ...]
    moves: dict[str, tuple[MoveTemplate, ...]]
    idle: dict[str, str]
    open: tuple[tuple[int, int], ...] = ()       # the board's open cells (for ``empty``)

    def cell(self, x: int, y: int) -> dict:
        return {"x": x + self.shift[0], "y": y + self.shift[1]}

    def at(self, template: Template, cell: tuple[int, int]) -> str:
        return template.fill(x=cell[0] + self.shift[0], y=cell[1] + self.shift[1])

    def fluents(self, board: Board, pos: Position, since: tuple, empty: bool = True) -> list[str]:
        """The GDL fluents the position writes (all but the static ones), ``since`` giving the
        ``{since}`` step of each arrival whose pair the position keeps (None elsewhere); without
        ``empty``, not those of the empty cells."""
        out = [self.at(self.pieces[role], cell) for role, cell in pos.pieces]
        if self.empty is not None and empty:
            taken = {cell for _, cell in pos.pieces}
            out += [self.at(self.empty, cell) for cell in self.open if cell not in taken]
        left = pos.items_left(board)
        for name, template in self.items.items():
            out += [self.at(template, cell) for cell in left[name]]
        for name, template in self.counts.items():
            total = len(board.marks.get(board.rules.collect[name].mark, ()))
            out.append(template.fill(taken=total - len(left[name])))
        if self.control is not None:
            out.append(self.control[pos.side].fill())
        out.append(self.step.fill(step=pos.step))
        for arrival, at in zip(self.arrivals, since):
            out.append(arrival.unset.fill() if at is None else arrival.set.fill(since=at))
        return out

    def move_name(self, role: str, gdl: str, cell: tuple[int, int]) -> str | None:
        """The board's name of ``role``'s GDL move ``gdl`` with its piece on ``cell`` (None: no template matches)."""
        here = self.cell(*cell)
        for template in self.moves[role]:
            m = template.pattern.match(gdl)
            if not m:
                continue
            values = {k[2:]: v for k, v in m.groupdict().items()}
            if any(values.get(k, str(here[k])) != str(here[k]) for k in ("x", "y")):
                continue
            if "to_x" in values or "to_y" in values:
                try:
                    delta = (int(values.get("to_x", here["x"])) - here["x"], int(values.get("to_y", here["y"])) - here["y"])
                except ValueError:
                    continue
                if delta not in DIRECTIONS:
                    continue
                values["direction"] = DIRECTIONS[delta]
            return template.name.fill(**values)
        return None


def open_cells(board: Board) -> list[tuple[int, int]]:
    return [(x, y) for x in range(1, board.width + 1) for y in range(1, board.height + 1) if (x, y) not in board.solid]


def read_mapping(path: str | Path) -> tuple[Board, Mapping]:
    """The board file ``path`` and the mapping its ``crosscheck:`` key gives."""
    name = str(path)
    raw = load_file(path)
    board = board_of(raw, path)
    if "crosscheck" not in raw:
        raise BoardError(name, None, "the board names no GDL mapping (no 'crosscheck:' key)",
                         "add one: how pieces, side to move, step and moves read in the GDL game "
                         "(see docs/crosscheck.md)")
    top = Where(name, raw.line_of("crosscheck"), "crosscheck")
    spec = raw["crosscheck"]
    checked = CROSSCHECK.check(spec, top)
    return board, _build(board, checked, spec, top)


def _build(board: Board, checked: dict, spec, top: Where) -> Mapping:
    rules = board.rules
    roles = rules.roles

    def at(*keys) -> Where:
        where, node = top, spec
        for key in keys:
            where = where.child(node, key)
            node = node[key]
        return where

    def known(section: str, names, what: str, options) -> None:
        for key in names:
            if key not in options:
                at(section, key).fail(f"'{key}' is not a {what} of the board",
                                      f"name one of {', '.join(options) or 'none'}")

    known("pieces", checked["pieces"], "role", roles)
    missing = [r for r in roles if r not in checked["pieces"]]
    if missing:
        at("pieces").fail(f"no fluent for the piece of {', '.join(missing)}", "give every role's piece a fluent")
    shift = checked["shift"] or [0, 0]
    if len(shift) != 2:
        at("shift").fail(f"expected [dx, dy], got {len(shift)} numbers")
    cell = ("x", "y")
    pieces = {r: Template.read(t, at("pieces", r), cell) for r, t in checked["pieces"].items()}
    empty = Template.read(checked["empty"], at("empty"), cell) if checked["empty"] is not None else None
    items, counts = checked["items"] or {}, checked["counts"] or {}
    known("items", items, "collectible", list(rules.collect))
    known("counts", counts, "collectible", list(rules.collect))
    items = {c: Template.read(t, at("items", c), cell) for c, t in items.items()}
    counts = {c: Template.read(t, at("counts", c), ("taken",)) for c, t in counts.items()}
    missing = [c for c in rules.collect if c not in items]
    if missing:
        top.fail(f"no 'items' fluent for the collectible {', '.join(missing)}", "give every collectible's items a fluent")
    control = None
    if checked["control"] is not None:
        if len(checked["control"]) != len(rules.turns):
            at("control").fail(f"{len(checked['control'])} fluent(s) for {len(rules.turns)} turns entries",
                               "give one fluent for each entry of the rules' turns, in order")
        control = tuple(Template.read(t, at("control", i), ()) for i, t in enumerate(checked["control"]))
    arrivals = []
    for i, entry in enumerate(checked["arrivals"] or []):
        pair = (entry["piece"], entry["mark"])
        known_pair = entry["piece"] in roles and entry["mark"] in board.marks
        if not known_pair:
            at("arrivals", i).fail(f"{pair[0]} on {pair[1]} is not a piece and mark of the board",
                                   f"name a role ({', '.join(roles)}) and a mark ({', '.join(board.marks)})")
        arrivals.append(Arrival(pair, Template.read(entry["unset"], at("arrivals", i, "unset"), ()),
                                Template.read(entry["set"], at("arrivals", i, "set"), ("since",))))
    moves = {}
    known("moves", checked["moves"], "role", roles)
    for role in roles:
        if role not in checked["moves"]:
            at("moves").fail(f"no moves for {role}", "give every role its GDL moves")
        templates = []
        for gdl, board_move in checked["moves"][role].items():
            where = at("moves", role, gdl)
            g = Template.read(gdl, where, WORDS + ("x", "y", "to_x", "to_y"))
            words = tuple(f for f in g.fields if f in WORDS)
            direction = ("direction",) if {"to_x", "to_y"} & set(g.fields) else ()
            templates.append(MoveTemplate(g, Template.read(board_move, where, words + direction), g.pattern()))
        moves[role] = tuple(templates)
    idle = checked["idle"] or {}
    known("idle", idle, "role", roles)
    for role in roles:
        if role not in idle and any(role not in entry for entry in rules.turns):
            top.fail(f"no 'idle' move for {role}", "give the GDL move of each role when it is not to move, "
                                                    "e.g. idle: {" + role + ": noop}")
    return Mapping(top.path, checked["against"], (shift[0], shift[1]), pieces, empty, items, counts, control,
                   Template.read(checked["step"], at("step"), ("step",)), tuple(arrivals), moves,
                   {r: kif_text(t) for r, t in idle.items()}, tuple(open_cells(board)))
