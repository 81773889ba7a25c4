"""The in-memory game model: a board (layout) and the rules it plays under."""
from __future__ import annotations

from dataclasses import dataclass, field

DIRECTIONS = ("north", "south", "east", "west")
DELTA = {"north": (0, 1), "south": (0, -1), "east": (1, 0), "west": (-1, 0), "nowhere": (0, 0)}

Cell = tuple[int, int]


@dataclass(frozen=True)
class MoveRule:
    """How a role moves: ``steps`` single-cell steps, each north/south/east/west or (if ``idle``) nowhere."""

    steps: int = 1
    idle: bool = True
    first_step_real: bool = False
    blocked: str = "illegal"          # "illegal": no such move; "stay": the step stays put
    end_differs_from_start: bool = False
    may_not_end_on: tuple[str, ...] = ()


@dataclass(frozen=True)
class End:
    """An end condition: when every condition holds, the game ends with ``scores``."""

    name: str
    same_cell: tuple[tuple[str, ...], ...]
    reaches: tuple[tuple[str, str], ...]   # (piece, mark)
    scores: dict[str, int]
    loss_for: tuple[str, ...]
    line: int = 0


@dataclass
class Rules:
    name: str
    description: str
    roles: tuple[str, ...]
    turns: tuple[tuple[str, ...], ...]
    moves: dict[str, MoveRule]
    ends: tuple[End, ...]
    first_step: int
    last_step: int
    timeout: dict[str, int]

    def side_of(self, role: str) -> int:
        return next(i for i, side in enumerate(self.turns) if role in side)

    def scores_of(self, role: str) -> list[int]:
        """Every score the role can get, ascending."""
        values = {end.scores[role] for end in self.ends} | {self.timeout[role]}
        return sorted(values)

    @property
    def max_plies(self) -> int:
        return self.last_step - self.first_step


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

    def on_board(self, cell: Cell) -> bool:
        x, y = cell
        return 1 <= x <= self.width and 1 <= y <= self.height and cell not in self.solid

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
