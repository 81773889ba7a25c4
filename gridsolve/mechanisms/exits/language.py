"""Exit edges in the rule language: none of their own keys (a board's ``marks`` and map give
them, read by gridsolve/language/loader.py with the marks); the capability table has no name
for them (the rules' ``one_mover_script`` decides who answers a board with one)."""
from __future__ import annotations

from ..base import Mechanism

MECHANISM = Mechanism("exits")
