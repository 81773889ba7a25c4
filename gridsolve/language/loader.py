"""Load a board file (and the rule sets it uses) into a checked :class:`~gridsolve.language.model.Board`.

Every mistake is reported as a :class:`~gridsolve.errors.BoardError` naming the file and line.
"""
from __future__ import annotations

import re
from dataclasses import fields as dataclass_fields
from pathlib import Path
from typing import NoReturn

from . import schema
from .asciimap import parse_map
from ..errors import BoardError
from ..mechanisms.base import Context
from ..mechanisms.registry import MECHANISMS
from .model import DELTA, NO_LIMIT, Board, Condition, End, GoodLevel, MoveRule, Rules, Timeout
from ..resources import rules_dir
from .spec import Where
from .yamlsrc import load_file
from .kinds import RequireKind


MARK_NAME = re.compile(r"[a-z][A-Za-z0-9_]*\Z")     # a mark is a name in the compiled program


class _Origin:
    """Where each (possibly merged) rule key came from, for error messages."""

    def __init__(self):
        self.places: dict[str, tuple[str, int | None]] = {}
        self.read: list[tuple[str, bytes | None]] = []     # the rule set files read, each with its bytes

    def load(self, path: Path):
        """Read the rule set file ``path``, noting what it holds (for :data:`_RULE_SETS`)."""
        self.read.append((str(path), _stamp(path)))
        return load_file(path)

    def record(self, key: str, path: str, raw, raw_key):
        line = raw.line_of(raw_key) if hasattr(raw, "line_of") else None
        self.places[key] = (path, line)

    def fail(self, key: str, message: str, hint: str | None = None) -> NoReturn:
        path, line = self.places.get(key, self.places.get("", ("<rules>", None)))
        raise BoardError(path, line, message, hint)


def rule_set_search_path(board_path: Path) -> list[Path]:
    """Folders searched for a named rule set: ``rules/`` beside the board or above it, then the built-in ones."""
    folders = []
    here = board_path.resolve().parent
    for folder in [here, *here.parents]:
        candidate = folder / "rules"
        if candidate.is_dir():
            folders.append(candidate)
    folders.append(rules_dir())
    unique = []
    for folder in folders:
        if folder not in unique:
            unique.append(folder)
    return unique


def available_rule_sets(board_path: Path) -> list[str]:
    names = set()
    for folder in rule_set_search_path(board_path):
        names.update(p.stem for p in folder.glob("*.yaml"))
    return sorted(names)


def locate_rule_set(name: str, board_path: Path, folders: list[Path] | None = None) -> Path | None:
    """The file of the rule set ``name`` as a board at ``board_path`` finds it (``folders``: its
    :func:`rule_set_search_path`, if known), or None."""
    if not name or len(name) > 200 or any(c in name for c in "/\\\0\n"):
        return None                      # not a file name: no rule set has it
    for folder in rule_set_search_path(board_path) if folders is None else folders:
        candidate = folder / f"{name}.yaml"
        if candidate.is_file():
            return candidate
    return None


def _find_rule_set(name: str, board_path: Path, where: Where, folders: list[Path] | None = None) -> Path:
    found = locate_rule_set(name, board_path, folders)
    if found is not None:
        return found
    known = ", ".join(available_rule_sets(board_path))
    shown = name if len(name) <= 60 else name[:57] + "..."
    where.fail(f"no rule set named '{shown}'", f"known rule sets: {known}")


