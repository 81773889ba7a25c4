"""``gridsolve studio``: the levels of a folder edited in a local web page."""
from __future__ import annotations

from pathlib import Path

import click

from .options import command, command_limits, reports_errors


@command("studio")
@click.argument("target", required=False, default=".", type=click.Path(path_type=Path))
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True,
              help="The port to listen on (0: any free port).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on; anything but 127.0.0.1 lets other machines knock (they still "
                   "need the token).")
@click.option("--no-browser", is_flag=True, help="Print the address only; do not open a browser.")
@reports_errors
def studio_command(target, port, host, no_browser):
    """Prints the address to open, with this run's token: http://127.0.0.1:PORT/?token=...
    """
    from ..studio.server import serve
    serve(target, host, port, not no_browser, click.echo, command_limits())


command = studio_command
