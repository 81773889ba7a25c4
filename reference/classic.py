"""An independent reference of the classic single-player Mummy Maze (issue 31's rules 1-8).

Written from the rules as the issue states them, and nothing else: it imports nothing from
gridsolve (tests/test_reference_reading.py checks), reads the board file with PyYAML, plays one
turn by the rules in plain Python (:func:`turn`), and searches every state the explorer can reach
(:func:`solve`).  ``python -m reference.classic BOARD [MOVE ...]`` prints the answer, or
replays the moves turn by turn.

The board (the issue's explicit form; a map is not read here)::

    rules: mummy-maze-classic            # white enemies; mummy-maze-classic-red: red ones
    size: [6, 6]                          # x east 1..width, y north 1..height
    walls: {north: [[2, 3]], east: [[1, 1]]}   # north [x,y]: the edge (x,y)-(x,y+1); east: (x,y)-(x+1,y)
    pieces: {explorer: [1, 1], mummy: [6, 6], mummy2: [3, 4], scorpion: [5, 2]}
    marks: {exit: [[6, 1]], trap: [[2, 2]], key: [[4, 4]]}
    gates: {north: [[3, 3]]}              # the gate's edges, written like walls; closed at the start

``mummy``, ``mummy2`` (only with ``mummy``), ``scorpion``, ``trap``, ``key`` and ``gates`` may
be left out; a board has at most one key, and all its gate edges open and close together.

One turn (one explorer move), as :func:`turn` plays it:

1. The explorer steps one cell (north, east, south, west) or waits (nowhere).  A step into a wall,
   the closed gate or the border leaves him in place; he cannot leave through the exit.
2. If he entered the key cell (moved onto it this turn), the gate becomes the opposite of its
   turn-start state and the key is used this turn.
3. On a trap he dies; nothing else happens.
4. The scorpion takes one step toward him.  On him: he dies.  On a mummy: the scorpion dies.
   Else, if it entered the key cell and the key is unused: the gate becomes the opposite of its
   turn-start state, and the key is used.
5. Two rounds of: mummy 1 one step, mummy 2 one step (each step sees the gate as it is then),
   then the checks (a) both mummies on one cell: mummy 2 dies; (b) a living mummy on the
   scorpion's cell, the scorpion alive or killed earlier this turn (it stays where it died until
   the turn ends): the scorpion dies, and on the key the gate flips from its present state, the
   key's used flag neither read nor set; (c) a living mummy on the explorer: he dies; (d) if the
   key is unused: mummy 1 on the key and not on its turn-start cell sets the gate to the opposite
   of its turn-start state and uses the key; otherwise a living mummy 2 on the key and not on its
   turn-start cell sets it likewise without using the key.  A mummy 2 killed in (a) neither
   moves nor counts in later checks (as in the original's turn function).
6. He wins if he is alive on an exit cell after all of this.  Enemies killed this turn leave the
   board at its end.
7. An enemy's step: toward the explorer's column first (white) or toward his row first (red);
   if it is already in line on that axis, or the step is blocked (wall, closed gate, border),
   the other axis; both impossible: it stays.  Enemies never block each other.
8. No step limit; the gate starts closed.

A turn that kills the explorer stops there; :func:`turn` returns the position at that moment
(with the enemies killed so far this turn removed) and ``"dead"``.

The search (:func:`solve`): every state reachable from the start, with the explorer's five moves
from each.  A step into a wall is the same turn as waiting, so the search offers only the real
steps and ``nowhere``.  The answer: whether a win is reachable; the fewest explorer moves to one;
one shortest line, the least in the order north, east, south, west, nowhere (compared move by
move from the first); and, when no win is reachable, why: ``waits`` if the explorer can play
forever without dying (a cycle of surviving turns is reachable), else ``dies``, with the most
moves he can make before he dies.  The same for each of the five first moves (``by_move``).
"""
from __future__ import annotations

import sys
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import yaml

Cell = tuple[int, int]

ORDER = ("north", "east", "south", "west", "nowhere")     # the solution line's tie-break order
DELTA = {"north": (0, 1), "east": (1, 0), "south": (0, -1), "west": (-1, 0), "nowhere": (0, 0)}
RULE_SETS = {"mummy-maze-classic": False, "mummy-maze-classic-red": True}   # name -> red enemies
WON, DEAD, ON = "won", "dead", "on"


