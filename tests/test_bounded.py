"""The bounded solver (gridsolve/solve/bounded/search.py) for games with items.

It must give the layered solver's answers field for field (value, plies, win, survive, every
move, the principal line), with and without its pruning bounds; the random mechanism boards
of tests/test_differential.py also check it against reference/game.py.
"""
from __future__ import annotations

import random

import pytest

from reference import game as reference

from gridsolve.language.loader import load_board
from gridsolve.language.position import Query, make_query
from gridsolve.solve.graph.abstractgame import abstract_game
from gridsolve.solve.bounded.search import BoundedSearch, solve_bounded
from gridsolve.solve.common.capabilities import BOUNDED, RACED, refusal
from gridsolve.solve.program.driver import format_move
from gridsolve.solve.common.limits import Limits
from gridsolve.solve.dispatch.dispatcher import solve
from randomboards import random_mechanism_board
from test_differential import _comparable, _diff, _expected, _got

from conftest import ROOT

# A 5x1 corridor: pacman (west end) and one ghost (east end); pellets on cells 2 and 3.
# Neither piece may stand still, so the ghost, cornered at the east end, must step west.
CORRIDOR = """\
name: Pellet corridor
rules:
  name: pellet-corridor
  roles: [pacman, ghost]
  turns: [[pacman], [ghost]]
  moves:
    pacman: {idle: false, blocked: illegal}
    ghost: {idle: false, blocked: illegal}
  collect:
    pellets: {piece: pacman, mark: pellet}
  score_tables:
    eaten: {count: pellets, values: [0, 10, 30]}
  ends:
    - name: caught
      when: {same_cell: [pacman, ghost]}
      scores: {pacman: eaten, ghost: 100}
      loss_for: [pacman]
  steps: {first: 1, last: 11}
  timeout: {pacman: eaten, ghost: 0}
legend: {P: pacman, G: ghost, .: pellet}
map: |
  +---+---+---+---+---+
  | P   .   .       G |
  +---+---+---+---+---+
"""

FIELDS = ("holds", "value", "plies", "win", "win_plies", "survives", "doom_plies", "remaining", "moves", "line")


def _same(a, b) -> dict:
    da, db = a.as_dict(), b.as_dict()
    return {k: (da[k], db[k]) for k in FIELDS if da[k] != db[k]}


def board_from_text(tmp_path, stem: str, text: str):
    """The board ``text`` written to ``tmp_path/STEM.yaml`` and loaded from there."""
    path = tmp_path / f"{stem}.yaml"
    path.write_text(text, encoding="utf-8")
    return load_board(path)


def _corridor(tmp_path):
    return board_from_text(tmp_path, "corridor", CORRIDOR)


def test_corridor_by_hand(tmp_path):
    """Pacman steps east and eats (10); the ghost's only step is west: pacman on 2, ghost on 4.
    Pacman eats cell 3 (30, the top score).  To delay the end the ghost steps back east, pacman
    follows, and the cornered ghost must step onto pacman: the game stops after 6 plies.
    Pacman cannot avoid capture: stepping back west only lets the ghost corner it at ply 6."""
    board = _corridor(tmp_path)
    answer = solve(board, make_query(board, "pacman"))
    assert answer.stats.solver == "bounded"
    assert (answer.value, answer.win, answer.survives, answer.doom_plies) == (30, True, False, 6)
    assert answer.plies == 6 and answer.win_plies == 6
    assert [m.move for m in answer.line] == ["east", "west", "east", "east", "east", "west"]
    assert _same(answer, solve(board, make_query(board, "pacman"), bounded=False)) == {}


def test_corridor_abstract_races(tmp_path):
    """The abstraction (no pellets): the ghost forces the capture in 6 plies from the start,
    and so does pacman, walking the ghost into its corner."""
    board = _corridor(tmp_path)
    query = make_query(board, "pacman")
    game = abstract_game(board, [query.position])
    solver = BoundedSearch(board, game, "pacman")
    root = game.state_of(query.position)
    assert solver.doom[root] == 6
    assert solver.team_stops[root] == 6
    assert len(game) < 2 * 5 * 5                         # only placements reachable from the start
    assert all(game.outcome[i] == "caught" for i in range(len(game)) if game.cells[i][0] == game.cells[i][1])


