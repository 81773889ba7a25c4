"""``gridsolve play``: a game in the terminal against the solver."""
from __future__ import annotations

import sys

import click

from ..language.loader import load_board
from ..language.position import make_position
from .options import BOARD, MAX_MEMORY, command, command_limits, position_options, reports_errors


@command("play")
@BOARD
@click.option("--as", "humans", multiple=True, metavar="ROLE",
              help="A role you play (repeatable); the solver plays the others. Default: the first role. "
                   "Name every role for a game between humans.")
@click.option("--horizon", type=click.IntRange(min=1), metavar="N",
              help="The solver looks at most N plies ahead (default: to the step limit, or fewer "
                   "where that does not fit in 20 s).")
@click.option("--seed", type=int, default=1, show_default=True,
              help="Seeds the computer's secret placements and the placements it samples.")
@position_options
@MAX_MEMORY
@reports_errors
def play_command(board, humans, horizon, seed, at, turn, step, gates, max_memory):
    loaded = load_board(board)
    start = make_position(loaded, at, turn, step, gates)
    lines = iter(sys.stdin)
    from ..play.game import play
    play(loaded, set(humans) or {loaded.rules.roles[0]}, lines, click.echo, start, horizon, seed,
         click.clear if sys.stdout.isatty() else None, command_limits(max_memory))


command = play_command
