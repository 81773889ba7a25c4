"""Where the tests read the original GDL files (third-party: read, never committed): the
folder ``shared/reference/gdl/`` beside the repository's root (``../shared/reference/gdl/``;
CI has it beside the clone), or the folder ``GRIDSOLVE_GDL_REFERENCE`` names.  Where it is
absent, :func:`kif_path` skips the test that asks and says why."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENV = "GRIDSOLVE_GDL_REFERENCE"


def reference_dir() -> Path:
    """The folder of the original GDL files (it may be absent)."""
    given = os.environ.get(ENV)
    return Path(given) if given else ROOT.parent / "shared" / "reference" / "gdl"


def kif_path(name: str) -> Path:
    """The original file ``name`` (e.g. ``wallmaze.kif``); the test skips where it is absent."""
    path = reference_dir() / name
    if not path.is_file():
        pytest.skip(f"{path} is absent: the original GDL files are read from ../shared/reference/gdl/ beside "
                    f"the repository (or the folder {ENV} names), never committed")
    return path
