"""The ``expect:`` block of a board file: what the level designer expects of the game.

The keys and their types are defined in :data:`gridsolve.language.schema.EXPECTATION` (so the JSON
Schema of ``gridsolve schema`` describes them too); this module checks what the schema cannot
(roles, pieces and cells that must exist on this board) and builds :class:`Expectation`
objects that remember the line of every expected value.  Mistakes are
:class:`~gridsolve.errors.BoardError` with the file and line, like the rest of the loader.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from ..language import schema
from ..language.model import Board
from ..language.celltext import not_free
from ..language.secret import hidden_marks
from ..language.position import Position, make_position
from ..language.spec import Where
from ..language.yamlsrc import load_file
from ..analysis.ends import beeline_unsupported, goal_ends, metrics_unsupported

# The keys that state something to check, in the order the README documents them.
CHECK_KEYS = ("win", "survive", "value", "plies", "win_moves", "winning_first_moves", "no_beeline",
              *[name for name in schema.GRAPH_METRICS if name != "plies"])
# The difficulty metrics (gridsolve/analysis/metrics.py), measured from the solved game graph.
METRIC_KEYS = tuple(name for name in schema.GRAPH_METRICS if name != "plies")
# The keys answered by one clingo run of gridsolve.solve.dispatch.dispatcher.solve (shared by a group).
SOLVER_KEYS = ("win", "survive", "value", "plies", "win_moves", "winning_first_moves")


@dataclass(frozen=True)
class Range:
    """Whole numbers from ``min`` to ``max``, both included; either end may be open (None)."""

    min: int | None = None
    max: int | None = None

    def __contains__(self, number) -> bool:
        if number is None or isinstance(number, bool) or not isinstance(number, (int, float)):
            return False
        return (self.min is None or number >= self.min) and (self.max is None or number <= self.max)

    def as_dict(self) -> dict:
        return {k: v for k, v in (("min", self.min), ("max", self.max)) if v is not None}

    def __str__(self) -> str:
        if self.min is not None and self.max is not None:
            return f"{self.min}..{self.max}"
        return f">= {self.min}" if self.min is not None else f"<= {self.max}"


def holds(expected, measured) -> bool:
    """Does a measured value meet the expected one (a value, None for "nothing forced", or a Range)?"""
    if isinstance(expected, Range):
        return measured in expected
    if isinstance(expected, bool) or isinstance(measured, bool):
        return isinstance(expected, bool) and isinstance(measured, bool) and expected == measured
    return expected == measured


@dataclass(frozen=True)
class Expected:
    """One key of an expectation: what is expected and on which line it is written."""

    key: str
    value: object          # bool, int, None (plies: nothing forced) or Range
    line: int


@dataclass(frozen=True)
class Expectation:
    """One item of the ``expect:`` list."""

    index: int                         # position in the list (expect[index])
    line: int                          # the line of the list item
    role: str
    position: Position
    horizon: int | None
    stated: str                        # how the position was stated, e.g. "at explorer=8,3 turn explorer"
    checks: tuple[Expected, ...]
    hidden: bool = False               # the robust question (solve --hidden)

    @property
    def group(self) -> tuple:
        """Expectations with the same group are answered by the same solver run."""
        return (self.role, self.position, self.horizon, self.hidden)

    def check_name(self, key: str) -> str:
        return " ".join(part for part in (self.role, key, self.stated) if part)


def parse_expectations(board: Board, raw_board) -> list[Expectation]:
    """The expectations of a loaded board, from its raw (line-annotated) YAML mapping."""
    raw_list = raw_board.get("expect") if isinstance(raw_board, dict) else None
    if raw_list is None:
        return []
    top = Where(board.path, getattr(raw_board, "line", 1), "")
    where = top.child(raw_board, "expect")
    schema.BOARD.fields["expect"].spec.check(raw_list, where)
    return [_parse_one(board, raw, index, where.child(raw_list, index)) for index, raw in enumerate(raw_list)]


def load_expectations(board: Board, raw=None) -> list[Expectation]:
    """Parse the ``expect:`` block of the board's file as read (``raw``: :func:`load_file`'s
    tree, with line numbers), else read again."""
    return parse_expectations(board, load_file(Path(board.path)) if raw is None else raw)


def _parse_one(board: Board, raw, index: int, where: Where) -> Expectation:
    rules = board.rules
    checked = schema.EXPECTATION.check(raw, where)
    role = checked["role"] or rules.roles[0]
    if checked["role"] is not None and role not in rules.roles:
        where.child(raw, "role").fail(f"unknown role '{role}'", f"roles are: {', '.join(rules.roles)}")
    placements = []
    for piece, cell in (checked["at"] or {}).items():
        at_where = where.child(raw, "at").child(raw["at"], piece)
        if piece not in rules.pieces:
            at_where.fail(f"unknown piece '{piece}'", f"the pieces of these rules are: {', '.join(rules.pieces)}")
        if not board.on_board(cell):
            at_where.fail(not_free(cell, board))
        placements.append(f"{piece}={cell[0]},{cell[1]}")
    turn = checked["turn"]
    if turn is not None and turn not in rules.roles:
        where.child(raw, "turn").fail(f"unknown role '{turn}'", f"roles are: {', '.join(rules.roles)}")
    step = checked["step"]
    if step is not None and not rules.first_step <= step <= rules.last_step:
        where.child(raw, "step").fail(f"{step} is outside the game's steps {rules.first_step}..{rules.last_step}")
    position = make_position(board, tuple(placements), turn, step)
    if checked["gates"] is not None:
        if not board.has_gates:
            where.child(raw, "gates").fail("the board has no gates", "remove gates")
        position = replace(position, gates_open=checked["gates"] == "open")
    checks = []
    for key in raw:
        if key not in CHECK_KEYS:
            continue
        value = checked[key]
        key_where = where.child(raw, key)
        if isinstance(value, dict):
            value = _range(value, key_where)
        if key == "winning_first_moves" and rules.side_of(role) != position.side:
            mover = "+".join(rules.turns[position.side])
            key_where.fail(f"counts the first moves of {role}, but {mover} is to move",
                           f"add 'turn: {role}' or remove winning_first_moves")
        if key == "no_beeline" and beeline_unsupported(board):
            key_where.fail(f"no_beeline is not defined here: {beeline_unsupported(board)}",
                           "remove no_beeline")
        if key in METRIC_KEYS and metrics_unsupported(board, role):
            key_where.fail(f"{key} is not defined here: {metrics_unsupported(board, role)}", f"remove {key}")
        if key == "no_beeline" and not goal_ends(board, role):
            key_where.fail(f"no end condition gives {role} a score above its timeout score, "
                           "so it has no goal to walk to", "remove no_beeline or choose another role")
        checks.append(Expected(key, value, key_where.line))
    if not checks:
        where.fail("this expectation checks nothing", f"give at least one of: {', '.join(CHECK_KEYS)}")
    stated = []
    if placements:
        stated.append("at " + " ".join(placements))
    if turn is not None:
        stated.append(f"turn {turn}")
    if step is not None:
        stated.append(f"step {step}")
    if checked["horizon"] is not None:
        stated.append(f"horizon {checked['horizon']}")
    if checked["hidden"]:
        stated.append("hidden")
        if not hidden_marks(board, role):
            where.child(raw, "hidden").fail(f"{role} sees every mark of this board", "remove hidden: true")
        for key in ("winning_first_moves", "no_beeline"):
            if key in raw:
                where.child(raw, key).fail(f"{key} is not defined for hidden: true", f"remove {key}")
    elif board.unplaced:
        where.fail(f"the board leaves {', '.join(sorted(board.unplaced))} unplaced", "add hidden: true")
    return Expectation(index, where.line, role, position, checked["horizon"], " ".join(stated), tuple(checks),
                       checked["hidden"])


def _range(value: dict, where: Where) -> Range:
    if value["min"] is None and value["max"] is None:
        where.fail("an empty range", "give min, max or both, e.g. {min: 12, max: 20}")
    if value["min"] is not None and value["max"] is not None and value["min"] > value["max"]:
        where.fail(f"the range {value['min']}..{value['max']} is empty", "min must not be greater than max")
    return Range(value["min"], value["max"])
