"""The actions of the rules' ``after_ply`` script: what :class:`~gridsolve.language.model.Rules`
holds of it and the compiler's script stages read (gridsolve/compile/script.py); the chasers
mechanism (gridsolve/mechanisms/chasers/) reads the ``after_ply`` key into them."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ScriptAction:
    """One action of the rules' ``after_ply`` script (played after every ply of the roles):

    * ``key``: the first of ``pieces`` (alive, on the gate's key cell, not on the cell it
      stood on when the ply began) sets the gates to the opposite of their state when the ply
      began, once per ply: the key is then used, unless the piece is not in ``uses``; with
      ``each``, every piece of ``pieces`` that has just entered a key cell (by its latest move
      or step this ply) flips the gates as they are, whatever the key's use;
    * ``stop``: when ``when`` holds (over the pieces still on the board), the rest of the
      script is skipped;
    * ``step``: each of ``pieces`` (a chaser still on the board), in order, takes one step;
    * ``remove``: for each of ``pieces`` (the removers, in order) on the cell of ``piece``, that
      piece leaves the board when the ply ends (it still stands there until then, and is met
      again); with ``flips`` each such meeting on the key cell flips the gates."""

    kind: str                               # key | stop | step | remove
    pieces: tuple[str, ...] = ()
    uses: tuple[str, ...] = ()
    when: object = None                     # stop: its Condition (gridsolve.language.model)
    piece: str = ""
    flips: bool = False
    line: int = 0
    each: bool = False                      # key: every entry of a piece onto a key cell flips
