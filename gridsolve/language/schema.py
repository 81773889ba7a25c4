"""The board and rule-set file format, defined once: the core's keys here, each mechanism's
keys in its folder (gridsolve/mechanisms/NAME/language.py), placed by the registry.

``gridsolve.language.loader`` validates files with these definitions and ``gridsolve schema`` prints
them as JSON Schema.  Every key is documented here; the README points to this file.
"""
from __future__ import annotations

from ..mechanisms.registry import MECHANISMS, place_keys
from .spec import Bool, Cell, Either, Enum, Field, Int, ListOf, MapOf, Num, Object, Str

MOVE_FIELDS = {
    "steps": Field(Int(1, 4, doc="number of single-cell steps in one move"), default=1),
    "idle": Field(Bool(doc="a step may be 'nowhere' (stand still for that step)"), default=True),
    "first_step_real": Field(Bool(doc="the first step must be north/south/east/west"), default=False),
    "blocked": Field(Enum(("illegal", "stay"),
                          doc="a step into a wall or off the board is illegal, or means staying put"),
                     default="illegal"),
    "end_differs_from_start": Field(Bool(doc="the move may not end on the cell it started from"),
                                    default=False),
    "may_not_end_on": Field(ListOf(Str(), doc="pieces whose cell (at the start of the ply) the move may "
                                              "not aim at"), default=[]),
    "frozen_on": Field(ListOf(Str(), doc="marks: on such a cell the piece can only stand still"), default=[]),
}

CONDITION_FIELDS = {
    "same_cell": Field(ListOf(Str(), min_items=2, doc="these pieces stand on one cell")),
    "reaches": Field(MapOf(Str(doc="a mark name from the board (e.g. exit)"), key_doc="piece",
                           doc="each piece stands on a cell with the given mark")),
}


def _with_keys(core: dict, part: str, mechanisms) -> dict:
    """``core``'s fields with the keys the mechanisms add to ``part`` (an attribute of
    :class:`~gridsolve.mechanisms.base.Mechanism`; ``rules_keys`` is given the ``when`` object)."""
    keys = [key for mechanism in mechanisms
            for key in (mechanism.rules_keys(CONDITION) if part == "rules_keys" else getattr(mechanism, part))]
    return place_keys(core, keys)


MOVE = Object(doc="How one role makes a move: a sequence of single-cell steps.",
              fields=_with_keys(MOVE_FIELDS, "move_keys", MECHANISMS))
CONDITION = Object(doc="All conditions given must hold (a conjunction).",
                   fields=_with_keys(CONDITION_FIELDS, "condition_keys", MECHANISMS))

SCORE = Either(((int, Int()), (str, Str(doc="the name of a score table"))),
               doc="a score: a number, or the name of a score table (see score_tables)")

TIMEOUT_ENTRY = Object(doc="Scores at the step limit when `when` holds (no `when`: always).", fields={
    "when": Field(CONDITION),
    "scores": Field(MapOf(SCORE, key_doc="role", doc="each role's score"), required=True),
})

END = Object(doc="An end condition. The first one in the list that holds decides the scores.", fields={
    "name": Field(Str(doc="a short name such as captured or escaped"), required=True),
    "when": Field(CONDITION, required=True),
    "scores": Field(MapOf(SCORE, key_doc="role", doc="each role's score when this end holds"),
                    required=True),
    "loss_for": Field(ListOf(Str(), doc="roles that must avoid this end (the survive query); "
                                        "default: roles that get their lowest score here"),
                      default=None),
})

STEPS = Object(doc="Step numbering as in the original game: the game ends when `last` is reached "
                   "(no `last`: the game has no step limit).", fields={
    "first": Field(Int(0, doc="the step number of the initial position"), default=1),
    "last": Field(Int(1, doc="the step number at which the game ends by timeout; leave it out for a game "
                             "without a step limit")),
})

# The difficulty metrics of a won level (gridsolve/analysis/metrics.py defines them; docs/generate.md).
GRAPH_METRICS = ("plies", "forced_moves", "path_safety", "dead_ends", "greedy_deviation", "random_win",
                 "greedy_win", "lookahead_win", "hints", "optimal_lines")
