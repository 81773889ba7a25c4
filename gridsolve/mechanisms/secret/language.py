"""Secret marks in the rule language: ``placement``, and where a board may put them."""
from __future__ import annotations

from dataclasses import dataclass

from ...errors import BoardError
from ...language.secretcells import allowed_cells
from ...language.spec import Field, Int, ListOf, MapOf, Object, Str, Where
from ..base import Key, Mechanism


@dataclass(frozen=True)
class Placement:
    """Secret marks a role places before the game: ``count`` cells, none on a start cell of
    the pieces or a cell of the marks ``not_on`` names."""

    mark: str
    by: str
    count: int
    not_on: tuple[str, ...] = ()


RULES_KEYS = (
    Key("placement", Field(MapOf(Object(doc="a secret mark one role places before the game", fields={
        "by": Field(Str(doc="the role that places it (gridsolve play asks that role's player)"), required=True),
        "count": Field(Int(0, doc="how many cells it places"), required=True),
        "not_on": Field(ListOf(Str(), doc="where it may not go: pieces (their start cells) and marks "
                                          "(their cells)"), default=[]),
    }), key_doc="mark", doc="secret marks placed before the game (Maze Runner Duel's obstacles); a board "
                            "may leave them unplaced")), "judge_start"),
)


def finish(ctx) -> None:
    placement = {}
    for mark, spec in (ctx.merged.get("placement") or {}).items():
        ctx.check_roles([spec["by"]], "placement", f"placement.{mark}.by")
        placement[mark] = Placement(mark, spec["by"], spec["count"], tuple(spec["not_on"]))
    ctx.built["placement"] = placement


def check_board(board, top) -> None:
    """Secret marks: placed cells where the rules allow them, unplaced ones only where the rules
    say how to place them and with enough cells to place them on."""
    rules = board.rules
    for mark, spec in rules.placement.items():
        for name in spec.not_on:
            if name not in rules.roles and name not in board.marks and name not in rules.placement:
                raise BoardError(board.path, board.line(f"marks.{mark}"), f"placement.{mark}.not_on names "
                                 f"'{name}', neither a piece nor a mark of this board",
                                 f"pieces are {', '.join(rules.roles)}; marks are {', '.join(sorted(board.marks))}")
    for mark, count in board.unplaced.items():
        where = Where(board.path, board.line(f"marks.{mark}"), "")
        if mark not in rules.placement:
            where.fail(f"marks.{mark}: unplaced, but the rules say nothing about placing '{mark}'",
                       "give its cells as a list, or add placement: {" + mark + ": {by: ROLE, count: N}} to the rules")
        free = allowed_cells(board, mark)
        if count > len(free):
            where.fail(f"marks.{mark}: {count} cells to place, but the rules allow only {len(free)}")
    for mark, cells in board.marks.items():
        if mark not in rules.placement:
            continue
        bad = sorted(set(cells) - allowed_cells(board, mark))
        if bad:
            Where(board.path, board.line(f"marks.{mark}"), "").fail(
                f"marks.{mark}: ({bad[0][0]},{bad[0][1]}) is a cell the rules forbid for it "
                f"(not on: {', '.join(rules.placement[mark].not_on)})", "move it to another cell")


MECHANISM = Mechanism("secret", names=("secret marks",), rules_keys=lambda condition: RULES_KEYS, finish=finish,
                      check_board=check_board,
                      used=lambda rules: {"secret marks"} if rules.placement else set())
