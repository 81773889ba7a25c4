"""``gridsolve solve GAME.kif``: one question about a GDL game, answered by the generic engine.

:func:`solve_gdl` reads and checks the description, grounds its one-ply rules once, explores the
states reachable from the initial state (or the state ``--at`` gives as fluents; within
``--horizon`` steps where given) and reads the answer for the role asked about off the one
ranker (:mod:`gridsolve.gdl.answers`).  The :class:`GdlAnswer` has the board answers' fields
(docs/answers.md; ``plies`` count steps, joint moves), and ``values``: what each role can
guarantee from that state.
"""
from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from ..errors import QueryError
from ..solve.common.limits import LimitGuard, Limits
from .answers import forced, principal_line, role_graph, value_at, value_ranks
from .description import read_description
from .engine import explore, ground_game
from .kif import read_kif
from .translate import symbol_kif

KINDS = ("value", "win")
SUFFIXES = (".kif", ".gdl")


@dataclass
class GdlAnswer:
    """What ``gridsolve solve GAME.kif`` reports (its ``--json`` object): see docs/gdl.md."""

    board: str
    role: str
    query: str
    holds: bool
    value: int | None
    plies: int | None
    win: bool
    win_plies: int | None
    win_moves: int | None
    top: int | None                 # the role's top goal (what win asks for)
    remaining: int | None           # --horizon: the steps looked at
    position: dict
    values: dict                    # every role's value from the position
    moves: list[dict]
    line: list[dict]
    stats: dict
    survives: None = None
    doom_plies: None = None

    def as_dict(self) -> dict:
        return asdict(self)


def limits_guard(path: Path, limits: Limits) -> LimitGuard:
    return LimitGuard(limits, f"the reachable states of {path.name}",
                      lambda needed: "allow more memory with --max-memory, or look fewer steps ahead (--horizon)",
                      smaller="look fewer steps ahead (--horizon), or ask from a later state (--at)")


def solve_gdl(path: Path | str, role: str | None = None, kind: str = "value", at: str | None = None,
              horizon: int | None = None, limits: Limits | None = None) -> GdlAnswer:
    """The answer to ``kind`` (value or win) for ``role`` (default: the first) from the initial
    state of the GDL game in ``path``, or from the state of the fluents ``at`` (KIF text)."""
    started = time.perf_counter()
    path = Path(path)
    if kind not in KINDS:
        raise QueryError(f"--query {kind}: a GDL game answers value or win",
                         "a GDL game's ends are its goals: ask --query value or --query win")
    if horizon is not None and horizon < 0:
        raise QueryError(f"--horizon {horizon}: not a number of steps", "give 0 or more")
    description = read_description(path)
    fluents = read_kif(at, "--at") if at else None
    if fluents is not None and any(term.is_variable for term in fluents):
        raise QueryError("--at: a fluent is a ground term, not a variable", "write e.g. --at '(cell 1 1 x) (control oplayer)'")
    guard = limits_guard(path, limits or Limits())
    game = ground_game(description, guard, fluents)
    names = game.role_names
    if role is None:
        role = names[0]
    if role.lower() not in names:
        raise QueryError(f"--role {role}: no such role of {path.name}", f"choose one of {', '.join(names)}")
    r = names.index(role.lower())
    root = game.init if fluents is None else game.state_of(fluents)
    explored = explore(game, root, guard, horizon)
    ranking = time.perf_counter()
    graphs = [role_graph(game, explored, other, horizon) for other in range(len(names))]
    rg = graphs[r]
    value, rank = value_at(rg, 0)
    tops = [max((v for v, _ in pairs), default=None) for pairs in game.goals]
    top = tops[r]
    win_rank = forced(rg, 0, top) if top is not None else None
    moves = []
    states = explored.count
    for c in np.flatnonzero(rg.choice_state == 0):
        node = states + int(c)
        move_value, move_rank = value_at(rg, node)
        move_win = forced(rg, node, top) if top is not None else None
        moves.append({"move": symbol_kif(game.moves[r][int(rg.choice_move[c])]), "value": move_value,
                      "plies": None if move_rank is None else (move_rank - 1) // 2,
                      "win": move_win is not None, "survives": None})
    win_line = [] if win_rank is None else principal_line(game, explored, rg, top, rg.ranks[rg.thresholds.index(top)])
    line = win_line if kind == "win" and win_rank is not None else principal_line(
        game, explored, rg, value, value_ranks(rg, value))
    rank_s = time.perf_counter() - ranking
    win_moves = None if win_rank is None else _own_moves(explored, r, win_line)
    holds = (win_rank is not None) if kind == "win" else value is not None
    return GdlAnswer(
        board=str(path), role=names[r], query=kind, holds=holds, value=value,
        plies=None if rank is None else (rank + 1) // 2, win=win_rank is not None,
        win_plies=None if win_rank is None else win_rank // 2, win_moves=win_moves, top=top, remaining=horizon,
        position={"fluents": game.fluent_texts(root)},
        values={name: value_at(graph, 0)[0] for name, graph in zip(names, graphs)},
        moves=moves,
        line=[{"ply": i, "side": names, "move": " ".join(step.joint), "joint": dict(zip(names, step.joint)),
               "after": step.after} for i, step in enumerate(line)],
        stats={"solver": "gdl engine", "total_s": time.perf_counter() - started, "ground_s": game.ground_s,
               "explore_s": explored.explore_s, "rank_s": rank_s, "positions": states,
               "moves": int(len(explored.src)), "ground_rules": game.circuit.rule_count,
               "ground_atoms": game.circuit.size - 1, "levels": len(game.circuit.levels),
               "fluents": len(game.fluents)})


def _own_moves(explored, role: int, line) -> int:
    """The steps of ``line`` where ``role`` chose among more than one legal move."""
    return sum(1 for step in line if explored.legal[role][step.before].sum() > 1)