def test_bounds_change_no_answer_on_the_corridor(tmp_path):
    board = _corridor(tmp_path)
    for horizon in (1, 2, 3, 5, 8):
        for role in ("pacman", "ghost"):
            query = make_query(board, role, "value", horizon=horizon)
            assert _same(solve_bounded(board, query), solve_bounded(board, query, prune=False)) == {}


def _item_boards(tmp_path, seeds):
    for seed in seeds:
        rb = random_mechanism_board(seed)
        board = board_from_text(tmp_path, f"mech-{seed}", rb.text)
        if board.rules.collect:
            yield seed, board


def _check_item_boards(tmp_path, seeds):
    checked = 0
    for seed, board in _item_boards(tmp_path, seeds):
        for role in board.rules.roles:
            for horizon in (3, 6):
                query = make_query(board, role, "value", horizon=horizon)
                if refusal(BOUNDED, board, query) not in (None, RACED):     # (a race question: searched too)
                    continue
                pruned = solve_bounded(board, query)
                assert _same(pruned, solve(board, query, bounded=False)) == {}, (seed, role, horizon)
                assert _same(pruned, solve_bounded(board, query, prune=False)) == {}, (seed, role, horizon)
                checked += 1
    return checked


@pytest.mark.slow
def test_bounded_equals_layered_on_random_item_boards(tmp_path):
    assert _check_item_boards(tmp_path, range(0, 12)) >= 2


@pytest.mark.slow
def test_bounded_equals_layered_on_many_random_item_boards(tmp_path):
    assert _check_item_boards(tmp_path, range(12, 100)) >= 10


@pytest.mark.slow
def test_pacman_seed_equals_layered_within_a_horizon():
    board = load_board(ROOT / "boards" / "pacman3p.yaml")
    for role, horizon in (("pacman", 4), ("blinky", 3)):
        query = make_query(board, role, "value", horizon=horizon)
        assert _same(solve(board, query), solve(board, query, bounded=False)) == {}


@pytest.mark.slow
def test_pacman_seed_at_the_full_step_limit():
    """The seed's question: pacman makes sure of 7 pellets (14 points) over the 99 plies; the
    ghosts catch it within 16 plies whatever it does, so 8 (16 points) cannot be forced."""
    board = load_board(ROOT / "boards" / "pacman3p.yaml")
    answer = solve(board, make_query(board, "pacman", "win"))
    assert answer.stats.solver == "bounded"
    assert (answer.value, answer.win, answer.holds, answer.survives, answer.doom_plies) == (14, False, False, False, 16)
    assert answer.remaining == 99


