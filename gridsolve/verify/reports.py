"""Format a :class:`~gridsolve.verify.verify.Report` as text, JSON, JUnit XML or GitHub annotations."""
from __future__ import annotations

import json
import xml.etree.ElementTree as ET

from ..language.wording import counted
from .expect import Range
from .verify import ERROR, FAIL, PASS, TIMED_OUT, UPDATED, CheckResult, Report, show

FORMATS = ("text", "json", "junit", "github")


def format_report(report: Report, fmt: str = "text") -> str:
    """The report in one of :data:`FORMATS`, ending with a newline."""
    return {"text": text_report, "json": json_report, "junit": junit_report, "github": github_report}[fmt](report)


def _seconds(value: float) -> str:
    return f"{value:.2f}s"


def summary(report: Report) -> str:
    checks = report.checks
    boards = len(report.boards)
    parts = [f"{report.count(PASS)} passed"]
    for status, word in ((FAIL, "failed"), (TIMED_OUT, "timed out"), (UPDATED, "updated")):
        if report.count(status):
            parts.append(f"{report.count(status)} {word}")
    if report.count(ERROR):
        parts.insert(2 if report.count(FAIL) else 1, counted(report.count(ERROR), "error"))
    jobs = f", {report.jobs} jobs" if report.jobs > 1 else ""
    return (f"{counted(len(checks), 'check')} on {counted(boards, 'board')}{_part(report)}: "
            f"{', '.join(parts)} ({report.time_s:.1f} s{jobs})")


def _part(report: Report) -> str:
    return "" if report.shard is None else f" (shard {report.shard} of {report.found})"


def problems(report: Report) -> list[str]:
    """``FILE:LINE: check: what is wrong`` for every check that did not pass."""
    out = []
    for check in report.checks:
        if check.status == PASS:
            continue
        prefix = "" if check.key == "schema" else f"{check.name}: "
        out.append(f"{check.location}: {prefix}{check.message}")
    return out


def text_report(report: Report) -> str:
    if not report.boards and report.shard is not None and report.found:
        return f"shard {report.shard} holds none of the {report.found} boards found: nothing to check\n"
    if not report.boards:
        return "no board files found (a board file is a .yaml file with a top-level 'rules:' key)\n"
    header = ("board", "check", "expected", "measured", "time", "status")
    rows = [(board.path, check.name, show(check.expected), "" if check.status == TIMED_OUT else show(check.measured),
             _seconds(check.time_s), check.status)
            for board in report.boards for check in board.checks]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in [header, *rows]]
    found = problems(report)
    if found:
        lines += ["", *found]
    for path in report.updated_files:
        lines.append(f"updated {path}")
    lines += ["", summary(report)]
    return "\n".join(lines) + "\n"


def _json_value(value):
    return value.as_dict() if isinstance(value, Range) else value


def json_report(report: Report) -> str:
    payload = {
        "boards": [{
            "path": board.path,
            "name": board.name,
            "invalid": board.invalid,
            "difficulty": board.difficulty,
            "answer": board.answer,
            "time_s": round(board.time_s, 4),
            "checks": [{
                "check": check.name,
                "key": check.key,
                "file": check.file,
                "line": check.line,
                "expected": _json_value(check.expected),
                "measured": _json_value(check.measured),
                "status": check.status,
                "message": check.message,
                "time_s": round(check.time_s, 4),
            } for check in board.checks],
        } for board in report.boards],
        "summary": {
            "boards": len(report.boards),
            "checks": len(report.checks),
            **{status: report.count(status) for status in (PASS, FAIL, ERROR, TIMED_OUT, UPDATED)},
            "invalid": report.invalid,
            "failed": report.failed,
            "updated_files": report.updated_files,
            "time_s": round(report.time_s, 4),
            "shard": None if report.shard is None else {"index": report.shard.index, "count": report.shard.count,
                                                        "boards_in_all_parts": report.found},
        },
    }
    return json.dumps(payload, indent=1) + "\n"


def _counts(checks: list[CheckResult]) -> dict[str, str]:
    failures = sum(1 for c in checks if c.status in (FAIL, TIMED_OUT))
    errors = sum(1 for c in checks if c.status == ERROR)
    return {"tests": str(len(checks)), "failures": str(failures), "errors": str(errors)}


def junit_report(report: Report) -> str:
    """JUnit XML: a testsuite per board, a testcase per check (classname = the board's path)."""
    suites = ET.Element("testsuites", {"name": "gridsolve verify", **_counts(report.checks),
                                       "time": f"{report.time_s:.3f}"})
    for board in report.boards:
        suite = ET.SubElement(suites, "testsuite", {"name": board.path, **_counts(board.checks), "skipped": "0",
                                                    "time": f"{board.time_s:.3f}"})
        for check in board.checks:
            case = ET.SubElement(suite, "testcase", {"classname": board.path, "name": check.name,
                                                     "file": check.file, "line": str(check.line or 0),
                                                     "time": f"{check.time_s:.3f}"})
            text = f"{check.location}: {check.message}"
            if check.status in (FAIL, TIMED_OUT):
                failure = ET.SubElement(case, "failure", {"message": check.message, "type": check.status})
                failure.text = text
            elif check.status == ERROR:
                error = ET.SubElement(case, "error", {"message": check.message, "type": "error"})
                error.text = text
            elif check.status == UPDATED:
                ET.SubElement(case, "system-out").text = check.message
    ET.indent(suites)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github_report(report: Report) -> str:
    """The text report, then one ``::error file=F,line=L::message`` workflow command per problem."""
    lines = []
    for check in report.checks:
        if check.status in (PASS, UPDATED):
            continue
        where = f"file={_escape_property(check.file)}"
        if check.line:
            where += f",line={check.line}"
        prefix = "" if check.key == "schema" else f"{check.name}: "
        lines.append(f"::error {where}::{_escape_data(prefix + check.message)}")
    return text_report(report) + "".join(line + "\n" for line in lines)
