"""The rules of a ply followed by an ``after_ply`` script: pieces moved by rule (chasers), pieces
that leave the board, gates and their key (docs/rule-language.md, "Pieces moved by rule").

The ply is a chain of *stages*, one ground atom per stage and move::

    stg(K, S, M, X1,Y1, ..., Xn,Yn, A.., G, U)

``S`` is the position the ply starts from (its fields are read as ``O``-prefixed variables:
the turn-start cells and gate state), ``M`` the move (left out of the game graph's atoms),
``Xi,Yi`` the pieces' cells now, ``Ai`` per chaser 1 while it is on the board (a removed
chaser keeps its cell until the ply ends, so it can be met again), ``G`` the gates (1: open)
and ``U`` whether the key was used this ply.  Stage 0 is the roles' move; each action of
the script takes stage K to K+1 (an action over several pieces, one stage per piece, in
order); a ``stop`` that holds ends the ply at once (``stg_end``).  The ply's position is
the last stage with every removed chaser on (0,0).

Actions are compiled per board: an action about a piece the board leaves out, a key action
on a board without gates, and a ``stop`` that can never hold are skipped.
"""
from __future__ import annotations

import itertools

from ..language.model import Board, Rules
from ..language.script import ScriptAction
from ..mechanisms.encodings import parts
from .predicates import MARK
from .state import START, Layout

EXPAND = "{EXPAND}"
STAGE, END = "stg", "stg_end"


class StageVars:
    """The variables of a stage atom for one game (``split``: the ``turns`` entries whose plies
    are split edges, the team of the question committing first)."""

    def __init__(self, board: Board, layout: Layout, named: bool, split: frozenset = frozenset()):
        self.board, self.layout, self.named, self.split = board, layout, named, split
        rules = board.rules
        self.index = {p: i for i, p in enumerate(layout.roles, 1)}
        self.chasers = [p for p in layout.roles if p in rules.chasers]
        self.carrier = "S,M" if named else "S"
        turn_start = layout.state('OT', 'O')     # the turn-start fields, O-prefixed
        # (S: the position the ply starts from, or a start that is not judged, START(position))
        self.start_terms = [f"S = {turn_start}"] + ([f"S = {START}({turn_start})"] if not rules.judge_start else [])
        # what the roles' move decided and the script does not change, carried to the ply's
        # position: the entry to move next and the fields but the gates' (lost turns, was_on
        # bits, items); none where there is one entry and no such field
        # per piece a key action with each_entry names: 1 while it has just entered its cell (by
        # its latest move or step) and has not flipped the gates for that entry
        self.entering = list(dict.fromkeys(p for a in board_actions(board) if a.kind == "key" and a.each
                                           for p in a.pieces))
        kept = len(layout.variables()) - (1 if layout.gate else 0)
        carried = len(rules.turns) > 1 or kept > 0
        self.carried = [f"Z{k}" for k in range(1 + kept)] if carried else []

    def kept(self) -> dict[str, str]:
        """{layout variable: its variable in the stages} of the fields the script does not change
        (every field but the gates', carried from the roles' move)."""
        return dict(zip(self.layout.variables(), self.carried[1:]))

    def cell(self, piece: str) -> tuple[str, str]:
        i = self.index[piece]
        return f"X{i}", f"Y{i}"

    def start(self, piece: str) -> tuple[str, str]:
        i = self.index[piece]
        return f"OX{i}", f"OY{i}"

    def alive(self, piece: str) -> str | None:
        return f"A{self.index[piece]}" if piece in self.board.rules.chasers else None

    def fields(self, change: dict | None = None) -> str:
        """The stage's fields, with the variables in ``change`` replaced by expressions."""
        change = change or {}
        names = [v for p in self.layout.roles for v in self.cell(p)]
        names += [self.alive(p) for p in self.chasers] + ["G", "U"] + [self.entered(p) for p in self.entering]
        names += self.carried
        return ",".join(change.get(n, n) for n in names)

    def entered(self, piece: str) -> str:
        return f"E{self.index[piece]}"

    def atom(self, stage: int, change: dict | None = None, carrier: str | None = None) -> str:
        return f"{STAGE}({stage},{carrier or self.carrier},{self.fields(change)})"

    def end_atom(self, change: dict | None = None, carrier: str | None = None) -> str:
        return f"{END}({carrier or self.carrier},{self.fields(change)})"

    def first(self, label: str, cells: dict, turn: str, fields: list[str]) -> str:
        """Stage 0 of a ply from S: the roles' move ``label`` took the movers to ``cells``
        (``(x,y)`` text per mover), ``turn`` is to move next and the position keeps ``fields``
        (the variables of S's pieces and gates are read in the rule's body)."""
        # a chaser is on the board when its x is not 0: (X+W)/(W+1) is 0 for x = 0, 1 for 1..W
        width = self.board.width
        change = {self.alive(p): f"({self.cell(p)[0]}+{width})/{width + 1}" for p in self.chasers}
        change["U"] = "0"
        if not self.layout.gate:
            change["G"] = "0"
        change.update({self.entered(p): "0" for p in self.entering})
        for piece, text in cells.items():
            x, y = text[1:-1].split(",")
            change.update(zip(self.cell(piece), (x, y)))
            if piece in self.entering:      # (one-step moves, with gates: a move changes 0 or 1 cell)
                ox, oy = self.cell(piece)
                change[self.entered(piece)] = f"|{x}-{ox}|+|{y}-{oy}|"
        change.update(zip(self.carried, [turn, *fields]))
        return self.atom(0, change, f"S,{label}" if self.named else "S")


