"""Random rule sets, each with a random small board and a question, as YAML text (issue 39, item 3).

``random_case(seed)`` is deterministic (the same seed gives the same case).  It draws a rule set
from the rule language's mechanisms (docs/rule-language.md) and only the combinations the loader
accepts today (:data:`REFUSED` lists the pairs it refuses, tests/test_random_rules.py holds the
loader to that list):

* *scripted* rule sets (about two in three): one ``turns`` entry of one role with one-step
  moves (``idle``, ``blocked``, ``frozen_on`` drawn), 0-3 chasers with random targets and axes, an
  ``after_ply`` script of random ``step``, ``stop``, ``remove`` (``flips_on_key`` too), ``key``
  (a list, ``pieces``/``uses`` or ``each_entry``) and ``repeat`` actions, ``optional`` chasers
  and marks, a ``gate`` with the board's gates and a key, ends on ``same_cell``, ``reaches`` and
  ``nearer``; about two in five declare enemy kinds (``enemies: {KIND: {target, first,
  steps}}``, the board's ``enemies:`` list of 0-2, on traps and keys too) and an ``each: enemy``
  whose ``do`` steps the enemy, with ``repeat: steps`` and ``if_kind``, the names ``enemies``,
  a kind's name and ``enemy`` in steps, keys, removals (enemies removing each other), stops and
  ends;
* *plain* rule sets: one to three roles in one or several ``turns`` entries (teams given or
  not), moves of one to three steps with every move option (``bump`` and ``lose_turns``
  included), collectibles with or without score tables, ends on every condition (``was_on``,
  ``collected``, ``nearer`` included), a timeout map or conditional timeout entries,
  ``collisions: stay``; where they have one or two roles, about two in five get one or two
  chasers (or enemy kinds) and a script too (the mechanisms combined with a script).

Either kind has a step limit or none, a board of 2x2 to 4x5 cells (most not square) with random
walls, pieces that may start on marks (traps, keys, exits) and optional pieces left out.  Where
the rules are of the shape exit edges are answered for (:func:`one_mover`), about one in three
boards makes the exit an edge of the border: ``marks: {exit: {edge, at}}``, or one or two edges
drawn in a map's outer border.  About one case in five gets a teleporter pair (with gates,
chasers and enemies too; ``random_case(seed, pair=True)``: every case).  The question (role,
kind, horizon, side to move, now and then a piece moved with ``--at``) is drawn too.  :func:`mechanisms` names what a case draws.  Nothing is
imported from gridsolve: the case is text, read by the real loader.

``python tests/randomrules.py SEED`` prints one case (the board file, then the question as a
comment with the commands that ask it); :func:`shrink` makes a failing case smaller.
"""
from __future__ import annotations

import json
import random
import sys
from dataclasses import dataclass, field

SCORES = (0, 30, 60, 100)
DIRECTIONS = ("horizontal", "vertical")

# The pairs of mechanisms the loader refuses today (loader.py: "bump needs steps: 1"; "chasers
# never move without an after_ply script"; "the gates change only by the after_ply script's key
# action"; exit edges only where one role moves one step alone with a script; each_entry with
# uses; nearer over a name that stands for several enemies), each with the changes to
# :data:`REFUSED_BASE` that combine them (``board``: its changes to the board).  The generator
# draws none of them; tests/test_random_rules.py checks that the loader still refuses each (the
# day one is accepted, the generator should draw it).
REFUSED_BASE = {
    "rules": {"roles": ["hero"], "turns": [["hero"]], "moves": {"hero": {"steps": 1}},
              "after_ply": [{"stop": {"reaches": {"hero": "exit"}}}],
              "ends": [{"name": "out", "when": {"reaches": {"hero": "exit"}}, "scores": {"hero": 100}}],
              "steps": {"first": 1, "last": 4}, "timeout": {"hero": 0}},
    "board": {"size": [3, 2], "pieces": {"hero": [1, 1]}, "marks": {"exit": [[3, 1]], "trap": [[2, 1]]}},
}
TWO = {"roles": ["hero", "other"], "moves": {"hero": {"steps": 1}, "other": {"steps": 1}},
       "timeout": {"hero": 0, "other": 0},
       "ends": [{"name": "out", "when": {"reaches": {"hero": "exit"}}, "scores": {"hero": 100, "other": 0}}]}
REFUSED = {
    ("bump", "moves of several steps"): {"after_ply": None,
                                         "moves": {"hero": {"steps": 2, "bump": {"marks": ["trap"]}}}},
    ("chasers", "no after_ply"): {"after_ply": None, "chasers": {"c1": {"target": "hero"}}},
    ("gate", "no after_ply"): {"after_ply": None, "gate": {"key": "trap"}},
    ("gate", "moves of several steps"): {"gate": {"key": "trap"}, "moves": {"hero": {"steps": 2}}},
    ("exit edge", "moves of several steps"): {"moves": {"hero": {"steps": 2}},
                                              "board": {"marks": {"exit": {"edge": "east", "at": 1}}}},
    ("key each_entry", "uses"): {"gate": {"key": "trap"},
                                 "after_ply": [{"key": {"pieces": ["hero"], "each_entry": True, "uses": ["hero"]}}]},
    ("nearer", "a name of several enemies"): {
        "enemies": {"m": {"target": "hero"}},
        "ends": [{"name": "near", "when": {"nearer": {"piece": "m", "than": "hero", "to": "exit"}},
                  "scores": {"hero": 0}}]},
}


