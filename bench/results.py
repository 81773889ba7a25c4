"""The one result format of the benchmarks and its renderer: a run's context (commit, load average,
date, command, machine) taken when it starts, its rows as tables, and the Markdown of a
RESULTS-*.md file written from them."""
from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from .launch import ROOT, git_rev, machine_info


@dataclass(frozen=True)
class Context:
    """Where and when a run was made: the facts every RESULTS file states."""

    commit: str
    load: tuple             # the load average (1, 5 and 15 minutes) at the start
    date: str               # UTC, to the minute
    command: str            # the command line that made the run
    machine: str
    cores: int

    def line(self) -> str:
        """The context as one line of Markdown."""
        load = ", ".join(f"{x:.2f}" for x in self.load)
        return (f"Written by `{self.command}` at git {self.commit}, {self.date} UTC, on {self.cores} cores "
                f"(load average at the start {load}); {self.machine}.")


def context(name: str, argv: list[str] | None = None) -> Context:
    """The context of a run of the case ``name`` with the options ``argv`` (default: this process's)."""
    options = sys.argv[1:] if argv is None else argv
    return Context(git_rev(ROOT), os.getloadavg(), time.strftime("%Y-%m-%d %H:%M", time.gmtime()),
                   " ".join(["python -m bench", name, *options]), machine_info().split("; load average")[0],
                   os.cpu_count() or 1)


@dataclass
class Table:
    """Rows under their columns; a column whose name ends with ``:`` is right-aligned (the name
    without it is shown)."""

    columns: list
    rows: list = field(default_factory=list)
    heading: str | None = None
    notes: list = field(default_factory=list)

    def add(self, row) -> str:
        """Add ``row`` and return it rendered (a run prints its rows as they come)."""
        self.rows.append(list(row))
        return _row(self.rows[-1])


def _row(cells) -> str:
    return "| " + " | ".join(str(cell).replace("|", "/") for cell in cells) + " |"


def render(title: str, ran: Context, tables: list, intro: str = "") -> str:
    """The Markdown of a results file: the title, the context, an introduction, the tables."""
    out = [f"# {title}", "", ran.line() + (" " + intro if intro else ""), ""]
    for table in tables:
        if table.heading:
            out += [f"## {table.heading}", ""]
        names = [c[:-1] if c.endswith(":") else c for c in table.columns]
        out += [_row(names), "|" + "|".join("---:" if c.endswith(":") else "---" for c in table.columns) + "|"]
        out += [_row(row) for row in table.rows]
        out += [""] + [note for note in table.notes for note in (note, "")]
    return "\n".join(out).rstrip("\n") + "\n"


def write(path: Path | None, title: str, ran: Context, tables: list, intro: str = "") -> str:
    """Render, write to ``path`` (None: standard output) and return the text."""
    text = render(title, ran, tables, intro)
    if path is None:
        print(text, end="")
    else:
        Path(path).write_text(text, encoding="utf-8")
    return text
