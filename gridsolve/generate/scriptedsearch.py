"""``gridsolve generate`` for a single-player game whose other pieces move by rule (an
``after_ply`` script: classic Mummy Maze): a seeded climb over whole levels.

A level is the walls, the gate's edge, the marks, the pieces' starts and, for rules with kinds of
enemies, the list of enemies in the order they move.  A climb starts from a random level (walls
around a random spanning tree, so every cell stays joined; the marks on the border, or on an
edge of the border, where the ``--like`` board or the rule set has them there; the enemies the
``--like`` board lists, in a random order, or with ``--rules`` one to ENEMIES of random kinds)
and mutates it: a few walls toggled, a mark or the gate moved, a piece moved, or two enemies
next in the order swapped.  Each level is judged by the criteria of
:mod:`gridsolve.generate.scriptedlevel` on the layout's tables (a piece moved keeps the tables);
the climb keeps a mutation that scores at least as well (first how many criteria it meets, in
the order the judge takes them, then the fastest win's moves: longer is better), so it drifts
across plateaus.  A level that meets the
request and differs from every level written on :func:`~gridsolve.generate.run.apart`
walls and marked cells is written (after the exact solver has measured it), and a new climb
starts; a climb that has not improved for STALL mutations starts again too.  Everything is
drawn from the ``--seed``: the same request writes the same files.
"""
from __future__ import annotations

import dataclasses
import random
import time
from dataclasses import dataclass

from ..errors import LimitError, QueryError
from ..language.enemylist import edge_of, enemies_of, enemy_pieces, kinds_of, rules_for, with_exits
from ..language.model import Board
from ..language.kinds import RequireKind
from .fresh import connected_walls
from .genspec import _legend
from .mutation import difference
from .proposer import Layout, edges
from .report import SearchStats
from .scriptedlevel import LevelTables, LevelVerdict

CLIMB = "climb"       # the method's name in the report
TICK = 200            # levels judged between progress calls
STALL = 150           # mutations without a better level before a climb starts again
PLACEMENTS = 6        # random placements of the pieces tried on a fresh layout
PIECE_MOVES = 0.4     # share of mutations that move a piece (the layout's tables are kept)
MARK_MOVES = 0.2      # ... that move a mark or the gate
ORDER_SWAPS = 0.1     # ... that swap two enemies next in the order (the others toggle one to three walls)
ENEMIES = 3           # with --rules, a level lists one to ENEMIES enemies
BRIDGES = 0.5         # share of gates placed on an edge whose closing cuts the board in two (where one exists),
                      # among the cuts with the larger smaller sides: the exit and the explorer often apart


@dataclass(frozen=True)
class Level:
    """A whole level: walls, gate edges, marks and the pieces' starts."""

    north: frozenset
    east: frozenset
    gates: frozenset          # (kind, x, y) edges of the gates
    marks: tuple              # ((mark, ((x, y), ...)), ...); a cell just outside the border: an exit edge
    pieces: tuple             # ((piece, (x, y)), ...)
    enemies: tuple = ()       # the kinds of the listed enemies, in order (their pieces: KIND + place)

    def layout(self) -> Layout:
        return Layout(self.north, self.east, self.pieces, self.marks)

    def board(self, template: Board, path: str = "", name: str = "", legend: dict | None = None) -> Board:
        return with_exits(dataclasses.replace(
            template, path=path or template.path, name=name or template.name, north=self.north, east=self.east,
            solid=frozenset(), pieces=dict(self.pieces), marks={m: frozenset(c) for m, c in self.marks}, lines={},
            legend=dict(legend or template.legend),
            gate_north=frozenset((x, y) for k, x, y in self.gates if k == "north"),
            gate_east=frozenset((x, y) for k, x, y in self.gates if k == "east"),
            rules=rules_for(template, self.enemies) if kinds_of(template) else template.rules))


def distance(one: Level, other: Level) -> int:
    """Walls, marked cells and gate edges present in one level and not in the other."""
    return difference(one, other) + len(one.gates ^ other.gates)


@dataclass(frozen=True)
class Cast:
    """What a level of the run holds: its pieces, marks (how many cells, which on the border)
    and gates."""

    pieces: tuple             # (without the listed enemies)
    marks: dict
    border_marks: frozenset
    gates: int
    legend: dict              # map character -> piece or mark
    edge_marks: frozenset = frozenset()     # marks placed on an edge of the border (an exit edge)
    enemies: tuple = ()       # the --like board's enemies' kinds (a level lists them in an order of its own)
    kinds: tuple = ()         # the kinds of enemies the rules declare


