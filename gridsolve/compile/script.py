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

from ..language.model import Board, ScriptAction
from .state import START, Layout

EXPAND = "{EXPAND}"
STAGE, END = "stg", "stg_end"


class StageVars:
    """The variables of a stage atom for one game."""

    def __init__(self, board: Board, layout: Layout, named: bool):
        self.board, self.layout, self.named = board, layout, named
        rules = board.rules
        self.index = {p: i for i, p in enumerate(layout.roles, 1)}
        self.chasers = [p for p in layout.roles if p in rules.chasers]
        self.carrier = "S,M" if named else "S"
        turn_start = layout.state('OT', 'O')     # the turn-start fields, O-prefixed
        # (S: the position the ply starts from, or a start that is not judged, START(position))
        self.start_terms = [f"S = {turn_start}"] + ([f"S = {START}({turn_start})"] if not rules.judge_start else [])

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
        names += [self.alive(p) for p in self.chasers] + ["G", "U"]
        return ",".join(change.get(n, n) for n in names)

    def atom(self, stage: int, change: dict | None = None) -> str:
        return f"{STAGE}({stage},{self.carrier},{self.fields(change)})"

    def end_atom(self, change: dict | None = None) -> str:
        return f"{END}({self.carrier},{self.fields(change)})"


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
        x, y = sv.cell(piece)
        yes.append(f"mark({mark},{x},{y})")
        no.append([f"not mark({mark},{x},{y})"])
    return yes, no


def board_actions(board: Board) -> list[ScriptAction]:
    """The script's actions that can have an effect on this board."""
    gates = board.has_gates and any(board.marks.get(board.rules.gate_key or "", ()))
    out = []
    for action in board.rules.script:
        if action.kind == "key":
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
        piece = action.pieces[0]
        chaser = board.rules.chasers[piece]
        x, y = sv.cell(piece)
        tx, ty = sv.cell(chaser.target)
        alive = sv.alive(piece)
        out.append(f"{nxt({x: 'NX', y: 'NY'})} :- {now}, {alive} = 1, sgn({tx}-{x},SX), sgn({ty}-{y},SY), "
                   f"chase({chaser.first},{x},{y},SX,SY,G,NX,NY).")
        out.append(f"{nxt()} :- {now}, {alive} = 0.")
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


def script_rules(board: Board, layout: Layout, negations: list[list[str]], head, next_turn: str,
                 named: bool) -> list[str]:
    """The rules of the ply of ``turns[0]`` followed by the rules' script.  ``negations``: per
    live end, the alternatives of its negation over the position's variables (a position where
    an end holds has no move); ``head(term)``: the head that records a ply from S to ``term``
    (``edge(S,M,term)`` or the game graph's ``succ(S,term,...)``)."""
    rules = board.rules
    sv = StageVars(board, layout, named)
    role = rules.turns[0][0]
    i = sv.index[role]
    move = rules.moves[role]
    now = layout.state("0")
    out = ["% - The ply and its after_ply script, stage by stage (gridsolve/compile/script.py) ---"]
    # a chaser is on the board when its x is not 0: (X+W)/(W+1) is 0 for x = 0, 1 for 1..W
    begin = {sv.alive(p): f"({sv.cell(p)[0]}+{board.width})/{board.width + 1}" for p in sv.chasers}
    begin["U"] = "0"
    if not layout.gate:
        begin["G"] = "0"
    body = [f"{EXPAND}(S)", f"S = {now}", f"rmove({role},X{i},Y{i},M,AX{i},AY{i},PX{i},PY{i},B{i})"]
    body += [f"(AX{i},AY{i}) != ({sv.cell(p)[0]},{sv.cell(p)[1]})" for p in move.may_not_end_on]
    go = {f"X{i}": f"PX{i}", f"Y{i}": f"PY{i}"}
    gated = layout.gate and board.has_gates
    cases = ([(["G = 0", f"gate_cross(X{i},Y{i},PX{i},PY{i})"], {}),
              (["G = 1"], go), ([f"not gate_cross(X{i},Y{i},PX{i},PY{i})"], go)] if gated else [([], go)])
    if gated and move.blocked == "illegal":     # a step into a closed gate is illegal, as one into a wall
        cases = cases[1:]
    for choice in itertools.product(*negations) if negations else [()]:
        for extra, cells in cases:
            out.append(f"{sv.atom(0, {**begin, **cells})} :- {', '.join([*body[:2], *choice, *body[2:], *extra])}.")
    if not rules.judge_start:       # a start that is not judged: the moves of its position, whatever end holds
        for extra, cells in cases:
            unjudged = [body[0], f"S = {START}({now})", *body[2:], *extra]
            out.append(f"{sv.atom(0, {**begin, **cells})} :- {', '.join(unjudged)}.")
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
    term = layout.term(next_turn, final, ["G"] if layout.gate else [])
    out.append(f"{head(term)} :- {sv.end_atom()}.")
    return out