def refused_case(pair: tuple[str, str]) -> str:
    """The board file of :data:`REFUSED_BASE` with the mechanisms of ``pair`` combined."""
    changes = dict(REFUSED[pair])
    rules = {k: v for k, v in {**REFUSED_BASE["rules"], **changes}.items() if v is not None and k != "board"}
    board = {**REFUSED_BASE["board"], **changes.get("board", {})}
    if "other" in rules["roles"]:
        board["pieces"] = {**board["pieces"], "other": [2, 2]}
    return write_case(rules, board)


@dataclass
class Case:
    """A random case: its board file (``text``) and the question asked about it."""

    seed: int
    text: str
    role: str
    kind: str
    horizon: int | None = None
    turn: str | None = None
    at: tuple[str, ...] = ()                       # --at placements: PIECE=X,Y
    rules: dict = field(default_factory=dict)     # the rule set as drawn (before it is written)
    board: dict = field(default_factory=dict)     # size, walls, gates, pieces, marks

    def options(self) -> list[str]:
        """The question as command-line options."""
        out = ["--role", self.role, "--query", self.kind]
        if self.horizon is not None:
            out += ["--horizon", str(self.horizon)]
        if self.turn is not None:
            out += ["--turn", self.turn]
        for placed in self.at:
            out += ["--at", placed]
        return out


def _flow(value) -> str:
    """A YAML flow value (JSON is YAML), without quotes around plain words."""
    return json.dumps(value).replace('"', "")


def write_case(rules: dict, board: dict, seed: int = 0) -> str:
    """The board file of ``rules`` (a mapping of rule keys) and ``board`` (size, walls, gates,
    pieces, enemies, marks, exit edges: ``exits`` [[side, at], ...], ``map``: drawn as a map),
    as YAML text: one key a line, the script one action a line."""
    lines = [f"name: random rule set {seed}", "rules:"]
    for key, value in rules.items():
        if key == "after_ply":
            lines.append("  after_ply:")
            lines += [f"    - {_flow(action)}" for action in value]
        elif key == "ends":
            lines.append("  ends:")
            lines += [f"    - {_flow(end)}" for end in value]
        else:
            lines.append(f"  {key}: {_flow(value)}")
    marks = dict(board.get("marks") or {})
    if board.get("map"):
        lines += ["legend: {X: exit}", "map: |2"] + [f"  {row}" for row in _draw(board)]
    else:
        lines += [f"{key}: {_flow(board[key])}" for key in ("size", "walls", "gates") if board.get(key)]
        for side, at in board.get("exits") or []:
            marks["exit"] = {"edge": side, "at": at}      # (one edge: a mark given so has one)
    lines += [f"{key}: {_flow(value)}" for key, value in (("pieces", board.get("pieces")), ("enemies",
              board.get("enemies")), ("marks", marks)) if value]
    return "\n".join(lines) + "\n"


def _draw(board: dict) -> list[str]:
    """The map of the board's size, walls, gates and exit edges (``X`` in the outer border)."""
    width, height = board["size"]
    walls, gates = board.get("walls") or {}, board.get("gates") or {}

    def has(kind, side, x, y):
        return [x, y] in kind.get(side, [])
    exits = {tuple(e) for e in board.get("exits") or []}
    rows = []
    for y in range(height, 0, -1):
        top = "+"
        for x in range(1, width + 1):
            if y == height:
                top += " X " if ("north", x) in exits else "---"
            else:
                top += "---" if has(walls, "north", x, y) else "===" if has(gates, "north", x, y) else "   "
            top += "+"
        row = "X" if ("west", y) in exits else "|"
        for x in range(1, width + 1):
            row += "   " + ("X" if ("east", y) in exits else "|") if x == width else \
                "   " + ("|" if has(walls, "east", x, y) else ":" if has(gates, "east", x, y) else " ")
        rows += [top, row]
    rows.append("+" + "".join((" X " if ("south", x) in exits else "---") + "+" for x in range(1, width + 1)))
    return rows


# --- the board --------------------------------------------------------------------------------

def _layout(rng: random.Random) -> tuple[int, int, list, list]:
    """Width, height, the cells and the interior edges (("north"|"east", [x, y]))."""
    width = rng.randint(2, 4)
    height = rng.randint(2, 5)
    if width == height and rng.random() < 0.7:
        height = min(5, height + 1)
    cells = [(x, y) for x in range(1, width + 1) for y in range(1, height + 1)]
    edges = [("north", c) for c in cells if c[1] < height] + [("east", c) for c in cells if c[0] < width]
    return width, height, cells, edges


