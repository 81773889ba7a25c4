"""Bumps and lost turns: a move into a cell with one of the marks fails, and the piece's turns
entry loses turns (``moves: ROLE: bump:``)."""
