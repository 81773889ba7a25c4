"""Chasers and the after_ply script in the compiled program: the axes the chasers try first
(``chase_axis``, encodings/script.lp) and the stages of a ply's script
(gridsolve/compile/script.py, written by gridsolve/compile/gamerules.py's ``move_rules``)."""
from __future__ import annotations

from ...compile.predicates import CHASE_AXIS
from ..base import Encoding

ENCODING = Encoding("chasers", rules=("gridsolve/compile/script.py",),
                    rule_facts=lambda rules: [CHASE_AXIS.fact(axis)
                                              for axis in sorted({c.first for c in rules.chasers.values()})])