def cast_of(spec) -> Cast:
    """The pieces, marks and gates of the run: the ``--like`` board's; with ``--rules``, the
    roles' pieces and the chasers the rule set does not mark optional (else its first chaser),
    and the marks its ends name."""
    template, rules = spec.template, spec.template.rules
    listed = enemies_of(template)
    pieces = [p for p in rules.pieces if p in template.pieces and p not in dict(listed)]
    if not listed and not any(p in rules.chasers for p in pieces):
        needed = [c for c in rules.chasers if c not in rules.optional] or list(rules.chasers)[:1]
        pieces += needed
    pieces = [p for p in rules.pieces if p in pieces]
    gates = len(template.gate_north) + len(template.gate_east)
    legend = dict(spec.legend)
    if set(pieces) - set(legend.values()):
        legend = _legend(pieces, spec.marks)
    return Cast(tuple(pieces), dict(spec.marks), spec.border_marks - spec.edge_marks, gates, legend, spec.edge_marks,
                tuple(kind for _, kind in listed), tuple(kinds_of(template)))


@dataclass
class Found:
    """A level that meets the request, as the climb judged it."""

    level: Level
    verdict: LevelVerdict


def _walled(level: Level, edge: tuple) -> Level:
    """``level`` with a wall on ``edge``."""
    kind, x, y = edge
    if kind == "north":
        return dataclasses.replace(level, north=level.north | {(x, y)})
    return dataclasses.replace(level, east=level.east | {(x, y)})


