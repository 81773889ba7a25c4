"""The one loader of the C kernels, built with the package: the extension module a C file of a
gridsolve package becomes when gridsolve is installed, loaded here, or None where it was not built.

The kernels: the bounded solver's races (``solve/bounded/raceskernel.c``, about 50x faster
than Python), the robust search's (``solve/hidden/knowingkernel.c``), the scripted search and
the ranker's twin (``solve/graph/scriptkernel.c``), the layout judge's
(``generate/layoutkernel.c``), a random player's win probability (``analysis/chancekernel.c``)
and the circuits of ground programs (``ground/circuitkernel.c``); docs/how-it-works.md, "The C
kernels and their Python fallbacks".
``pip install .`` builds each kernel pyproject.toml lists as an optional extension module
(``[[tool.setuptools.ext-modules]]``; wheels: ``[tool.cibuildwheel]``), with the platform's
compiler; where it has none, or no Python headers, the install goes on without it and
:func:`load` returns None: the callers search in Python, with the same answers, and
:func:`why_not` says why for the text output.  Nothing is compiled at run time.
``GRIDSOLVE_NATIVE=0`` asks for Python explicitly.  In a source checkout the test session
builds the kernels in place (tests/native_build.py).

Where the Python search stays: the platforms the wheels skip (``[tool.cibuildwheel]``: musl
Linux, 32-bit Linux and Windows, other Pythons than those it builds) installed from the source
without a compiler, and ``GRIDSOLVE_NATIVE=0``; what it costs against the C is measured in
bench/RESULTS-house.md.  Each wheel's test runs :func:`missing` (every kernel must load).
"""
from __future__ import annotations

import importlib
import os

_loaded: dict[str, object] = {}
_why_not: dict[str, str] = {}

KERNELS = (     # (name, package) of every kernel pyproject.toml builds
    ("raceskernel", "gridsolve.solve.bounded"), ("knowingkernel", "gridsolve.solve.hidden"),
    ("layoutkernel", "gridsolve.generate"), ("chancekernel", "gridsolve.analysis"),
    ("circuitkernel", "gridsolve.ground"), ("scriptkernel", "gridsolve.solve.graph"))

NOT_BUILT = "it was not built when gridsolve was installed (no C compiler or Python headers then)"


def enabled() -> bool:
    return os.environ.get("GRIDSOLVE_NATIVE", "1") != "0"


def load(name: str, package: str):
    """The kernel ``name`` of ``package`` (the extension module built from ``name.c`` in its
    folder), None where ``GRIDSOLVE_NATIVE=0`` or it was not built."""
    if not enabled():
        return None
    module = f"{package}.{name}"
    if module not in _loaded:
        try:
            _loaded[module] = importlib.import_module(module)
        except ImportError as exc:
            _loaded[module] = None
            _why_not[module] = NOT_BUILT if getattr(exc, "name", None) == module else f"it does not load: {exc}"
    return _loaded[module]


def why_not(name: str, package: str) -> str | None:
    """Why the kernel ``name`` (of ``package``) runs in Python: None where it loads."""
    if not enabled():
        return "GRIDSOLVE_NATIVE=0"
    return _why_not.get(f"{package}.{name}") if load(name, package) is None else None


def missing() -> list[str]:
    """The kernels of :data:`KERNELS` that do not load, each with why (empty: all load)."""
    return [f"{package}.{name}: {why_not(name, package)}" for name, package in KERNELS
            if load(name, package) is None]