def one_mover_script(rules: Rules) -> bool:
    """Whether the rules have a script after the plies of one role alone, moving one step, in a
    position of the pieces' cells and the gates only (:attr:`Rules.one_mover_script`): the games
    :mod:`gridsolve.solve.graph.scripted`'s tables join in arrays (the compiled program answers
    the others)."""
    return rules.one_mover_script


def _present(board: Board, piece: str) -> bool:
    return piece in board.rules.roles or piece in board.pieces


def _qualifies(sv: StageVars, piece: str, key: bool) -> tuple[list[str], list[list[str]]]:
    """(literals: ``piece`` is on the board[, on the key cell, not on its turn-start cell]; the
    alternatives of its negation, one literal list each)."""
    x, y = sv.cell(piece)
    alive = sv.alive(piece)
    yes = [f"{alive} = 1"] if alive else []
    no = [[f"{alive} = 0"]] if alive else []
    if key:
        ox, oy = sv.start(piece)
        yes += [f"key_cell({x},{y})", f"({x},{y}) != ({ox},{oy})"]
        no += [[f"not key_cell({x},{y})"], [f"({x},{y}) = ({ox},{oy})"]]
    return yes, no


def _condition(sv: StageVars, action: ScriptAction) -> tuple[list[str], list[list[str]]] | None:
    """A ``stop`` condition over the pieces on the board: (literals, alternatives of its
    negation); None when it can never hold on this board."""
    board, when = sv.board, action.when
    yes, no = [], []
    for group in when.same_cell:
        if not all(_present(board, p) for p in group):
            return None
        for piece in group:
            alive_yes, alive_no = _qualifies(sv, piece, key=False)
            yes += alive_yes
            no += alive_no
        first = sv.cell(group[0])
        for other in group[1:]:
            a, b = f"({first[0]},{first[1]})", "({},{})".format(*sv.cell(other))
            yes.append(f"{a} = {b}")
            no.append([f"{a} != {b}"])
    for piece, mark in when.reaches:
        if not _present(board, piece) or not board.marks.get(mark):
            return None
        alive_yes, alive_no = _qualifies(sv, piece, key=False)     # (a removed chaser reaches nothing)
        x, y = sv.cell(piece)
        yes += alive_yes + [MARK.atom(mark, x, y)]
        no += alive_no + [[f"not {MARK.atom(mark, x, y)}"]]
    return yes, no


