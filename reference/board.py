"""Board and rule files as the independent references read them (reference/game.py,
reference/hidden.py): plain YAML (pyyaml), and every key read here from the manual
(docs/board-files.md, docs/rule-sets.md, docs/rule-language.md) and nothing else.

Nothing here comes from gridsolve: not the loader, its schema, its defaults nor its model.  The
references assume the files are valid (the loader's checks and messages are tested elsewhere),
but a key this reader does not know is an error, so that a new rule option cannot go unread.
tests/test_reference_reading.py checks that this reading and the loader's agree on every rule
option the random boards draw and on the seed games.

What the manual says, as read here:

* A board gives ``rules`` (a named rule set, or rules written in place, which may ``use`` a
  named one and override parts of it), and a layout: an ASCII ``map`` with a ``legend``, or
  ``size`` and ``walls``; ``pieces`` and ``marks`` may add to a map.  Named rule sets are found
  in a ``rules/`` folder beside the board or in any folder above it, then among the built-in
  ones (the repository's ``rules/``).
* ``use``: the rule set's keys are taken over the base's, key by key; ``moves`` role by role
  and option by option (the prose variant is "mummy-maze-2007 plus" one move option).
* Defaults: ``turns`` one entry per role in role order; ``teams`` the roles of each ``turns``
  entry; ``collisions: allowed``; ``steps.first`` 1; a move ``steps: 1, idle: true,
  first_step_real: false, blocked: illegal, end_differs_from_start: false``, no
  ``may_not_end_on``, ``frozen_on`` or bump; a bump ``lose_turns: 1, hidden: false``; an end's
  ``loss_for``: the roles that get their lowest possible score there when it is below their
  timeout score.
* A map draws every cell 3 characters wide between ``+`` corners: ``---`` between two corners
  is a wall on that edge, ``|`` between two cells a wall on that edge, ``###`` a solid wall
  cell, the middle character a legend key (a piece, named after its role, or a mark).  Row
  numbers on the left and a header of column numbers are optional.  The outer edge is the
  board's border.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path

import yaml

BUILT_IN_RULES = Path(__file__).resolve().parent.parent / "rules"
DELTA = {"north": (0, 1), "south": (0, -1), "east": (1, 0), "west": (-1, 0)}


class UnreadKey(ValueError):
    """A key the manual (as read here) does not define."""


def _keys(mapping: dict, known: tuple, what: str) -> dict:
    unknown = set(mapping) - set(known)
    if unknown:
        raise UnreadKey(f"{what}: the references do not read {sorted(unknown)}: read them in reference/board.py")
    return mapping


# --- the rules ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Move:
    steps: int
    idle: bool
    first_step_real: bool
    blocked: str
    end_differs_from_start: bool
    may_not_end_on: tuple
    frozen_on: tuple
    bump_on: tuple              # the bump's marks
    lose_turns: int
    bump_hidden: bool
    pushes: bool = False        # the role's steps push crates (pushes: crates)


MOVE_DEFAULTS = {"steps": 1, "idle": True, "first_step_real": False, "blocked": "illegal",
                 "end_differs_from_start": False, "may_not_end_on": (), "frozen_on": ()}
BUMP_DEFAULTS = {"marks": (), "lose_turns": 1, "hidden": False}


@dataclass(frozen=True)
class When:
    """A conjunction; ``collected`` holds (collectible, at least) with None for ``all``."""

    same_cell: tuple = ()
    reaches: tuple = ()
    was_on: tuple = ()
    collected: tuple = ()
    nearer: tuple = ()        # (piece, than, mark)
    crates_on: tuple = ()     # (mark, at least this many crates on its cells; None for all)


@dataclass(frozen=True)
class End:
    name: str
    when: When
    scores: dict
    loss_for: tuple


@dataclass(frozen=True)
class TimeoutEntry:
    when: When
    scores: dict


@dataclass(frozen=True)
class Collect:
    name: str
    piece: str
    mark: str


@dataclass(frozen=True)
class Table:
    name: str
    count: str
    values: tuple


@dataclass(frozen=True)
class Placement:
    mark: str
    by: str
    count: int
    not_on: tuple


@dataclass(frozen=True)
class Chaser:
    name: str
    target: str
    first: str                  # horizontal | vertical: the axis its step tries first


@dataclass(frozen=True)
class Kind:
    """A kind of enemy: a chaser of every board that lists one, taking ``steps`` steps a turn."""

    target: str
    first: str
    steps: int


@dataclass(frozen=True)
class Action:
    """One action of the after_ply script (``repeat`` unrolled): ``kind`` step, stop, remove or
    key; ``pieces`` (step: the chasers; remove: the ``by`` pieces; key: the pieces), ``piece``
    (remove: the piece that leaves), ``when`` (stop: the condition)."""

    kind: str
    pieces: tuple = ()
    piece: str | None = None
    when: When | None = None
    uses: tuple = ()            # key: the pieces whose flip uses the key (once a ply)
    each: bool = False          # key: every entry flips (each_entry)
    flips: bool = False         # remove: a meeting on a key cell flips the gates (flips_on_key)
    do: tuple = ()              # each / repeat by the enemy's steps: the actions under do
    times: object = 1           # repeat: a number, or "steps" (the steps of the enemy's kind)
    if_kind: tuple = ()         # under each: only for enemies of these kinds (empty: every enemy)


@dataclass
class Rules:
    roles: tuple
    turns: tuple
    teams: tuple
    moves: dict                 # role -> Move
    ends: tuple
    first_step: int
    last_step: int
    timeout: dict               # the scores when no timeout entry holds
    timeout_when: tuple         # TimeoutEntry, tried in order
    collisions: str
    collect: dict               # name -> Collect
    tables: dict                # name -> Table
    placement: dict             # mark -> Placement
    chasers: dict = field(default_factory=dict)     # name -> Chaser (pieces moved by rule)
    script: tuple = ()          # the after_ply script: Action, in order
    optional: tuple = ()        # chasers and marks a board may leave out
    gate_key: str | None = None
    judge_start: bool = True
    kinds: dict = field(default_factory=dict)       # enemy kind -> Kind (the rules' enemies:)
    enemies: tuple = ()         # (piece, kind) of the board's enemies, in the board's order
    teleporters: tuple = ()     # the marks of the teleporter pairs (each marks two cells)
    teleporting: tuple = ()     # the roles whose pieces teleport
    crates: str | None = None   # the mark of the cells the crates start on (None: no crates)

    @property
    def pieces(self) -> tuple:
        """The pieces of a position: the roles', then the chasers."""
        return self.roles + tuple(self.chasers)

    def team_of(self, role: str) -> tuple:
        return next(team for team in self.teams if role in team)

    def values_of(self, score) -> list:
        """The numbers a score may stand for: itself, or every value of its table."""
        return [score] if isinstance(score, int) else list(self.tables[score].values)

    def scores_of(self, role: str) -> list:
        """Every score ``role`` can get, ascending."""
        values = set(self.values_of(self.timeout[role]))
        for entry in (*self.ends, *self.timeout_when):
            values.update(self.values_of(entry.scores[role]))
        return sorted(values)


