"""Every file the sources and docs name exists: a repo-relative path (``tests/test_x.py``,
``encodings/x.lp``, ``docs/x.md``, ``bench/x.py``, a path under gridsolve/ such as
``solve/graph/factored.py`` or ``generate/layoutkernel.c``) and a dotted name
(``gridsolve.solve.graph.racegraph.RaceGraph``: its modules exist and the module defines the
name after them), in the text of README.md, gridsolve/, encodings/, bench/, tests/ and docs/.
A module moved or renamed leaves comments behind that send a reader to nothing; this finds them.
Placeholders (``boards/X.yaml``) are not paths."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCANNED = ("gridsolve", "encodings", "bench", "tests", "docs")
SUFFIXES = {".py", ".lp", ".md", ".c", ".h"}
# the top-level folders and gridsolve's packages a path may start with
FIRST = ("gridsolve", "tests", "encodings", "docs", "bench", "boards", "rules", "solve", "generate",
         "compile", "language", "play", "studio", "verify", "analysis")
PATH = re.compile(r"(?<![\w./-])((?:%s)/[\w./-]*\w\.(?:py|lp|md|c|h|yaml|json|html|js|css))\b" % "|".join(FIRST))
DOTTED = re.compile(r"(?<![\w.])gridsolve(?:\.\w+)+")
PLACEHOLDER = re.compile(r"(?:\b|_)[A-Z]+\b|NxN")    # boards/X.yaml, bench/boards/random-NxN-s1.yaml, tests/test_NAME.py
DOTTED_PLACEHOLDER = re.compile(r"\.NAME\b")          # gridsolve.commands.NAME: a module of the folder
# reports that name another checkout's modules (bench/house.py's before -> after), by design
OTHER_CHECKOUTS = {"bench/RESULTS-house.md"}
# an installed wheel ships encodings/ and rules/ as gridsolve/encodings and gridsolve/rulesets
WHEEL = {"gridsolve/encodings": "encodings", "gridsolve/rulesets": "rules"}


def path_exists(root: Path, named: str) -> bool:
    """``named`` from the repository's root, from gridsolve/ or from gridsolve/solve/."""
    for wheel, source in WHEEL.items():
        if named.startswith(wheel + "/"):
            named = source + named[len(wheel):]
    return any((base / named).exists() for base in (root, root / "gridsolve", root / "gridsolve" / "solve"))


def dotted_exists(root: Path, named: str) -> bool:
    """Packages down to a module, then (if any) a name the module or package defines."""
    parts = named.split(".")
    here = root / parts[0]
    for i, part in enumerate(parts[1:], 1):
        if part.startswith("__") or "/".join(parts[:i + 1]) in WHEEL:
            return True
        if (here / part).is_dir():
            here = here / part
            continue
        if (here / f"{part}.c").exists():             # a C kernel, built in place as a module
            return True
        module = here / f"{part}.py"
        if module.exists():
            if i + 1 == len(parts):
                return True
            here, part = module, parts[i + 1]
        else:
            here = here / "__init__.py"
        defined = re.compile(rf"^\s*(?:class |def |async def )?{re.escape(part)}\b"        # defined there
                             rf"|^\s*from \S+ import [^#\n]*\b{re.escape(part)}\b", re.M)       # or imported
        return here.exists() and bool(defined.search(here.read_text(encoding="utf-8")))
    return True


def missing_paths(root: Path) -> list[str]:
    """``file:line: name`` for every named path or dotted name that does not exist."""
    out = []
    files = [root / "README.md"] + [file for folder in SCANNED for file in sorted((root / folder).rglob("*"))]
    for file in files:
        if (file.suffix not in SUFFIXES or not file.is_file() or file.name == Path(__file__).name
                or file.relative_to(root).as_posix() in OTHER_CHECKOUTS):
            continue
        for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), 1):
            named = [m for m in PATH.findall(line) if not PLACEHOLDER.search(m) and not path_exists(root, m)]
            named += [m for m in DOTTED.findall(line) if not DOTTED_PLACEHOLDER.search(m) and not dotted_exists(root, m)]
            out += [f"{file.relative_to(root)}:{number}: {name}" for name in named]
    return out


def test_the_finder_sees_a_moved_module_in_a_comment_and_a_docstring(tmp_path):
    (tmp_path / "gridsolve" / "solve" / "graph").mkdir(parents=True)
    (tmp_path / "gridsolve" / "solve" / "graph" / "racegraph.py").write_text("class RaceGraph:\n    pass\n")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_a.py").write_text(
        '"""As gridsolve/solve/retro.py ranks, see :class:`gridsolve.solve.graph.racegraph.RaceGraph`."""\n'
        "# the numbering of solve/factored.py; solve/graph/racegraph.py's ranks; boards/X.yaml\n"
        "# gridsolve.solve.retro.RaceGraph and gridsolve.solve.graph.racegraph.Ranks\n")
    assert missing_paths(tmp_path) == [
        "tests/test_a.py:1: gridsolve/solve/retro.py", "tests/test_a.py:2: solve/factored.py",
        "tests/test_a.py:3: gridsolve.solve.retro.RaceGraph",
        "tests/test_a.py:3: gridsolve.solve.graph.racegraph.Ranks"]


@pytest.mark.slow
def test_every_path_the_sources_and_docs_name_exists():
    assert missing_paths(ROOT) == []


def test_a_dotted_placeholder_and_another_checkouts_report_are_not_paths(tmp_path):
    (tmp_path / "gridsolve" / "commands").mkdir(parents=True)
    (tmp_path / "gridsolve" / "commands" / "__init__.py").write_text(
        '"""One module a command: gridsolve.commands.NAME; not gridsolve.commands.solve."""\n')
    (tmp_path / "bench").mkdir()
    (tmp_path / "bench" / "RESULTS-house.md").write_text("`gridsolve.solve.ask` (then inside the solvers)\n")
    assert missing_paths(tmp_path) == ["gridsolve/commands/__init__.py:1: gridsolve.commands.solve"]
