"""The game graph of scripted games joined in arrays (gridsolve/solve/graph/scripted.py) against the one
clingo grounds from the compiled rules (the ``stg`` chain of gridsolve/compile/script.py and its
``succ`` atoms), on random classic boards (tests/classic_boards.py) of both rule sets: the same
positions, the same ends, the same successors, and the same named moves (``edge(S,M,S2)``).
Run one board: ``python -m pytest tests/test_scripted.py -k 'seed-7'``."""
from __future__ import annotations

import json
import random
from pathlib import Path

import clingo
import numpy as np
import pytest
import yaml
from click.testing import CliRunner

from gridsolve.cli import main
from gridsolve.compile.state import layout_for
from gridsolve.language.loader import load_board
from gridsolve.language.position import initial_position
from gridsolve.solve.common.limits import LimitGuard, Limits
from gridsolve.solve.graph.codec import FoundNumbering, distinct_pairs
from gridsolve.solve.graph.racegraph import NamedMoves, RaceGraph

from classic_boards import random_classic_board
from conftest import run_clingo, tiered
from scripted_boards import enemy_names, enemy_rules, random_board, slot_kinds

QUICK, SLOW = 10, 120    # seeds of the first test (its first QUICK_RUN in the quick tier), and of its slow one
QUICK_RUN = 4


def _graphs(tmp_path, seed: int, on_exit: bool = False):
    path = tmp_path / f"classic-{seed}.yaml"
    path.write_text(random_classic_board(seed, on_exit=on_exit), encoding="utf-8")
    board = load_board(path)
    layout = layout_for(board)
    root = [layout.root_term(initial_position(board), board)]
    guard = LimitGuard(Limits(), "the test's positions", lambda needed: "")
    return board, RaceGraph(board, layout, root, guard), RaceGraph(board, layout, root, guard, by_pieces=False)


def _edges(graph: RaceGraph) -> set[tuple[str, str]]:
    out = set()
    for i in range(graph.n):
        for j in graph.pred[graph.start[i]:graph.start[i + 1]]:
            out.add((str(graph.symbol(int(j))), str(graph.symbol(i))))
    return out


def _check(tmp_path, seed: int, on_exit: bool = False):
    board, joined, ground = _graphs(tmp_path, seed, on_exit)
    assert joined.numbering is not None and ground.numbering is None
    positions = {str(joined.symbol(i)) for i in range(joined.n)}
    assert positions == {str(ground.symbol(i)) for i in range(ground.n)}, f"seed {seed}"
    ends = {str(joined.symbol(i)): int(joined.outcome[i]) for i in range(joined.n)}
    assert ends == {str(ground.symbol(i)): int(ground.outcome[i]) for i in range(ground.n)}, f"seed {seed}"
    assert _edges(joined) == _edges(ground), f"seed {seed}"
    named = NamedMoves(ground._moves_text)
    rng = random.Random(seed)
    for i in rng.sample(range(joined.n), min(25, joined.n)):
        state = joined.symbol(i)
        mine = sorted((str(m), str(a)) for m, a in joined.named_moves().moves(state))
        assert mine == sorted((str(m), str(a)) for m, a in named.moves(state)), f"seed {seed} at {state}"
        assert joined.named_moves().end(state) == named.end(state)


@pytest.mark.parametrize("seed", tiered(range(QUICK), QUICK_RUN), ids=lambda s: f"seed-{s}")
def test_joined_graph_is_the_ground_one(tmp_path, seed):
    _check(tmp_path, seed)


@pytest.mark.parametrize("seed", (0, 10, 64), ids=lambda s: f"on-exit-{s}")
def test_joined_graph_is_the_ground_one_from_a_start_on_the_exit(tmp_path, seed):
    """The explorer starts on the exit, where the classic rules do not judge the start: the root
    is start(S), a position of its own with the moves of S (judge_start: false)."""
    board, joined, _ground = _graphs(tmp_path, seed, on_exit=True)
    assert str(joined.symbol(joined.n - 1)).startswith("start(") and not joined.terminal(joined.n - 1)
    _check(tmp_path, seed, on_exit=True)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(QUICK, QUICK + SLOW), ids=lambda s: f"seed-{s}")