def board_actions(board: Board) -> list[ScriptAction]:
    """The script's actions that can have an effect on this board."""
    gates = board.has_gates and any(board.marks.get(board.rules.gate_key or "", ()))
    out = []
    for action in board.rules.script:
        if action.kind == "key" and action.each:
            if gates:
                out += [ScriptAction("key", (p,), each=True) for p in action.pieces if _present(board, p)]
        elif action.kind == "key":
            pieces = tuple(p for p in action.pieces if _present(board, p))
            if gates and pieces:
                out.append(ScriptAction("key", pieces, action.uses))
        elif action.kind == "step":
            for piece in action.pieces:
                if _present(board, piece):
                    out.append(ScriptAction("step", (piece,)))
        elif action.kind == "remove":
            if _present(board, action.piece):
                for remover in action.pieces:
                    if _present(board, remover):
                        out.append(ScriptAction("remove", (remover,), piece=action.piece,
                                                flips=action.flips and gates))
        else:
            out.append(action)
    return out


def _stage_rules(sv: StageVars, stage: int, action: ScriptAction) -> list[str] | None:
    """The rules from stage ``stage`` to ``stage + 1`` (None: the action is inert here)."""
    now, nxt = sv.atom(stage), lambda change=None: sv.atom(stage + 1, change)
    board = sv.board
    out = []
    if action.kind == "stop":
        cond = _condition(sv, action)
        if cond is None:
            return None
        yes, no = cond
        out.append(f"{sv.end_atom()} :- {', '.join([now, *yes])}.")
        out += [f"{nxt()} :- {', '.join([now, *alt])}." for alt in no]
    elif action.kind == "step":
        out += _chaser_step_rules(sv, now, nxt, action.pieces[0])
    elif action.kind == "remove":
        remover, piece = action.pieces[0], action.piece
        a, b = "({},{})".format(*sv.cell(remover)), "({},{})".format(*sv.cell(piece))
        yes, no = _qualifies(sv, remover, key=False)
        gone = {sv.alive(piece): "0"}
        met = [now, *yes, f"{a} = {b}"]
        if action.flips:
            out.append(f"{nxt({**gone, 'G': '1-G'})} :- {', '.join(met)}, key_cell{b}.")
            out.append(f"{nxt(gone)} :- {', '.join(met)}, not key_cell{b}.")
        else:
            out.append(f"{nxt(gone)} :- {', '.join(met)}.")
        out += [f"{nxt()} :- {', '.join([now, *alt])}." for alt in no + [[f"{a} != {b}"]]]
    elif action.each:       # a key that every entry flips: the piece has just entered a key cell
        piece = action.pieces[0]
        x, y = sv.cell(piece)
        flag = sv.entered(piece)
        alive = sv.alive(piece)
        on = [f"{alive} = 1"] if alive else []
        out.append(f"{nxt({'G': '1-G', flag: '0'})} :- {', '.join([now, *on, f'{flag} = 1', f'key_cell({x},{y})'])}.")
        out += [f"{nxt()} :- {now}, {lit}." for lit in [f"{flag} = 0", f"not key_cell({x},{y})"]
                + ([f"{alive} = 0"] if alive else [])]
    else:   # key
        out.append(f"{nxt()} :- {now}, U = 1.")
        declined = []
        for piece in action.pieces:
            yes, no = _qualifies(sv, piece, key=True)
            used = "1" if piece in action.uses else "U"
            for earlier, start in itertools.product(itertools.product(*declined), sv.start_terms):
                body = [now, "U = 0", *[lit for alt in earlier for lit in alt], *yes, start]
                out.append(f"{nxt({'G': '1-OG', 'U': used})} :- {', '.join(body)}.")
            declined.append(no)
        for earlier, start in itertools.product(itertools.product(*declined), sv.start_terms):
            body = [now, "U = 0", *[lit for alt in earlier for lit in alt], start]
            out.append(f"{nxt()} :- {', '.join(body)}.")
    return out


def chaser_obstacles(sv: StageVars, x: str, y: str, tag: str) -> tuple[list[str], list[list[str]]] | None:
    """(literals: the cell (x,y) holds no mechanism's obstacle to chasers, alternatives that it
    holds one); None where no mechanism puts any in a chaser's way (its ``chaser_obstacle``)."""
    found = [f for f in (hook(sv.layout, sv.kept(), x, y, tag) for hook in parts("chaser_obstacle")) if f is not None]
    if not found:
        return None
    return [lit for clear, _ in found for lit in clear], [alt for _, blocked in found for alt in blocked]


