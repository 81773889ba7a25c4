"""Shared test helpers: tiny boards written as YAML, and plain clingo runs."""
from __future__ import annotations

import hashlib
import sys
import tempfile
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Where PYTHONDONTWRITEBYTECODE is set, every session would compile gridsolve's modules again and
# rewrite every test module's asserts again (each worker: about two thirds of its collection's
# CPU time); their bytecode goes instead to a cache outside the checkout, one per checkout, as
# bench/oldnew.py's `prepare` does, so the checkout stays free of __pycache__ folders as asked.
if sys.dont_write_bytecode and not sys.pycache_prefix:
    sys.pycache_prefix = str(Path(tempfile.gettempdir())
                             / f"gridsolve-pycache-{hashlib.sha1(str(ROOT).encode()).hexdigest()[:12]}")
    sys.dont_write_bytecode = False

import clingo  # noqa: E402
import pytest  # noqa: E402

if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from gridsolve.language.loader import load_board  # noqa: E402
from native_build import build_in_place  # noqa: E402

# The C kernels, built in this checkout as `pip install .` builds them into the installed package.
NATIVE_PROBLEMS = build_in_place()


def pytest_report_header(config):
    return [f"C kernel not built: {problem}" for problem in NATIVE_PROBLEMS]


# A 4x2 corridor used across the tests: the explorer steps east twice to escape, and the mummy
# (two steps a move, from the bottom-left corner) only gets next to it in between.
CORRIDOR = """\
name: Corridor
rules: mummy-maze-2007
legend: {E: explorer, M: mummy, X: exit}
map: |
  +---+---+---+---+
  |     E       X |
  +   +---+---+   +
  | M             |
  +---+---+---+---+
"""


def tiered(values, quick) -> list:
    """``values`` as a test's parameters, in their order (so each keeps the id it has as a plain
    value): those ``quick`` keeps in the quick tier (``quick``: how many of the first, or a test
    of a value), the others marked slow.  A tuple holds the arguments of a test of several."""
    def keep(index, value):
        return index < quick if isinstance(quick, int) else quick(value)
    return [value if keep(i, value) else pytest.param(*(value if isinstance(value, tuple) else (value,)),
                                                       marks=pytest.mark.slow)
            for i, value in enumerate(values)]


def run_clingo(program: str) -> set[str]:
    """The shown atoms of the single answer set of ``program``, as strings."""
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], program)
    ctl.ground([("base", [])])
    models = []
    ctl.solve(on_model=lambda m: models.append({str(s) for s in m.symbols(shown=True)}))
    assert len(models) == 1, f"expected one answer set, got {len(models)}"
    return models[0]


@pytest.fixture
def make_board(tmp_path):
    """Write a board file from YAML text and load it."""
    def make(text: str, name: str = "board.yaml"):
        path = tmp_path / name
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
        return load_board(path)
    return make


@pytest.fixture
def board_file(tmp_path):
    """Write a board file from YAML text and return its path."""
    def make(text: str, name: str = "board.yaml") -> Path:
        path = tmp_path / name
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
        return path
    return make
