"""``gridsolve crosscheck``'s text: the summary, and the first difference with both states."""
from __future__ import annotations

from .compare import Crosscheck


def format_crosscheck(result: Crosscheck) -> str:
    """The report of a crosscheck: what was compared, and where the two games first differ."""
    d = result.difference
    if d is not None:
        scope = "up to the first difference"
    elif result.complete:
        scope = f"every reachable position ({result.plies} plies)"
    else:
        scope = f"the first {result.positions:,} breadth-first (--states {result.limit}; more are reachable)"
    head = (f"{result.board} against {result.against}: {_count(result.positions, 'position')} and "
            f"{_count(result.moves, 'move')} compared, {scope}, in {result.seconds:.1f} s")
    if d is None:
        return head + "\nthe same game: states, legal moves, ends and goals agree"
    lines = [head, f"first difference, at ply {d.ply}: {d.what}",
             f"  board position: {d.position}",
             f"  GDL state:      {' '.join(d.fluents) or '-'}  (and the static fluents)"]
    if d.move:
        lines.append(f"  move:           {d.move}")
    if d.gdl:
        lines.append(f"  GDL:            {d.gdl}")
    if d.board:
        lines.append(f"  board:          {d.board}")
    lines.append(f"  reached by:     {'; '.join(d.line) or 'the start'}")
    return "\n".join(lines)


def _count(n: int, what: str) -> str:
    return f"{n:,} {what}" + ("" if n == 1 else "s")