def _load_rules(raw, path: str, where: Where, board_path: Path, origin: _Origin, seen: tuple = ()) -> dict:
    """Validated rule keys of ``raw`` merged over the rule set it ``use``s."""
    checked = schema.RULES.check(raw, where)
    merged: dict = {}
    if checked["use"]:
        base_path = _find_rule_set(checked["use"], board_path, where.child(raw, "use"))
        if base_path in seen:
            where.child(raw, "use").fail(f"rule set '{checked['use']}' uses itself", "remove the cycle")
        base_raw = origin.load(base_path)
        merged = _load_rules(base_raw, str(base_path), Where(str(base_path), getattr(base_raw, "line", 1), ""),
                             board_path, origin, seen + (base_path,))
    if "" not in origin.places:
        origin.places[""] = (path, getattr(raw, "line", None))
    for key, value in checked.items():
        if key == "use" or value is None:
            continue
        if key == "moves" and "moves" in merged:
            # an override changes only the keys it gives: merge them over the base's move
            moves = dict(merged["moves"])
            for role in value:
                given = {k: v for k, v in moves.get(role, {}).items() if v is not None}
                moves[role] = schema.MOVE.check({**given, **raw[key][role]}, where.child(raw, key))
                origin.record(f"moves.{role}", path, raw[key], role)
            merged["moves"] = moves
            continue
        merged[key] = value
        origin.record(key, path, raw, key)
        if key == "moves":
            for role in value:
                origin.record(f"moves.{role}", path, raw[key], role)
        if key in ("ends", "after_ply"):
            for index in range(len(value)):
                origin.record(f"{key}[{index}]", path, raw[key], index)
    return merged


def _default_loss_for(scores: dict[str, int], all_ends: list[dict], timeout: dict[str, int]) -> tuple[str, ...]:
    losers = []
    for role, score in scores.items():
        lowest = min([e["scores"][role] for e in all_ends] + [timeout[role]])
        if score == lowest and score < timeout[role]:
            losers.append(role)
    return tuple(losers)


def _check_roles(roles, names, origin: _Origin, key: str, what: str):
    for name in names:
        if name not in roles:
            origin.fail(key, f"{what}: unknown role '{name}'", f"roles are: {', '.join(roles)}")


def _build_condition(when: dict, roles, ctx: Context, key: str, what: str, chasers=()) -> Condition:
    """The model of a `when` mapping, with every piece checked (each mechanism's key by its part)."""
    same = tuple(tuple(group) for group in ([when["same_cell"]] if when["same_cell"] else []))
    reaches = tuple((piece, mark) for piece, mark in (when["reaches"] or {}).items())
    fields = {k.name: mechanism.read_condition(when[k.name], ctx, key, what)
              for mechanism in MECHANISMS for k in mechanism.condition_keys}
    pieces = [p for group in same for p in group] + [p for p, _ in reaches] + \
        [p for mechanism in MECHANISMS for k in mechanism.condition_keys
         for p in mechanism.condition_pieces(fields[k.name])]
    known = tuple(roles) + tuple(chasers)
    for piece in pieces:
        if piece not in known:
            ctx.fail(key, f"{what}: unknown piece '{piece}'",
                     f"pieces are the roles' and the chasers': {', '.join(known)}")
    named = {f.name for f in dataclass_fields(Condition)}
    plugins = tuple((name, value) for name, value in fields.items() if name not in named and value)
    return Condition(same, reaches, **{name: value for name, value in fields.items() if name in named},
                     plugins=plugins)


def _check_scores(scores: dict, roles, tables: dict, origin: _Origin, key: str, what: str):
    for role in roles:
        if role not in scores:
            origin.fail(key, f"{what} gives no score to role '{role}'")
    for role, score in scores.items():
        if role not in roles:
            origin.fail(key, f"{what}: unknown role '{role}' in scores")
        if isinstance(score, str) and score not in tables:
            origin.fail(key, f"{what}: the score of '{role}' names an unknown score table '{score}'",
                        f"score tables are: {', '.join(tables) or 'none (add score_tables:)'}")


