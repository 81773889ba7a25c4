"""Where a secret mark may go: the cells the rules' ``placement`` leaves it (without one, every
cell but the roles' start cells).  The loader's board check, the robust game and the players'
placements read these (this module imports nothing of the rule language, so that the secret
marks mechanism's loader part can)."""
from __future__ import annotations


def not_on(board, mark: str) -> tuple[str, ...]:
    """What a secret ``mark`` may not go on: its placement's ``not_on``, else the roles (their start cells)."""
    spec = board.rules.placement.get(mark)
    return spec.not_on if spec else tuple(board.rules.roles)


def allowed_cells(board, mark: str) -> frozenset:
    """Cells a secret ``mark`` may occupy: on the board, not a start cell of a piece named in
    ``not_on`` (as the board has it) and not a cell of a mark named there."""
    banned: set = set()
    for name in not_on(board, mark):
        if name in board.pieces:
            banned.add(board.pieces[name])
        banned |= set(board.marks.get(name, ()))
    return frozenset((x, y) for x in range(1, board.width + 1) for y in range(1, board.height + 1)
                     if board.on_board((x, y)) and (x, y) not in banned)
