"""The in-memory game model: a board (layout) and the rules it plays under."""
from __future__ import annotations

from dataclasses import dataclass, field

from .script import ScriptAction
from ..mechanisms.registry import MECHANISMS as REGISTERED
from .kinds import RequireKind

DIRECTIONS = ("north", "south", "east", "west")
OFF_BOARD = (0, 0)       # the cell of a piece that is not on the board (left out, or removed)
NO_LIMIT = 1_000_000     # the plies of a game without a step limit: more than any game's positions
DELTA = {"north": (0, 1), "south": (0, -1), "east": (1, 0), "west": (-1, 0), "nowhere": (0, 0)}

Cell = tuple[int, int]

# The names :attr:`Rules.mechanisms` gives what the core of the language has (docs/rule-language.md),
# then every name a registered mechanism gives (gridsolve/mechanisms/registry.py)
CORE_MECHANISMS = ("timeout entries", "optional", "several steps", "several turns entries", "moving at once",
                   "collisions stay", "no step limit", "unjudged start")
MECHANISMS = CORE_MECHANISMS + tuple(name for mechanism in REGISTERED for name in mechanism.names)


@dataclass(frozen=True)
class MoveRule:
    """How a role moves: ``steps`` single-cell steps, each north/south/east/west or (if ``idle``) nowhere."""

    steps: int = 1
    idle: bool = True
    first_step_real: bool = False
    blocked: str = "illegal"          # "illegal": no such move; "stay": the step stays put
    end_differs_from_start: bool = False
    may_not_end_on: tuple[str, ...] = ()
    frozen_on: tuple[str, ...] = ()        # marks on which the piece can only stand still
    bump_on: tuple[str, ...] = ()          # marks whose cells the piece bumps on (stays, loses turns)
    lose_turns: int = 1                    # turns lost per bump
    bump_hidden: bool = False              # play hides the bump cells from the role until found


@dataclass(frozen=True)
class Condition:
    """A conjunction of conditions on a position (the ``when`` of an end or a timeout entry)."""

    same_cell: tuple[tuple[str, ...], ...] = ()
    reaches: tuple[tuple[str, str], ...] = ()        # (piece, mark)
    was_on: tuple[tuple[str, str], ...] = ()         # (piece, mark) in the previous position
    collected: tuple[tuple[str, int], ...] = ()      # (collectible, at least this many)
    nearer: tuple[tuple[str, str, str], ...] = ()    # (piece, than piece, mark)
    # the condition keys of a mechanism that keeps them with it: (key, its value) each, in the
    # registry's order (a mechanism that keeps its part here adds no field to Condition)
    plugins: tuple[tuple[str, object], ...] = ()

    def is_empty(self) -> bool:
        return not (self.same_cell or self.reaches or self.was_on or self.collected or self.nearer or self.plugins)

    def plugin(self, key: str, default=()):
        """The value of a mechanism's condition key kept in :attr:`plugins` (``default``: absent)."""
        return dict(self.plugins).get(key, default)

    def value(self, key: str):
        """The value of the condition key ``key``: a field's, else a mechanism's in :attr:`plugins`."""
        return getattr(self, key) if key in self.__dataclass_fields__ else self.plugin(key)


Score = "int | str"   # a number, or the name of a score table


@dataclass(frozen=True)
class Timeout:
    """A conditional timeout entry: when ``when`` holds at the step limit, ``scores`` apply."""

    when: Condition
    scores: dict


@dataclass(frozen=True)
class End:
    """An end condition: when every condition holds, the game ends with ``scores``
    (a number, or the name of a score table, per role)."""

    name: str
    when: Condition
    scores: dict
    loss_for: tuple[str, ...]
    line: int = 0

    @property
    def same_cell(self):
        return self.when.same_cell

    @property
    def reaches(self):
        return self.when.reaches


@dataclass(frozen=True)
class GoodLevel:
    """A rule set's ``generate:`` block: what a good level is, as gridsolve generate's defaults.
    Ranges are (min, max) with None for an open end; ``good``: ((metric, min, max), ...)."""

    require: RequireKind | None = None
    role: str | None = None
    plies: tuple = (None, None)
    value: tuple = (None, None)
    horizon: int | None = None
    walls: tuple = (None, None)
    keep: tuple = ()
    allow_trivial: bool = False
    good: tuple = ()
    why: str = ""
    labels: tuple = ()          # ((label, ((metric, min, max), ...)), ...): easy, then medium; (): the default
    border: tuple = ()          # marks --rules places on the border


