"""Python's cycle collector paused around work that builds millions of small objects holding
no cycles (tables of tuples, a ground program's rules), which a full collection would walk again
and again; their memory is freed by reference counts as ever."""
from __future__ import annotations

import contextlib
import gc


@contextlib.contextmanager
def collector_paused():
    """The cycle collector off inside the block, back as it was after (Pacman's bounded search:
    about 12% of its time; a large GDL game's grounding and circuit: about a tenth)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