def _border_edges(rng: random.Random, width: int, height: int, count: int) -> list:
    """``count`` edges of the border, each [side, at] (at: the column of a north or south edge,
    the row of an east or west one)."""
    edges = [[side, at] for side in ("north", "south") for at in range(1, width + 1)] + \
        [[side, at] for side in ("east", "west") for at in range(1, height + 1)]
    return rng.sample(edges, count)


def _edges(chosen) -> dict:
    return {"north": [list(c) for s, c in chosen if s == "north"], "east": [list(c) for s, c in chosen if s == "east"]}


# --- conditions and ends ----------------------------------------------------------------------

def _condition(rng: random.Random, pieces: list, marks: list, script_stop: bool = False,
               extra: dict | None = None) -> dict:
    """A random ``when`` (or ``stop``) condition over ``pieces`` and ``marks``: same_cell and
    reaches, one or both; ``extra`` may add the other kinds (was_on, collected, nearer)."""
    when = {}
    kinds = rng.sample(["same_cell", "reaches"], rng.choice([1, 1, 2])) if len(pieces) > 1 else ["reaches"]
    if "same_cell" in kinds:
        when["same_cell"] = rng.sample(pieces, 2)
    if "reaches" in kinds and marks:
        when["reaches"] = {rng.choice(pieces): rng.choice(marks)}
    if not when:
        when["same_cell" if len(pieces) > 1 else "reaches"] = (rng.sample(pieces, 2) if len(pieces) > 1
                                                               else {pieces[0]: rng.choice(marks)})
    if extra and not script_stop:
        when.update(extra)
    return when


def _scores(rng: random.Random, roles: list, low: bool | None = None) -> dict:
    out = {}
    for role in roles:
        if low is True and role == roles[0]:
            out[role] = 0
        elif low is False and role == roles[0]:
            out[role] = 100
        else:
            out[role] = rng.choice(SCORES)
    return out


# --- scripted rule sets -----------------------------------------------------------------------

KINDS = ("ma", "mb", "sc")      # the names of enemy kinds a rule set may declare (its enemies: ma1, sc2, ...)


@dataclass
class Names:
    """The names a script may use: the roles, the plain chasers, the enemy kinds (with ``enemies``,
    every enemy) and, under ``each``, ``enemy``; whether the rules have a gate."""

    roles: list
    chasers: list
    kinds: list = field(default_factory=list)
    gate: bool = False
    each: bool = False

    def movers(self) -> list:
        """Names of pieces moved by rule (``step`` and ``remove.piece`` take them)."""
        groups = (["enemies", *self.kinds] if self.kinds else []) + (["enemy"] * 3 if self.each else [])
        return self.chasers + groups

    def pieces(self) -> list:
        return self.roles + self.movers()


def _script_action(rng: random.Random, names: Names, marks: list) -> dict:
    movers, pieces = names.movers(), names.pieces()
    kinds = ["stop", "stop"] + (["step"] * 4 if movers else []) + \
        (["remove", "remove"] if movers and len(set(pieces)) > 1 else []) + (["key", "key"] if names.gate else [])
    kind = rng.choice(kinds)
    if kind == "step":
        return {"step": sorted(set(rng.sample(movers, rng.randint(1, len(movers)))), key=movers.index)}
    if kind == "stop":
        return {"stop": _condition(rng, sorted(set(pieces), key=pieces.index), marks, script_stop=True)}
    if kind == "remove":
        piece = rng.choice(movers)
        others = sorted({p for p in pieces if p != piece}, key=pieces.index)
        action = {"piece": piece, "by": rng.sample(others, rng.randint(1, min(2, len(others))))}
        if names.gate and rng.random() < 0.3:
            action["flips_on_key"] = True
        return {"remove": action}
    unique = sorted(set(pieces), key=pieces.index)
    chosen = rng.sample(unique, rng.randint(1, min(2, len(unique))))
    r = rng.random()
    if r < 0.25:
        return {"key": {"pieces": chosen, "uses": rng.sample(chosen, rng.randint(0, len(chosen)))}}
    if r < 0.55:
        return {"key": {"pieces": chosen, "each_entry": True}}
    return {"key": chosen}


def _script(rng: random.Random, names: Names, marks: list) -> list:
    script = []
    for _ in range(rng.randint(1, 3 if names.kinds else 6)):
        if rng.random() < 0.2:
            do = [_script_action(rng, names, marks) for _ in range(rng.randint(1, 3))]
            script.append({"repeat": rng.randint(1, 3), "do": do})
        else:
            script.append(_script_action(rng, names, marks))
    if names.kinds:
        script.insert(rng.randint(0, len(script)), _each(rng, names, marks))
        plain = Names(names.roles, names.chasers, gate=names.gate)
        script.insert(0, _script_action(rng, plain, marks) if plain.chasers or plain.gate else
                      {"stop": _condition(rng, names.roles, marks, script_stop=True)})
    return script


