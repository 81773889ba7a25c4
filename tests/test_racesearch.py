"""The threshold race search (gridsolve/solve/threshold/racesearch.py) on small random games
filled in through its hooks, against a plain recursion written here: every race, position,
plies left and plies asked, one search object answering them all in a random order (its tables
kept between the questions), with and without iterative deepening; and a hand-checked game."""
from __future__ import annotations

import functools
import random
from types import SimpleNamespace

import pytest

from gridsolve.solve.threshold.racesearch import Race, ThresholdSearch

END = {"lost": 0, "even": 1, "won": 2}      # the role's score at each end; "lost" is the end it must avoid
RACES = [("up", 1), ("up", 2), ("down", 1), ("down", 2), ("avoid", None)]


class Toy(ThresholdSearch):
    """A game of numbered positions: the role's team moves where ``turn`` is 0; each ply is the
    positions the others choose among."""

    node_check = 10 ** 9

    def __init__(self, turn, outcome, plies, timeout, deepening):
        game = SimpleNamespace(turn=turn, outcome=outcome, has_moves=[bool(p) for p in plies])
        self.plies = plies
        super().__init__(game, {0}, {"lost"}, 20, None, None, prune=False)
        self.timeout, self.deepening = timeout, deepening

    def end_score(self, state, extra):
        return END[self.game.outcome[state]]

    def timeout_score(self, state, extra):
        return self.timeout[state]

    def race_plies(self, race, state, extra, attacking):
        return [[(successor, None) for successor in ply] for ply in self.plies[state]]


def reference(turn, outcome, plies, timeout):
    """forced(race, state, plies_left, within) by plain recursion over the plies."""
    @functools.lru_cache(maxsize=None)
    def forced(race, state, plies_left, within):
        kind, threshold = race
        if outcome[state] is not None or plies_left == 0 or not plies[state]:
            score = END[outcome[state]] if outcome[state] is not None else timeout[state]
            return {"up": score >= (threshold or 0), "down": score < (threshold or 0),
                    "avoid": outcome[state] == "lost"}[kind]
        if within == 0:
            return False
        up = kind == "up"
        each = [all(forced(race, s, plies_left - 1, within - 1) for s in ply) if up
                else any(forced(race, s, plies_left - 1, within - 1) for s in ply) for ply in plies[state]]
        return any(each) if (turn[state] == 0) == up else all(each)
    return forced


def random_game(rng, n=9):
    turn = [rng.randrange(2) for _ in range(n)]
    outcome = [rng.choice([None, None, None, "lost", "even", "won"]) for _ in range(n)]
    plies = [[] if rng.random() < 0.1 else
             [tuple(rng.sample(range(n), rng.choice([1, 1, 2]))) for _ in range(rng.randint(1, 3))]
             for _ in range(n)]
    timeout = [rng.randrange(3) for _ in range(n)]
    return turn, outcome, plies, timeout


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("deepening", [None, 1.5])
def test_the_search_forces_what_the_recursion_forces(seed, deepening):
    rng = random.Random(seed)
    game = random_game(rng)
    forced = reference(*game)
    search = Toy(*game, deepening)
    asked = [(Race(*race), state, plies_left, within) for race in RACES for state in range(len(game[0]))
             for plies_left in range(7) for within in range(plies_left + 1)]
    rng.shuffle(asked)
    for race, state, plies_left, within in asked:
        assert search.forces(race, state, None, plies_left, within) == forced(race, state, plies_left, within), \
            (race, state, plies_left, within)
    for race, state, plies_left, _ in asked:
        fewest = next((d for d in range(plies_left + 1) if forced(race, state, plies_left, d)), None)
        assert search.rank(race, state, None, plies_left) == fewest
        if race.kind == "up":
            assert search.reaches(race.threshold, state, None, plies_left) == forced(race, state, plies_left, plies_left)


def test_a_hand_checked_game_and_its_tables():
    """Position 0 (the team to move): ``a`` leads to 1, where the others choose between an end
    the role wins and one it loses (they pick the loss), ``b`` to 2, where the others must move
    to the won end 3 (two plies from 0).  So the team forces a score of 2 within 2 plies, not
    1; the others force the avoided end within 2 plies only if the team plays ``a``: not."""
    turn = [0, 1, 1, 0, 0]
    outcome = [None, None, None, "won", "lost"]
    plies = [[(1,), (2,)], [(3,), (4,)], [(3,)], [], []]
    search = Toy(turn, outcome, plies, [1] * 5, None)
    up = Race("up", 2)
    assert not search.forces(up, 0, None, 5, 1)
    assert search.forces(up, 0, None, 5, 2)
    assert search.rank(up, 0, None, 5) == 2
    assert search.rank(Race("avoid", None), 0, None, 5) is None
    assert search.rank(Race("avoid", None), 1, None, 5) == 1
    searched = search.nodes
    assert search.forces(up, 0, None, 5, 3) and search.nodes == searched        # the table answers
    assert search.remembered() > 0
    search.forget()
    assert search.remembered() == 0 and search.forces(up, 0, None, 5, 3) and search.nodes > searched
