"""Load a board file (and the rule sets it uses) into a checked :class:`~gridsolve.model.Board`.

Every mistake is reported as a :class:`~gridsolve.errors.BoardError` naming the file and line.
"""
from __future__ import annotations

from pathlib import Path

from . import schema
from .asciimap import parse_map
from .errors import BoardError
from .model import Board, End, MoveRule, Rules
from .resources import rules_dir
from .spec import Where
from .yamlsrc import load_file


class _Origin:
    """Where each (possibly merged) rule key came from, for error messages."""

    def __init__(self):
        self.places: dict[str, tuple[str, int | None]] = {}

    def record(self, key: str, path: str, raw, raw_key):
        line = raw.line_of(raw_key) if hasattr(raw, "line_of") else None
        self.places[key] = (path, line)

    def fail(self, key: str, message: str, hint: str | None = None):
        path, line = self.places.get(key, self.places.get("", ("<rules>", None)))
        raise BoardError(path, line, message, hint)


def rule_set_search_path(board_path: Path) -> list[Path]:
    """Folders searched for a named rule set: ``rules/`` beside the board or above it, then the built-in ones."""
    folders = []
    for folder in [board_path.resolve().parent, *board_path.resolve().parents]:
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


def _find_rule_set(name: str, board_path: Path, where: Where) -> Path:
    for folder in rule_set_search_path(board_path):
        candidate = folder / f"{name}.yaml"
        if candidate.is_file():
            return candidate
    known = ", ".join(available_rule_sets(board_path))
    where.fail(f"no rule set named '{name}'", f"known rule sets: {known}")


def _load_rules(raw, path: str, where: Where, board_path: Path, origin: _Origin, seen: tuple = ()) -> dict:
    """Validated rule keys of ``raw`` merged over the rule set it ``use``s."""
    checked = schema.RULES.check(raw, where)
    merged: dict = {}
    if checked["use"]:
        base_path = _find_rule_set(checked["use"], board_path, where.child(raw, "use"))
        if base_path in seen:
            where.child(raw, "use").fail(f"rule set '{checked['use']}' uses itself", "remove the cycle")
        base_raw = load_file(base_path)
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
                moves[role] = schema.MOVE.check({**moves.get(role, {}), **raw[key][role]}, where.child(raw, key))
                origin.record(f"moves.{role}", path, raw[key], role)
            merged["moves"] = moves
            continue
        merged[key] = value
        origin.record(key, path, raw, key)
        if key == "moves":
            for role in value:
                origin.record(f"moves.{role}", path, raw[key], role)
        if key == "ends":
            for index in range(len(value)):
                origin.record(f"ends[{index}]", path, raw[key], index)
    return merged


def _default_loss_for(scores: dict[str, int], all_ends: list[dict], timeout: dict[str, int]) -> tuple[str, ...]:
    losers = []
    for role, score in scores.items():
        lowest = min([e["scores"][role] for e in all_ends] + [timeout[role]])
        if score == lowest and score < timeout[role]:
            losers.append(role)
    return tuple(losers)


def build_rules(merged: dict, origin: _Origin) -> Rules:
    """Check the merged rule keys for consistency and build the model."""
    for key in ("roles", "ends", "steps", "timeout"):
        if merged.get(key) is None:
            origin.fail("", f"the rules have no '{key}'", f"add '{key}:' to the rules or to the rule set they use")
    roles = tuple(merged["roles"])
    if len(set(roles)) != len(roles):
        origin.fail("roles", "a role is listed twice")
    turns = tuple(tuple(side) for side in (merged.get("turns") or [[r] for r in roles]))
    listed = [r for side in turns for r in side]
    for role in listed:
        if role not in roles:
            origin.fail("turns", f"turns: unknown role '{role}'", f"roles are: {', '.join(roles)}")
    if sorted(listed) != sorted(roles):
        origin.fail("turns", "turns: every role must appear in exactly one side")
    for side in turns:
        if len(side) > 1:
            origin.fail("turns", f"turns: the side {list(side)} moves several roles at once",
                        "simultaneous moves are not supported yet; give each role its own side")
    moves = {}
    for role, spec in (merged.get("moves") or {}).items():
        if role not in roles:
            origin.fail(f"moves.{role}", f"moves: unknown role '{role}'", f"roles are: {', '.join(roles)}")
        for piece in spec["may_not_end_on"]:
            if piece not in roles:
                origin.fail(f"moves.{role}", f"moves.{role}.may_not_end_on: unknown piece '{piece}'")
        moves[role] = MoveRule(spec["steps"], spec["idle"], spec["first_step_real"], spec["blocked"],
                               spec["end_differs_from_start"], tuple(spec["may_not_end_on"]))
    for role in roles:
        moves.setdefault(role, MoveRule())
    timeout = merged["timeout"]
    for role in roles:
        if role not in timeout:
            origin.fail("timeout", f"timeout: no score for role '{role}'")
    for role in timeout:
        if role not in roles:
            origin.fail("timeout", f"timeout: unknown role '{role}'")
    ends = []
    names = set()
    for index, raw_end in enumerate(merged["ends"]):
        key = f"ends[{index}]"
        if raw_end["name"] in names:
            origin.fail(key, f"ends: the name '{raw_end['name']}' is used twice")
        names.add(raw_end["name"])
        when = raw_end["when"]
        same = tuple(tuple(group) for group in ([when["same_cell"]] if when["same_cell"] else []))
        reaches = tuple((piece, mark) for piece, mark in (when["reaches"] or {}).items())
        if not same and not reaches:
            origin.fail(key, f"end '{raw_end['name']}' has an empty 'when'",
                        "give same_cell or reaches")
        for piece in [p for group in same for p in group] + [p for p, _ in reaches]:
            if piece not in roles:
                origin.fail(key, f"end '{raw_end['name']}': unknown piece '{piece}'",
                            f"pieces are named after roles: {', '.join(roles)}")
        scores = raw_end["scores"]
        for role in roles:
            if role not in scores:
                origin.fail(key, f"end '{raw_end['name']}' gives no score to role '{role}'")
        for role in scores:
            if role not in roles:
                origin.fail(key, f"end '{raw_end['name']}': unknown role '{role}' in scores")
        loss_for = raw_end["loss_for"]
        if loss_for is None:
            loss_for = _default_loss_for(scores, merged["ends"], timeout)
        for role in loss_for:
            if role not in roles:
                origin.fail(key, f"end '{raw_end['name']}': unknown role '{role}' in loss_for")
        _, line = origin.places.get(key, ("", 0))
        ends.append(End(raw_end["name"], same, reaches, dict(scores), tuple(loss_for), line or 0))
    steps = merged["steps"]
    if steps["last"] <= steps["first"]:
        origin.fail("steps", "steps: 'last' must be greater than 'first'")
    return Rules(merged.get("name") or "inline", merged.get("description") or "", roles, turns, moves,
                 tuple(ends), steps["first"], steps["last"], dict(timeout))