def _build_moves(merged: dict, roles, origin: _Origin, ctx: Context) -> dict:
    moves = {}
    for role, spec in (merged.get("moves") or {}).items():
        if role not in roles:
            origin.fail(f"moves.{role}", f"moves: unknown role '{role}'", f"roles are: {', '.join(roles)}")
        for piece in spec["may_not_end_on"]:
            if piece not in roles:
                origin.fail(f"moves.{role}", f"moves.{role}.may_not_end_on: unknown piece '{piece}'")
        parts = {name: value for mechanism in MECHANISMS if mechanism.move
                 for name, value in mechanism.move(spec, role, ctx).items()}
        moves[role] = MoveRule(spec["steps"], spec["idle"], spec["first_step_real"], spec["blocked"],
                               spec["end_differs_from_start"], tuple(spec["may_not_end_on"]),
                               tuple(spec["frozen_on"]), **parts)
    for role in roles:
        moves.setdefault(role, MoveRule())
    return moves


def build_rules(merged: dict, origin: _Origin, enemies: list | None = None) -> Rules:
    """Check the merged rule keys for consistency and build the model.  Rules with kinds of
    enemies (or ``each``) are built for the board's ``enemies`` ((piece, kind) in order; None:
    one of each kind, to check them before a board lists its own), and keep what they were
    built from (:attr:`Rules.template`) for the next board."""
    expanding = [mechanism for mechanism in MECHANISMS if mechanism.per_board and mechanism.per_board(merged)]
    if expanding:
        places = _Origin()
        places.places, places.read = dict(origin.places), origin.read
        plain = expanding[0].expand(merged, enemies, lambda key, message, hint=None: places.fail(
            key if key in places.places else key.split("[")[0], message, hint))
        for new, old in enumerate(plain.pop("_end_places")):
            places.places[f"ends[{new}]"] = origin.places.get(f"ends[{old}]", origin.places.get("ends"))
        rules = _build_plain_rules(plain, places)
        rules.template = (merged, origin)
        return rules
    return _build_plain_rules(merged, origin)


def _build_plain_rules(merged: dict, origin: _Origin) -> Rules:
    """:func:`build_rules` of rules written piece by piece."""
    for key in ("roles", "ends", "steps", "timeout"):
        if merged.get(key) is None:
            origin.fail("", f"the rules have no '{key}'", f"add '{key}:' to the rules or to the rule set they use")
    roles = tuple(merged["roles"])
    if len(set(roles)) != len(roles):
        origin.fail("roles", "a role is listed twice")
    turns = tuple(tuple(side) for side in (merged.get("turns") or [[r] for r in roles]))
    listed = [r for side in turns for r in side]
    _check_roles(roles, listed, origin, "turns", "turns")
    if sorted(listed) != sorted(roles):
        origin.fail("turns", "turns: every role must appear in exactly one entry")
    teams = tuple(tuple(team) for team in (merged.get("teams") or turns))
    members = [r for team in teams for r in team]
    _check_roles(roles, members, origin, "teams", "teams")
    if sorted(members) != sorted(roles):
        origin.fail("teams", "teams: every role must be in exactly one team")
    ctx = Context(merged, roles, origin, lambda names, key, what: _check_roles(roles, names, origin, key, what),
                  lambda when, key, what: _build_condition(when, roles, ctx, key, what, ctx.built.get("chasers", {})))
    moves = _build_moves(merged, roles, origin, ctx)
    for mechanism in MECHANISMS:      # their parts the ends read: chasers, collectibles, score tables
        if mechanism.build:
            mechanism.build(ctx)
    tables = ctx.built.get("tables", {})
    timeout, timeout_when = _build_timeout(merged["timeout"], roles, ctx, tables, origin)
    conditional = bool(timeout_when) or bool(tables)
    for index, raw_end in enumerate(merged["ends"]):     # every end's scores first: default loss_for reads them all
        _check_scores(raw_end["scores"], roles, tables, origin, f"ends[{index}]", f"end '{raw_end['name']}'")
    ends = []
    names = set()
    for index, raw_end in enumerate(merged["ends"]):
        key = f"ends[{index}]"
        if raw_end["name"] in names:
            origin.fail(key, f"ends: the name '{raw_end['name']}' is used twice")
        if not MARK_NAME.match(raw_end["name"]):        # (an end's name is a name in the compiled program)
            origin.fail(key, f"ends: '{raw_end['name']}' is not an end name",
                        "write a name as a lowercase letter followed by letters, digits or _, e.g. escaped")
        names.add(raw_end["name"])
        what = f"end '{raw_end['name']}'"
        when = ctx.condition(raw_end["when"], key, what)
        if when.is_empty():
            origin.fail(key, f"end '{raw_end['name']}' has an empty 'when'",
                        "give same_cell, reaches, was_on, collected or nearer")
        scores = raw_end["scores"]
        loss_for = raw_end["loss_for"]
        if loss_for is None:
            if conditional:
                origin.fail(key, f"end '{raw_end['name']}' needs 'loss_for'",
                            "with score tables or a conditional timeout there is no default: list the roles "
                            "that must avoid this end (or [])")
            loss_for = _default_loss_for(scores, merged["ends"], timeout)
        _check_roles(roles, loss_for, origin, key, f"end '{raw_end['name']}': loss_for")
        _, line = origin.places.get(key, ("", 0))
        ends.append(End(raw_end["name"], when, dict(scores), tuple(loss_for), line or 0))
    steps = merged["steps"]
    unlimited = steps["last"] is None
    last = steps["first"] + NO_LIMIT if unlimited else steps["last"]
    if last <= steps["first"]:
        origin.fail("steps", "steps: 'last' must be greater than 'first'")
    good_level = _build_good_level(merged.get("generate"), roles, merged, origin)
    optional = tuple(merged.get("optional") or ())
    for name in optional:
        if name in roles:
            origin.fail("optional", f"optional: '{name}' is a role; a role's piece is always on the board",
                        "list only chasers and marks")
    for mechanism in MECHANISMS:      # their parts read after the ends: placement, the gate, the script
        if mechanism.finish:
            mechanism.finish(ctx)
    rules = Rules(name=merged.get("name") or "inline", description=merged.get("description") or "", roles=roles,
                  turns=turns, moves=moves, ends=tuple(ends), first_step=steps["first"], last_step=last,
                  timeout=timeout, teams=teams, collisions=merged.get("collisions") or "allowed",
                  timeout_when=timeout_when, good_level=good_level, optional=optional, unlimited=unlimited,
                  judge_start=merged.get("judge_start") is not False, **ctx.built)
    for mechanism in MECHANISMS:
        if mechanism.check:
            mechanism.check(rules, ctx)
    if not rules.judge_start:
        _check_unjudged_start(rules, origin)
    return rules


