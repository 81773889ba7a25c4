"""The rules that depend on one game's position term: who moves, end conditions, moves.

Every rule is written once per ``turns`` entry (and per way of not having ended), with the
position term's variables spelled out (see :mod:`gridsolve.compile.state`), so that gringo joins only
small relations: ``rmove/9`` (one role's moves from a cell, encodings/moves.lp), ``ibit``,
``markbit``, ``distance``, ``turn_after`` and ``table`` facts.

Two domain predicates are left open: ``{STATE}`` (positions whose end conditions are derived)
and ``{EXPAND}`` (positions whose moves are derived).  The race solver uses ``reach(S)`` for
both; the layered solver instantiates the rules once per depth.
"""
from __future__ import annotations

import itertools

from ..errors import EncodingError
from ..language.model import OFF_BOARD, Board, Condition, Rules
from ..mechanisms.encodings import TERM, parts
from .predicates import MARK
from .script import StageVars, script_rules
from .state import START, Layout

OFF_TERM = f"({OFF_BOARD[0]},{OFF_BOARD[1]})"     # the cell term of a piece off the board

STATE, EXPAND = "{STATE}", "{EXPAND}"
MOVE_MARK = "gridsolve_move"     # the last argument of the game graph's succ/3


class Vars:
    """Variable names of the position term's parts."""

    def __init__(self, layout: Layout, prefix: str = ""):
        self.layout = layout
        self.prefix = prefix
        self.index = {r: i for i, r in enumerate(layout.roles, 1)}
        self.fields = layout.variables(prefix)

    def x(self, piece):
        return f"{self.prefix}X{self.index[piece]}"

    def y(self, piece):
        return f"{self.prefix}Y{self.index[piece]}"

    def cell(self, piece):
        return f"({self.x(piece)},{self.y(piece)})"



def condition_literals(when: Condition, v: Vars, board: Board) -> list[tuple[str, str]]:
    """(literal, negation) pairs whose conjunction is the condition: ``same_cell`` and
    ``reaches``, then each mechanism's (``was_on``, ``collected``, ``nearer``)."""
    out = []
    for group in when.same_cell:
        if not set(group) & set(board.rules.roles):     # pieces that may all be off the board: meet on it
            on = v.cell(group[0])
            out.append((f"{on} != {OFF_TERM}", f"{on} = {OFF_TERM}"))
        for other in group[1:]:
            a, b = v.cell(group[0]), v.cell(other)
            out.append((f"{a} = {b}", f"{a} != {b}"))
    for piece, mark in when.reaches:
        atom = MARK.atom(mark, v.x(piece), v.y(piece))
        out.append((atom, f"not {atom}"))
    for literals in parts("literals"):
        out += literals(when, v, board)
    return out


def can_hold(when: Condition, board: Board) -> bool:
    """False for a condition no position can meet (more items than the board has)."""
    return all(holds(when, board) for holds in parts("can_hold"))


def live_ends(board: Board) -> list:
    return [end for end in board.rules.ends if can_hold(end.when, board)]


def _score_literal(score, role: str, v: Vars, rules: Rules, out: str = "V") -> str:
    if isinstance(score, int):
        return f"{out} = {score}"
    return next(literal for literal in (named(score, v, rules, out) for named in parts("score")) if literal)


def end_rules(board: Board, layout: Layout) -> list[str]:
    """``term/2``, ``outcome/2``, ``terminal/1`` for the positions of ``{STATE}``."""
    v = Vars(layout)
    s = layout.state()
    out = ["% - End conditions (first that holds decides) ---"]
    ends = live_ends(board)
    if not ends:
        out.append("#defined term/2.   % no end can hold on this board")
    for end in ends:
        body = ", ".join(lit for lit, _ in condition_literals(end.when, v, board))
        out.append(f"term({s},{end.name}) :- {STATE}({s}), {body}.")
    return out + outcome_rules()


def outcome_rules() -> list[str]:
    """``terminal/1`` and ``outcome/2`` (the first end in rule order decides) from ``term/2``."""
    return [f"terminal(S) :- {STATE}(S), term(S,_).",
            f"overridden(S,E) :- {STATE}(S), term(S,E), term(S,E2), precedes(E2,E).",
            f"outcome(S,E) :- {STATE}(S), term(S,E), not overridden(S,E)."]


