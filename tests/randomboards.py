"""Random small boards as YAML text, for the differential tests (the loader is exercised too).

``random_board(seed)`` is deterministic: the same seed gives the same text.  It returns a
:class:`RandomBoard`: the YAML (``text``; half the boards as an ASCII ``map``, half as explicit
``size``/``walls``/``pieces``/``marks``) and what the loader should make of the layout, written
down independently of the loader: size, blocked edges, solid cells, pieces and marks.  The rules
are written inline and draw every rule option at random.  ``random_mechanism_board(seed)`` gives
tiny boards with two or three roles whose rules draw the newer mechanisms (simultaneous moves,
teams, collisions, collectibles and score tables, frozen_on, bumps, was_on, nearer, conditional
timeouts).  ``python tests/randomboards.py SEED`` prints a board, ``... SEED mech`` one of the
second kind.
"""
from __future__ import annotations

import json
import random
from dataclasses import dataclass, field

ROLES = ("explorer", "mummy")
SCORES = (0, 25, 50, 75, 100)


@dataclass
class RandomBoard:
    seed: int
    text: str
    width: int
    height: int
    north: set = field(default_factory=set)   # as the loader should build them
    east: set = field(default_factory=set)
    solid: set = field(default_factory=set)
    pieces: dict = field(default_factory=dict)
    marks: dict = field(default_factory=dict)
    free: list = field(default_factory=list)  # cells a piece may stand on
    box: tuple | None = None                    # a cell walled in on all four sides


def _flow(value) -> str:
    """A YAML flow value (JSON is YAML) without quotes around plain words."""
    text = json.dumps(value)
    return text.replace('"', "")


def _draw_flags(rng: random.Random, rule: dict, flags, p_blocked: float):
    """Each (key, p_true, p_given) of ``flags`` given with p_given (true with p_true), then
    ``blocked`` with p_blocked."""
    for key, p_true, p_given in flags:
        if rng.random() < p_given:
            rule[key] = rng.random() < p_true
    if rng.random() < p_blocked:
        rule["blocked"] = rng.choice(["illegal", "stay"])


def _move_rule(rng: random.Random, role: str) -> dict:
    rule = {}
    steps = rng.choices([1, 2, 3], weights=[5, 5, 1])[0]
    if steps != 1 or rng.random() < 0.5:
        rule["steps"] = steps
    _draw_flags(rng, rule, (("idle", 0.6, 0.7), ("first_step_real", 0.4, 0.6),
                            ("end_differs_from_start", 0.3, 0.6)), 0.7)
    r = rng.random()
    if r < 0.3:
        rule["may_not_end_on"] = [next(x for x in ROLES if x != role)]
    elif r < 0.4:
        rule["may_not_end_on"] = [role]
    elif r < 0.5:
        rule["may_not_end_on"] = []
    return rule


def _scores(rng: random.Random) -> dict:
    kind = rng.random()
    if kind < 0.5:
        e = rng.choice([0, 100])
        return {"explorer": e, "mummy": 100 - e}
    if kind < 0.7:
        e = rng.choice([25, 75])
        return {"explorer": e, "mummy": 100 - e}
    return {"explorer": rng.choice(SCORES), "mummy": rng.choice(SCORES)}


def random_rules(rng: random.Random) -> dict:
    roles = list(ROLES) if rng.random() < 0.75 else list(reversed(ROLES))
    rules: dict = {"name": "random", "roles": roles}
    r = rng.random()
    if r < 0.4:
        rules["turns"] = [[x] for x in roles]
    elif r < 0.6:
        rules["turns"] = [[x] for x in reversed(roles)]
    moves = {role: _move_rule(rng, role) for role in ROLES if rng.random() < 0.9}
    rules["moves"] = moves
    capture = {"name": "captured", "when": {"same_cell": ["explorer", "mummy"]}}
    escape = {"name": "escaped", "when": {"reaches": {"explorer": "exit"}}}
    if rng.random() < 0.6:    # the classic scores
        capture["scores"] = {"explorer": 0, "mummy": 100}
        escape["scores"] = {"explorer": 100, "mummy": 0}
    else:
        capture["scores"], escape["scores"] = _scores(rng), _scores(rng)
    ends = [capture, escape] if rng.random() < 0.5 else [escape, capture]
    if rng.random() < 0.25:   # a conjunction, somewhere in the order
        extra = rng.choice([
            {"same_cell": ["mummy", "explorer"], "reaches": {"explorer": "exit"}},
            {"reaches": {"mummy": "exit", "explorer": "exit"}},
            {"reaches": {"mummy": "exit"}},
        ])
        ends.insert(rng.randrange(len(ends) + 1), {"name": "both", "when": extra, "scores": _scores(rng)})
    timeout = {"explorer": rng.choice(SCORES), "mummy": rng.choice(SCORES)}
    if rng.random() < 0.4:    # the timeout score equal to some end's score
        end = rng.choice(ends)
        role = rng.choice(ROLES)
        timeout[role] = end["scores"][role]
    for end in ends:
        if rng.random() < 0.3:
            end["loss_for"] = [x for x in ROLES if rng.random() < 0.5]
    rules["ends"] = ends
    first = rng.choice([0, 1])
    last = rng.randint(max(4, first + 1), 14)
    rules["steps"] = {"first": first, "last": last} if first != 1 or rng.random() < 0.5 else {"last": last}
    rules["timeout"] = timeout
    return rules


