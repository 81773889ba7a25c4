"""Every predicate that crosses the line between Python and the clingo programs, declared once.

A :class:`Predicate` names an atom's fields and their kinds; the fact writers
(:mod:`gridsolve.compile.facts`, :mod:`gridsolve.compile.knowledge`) write facts with
:meth:`Predicate.fact` (an atom as a clingo symbol: :meth:`Predicate.symbol`), the builder of
the game program shows them (:meth:`Predicate.show`, a term under a condition
:meth:`Predicate.when`, a tagged tuple :meth:`Predicate.tagged`), and every reader of clingo's
output reads atoms through them (:func:`each_atom`, :func:`read_atoms`, :func:`model_atoms` for
a model's shown atoms; :meth:`Predicate.matches`, :meth:`Predicate.read`,
:meth:`Predicate.ground`), so a predicate's name, arity and field order are written in one
place (potassco/clorm's idea, without its dependency).  The predicates the core's encodings and
fact writers read are declared here; a predicate that only a mechanism's compiled part writes
and reads is declared with :func:`declare` in that part (``gridsolve/mechanisms/NAME/compiled.py``,
imported with the registry :mod:`gridsolve.mechanisms.encodings`), so a mechanism stays in its folder.
``tests/test_predicates.py`` holds the declarations against the encodings: every predicate an
encoding reads as an input (its ``#defined`` lines) is declared here with that arity, and no
fact writer spells a declared predicate by hand.

A field written ``field=constant`` holds that constant in every atom of the predicate (two
predicates of one name told apart by it: ``fgraph(move,...)`` and ``fgraph(end,...)``).
Field kinds: ``int`` (a number), ``name`` (a constant such as a role, a mark or an end),
``term`` (any term: a position ``s(...)``, a move) and ``ints`` (a run of numbers whose length
depends on the game, such as an item's bit words: the atom's arity varies, and the field is
written from a sequence). :meth:`Predicate.read` gives a number as an int, a constant as its
name, any other term as the clingo symbol and an ``ints`` field (the last one) as a tuple.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import clingo

from ..errors import EncodingError

KINDS = ("int", "name", "term", "ints")


class Predicate:
    """An ASP predicate: its name, its fields (name and kind, in order) and what it states."""

    def __init__(self, name: str, fields: str, doc: str):
        self.name = name
        specs = fields.split() if fields else []
        self.constants = {i: spec.split("=")[1] for i, spec in enumerate(specs) if "=" in spec}
        self.fields = tuple((spec.split("=")[0], "name") if "=" in spec else tuple(spec.split(":")) for spec in specs)
        for i, (field, kind) in enumerate(self.fields):
            if kind not in KINDS:
                raise ValueError(f"predicate {name}: field {field} has kind {kind!r}, not one of {KINDS}")
        self.variadic = any(kind == "ints" for _, kind in self.fields)
        self._kinds = tuple(kind for _, kind in self.fields)
        self._plain = not self.variadic         # (read field by field in one pass)
        self.arity = len(self.fields)
        self.doc = doc
        self._format = f"{name}({','.join('{}' for _ in self.fields)})." if self.fields else f"{name}."

    @property
    def signature(self) -> str:
        """``name/arity``, as ``#show`` and ``#defined`` write it (``name/*`` where it varies)."""
        return f"{self.name}/{'*' if self.variadic else self.arity}"

    def _values(self, values: tuple) -> tuple:
        if len(values) != self.arity:
            raise TypeError(f"{self.signature}: {len(values)} values given for {self.arity} fields")
        if not self.variadic:
            return values
        return tuple(",".join(map(str, v)) if kind == "ints" else v for (_, kind), v in zip(self.fields, values))

    def fact(self, *values: Any) -> str:
        """The fact ``name(v1,...,vn).`` (values written as clingo reads them: str() of each;
        an ``ints`` field from a sequence of numbers)."""
        return self._format.format(*self._values(values))

    def facts(self, rows) -> str:
        """The facts of ``rows`` (tuples of values), one line separated by spaces."""
        return " ".join(self.fact(*row) for row in rows)

    def atom(self, *values: Any) -> str:
        """The atom without its period, for a rule's body or head (values may be variables)."""
        return self.fact(*values)[:-1]

    def symbol(self, *values: Any) -> clingo.Symbol:
        """The atom as a clingo symbol (a number field from an int, a name field from its text,
        a term field from a clingo symbol; a fixed arity only)."""
        if self.variadic or len(values) != self.arity:
            raise TypeError(f"{self.signature}: {len(values)} values given for {self.arity} fields")
        return clingo.Function(self.name, [clingo.Number(v) if kind == "int" else clingo.Function(v) if kind == "name"
                                           else v for kind, v in zip(self._kinds, values)])

    def defined(self) -> str:
        """``#defined name/arity.``: the predicate may have no facts."""
        return f"#defined {self.signature}."

    def show(self, arity: int | None = None) -> str:
        """``#show name/arity.`` (a predicate with a run of numbers: of that ``arity``)."""
        if self.variadic != (arity is not None) or (arity is not None and arity < self.arity):
            raise TypeError(f"{self.signature}: shown with an arity only where its atoms' arity varies")
        return f"#show {self.name}/{arity}." if self.variadic else f"#show {self.signature}."

    def tagged(self) -> "Shown":
        """This predicate's atoms shown as tuples tagged with its name, ``#show (name,X0,...) :
        name(X0,...).`` (a raw reader tells the rows apart by their first argument; a fixed arity only)."""
        if self.variadic:
            raise TypeError(f"{self.signature}: a predicate with a run of numbers is shown by its signature only")
        variables = ",".join(f"X{i}" for i in range(self.arity))
        return Shown(self, f"{self.name}({variables})", None, f"({self.name},{variables})")

    def when(self, condition: str, **values: Any) -> "Shown":
        """This predicate shown as a term where ``condition`` holds: ``#show name(F1,...,Fn) :
        condition.``, each field the variable of its name in capitals (``px`` is ``PX``) unless
        ``values`` gives it a value."""
        unknown = sorted(set(values) - {field for field, _ in self.fields})
        if self.variadic:
            raise TypeError(f"{self.signature}: a predicate with a run of numbers is shown by its signature only")
        if unknown:
            raise TypeError(f"{self.signature} has no field {', '.join(unknown)}")
        return Shown(self, condition, tuple(values.get(field, field.upper()) for field, _ in self.fields))

    def matches(self, symbol: clingo.Symbol) -> bool:
        """``symbol`` is an atom of this predicate (its name and arity, and the constants of its
        constant fields)."""
        if symbol.name != self.name:
            return False
        args = symbol.arguments
        if len(args) < self.arity if self.variadic else len(args) != self.arity:
            return False
        return all(args[i].type == clingo.SymbolType.Function and args[i].name == value and not args[i].arguments
                   for i, value in self.constants.items())

    def read(self, symbol: clingo.Symbol) -> tuple:
        """The fields of atom ``symbol`` as Python values, by their declared kinds."""
        if not self.matches(symbol):
            raise ValueError(f"{symbol} is not an atom of {self.signature}")
        return self._read(symbol.arguments)

    def _read(self, args: list) -> tuple:
        if self._plain:
            return tuple(arg if kind == "term" else arg.number if kind == "int" else arg.name
                         for kind, arg in zip(self._kinds, args))
        out = []
        for i, (field, kind) in enumerate(self.fields):
            arg = args[i]
            if kind == "ints":
                if i != self.arity - 1:
                    raise ValueError(f"{self.signature}: only a last `ints` field can be read")
                out.append(tuple(a.number for a in args[i:]))
            elif kind == "int":
                out.append(arg.number)
            elif kind == "name":
                out.append(arg.name)
            else:
                out.append(arg)
        return tuple(out)

    def ground(self, symbolic_atoms: clingo.SymbolicAtoms) -> list[tuple]:
        """The fields (:meth:`read`) of every atom of this predicate in a ground program's
        ``symbolic_atoms`` (a fixed arity only)."""
        return [self.read(atom.symbol) for atom in symbolic_atoms.by_signature(self.name, self.arity)]

    def __repr__(self) -> str:
        return f"Predicate({self.signature})"


