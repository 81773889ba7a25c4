"""The compiled parts of the mechanisms, in one place: the facts, the game rules and the position
term read these (the language parts: :mod:`.registry`, the same names).

:data:`ENCODINGS` is the order their facts and condition literals are written in; :data:`TERM`
the order of their fields in the position term ``s(T, X1,Y1, ..., fields...)``: the lost-turn
counters, the ``was_on`` bits, the items, what a ``--hidden`` role knows, the crates, the gates."""
from __future__ import annotations

from .base import Encoding
from .bumps.compiled import ENCODING as BUMPS
from .chasers.compiled import ENCODING as CHASERS
from .crates.compiled import ENCODING as CRATES
from .enemies.compiled import ENCODING as ENEMIES
from .exits.compiled import ENCODING as EXITS
from .gates.compiled import ENCODING as GATES
from .items.compiled import ENCODING as ITEMS
from .nearer.compiled import ENCODING as NEARER
from .secret.compiled import ENCODING as SECRET
from .teleporters.compiled import ENCODING as TELEPORTERS
from .was_on.compiled import ENCODING as WAS_ON

ENCODINGS: tuple[Encoding, ...] = (WAS_ON, ITEMS, NEARER, BUMPS, SECRET, GATES, EXITS, CHASERS, ENEMIES, TELEPORTERS, CRATES)
TERM: tuple[Encoding, ...] = (BUMPS, WAS_ON, ITEMS, SECRET, CRATES, GATES)


def parts(hook: str) -> list:
    """The hooks named ``hook`` of the compiled parts that have one, in :data:`ENCODINGS` order."""
    return [getattr(encoding, hook) for encoding in ENCODINGS if getattr(encoding, hook) is not None]