def _rules_yaml(rules: dict) -> list[str]:
    lines = ["rules:"]
    for key, value in rules.items():
        if key == "moves" and not value:
            lines.append("  moves: {}")
        elif key == "moves":
            lines.append("  moves:")
            for role, rule in value.items():
                lines.append(f"    {role}: {_flow(rule)}")
        elif key == "ends":
            lines.append("  ends:")
            for end in value:
                lines.append(f"    - name: {end['name']}")
                lines.append(f"      when: {_flow(end['when'])}")
                lines.append(f"      scores: {_flow(end['scores'])}")
                if "loss_for" in end:
                    lines.append(f"      loss_for: {_flow(end['loss_for'])}")
        else:
            lines.append(f"  {key}: {_flow(value)}")
    return lines


def _draw_map(b: RandomBoard, glyph: dict, labels: bool) -> list[str]:
    """The ASCII map, drawn here (not with gridsolve.language.asciimap) so the parser is checked."""
    pad = 3 if labels else 0
    lines = []
    if labels:
        lines.append(" " * (pad + 1) + "".join(f"{x:^4}" for x in range(1, b.width + 1)).rstrip())
    for y in range(b.height, 0, -1):
        top = "+" + "+".join("---" if y == b.height or (x, y) in b.north else "   "
                             for x in range(1, b.width + 1)) + "+"
        lines.append(" " * pad + top)
        row = "|"
        for x in range(1, b.width + 1):
            row += "###" if (x, y) in b.solid else f" {glyph.get((x, y), ' ')} "
            row += "|" if x == b.width or (x, y) in b.east else " "
        lines.append((f"{y:>2} " if labels else "") + row)
    lines.append(" " * pad + "+---" * b.width + "+")
    return lines


