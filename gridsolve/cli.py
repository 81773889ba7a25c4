"""The ``gridsolve`` command line: each command parses its options and calls one library function.

Errors from the library (:class:`~gridsolve.errors.GridsolveError`) are printed as
``Error: ...`` on standard error with the exit code documented in ``gridsolve.errors``.
"""
from __future__ import annotations

import functools
import json
import os
import sys
from pathlib import Path

# The race solver's arrays need no threads of numpy's linear algebra library: starting them costs
# a command about a tenth of its CPU time on a small board (set before numpy is first imported).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import click  # noqa: E402

from . import __version__  # noqa: E402
from .errors import EXIT_FAILED, EXIT_INTERNAL, EXIT_INVALID, EXIT_LIMIT, GridsolveError, QueryError  # noqa: E402
from .language.loader import load_board  # noqa: E402
from .language.position import GATE_STATES, QUERY_KINDS, make_position, make_query  # noqa: E402
from .solve.common.limits import ENV, Limits, memory_limit, parse_memory  # noqa: E402
from .solve.dispatch.dispatcher import solve  # noqa: E402
from .generate.genchoices import DEFAULT_TIMEOUT, DIFFICULTIES, METHODS, REQUIREMENTS, SYMMETRIES  # noqa: E402
from .language.kinds import QueryKind, RequireKind  # noqa: E402

REPORT_FORMATS = ("text", "json", "junit", "github")   # gridsolve.verify.reports.FORMATS, checked by a test


def reports_errors(command):
    """Turn gridsolve's exceptions into a one-line message and a documented exit code: a machine
    out of memory where no limit caught it is a limit (3), any other exception a bug (4)."""
    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except GridsolveError as exc:
            click.echo(f"Error: {exc}", err=True)
            sys.exit(exc.exit_code)
        except MemoryError as exc:
            click.echo(f"Error: the machine ran out of memory ({str(exc) or type(exc).__name__}). Ask about a smaller board "
                       f"or fewer plies, or set the memory limit (--max-memory, {ENV}) below the machine's free "
                       "memory.", err=True)
            sys.exit(EXIT_LIMIT)
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except Exception as exc:        # a bug: where it happened, then what to do
            import traceback
            traceback.print_exc()
            click.echo(f"Error: internal error ({type(exc).__name__}: {exc}). This is a bug in gridsolve: "
                       "please report it with the command and its files.", err=True)
            sys.exit(EXIT_INTERNAL)
    return wrapper


BOARD = click.argument("board", type=click.Path(dir_okay=False, path_type=Path))


def _max_memory(ctx, param, value):
    """--max-memory: the limit of this process and its workers, in bytes."""
    if value is None:
        return None
    try:
        return parse_memory(value, "")
    except GridsolveError as exc:
        raise click.BadParameter(str(exc)) from None


MAX_MEMORY = click.option("--max-memory", metavar="SIZE", callback=_max_memory,
                          help="Stop (exit code 3) before the solver needs more memory than this, "
                          "e.g. 1500MB or 4GB (default: $GRIDSOLVE_MAX_MEMORY, else 2GB).")


def command_limits(max_memory: int | None = None, **fields) -> Limits:
    """The one Limits value of a command, passed to every solver path it asks: ``--max-memory``,
    else ``$GRIDSOLVE_MAX_MEMORY`` (read here, and nowhere else), else 2 GB."""
    return Limits(memory=memory_limit(max_memory, os.environ.get(ENV)), **fields)


def position_options(command):
    """--at, --turn, --step and --gates: a position other than the board's initial one."""
    command = click.option("--gates", type=click.Choice(GATE_STATES), help="The gates open or closed (boards "
                           "with a gate; default: closed, as the board starts).")(command)
    command = click.option("--step", type=int, help="The step number of the original game.")(command)
    command = click.option("--turn", metavar="ROLE", help="The role to move.")(command)
    command = click.option("--at", "at", multiple=True, metavar="PIECE=X,Y",
                           help="Put a piece on a cell (repeatable).")(command)
    return command


def query_options(command):
    command = click.option("--horizon", type=int, metavar="N",
                           help="Look at most N plies ahead (on top of the game's own step limit).")(command)
    command = click.option("--query", "kind", type=click.Choice(QUERY_KINDS), default=QueryKind.VALUE.value,
                           callback=lambda _context, _option, text: QueryKind(text),
                           show_default=True, help="value: the guaranteed score; win: force the best score; "
                           "survive: avoid every losing end.")(command)
    command = click.option("--role", help="The role the question is about (default: the first role).")(command)
    return position_options(command)


def hidden_options(command):
    """--hidden and the role's knowledge (--free, --found): the robust question."""
    command = click.option("--found", multiple=True, metavar="[MARK=]X,Y",
                           help="With --hidden: an obstacle the role found by bumping (repeatable).")(command)
    command = click.option("--free", multiple=True, metavar="X,Y",
                           help="With --hidden: a cell the role knows free, it stood there (repeatable).")(command)
    command = click.option("--hidden", is_flag=True, help="The robust answer: the role knows only its own "
                           "marks and what it has seen; the others place the hidden ones.")(command)
    return command