RULE_KEYS = ("name", "description", "use", "roles", "turns", "teams", "moves", "collisions", "collect",
             "score_tables", "ends", "steps", "placement", "timeout", "chasers", "optional", "gate", "after_ply",
             "judge_start", "generate", "enemies", "teleporters", "crates")   # generate: what the generator asks of a good level; no game rule, not read
MOVE_KEYS = (*MOVE_DEFAULTS, "bump", "pushes")


def _find_rule_set(name: str, board_path: Path) -> Path:
    folders = [folder / "rules" for folder in (board_path.parent, *board_path.parent.parents)]
    for folder in [*folders, BUILT_IN_RULES]:
        if (folder / f"{name}.yaml").is_file():
            return folder / f"{name}.yaml"
    raise FileNotFoundError(f"no rule set named {name!r} for {board_path}")


def _merged_rules(raw: dict, board_path: Path, read: list) -> dict:
    """The rule keys of ``raw`` taken over those of the rule set it ``use``s."""
    _keys(raw, RULE_KEYS, "rules")
    merged: dict = {}
    if raw.get("use") is not None:
        base = _find_rule_set(raw["use"], board_path)
        merged = _merged_rules(_read_yaml(base, read), board_path, read)
    for key, value in raw.items():
        if key == "use" or value is None:
            continue
        if key == "moves":
            moves = {role: dict(options) for role, options in merged.get("moves", {}).items()}
            for role, options in value.items():
                moves[role] = {**moves.get(role, {}), **(options or {})}
            value = moves
        merged[key] = value
    return merged