# line_safety: along the solver's principal line (defined for every game, simultaneous moves included)
METRIC_NAMES = GRAPH_METRICS + ("line_safety",)
SHARES = ("forced_moves", "path_safety", "dead_ends", "greedy_deviation", "random_win", "greedy_win", "lookahead_win",
          "line_safety")

INT_RANGE = Object(doc="A range of whole numbers: give min, max or both (both ends included).", fields={
    "min": Field(Int(0, doc="the smallest number that passes")),
    "max": Field(Int(0, doc="the largest number that passes")),
})
NUM_RANGE = Object(doc="A range of numbers: give min, max or both (both ends included).", fields={
    "min": Field(Num(0, doc="the smallest number that passes")),
    "max": Field(Num(0, doc="the largest number that passes")),
})

GENERATE = Object(doc="What a good level of these rules is: `gridsolve generate`'s defaults for boards of "
                      "this rule set (each option given on the command line replaces its default).", fields={
    "require": Field(Enum(("win", "survive", "lose", "value"),
                          doc="win: the role forces its top score; survive: it avoids every end it must "
                              "avoid; lose: the others force such an end; value: the score it guarantees "
                              "lies in `value`")),
    "role": Field(Str(doc="the role the requirement is about (default: the first role)")),
    "plies": Field(INT_RANGE),                 # win/lose: the plies of the forced end
    "value": Field(INT_RANGE),                 # require value: the score the role guarantees
    "horizon": Field(Int(1, doc="look at most this many plies ahead")),
    "walls": Field(INT_RANGE),                 # how many interior walls
    "keep": Field(ListOf(Str(), doc="pieces and marks of the --like board that keep their cells")),
    "border": Field(ListOf(Str(), doc="marks whose cells --rules places on the border (the exit of a Mummy Maze); "
                                      "--like follows its board, --no-defaults drops it")),
    "allow_trivial": Field(Bool(doc="keep wins that walking the shortest way already gives"), default=False),
    "good": Field(Object(doc="the test a good level passes: a range for each metric named", fields={
        name: Field(NUM_RANGE) for name in METRIC_NAMES})),
    "why": Field(Str(doc="why this is a good level of the game, in a sentence (written in the docs)")),
    "labels": Field(Object(doc="the difficulty labels (gridsolve generate --difficulty, each level's header): "
                               "a level is easy when every range under easy holds, else medium when every "
                               "range under medium holds, else hard (walking the shortest way winning: easy). "
                               "Default: easy {greedy_win: {min: 0.75}}, medium {lookahead_win: {min: 0.25}}",
                           fields={label: Field(Object(doc=f"the metrics' ranges of a {label} level", fields={
                               name: Field(NUM_RANGE) for name in GRAPH_METRICS})) for label in ("easy", "medium")})),
})

CORE_RULES_FIELDS = {
    "name": Field(Str(doc="the rule set's name")),
    "description": Field(Str(doc="what these rules are; where they come from")),
    "use": Field(Str(doc="a named rule set from rules/ that this one extends or overrides")),
    "roles": Field(ListOf(Str(), min_items=1, doc="the roles, in order; each moves the piece of its name")),
    "turns": Field(ListOf(ListOf(Str(), min_items=1), min_items=1,
                          doc="turn order: a list of sides, each a list of roles that move together; "
                              "default: one side per role, in role order")),
    "teams": Field(ListOf(ListOf(Str(), min_items=1), min_items=1,
                          doc="who plays together: a list of teams, each a list of roles; default: the "
                              "roles of each turns entry form one team")),
    "moves": Field(MapOf(MOVE, key_doc="role", doc="how each role moves")),
    "collisions": Field(Enum(("allowed", "stay"), doc="stay: when two pieces that moved in a ply end on "
                             "one cell, the ply has no effect"), default=None),
    "ends": Field(ListOf(END, doc="end conditions in order of precedence")),
    "steps": Field(STEPS),
    "judge_start": Field(Bool(doc="false: the position a question starts from is not judged by the ends (only "
                                  "positions after a ply are, as in classic Mummy Maze); default true"),
                         default=None),
    "timeout": Field(Either(((dict, MapOf(SCORE, key_doc="role")), (list, ListOf(TIMEOUT_ENTRY, min_items=1))),
                            doc="each role's score when the step limit ends the game: a map of scores, or "
                                "a list of entries of which the first whose `when` holds applies")),
    "generate": Field(GENERATE),
    "optional": Field(ListOf(Str(), doc="pieces (chasers) and marks a board may leave out")),
}
RULES_FIELDS = _with_keys(CORE_RULES_FIELDS, "rules_keys", MECHANISMS)
RULES = Object(doc="The rules a board plays under.", fields=RULES_FIELDS)

