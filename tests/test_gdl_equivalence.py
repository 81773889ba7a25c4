"""The shipped seed boards play exactly like their original GDL rule files.

For each seed board (``boards/*.yaml``) and its KIF original (read from ``../shared/reference/gdl/``: ``tests/gdl/reference.py``) a
``Mapping`` translates GDL states to gridsolve positions and back (pieces, side to move,
step, items left, ``was_on`` pairs) and we check, state by state, that

* the layout (cells, walls, pieces, marks) and the step range are the KIF's initial state
  and terminal step;
* a state is terminal in GDL exactly when ``examine`` reports an end or the step limit is
  reached, and then every role's GDL goal is its gridsolve score (``stop_scores``);
* otherwise the GDL joint moves are exactly ``examine``'s moves (the roles not to move in
  gridsolve have a single GDL move), and every move leads to exactly ``examine``'s successor.

The states checked are the first BFS states reachable in GDL in breadth-first order, plus
states taken from seeded random playouts that reach the deep steps and the step limit.  The
GDL interpreter (``reference/gdl.py``) is the oracle; gridsolve is never consulted
about what the right answer is.  To keep the run short, a state whose position differs from
an already examined one only in its step number reuses that examine() answer (see
``Checker.examine``); the GDL side is always computed afresh.

A disagreement does not stop the search: all of them are collected and the test fails
with the smallest ones (fewest plies from the start), GDL state, move and both
successors included.
"""
from __future__ import annotations

import collections
import dataclasses
import functools
import os
import random
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from gridsolve.solve.program.explore import Step, examine, stop_scores  # noqa: E402
from gridsolve.language.loader import load_board  # noqa: E402
from gridsolve.language.position import Position, make_position, make_query  # noqa: E402
from gridsolve.solve.dispatch.dispatcher import solve  # noqa: E402
from reference.gdl import GdlGame, parse_kif, term_sort_key, to_kif  # noqa: E402
from tests.gdl.reference import kif_path  # noqa: E402



@dataclasses.dataclass(frozen=True)
class Seed:
    """A seed board, its KIF original and how the KIF writes what gridsolve keeps."""

    board: str
    kif: str
    policies: dict                  # role -> playout policies (see ``choose``), all combinations cycled
    bfs_states: int = 600           # GDL states checked breadth-first
    playouts: int = 60              # seeded random playouts
    markers: dict = dataclasses.field(default_factory=dict)   # role -> its content in (cell x y c)
    empty: str = ""                 # the content of an empty cell in (cell x y c)
    arrivals: dict = dataclasses.field(default_factory=dict)  # fluent -> the (piece, mark) of was_on it records
    counters: dict = dataclasses.field(default_factory=dict)  # fluent -> the collectible whose taken items it counts
    unreachable: dict = dataclasses.field(default_factory=dict)  # end -> why no game reaches it


MUMMY = {"explorer": ("random", "cautious", "seek exit", "hunt mummy"), "mummy": ("random", "cautious")}
SEEDS = {
    "2007": Seed("mummymaze2p-2007.yaml", "mummyMaze2p_2007.kif", MUMMY),
    "gdl": Seed("mummymaze2p.yaml", "mummymaze2p.kif", MUMMY),
    # the top and bottom loops (by (7,8) and (7,2)) are as long: both can arrive together
    "wallmaze": Seed("wallmaze.yaml", "wallmaze.kif",
                     {"white": ("seek white_goal", "seek 7,8 white_goal", "seek 7,2 white_goal", "random"),
                      "black": ("seek black_goal", "seek 7,2 black_goal", "seek 7,8 black_goal", "random")},
                     bfs_states=300, playouts=40, markers={"white": "a", "black": "b"}, empty="o",
                     arrivals={"whitedone": ("white", "white_goal"), "blackdone": ("black", "black_goal")}),
    "pacman": Seed("pacman3p.yaml", "pacman3p.kif",
                   {"pacman": ("seek pellet", "cautious", "random"),
                    "blinky": ("hunt pacman", "cautious", "random"), "inky": ("cautious", "hunt pacman")},
                   bfs_states=400, playouts=36, counters={"collected": "pellets"},
                   unreachable={"no_pellets": "35 pellets eaten, of 33",
                                "caught_by_both": "both ghosts step in every ghost ply, so they stay on cells of "
                                                  "different colours (x + y even, odd): never on one cell, nor both "
                                                  "next to pacman"}),
}
SEED_IDS = sorted(SEEDS)

# More with e.g. GDL_EQUIV_STATES=20000 GDL_EQUIV_PLAYOUTS=2000 (minutes instead of seconds).
BFS_STATES = os.environ.get("GDL_EQUIV_STATES")     # overrides every seed's bfs_states
PLAYOUTS = os.environ.get("GDL_EQUIV_PLAYOUTS")     # ... and playouts
RECHECK = 10                # every RECHECK-th reuse of an examine() answer runs examine() again
MAX_REPORTED = 5            # disagreements shown in a failure message
WANDER = 0.05               # how often "seek" and "hunt" make a random move instead


