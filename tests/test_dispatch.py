"""The one dispatch mechanism (gridsolve/solve/dispatch/): ``solve()`` and the Asker are both a
Dispatcher of the same rows of the table, each question going to the row the one chooser
(capabilities.choose) picks; the Asker's solvers keep their work between questions (caching.py).

Each caching solver serves the questions written here by hand, ``solve()`` and the Asker pick the
same row for each and answer alike on boards of each mode (races, layered tables, the bounded and
robust searches, the compiled program), each answer's ``stats.solver`` naming its row, the race
engine is ground again only for a position it does not reach, and a search that runs out of
memory is asked again without the earlier questions' tables.
"""
from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from conftest import CORRIDOR
from test_bounded import board_from_text, pacman_like_board
from gridsolve.errors import MemoryLimitError
from gridsolve.language.loader import load_board
from gridsolve.render import format_answer
from gridsolve.language.position import Query, initial_position, make_position, make_query
from gridsolve.solve.common import capabilities as cap
from gridsolve.solve.common.answer import Question, SolveStats
from gridsolve.solve.common.limits import Limits
from gridsolve.solve.dispatch import caching
from gridsolve.solve.dispatch.asker import Asker
from gridsolve.solve.dispatch.caching import CachingSearch, Session
from gridsolve.solve.dispatch.dispatcher import every, exact, solve

BOARDS = Path(__file__).resolve().parent.parent / "boards"


def _without_stats(answer) -> dict:
    out = answer.as_dict()
    out.pop("stats")
    return out