@dataclass
class Rules:
    name: str
    description: str
    roles: tuple[str, ...]
    turns: tuple[tuple[str, ...], ...]      # the plies of one round: the roles moving in each
    moves: dict[str, MoveRule]
    ends: tuple[End, ...]
    first_step: int
    last_step: int
    timeout: dict                           # scores at the step limit when no entry of timeout_when holds
    teams: tuple[tuple[str, ...], ...] = ()  # coalitions (default: one per turns entry)
    collisions: str = "allowed"             # "stay": two movers on one cell cancel the ply
    collect: dict = field(default_factory=dict)        # name -> Collect
    tables: dict = field(default_factory=dict)         # name -> ScoreTable
    timeout_when: tuple[Timeout, ...] = ()  # conditional timeout entries, tried in order
    placement: dict = field(default_factory=dict)      # mark -> Placement (secret marks)
    good_level: GoodLevel | None = None     # the generate: block (gridsolve generate's defaults)
    chasers: dict = field(default_factory=dict)        # name -> Chaser (pieces moved by rule)
    optional: tuple[str, ...] = ()          # pieces and marks a board may leave out
    gate_key: str | None = None             # the mark of the cell that toggles the board's gates
    script: tuple[ScriptAction, ...] = ()   # after_ply: played after every ply of the roles
    unlimited: bool = False                 # no step limit (last_step is first_step + NO_LIMIT)
    judge_start: bool = True                # False: the ends judge only positions after a ply
    # rules with kinds of enemies: (the merged raw keys, where they came from), built again for
    # each board's list of enemies (gridsolve.mechanisms.enemies)
    template: object = field(default=None, repr=False, compare=False)
    # the parts of the rules a mechanism keeps with it: its name -> its own object (a mechanism that
    # keeps its part here adds no field to Rules; e.g. gridsolve.mechanisms.teleporters)
    plugins: dict = field(default_factory=dict)

    def __post_init__(self):
        if not self.teams:
            self.teams = tuple(self.turns)

    @property
    def pieces(self) -> tuple[str, ...]:
        """Every piece of a position: the roles' pieces, then the chasers."""
        return self.roles + tuple(self.chasers)

    def side_of(self, role: str) -> int:
        """The index of the ``turns`` entry in which ``role`` moves."""
        return next(i for i, side in enumerate(self.turns) if role in side)

    def team_of(self, role: str) -> tuple[str, ...]:
        return next(team for team in self.teams if role in team)

    def own_turn(self, turn: int, role: str) -> bool:
        """Every role moving in ``turns[turn]`` is on ``role``'s team."""
        return set(self.turns[turn]) <= set(self.team_of(role))

    def split_turn(self, turn: int, role: str) -> bool:
        """``turns[turn]`` moves ``role``'s team and others at once (they commit in two halves)."""
        members = set(self.turns[turn])
        return bool(members & set(self.team_of(role))) and not members <= set(self.team_of(role))

    def score_values(self, score) -> list[int]:
        """The numbers a score can stand for: itself, or every value of its table."""
        return [score] if isinstance(score, int) else list(self.tables[score].values)

    def scores_of(self, role: str) -> list[int]:
        """Every score the role can get, ascending."""
        values = set(self.score_values(self.timeout[role]))
        for end in self.ends:
            values.update(self.score_values(end.scores[role]))
        for entry in self.timeout_when:
            values.update(self.score_values(entry.scores[role]))
        return sorted(values)

    def constant_scores(self, role: str) -> bool:
        """The role's score depends only on which end holds (the race solver applies)."""
        return (not self.timeout_when and isinstance(self.timeout[role], int)
                and all(isinstance(end.scores[role], int) for end in self.ends))

    def own_moves(self, side: int, plies: int | None, role: str) -> int | None:
        """How many of ``plies`` plies from ``turns[side]`` on are ``role``'s own moves (None for
        None, and None where turns can be lost: then which entry moves depends on the line)."""
        if plies is None or any(m.bump_on and m.lose_turns for m in self.moves.values()):
            return None
        n = len(self.turns)
        return sum(1 for k in range(plies) if role in self.turns[(side + k) % n])

    @property
    def one_mover_script(self) -> bool:
        """A script after the plies of one role alone, moving one step, in a position of the
        pieces' cells and the gates only (no mechanism keeps state beside them: items, lost
        turns, ``was_on`` bits; :attr:`state_beside_cells`)."""
        return (bool(self.script) and len(self.turns) == 1 and len(self.turns[0]) == 1
                and all(m.steps == 1 for m in self.moves.values()) and not self.state_beside_cells)

    @property
    def state_beside_cells(self) -> frozenset[str]:
        """The mechanisms whose state these rules keep in the position term beside the pieces'
        cells and the gates (each mechanism says: ``Mechanism.state_beside_cells``)."""
        return frozenset(mechanism.name for mechanism in REGISTERED if mechanism.state_beside_cells(self))

    @property
    def max_plies(self) -> int:
        return self.last_step - self.first_step

    # - Mechanisms: what the rules use, read in one place (the solver paths' table reads them) ---
    @property
    def has_items(self) -> bool:
        """Pieces take items (``collect:``)."""
        return bool(self.collect)

    @property
    def moved_by_rule(self) -> bool:
        """Pieces move by rule after the roles' plies (an ``after_ply`` script)."""
        return bool(self.script)

    @property
    def conditions(self) -> tuple[Condition, ...]:
        """The ``when`` of every end, then of every conditional timeout entry."""
        return tuple(end.when for end in self.ends) + tuple(entry.when for entry in self.timeout_when)

    @property
    def number_scores(self) -> bool:
        """Every score of every role is a number (no score table)."""
        maps = [self.timeout, *(end.scores for end in self.ends), *(entry.scores for entry in self.timeout_when)]
        return all(isinstance(score, int) for scores in maps for score in scores.values())

    @property
    def mechanisms(self) -> frozenset[str]:
        """The names of the language's mechanisms these rules use (:data:`MECHANISMS`): the
        core's, then each registered mechanism's ``used``."""
        moves = self.moves.values()
        used = {
            "timeout entries": bool(self.timeout_when), "optional": bool(self.optional),
            "several steps": any(m.steps > 1 for m in moves),
            "several turns entries": len(self.turns) > 1, "moving at once": any(len(t) > 1 for t in self.turns),
            "collisions stay": self.collisions == "stay", "no step limit": self.unlimited,
            "unjudged start": not self.judge_start,
        }
        return frozenset(name for name, on in used.items() if on).union(
            *(mechanism.used(self) for mechanism in REGISTERED))

    @property
    def own_state(self) -> frozenset[str]:
        """The mechanisms whose state the positions keep beside the core's fields
        (:attr:`Position.plugins`), which only the compiled rules step: the paths that step
        positions themselves refuse these rules (gridsolve/solve/common/capabilities.py)."""
        return frozenset(mechanism.name for mechanism in REGISTERED if mechanism.own_state(self))