def _check_unjudged_start(rules: Rules, origin: _Origin) -> None:
    """``judge_start: false`` is answered by the race solver alone: every role's scores constant,
    no team moving at once with another, no end counting items or measuring distances, no
    hidden marks (questions of the layered, bounded and robust solvers)."""
    why = next((what for what, holds in (
        ("a role's scores are not constants (score tables or a conditional timeout)",
         not all(rules.constant_scores(r) for r in rules.roles)),
        ("a team moves at once with another", any(rules.split_turn(t, r) for t in range(len(rules.turns))
                                                   for r in rules.roles)),
        ("an end counts items or measures distances", any(e.when.collected or e.when.nearer for e in rules.ends)),
        ("a role has hidden marks", any(m.bump_hidden for m in rules.moves.values()))) if holds), None)
    if why:
        origin.fail("judge_start", f"judge_start: false is answered by the race solver alone, and here {why}",
                    "judge the start (remove judge_start: false)")


def _build_good_level(raw: dict | None, roles, merged: dict, origin: _Origin) -> GoodLevel | None:
    """The ``generate:`` block, checked: known roles, pieces and marks, ranges that are not
    empty, shares between 0 and 1, and options that fit the requirement."""
    if raw is None:
        return None
    def bounds(key: str, value) -> tuple:
        if value is None:
            return None, None
        low, high = value["min"], value["max"]
        if low is None and high is None:
            origin.fail("generate", f"generate.{key}: an empty range", "give min, max or both, e.g. {min: 12}")
        if low is not None and high is not None and low > high:
            origin.fail("generate", f"generate.{key}: the range {low}..{high} is empty",
                        "min must not be greater than max")
        return low, high
    if raw["role"] is not None:
        _check_roles(roles, [raw["role"]], origin, "generate", "generate.role")
    require = RequireKind(raw["require"] or RequireKind.WIN)
    if raw["value"] is not None and require != RequireKind.VALUE:
        origin.fail("generate", f"generate.value applies to require: value, not require: {require}",
                    "remove value, or write require: value")
    if require == RequireKind.VALUE and raw["value"] is None:
        origin.fail("generate", "generate: require: value needs a value range", "e.g. value: {min: 6, max: 12}")
    if raw["plies"] is not None and require in (RequireKind.SURVIVE, RequireKind.VALUE):
        origin.fail("generate", f"generate.plies does not apply to require: {require}", "remove plies")
    names = set(roles) | set(_mark_names(merged))
    for name in raw["keep"] or []:
        if name not in names:
            origin.fail("generate", f"generate.keep: '{name}' is neither a piece nor a mark of these rules",
                        f"name one of: {', '.join(sorted(names))}")
    marks = sorted(set(_mark_names(merged)))
    for name in raw["border"] or []:
        if name not in marks:
            origin.fail("generate", f"generate.border: '{name}' is not a mark of these rules",
                        f"name one of: {', '.join(marks)}")
    def ranges(key: str, raw_ranges) -> tuple:
        out = []
        for metric, value in (raw_ranges or {}).items():
            if value is None:
                continue
            low, high = bounds(f"{key}.{metric}", value)
            if metric in schema.SHARES and any(v is not None and v > 1 for v in (low, high)):
                origin.fail("generate", f"generate.{key}.{metric}: a share lies between 0 and 1",
                            "write it as a fraction, e.g. max: 0.8")
            out.append((metric, low, high))
        return tuple(out)
    labels = tuple((label, ranges(f"labels.{label}", (raw["labels"] or {}).get(label))) for label in ("easy", "medium"))
    for label, ranged in labels:
        if raw["labels"] is not None and not ranged:
            origin.fail("generate", f"generate.labels.{label}: no range", "give a range for a metric, "
                        "e.g. hints: {max: 3}")
    return GoodLevel(require, raw["role"], bounds("plies", raw["plies"]), bounds("value", raw["value"]),
                     raw["horizon"], bounds("walls", raw["walls"]), tuple(raw["keep"] or ()),
                     raw["allow_trivial"], ranges("good", raw["good"]), raw["why"] or "",
                     labels if raw["labels"] is not None else (), tuple(raw["border"] or ()))