def score_rules(board: Board, layout: Layout, role: str, named: bool = False) -> list[str]:
    """``escore(S,V)``: the role's score at the end that decides S; ``tscore(S,V)``: its score
    if S is where the plies run out (the first timeout entry that holds, else the default).
    With ``named``, the heads carry the role: ``escore(S,R,V)``, ``tscore(S,R,V)``."""
    rules = board.rules
    v = Vars(layout)
    s = layout.state()
    who = f",{role}" if named else ""
    out = [f"% - Scores of {role}: at an end, and when the plies run out ---"]
    for end in live_ends(board):
        out.append(f"escore({s}{who},V) :- {STATE}({s}), outcome({s},{end.name}), "
                   f"{_score_literal(end.scores[role], role, v, rules)}.")
    out += timeout_match_rules(board, layout)
    for index, entry in enumerate([*rules.timeout_when, None], 1):
        scores = entry.scores if entry is not None else rules.timeout
        earlier = [f"not tmatch({s},{j})" for j in range(1, index)]
        match = [f"tmatch({s},{index})"] if entry is not None else []
        body = ", ".join([f"{STATE}({s})", *match, *earlier, _score_literal(scores[role], role, v, rules)])
        out.append(f"tscore({s}{who},V) :- {body}.")
    return out


def timeout_match_rules(board: Board, layout: Layout) -> list[str]:
    """``tmatch(S,I)``: the condition of the I-th conditional timeout entry holds at S."""
    v = Vars(layout)
    s = layout.state()
    out = []
    for index, entry in enumerate(board.rules.timeout_when, 1):
        body = ", ".join(lit for lit, _ in condition_literals(entry.when, v, board))
        out.append(f"tmatch({s},{index}) :- {STATE}({s}), {body}.")
    return out


def _joint_label(roles: list[str], moves: list[str]) -> str:
    if len(roles) == 1:
        return moves[0]
    return "j(" + ",".join(f"mv({r},{m})" for r, m in zip(roles, moves)) + ")"


def move_rules(board: Board, layout: Layout, split_team: tuple[str, ...] = (), graph: bool = False) -> list[str]:
    """``mover/2`` and the moves: ``edge(S,M,S2)`` per ply, or for entries that move
    ``split_team`` with others, ``split_edge(S,Mteam,Mothers,S2)``.  With ``graph``: the same
    rules without the move names, ``succ(S,S2,gridsolve_move)`` (S2 follows S by some move;
    the constant tells these atoms from every other by their arguments alone, see
    gridsolve/solve/graph/racegraph.py) from ``rdest`` (``rmove`` without the move name), and no
    ``mover/2``: the game graph alone."""
    rules = board.rules
    v = Vars(layout)
    n = Vars(layout, "N")
    s = layout.state()
    start_mover = [f"mover({START}({s}),T) :- {EXPAND}({START}({s}))."] if not rules.judge_start else []
    out = ([] if graph else [f"mover({s},T) :- {EXPAND}({s}).", *start_mover, ""]) + [
        "% - Moves: one rule per turns entry, per way of not having ended (and per collision case) ---"]
    if not rules.judge_start:
        out.append(f"% judge_start: false: the start a question asks about where an end holds, {START}(S), "
                   "has the moves of S")
    negations = [[neg for _, neg in condition_literals(end.when, v, board)] for end in live_ends(board)]
    split = frozenset(t for t, movers in enumerate(rules.turns)
                      if 0 < len([r for r in movers if r in split_team]) < len(movers))
    stages = StageVars(board, layout, named=not graph, split=split) if rules.script else None
    if stages:
        out.append("% - The plies and their after_ply script, stage by stage (gridsolve/compile/script.py) ---")
    for turn, movers in enumerate(rules.turns):
        if layout.knows is not None and layout.knows.role in movers:
            out += _hidden_turn_rules(board, layout, turn, negations, v, n)
            continue
        for now, ends in [(layout.state(str(turn)), negations)] + (
                [(f"{START}({layout.state(str(turn))})", [])] if not rules.judge_start else []):
            out += _turn_rules(board, layout, turn, movers, now, ends, split_team, graph, stages)
    if stages:
        def head(term, label):
            return f"succ(S,{term},{MOVE_MARK})" if graph else f"{'split_edge' if label else 'edge'}(S,{label or 'M'},{term})"
        out += script_rules(stages, head)
    return out


