"""Every shell example in README.md and docs/*.md runs as written.

Each ```sh block is run command by command, in a fresh folder holding a copy of the
repository's boards and rule sets (and the few input files the examples name), with
``gridsolve`` on the PATH.  A command must exit with a code that means success for its tool;
the examples' own output files must then exist.  The install lines run only the command after
``pip install ... &&`` (the test environment is installed already), and the test suite's own
command is checked by test_readme.py instead of being run from inside itself.
"""
from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
NOT_RUN = {'python -m pytest -q': "the test suite itself (test_readme.py checks .ci/run runs it)"}
SUCCESS = {"clingo": {10, 20, 30}}   # clingo: 10 satisfiable, 20 unsatisfiable, 30 optimum found
QUESTIONS = '{"role": "mummy", "query": "win"}\n{"at": {"explorer": [2, 3]}, "turn": "mummy"}\n'
SECONDS = 300


def commands(block: str) -> list[str]:
    """The logical commands of a shell block: continuation lines joined, comments dropped."""
    joined = re.sub(r"\\\n\s*", "", block)
    out = []
    for line in joined.splitlines():
        line = re.sub(r"\s+#.*$", "", line).strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("pip install"):
            line = line.partition("&&")[2].strip()
        if line and line not in NOT_RUN:
            out.append(line)
    return out


def blocks() -> list:
    found = []
    for page in PAGES:
        for index, block in enumerate(re.findall(r"```sh\n(.*?)```", page.read_text(encoding="utf-8"), re.S)):
            found.append(pytest.param(page, block, id=f"{page.relative_to(ROOT)}-{index + 1}"))
    return found


def sandbox(folder: Path, block: str) -> dict:
    """A folder laid out as a checkout for the examples, and the environment to run them in."""
    for name in ("boards", "rules"):
        shutil.copytree(ROOT / name, folder / name)
    (folder / "questions.jsonl").write_text(QUESTIONS, encoding="utf-8")
    (folder / "extra").mkdir()
    shutil.copy(ROOT / "boards" / "mummymaze2p.yaml", folder / "extra" / "level9.yaml")
    if "--out levels/" not in block:     # the examples that read levels/ find the shipped ones
        shutil.copytree(ROOT / "boards" / "generated", folder / "levels")
    bin_dir = folder / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "gridsolve"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m gridsolve "$@"\n', encoding="utf-8")
    shim.chmod(shim.stat().st_mode | stat.S_IEXEC)
    env = dict(os.environ)
    env["PATH"] = f"{bin_dir}{os.pathsep}{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env["PYTHON"] = sys.executable
    return env


def tool_of(command: str) -> str:
    last = command.split("|")[-1].split()
    if last[:3] == ["python", "-m", "clingo"] or last[:1] == ["clingo"]:
        return "clingo"
    return last[0]


def test_every_page_has_run_examples():
    # The examples are found: the README's tour and the command pages have shell blocks.
    pages = {param.values[0].name for param in blocks()}
    assert {"README.md", "solve.md", "ask.md", "explain.md", "verify.md", "generate.md", "compile.md"} <= pages


def test_commands_are_split_as_a_shell_reads_them():
    block = "printf 'a\\n' \\\n  | gridsolve ask b.yaml   # comment\n# a line of comment\npip install . && gridsolve solve x.yaml\n"
    assert commands(block) == ["printf 'a\\n' | gridsolve ask b.yaml", "gridsolve solve x.yaml"]
    assert commands('pip install ".[test]" && python -m pytest -q\n') == []


@pytest.mark.slow
@pytest.mark.parametrize("page, block", blocks())
def test_shell_example_runs(page, block, tmp_path):
    env = sandbox(tmp_path, block)
    for command in commands(block):
        command = re.sub(r"^python ", '"$PYTHON" ', command)
        done = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=SECONDS, stdin=subprocess.DEVNULL)
        allowed = SUCCESS.get(tool_of(command), {0})
        assert done.returncode in allowed, (f"{page.name}: `{command}` exited {done.returncode}\n"
                                            f"{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
        assert "Traceback" not in done.stderr, f"{page.name}: `{command}`\n{done.stderr[-2000:]}"
        for written in re.findall(r"(?:>|--svg|--strategy|--out)\s+([\w./-]+)", command):
            if written != "-":
                assert (tmp_path / written).exists(), f"{page.name}: `{command}` did not write {written}"
