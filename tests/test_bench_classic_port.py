"""The side-by-side benchmark's own parts (bench/classic_port.py, bench/build_port.sh,
bench/classic_phases.py): how it reads the port's answers and compares printed numbers, the
ratios of its tables, what the build script says where it cannot build, and that every phase
the phase timer names is a function gridsolve has."""
from __future__ import annotations

import importlib
import subprocess

from conftest import ROOT

from bench import classic_phases, classic_port  # noqa: E402  (bench/classic_phases.py, bench/classic_port.py)


def test_printed_numbers_agree_where_the_intervals_of_their_last_digits_overlap():
    assert classic_port.agree("0.0008265", "0.000827")       # both rounded once from 0.00082654...
    assert classic_port.agree("0.5", "0.500000")
    assert not classic_port.agree("0.000826", "0.000828")
    assert not classic_port.agree("0.1237", "0.123")           # [0.12365, 0.12375] against [0.1225, 0.1235]


def test_the_port_s_answers_become_expectations_by_level_name():
    rows = classic_port.port_rows("file,sublevel,bfs_moves\nB-0,0,7\nB-0,1,\n")
    assert {name: row["bfs_moves"] for name, row in rows.items()} == {"B-0-0": "7", "B-0-1": ""}
    assert classic_port.escape_block("7") == "expect:\n  - win: true\n    win_moves: 7\n"
    assert classic_port.escape_block("") == "expect:\n  - win: false\n    win_moves: null\n"


def test_a_table_gives_the_median_ratio_of_the_pairs_in_wall_and_in_cpu():
    lines = classic_port.table("t", {"port": [(1.0, 0.5), (2.0, 1.0), (4.0, 1.0)],
                                     "ours": [(10.0, 2.0), (30.0, 4.0), (8.0, 5.0)]}, "port")
    assert lines[2].endswith("| 1.0 | 1.0 |")
    # wall pairs 10, 15, 2 (median 10); CPU pairs 4, 4, 5 (median 4)
    assert lines[3] == "| ours | 8.000 s | 10.000 s | 2.000 s | 4.000 s | 10.0 | 4.0 |"


def test_the_build_script_says_what_is_missing_and_builds_nothing(tmp_path):
    build = tmp_path / "build"
    done = subprocess.run(["bash", str(ROOT / "bench" / "build_port.sh"), str(tmp_path / "no-checkout"), str(build)],
                          capture_output=True, text=True, env={"PATH": "/usr/bin:/bin"})
    assert done.returncode == 2
    assert "cannot build the port here; missing:" in done.stderr
    assert f"{tmp_path / 'no-checkout'}/crates/mummymaze/Cargo.toml" in done.stderr
    assert not build.exists()
    usage = subprocess.run(["bash", str(ROOT / "bench" / "build_port.sh")], capture_output=True, text=True)
    assert usage.returncode == 2 and "usage:" in usage.stderr


def test_every_phase_the_timer_names_is_a_function_of_gridsolve():
    for module, name, _, _ in [*classic_phases.PHASES, (*classic_phases.KIND, "", 0)]:
        try:
            owner = importlib.import_module(module)
        except ImportError:
            assert module.endswith("kernel"), module      # (only a C kernel may be missing: not built)
            continue
        for part in name.split("."):
            owner = getattr(owner, part)
        assert callable(owner), f"{module}.{name}"
