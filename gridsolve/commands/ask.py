"""``gridsolve ask``: many questions, one JSON answer a line."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ..errors import QueryError
from ..language.loader import load_board
from .options import MAX_MEMORY, command, command_limits, reports_errors


@command("ask")
@click.argument("board", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.argument("questions", type=click.File("r", encoding="utf-8"), default="-")
@click.option("--levels", "levels", type=click.File("r", encoding="utf-8"), metavar="FILE",
              help='Questions about many boards, instead of BOARD: each line a question with its board, '
                   '"board": the board file\'s text or its keys as an object (FILE "-": standard input).')
@MAX_MEMORY
@reports_errors
def ask_command(board, questions, levels, max_memory):
    from ..ask.questions import ask_levels, ask_many
    if (board is None) == (levels is None):
        raise QueryError("give either BOARD or --levels FILE",
                         "ask about one board file (BOARD), or about the board in each line (--levels FILE)")
    if levels is not None:
        questions = levels
    source = "<stdin>" if questions.name == "<stdin>" else questions.name
    lines = iter(questions.readline, "") if source == "<stdin>" else questions.read().splitlines()
    if levels is not None:
        replies = ask_levels(lines, Path(source), command_limits(max_memory))
    elif board.suffix.lower() in (".kif", ".gdl"):     # (a GDL game: docs/gdl.md)
        from ..ask.gdl import ask_gdl
        replies = ask_gdl(board, lines, command_limits(max_memory))
    else:
        replies = ask_many(load_board(board), lines, command_limits(max_memory))
    worst = 0
    for reply in replies:
        if reply.error is not None:
            click.echo(f"Error: {source}:{reply.line}: {reply.error}", err=True)
            worst = max(worst, reply.error.exit_code)
        click.echo(json.dumps(reply.as_dict()))
    sys.exit(worst)


command = ask_command
