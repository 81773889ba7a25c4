"""The language parts of the mechanisms, in one place: the schema, the loader and
``Rules.mechanisms`` read this tuple (the compiled parts: :mod:`.encodings`, the same names).

The order is the order of their loader parts (a part may read what an earlier one built) and
of their keys in a ``when``."""
from __future__ import annotations

from .base import Mechanism
from .bumps.language import MECHANISM as BUMPS
from .chasers.language import MECHANISM as CHASERS
from .crates.language import MECHANISM as CRATES
from .enemies.language import MECHANISM as ENEMIES
from .exits.language import MECHANISM as EXITS
from .gates.language import MECHANISM as GATES
from .items.language import MECHANISM as ITEMS
from .nearer.language import MECHANISM as NEARER
from .secret.language import MECHANISM as SECRET
from .teleporters.language import MECHANISM as TELEPORTERS
from .was_on.language import MECHANISM as WAS_ON

MECHANISMS: tuple[Mechanism, ...] = (BUMPS, WAS_ON, ITEMS, NEARER, SECRET, GATES, EXITS, CHASERS, ENEMIES, TELEPORTERS, CRATES)


def place_keys(core: dict, keys) -> dict:
    """``core``'s fields with ``keys`` (:class:`~.base.Key`) each after the key it names (in
    turn, so a key may follow another mechanism's; one whose key is missing comes last)."""
    out, waiting = dict(core), list(keys)
    while waiting:
        key = next((k for k in waiting if k.after in out), waiting[0])
        waiting.remove(key)
        items = list(out.items())
        items.insert(list(out).index(key.after) + 1 if key.after in out else len(items), (key.name, key.field))
        out = dict(items)
    return out
