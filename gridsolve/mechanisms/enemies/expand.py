"""Enemy kinds and ``each``: one rule set for any list of enemies (docs/rule-language.md,
"Enemies in the level's order").

A rule set declares kinds of enemies once (``enemies: {mummy: {target: explorer, first:
horizontal, steps: 2}}``); a board lists its enemies, kind and cell, in the order they move.
The enemy at place ``i`` of the list is the chaser ``KIND + i`` (``mummy1``, ``scorpion3``).
The rule set is written over names that stand for several pieces: ``enemies`` (every enemy of
the board, in its order), a kind's name (its enemies), and inside ``each: NAME`` the name
``NAME`` (the enemy ``each`` is at).  :func:`expand` rewrites the rules' raw keys for one list
of enemies into the plain per-piece form the rest of the loader builds: chasers, a flat
after_ply script and per-enemy ends.  The rules are written once; their errors name the rule
set's lines.

How a name that stands for several pieces is read:

* in ``step``, ``key`` and ``remove.by``: each of them, in the board's order;
* ``remove.piece``: one remove per enemy, each with the removers that are not that enemy;
* in a condition (``same_cell``, ``reaches``): any of them, so a ``stop`` becomes one stop per
  choice (in order) and an end one end per choice, named ``END_PIECE`` (``caught_mummy1``);
  a choice that pairs a piece with itself is left out.
"""
from __future__ import annotations

import itertools

ALL = "enemies"          # the name of every enemy of the board


def enemy_pieces(listed: list[str]) -> list[tuple[str, str]]:
    """(piece, kind) of each enemy a board lists (by kind, in order): ``KIND + place``."""
    return [(f"{kind}{place}", kind) for place, kind in enumerate(listed, 1)]


def sample(kinds: dict) -> list[tuple[str, str]]:
    """One enemy of each kind: the list a rule set is checked with before any board lists its own."""
    return enemy_pieces(list(kinds))


class _Names:
    """What each name of the rules stands for, for one list of enemies."""

    def __init__(self, enemies: list[tuple[str, str]], kinds: dict, fail):
        self.groups = {ALL: [p for p, _ in enemies]}
        for kind in kinds:
            self.groups[kind] = [p for p, k in enemies if k == kind]
        self.kind_of = dict(enemies)
        self.fail = fail

    def options(self, name: str, bound: tuple | None) -> list[str] | None:
        """The pieces ``name`` may stand for; None: it is a plain piece name."""
        if bound is not None and name == bound[0]:
            return [bound[1]]
        return self.groups.get(name)

    def each_of(self, names, bound) -> list[str]:
        out = []
        for name in names:
            found = self.options(name, bound)
            for piece in [name] if found is None else found:
                if piece not in out:
                    out.append(piece)
        return out


def _choices(when: dict, names: _Names, bound, fail) -> list[tuple[dict, list[str]]]:
    """The plain conditions ``when`` stands for: (condition, the pieces chosen for its names
    that stand for several)."""
    def several(name) -> bool:
        return names.options(name, bound) is not None and (bound is None or name != bound[0])
    if any(several(name) for name in (when.get("was_on") or {})) or (
            when.get("nearer") and any(several(when["nearer"][k]) for k in ("piece", "than"))):
        fail("a was_on or nearer condition over a name that stands for several pieces",
             "name one piece (the enemy under each, or a role)")
    same = list(when.get("same_cell") or [])
    reaches = list((when.get("reaches") or {}).items())
    tokens = same + [piece for piece, _ in reaches]
    out = []
    for picked in itertools.product(*[[t] if names.options(t, bound) is None else names.options(t, bound)
                                      for t in tokens]):
        cells = list(picked[:len(same)])
        if len(set(cells)) != len(cells):
            continue                     # a piece on its own cell: no meeting
        reach: dict = {}
        for (_, mark), piece in zip(reaches, picked[len(same):]):
            reach.setdefault(piece, []).append(mark)
        if any(len(set(marks)) > 1 for marks in reach.values()):
            fail("reaches: two names stand for one piece, each with its own mark",
                 "give the piece's marks in one condition of their own")
        condition = {**when, "same_cell": cells or None,
                     "reaches": {piece: marks[0] for piece, marks in reach.items()} or None}
        out.append((condition, [p for t, p in zip(tokens, picked) if several(t)]))
    return out


def _leaf(action: dict, names: _Names, bound) -> list[dict]:
    """The plain actions one action stands for."""
    plain = {**action, "if_kind": None}
    if action.get("step") is not None:
        pieces = names.each_of(action["step"], bound)
        return [{**plain, "step": pieces}] if pieces else []
    if action.get("key") is not None:
        spec = action["key"]
        if isinstance(spec, list):
            pieces = names.each_of(spec, bound)
            return [{**plain, "key": pieces}] if pieces else []
        pieces = names.each_of(spec["pieces"], bound)
        uses = None if spec.get("uses") is None else names.each_of(spec["uses"], bound)
        return [{**plain, "key": {**spec, "pieces": pieces, "uses": uses}}] if pieces else []
    if action.get("remove") is not None:
        spec = action["remove"]
        out = []
        for piece in names.each_of([spec["piece"]], bound):
            by = [p for p in names.each_of(spec["by"], bound) if p != piece]
            if by:
                out.append({**plain, "remove": {**spec, "piece": piece, "by": by}})
        return out
    if action.get("stop") is not None:
        return [{**plain, "stop": condition} for condition, _ in _choices(action["stop"], names, bound, names.fail)]
    return [plain]


