"""``gridsolve compile``: the clingo program of a question, or a GDL game's rules from a state."""
from __future__ import annotations

from pathlib import Path

import click

from ..errors import QueryError
from ..language.kinds import QueryKind
from ..language.loader import load_board
from ..language.position import make_query
from .options import BOARD, command, hidden_options, query_options, reports_errors


@command("compile")
@BOARD
@query_options
@hidden_options
@click.option("--strategy", "want_strategy", is_flag=True, help="Include the strategy part.")
@reports_errors
def compile_command(board, role, kind, at, turn, step, gates, horizon, hidden, free, found, want_strategy):
    """Where the program is too big for plain clingo (its size estimated before printing), one
    warning line on standard error comes first; the program is printed all the same.  A GDL game
    (a .kif or .gdl file, or a YAML file naming one): its rules in clingo from its initial state
    (--at: the state of those fluents), docs/compile.md.
    """
    from ..verify.gdlgame import game_of_file
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
    from ..solve.common.plainsize import plain_program      # (the compiler only where it is asked for)
    program, size = plain_program(loaded, query)
    if size.too_big:
        click.echo(size.warning(), err=True)
    click.echo(program.text, nl=False)


def _compile_gdl(path: Path, at, unused) -> None:
    """``compile`` of a GDL game: its rules from a state (the questions' options refused: they are ``solve``'s)."""
    from ..gdl.description import read_description
    from ..gdl.kif import read_kif
    from ..gdl.translate import state_program
    given = [name for name, value in unused.items() if value is not None]
    if given:
        raise QueryError(f"{given[0]}: compile prints a GDL game's rules from a state, not a question's program",
                         f"ask the question with gridsolve solve {path} {given[0]} ...")
    fluents = read_kif(" ".join(at), "--at") if at else None
    if fluents is not None and any(term.is_variable or term.name in ("<=", "not") for term in fluents):
        raise QueryError("--at: a fluent is a ground term", "write e.g. --at '(cell 1 1 x) (control oplayer)'")
    click.echo(state_program(read_description(path), fluents), nl=False)


command = compile_command
