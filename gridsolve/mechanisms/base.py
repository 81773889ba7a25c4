"""The interface every mechanism fills in: :class:`Mechanism` (its part of the rule language)
and :class:`Encoding` (its part of the compiled program).  Every hook is optional: a
mechanism gives the parts it has (tests/test_mechanisms.py: each part is given by some
mechanism, and each mechanism says what it adds)."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NoReturn


@dataclass(frozen=True)
class Key:
    """A key a mechanism adds to an object of the file format: its name, its :class:`Field`
    (gridsolve.language.spec) and the key it follows (the order ``gridsolve schema`` prints
    and the loader's hints list; a key not there: it comes last)."""

    name: str
    field: Any
    after: str


class Context:
    """What a loader part reads and where its errors go: the merged rule keys (``merged``),
    the roles, the parts of the rules built so far (``built``: Rules' keyword arguments) and
    the loader's helpers (``fail(key, message, hint)`` names the file and line of a rule key,
    ``check_roles(names, key, what)``, ``condition(when, key, what)`` builds a ``when``)."""

    def __init__(self, merged: dict, roles: tuple, origin, check_roles: Callable, condition: Callable):
        self.merged, self.roles, self.origin = merged, roles, origin
        self.built: dict[str, Any] = {}
        self.check_roles, self.condition = check_roles, condition

    def fail(self, key: str, message: str, hint: str | None = None) -> NoReturn:
        self.origin.fail(key, message, hint)


@dataclass(frozen=True)
class Mechanism:
    """A mechanism's part of the rule language.

    * ``name``: its folder's name; ``names``: what :attr:`Rules.mechanisms` calls what it adds
      (the capability table reads them), ``used(rules)`` the ones these rules use;
    * its keys: ``rules_keys(condition)`` a rule set's (``condition``: the ``when`` object, for
      keys that hold conditions), ``board_keys``, ``condition_keys`` (a ``when``'s) and
      ``move_keys`` (a role's move);
    * its loader parts, each given the loader's :class:`Context`: ``read_condition(value, ctx,
      key, what)`` the Condition field of its condition key (``condition_pieces(value)``,
      ``condition_marks(value)``: the pieces and marks that field names); ``move(spec, role,
      ctx)`` its fields of a role's MoveRule; ``build(ctx)`` (before the ends are read) and
      ``finish(ctx)`` (after them) put its fields of the Rules into ``ctx.built``;
      ``check(rules, ctx)`` checks the rules once built;
    * rules built again for each board: ``per_board(merged)`` says they are, ``expand(merged,
      listed, fail)`` gives their plain keys for a board's list (``listed``: (piece, kind) each;
      None: one of each kind); a mechanism whose board lists pieces by kind gives
      ``listed_kinds(rules)`` the kinds the rules declare ({kind: spec}; empty: none) and
      ``listed_pieces(kinds)`` the (piece, kind) of each entry of a board's list of kinds, in
      order (what :mod:`gridsolve.language.enemylist` reads and edits a board's list with);
    * its board parts: ``read_board(checked, raw, parsed, top, rules, size)`` its fields of the
      Board (``checked``: the board file's checked keys, ``parsed``: its ASCII map or None,
      ``top``: the file's Where, ``size``: (width, height)); ``board_pieces(checked, raw, top,
      rules)`` the pieces it places, (piece, kind, cell, line) each; ``map_glyph(glyph, meaning,
      cell, rules)`` (message, hint) where the map may not draw that; ``marks_needed(rules)``
      (what, mark) of each mark a board must have (unless optional); ``check_board(board,
      top)`` checks a board once built;
    * ``state_beside_cells(rules)``: these rules keep its state in the position term beside the
      pieces' cells and the gates (items left, turns lost, ``was_on`` bits), which the scripted
      game's one-mover tables do not hold (:attr:`Rules.one_mover_script`);
    * state of its own in the positions (:attr:`~gridsolve.language.position.Position.plugins`,
      under its name): ``own_state(rules)`` says these rules keep it, ``holds(when, board,
      position)`` judges its condition keys on a position (False: they do not hold) and
      ``position_json(board, position, strategy)`` gives its keys of the position's JSON (an
      answer's, or with ``strategy`` a strategy file's) and ``position_marks(board, position)``
      the cells of the marks it moves, {mark: cells} (drawn there instead of the board's);
      ``check_position(board, position)`` raises a QueryError for a position a question may not
      start from (``--at`` a piece onto a crate)."""

    name: str
    names: tuple[str, ...] = ()
    used: Callable[[Any], set] = lambda rules: set()
    rules_keys: Callable[[Any], tuple[Key, ...]] = lambda condition: ()
    board_keys: tuple[Key, ...] = ()
    condition_keys: tuple[Key, ...] = ()
    move_keys: tuple[Key, ...] = ()
    read_condition: Callable | None = None
    condition_pieces: Callable[[tuple], list] = lambda value: []
    condition_marks: Callable[[tuple], list] = lambda value: []
    move: Callable | None = None
    per_board: Callable[[dict], bool] | None = None
    expand: Callable | None = None
    listed_kinds: Callable[[Any], dict] | None = None
    listed_pieces: Callable[[list], list] | None = None
    build: Callable | None = None
    finish: Callable | None = None
    check: Callable | None = None
    read_board: Callable | None = None
    board_pieces: Callable | None = None
    marks_needed: Callable | None = None
    map_glyph: Callable | None = None
    check_board: Callable | None = None
    state_beside_cells: Callable[[Any], bool] = lambda rules: False
    own_state: Callable[[Any], bool] = lambda rules: False
    holds: Callable | None = None
    position_json: Callable | None = None
    position_marks: Callable | None = None
    check_position: Callable | None = None


@dataclass(frozen=True)
class PositionField:
    """A mechanism's field of the position term (:class:`gridsolve.compile.state.Layout`):
    ``name`` is the Layout attribute that holds it, ``select(board, options)`` its value for a
    board (``options``: layout_for's keyword arguments), ``variables(layout, prefix)`` its
    variables, ``values(layout, position, board)`` its numbers for a position and
    ``decode(layout, args)`` -> (the parts of a decoded term it gives, the arguments after it;
    a mechanism that keeps its state with it gives ``{"plugins": {its name: state}}``).  A field
    no ``Layout`` attribute names (kept in ``Layout.plugins``) also numbers itself for the game
    graphs, ``numbered(layout, board)`` -> (variable, radix) each, and says how many states it
    has at most, ``states(layout, board)`` (the position estimates)."""

    name: str
    select: Callable
    variables: Callable
    values: Callable
    decode: Callable
    numbered: Callable | None = None
    states: Callable | None = None


@dataclass(frozen=True)
class Encoding:
    """A mechanism's part of the compiled program (its ``name`` is its :class:`Mechanism`'s).

    * facts: ``board_facts(board)``, ``move_facts(rules, role)``, ``rule_facts(rules)`` (before
      the ends' facts), ``score_facts(rules)`` (after them) and ``facts(board, layout,
      conditions)`` (what its compiled rules join with; ``conditions``: the ``when`` of every end
      that can hold and of every timeout entry), each a list of clingo text written with the
      declarations of :mod:`gridsolve.compile.predicates`; ``board_rules(rules)``: rules that
      derive its facts from the board facts (``mark/3``), written after the rule facts, so that
      they hold on a board whose walls and marks are inputs (the shared tables, the layout judge);
    * the compiled rules: ``literals(when, v, board)`` the (literal, negation) pairs of its
      condition key, ``score(name, v, rules, out)`` the literal of a score it names (a table),
      ``can_hold(when, board)`` False where its condition never holds, ``after(ply)`` the body
      literals and new field values of the position after a ply
      (:class:`gridsolve.compile.gamerules.Ply`), ``move_cases(board, layout, movers, v)`` the
      ways its board parts treat the movers' steps (None where they do not apply: each case its
      extra body, the movers' cells after it and the turns lost by the movers it stops; the cases
      exclude each other and cover every ply, and the compiler combines every mechanism's),
      ``own_moves(board, role)`` True where those cases make the role's moves themselves (they bind
      its move ``M``, aim ``AX,AY``, end ``PX,PY`` and turns lost ``B``; the ply reads no ``rmove``),
      ``chaser_obstacle(layout, fields, x, y, tag)`` where its state puts obstacles in a chaser's
      way (None where it does not): (literals: the cell ``(x,y)`` holds none, alternatives that it
      holds one, each a literal list), with ``fields`` its field variables' names in the script's
      stage ({layout variable: stage variable}) and ``tag`` to keep its own variables apart (a
      chaser tries a step onto an obstacle as one into a wall: encodings/script.lp, ``chase_try``);
    * ``position``: its fields of the position term, if any (:class:`PositionField`);
      ``rules``: the modules that write more of its compiled rules (the core's, for the docs)."""

    name: str
    board_facts: Callable | None = None
    move_facts: Callable | None = None
    rule_facts: Callable | None = None
    score_facts: Callable | None = None
    board_rules: Callable | None = None
    facts: Callable | None = None
    literals: Callable | None = None
    score: Callable | None = None
    can_hold: Callable | None = None
    after: Callable | None = None
    move_cases: Callable | None = None
    own_moves: Callable | None = None
    chaser_obstacle: Callable | None = None
    position: PositionField | None = None
    rules: tuple[str, ...] = field(default=())      # the modules of its compiled rules (docs)