def test_joined_graph_is_the_ground_one_slow(tmp_path, seed):
    _check(tmp_path, seed)


# - The other game of issue 39: gridsolve's answers against plain clingo ---------------------------
#
# tests/scripted_boards.py writes the rule set of one list of enemies moving one after another
# (the one quoted in issue 39, and variants) and random boards for it.  ``solve --json`` (the
# scripted graph joined in arrays) must give plain clingo's answer on ``gridsolve compile``'s
# program: the value, win, plies, survival and doom of the position and of every move.

DATA = Path(__file__).resolve().parent / "data"
QUOTED = ["mw", "mr", "sr", "sw"]           # tests/data/rules/other-game-mw-mr-sr-sw.yaml


def _invoke(*args) -> str:
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exit_code == 0, f"gridsolve {' '.join(map(str, args))}: exit {result.exit_code}\n{result.output}"
    return result.stdout


AT = ("value", "win", "win_plies", "survives", "doom_plies")     # of the position asked (``at``)
MOVE = ("value", "plies", "win", "survives", "doom_plies")       # of each move (the position after it)


def clingo_answer(path, query: str) -> dict:
    """Per position asked (``at``) and move: the fields plain clingo shows for ``gridsolve
    compile``'s program (None or False where an atom is not shown)."""
    atoms = run_clingo(_invoke("compile", path, "--query", query))
    shown: dict[str, dict] = {}
    for atom in map(clingo.parse_term, atoms):
        if atom.name in AT + MOVE and atom.arguments[0].number == 0:
            value = atom.arguments[2].number if len(atom.arguments) == 3 else True
            shown.setdefault(str(atom.arguments[1]), {})[atom.name] = value
    return {where: {k: fields.get(k, False if k in ("win", "survives") else None)
                    for k in (AT if where == "at" else MOVE)} for where, fields in shown.items()}


def gridsolve_answer(path, query: str) -> dict:
    """The same fields of ``gridsolve solve PATH --query QUERY --json``."""
    answer = json.loads(_invoke("solve", path, "--query", query, "--json"))
    return {"at": {k: answer[k] for k in AT}, **{m["move"]: {k: m[k] for k in MOVE} for m in answer["moves"]}}


def _write(tmp_path, kinds, seed: int, sides: tuple[int, int] = (2, 5), **variant) -> Path:
    """A random board of ``seed`` for the rule set of ``kinds`` (``variant``: of enemy_rules),
    the rule set written beside it in rules/."""
    name = f"other-game-{seed}"
    (tmp_path / "rules").mkdir(exist_ok=True)
    (tmp_path / "rules" / f"{name}.yaml").write_text(enemy_rules(kinds, **variant).replace(
        f"name: other-game-{'-'.join(kinds)}", f"name: {name}", 1), encoding="utf-8")
    rng = random.Random(seed)
    enemies = enemy_names(kinds)
    if variant.get("optional"):
        enemies = sorted(rng.sample(enemies, rng.randint(0, min(5, len(enemies)))))
    path = tmp_path / f"board-{seed}.yaml"
    path.write_text(random_board(seed, name, enemies, sides), encoding="utf-8")
    return path


def _differs(path, query: str = "win") -> str | None:
    got, want = gridsolve_answer(path, query), clingo_answer(path, query)
    if got == want:
        return None
    return f"{path.read_text()}gridsolve: {got}\nclingo:    {want}"


def test_the_quoted_rule_set_is_the_one_written_for_its_enemies():
    assert yaml.safe_load((DATA / "rules" / "other-game-mw-mr-sr-sw.yaml").read_text()) == \
        yaml.safe_load(enemy_rules(QUOTED))


def test_an_open_8x9_board_is_won_in_one_ply(tmp_path):
    """Issue 39's smallest case: the explorer right above the exit, the enemies in the far corner.
    With the gate bit, 8x9 boards have more than 3.04e9 position numbers: a pair of them no longer
    fits one int64, and the successors joined as one number wrapped around (the answer was
    "cannot be won", over 3,314 positions of which 2,523 unreachable)."""
    path = DATA / "other-game-open-8x9.yaml"
    answer = json.loads(_invoke("solve", path, "--query", "win", "--json"))
    assert (answer["win"], answer["plies"], answer["line"][0]["move"]) == (True, 1, "south")
    board = load_board(path)
    layout = layout_for(board)
    root = [layout.root_term(initial_position(board), board)]
    guard = LimitGuard(Limits(), "the test's positions", lambda needed: "")
    joined, ground = RaceGraph(board, layout, root, guard), RaceGraph(board, layout, root, guard, by_pieces=False)
    assert answer["stats"]["positions"] == joined.n == ground.n == 791      # no position the game does not reach
    assert _edges(joined) == _edges(ground)