def _chaser_step_rules(sv: StageVars, now: str, nxt, piece: str) -> list[str]:
    """A chaser's step (encodings/script.lp, ``chase``): its first open step toward its target on
    its first axis, else on the other, else it stays.  Where a mechanism puts obstacles in its way
    (:func:`chaser_obstacles`), a step onto one is tried as one into a wall: the first step is
    taken where it is open and its cell clear, the second where the first is not taken (not open,
    or its cell holds an obstacle) and it is open and clear, else the chaser stays."""
    chaser = sv.board.rules.chasers[piece]
    x, y = sv.cell(piece)
    tx, ty = sv.cell(chaser.target)
    alive = sv.alive(piece)
    aim = [now, f"{alive} = 1", f"sgn({tx}-{x},SX)", f"sgn({ty}-{y},SY)"]
    chase = f"{chaser.first},{x},{y},SX,SY,G"

    def went(nx: str, ny: str) -> dict:
        change = {x: nx, y: ny}
        if piece in sv.entering:
            change[sv.entered(piece)] = f"|{nx}-{x}|+|{ny}-{y}|"
        return change

    removed = f"{nxt()} :- {now}, {alive} = 0."
    obstacles = [chaser_obstacles(sv, f"NX{k}", f"NY{k}", str(k)) for k in (1, 2)]
    if obstacles[0] is None:
        return [f"{nxt(went('NX', 'NY'))} :- {', '.join(aim)}, chase({chase},NX,NY).", removed]
    tried = [f"chase_try({chase},{k},NX{k},NY{k})" for k in (1, 2)]
    # the k-th step is not taken: not open, or open onto an obstacle
    passed = [[[f"not tries({chase},{k})"]] + [[tried[k - 1], *alt] for alt in obstacles[k - 1][1]] for k in (1, 2)]
    out = [f"{nxt(went('NX1', 'NY1'))} :- {', '.join([*aim, tried[0], *obstacles[0][0]])}."]
    out += [f"{nxt(went('NX2', 'NY2'))} :- {', '.join([*aim, *first, tried[1], *obstacles[1][0]])}." for first in passed[0]]
    out += [f"{nxt(went(x, y))} :- {', '.join([*aim, *first, *second])}."
            for first, second in itertools.product(*passed)]
    return out + [removed]


def script_rules(sv: StageVars, head) -> list[str]:
    """The rules of the script's stages after stage 0 (written per ply by
    :func:`gridsolve.compile.gamerules.move_rules`, with :meth:`StageVars.first`), and the ply's
    move from the last stage.  ``head(term, split)``: the head that records a ply from S to
    ``term`` (``edge(S,M,term)``, ``split_edge(S,MT,MO,term)`` for ``split`` = ``"MT,MO"``, or
    the game graph's ``succ(S,term,...)``)."""
    board, layout = sv.board, sv.layout
    out = []
    stage = 0
    for action in board_actions(board):
        rules_k = _stage_rules(sv, stage, action)
        if rules_k is not None:
            out += rules_k
            stage += 1
    out.append(f"{sv.end_atom()} :- {sv.atom(stage)}.")
    final = []
    for p in layout.roles:
        x, y = sv.cell(p)
        alive = sv.alive(p)
        final.append(f"{x}*{alive},{y}*{alive}" if alive else f"{x},{y}")
    turn, kept = (sv.carried[0], sv.carried[1:]) if sv.carried else ("0", [])
    term = layout.term(turn, final, kept + (["G"] if layout.gate else []))
    if not sv.split or not sv.named:
        out.append(f"{head(term, None)} :- {sv.end_atom()}.")
        return out
    for t in range(len(board.rules.turns)):     # per entry: the split ones are split edges
        carrier = "S,sp(MT,MO)" if t in sv.split else None
        entry = layout.state(str(t), "O")
        for start in [entry] + ([f"{START}({entry})"] if not board.rules.judge_start else []):
            out.append(f"{head(term, 'MT,MO' if t in sv.split else None)} :- {sv.end_atom(carrier=carrier)}, "
                       f"S = {start}.")
    return out