class Shown:
    """A predicate shown as a term under a condition (:meth:`Predicate.when`): its ``#show`` statement."""

    def __init__(self, predicate: Predicate, condition: str, arguments: tuple | None, term: str | None = None):
        self.predicate, self.condition, self.arguments = predicate, condition, arguments
        self.term = predicate.atom(*arguments) if term is None else term

    def show(self) -> str:
        """``#show name(A1,...,An) : condition.``"""
        return f"#show {self.term} : {self.condition}."

    def __repr__(self) -> str:
        return f"Shown({self.show()})"


def each_atom(symbols: Iterable[clingo.Symbol], predicates: Sequence[Predicate]) -> Iterator[tuple[Predicate, tuple]]:
    """Each of ``symbols`` (a model's shown atoms), in their order, as the one of ``predicates``
    it is an atom of and its fields (:meth:`Predicate.read`); an atom of none of them is an error."""
    fixed = {(p.name, p.arity): p for p in predicates if not p.variadic and not p.constants}
    varying = [p for p in predicates if p.variadic or p.constants]
    for symbol in symbols:
        args = symbol.arguments
        predicate = fixed.get((symbol.name, len(args)))
        if predicate is None:
            predicate = next((p for p in varying if p.matches(symbol)), None)
            if predicate is None:
                raise EncodingError(f"{symbol} is shown, an atom of none of {', '.join(p.signature for p in predicates)} "
                                    "(an encoding bug)")
        yield predicate, predicate._read(args)


