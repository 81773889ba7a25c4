"""Playing a board: the terminal game of ``gridsolve play`` (``game``) and the duel's helpers:
placements typed or chosen (``placement``), the computer that does not peek (``blind``) and
the advice on where to place one's own obstacles (``advice``)."""
