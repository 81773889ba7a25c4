"""Chasers and the after_ply script in the rule language: ``chasers``, ``after_ply``."""
from __future__ import annotations

from dataclasses import dataclass

from ...language.script import ScriptAction
from ...language.spec import Bool, Either, Enum, Field, Int, ListOf, MapOf, Object, Str
from ..base import Key, Mechanism


@dataclass(frozen=True)
class Chaser:
    """A piece no role moves: each of its steps goes toward ``target`` by a fixed rule, trying
    the axis ``first`` (horizontal or vertical) first, then the other; a step into a wall, a
    closed gate or the border is not taken.  ``optional``: a board may leave it out."""

    name: str
    target: str
    first: str = "horizontal"


CHASER = Object(doc="A piece no role moves: after each ply it steps toward a piece by a fixed rule "
                    "(the after_ply script says when).", fields={
    "target": Field(Str(doc="the role whose piece it steps toward"), required=True),
    "first": Field(Enum(("horizontal", "vertical"),
                        doc="the axis it tries first: horizontal (toward the target's column) or "
                            "vertical (toward its row); if it is level with the target on that axis "
                            "or the step is blocked (wall, closed gate, border), it tries the other; "
                            "both blocked: it stays"), default="horizontal"),
})


def script_schema(condition) -> Object:
    """The ``after_ply`` script's action (``condition``: the ``when`` object, a stop's fields)."""
    action_fields = {
        "key": Field(Either(((list, ListOf(Str(), min_items=1)), (dict, Object(fields={
            "pieces": Field(ListOf(Str(), min_items=1), required=True),
            "uses": Field(ListOf(Str(), doc="the pieces whose flip uses the key (default: all)")),
            "each_entry": Field(Bool(doc="every entry flips: each of these pieces that has just entered a "
                                         "key cell (by its latest move or step) flips the gates as they "
                                         "are now, however often the key was used this ply"), default=False),
        }))), doc="the first of these pieces that entered the gate's key cell this ply (stands on it, "
                  "not on its cell when the ply began) sets the gates to the opposite of their state "
                  "when the ply began; once a ply (the key is then used); with each_entry, every entry flips")),
        "stop": Field(Object(doc="when this holds (pieces still on the board), the rest of the script is "
                                 "skipped", fields=condition.fields)),
        "step": Field(ListOf(Str(), min_items=1, doc="these chasers, in order, each take one step")),
        "remove": Field(Object(doc="a piece leaves the board when a remover stands on its cell", fields={
            "piece": Field(Str(doc="the piece that leaves (at the end of the ply; until then it stays "
                                   "where it is and can be met again)"), required=True),
            "by": Field(ListOf(Str(), min_items=1, doc="the removers, checked in order"), required=True),
            "flips_on_key": Field(Bool(doc="each meeting on the key cell flips the gates (no once-a-ply "
                                           "test)"), default=False),
        })),
    }
    action_fields["if_kind"] = Field(ListOf(Str(), min_items=1, doc="inside `each`: play this action only "
                                                   "when the enemy `each` is at is of one of these kinds"))
    action = Object(doc="One action of the after_ply script: give exactly one of key, stop, step, remove.",
                    fields=action_fields)
    repeat = Field(Either(((int, Int(1, 8)), (str, Enum(("steps",), doc="inside `each`: the steps of the enemy's "
                                                                        "kind (enemies: KIND: steps)"))),
                          doc="play the actions under `do` this many times (rounds)"))
    block_action = Object(doc="One action under `each`: give exactly one of key, stop, step, remove, or repeat "
                              "with do.", fields={
        **action_fields,
        "repeat": repeat,
        "do": Field(ListOf(action, min_items=1, doc="the actions of one round")),
    })
    return Object(doc="One action of the after_ply script: give exactly one of key, stop, step, remove, "
                      "repeat with do, or each with do.", fields={
        **action_fields,
        "repeat": repeat,
        "each": Field(Str(doc="play the actions under `do` for each enemy of the board, in the order the board "
                              "lists them; this name stands for that enemy there (e.g. each: enemy)")),
        "do": Field(ListOf(block_action, min_items=1, doc="the actions of one round (repeat), or of one enemy "
                                                          "(each)")),
    })


def rules_keys(condition) -> tuple[Key, ...]:
    return (
        Key("chasers", Field(MapOf(CHASER, key_doc="piece", doc="pieces moved by rule, not by a role (Mummy Maze's "
                                                                "mummies and scorpion)")), "generate"),
        Key("after_ply", Field(ListOf(script_schema(condition), doc="what happens after every ply of the roles, "
                                      "in order: chasers step, pieces leave the board, the key toggles "
                                      "the gates, stops (docs/rule-language.md)")), "gate"),
    )


