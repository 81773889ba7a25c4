"""Crates in the rule language: the rules' ``crates`` (the mark their cells start on), the move
key ``pushes``, the ``crates_on`` condition, the checks of what they are answered with, and the
crates of a position (judged and written as JSON)."""
from __future__ import annotations

from dataclasses import dataclass

from ...errors import QueryError
from ...language.spec import Either, Enum, Field, Int, MapOf, Object, Str
from ..base import Key, Mechanism

NAME = "crates"
ON = "crates_on"      # the condition key


@dataclass(frozen=True)
class Crates:
    """Crates start on every cell with ``mark``; the roles of ``pushers`` push them."""

    mark: str
    pushers: tuple[str, ...]


RULES_KEYS = (
    Key(NAME, Field(Object(doc="crates (Sokoban's rule): a pushing role's step into a crate moves it one cell on "
                               "when that cell is free, else the step is blocked; every other piece is blocked by "
                               "a crate", fields={
        "mark": Field(Str(doc="every cell with this mark starts with a crate"), required=True),
    })), "teleporters"),
)
MOVE_KEYS = (
    Key("pushes", Field(Enum((NAME,), doc="the role's steps push crates (a piece that does not push is blocked "
                                          "by a crate)")), "blocked"),
)
CONDITION_KEYS = (
    Key(ON, Field(MapOf(Either(((int, Int(0)), (str, Enum(("all",), doc="every crate of the board")))),
                        key_doc="mark", doc="at least this many crates stand on cells with the mark")), "nearer"),
)


def of(rules) -> Crates | None:
    """The rules' crates (None: they have none)."""
    return rules.plugins.get(NAME)


def start_cells(board) -> frozenset:
    """The cells the board's crates start on."""
    return frozenset(board.marks.get(of(board.rules).mark, ()))


def crates_at(board, position) -> frozenset:
    """The cells of the crates in ``position`` (as the board starts where it keeps none)."""
    state = position.plugin(NAME)
    return start_cells(board) if state is None else state


def build(ctx) -> None:
    spec = ctx.merged.get(NAME)
    moves = ctx.merged.get("moves") or {}
    pushers = tuple(role for role in ctx.roles if (moves.get(role) or {}).get("pushes"))
    if not spec:
        if pushers:
            ctx.fail("moves", f"moves.{pushers[0]}.pushes: the rules have no crates", "add crates: {mark: MARK}")
        return
    ctx.built.setdefault("plugins", {})[NAME] = Crates(spec["mark"], pushers)


def read_condition(value, ctx, key: str, what: str) -> tuple:
    """``crates_on``: (mark, at least this many crates on its cells; -1 for every crate)."""
    if value and NAME not in ctx.built.get("plugins", {}):
        ctx.fail(key, f"{what}: {ON} without crates", "add crates: {mark: MARK} to the rules")
    return tuple((mark, -1 if count == "all" else count) for mark, count in (value or {}).items())


def check(rules, ctx) -> None:
    """What crates are answered with: one role moving at a time, its steps as the compiled rules
    take them (no bumps, frozen marks, teleporters or hidden marks),
    and a move that may not end on a piece or its start only where a blocked step is illegal."""
    crates = of(rules)
    if crates is None:
        return
    refused = [("hidden marks (placement:, bump: {hidden: true})",
                bool(rules.placement) or any(m.bump_hidden for m in rules.moves.values())),
               ("bumps (bump:)", any(m.bump_on for m in rules.moves.values())),
               ("frozen_on", any(m.frozen_on for m in rules.moves.values())),
               ("teleporters", "teleporters" in rules.plugins),
               ("roles moving at once (a turns entry of several roles)", any(len(t) > 1 for t in rules.turns))]
    for what, found in refused:
        if found:
            ctx.fail(NAME, f"{NAME}: crates with {what} are not answered", f"remove {NAME}:, or the {what}")
    for role, move in rules.moves.items():
        if move.blocked == "stay" and (move.may_not_end_on or move.end_differs_from_start):
            ctx.fail(NAME, f"{NAME}: moves.{role} has blocked: stay with may_not_end_on or end_differs_from_start, "
                           "which crates are not answered with", f"use blocked: illegal for {role}")


def check_board(board, top) -> None:
    """The crates start on the board, each on a cell no piece starts on; the board has no gates
    (rules with a gate, such as the classic ones, take crates on boards without gates)."""
    if of(board.rules) is None:
        return
    if board.has_gates:
        top.fail(f"{NAME}: crates with gates on the board are not answered", "remove the board's gates, or the crates")
    outside = board.outside()
    cells = start_cells(board)
    for cell in sorted(cells):
        if cell in outside:
            top.fail(f"a crate starts on {list(cell)}, outside the board", "mark crate cells on the board only")
    for piece, cell in sorted(board.pieces.items()):
        if cell in cells:
            top.fail(f"{piece} starts on a crate, on {list(cell)}", "start the piece and the crate on cells of their own")


def check_position(board, position) -> None:
    """No piece stands on a crate (``--at`` onto one)."""
    if of(board.rules) is None:
        return
    crates = crates_at(board, position)
    for piece, cell in position.pieces:
        if cell in crates:
            raise QueryError(f"--at {piece}={cell[0]},{cell[1]}: a crate stands there",
                             "place the piece on a cell without a crate")


def holds(when, board, position) -> bool:
    """Every ``crates_on`` of ``when`` holds in ``position``."""
    wanted = when.plugin(ON)
    if not wanted:
        return True
    crates = crates_at(board, position)
    for mark, at_least in wanted:
        need = len(start_cells(board)) if at_least < 0 else at_least
        if len(crates & board.marks.get(mark, frozenset())) < need:
            return False
    return True


def position_json(board, position, strategy: bool) -> dict:
    """``crates``: the cells of the crates, sorted."""
    if of(board.rules) is None:
        return {}
    return {NAME: sorted(list(cell) for cell in crates_at(board, position))}


MECHANISM = Mechanism(
    NAME, names=(NAME,), rules_keys=lambda condition: RULES_KEYS, move_keys=MOVE_KEYS, condition_keys=CONDITION_KEYS,
    read_condition=read_condition, condition_marks=lambda value: [mark for mark, _ in value],
    build=build, check=check, check_board=check_board,
    marks_needed=lambda rules: [(NAME, of(rules).mark)] if of(rules) else [],
    used=lambda rules: {NAME} if of(rules) is not None else set(),
    own_state=lambda rules: of(rules) is not None, holds=holds, position_json=position_json, check_position=check_position,
    position_marks=lambda board, position: {of(board.rules).mark: crates_at(board, position)} if of(board.rules) else {})