def _move(options: dict) -> Move:
    _keys(options, MOVE_KEYS, "a move")
    bump = {**BUMP_DEFAULTS, **_keys(options.get("bump") or {}, tuple(BUMP_DEFAULTS), "a bump")}
    given = {**MOVE_DEFAULTS, **{key: value for key, value in options.items() if key != "bump"}}
    return Move(steps=given["steps"], idle=given["idle"], first_step_real=given["first_step_real"],
                blocked=given["blocked"], end_differs_from_start=given["end_differs_from_start"],
                may_not_end_on=tuple(given["may_not_end_on"] or ()), frozen_on=tuple(given["frozen_on"] or ()),
                bump_on=tuple(bump["marks"]), lose_turns=bump["lose_turns"], bump_hidden=bump["hidden"],
                pushes=options.get("pushes") == "crates")


def _when(raw: dict | None) -> When:
    raw = raw or {}
    _keys(raw, ("same_cell", "reaches", "was_on", "collected", "nearer", "crates_on"), "a condition")
    nearer = raw.get("nearer")
    return When(
        same_cell=(tuple(raw["same_cell"]),) if raw.get("same_cell") else (),
        reaches=tuple((raw.get("reaches") or {}).items()),
        was_on=tuple((raw.get("was_on") or {}).items()),
        collected=tuple((name, None if n == "all" else n) for name, n in (raw.get("collected") or {}).items()),
        nearer=((nearer["piece"], nearer["than"], nearer["to"]),) if nearer else (),
        crates_on=tuple((mark, None if n == "all" else n) for mark, n in (raw.get("crates_on") or {}).items()))


def _default_loss_for(scores: dict, ends: list, timeout: dict) -> tuple:
    """The roles that get their lowest possible score at this end, below their timeout score
    (only defined without score tables or conditional timeouts: every score is a number)."""
    lowest = {role: min([end["scores"][role] for end in ends] + [timeout[role]]) for role in timeout}
    return tuple(role for role, score in scores.items() if score == lowest[role] and score < timeout[role])


def _script(raw: list) -> tuple:
    """The after_ply script as a tuple of actions, ``repeat: N, do: [...]`` unrolled (``each``
    and ``repeat: steps`` are kept: they depend on the board's enemies)."""
    out = []
    for action in raw or ():
        _keys(action, ("step", "stop", "remove", "key", "repeat", "do", "each", "if_kind"), "an after_ply action")
        kinds = tuple(action.get("if_kind") or ())
        if "each" in action:
            out.append(Action("each", piece=action["each"], do=_script(action["do"])))
        elif "repeat" in action and action["repeat"] == "steps":
            out.append(Action("repeat", do=_script(action["do"]), times="steps", if_kind=kinds))
        elif "repeat" in action:
            out += [dataclasses.replace(a, if_kind=a.if_kind or kinds) for a in _script(action["do"])] * action["repeat"]
        elif "step" in action:
            out.append(Action("step", tuple(action["step"]), if_kind=kinds))
        elif "stop" in action:
            out.append(Action("stop", when=_when(action["stop"]), if_kind=kinds))
        elif "remove" in action:
            spec = _keys(action["remove"], ("piece", "by", "flips_on_key"), "a remove action")
            out.append(Action("remove", tuple(spec["by"]), spec["piece"], flips=bool(spec.get("flips_on_key")),
                              if_kind=kinds))
        else:
            spec = action["key"]
            if isinstance(spec, list):
                out.append(Action("key", tuple(spec), uses=tuple(spec), if_kind=kinds))
            else:
                _keys(spec, ("pieces", "uses", "each_entry"), "a key action")
                out.append(Action("key", tuple(spec["pieces"]), uses=tuple(spec.get("uses") or spec["pieces"]),
                                  each=bool(spec.get("each_entry")), if_kind=kinds))
    return tuple(out)