class State(NamedTuple):
    """A position between turns: the pieces on the board (None: absent or dead) and the gate."""
    explorer: Cell
    mummy: Cell | None = None
    mummy2: Cell | None = None
    scorpion: Cell | None = None
    gate_open: bool = False


@dataclass(frozen=True)
class Level:
    """A board: its size, blocked edges, marks, rule colour and starting position."""
    width: int
    height: int
    red: bool
    walls: frozenset          # edges: frozenset({cell, cell})
    gates: frozenset
    exits: frozenset
    traps: frozenset = frozenset()
    key: Cell | None = None
    start: State = field(default=None)


# --- reading a board ------------------------------------------------------------------------

PIECES = ("explorer", "mummy", "mummy2", "scorpion")
MARKS = ("exit", "trap", "key")
TOP_KEYS = ("rules", "size", "walls", "pieces", "marks", "gates", "name", "description", "expect")


def _cell(value, what: str) -> Cell:
    if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) for v in value)):
        raise ValueError(f"{what}: {value!r} is not a cell [x, y]")
    return (value[0], value[1])


def _edges(spec, what: str) -> set:
    """Edges from ``{north: [[x, y]], east: [[x, y]]}``."""
    spec = spec or {}
    unknown = set(spec) - {"north", "east"}
    if unknown:
        raise ValueError(f"{what}: unknown sides {sorted(unknown)}")
    edges = set()
    for x, y in (_cell(c, what) for c in spec.get("north") or []):
        edges.add(frozenset({(x, y), (x, y + 1)}))
    for x, y in (_cell(c, what) for c in spec.get("east") or []):
        edges.add(frozenset({(x, y), (x + 1, y)}))
    return edges


def parse_board(text: str, name: str = "<board>") -> Level:
    """A :class:`Level` from a board's YAML text (the explicit form)."""
    raw = yaml.safe_load(text)
    if not isinstance(raw, dict):
        raise ValueError(f"{name}: not a board")
    unknown = set(raw) - set(TOP_KEYS)
    if unknown:
        raise ValueError(f"{name}: this reference does not read {sorted(unknown)}")
    if raw.get("rules") not in RULE_SETS:
        raise ValueError(f"{name}: rules must be one of {sorted(RULE_SETS)}, not {raw.get('rules')!r}")
    width, height = _cell(raw.get("size"), f"{name}: size")
    pieces = raw.get("pieces") or {}
    marks = raw.get("marks") or {}
    for what, given, known in (("pieces", pieces, PIECES), ("marks", marks, MARKS)):
        if set(given) - set(known):
            raise ValueError(f"{name}: unknown {what} {sorted(set(given) - set(known))}")
    at = {piece: _cell(pieces[piece], f"{name}: {piece}") for piece in PIECES if piece in pieces}
    if "explorer" not in at:
        raise ValueError(f"{name}: no explorer")
    if "mummy2" in at and "mummy" not in at:
        raise ValueError(f"{name}: mummy2 without mummy")
    cells = {mark: {_cell(c, f"{name}: {mark}") for c in marks.get(mark) or []} for mark in MARKS}
    if not cells["exit"]:
        raise ValueError(f"{name}: no exit")
    if len(cells["key"]) > 1:
        raise ValueError(f"{name}: more than one key")
    for cell in [*at.values(), *(c for cs in cells.values() for c in cs)]:
        if not (1 <= cell[0] <= width and 1 <= cell[1] <= height):
            raise ValueError(f"{name}: {list(cell)} is off the {width}x{height} board")
    start = State(at["explorer"], at.get("mummy"), at.get("mummy2"), at.get("scorpion"), False)
    return Level(width, height, RULE_SETS[raw["rules"]], frozenset(_edges(raw.get("walls"), f"{name}: walls")),
                 frozenset(_edges(raw.get("gates"), f"{name}: gates")), frozenset(cells["exit"]),
                 frozenset(cells["trap"]), next(iter(cells["key"]), None), start)


def read_board(path) -> Level:
    """A :class:`Level` from a board file."""
    return parse_board(Path(path).read_text(encoding="utf-8"), str(path))


# --- one turn -------------------------------------------------------------------------------

def blocked(level: Level, at: Cell, to: Cell, gate_open: bool) -> bool:
    """A step from ``at`` to the neighbouring ``to`` is stopped by the border, a wall or the
    closed gate."""
    if not (1 <= to[0] <= level.width and 1 <= to[1] <= level.height):
        return True
    edge = frozenset({at, to})
    return edge in level.walls or (edge in level.gates and not gate_open)


