"""``gridsolve schema``: the JSON Schema of board files."""
from __future__ import annotations

import json

import click

from .options import command


@command("schema")
def schema_command():
    from ..language.schema import board_json_schema
    click.echo(json.dumps(board_json_schema(), indent=2))


command = schema_command