def _mark_names(value) -> list[str]:
    """Every mark the raw rules name: in conditions, moves (frozen_on, bump), collect and placement."""
    out = []
    if isinstance(value, dict):
        for key, item in value.items():
            if key in ("reaches", "was_on") and isinstance(item, dict):
                out += [str(v) for v in item.values()]
            elif key == "to" or key == "mark":
                out.append(str(item))
            elif key in ("frozen_on", "marks") and isinstance(item, list):
                out += [str(v) for v in item]
            elif key == "placement" and isinstance(item, dict):
                out += [str(k) for k in item]
            elif key != "generate":
                out += _mark_names(item)
    elif isinstance(value, list):
        for item in value:
            out += _mark_names(item)
    return out


def _build_timeout(raw, roles, ctx: Context, tables, origin: _Origin):
    """The default timeout scores and the conditional entries tried before them."""
    if isinstance(raw, dict):
        _check_scores(raw, roles, tables, origin, "timeout", "timeout")
        return dict(raw), ()
    entries = []
    for index, entry in enumerate(raw):
        what = f"timeout entry {index + 1}"
        _check_scores(entry["scores"], roles, tables, origin, "timeout", what)
        if entry["when"] is None:
            if index != len(raw) - 1:
                origin.fail("timeout", f"{what} has no 'when' but is not the last entry",
                            "entries after it could never apply: move it to the end")
            return dict(entry["scores"]), tuple(entries)
        when = _build_condition(entry["when"], roles, ctx, "timeout", what)
        entries.append(Timeout(when, dict(entry["scores"])))
    origin.fail("timeout", "the last timeout entry has a 'when'",
                "end the list with an entry without 'when': the scores when no other entry holds")


