"""``gridsolve explain``: why a position has its answer."""
from __future__ import annotations

import json

import click

from ..language.loader import load_board
from ..language.position import make_query
from .options import BOARD, command, command_limits, query_options, reports_errors


@command("explain")
@BOARD
@query_options
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--no-walls", is_flag=True, help="Leave out the critical walls (the slow part).")
@click.option("--method", type=click.Choice(("auto", "graph", "solve")), default="auto", show_default=True,
              help="Critical walls: graph: one shared game graph, each wall's moves patched in; solve: one "
                   "solve per wall; auto: graph where it applies.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True,
              help="Critical walls: try the walls in this many worker processes.")
@reports_errors
def explain_command(board, role, kind, at, turn, step, gates, horizon, as_json, no_walls, method, jobs):
    from ..render import format_explanation
    from ..explain.explanation import explain
    loaded = load_board(board)
    query = make_query(loaded, role, kind, at=at, turn=turn, step=step, gates=gates, horizon=horizon)
    explanation = explain(loaded, query, walls=not no_walls, method=method, jobs=jobs, limits=command_limits())
    if as_json:
        click.echo(json.dumps(explanation.as_dict(), indent=1))
    else:
        click.echo(format_explanation(loaded, explanation, query.position))


command = explain_command
