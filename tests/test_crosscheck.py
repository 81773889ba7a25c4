"""``gridsolve crosscheck BOARD --against GAME.kif`` (gridsolve/crosscheck/, docs/crosscheck.md).

* every seed board agrees with its original (a sample of the first positions here, every
  reachable one in the slow tier);
* a board with a wall removed, and one under the prose reading of the 2007 rules, differ at
  the first position where they should, with exit code 1;
* the GDL states the crosscheck visits, layer by layer, are the states the tests' own GDL
  interpreter (reference/gdl.py) reaches, and on them the product's engine says what
  the interpreter says: terminal, goals, legal moves, successors;
* a bad mapping and a missing file: exit code 2 and the exact message.
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from gridsolve.cli import main  # noqa: E402
from gridsolve.crosscheck.compare import crosscheck  # noqa: E402
from gridsolve.gdl.description import read_description  # noqa: E402
from gridsolve.gdl.engine import ground_game, judge_states, next_states  # noqa: E402
from gridsolve.gdl.kif import read_kif  # noqa: E402
from gridsolve.gdl.translate import symbol_kif  # noqa: E402
from gridsolve.solve.common.limits import LimitGuard, Limits  # noqa: E402
from reference.gdl import GdlGame, to_kif  # noqa: E402
from tests.gdl.reference import kif_path  # noqa: E402

SEEDS = {"mummymaze2p-2007.yaml": "mummyMaze2p_2007.kif", "mummymaze2p.yaml": "mummymaze2p.kif",
         "wallmaze.yaml": "wallmaze.kif", "pacman3p.yaml": "pacman3p.kif"}


def board_path(name: str) -> Path:
    return ROOT / "boards" / name


def test_every_seed_board_names_its_original():
    for board, kif in SEEDS.items():
        text = board_path(board).read_text(encoding="utf-8")
        assert re.search(rf"(?m)^  against: {re.escape(kif)}$", text), board


@pytest.mark.parametrize("board", [pytest.param(b, marks=pytest.mark.slow) if b in ("pacman3p.yaml", "mummymaze2p.yaml")
                                   else b for b in sorted(SEEDS)])     # (the two largest: the slow tier)
def test_the_first_positions_of_each_seed_board_agree(board):
    result = crosscheck(board_path(board), kif_path(SEEDS[board]), states=150)
    assert result.difference is None, result.difference
    assert (result.agree, result.complete, result.positions) == (True, False, 150)
    assert result.layers[0] == 1 and sum(result.layers) == 150
    assert result.moves > 150


@pytest.mark.slow
@pytest.mark.parametrize("board, states", [("mummymaze2p-2007.yaml", None), ("wallmaze.yaml", None),
                                           ("mummymaze2p.yaml", 10_000), ("pacman3p.yaml", 5_000)])
def test_seed_boards_agree_with_their_originals(board, states):
    """Every reachable position of the 2007 game and Wallmaze (the GDL engine's reachable
    states and moves, counted by ``gridsolve solve GAME.kif``); the first 10,000 and 5,000 of
    the others (their games hold millions; bench/crosscheck.py compares more)."""
    result = crosscheck(board_path(board), kif_path(SEEDS[board]), states=states)
    assert result.difference is None, result.difference
    assert result.complete == (states is None)
    if board == "mummymaze2p-2007.yaml":
        assert (result.positions, result.moves, result.plies) == (132_272, 585_269, 49)
    if board == "wallmaze.yaml":
        assert (result.positions, result.moves) == (38_226, 250_028)


# ---------------------------------------------------------------------------
# differences
# ---------------------------------------------------------------------------


def mutated(tmp_path, board: str, old: str, new: str) -> Path:
    text = board_path(board).read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path = tmp_path / board
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


def test_a_removed_wall_differs_at_the_start(tmp_path):
    """The wall west of the explorer's start (6,3) removed: at ply 0 the board has 'west',
    the GDL has not."""
    path = mutated(tmp_path, "mummymaze2p-2007.yaml", "| E         |", "  E         |")
    result = crosscheck(path, kif_path("mummyMaze2p_2007.kif"))
    d = result.difference
    assert not result.agree
    assert (d.ply, d.what, d.gdl, d.board, d.line) == (0, "the legal moves differ", "only in GDL: -",
                                                       "only in the board: west", [])
    assert d.position == "explorer 6,3, mummy 2,5; explorer to move; step 1"
    assert d.fluents == ["(control explorer)", "(location explorer 6 3)", "(location mummy 2 5)", "(step 1)"]


def first_ply_with_a_capture_move(game: GdlGame) -> int:
    """The fewest plies from the start to a GDL state where the mummy has a legal move onto
    the explorer (by the tests' interpreter alone)."""
    layer, seen, ply = [game.initial()], {game.initial()}, 0
    while layer:
        nxt = []
        for state in layer:
            if game.terminal(state):
                continue
            for joint in game.joint_moves(state):
                after = game.next(state, joint)
                where = {f[1]: f[2:] for f in after if f[0] == "location" and f[1] in ("explorer", "mummy")}
                if ("(control mummy)" in map(to_kif, state)) and where["explorer"] == where["mummy"]:
                    return ply
                if after not in seen:
                    seen.add(after)
                    nxt.append(after)
        layer, ply = nxt, ply + 1
    raise AssertionError("no capture move")


def test_the_prose_rules_differ_where_the_mummy_first_can_catch(tmp_path):
    path = mutated(tmp_path, "mummymaze2p-2007.yaml", "rules: mummy-maze-2007\n", "rules: mummy-maze-2007-prose\n")
    result = crosscheck(path, kif_path("mummyMaze2p_2007.kif"))
    d = result.difference
    assert (d.what, d.gdl, d.board) == ("the legal moves differ", f"only in GDL: {d.move}", "only in the board: -")
    assert d.ply == first_ply_with_a_capture_move(GdlGame.from_file(kif_path("mummyMaze2p_2007.kif")))
    assert d.ply == len(d.line) and "mummy to move" in d.position


def test_two_gdl_moves_named_as_one_board_move_differ(tmp_path):
    """A mapping that drops the mummy's second step names (move2 west north) and (move2 west
    nowhere) both 'west': a difference at the mummy's first turn."""
    path = mutated(tmp_path, "mummymaze2p-2007.yaml", '"(move2 {1} {2})": "{1} {2}"', '"(move2 {1} {2})": "{1}"')
    d = crosscheck(path, kif_path("mummyMaze2p_2007.kif")).difference
    assert (d.ply, d.what, len(d.line)) == (1, "two GDL joint moves have one board name", 1)
    assert "mummy to move" in d.position


def test_the_cli_exit_codes_and_json(tmp_path):
    runner = CliRunner()
    kif = str(kif_path("mummyMaze2p_2007.kif"))
    ok = runner.invoke(main, ["crosscheck", str(board_path("mummymaze2p-2007.yaml")), "--against", kif,
                              "--states", "40"])
    assert ok.exit_code == 0, ok.output
    assert "40 positions and" in ok.output and "compared, the first 40 breadth-first (--states 40; more are reachable)" in ok.output
    assert ok.output.rstrip().endswith("the same game: states, legal moves, ends and goals agree")
    path = mutated(tmp_path, "mummymaze2p-2007.yaml", "| E         |", "  E         |")
    bad = runner.invoke(main, ["crosscheck", str(path), "--against", kif, "--json"])
    assert bad.exit_code == 1, bad.output
    out = json.loads(bad.output)
    assert (out["agree"], out["difference"]["ply"], out["difference"]["board"]) == (False, 0, "only in the board: west")
    text = runner.invoke(main, ["crosscheck", str(path), "--against", kif]).output
    assert "first difference, at ply 0: the legal moves differ\n" in text
    assert "  board position: explorer 6,3, mummy 2,5; explorer to move; step 1\n" in text
    assert "  GDL state:      (control explorer) (location explorer 6 3) (location mummy 2 5) (step 1)" in text


# ---------------------------------------------------------------------------
# the product's engine against the tests' interpreter, on the states the crosscheck visits
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("board, plies", [("mummymaze2p-2007.yaml", 5), pytest.param("wallmaze.yaml", 4, marks=pytest.mark.slow),
                                          pytest.param("pacman3p.yaml", 4, marks=pytest.mark.slow)])
def test_the_states_visited_are_the_interpreters(board, plies):
    """The crosscheck's positions per ply are the interpreter's reachable GDL states per ply
    (the mapping is one to one, and every move reached the engine's successor), and on those
    states the engine's terminal, goals, legal moves and successors are the interpreter's."""
    path = kif_path(SEEDS[board])
    game = GdlGame.from_file(path)
    layers, layer, seen = [], [game.initial()], {game.initial()}
    for _ in range(plies):
        layers.append(layer)
        layer = [n for s in layer if not game.terminal(s) for j in game.joint_moves(s)
                 for n in [game.next(s, j)] if n not in seen and not seen.add(n)]
    result = crosscheck(board_path(board), path, states=sum(map(len, layers)))
    assert result.agree and result.layers == [len(states) for states in layers]

    engine = ground_game(read_description(path), LimitGuard(Limits(), "test", lambda n: ""))
    states = [s for states in layers for s in states]
    bits = np.array([engine.state_of([read_kif(to_kif(f))[0] for f in s]) for s in states])
    terminal, goal, legal = judge_states(engine, bits)
    roles = engine.role_names
    moves = [[symbol_kif(m) for m in ms] for ms in engine.moves]
    for i, state in enumerate(states):
        assert bool(terminal[i]) == game.terminal(state)
        if terminal[i]:
            assert {r: int(goal[i, k]) for k, r in enumerate(roles)} == game.goals(state)
            continue
        theirs = game.legal_moves(state)
        assert {r: sorted(moves[k][n] for n in np.flatnonzero(legal[k][i])) for k, r in enumerate(roles)} == \
            {r: sorted(to_kif(m).lower() for m in theirs[r]) for r in roles}
        for joint in game.joint_moves(state)[:3]:
            numbers = np.array([[moves[k].index(to_kif(joint[r]).lower()) for k, r in enumerate(roles)]])
            after = next_states(engine, bits[i:i + 1], numbers)[0]
            assert sorted(engine.fluent_texts(after)) == sorted(to_kif(f).lower() for f in game.next(state, joint))


# ---------------------------------------------------------------------------
# bad input: exit code 2, the exact message
# ---------------------------------------------------------------------------


def run(*args) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["crosscheck", *map(str, args)])
    return result.exit_code, result.output