def load_board(path: str | Path) -> Board:
    """Read, check and build a board file."""
    path = Path(path)
    raw = load_file(path)
    name = str(path)
    if not isinstance(raw, dict):
        raise BoardError(name, getattr(raw, "line", 1), "a board file must be a mapping of keys to values",
                         "start with 'rules:' and 'map:' (see README, 'Board files')")
    top = Where(name, raw.line, "")
    checked = schema.BOARD.check(raw, top)
    origin = _Origin()
    rules_raw = raw["rules"]
    if isinstance(rules_raw, str):
        rule_path = _find_rule_set(rules_raw, path, top.child(raw, "rules"))
        rules_raw = load_file(rule_path)
        merged = _load_rules(rules_raw, str(rule_path), Where(str(rule_path), getattr(rules_raw, "line", 1), ""),
                             path, origin)
    else:
        merged = _load_rules(rules_raw, name, top.child(raw, "rules"), path, origin)
    rules = build_rules(merged, origin)
    return _build_board(checked, raw, rules, name)


def _build_board(checked: dict, raw, rules: Rules, name: str) -> Board:
    top = Where(name, raw.line, "")
    lines: dict[str, int] = {}
    pieces: dict[str, tuple[int, int]] = {}
    marks: dict[str, set] = {}
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
            if meaning in rules.roles:
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
    for piece, cell in (checked["pieces"] or {}).items():
        where = top.child(raw, "pieces").child(raw["pieces"], piece)
        if piece not in rules.roles:
            where.fail(f"unknown piece '{piece}'", f"pieces are named after roles: {', '.join(rules.roles)}")
        if piece in pieces:
            where.fail(f"the piece '{piece}' is placed twice", "it is already drawn on the map")
        pieces[piece] = cell
        lines[f"pieces.{piece}"] = where.line
    for mark, cells in (checked["marks"] or {}).items():
        marks.setdefault(mark, set()).update(cells)
        lines.setdefault(f"marks.{mark}", raw["marks"].line_of(mark))
    board = Board(name, checked["name"] or Path(name).stem, width, height, frozenset(north), frozenset(east),
                  frozenset(solid), pieces, {k: frozenset(v) for k, v in marks.items()}, rules, lines,
                  dict(checked["legend"] or {}))
    _check_layout(board, top)
    return board


def _check_layout(board: Board, top: Where):
    for role in board.rules.roles:
        if role not in board.pieces:
            top.fail(f"the piece '{role}' is not on the board",
                     f"draw it on the map with a legend character, or add pieces: {{{role}: [x, y]}}")
    for piece, cell in board.pieces.items():
        where = Where(board.path, board.line(f"pieces.{piece}"), "")
        x, y = cell
        if not (1 <= x <= board.width and 1 <= y <= board.height):
            where.fail(f"the piece '{piece}' at ({x},{y}) is off the {board.width}x{board.height} board")
        if cell in board.solid:
            where.fail(f"the piece '{piece}' at ({x},{y}) stands inside a wall")
    for mark, cells in board.marks.items():
        where = Where(board.path, board.line(f"marks.{mark}"), "")
        for x, y in cells:
            if not (1 <= x <= board.width and 1 <= y <= board.height) or (x, y) in board.solid:
                where.fail(f"the mark '{mark}' at ({x},{y}) is off the board or inside a wall")
    for end in board.rules.ends:
        for _, mark in end.reaches:
            if mark not in board.marks:
                raise BoardError(board.path, top.line, f"end '{end.name}' needs cells marked '{mark}', "
                                 "but the board has none", f"mark them in the legend, e.g. X: {mark}")
