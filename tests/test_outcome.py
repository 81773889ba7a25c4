"""The one outcome view (gridsolve/solve/common/outcome.py): the principal line's rule of
answer.lp and layered.lp on hand-checked candidates, the answer reader, the statistics as
--json writes them, and a position as answers and strategy files write it."""
from __future__ import annotations

import json
from pathlib import Path

from gridsolve.language.kinds import QueryKind
from gridsolve.language.loader import load_board
from gridsolve.language.position import Position, Query
from gridsolve.solve.common.answer import STATS_FIELDS, ProgramStats, RaceStats, ThresholdStats, SolveStats
from gridsolve.solve.common.outcome import (Candidate, Outcome, keyed, line_key, pick, principal_line,
                                            read_answer, reference_score)

ROOT = Path(__file__).resolve().parent.parent

BOARD = ROOT / "boards" / "mummymaze2p-2007.yaml"        # explorer and mummy take turns


def test_line_key_hurries_above_the_reference_and_delays_below():
    assert line_key(100, 4, 50) == (100, -4)          # the role forces it: fewer plies are better
    assert line_key(0, 4, 50) == (0, 4)               # the others force it: the role delays
    assert line_key(50, None, 50) == (50, 0)          # nothing forced at the reference
    assert line_key(50, 3, 50) == (50, 0)
    assert line_key(100, None, 50) is None            # not forced: not a candidate
    assert line_key(0, None, 50) is None


def test_reference_moves_half_a_point_where_a_rule_gives_the_top_or_lowest_score():
    assert reference_score(100, True, 0, 100) == 99.5
    assert reference_score(0, True, 0, 100) == 0.5
    assert reference_score(50, True, 0, 100) == 50
    assert reference_score(100, False, 0, 100) == 100
    assert reference_score(7, True, 7, 7) == 6.5       # one score: the top's rule wins
    assert line_key(100, 6, reference_score(100, True, 0, 100)) == (100, -6)


def test_the_role_takes_the_greatest_key_the_others_the_least_ties_by_move():
    moves = keyed([("east", "e", 100, 6), ("north", "n", 100, 4), ("west", "w", 100, 4), ("south", "s", 0, 2)], 50)
    assert [c.order for c in moves] == ["east", "north", "west", "south"]
    assert pick(moves, True).move == "w"              # (100, -4): the fastest win, the greatest name
    assert pick(moves, False).move == "s"             # the lowest value
    assert pick([c for c in moves if c.key[0] == 100], False).move == "e"   # the slowest win
    assert pick(moves, True, accept=lambda c: c.move != "w").move == "n"
    assert pick([], True) is None
    assert pick(moves, True, accept=lambda c: False) is None


class _Chain:
    """A line view of a path a -> b -> c -> a (each position one move ``go``), the role to move everywhere."""

    after = {"a": "b", "b": "c", "c": "a"}

    def candidates(self, state):
        return [Candidate((1, 0), "go", self.after[state])]

    def maximises(self, state):
        return True

    def accept(self, state, candidate):
        return True

    def side(self, state):
        return ("explorer",)

    def play(self, state, candidate, before):
        return f"go to {candidate.move}", candidate.move, before


def test_the_line_stops_at_most_and_before_a_position_it_has_passed():
    start = Position((("explorer", (1, 1)),), 0, 0)
    assert [p.move for p in principal_line(_Chain(), start, "a", most=4)] == ["go to b", "go to c", "go to a", "go to b"]
    assert [p.move for p in principal_line(_Chain(), start, "a", repeats=lambda s: s)] == ["go to b", "go to c", "go to a"]
    assert [p.index for p in principal_line(_Chain(), start, "a", most=2)] == [0, 1]
    assert principal_line(_Chain(), start, "a", most=0) == ()