def _sign(d: int) -> int:
    return (d > 0) - (d < 0)


def enemy_step(level: Level, at: Cell, explorer: Cell, gate_open: bool) -> Cell:
    """Where an enemy on ``at`` goes in one step toward the explorer (rule 7)."""
    horizontal = (at[0] + _sign(explorer[0] - at[0]), at[1]) if explorer[0] != at[0] else None
    vertical = (at[0], at[1] + _sign(explorer[1] - at[1])) if explorer[1] != at[1] else None
    for to in ((vertical, horizontal) if level.red else (horizontal, vertical)):
        if to is not None and not blocked(level, at, to, gate_open):
            return to
    return at


def turn(level: Level, state: State, move: str, log: list | None = None) -> tuple[State, str]:
    """The position after the explorer's ``move`` and the enemies' answer, and the outcome:
    ``"won"``, ``"dead"`` or ``"on"`` (rules 1-6).  ``log``, if given, gets the name of each
    rule that acted (one of ``EVENTS``), in order."""
    note = log.append if log is not None else (lambda _event: None)
    start_gate = state.gate_open
    gate, used = start_gate, False

    def step(at: Cell) -> Cell:      # an enemy's step, seeing the gate as it is now
        to = enemy_step(level, at, explorer, gate)
        if log is not None and not gate and enemy_step(level, at, explorer, True) != to:
            note("7 the closed gate stops an enemy")
        return to

    # 1. the explorer
    dx, dy = DELTA[move]
    explorer = (state.explorer[0] + dx, state.explorer[1] + dy)
    if move != "nowhere" and blocked(level, state.explorer, explorer, start_gate):
        note("1 the closed gate stops him" if frozenset({state.explorer, explorer}) in level.gates
             else "1 a wall or the border stops him")
        explorer = state.explorer
    # 2. the key, entered by the explorer
    if explorer == level.key and explorer != state.explorer:
        note("2 he enters the key")
        gate, used = not start_gate, True
    mummy, mummy2, scorpion = state.mummy, state.mummy2, state.scorpion
    mummy2_alive, scorpion_alive = mummy2 is not None, scorpion is not None

    def now() -> State:   # the position so far, the enemies killed this turn removed
        return State(explorer, mummy, mummy2 if mummy2_alive else None,
                     scorpion if scorpion_alive else None, gate)

    # 3. a trap
    if explorer in level.traps:
        note("3 a trap kills him")
        return now(), DEAD
    # 4. the scorpion
    if scorpion is not None:
        scorpion = step(scorpion)
        if scorpion == explorer:
            note("4 the scorpion kills him")
            return now(), DEAD
        if scorpion in (mummy, mummy2):          # every mummy on the board is alive here
            note("4 the scorpion steps onto a mummy")
            if scorpion == level.key and scorpion != state.scorpion:
                note("4 the scorpion dies entering the key")
            scorpion_alive = False
        elif scorpion == level.key and scorpion != state.scorpion and not used:
            note("4 the scorpion enters the key")
            gate, used = not start_gate, True
    # 5. the mummies: two rounds, each followed by the checks a-d
    for round_ in (1, 2):
        if mummy is not None:
            mummy = step(mummy)
        if mummy2_alive:
            mummy2 = step(mummy2)
        living = [m for m, alive in ((mummy, mummy is not None), (mummy2, mummy2_alive)) if alive]
        if mummy is not None and mummy2_alive and mummy == mummy2:                     # (a)
            note("5a mummy 2 dies")
            mummy2_alive = False
            living = [mummy]
        for m in living:                                                               # (b)
            if scorpion is not None and m == scorpion:
                note("5b a mummy kills the scorpion" if scorpion_alive else "5b a mummy on the dead scorpion")
                scorpion_alive = False
                if scorpion == level.key:
                    note("5b the gate flips")
                    gate = not gate
        if explorer in living:                                                         # (c)
            note(f"5c a mummy kills him in round {round_}")
            return now(), DEAD
        if level.key is not None:                                                      # (d)
            entered1 = mummy == level.key and mummy != state.mummy
            entered2 = mummy2_alive and mummy2 == level.key and mummy2 != state.mummy2
            if used and (entered1 or entered2):
                note("5d a mummy on the key, already used")
            elif entered1:
                note("5d mummy 1 enters the key")
                gate, used = not start_gate, True
            elif entered2:
                note("5d mummy 2 enters the key")
                gate = not start_gate
            elif level.key in (mummy, mummy2 if mummy2_alive else None):
                note("5d a mummy on the key where it started the turn")
            if mummy2 is not None and not mummy2_alive and mummy2 == level.key:
                note("5d a dead mummy 2 on the key")
    # 6. the end of the turn
    if explorer in level.exits:
        note("6 he escapes")
        return now(), WON
    return now(), ON


