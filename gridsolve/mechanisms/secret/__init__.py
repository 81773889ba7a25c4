"""Secret marks: marks a role places before the game (``placement:``), hidden from the other
roles (``--hidden``: the robust answer, what a role knows in the position term)."""