def _each(rng: random.Random, names: Names, marks: list) -> dict:
    """``each: enemy`` with ``do:`` over the enemy (``repeat: steps`` around some of it, ``if_kind``
    beside some actions), as the shipped rules/mummy-maze-order.yaml but drawn."""
    inner = Names(names.roles, names.chasers, names.kinds, names.gate, each=True)
    body = [_script_action(rng, inner, marks) for _ in range(rng.randint(1, 3))]
    for action in body:
        if rng.random() < 0.25:
            action["if_kind"] = rng.sample(names.kinds, rng.randint(1, len(names.kinds)))
    if rng.random() < 0.7:
        body.insert(0, {"step": ["enemy"]})
    if rng.random() < 0.6:
        cut = rng.randint(1, len(body))
        body = [{"repeat": "steps", "do": body[:cut]}] + body[cut:]
    return {"each": "enemy", "do": body}


def _kinds(rng: random.Random, roles: list) -> dict:
    """Enemy kinds: each with a target, a first axis and its steps."""
    return {k: {"target": rng.choice(roles), "first": rng.choice(DIRECTIONS), "steps": rng.choice([1, 1, 2])}
            for k in rng.sample(KINDS, rng.choice([1, 1, 2, 3]))}


def scripted_rules(rng: random.Random) -> tuple[dict, dict, list]:
    """A scripted rule set: (rules, what the board needs: marks, gates, enemy kinds, the pieces
    left optional; the pieces, roles and plain chasers)."""
    roles = ["hero"]
    enemies = rng.random() < 0.4
    chasers = [f"c{i}" for i in range(1, rng.choice([0, 0, 0, 1] if enemies else [0, 1, 1, 2, 2, 3]) + 1)]
    gate = rng.random() < 0.45
    marks = ["exit"] + (["trap"] if rng.random() < 0.6 else []) + (["key"] if gate else [])
    rules: dict = {"roles": roles, "turns": [roles]}
    rules["moves"] = {r: {"steps": 1, "idle": rng.random() < 0.7, "blocked": rng.choice(["illegal", "stay"])}
                      for r in roles}
    if "trap" in marks and rng.random() < 0.15:
        rules["moves"][roles[0]]["frozen_on"] = ["trap"]
    if chasers:
        rules["chasers"] = {c: {"target": rng.choice(roles), "first": rng.choice(DIRECTIONS)} for c in chasers}
    if enemies:
        rules["enemies"] = _kinds(rng, roles)
    optional = [p for p in chasers + marks[1:] if rng.random() < 0.4]
    if optional:
        rules["optional"] = optional
    if gate:
        rules["gate"] = {"key": "key"}
    names = Names(roles, chasers, list(rules.get("enemies", {})), gate)
    rules["after_ply"] = _script(rng, names, marks)
    ends = []
    movers = names.movers()
    for k in range(rng.randint(1, 4)):
        kind = rng.random()
        if kind < 0.3 and movers:
            when = {"same_cell": [rng.choice(roles), rng.choice(movers)]}
            scores = _scores(rng, roles, low=True)
        elif kind < 0.55:
            when = {"reaches": {rng.choice(roles): "exit"}}
            scores = _scores(rng, roles, low=False)
        elif kind < 0.65 and chasers:
            a, b = rng.sample(roles + chasers, 2)
            when = {"nearer": {"piece": a, "than": b, "to": rng.choice(marks)}}
            scores = _scores(rng, roles)
        else:
            when = _condition(rng, names.pieces(), marks)
            scores = _scores(rng, roles)
        ends.append({"name": f"end{k}", "when": when, "scores": scores})
    rules["ends"] = ends
    _steps(rng, rules, roles, longest=5 if enemies else 7)     # (enemies' plies cost more stages)
    return rules, {"marks": marks, "gate": gate, "optional": optional, "kinds": names.kinds}, roles + chasers


def _steps(rng: random.Random, rules: dict, roles: list, limited: float = 0.5, longest: int = 7):
    first = rng.choice([0, 1, 1])
    last = first + rng.randint(2, longest)
    rules["steps"] = {"first": first, "last": last} if rng.random() < limited else {"first": first}
    rules["timeout"] = {r: rng.choice(SCORES[1:3]) for r in roles}


# --- plain rule sets (no script) ---------------------------------------------------------------

def _move(rng: random.Random, roles: list, role: str, marks: list) -> dict:
    most = 4 - len(roles)           # the more roles, the fewer steps a move (plain clingo stays quick)
    move = {"steps": rng.choices([1, 2, 3][:most], weights=[6, 3, 1][:most])[0], "idle": rng.random() < 0.6,
            "blocked": rng.choice(["illegal", "stay"])}
    if rng.random() < 0.25:
        move["first_step_real"] = True
    if rng.random() < 0.2:
        move["end_differs_from_start"] = True
    others = [r for r in roles if r != role]
    if others and rng.random() < 0.25:
        move["may_not_end_on"] = rng.sample(others, 1)
    if "trap" in marks and rng.random() < 0.2:
        move["frozen_on"] = ["trap"]
    if move["steps"] == 1 and "wall" in marks and rng.random() < 0.5:
        move["bump"] = {"marks": ["wall"], "lose_turns": rng.randint(0, 2)}
    return move