def random_board(seed: int) -> RandomBoard:
    rng = random.Random(seed)
    width, height = rng.randint(3, 6), rng.randint(3, 6)
    big = rng.random() < 0.15           # else keep the state space small
    while width * height > 25 and not big:
        if width >= height:
            width -= 1
        else:
            height -= 1
    use_map = rng.random() < 0.5
    b = RandomBoard(seed, "", width, height)
    cells = [(x, y) for x in range(1, width + 1) for y in range(1, height + 1)]
    density = rng.choice([0.1, 0.25, 0.4])
    north = {(x, y) for x, y in cells if y < height and rng.random() < density}
    east = {(x, y) for x, y in cells if x < width and rng.random() < density}
    if rng.random() < 0.3:                # a walled-in cell: pieces there may have no move
        x, y = b.box = rng.choice(cells)
        north |= {c for c in ((x, y), (x, y - 1)) if 1 <= c[1] < height}
        east |= {c for c in ((x, y), (x - 1, y)) if 1 <= c[0] < width}
    if use_map and rng.random() < 0.4:
        b.solid = set(rng.sample(cells, rng.randint(1, 2)))
    b.north, b.east = north, east
    b.free = [c for c in cells if c not in b.solid]
    if b.box in b.solid:
        b.box = None
    placed = rng.sample(b.free, 2)
    b.pieces = dict(zip(ROLES, placed))
    exits = set(rng.sample(b.free, rng.choice([1, 1, 2])))
    b.marks = {"exit": exits}
    rules = random_rules(rng)
    if b.box and rng.random() < 0.6:      # a piece in the box then has no move at all
        role = rng.choice(ROLES)
        rules["moves"][role] = {**rules["moves"].get(role, {}), "end_differs_from_start": True}

    lines = [f"# random board, seed {seed}", f"name: random-{seed}"]
    lines += _rules_yaml(rules)
    if use_map:
        letters = rng.choice([("E", "M", "X"), ("A", "P", "Q"), ("e", "m", "x")])
        legend = dict(zip(letters, ("explorer", "mummy", "exit")))
        glyph, extra_pieces, extra_marks = {}, {}, []
        for role, cell in b.pieces.items():
            glyph[cell] = letters[ROLES.index(role)]
        for cell in sorted(exits):
            if cell in glyph or rng.random() < 0.2:
                extra_marks.append(cell)      # cannot draw two things on a cell: list it
            else:
                glyph[cell] = letters[2]
        if rng.random() < 0.2:                # a piece given under pieces:, not drawn
            role = rng.choice(ROLES)
            del glyph[b.pieces[role]]
            extra_pieces[role] = b.pieces[role]
        labels = rng.random() < 0.5
        lines.append(f"legend: {_flow(legend)}")
        lines.append("map: |2" if labels else "map: |")
        lines += ["  " + line for line in _draw_map(b, glyph, labels)]
        if extra_pieces:
            lines.append(f"pieces: {_flow({r: list(c) for r, c in extra_pieces.items()})}")
        if extra_marks:
            lines.append(f"marks: {_flow({'exit': [list(c) for c in extra_marks]})}")
    else:
        lines.append(f"size: [{width}, {height}]")
        given_north, given_east = sorted(north), sorted(east)
        if rng.random() < 0.3:                # walls on the outer edge are allowed and change nothing
            given_north.append((rng.randint(1, width), height))
            given_east.append((width, rng.randint(1, height)))
            b.north = set(given_north)
            b.east = set(given_east)
        if given_north or given_east or rng.random() < 0.5:
            walls = []
            if given_north or rng.random() < 0.5:
                walls.append(f"  north: {_flow([list(c) for c in given_north])}")
            if given_east or rng.random() < 0.5:
                walls.append(f"  east: {_flow([list(c) for c in given_east])}")
            lines += ["walls:", *walls] if walls else ["walls: {}"]
        lines.append("pieces:")
        for role, (x, y) in b.pieces.items():
            lines.append(f"  {role}: [{x}, {y}]")
        lines.append(f"marks: {{exit: {_flow([list(c) for c in sorted(exits)])}}}")
    b.text = "\n".join(lines) + "\n"
    return b


# --- boards with the newer mechanisms --------------------------------------------------------
#
# Two or three roles on a 3x3..4x4 board, with simultaneous moves, teams, collisions: stay,
# collectibles and score tables, frozen_on, bump with lost turns, was_on, nearer and
# conditional timeout entries, each drawn at random (some boards draw none of them).

MECH_ROLES = ("ann", "bob", "cyd")
ITEM_MARKS = ("coin", "gem")


def _partition(rng: random.Random, roles: list, p_alone: float) -> list[list]:
    """A random ordered partition of ``roles`` (each role alone with probability ``p_alone``)."""
    roles = list(roles)
    rng.shuffle(roles)
    parts: list[list] = []
    for role in roles:
        if parts and rng.random() > p_alone:
            rng.choice(parts).append(role)
        else:
            parts.append([role])
    return parts


def _mech_move(rng: random.Random, role: str, roles: list, alone: bool, marks: dict) -> dict:
    rule: dict = {}
    bump = "mud" in marks and rng.random() < 0.6
    steps = 2 if alone and not bump and rng.random() < 0.2 else 1
    if steps != 1 or rng.random() < 0.3:
        rule["steps"] = steps
    _draw_flags(rng, rule, (("idle", 0.7, 0.6), ("first_step_real", 0.3, 0.3),
                            ("end_differs_from_start", 0.3, 0.3)), 0.5)
    r = rng.random()
    others = [x for x in roles if x != role]
    if r < 0.35:
        rule["may_not_end_on"] = [rng.choice(others)]
    elif r < 0.45:
        rule["may_not_end_on"] = list(others)
    elif r < 0.5:
        rule["may_not_end_on"] = [role]
    if "ice" in marks and rng.random() < 0.6:
        rule["frozen_on"] = ["ice"]
    elif "goal" in marks and rng.random() < 0.1:
        rule["frozen_on"] = ["goal"]
    if bump:
        rule["bump"] = {"marks": ["mud"]}
        if rng.random() < 0.7:
            rule["bump"]["lose_turns"] = rng.choice([0, 1, 1, 2])
    return rule