@click.group()
@click.version_option(__version__, prog_name="gridsolve")
def main():
    """Exact answers for turn-based grid games: boards in YAML, solved by clingo."""


SVG = click.option("--svg", "svg", metavar="FILE", help="Also draw an SVG picture to FILE ('-': standard output, "
                   "instead of the text).")


@main.command(name="show")
@BOARD
@position_options
@SVG
@click.option("--force", is_flag=True, help="Overwrite the --svg file if it exists.")
@reports_errors
def show_command(board, at, turn, step, gates, svg, force):
    """Draw BOARD (walls, pieces, marks) for the initial or a given position."""
    from .render import describe_position, draw_position
    from .svg import board_svg, check_target, write_svg
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


@main.command(name="compile")
@BOARD
@query_options
@hidden_options
@click.option("--strategy", "want_strategy", is_flag=True, help="Include the strategy part.")
@reports_errors
def compile_command(board, role, kind, at, turn, step, gates, horizon, hidden, free, found, want_strategy):
    """Print the complete clingo program for a query on BOARD (run it with `python -m clingo`).

    Where the program is too big for plain clingo (its size estimated before printing), one
    warning line on standard error comes first; the program is printed all the same.  A GDL game
    (a .kif or .gdl file, or a YAML file naming one): its rules in clingo from its initial state
    (--at: the state of those fluents), docs/compile.md."""
    from .verify.gdlgame import game_of_file
    game = game_of_file(board)
    if game is not None:
        return _compile_gdl(game, at, {"--role": role, "--query": None if kind == QueryKind.VALUE else kind.value,
                                       "--turn": turn, "--step": step, "--gates": gates, "--horizon": horizon,
                                       "--hidden": hidden or None, "--free": free or None, "--found": found or None,
                                       "--strategy": want_strategy or None})
    loaded = load_board(board)
    query = make_query(loaded, role, kind, at=at, turn=turn, step=step, gates=gates, horizon=horizon,
                       strategy=want_strategy,
                       hidden=hidden, free=free, found=found)
    from .solve.common.plainsize import plain_program      # (the compiler only where it is asked for)
    program, size = plain_program(loaded, query)
    if size.too_big:
        click.echo(size.warning(), err=True)
    click.echo(program.text, nl=False)


def _compile_gdl(path: Path, at, unused) -> None:
    """``compile`` of a GDL game: its rules from a state (the questions' options refused: they are ``solve``'s)."""
    from .gdl.description import read_description
    from .gdl.kif import read_kif
    from .gdl.translate import state_program
    given = [name for name, value in unused.items() if value is not None]
    if given:
        raise QueryError(f"{given[0]}: compile prints a GDL game's rules from a state, not a question's program",
                         f"ask the question with gridsolve solve {path} {given[0]} ...")
    fluents = read_kif(" ".join(at), "--at") if at else None
    if fluents is not None and any(term.is_variable or term.name in ("<=", "not") for term in fluents):
        raise QueryError("--at: a fluent is a ground term", "write e.g. --at '(cell 1 1 x) (control oplayer)'")
    click.echo(state_program(read_description(path), fluents), nl=False)


@main.command(name="solve")
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
    """Solve a query on BOARD with clingo: value, forced win, or survival, with every move's value
    (BOARD a .kif or .gdl game description: docs/gdl.md)."""
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
        from .play.advice import format_advice, placement_advice
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
        from .svg import board_svg, check_target, write_svg
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
        from .render import format_answer     # (the text's modules only where it is printed: a quicker start)
        click.echo(format_answer(loaded, answer, query.position))
        if strategy_file is not None:
            click.echo(f"strategy: {len(answer.strategy or [])} positions written to {strategy_file}")


def _solve_gdl(path, role, kind, at, horizon, as_json, timeout, max_memory, search, svg, force, unused):
    """``solve`` of a GDL game (gridsolve/gdl/): the options a board has and a GDL game has not are refused."""
    from .gdl.solving import solve_gdl
    from .gdl.text import format_gdl_answer
    given = [name for name, value in unused.items() if value is not None]
    if given:
        raise QueryError(f"{given[0]} is not an option of a GDL game",
                         "ask --role, --query, --at, --horizon, --search, --json, --svg")
    if svg == "-" and as_json:
        raise QueryError("--svg - and --json both write to standard output", "write the picture to a file")
    if svg is not None:
        from .svg import check_target, write_svg
        check_target(svg, force)
    answer = solve_gdl(path, role, kind.value, " ".join(at) or None, horizon,
                       command_limits(max_memory, seconds=timeout), search)
    if svg is not None:
        from .gdlpicture import answer_svg
        picture = answer_svg(answer, Path(path).stem)
        if svg == "-":
            click.echo(picture, nl=False)
            return
        write_svg(picture, svg, force)
    click.echo(json.dumps(answer.as_dict(), indent=1) if as_json else format_gdl_answer(answer))