def plain_rules(rng: random.Random) -> tuple[dict, dict, list]:
    """A rule set without a script: (rules, what the board needs, the roles)."""
    roles = ["a", "b", "c"][:rng.choice([1, 2, 2, 3])]
    marks = ["exit"] + [m for m in ("trap", "wall", "pellet") if rng.random() < 0.45]
    rules: dict = {"roles": roles}
    if len(roles) > 1:
        r = rng.random()
        if r < 0.5:
            rules["turns"] = [[x] for x in roles]            # several entries, one role each
        elif r < 0.8:
            rules["turns"] = [roles]                           # all at once
            if rng.random() < 0.6:
                rules["teams"] = [[x] for x in roles]
        else:
            rules["turns"] = [roles[:1], roles[1:]]
    rules["moves"] = {r: _move(rng, roles, r, marks) for r in roles}
    if len(rules.get("turns", [])) == 1:         # every role at once: one-step moves (plain clingo stays quick)
        for move in rules["moves"].values():
            move["steps"] = 1
    if rng.random() < 0.25 and len(roles) > 1:
        rules["collisions"] = "stay"
    tables = False
    if "pellet" in marks:
        rules["collect"] = {"pellets": {"piece": roles[0], "mark": "pellet"}}
        if rng.random() < 0.7:      # (a score table and no end counting items: the bounded solver's games)
            rules["score_tables"] = {"eaten": {"count": "pellets", "values": [0, 20, 40, 60, 80, 90, 100]}}
            tables = True
    conditional = rng.random() < 0.2
    ends = []
    for k in range(rng.randint(1, 4)):
        extra = {}
        r = rng.random()
        if r < 0.2 and "pellet" in marks and not tables:
            extra["collected"] = {"pellets": rng.choice(["all", 1, 2])}
        elif r < 0.35:
            extra["was_on"] = {rng.choice(roles): rng.choice(marks)}
        elif r < 0.45 and len(roles) > 1:
            a, b = rng.sample(roles, 2)
            extra["nearer"] = {"piece": a, "than": b, "to": rng.choice(marks)}
        when = _condition(rng, roles, marks, extra=extra) if rng.random() < 0.8 or not extra else extra
        scores = _scores(rng, roles, low=rng.choice([True, False, None]))
        if tables and rng.random() < 0.7:
            scores[roles[0]] = "eaten"
        end = {"name": f"end{k}", "when": when, "scores": scores}
        if tables or conditional:
            end["loss_for"] = [r for r in roles if scores[r] == 0]
        ends.append(end)
    rules["ends"] = ends
    _steps(rng, rules, roles, limited=0.8, longest=4)
    if conditional:
        rules["timeout"] = [{"when": _condition(rng, roles, marks), "scores": _scores(rng, roles)},
                            {"scores": rules["timeout"]}]
    return rules, {"marks": marks, "gate": False, "optional": [], "kinds": []}, roles


def with_script(rng: random.Random, rules: dict, needs: dict, roles: list) -> list:
    """A plain rule set with one or two chasers (or enemy kinds) and an ``after_ply`` script
    added (a script combined with several turns entries, moves of several steps, bumps, items and
    ``was_on``), maybe an end where a chaser catches a role first; the pieces."""
    kinds = _kinds(rng, roles) if rng.random() < 0.3 else {}
    chasers = [f"c{i}" for i in range(1, rng.choice([0, 1] if kinds else [1, 1, 2]) + 1)]
    if chasers:
        rules["chasers"] = {c: {"target": rng.choice(roles), "first": rng.choice(DIRECTIONS)} for c in chasers}
    if kinds:
        rules["enemies"] = kinds
        needs["kinds"] = list(kinds)
    names = Names(roles, chasers, list(kinds))
    rules["after_ply"] = _script(rng, names, needs["marks"])
    if rng.random() < 0.5:
        caught = {"same_cell": [rng.choice(roles), rng.choice(names.movers())]}
        end = {"name": "caught", "when": caught, "scores": _scores(rng, roles, low=True)}
        if any("loss_for" in e for e in rules["ends"]):
            end["loss_for"] = [r for r in roles if end["scores"][r] == 0]
        rules["ends"] = [end, *rules["ends"]]
    return roles + chasers