def load_board(path: str | Path) -> Board:
    """Read, check and build a board file."""
    return board_of(load_file(path), path)


def board_of(raw, path: str | Path) -> Board:
    """Check and build the board that the file ``path`` holds, already read as ``raw``
    (:func:`load_file`'s mapping with line numbers)."""
    path = Path(path)
    name = str(path)
    if not isinstance(raw, dict):
        raise BoardError(name, getattr(raw, "line", 1), "a board file must be a mapping of keys to values",
                         "start with 'rules:' and 'map:' (see docs/board-files.md)")
    top = Where(name, raw.line, "")
    checked = schema.BOARD.check(raw, top)
    origin = _Origin()
    rules_raw = raw["rules"]
    if isinstance(rules_raw, str):
        folders = rule_set_search_path(path)
        rule_path = _find_rule_set(rules_raw, path, top.child(raw, "rules"), folders)
        key = (str(rule_path), tuple(folders))
        kept = _RULE_SETS.get(key)
        if kept is not None and all(_stamp(Path(f)) == stamp for f, stamp in kept[0]):
            return _build_board(checked, raw, kept[1], name)
        rules_raw = origin.load(rule_path)
        merged = _load_rules(rules_raw, str(rule_path), Where(str(rule_path), getattr(rules_raw, "line", 1), ""),
                             path, origin)
        rules = build_rules(merged, origin)
        _RULE_SETS[key] = (origin.read, rules)
        if len(_RULE_SETS) > 64:
            _RULE_SETS.pop(next(iter(_RULE_SETS)))
    else:
        merged = _load_rules(rules_raw, name, top.child(raw, "rules"), path, origin)
        rules = build_rules(merged, origin)
    return _build_board(checked, raw, rules, name)


# A process's named rule sets, built once: (rule set file, search path) -> (the files read with
# their bytes, the rules); used again while every file read holds the same bytes.
_RULE_SETS: dict[tuple, tuple[list, Rules]] = {}


def _stamp(path: Path) -> bytes | None:
    """What the file holds now (its bytes: a rule set is a few kilobytes, read far faster than parsed)."""
    try:
        return path.read_bytes()
    except OSError:
        return None


