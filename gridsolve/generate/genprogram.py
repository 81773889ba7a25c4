"""The clingo program that proposes layouts for one request: encodings/generate.lp and its facts.

Three parts of the encoding, each with the facts written here:

* ``base`` (always): walls, piece starts, marks, the structural constraints, and the role's
  distance to its goal when the plies bound it;
* ``chase`` and ``blind``, for games of the shape :func:`chase_facts` checks (a role steps
  to a goal while hunters try to catch it): ``chase`` rules out layouts where a hunter can
  get to a cell the role must pass before the role can, and stay there (the role cannot win:
  a necessary condition, so no winnable layout is lost); ``blind`` rules out levels where
  walking a shortest path already wins (unless trivial levels are asked for);
* ``game``: the whole game-theoretic requirement, with the compiled game rules of every
  position (small boards: the ground program grows with positions times plies).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass

from ..compile.predicates import (BLIND_MOVES, DIM, GOAL_MARK, GOAL_STEPS, HUNTER, KEEP_AT, KEEP_MARK, LEVEL,
                                  MARK_CELLS, ON_BORDER, PIECE, RACE_ATTACKER, RACE_NOT_WITHIN, RACE_TARGET,
                                  RACE_WITHIN, ROLE_PIECE, ROOT, SEALED_OK, START_AT, SYMMETRIC, WALL_RANGE)
from ..compile.state import layout_for
from ..solve.program.explore import game_program
from ..analysis.ends import goal_ends
from .genspec import GameSpec, Requirement, role_moves
from ..language.position import Position
from ..resources import encoding
from ..language.kinds import RequireKind


@dataclass(frozen=True)
class Structure:
    """The structural part of a request."""

    walls: tuple                     # (min, max) interior walls
    symmetry: str | None = None      # "mirror" or "turn"
    sealed_ok: bool = False
    keep: tuple = ()                 # (("at" | "mark", name, cells), ...): placed as given


def base_facts(spec: GameSpec, req: Requirement, structure: Structure) -> str:
    board = spec.template
    out = [DIM.fact(board.width, board.height), WALL_RANGE.fact(structure.walls[0], structure.walls[1])]
    out += [PIECE.fact(p) for p in spec.pieces]
    out += [MARK_CELLS.fact(m, n) for m, n in spec.marks.items()]
    out += [ON_BORDER.fact(m) for m in sorted(spec.border_marks)]
    out += [ROLE_PIECE.fact(spec.role), *[GOAL_MARK.fact(m) for m in spec.goal_marks]]
    if structure.symmetry:
        out.append(SYMMETRIC.fact(structure.symmetry))
    if structure.sealed_ok:
        out.append(SEALED_OK.fact())
    keep = {"at": KEEP_AT, "mark": KEEP_MARK}
    out += [keep[kind].fact(name, x, y) for kind, name, cells in structure.keep for x, y in cells]
    if req.kind == RequireKind.WIN and _goals_need_marks(spec):
        # Winning within the band's last ply: the role moves at most that often.
        most = role_moves(board, spec.role, req.plies[1]) * board.rules.moves[spec.role].steps
        out.append(GOAL_STEPS.fact(0, most))
    return "\n".join(out)


def _goals_need_marks(spec: GameSpec) -> bool:
    """Every end that gives the role its top score needs it on a goal mark."""
    ends = {e.name: e for e in spec.template.rules.ends}
    goals = goal_ends(spec.template, spec.role)
    return bool(goals) and all(any(p == spec.role for p, _ in ends[g].when.reaches) for g in goals)


def chase_facts(spec: GameSpec, req: Requirement) -> str | None:
    """Facts for the ``chase`` and ``blind`` parts, or None when the game is not of their
    shape: the role moves first, one step a move, in a game of two turns entries; its ends are
    being caught by a hunter (before, in the rules' order) and reaching a goal mark; the
    hunters' moves do not depend on where the role stands."""
    rules, role = spec.template.rules, spec.role
    if req.kind != RequireKind.WIN or not spec.goal_marks or not spec.hunters:
        return None
    if len(rules.turns) != 2 or tuple(rules.turns[0]) != (role,) or set(rules.turns[1]) != set(spec.hunters):
        return None
    if rules.collect or rules.timeout_when or rules.collisions != "allowed":
        return None
    mine = rules.moves[role]
    if mine.steps != 1 or mine.frozen_on or mine.bump_on:
        return None
    for hunter in spec.hunters:
        move = rules.moves[hunter]
        if move.may_not_end_on or move.frozen_on or move.bump_on:
            return None
    kinds = [_end_kind(end, spec) for end in rules.ends]
    if None in kinds or kinds != sorted(kinds):          # every capture comes before every goal
        return None
    moves = role_moves(spec.template, role, req.left(spec.template))
    return "\n".join([*[HUNTER.fact(h) for h in spec.hunters], BLIND_MOVES.fact(moves)])


def _end_kind(end, spec: GameSpec) -> int | None:
    """0: a hunter catches the role; 1: the role reaches a goal mark; None: anything else."""
    when = end.when
    if when.was_on or when.collected or when.nearer:
        return None
    if not when.reaches and len(when.same_cell) == 1 and len(when.same_cell[0]) == 2 \
            and spec.role in when.same_cell[0] and spec.role in end.loss_for \
            and set(when.same_cell[0]) - {spec.role} <= set(spec.hunters):
        return 0
    if not when.same_cell and when.reaches == ((spec.role, when.reaches[0][1]),) \
            and when.reaches[0][1] in spec.goal_marks and end.name in goal_ends(spec.template, spec.role):
        return 1
    return None


@dataclass(frozen=True)
class Races:
    """The requirement as races: (attacking turns entries, target ends, within, not within)."""

    races: tuple
    depth: int


def requirement_races(spec: GameSpec, req: Requirement) -> Races | None:
    """The races that express ``req``, or None when they cannot (simultaneous turns mixing teams)."""
    rules, role = spec.template.rules, spec.role
    if req.kind == RequireKind.VALUE or any(rules.split_turn(t, role) for t in range(len(rules.turns))):
        return None
    own = frozenset(t for t in range(len(rules.turns)) if rules.own_turn(t, role))
    others = frozenset(range(len(rules.turns))) - own
    goals = frozenset(goal_ends(spec.template, role))
    losses = frozenset(e.name for e in rules.ends if role in e.loss_for)
    low, high = req.plies
    horizon = req.left(spec.template)
    if req.kind == RequireKind.WIN:
        if not goals:
            return None
        races = ((own, goals, high, low - 1),)
    elif req.kind == RequireKind.LOSE:
        races = ((others, losses, high, low - 1),)
    else:
        races = ((others, losses, None, horizon),)
    depth = max(d for race in races for d in race[2:] if d is not None)
    return Races(races, depth)


def game_facts(spec: GameSpec, races: Races) -> str:
    """Every position of the board as a root, the starts, the races and the levels."""
    board, rules = spec.template, spec.template.rules
    cells = [(x, y) for x in range(1, board.width + 1) for y in range(1, board.height + 1)]
    layout = layout_for(board)
    out = []
    for side in range(len(rules.turns)):
        for placed in itertools.product(cells, repeat=len(rules.roles)):
            pieces = tuple(zip(rules.roles, placed))
            term = layout.root_term(Position(pieces, side, rules.first_step + side), board)
            out.append(ROOT.fact(term))
            if side == 0 and len(set(placed)) == len(placed):
                out.append(START_AT.facts((term, p, x, y) for p, (x, y) in pieces))
    for k, (attackers, targets, within, not_within) in enumerate(races.races, 1):
        out += [RACE_ATTACKER.fact(k, t) for t in sorted(attackers)]
        out += [RACE_TARGET.fact(k, e) for e in sorted(targets)]
        if within is not None:
            out.append(RACE_WITHIN.fact(k, within))
        if not_within is not None and not_within >= 0:
            out.append(RACE_NOT_WITHIN.fact(k, not_within))
    out.append(LEVEL.fact(f"1..{races.depth}"))
    return "\n".join(out)


def game_size(spec: GameSpec, races: Races) -> int:
    """Positions times levels: what the ``game`` part grounds (its rules are about that many
    times the moves per position)."""
    board, rules = spec.template, spec.template.rules
    return (board.width * board.height) ** len(rules.roles) * len(rules.turns) * races.depth * len(races.races)


def proposal_program(spec: GameSpec, req: Requirement, structure: Structure, races: Races | None,
                     chase: bool = True, blind: bool = True) -> tuple[str, tuple[str, ...]]:
    """The program text and the parts to ground; ``races`` adds the game part; ``chase`` and
    ``blind`` the chase and blind parts where the game has its shape (they only rule out layouts
    the judge would reject, so leave them out when every placement is ranked and played out at
    once on the layout's game graph)."""
    text = [base_facts(spec, req, structure)]      # facts first: the encoding ends in its parts
    parts = ["base"]
    shape = chase_facts(spec, req)
    if shape is not None:
        parts += (["chase"] if chase else []) + ([] if req.trivial_ok or not blind else ["blind"])
    if races is not None:
        parts.append("game")
    if len(parts) > 1:
        text.append(game_program(spec.template, game_facts(spec, races) if races is not None else ""))
    if shape is not None:
        text.append(shape)
    return "\n".join(text + [encoding("generate.lp")]), tuple(parts)
