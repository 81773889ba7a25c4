"""Positions and queries: what the user asks about, checked against the board."""
from __future__ import annotations

from dataclasses import dataclass, replace

from ..errors import EncodingError, QueryError
from ..mechanisms.registry import MECHANISMS as REGISTERED
from .celltext import board_cell
from .kinds import QueryKind
from .model import OFF_BOARD, Board, Cell

QUERY_KINDS = tuple(kind.value for kind in QueryKind)    # the words --query accepts


@dataclass(frozen=True)
class Position:
    """Where every piece stands, which ``turns`` entry is to move, the step number of the
    original game, and the state the rules' mechanisms keep:

    * ``items``: per collectible (in rule order), the cells that still hold an item
      (None: as the board starts);
    * ``lost``: per ``turns`` entry, how many of its next turns are skipped (empty: none);
    * ``was``: the (piece, mark) pairs of ``was_on`` conditions that held in the position before;
    * ``free``, ``found``: what the role of a ``--hidden`` question knows of the marks hidden
      from it: cells it knows free (besides the cell it stands on), and the (mark, cell) pairs
      of the obstacles it found by bumping;
    * ``plugins``: the state of the mechanisms that keep theirs with them ((name, state) each,
      sorted by name; a mechanism left out: as the board starts), read with :meth:`plugin`.
    """

    pieces: tuple[tuple[str, Cell], ...]
    side: int
    step: int
    items: tuple[tuple[str, frozenset], ...] | None = None
    lost: tuple[int, ...] = ()
    was: frozenset = frozenset()
    free: frozenset = frozenset()
    found: frozenset = frozenset()
    gates_open: bool = False      # the board's gates are open (they start closed)
    plugins: tuple[tuple[str, object], ...] = ()

    def cell(self, piece: str) -> Cell:
        return dict(self.pieces)[piece]

    def plugin(self, name: str, default=None):
        """The state the mechanism ``name`` keeps in this position (``default``: as the board starts)."""
        return dict(self.plugins).get(name, default)

    def with_plugin(self, name: str, state) -> "Position":
        """This position with the mechanism ``name``'s state ``state``."""
        return replace(self, plugins=tuple(sorted({**dict(self.plugins), name: state}.items())))

    def items_left(self, board: Board) -> dict[str, frozenset]:
        """{collectible: cells still holding an item}."""
        if self.items is None:
            return {name: board.marks.get(c.mark, frozenset()) for name, c in board.rules.collect.items()}
        return dict(self.items)

    def lost_turns(self, board: Board) -> tuple[int, ...]:
        return self.lost or (0,) * len(board.rules.turns)

    def as_dict(self, board: Board, strategy: bool = False) -> dict:
        """The position as JSON: as an answer writes it (docs/answers.md), or with ``strategy`` as
        a ``--strategy`` file writes each position (the position term's fields: no step, the items
        the term keeps, ``lost_turns`` a list by turns entry, no knowledge)."""
        out = {
            "pieces": {p: list(c) for p, c in self.pieces if c != OFF_BOARD},
            "turn": list(board.rules.turns[self.side]),
        }
        rules = board.rules
        if strategy:
            for name, left in self.items or ():
                out.setdefault("items", {})[name] = sorted(list(c) for c in left)
            if any(self.lost):
                out["lost_turns"] = list(self.lost)
            if board.has_gates:
                out["gates"] = "open" if self.gates_open else "closed"
            return self._plugins_json(board, out, strategy)
        out["step"] = self.step
        if rules.collect:
            left = self.items_left(board)
            out["items"] = {name: sorted(list(c) for c in left[name]) for name in rules.collect}
            out["collected"] = {name: len(board.marks.get(c.mark, ())) - len(left[name])
                                for name, c in rules.collect.items()}
        if any(self.lost):
            out["lost_turns"] = {"+".join(rules.turns[t]): n for t, n in enumerate(self.lost) if n}
        if self.was:
            out["was_on"] = {piece: mark for piece, mark in sorted(self.was)}
        if self.free:
            out["known_free"] = sorted(list(c) for c in self.free)
        if self.found:
            out["found"] = sorted([mark, list(c)] for mark, c in self.found)
        if board.has_gates:
            out["gates"] = "open" if self.gates_open else "closed"
        return self._plugins_json(board, out, strategy)

    def _plugins_json(self, board: Board, out: dict, strategy: bool) -> dict:
        """``out`` with each mechanism's keys of its own state (its ``position_json``)."""
        for mechanism in REGISTERED:
            if mechanism.position_json is not None:
                out.update(mechanism.position_json(board, self, strategy))
        return out


