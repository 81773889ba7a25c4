"""What ``gridsolve generate`` places, derived from a rule set and a board, never from game names.

The pieces are the roles' pieces; the marks are the ones the rules need (every mark an end
condition, a timeout entry or a collectible names), one cell each, or as many cells as the
``--like`` board has; the requirement is about one role (default: the first).  The role's
*goal marks* are the marks its top-score ends make it reach; its *hunters* are the pieces of
other teams that end the game against it by sharing its cell.
"""
from __future__ import annotations

import dataclasses
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

import yaml

from ..errors import BoardError, GridsolveError, QueryError
from ..analysis.ends import goal_ends
from ..language.loader import available_rule_sets, board_of, load_board, locate_rule_set, rule_set_search_path
from ..language.model import NO_LIMIT, Board, Cell
from ..language.yamlsrc import load_file
from ..language.kinds import RequireKind


@dataclass(frozen=True)
class GameSpec:
    """The game-specific part of a generation request."""

    template: Board                   # the rules and the size; walls, pieces and marks are chosen
    rules_yaml: str                   # the `rules:` value the generated files carry
    legend: dict                      # map character -> piece or mark
    role: str                         # the role the requirement is about
    marks: dict                       # mark -> number of cells
    border_marks: frozenset           # marks whose cells lie on the border
    goal_marks: tuple                 # marks the role's goal ends make it reach
    hunters: tuple                    # other teams' pieces that end the game by sharing the role's cell
    like: Board | None = None         # the --like board as read (None for --rules)
    edge_marks: frozenset = frozenset()   # marks placed on an edge of the border (an exit edge)

    def for_role(self, role: str | None) -> "GameSpec":
        """The spec with the requirement about ``role`` (default: the first role)."""
        roles = self.template.rules.roles
        role = role or roles[0]
        if role not in roles:
            raise QueryError(f"--role {role}: unknown role", f"roles are: {', '.join(roles)}")
        return dataclasses.replace(self, role=role, goal_marks=_goal_marks(self.template, role),
                                   hunters=_hunters(self.template, role))

    @property
    def pieces(self) -> tuple:
        return tuple(self.template.rules.roles)

    @property
    def required_chasers(self) -> tuple:
        """The pieces moved by rule that every board of the rules places (not ``optional``)."""
        rules = self.template.rules
        return tuple(c for c in rules.chasers if c not in rules.optional)

    def board(self, north, east, pieces: dict, marks: dict, path: str = "", name: str = "") -> Board:
        """The template with these walls, piece starts and marks."""
        return dataclasses.replace(self.template, path=path or self.template.path, name=name or self.template.name,
                                   north=frozenset(north), east=frozenset(east), solid=frozenset(),
                                   pieces=dict(pieces), marks={m: frozenset(c) for m, c in marks.items()},
                                   lines={}, legend=dict(self.legend))


def game_spec(rules: str | None, like: Path | None, size: tuple[int, int] | None, out: Path,
              role: str | None) -> GameSpec:
    """The spec for ``--rules NAME`` or ``--like BOARD`` at ``size`` (default: the board's).
    With ``--like``, a mark whose cells all lie on the border of that board (the exit of a
    Mummy Maze) is placed on the border, and one on an edge of the border (an exit edge) on an
    edge.  The --like file is read once."""
    board = None
    if like is not None:
        raw = load_file(like)
        board = board_of(raw, like)
        raw_rules = raw["rules"]
        width, height = size or (board.width, board.height)
        template = _at_size(board, width, height)
        marks = {m: len(cells) for m, cells in sorted(board.marks.items())}
        on_border = {m for m, cells in board.marks.items() if all(_on_border(board, c) for c in cells)}
        on_edge = {m for m, cells in board.marks.items() if cells and all(c in board.outside() for c in cells)}
        legend = dict(board.legend) or _legend(board.rules.roles, marks)
        rules_yaml = raw_rules if isinstance(raw_rules, str) else _flow(raw_rules)
        named = raw_rules if isinstance(raw_rules, str) else raw_rules.get("use")
        if isinstance(named, str):
            _same_rule_set_from(named, like, out)
    else:
        if size is None:
            raise QueryError("--rules needs --size", "give --size WxH, e.g. --size 8x8")
        width, height = size
        template = _load_rules(rules, width, height, out)
        marks = {m: 1 for m in _needed_marks(template)}
        on_border, on_edge = set(), set()
        legend = _legend(template.rules.roles, marks)
        rules_yaml = rules
    roles = template.rules.roles
    cells = width * height
    if len(roles) + sum(marks.values()) > cells:
        raise QueryError(f"--size {width}x{height}: {cells} cells cannot hold {len(roles)} pieces and "
                         f"{sum(marks.values())} marked cells apart", "choose a larger size")
    spec = GameSpec(template, rules_yaml, legend, roles[0], marks, frozenset(on_border), (), (), board,
                    frozenset(on_edge))
    return spec.for_role(role)


def _at_size(board: Board, width: int, height: int) -> Board:
    return dataclasses.replace(board, width=width, height=height, north=frozenset(), east=frozenset(),
                               solid=frozenset(), marks={}, lines={})