EVENTS = ("1 a wall or the border stops him", "1 the closed gate stops him", "2 he enters the key",
          "3 a trap kills him", "4 the scorpion kills him", "4 the scorpion steps onto a mummy",
          "4 the scorpion enters the key", "4 the scorpion dies entering the key", "5a mummy 2 dies",
          "5b a mummy kills the scorpion", "5b a mummy on the dead scorpion", "5b the gate flips",
          "5c a mummy kills him in round 1", "5c a mummy kills him in round 2", "5d mummy 1 enters the key",
          "5d mummy 2 enters the key", "5d a mummy on the key, already used",
          "5d a mummy on the key where it started the turn", "5d a dead mummy 2 on the key", "6 he escapes",
          "7 the closed gate stops an enemy")


def play(level: Level, moves) -> list[tuple[str, State, str]]:
    """Replay ``moves`` (a list of move names, or one string of them) from the start: each
    turn's move, the position after it and its outcome.  A move after a won or lost turn is an
    error."""
    if isinstance(moves, str):
        moves = moves.split()
    state, outcome, turns = level.start, ON, []
    for move in moves:
        if outcome != ON:
            raise ValueError(f"move {len(turns) + 1} ({move}) comes after the game ended ({outcome})")
        if move not in DELTA:
            raise ValueError(f"unknown move {move!r}: one of {', '.join(ORDER)}")
        state, outcome = turn(level, state, move)
        turns.append((move, state, outcome))
    return turns


# --- the search -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Outlook:
    """What a position (or a first move) leads to with the explorer's best play."""
    win: bool
    moves: int | None         # the fewest explorer moves to a win (None: no win)
    why: str | None           # None (a win), "dies" or "waits"
    holds_out: int | None     # "dies": the most moves he can make, the fatal one included


@dataclass(frozen=True)
class Answer:
    """Whether the level can be won, in how few explorer moves, one shortest line, why not;
    and the same for each of the five first moves (``by_move``; a step into a wall is a wait)."""
    win: bool
    moves: int | None
    line: list
    why: str | None           # None (a win), "dies" or "waits"
    holds_out: int | None     # "dies": the most moves he can make, the fatal one included
    states: int               # positions reachable from the start (between turns)
    by_move: dict = field(default_factory=dict)   # move -> Outlook, counting the move itself


def moves_from(level: Level, state: State) -> list[str]:
    """The explorer's moves worth trying: the steps not blocked, then waiting."""
    x, y = state.explorer
    return [m for m in ORDER if m == "nowhere"
            or not blocked(level, state.explorer, (x + DELTA[m][0], y + DELTA[m][1]), state.gate_open)]


def solve(level: Level) -> Answer:
    """The answer for the level from its start (every reachable state, no step limit)."""
    index = {level.start: 0}
    states = [level.start]
    successors: list[list[tuple[str, str, int | None]]] = []   # per state: (move, outcome, next)
    i = 0
    while i < len(states):
        row = []
        for move in moves_from(level, states[i]):
            after, outcome = turn(level, states[i], move)
            target = None
            if outcome == ON:
                if after not in index:
                    index[after] = len(states)
                    states.append(after)
                target = index[after]
            row.append((move, outcome, target))
        successors.append(row)
        i += 1
    to_win = _moves_to_win(successors)
    alive, hold = _survival(successors)

    def outlook(i: int, before: int) -> Outlook:   # state i, after ``before`` moves
        if to_win[i] is not None:
            return Outlook(True, before + to_win[i], None, None)
        if alive[i]:
            return Outlook(False, None, "waits", None)
        return Outlook(False, None, "dies", before + hold[i])

    by_move = {}
    for move in ORDER:
        after, outcome = turn(level, level.start, move)
        by_move[move] = (Outlook(True, 1, None, None) if outcome == WON else
                         Outlook(False, None, "dies", 1) if outcome == DEAD else outlook(index[after], 1))
    whole = outlook(0, 0)
    line = _line(successors, to_win) if whole.win else []
    return Answer(whole.win, whole.moves, line, whole.why, whole.holds_out, len(states), by_move)