def next_turn(turn: int, lost: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """The ``turns`` entry after ``turn`` and the lost-turn counters after skipping (each entry
    with turns to lose is skipped once and loses one)."""
    lost = list(lost)
    nxt = (turn + 1) % len(lost)
    while lost[nxt] > 0:
        lost[nxt] -= 1
        nxt = (nxt + 1) % len(lost)
    return nxt, tuple(lost)


def end_at(board: Board, position: Position) -> str | None:
    """The end that decides ``position`` by the rules' ``ends`` (the first that holds; None where
    none does), as the compiled end conditions judge it: cells equal (a piece off the board
    stands on (0,0)), a mark on the piece's cell, ``was_on`` pairs and items taken.  (A rule set
    that does not judge its start has no ``nearer`` end: the loader refuses it.)"""
    cells = dict(position.pieces)
    left = position.items_left(board) if board.rules.collect else {}

    def holds(when) -> bool:
        if when.nearer:
            raise EncodingError("an end with 'nearer' is not judged at the start (the loader refuses it)")
        if any(len({cells[p] for p in group}) > 1 for group in when.same_cell):
            return False
        if any(cells[piece] not in board.marks.get(mark, ()) for piece, mark in when.reaches):
            return False
        if any(pair not in position.was for pair in when.was_on):
            return False
        for name, at_least in when.collected:
            total = len(board.marks.get(board.rules.collect[name].mark, ()))
            if total - len(left[name]) < (total if at_least < 0 else at_least):
                return False
        return all(mechanism.holds(when, board, position) for mechanism in REGISTERED if mechanism.holds)
    return next((end.name for end in board.rules.ends if holds(end.when)), None)


def unjudged_start(board: Board, position: Position) -> bool:
    """Whether ``position`` is a start the rules do not judge (``judge_start: false``): the
    position at the game's first step where an end holds.  A position reached by a ply (a later
    step) is judged as usual."""
    return (not board.rules.judge_start and position.step == board.rules.first_step
            and end_at(board, position) is not None)


@dataclass(frozen=True)
class Query:
    role: str
    kind: QueryKind = QueryKind.VALUE
    position: Position | None = None
    horizon: int | None = None
    strategy: bool = False
    hidden: bool = False      # the robust game: the role knows only what it has seen

    def __post_init__(self):
        object.__setattr__(self, "kind", QueryKind(self.kind))   # "win" from a caller becomes QueryKind.WIN

    def remaining(self, board: Board) -> int:
        left = board.rules.last_step - self.position.step
        return left if self.horizon is None else min(left, self.horizon)


def initial_position(board: Board) -> Position:
    return Position(start_pieces(board, board.pieces), 0, board.rules.first_step)


def start_pieces(board: Board, cells: dict) -> tuple[tuple[str, Cell], ...]:
    """Every piece of the rules on its cell in ``cells``; a piece left out is off the board."""
    return tuple((p, cells.get(p, OFF_BOARD)) for p in board.rules.pieces)


def parse_placement(text: str, board: Board) -> tuple[str, Cell]:
    """``PIECE=X,Y`` as written after ``--at``."""
    if "=" not in text:
        raise QueryError(f"--at {text}: expected PIECE=X,Y, e.g. --at explorer=3,4")
    piece, _, where = text.partition("=")
    piece = piece.strip()
    if piece not in board.rules.pieces:
        raise QueryError(f"--at {text}: unknown piece '{piece}'",
                         f"the pieces of {board.name} are: {', '.join(board.rules.pieces)}")
    return piece, board_cell(f"--at {text}", where, board)


GATE_STATES = ("open", "closed")       # the words --gates accepts


def make_position(board: Board, at: tuple[str, ...] = (), turn: str | None = None,
                  step: int | None = None, gates: str | None = None) -> Position:
    """The initial position with ``--at`` placements, ``--turn``, ``--step`` and ``--gates``
    (open or closed; None: closed, as every board starts) applied.

    With ``--step`` but no ``--turn``, the side to move follows from the step number (turns
    alternate from the first step); with ``--turn`` but no ``--step``, the step is the first
    one at which that side moves.
    """
    rules = board.rules
    pieces = dict(board.pieces)
    for text in at:
        piece, cell = parse_placement(text, board)
        if piece not in pieces and piece not in rules.roles:
            raise QueryError(f"--at {text}: {board.name} leaves the piece '{piece}' out, and a piece the board "
                             "leaves out takes no part in its game",
                             f"draw it on the board instead (pieces: {{{piece}: [{cell[0]}, {cell[1]}]}})")
        pieces[piece] = cell
    if turn is not None and turn not in rules.roles:
        raise QueryError(f"--turn {turn}: unknown role", f"roles are: {', '.join(rules.roles)}")
    if step is not None and not rules.first_step <= step <= rules.last_step:
        raise QueryError(f"--step {step}: outside the game's steps {rules.first_step}..{rules.last_step}")
    if turn is not None:
        side = rules.side_of(turn)
    elif step is not None:
        side = (step - rules.first_step) % len(rules.turns)
    else:
        side = 0
    if step is None:
        step = rules.first_step + side
    if gates is not None and gates not in GATE_STATES:
        raise QueryError(f"--gates {gates}: unknown state", "use open or closed")
    if gates is not None and not board.has_gates:
        raise QueryError(f"--gates {gates}: {board.name} has no gate", "leave out --gates")
    position = Position(start_pieces(board, pieces), side, step, gates_open=gates == "open")
    for mechanism in REGISTERED:        # (a mechanism's own state may rule a placement out: a piece on a crate)
        if mechanism.check_position is not None:
            mechanism.check_position(board, position)
    return position


def make_query(board: Board, role: str | None = None, kind: QueryKind | str = QueryKind.VALUE, *,
               at: tuple[str, ...] = (), turn: str | None = None, step: int | None = None,
               gates: str | None = None, horizon: int | None = None, strategy: bool = False,
               hidden: bool = False, free: tuple[str, ...] = (), found: tuple[str, ...] = ()) -> Query:
    """Check the command-line query against the board and build it (``hidden``: the robust
    question, with the role's knowledge from ``--free`` and ``--found``); all but the board, the
    role and the kind by keyword."""
    rules = board.rules
    role = role or rules.roles[0]
    if role not in rules.roles:
        raise QueryError(f"--role {role}: unknown role", f"roles are: {', '.join(rules.roles)}")
    if kind not in QUERY_KINDS:
        raise QueryError(f"--query {kind}: unknown query", f"use one of: {', '.join(QUERY_KINDS)}")
    if horizon is not None and horizon < 0:
        raise QueryError(f"--horizon {horizon}: must be 0 or more")
    position = make_position(board, at, turn, step, gates)
    if (free or found) and not hidden:
        raise QueryError("--free and --found state what the role knows: they need --hidden")
    if hidden and rules.script:
        raise QueryError("--hidden: the robust question is not answered for rules with pieces moved by rule "
                         "(after_ply) yet", "ask without --hidden: the answer with full information")
    if hidden and rules.own_state:
        raise QueryError(f"--hidden: the robust question is not answered for rules with {', '.join(sorted(rules.own_state))} "
                         "yet", "ask without --hidden: the answer with full information")
    if hidden:
        from .secret import knowledge_of      # the secret marks' rules
        position = replace(position, **knowledge_of(board, role, position, free, found))
    elif board.unplaced:
        raise QueryError(f"{board.name} leaves {', '.join(sorted(board.unplaced))} unplaced",
                         "ask with --hidden (the robust answer), or place them in the board file")
    if strategy and hidden:
        raise QueryError("--strategy: not for --hidden questions", "per-move values show the best play")
    return Query(role, QueryKind(kind), position, horizon, strategy, hidden)