def _mech_condition(rng: random.Random, roles: list, collect: dict, items: dict, parts: int,
                    marks: dict) -> dict:
    when: dict = {}
    kinds = ["same_cell", "reaches", "reaches", "was_on", "nearer"] + ["collected"] * (2 if collect else 0)
    for kind in rng.sample(kinds, parts):
        if kind == "same_cell" and "same_cell" not in when:
            when["same_cell"] = rng.sample(roles, 3 if len(roles) == 3 and rng.random() < 0.5 else 2)
        elif kind == "reaches":
            when.setdefault("reaches", {})[rng.choice(roles)] = "goal"
        elif kind == "was_on":
            when.setdefault("was_on", {})[rng.choice(roles)] = rng.choice(["goal", "goal", *(m for m in ("mud", "ice", "coin") if m in marks)])
        elif kind == "nearer" and "nearer" not in when:
            piece, than = rng.sample(roles, 2)
            when["nearer"] = {"piece": piece, "than": than, "to": "goal"}
        elif kind == "collected":
            name = rng.choice(sorted(collect))
            when.setdefault("collected", {})[name] = rng.choice(["all", *range(1, items[name] + 2)])
    return when or {"same_cell": rng.sample(roles, 2)}


def random_mechanism_rules(rng: random.Random, roles: list, marks: dict) -> dict:
    """Rules for the roles on a board with ``marks`` {mark: cells}: every newer mechanism drawn
    at random."""
    rules: dict = {"name": "random-mechanisms", "roles": roles}
    r = rng.random()
    if r < 0.25:
        turns = [[x] for x in roles]
        rng.shuffle(turns)
    elif r < 0.45:
        turns = [list(roles)]
        rng.shuffle(turns[0])
    else:
        turns = _partition(rng, roles, 0.5)
    if turns != [[x] for x in roles] or rng.random() < 0.5:
        rules["turns"] = turns
    if rng.random() < 0.5:
        rules["teams"] = _partition(rng, roles, 0.6)
    if rng.random() < 0.4:
        rules["collisions"] = "stay"
    elif rng.random() < 0.1:
        rules["collisions"] = "allowed"
    alone = {x: len(next(e for e in turns if x in e)) == 1 for x in roles}
    moves = {x: _mech_move(rng, x, roles, alone[x], marks) for x in roles if rng.random() < 0.9}
    rules["moves"] = moves
    collect, items, tables = {}, {}, {}
    for mark in ITEM_MARKS:
        if mark in marks:
            name = {"coin": "coins", "gem": "gems"}[mark]
            collect[name] = {"piece": rng.choice(roles), "mark": mark}
            items[name] = len(marks[mark])
            if rng.random() < 0.7:
                values = sorted(rng.choice([0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100])
                                for _ in range(items[name] + 1 + rng.choice([0, 0, 1])))
                if rng.random() < 0.3:
                    rng.shuffle(values)
                tables[f"{name}_score"] = {"count": name, "values": values}
    if collect:
        rules["collect"] = collect
    if tables:
        rules["score_tables"] = tables
    score_pool = [0, 25, 50, 75, 100]

    def score():
        if tables and rng.random() < 0.35:
            return rng.choice(sorted(tables))
        return rng.choice(score_pool)

    ends = []
    for i in range(rng.choice([1, 2, 2, 3])):
        when = _mech_condition(rng, roles, collect, items, rng.choice([1, 1, 2]), marks)
        ends.append({"name": f"end{i + 1}", "when": when, "scores": {x: score() for x in roles}})
    conditional = rng.random() < 0.4
    if conditional:
        timeout = [{"when": _mech_condition(rng, roles, collect, items, rng.choice([1, 1, 2]), marks),
                    "scores": {x: score() for x in roles}} for _ in range(rng.choice([1, 2]))]
        timeout.append({"scores": {x: score() for x in roles}})
    else:
        timeout = {x: score() for x in roles}
    for end in ends:
        if tables or conditional or rng.random() < 0.5:
            end["loss_for"] = [x for x in roles if rng.random() < 0.4]
    rules["ends"] = ends
    first = rng.choice([0, 1])
    rules["steps"] = {"first": first, "last": first + rng.randint(3, 10)}
    rules["timeout"] = timeout
    return rules