def pacman_like_board(seed: int) -> str:
    """A small board under the Pacman seed's rules (a short step limit): random walls, the three
    pieces on distinct cells, pellets on about half the other cells."""
    rng = random.Random(seed)
    width, height = rng.choice([(4, 3), (4, 4), (5, 3)])
    cells = [(x, y) for x in range(1, width + 1) for y in range(1, height + 1)]
    north = [[x, y] for x, y in cells if y < height and rng.random() < 0.15]
    east = [[x, y] for x, y in cells if x < width and rng.random() < 0.15]
    pacman, blinky, inky = rng.sample(cells, 3)
    rest = [c for c in cells if c not in (pacman, blinky, inky)]
    pellets = sorted(rng.sample(rest, max(2, len(rest) // 2)))
    return pacman_board_text(f"pacman-like {seed}", (width, height), north, east, (pacman, blinky, inky), pellets,
                             rng.choice([9, 11, 13]))


def pacman_board_text(name: str, size: tuple, north: list, east: list, pieces: tuple, pellets: list, last: int) -> str:
    """A board file under the Pacman seed's rules with the last step ``last``: walls north and
    east of the cells given, pacman, blinky and inky on ``pieces``, pellets on ``pellets``."""
    pacman, blinky, inky = pieces
    return "\n".join([
        f"name: {name}",
        "rules: {use: pacman-3p, steps: {first: 1, last: " + str(last) + "}}",
        f"size: [{size[0]}, {size[1]}]",
        f"walls: {{north: {north}, east: {east}}}",
        f"pieces: {{pacman: {list(pacman)}, blinky: {list(blinky)}, inky: {list(inky)}}}",
        f"marks: {{pellet: {[list(c) for c in pellets]}}}", ""])


def agrees_with_the_reference(board, role: str, kind: str, seed: int):
    """solve's answer to ``role``'s ``kind`` question at the board's start, after checking it
    against reference/game.py (value, plies, win, survive, every move)."""
    query = make_query(board, role, kind)
    answer = solve(board, query)
    got, want = _comparable(_got(answer), _expected(reference.reference_answer(
        board, role, kind, query.position, None)), kind)
    assert got == want, f"seed {seed} {role} {kind}\n{_diff(got, want)}"
    return answer


def _check_pacman_like(tmp_path, seeds) -> int:
    checked = 0
    for seed in seeds:
        board = board_from_text(tmp_path, f"pacman-like-{seed}", pacman_like_board(seed))
        for role, kind in (("pacman", "value"), ("pacman", "win"), ("blinky", "value")):
            answer = agrees_with_the_reference(board, role, kind, seed)
            assert (answer.stats.solver == "bounded") == (role == "pacman")   # blinky's scores: races
            checked += 1
    return checked


@pytest.mark.slow
def test_pacman_like_boards_agree_with_the_reference(tmp_path):
    """Value, plies, win, survive and every move against reference/game.py (full step limit)."""
    assert _check_pacman_like(tmp_path, range(1)) == 3


@pytest.mark.slow
def test_many_pacman_like_boards_agree_with_the_reference(tmp_path):
    assert _check_pacman_like(tmp_path, range(1, 24)) == 69


def _asked_in_a_row(board, seed: int, n: int) -> list:
    """``n`` pacman questions at positions along a random game, with random kinds and horizons."""
    from gridsolve.language.position import initial_position
    from gridsolve.solve.program.explore import examine
    rng = random.Random(seed)
    position, out = initial_position(board), []
    while len(out) < n:
        left = board.rules.last_step - position.step
        horizon = rng.choice([None, None, max(1, left - 2), max(1, left // 2)])
        out.append(Query("pacman", rng.choice(["value", "win"]), position, horizon))
        end, steps = examine(board, position)
        if end is not None or not steps or position.step >= board.rules.last_step:
            position = initial_position(board)
        else:
            position = rng.choice(steps).position
    return out


def _check_shared_memo(tmp_path, seeds) -> int:
    """An Asker (one memo for every question) answers each question as the bounded solver
    alone does, field for field, and the memo is ground once for a game."""
    from gridsolve.solve.dispatch.asker import Asker
    checked = 0
    for seed in seeds:
        board = board_from_text(tmp_path, f"pacman-like-{seed}", pacman_like_board(seed))
        asker = Asker(board)
        for query in _asked_in_a_row(board, seed, 12):
            shared = asker.ask(query)
            assert shared.stats.solver == "bounded"
            assert _same(shared, solve_bounded(board, query)) == {}, (seed, query)
            checked += 1
        assert asker.memo.groundings == 1
        assert any(s.remembered() for s in asker.memo.solvers.values())
    return checked


@pytest.mark.slow
def test_questions_in_a_row_share_the_memo_and_keep_their_answers(tmp_path):
    assert _check_shared_memo(tmp_path, range(1)) == 12


@pytest.mark.slow
def test_many_questions_in_a_row_share_the_memo_and_keep_their_answers(tmp_path):
    assert _check_shared_memo(tmp_path, range(1, 20)) == 228


def test_a_memo_full_of_earlier_tables_is_dropped_before_refusing(tmp_path, monkeypatch):
    """When the earlier questions' tables fill the memory limit, the question is asked again
    without them (its answer is the one solving it alone gives), and refused only then."""
    from gridsolve.errors import MemoryLimitError
    from gridsolve.solve.bounded import search
    from gridsolve.solve.dispatch.asker import Asker
    board = board_from_text(tmp_path, "pacman-like-0", pacman_like_board(0))
    asker = Asker(board)
    first, second = _asked_in_a_row(board, 0, 2)
    asker.ask(first)
    real = search.solve_bounded
    calls = []

    def full(*args, **kwargs):
        calls.append(kwargs["memo"].forget.__self__ is asker.memo)
        if len(calls) == 1:
            raise MemoryLimitError("the positions do not fit", "ask with a smaller horizon")
        return real(*args, **kwargs)
    monkeypatch.setattr(search, "solve_bounded", full)
    assert _same(asker.ask(second), solve_bounded(board, second)) == {}
    assert calls == [True, True]
    monkeypatch.setattr(search, "solve_bounded", lambda *a, **k: (_ for _ in ()).throw(MemoryLimitError("x", "y")))
    asker.memo.forget()
    with pytest.raises(MemoryLimitError):
        asker.ask(second)


def test_tables_holding_half_the_memory_limit_are_dropped_before_the_next_question(tmp_path, monkeypatch):
    """The earlier questions' tables are dropped before a question when they hold half the
    memory that the limit leaves beside the game (what the process holds besides them): the
    solver stays, with its ranks and classes; the answer is the one solving it alone gives."""
    from gridsolve.solve.bounded import memo as boundedmemo
    from gridsolve.solve.dispatch.asker import Asker
    board = board_from_text(tmp_path, "pacman-like-1", pacman_like_board(1))
    asker = Asker(board)
    first, second, third = _asked_in_a_row(board, 1, 3)
    asker.ask(first)
    kept = asker.memo.solvers[("pacman", True)]
    held = kept.remembered()
    assert held
    asker.ask(second)
    assert kept.remembered() >= held                                  # under half the room: kept
    limit = Limits().memory
    game_and_more = limit // 2
    monkeypatch.setattr(boundedmemo, "resident", lambda: asker.memo.base + game_and_more + kept.table_bytes())
    monkeypatch.setattr(kept, "table_bytes", lambda: (limit - game_and_more) // 2 + 1)   # half the room
    dropped = []
    monkeypatch.setattr(kept, "forget", lambda real=kept.forget: dropped.append(kept.remembered()) or real())
    assert _same(asker.ask(third), solve_bounded(board, third)) == {}
    assert asker.memo.solvers[("pacman", True)] is kept and dropped and dropped[0] >= held
    monkeypatch.setattr(kept, "table_bytes", lambda: (limit - game_and_more) // 2)        # not more than half
    asker.ask(second)
    assert len(dropped) == 1


@pytest.mark.slow
def test_the_team_tries_the_moves_that_take_an_item_first(tmp_path):
    """attack_order: the same moves as merged, those that take an item before the others
    (and, within each group, the search order); on the corridor pacman's east step eats."""
    board = _corridor(tmp_path)
    query = make_query(board, "pacman")
    game = abstract_game(board, [query.position])
    solver = BoundedSearch(board, game, "pacman")
    root = game.state_of(query.position)
    items = solver.items.of(query.position.items_left(board))
    order = solver.attack_order(root, items)
    assert [format_move(m) for m, _, _ in order] == ["east"]     # pacman's only step eats
    checked = 0
    for seed in range(3):
        board = board_from_text(tmp_path, f"pacman-like-{seed}", pacman_like_board(seed))
        query = make_query(board, "pacman")
        game = abstract_game(board, [query.position])
        solver = BoundedSearch(board, game, "pacman")
        items = solver.items.of(query.position.items_left(board))
        for state in range(len(game)):
            if game.turn[state] not in solver.team_turns:
                continue
            order = solver.attack_order(state, items)
            assert sorted(order, key=id) == sorted(solver.merged(state), key=id)
            eats = [bool(items & ~keep) for _, _, keep in order]
            assert eats == sorted(eats, reverse=True), (seed, state)
            search = solver.search_order(state, True)
            assert [p for p in order if items & ~p[2]] == [p for p in search if items & ~p[2]]
            checked += any(eats) and not all(eats)
    assert checked > 0                                  # some states mix eating and other moves
