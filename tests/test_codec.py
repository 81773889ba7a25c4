"""The position codec (gridsolve/solve/graph/codec.py): Position <-> term <-> number round trips on
every shipped board's layout (optional pieces off the board, gates, items, ``was_on`` bits, lost
turns, the knowledge of a ``--hidden`` question), dense and as-found numbering alike, one position
at a time and many at once; and 20 optional chasers numbered without overflow."""
from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import clingo
import numpy as np
import pytest

from gridsolve.compile.knowledge import knowledge_for
from gridsolve.compile.state import layout_for
from gridsolve.language.loader import load_board
from gridsolve.language.position import Position, initial_position
from gridsolve.solve.graph.codec import INT64, FoundNumbering, MixedRadix, PositionCodec

from scripted_boards import enemy_names, enemy_rules, random_board, slot_kinds

ROOT = Path(__file__).resolve().parent.parent
BOARDS = sorted(p for p in (ROOT / "boards").rglob("*.yaml") if p.parent.name != "gdl")    # (boards/gdl: GDL games)


def random_position(board, rng: random.Random) -> Position:
    """A position of ``board`` with every kept field drawn at random: pieces on random cells
    (an optional piece off the board now and then), the side, the items left, lost turns,
    ``was_on`` bits and the gate."""
    rules, layout = board.rules, layout_for(board)
    cells = [(x, y) for x in range(1, board.width + 1) for y in range(1, board.height + 1)]
    pieces = []
    for piece in layout.roles:
        off = piece not in rules.roles and rng.random() < 0.3
        pieces.append((piece, (0, 0) if off else rng.choice(cells)))
    items = tuple((item.name, frozenset(c for c in item.cells if rng.random() < 0.5)) for item in layout.collect)
    lost = tuple(rng.randint(0, 1) for _ in rules.turns) if layout.lost else ()
    was = frozenset(pair for pair in layout.was if rng.random() < 0.5)
    return Position(tuple(pieces), rng.randrange(len(rules.turns)), rules.first_step,
                    items if layout.collect else None, lost, was, gates_open=layout.gate and rng.random() < 0.5)


def _same(codec: PositionCodec, a: Position, b: Position) -> bool:
    return codec.text(a) == codec.text(b) and a.pieces == b.pieces and a.side == b.side and a.was == b.was \
        and a.gates_open == b.gates_open and a.items_left(codec.board) == b.items_left(codec.board)


# the quick tier: one board of each kind of position term (items, lost turns and was_on bits,
# knowledge, chasers with a gate, exit edges); the slow tier: every shipped board
QUICK_BOARDS = {"pacman3p.yaml", "maze-runner-duel.yaml", "wallmaze.yaml", "classic/everything-at-once.yaml",
                "combined/treasure.yaml", "order/crossing.yaml"}


@pytest.mark.parametrize("path", [pytest.param(p, marks=[] if str(p.relative_to(ROOT / "boards")) in QUICK_BOARDS
                                               else [pytest.mark.slow]) for p in BOARDS],
                         ids=lambda p: str(p.relative_to(ROOT / "boards")))
def test_positions_of_every_shipped_board_go_round(path):
    board = load_board(path)
    codec = PositionCodec(board)
    found = PositionCodec(board, found=True)
    assert isinstance(found.numbering, FoundNumbering)
    assert isinstance(codec.numbering, MixedRadix) == (codec.span <= INT64)
    rng = random.Random(39)
    positions = [initial_position(board)] + [random_position(board, rng) for _ in range(40)]
    keys = []
    for position in positions:
        text = codec.text(position)
        term = codec.term(position)
        assert str(term) == text and _same(codec, codec.position(term, position.step), position)
        inner = term.arguments[0] if term.name == "start" else term
        key = codec.key(position)
        assert key >= 0 and codec.symbol(key) == inner and codec.key_of(inner) == key
        assert _same(codec, codec.position_at(key, position.step), position)
        assert found.symbol(found.key(position, add=True)) == inner
        keys.append(key)
    # many at once: the numbers of the terms' rows, the rows and texts of the numbers
    rows = np.array([codec.arguments(k) for k in keys], dtype=np.int64)
    assert codec.numbers(rows).tolist() == keys
    assert codec.rows(np.array(keys)).tolist() == rows.tolist()
    assert codec.texts(np.array(keys)) == [str(codec.symbol(k)) for k in keys]
    assert codec.numbers(codec.rows_of_texts(codec.texts(np.array(keys)))).tolist() == keys
    assert codec.keys(codec.fields(np.array(keys))).tolist() == keys
    # numbered as found: one number a distinct position, in the order found; unknown ones not added
    assert found.size == len(set(keys)) and found.fields(np.arange(found.size)) is not None
    unseen = [k for k in range(min(codec.size, 10**6)) if k not in set(keys)][:1]
    for key in unseen:
        assert found.number(codec.arguments(key), add=False) == -1 and found.size == len(set(keys))


def test_a_term_of_another_game_has_no_number():
    board = load_board(ROOT / "boards" / "classic" / "first-steps.yaml")
    codec = PositionCodec(board)
    args = codec.arguments(codec.key(initial_position(board)))
    assert codec.key_of(clingo.Function("s", [clingo.Number(a) for a in args])) >= 0
    assert codec.key_of(clingo.Function("s", [clingo.Number(a) for a in args[:-1]])) == -1        # too short
    wrong = args[:1] + [board.width + 1] + args[2:]                                                  # off the board
    assert codec.key_of(clingo.Function("s", [clingo.Number(a) for a in wrong])) == -1
    assert codec.key_of(clingo.Function("t", [clingo.Number(a) for a in args])) == -1
    assert codec.key_of(clingo.Function("s", [clingo.Function("a")] + [clingo.Number(a) for a in args[1:]])) == -1