def test_held_is_what_the_question_asks():
    there = Outcome(value=0, plies=3, win=False, win_plies=None, survives=False, doom_plies=3)
    assert there.held(QueryKind.VALUE) == (True, 3)
    assert there.held(QueryKind.WIN) == (False, None)
    assert there.held(QueryKind.SURVIVE) == (False, 3)
    assert there.key(QueryKind.VALUE) == (0, 3)


def test_the_reader_lists_the_moves_by_name_and_counts_the_own_moves_of_a_win():
    board = load_board(BOARD)
    position = Position((("explorer", (3, 2)), ("mummy", (6, 5))), 0, 1)
    win = Outcome(100, 3, True, 3, True, None)
    lose = Outcome(0, 2, False, None, False, 2)
    answer = read_answer(board, Query("explorer", QueryKind.WIN, position), win,
                         [("west", lose), ("east", win)], (), 7, SolveStats(solver="race"))
    assert [m.move for m in answer.moves] == ["east", "west"]
    assert (answer.holds, answer.plies, answer.win_plies, answer.win_moves) == (True, 3, 3, 2)
    assert answer.position == {"pieces": {"explorer": [3, 2], "mummy": [6, 5]}, "turn": ["explorer"], "step": 1}
    assert answer.remaining == 7 and not answer.hidden
    assert read_answer(board, Query("explorer", QueryKind.SURVIVE, position), lose, [], (), 7,
                       SolveStats(solver="race"), hidden=True).hidden


def test_stats_write_every_documented_field_in_order_none_where_a_solver_has_none():
    race = SolveStats(solver="race", total_s=0.5, detail=RaceStats(positions=12, levels=3))
    out = race.as_dict()
    assert tuple(out) == STATS_FIELDS and len(STATS_FIELDS) == 26
    assert (out["solver"], out["total_s"], out["positions"], out["levels"]) == ("race", 0.5, 12, 3)
    assert out["searched"] is None and out["ground_rules"] is None and out["settled_at"] is None
    search = SolveStats(solver="bounded", settled_at=6, detail=ThresholdStats(searched=40, search_in="C"))
    assert (search.figure("searched"), search.figure("search_in"), search.figure("settled_at")) == (40, "C", 6)
    assert search.figure("positions") is None and search.figure("detail") is None
    program = SolveStats(solver="compiled", detail=ProgramStats(ground_rules=9, value_levels=2))
    assert program.as_dict()["ground_rules"] == 9 and program.as_dict()["value_levels"] == 2
    assert SolveStats(solver="live graph").as_dict()["positions"] is None


def test_an_answers_json_has_the_flat_stats():
    board = load_board(BOARD)
    position = Position((("explorer", (3, 2)), ("mummy", (6, 5))), 0, 1)
    at = Outcome(100, 3, True, 3, True, None)
    answer = read_answer(board, Query("explorer", QueryKind.VALUE, position), at, [], None, 7,
                         SolveStats(solver="race", detail=RaceStats(queries=2)))
    out = json.loads(json.dumps(answer.as_dict()))
    assert out["stats"]["queries"] == 2 and "detail" not in out["stats"] and list(out["stats"]) == list(STATS_FIELDS)


def test_a_position_as_answers_and_strategy_files_write_it():
    board = load_board(ROOT / "boards" / "maze-runner-duel.yaml")     # a bump costs a turn
    roles = board.rules.roles
    turns = len(board.rules.turns)
    lost = tuple(1 if t == turns - 1 else 0 for t in range(turns))
    position = Position(tuple((r, (1 + i, 1)) for i, r in enumerate(roles)), 0, 4, lost=lost)
    answer = position.as_dict(board)
    strategy = position.as_dict(board, strategy=True)
    assert answer["step"] == 4 and "step" not in strategy
    assert strategy["lost_turns"] == list(lost)                     # a list by turns entry
    assert answer["lost_turns"] == {"+".join(board.rules.turns[-1]): 1}   # by the roles of the entry
    assert strategy["pieces"] == answer["pieces"] and strategy["turn"] == answer["turn"]
    assert "lost_turns" not in Position(position.pieces, 0, 4).as_dict(board, strategy=True)