def build(ctx) -> None:
    """``chasers``: pieces of their own, each stepping toward a role."""
    chasers = {}
    for name, spec in (ctx.merged.get("chasers") or {}).items():
        if name in ctx.roles:
            ctx.fail("chasers", f"chasers: '{name}' is a role", "a chaser is a piece no role moves")
        if spec["target"] not in ctx.roles:
            ctx.fail("chasers", f"chasers.{name}.target: '{spec['target']}' is not a role's piece",
                     f"a chaser steps toward a role's piece: {', '.join(ctx.roles)}")
        chasers[name] = Chaser(name, spec["target"], spec["first"])
    ctx.built["chasers"] = chasers


def finish(ctx) -> None:
    """The after_ply script as a flat tuple of actions (``repeat`` unrolled), every piece checked."""
    roles, chasers, gate_key = ctx.roles, ctx.built["chasers"], ctx.built.get("gate_key")
    pieces = tuple(roles) + tuple(chasers)
    out = []

    def known(names, what, only_chasers=False):
        allowed = tuple(chasers) if only_chasers else pieces
        for name in names:
            if name not in allowed:
                ctx.fail("after_ply", f"after_ply: {what}: unknown {'chaser' if only_chasers else 'piece'} "
                         f"'{name}'", f"{'chasers' if only_chasers else 'pieces'} are: {', '.join(allowed)}")

    def one(action: dict):
        if action.get("if_kind") is not None or action.get("each") is not None:
            ctx.fail("after_ply", "after_ply: if_kind or each inside repeat",
                     "if_kind chooses by the enemy each is at: write each: NAME, do: [...] at the top level")
        given = [k for k in ("key", "stop", "step", "remove") if action.get(k) is not None]
        if len(given) != 1:
            ctx.fail("after_ply", f"after_ply: an action gives {', '.join(given) or 'nothing'}",
                     "give exactly one of key, stop, step, remove (or repeat with do)")
        kind = given[0]
        if kind == "key":
            if gate_key is None:
                ctx.fail("after_ply", "after_ply: a key action, but the rules declare no gate",
                         "add gate: {key: MARK}")
            spec = action["key"]
            names = spec if isinstance(spec, list) else spec["pieces"]
            uses = names if isinstance(spec, list) or spec["uses"] is None else spec["uses"]
            each = not isinstance(spec, list) and spec["each_entry"]
            if each and spec["uses"] is not None:
                ctx.fail("after_ply", "after_ply: key: each_entry with uses",
                         "uses is about the key's one use a ply; with each_entry every entry flips: "
                         "remove uses")
            known(names, "key")
            known(uses, "key.uses")
            out.append(ScriptAction("key", tuple(names), tuple(uses), each=each))
        elif kind == "stop":
            when = ctx.condition(action["stop"], "after_ply", "after_ply: stop")
            if when.is_empty() or when.was_on or when.collected or when.nearer:
                ctx.fail("after_ply", "after_ply: stop takes same_cell and reaches conditions")
            out.append(ScriptAction("stop", when=when))
        elif kind == "step":
            known(action["step"], "step", only_chasers=True)
            out.append(ScriptAction("step", tuple(action["step"])))
        else:
            spec = action["remove"]
            known([spec["piece"]], "remove.piece", only_chasers=True)
            known(spec["by"], "remove.by")
            if spec["piece"] in spec["by"]:
                ctx.fail("after_ply", f"after_ply: remove: '{spec['piece']}' removes itself",
                         "list the other pieces under by")
            if spec["flips_on_key"] and gate_key is None:
                ctx.fail("after_ply", "after_ply: remove flips_on_key, but the rules declare no gate")
            out.append(ScriptAction("remove", tuple(spec["by"]), piece=spec["piece"], flips=spec["flips_on_key"]))

    for action in ctx.merged.get("after_ply") or []:
        if action.get("repeat") is not None or action.get("do") is not None:
            if action.get("repeat") is None or action.get("do") is None or any(
                    action.get(k) is not None for k in ("key", "stop", "step", "remove")):
                ctx.fail("after_ply", "after_ply: repeat needs do (and nothing else)",
                         "write {repeat: 2, do: [...actions...]}")
            for _ in range(action["repeat"]):
                for inner in action["do"]:
                    one(inner)
        else:
            one(action)
    ctx.built["script"] = tuple(out)


def check(rules, ctx) -> None:
    if rules.chasers and not rules.script:
        ctx.fail("chasers", "chasers never move without an after_ply script", "add after_ply: with a step action")


MECHANISM = Mechanism(
    "chasers", names=("chasers", "script"), rules_keys=rules_keys, build=build, finish=finish, check=check,
    used=lambda rules: {name for name, on in (("chasers", bool(rules.chasers)), ("script", bool(rules.script)))
                        if on})
