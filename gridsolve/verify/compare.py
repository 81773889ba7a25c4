"""What changed per level since an earlier run (``verify --compare OLD.json``, an earlier
``verify --format json``): a forced win lost or found, plies or a metric moved, the
difficulty label changed, a check that now fails or passes, a level new, gone or invalid.

Levels are matched by their path as each run names it (run both from the same folder)."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ..errors import QueryError
from .expect import METRIC_KEYS
from .verify import PASS, Report, show

LOST_WIN, WON = "lost its win", "found a win"     # the kinds read first


@dataclass(frozen=True)
class Change:
    """One change of one level: its ``kind`` (e.g. "lost its win", "plies", "label") and what it says."""

    kind: str
    text: str

    @property
    def worse(self) -> bool:
        return self.kind in (LOST_WIN, "now fails", "now invalid", "gone")


@dataclass(frozen=True)
class Earlier:
    """An earlier run's JSON report: its file and, per level path, that level's entry."""

    path: str
    boards: dict


def load_earlier(path: Path) -> Earlier:
    """Read ``verify --format json`` output; a file that is not one is a QueryError saying so."""
    how = "give a file written by gridsolve verify --format json"
    try:
        payload = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise QueryError(f"--compare {path}: no such file", how) from None
    except OSError as exc:
        raise QueryError(f"--compare {path}: cannot read it: {exc.strerror or exc}", how) from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        where = f" (line {exc.lineno})" if isinstance(exc, json.JSONDecodeError) else ""
        raise QueryError(f"--compare {path}: not JSON{where}", how) from None
    boards = payload.get("boards") if isinstance(payload, dict) else None
    if not isinstance(boards, list) or not all(isinstance(b, dict) and isinstance(b.get("path"), str)
                                               and isinstance(b.get("checks"), list) for b in boards):
        raise QueryError(f"--compare {path}: not a verify report (no list of boards with their checks)", how)
    return Earlier(str(path), {board["path"]: board for board in boards})


def level_changes(report: Report, earlier: Earlier) -> dict[str, list[Change]]:
    """{level path: its changes, the worst first} for every level of either run that changed."""
    out: dict[str, list[Change]] = {}
    for board in report.boards:
        old = earlier.boards.get(board.path)
        if old is None:
            out[board.path] = [Change("new", "new since the earlier run")]
            continue
        changes = []
        if board.invalid and not old.get("invalid"):
            changes.append(Change("now invalid", "now invalid: " + next(
                (c.message for c in board.checks if c.key == "schema"), "")))
        before = {c.get("check"): c for c in old["checks"] if isinstance(c, dict)}
        pairs = [(check, before[check.name]) for check in board.checks
                 if check.name in before and check.key != "schema"]
        changes += [change for check, was in pairs for change in _measured_changes(check, was)]
        changes += _status_changes(board.path, pairs)
        changes += _answer_changes(old.get("answer"), board.answer, {c.kind for c in changes})
        if old.get("difficulty") != board.difficulty and (old.get("difficulty") or board.difficulty):
            changes.append(Change("label", f"label {old.get('difficulty') or 'none'} -> "
                                           f"{board.difficulty or 'none (not measured)'}"))
        if changes:
            out[board.path] = sorted(changes, key=lambda c: (c.kind != LOST_WIN, not c.worse))
    for path in earlier.boards:
        if path not in {board.path for board in report.boards}:
            out[path] = [Change("gone", "not in this run (removed, renamed or not given)")]
    return out


def _measured_changes(check, was: dict) -> list[Change]:
    changes = []
    old = was.get("measured")
    if check.key == "win" and old is True and check.measured is False:
        changes.append(Change(LOST_WIN, f"lost its forced win ({check.name}: true -> false)"))
    elif check.key == "win" and old is False and check.measured is True:
        changes.append(Change(WON, f"found a forced win ({check.name}: false -> true)"))
    elif old != check.measured and check.measured is not None:
        kind = "metric" if check.key in METRIC_KEYS else check.key
        changes.append(Change(kind, f"{check.name}: {show(old)} -> {show(check.measured)}"))
    return changes


def _answer_changes(old, new, reported: set) -> list[Change]:
    """What changed in the initial position's answer (where both runs wrote it for the same role):
    a forced win lost or found, the plies, the value; a kind the checks reported already is not
    said twice."""
    if not (isinstance(old, dict) and isinstance(new, dict)) or old.get("role") != new["role"]:
        return []
    role, changes = new["role"], []
    if old.get("win") is True and new["win"] is False and not reported & {LOST_WIN, WON}:
        changes.append(Change(LOST_WIN, f"lost its forced win ({role} from the initial position: win -> no win)"))
    elif old.get("win") is False and new["win"] is True and not reported & {LOST_WIN, WON}:
        changes.append(Change(WON, f"found a forced win ({role} from the initial position: no win -> win)"))
    for key in ("plies", "value"):
        if old.get(key) != new[key] and key not in reported:
            changes.append(Change(key, f"{role} {key} from the initial position: {show(old.get(key))} -> "
                                       f"{show(new[key])}"))
    return changes


SHOWN = 3     # a change names this many checks, then counts the rest


def _status_changes(path: str, pairs: list) -> list[Change]:
    """One change for the checks that passed and now fail, one for those that now pass."""
    out = []
    for kind, now in (("now fails", lambda c, was: was.get("status") == PASS and c.status != PASS),
                      ("now passes", lambda c, was: was.get("status") != PASS and c.status == PASS)):
        checks = [check for check, was in pairs if now(check, was)]
        if checks:
            named = ", ".join(f"{c.name} (line {c.line})" if c.file == path and c.line else f"{c.name} ({c.location})"
                              for c in checks[:SHOWN])
            more = f" and {len(checks) - SHOWN} more" if len(checks) > SHOWN else ""
            out.append(Change(kind, f"{kind}: {named}{more}"))
    return out