def _marks_used(rules: dict) -> set:
    text = json.dumps(rules)
    return {m for m in ("goal", "mud", "ice", *ITEM_MARKS) if f'"{m}"' in text}


def random_mechanism_board(seed: int) -> RandomBoard:
    """A tiny board with 2-3 roles whose rules draw the newer mechanisms (see above)."""
    rng = random.Random(7_919 * seed + 3)
    n = rng.choice([2, 2, 3])
    roles = list(MECH_ROLES[:n])
    rng.shuffle(roles)
    if n == 3:
        width, height = rng.choice([(3, 3), (3, 3), (4, 3), (3, 4)])
    else:
        width, height = rng.choice([(3, 3), (4, 3), (3, 4), (4, 4)])
    use_map = rng.random() < 0.35
    b = RandomBoard(seed, "", width, height)
    cells = [(x, y) for x in range(1, width + 1) for y in range(1, height + 1)]
    density = rng.choice([0.0, 0.1, 0.2])
    b.north = {(x, y) for x, y in cells if y < height and rng.random() < density}
    b.east = {(x, y) for x, y in cells if x < width and rng.random() < density}
    if use_map and rng.random() < 0.3:
        b.solid = {rng.choice(cells)}
    b.free = [c for c in cells if c not in b.solid]
    b.pieces = dict(zip(roles, rng.sample(b.free, n)))
    marks: dict = {"goal": set(rng.sample(b.free, rng.choice([1, 1, 2])))}
    if rng.random() < 0.5:
        marks["coin"] = set(rng.sample(b.free, rng.choice([1, 2, 3])))
    if n == 2 and "coin" in marks and rng.random() < 0.3:
        marks["gem"] = set(rng.sample(b.free, rng.choice([1, 2])))
    if rng.random() < 0.4:
        marks["mud"] = set(rng.sample(b.free, rng.choice([1, 2])))
    if rng.random() < 0.3:
        marks["ice"] = set(rng.sample(b.free, 1))
    for mark in ("mud", "ice", "coin"):      # on a goal cell: the mechanisms meet
        if mark in marks and rng.random() < 0.3:
            marks[mark].add(rng.choice(sorted(marks["goal"])))
    rules = random_mechanism_rules(rng, roles, marks)
    used = _marks_used(rules) | {"goal"}
    b.marks = {m: frozenset(c) for m, c in marks.items() if m in used}

    lines = [f"# random board with the newer mechanisms, seed {seed}", f"name: mechanisms-{seed}"]
    lines += _rules_yaml(rules)
    listed = {m: sorted(c) for m, c in b.marks.items()}
    if use_map:
        letters = {"ann": "A", "bob": "B", "cyd": "C"}
        glyph = {cell: letters[role] for role, cell in b.pieces.items()}
        legend = {letters[r]: r for r in roles}
        for mark, char in (("goal", "G"), ("coin", "o"), ("mud", "m")):
            if mark not in listed or rng.random() < 0.3:
                continue
            drawn = [c for c in listed[mark] if c not in glyph]
            for c in drawn:
                glyph[c] = char
            listed[mark] = [c for c in listed[mark] if c not in drawn]
            if drawn:
                legend[char] = mark
        lines.append(f"legend: {_flow(legend)}")
        lines.append("map: |")
        lines += ["  " + line for line in _draw_map(b, glyph, False)]
    else:
        lines.append(f"size: [{width}, {height}]")
        if b.north or b.east:
            lines.append("walls:")
            lines.append(f"  north: {_flow([list(c) for c in sorted(b.north)])}")
            lines.append(f"  east: {_flow([list(c) for c in sorted(b.east)])}")
        lines.append(f"pieces: {_flow({r: list(c) for r, c in b.pieces.items()})}")
    listed = {m: c for m, c in listed.items() if c}
    if listed:
        lines.append(f"marks: {_flow({m: [list(c) for c in cells] for m, cells in listed.items()})}")
    b.text = "\n".join(lines) + "\n"
    return b


if __name__ == "__main__":   # python tests/randomboards.py SEED [mech]: print a board
    import sys

    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    make = random_mechanism_board if sys.argv[2:] == ["mech"] else random_board
    print(make(seed).text)
