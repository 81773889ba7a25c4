"""Builds the C kernels pyproject.toml lists (``[[tool.setuptools.ext-modules]]``) in place, in
a source checkout, as ``pip install .`` builds them into the installed package: the test
session calls it (tests/conftest.py), and ``python tests/native_build.py`` does the same by
hand.  A kernel is built again when its C file is newer than the built module; where nothing
compiles (no C compiler or Python headers), the message says so and gridsolve searches in
Python."""
from __future__ import annotations

import os
import sys
import sysconfig
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def kernels() -> list[dict]:
    """The ext-modules entries of pyproject.toml."""
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["tool"]["setuptools"]["ext-modules"]


def built_path(entry: dict) -> Path:
    return ROOT.joinpath(*entry["name"].split(".")).with_suffix(sysconfig.get_config_var("EXT_SUFFIX") or ".so")


def stale(entry: dict) -> bool:
    target = built_path(entry)
    inputs = [*entry["sources"], *entry.get("depends", [])]
    return not target.exists() or any((ROOT / s).stat().st_mtime > target.stat().st_mtime for s in inputs)


def build_in_place(quiet: bool = True) -> list[str]:
    """Build every stale kernel next to its C file; the messages of those that did not build.
    Processes that call it at once (the test session's parallel workers) build one at a time:
    the others wait on a lock file, then find the kernels built."""
    import fcntl
    import hashlib
    if not any(stale(entry) for entry in kernels()):
        return []
    checkout = hashlib.sha1(str(ROOT).encode()).hexdigest()[:12]
    with open(Path(tempfile.gettempdir()) / f"gridsolve-native-build-{checkout}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _build_stale(quiet)


def _build_stale(quiet: bool) -> list[str]:
    """Build the stale kernels at once, one thread each (the compiler runs in a child process:
    the kernels build in about the time of the longest where there are cores for them)."""
    from concurrent.futures import ThreadPoolExecutor
    stale_entries = [entry for entry in kernels() if stale(entry)]
    with ThreadPoolExecutor(max(1, min(len(stale_entries), os.cpu_count() or 1))) as pool:
        return [problem for problem in pool.map(lambda entry: _build(entry, quiet), stale_entries) if problem]


def _build(entry: dict, quiet: bool) -> str | None:
    """Build one kernel next to its C file; the message if it did not build."""
    from setuptools import Distribution, Extension
    from setuptools.errors import CCompilerError, CompileError, LinkError, PlatformError
    options = {k.replace("-", "_"): v for k, v in entry.items() if k not in ("name", "sources", "optional")}
    for paths in ("include_dirs", "depends"):       # (paths from the checkout's root, as pip reads them)
        if paths in options:
            options[paths] = [str(ROOT / p) for p in options[paths]]
    extension = Extension(entry["name"], [str(ROOT / s) for s in entry["sources"]], **options)
    with tempfile.TemporaryDirectory() as temp:
        dist = Distribution({"ext_modules": [extension]})
        command = dist.get_command_obj("build_ext")
        command.inplace, command.build_temp, command.build_lib = False, temp, str(ROOT)
        try:
            command.ensure_finalized()
            if quiet:
                dist.verbose = 0
            command.run()
        except (CCompilerError, CompileError, LinkError, PlatformError, OSError) as exc:
            return f"{entry['name']}: {exc}"
    return None


if __name__ == "__main__":
    problems = build_in_place(quiet=False)
    print("\n".join(problems) or "built: " + ", ".join(str(built_path(e).relative_to(ROOT)) for e in kernels()))
    sys.exit(1 if problems else 0)
