"""The independent references read board and rule files on their own (reference/board.py).

Two things are checked here: that every module of the reference package (reference/: the
references the tests and bench/ share) and tests/classic_boards.py import nothing from gridsolve
nor from the test suite (read from their source), and that reference/game.py's, reference/hidden.py's
and reference/board.py's reading of the files agrees
with the loader's (gridsolve.language) on every rule option the random boards draw
(tests/randomboards.py) and on the seed games' boards, defaults included.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from reference import board as refboard
from gridsolve.language.loader import load_board
from randomboards import random_board, random_mechanism_board

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
PACKAGE = ROOT / "reference"
REFERENCES = (*sorted(f"reference/{path.name}" for path in PACKAGE.glob("*.py")), "tests/classic_boards.py")


def imported_modules(source: str) -> list[str]:
    """Every module an ``import`` or ``from ... import`` of ``source`` names (also inside
    functions), and every string given to ``importlib.import_module`` or ``__import__``."""
    names = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names.append("." * node.level + (node.module or ""))
        elif isinstance(node, ast.Call):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if called in ("import_module", "__import__") and node.args and isinstance(node.args[0], ast.Constant):
                names.append(str(node.args[0].value))
    return names


def test_import_reader_sees_every_kind_of_import():
    source = ("import os\nfrom gridsolve.language import model\ndef f():\n    import gridsolve.solve\n"
              "    from . import x\nimportlib.import_module('gridsolve.cli')\n__import__('gridsolve')\n")
    assert imported_modules(source) == ["os", "gridsolve.language", "gridsolve.solve", ".", "gridsolve.cli",
                                        "gridsolve"]


@pytest.mark.parametrize("name", REFERENCES)
def test_the_references_import_nothing_from_gridsolve(name):
    """A reference that shared the loader, the model or the rules' helpers with the solver
    would go wrong with it: each reads the files and the rules on its own.  A module of the
    package may import the package's other modules (each is read here too); the test modules
    tests/classic_boards.py imports are read too (one level is all there is)."""
    source = (ROOT / name).read_text(encoding="utf-8")
    modules = imported_modules(source)
    local = [m for m in modules if name.startswith("tests/") and (TESTS / f"{m}.py").is_file()]
    for module in local:
        modules += imported_modules((TESTS / f"{module}.py").read_text(encoding="utf-8"))
    inside = name.startswith("reference/")
    bad = [m for m in modules if m.split(".")[0] in ("gridsolve", "tests")
           or (m.startswith(".") and not (inside and m == "."))]
    assert not bad, f"{name} imports {bad}"
    assert "gridsolve" not in {m.split(".")[0] for m in modules}


def test_the_reference_package_holds_every_reference():
    assert {path.name for path in PACKAGE.glob("*.py")} >= {
        "__init__.py", "board.py", "game.py", "classic.py", "hidden.py", "gdl.py", "retrograde.py"}
    assert [path.name for path in TESTS.rglob("*.py") if "reference" in path.name and not path.name.startswith("test_")
            and path.parent.name != "gdl"] == []           # (tests/gdl/reference.py finds the GDL originals)


# --- the reading agrees with the loader --------------------------------------------------------

def _when(when) -> dict:
    return {"same_cell": [list(g) for g in when.same_cell], "reaches": sorted(when.reaches),
            "was_on": sorted(when.was_on), "nearer": [list(n) for n in when.nearer],
            "collected": sorted((name, "all" if n is None or n == -1 else n) for name, n in when.collected)}


def described(board) -> dict:
    """The rules and layout of a board (the loader's or the reference's), as plain data."""
    rules = board.rules
    move_keys = ("steps", "idle", "first_step_real", "blocked", "end_differs_from_start", "may_not_end_on",
                 "frozen_on", "bump_on", "lose_turns", "bump_hidden")
    return {
        "layout": {"size": (board.width, board.height), "north": set(board.north), "east": set(board.east),
                   "solid": set(board.solid), "pieces": dict(board.pieces),
                   "marks": {m: set(c) for m, c in board.marks.items()}, "unplaced": dict(board.unplaced)},
        "roles": list(rules.roles), "turns": [list(t) for t in rules.turns], "teams": [list(t) for t in rules.teams],
        "moves": {role: {k: getattr(move, k) for k in move_keys} for role, move in rules.moves.items()},
        "ends": [{"name": e.name, "when": _when(e.when), "scores": dict(e.scores), "loss_for": list(e.loss_for)}
                 for e in rules.ends],
        "steps": (rules.first_step, rules.last_step),
        "timeout": dict(rules.timeout),
        "timeout_when": [{"when": _when(t.when), "scores": dict(t.scores)} for t in rules.timeout_when],
        "collisions": rules.collisions,
        "collect": {n: (c.piece, c.mark) for n, c in rules.collect.items()},
        "tables": {n: (t.count, list(t.values)) for n, t in rules.tables.items()},
        "placement": {m: (p.by, p.count, list(p.not_on)) for m, p in rules.placement.items()},
        "scores_of": {role: rules.scores_of(role) for role in rules.roles},
        "team_of": {role: list(rules.team_of(role)) for role in rules.roles},
    }


def _disagreements(path) -> list[str]:
    loaded, read = described(load_board(path)), described(refboard.read_board(path))
    problems = []
    for key in loaded:
        if loaded[key] != read[key]:
            problems.append(f"{key}:\n  loader    {loaded[key]}\n  reference {read[key]}")
    return problems


@pytest.mark.parametrize("kind,count", [("plain", 100), ("mech", 50)])
def test_the_reference_reads_the_random_boards_as_the_loader_does(tmp_path, kind, count):
    """Every rule option the random boards draw (both kinds, every seed the differential tests
    use), defaults and ``loss_for`` included, and the layout from maps and lists."""
    make = random_board if kind == "plain" else random_mechanism_board
    for seed in range(count):
        path = tmp_path / f"{kind}-{seed}.yaml"
        path.write_text(make(seed).text, encoding="utf-8")
        problems = _disagreements(path)
        assert not problems, f"{kind} seed {seed}:\n" + "\n".join(problems) + "\n" + make(seed).text


SEED_BOARDS = sorted(p.name for p in (ROOT / "boards").glob("*.yaml"))


@pytest.mark.parametrize("name", SEED_BOARDS)
def test_the_reference_reads_the_seed_boards_as_the_loader_does(name):
    """The named rule sets (rules/, also through ``use``), secret placements, unplaced marks,
    score tables, conditional timeouts."""
    problems = _disagreements(ROOT / "boards" / name)
    assert not problems, "\n".join(problems)


# The rule sets with an after_ply script (classic Mummy Maze) are read by their own reference,
# reference/classic.py, which tests/test_classic_differential.py compares with gridsolve.
GENERAL_RULE_SETS = sorted(p.stem for p in (ROOT / "rules").glob("*.yaml")
                           if "after_ply:" not in p.read_text(encoding="utf-8")
                           and "use: mummy-maze-classic" not in p.read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", GENERAL_RULE_SETS)
def test_the_reference_reads_every_rule_set_as_the_loader_does(tmp_path, name):
    """Each named rule set on a board written for it, and overridden through ``use``: a move
    option changed, the others kept."""
    board = _board_for(name)
    assert board is not None, f"no seed board has the roles of {name}: add one to _BOARDS_FOR"
    base = refboard.read_board(ROOT / "boards" / board)
    roles = base.rules.roles
    layout = "".join(f"  {m}: {[list(c) for c in sorted(cells)]}\n" for m, cells in base.marks.items())
    text = (f"rules:\n  use: {name}\n  moves: {{{roles[0]}: {{steps: 1, end_differs_from_start: true}}}}\n"
            f"size: [{base.width}, {base.height}]\n"
            f"pieces: {{{', '.join(f'{r}: {list(c)}' for r, c in base.pieces.items())}}}\n"
            + (f"marks:\n{layout}" if layout else ""))
    path = tmp_path / "board.yaml"
    path.write_text(text, encoding="utf-8")
    problems = _disagreements(path)
    assert not problems, "\n".join(problems) + "\n" + text


_BOARDS_FOR = {"mummy-maze": "mummymaze2p-2007.yaml", "pacman": "pacman3p.yaml", "wallmaze": "wallmaze.yaml",
               "maze-runner": "maze-runner-duel.yaml"}


def _board_for(rule_set: str) -> str | None:
    return next((board for prefix, board in _BOARDS_FOR.items() if rule_set.startswith(prefix)), None)


def test_the_reader_refuses_a_key_it_does_not_read(tmp_path):
    """A new rule option must be read by the references before they can be trusted with it."""
    path = tmp_path / "board.yaml"
    path.write_text("rules: {use: mummy-maze-2007, moves: {mummy: {teleport: true}}}\n"
                    "size: [3, 1]\npieces: {explorer: [1, 1], mummy: [3, 1]}\nmarks: {exit: [[2, 1]]}\n",
                    encoding="utf-8")
    with pytest.raises(refboard.UnreadKey, match="teleport"):
        refboard.read_board(path)


def test_a_misread_default_is_caught(monkeypatch):
    """The comparison has teeth: a reader that forgot the default ``loss_for`` or the default
    ``first_step_real`` disagrees with the loader on a seed board."""
    board = ROOT / "boards" / "mummymaze2p-2007.yaml"
    assert _disagreements(board) == []
    monkeypatch.setattr(refboard, "_default_loss_for", lambda scores, ends, timeout: ())
    assert [p.split(":")[0] for p in _disagreements(board)] == ["ends"]
    monkeypatch.undo()
    monkeypatch.setitem(refboard.MOVE_DEFAULTS, "first_step_real", True)
    assert [p.split(":")[0] for p in _disagreements(board)] == ["moves"]
