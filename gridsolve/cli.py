"""The ``gridsolve`` command line: each command parses its options and calls one library function.

Each command lives in its own module of :mod:`gridsolve.commands`, imported only when that command
runs (a classic level's ``solve`` starts without the generator's, the verifier's or the studio's
modules, and without click building every other command's options); ``gridsolve --help`` lists
every command from :data:`COMMANDS` alone.  Errors from the library
(:class:`~gridsolve.errors.GridsolveError`) are printed as ``Error: ...`` on standard error with
the exit code documented in ``gridsolve.errors`` (:func:`gridsolve.commands.options.reports_errors`).
"""
from __future__ import annotations

import atexit
import functools
import gc
import importlib
import os

# The race solver's arrays need no threads of numpy's linear algebra library: starting them costs
# a command about a tenth of its CPU time on a small board (set before numpy is first imported).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import click  # noqa: E402

from . import __version__  # noqa: E402

# name: the first paragraph of its help, the line `gridsolve --help` lists (its module: gridsolve/commands/NAME.py)
COMMANDS = {
    "ask": "Answer many questions about BOARD from one grounding: one JSON object a line in QUESTIONS "
           "(default: standard input) with solve's options, one JSON answer a line out.",
    "compile": "Print the complete clingo program for a query on BOARD (run it with `python -m clingo`).",
    "crosscheck": "Compare every reachable position of BOARD with the GDL game's state, moves, ends and goals "
                  "(exit code 0: the same game; 1: they differ, the first difference printed).",
    "explain": "Why BOARD's position has its answer: the principal line, the refutation of each of the role's "
               "moves, and the critical walls (each single wall whose removal or addition changes it).",
    "generate": "Write new boards that meet a requirement, each with an expect block of its measured values.",
    "play": "Play BOARD in the terminal against the solver's optimal strategy (moves from standard input).",
    "schema": "Print the JSON Schema of board files (for editors and other validators).",
    "show": "Draw BOARD (walls, pieces, marks) for the initial or a given position.",
    "solve": "Solve a query on BOARD with clingo: value, forced win, or survival, with every move's value "
             "(BOARD a .kif or .gdl game description: docs/gdl.md).",
    "studio": "Edit, ask, play and save the levels of a folder (or one board file) in a local web page.",
    "verify": "Check the board files in PATHS (files or folders; default: boards/) and their expect blocks.",
}


NoSuchCommand = getattr(click.exceptions, "NoSuchCommand", None)    # (click 8.4+: its message names the closest)


@functools.cache
def freeze_at_exit() -> None:
    """At the process's end (after the exit handlers registered later, before those registered
    earlier), move every object to the collector's permanent generation: the interpreter's last
    collections then skip what a command built (after a classic solve, about a fifth of the
    process's CPU time); the memory goes back with the process.  Registered once a process."""
    atexit.register(gc.freeze)


class LazyGroup(click.Group):
    """A group of the commands of :data:`COMMANDS`, each imported from ``gridsolve.commands.NAME``
    (its attribute ``command``) the first time it is asked for; the listing of ``--help`` reads
    the table, not the modules."""

    def main(self, *args, **kwargs):
        freeze_at_exit()
        return super().main(*args, **kwargs)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        return importlib.import_module(f"{__package__}.commands.{cmd_name}").command

    def resolve_command(self, ctx: click.Context, args: list[str]):
        try:
            return super().resolve_command(ctx, args)
        except click.UsageError as exc:     # (click looks for the closest among the commands it holds: none here)
            if NoSuchCommand is None or not isinstance(exc, NoSuchCommand):
                raise
            raise NoSuchCommand(exc.command_name, possibilities=COMMANDS, ctx=ctx) from None

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        limit = formatter.width - 6 - max(len(name) for name in COMMANDS)
        rows = [(name, click.Command(name, help=COMMANDS[name]).get_short_help_str(limit)) for name in sorted(COMMANDS)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup)
@click.version_option(__version__, prog_name="gridsolve")
def main():
    """Exact answers for turn-based grid games: boards in YAML, solved by clingo."""