def _turn_rules(board: Board, layout: Layout, turn: int, movers, now: str, negations, split_team, graph: bool,
                stages: StageVars | None = None):
    """The rules of a ply of ``turns[turn]`` from the positions ``now`` where no end holds
    (``negations``: per live end, the alternatives of its negation); with ``stages`` (rules
    with an after_ply script) the ply's result is the script's stage 0, not a move."""
    rules = board.rules
    v = Vars(layout)
    n = Vars(layout, "N")
    out = []
    body = [f"{EXPAND}(S)", f"S = {now}"] if stages else [f"{EXPAND}({now})"]
    labels = []
    for role in movers:
        move = rules.moves[role]
        i = v.index[role]
        if not _own_moves(board, role):     # (else a mechanism's move cases bind them)
            body.append(f"rdest({role},X{i},Y{i},AX{i},AY{i},PX{i},PY{i},B{i})" if graph else
                        f"rmove({role},X{i},Y{i},M{i},AX{i},AY{i},PX{i},PY{i},B{i})")
        body += [f"(AX{i},AY{i}) != {v.cell(p)}" for p in move.may_not_end_on]
        labels.append(f"M{i}")
    team = [r for r in movers if r in split_team]
    split = bool(team) and len(team) < len(movers)
    tail = ")"
    label = _joint_label(list(movers), labels)
    if graph:
        head_move = f"succ({now},"
        tail = f",{MOVE_MARK})"
    elif split:
        others = [r for r in movers if r not in split_team]
        parts = (_joint_label(team, [f'M{v.index[r]}' for r in team]),
                 _joint_label(others, [f'M{v.index[r]}' for r in others]))
        head_move = f"split_edge({now},{parts[0]},{parts[1]},"
        label = f"sp({parts[0]},{parts[1]})"
    else:
        head_move = f"edge({now},{label},"
    k = 2 if stages else 1      # the domain literals come first, then the ends that do not hold
    for gate_body, moved, blocked in _move_cases(board, layout, movers, v):
        for case_body, cells, effect in _outcomes(rules, movers, v, moved):
            after = _after(board, layout, turn, movers, cells, effect, v, n, lost=blocked)
            for choice in itertools.product(*negations) if negations else [()]:
                rule_body = [*body[:k], *choice, *body[k:], *gate_body, *case_body, *after.body]
                head = (stages.first(label, cells, after.next_turn, after.fields) if stages
                        else f"{head_move}{after.term}{tail}")
                out.append(f"{head} :- {', '.join(rule_body)}.")
    return out


def _own_moves(board: Board, role: str) -> bool:
    """A mechanism's move cases make the role's moves (its ``own_moves``): the ply reads no ``rmove``."""
    return any(own(board, role) for own in parts("own_moves"))


def _move_cases(board: Board, layout: Layout, movers, v: Vars):
    """(extra body, cell after the move per mover, {mover: turns lost} of the movers stopped) for
    each way the mechanisms treat the movers' steps (the gates: a step into a closed one): every
    mechanism's cases combined, one of each, a mover any of them stops where that one leaves it;
    one case, every mover where its ``rmove`` takes it, where none applies."""
    moved = {r: f"(PX{v.index[r]},PY{v.index[r]})" for r in movers}
    found = [cases for cases in (hook(board, layout, movers, v) for hook in parts("move_cases")) if cases is not None]
    out = []
    for combo in itertools.product(*found):
        cells, lost = dict(moved), {}
        for _, their_cells, their_lost in combo:
            for r, cell in their_cells.items():
                if cell != moved[r]:
                    if cells[r] != moved[r] and cells[r] != cell:
                        raise EncodingError(f"two mechanisms stop {r}'s move on different cells (an encoding bug)")
                    cells[r] = cell
            for r, turns in their_lost.items():
                if lost.setdefault(r, turns) != turns:
                    raise EncodingError(f"two mechanisms stop {r}'s move with different turns lost (an encoding bug)")
        out.append((list(dict.fromkeys(lit for extra, _, _ in combo for lit in extra)), cells, lost))
    return out


