"""What the commands share: the one error handler, the options of a board's position and question,
the memory limit, and :func:`command`, which gives a command the help line :data:`gridsolve.cli.COMMANDS` lists."""
from __future__ import annotations

import functools
import inspect
import os
import sys
from pathlib import Path

import click

from ..cli import COMMANDS
from ..errors import EXIT_INTERNAL, EXIT_LIMIT, GridsolveError
from ..language.kinds import QueryKind
from ..language.position import GATE_STATES, QUERY_KINDS
from ..solve.common.limits import ENV, Limits, memory_limit, parse_memory


def command(name: str):
    """``click.command`` NAME, its help the first paragraph :data:`~gridsolve.cli.COMMANDS` lists
    for it, then the function's docstring (where it has one)."""
    def decorate(function):
        details = inspect.cleandoc(function.__doc__ or "")
        return click.command(name=name, help=COMMANDS[name] + (f"\n\n{details}" if details else ""))(function)
    return decorate


def reports_errors(command):
    """Turn gridsolve's exceptions into a one-line message and a documented exit code: a machine
    out of memory where no limit caught it is a limit (3), any other exception a bug (4)."""
    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except GridsolveError as exc:
            click.echo(f"Error: {exc}", err=True)
            sys.exit(exc.exit_code)
        except MemoryError as exc:
            click.echo(f"Error: the machine ran out of memory ({str(exc) or type(exc).__name__}). Ask about a smaller board "
                       f"or fewer plies, or set the memory limit (--max-memory, {ENV}) below the machine's free "
                       "memory.", err=True)
            sys.exit(EXIT_LIMIT)
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except Exception as exc:        # a bug: where it happened, then what to do
            import traceback
            traceback.print_exc()
            click.echo(f"Error: internal error ({type(exc).__name__}: {exc}). This is a bug in gridsolve: "
                       "please report it with the command and its files.", err=True)
            sys.exit(EXIT_INTERNAL)
    return wrapper


BOARD = click.argument("board", type=click.Path(dir_okay=False, path_type=Path))


def _max_memory(ctx, param, value):
    """--max-memory: the limit of this process and its workers, in bytes."""
    if value is None:
        return None
    try:
        return parse_memory(value, "")
    except GridsolveError as exc:
        raise click.BadParameter(str(exc)) from None


MAX_MEMORY = click.option("--max-memory", metavar="SIZE", callback=_max_memory,
                          help="Stop (exit code 3) before the solver needs more memory than this, "
                          "e.g. 1500MB or 4GB (default: $GRIDSOLVE_MAX_MEMORY, else 2GB).")


def command_limits(max_memory: int | None = None, **fields) -> Limits:
    """The one Limits value of a command, passed to every solver path it asks: ``--max-memory``,
    else ``$GRIDSOLVE_MAX_MEMORY`` (read here, and nowhere else), else 2 GB."""
    return Limits(memory=memory_limit(max_memory, os.environ.get(ENV)), **fields)


def position_options(command):
    """--at, --turn, --step and --gates: a position other than the board's initial one."""
    command = click.option("--gates", type=click.Choice(GATE_STATES), help="The gates open or closed (boards "
                           "with a gate; default: closed, as the board starts).")(command)
    command = click.option("--step", type=int, help="The step number of the original game.")(command)
    command = click.option("--turn", metavar="ROLE", help="The role to move.")(command)
    command = click.option("--at", "at", multiple=True, metavar="PIECE=X,Y",
                           help="Put a piece on a cell (repeatable).")(command)
    return command


def query_options(command):
    command = click.option("--horizon", type=int, metavar="N",
                           help="Look at most N plies ahead (on top of the game's own step limit).")(command)
    command = click.option("--query", "kind", type=click.Choice(QUERY_KINDS), default=QueryKind.VALUE.value,
                           callback=lambda _context, _option, text: QueryKind(text),
                           show_default=True, help="value: the guaranteed score; win: force the best score; "
                           "survive: avoid every losing end.")(command)
    command = click.option("--role", help="The role the question is about (default: the first role).")(command)
    return position_options(command)


def hidden_options(command):
    """--hidden and the role's knowledge (--free, --found): the robust question."""
    command = click.option("--found", multiple=True, metavar="[MARK=]X,Y",
                           help="With --hidden: an obstacle the role found by bumping (repeatable).")(command)
    command = click.option("--free", multiple=True, metavar="X,Y",
                           help="With --hidden: a cell the role knows free, it stood there (repeatable).")(command)
    command = click.option("--hidden", is_flag=True, help="The robust answer: the role knows only its own "
                           "marks and what it has seen; the others place the hidden ones.")(command)
    return command


SVG = click.option("--svg", "svg", metavar="FILE", help="Also draw an SVG picture to FILE ('-': standard output, "
                   "instead of the text).")

