"""The C kernels, built with the package: an extension module a C file of this package becomes
when gridsolve is installed, loaded here, or None where it was not built.

The bounded solver's races (``raceskernel.c``) run about 50x faster in C than in Python.
``pip install .`` builds each kernel pyproject.toml lists as an optional extension module
(``[[tool.setuptools.ext-modules]]``; wheels: ``[tool.cibuildwheel]``), with the platform's
compiler; where it has none, or no Python headers, the install goes on without it and
:func:`load` returns None: the callers search in Python, with the same answers, and
:func:`why_not` says why for the text output.  Nothing is compiled at run time.
``GRIDSOLVE_NATIVE=0`` asks for Python explicitly.  In a source checkout the test session
builds the kernels in place (tests/native_build.py).
"""
from __future__ import annotations

import importlib
import os

_loaded: dict[str, object] = {}
_why_not: dict[str, str] = {}

NOT_BUILT = "it was not built when gridsolve was installed (no C compiler or Python headers then)"


def enabled() -> bool:
    return os.environ.get("GRIDSOLVE_NATIVE", "1") != "0"


def load(name: str, package: str = __package__):
    """The kernel ``name`` of ``package`` (the extension module built from ``name.c`` in its
    folder; by default this one's), None where ``GRIDSOLVE_NATIVE=0`` or it was not built."""
    if not enabled():
        return None
    if name not in _loaded:
        module = f"{package}.{name}"
        try:
            _loaded[name] = importlib.import_module(module)
        except ImportError as exc:
            _loaded[name] = None
            _why_not[name] = NOT_BUILT if getattr(exc, "name", None) == module else f"it does not load: {exc}"
    return _loaded[name]


def why_not(name: str) -> str | None:
    """Why the kernel ``name`` runs in Python: None where it loads (or was not asked for yet)."""
    if not enabled():
        return "GRIDSOLVE_NATIVE=0"
    return _why_not.get(name) if load(name) is None else None