def factored_turns(board: Board, layout: Layout) -> list[tuple[tuple[str, ...], dict[str, tuple[str, ...]]]] | None:
    """The plies of the game graph as pieces moving each on its own, where the moves of
    :func:`move_rules` have that shape: the position term is the side and the cells alone (no
    mechanism's field: lost turns, ``was_on`` bits, items, knowledge, ...) and no two movers of one entry can cancel
    the ply (``collisions: stay``).  Then a ply of ``turns[t]`` from a position where no end
    holds moves each mover from its cell to where ``rdest`` takes it, with the aimed cell on
    none of the ``may_not_end_on`` pieces' cells, the other pieces stay and entry t+1 is to
    move.  Per entry: (movers, {mover: its may_not_end_on pieces}); None for other games."""
    rules = board.rules
    if layout.fields() or rules.script:      # (any mechanism's field; the gates' comes with a script)
        return None
    if rules.collisions == "stay" and any(len(movers) > 1 for movers in rules.turns):
        return None
    return [(tuple(movers), {r: tuple(rules.moves[r].may_not_end_on) for r in movers}) for movers in rules.turns]


def _outcomes(rules: Rules, movers, v: Vars, moved: dict | None = None):
    """(extra body, new cell per mover, ply has effect) for each collision case (``moved``: the
    cell each mover's move takes it to; default its ``rmove`` end)."""
    moved = moved or {r: f"(PX{v.index[r]},PY{v.index[r]})" for r in movers}
    if rules.collisions != "stay" or len(movers) < 2:
        yield [], moved, True
        return
    pairs = list(itertools.combinations(movers, 2))
    # no collision: every pair ends apart, or neither of the two left its cell
    for alternatives in itertools.product(*[
            [[f"{moved[a]} != {moved[b]}"], [f"{moved[a]} = {v.cell(a)}", f"{moved[b]} = {v.cell(b)}"]]
            for a, b in pairs]):
        yield [lit for alt in alternatives for lit in alt], moved, True
    # a collision: some pair ends on one cell and one of them moved; nothing changes
    stay = {r: v.cell(r) for r in movers}
    for a, b in pairs:
        for mover in (a, b):
            yield [f"{moved[a]} = {moved[b]}", f"{moved[mover]} != {v.cell(mover)}"], stay, False


def _hidden_turn_rules(board: Board, layout: Layout, turn: int, negations, v: Vars, n: Vars) -> list[str]:
    """The ply of a ``--hidden`` question's role, as a split edge: the role commits to its move
    M, the others answer what the cell it aims at holds, ``free`` or ``obstacle``; they choose
    only for a cell the role does not know, and place an obstacle of mark j (``placed(j)``)
    only while they have one left and the rules allow it there."""
    knows, rules = layout.knows, board.rules
    role, i, w = knows.role, v.index[knows.role], knows.words
    move = rules.moves[role]
    fields = layout.knowledge_variables()
    free, found, used = fields[:w], fields[w:2 * w], fields[2 * w:]
    bits = [f"HB{k}" for k in range(1, w + 1)]
    now = layout.state(str(turn))
    body = [f"{EXPAND}({now})", f"rmove({role},X{i},Y{i},M{i},AX{i},AY{i},PX{i},PY{i},B{i})"]
    body += [f"(AX{i},AY{i}) != {v.cell(p)}" for p in move.may_not_end_on]
    aim, here = f"(AX{i},AY{i})", v.cell(role)
    hbit = f"hbit(AX{i},AY{i},{','.join(bits)})"
    known_free = "+".join(f"({f}&{b})" for f, b in zip(free, bits))
    known_found = "+".join(f"({o}&{b})" for o, b in zip(found, bits))
    placed, total = "+".join(used), sum(knows.counts)
    stay, go, bump, moved = here, f"(PX{i},PY{i})", move.lose_turns, f"B{i}"
    cases = [  # (extra body, answer, cell after, turns lost, knowledge after)
        ([f"{aim} = {here}"], "free", go, moved, fields),
        ([f"{aim} != {here}", f"not hcand(AX{i},AY{i})"], "free", go, moved, fields),
        ([hbit, f"{known_free} > 0"], "free", go, moved, fields),
        ([hbit, f"{known_found} > 0"], "obstacle", stay, bump, fields),
        ([hbit, f"{known_free} + {known_found} = 0", f"{placed} < {total}"], "free", go, moved,
         [f"{f}?{b}" for f, b in zip(free, bits)] + found + used),
        ([hbit, f"{known_free} + {known_found} = 0", f"{placed} = {total}"], "free", go, moved, fields),
    ]
    for j, count in enumerate(knows.counts):
        more = [f"{k}+1" if k == used[j] else k for k in used]
        after_found = [f"{o}?{b}" for o, b in zip(found, bits)]
        base = [hbit, f"{known_free} + {known_found} = 0", f"{used[j]} < {count}", f"hallow({j + 1},AX{i},AY{i})"]
        cases.append((base + [f"{placed}+1 < {total}"], f"placed({j + 1})", stay, bump, free + after_found + more))
        cases.append((base + [f"{placed}+1 = {total}"], f"placed({j + 1})", stay, bump, ["0"] * w + after_found + more))
    out = []
    for extra, answer, cell, lost, know in cases:
        after = _after(board, layout, turn, (role,), {role: cell}, True, v, n, know, {role: str(lost)})
        for choice in itertools.product(*negations) if negations else [()]:
            rule_body = [*body[:1], *choice, *body[1:], *extra, *after.body]
            out.append(f"split_edge({now},M{i},{answer},{after.term}) :- {', '.join(rule_body)}.")
    return out


