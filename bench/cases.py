"""The registered benchmarks: every module of bench/ that defines ``CASE = Case(...)`` is one,
run as ``python -m bench NAME [options]`` (its options: ``python -m bench NAME --help``)."""
from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Case:
    """What a benchmark is to the runner."""

    measures: str               # one line: what it measures
    results: str | None         # the results file it writes (a path from the repository), None: it prints
    quick: str = ""             # its quickest options (a smoke run that shows it runs; "": none needed)
    needs: str = ""             # what must be given that the repository lacks ("": nothing)


def case_of(name: str) -> Case | None:
    """The case of the module bench/NAME.py, or None when there is no such registered module."""
    if name.startswith("_") or name not in {m.name for m in pkgutil.iter_modules([str(HERE)])}:
        return None
    case = getattr(importlib.import_module(f"bench.{name}"), "CASE", None)
    return case if isinstance(case, Case) else None


def cases() -> dict[str, Case]:
    """{name: case} of every registered module, by name (the module's name)."""
    found = {m.name: case_of(m.name) for m in sorted(pkgutil.iter_modules([str(HERE)]), key=lambda m: m.name)}
    return {name: case for name, case in found.items() if case is not None}
