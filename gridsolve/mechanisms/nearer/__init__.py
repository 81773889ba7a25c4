"""``nearer``: a condition on distances (one piece nearer to a mark than another)."""
