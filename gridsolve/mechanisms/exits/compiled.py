"""Exit edges in the compiled program: the ``exit_edge`` facts (encodings/moves.lp steps a
role's piece through them onto the cell just outside, which has the edge's mark)."""
from __future__ import annotations

from ...compile.predicates import EXIT_EDGE
from ..base import Encoding

ENCODING = Encoding("exits", board_facts=lambda board: [EXIT_EDGE.fact(x, y, d) for (x, y), d in sorted(board.exits)])