def _build_board(checked: dict, raw, rules: Rules, name: str) -> Board:
    top = Where(name, raw.line, "")
    placed = [piece for mechanism in MECHANISMS if mechanism.board_pieces
              for piece in mechanism.board_pieces(checked, raw, top, rules) or ()]
    if rules.template is not None:      # rules built for each board: for the pieces this one places
        merged, origin = rules.template
        rules = build_rules(merged, origin, [(piece, kind) for piece, kind, _, _ in placed])
    lines: dict[str, int] = {}
    pieces: dict[str, tuple[int, int]] = {}
    marks: dict[str, set] = {}
    exits: dict = {}            # (the cell inside, the direction) -> mark
    if checked["map"] is not None:
        if checked["size"] is not None or checked["walls"] is not None:
            top.child(raw, "size" if checked["size"] is not None else "walls").fail(
                "give either a map or size and walls, not both")
        parsed = parse_map(checked["map"], name, raw.line_of("map") + 1)
        width, height = parsed.width, parsed.height
        north, east, solid = parsed.north, parsed.east, parsed.solid
        legend = checked["legend"] or {}
        for cell, (glyph, line) in sorted(parsed.glyphs.items()):
            meaning = legend.get(glyph)
            if meaning is None:
                raise BoardError(name, line, f"map: the character '{glyph}' at ({cell[0]},{cell[1]}) is not in the legend",
                                 f"add it under 'legend:', e.g. {glyph}: exit")
            if not (1 <= cell[0] <= width and 1 <= cell[1] <= height):      # in the outer border
                if meaning in rules.pieces:
                    raise BoardError(name, line, f"map: the piece '{meaning}' is drawn in the border",
                                     "draw it inside a cell; the border takes marks (an exit edge)")
                inside = (min(max(cell[0], 1), width), min(max(cell[1], 1), height))
                edge = next(d for d, (dx, dy) in DELTA.items() if (inside[0] + dx, inside[1] + dy) == cell)
                if inside in parsed.solid:
                    raise BoardError(name, line, f"map: the exit edge '{glyph}' borders a solid cell", "open that cell")
                exits[inside, edge] = meaning
                marks.setdefault(meaning, set()).add(cell)
                lines.setdefault(f"marks.{meaning}", line)
            elif refused := next((found for mechanism in MECHANISMS if mechanism.map_glyph
                                  for found in [mechanism.map_glyph(glyph, meaning, cell, rules)] if found), None):
                raise BoardError(name, line, *refused)
            elif meaning in rules.pieces:
                if meaning in pieces:
                    raise BoardError(name, line, f"map: the piece '{meaning}' is drawn twice",
                                     f"it already stands at {pieces[meaning]}")
                pieces[meaning] = cell
                lines[f"pieces.{meaning}"] = line
            else:
                marks.setdefault(meaning, set()).add(cell)
                lines.setdefault(f"marks.{meaning}", line)
    else:
        if checked["size"] is None:
            top.fail("the board has neither 'map' nor 'size'", "draw a map, or give size: [width, height]")
        if len(checked["size"]) != 2:
            top.child(raw, "size").fail("size must be [width, height]")
        width, height = checked["size"]
        walls = checked["walls"] or {"north": [], "east": []}
        north, east, solid = set(walls["north"]), set(walls["east"]), set()
        for kind, cells in (("north", north), ("east", east)):
            for cell in cells:
                if not (1 <= cell[0] <= width and 1 <= cell[1] <= height):
                    top.child(raw, "walls").fail(f"the {kind} wall at {list(cell)} is off the board")
    for piece, _, cell, line in placed:
        pieces[piece] = cell
        lines[f"pieces.{piece}"] = line
    for piece, cell in (checked["pieces"] or {}).items():
        where = top.child(raw, "pieces").child(raw["pieces"], piece)
        if piece not in rules.pieces:
            where.fail(f"unknown piece '{piece}'", f"the pieces of these rules are: {', '.join(rules.pieces)}")
        if piece in pieces:
            where.fail(f"the piece '{piece}' is placed twice", "it is already drawn on the map")
        pieces[piece] = cell
        lines[f"pieces.{piece}"] = where.line
    unplaced: dict[str, int] = {}
    for mark, cells in (checked["marks"] or {}).items():
        lines.setdefault(f"marks.{mark}", raw["marks"].line_of(mark))
        if isinstance(cells, dict):
            if cells["edge"] is None and cells["at"] is None and cells["unplaced"] is not None:
                unplaced[mark] = cells["unplaced"]
                continue
            (x, y), edge = _exit_edge(cells, width, height, solid, Where(name, lines[f"marks.{mark}"], f"marks.{mark}"))
            exits[(x, y), edge] = mark
            marks.setdefault(mark, set()).add((x + DELTA[edge][0], y + DELTA[edge][1]))
            continue
        marks.setdefault(mark, set()).update(cells)
    parts = {name: value for mechanism in MECHANISMS if mechanism.read_board
             for name, value in mechanism.read_board(checked, raw, parsed if checked["map"] is not None else None,
                                                     top, rules, (width, height)).items()}
    for mark in marks:
        if not MARK_NAME.match(mark):
            where = Where(name, lines.get(f"marks.{mark}", top.line), "")
            where.fail(f"'{mark}' is not a mark name", "write a mark as a lowercase letter followed by letters, "
                       "digits or _, e.g. exit")
    board = Board(name, checked["name"] or Path(name).stem, width, height, frozenset(north), frozenset(east),
                  frozenset(solid), pieces, {k: frozenset(v) for k, v in marks.items()}, rules, lines,
                  dict(checked["legend"] or {}), unplaced, exits=frozenset(exits), **parts)
    if exits and not rules.one_mover_script:
        Where(name, lines[f"marks.{next(iter(exits.values()))}"], "").fail(
            f"an edge of the border as a mark, but the rules '{rules.name}' are not answered with one",
            "edges as exits are answered where one role moves one step and pieces move by rule after it "
            "(the after_ply script of a Mummy Maze); give the mark a cell on the board instead")
    _check_layout(board, top)
    for mechanism in MECHANISMS:
        if mechanism.check_board:
            mechanism.check_board(board, top)
    return board


