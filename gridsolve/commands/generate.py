"""``gridsolve generate``: new boards that meet a requirement."""
from __future__ import annotations

from pathlib import Path

import click

from ..generate.genchoices import DEFAULT_TIMEOUT, DIFFICULTIES, METHODS, REQUIREMENTS, SYMMETRIES
from ..language.kinds import QueryKind, RequireKind
from .options import MAX_MEMORY, command, command_limits, reports_errors


@command("generate")
@click.option("--rules", "rules_name", metavar="NAME", help="The rule set of the new boards (a name from rules/).")
@click.option("--like", type=click.Path(dir_okay=False, path_type=Path), metavar="BOARD",
              help="Boards like this one: its rules, its marks (how many cells, on the border or not), its size.")
@click.option("--size", metavar="WxH", help="The board size, e.g. 8x8 (default with --like: the board's).")
@click.option("--walls", metavar="A..B", help="Interior walls, at least A and at most B.")
@click.option("--require", type=click.Choice(REQUIREMENTS), default=None,
              help="win: the role forces its top score; survive: it avoids every end it must avoid; "
                   "lose: the others force such an end.")
@click.option("--role", help="The role the requirement is about (default: the first role).")
@click.option("--plies", metavar="A..B", help="win/lose: the plies of the forced end, from A to B.")
@click.option("--horizon", type=int, metavar="N", help="Look at most N plies ahead (for games too big to "
              "solve to the step limit); the boards' expectations then say horizon: N.")
@click.option("--count", type=int, default=1, show_default=True, help="How many boards to write.")
@click.option("--seed", type=int, default=1, show_default=True, help="The same seed writes the same boards.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("."), show_default=True,
              help="The folder to write the boards to.")
@click.option("--name", metavar="PREFIX", help="File names PREFIX-1.yaml, ... (default: from the rules, "
              "size and seed).")
@click.option("--symmetry", type=click.Choice(SYMMETRIES), help="Walls symmetric: mirrored east-west, "
              "or turned half round.")
@click.option("--allow-sealed", is_flag=True, help="Allow cells that no piece can reach.")
@click.option("--allow-trivial", is_flag=True, help="Keep levels where walking the shortest way already wins.")
@click.option("--method", type=click.Choice(METHODS), default="auto", show_default=True,
              help="asp: one clingo program carries the whole requirement; loop: clingo proposes, the "
                   "solver judges; auto: asp for small games only.")
@click.option("--timeout", type=click.FloatRange(min=0), metavar="SECONDS",
              help=f"Stop after this many seconds (default {DEFAULT_TIMEOUT}; 0: no limit); the boards written "
                   "so far are kept, and the message says which part of the request was rarest.")
@click.option("--force", is_flag=True, help="Replace existing files of the same names.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True,
              help="Search in N worker processes, each with its own seed (which boards are written then "
                   "depends on timing).")
@click.option("--cluster", metavar="ADDRESS", help="Search on the workers of this Dask scheduler (--jobs "
              "searches; by default one per worker thread; needs pip install 'gridsolve[cluster]').")
@click.option("--keep", metavar="NAMES", help="With --like: these pieces and marks (comma-separated) stay where "
              "the board has them, e.g. --keep p1,p2,center.")
@click.option("--svg", "svg", is_flag=True, help="Write a picture beside each board (NAME.svg) with its "
              "principal line.")
@MAX_MEMORY
@reports_errors
@click.option("--value", metavar="A..B", help="--require value: the score the role guarantees, from A to B.")
@click.option("--metric", "metric", type=(str, str), multiple=True, metavar="NAME A..B",
              help="A good level has this difficulty metric in A..B (repeatable), e.g. --metric path_safety ..0.8.")
@click.option("--difficulty", type=click.Choice(DIFFICULTIES), help="A good level is this difficult, as the "
              "careful greedy player finds it (the nearest safe-looking step to the goal), unless the rule set's "
              "generate: labels say otherwise (classic Mummy Maze: by the hints he needs): by default easy if it "
              "wins at least 75% of the time seeing the danger 1 ply ahead (or walking a shortest way wins), "
              "medium if at least 25% seeing 3 plies ahead, else hard (docs/generate.md).")
@click.option("--no-defaults", "no_defaults", is_flag=True, help="Ignore the rule set's good level (its "
              "generate: block): ask a win, with no metric test, unless the options say otherwise.")
def generate_command(rules_name, like, size, walls, require, role, plies, horizon, count, seed, out, name, symmetry,
                     allow_sealed, allow_trivial, method, timeout, force, jobs, cluster, keep, svg, value, metric,
                     difficulty, no_defaults, max_memory):
    """Exit code 0: every board was written; 2: the request is invalid or cannot be met;
    3: --timeout was reached first.
    """
    from ..generate.generate import generate
    from ..generate.report import format_generated, progress_lines
    from ..generate.request import request_from_options
    request = request_from_options(rules=rules_name, like=like, size=size, walls=walls, require=require, role=role,
                                   plies=plies, horizon=horizon, count=count, seed=seed, out=out, name=name,
                                   symmetry=symmetry, allow_sealed=allow_sealed, allow_trivial=allow_trivial,
                                   method=method, timeout=timeout, force=force, keep=keep, value=value,
                                   metrics=metric, difficulty=difficulty, defaults=not no_defaults,
                                   jobs=jobs, cluster=cluster, memory=command_limits(max_memory).memory)
    report = generate(request, progress_lines(lambda line: click.echo(line, err=True)))
    click.echo(format_generated(report), nl=False)
    if svg and report.boards:
        from ..generate.pictures import write_pictures
        asked = report.request
        for picture in write_pictures([b.path for b in report.boards], asked.role,
                                      QueryKind.SURVIVE if asked.require == RequireKind.SURVIVE else QueryKind.VALUE, asked.horizon, force,
                                      command_limits(max_memory)):
            click.echo(f"picture: {picture}")
    if report.error is not None:
        raise report.error


command = generate_command