RANGE = INT_RANGE

EXPECTATION = Object(doc="One expectation about the game, checked by `gridsolve verify` (see "
                         "docs/verify.md). It is about one role, from the initial position or "
                         "a stated one, and holds when every key given holds.", fields={
    "role": Field(Str(doc="the role the expectation is about (default: the first role)")),
    "at": Field(MapOf(Cell(), key_doc="piece",
                      doc="put pieces on cells, e.g. {explorer: [2, 3]}; other pieces stay where the board "
                          "has them (as `gridsolve solve --at`)")),
    "gates": Field(Enum(("open", "closed"), doc="the gates' state (default: closed, as at the start)")),
    "turn": Field(Str(doc="the role to move (as `--turn`; default: follows from step, else the first side)")),
    "step": Field(Int(0, doc="the step number of the original game (as `--step`)")),
    "horizon": Field(Int(0, doc="look at most this many plies ahead (as `--horizon`)")),
    "hidden": Field(Bool(doc="the robust answer: the role knows only its own secret marks (as `--hidden`)"),
                    default=False),
    "win": Field(Bool(doc="the role can (true) or cannot (false) force its top score (`--query win`)")),
    "survive": Field(Bool(doc="the role can (true) or cannot (false) avoid every end it must avoid "
                              "(`--query survive`)")),
    "value": Field(Int(doc="the score the role can guarantee (`--query value`)")),
    "plies": Field(Either(((int, Int(0)), (dict, RANGE),
                           (type(None), Enum((None,), doc="null: nothing is forced either way"))),
                          doc="the plies of the value query: when the role wins, the length of its fastest "
                              "forced win; when it loses, how long it can delay the loss; null when nothing "
                              "is forced. A number or a range {min, max}")),
    "win_moves": Field(Either(((int, Int(0)), (dict, RANGE),
                              (type(None), Enum((None,), doc="null: the role cannot force a win"))),
                      doc="the role's own moves in its fastest forced win (a puzzle's shortest solution); "
                          "null when it cannot force one. A number or a range {min, max}")),
    "winning_first_moves": Field(Either(((int, Int(0)), (dict, RANGE)),
                                        doc="how many first moves of the role keep a forced win, counting "
                                            "moves that lead to the same position once; the role must be "
                                            "the one to move. A number or a range {min, max}")),
    "no_beeline": Field(Bool(doc="true: no shortest path to the role's goal, worked out as if the other "
                                 "pieces stood still and then followed blindly, wins against every reply")),
    **{name: Field(Either(((int, Num(0)), (float, Num(0)), (dict, NUM_RANGE)),
                          doc=f"the difficulty metric {name} of the role's forced win (docs: generate; "
                              f"shares rounded to 4 decimals). A number or a range {{min, max}}"))
       for name in GRAPH_METRICS if name != "plies"},
})