@functools.lru_cache(maxsize=None)
def board_of(seed: str):
    return load_board(ROOT / "boards" / SEEDS[seed].board)


@functools.lru_cache(maxsize=None)
def game_of(seed: str) -> GdlGame:
    return GdlGame.from_file(kif_path(SEEDS[seed].kif))


@functools.lru_cache(maxsize=None)
def kif_terms(seed: str) -> list:
    return parse_kif(kif_path(SEEDS[seed].kif).read_text(encoding="utf-8"))


@functools.lru_cache(maxsize=None)
def mapping_of(seed: str) -> "Mapping":
    return Mapping(SEEDS[seed], board_of(seed), game_of(seed))


# ---------------------------------------------------------------------------
# GDL state <-> gridsolve position
# ---------------------------------------------------------------------------

DIRECTIONS = {(0, 1): "north", (0, -1): "south", (1, 0): "east", (-1, 0): "west"}


def move_name(move) -> str:
    """A GDL move in gridsolve's words: (move1 north) -> 'north', (move2 west nowhere) ->
    'west nowhere', noop -> 'nowhere', (move 2 5 3 5) -> 'east'."""
    if move == "noop":
        return "nowhere"
    args = move[1:]
    if len(args) == 4 and all(a.isdigit() for a in args):
        x1, y1, x2, y2 = map(int, args)
        return DIRECTIONS.get((x2 - x1, y2 - y1), to_kif(move))
    return " ".join(args)


def joint_name(joint: dict, movers: tuple) -> str:
    """gridsolve's name of a GDL joint move: the mover's move, or 'blinky north, inky west'."""
    if len(movers) == 1:
        return move_name(joint[movers[0]])
    return ", ".join(f"{r} {move_name(joint[r])}" for r in movers)


def cell_of(fluent) -> tuple[int, int]:
    """The (x, y) of a ``(location what x y)`` or ``(cell x y ...)`` fluent."""
    return (int(fluent[1]), int(fluent[2])) if fluent[0] == "cell" else (int(fluent[2]), int(fluent[3]))


