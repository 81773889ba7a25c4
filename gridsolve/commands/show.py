"""``gridsolve show``: a board's picture as text or SVG."""
from __future__ import annotations

import click

from ..language.loader import load_board
from ..language.position import make_position
from .options import BOARD, SVG, command, position_options, reports_errors


@command("show")
@BOARD
@position_options
@SVG
@click.option("--force", is_flag=True, help="Overwrite the --svg file if it exists.")
@reports_errors
def show_command(board, at, turn, step, gates, svg, force):
    from ..render import describe_position, draw_position
    if svg is not None:     # (the picture's modules only where one is asked for, as solve does)
        from ..svg import board_svg, check_target, write_svg
        check_target(svg, force)
    loaded = load_board(board)
    position = make_position(loaded, at, turn, step, gates)
    if svg == "-":
        click.echo(board_svg(loaded, position), nl=False)
        return
    click.echo(describe_position(loaded, position))
    click.echo(draw_position(loaded, position))
    if svg is not None:
        write_svg(board_svg(loaded, position), svg, force)


command = show_command