@pytest.mark.slow
def test_an_open_8x9_board_is_what_plain_clingo_answers():
    assert _differs(DATA / "other-game-open-8x9.yaml") is None


def test_distinct_pairs_of_numbers_past_the_square_root_of_int64():
    big = 3_500_000_000
    src = np.array([big - 1, 5, big - 1, 5, 0], dtype=np.int64)
    dst = np.array([2, big - 3, 2, 7, big - 1], dtype=np.int64)
    s, d = distinct_pairs(src, dst, big)
    assert list(zip(s.tolist(), d.tolist())) == [(0, big - 1), (5, 7), (5, big - 3), (big - 1, 2)]
    small = distinct_pairs(src % 10, dst % 10, 10)
    assert list(zip(*(a.tolist() for a in small))) == [(0, 9), (5, 7), (9, 2)]


VARIANTS = {
    "quoted": (QUOTED, {}),
    "enemies-first": (QUOTED, {"stops_first": False}),       # no stop before the enemies move
    "optional": (QUOTED, {"optional": True}),
    "two-mummies": (["mr", "mw"], {}),
    # 8 enemies on boards of 2 to 5 a side: over 3.04e9 position numbers with a gate
    "eight": (["mw", "sr", "mr", "sw", "sr", "mw", "sw", "mr"], {}),
    # the one rule set for every list of up to five enemies: 20 optional chasers, 10^21 and more
    # position numbers (numbered as found)
    "slots": (slot_kinds(5), {"optional": True}),
}
QUICK_BOARDS, SLOW_BOARDS = 2, 62
QUERIES = ("win", "value", "survive")      # by seed


def _differences(tmp_path, variant: str, seeds) -> list[str]:
    kinds, options = VARIANTS[variant]
    found = [_differs(_write(tmp_path, kinds, seed, **options), QUERIES[seed % len(QUERIES)]) for seed in seeds]
    return [f"{variant} seed {seed}:\n{problem}" for seed, problem in zip(seeds, found) if problem]


def test_twenty_optional_chasers_are_numbered_as_found(tmp_path):
    board = load_board(_write(tmp_path, *VARIANTS["slots"][0:1], 0, **VARIANTS["slots"][1]))
    layout = layout_for(board)
    root = layout.root_term(initial_position(board), board)
    graph = RaceGraph(board, layout, [root], LimitGuard(Limits(), "the test's positions", lambda needed: ""))
    numbering = graph.numbering
    assert isinstance(numbering.numbering, FoundNumbering) and len(layout.roles) == 21
    assert str(graph.symbol(graph.index(clingo.parse_term(root)))) == root
    nobody = "s(" + ",".join(["0"] * numbering.arity) + ")"        # the explorer off the board: never reached
    assert graph.index(clingo.parse_term(nobody)) == -1
    assert graph.graph.keys.tolist() == list(range(graph.n))      # the positions reached, numbered as found
    assert numbering.number([0] * numbering.arity, add=False) == -1 and numbering.size == graph.n   # (not numbered)
    assert numbering.number([0] * numbering.arity) == graph.n and str(numbering.symbol(graph.n)) == nobody


@pytest.mark.parametrize("variant", VARIANTS)
def test_answers_are_plain_clingos_on_random_boards(tmp_path, variant):
    problems = _differences(tmp_path, variant, range(QUICK_BOARDS))
    assert not problems, problems[0]


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_answers_are_plain_clingos_on_random_boards_slow(tmp_path, variant):
    problems = _differences(tmp_path, variant, range(QUICK_BOARDS, QUICK_BOARDS + SLOW_BOARDS))
    assert not problems, f"{len(problems)} of {SLOW_BOARDS} boards differ; the first: {problems[0]}"
