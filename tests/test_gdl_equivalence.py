"""The shipped seed boards play exactly like their original GDL rule files.

For each seed board (``boards/*.yaml``) and its KIF original (``tests/gdl/kif/``) we
map GDL states to gridsolve positions and back (pieces, side to move from ``control``,
step number) and check, state by state, that

* the layout (walls, pieces, exit) and the step range are the KIF's initial state and
  terminal step;
* a state is terminal in GDL exactly when ``examine`` reports an end or the step limit is
  reached, and then both roles' GDL goals are the gridsolve scores (the deciding end's,
  else the timeout scores);
* otherwise the GDL legal moves of the player in control are exactly ``examine``'s moves
  and every move leads to exactly ``examine``'s successor.

The states checked are the first ``BFS_STATES`` reachable GDL states in breadth-first
order, plus states taken from seeded random playouts that reach the deep steps and the
step limit.  The GDL interpreter (``tests/gdl/interpreter.py``) is the oracle; gridsolve
is never consulted about what the right answer is.  To keep the run short, a state that
differs from an already examined one only in its step number reuses that examine()
answer (see ``Checker.examine``); the GDL side is always computed afresh.

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

from gridsolve.explore import Step, examine  # noqa: E402
from gridsolve.loader import load_board  # noqa: E402
from gridsolve.position import Position, make_position, make_query  # noqa: E402
from gridsolve.solver import solve  # noqa: E402
from tests.gdl.interpreter import GdlGame, parse_kif, to_kif  # noqa: E402

KIF_DIR = ROOT / "tests" / "gdl" / "kif"
SEEDS = {
    "2007": (ROOT / "boards" / "mummymaze2p-2007.yaml", KIF_DIR / "mummyMaze2p_2007.kif"),
    "gdl": (ROOT / "boards" / "mummymaze2p.yaml", KIF_DIR / "mummymaze2p.kif"),
}
SEED_IDS = sorted(SEEDS)

# More with e.g. GDL_EQUIV_STATES=20000 GDL_EQUIV_PLAYOUTS=2000 (minutes instead of seconds).
BFS_STATES = int(os.environ.get("GDL_EQUIV_STATES", 600))   # GDL states checked breadth-first, per board
PLAYOUTS = int(os.environ.get("GDL_EQUIV_PLAYOUTS", 60))    # seeded random playouts per board
RECHECK = 10                # every RECHECK-th reuse of an examine() answer runs examine() again
MAX_REPORTED = 5            # disagreements shown in a failure message

# The move a role makes while the other one is in control: GDL needs one, gridsolve has none.
IDLE = {"explorer": ("move1", "nowhere"), "mummy": ("move2", "nowhere", "nowhere")}
SIZE = 8


@functools.lru_cache(maxsize=None)
def board_of(seed: str):
    return load_board(SEEDS[seed][0])


@functools.lru_cache(maxsize=None)
def game_of(seed: str) -> GdlGame:
    return GdlGame.from_file(SEEDS[seed][1])


@functools.lru_cache(maxsize=None)
def kif_terms(seed: str) -> list:
    return parse_kif(SEEDS[seed][1].read_text(encoding="utf-8"))


# ---------------------------------------------------------------------------
# GDL state <-> gridsolve position
# ---------------------------------------------------------------------------


def is_dynamic(fluent) -> bool:
    """The fluents a move can change: piece locations (not the exit's), control, step."""
    return isinstance(fluent, tuple) and (
        (fluent[0] == "location" and fluent[1] in IDLE) or fluent[0] in ("control", "step"))


def show_state(state) -> str:
    """The changing part of a GDL state, in KIF (the static walls and exit are left out)."""
    if state is None:
        return "-"
    return " ".join(to_kif(f) for f in sorted((f for f in state if is_dynamic(f)), key=str))


def show_position(pos) -> str:
    if pos is None:
        return "-"
    pieces = ", ".join(f"{r} {x},{y}" for r, (x, y) in pos.pieces)
    return f"[{pieces}; side {pos.side}; step {pos.step}]"


def move_name(move) -> str:
    """GDL (move1 north) -> 'north'; (move2 west nowhere) -> 'west nowhere'."""
    assert isinstance(move, tuple) and move[0] == f"move{len(move) - 1}", move
    return " ".join(move[1:])


class Mapping:
    """The correspondence between GDL states of one KIF file and positions of one board."""

    def __init__(self, board, game: GdlGame):
        self.board, self.game, self.rules = board, game, board.rules
        initial = game.initial()
        self.static = frozenset(f for f in initial if not is_dynamic(f))

    def position(self, state) -> Position:
        """The gridsolve position of a GDL state; ValueError if the state has no such image."""
        rules = self.rules
        if not self.static <= state:
            raise ValueError(f"static fluents lost: {sorted(map(to_kif, self.static - state))}")
        dynamic = state - self.static
        odd = [f for f in dynamic if not is_dynamic(f)]
        if odd:
            raise ValueError(f"static fluents added: {sorted(map(to_kif, odd))}")
        pieces = []
        for role in rules.roles:
            cells = [(int(f[2]), int(f[3])) for f in dynamic if f[0] == "location" and f[1] == role]
            if len(cells) != 1:
                raise ValueError(f"{len(cells)} locations for {role}: {cells}")
            pieces.append((role, cells[0]))
        control = [f[1] for f in dynamic if f[0] == "control"]
        steps = [int(f[1]) for f in dynamic if f[0] == "step"]
        if len(control) != 1 or len(steps) != 1:
            raise ValueError(f"need one control and one step fluent, got {control} and {steps}")
        return Position(tuple(pieces), rules.side_of(control[0]), steps[0])

    def state(self, pos: Position) -> frozenset:
        """The GDL state of a gridsolve position."""
        (mover,) = self.rules.turns[pos.side]
        dynamic = {("location", r, str(x), str(y)) for r, (x, y) in pos.pieces}
        dynamic |= {("control", mover), ("step", str(pos.step))}
        return self.static | dynamic


@dataclasses.dataclass
class Disagreement:
    ply: int
    what: str
    state: frozenset
    move: str = "-"
    gdl: str = "-"
    gridsolve: str = "-"

    def __str__(self):
        return (f"ply {self.ply}: {self.what}\n  GDL state: {show_state(self.state)}\n"
                f"  move: {self.move}\n  GDL: {self.gdl}\n  gridsolve: {self.gridsolve}")


class Checker:
    """Checks GDL states against ``examine`` and collects every disagreement."""

    def __init__(self, seed: str):
        self.board, self.game = board_of(seed), game_of(seed)
        self.map = Mapping(self.board, self.game)
        self.rules = self.board.rules
        self.ends = {end.name: end for end in self.rules.ends}
        self.problems: list[Disagreement] = []
        self.done: dict = {}                        # GDL state -> GDL successors
        self.outcomes = collections.Counter()       # how the checked terminal states ended
        self.max_step = 0
        self.answers: dict = {}                     # (pieces, side) -> examine() answer
        self.calls = self.reused = 0

    def examine(self, state, pos: Position):
        """``examine(board, pos)``, reusing the answer for the same pieces and side at another step.

        examine() builds its ASP program from the pieces and the side only; the step enters just
        as ``successor step = step + 1``.  So a GDL state that differs from an earlier one only in
        its step gets the earlier answer with the steps renumbered.  Every fresh call checks the
        renumbering, and every RECHECK-th reuse calls examine() again and compares."""
        key = (pos.pieces, pos.side)
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
            fresh = (end, tuple((s.move, s.position.pieces, s.position.side) for s in steps))
            if known is not None and fresh != known:
                self.fail(state, "examine() answers differently at another step",
                          gdl=str(known), gridsolve=str(fresh))
            self.answers[key] = known = fresh
        end, steps = known
        return end, [Step(move, Position(pieces, side, pos.step + 1)) for move, pieces, side in steps]

    def fail(self, state, what, **kw):
        ply = self.map.position(state).step - self.rules.first_step
        self.problems.append(Disagreement(ply, what, state, **kw))

    def gdl_successors(self, state) -> dict:
        """{GDL move of the player in control: GDL successor}, following the oracle only."""
        g = self.game
        control, other = control_of(state)
        return {m: g.next(state, {control: m, other: IDLE[other]}) for m in g.legal(state, control)}

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
                expected = self.ends[end].scores if end is not None else rules.timeout
                self.outcomes[end or "timeout"] += 1
                goals = g.goals(state)
                if goals != dict(expected):
                    self.fail(state, "scores differ", gdl=f"goals {goals}",
                              gridsolve=f"{end or 'timeout'} {dict(expected)}")
            return {}
        successors = self.gdl_successors(state)
        self.done[state] = successors
        if gs_terminal:
            return successors
        mover = rules.turns[pos.side][0]
        for role in rules.roles:
            if role != mover and g.legal(state, role) != [IDLE[role]]:
                self.fail(state, f"{role} (not in control) has other GDL moves than the idle one",
                          gdl=str(g.legal(state, role)))
        names = [s.move for s in steps]
        if len(set(names)) != len(names):
            self.fail(state, "examine lists a move twice", gridsolve=str(names))
        ours = {s.move: s.position for s in steps}
        theirs = {move_name(m): nxt for m, nxt in successors.items()}
        if set(ours) != set(theirs):
            only_gdl = sorted(set(theirs) - set(ours))
            only_gs = sorted(set(ours) - set(theirs))
            self.fail(state, f"legal moves of {mover} differ: only in GDL {only_gdl}, only in gridsolve {only_gs}",
                      move=", ".join(only_gdl + only_gs),
                      gdl=" | ".join(f"{m} -> {show_state(theirs[m])}" for m in only_gdl) or "-",
                      gridsolve=" | ".join(f"{m} -> {show_position(ours[m])}" for m in only_gs) or "-")
        for name in sorted(set(ours) & set(theirs)):
            nxt, mine = theirs[name], ours[name]
            if self.map.state(mine) != nxt:     # (state() is one-to-one and position() its inverse)
                try:
                    image = self.map.position(nxt)
                except ValueError as exc:
                    image = f"no position ({exc})"
                self.fail(state, "successors differ", move=name,
                          gdl=f"{show_state(nxt)} = {show_position(image) if isinstance(image, Position) else image}",
                          gridsolve=show_position(mine))
        return successors

    def report(self) -> str:
        worst = sorted(self.problems, key=lambda p: (p.ply, show_state(p.state), p.move))
        lines = [f"{len(self.problems)} disagreement(s) between {self.board.path} and the GDL; "
                 f"the smallest {min(MAX_REPORTED, len(worst))}:"]
        lines += [str(p) for p in worst[:MAX_REPORTED]]
        return "\n".join(lines)


# ---------------------------------------------------------------------------
# 1. static layout and step range
# ---------------------------------------------------------------------------


def locations(state) -> dict:
    out = collections.defaultdict(set)
    for f in state:
        if f[0] == "location":
            out[f[1]].add((int(f[2]), int(f[3])))
    return out


def kif_walls(seed: str):
    """(north, east) blocked edges of the KIF's initial state, in gridsolve's convention:
    north (x, y) blocks (x, y)-(x, y+1), east (x, y) blocks (x, y)-(x+1, y)."""
    s = game_of(seed).initial()
    if seed == "2007":
        north = {(int(f[1]), int(f[2])) for f in s if f[0] == "blockedNorth"}
        east = {(int(f[1]), int(f[2])) for f in s if f[0] == "blockedEast"}
        return north, east
    walls = {(int(f[1]), int(f[2]), f[3]) for f in s if f[0] == "wall"}
    assert {d for _, _, d in walls} <= {"north", "east"}
    # the border walls: gridsolve's implicit board edge; all of them must be there
    border = ({(x, y, "north") for x in range(1, SIZE + 1) for y in (0, SIZE)}
              | {(x, y, "east") for x in (0, SIZE) for y in range(1, SIZE + 1)})
    assert border <= walls, f"border walls missing from the KIF: {sorted(border - walls)}"
    interior = walls - border
    for x, y, d in interior:
        assert 1 <= x <= SIZE and 1 <= y <= SIZE, (x, y, d)
    return ({(x, y) for x, y, d in interior if d == "north"}, {(x, y) for x, y, d in interior if d == "east"})


def kif_cells(seed: str) -> set:
    g = game_of(seed)
    s = g.initial()
    fluents = {(int(f[1]), int(f[2])) for f in s if f[0] == "cell"}
    if fluents:
        return fluents
    return {(int(x), int(y)) for x, y in g.query(s, "cell", 2)}


def kif_timeout_step(seed: str) -> int:
    """N of the one literal ``(true (step N))`` with a constant N in the KIF's rules."""
    found = set()

    def walk(t):
        if isinstance(t, tuple):
            if len(t) == 2 and t[0] == "true" and isinstance(t[1], tuple) and t[1][0] == "step" \
                    and len(t[1]) == 2 and not t[1][1].startswith("?"):
                found.add(int(t[1][1]))
            for s in t:
                walk(s)

    for term in kif_terms(seed):
        walk(term)
    assert len(found) == 1, f"expected one terminal step in the KIF, found {found}"
    return found.pop()


@pytest.mark.parametrize("seed", SEED_IDS)
def test_layout_is_the_kif_initial_state(seed):
    board, g = board_of(seed), game_of(seed)
    s = g.initial()
    assert tuple(g.roles) == board.rules.roles == ("explorer", "mummy")
    assert board.rules.turns == (("explorer",), ("mummy",))
    assert (board.width, board.height) == (SIZE, SIZE)
    assert board.solid == frozenset()
    assert {(x, y) for x in range(1, SIZE + 1) for y in range(1, SIZE + 1)} == kif_cells(seed)
    north, east = kif_walls(seed)
    assert set(board.north) == north, (sorted(set(board.north) - north), sorted(north - set(board.north)))
    assert set(board.east) == east, (sorted(set(board.east) - east), sorted(east - set(board.east)))
    locs = locations(s)
    assert set(locs) == {"explorer", "mummy", "exit"}
    assert {piece: {cell} for piece, cell in board.pieces.items()} == {r: locs[r] for r in ("explorer", "mummy")}
    assert set(board.marks) == {"exit"}
    assert set(board.marks["exit"]) == locs["exit"]
    # the whole initial state, both ways
    m = Mapping(board, g)
    assert m.position(s) == make_position(board)
    assert m.state(make_position(board)) == s


@pytest.mark.parametrize("seed", SEED_IDS)
def test_step_range_is_the_kifs(seed):
    board, g = board_of(seed), game_of(seed)
    s = g.initial()
    (first,) = [int(f[1]) for f in s if f[0] == "step"]
    last = kif_timeout_step(seed)
    assert board.rules.first_step == first
    assert board.rules.last_step == last
    # and that N really is the step limit of the initial layout
    with_step = lambda n: frozenset({f for f in s if f[0] != "step"} | {("step", str(n))})  # noqa: E731
    assert not g.terminal(with_step(last - 1))
    assert g.terminal(with_step(last))
    assert g.goals(with_step(last)) == board.rules.timeout


# ---------------------------------------------------------------------------
# 2. transitions: breadth-first, then random playouts
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def checkers():
    return {seed: Checker(seed) for seed in SEED_IDS}


@pytest.mark.parametrize("seed", SEED_IDS)
def test_breadth_first_transitions_match_gdl(seed, checkers):
    c = checkers[seed]
    start = c.game.initial()
    frontier, seen, checked = collections.deque([start]), {start}, 0
    while frontier and checked < BFS_STATES:
        state = frontier.popleft()
        for nxt in c.check(state).values():
            if nxt not in seen:
                seen.add(nxt)
                frontier.append(nxt)
        checked += 1
    assert checked == BFS_STATES, f"only {checked} reachable states"
    assert not c.problems, c.report()


def control_of(state) -> tuple[str, str]:
    """(role in control, the other role) of a GDL state."""
    control = next(f[1] for f in state if f[0] == "control")
    return control, next(r for r in IDLE if r != control)


@functools.lru_cache(maxsize=None)
def exit_distances(seed: str) -> dict:
    """Explorer moves needed from each cell to the exit, by the GDL's own explorer moves
    (they do not depend on the mummy in either file)."""
    g = game_of(seed)
    s = g.initial()
    (exit_cell,) = locations(s)["exit"]
    graph = collections.defaultdict(set)            # cell -> cells that reach it in one move
    for x in range(1, SIZE + 1):
        for y in range(1, SIZE + 1):
            here = frozenset({f for f in s if not (f[0] == "location" and f[1] == "explorer")}
                             | {("location", "explorer", str(x), str(y))})
            for m in g.legal(here, "explorer"):
                (to,) = locations(g.next(here, {"explorer": m, "mummy": IDLE["mummy"]}))["explorer"]
                graph[to].add((x, y))
    dist, frontier = {exit_cell: 0}, collections.deque([exit_cell])
    while frontier:
        cell = frontier.popleft()
        for prev in graph[cell]:
            if prev not in dist:
                dist[prev] = dist[cell] + 1
                frontier.append(prev)
    return dist


def playout(seed: str, rng: random.Random, policy: dict) -> list:
    """A random game to its end, by the GDL alone.  Policies: "random"; "cautious" avoids
    moves that end the game when it can (which drives the game to the step limit); for the
    explorer also "seeker", which walks a shortest way to the exit, avoiding capture when it
    can, and "reckless", which walks straight at the mummy."""
    game = game_of(seed)
    state, path = game.initial(), [game.initial()]
    while not game.terminal(state):
        control, other = control_of(state)
        moves = game.legal(state, control)
        rng.shuffle(moves)
        how = policy[control]
        after = lambda m: game.next(state, {control: m, other: IDLE[other]})  # noqa: E731
        if how == "random":
            options = [after(moves[0])]
        elif how == "cautious":
            options = [next((n for n in map(after, moves) if not game.terminal(n)), after(moves[0]))]
        elif how == "reckless":
            options = [after(m) for m in moves]
            (mummy,) = locations(state)["mummy"]
            near = lambda n: sum(abs(a - b) for a, b in zip(min(locations(n)[control]), mummy))  # noqa: E731
            best = min(map(near, options))
            options = [n for n in options if near(n) == best]
        else:
            options = [after(m) for m in moves]
            dist = exit_distances(seed)
            safe = [n for n in options if not game.terminal(n) or game.goal(n, control) > 0] or options
            best = min(dist.get(min(locations(n)[control]), 10 ** 6) for n in safe)
            options = [n for n in safe if dist.get(min(locations(n)[control]), 10 ** 6) == best]
        state = rng.choice(options)
        path.append(state)
    return path


@pytest.mark.parametrize("seed", SEED_IDS)
def test_random_playouts_match_gdl(seed, checkers):
    """States along seeded random games to every depth: the end of each game, the move into
    it, and one random state deeper than the breadth-first search went."""
    c = checkers[seed]
    rng = random.Random(f"gdl-equivalence-{seed}")
    shallow = c.max_step - c.rules.first_step       # plies the breadth-first search reached
    lengths = []
    for n in range(PLAYOUTS):
        policy = {"explorer": ("random", "cautious", "seeker", "reckless")[n % 4],
                  "mummy": rng.choice(("random", "cautious", "cautious"))}
        path = playout(seed, rng, policy)
        lengths.append(len(path) - 1)
        picks = {len(path) - 1, len(path) - 2}
        deep = range(shallow + 1, len(path) - 2)        # path[i] is the state after i plies
        if deep:
            picks.add(rng.choice(deep))
        for i in sorted(picks):
            c.check(path[i])
    assert not c.problems, c.report()
    # the playouts did reach the interesting places
    assert c.max_step == c.rules.last_step
    assert set(c.outcomes) == {end.name for end in c.rules.ends} | {"timeout"}, c.outcomes
    assert max(lengths) == c.rules.last_step - c.rules.first_step


# ---------------------------------------------------------------------------
# 3. the prose variant of the 2007 rules
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def prose_board(tmp_path_factory):
    text = SEEDS["2007"][0].read_text(encoding="utf-8")
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
    cells = [(x, y) for x in range(1, SIZE + 1) for y in range(1, SIZE + 1)]
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


def gdl_value(game: GdlGame, state, role: str, memo: dict) -> int:
    if state in memo:
        return memo[state]
    if game.terminal(state):
        value = game.goal(state, role)
    else:
        control, other = control_of(state)
        values = [gdl_value(game, game.next(state, {control: m, other: IDLE[other]}), role, memo)
                  for m in game.legal(state, control)]
        value = max(values) if control == role else min(values)
    memo[state] = value
    return value


@pytest.mark.parametrize("seed", SEED_IDS)
def test_solver_values_near_the_step_limit_are_gdl_minimax(seed):
    board, g = board_of(seed), game_of(seed)
    m = Mapping(board, g)
    rng = random.Random(f"solve-{seed}")
    cells = [(x, y) for x in range(1, SIZE + 1) for y in range(1, SIZE + 1)]
    step = board.rules.last_step - 3
    for _ in range(2):
        explorer, mummy = rng.sample(cells, 2)
        at = (f"explorer={explorer[0]},{explorer[1]}", f"mummy={mummy[0]},{mummy[1]}")
        query = make_query(board, "explorer", "value", at=at, step=step)
        answer = solve(board, query)
        state = m.state(query.position)
        memo: dict = {}
        assert answer.value == gdl_value(g, state, "explorer", memo), show_state(state)
        control, other = control_of(state)
        for mv in answer.moves:
            gdl_move = (f"move{len(mv.move.split())}", *mv.move.split())
            nxt = g.next(state, {control: gdl_move, other: IDLE[other]}, check_legal=True)
            assert mv.value == gdl_value(g, nxt, "explorer", memo), (show_state(state), mv.move)