def _moves_to_win(successors) -> list[int | None]:
    """Per state, the fewest explorer moves to a won turn (None: no win reachable): a search
    backward from the states with a winning move."""
    before: list[list[int]] = [[] for _ in successors]
    for i, row in enumerate(successors):
        for _move, outcome, target in row:
            if outcome == ON:
                before[target].append(i)
    dist: list[int | None] = [None] * len(successors)
    queue = deque()
    for i, row in enumerate(successors):
        if any(outcome == WON for _m, outcome, _t in row):
            dist[i] = 1
            queue.append(i)
    while queue:
        i = queue.popleft()
        for j in before[i]:
            if dist[j] is None:
                dist[j] = dist[i] + 1
                queue.append(j)
    return dist


def _line(successors, dist) -> list[str]:
    """The least shortest winning line from the start, in the order of ``ORDER``."""
    line, i = [], 0
    while True:
        for move, outcome, target in successors[i]:   # successors are listed in ORDER
            if dist[i] == 1 and outcome == WON:
                return line + [move]
            if dist[i] > 1 and outcome == ON and dist[target] == dist[i] - 1:
                line.append(move)
                i = target
                break


def _survival(successors) -> tuple[list[bool], list[int | None]]:
    """Per state, whether the explorer can play on forever from it, and if not, the most moves
    he can make before he dies (the fatal one included).  Take away, again and again, the states
    whose every move ends the game or leads to a state taken away: those that remain can go on
    forever.  A state is taken away after every state its moves lead to, so its count is one more
    than theirs at the most (1 where every move ends the game)."""
    alive = [True] * len(successors)
    hold: list[int | None] = [None] * len(successors)
    changed = True
    while changed:
        changed = False
        for i, row in enumerate(successors):
            if alive[i] and not any(outcome == ON and alive[target] for _m, outcome, target in row):
                alive[i] = False
                hold[i] = 1 + max((hold[target] for _m, outcome, target in row if outcome == ON), default=0)
                changed = True
    return alive, hold


# --- for people -------------------------------------------------------------------------------

def draw(level: Level, state: State) -> str:
    """The position as text, north up: E explorer, M/N mummies, S scorpion, X exit, T trap,
    K key; walls as | and ---, the gate as : or ... when closed (blank when open)."""
    def edge(a, b) -> str | None:
        e = frozenset({a, b})
        if e in level.walls:
            return "wall"
        if e in level.gates:
            return "open" if state.gate_open else "closed"
        return None

    def glyph(cell) -> str:
        for char, piece in (("E", state.explorer), ("M", state.mummy), ("N", state.mummy2), ("S", state.scorpion)):
            if piece == cell:
                return char
        return "X" if cell in level.exits else "T" if cell in level.traps else "K" if cell == level.key else " "

    rows = ["+" + "---+" * level.width]
    for y in range(level.height, 0, -1):
        row = "|"
        for x in range(1, level.width + 1):
            e = edge((x, y), (x + 1, y)) if x < level.width else "wall"
            row += f" {glyph((x, y))} " + {"wall": "|", "closed": ":", "open": " ", None: " "}[e]
        rows.append(row)
        under = "+"
        for x in range(1, level.width + 1):
            e = edge((x, y), (x, y - 1)) if y > 1 else "wall"
            under += {"wall": "---", "closed": "...", "open": "   ", None: "   "}[e] + "+"
        rows.append(under)
    return "\n".join(rows) + f"\ngate {'open' if state.gate_open else 'closed'}"


def main(argv: list[str]) -> None:
    level = read_board(argv[0])
    if argv[1:]:
        for n, (move, state, outcome) in enumerate(play(level, argv[1:]), 1):
            print(f"{n}. {move}: {outcome}\n{draw(level, state)}")
        return
    answer = solve(level)
    print(draw(level, level.start))
    if answer.win:
        print(f"solved in {answer.moves} moves: {' '.join(answer.line)}")
    else:
        print(f"cannot be won ({answer.why}" + (f": he holds out {answer.holds_out} moves at most)"
                                                 if answer.holds_out else ")"))
    print(f"{answer.states} reachable positions")


if __name__ == "__main__":   # python -m reference.classic BOARD [MOVE ...]
    main(sys.argv[1:])