CROSSCHECK = Object(doc="How this board's positions read as the states of a GDL game "
                        "(`gridsolve crosscheck`, docs/crosscheck.md). A fluent is KIF text with fields in "
                        "braces: {x} {y} (a cell), {step}, {taken}, {since}.", fields={
    "against": Field(Str(doc="the GDL file (its name) the mapping was written for"), required=True),
    "shift": Field(ListOf(Int(), min_items=2, doc="[dx, dy] added to every cell's x and y (default [0, 0])")),
    "pieces": Field(MapOf(Str(doc="the fluent of the piece's cell, e.g. (location explorer {x} {y})"),
                          key_doc="piece", doc="each role's piece"), required=True),
    "empty": Field(Str(doc="the fluent of each open cell no piece stands on, e.g. (cell {x} {y} o)")),
    "items": Field(MapOf(Str(doc="the fluent of a cell still holding an item, e.g. (location pellet {x} {y})"),
                         key_doc="collectible", doc="each collectible's items left")),
    "counts": Field(MapOf(Str(doc="the fluent of the number taken, e.g. (collected {taken})"),
                          key_doc="collectible", doc="each collectible's count of items taken")),
    "control": Field(ListOf(Str(), doc="the fluent of each turns entry to move, in turns order, e.g. "
                                       "[(control explorer), (control mummy)]")),
    "step": Field(Str(doc="the fluent of the step number, e.g. (step {step})"), required=True),
    "arrivals": Field(ListOf(Object(doc="A fluent that records a was_on pair: where the piece stood on "
                                        "the mark the position before.", fields={
        "piece": Field(Str(), required=True),
        "mark": Field(Str(), required=True),
        "unset": Field(Str(doc="the fluent while it did not, e.g. (whitedone 30)"), required=True),
        "set": Field(Str(doc="the fluent once it did: {since} is the step of the position it "
                             "was first seen there, e.g. (whitedone {since})"), required=True)}))),
    "moves": Field(MapOf(MapOf(Str(doc="the board's move: its words {1} {2} ..., or {direction} from "
                                       "{x} {y} to {to_x} {to_y}"),
                               key_doc="GDL move", doc="the role's GDL moves, a template each, e.g. "
                                                       "'(move1 {1})': '{1}'"),
                         key_doc="role", doc="each role's moves when it is to move"), required=True),
    "idle": Field(MapOf(Str(doc="its one GDL move, e.g. noop"), key_doc="role",
                        doc="the move of each role when it is not to move (a role in every turns entry needs none)")),
})


CORE_BOARD_FIELDS = {
    "name": Field(Str(doc="the board's title")),
    "description": Field(Str(doc="free text")),
    "rules": Field(Either(((str, Str(doc="the name of a rule set in rules/")), (dict, RULES)),
                          doc="a named rule set, or rules written here (with `use:` to extend one)"),
                   required=True),
    "map": Field(Str(doc="an ASCII drawing of the board: '+---+' rows and '|' walls, 3 characters per "
                         "cell; a cell's middle character is a legend key")),
    "legend": Field(MapOf(Str(), key_doc="character",
                          doc="what each map character stands for: a piece (role) or a mark (e.g. exit)")),
    "size": Field(ListOf(Int(1, 64), min_items=2, doc="[width, height], when there is no map")),
    "walls": Field(Object(doc="blocked edges", fields={
        "north": Field(ListOf(Cell(), doc="edge between [x, y] and [x, y+1]"), default=[]),
        "east": Field(ListOf(Cell(), doc="edge between [x, y] and [x+1, y]"), default=[]),
    })),
    "pieces": Field(MapOf(Cell(), key_doc="piece", doc="where each piece starts")),
    "marks": Field(MapOf(Either(((list, ListOf(Cell())), (dict, Object(
        doc="a secret mark left unplaced (unplaced: N: its cells are chosen before play, the rules' "
            "placement), or an edge of the border (edge and at: a role's piece steps through it onto "
            "the mark, as through the exit of a Mummy Maze; pieces moved by rule never do)",
        fields={"unplaced": Field(Int(0, doc="how many cells are still to place")),
                "edge": Field(Enum(("north", "south", "east", "west"), doc="the side of the border")),
                "at": Field(Int(1, doc="where on that side: the column (north, south) or the row "
                                       "(east, west)"))})))),
        key_doc="mark", doc="named cells, e.g. exit: [[1, 3]]; a secret mark may be {unplaced: 3}; an "
                            "edge of the border {edge: south, at: 4}")),
    "expect": Field(ListOf(EXPECTATION, doc="what the level designer expects of this board; "
                                            "`gridsolve verify` checks it")),
    "crosscheck": Field(CROSSCHECK),
}
BOARD = Object(doc="A gridsolve board: the layout and the rules it plays under.",
               fields=_with_keys(CORE_BOARD_FIELDS, "board_keys", MECHANISMS))


def board_json_schema() -> dict:
    """The JSON Schema of board files, as ``gridsolve schema`` prints it."""
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "gridsolve board", **BOARD.schema()}


def rules_object(mechanisms=MECHANISMS) -> Object:
    """The rule set object with the keys of ``mechanisms`` only (default: every registered one)."""
    return Object(doc=RULES.doc, fields=_with_keys(CORE_RULES_FIELDS, "rules_keys", mechanisms))