def read_atoms(symbols: Iterable[clingo.Symbol], predicates: Sequence[Predicate]) -> dict[Predicate, list[tuple]]:
    """The fields of each of ``symbols`` (:func:`each_atom`), listed under its predicate."""
    out: dict[Predicate, list[tuple]] = {p: [] for p in predicates}
    for predicate, fields in each_atom(symbols, predicates):
        out[predicate].append(fields)
    return out


def model_atoms(ctl: clingo.Control, predicates: Sequence[Predicate]) -> dict[Predicate, list[tuple]]:
    """:func:`read_atoms` of the shown atoms of the first model of ``ctl`` (a ground program;
    no model: no atoms)."""
    with ctl.solve(yield_=True) as handle:
        for model in handle:
            return read_atoms(model.symbols(shown=True), predicates)
    return {p: [] for p in predicates}


DECLARED: dict[str, Predicate] = {}


def declare(name: str, fields: str, doc: str) -> Predicate:
    """Declare predicate ``name`` (fields as ``field:kind`` or ``field=constant`` separated by spaces)."""
    predicate = Predicate(name, fields, doc)
    if predicate.signature in DECLARED:
        raise ValueError(f"{predicate.signature} is declared twice")
    DECLARED[predicate.signature] = predicate
    return predicate


# - The board (board.lp, script.lp) ---
DIM = declare("dim", "width:int height:int", "the board is W cells wide and H high")
WALL_NORTH = declare("wall_north", "x:int y:int", "the edge between (X,Y) and (X,Y+1) is blocked")
WALL_EAST = declare("wall_east", "x:int y:int", "the edge between (X,Y) and (X+1,Y) is blocked")
SOLID = declare("solid", "x:int y:int", "the cell (X,Y) is wall through and through")
GATE_NORTH = declare("gate_north", "x:int y:int", "a gate on the edge between (X,Y) and (X,Y+1)")
GATE_EAST = declare("gate_east", "x:int y:int", "a gate on the edge between (X,Y) and (X+1,Y)")
EXIT_EDGE = declare("exit_edge", "x:int y:int side:name",
                    "the border edge of (X,Y) on side D is an exit: a step through it leaves the board")
MARK = declare("mark", "mark:name x:int y:int", "the cell (X,Y) carries the mark M")

# - The rules' moves (moves.lp) ---
MOVE_STEPS = declare("move_steps", "role:name steps:int", "role R's move is N single-cell steps")
IDLE = declare("idle", "role:name", "a step of R may be `nowhere`")
FIRST_STEP_REAL = declare("first_step_real", "role:name", "R's first step must be north/south/east/west")
BLOCKED_STAYS = declare("blocked_stays", "role:name", "a step of R into a wall or off the board stays put")
END_DIFFERS = declare("end_differs", "role:name", "R's move may not end on the cell it started from")
FROZEN_ON = declare("frozen_on", "role:name mark:name", "on a cell with mark K, R can only stand still")
BUMP_ON = declare("bump_on", "role:name mark:name", "a step of R into a cell with mark K fails")
RELOCATE = declare("relocate", "role:name x:int y:int x2:int y2:int",
                   "a move of R that leaves its cell and ends on (X,Y) puts the piece on (X2,Y2) (teleporters)")
LOSE_TURNS = declare("lose_turns", "role:name turns:int", "R's turns entry skips its next N turns after a bump")