class Mapping:
    """The correspondence between GDL states of one KIF file and positions of one board.

    ``position`` is strict: it rebuilds the GDL state from the position and raises
    ValueError unless that gives back the very state.  The one thing a position does not keep
    is the step at which a piece arrived (wallmaze's ``whitedone``): only whether it was there
    one position before (``was``), so that value is taken over from the GDL state."""

    def __init__(self, seed: Seed, board, game: GdlGame):
        self.seed, self.board, self.game, self.rules = seed, board, game, board.rules
        self.owner = {marker: role for role, marker in seed.markers.items()}
        self.item_of = {c.mark: name for name, c in self.rules.collect.items()}     # mark -> collectible
        initial = game.initial()
        self.static = frozenset(f for f in initial if not self.is_dynamic(f))
        self.open_cells = frozenset(cell_of(f) for f in initial - self.static if f[0] == "cell")
        self.unset = {name: self.value(initial, name) for name in seed.arrivals}
        self.total = {name: sum(1 for f in initial if f[0] == "location" and f[1] == c.mark)
                      for name, c in self.rules.collect.items()}
        self.tokens = self.control_tokens()

    def is_dynamic(self, fluent) -> bool:
        """The fluents a move can change: pieces, items, cell contents, control, step, counters."""
        name = fluent[0]
        if name == "location":
            return fluent[1] in self.rules.roles or fluent[1] in self.item_of
        if name == "cell":
            return len(fluent) == 4 and (fluent[3] in self.owner or fluent[3] == self.seed.empty)
        return name in ("control", "step") or name in self.seed.arrivals or name in self.seed.counters

    def control_tokens(self) -> tuple | None:
        """The ``control`` value in each ``turns`` entry, as the GDL passes it on from the
        initial state (None if the KIF has no control fluent)."""
        g, state, tokens = self.game, self.game.initial(), []
        if not any(f[0] == "control" for f in state):
            return None
        for _ in self.rules.turns:
            tokens.append(self.value(state, "control"))
            state = g.next(state, g.joint_moves(state)[0])
        return tuple(tokens)

    @staticmethod
    def value(state, name: str) -> str:
        values = [f[1] for f in state if f[0] == name and len(f) == 2]
        if len(values) != 1:
            raise ValueError(f"{len(values)} ({name} ...) fluents: {values}")
        return values[0]

    def cells(self, state) -> dict:
        """{role: the cells the GDL puts it on}."""
        out = {r: [] for r in self.rules.roles}
        for f in state:
            if f[0] == "location" and f[1] in out:
                out[f[1]].append(cell_of(f))
            elif f[0] == "cell" and len(f) == 4 and f[3] in self.owner:
                out[self.owner[f[3]]].append(cell_of(f))
        return out

    def position(self, state) -> Position:
        """The gridsolve position of a GDL state; ValueError if the state has no such image."""
        rules = self.rules
        cells = self.cells(state)
        odd = {r: c for r, c in cells.items() if len(c) != 1}
        if odd:
            raise ValueError(f"pieces not on exactly one cell: {odd}")
        side = 0 if self.tokens is None else self.tokens.index(self.value(state, "control"))
        items = tuple((name, frozenset(cell_of(f) for f in state if f[0] == "location" and f[1] == c.mark))
                      for name, c in rules.collect.items()) or None
        was = frozenset(pair for name, pair in self.seed.arrivals.items() if self.value(state, name) != self.unset[name])
        pos = Position(tuple((r, cells[r][0]) for r in rules.roles), side, int(self.value(state, "step")), items, (), was)
        rebuilt = self.state(pos, {f for f in state if f[0] in self.seed.arrivals})
        if rebuilt != state:
            raise ValueError(f"not the state of {show_position(pos)}: only in GDL "
                             f"{sorted(map(to_kif, state - rebuilt))}, missing {sorted(map(to_kif, rebuilt - state))}")
        return pos

    def state(self, pos: Position, arrivals=None) -> frozenset:
        """The GDL state of a gridsolve position, with the ``arrivals`` fluents given for each
        piece in ``pos.was`` (ValueError if one is needed and missing)."""
        seed, rules = self.seed, self.rules
        out = set(self.static)
        for role, (x, y) in pos.pieces:
            out.add(("cell", str(x), str(y), seed.markers[role]) if role in seed.markers else ("location", role, str(x), str(y)))
        taken = {cell for _, cell in pos.pieces}
        out |= {("cell", str(x), str(y), seed.empty) for x, y in self.open_cells - taken}
        left = pos.items_left(self.board)
        for name, c in rules.collect.items():
            out |= {("location", c.mark, str(x), str(y)) for x, y in left[name]}
        for counter, name in seed.counters.items():
            out.add((counter, str(self.total[name] - len(left[name]))))
        if self.tokens is not None:
            out.add(("control", self.tokens[pos.side]))
        out.add(("step", str(pos.step)))
        for name, pair in seed.arrivals.items():
            given = {f for f in arrivals or () if f[0] == name}
            if pair not in pos.was:
                out.add((name, self.unset[name]))
            elif given:
                out |= given
            else:
                raise ValueError(f"{pair} arrived at a step the position does not keep")
        return frozenset(out)

    def normal(self, pos: Position) -> Position:
        """``pos`` with its items spelled out and no lost turns written as (): the form of ``position``."""
        left = pos.items_left(self.board)
        items = tuple((name, frozenset(left[name])) for name in self.rules.collect) or None
        return dataclasses.replace(pos, items=items, lost=pos.lost if any(pos.lost) else ())

    def show(self, state) -> str:
        """The changing part of a GDL state, in KIF (static fluents and empty cells left out,
        items in one list per mark)."""
        if state is None:
            return "-"
        shown, items = [], collections.defaultdict(list)
        for f in sorted((f for f in state if self.is_dynamic(f)), key=term_sort_key):
            if f[0] == "location" and f[1] in self.item_of:
                items[f[1]].append(f"{f[2]},{f[3]}")
            elif not (f[0] == "cell" and f[3] == self.seed.empty):
                shown.append(to_kif(f))
        return " ".join(shown + [f"{len(v)} {mark}: {' '.join(v)}" for mark, v in items.items()])


def show_position(pos) -> str:
    if pos is None:
        return "-"
    parts = [", ".join(f"{r} {x},{y}" for r, (x, y) in pos.pieces), f"side {pos.side}", f"step {pos.step}"]
    parts += [f"{len(left)} {name}: {' '.join(f'{x},{y}' for x, y in sorted(left))}" for name, left in pos.items or ()]
    parts += [f"lost {pos.lost}"] if pos.lost else []
    parts += [f"was on {sorted(pos.was)}"] if pos.was else []
    return "[" + "; ".join(parts) + "]"


@dataclasses.dataclass
class Disagreement:
    ply: int
    what: str
    state: str
    move: str = "-"
    gdl: str = "-"
    gridsolve: str = "-"

    def __str__(self):
        return (f"ply {self.ply}: {self.what}\n  GDL state: {self.state}\n"
                f"  move: {self.move}\n  GDL: {self.gdl}\n  gridsolve: {self.gridsolve}")