@dataclass
class Board:
    path: str
    name: str
    width: int
    height: int
    north: frozenset[Cell]      # edge between (x, y) and (x, y+1) is blocked
    east: frozenset[Cell]       # edge between (x, y) and (x+1, y) is blocked
    solid: frozenset[Cell]      # cells that are wall through and through
    pieces: dict[str, Cell]
    marks: dict[str, frozenset[Cell]]
    rules: Rules
    lines: dict[str, int] = field(default_factory=dict)
    legend: dict[str, str] = field(default_factory=dict)   # map character -> piece or mark
    unplaced: dict[str, int] = field(default_factory=dict)  # secret mark -> cells still to place
    gate_north: frozenset[Cell] = frozenset()    # gates on the edge between (x, y) and (x, y+1)
    gate_east: frozenset[Cell] = frozenset()     # gates on the edge between (x, y) and (x+1, y)
    # edges of the border a role's piece steps through (an exit): (the cell inside, the direction);
    # the step lands on the cell just outside (x or y 0, W+1 or H+1), which has the edge's mark
    exits: frozenset = frozenset()

    def outside(self) -> dict[Cell, tuple[Cell, str]]:
        """The cells just outside the border's exit edges, each with (the cell inside, the direction)."""
        return {(cell[0] + DELTA[d][0], cell[1] + DELTA[d][1]): (cell, d) for cell, d in sorted(self.exits)}

    @property
    def has_gates(self) -> bool:
        return bool(self.gate_north or self.gate_east)

    def gate_step(self, cell: Cell, direction: str) -> bool:
        """Does the step from ``cell`` in ``direction`` cross a gate?"""
        x, y = cell
        return {"north": (x, y) in self.gate_north, "south": (x, y - 1) in self.gate_north,
                "east": (x, y) in self.gate_east, "west": (x - 1, y) in self.gate_east}.get(direction, False)

    def on_board(self, cell: Cell) -> bool:
        x, y = cell
        return 1 <= x <= self.width and 1 <= y <= self.height and cell not in self.solid

    def walk(self, cell: Cell, direction: str) -> Cell:
        """Where a role's step in ``direction`` from ``cell`` leads, before gates, bumps and the
        other pieces count: the next cell, the cell just outside an exit edge it steps through, or
        ``cell`` itself where a wall or the border blocks it."""
        if direction != "nowhere" and (self.open_step(cell, direction) or (cell, direction) in self.exits):
            return (cell[0] + DELTA[direction][0], cell[1] + DELTA[direction][1])
        return cell

    def open_step(self, cell: Cell, direction: str) -> bool:
        """Can a piece on ``cell`` step in ``direction`` (no wall, stays on the board)?"""
        if direction == "nowhere":
            return True
        x, y = cell
        dx, dy = DELTA[direction]
        target = (x + dx, y + dy)
        if not self.on_board(target):
            return False
        if direction == "north":
            return (x, y) not in self.north
        if direction == "south":
            return (x, y - 1) not in self.north
        if direction == "east":
            return (x, y) not in self.east
        return (x - 1, y) not in self.east

    def line(self, key: str) -> int | None:
        return self.lines.get(key)