class Ply:
    """The position after a ply, as the mechanisms' ``after`` parts fill it in: the ply of
    ``turns[turn]`` by ``movers`` ending on ``final`` (cell text per piece; ``effect``: False
    where a collision cancelled it), ``lost`` turns per mover (default: what ``rmove`` says) and
    the knowledge fields after it (``knowledge``; None: unchanged).  The parts add ``body``
    literals and ``fields`` (in term order) and may change ``next_turn``."""

    def __init__(self, layout: Layout, turn: int, movers, final: dict, effect: bool, v: Vars, n: Vars,
                 knowledge: list[str] | None, lost: dict | None, next_turn: str):
        self.layout, self.turn, self.movers, self.final, self.effect = layout, turn, movers, final, effect
        self.v, self.n, self.knowledge, self.lost = v, n, knowledge, lost
        self.body: list[str] = []
        self.fields: list[str] = []
        self.next_turn = next_turn

    @property
    def term(self) -> str:
        cells = [self.final[role][1:-1] for role in self.layout.roles]
        return self.layout.term(self.next_turn, cells, self.fields)


def _after(board: Board, layout: Layout, turn: int, movers, cells: dict, effect: bool, v: Vars, n: Vars,
           knowledge: list[str] | None = None, lost: dict | None = None) -> Ply:
    """The position after the ply of ``turns[turn]`` with the movers on ``cells``; the knowledge
    fields become ``knowledge`` (default: unchanged) and a mover in ``lost`` loses that many
    turns (default: what ``rmove`` says).  The fields after the pieces are the mechanisms'
    (their ``after`` parts, in term order)."""
    final = {r: cells.get(r, v.cell(r)) for r in layout.roles}
    ply = Ply(layout, turn, movers, final, effect, v, n, knowledge, lost, str((turn + 1) % len(board.rules.turns)))
    for field in layout.fields():
        part = next(p for p in TERM if p.position is field)
        if part.after:
            part.after(ply)
    return ply


def game_rules(board: Board, layout: Layout, split_team: tuple[str, ...] = (), graph: bool = False) -> str:
    """End conditions and moves, with the domains ``{STATE}``/``{EXPAND}`` left open (``graph``:
    the moves as ``succ/2``, see :func:`move_rules`)."""
    return "\n".join(end_rules(board, layout) + [""] + move_rules(board, layout, split_team, graph))


def with_domain(text: str, state: str, expand: str) -> str:
    """Fill in the domains: ``state``/``expand`` replace ``{STATE}(``/``{EXPAND}(``, e.g. ``reach(``."""
    return text.replace(STATE + "(", state).replace(EXPAND + "(", expand)