@main.command(name="explain")
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
    """Why BOARD's position has its answer: the principal line, the refutation of each of the
    role's moves, and the critical walls (each single wall whose removal or addition changes it)."""
    from .render import format_explanation
    from .explain.explanation import explain
    loaded = load_board(board)
    query = make_query(loaded, role, kind, at=at, turn=turn, step=step, gates=gates, horizon=horizon)
    explanation = explain(loaded, query, walls=not no_walls, method=method, jobs=jobs, limits=command_limits())
    if as_json:
        click.echo(json.dumps(explanation.as_dict(), indent=1))
    else:
        click.echo(format_explanation(loaded, explanation, query.position))


@main.command(name="ask")
@click.argument("board", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.argument("questions", type=click.File("r", encoding="utf-8"), default="-")
@click.option("--levels", "levels", type=click.File("r", encoding="utf-8"), metavar="FILE",
              help='Questions about many boards, instead of BOARD: each line a question with its board, '
                   '"board": the board file\'s text or its keys as an object (FILE "-": standard input).')
@MAX_MEMORY
@reports_errors
def ask_command(board, questions, levels, max_memory):
    """Answer many questions about BOARD from one grounding: one JSON object a line in QUESTIONS
    (default: standard input) with solve's options, one JSON answer a line out."""
    from .ask.questions import ask_levels, ask_many
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
        from .ask.gdl import ask_gdl
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


@main.command(name="play")
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
    """Play BOARD in the terminal against the solver's optimal strategy (moves from standard input)."""
    loaded = load_board(board)
    start = make_position(loaded, at, turn, step, gates)
    lines = iter(sys.stdin)
    from .play.game import play
    play(loaded, set(humans) or {loaded.rules.roles[0]}, lines, click.echo, start, horizon, seed,
         click.clear if sys.stdout.isatty() else None, command_limits(max_memory))


@main.command(name="crosscheck")
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
    """Compare every reachable position of BOARD with the GDL game's state, moves, ends and goals
    (exit code 0: the same game; 1: they differ, the first difference printed)."""
    from .crosscheck.compare import crosscheck
    from .crosscheck.text import format_crosscheck
    result = crosscheck(board, game, states, command_limits(max_memory, seconds=timeout))
    click.echo(json.dumps(result.as_dict(), indent=1) if as_json else format_crosscheck(result))
    if not result.agree:
        sys.exit(EXIT_FAILED)


@main.command(name="verify")
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
    """Check the board files in PATHS (files or folders; default: boards/) and their expect blocks.

    Exit code 0: every expectation holds; 1: one does not (or timed out); 2: a file is invalid.
    """
    from .verify.page import ReportFolder
    from .verify.reports import format_report   # imported here: the other commands start faster without them
    from .verify.shard import parse_shard
    from .verify.verify import verify_paths
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


@main.command(name="generate")
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
    """Write new boards that meet a requirement, each with an expect block of its measured values.

    Exit code 0: every board was written; 2: the request is invalid or cannot be met;
    3: --timeout was reached first.
    """
    from .generate.generate import generate
    from .generate.report import format_generated, progress_lines
    from .generate.request import request_from_options
    request = request_from_options(rules=rules_name, like=like, size=size, walls=walls, require=require, role=role,
                                   plies=plies, horizon=horizon, count=count, seed=seed, out=out, name=name,
                                   symmetry=symmetry, allow_sealed=allow_sealed, allow_trivial=allow_trivial,
                                   method=method, timeout=timeout, force=force, keep=keep, value=value,
                                   metrics=metric, difficulty=difficulty, defaults=not no_defaults,
                                   jobs=jobs, cluster=cluster, memory=command_limits(max_memory).memory)
    report = generate(request, progress_lines(lambda line: click.echo(line, err=True)))
    click.echo(format_generated(report), nl=False)
    if svg and report.boards:
        from .generate.pictures import write_pictures
        asked = report.request
        for picture in write_pictures([b.path for b in report.boards], asked.role,
                                      QueryKind.SURVIVE if asked.require == RequireKind.SURVIVE else QueryKind.VALUE, asked.horizon, force,
                                      command_limits(max_memory)):
            click.echo(f"picture: {picture}")
    if report.error is not None:
        raise report.error


@main.command(name="studio")
@click.argument("target", required=False, default=".", type=click.Path(path_type=Path))
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True,
              help="The port to listen on (0: any free port).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on; anything but 127.0.0.1 lets other machines knock (they still "
                   "need the token).")
@click.option("--no-browser", is_flag=True, help="Print the address only; do not open a browser.")
@reports_errors
def studio_command(target, port, host, no_browser):
    """Edit, ask, play and save the levels of a folder (or one board file) in a local web page.

    Prints the address to open, with this run's token: http://127.0.0.1:PORT/?token=...
    """
    from .studio.server import serve
    serve(target, host, port, not no_browser, click.echo, command_limits())


@main.command(name="schema")
def schema_command():
    """Print the JSON Schema of board files (for editors and other validators)."""
    from .language.schema import board_json_schema
    click.echo(json.dumps(board_json_schema(), indent=2))