def _block(actions: list, names: _Names, kinds: dict, bound, fail) -> list[dict]:
    """The plain actions of the actions under ``each`` (``bound``: (name, piece)) or of the
    script's top level (None)."""
    out = []
    for action in actions:
        if action.get("if_kind") is not None:
            if bound is None:
                fail("if_kind outside each", "if_kind chooses by the kind of the enemy each is at: "
                     "move the action under each: NAME, do: [...]")
            for kind in action["if_kind"]:
                if kind not in kinds:
                    fail(f"if_kind: unknown kind '{kind}'", f"the kinds are: {', '.join(kinds)}")
            if names.kind_of[bound[1]] not in action["if_kind"]:
                continue
        if action.get("each") is not None:
            if bound is not None:
                fail("each inside each", "one each goes through the enemies; write the actions of one "
                     "enemy under its do")
            if not kinds:
                fail(f"each: {action['each']}: the rules declare no enemies",
                     "declare the kinds under enemies: (e.g. mummy: {target: explorer, steps: 2}) and list "
                     "each board's enemies under enemies:")
            if action.get("do") is None or any(action.get(k) is not None for k in ("key", "stop", "step", "remove",
                                                                                  "repeat")):
                fail("each needs do (and nothing else)", "write {each: enemy, do: [...actions...]}")
            for piece in names.groups[ALL]:
                out += _block(action["do"], names, kinds, (action["each"], piece), fail)
            continue
        if action.get("repeat") is not None:
            if action.get("do") is None:
                fail("repeat needs do (and nothing else)", "write {repeat: 2, do: [...actions...]}")
            times = action["repeat"]
            if times == "steps":
                if bound is None:
                    fail("repeat: steps outside each", "steps are the enemy's (its kind's steps): use "
                         "repeat: steps under each, or give a number")
                times = kinds[names.kind_of[bound[1]]]["steps"]
            if bound is not None and any(inner.get("repeat") is not None for inner in action["do"]):
                fail("repeat inside repeat", "write the actions of one round under do")
            for _ in range(times):
                out += _block(action["do"], names, kinds, bound, fail)
            continue
        if action.get("do") is not None:
            fail("do without repeat or each", "write {repeat: 2, do: [...]} or {each: enemy, do: [...]}")
        out += _leaf(action, names, bound)
    return out


def expand(merged: dict, enemies: list[tuple[str, str]], fail) -> dict:
    """The rules' raw keys for the board's enemies ``enemies`` ((piece, kind), in order):
    chasers added, the after_ply script flat, the ends per enemy.  ``fail(key, message, hint)``
    reports a mistake at the rule key ``key``."""
    kinds = merged.get("enemies") or {}
    roles = list(merged.get("roles") or [])
    chasers = dict(merged.get("chasers") or {})
    for kind, spec in kinds.items():
        if kind in roles or kind in chasers or kind == ALL:
            fail("enemies", f"enemies: the kind '{kind}' has the name of a piece or of every enemy",
                 "give the kind another name")
        if spec["target"] not in roles:
            fail("enemies", f"enemies.{kind}.target: '{spec['target']}' is not a role's piece",
                 f"an enemy steps toward a role's piece: {', '.join(roles)}")
    for piece, kind in enemies:
        if piece in roles or piece in chasers:
            fail("enemies", f"enemies: the enemy '{piece}' has the name of a piece of the rules",
                 "rename the kind or the piece")
        chasers[piece] = {"target": kinds[kind]["target"], "first": kinds[kind]["first"]}
    at = [0]        # the top-level action being expanded (its line names a mistake in it)
    script_fail = lambda message, hint=None: fail(f"after_ply[{at[0]}]", f"after_ply: {message}", hint)  # noqa: E731
    names = _Names(enemies, kinds, script_fail)
    out = {**merged, "chasers": chasers or None}
    out["after_ply"] = []
    for at[0], action in enumerate(merged.get("after_ply") or []):
        if action.get("each") is not None and action["each"] in set(roles) | set(chasers) | set(names.groups):
            script_fail(f"each: '{action['each']}' is already the name of a piece or a kind",
                        "name the enemy each is at with a name of its own, e.g. each: enemy")
        out["after_ply"] += _block([action], names, kinds, None, script_fail)
    ends, places = [], []
    for index, end in enumerate(merged.get("ends") or []):
        for condition, picked in _choices(end["when"], names, None, lambda message, hint=None: fail(
                f"ends[{index}]", f"end '{end['name']}': {message}", hint)):
            name = "_".join([end["name"], *picked])
            ends.append({**end, "name": name, "when": condition})
            places.append(index)
    out["ends"] = ends
    out["_end_places"] = places
    timeout = merged.get("timeout")
    for entry in timeout if isinstance(timeout, list) else []:
        when = entry.get("when") or {}
        if any(names.options(p, None) is not None for p in list(when.get("same_cell") or [])
               + list(when.get("reaches") or {})):
            fail("timeout", "timeout: a condition over a name that stands for several pieces",
                 "name the pieces one by one")
    return out
