"""What a board file's ``expect:`` block records, as a check of the benchmark's answers.

`reference/retrograde.py` checks the Mummy Maze rows; it does not play the newer mechanisms
(simultaneous moves, teams, collectibles, score tables, bumps, lost turns).  Those rows, and
the others as a second check, are held against the values the board's designer recorded in its
``expect:`` block (docs/verify.md) for the same role, the initial position and the same
horizon: written-down answers, not computed by the code being measured.  An expectation is read
with gridsolve's own reader (``gridsolve.verify.expect``, the file's keys and ranges as
``gridsolve verify`` reads them); only the keys the case's query answers are compared.  Two
measured cases have no expectation in their board (too slow for the tests' ``gridsolve verify``
of every shipped board): their answers are recorded here, in ``BENCH_ONLY``.
"""
from __future__ import annotations

from pathlib import Path

# the key of an expectation -> the field of a `gridsolve solve --json` answer to each query
ANSWERED = {"value": {"value": "value", "plies": "plies", "win": "win"},
            "win": {"win": "holds"},
            "survive": {"survive": "holds"}}

# Answers the board files leave out, as expect items would state them (the plain-Python
# reference of the test suite agreed with them in bench/RESULTS.md of commit 58b9a01):
# (board, role, horizon) -> {key: value}
BENCH_ONLY = {("boards/wallmaze.yaml", "white", None): {"value": 0, "plies": None, "win": False},
              ("boards/pacman3p.yaml", "pacman", 10): {"value": 10, "plies": 10, "win": False}}


def recorded(root: Path, board_path: str, role: str, query: str,
             horizon: int | None) -> list[tuple[str, object, str]]:
    """(key, expected value, answer field) of every key that the expectations about ``role``
    from the initial position with ``horizon`` state (the board's, else BENCH_ONLY) and that
    ``query`` answers."""
    from gridsolve.language.loader import load_board
    from gridsolve.language.position import initial_position
    from gridsolve.verify.expect import load_expectations
    board = load_board(root / board_path)
    start = initial_position(board)
    stated = [(check.key, check.value) for item in load_expectations(board)
              if (item.role, item.position, item.horizon, item.hidden) == (role, start, horizon, False)
              for check in item.checks]
    stated += BENCH_ONLY.get((board_path, role, horizon), {}).items()
    return [(key, value, ANSWERED[query][key]) for key, value in stated if key in ANSWERED[query]]


def differences(answer: dict, checks: list[tuple[str, object, str]]) -> list[str]:
    """Where a gridsolve answer (its --json fields) does not meet the recorded values."""
    from gridsolve.verify.expect import holds
    return [f"{key}: gridsolve {answer[field]!r} vs expected {value}"
            for key, value, field in checks if not holds(value, answer[field])]
