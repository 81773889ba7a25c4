"""Enemies in the compiled program: nothing of their own (the loader rewrites them into plain
chasers and script for a board's list: the chasers' encoding compiles them)."""
from __future__ import annotations

from ..base import Encoding

ENCODING = Encoding("enemies")
