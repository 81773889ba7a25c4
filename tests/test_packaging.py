"""A plain `pip install .` (a wheel, not an editable install) ships and finds the encodings."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile

import pytest

from conftest import ROOT


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    out = tmp_path_factory.mktemp("wheel")
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(out), str(ROOT)],
                           capture_output=True, text=True)
    if build.returncode != 0:
        pytest.fail(f"pip wheel failed:\n{build.stdout}\n{build.stderr}")
    (path,) = out.glob("gridsolve-*.whl")
    return path


@pytest.mark.slow
def test_wheel_contains_encodings_and_rule_sets(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for encoding in ("board.lp", "moves.lp", "solve.lp", "answer.lp"):
        assert f"gridsolve/encodings/{encoding}" in names
    assert "gridsolve/rulesets/mummy-maze-2007.yaml" in names


@pytest.mark.slow
def test_installed_wheel_solves_a_board_away_from_the_source_tree(wheel, tmp_path):
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    board = tmp_path / "board.yaml"
    board.write_text((ROOT / "boards" / "mummymaze2p-2007.yaml").read_text())
    env = {**os.environ, "PYTHONPATH": str(site)}
    where = subprocess.run([sys.executable, "-c", "import gridsolve; print(gridsolve.__file__)"],
                           cwd=tmp_path, env=env, capture_output=True, text=True)
    assert where.stdout.startswith(str(site))
    result = subprocess.run([sys.executable, "-m", "gridsolve", "solve", str(board), "--role", "mummy",
                             "--query", "win", "--json"], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert answer["holds"] is True and answer["plies"] == 20


def test_encodings_folder_does_not_shadow_the_standard_library():
    # a top-level `encodings` package would hide Python's own codec package
    assert not (ROOT / "encodings" / "__init__.py").exists()


@pytest.mark.slow
def test_installed_wheel_generates_like_a_board_of_the_checkout(wheel, tmp_path):
    # The board finds the checkout's rules/mummy-maze-gdl.yaml, the output folder (outside the
    # checkout) the installed copy of it: the same rules, so the request is not refused.
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    out = tmp_path / "levels"
    env = {**os.environ, "PYTHONPATH": str(site)}
    result = subprocess.run([sys.executable, "-m", "gridsolve", "generate", "--like",
                             str(ROOT / "boards" / "mummymaze2p.yaml"), "--out", str(out), "--size", "4x4",
                             "--plies", "3..", "--allow-trivial"], cwd=tmp_path, env=env, capture_output=True,
                            text=True)
    assert result.returncode == 0, result.stderr
    [path] = sorted(out.glob("*.yaml"))
    verified = subprocess.run([sys.executable, "-m", "gridsolve", "verify", str(path)], cwd=tmp_path, env=env,
                              capture_output=True, text=True)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "rules: mummy-maze-gdl" in path.read_text(encoding="utf-8")


def test_every_subpackage_is_listed_for_the_wheel():
    # a subpackage missing from pyproject.toml's list is left out of the wheel (found by the slow
    # tier only, when an installed wheel fails to import it)
    import tomllib
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {".".join(path.parent.relative_to(ROOT).parts)
             for path in (ROOT / "gridsolve").rglob("__init__.py")}
    assert found and found <= listed, sorted(found - listed)


def _pyproject() -> dict:
    import tomllib
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_native_lists_every_kernel_pyproject_builds():
    from gridsolve import native
    built = {entry["name"] for entry in _pyproject()["tool"]["setuptools"]["ext-modules"]}
    assert {f"{package}.{name}" for name, package in native.KERNELS} == built


@pytest.mark.parametrize("native_env, ok", [("1", True), ("0", False)])
def test_wheel_test_command_fails_where_a_kernel_does_not_load(native_env, ok):
    # cibuildwheel runs this command in every wheel: it passes where every kernel loads (the test
    # session built them in place, tests/native_build.py) and names them where they do not
    command = _pyproject()["tool"]["cibuildwheel"]["test-command"]
    run = subprocess.run(command, shell=True, capture_output=True, text=True, cwd=ROOT,
                         env={**os.environ, "GRIDSOLVE_NATIVE": native_env,
                              "PATH": f"{os.path.dirname(sys.executable)}{os.pathsep}{os.environ['PATH']}"})
    assert (run.returncode == 0) is ok, run.stderr
    assert ("gridsolve.solve.bounded.raceskernel: GRIDSOLVE_NATIVE=0" in run.stderr) is not ok
