"""gridsolve: exact answers for turn-based grid games, with boards in YAML solved by clingo."""

__version__ = "0.1.0"
