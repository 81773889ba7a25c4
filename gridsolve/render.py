"""Text output: boards drawn in the terminal, and readable answers."""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from .language import wording
from .mechanisms.registry import MECHANISMS as REGISTERED
from .language.asciimap import draw
from .language.model import NO_LIMIT, OFF_BOARD, Board
from .language.position import Position
from .language.kinds import QueryKind

if TYPE_CHECKING:       # (the answer's types: a board's picture needs neither the solver nor clingo)
    from .solve.common.answer import Answer, Ply


def glyphs(board: Board) -> dict[str, str]:
    """A character for every piece and mark: the board's own legend where it has one."""
    out = {}
    for char, meaning in board.legend.items():
        out.setdefault(meaning, char)
    for name in list(board.rules.pieces) + sorted(board.marks):
        if name not in out:
            taken = set(out.values())
            char = next((c for c in (name[0].upper(), name[0].lower(), *name.upper()) if c not in taken), "?")
            out[name] = char
    return out


def draw_position(board: Board, position: Position, hidden: frozenset = frozenset()) -> str:
    """The board with the pieces where ``position`` has them; items already taken and the
    (mark, cell) pairs in ``hidden`` (obstacles not yet found in play) are left out.  A piece on
    a mark is drawn before it (``MT``: the mummy on a trap), several pieces as ``*``."""
    chars = glyphs(board)
    at = {}
    left = position.items_left(board)
    collected_marks = {c.mark: left[name] for name, c in board.rules.collect.items()}
    marks = dict(board.marks)
    for mechanism in REGISTERED:        # (the marks a mechanism moves: the crates where they are now)
        if mechanism.position_marks is not None:
            marks.update(mechanism.position_marks(board, position))
    for mark, cells in marks.items():
        for cell in cells:
            if (mark, cell) in hidden:
                continue
            if mark in collected_marks and cell not in collected_marks[mark]:
                continue
            at[cell] = chars[mark]
    marked = dict(at)
    placed = set()
    for piece, cell in position.pieces:
        if cell == OFF_BOARD:
            continue
        # '*': several pieces share a cell; then the mark under them, if any
        at[cell] = ("*" if cell in placed else chars[piece]) + marked.get(cell, "")
        placed.add(cell)
    closed = not position.gates_open
    lines = draw(board.width, board.height, board.north, board.east, board.solid, at.get,
                 board.gate_north if closed else (), board.gate_east if closed else (), board.outside())
    legend = ", ".join(f"{c} = {name}" for name, c in chars.items() if name not in board.rules.pieces
                       or position.cell(name) != OFF_BOARD) + ", * = pieces together"
    if set(marked) & placed:
        legend += ", two letters = a piece on a mark"
    if board.has_gates:
        legend += ", '===' ':' = gate" + (" (closed)" if closed else "; the gates are open (not drawn)")
    return "\n".join(lines + [f"   {legend}"])


def describe_position(board: Board, position: Position) -> str:
    side = "+".join(board.rules.turns[position.side])
    left = board.rules.last_step - position.step
    extra = ""
    for name, c in board.rules.collect.items():
        taken = len(board.marks.get(c.mark, ())) - len(position.items_left(board)[name])
        extra += f"; {c.piece} has taken {taken} {name}"
    for turn, lost in enumerate(position.lost):
        if lost:
            extra += f"; {'+'.join(board.rules.turns[turn])} will skip {wording.counted(lost, 'turn')}"
    limit = "no step limit" if board.rules.unlimited else f"{wording.plies(left)} to the step limit"
    return f"{board.name}: {side} to move, step {position.step} ({limit}){extra}"


def line_move(ply: Ply) -> str:
    """``explorer west``; a joint move already names its roles: ``blinky east, inky east``."""
    if len(ply.side) > 1:
        return ply.move
    return f"{ply.side[0]} {ply.move}"


def _runs(moves: list[str]) -> list[str]:
    """Repeated plies once, with a count: ``white nowhere, black nowhere (x29)``."""
    out: list[str] = []
    count = 0
    for i, move in enumerate(moves):
        count += 1
        if i + 1 == len(moves) or moves[i + 1] != move:
            out.append(move if count == 1 else f"{move} (x{count})")
            count = 0
    return out