def read_rules(raw, board_path: Path, read: list) -> Rules:
    """The rules of a board's ``rules`` value (a name, or a mapping)."""
    if isinstance(raw, str):
        raw = {"use": raw}
    merged = _merged_rules(raw, board_path, read)
    roles = tuple(merged["roles"])
    turns = tuple(tuple(entry) for entry in merged.get("turns") or [[role] for role in roles])
    teams = tuple(tuple(team) for team in merged.get("teams") or turns)
    moves = {role: _move((merged.get("moves") or {}).get(role) or {}) for role in roles}
    if isinstance(merged["timeout"], dict):
        timeout, timeout_when = dict(merged["timeout"]), ()
    else:
        entries = merged["timeout"]
        for entry in entries:
            _keys(entry, ("when", "scores"), "a timeout entry")
        timeout = dict(entries[-1]["scores"])
        timeout_when = tuple(TimeoutEntry(_when(e["when"]), dict(e["scores"])) for e in entries[:-1])
    ends = []
    for end in merged["ends"]:
        _keys(end, ("name", "when", "scores", "loss_for"), "an end")
        loss_for = end.get("loss_for")
        if loss_for is None:
            loss_for = _default_loss_for(end["scores"], merged["ends"], timeout)
        ends.append(End(end["name"], _when(end["when"]), dict(end["scores"]), tuple(loss_for)))
    collect, tables, placement = {}, {}, {}
    for name, c in (merged.get("collect") or {}).items():
        _keys(c, ("piece", "mark"), "collect")
        collect[name] = Collect(name, c["piece"], c["mark"])
    for name, t in (merged.get("score_tables") or {}).items():
        _keys(t, ("count", "values"), "a score table")
        tables[name] = Table(name, t["count"], tuple(t["values"]))
    for mark, p in (merged.get("placement") or {}).items():
        _keys(p, ("by", "count", "not_on"), "a placement")
        placement[mark] = Placement(mark, p["by"], p["count"], tuple(p.get("not_on") or ()))
    steps = _keys(merged["steps"], ("first", "last"), "steps")
    chasers = {name: Chaser(name, c["target"], c["first"])
               for name, c in (merged.get("chasers") or {}).items() if _keys(c, ("target", "first"), "a chaser")}
    kinds = {name: Kind(k["target"], k.get("first", "horizontal"), k.get("steps", 1))
             for name, k in (merged.get("enemies") or {}).items() if _keys(k, ("target", "first", "steps"), "a kind")}
    teleporters = _keys(merged.get("teleporters") or {}, ("pairs", "pieces"), "teleporters")
    return Rules(roles=roles, turns=turns, teams=teams, moves=moves, ends=tuple(ends), kinds=kinds,
                 teleporters=tuple(teleporters.get("pairs") or ()),
                 teleporting=tuple(roles if teleporters.get("pieces") is None else teleporters["pieces"]),
                 crates=_keys(merged.get("crates") or {}, ("mark",), "crates").get("mark"),
                 first_step=steps.get("first", 1), last_step=steps.get("last"), timeout=timeout,
                 timeout_when=timeout_when, collisions=merged.get("collisions") or "allowed",
                 collect=collect, tables=tables, placement=placement, chasers=chasers,
                 script=_script(merged.get("after_ply")), optional=tuple(merged.get("optional") or ()),
                 gate_key=(merged.get("gate") or {}).get("key"), judge_start=merged.get("judge_start") is not False)


# --- the board ---------------------------------------------------------------------------------

@dataclass
class Board:
    path: str
    width: int
    height: int
    north: frozenset            # (x, y): the edge between (x, y) and (x, y+1) is a wall
    east: frozenset             # (x, y): the edge between (x, y) and (x+1, y) is a wall
    solid: frozenset
    pieces: dict                # role -> cell
    marks: dict                 # mark -> frozenset of cells
    unplaced: dict              # secret mark -> cells still to place
    rules: Rules
    files: tuple = field(default=())     # (path, text) of every file read
    gate_north: frozenset = frozenset()  # (x, y): a gate on the edge between (x, y) and (x, y+1)
    gate_east: frozenset = frozenset()   # (x, y): a gate on the edge between (x, y) and (x+1, y)
    exits: frozenset = frozenset()       # ((x, y), direction): the border edge of (x, y) there is an exit
    outside: frozenset = frozenset()     # the cells just outside the exit edges (a role steps onto them)

    def exit_through(self, cell, direction: str):
        """The cell outside the exit edge a step from ``cell`` in ``direction`` goes through, or None."""
        if (cell, direction) not in self.exits:
            return None
        return cell[0] + DELTA[direction][0], cell[1] + DELTA[direction][1]

    def gate_between(self, cell, to) -> bool:
        """A gate stands on the edge between the neighbouring cells ``cell`` and ``to``."""
        (x, y), (x2, y2) = sorted([cell, to])
        return (x, y) in (self.gate_north if x == x2 else self.gate_east)

    def on_board(self, cell) -> bool:
        x, y = cell
        return 1 <= x <= self.width and 1 <= y <= self.height and cell not in self.solid

    def open_step(self, cell, direction: str) -> bool:
        """A piece on ``cell`` can step ``direction``: no wall between, and the target on the board."""
        x, y = cell
        dx, dy = DELTA[direction]
        if not self.on_board(cell) or not self.on_board((x + dx, y + dy)):
            return False
        wall = {"north": (x, y) in self.north, "south": (x, y - 1) in self.north,
                "east": (x, y) in self.east, "west": (x - 1, y) in self.east}
        return not wall[direction]