def test_a_missing_board_and_a_missing_game(tmp_path):
    kif = tmp_path / "nothing.kif"
    assert run(tmp_path / "none.yaml", "--against", kif) == (
        2, f"Error: {tmp_path / 'none.yaml'}: no such file. Check the path.\n")
    assert run(board_path("wallmaze.yaml"), "--against", kif) == (2, f"Error: {kif}: no such file. Check the path.\n")


def test_a_game_file_that_is_not_gdl_and_a_limit():
    board = board_path("wallmaze.yaml")
    assert run(board, "--against", board) == (
        2, f"Error: {board}: not a GDL file (.kif or .gdl). Give --against the game's KIF file.\n")
    code, output = run(board, "--against", kif_path("wallmaze.kif"), "--timeout", "0.001")
    assert code == 3 and output.startswith("Error: the positions to crosscheck do not fit: "), output
    assert output.endswith("Allow more time with --timeout (now 0.001 s), or compare fewer positions (--states N).\n")


def test_a_board_without_a_mapping(tmp_path):
    path = tmp_path / "plain.yaml"
    path.write_text("rules: wallmaze\nsize: [3, 1]\npieces: {white: [1, 1], black: [3, 1]}\n"
                    "marks: {white_goal: [[3, 1]], black_goal: [[1, 1]]}\n", encoding="utf-8")
    assert run(path, "--against", tmp_path / "g.kif") == (
        2, f"Error: {path}: the board names no GDL mapping (no 'crosscheck:' key). Add one: how pieces, side to "
           "move, step and moves read in the GDL game (see docs/crosscheck.md).\n")