def _exit_edge(spec: dict, width: int, height: int, solid, where: Where) -> tuple:
    """The exit edge ``{edge, at}`` of a mark: (the cell inside, the direction)."""
    if spec["unplaced"] is not None or spec["edge"] is None or spec["at"] is None:
        where.fail("give either unplaced: N (a secret mark) or edge: and at: (an edge of the border)",
                   "e.g. exit: {edge: south, at: 4}")
    edge, at = spec["edge"], spec["at"]
    side = width if edge in ("north", "south") else height
    if at > side:
        where.fail(f"the {edge} side has {side} {'columns' if side == width else 'rows'}, not {at}",
                   f"give at: 1..{side}")
    cell = {"north": (at, height), "south": (at, 1), "east": (width, at), "west": (1, at)}[edge]
    if cell in solid:
        where.fail(f"the {edge} edge at {at} borders a solid cell ({cell[0]},{cell[1]})", "open that cell")
    return cell, edge


def _check_layout(board: Board, top: Where):
    for role in board.rules.pieces:
        if role not in board.pieces and role not in board.rules.optional:
            top.fail(f"the piece '{role}' is not on the board",
                     f"draw it on the map with a legend character, or add pieces: {{{role}: [x, y]}}")
    starts = {}
    for piece, cell in board.pieces.items():
        if cell in starts and piece in board.rules.chasers:
            Where(board.path, board.line(f"pieces.{piece}"), "").fail(
                f"the piece '{piece}' starts on the cell of '{starts[cell]}' ({cell[0]},{cell[1]})",
                "pieces moved by rule start on cells of their own")
        starts.setdefault(cell, piece)
    for piece, cell in board.pieces.items():
        where = Where(board.path, board.line(f"pieces.{piece}"), "")
        x, y = cell
        if not (1 <= x <= board.width and 1 <= y <= board.height):
            where.fail(f"the piece '{piece}' at ({x},{y}) is off the {board.width}x{board.height} board")
        if cell in board.solid:
            where.fail(f"the piece '{piece}' at ({x},{y}) stands inside a wall")
    outside = board.outside()
    for mark, cells in board.marks.items():
        where = Where(board.path, board.line(f"marks.{mark}"), "")
        for x, y in cells:
            if (x, y) in outside:
                continue
            if not (1 <= x <= board.width and 1 <= y <= board.height) or (x, y) in board.solid:
                where.fail(f"the mark '{mark}' at ({x},{y}) is off the board or inside a wall")
    rules = board.rules
    needed = [(f"end '{end.name}'", mark) for end in rules.ends for mark in _marks_of(end.when)]
    needed += [("timeout", mark) for entry in rules.timeout_when for mark in _marks_of(entry.when)]
    needed += [need for mechanism in MECHANISMS if mechanism.marks_needed for need in mechanism.marks_needed(rules)]
    for what, mark in needed:
        if mark not in board.marks and mark not in rules.optional:
            raise BoardError(board.path, top.line, f"{what} needs cells marked '{mark}', "
                             "but the board has none", f"mark them in the legend, e.g. X: {mark}")


def _marks_of(when) -> list[str]:
    return [m for _, m in when.reaches] + [m for mechanism in MECHANISMS for k in mechanism.condition_keys
                                           for m in mechanism.condition_marks(when.value(k.name))]
