"""Chasers and the after_ply script: pieces no role moves, stepping toward a role's piece by a
fixed rule, and the script played after every ply (steps, removals, the key, stops)."""