class Checker:
    """Checks GDL states against ``examine`` and collects every disagreement."""

    def __init__(self, seed: str):
        self.seed, self.board, self.game = seed, board_of(seed), game_of(seed)
        self.map = mapping_of(seed)
        self.rules = self.board.rules
        self.problems: list[Disagreement] = []
        self.done: dict = {}                        # GDL state -> GDL successors
        self.outcomes = collections.Counter()       # (end or "timeout", scores) of the checked terminal states
        self.max_step = 0
        self.answers: dict = {}                     # position at step 0 -> examine() answer
        self.scores: dict = {}                      # (position at step 0, at the step limit) -> stop_scores()
        self.calls = self.reused = 0

    def examine(self, state, pos: Position):
        """``examine(board, pos)``, reusing the answer for the same position at another step.

        examine() builds its ASP program from everything in the position but the step, which
        enters just as ``successor step = step + 1``.  So a GDL state whose position differs
        from an earlier one only in its step gets the earlier answer with the steps renumbered.
        Every fresh call checks the renumbering, and every RECHECK-th reuse calls examine()
        again and compares."""
        key = dataclasses.replace(pos, step=0)
        known = self.answers.get(key)
        if known is not None:
            self.reused += 1
        if known is None or self.reused % RECHECK == 0:
            self.calls += 1
            end, steps = examine(self.board, pos)
            for s in steps:
                if s.position.step != pos.step + 1:
                    self.fail(state, "successor step is not step + 1", move=s.move,
                              gridsolve=show_position(s.position))
            fresh = (end, tuple((s.move, dataclasses.replace(self.map.normal(s.position), step=0)) for s in steps))
            if known is not None and fresh != known:
                self.fail(state, "examine() answers differently at another step",
                          gdl=str(known), gridsolve=str(fresh))
            self.answers[key] = known = fresh
        end, steps = known
        return end, [Step(move, dataclasses.replace(after, step=pos.step + 1)) for move, after in steps]

    def stop_scores(self, pos: Position) -> dict:
        key = (dataclasses.replace(pos, step=0), pos.step >= self.rules.last_step)
        if key not in self.scores:
            self.scores[key] = stop_scores(self.board, pos)
        return self.scores[key]

    def fail(self, state, what, **kw):
        ply = int(Mapping.value(state, "step")) - self.rules.first_step
        self.problems.append(Disagreement(ply, what, self.map.show(state), **kw))

    def gdl_successors(self, state, movers: tuple) -> dict:
        """{gridsolve name of a GDL joint move: GDL successor}, following the oracle only."""
        g, out = self.game, {}
        for role, moves in g.legal_moves(state).items():
            if role not in movers and len(moves) != 1:
                self.fail(state, f"{role} (not to move) has more than one GDL move", gdl=str(moves))
        for joint in g.joint_moves(state):
            name = joint_name(joint, movers)
            if name in out:
                self.fail(state, "two GDL joint moves have one gridsolve name", move=name)
            out[name] = g.next(state, joint)
        return out

    def check(self, state) -> dict:
        """Check one GDL state; returns its GDL successors (empty when terminal)."""
        if state in self.done:
            return self.done[state]
        self.done[state] = {}
        g, rules = self.game, self.rules
        try:
            pos = self.map.position(state)
        except ValueError:
            return {}       # reported when the move into it was checked
        self.max_step = max(self.max_step, pos.step)
        end, steps = self.examine(state, pos)
        gdl_terminal = g.terminal(state)
        gs_terminal = end is not None or pos.step == rules.last_step
        if gdl_terminal != gs_terminal:
            self.fail(state, "terminal differs", gdl=f"terminal={gdl_terminal}",
                      gridsolve=f"end={end}, step {pos.step} of {rules.last_step}")
        if gdl_terminal:
            if gs_terminal:
                expected = self.stop_scores(pos)
                self.outcomes[end or "timeout", tuple(sorted(expected.items()))] += 1
                goals = g.goals(state)
                if goals != expected:
                    self.fail(state, "scores differ", gdl=f"goals {goals}", gridsolve=f"{end or 'timeout'} {expected}")
            return {}
        successors = self.gdl_successors(state, rules.turns[pos.side])
        self.done[state] = successors
        if gs_terminal:
            return successors
        names = [s.move for s in steps]
        if len(set(names)) != len(names):
            self.fail(state, "examine lists a move twice", gridsolve=str(names))
        ours = {s.move: s.position for s in steps}
        only_gdl = sorted(set(successors) - set(ours))
        only_gs = sorted(set(ours) - set(successors))
        if only_gdl or only_gs:
            self.fail(state, f"legal moves differ: only in GDL {only_gdl}, only in gridsolve {only_gs}",
                      move=" | ".join(only_gdl + only_gs),
                      gdl=" | ".join(f"{m} -> {self.map.show(successors[m])}" for m in only_gdl) or "-",
                      gridsolve=" | ".join(f"{m} -> {show_position(ours[m])}" for m in only_gs) or "-")
        for name in sorted(set(ours) & set(successors)):
            nxt, mine = successors[name], ours[name]
            try:
                image = self.map.position(nxt)
            except ValueError as exc:
                image = f"no position ({exc})"
            if image != mine:
                self.fail(state, "successors differ", move=name,
                          gdl=f"{self.map.show(nxt)} = {show_position(image) if isinstance(image, Position) else image}",
                          gridsolve=show_position(mine))
        return successors

    def report(self) -> str:
        worst = sorted(self.problems, key=lambda p: (p.ply, p.state, p.move))
        lines = [f"{len(self.problems)} disagreement(s) between {self.board.path} and the GDL; "
                 f"the smallest {min(MAX_REPORTED, len(worst))}:"]
        lines += [str(p) for p in worst[:MAX_REPORTED]]
        return "\n".join(lines)