def _on_border(board: Board, cell: Cell) -> bool:
    return cell[0] in (1, board.width) or cell[1] in (1, board.height)


def _goal_marks(board: Board, role: str) -> tuple:
    goals = set(goal_ends(board, role))
    return tuple(sorted({mark for end in board.rules.ends if end.name in goals
                         for piece, mark in end.when.reaches if piece == role}))


def _hunters(board: Board, role: str) -> tuple:
    rules = board.rules
    team = set(rules.team_of(role))
    out = set()
    for end in rules.ends:
        if role not in end.loss_for:
            continue
        for group in end.when.same_cell:
            if role in group:
                out.update(p for p in group if p not in team)
    return tuple(sorted(out))


def _needed_marks(board: Board) -> list[str]:
    """Every mark the rules name in a condition or a collectible."""
    rules = board.rules
    whens = [end.when for end in rules.ends] + [entry.when for entry in rules.timeout_when]
    marks = [m for w in whens for m in [m for _, m in w.reaches] + [m for _, m in w.was_on]
             + [m for _, _, m in w.nearer]]
    marks += [c.mark for c in rules.collect.values()]
    return sorted(set(marks))


def _legend(roles, marks) -> dict:
    """A map character for every piece and mark: the first unused letter of its name, in capitals."""
    legend = {}
    for name in [*roles, *marks]:
        letters = [c for c in name.upper() if c.isalpha()] + list("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        legend[next(c for c in letters if c not in legend)] = name
    return legend


def _same_rule_set_from(name: str, like: Path, out: Path) -> None:
    """The files written to ``out`` name the rule set ``name`` of the ``like`` board: what
    gridsolve finds from there must be the same rules (the same file, or a copy of it, such as
    a checkout's rules/ and the installed package's), and so must every rule set it uses."""
    mine, theirs = _rule_chain(name, like), _rule_chain(name, out / "board.yaml")
    if not mine or mine[-1][1] is None or [c[:2] for c in mine] == [c[:2] for c in theirs]:
        return
    source = locate_rule_set(name, like)
    differs = next(((a, b) for a, b in zip(mine, theirs) if a[1] != b[1]), (mine[-1], None))
    if differs[1] is None or differs[1][1] is None:
        what = "which gridsolve does not find from there"
    else:
        what = (f"and from there gridsolve finds another '{differs[1][0]}' ({differs[1][2]}, which differs "
                f"from {differs[0][2]})")
    raise QueryError(f"--out {out}: the boards name the rule set '{name}' of {source}, {what}",
                     f"write them beside it (--out {source.parent.parent}), or copy {source.name} (and the "
                     f"rule sets it uses) into {out / 'rules'}")


def _rule_chain(name: str, board_path: Path) -> list[tuple]:
    """(name, bytes, path) of the rule set ``name`` as a board at ``board_path`` finds it, then of
    each rule set it ``use``s; bytes and path are None for one that is not found."""
    chain: list[tuple] = []
    while isinstance(name, str) and name not in [n for n, _, _ in chain]:
        found = locate_rule_set(name, board_path)
        if found is None:
            return chain + [(name, None, None)]
        chain.append((name, found.read_bytes(), found))
        raw = load_file(found)
        name = raw.get("use") if isinstance(raw, dict) else None
    return chain


def _flow(value) -> str:
    return yaml.safe_dump(_plain(value), default_flow_style=True, sort_keys=False, width=10_000).strip()


def _plain(value):
    """The loader's mappings and lists (which carry line numbers) as plain dicts and lists."""
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    return value


# - Loading a named rule set: a board file beside the output, so rule lookups match the output's ---

def _load_rules(name: str, width: int, height: int, out: Path) -> Board:
    """The rules named ``name`` as the generated files will find them (from ``out``)."""
    roles, chasers, marks = _raw_names(name, out)
    placed = roles + chasers        # (the chasers the rules need on the board too: the loader checks them)
    cells = [(x, y) for y in range(1, height + 1) for x in range(1, width + 1)]
    if len(placed) + len(marks) > len(cells):
        raise QueryError(f"--size {width}x{height} is too small for the pieces and marks of {name}")
    pieces = {piece: list(cells[i]) for i, piece in enumerate(placed)}
    marked = {mark: [list(cells[len(placed) + i])] for i, mark in enumerate(marks)}
    text = yaml.safe_dump({"rules": name, "size": [width, height], "pieces": pieces, "marks": marked},
                          default_flow_style=None, sort_keys=False)
    out.mkdir(parents=True, exist_ok=True)
    fd, skeleton = tempfile.mkstemp(dir=out, prefix=".gridsolve-generate-", suffix=".yaml")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        return _at_size(load_board(skeleton), width, height)
    except BoardError as exc:
        raise QueryError(f"--rules {name}: {exc.message}", exc.hint) from None
    finally:
        os.unlink(skeleton)


def _raw_names(name: str, out: Path) -> tuple[list[str], list[str], list[str]]:
    """The roles, the chasers every board must place (not ``optional``) and the marks named by
    the rule set ``name`` and the sets it uses (read as plain YAML: just enough to write a board
    the loader then checks; a set's own ``chasers`` and ``optional`` replace those it uses)."""
    roles, marks, seen = [], set(), set()
    chasers, optional = None, None
    while name and name not in seen:
        seen.add(name)
        found = [folder / f"{name}.yaml" for folder in rule_set_search_path(out / "board.yaml")
                 if (folder / f"{name}.yaml").is_file()]
        if not found:
            raise QueryError(f"--rules {name}: no rule set of that name",
                             "name a file of rules/ (without .yaml), or use --like BOARD")
        raw = load_file(found[0])
        if not isinstance(raw, dict):
            raise QueryError(f"--rules {name}: {found[0]} is not a rule set")
        roles = roles or list(raw.get("roles") or [])
        if chasers is None and isinstance(raw.get("chasers"), dict):
            chasers = list(raw["chasers"])
        if optional is None and isinstance(raw.get("optional"), list):
            optional = raw["optional"]
        marks |= set(_marks_in(raw))
        name = raw.get("use")
    return roles, [c for c in chasers or [] if c not in (optional or [])], sorted(marks)


def _marks_in(value) -> list[str]:
    """Mark names under `reaches`, `was_on`, `nearer.to` and `collect.*.mark`, anywhere in ``value``."""
    out = []
    if isinstance(value, dict):
        for key, item in value.items():
            if key in ("reaches", "was_on") and isinstance(item, dict):
                out += [str(v) for v in item.values()]
            elif key == "nearer" and isinstance(item, dict) and "to" in item:
                out.append(str(item["to"]))
            elif key == "collect" and isinstance(item, dict):
                out += [str(c["mark"]) for c in item.values() if isinstance(c, dict) and "mark" in c]
            else:
                out += _marks_in(item)
    elif isinstance(value, list):
        for item in value:
            out += _marks_in(item)
    return out


def kindred_rule_sets(spec: GameSpec, out: Path) -> list[str]:
    """The other rule sets found from ``out`` for the same pieces and marks (what a request that
    finds no board may try instead): variants of this rule set first, then other variants."""
    current = spec.template.rules.name
    found = []
    for name in available_rule_sets(out / "board.yaml"):
        if name == current:
            continue
        try:
            roles, chasers, marks = _raw_names(name, out)
            base = load_file(locate_rule_set(name, out / "board.yaml"))
        except GridsolveError:
            continue
        if sorted(roles + chasers) == sorted(spec.pieces + spec.required_chasers) and marks == sorted(spec.marks):
            uses = base.get("use") if isinstance(base, dict) else None
            found.append((uses != current, uses is None, name))
    return [name for *_, name in sorted(found)]


@dataclass(frozen=True)
class Requirement:
    """What the generated boards must do, from the initial position, for the spec's role."""

    kind: RequireKind
    plies: tuple                      # (min, max) of the measured plies, both included
    trivial_ok: bool = False          # keep levels where walking the shortest way already wins
    horizon: int | None = None        # look at most this many plies ahead (None: to the step limit)
    value: tuple = (None, None)       # "value": the score the role guarantees, (min, max)
    metrics: tuple = ()               # ((metric, min, max), ...): the good-level test (metrics.py)
    difficulty: str | None = None     # easy, medium or hard (metrics.DIFFICULTY)

    def left(self, board: Board) -> int:
        """Plies from the initial position to the step limit or the horizon."""
        left = board.rules.last_step - board.rules.first_step
        return left if self.horizon is None else min(left, self.horizon)

    def describe(self, role: str) -> str:
        low, high = self.plies
        band = "" if self.kind == RequireKind.SURVIVE else (
            f" in {low} plies" if low == high else f" in {low} plies or more" if high >= NO_LIMIT // 2
            else f" in {low} to {high} plies")
        within = "" if self.horizon is None else f" within a horizon of {self.horizon} plies"
        if self.kind == RequireKind.VALUE:
            low, high = self.value
            band = (f" of {low}" if low == high else f" of at least {low}" if high is None
                    else f" of at most {high}" if low is None else f" from {low} to {high}")
        return {RequireKind.WIN: f"{role} forces its top score{band}",
                RequireKind.LOSE: f"the others force {role} into an end it must avoid{band}",
                RequireKind.SURVIVE: f"{role} avoids every end it must avoid",
                RequireKind.VALUE: f"{role} guarantees a score{band}"}[self.kind] + within

    def test(self) -> str:
        """The good-level test in words ("" when there is none)."""
        parts = [f"{name} {range_text(low, high)}" for name, low, high in self.metrics]
        if self.difficulty:
            parts.append(f"difficulty {self.difficulty}")
        return ", ".join(parts)


def range_text(low, high) -> str:
    """(min, max) as A..B, A.. or ..B."""
    if low is not None and low == high:
        return f"{low:g}"
    return f"{'' if low is None else f'{low:g}'}..{'' if high is None else f'{high:g}'}"


def role_moves(board: Board, role: str, plies: int) -> int:
    """How many times ``role`` moves in the first ``plies`` plies of the game."""
    turns = board.rules.turns
    return sum(1 for ply in range(plies) if role in turns[ply % len(turns)])
