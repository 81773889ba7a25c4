"""Enemies: kinds of chasers declared once by the rules (``enemies:``), listed in order by each
board, and ``each`` in the after_ply script going through them (``expand.py`` rewrites them into
plain chasers and script for a board's list, which the chasers' parts check and compile)."""
