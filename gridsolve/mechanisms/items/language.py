"""Items in the rule language: ``collect``, ``score_tables`` and the ``collected`` condition."""
from __future__ import annotations

from dataclasses import dataclass

from ...language.spec import Either, Enum, Field, Int, ListOf, MapOf, Object, Str
from ..base import Key, Mechanism


@dataclass(frozen=True)
class Collect:
    """Items on every cell with ``mark``; ``piece`` takes one by ending a move on its cell."""

    name: str
    piece: str
    mark: str


@dataclass(frozen=True)
class ScoreTable:
    """A score that depends on how many items of ``count`` were taken: ``values[taken]``."""

    name: str
    count: str
    values: tuple[int, ...]


RULES_KEYS = (
    Key("collect", Field(MapOf(Object(doc="items to take", fields={
        "piece": Field(Str(doc="the piece that takes them"), required=True),
        "mark": Field(Str(doc="every cell with this mark starts with one item"), required=True),
    }), key_doc="collectible", doc="collectibles, e.g. pellets: {piece: pacman, mark: pellet}")), "collisions"),
    Key("score_tables", Field(MapOf(Object(doc="a score by the number of items taken", fields={
        "count": Field(Str(doc="the collectible counted"), required=True),
        "values": Field(ListOf(Int(), min_items=1, doc="the score for 0, 1, 2, ... items taken"),
                        required=True),
    }), key_doc="table", doc="named score tables")), "collect"),
)

CONDITION_KEYS = (
    Key("collected", Field(MapOf(Either(((int, Int(0)), (str, Enum(("all",), doc="every item of the board")))),
                                 key_doc="collectible", doc="at least this many items were taken")), "was_on"),
)


def _unknown(ctx, key: str, message: str):
    ctx.fail(key, message, f"collectibles are: {', '.join(ctx.built['collect']) or 'none (add collect:)'}")


def build(ctx) -> None:
    """``collect`` and ``score_tables``: each collector a role, each table counting a collectible."""
    collect = {}
    for name, spec in (ctx.merged.get("collect") or {}).items():
        ctx.check_roles([spec["piece"]], "collect", f"collect.{name}.piece")
        collect[name] = Collect(name, spec["piece"], spec["mark"])
    ctx.built["collect"] = collect
    tables = {}
    for name, spec in (ctx.merged.get("score_tables") or {}).items():
        if spec["count"] not in collect:
            _unknown(ctx, "score_tables", f"score table '{name}' counts an unknown collectible '{spec['count']}'")
        tables[name] = ScoreTable(name, spec["count"], tuple(spec["values"]))
    ctx.built["tables"] = tables


def read_condition(value, ctx, key: str, what: str) -> tuple:
    """``collected``: (collectible, at least this many; -1 for all)."""
    out = []
    for name, count in (value or {}).items():
        if name not in ctx.built["collect"]:
            _unknown(ctx, key, f"{what}: unknown collectible '{name}'")
        out.append((name, -1 if count == "all" else count))
    return tuple(out)


def check_board(board, top) -> None:
    """A score table has a value for every count of items the board has."""
    rules = board.rules
    for table in rules.tables.values():
        items = len(board.marks.get(rules.collect[table.count].mark, ()))
        if len(table.values) <= items:
            top.fail(f"score table '{table.name}' has {len(table.values)} values, "
                     f"but the board has {items} items of '{table.count}'",
                     f"give a value for every count from 0 to {items}")


MECHANISM = Mechanism(
    "items", names=("items", "score tables", "collected"),
    used=lambda rules: {name for name, on in (("items", bool(rules.collect)), ("score tables", bool(rules.tables)),
                                              ("collected", any(c.collected for c in rules.conditions))) if on},
    rules_keys=lambda condition: RULES_KEYS, condition_keys=CONDITION_KEYS, read_condition=read_condition,
    build=build, check_board=check_board, state_beside_cells=lambda rules: bool(rules.collect),
    marks_needed=lambda rules: [(f"collect.{c.name}", c.mark) for c in rules.collect.values()])
