"""``gridsolve solve``: one question about a board or a GDL game."""
from __future__ import annotations

import json
from pathlib import Path

import click

from ..errors import QueryError
from ..language.kinds import QueryKind
from ..language.loader import load_board
from ..language.position import make_query
from ..solve.dispatch.dispatcher import solve
from .options import (BOARD, MAX_MEMORY, SVG, command, command_limits, hidden_options, query_options,
                      reports_errors)


@command("solve")
@BOARD
@query_options
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--strategy", "strategy_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the winning (win) or surviving (survive) strategy to this JSON file.")
@click.option("--force", is_flag=True, help="Overwrite the --strategy or --svg file if it exists.")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), metavar="SECONDS",
              help="Stop (exit code 3) when the positions are not explored after this many seconds.")
@SVG
@hidden_options
@click.option("--placement", "advise", is_flag=True,
              help="With --hidden: which placements of the role's own secret marks give it the best robust value.")
@click.option("--seed", type=int, default=0, help="--placement: the seed of the placements drawn at random.")
@click.option("--search", type=click.Choice(("auto", "depth", "breadth")),
              help="A GDL game: depth-first from the state asked, or breadth-first over every state then "
                   "ranked; auto (the default): depth for --query win with --horizon, else breadth (docs/gdl.md).")
@MAX_MEMORY
@reports_errors
def solve_command(board, role, kind, at, turn, step, gates, horizon, as_json, strategy_file, force, timeout, svg,
                  hidden, free, found, advise, seed, search, max_memory):
    if Path(board).suffix.lower() in (".kif", ".gdl"):
        return _solve_gdl(board, role, kind, at, horizon, as_json, timeout, max_memory, search or "auto", svg, force,
                          {"--turn": turn, "--step": step, "--gates": gates, "--strategy": strategy_file,
                           "--hidden": hidden or None, "--free": free or None, "--found": found or None,
                           "--placement": advise or None})
    if search is not None:
        raise QueryError(f"--search {search} is an option of a GDL game (.kif, .gdl)", "leave it out for a board")
    if advise:
        if not hidden:
            raise QueryError("--placement answers the robust question: it needs --hidden")
        from ..play.advice import format_advice, placement_advice
        loaded = load_board(board)
        query = make_query(loaded, role, QueryKind.VALUE, hidden=True)
        advice = placement_advice(loaded, query.role, seed, limits=command_limits(max_memory, seconds=timeout))
        click.echo(json.dumps(advice.as_dict(), indent=1) if as_json else format_advice(advice))
        return
    if strategy_file is not None:
        if kind == QueryKind.VALUE:
            raise QueryError("--strategy needs --query win or --query survive")
        if strategy_file.exists() and not force:
            raise QueryError(f"--strategy {strategy_file}: the file exists", "choose another name, or add --force")
    if svg == "-" and as_json:
        raise QueryError("--svg - and --json both write to standard output", "write the picture to a file")
    if svg is not None:     # (the picture's modules only where one is asked for: a quicker start)
        from ..svg import board_svg, check_target, write_svg
        check_target(svg, force)
    loaded = load_board(board)
    query = make_query(loaded, role, kind, at=at, turn=turn, step=step, gates=gates, horizon=horizon,
                       strategy=strategy_file is not None, hidden=hidden, free=free, found=found)
    answer = solve(loaded, query, command_limits(max_memory, seconds=timeout,
                                                progress=lambda line: click.echo(line, err=True)))
    if strategy_file is not None:
        payload = {"board": str(board), "role": answer.role, "query": answer.query, "holds": answer.holds,
                   "strategy": answer.strategy or []}
        strategy_file.write_text(json.dumps(payload, indent=1) + "\n", encoding="utf-8")
    if svg is not None:
        picture = board_svg(loaded, query.position, answer)
        if svg == "-":
            click.echo(picture, nl=False)
            return
        write_svg(picture, svg, force)
    if as_json:
        click.echo(json.dumps(answer.as_dict() if strategy_file is None else
                              {**answer.as_dict(), "strategy": str(strategy_file)}, indent=1))
    else:
        from ..render import format_answer     # (the text's modules only where it is printed: a quicker start)
        click.echo(format_answer(loaded, answer, query.position))
        if strategy_file is not None:
            click.echo(f"strategy: {len(answer.strategy or [])} positions written to {strategy_file}")


def _solve_gdl(path, role, kind, at, horizon, as_json, timeout, max_memory, search, svg, force, unused):
    """``solve`` of a GDL game (gridsolve/gdl/): the options a board has and a GDL game has not are refused."""
    from ..gdl.solving import solve_gdl
    from ..gdl.text import format_gdl_answer
    given = [name for name, value in unused.items() if value is not None]
    if given:
        raise QueryError(f"{given[0]} is not an option of a GDL game",
                         "ask --role, --query, --at, --horizon, --search, --json, --svg")
    if svg == "-" and as_json:
        raise QueryError("--svg - and --json both write to standard output", "write the picture to a file")
    if svg is not None:
        from ..svg import check_target, write_svg
        check_target(svg, force)
    answer = solve_gdl(path, role, kind.value, " ".join(at) or None, horizon,
                       command_limits(max_memory, seconds=timeout), search)
    if svg is not None:
        from ..gdlpicture import answer_svg
        picture = answer_svg(answer, Path(path).stem)
        if svg == "-":
            click.echo(picture, nl=False)
            return
        write_svg(picture, svg, force)
    click.echo(json.dumps(answer.as_dict(), indent=1) if as_json else format_gdl_answer(answer))


command = solve_command
