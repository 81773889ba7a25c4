"""The ends a role wins by, and whether a board's rules allow the measures of a won level: what
verification (``no_beeline``, the metrics) and generation (goals, judged levels) both read."""
from __future__ import annotations

from ..compile.state import layout_for
from ..language.model import Board


def goal_ends(board: Board, role: str) -> list[str]:
    """The end conditions that give ``role`` its top score, when that is above its timeout score."""
    rules = board.rules
    top = max(rules.scores_of(role))
    if not rules.constant_scores(role) or top <= rules.timeout[role]:
        return []
    return [end.name for end in rules.ends if end.scores[role] == top]


def top_score_ends(board: Board, role: str) -> set[str]:
    """The ends that give ``role`` its top score (the win the difficulty metrics measure)."""
    rules = board.rules
    top = max(rules.scores_of(role))
    return {end.name for end in rules.ends if set(rules.score_values(end.scores[role])) == {top}}


def metrics_unsupported(board: Board, role: str) -> str | None:
    """Why the difficulty metrics are not defined for ``role``, or None when they are: an end
    must give it its top score, and its team must move alone (its moves are choices of a position)."""
    rules = board.rules
    if not top_score_ends(board, role):
        return f"no end gives {role} its top score"
    if any(rules.split_turn(t, role) for t in range(len(rules.turns))):
        return f"{role} moves at the same time as its opponents"
    return None


def beeline_unsupported(board: Board) -> str | None:
    """Why ``no_beeline`` is not defined for ``board``'s rules, or None when it is.

    A shortest path is a walk of one role's own moves; it is defined for games whose position
    is the pieces' cells (and, where pieces move by rule after each ply, the gate: the walks of
    gridsolve/analysis/walks.py) and whose turns entries hold one role each."""
    rules = board.rules
    if any(len(entry) > 1 for entry in rules.turns):
        return "roles move at the same time in this game, so no role walks a path of its own"
    layout = layout_for(board)
    if layout.lost or layout.was or layout.collect:
        return "the game keeps more than the pieces' cells (collectibles, lost turns or was_on)"
    return None