def _plies(n: int | None) -> str:
    return "-" if n is None else str(n)


def verdict(answer: Answer, unlimited: bool = False) -> str:
    """The answer in one line: ``value for explorer: 0 within 49 plies, the game ends in 20 plies``
    (``unlimited``: a game without a step limit, "with no step limit")."""
    role = answer.role
    horizon = "with no step limit" if unlimited and answer.remaining >= NO_LIMIT // 2 else \
        f"within {wording.plies(answer.remaining)}"
    if answer.query == QueryKind.VALUE:
        tail = f", the game ends in {wording.plies(answer.plies)}" if answer.plies is not None else \
            ", nothing better or worse can be forced"
        return f"value for {role}: {answer.value} {horizon}{tail}"
    if answer.query == QueryKind.WIN:
        return (f"{role} can force a win {horizon}: {'yes' if answer.holds else 'no'}"
                + (f", in {wording.plies(answer.plies)} at best"
                   if answer.holds and answer.plies is not None else ""))
    return (f"{role} can survive {horizon}: {'yes' if answer.holds else 'no'}"
            + ("" if answer.holds else f", the others force a losing end in {wording.plies(answer.plies)}"))


def puzzle_verdict(board: Board, answer: Answer) -> str | None:
    """For a game of one role (a puzzle): ``solved in 33 moves: east east north ...``, or why it
    cannot be won: every line ends in a loss, or the role can only go on forever.  None for
    games of several roles and for answers without a value."""
    rules = board.rules
    if len(rules.roles) != 1 or answer.value is None:
        return None
    role = answer.role
    if answer.win:
        moves = [p.move for p in answer.line or () if role in p.side]
        shown = f": {' '.join(moves)}" if moves and len(moves) == answer.win_moves else ""
        return f"solved in {wording.moves(answer.win_moves)}{shown}"
    if not answer.survives:
        return (f"cannot be won: every line ends in a loss ({role} can hold out for at most "
                f"{wording.moves(answer.doom_plies)})")
    if rules.unlimited:
        return f"cannot be won: {role} can survive forever, but only by never reaching the goal"
    return f"cannot be won within the step limit: {role} survives to it"


def _seen(board: Board, answer: Answer, position: Position) -> Board:
    """The board as a --hidden answer's role sees it: of its hidden marks only the cells it found."""
    if not answer.hidden:
        return board
    from .language.secret import hidden_marks
    marks = dict(board.marks)
    for mark in hidden_marks(board, answer.role):
        marks[mark] = frozenset(c for m, c in position.found if m == mark)
    return replace(board, marks=marks)


def _robust_note(board: Board, answer: Answer, position: Position) -> str:
    from .language.secret import hidden_marks
    marks = ", ".join(hidden_marks(board, answer.role))
    known = [f"free {' '.join(f'({x},{y})' for x, y in sorted(position.free))}" if position.free else "",
             f"found {' '.join(f'({x},{y})' for _, (x, y) in sorted(position.found))}" if position.found else ""]
    known = "; ".join(k for k in known if k) or "only the cell it stands on"
    settled = answer.stats.settled_at
    return (f"robust answer (--hidden): {answer.role} does not see {marks} (not drawn); the others place them "
            f"as it moves. It knows: {known}."
            + (f" Settled at {wording.plies(settled)}: it holds for all {answer.remaining}." if settled else ""))


