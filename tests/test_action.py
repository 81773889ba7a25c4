"""The GitHub Action (action.yml at the repository's root, docs/ci.md) run as a script: its
``run:`` steps, with the inputs substituted as GitHub substitutes them, in a temporary folder
holding a copy of boards/, under the shell GitHub runs them with (no network: ``pip`` is a
stand-in that records what it was asked to install; the tests' gridsolve is this checkout's)."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import pytest
import yaml

from conftest import ROOT
from gridsolve.verify.verify import find_boards

ACTION = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
SHELL = ["bash", "--noprofile", "--norc", "-eo", "pipefail"]     # GitHub's `shell: bash`


def substituted(text: str, inputs: dict) -> str:
    """``text`` with its ``${{ inputs.NAME }}`` and ``${{ github.action_path }}`` replaced."""
    def value(match) -> str:
        name = match.group(1)
        if name == "github.action_path":
            return str(ROOT)
        assert name.startswith("inputs."), f"an expression the test cannot substitute: {name}"
        return inputs[name.removeprefix("inputs.")]
    return EXPRESSION.sub(value, text)


def run_action(folder, **given) -> tuple[subprocess.CompletedProcess, dict, str]:
    """Run every ``run:`` step in ``folder`` (stopping at the first that fails, as GitHub does):
    (the last step's result, the step outputs written, what pip was asked)."""
    inputs = {name: spec.get("default", "") for name, spec in ACTION["inputs"].items()}
    inputs.update({name.replace("_", "-"): value for name, value in given.items()})
    bin_dir, output = folder / ".bin", folder / ".github-output"
    bin_dir.mkdir()
    (bin_dir / "pip").write_text('#!/bin/sh\necho "$@" >> "$PIP_LOG"\n')
    (bin_dir / "pip").chmod(0o755)
    env = {**os.environ, "PATH": os.pathsep.join([str(bin_dir), os.path.dirname(sys.executable), os.environ["PATH"]]),
           "GITHUB_OUTPUT": str(output), "PIP_LOG": str(folder / ".pip-log")}
    result = None
    for step in ACTION["runs"]["steps"]:
        if "run" not in step:
            continue
        assert step["shell"] == "bash" and not EXPRESSION.search(step["run"])   # inputs reach scripts by env only
        step_env = {**env, **{key: substituted(str(value), inputs) for key, value in step.get("env", {}).items()}}
        result = subprocess.run([*SHELL, "-c", step["run"]], cwd=folder, env=step_env, capture_output=True,
                                text=True, timeout=600)
        if result.returncode:
            break
    outputs = dict(line.split("=", 1) for line in output.read_text().splitlines()) if output.exists() else {}
    pip = (folder / ".pip-log").read_text() if (folder / ".pip-log").exists() else ""
    return result, outputs, pip


@pytest.fixture()
def checkout(tmp_path):
    shutil.copytree(ROOT / "boards", tmp_path / "boards")
    return tmp_path


def test_the_action_is_composite_sets_up_python_and_uploads_the_report_even_when_levels_fail():
    assert ACTION["runs"]["using"] == "composite"
    steps = ACTION["runs"]["steps"]
    assert steps[0]["uses"].startswith("actions/setup-python@")
    assert steps[0]["with"]["python-version"] == "${{ inputs.python-version }}"
    upload = steps[-1]
    assert upload["uses"].startswith("actions/upload-artifact@")
    assert upload["if"].startswith("always()") and upload["with"]["path"] == "${{ inputs.report }}"
    assert upload["with"]["name"] == "${{ steps.verify.outputs.artifact }}"
    assert {"paths", "jobs", "shard", "timeout", "report"} <= set(ACTION["inputs"])
    assert all(spec.get("description") for spec in ACTION["inputs"].values())


@pytest.mark.slow
def test_a_shard_of_the_boards_is_checked_with_annotations_and_its_report_written(checkout):
    result, outputs, pip = run_action(checkout, shard="1/11")
    assert result.returncode == 0, result.stdout + result.stderr
    assert pip.split() == ["install", "--quiet", str(ROOT)]          # gridsolve from the action's checkout
    boards = len(find_boards([checkout / "boards"]))
    assert f"(shard 1/11 of {boards}): " in result.stdout and "passed" in result.stdout
    assert outputs == {"report": "gridsolve-report", "artifact": "gridsolve-report-1-of-11"}
    index = (checkout / "gridsolve-report/index.html").read_text()
    checked = re.findall(r"^(boards/\S+\.yaml) ", result.stdout, re.M)
    assert index.count('<tr id="level-') == len(set(checked)) > 0


@pytest.mark.slow
def test_a_failing_level_fails_the_step_with_its_annotation_and_still_has_its_page(checkout):
    level = checkout / "boards/classic/first-steps.yaml"
    level.write_text(level.read_text().replace("win_moves: 10", "win_moves: 11"))
    result, outputs, _ = run_action(checkout, paths="boards/classic/first-steps.yaml boards/order/crossing.yaml",
                                    timeout="", report="page", artifact_name="levels")
    assert result.returncode == 1
    assert re.search(r"^::error file=boards/classic/first-steps.yaml,line=\d+::explorer win_moves: expected "
                     r"win_moves: 11, measured 10", result.stdout, re.M)
    assert outputs == {"report": "page", "artifact": "levels"}
    assert "1 failed" in (checkout / "page/index.html").read_text()


@pytest.mark.slow
def test_without_a_report_no_page_is_written(checkout):
    result, outputs, _ = run_action(checkout, paths="boards/classic/first-steps.yaml", report="")
    assert result.returncode == 0 and outputs["report"] == ""
    assert sorted(p.name for p in checkout.iterdir()) == [".bin", ".github-output", ".pip-log", "boards"]


@pytest.mark.slow
def test_the_action_on_every_shipped_board(checkout):
    result, _, _ = run_action(checkout)
    assert result.returncode == 0, result.stdout + result.stderr
    boards = len(find_boards([checkout / "boards"]))
    assert f"on {boards} boards: " in result.stdout and "::error" not in result.stdout
    assert (checkout / "gridsolve-report/index.html").read_text().count('<tr id="level-') == boards