def one_mover(rules: dict) -> bool:
    """Whether the rules are of the shape exit edges are answered for (docs/rule-language.md, "An
    exit on the border edge"): one role alone moving one step, a script, no items, bumps or
    ``was_on`` (the loader's Rules.one_mover_script, read from the rules as drawn)."""
    conditions = [e["when"] for e in rules["ends"]] + [t.get("when") or {} for t in
                                                       (rules["timeout"] if isinstance(rules["timeout"], list) else [])]
    return ("after_ply" in rules and len(rules.get("turns", [rules["roles"]])) == 1 and len(rules["roles"]) == 1
            and "collect" not in rules and not any("was_on" in w for w in conditions)
            and all(m.get("steps", 1) == 1 and "bump" not in m for m in rules.get("moves", {}).values()))


# --- the case ----------------------------------------------------------------------------------

def random_case(seed: int, pair: bool = False, crates: bool = False) -> Case:
    """One random rule set with a random board and question (``pair``: with a teleporter pair
    wherever the loader takes one, the rest of the case as without it; ``crates``: with crates
    wherever the loader takes them, the moves' bumps and frozen marks dropped for them)."""
    rng = random.Random(seed * 1_000_003 + 39)
    rules, needs, pieces = scripted_rules(rng) if rng.random() < 0.67 else plain_rules(rng)
    if "after_ply" not in rules and len(pieces) <= 2 and rng.random() < 0.4:
        pieces = with_script(rng, rules, needs, pieces)
    roles = rules["roles"]
    width, height, cells, edges = _layout(rng)
    walls = [e for e in edges if rng.random() < rng.uniform(0, 0.3)]
    board: dict = {"size": [width, height]}
    if walls:
        board["walls"] = _edges(walls)
    if needs["gate"]:
        open_edges = [e for e in edges if e not in walls]
        gates = rng.sample(open_edges, min(len(open_edges), rng.randint(0, 2)))
        if gates:
            board["gates"] = _edges(gates)
    free = list(cells)
    rng.shuffle(free)
    marks = {}
    for mark in needs["marks"]:
        if mark in needs["optional"] and rng.random() < 0.5:
            continue
        count = 1 if mark in ("exit", "key") else rng.randint(1, 3)
        marks[mark] = [list(c) for c in rng.sample(cells, count)]
    if one_mover(rules) and rng.random() < 0.35:     # the exit an edge of the border (or two, drawn in a map)
        del marks["exit"]
        board["exits"] = _border_edges(rng, width, height, rng.choice([1, 1, 2]))
        board["map"] = len(board["exits"]) > 1 or rng.random() < 0.4
    board["marks"] = marks
    if needs["kinds"]:
        most = 3 - len(pieces)          # (three pieces at most: each enemy costs its kind's steps in stages)
        count = min(most, rng.choice([0, 1, 1, 1, 2, 2]))
        pieces = pieces + [f"{kind}{i}" for i, kind in
                           enumerate((rng.choice(needs["kinds"]) for _ in range(count)), 1)]
    placed = {}
    for piece in pieces:
        if piece in needs["optional"] and rng.random() < 0.5:
            continue                                    # left out: off the board
        marked = [tuple(c) for cs in marks.values() for c in cs]
        spots = [c for c in free if c not in placed.values()]
        on_mark = [c for c in marked if c not in placed.values()]
        cell = rng.choice(on_mark) if on_mark and rng.random() < 0.3 else spots[0]
        placed[piece] = cell
    board["pieces"] = {p: list(c) for p, c in placed.items() if p in rules["roles"] or p in rules.get("chasers", {})}
    enemies = [p for p in placed if p not in board["pieces"]]
    if enemies:
        board["enemies"] = [{"kind": p.rstrip("0123456789"), "at": list(placed[p])} for p in enemies]
    _teleporters(seed, rules, board, cells, pair)
    _crates(seed, rules, board, cells, crates)
    role = roles[0] if "score_tables" in rules and rng.random() < 0.7 else rng.choice(roles)
    kind = rng.choice(["value", "value", "win", "survive"])
    limited = rules["steps"].get("last") is not None
    horizon = None
    scripted = "after_ply" in rules
    endless = not scripted or len(pieces) > 2 or width * height > (8 if needs["kinds"] else 12)
    if not limited and endless or rng.random() < 0.2:      # (a horizon where the whole game costs)
        horizon = rng.randint(0, 6)
    turn = rng.choice(roles) if len(rules.get("turns", [roles])) > 1 and rng.random() < 0.3 else None
    at = ()
    if rng.random() < 0.25:          # a question from another position: a piece moved (maybe onto another)
        piece = rng.choice(sorted(placed))
        x, y = rng.choice(cells)
        at = (f"{piece}={x},{y}",)
        if [x, y] in board["marks"].get("crate", []) and "crates" in rules:
            at = ()         # (no piece stands on a crate)
    return Case(seed, write_case(rules, board, seed), role, kind, horizon, turn, at, rules, board)