# - The rules' mechanisms (script.lp, the compiled game rules) ---
GATE_KEY = declare("gate_key", "mark:name", "entering a cell of this mark flips the gates")
CHASE_AXIS = declare("chase_axis", "axis:name", "a chaser of the rules tries this axis first")
PRECEDES = declare("precedes", "first:name second:name", "end E1 is listed before E2 (it wins a tie)")
SCORE = declare("score", "end:name role:name value:int", "role R scores V when end E decides the game")
TABLE = declare("table", "table:name index:int value:int", "entry I of score table T is V")
MARKBIT = declare("markbit", "mark:name x:int y:int bit:int", "whether (X,Y) carries mark M (a `was_on` bit)")
IBIT = declare("ibit", "item:name x:int y:int words:ints", "the item bit words of (X,Y), one argument a word")
DISTANCE = declare("distance", "piece:name mark:name x:int y:int steps:int",
                   "the steps from (X,Y) to the nearest cell of mark M for piece P's moves")
TURN_AFTER = declare("turn_after", "turn:int counters:ints next:int after:ints",
                     "the turns entry after T with lost-turn counters L1..Lm is T2, the counters then L1'..Lm'")

# - The race plan and the query (solve.lp, answer.lp) ---
ROOT = declare("root", "position:term", "a position the ranks or the game graph start from")
RACE = declare("race", "race:int", "race K exists")
RACE_ATTACKER = declare("race_attacker", "race:int turn:int", "turns entry T attacks in race K")
RACE_TARGET = declare("race_target", "race:int end:name", "end E is a target of race K")
ROLE_SIDE = declare("role_side", "role:name turn:int", "turns entry T is role R's side")
TIMEOUT_VALUE = declare("timeout_value", "role:name value:int", "R's score when the plies run out")
MIN_SCORE = declare("min_score", "role:name value:int", "R's lowest score")
THRESHOLD = declare("threshold", "role:name value:int", "a score role R can get")
RACE_UP = declare("race_up", "role:name race:int value:int", "race K: R's side forces a score >= T")
RACE_DOWN = declare("race_down", "role:name race:int value:int", "race K: the other sides force a score < T")
RACE_AVOID = declare("race_avoid", "role:name race:int", "race K: the others force an end R must avoid")
RACE_WIN = declare("race_win", "role:name race:int", "R's maximum score is won by race K")
WON_IN = declare("won_in", "race:int position:term plies:int", "race K is won from S within D plies (solve.lp's ranks)")
WIN_BY_VALUE = declare("win_by_value", "role:name value:int", "R wins when it guarantees score V")
STRATEGY = declare("strategy", "query:int race:int kind:name", "write the strategy of query Q for race K")

# - The layered query (layered.lp) ---
REMAINING = declare("remaining", "plies:int", "the plies left at the query position")
PERIOD = declare("period", "plies:int", "plies until the same turns entry moves again")
LAYERED_THRESHOLD = declare("threshold", "value:int", "a score the role can get (layered.lp)")
MAX_SCORE = declare("max_score", "value:int", "the role's highest score")
OWN_TURN = declare("own_turn", "turn:int", "turns entry T is the role's team alone")
SPLIT_TURN = declare("split_turn", "turn:int", "turns entry T moves the role's team and others at once")
OTHER_TURN = declare("other_turn", "turn:int", "turns entry T holds none of the role's team")
COMMIT = declare("commit", "position:term move:term node:term",
                 "node P is position S after the team's commit M (split plies; layered.lp)")
PVAL = declare("pval", "plies:int node:term value:int", "the role's minimax score at node P with R plies left")
VAT = declare("vat", "plies:int at:int", "the values with R plies left are those with E plies left (layered.lp)")
AVOID_TARGET = declare("avoid_target", "end:name", "an end the role must avoid")

# - The answers as the encodings show them (answer.lp's output(q) and line(q,i); layered.lp's #show) ---
# (Q: the query's number in answer.lp; in layered.lp the line state, the query position 0.  P: a
# probe, ``at`` the position itself, else the move that leaves it.)
VALUE = declare("value", "query:int probe:term value:int", "the role's guaranteed score at probe P")
PLIES = declare("plies", "query:int probe:term plies:int", "the plies in which that score is forced at P")
WIN = declare("win", "query:int probe:term", "the role forces its best score at P")
WIN_PLIES = declare("win_plies", "query:int probe:term plies:int", "the plies in which the role wins at P")
SURVIVES = declare("survives", "query:int probe:term", "the role avoids every losing end at P")
DOOM_PLIES = declare("doom_plies", "query:int probe:term plies:int", "the plies the role lasts at P (it does not survive)")
LINE = declare("line", "query:int ply:int turn:int move:term", "ply I of query Q's principal line: entry T plays M")
LINE_STATE = declare("line_state", "query:int ply:int position:term", "the position S before ply I of query Q's line")
STRAT = declare("strat", "query:int position:term move:term", "query Q's strategy plays M at S")
LINE_PLIES = declare("plies", "query:int ply:int probe:term plies:int",
                     "answer.lp's plies at line state I of query Q (output(q) shows those of state 0)")
