"""Crates a role pushes (Sokoban's rule): crates start on the cells of a mark; a step of a role
whose move ``pushes: crates`` into a crate moves the crate one cell on when that cell is free (no
wall between, on the board, no crate, no piece), else the step is blocked; a crate is an obstacle
for every piece that does not push; ``crates_on`` ends ask for crates on a mark
(``crates: {mark: MARK}``; docs/rule-language.md, "Crates").  The crates' cells are part of the
position (``Position.plugins`` under ``crates``), stepped by the compiled rules alone."""
