"""`gridsolve generate --jobs N`: the search in N worker processes, the boards written by the
parent: the requested count of valid boards, far enough apart, that verify; a timeout reported
as one with no worker left alive; `--jobs 1` as before; `--jobs 0` a clear error (exit 2)."""
from __future__ import annotations

import multiprocessing
import re
from pathlib import Path

import pytest

from click.testing import CliRunner

from gridsolve.cli import main
from gridsolve.generate.generate import generate
from gridsolve.generate.request import Request
from gridsolve.generate.jobs import worker_seed
from gridsolve.language.loader import load_board

from conftest import ROOT

PROSE = ("--rules", "mummy-maze-2007-prose", "--size", "5x5")


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def walls_and_marks(path: Path) -> set:
    """The walls and marked cells of a written board, read back by the loader."""
    board = load_board(path)
    return ({("n", e) for e in board.north} | {("e", e) for e in board.east}
            | {(m, c) for m, cells in board.marks.items() for c in cells})


@pytest.mark.slow
def test_two_jobs_write_the_count_of_distinct_boards_that_verify(tmp_path):
    request = Request(rules="mummy-maze-2007-prose", size=(5, 5), count=3, seed=5, jobs=2, timeout=120,
                      out=tmp_path)
    report = generate(request)
    assert report.error is None, report.error
    assert len(report.boards) == 3
    files = sorted(tmp_path.glob("*.yaml"))
    assert [p.name for p in files] == [f"mummy-maze-2007-prose-5x5-s5-{i}.yaml" for i in (1, 2, 3)]
    assert report.apart > 0
    for i, a in enumerate(files):
        for b in files[i + 1:]:
            assert len(walls_and_marks(a) ^ walls_and_marks(b)) >= report.apart, (a.name, b.name)
    result = run("verify", tmp_path)
    assert result.exit_code == 0, result.output
    assert re.search(r"on 3 boards: (\d+) passed", result.output), result.output
    assert (tmp_path / "mummy-maze-2007-prose-5x5-s5-index.md").exists()
    assert multiprocessing.active_children() == []


@pytest.mark.slow
def test_one_job_writes_the_same_files_as_without_the_option(tmp_path):
    args = (*PROSE, "--count", "2", "--seed", "5", "--timeout", "120")
    assert run("generate", *args, "--out", tmp_path / "plain").exit_code == 0
    result = run("generate", *args, "--jobs", "1", "--out", tmp_path / "one")
    assert result.exit_code == 0, result.output
    plain, one = sorted((tmp_path / "plain").iterdir()), sorted((tmp_path / "one").iterdir())
    assert [p.name for p in plain] == [p.name for p in one] and len(plain) == 4   # 2 boards, index, curve
    for a, b in zip(plain, one):
        assert a.read_bytes() == b.read_bytes(), a.name


def test_a_timeout_with_two_jobs_is_reported_and_leaves_no_worker(tmp_path):
    # Five non-trivial 2007 escapes of 45 plies or more on 8x8 (the longest found in 10 minutes
    # has 29): not in 1 s, however fast the machine.
    result = run("generate", "--like", ROOT / "boards" / "mummymaze2p-2007.yaml", "--no-defaults",
                 "--plies", "45..", "--count", "5", "--jobs", "2", "--timeout", "1", "--out", tmp_path)
    assert result.exit_code == 3, result.output
    assert "--timeout 1 s reached" in result.output
    assert "Traceback" not in result.output
    assert multiprocessing.active_children() == []


def test_zero_jobs_is_a_clear_error(tmp_path):
    result = run("generate", *PROSE, "--jobs", "0", "--out", tmp_path)
    assert result.exit_code == 2
    assert "--jobs" in result.output and "Traceback" not in result.output
    assert list(tmp_path.iterdir()) == []


def test_each_worker_has_its_own_seed():
    seeds = {worker_seed(seed, k) for seed in (1, 2) for k in (1, 2, 3)}
    assert len(seeds) == 6