LINE_GOES_ON = declare("line_goes_on", "query:int ply:int", "query Q's principal line has a ply I")
LAYERED_LINE_GOES_ON = declare("line_goes_on", "ply:int", "the principal line has a ply I (layered.lp)")
LEVEL_DECIDES = declare("level_decides", "depth:int", "level D of the ranks decides a position (solve.lp)")
GROWS = declare("grows", "depth:int", "depth K meets a new position (layered.lp)")
VCONV = declare("vconv", "plies:int", "the values repeat from R plies left on (layered.lp)")
RCONV = declare("rconv", "plies:int", "the ranks repeat from R plies left on (layered.lp)")
LAYERED_LINE = declare("line", "ply:int turn:int move:term", "ply I of the principal line (layered.lp)")
LAYERED_LINE_STATE = declare("line_state", "ply:int position:term", "the position S before ply I (layered.lp)")
LINE_ANSWER = declare("line_answer", "ply:int move:term", "the others' answer M at ply I (layered.lp, split plies)")

# - The robust game of a --hidden question (the compiled knowledge rules) ---
HCAND = declare("hcand", "x:int y:int", "a cell a secret obstacle may stand on")
HBIT = declare("hbit", "x:int y:int words:ints", "the knowledge bit words of (X,Y), one argument a word")
HALLOW = declare("hallow", "obstacle:int x:int y:int", "obstacle J may stand on (X,Y)")
HDISTANCE = declare("hdistance", "mark:name x:int y:int found:ints steps:int",
                    "the steps from (X,Y) to mark M around the obstacles found (their bit words)")

# - The game graph and the named moves (read back from clingo) ---
EDGE = declare("edge", "position:term move:term after:term", "a ply from S by move M leads to S2")
SPLIT_EDGE = declare("split_edge", "position:term team:term others:term after:term",
                     "a ply in which the role's team commits (Mt) and the others answer (Mo)")
OUTCOME = declare("outcome", "position:term end:name", "end E decides position S")
MOVER = declare("mover", "position:term turn:int", "turns entry T moves at S")
REACH = declare("reach", "position:term", "S is reachable from the roots")
SUCC = declare("succ", "position:term after:term move:term", "the game graph's ply from S to S2 (move projected)")
TMATCH = declare("tmatch", "position:term entry:int", "the condition of the I-th conditional timeout entry holds at S")
ESCORE = declare("escore", "position:term value:int", "the role's score at the end that decides S")
TSCORE = declare("tscore", "position:term value:int", "the role's score when the plies run out at S")
ESCORE_OF = declare("escore", "position:term role:name value:int", "role R's score at the end that decides S")
TSCORE_OF = declare("tscore", "position:term role:name value:int", "role R's score when the plies run out at S")

# - The game graph shown as terms (read back by the wall explainer and the studio's live graph) ---
GRAPH_STEP = declare("graph_step", "s:term s2:term", "a ply leads from S to S2 (``edge/3`` without its move)")
GRAPH_MOVE = declare("graph_move", "s:term m:term s2:term", "a ply from S by move M leads to S2 (``edge/3``)")
GRAPH_MOVER = declare("graph_mover", "s:term t:int", "turns entry T moves at S (``mover/2``)")
GRAPH_END = declare("graph_end", "s:term e:name", "end E decides S (``outcome/2``)")

# - The game graph by pieces (compiler.factored_program; read back by the layout judge) ---
FGRAPH_MOVE = declare("fgraph", "kind=move role:name x:int y:int move:term ax:int ay:int px:int py:int",
                      "fgraph(move,...): role R's move M from (X,Y) aims at (AX,AY) and ends on (PX,PY)")
FGRAPH_END = declare("fgraph", "kind=end end:name side:int cells:ints",
                     "fgraph(end,...): end E decides the positions of side T with the pieces on these cells")

# - The per-cell tables of a scripted game (gridsolve/solve/graph/sharedtables.py; read back by rows of their arity) ---
TABLE_MOVE = declare("tm", "m:term x:int y:int ax:int ay:int px:int py:int",
                     "the role's move M from (X,Y) aims at (AX,AY) and ends on (PX,PY) (``rmove/9``)")