def _teleporters(seed: int, rules: dict, board: dict, cells: list, always: bool = False) -> None:
    """About one case in five (``always``: every case) gets a teleporter pair (a mark ``portal``
    on two cells of the board) for every role or some, with gates and enemies too; drawn from a
    generator of its own, so that the rest of each seed's case is what it was before teleporters
    were drawn.  (Not with hidden marks: the loader refuses those.)"""
    rng = random.Random(seed * 7_919 + 44)
    if (rng.random() >= 0.2 and not always) or len(cells) < 2 or "placement" in rules:
        return
    roles = rules["roles"]
    pieces = rng.sample(roles, rng.randint(1, len(roles))) if rng.random() < 0.3 else None
    rules["teleporters"] = {"pairs": ["portal"], **({"pieces": sorted(pieces)} if pieces else {})}
    board["marks"]["portal"] = [list(c) for c in rng.sample(cells, 2)]


def _crates(seed: int, rules: dict, board: dict, cells: list, always: bool = False) -> None:
    """About one case in two of those the loader takes crates with (no script, no hidden marks,
    bumps, frozen marks, gate or teleporters, one role a turns entry, no ``blocked: stay`` move
    with ``may_not_end_on`` or ``end_differs_from_start``) gets one or two crates on free cells,
    pushed by some of the roles, and now and then an end that also asks for a crate on a mark;
    drawn from a generator of its own (the rest of each seed's case as before crates were drawn).
    ``always``: every case without a script, hidden marks, a gate, teleporters or roles moving at
    once, its moves' bumps and frozen marks dropped (and ``blocked: illegal`` where a move that
    stays may not end on a piece or its start)."""
    rng = random.Random(seed * 6_113 + 71)
    moves = rules["moves"].values()
    if always and not ("after_ply" in rules or "placement" in rules or "gate" in rules or "teleporters" in rules):
        for move in moves:
            move.pop("bump", None)
            move.pop("frozen_on", None)
            if move.get("may_not_end_on") or move.get("end_differs_from_start"):
                move["blocked"] = "illegal"
    if ((rng.random() >= 0.5 and not always) or "after_ply" in rules or "placement" in rules or "gate" in rules
            or "teleporters" in rules or any(len(t) > 1 for t in rules.get("turns", [rules["roles"]]))
            or any(m.get("bump") or m.get("frozen_on") for m in moves)
            or any(m["blocked"] == "stay" and (m.get("may_not_end_on") or m.get("end_differs_from_start"))
                   for m in moves)):
        return
    taken = {tuple(c) for c in board["pieces"].values()}
    free = [c for c in cells if c not in taken]
    if not free:
        return
    crates = rng.sample(free, min(len(free), rng.choice([1, 1, 2])))
    board["marks"]["crate"] = [list(c) for c in crates]
    rules["crates"] = {"mark": "crate"}
    for role in rng.sample(rules["roles"], rng.randint(1, len(rules["roles"]))):
        rules["moves"][role]["pushes"] = "crates"
    if rng.random() < 0.5:
        mark = rng.choice(sorted(board["marks"]))
        rng.choice(rules["ends"])["when"]["crates_on"] = {mark: rng.choice(["all", 1])}


# --- what a case draws ---------------------------------------------------------------------------

def _actions(script: list):
    for action in script:
        yield action
        yield from _actions(action.get("do") or [])


def mechanisms(case: Case) -> set[str]:
    """The mechanisms ``case`` draws, by name (tests/test_random_rules.py counts them over the
    tiers' seeds)."""
    rules, board = case.rules, case.board
    groups = {"enemies", "enemy", *(rules.get("enemies") or {})}
    out = set()
    for action in _actions(rules.get("after_ply") or []):
        kind = next(k for k in ("step", "stop", "remove", "key", "repeat", "each") if k in action)
        out.add(f"script {kind}")
        if kind == "repeat":
            out.add("repeat: steps" if action["repeat"] == "steps" else "repeat N")
        if "if_kind" in action:
            out.add("if_kind")
        if kind == "key" and isinstance(action["key"], dict):
            out.add("key each_entry" if action["key"].get("each_entry") else "key uses")
        if kind == "remove":
            spec = action["remove"]
            if spec.get("flips_on_key"):
                out.add("remove flips_on_key")
            if spec["piece"] in groups and groups & set(spec["by"]):
                out.add("enemies remove each other")
    for spec in list((rules.get("chasers") or {}).values()) + list((rules.get("enemies") or {}).values()):
        out.add(f"axis {spec['first']}")
    if rules.get("chasers"):
        out.add("chasers")
    if rules.get("enemies"):
        out.add("enemy kinds")
        out.add("enemies on the board" if board.get("enemies") else "enemy kinds, none on the board")
        if any(spec["steps"] > 1 for spec in rules["enemies"].values()):
            out.add("enemy kind of several steps")
    if board.get("exits"):
        out.add("exit edge in a map" if board.get("map") else "exit edge")
    for end in rules["ends"]:
        out |= {f"end {condition}" for condition in end["when"]}
    out.add("several turns entries" if len(rules.get("turns", [rules["roles"]])) > 1 else "one turns entry")
    out.add("step limit" if "last" in rules["steps"] else "no step limit")
    if "collect" in rules:
        out.add("collectibles")
    if "gate" in rules:
        out.add("gates")
    if "crates" in rules:
        out.add("crates")
    if "teleporters" in rules:
        out.add("teleporters")
        out |= {name for name, drawn in (("teleporters and gates on the board", board.get("gates")),
                                         ("teleporters and chasers", rules.get("chasers")),
                                         ("teleporters and enemy kinds", rules.get("enemies"))) if drawn}
    if board["size"][0] != board["size"][1]:
        out.add("non-square board")
    marked = {tuple(c): mark for mark, cells in board["marks"].items() for c in cells}
    starts = [(p, tuple(c)) for p, c in board["pieces"].items()] + \
        [(f"{e['kind']}{i}", tuple(e["at"])) for i, e in enumerate(board.get("enemies") or [], 1)]
    enemies = {f"{e['kind']}{i}" for i, e in enumerate(board.get("enemies") or [], 1)}
    for piece, cell in starts:
        if cell in marked:
            out.add("piece starts on a mark")
            if piece in enemies and marked[cell] in ("trap", "key"):
                out.add(f"enemy starts on a {marked[cell]}")
    optional = rules.get("optional") or []
    if any(p in optional and p not in board["pieces"] for p in rules.get("chasers") or {}):
        out.add("optional piece left out")
    if any(m in optional and m not in board["marks"] for m in ("trap", "key")):
        out.add("optional mark left out")
    return out