def read_map(text: str):
    """(width, height, north, east, solid, {cell: character}, (north gates, east gates)) of an ASCII map."""
    lines = [line.rstrip() for line in text.split("\n")]
    first = next(i for i, line in enumerate(lines) if line.lstrip().startswith("+"))
    left = lines[first].index("+")
    drawing = [line[left:] for line in lines[first:] if line.strip()]
    width = (len(drawing[0]) - 1) // 4
    height = len(drawing) // 2
    north, east, solid, glyphs, gates = set(), set(), set(), {}, (set(), set())
    bottom = drawing[2 * height].ljust(4 * width + 1)
    for row in range(height):
        y = height - row
        above, cells = drawing[2 * row].ljust(4 * width + 1), drawing[2 * row + 1].ljust(4 * width + 1)
        # a character in the outer border: an edge of the border with a mark, at the cell beyond it
        for char, beyond in ((cells[0], (0, y)), (cells[4 * width], (width + 1, y))):
            if char not in "| ":
                glyphs[beyond] = char
        for x in range(1, width + 1):
            for line, beyond in ((drawing[0], (x, height + 1)), (bottom, (x, 0))):
                segment = line.ljust(4 * width + 1)[4 * x - 3: 4 * x]
                if row == 0 and segment.strip() and segment.strip() not in ("---", "==="):
                    glyphs[beyond] = segment.strip()
            if row > 0 and above[4 * x - 3: 4 * x] == "---":
                north.add((x, y))
            if row > 0 and above[4 * x - 3: 4 * x] == "===":
                gates[0].add((x, y))
            content = cells[4 * x - 3: 4 * x]
            if content == "###":
                solid.add((x, y))
            elif content[1] != " ":
                glyphs[(x, y)] = content[1]
            if x < width and cells[4 * x] == "|":
                east.add((x, y))
            if x < width and cells[4 * x] == ":":
                gates[1].add((x, y))
    return width, height, north, east, solid, glyphs, gates


BOARD_KEYS = ("name", "description", "rules", "map", "legend", "size", "walls", "gates", "pieces", "marks", "expect",
              "enemies", "crosscheck")     # (expect, crosscheck: what the game is checked against, not the game)
SIDE_CELL = {"north": lambda at, w, h: (at, h), "south": lambda at, w, h: (at, 1),
             "east": lambda at, w, h: (w, at), "west": lambda at, w, h: (1, at)}


def _read_yaml(path: Path, read: list):
    text = path.read_text(encoding="utf-8")
    read.append((str(path), text))
    return yaml.safe_load(text)


