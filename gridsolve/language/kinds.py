"""What a question asks and what a generated level must do, as enums (strings parse into them
at the boundaries: the command line, YAML, the studio's requests, question files)."""
from __future__ import annotations

from enum import StrEnum


class QueryKind(StrEnum):
    """What ``--query`` asks about the role: the score it guarantees, whether it forces its top
    score, or whether it avoids every end it must avoid."""

    VALUE = "value"
    WIN = "win"
    SURVIVE = "survive"


class RequireKind(StrEnum):
    """What ``generate --require`` (and a board's ``generate.require``) asks of a level: the
    query kinds, and ``lose`` (the others force the role into an end it must avoid)."""

    WIN = "win"
    SURVIVE = "survive"
    LOSE = "lose"
    VALUE = "value"