# ---------------------------------------------------------------------------
# 1. static layout, step range, counted ends and score tables
# ---------------------------------------------------------------------------


def kif_walls(seed: str):
    """(north, east) blocked edges of the KIF's initial state, in gridsolve's convention:
    north (x, y) blocks (x, y)-(x, y+1), east (x, y) blocks (x, y)-(x+1, y)."""
    s, board = game_of(seed).initial(), board_of(seed)
    north = {(int(f[1]), int(f[2])) for f in s if f[0] == "blockedNorth"}
    east = {(int(f[1]), int(f[2])) for f in s if f[0] == "blockedEast"}
    walls = {(int(f[1]), int(f[2]), f[3]) for f in s if f[0] == "wall"}
    if walls:
        assert {d for _, _, d in walls} <= {"north", "east"}
        # the border walls: gridsolve's implicit board edge; all of them must be there
        w, h = board.width, board.height
        border = ({(x, y, "north") for x in range(1, w + 1) for y in (0, h)}
                  | {(x, y, "east") for x in (0, w) for y in range(1, h + 1)})
        assert border <= walls, f"border walls missing from the KIF: {sorted(border - walls)}"
        interior = walls - border
        for x, y, d in interior:
            assert 1 <= x <= w and 1 <= y <= h, (x, y, d)
        north |= {(x, y) for x, y, d in interior if d == "north"}
        east |= {(x, y) for x, y, d in interior if d == "east"}
    return north, east


def kif_cells(seed: str) -> set:
    g = game_of(seed)
    s = g.initial()
    fluents = {cell_of(f) for f in s if f[0] == "cell"}
    if fluents:
        return fluents
    return {(int(x), int(y)) for x, y in g.query(s, "cell", 2)}


def kif_constants(seed: str, fluent: str) -> set:
    """Every N of a literal ``(true (fluent N))`` with a constant N in the KIF's rules."""
    found = set()

    def walk(t):
        if isinstance(t, tuple):
            if len(t) == 2 and t[0] == "true" and isinstance(t[1], tuple) and t[1][0] == fluent \
                    and len(t[1]) == 2 and not t[1][1].startswith("?"):
                found.add(int(t[1][1]))
            for s in t:
                walk(s)

    for term in kif_terms(seed):
        walk(term)
    return found


def kif_goal_cells(seed: str, role: str) -> set:
    """The cells that the KIF's ``(goal role 100)`` rules require the role's marker on."""
    marker = SEEDS[seed].markers[role]
    return {(int(lit[1][1]), int(lit[1][2])) for t in kif_terms(seed)
            if isinstance(t, tuple) and t[0] == "<=" and t[1] == ("goal", role, "100")
            for lit in t[2:] if isinstance(lit, tuple) and lit[0] == "true" and lit[1][0] == "cell"
            and lit[1][3] == marker and lit[1][1].isdigit() and lit[1][2].isdigit()}


def kif_marks(seed: str) -> dict:
    """The marked cells of the KIF: ``(location M x y)`` of all that is not a role, and for each
    (piece, mark) that gridsolve's ends and timeouts test with ``reaches``, where the piece is a
    cell marker, the cells its 100-goal requires."""
    rules, s = board_of(seed).rules, game_of(seed).initial()
    out = collections.defaultdict(set)
    for f in s:
        if f[0] == "location" and f[1] not in rules.roles:
            out[f[1]].add(cell_of(f))
    conditions = [e.when for e in rules.ends] + [t.when for t in rules.timeout_when]
    for piece, mark in {pair for when in conditions for pair in when.reaches}:
        if piece in SEEDS[seed].markers:
            out[mark] |= kif_goal_cells(seed, piece)
    return dict(out)


@pytest.mark.parametrize("seed", SEED_IDS)
def test_layout_is_the_kif_initial_state(seed):
    board, g, m = board_of(seed), game_of(seed), mapping_of(seed)
    s = g.initial()
    assert tuple(g.roles) == board.rules.roles
    assert {(x, y) for x in range(1, board.width + 1) for y in range(1, board.height + 1)} == kif_cells(seed)
    assert board.solid == {cell_of(f) for f in m.static if f[0] == "cell" and len(f) == 4}
    north, east = kif_walls(seed)
    assert set(board.north) == north, (sorted(set(board.north) - north), sorted(north - set(board.north)))
    assert set(board.east) == east, (sorted(set(board.east) - east), sorted(east - set(board.east)))
    assert {piece: [cell] for piece, cell in board.pieces.items()} == m.cells(s)
    assert {mark: set(cells) for mark, cells in board.marks.items()} == kif_marks(seed)
    # the whole initial state, both ways
    assert m.position(s) == m.normal(make_position(board))
    assert m.state(make_position(board)) == s


