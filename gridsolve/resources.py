"""Find the files shipped with gridsolve: the encodings (encodings/) and named rule sets (rules/).

In a source checkout they are the top-level folders; in an installed wheel they are the
packages ``gridsolve.encodings`` and ``gridsolve.rulesets`` (see pyproject.toml).
"""
from __future__ import annotations

from functools import lru_cache
from importlib.util import find_spec
from pathlib import Path

_SOURCE_ROOT = Path(__file__).resolve().parent.parent


def _folder(package: str, source_name: str) -> Path:
    """The installed package folder, else the top-level folder of a source checkout.

    The folders have no ``__init__.py`` (a top-level ``encodings`` package would shadow
    Python's own), so they are namespace packages: ask the import system where they are."""
    try:
        spec = find_spec(package)
    except ModuleNotFoundError:
        spec = None
    for location in (spec.submodule_search_locations or []) if spec else []:
        path = Path(location)
        if path.is_dir() and any(path.iterdir()):
            return path
    return _SOURCE_ROOT / source_name


@lru_cache(maxsize=None)
def encodings_dir() -> Path:
    return _folder("gridsolve.encodings", "encodings")


@lru_cache(maxsize=None)
def rules_dir() -> Path:
    return _folder("gridsolve.rulesets", "rules")


@lru_cache(maxsize=None)
def encoding(name: str) -> str:
    """The text of ``encodings/<name>``."""
    return (encodings_dir() / name).read_text(encoding="utf-8")
