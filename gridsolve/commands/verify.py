"""``gridsolve verify``: the boards' expect blocks checked, and their reports."""
from __future__ import annotations

import sys
from pathlib import Path

import click

from ..errors import EXIT_FAILED, EXIT_INVALID
from .options import MAX_MEMORY, command, command_limits, reports_errors

REPORT_FORMATS = ("text", "json", "junit", "github")   # gridsolve.verify.reports.FORMATS, checked by a test


@command("verify")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--format", "fmt", type=click.Choice(REPORT_FORMATS), default="text", show_default=True,
              help="text: a table; json; junit: JUnit XML; github: the table and ::error annotations.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True,
              help="Check this many boards at once (worker processes).")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), metavar="SECONDS",
              help="Give up on a board after this many seconds (status timeout, counts as a failure).")
@click.option("--update", is_flag=True, help="Write the measured values into the expect blocks.")
@click.option("--shard", metavar="K/N", help="Check only the K-th of N disjoint, stable parts of the boards "
              "(a CI matrix of N jobs checks every board once).")
@click.option("--explain", "explain_failures", is_flag=True,
              help="Name the single wall changes that would restore each failing expectation (slower).")
@click.option("--cluster", metavar="ADDRESS", help="Check the boards on the workers of this Dask scheduler "
              "(e.g. tcp://10.0.0.5:8786; needs pip install 'gridsolve[cluster]').")
@click.option("--report", "report_dir", type=click.Path(path_type=Path), metavar="DIR",
              help="Also write a static report page: DIR/index.html, a page per level and their pictures "
              "(DIR must be new, empty or an earlier report's).")
@click.option("--compare", type=click.Path(dir_okay=False, path_type=Path), metavar="OLD.json",
              help="With --report: what changed per level since this earlier --format json output, first on the page.")
@MAX_MEMORY
@reports_errors
def verify_command(paths, fmt, jobs, timeout, update, shard, explain_failures, cluster, report_dir, compare,
                   max_memory):
    """Exit code 0: every expectation holds; 1: one does not (or timed out); 2: a file is invalid.
    """
    from ..verify.page import ReportFolder
    from ..verify.reports import format_report   # imported here: the other commands start faster without them
    from ..verify.shard import parse_shard
    from ..verify.verify import verify_paths
    if compare is not None and report_dir is None:
        raise click.UsageError("--compare OLD.json needs --report DIR: the changes are shown on the report page")
    page = ReportFolder.prepare(report_dir, compare) if report_dir is not None else None
    report = verify_paths(paths or (Path("boards"),), jobs=jobs, timeout=timeout, update=update,
                          shard=parse_shard(shard), explain=explain_failures, cluster=cluster,
                          limits=command_limits(max_memory), views=page is not None,
                          answers=fmt == "json")
    if page is not None:
        page.write(report)
    click.echo(format_report(report, fmt), nl=False)
    for check in report.checks:
        if check.key == "schema" and check.status == "error":
            click.echo(f"Error: {check.location}: {check.message}", err=True)
    if report.invalid:
        sys.exit(EXIT_INVALID)
    if report.failed:
        sys.exit(EXIT_FAILED)


command = verify_command
