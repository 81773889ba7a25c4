"""``gridsolve crosscheck``: a board against the GDL game it models."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ..errors import EXIT_FAILED
from .options import BOARD, MAX_MEMORY, command, command_limits, reports_errors


@command("crosscheck")
@BOARD
@click.option("--against", "game", required=True, type=click.Path(dir_okay=False, path_type=Path), metavar="GAME.kif",
              help="The GDL game the board models (the mapping is the board's crosscheck: key).")
@click.option("--states", type=click.IntRange(min=1), metavar="N",
              help="Compare the first N positions breadth-first (default: every reachable one).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), metavar="SECONDS",
              help="Stop with exit code 3 after this many seconds.")
@MAX_MEMORY
@reports_errors
def crosscheck_command(board, game, states, as_json, timeout, max_memory):
    from ..crosscheck.compare import crosscheck
    from ..crosscheck.text import format_crosscheck
    result = crosscheck(board, game, states, command_limits(max_memory, seconds=timeout))
    click.echo(json.dumps(result.as_dict(), indent=1) if as_json else format_crosscheck(result))
    if not result.agree:
        sys.exit(EXIT_FAILED)


command = crosscheck_command