@pytest.fixture(scope="module")
def boards(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("boards")
    (tmp / "corridor.yaml").write_text(CORRIDOR)
    return {"corridor": load_board(tmp / "corridor.yaml"), "pacman": board_from_text(tmp, "pacman-like-0", pacman_like_board(0)),
            "duel": load_board(BOARDS / "maze-runner-duel.yaml"), "wallmaze": load_board(BOARDS / "wallmaze.yaml")}


def _questions(boards) -> list[tuple[str, object, Query]]:
    """(the row that should answer, board, query): a few of each mode, written by hand."""
    corridor, pacman, duel, wallmaze = boards["corridor"], boards["pacman"], boards["duel"], boards["wallmaze"]
    start = initial_position(corridor)
    aside = make_position(duel, ("p1=2,4", "p2=5,1"), "p1")
    return [("race", corridor, Query("explorer", "value", start)),
            ("race", corridor, Query("mummy", "survive", start, 2)),
            ("compiled", corridor, Query("explorer", "value", start, strategy=True)),
            ("bounded", pacman, make_query(pacman, "pacman", "value")),
            ("bounded", pacman, make_query(pacman, "pacman", "win", horizon=4)),
            ("race", pacman, make_query(pacman, "blinky", "value")),        # blinky's scores: races
            ("layered table", wallmaze, make_query(wallmaze, "white", "value")),
            ("layered table", wallmaze, make_query(wallmaze, "white", "value", horizon=3)),
            ("layered table", wallmaze, make_query(wallmaze, "black", "survive", horizon=2)),
            ("robust search", duel, Query("p1", "value", aside, 4, hidden=True))]


def _alone(name: str, board, query: Query) -> str:
    """The row that answers ``query`` asked alone (``solve``): the Asker's, but a layered table
    only for a question that looks to the end of the game (else the compiled program grounds fewer)."""
    return "compiled" if name == "layered table" and query.horizon is not None else name


def test_the_asker_and_solve_are_dispatchers_of_the_same_rows(boards):
    board = boards["corridor"]
    question = Question(board, Query("explorer", "value", initial_position(board)))
    asker = Asker(board)
    assert set(asker.makers) == set(every(question).makers) == set(cap.ANSWERING)
    assert set(exact().makers) == {"race", "compiled"}
    assert asker.solver("race") is asker.race and asker.solver("layered table") is asker.tabled
    assert all(isinstance(asker.solver(row), CachingSearch) for row in ("bounded", "robust search", "hidden", "compiled"))


@pytest.mark.slow
def test_each_caching_solver_serves_the_questions_it_should(boards):
    """A question is served by the solver written for it (and by the compiled program, which
    serves every question; a --hidden one by the compiled robust game too); the Asker and
    ``solve()`` choose that one."""
    askers = {}
    for name, board, query in _questions(boards):
        asker = askers.setdefault(board.name, Asker(board))
        question = Question(board, query, asker.limits)
        also = {"hidden", "compiled"} if query.hidden else {"compiled"}
        assert {row for row in asker.makers if asker.solver(row).serves(question)} == {name, *also}, query
        assert asker.pick(question).name == asker.choose(question) == cap.choose(question, fits=lambda row: True) == name
        assert every(question).choose(question) == _alone(name, board, query)


def test_a_hidden_question_the_robust_search_refuses_is_the_compiled_robust_game():
    board = load_board(BOARDS / "pacman3p.yaml")
    question = Question(board, Query("pacman", "value", initial_position(board), hidden=True))
    assert "items" in cap.refusal(cap.ROBUST, board, question.query)
    assert cap.choose(question) == every(question).choose(question) == Asker(board).choose(question) == "hidden"


def test_a_table_that_does_not_fit_leaves_the_question_to_the_compiled_program(boards):
    board = boards["wallmaze"]
    question = Question(board, make_query(board, "white", "value", horizon=3), Limits(memory=1))
    asker = Asker(board)
    assert cap.choose(question) == "layered table"
    assert asker.pick(question).name == every(question).pick(question).name == "compiled"
    assert "white" in asker.tables.refused


@pytest.mark.slow
def test_the_asker_answers_as_solve_on_boards_of_each_mode(boards):
    askers = {}
    for name, board, query in _questions(boards):
        asker = askers.setdefault(board.name, Asker(board))
        alone = solve(board, query)
        shared = asker.ask(query)
        assert (shared.stats.solver, alone.stats.solver) == (name, _alone(name, board, query)), query
        alone = _without_stats(alone)
        assert _without_stats(shared) == alone, query
        quiet = asker.ask(query, line_plies=0)
        assert quiet.line is None and _without_stats(quiet) == {**alone, "line": None}, query
        first = asker.ask(query, line_plies=1)
        cut = alone["line"][:1] if name in ("race", "bounded", "robust search") else alone["line"]   # the others: whole
        assert len(alone["line"]) > 1 and _without_stats(first) == {**alone, "line": cut}, query


def test_a_reached_position_reuses_the_engine_and_an_unreached_one_grounds_once_more(boards):
    board = boards["corridor"]
    escaped = make_position(board, at=("explorer=4,2",), turn="mummy")    # on the exit: the game is over
    start = initial_position(board)
    asker = Asker(board)
    asker.ask(Query("explorer", "value", escaped))
    engine = asker.engine
    asker.ask(Query("mummy", "survive", escaped))
    assert (asker.groundings, asker.engine) == (1, engine)
    assert asker.ask(Query("explorer", "value", start)).value == 100   # not reached from the exit
    assert asker.groundings == 2 and asker.roots == [escaped, start]
    asker.ask(Query("mummy", "value", escaped))                            # reached from the new roots
    assert asker.groundings == 2


def test_the_engine_is_ground_within_the_memory_limit_without_the_time_limit(boards, monkeypatch):
    grounded = []

    class Recorded:
        def __init__(self, board, roots, plies, limits):
            grounded.append((list(roots), plies, limits))

        def serves(self, query):
            return True

        def answer(self, query, line_plies, moves=True):
            return SimpleNamespace(line_plies=line_plies, stats=SolveStats(solver="race"))

    monkeypatch.setattr(caching, "Engine", Recorded)
    board = boards["corridor"]
    start = initial_position(board)
    asker = Asker(board, [start], plies=2, limits=Limits(seconds=5, memory=10 ** 9))
    assert asker.ask(Query("explorer", "value", start, 3), line_plies=4).line_plies == 4
    assert grounded == [([start], 3, Limits(seconds=None, memory=10 ** 9))]


class _Fake:
    """A solver that runs out of memory the first ``fails`` times it is asked."""

    name = "fake"

    def __init__(self, fails: int):
        self.fails, self.asked = fails, []

    def serves(self, question):
        return True

    def answer(self, question):
        self.asked.append(question)
        if len(self.asked) <= self.fails:
            raise MemoryLimitError("the positions do not fit", "ask with a smaller horizon")
        return SimpleNamespace(line=["a ply"])


class _Memo:
    def __init__(self, held: bool):
        self.held, self.forgotten = held, 0

    def forget(self):
        self.forgotten += 1
        return self.held


def _session(board, held: bool) -> Session:
    session = Session(board)
    session.memo = _Memo(held)
    return session


def test_a_search_out_of_memory_is_asked_again_without_the_earlier_tables(boards):
    board = boards["corridor"]
    session, fake = _session(board, held=True), _Fake(fails=1)
    question = Question(board, Query("explorer", "value", initial_position(board)), line_plies=0)
    answer = CachingSearch(fake, session).answer(question)
    assert answer.line is None and session.memo.forgotten == 1
    assert [(q.memo, q.line_plies) for q in fake.asked] == [(session.memo, 1), (session.memo, 1)]


def test_a_search_out_of_memory_without_earlier_tables_is_refused(boards):
    board = boards["corridor"]
    question = Question(board, Query("explorer", "value", initial_position(board)))
    for held, fails in ((False, 1), (True, 2)):
        session, fake = _session(board, held), _Fake(fails)
        with pytest.raises(MemoryLimitError):
            CachingSearch(fake, session).answer(question)
        assert session.memo.forgotten == 1 and len(fake.asked) == 1 + held


def test_the_memo_is_made_at_the_first_question_that_needs_it_from_the_roots_of_its_time(boards):
    board = boards["corridor"]
    start = initial_position(board)
    asker = Asker(board)
    asker.ask(Query("explorer", "value", start))
    assert asker.memo is None
    asker.ask(Query("explorer", "value", start, strategy=True))
    assert asker.memo.roots == [start] and asker.memo.groundings == 0


def test_an_asker_for_queries_is_rooted_at_their_positions_with_the_most_plies_left(boards):
    board = boards["corridor"]
    start = initial_position(board)
    later = make_position(board, at=("explorer=3,2",), turn="mummy")
    whole = Query("mummy", "value", later)
    asker = Asker.for_queries(board, [Query("explorer", "value", start, 2), whole, Query("explorer", "win", start, 3)],
                              Limits(seconds=7))
    assert whole.remaining(board) > 3
    assert (asker.roots, asker.plies, asker.limits) == ([start, later], whole.remaining(board), Limits(seconds=7))


def test_solve_s_text_says_which_row_answered():
    """The layered table, now solve's too, says what it ground (not a program of 0 rules); the
    compiled program the rules it ground."""
    board = load_board(BOARDS / "combined" / "treasure.yaml")
    query = make_query(board, "explorer", "value")
    tabled = solve(board, query)
    assert tabled.stats.solver == "layered table"
    text = format_answer(board, tabled, query.position)
    assert re.search(r"^solved in [0-9.]+ s: 29 positions and 125 moves ground, read off the role's layered table$",
                     text, re.M), text
    compiled = solve(board, query, bounded=False)
    assert compiled.stats.solver == "compiled" and re.search(r"ground program: [1-9][0-9]* rules$",
                                                             format_answer(board, compiled, query.position))