@pytest.mark.parametrize("seed", SEED_IDS)
def test_step_range_is_the_kifs(seed):
    board, g, m = board_of(seed), game_of(seed), mapping_of(seed)
    (last,) = kif_constants(seed, "step")
    assert board.rules.first_step == int(Mapping.value(g.initial(), "step"))
    assert board.rules.last_step == last
    # and that N really is the step limit of the initial layout
    start = make_position(board)
    at = lambda n: m.state(dataclasses.replace(start, step=n))  # noqa: E731
    assert not g.terminal(at(last - 1))
    assert g.terminal(at(last))
    assert g.goals(at(last)) == stop_scores(board, dataclasses.replace(start, step=last))


def with_fluent(state, name: str, value: int) -> frozenset:
    return frozenset({f for f in state if f[0] != name} | {(name, str(value))})


@pytest.mark.parametrize("seed", [s for s in SEED_IDS if SEEDS[s].counters])
def test_counted_ends_and_score_tables_are_the_kifs(seed):
    """Also where play cannot go: an end on items taken holds from the KIF's count on, and
    every entry of a score table is the KIF's goal at that count (initial layout otherwise)."""
    rules, g = board_of(seed).rules, game_of(seed)
    s, checked = g.initial(), 0
    for counter, name in SEEDS[seed].counters.items():
        for end in rules.ends:
            for n in (n for item, n in end.when.collected if item == name):
                assert not g.terminal(with_fluent(s, counter, n - 1)) and g.terminal(with_fluent(s, counter, n)), end.name
                checked += 1
        for table in (t for t in rules.tables.values() if t.count == name):
            roles = [r for r in rules.roles if rules.timeout[r] == table.name]
            assert roles, table.name
            for n, value in enumerate(table.values):
                assert {r: g.goal(with_fluent(s, counter, n), r) for r in roles} == dict.fromkeys(roles, value), n
                checked += 1
    assert checked


# ---------------------------------------------------------------------------
# 2. transitions: breadth-first, then random playouts
# ---------------------------------------------------------------------------


def budget(seed: str) -> tuple[int, int]:
    """(GDL states checked breadth-first, playouts) for a seed."""
    s = SEEDS[seed]
    return int(BFS_STATES or s.bfs_states), int(PLAYOUTS or s.playouts)


@pytest.fixture(scope="module")
def checkers():
    return {seed: Checker(seed) for seed in SEED_IDS}


@pytest.mark.slow
@pytest.mark.parametrize("seed", SEED_IDS)
def test_breadth_first_transitions_match_gdl(seed, checkers):
    c = checkers[seed]
    start = c.game.initial()
    frontier, seen, checked = collections.deque([start]), {start}, 0
    while frontier and checked < budget(seed)[0]:
        state = frontier.popleft()
        for nxt in c.check(state).values():
            if nxt not in seen:
                seen.add(nxt)
                frontier.append(nxt)
        checked += 1
    assert checked == budget(seed)[0], f"only {checked} reachable states"
    assert not c.problems, c.report()


@functools.lru_cache(maxsize=None)
def move_graph(seed: str, role: str) -> dict:
    """{cell: cells that reach it in one move of ``role``}, by the GDL's own moves, with every
    other piece on the same cell (so that none stands in the way)."""
    m, g, board = mapping_of(seed), game_of(seed), board_of(seed)
    start = make_position(board)
    graph = collections.defaultdict(set)
    for x in range(1, board.width + 1):
        for y in range(1, board.height + 1):
            if (x, y) in board.solid:
                continue
            pieces = tuple((r, (x, y)) for r in board.rules.roles)
            state = m.state(dataclasses.replace(start, pieces=pieces, side=board.rules.side_of(role)))
            legal = g.legal_moves(state)
            others = {r: moves[0] for r, moves in legal.items()}
            for move in legal[role]:
                for to in m.cells(g.next(state, {**others, role: move}))[role]:
                    graph[to].add((x, y))
    return graph


@functools.lru_cache(maxsize=4096)
def distances(seed: str, role: str, targets: frozenset, avoid: frozenset = frozenset()) -> dict:
    """{cell: moves ``role`` needs from it to the nearest of ``targets``, not through ``avoid``}."""
    graph, dist = move_graph(seed, role), dict.fromkeys(targets, 0)
    frontier = collections.deque(targets)
    while frontier:
        cell = frontier.popleft()
        for prev in graph[cell]:
            if prev not in dist and prev not in avoid:
                dist[prev] = dist[cell] + 1
                frontier.append(prev)
    return dist


def target_cells(c: Checker, state, target: str) -> frozenset:
    """The cells of a piece, of the items with that mark still in the GDL state, of a mark, or
    the cell "x,y"."""
    if target in c.rules.roles:
        return frozenset(c.map.cells(state)[target])
    if re.fullmatch(r"\d+,\d+", target):
        return frozenset({tuple(map(int, target.split(",")))})
    items = frozenset(cell_of(f) for f in state if f[0] == "location" and f[1] == target)
    return items or frozenset(c.board.marks[target])


