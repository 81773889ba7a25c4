"""Running a measured child process, for every bench script: the launcher that measures exactly
the child (wall time, CPU time, peak memory), the gridsolve command line, the machine's
description, running another checkout of gridsolve, and small helpers.  Imported by bench/run.py,
bench/engine.py, bench/levels.py, bench/races.py, bench/oldnew.py and bench/results.py."""
from __future__ import annotations

import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# The measured program is started by a tiny Python launcher rather than by this (big) process:
# on Linux a child's ru_maxrss includes the RSS of the process image it exec'ed from, so a
# child forked from the runner would report at least the runner's own RSS.  The launcher
# (about 10 MB) forks, sets the memory limit, execs the program, waits for it with wait4 (its
# exact rusage), times it, and writes the figures as JSON.  SIGTERM (the time limit) reaches
# the program but not the launcher, so a killed run still reports its time and memory.
LAUNCHER = r"""
import json, os, resource, signal, sys, time
limit, report, argv = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
signal.signal(signal.SIGTERM, signal.SIG_IGN)
started = time.perf_counter()
pid = os.fork()
if pid == 0:
    try:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        if limit:
            resource.setrlimit(resource.RLIMIT_AS, (limit << 20, limit << 20))
        os.execv(argv[0], argv)
    finally:
        os._exit(127)
_, status, ru = os.wait4(pid, 0)
wall = time.perf_counter() - started
with open(report, "w") as f:
    json.dump({"wall_s": wall, "cpu_s": ru.ru_utime + ru.ru_stime, "maxrss_mb": ru.ru_maxrss / 1024.0,
               "rc": os.waitstatus_to_exitcode(status)}, f)
"""


def run_child(argv: list[str], timeout: float, mem_limit_mb: int | None = None, cwd: Path = ROOT) -> dict:
    """Run ``argv`` (through LAUNCHER, in the folder ``cwd``); wall time, CPU time and peak RSS of
    exactly that process, exit code, stdout/stderr."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
            tempfile.NamedTemporaryFile(suffix=".json") as report:
        proc = subprocess.Popen([sys.executable, "-S", "-c", LAUNCHER, str(mem_limit_mb or 0), report.name, *argv],
                                stdout=out, stderr=err, cwd=cwd, start_new_session=True)
        killed = []

        def kill():
            killed.append(True)
            try:
                os.killpg(proc.pid, 15)      # the launcher ignores it; the measured program dies
            except ProcessLookupError:
                pass
        timer = threading.Timer(timeout, kill)
        timer.start()
        proc.wait()
        timer.cancel()
        out.seek(0)
        err.seek(0)
        try:
            res = json.loads(Path(report.name).read_text())
        except (OSError, ValueError):
            res = {"wall_s": float("nan"), "cpu_s": float("nan"), "maxrss_mb": float("nan"), "rc": proc.returncode}
        res.update({"timed_out": bool(killed), "stdout": out.read().decode(errors="replace"),
                    "stderr": err.read().decode(errors="replace")[-2000:]})
        return res


def gridsolve_cli() -> list[str]:
    exe = Path(sys.executable).with_name("gridsolve")
    if exe.exists():
        return [str(exe)]
    found = shutil.which("gridsolve")
    return [found] if found else [sys.executable, "-m", "gridsolve"]


# gridsolve's command line of a source checkout: ``python -c CHECKOUT_RUNNER CHECKOUT ARGS...`` puts
# that checkout first on sys.path (ahead of an installed gridsolve) and runs its CLI.
CHECKOUT_RUNNER = ("import sys; sys.path.insert(0, sys.argv.pop(1)); sys.argv[0] = 'gridsolve'; "
                   "from gridsolve.cli import main; main()")


def checkout_cli(checkout: Path) -> list[str]:
    """The ``gridsolve`` command of the source checkout ``checkout`` (any commit)."""
    return [sys.executable, "-c", CHECKOUT_RUNNER, str(checkout)]


def bench_script(checkout: Path, script: str) -> list[str]:
    """The command line of the bench script ``script`` (``bench/NAME.py``) of the checkout ``checkout``,
    run in that folder: its module (``python -m bench.NAME``) where bench/ is a package there, the
    file itself in an older checkout."""
    if (checkout / "bench" / "__init__.py").is_file():
        return [sys.executable, "-m", script.removesuffix(".py").replace("/", ".")]
    return [sys.executable, str(checkout / script)]


def build_kernels(checkout: Path) -> None:
    """Build the C kernels of ``checkout`` in place where they are stale (its tests/native_build.py)."""
    subprocess.run([sys.executable, str(checkout / "tests" / "native_build.py")], cwd=checkout, check=True,
                   capture_output=True)


def med(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def log(msg: str):
    print(msg, file=sys.stderr, flush=True)


def machine_info() -> str:
    try:
        nproc = subprocess.run(["nproc"], capture_output=True, text=True).stdout.strip()
    except OSError:
        nproc = str(os.cpu_count())
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = ""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                mem = f"{int(line.split()[1]) / 1048576:.0f} GB RAM"
    except OSError:
        pass
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    import clingo
    return (f"{platform.platform()}; nproc {nproc}; {cpu}; {mem}; Python {platform.python_version()}; "
            f"clingo {clingo.__version__}; load average at start {load}")


def git_rev(checkout: Path = ROOT) -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              cwd=checkout).stdout.strip() or "?"
    except OSError:
        return "?"
