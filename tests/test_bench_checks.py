"""The benchmark checks its answers by its own means: it imports nothing from the test suite
(the independent references it shares with the tests are the reference/ package), and
bench/expected.py reads the answers a board's ``expect:`` block records for a case and finds where
an answer does not meet them.  And bench/ is one package: every benchmark a registered case that
the runner lists and runs, its results in one format (bench/results.py)."""
from __future__ import annotations

import ast
import subprocess
import sys

from conftest import ROOT
from bench import expected  # noqa: E402  (bench/expected.py)
from bench.cases import Case, case_of, cases
from bench.results import Context, Table, render

# (bench/classic.py and classic_labels.py borrow the tests' random classic boards,
# tests/classic_boards.py: a board maker, not an oracle)
TEST_MODULES = {path.stem for path in (ROOT / "tests").glob("*.py")} - {"classic_boards"} | {"tests", "conftest"}


def bench_modules():
    return sorted((ROOT / "bench").glob("*.py"))


def test_no_benchmark_imports_the_test_suite():
    imported = {}
    for path in bench_modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else []
            found = [name for name in names if name.split(".")[0] in TEST_MODULES]
            if found:
                imported[path.name] = found
    assert imported == {}
    assert not (ROOT / "bench" / "baseline.py").exists()       # (the baseline is reference/retrograde.py)


def test_every_benchmark_with_a_main_is_a_registered_case_whose_results_file_exists():
    found = cases()
    scripts = {path.stem for path in bench_modules() if 'if __name__ == "__main__":' in path.read_text()} - {"__main__"}
    assert set(found) == scripts
    assert {"run", "engine", "crosscheck", "oldnew", "house"} <= set(found)
    for name, case in found.items():
        assert isinstance(case, Case) and case.measures, name
        assert case.results is None or (ROOT / case.results).is_file(), (name, case.results)
    assert case_of("launch") is None and case_of("no-such-bench") is None and case_of("__main__") is None


def test_the_runner_lists_the_cases_and_refuses_an_unknown_one():
    listed = subprocess.run([sys.executable, "-m", "bench", "--list"], capture_output=True, text=True, cwd=ROOT)
    assert listed.returncode == 0, listed.stderr
    assert "crosscheck " in listed.stdout and "-> bench/RESULTS-crosscheck.md" in listed.stdout
    unknown = subprocess.run([sys.executable, "-m", "bench", "nothing"], capture_output=True, text=True, cwd=ROOT)
    assert unknown.returncode == 2 and "no benchmark 'nothing'" in unknown.stderr
    helped = subprocess.run([sys.executable, "-m", "bench", "races", "--help"], capture_output=True, text=True,
                            cwd=ROOT)
    assert helped.returncode == 0 and "--before" in helped.stdout and "python -m bench races" in helped.stdout


def test_the_renderer_writes_the_context_and_the_tables():
    ran = Context("abc1234", (1.5, 2.0, 2.25), "2026-12-02 19:00", "python -m bench crosscheck --states 5",
                  "Linux", 2)
    table = Table(["board", "positions:"], heading="Rows")
    assert table.add(["`a|b`", "1,000"]) == "| `a/b` | 1,000 |"
    text = render("Title", ran, [table], "One run.")
    assert text.splitlines()[:3] == ["# Title", "", "Written by `python -m bench crosscheck --states 5` at git "
                                     "abc1234, 2026-12-02 19:00 UTC, on 2 cores (load average at the start "
                                     "1.50, 2.00, 2.25); Linux. One run."]
    assert "## Rows\n\n| board | positions |\n|---|---:|\n| `a/b` | 1,000 |\n" in text


def test_the_recorded_answers_of_a_case_are_its_boards_expectations_for_its_query():
    board = "boards/mummymaze2p-2007.yaml"
    assert expected.recorded(ROOT, board, "explorer", "value", None) == [
        ("value", 0, "value"), ("plies", 20, "plies"), ("win", False, "win")]
    assert expected.recorded(ROOT, board, "mummy", "win", None) == [("win", True, "holds")]
    assert expected.recorded(ROOT, board, "mummy", "survive", None) == []       # nothing recorded
    assert expected.recorded(ROOT, board, "explorer", "value", 7) == []          # another horizon
    assert expected.recorded(ROOT, "boards/pacman3p.yaml", "pacman", "value", 10) == [
        ("value", 10, "value"), ("plies", 10, "plies"), ("win", False, "win")]   # BENCH_ONLY


def test_an_answer_that_misses_a_recorded_value_or_range_is_a_difference():
    checks = [("value", 0, "value"), ("win", False, "win"), ("plies", expected_range(16, 24), "plies")]
    assert expected.differences({"value": 0, "win": False, "plies": 20}, checks) == []
    assert expected.differences({"value": 50, "win": False, "plies": 25}, checks) == [
        "value: gridsolve 50 vs expected 0", "plies: gridsolve 25 vs expected 16..24"]


def expected_range(low, high):
    from gridsolve.verify.expect import Range
    return Range(low, high)