class ScriptedSearch:
    """The climbs of one run (module docstring)."""

    def __init__(self, spec, cast: Cast, walls: tuple, plies: tuple, trivial_ok: bool, seed: int, apart: int):
        self.spec, self.cast, self.walls, self.plies = spec, cast, walls, plies
        self.trivial_ok, self.apart = trivial_ok, apart
        self.random = random.Random(seed)
        board = spec.template
        self.width, self.height = board.width, board.height
        self.edges = edges(self.width, self.height)
        self.cells = [(x, y) for x in range(1, self.width + 1) for y in range(1, self.height + 1)]
        self.outside = sorted({(x + dx, y + dy) for x, y in self.cells for dx, dy in ((0, 1), (0, -1), (1, 0), (-1, 0))
                               if edge_of((x + dx, y + dy), self.width, self.height) is not None})
        self.written_levels: list[Level] = []
        self.refused_levels: set = set()
        self.tables: tuple | None = None        # (layout key, LevelTables) of the last layout judged
        self.current: tuple | None = None       # (level, verdict, score)
        self.stalled = 0
        self.layouts = 0                        # layouts ground
        self.levels = 0                         # levels judged
        self.in_band = 0                        # levels judged won in the plies band
        self.longest = None                     # the longest win of a level meeting every criterion
        self.longest_any = None                 # the longest win seen

    # - The climb ---

    def next(self, deadline: float | None, tick=None) -> Found | None:
        """Climb until a level meets the request (None when ``deadline`` passes first); ``tick``
        is called every TICK levels judged.  The caller says :meth:`written` or :meth:`refused`."""
        ticked = self.levels
        while deadline is None or time.perf_counter() < deadline:
            if tick is not None and self.levels - ticked >= TICK:
                ticked = self.levels
                tick()
            if self.current is None or self.stalled >= STALL:
                self.current, self.stalled = self._fresh(), 0
                level, verdict, _ = self.current
                if self._meets(level, verdict):
                    return Found(level, verdict)
                continue
            level, verdict, score = self.current
            child = self._mutated(level)
            if child is None or child in self.refused_levels:
                self.stalled += 1
                continue
            child_verdict = self._judge(child)
            child_score = self._score(child_verdict)
            self.stalled = 0 if child_score > score else self.stalled + 1
            if child_score >= score:
                self.current = (child, child_verdict, child_score)
                if self._meets(child, child_verdict):
                    return Found(child, child_verdict)
        return None

    def written(self, level: Level) -> None:
        """``level`` was written: the next one comes from a new climb."""
        self.written_levels.append(level)
        self.current = None

    def refused(self, level: Level) -> None:
        """The exact judge refused ``level`` (a metric out of range): the climb goes on past it."""
        self.refused_levels.add(level)

    def stats(self) -> SearchStats:
        """What the climbs have seen, as generate's progress and report show it."""
        return SearchStats(layouts=self.layouts, in_band=self.in_band, band_starts=self.in_band,
                           longest=self.longest_any, longest_offered=self.longest)

    def _score(self, verdict: LevelVerdict) -> tuple:
        """Higher is better: every criterion met, then the win's moves."""
        if verdict.win_moves is None:
            return (-1, 0)
        return (verdict.met(self.trivial_ok), verdict.win_moves)

    def _meets(self, level: Level, verdict: LevelVerdict) -> bool:
        low, high = self.plies
        moves = verdict.win_moves
        if moves is None or verdict.failed(self.trivial_ok) is not None:
            return False
        if (low is not None and moves < low) or (high is not None and moves > high):
            return False
        return all(distance(level, w) >= self.apart for w in self.written_levels) and level not in self.refused_levels

    def _fresh(self) -> tuple:
        """A random level and its best of PLACEMENTS placements (the climb goes on from it even
        where none can be won)."""
        low, high = self.walls
        for attempt in range(PLACEMENTS):
            count = self.random.randint(low, max(low, (low + high) // 2))
            walls = connected_walls(self.random, self.edges, count)
            north = frozenset((x, y) for kind, x, y in walls if kind == "north")
            east = frozenset((x, y) for kind, x, y in walls if kind == "east")
            level = Level(north, east, frozenset(), (), (), self._enemies())
            level = dataclasses.replace(level, gates=self._gates(level), marks=self._marks(()))
            best = None
            for _ in range(PLACEMENTS):
                placed = dataclasses.replace(level, pieces=self._pieces(level, ()))
                verdict = self._judge(placed)
                scored = (placed, verdict, self._score(verdict))
                if best is None or scored[2] > best[2]:
                    best = scored
            if best[1].win_moves is not None or attempt == PLACEMENTS - 1:
                return best

    def _enemies(self) -> tuple:
        """The kinds of a new level's enemies, in order: the --like board's, shuffled; with
        --rules, one to ENEMIES of the rules' kinds (none for rules without kinds)."""
        if self.cast.enemies:
            return tuple(self.random.sample(self.cast.enemies, len(self.cast.enemies)))
        if not self.cast.kinds:
            return ()
        return tuple(self.random.choice(self.cast.kinds) for _ in range(self.random.randint(1, ENEMIES)))

    def _names(self, level: Level) -> tuple:
        """Every piece of ``level``: the cast's, then its enemies ``KIND + place``."""
        return self.cast.pieces + tuple(piece for piece, _ in enemy_pieces(list(level.enemies)))

    def _swapped(self, level: Level) -> Level:
        """``level`` with two enemies next in the order swapped (each keeps its cell)."""
        names = [piece for piece, _ in enemy_pieces(list(level.enemies))]
        place = self.random.randrange(len(names) - 1)
        kinds, cells = list(level.enemies), dict(level.pieces)
        order = list(range(len(names)))
        order[place], order[place + 1] = place + 1, place
        kinds = [kinds[i] for i in order]
        moved = {piece: cells[names[i]] for (piece, _), i in zip(enemy_pieces(kinds), order)}
        pieces = tuple((p, c) for p, c in level.pieces if p not in names) + tuple(moved.items())
        return dataclasses.replace(level, enemies=tuple(kinds), pieces=pieces)

    # - Mutations ---

    def _mutated(self, level: Level) -> Level | None:
        """A random change of ``level`` (None: it would cut a cell off)."""
        draw = self.random.random()
        if draw < PIECE_MOVES:
            piece = self.random.choice(self._names(level))
            return dataclasses.replace(level, pieces=self._pieces(level, level.pieces, piece))
        if draw < PIECE_MOVES + MARK_MOVES:
            movable = [m for m, _ in level.marks] + (["gate"] if self.cast.gates else [])
            what = self.random.choice(movable)
            if what == "gate":
                return dataclasses.replace(level, gates=self._gates(level, moving=True))
            marks = self._marks(level.marks, what)
            taken = {c for _, cells in marks for c in cells}
            if any(c in taken for _, c in level.pieces):
                return None
            return dataclasses.replace(level, marks=marks)
        if draw < PIECE_MOVES + MARK_MOVES + ORDER_SWAPS and len(level.enemies) > 1:
            return self._swapped(level)
        north, east = set(level.north), set(level.east)
        for kind, x, y in self.random.sample(self.edges, self.random.randint(1, 3)):
            if (kind, x, y) in level.gates:
                continue
            (north if kind == "north" else east).symmetric_difference_update({(x, y)})
        low, high = self.walls
        if not low <= len(north) + len(east) <= high:
            return None
        changed = dataclasses.replace(level, north=frozenset(north), east=frozenset(east))
        return changed if self._connected(changed) else None

    def _connected(self, level: Level) -> bool:
        return self._reached(level) == len(self.cells)

    def _reached(self, level: Level) -> int:
        """How many cells are joined to (1, 1)."""
        seen, stack = {(1, 1)}, [(1, 1)]
        while stack:
            x, y = stack.pop()
            for (nx, ny), open_ in (((x, y + 1), (x, y) not in level.north), ((x, y - 1), (x, y - 1) not in level.north),
                                    ((x + 1, y), (x, y) not in level.east), ((x - 1, y), (x - 1, y) not in level.east)):
                if open_ and 1 <= nx <= self.width and 1 <= ny <= self.height and (nx, ny) not in seen:
                    seen.add((nx, ny))
                    stack.append((nx, ny))
        return len(seen)

    def _gates(self, level: Level, moving: bool = False) -> frozenset:
        """The gates on random open interior edges (``moving``: one of them moved)."""
        kept = set(level.gates)
        if moving and kept:
            kept.discard(self.random.choice(sorted(kept)))
        open_ = [e for e in self.edges if e[1:] not in (level.north if e[0] == "north" else level.east)
                 and e not in kept]
        if self.random.random() < BRIDGES:
            sides = {e: self._reached(_walled(level, e)) for e in open_}
            cuts = {e: min(n, len(self.cells) - n) for e, n in sides.items() if n < len(self.cells)}
            if cuts:
                most = max(cuts.values())
                open_ = [e for e in open_ if cuts.get(e, 0) * 2 >= most]
        while len(kept) < self.cast.gates and open_:
            kept.add(open_.pop(self.random.randrange(len(open_))))
        return frozenset(kept)

    def _marks(self, marks: tuple, moving: str | None = None) -> tuple:
        """Cells for every mark, none shared (``moving``: only that mark's cells drawn again)."""
        placed = dict(marks)
        if moving is not None:
            placed.pop(moving, None)
        for mark, count in sorted(self.cast.marks.items()):
            if mark in placed:
                continue
            taken = {c for cells in placed.values() for c in cells}
            pool = self.outside if mark in self.cast.edge_marks else [
                c for c in self.cells if mark not in self.cast.border_marks or self._border(c)]
            pool = [c for c in pool if c not in taken]
            placed[mark] = tuple(sorted(self.random.sample(pool, count)))
        return tuple(sorted(placed.items()))

    def _border(self, cell) -> bool:
        return cell[0] in (1, self.width) or cell[1] in (1, self.height)

    def _pieces(self, level: Level, pieces: tuple, moving: str | None = None) -> tuple:
        """Cells for every piece, none on a mark or another piece (``moving``: only that piece moved)."""
        placed = dict(pieces)
        if moving is not None:
            placed.pop(moving, None)
        taken = {c for _, cells in level.marks for c in cells} | set(placed.values())
        names = self._names(level)
        for piece in names:
            if piece not in placed:
                placed[piece] = self.random.choice([c for c in self.cells if c not in taken])
                taken.add(placed[piece])
        return tuple((p, placed[p]) for p in names)

    # - Judging ---

    def _judge(self, level: Level) -> LevelVerdict:
        key = (level.north, level.east, level.gates, level.marks, level.enemies)
        if self.tables is None or self.tables[0] != key:
            self.tables = (key, LevelTables(level.board(self.spec.template, legend=self.cast.legend)))
            self.layouts += 1
        self.levels += 1
        tables = self.tables[1]
        marks = dict(level.marks)
        try:
            verdict = tables.judge(dict(level.pieces), bool(level.gates) and bool(marks.get(tables.board.rules.gate_key)),
                                   bool(tables.deadly.any()), self.trivial_ok, every=False)
        except LimitError:
            return LevelVerdict(None)
        if verdict.win_moves is not None:
            self.longest_any = max(self.longest_any or 0, verdict.win_moves)
            low, high = self.plies
            self.in_band += (low is None or verdict.win_moves >= low) and (high is None or verdict.win_moves <= high)
            if verdict.failed(self.trivial_ok) is None:
                self.longest = max(self.longest or 0, verdict.win_moves)
        return verdict


def check_request(request, require) -> None:
    """What a search over levels of a game moved by rule does not serve."""
    if require not in (None, RequireKind.WIN):
        raise QueryError(f"--require {require}: levels of a game whose other pieces move by rule are generated "
                         "for a win", "leave out --require, or ask --require win")
    for option, given in (("--symmetry", request.symmetry is not None),
                          ("--keep", bool(request.keep)), ("--horizon", request.horizon is not None),
                          ("--method", request.method not in ("auto", "loop"))):
        if given:
            raise QueryError(f"{option}: not served for a game whose other pieces move by rule",
                             f"leave out {option}")