def wins(game: GdlGame, state, role: str) -> bool:
    goals = game.goals(state)
    return goals[role] >= max(goals.values())


def choose(c: Checker, state, role: str, legal: dict, kind: str, target: str, rng: random.Random):
    """A move of ``role`` by policy ``kind``: "random"; "cautious" avoids moves that end the
    game when it can; "seek" walks a shortest way to ``target`` around the other pieces,
    avoiding ends it does not win when it can; "hunt" walks a shortest way whatever is on it
    and whatever the end.  These two make a random move one time in 1/WANDER.  A move is
    judged by where it leads with every other role making its first legal move."""
    g, moves = c.game, legal[role]
    if len(moves) == 1 or kind == "random" or (kind != "cautious" and rng.random() < WANDER):
        return rng.choice(moves)
    first = {r: ms[0] for r, ms in legal.items()}
    after = {m: g.next(state, {**first, role: m}) for m in moves}
    options = [m for m in moves if not g.terminal(after[m]) or (kind == "seek" and wins(g, after[m], role))]
    if kind == "hunt" or not options:
        options = moves
    if kind == "cautious":
        return rng.choice(options)
    targets = target_cells(c, state, target)
    others = frozenset(cell for r, cells in c.map.cells(state).items() if r != role for cell in cells)
    dist = distances(c.seed, role, targets, frozenset() if kind == "hunt" else others - targets)
    far = lambda m: min((dist.get(cell, 10 ** 6) for cell in c.map.cells(after[m])[role]), default=10 ** 6)  # noqa: E731
    best = min(map(far, options))
    return rng.choice([m for m in options if far(m) == best])


def policy(seed: str, n: int) -> dict:
    """The n-th combination (cycling) of the roles' playout policies."""
    out = {}
    for role, options in SEEDS[seed].policies.items():
        out[role] = options[n % len(options)]
        n //= len(options)
    return out


def playout(c: Checker, rng: random.Random, policies: dict) -> list:
    """A random game to its end, by the GDL alone.  A policy is a kind (see ``choose``) and
    for "seek" and "hunt" one or more targets, taken in turn: "seek 7,8 white_goal" goes to the
    cell (7,8) first."""
    g = c.game
    plans = {role: how.split() for role, how in policies.items()}
    state = g.initial()
    path = [state]
    while not g.terminal(state):
        for role, plan in plans.items():
            if len(plan) > 2 and set(c.map.cells(state)[role]) & target_cells(c, state, plan[1]):
                del plan[1]
        legal = g.legal_moves(state)
        state = g.next(state, {r: choose(c, state, r, legal, plan[0], (plan[1:] or [""])[0], rng)
                               for r, plan in plans.items()})
        path.append(state)
    return path


@pytest.mark.slow
@pytest.mark.parametrize("seed", SEED_IDS)
def test_random_playouts_match_gdl(seed, checkers):
    """States along seeded random games to every depth: the end of each game, the move into
    it, and one random state deeper than the breadth-first search went."""
    c = checkers[seed]
    rng = random.Random(f"gdl-equivalence-{seed}")
    shallow = c.max_step - c.rules.first_step       # plies the breadth-first search reached
    lengths = []
    for n in range(budget(seed)[1]):
        path = playout(c, rng, policy(seed, n))
        lengths.append(len(path) - 1)
        picks = {len(path) - 1, len(path) - 2}
        deep = range(shallow + 1, len(path) - 2)        # path[i] is the state after i plies
        if deep:
            picks.add(rng.choice(deep))
        for i in sorted(picks):
            c.check(path[i])
    assert not c.problems, c.report()
    # the playouts did reach the interesting places: the step limit, every end but the
    # unreachable ones, and at least as many different timeout scores as timeout entries
    assert c.max_step == c.rules.last_step
    assert max(lengths) == c.rules.last_step - c.rules.first_step
    ends = {end for end, _ in c.outcomes}
    assert ends == {end.name for end in c.rules.ends} - set(SEEDS[seed].unreachable) | {"timeout"}, c.outcomes
    assert len({scores for end, scores in c.outcomes if end == "timeout"}) > len(c.rules.timeout_when), c.outcomes


# ---------------------------------------------------------------------------
# 3. the prose variant of the 2007 rules
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def prose_board(tmp_path_factory):
    text = (ROOT / "boards" / SEEDS["2007"].board).read_text(encoding="utf-8")
    text, n = re.subn(r"(?m)^rules: mummy-maze-2007$", "rules: mummy-maze-2007-prose", text)
    assert n == 1
    path = tmp_path_factory.mktemp("prose") / "prose.yaml"
    path.write_text(text, encoding="utf-8")
    return load_board(path)


