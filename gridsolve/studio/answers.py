"""The answer as the page shows it: the verdict, every move with its value, plies and the
cells it walks, and the principal line ply by ply with its arrows."""
from __future__ import annotations

import dataclasses

from ..language.model import Board
from ..language.position import Position, Query, make_query
from ..language.model import OFF_BOARD
from ..render import describe_position, puzzle_verdict, verdict
from ..solve.program.explore import examine, move_parts
from ..solve.common.answer import Answer
from ..svg import CELL, MARGIN, TITLE, walked_cells as walked, board_svg, legend


def question(board: Board, role: str | None, kind: str) -> Query:
    """The studio's question about the level's start: the robust one where the board leaves
    secret marks unplaced (the role does not know where they are)."""
    return make_query(board, role, kind, hidden=bool(board.unplaced))


def picture(board: Board, position: Position) -> dict:
    """The board drawn as ``--svg`` draws it, with the geometry the page draws over it: the
    cells' place, and the frame the page shows (the board, its coordinates and one margin
    outside its border, where an exit edge is dropped).  The page writes the position and the
    legend (its entries given as ``legend``) as text of its own, so the picture has no title."""
    svg = board_svg(board, position, title="").replace("<svg ", '<svg data-testid="board" ', 1)
    frame = [0, TITLE - MARGIN, board.width * CELL + 2 * MARGIN, board.height * CELL + 2 * MARGIN]
    return {"svg": svg, "legend": [list(entry) for entry in legend(board)],
            "geometry": {"cell": CELL, "left": MARGIN, "top": TITLE, "width": board.width, "height": board.height,
                         "frame": frame}}


def _paths(board: Board, before: Position, after: Position, label: str, side) -> dict:
    """{role: the cells it walks} for each role of ``side`` by its move (closed gates block it
    as walls do)."""
    if board.has_gates and not before.gates_open:
        board = dataclasses.replace(board, north=board.north | board.gate_north, east=board.east | board.gate_east)
    return {role: [list(c) for c in walked(board, before.cell(role), move, after.cell(role))]
            for role, move in move_parts(label, side).items()}


def _chased(board: Board, before: Position, after: Position) -> dict:
    """{piece moved by rule: its cell before the ply, then its new one if it moved}; a piece
    that leaves the board has none."""
    out = {}
    for piece in board.rules.chasers:
        start, end = before.cell(piece), after.cell(piece)
        if OFF_BOARD not in (start, end):
            out[piece] = [list(start)] + ([list(end)] if end != start else [])
    return out


def _after(board: Board, position: Position) -> dict:
    """Where every piece stands after a ply (None: off the board) and the gates' state."""
    return {"pieces": {piece: None if cell == OFF_BOARD else list(cell) for piece, cell in position.pieces},
            "gates": ("open" if position.gates_open else "closed") if board.has_gates else None}


def payload(board: Board, query: Query, answer: Answer, moves_to: dict | None = None) -> dict:
    """JSON of ``answer``; ``moves_to`` ({move: position after it}) where the caller knows it,
    else from the game rules; the line's positions are the answer's."""
    position = query.position
    side = board.rules.turns[position.side]
    if moves_to is None:
        moves_to = {step.move: step.position for step in examine(board, position)[1]}
    moves = []
    for m in answer.moves:
        after = moves_to.get(m.move)
        moves.append({"move": m.move, "value": m.value, "plies": m.plies, "win": m.win, "survives": m.survives,
                      "doom_plies": m.doom_plies,
                      "paths": {} if after is None else _paths(board, position, after, m.move, side)})
    line = []
    for ply in answer.line or ():
        paths = {**_paths(board, ply.before, ply.after, ply.move, ply.side), **_chased(board, ply.before, ply.after)}
        line.append({**ply.as_dict(), "paths": paths, "after": _after(board, ply.after)})
    return {"verdict": verdict(answer, board.rules.unlimited), "puzzle": puzzle_verdict(board, answer),
            "win_moves": answer.win_moves, "start": _after(board, position), "role": answer.role,
            "kind": answer.query, "holds": answer.holds, "value": answer.value, "plies": answer.plies, "win": answer.win, "win_plies": answer.win_plies,
            "survives": answer.survives, "doom_plies": answer.doom_plies, "remaining": answer.remaining,
            "hidden": answer.hidden, "position": describe_position(board, position), "side": list(side),
            "moves": moves, "line": line, "stats": {k: v for k, v in answer.stats.as_dict().items()
                                                    if isinstance(v, (int, float, str))}}
