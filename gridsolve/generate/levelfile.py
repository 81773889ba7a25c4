"""Generated board files: the layout as an ASCII map and an ``expect:`` block of measured values.

Files are created atomically (written beside the target, then linked into place), and an
existing file is replaced only when asked.
"""
from __future__ import annotations

import json
import os
import secrets
from pathlib import Path

from ..language.asciimap import draw
from ..language.enemylist import edge_mark, enemies_of
from ..errors import QueryError
from ..language.model import Board
from ..language.yamlsrc import number_text


def board_text(board: Board, rules_yaml: str, header: list[str], expect: dict) -> str:
    """The board file: comment lines, name, rules, legend, map, the marks the legend has no
    character for and the exit edges (``{edge, at}``), the enemies in their order, and one
    expectation."""
    enemies = enemies_of(board)
    edges = {m for m, cells in board.marks.items() if cells and all(c in board.outside() for c in cells)}
    legend = {char: name for char, name in board.legend.items() if name not in edges and name not in dict(enemies)}
    glyph = {cell: char for char, name in legend.items() for cell in
             ([board.pieces[name]] if name in board.pieces else board.marks.get(name, ()))}
    lines = [f"# {line}" if line else "#" for line in header]
    lines += [f"name: {scalar(board.name)}", f"rules: {rules_yaml}",
              "legend: {" + ", ".join(f"{char}: {name}" for char, name in legend.items()) + "}",
              "map: |2"]
    lines += ["  " + line for line in draw(board.width, board.height, board.north, board.east, board.solid,
                                           glyph.get, board.gate_north, board.gate_east)]
    unlettered = {m: cells for m, cells in sorted(board.marks.items()) if m not in legend.values() and cells}
    if unlettered:           # marks without a legend character (hidden obstacles, exit edges): listed
        lines += ["marks:"] + [f"  {m}: " + (_edge(board, cells) if m in edges else
                                             "[" + ", ".join(f"[{x}, {y}]" for x, y in sorted(cells)) + "]")
                               for m, cells in unlettered.items()]
    if enemies:
        lines += ["enemies:"] + [f"  - {{kind: {kind}, at: [{board.pieces[piece][0]}, {board.pieces[piece][1]}]}}"
                                 for piece, kind in enemies]
    lines += ["", "expect:"]
    for index, (key, value) in enumerate(expect.items()):
        lines.append(("  - " if index == 0 else "    ") + f"{key}: {scalar(value)}")
    return "\n".join(lines) + "\n"


def _edge(board: Board, cells) -> str:
    """``{edge, at}`` of a mark on one edge of the border."""
    if len(cells) != 1:
        raise QueryError(f"a mark on {len(cells)} edges of the border", "a board file gives a mark one edge")
    edge = edge_mark(next(iter(cells)), board.width, board.height)
    return f"{{edge: {edge['edge']}, at: {edge['at']}}}"


def scalar(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, str):
        return json.dumps(value)            # a JSON string is a YAML double-quoted scalar
    return number_text(value)


def check_free(paths: list[Path], force: bool) -> None:
    """Refuse to overwrite: every target must be new, unless ``force``."""
    taken = [p for p in paths if p.exists()]
    if taken and not force:
        more = f" (and {len(taken) - 1} more)" if len(taken) > 1 else ""
        raise QueryError(f"{taken[0]} exists{more}", "choose another --name or --out, or add --force to replace it")


def _new_file(path: Path) -> tuple[int, str]:
    """A new empty file beside ``path`` to write it in, opened: created with the mode of any new
    file (0666 less the umask; a ``tempfile.mkstemp`` file would keep its private 0600)."""
    while True:
        temporary = path.parent / f".{path.name}.{secrets.token_hex(6)}.tmp"
        try:
            return os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), str(temporary)
        except FileExistsError:
            continue


def write_new(path: Path, text: str, force: bool) -> None:
    """Write ``text`` to ``path`` atomically; an existing file is an error unless ``force``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = _new_file(path)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        if force:
            os.replace(temporary, path)
        else:
            try:
                os.link(temporary, path)          # fails if the file appeared meanwhile
            except FileExistsError:
                raise QueryError(f"{path} exists", "choose another --name or --out, or add --force") from None
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)