def test_prose_rules_differ_only_in_may_not_end_on(prose_board):
    base = board_of("2007")
    assert prose_board.rules.moves["mummy"].may_not_end_on == ("explorer",)
    assert base.rules.moves["mummy"].may_not_end_on == ()
    same = dataclasses.replace(prose_board.rules.moves["mummy"], may_not_end_on=())
    assert same == base.rules.moves["mummy"]
    assert prose_board.rules.moves["explorer"] == base.rules.moves["explorer"]
    for attr in ("roles", "turns", "ends", "first_step", "last_step", "timeout"):
        assert getattr(prose_board.rules, attr) == getattr(base.rules, attr), attr
    assert (prose_board.north, prose_board.east, prose_board.pieces, prose_board.marks) == \
        (base.north, base.east, base.pieces, base.marks)


def prose_positions(base):
    """Mummy-to-move positions with the explorer on a cell the mummy can end on (some of them
    the middle of a two-step move too), one where it cannot reach the explorer, and
    explorer-to-move positions."""
    rng = random.Random("prose")
    cells = [(x, y) for x in range(1, base.width + 1) for y in range(1, base.height + 1)]
    out = []
    while len(out) < 8:
        mummy = rng.choice(cells)
        _, steps = examine(base, Position((("explorer", (8, 8)), ("mummy", mummy)), 1, 2))
        targets = sorted({s.position.cell("mummy") for s in steps} - {(8, 8)})
        if targets:
            out.append(Position((("explorer", rng.choice(targets)), ("mummy", mummy)), 1, 2 * len(out) + 2))
    out.append(Position((("explorer", (8, 8)), ("mummy", (1, 1))), 1, 10))       # out of reach
    out.append(Position((("explorer", (2, 5)), ("mummy", (1, 5))), 0, 3))        # explorer to move, next to it
    out.append(Position((("explorer", (6, 3)), ("mummy", (7, 3))), 0, 5))
    return out


@pytest.mark.slow
def test_prose_variant_removes_exactly_the_mummy_moves_ending_on_the_explorer(prose_board):
    base = board_of("2007")
    # the explorer on the middle cell of 'west north' and the end cell of 'west nowhere'
    pos = Position((("explorer", (1, 5)), ("mummy", (2, 5))), 1, 2)
    assert [s.move for s in examine(base, pos)[1]] == ["west north", "west nowhere"]
    assert [s.move for s in examine(prose_board, pos)[1]] == ["west north"]
    removed_total = 0
    for pos in prose_positions(base):
        base_end, base_steps = examine(base, pos)
        prose_end, prose_steps = examine(prose_board, pos)
        assert prose_end == base_end, pos
        if pos.side == 1:
            explorer = pos.cell("explorer")
            expected = [s for s in base_steps if s.position.cell("mummy") != explorer]
        else:
            expected = base_steps
        assert prose_steps == expected, (show_position(pos),
                                         sorted(set(s.move for s in base_steps) - set(s.move for s in prose_steps)))
        removed_total += len(base_steps) - len(prose_steps)
    assert removed_total >= 8   # every mummy-to-move sample above loses at least one move


# ---------------------------------------------------------------------------
# sanity: the solver's values near the step limit are the GDL minimax values
# ---------------------------------------------------------------------------


def gdl_value(seed: str, state, role: str, memo: dict) -> int:
    """The GDL minimax value for ``role`` (max where it moves, min elsewhere)."""
    game = game_of(seed)
    if state in memo:
        return memo[state]
    if game.terminal(state):
        value = game.goal(state, role)
    else:
        values = [gdl_value(seed, game.next(state, joint), role, memo) for joint in game.joint_moves(state)]
        movers = board_of(seed).rules.turns[mapping_of(seed).position(state).side]
        value = max(values) if role in movers else min(values)
    memo[state] = value
    return value


@pytest.mark.slow
@pytest.mark.parametrize("seed", ["2007", "gdl"])      # two players, one moving a ply: plain minimax
def test_solver_values_near_the_step_limit_are_gdl_minimax(seed):
    board, g, m = board_of(seed), game_of(seed), mapping_of(seed)
    rng = random.Random(f"solve-{seed}")
    cells = [(x, y) for x in range(1, board.width + 1) for y in range(1, board.height + 1)]
    step = board.rules.last_step - 3
    for _ in range(2):
        explorer, mummy = rng.sample(cells, 2)
        at = (f"explorer={explorer[0]},{explorer[1]}", f"mummy={mummy[0]},{mummy[1]}")
        query = make_query(board, "explorer", "value", at=at, step=step)
        answer = solve(board, query)
        state = m.state(query.position)
        memo: dict = {}
        assert answer.value == gdl_value(seed, state, "explorer", memo), m.show(state)
        movers = board.rules.turns[query.position.side]
        joints = {joint_name(joint, movers): joint for joint in g.joint_moves(state)}
        for mv in answer.moves:
            nxt = g.next(state, joints[mv.move], check_legal=True)
            assert mv.value == gdl_value(seed, nxt, "explorer", memo), (m.show(state), mv.move)
