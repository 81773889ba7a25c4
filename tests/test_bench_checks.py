"""The benchmark checks its answers by its own means: it imports none of the test suite's
references (its oracles, tests/*reference*.py, nor anything as ``tests.``), and bench/expected.py reads the answers a board's ``expect:`` block records for a case and
finds where an answer does not meet them."""
from __future__ import annotations

import ast
import sys

from conftest import ROOT

sys.path.insert(0, str(ROOT / "bench"))
import expected  # noqa: E402  (bench/expected.py)

# (bench/classic.py borrows the tests' random classic boards, tests/classic_boards.py: a board
# maker, not an oracle)
REFERENCES = {path.stem for path in (ROOT / "tests").glob("*reference*.py")} | {"tests"}


def test_no_benchmark_imports_a_reference_of_the_test_suite():
    imported = {}
    for path in sorted((ROOT / "bench").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else []
            found = [name for name in names if name.split(".")[0] in REFERENCES]
            if found:
                imported[path.name] = found
    assert imported == {}


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