def test_the_knowledge_of_a_hidden_question_is_numbered():
    path = ROOT / "boards" / "maze-runner-duel-secret.yaml"
    board = load_board(path)
    role = board.rules.roles[0]
    knows = knowledge_for(board, role)
    layout = layout_for(board, knows=knows)
    codec, found = PositionCodec(board, layout), PositionCodec(board, layout, found=True)
    names = [f.name for f in codec.term_fields]
    assert "F1" in names and "O1" in names and "K1" in names
    rng = random.Random(7)
    for _ in range(30):
        position = random_position(board, rng)
        free = frozenset(c for c in knows.cells if rng.random() < 0.3)
        position = replace(position, free=free)
        args = [a.number for a in codec.term(position).arguments]
        key = codec.number(args)
        assert codec.arguments(key) == args and found.arguments(found.number(args)) == args


def test_dense_numbers_are_mixed_radix_the_first_field_most_significant():
    numbering = MixedRadix([3, 4, 2])
    assert numbering.size == 24 and numbering.strides == [8, 2, 1]
    keys = numbering.keys([np.array([2, 0, 1]), np.array([3, 0, 2]), np.array([1, 0, 1])])
    assert keys.tolist() == [2 * 8 + 3 * 2 + 1, 0, 8 + 4 + 1]
    assert [f.tolist() for f in numbering.fields(keys)] == [[2, 0, 1], [3, 0, 2], [1, 0, 1]]


def test_twenty_optional_chasers_are_numbered_as_found_without_overflow(tmp_path):
    (tmp_path / "rules").mkdir()
    kinds = slot_kinds(5)
    (tmp_path / "rules" / "slots.yaml").write_text(
        enemy_rules(kinds, optional=True).replace(f"name: other-game-{'-'.join(kinds)}", "name: slots", 1))
    (tmp_path / "board.yaml").write_text(random_board(3, "slots", enemy_names(kinds)[:2], (3, 3)))
    board = load_board(tmp_path / "board.yaml")
    codec = PositionCodec(board)
    assert len(codec.layout.roles) == 21 and codec.span > INT64 and isinstance(codec.numbering, FoundNumbering)
    rng = random.Random(20)
    positions = [random_position(board, rng) for _ in range(200)]
    keys = [codec.key(p, add=True) for p in positions]
    assert max(keys) < len(positions) and codec.size == len({codec.text(p) for p in positions})
    for position, key in zip(positions, keys):
        assert _same(codec, codec.position_at(key, position.step), position)
    rows = codec.rows(np.array(keys))
    assert codec.numbers(rows).tolist() == keys          # (found again: the same numbers, none added)
    assert codec.size == len(set(keys))


@pytest.mark.parametrize("name", ["mummymaze2p-2007.yaml", "classic/ten-by-ten.yaml", "order/crossing.yaml"])
def test_the_ranked_terms_are_written_as_the_symbols(name):
    # RaceGraph.ranked_terms writes many terms at once through the codec: each as its symbol
    from gridsolve.solve.race.racesolver import Engine
    board = load_board(ROOT / "boards" / name)
    graph = Engine(board, [initial_position(board)]).graph
    rank = np.arange(graph.n, dtype=np.int32) % 7 - 1       # (every 7th position unranked)
    expected = {str(graph.symbol(i)): int(rank[i]) for i in range(graph.n) if rank[i] >= 0}
    assert graph.ranked_terms(rank) == expected and len(expected) > 100


@pytest.mark.parametrize("fast", [True, False], ids=["fast", "public"])
@pytest.mark.parametrize("name", ["pacman3p.yaml", "wallmaze.yaml", "combined/treasure.yaml"])
def test_raw_symbols_are_numbered_as_one_at_a_time(name, fast, monkeypatch):
    """keys_of_symbols (many raw symbols at once, as a layered table reads them) gives each
    term's key_of, a start not judged S's number, and -1 for a term that is no position;
    position_keys puts the starts after every number."""
    from gridsolve.solve.graph import rawmodel
    from gridsolve.solve.graph.gamegraph import position_keys
    if not fast:
        monkeypatch.setattr(rawmodel, "FAST", None)
    board = load_board(ROOT / "boards" / name)
    codec = PositionCodec(board)
    rng = random.Random(39)
    terms = [codec.term(random_position(board, rng)) for _ in range(100)]
    symbols = terms + [clingo.Function("start", [t]) for t in terms[:5]] + [clingo.Function("s", [clingo.Number(1)])]
    keys, started = codec.keys_of_symbols(np.array([s._rep for s in symbols], dtype=np.uint64))
    assert keys.tolist() == [codec.key_of(t) for t in terms] + [codec.key_of(t) for t in terms[:5]] + [-1]
    assert started.tolist() == [False] * 100 + [True] * 5 + [False]
    keyed, at = position_keys(codec, np.array([s._rep for s in symbols[:-1]], dtype=np.uint64))
    assert at == codec.size and keyed[100:].tolist() == [codec.key_of(t) + at for t in terms[:5]]
    assert position_keys(codec, np.array([t._rep for t in terms], dtype=np.uint64))[1] is None