@pytest.mark.parametrize("old, new, message", [
    ("    mummy: (location mummy {x} {y})\n", "    mummy: (location mummy {x} {z})\n",
     "{line}: crosscheck.pieces.mummy: unknown field {{z}} in '(location mummy {{x}} {{z}})'. Use {{x}}, {{y}} here."),
    ("    mummy: (location mummy {x} {y})\n", "    mumy: (location mummy {x} {y})\n",
     "{line}: crosscheck.pieces.mumy: 'mumy' is not a role of the board. Name one of explorer, mummy."),
    ("  control: [(control explorer), (control mummy)]\n", "  control: [(control explorer)]\n",
     "{line}: crosscheck.control: 1 fluent(s) for 2 turns entries. Give one fluent for each entry of the rules' "
     "turns, in order."),
    ('    mummy: {"(move2 {1} {2})": "{1} {2}"}\n', '    mummy: {"(move2 {1})": "{1} {2}"}\n',
     "{line}: crosscheck.moves.mummy.(move2 {{1}}): unknown field {{2}} in '{{1}} {{2}}'. Use {{1}} here."),
    ("  step: (step {step})\n", "  stp: (step {step})\n",
     "{line}: crosscheck: unknown key 'stp'. Did you mean 'step'?"),
])
def test_a_bad_mapping_says_where_and_what(tmp_path, old, new, message):
    path = mutated(tmp_path, "mummymaze2p-2007.yaml", old, new)
    line = path.read_text(encoding="utf-8")[:path.read_text(encoding="utf-8").index(new)].count("\n") + 1
    code, output = run(path, "--against", kif_path("mummyMaze2p_2007.kif"))
    assert (code, output) == (2, "Error: " + message.format(line=f"{path}:{line}") + "\n")


@pytest.mark.parametrize("seed", ["2007", "gdl", "wallmaze", "pacman"])
def test_the_shipped_mappings_write_what_the_equivalence_tests_mapping_writes(seed):
    """tests/test_gdl_equivalence.py's own Mapping (written in Python) and the board's shipped
    ``crosscheck:`` mapping give the same changing fluents, at the start and after its moves."""
    import tests.test_gdl_equivalence as equivalence
    from gridsolve.crosscheck.mapping import read_mapping
    from gridsolve.language.position import make_position
    from gridsolve.solve.program.explore import examine

    theirs = equivalence.mapping_of(seed)
    board, ours = read_mapping(board_path(equivalence.SEEDS[seed].board))
    start = make_position(board)
    positions = [start] + [s.position for s in examine(board, start)[1]]
    for pos in positions:
        written = {to_kif(f).lower() for f in theirs.state(pos) - theirs.static}
        assert written == set(ours.fluents(board, pos, (None,) * len(ours.arrivals))), pos
    assert len(positions) > 1
