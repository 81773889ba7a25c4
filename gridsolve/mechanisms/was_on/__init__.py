"""``was_on``: a condition on the position before (the piece stood on a cell with the mark)."""