def format_answer(board: Board, answer: Answer, position: Position) -> str:
    role = answer.role
    out = [describe_position(board, position), draw_position(_seen(board, answer, position), position), ""]
    if answer.hidden:
        out += [_robust_note(board, answer, position), ""]
    out.append(verdict(answer, board.rules.unlimited))
    puzzle = puzzle_verdict(board, answer)
    if puzzle:
        out.append(puzzle)
    if answer.value is None:
        out.append(f"(survive {'yes' if answer.survives else 'no'}; the value needs state this question "
                   f"leaves out: ask --query value)")
    else:
        out.append(f"(value {answer.value}; win {'yes' if answer.win else 'no'}; "
                   f"survive {'yes' if answer.survives else 'no'})")
    if answer.moves:
        width = max(len(m.move) for m in answer.moves)
        if answer.value is None:
            out += ["", f"moves of the side to move (does {role} survive after the move):"]
            for m in answer.moves:
                out.append(f"  {m.move:<{width}}  survives {'yes' if m.survives else 'no '}"
                           f"  doom in {_plies(m.doom_plies):>3}")
        else:
            out += ["", "moves of the side to move (value for " + role + ", plies after the move):"]
            for m in answer.moves:
                exact = "" if m.exact is None else ("" if m.exact else "  (within the plies solved)")
                out.append(f"  {m.move:<{width}}  value {m.value:>4}  plies {_plies(m.plies):>3}{exact}")
    if answer.line:
        out += ["", "principal line: " + "; ".join(_runs([line_move(p) for p in answer.line]))]
    stats, detail = answer.stats, answer.stats.detail
    if stats.solver == "bounded":
        out += ["", f"solved in {stats.total_s:.2f} s by the bounded solver: {detail.abstract_positions:,} "
                    f"positions without items, {detail.searched:,} searched with their items{_search_in(detail)}"]
    elif stats.solver == "robust search":
        where = _search_in(detail, "knowingkernel", "gridsolve.solve.hidden")
        out += ["", f"solved in {stats.total_s:.2f} s by the robust search: {detail.abstract_positions:,} "
                    f"positions without the role's knowledge, {detail.searched:,} searched with it{where}"]
    elif stats.solver == "race":
        out += ["", f"solved in {stats.total_s:.2f} s: {detail.positions:,} positions and {detail.moves:,} "
                    f"moves ground, ranked in {detail.levels} levels"]
    elif stats.solver == "layered table":
        out += ["", f"solved in {stats.total_s or 0:.2f} s: {detail.positions:,} positions and {detail.moves:,} "
                    f"moves ground, read off the role's layered table"]
    else:
        out += ["", f"solved in {stats.total_s or 0:.2f} s; ground program: {stats.figure('ground_rules') or 0} rules"]
    return "\n".join(out)


def _search_in(detail, kernel: str = "raceskernel", package: str = "gridsolve.solve.bounded") -> str:
    """Where the search ran; in Python, why not in C (it is about 30x slower)."""
    from . import native
    reason = native.why_not(kernel, package) if detail.search_in == "Python" else None
    if reason == "GRIDSOLVE_NATIVE=0":
        return " (in Python: GRIDSOLVE_NATIVE=0)"
    if reason:
        return f" (in Python: the C search is missing: {reason})"
    if detail.search_in == "Python":
        return " (in Python: too few to pay for the C search)"
    return f" (in {detail.search_in})" if detail.search_in else ""


def format_explanation(board: Board, explanation, position: Position) -> str:
    """What ``gridsolve explain`` prints: the answer, the refutation, the critical walls."""
    from .solve.common.outcome import Outcome
    answer = explanation.answer
    role, kind = answer.role, answer.query
    out = [format_answer(board, answer, position).rsplit("\n\n", 1)[0]]
    if explanation.refutation is not None:
        others = [r for r in board.rules.roles if r not in board.rules.team_of(role)]
        before = "".join(f"after {line_move(p)}, " for p in explanation.refutation_after)
        out += ["", f"refutation ({before}each move of {role}'s side and the answer of {', '.join(others)}):"]
        width = max((len(r.move) for r in explanation.refutation), default=0)
        for r in explanation.refutation:
            got = r.outcome.describe(role, kind)
            line = "; ".join(f"ply {p.index + 1} {line_move(p)}" for p in r.line) or "the game ends"
            out.append(f"  {r.move:<{width}}  {got}: {line}")
    stats = explanation.stats
    if stats.get("walls_method"):
        now = Outcome.of(answer).describe(role, kind)
        out += ["", f"critical walls ({explanation.walls_tried} interior edges tried, "
                    f"{len(explanation.critical_walls)} change the answer; now: {now}):"]
        for c in explanation.critical_walls:
            out.append(f"  {c.change} {c.wall.describe()}: {c.outcome.describe(role, kind)}")
        if not explanation.critical_walls:
            out.append("  none: no single wall removed or added changes the answer")
    out += ["", f"explained in {stats['explain_s']:.2f} s"
            + (f" (critical walls: {stats['walls_s']:.2f} s, method {stats['walls_method']})"
               if stats.get("walls_method") else "")]
    return "\n".join(out)
