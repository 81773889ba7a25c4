"""C for the hottest loops: a C file of this package compiled once per Python and loaded.

The bounded solver's races (``raceskernel.c``) run about 50x faster in C than in Python.  The
file is compiled on first use with the C compiler Python was built with (``cc``, or ``$CC``)
into a cache directory (``$GRIDSOLVE_CACHE``, else ``$XDG_CACHE_HOME/gridsolve`` or
``~/.cache/gridsolve``), named by a hash of the source (with the header beside it) and the Python ABI, so an edit or another
Python compiles anew (and removes the earlier builds) and concurrent processes never load a
half-written file.  Where no compiler
or no Python headers are found, :func:`load` returns None and the callers search in Python,
with the same answers; ``GRIDSOLVE_NATIVE=0`` asks for that explicitly.
"""
from __future__ import annotations

import contextlib
import hashlib
import importlib.machinery
import importlib.util
import os
import shlex
import shutil
import subprocess
import sysconfig
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
_loaded: dict[str, object] = {}
why_not: dict[str, str] = {}     # name -> why it could not be compiled (the text output says it)


def cache_dir() -> Path:
    if os.environ.get("GRIDSOLVE_CACHE"):
        return Path(os.environ["GRIDSOLVE_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "gridsolve"


def enabled() -> bool:
    return os.environ.get("GRIDSOLVE_NATIVE", "1") != "0"


def load(name: str, directory: Path = HERE):
    """The compiled module ``name`` (from ``name.c`` in ``directory``, by default beside this
    file), None where it cannot be built."""
    if not enabled():
        return None
    if name in _loaded:
        return _loaded[name]
    module = None
    try:
        module = _build_and_import(name, directory)
    except (OSError, subprocess.SubprocessError, ImportError) as exc:
        why_not[name] = str(exc).strip().splitlines()[-1] if str(exc).strip() else type(exc).__name__
    _loaded[name] = module
    return module


def _build_and_import(name: str, directory: Path):
    source = directory / f"{name}.c"
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    include = sysconfig.get_paths()["include"]
    headers = b"".join(h.read_bytes() for h in sorted(HERE.glob("*.h")))     # the kernels' shared header
    digest = hashlib.sha1(source.read_bytes() + headers + suffix.encode() + include.encode()).hexdigest()[:16]
    target = cache_dir() / f"{name}-{digest}{suffix}"
    if not target.exists():
        _compile(source, target, include)
        for older in target.parent.glob(f"{name}-*{suffix}"):     # an earlier edit's or version's
            if older != target:
                with contextlib.suppress(OSError):
                    older.unlink()
    spec = importlib.util.spec_from_file_location(name, target,
                                                  loader=importlib.machinery.ExtensionFileLoader(name, str(target)))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _compile(source: Path, target: Path, include: str) -> None:
    if not (Path(include) / "Python.h").exists():
        raise OSError(f"no Python headers in {include}")
    compiler = shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")
    if not shutil.which(compiler[0]):
        raise OSError(f"no C compiler ({compiler[0]})")
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, partial = tempfile.mkstemp(dir=target.parent, suffix=".partial")
    os.close(fd)
    try:
        done = subprocess.run([*compiler, "-O2", "-fPIC", "-shared", f"-I{include}", str(source), "-o", partial],
                              capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise OSError(f"{compiler[0]} failed: {done.stderr.strip()[-500:]}")
        os.replace(partial, target)
    finally:
        if os.path.exists(partial):
            os.unlink(partial)


class KernelRaces:
    """What the C races of a search share (``raceskernel``, ``knowingkernel``): the capsule of
    its arrays, a table per race, the positions searched counted into ``search.nodes`` and the
    limits checked by ``search.check_limits`` every ``check_every`` positions."""

    check_every = 200_000        # positions searched between two checks of the limits (about 25 ms)
    growth_bytes = 0             # table memory those positions may add

    def __init__(self, module, search):
        self.module, self.search = module, search
        self.capsule = None
        self.slots: dict = {}
        self.counted = 0

    def call(self, slot: int, *args) -> bool:
        """``module.forces(capsule, slot, *args, check, check_every)``; a table that cannot grow is the
        search's memory limit."""
        try:
            return self.module.forces(self.capsule, slot, *args, self._check, self.check_every)
        except MemoryError:
            raise self.search.guard.error("a transposition table could not grow (the machine has no more memory)",
                                          f"after searching {self.search.nodes:,} positions") from None
        finally:
            self._count()

    def _count(self) -> None:
        nodes = self.stats()[0]
        self.search.nodes += nodes - self.counted
        self.counted = nodes

    def _check(self, nodes: int) -> None:
        self._count()
        self.search.check_limits(self.growth_bytes + self.stats()[3])

    def clear(self) -> None:
        """Drop every race's table (the arrays stay)."""
        self.module.clear(self.capsule)
        self.slots = {}

    def stats(self) -> tuple[int, int, int, int]:
        """(positions searched, table entries, table bytes, bytes a table that doubles before
        the next check of the limits needs)."""
        return self.module.stats(self.capsule)