def read_board(path) -> Board:
    """The board file at ``path`` and the rule sets it uses."""
    path = Path(path)
    read: list = []
    raw = _keys(_read_yaml(path, read), BOARD_KEYS, "a board")
    rules = read_rules(raw["rules"], path, read)
    pieces, marks, exits = {}, {}, set()
    if raw.get("map") is not None:
        width, height, north, east, solid, glyphs, gates = read_map(raw["map"])
        legend = {str(k): v for k, v in (raw.get("legend") or {}).items()}
        for cell, char in glyphs.items():
            inside = (min(max(cell[0], 1), width), min(max(cell[1], 1), height))
            if inside != cell:          # beyond an exit edge of the border
                exits.add((inside, next(d for d, (dx, dy) in DELTA.items()
                                        if (inside[0] + dx, inside[1] + dy) == cell)))
                marks.setdefault(legend[char], set()).add(cell)
            elif legend[char] in rules.pieces:
                pieces[legend[char]] = cell
            else:
                marks.setdefault(legend[char], set()).add(cell)
    else:
        width, height = raw["size"]
        walls = _keys(raw.get("walls") or {}, ("north", "east"), "walls")
        north = {tuple(c) for c in walls.get("north") or ()}
        east = {tuple(c) for c in walls.get("east") or ()}
        solid, gates = set(), (set(), set())
    given = _keys(raw.get("gates") or {}, ("north", "east"), "gates")
    gates[0].update(tuple(c) for c in given.get("north") or ())
    gates[1].update(tuple(c) for c in given.get("east") or ())
    pieces.update({role: tuple(cell) for role, cell in (raw.get("pieces") or {}).items()})
    unplaced = {}
    for mark, cells in (raw.get("marks") or {}).items():
        if isinstance(cells, dict) and "edge" in _keys(cells, ("unplaced", "edge", "at"), "a mark"):
            inside = SIDE_CELL[cells["edge"]](cells["at"], width, height)
            exits.add((inside, cells["edge"]))
            d = DELTA[cells["edge"]]
            marks.setdefault(mark, set()).add((inside[0] + d[0], inside[1] + d[1]))
        elif isinstance(cells, dict):
            unplaced[mark] = cells["unplaced"]
        else:
            marks.setdefault(mark, set()).update(tuple(c) for c in cells)
    enemies = []
    for place, enemy in enumerate(raw.get("enemies") or (), 1):
        _keys(enemy, ("kind", "at"), "an enemy")
        piece = f"{enemy['kind']}{place}"          # the enemy's name: its kind and its place in the list
        enemies.append((piece, enemy["kind"]))
        pieces[piece] = tuple(enemy["at"])
    if rules.kinds:
        chasers = {**rules.chasers, **{piece: Chaser(piece, rules.kinds[kind].target, rules.kinds[kind].first)
                                       for piece, kind in enemies}}
        rules = dataclasses.replace(rules, chasers=chasers, enemies=tuple(enemies))
    return Board(str(path), width, height, frozenset(north), frozenset(east), frozenset(solid), pieces,
                 {mark: frozenset(cells) for mark, cells in marks.items()}, unplaced, rules, tuple(read),
                 frozenset(gates[0]), frozenset(gates[1]), frozenset(exits),
                 frozenset((c[0] + DELTA[d][0], c[1] + DELTA[d][1]) for c, d in exits))


_BOARDS: dict = {}


def board_of(board) -> Board:
    """The board read from ``board``: a path, or an object with a ``path`` (a board gridsolve
    loaded: only its path is used; or a board read here, returned as it is).  Read again when a
    file it read has changed."""
    if isinstance(board, Board):
        return board
    path = str(board if isinstance(board, (str, Path)) else board.path)
    cached = _BOARDS.get(path)
    if cached is not None and all(Path(p).read_text(encoding="utf-8") == text for p, text in cached.files):
        return cached
    if len(_BOARDS) > 64:
        _BOARDS.clear()
    _BOARDS[path] = read_board(path)
    return _BOARDS[path]


# --- positions ---------------------------------------------------------------------------------
#
# A position is read by its fields as the manual's --json answers write them: ``pieces``
# ((role, cell) pairs), ``side`` (the index of the turns entry to move), ``step``, ``items``
# (per collectible the cells still holding an item; None: as the board starts), ``lost`` (per
# turns entry the turns it skips; empty: none), ``was`` (the (piece, mark) pairs of the position
# before).

def items_left(board: Board, position) -> dict:
    """{collectible: cells still holding an item} of ``position``."""
    if position.items is None:
        return {name: board.marks.get(c.mark, frozenset()) for name, c in board.rules.collect.items()}
    return {name: frozenset(cells) for name, cells in position.items}


def crates_at(board: Board, position) -> frozenset:
    """The cells of the crates of ``position`` (its ``plugins``' ``crates``; absent: as the board
    starts, on the cells of the rules' crates mark)."""
    found = dict(getattr(position, "plugins", ()) or ()).get("crates")
    if found is None:
        return frozenset(board.marks.get(board.rules.crates, ())) if board.rules.crates else frozenset()
    return frozenset(found)


def lost_turns(board: Board, position) -> tuple:
    return tuple(position.lost) or (0,) * len(board.rules.turns)


@dataclass(frozen=True)
class Position:
    """A position with the fields above, for a caller that has none of its own (a board's start)."""

    pieces: tuple
    side: int
    step: int
    items: tuple | None = None
    lost: tuple = ()
    was: tuple = ()


def initial_position(board) -> Position:
    """The position ``board`` (a path or a :class:`Board`) starts in: its roles' pieces, the first
    entry of ``turns`` to move, the first step."""
    board = board_of(board)
    return Position(tuple((role, board.pieces[role]) for role in board.rules.roles), 0, board.rules.first_step)