# --- shrinking ---------------------------------------------------------------------------------

def _smaller_scripts(script: list):
    """Scripts one step smaller: an action left out, a repeat counted down or unrolled (a
    ``repeat: steps`` and an ``each`` only left out or their ``do`` made smaller), an ``if_kind``
    dropped, an action of a ``do`` left out or made smaller."""
    for i, action in enumerate(script):
        def put(*actions):
            return script[:i] + list(actions) + script[i + 1:]
        yield put()
        if isinstance(action.get("repeat"), int):
            if action["repeat"] > 1:
                yield put({**action, "repeat": action["repeat"] - 1})
            yield put(*action["do"])
        if "if_kind" in action:
            yield put({k: v for k, v in action.items() if k != "if_kind"})
        for do in _smaller_scripts(action.get("do") or []):
            if do:
                yield put({**action, "do": do})


def _smaller(rules: dict, board: dict):
    """Candidates one step smaller than (rules, board): a smaller script, an end, a wall, a gate,
    a mark cell, an exit edge, an optional piece or an enemy left out, a map written as keys."""
    def with_rules(**changes):
        return {**rules, **changes}, board

    def with_board(**changes):
        return rules, {**board, **changes}
    for script in _smaller_scripts(rules.get("after_ply", [])):
        yield with_rules(after_ply=script)
    enemies = board.get("enemies") or []
    for i in range(len(enemies)):
        yield with_board(enemies=enemies[:i] + enemies[i + 1:])
    exits = board.get("exits") or []
    for i in range(len(exits)):
        yield with_board(exits=exits[:i] + exits[i + 1:])
    if board.get("map") and len(exits) <= 1:
        yield with_board(map=False)
    ends = rules["ends"]
    for i in range(len(ends)):
        if len(ends) > 1:
            yield with_rules(ends=ends[:i] + ends[i + 1:])
    for kind in ("walls", "gates"):
        for side in ("north", "east"):
            cells = (board.get(kind) or {}).get(side, [])
            for i in range(len(cells)):
                yield with_board(**{kind: {**board[kind], side: cells[:i] + cells[i + 1:]}})
    for mark, cells in board.get("marks", {}).items():
        for i in range(len(cells)):
            if len(cells) > 1:
                yield with_board(marks={**board["marks"], mark: cells[:i] + cells[i + 1:]})
    for piece in board.get("pieces", {}):
        if piece in rules.get("optional", []):
            yield with_board(pieces={p: c for p, c in board["pieces"].items() if p != piece})
    width, height = board["size"]
    for size in ([width - 1, height], [width, height - 1]):
        if min(size) >= 1:
            yield with_board(size=size)


def shrink(rules: dict, board: dict, fails) -> tuple[dict, dict]:
    """A smaller (rules, board) on which ``fails(text)`` still holds (greedy: take the first
    smaller candidate that still fails, until none does).  A candidate the loader refuses (a
    piece off a smaller board) simply does not fail."""
    changed = True
    while changed:
        changed = False
        for candidate in _smaller(rules, board):
            if fails(write_case(*candidate)):
                rules, board = candidate
                changed = True
                break
    return rules, board


if __name__ == "__main__":     # python tests/randomrules.py SEED [pair]: print one case (pair: with a teleporter pair)
    case = random_case(int(sys.argv[1]) if len(sys.argv) > 1 else 0, pair=sys.argv[2:3] == ["pair"])
    options = " ".join(case.options())
    print(case.text, end="")
    print(f"# question: {options}\n# gridsolve solve BOARD {options}\n"
          f"# gridsolve compile BOARD {options} | python -m clingo")