TABLE_GATE = declare("tg", "x:int y:int x2:int y2:int", "a step from (X,Y) to (X2,Y2) crosses a gate (``gate_cross/4``)")
TABLE_CHASE = declare("tc", "axis:int x:int y:int sx:int sy:int g:int x2:int y2:int",
                      "a chaser's step of axis A from (X,Y) toward (SX,SY) with gates G lands on (X2,Y2) (``chase/8``)")
TABLE_KEY = declare("tk", "x:int y:int", "(X,Y) is a key cell (``key_cell/2``)")
TABLE_MARK = declare("tx", "k:name x:int y:int", "(X,Y) carries the mark K (``mark/3``)")
TABLE_DISTANCE = declare("td", "p:name k:name x:int y:int d:int", "piece P's steps from (X,Y) to mark K (``distance/5``)")

# - The board's moves (board.lp, moves.lp; read back by the size estimates) ---
CELL = declare("cell", "x:int y:int", "(X,Y) is a cell of the board")
CMOVE = declare("cmove", "role:name x:int y:int move:term x2:int y2:int",
                "from (X,Y), role R can make move M and end on (X2,Y2)")

# - The generator's proposals (generate.lp; gridsolve/generate/genprogram.py writes them) ---
PIECE = declare("piece", "piece:name", "a piece to place (one per role)")
MARK_CELLS = declare("mark_cells", "mark:name count:int", "N cells carry the mark M")
ON_BORDER = declare("on_border", "mark:name", "the cells of mark M lie on the border")
WALL_RANGE = declare("wall_range", "least:int most:int", "between A and B interior walls")
SYMMETRIC = declare("symmetric", "kind:name", "the walls look the same mirrored east-west, or turned half round")
SEALED_OK = declare("sealed_ok", "", "cells may be cut off; else every cell is connected")
ROLE_PIECE = declare("role_piece", "piece:name", "the piece of the role the requirement is about")
GOAL_MARK = declare("goal_mark", "mark:name", "a mark the role wins by reaching")
GOAL_STEPS = declare("goal_steps", "least:int most:int", "the role's start is A to B steps from the nearest goal")
KEEP_AT = declare("keep_at", "piece:name x:int y:int", "piece P starts on (X,Y) (--keep)")
KEEP_MARK = declare("keep_mark", "mark:name x:int y:int", "(X,Y) carries the mark M (--keep)")
HUNTER = declare("hunter", "piece:name", "a piece that catches the role by ending on its cell")
BLIND_MOVES = declare("blind_moves", "moves:int", "the role's moves within the plies left")
START_AT = declare("start_at", "position:term piece:name x:int y:int", "position S is a start with piece P on (X,Y)")
RACE_WITHIN = declare("race_within", "race:int plies:int", "race K must be won within D plies")
RACE_NOT_WITHIN = declare("race_not_within", "race:int plies:int", "race K must not be won within D plies")
WALL_CHOICE = declare("wall", "side:name x:int y:int", "a wall on side K (north, east) of (X,Y): generate.lp's choice")
PLACED = declare("at", "piece:name x:int y:int", "piece P starts on (X,Y): generate.lp's choice")
LEVEL = declare("level", "depth:int", "a level of the ranks, 1 up to the deepest asked for")


# - GDL's keywords in the translated game (gridsolve/gdl/translate.py; read back by the one-ply circuit) ---
GDL_TRUE = declare("true", "fluent:term", "fluent F holds in the state")
GDL_NEXT = declare("next", "fluent:term", "fluent F holds in the next state")
GDL_INIT = declare("init", "fluent:term", "fluent F holds in the initial state")
GDL_DOES = declare("does", "role:term move:term", "role R plays M")
GDL_LEGAL = declare("legal", "role:term move:term", "role R may play M")
GDL_GOAL = declare("goal", "role:term value:term", "role R's goal value is V (a number in well-formed games)")
GDL_TERMINAL = declare("terminal", "", "the state is terminal")
GDL_FLUENT = declare("zz_fluent", "fluent:term", "F is a fluent of the game's domain (the one-ply circuit's input)")
GDL_MOVE = declare("zz_move", "role:term move:term", "role R's move M of the game's domain (the one-ply circuit's input)")


def declared(signature: str) -> Predicate | None:
    """The predicate declared with ``name/arity``, None if none is."""
    return DECLARED.get(signature)
