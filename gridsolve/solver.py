"""Run a compiled program with clingo and read the answer back into Python objects."""
from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field

import clingo

from .compiler import Program, compile_program
from .errors import EncodingError
from .model import Board
from .position import Query


@dataclass
class MoveValue:
    move: str
    value: int
    plies: int | None
    win: bool
    survives: bool


@dataclass
class Answer:
    """What ``gridsolve solve`` reports (also its ``--json`` object)."""

    board: str
    role: str
    query: str
    holds: bool
    value: int
    plies: int | None
    win: bool
    win_plies: int | None
    survives: bool
    doom_plies: int | None
    remaining: int
    position: dict
    moves: list[MoveValue]
    line: list[dict]
    stats: dict
    strategy: list[dict] | None = None

    def as_dict(self) -> dict:
        out = asdict(self)
        if self.strategy is None:
            out.pop("strategy")
        return out


def format_move(term: clingo.Symbol) -> str:
    """``north`` for a one-step move, ``north east`` for the tuple (north,east), and so on."""
    if term.type == clingo.SymbolType.Function and term.name == "" and term.arguments:
        return " ".join(format_move(arg) for arg in term.arguments)
    return str(term)


def decode_state(term: clingo.Symbol, board: Board) -> dict:
    """The position described by a state term ``s(T,X1,Y1,...)``."""
    args = [a.number for a in term.arguments]
    rules = board.rules
    pieces = {role: [args[1 + 2 * i], args[2 + 2 * i]] for i, role in enumerate(rules.roles)}
    return {"pieces": pieces, "turn": list(rules.turns[args[0]])}


@dataclass
class _Model:
    atoms: dict = field(default_factory=dict)

    def collect(self, symbols):
        for sym in symbols:
            self.atoms.setdefault(sym.name, []).append(sym.arguments)

    def at_zero(self, name: str) -> dict:
        """{probe: rest of the arguments} of the atoms ``name(0,P,...)``."""
        out = {}
        for args in self.atoms.get(name, []):
            if args[0].number == 0:
                out[str(args[1]) if args[1].name == "at" and not args[1].arguments else args[1]] = args[2:]
        return out


def run_program(program: Program, board: Board) -> Answer:
    """Ground and solve ``program``; every answer comes from the one model clingo computes."""
    started = time.perf_counter()
    ctl = clingo.Control(["--warn=none", "--stats"])
    try:
        levels = _ground_to_fixpoint(ctl, program)
        parsed = time.perf_counter()
        _ground_line(ctl, program)
    except RuntimeError as exc:
        raise EncodingError(f"clingo could not ground the program: {exc}") from exc
    grounded = time.perf_counter()
    model = _Model()
    result = ctl.solve(on_model=lambda m: model.collect(m.symbols(shown=True)))
    solved = time.perf_counter()
    if not result.satisfiable:
        raise EncodingError("the program has no answer set (an encoding bug)")
    stats = ctl.statistics
    lp = stats["problem"]["lp"]
    timing = {
        "levels": levels,
        "rank_s": round(parsed - started, 4),
        "answer_s": round(grounded - parsed, 4),
        "ground_s": round(grounded - started, 4),
        "solve_s": round(solved - grounded, 4),
        "ground_rules": int(lp["rules"]),
        "ground_atoms": int(lp["atoms"]),
        "choices": int(stats["solving"]["solvers"]["choices"]),
    }
    return _read_answer(model, program, board, timing)


def _ground_to_fixpoint(ctl: clingo.Control, program: Program) -> int:
    """Ground the base part, then the levels one call each until a level decides nothing.

    The levels after that one would derive nothing, so the answer is the one of the
    single-shot program ``program.text`` (what ``gridsolve compile`` prints); each level only
    reads ranks of earlier calls, so no atom is used before the call that defines it."""
    ctl.add("base", [], program.base)
    ctl.ground([("base", [])])
    for depth, text in enumerate(program.levels, 1):
        name = f"level_{depth}"
        ctl.add(name, [], text)
        ctl.ground([(name, [])])
        decided = ctl.symbolic_atoms[clingo.Function("level_decides", [clingo.Number(depth)])]
        if decided is None or not decided.is_fact:
            return depth
    return len(program.levels)


LINE_CHUNK = 10   # line parts ground per call: one call per part costs more than it saves


def _ground_line(ctl: clingo.Control, program: Program) -> None:
    """Ground the answer parts along the principal line, a chunk per call, until the line has
    ended (the later parts are empty), then the strategy part when one is asked for."""
    for first in range(0, len(program.lines), LINE_CHUNK):
        name = f"line_{first}"
        ctl.add(name, [], "\n".join(program.lines[first:first + LINE_CHUNK]))
        ctl.ground([(name, [])])
        last = min(first + LINE_CHUNK, len(program.lines)) - 1
        goes_on = ctl.symbolic_atoms[clingo.Function("line_goes_on", [clingo.Number(last)])]
        if goes_on is None or not goes_on.is_fact:
            break
    if program.strategy:
        ctl.add("strategy", [], program.strategy)
        ctl.ground([("strategy", [])])


def _opt_number(value):
    return value[0].number if value else None


def _read_answer(model: _Model, program: Program, board: Board, stats: dict) -> Answer:
    query: Query = program.query
    values = model.at_zero("value")
    plies = model.at_zero("plies")
    wins = model.at_zero("win")
    win_plies = model.at_zero("win_plies")
    survives = model.at_zero("survives")
    doom = model.at_zero("doom_plies")
    if "at" not in values:
        raise EncodingError("clingo's answer has no value for the query position")
    moves = []
    for probe, (value,) in values.items():
        if probe == "at":
            continue
        moves.append(MoveValue(format_move(probe), value.number, _opt_number(plies.get(probe)),
                               probe in wins, probe in survives))
    moves.sort(key=lambda m: m.move)
    line_atoms = sorted(model.atoms.get("line", []), key=lambda a: a[0].number)
    line = [{"ply": a[0].number, "side": list(board.rules.turns[a[1].number]), "move": format_move(a[2])}
            for a in line_atoms]
    win = "at" in wins
    surv = "at" in survives
    value = values["at"][0].number
    if query.kind == "win":
        holds, answer_plies = win, _opt_number(win_plies.get("at"))
    elif query.kind == "survive":
        holds, answer_plies = surv, _opt_number(doom.get("at"))
    else:
        holds, answer_plies = True, _opt_number(plies.get("at"))
    strategy = None
    if query.strategy:
        strategy = [{"position": decode_state(s, board), "move": format_move(m)}
                    for s, m in model.atoms.get("strat", [])]
        strategy.sort(key=lambda e: str(e["position"]))
    return Answer(board.name, query.role, query.kind, holds, value, answer_plies, win,
                  _opt_number(win_plies.get("at")), surv, _opt_number(doom.get("at")), program.remaining,
                  query.position.as_dict(board), moves, line, stats, strategy)


def solve(board: Board, query: Query) -> Answer:
    """Compile ``query`` on ``board`` and answer it with clingo."""
    started = time.perf_counter()
    program = compile_program(board, query)
    compiled = time.perf_counter()
    answer = run_program(program, board)
    answer.stats = {"compile_s": round(compiled - started, 4), **answer.stats,
                    "total_s": round(time.perf_counter() - started, 4)}
    return answer
