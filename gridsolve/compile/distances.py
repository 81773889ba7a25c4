"""Distance tables as facts: the one writer of a ``distance``-like predicate's facts (the
``nearer`` mechanism's ``distance/5``, the robust game's ``hdistance``)."""
from __future__ import annotations

from ..language.distance import UNREACHABLE
from .predicates import Predicate


def distance_facts(predicate: Predicate, key: tuple, dist: dict, cells, middle: tuple = ()) -> str:
    """``predicate(*key,X,Y,*middle,D).`` for every cell: its distance in ``dist`` (UNREACHABLE
    where it has none), as ``distance(runner,exit,X,Y,D)``."""
    return predicate.facts((*key, x, y, *middle, dist.get((x, y), UNREACHABLE)) for x, y in cells)
