"""Exit edges: a mark on an edge of the border (``marks: {exit: {edge: south, at: 4}}`` or a
legend character drawn in the border) that a role's piece steps through, as through the exit
of a Mummy Maze."""
