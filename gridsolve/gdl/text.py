"""The text answer of ``gridsolve solve GAME.kif``."""
from __future__ import annotations

from ..solve.common.answer import Answer, Ply


def _steps(count: int | None) -> str:
    return "" if count is None else f" in {count} step{'s' if count != 1 else ''}"


def format_gdl_answer(answer: Answer) -> str:
    stats = answer.stats
    horizon = "" if answer.remaining is None else f", within {answer.remaining} steps"
    roles = stats.get("roles") or list(answer.values or {})
    depth = stats.get("search") == "depth"
    counted = f"{stats['positions']:,} {'states searched depth-first' if depth else 'reachable states'}"
    out = [f"{answer.board}: " + (f"{len(roles)} role{'s' if len(roles) != 1 else ''} ({', '.join(roles)}), "
                                  if roles else "") + counted + horizon]
    if answer.values is None and answer.value is None:
        out.append(f"value for {answer.role}: not searched (the depth-first search asks the win only: "
                   f"--query value for it)")
    elif answer.value is None:
        out.append(f"value for {answer.role}: no end is forced{horizon or ' (play can go on forever)'}")
    else:
        out.append(f"value for {answer.role}: {answer.value}{_steps(answer.plies)}")
    if answer.values is not None:
        out.append("values: " + ", ".join(f"{role} {'-' if v is None else v}" for role, v in answer.values.items()))
    if answer.top is not None:
        win = f"yes{_steps(answer.win_plies)}" if answer.win else "no"
        out.append(f"win ({answer.top}) for {answer.role}: {win}")
    if answer.moves:
        out += ["", f"moves of {answer.role} (value, steps after the move):"]
        width = max(len(move.move) for move in answer.moves)
        for move in answer.moves:
            value = "-" if move.value is None else move.value
            plies = "-" if move.plies is None else move.plies
            out.append(f"  {move.move:<{width}}  value {value:>4}  steps {plies:>3}")
    if answer.line:
        out += ["", "principal line:"]
        for step in answer.line:
            out.append(f"  {step.index + 1:>3}. " + joint_text(step))
        out.append("  final state: " + " ".join(answer.line[-1].after.fluents))
    return "\n".join(out)


def gdl_verdict(answer: Answer) -> str:
    """The answer in one line: ``xplayer gets 50 in 9 steps, no forced win (values: xplayer 50, oplayer 50)``."""
    values = ", ".join(f"{role} {'-' if v is None else v}" for role, v in answer.values.items())
    if answer.value is None:
        return f"{answer.role}: no end is forced (values: {values})"
    win = "" if answer.top is None else (f", a forced win ({answer.top})" if answer.win else ", no forced win")
    return f"{answer.role} gets {answer.value}{_steps(answer.plies)}{win} (values: {values})"


def joint_text(step: Ply) -> str:
    """A step of the line as text: ``xplayer (mark 1 1), oplayer noop``."""
    return ", ".join(f"{role} {move}" for role, move in step.joint.items())
