"""Answers on the seed boards that quick tests pin, each derived by the independent reference.

The quick tier cannot afford reference/game.py on a whole seed board (half a minute to a
minute each), so the answers the quick tests compare with are written here once, and
tests/test_seed_answers.py (slow tier) derives every one of them again with the reference:
a number here that the reference does not give fails there.  The reference imports nothing
from gridsolve (tests/test_reference_reading.py).
"""
from __future__ import annotations

from conftest import ROOT

SEED_2007 = ROOT / "boards" / "mummymaze2p-2007.yaml"
SEED_GDL = ROOT / "boards" / "mummymaze2p.yaml"

# mummymaze2p-2007 from its start: the mummy forces a capture in 20 plies, which is also its
# win (its top score, 100): (value, plies, win, win_plies).
MUMMY_2007_WIN = (100, 20, True, 20)
# ... and within a horizon of 30 plies, the same capture: (value, plies).
MUMMY_2007_WITHIN_30 = (100, 20)

# mummymaze2p from its start, the explorer to move: captured whatever it does (value 0 within
# the 50 plies of the game); {move: (value, plies)} after each of its moves.
EXPLORER_GDL_VALUE = 0
EXPLORER_GDL_REMAINING = 50
EXPLORER_GDL_MOVES = {"east": (0, 15), "north": (0, 17), "nowhere": (0, 15), "south": (0, 15), "west": (0, 13)}

# mummymaze2p with the explorer on (8,4), explorer to move: it escapes in 11 plies, with 2
# distinct winning first positions (north; and staying, which "nowhere" and the blocked steps
# that stay put under these rules all lead to).  Its turns on an 11-ply line: plies 1, 3, ...,
# 11, so 6.
EXPLORER_GDL_8_4 = (8, 4)
EXPLORER_GDL_8_4_WIN_PLIES = 11
EXPLORER_GDL_8_4_WINNING_FIRST_POSITIONS = 2
EXPLORER_GDL_8_4_TURNS = (EXPLORER_GDL_8_4_WIN_PLIES + 1) // 2
