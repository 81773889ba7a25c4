"""`gridsolve verify --shard K/N`: N disjoint parts that together hold every board, the same
on every machine, balanced, and stable when boards are added."""
from __future__ import annotations

import contextlib
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from gridsolve.cli import main
from gridsolve.verify.shard import Shard, parse_shard, select

from conftest import CORRIDOR

NAMES = [f"level{i:02d}.yaml" for i in range(7)] + [f"world{w}/level{i}.yaml" for w in (1, 2) for i in range(3)]


def levels(root, names=NAMES):
    """Small board files (no expect block: verify only loads them) under ``root``."""
    for name in names:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(CORRIDOR.replace("name: Corridor", f"name: {name}"), encoding="utf-8")
    return root


def part(root, shard: str, cwd=None) -> list[str]:
    """The boards `gridsolve verify ROOT --shard SHARD --format json` checks, relative to ROOT."""
    runner = CliRunner()
    with contextlib.chdir(cwd) if cwd is not None else contextlib.nullcontext():
        result = runner.invoke(main, ["verify", str(root), "--shard", shard, "--format", "json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["summary"]["shard"] == {"index": int(shard.split("/")[0]), "count": int(shard.split("/")[1]),
                                          "boards_in_all_parts": len(list(root.rglob("*.yaml")))}
    return sorted(str(Path(b["path"]).resolve().relative_to(root.resolve()))
                  for b in report["boards"])


@pytest.mark.parametrize("count", [1, 2, 3, 5, 13, 20])
def test_the_parts_are_disjoint_balanced_and_hold_every_board(tmp_path, count):
    root = levels(tmp_path / "levels")
    parts = [part(root, f"{k}/{count}") for k in range(1, count + 1)]
    everything = [name for p in parts for name in p]
    assert sorted(everything) == sorted(NAMES)                 # every board once
    sizes = [len(p) for p in parts]
    assert max(sizes) - min(sizes) <= 1


def test_the_parts_are_the_same_in_another_checkout_and_working_folder(tmp_path):
    here = levels(tmp_path / "a" / "levels")
    there = tmp_path / "elsewhere" / "checkout" / "levels"
    shutil.copytree(here, there)
    for k in (1, 2, 3):
        assert part(here, f"{k}/3") == part(there, f"{k}/3", cwd=tmp_path)


def test_adding_a_board_moves_at_most_one_board_across_each_boundary(tmp_path):
    root = levels(tmp_path / "levels")
    before = {k: set(part(root, f"{k}/3")) for k in (1, 2, 3)}
    levels(root, ["world3/new.yaml"])
    after = {k: set(part(root, f"{k}/3")) for k in (1, 2, 3)}
    moved = sum(len(before[k] - after[k]) for k in before)
    assert moved <= 2                                          # N - 1 boundaries


def test_select_keeps_the_order_the_boards_were_found_in(tmp_path):
    root = levels(tmp_path / "levels")
    boards = sorted(root.rglob("*.yaml"))
    chosen = select(boards, [root], Shard(2, 3))
    assert chosen == [b for b in boards if b in chosen] and 0 < len(chosen) < len(boards)
    assert select(boards, [root], None) == boards


def test_a_shard_without_boards_passes_and_says_so(tmp_path):
    root = levels(tmp_path / "levels", NAMES[:1])
    results = [CliRunner().invoke(main, ["verify", str(root), "--shard", f"{k}/2"]) for k in (1, 2)]
    assert sorted(r.exit_code for r in results) == [0, 0]
    outputs = sorted(r.output for r in results)
    assert any("holds none of the 1 boards found: nothing to check" in o for o in outputs)
    assert any("(shard " in o and "of 1): 1 passed" in o for o in outputs)


@pytest.mark.parametrize("value, message", [
    ("0/3", "--shard 0/3: K must be from 1 to N"),
    ("4/3", "--shard 4/3: K must be from 1 to N"),
    ("1/0", "--shard 1/0: K must be from 1 to N"),
    ("2", "--shard 2: expected K/N"),
    ("a/b", "--shard a/b: expected K/N"),
])
def test_bad_shard_values_are_one_error_line_with_exit_code_2(tmp_path, value, message):
    root = levels(tmp_path / "levels", NAMES[:1])
    result = CliRunner().invoke(main, ["verify", str(root), "--shard", value])
    assert result.exit_code == 2
    assert result.output.startswith(f"Error: {message}") and "Traceback" not in result.output


def test_parse_shard():
    assert parse_shard(" 2 / 5 ") == Shard(2, 5) and str(Shard(2, 5)) == "2/5"
    assert parse_shard(None) is None
