"""Tests of the plain-Python GDL interpreter in ``reference/gdl.py``.

The interpreter is the project's independent oracle for the original rule
files (read from ``../shared/reference/gdl/``, ``tests/gdl/reference.py``).  Every expectation below was worked out by hand
from the reference reading of those files (RULES.md, sections A-D: boards,
wall lists, legal moves, goals and scenario playouts), not from the
interpreter itself.
"""

from __future__ import annotations

import functools
import hashlib
import random
import sys
from pathlib import Path

import pytest

try:
    from reference.gdl import GdlGame, parse_kif, parse_term, term_sort_key, to_kif
    from tests.gdl.reference import kif_path
except ModuleNotFoundError:  # plain `pytest` run: the project root is not on sys.path
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from reference.gdl import GdlGame, parse_kif, parse_term, term_sort_key, to_kif
    from tests.gdl.reference import kif_path


T = parse_term


@functools.lru_cache(maxsize=None)
def game(name: str) -> GdlGame:
    return GdlGame.from_file(kif_path(f"{name}.kif"))


# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------

DIRS = {"north": (0, 1), "south": (0, -1), "east": (1, 0), "west": (-1, 0)}


def step_target(x, y, d, size, bn, be):
    """Target of one step from (x, y) on a size x size board whose walls are the
    blocked edges ``bn`` (north side of (x, y)) and ``be`` (east side), or None
    when the step leaves the board or crosses a wall."""
    if d == "nowhere":
        return (x, y)
    dx, dy = DIRS[d]
    nx, ny = x + dx, y + dy
    if not (1 <= nx <= size and 1 <= ny <= size):
        return None
    if (d == "north" and (x, y) in bn) or (d == "south" and (x, ny) in bn):
        return None
    if (d == "east" and (x, y) in be) or (d == "west" and (nx, y) in be):
        return None
    return (nx, ny)


def replace(state, functor, *new_facts, match=None):
    """``state`` without the facts of ``functor`` (optionally only those for
    which ``match(fact)`` holds), plus ``new_facts``."""
    kept = {
        f
        for f in state
        if not (isinstance(f, tuple) and f[0] == functor and (match is None or match(f)))
    }
    return frozenset(kept | set(new_facts))


def set_location(state, who, x, y):
    return replace(state, "location", ("location", who, str(x), str(y)), match=lambda f: f[1] == who)


def set_fact(state, functor, *args):
    return replace(state, functor, (functor,) + tuple(str(a) for a in args))


def location(state, who):
    (loc,) = [(int(f[2]), int(f[3])) for f in state if f[0] == "location" and f[1] == who]
    return loc


def fact_value(state, functor):
    (v,) = [f[1] for f in state if isinstance(f, tuple) and f[0] == functor]
    return v


def play(g, state, moves, check=True):
    return g.next(state, {r: (T(m) if isinstance(m, str) else m) for r, m in moves.items()},
                  check_legal=check)


# ---------------------------------------------------------------------------
# parser and files
# ---------------------------------------------------------------------------

KIF_SHA256 = {
    "mummyMaze2p_2007.kif": "a8a16030351f2721486d7371e73dbb662d95707cec7ee089900d661eefb91000",
    "mummymaze1p.kif": "f464d9a21d119f6bbc17053ee67d3bc1b3740b47436d7588f98fd3e5e3cef42f",
    "mummymaze2p.kif": "b75bd76fd8ce9e79c3211f29f1d5d42bcdb5e4925262258ec65cf289e851be6d",
    "pacman3p.kif": "b3573a3c08d5b8c07402f96e6f36f76b355506a91aeab1ee76a30cd7451c67c5",
    "wallmaze.kif": "bfd5d032e282ec61f5623f1b2379720fe264ebb7eadc43b146cd1a728ddf10c6",
}


@pytest.mark.parametrize("name", sorted(KIF_SHA256))
def test_the_original_files_read_are_the_versions_pinned(name):
    # Guards against CRLF normalisation: three of the files use CRLF line ends.
    data = kif_path(name).read_bytes()
    assert hashlib.sha256(data).hexdigest() == KIF_SHA256[name]


def test_parse_term():
    assert T("(move2 north east)") == ("move2", "north", "east")
    assert T("noop") == "noop"
    assert T("(location explorer 6 3)") == ("location", "explorer", "6", "3")
    assert T(" ( a (b ?n++) ) ; comment") == ("a", ("b", "?n++"))
    assert to_kif(T("(move 2 5 (f x) 5)")) == "(move 2 5 (f x) 5)"
    assert parse_kif("(++ 1 2) ; c\n(-- 2 1)") == [("++", "1", "2"), ("--", "2", "1")]
    with pytest.raises(ValueError):
        T("(a b")
    with pytest.raises(ValueError):
        T("a b")


def test_small_program_semantics():
    g = GdlGame.from_string(
        """
        (role p)
        (e 1 2) (e 2 3) (e 3 1) (e 4 5)
        (node 1) (node 2) (node 3) (node 4) (node 5) (node 6)
        (<= (path ?x ?y) (e ?x ?y))
        (<= (path ?x ?z) (path ?x ?y) (e ?y ?z))
        (<= (linked ?x) (e ?x ?y)) (<= (linked ?x) (e ?y ?x))
        (<= (isolated ?x) (node ?x) (not (linked ?x)))
        (<= (onCycle ?x) (path ?x ?x))
        (<= (either ?x) (node ?x) (or (onCycle ?x) (isolated ?x)))
        (init (at 1))
        (<= (legal p (go ?y)) (true (at ?x)) (e ?x ?y))
        (<= (legal p stay) (true (at ?x)) (not (linked ?x)))
        (<= (next (at ?y)) (does p (go ?y)))
        (<= (next (at ?x)) (does p stay) (true (at ?x)))
        (<= terminal (true (at 3)))
        (<= (goal p 100) (true (at 3)))
        (<= (goal p 0) (true (at ?x)) (distinct ?x 3))
        """
    )
    s = g.initial()
    assert s == frozenset({("at", "1")})
    assert g.query(s, "isolated", 1) == {("6",)}
    assert g.query(s, "onCycle", 1) == {("1",), ("2",), ("3",)}
    assert g.query(s, "either", 1) == {("1",), ("2",), ("3",), ("6",)}
    assert ("4", "5") in g.query(s, "path", 2) and ("5", "4") not in g.query(s, "path", 2)
    assert g.legal(s, "p") == [("go", "2")]
    s = g.next(s, {"p": "(go 2)"})
    assert not g.terminal(s) and g.goal(s, "p") == 0
    s = g.next(s, {"p": ("go", "3")})
    assert g.terminal(s) and g.goal(s, "p") == 100
    assert g.legal(s, "p") == [("go", "1")]
    with pytest.raises(ValueError):
        g.next(s, {"p": "(go 2)"}, check_legal=True)  # not legal from 3
    with pytest.raises(ValueError):
        g.next(s, {"q": "stay"})  # unknown role / missing move
    with pytest.raises(ValueError, match="stratified"):
        GdlGame.from_string("(q 1) (<= (p ?x) (q ?x) (not (p ?x)))")
    with pytest.raises(ValueError, match="unsafe"):
        GdlGame.from_string("(q 1) (<= (p ?x ?y) (q ?x))")


def test_goal_must_be_unique():
    g = GdlGame.from_string("(role r) (init a) (goal r 0) (<= (goal r 100) (true a))")
    with pytest.raises(ValueError):
        g.goal(g.initial(), "r")
    assert g.goal(frozenset(), "r") == 0


# ---------------------------------------------------------------------------
# A: mummyMaze2p_2007
# ---------------------------------------------------------------------------

A = "mummyMaze2p_2007"
# RULES.md A, verbatim
A_BN = {(1, 1), (8, 1), (6, 2), (7, 2), (2, 3), (3, 3), (4, 3), (5, 3), (6, 3), (8, 3), (1, 4), (2, 4),
        (4, 4), (8, 4), (2, 5), (5, 5), (7, 5), (1, 6), (3, 6), (5, 6), (1, 7), (7, 7), (8, 7)}
A_BE = {(1, 2), (1, 4), (2, 1), (2, 3), (2, 5), (2, 7), (4, 2), (4, 4), (5, 3), (5, 4), (5, 7), (5, 8),
        (6, 1), (6, 4), (6, 6), (7, 7)}
A_CELLS = [(x, y) for x in range(1, 9) for y in range(1, 9)]


def a_step(x, y, d):
    return step_target(x, y, d, 8, A_BN, A_BE)


def test_a_roles_and_initial_state():
    g = game(A)
    assert g.roles == ["explorer", "mummy"]
    s = g.initial()
    assert location(s, "explorer") == (6, 3)
    assert location(s, "mummy") == (2, 5)
    assert location(s, "exit") == (1, 3)
    assert ("control", "explorer") in s and ("step", "1") in s
    assert {(int(f[1]), int(f[2])) for f in s if f[0] == "blockedNorth"} == A_BN
    assert {(int(f[1]), int(f[2])) for f in s if f[0] == "blockedEast"} == A_BE
    assert len(A_BN) == 23 and len(A_BE) == 16
    assert not g.terminal(s)
    assert g.goals(s) == {"explorer": 0, "mummy": 0}  # non-terminal row of the goal table


def test_a_initial_legal_moves():
    g = game(A)
    s = g.initial()
    # explorer at (6,3): north blocked (blockedNorth 6 3), south blocked
    # (blockedNorth 6 2), west blocked (blockedEast 5 3), east open;
    # (move1 nowhere) is always legal for the explorer in control.
    assert g.legal(s, "explorer") == [T("(move1 east)"), T("(move1 nowhere)")]
    assert g.legal(s, "mummy") == [T("(move2 nowhere nowhere)")]


def test_a_explorer_moves_from_every_cell():
    g = game(A)
    s0 = g.initial()
    for x, y in A_CELLS:
        s = set_location(s0, "explorer", x, y)
        expected = sorted(("move1", d) for d in list(DIRS) + ["nowhere"] if a_step(x, y, d))
        assert g.legal(s, "explorer") == expected, (x, y)
        assert g.legal(s, "mummy") == [T("(move2 nowhere nowhere)")]
        for _, d in expected:
            s2 = g.next(s, {"explorer": ("move1", d), "mummy": T("(move2 nowhere nowhere)")})
            assert location(s2, "explorer") == a_step(x, y, d)


def test_a_mummy_turn_after_explorer_move():
    g = game(A)
    s = play(g, g.initial(), {"explorer": "(move1 east)", "mummy": "(move2 nowhere nowhere)"})
    assert location(s, "explorer") == (7, 3)
    assert location(s, "mummy") == (2, 5)
    assert ("control", "mummy") in s and ("step", "2") in s
    assert g.legal(s, "explorer") == [T("(move1 nowhere)")]
    # mummy at (2,5): only west is open -> (1,5); from (1,5) north -> (1,6)
    # and nowhere are fine, east returns to (2,5) (its own start: illegal),
    # south is blocked (blockedNorth 1 4), west leaves the board.
    assert g.legal(s, "mummy") == [T("(move2 west north)"), T("(move2 west nowhere)")]
    s2 = play(g, s, {"explorer": "(move1 nowhere)", "mummy": "(move2 west north)"})
    assert location(s2, "mummy") == (1, 6)
    assert ("control", "explorer") in s2 and ("step", "3") in s2


def test_a_mummy_two_step_moves_from_every_cell():
    g = game(A)
    s0 = set_fact(set_location(g.initial(), "explorer", 8, 8), "control", "mummy")
    for x, y in A_CELLS:
        s = set_location(s0, "mummy", x, y)
        expected = {}
        for d1 in DIRS:  # the first step must be a real step
            t1 = a_step(x, y, d1)
            if t1 is None:
                continue
            for d2 in list(DIRS) + ["nowhere"]:
                t2 = a_step(*t1, d2)
                if t2 is not None and t2 != (x, y):  # must not end on its own start
                    expected[("move2", d1, d2)] = t2
        assert g.legal(s, "mummy") == sorted(expected), (x, y)
        assert g.legal(s, "explorer") == [T("(move1 nowhere)")]
        for m, target in expected.items():
            s2 = g.next(s, {"explorer": T("(move1 nowhere)"), "mummy": m})
            assert location(s2, "mummy") == target


def test_a_mummy_may_end_on_explorer_but_not_capture_in_passing():
    g = game(A)
    # find a straight two-step line m -> t1 -> t2 with all steps open
    for (x, y) in A_CELLS:
        t1 = a_step(x, y, "east")
        t2 = t1 and a_step(*t1, "east")
        if t2:
            break
    base = set_fact(g.initial(), "control", "mummy")
    base = set_location(base, "mummy", x, y)
    # explorer on the intermediate cell: passing through does not capture
    s = set_location(base, "explorer", *t1)
    assert T("(move2 east east)") in g.legal(s, "mummy")
    s2 = play(g, s, {"explorer": "(move1 nowhere)", "mummy": "(move2 east east)"})
    assert location(s2, "mummy") == t2 and not g.terminal(s2)
    # explorer on the final cell: legal (no condition on the explorer) and a capture
    s = set_location(base, "explorer", *t2)
    s2 = play(g, s, {"explorer": "(move1 nowhere)", "mummy": "(move2 east east)"})
    assert g.terminal(s2)
    assert g.goals(s2) == {"explorer": 0, "mummy": 100}


def test_a_goals():
    g = game(A)
    s0 = g.initial()
    captured = set_location(set_location(s0, "mummy", 4, 4), "explorer", 4, 4)
    assert g.terminal(captured) and g.goals(captured) == {"explorer": 0, "mummy": 100}
    # capture on the exit, and capture at step 50, still count as capture
    on_exit = set_location(set_location(s0, "mummy", 1, 3), "explorer", 1, 3)
    assert g.terminal(on_exit) and g.goals(on_exit) == {"explorer": 0, "mummy": 100}
    late = set_fact(captured, "step", 50)
    assert g.goals(late) == {"explorer": 0, "mummy": 100}
    at_exit = set_location(s0, "explorer", 1, 3)
    assert g.terminal(at_exit) and g.goals(at_exit) == {"explorer": 100, "mummy": 0}
    assert g.goals(set_fact(at_exit, "step", 50)) == {"explorer": 100, "mummy": 0}
    timeout = set_fact(s0, "step", 50)
    assert g.terminal(timeout) and g.goals(timeout) == {"explorer": 50, "mummy": 50}
    assert not g.terminal(set_fact(s0, "step", 49))


def test_a_step_limit_is_49_plies():
    g = game(A)
    s = g.initial()
    turns = {"explorer": 0, "mummy": 0}
    for ply in range(49):
        assert not g.terminal(s)
        mover = "explorer" if ("control", "explorer") in s else "mummy"
        turns[mover] += 1
        if mover == "explorer":
            mv = {"explorer": "(move1 nowhere)", "mummy": "(move2 nowhere nowhere)"}
        else:  # shuttle between (2,5) and (1,5), far from the explorer
            m = "(move2 west nowhere)" if location(s, "mummy") == (2, 5) else "(move2 east nowhere)"
            mv = {"explorer": "(move1 nowhere)", "mummy": m}
        s = play(g, s, mv)
    assert ("step", "50") in s
    assert g.terminal(s)
    assert g.goals(s) == {"explorer": 50, "mummy": 50}
    assert turns == {"explorer": 25, "mummy": 24}


# ---------------------------------------------------------------------------
# B: mummymaze2p
# ---------------------------------------------------------------------------

B = "mummymaze2p"
# RULES.md B: interior walls (x, y, dir), verbatim
B_INTERIOR = [(4, 1, "E"), (4, 1, "N"), (1, 2, "N"), (2, 2, "N"), (1, 3, "E"), (3, 3, "E"), (2, 4, "E"),
              (3, 4, "E"), (3, 5, "E"), (3, 5, "N"), (2, 5, "N"), (2, 6, "E"), (3, 6, "N"), (2, 8, "E"),
              (4, 6, "N"), (4, 7, "E"), (5, 7, "E"), (4, 4, "E"), (5, 4, "E"), (8, 7, "N"), (6, 1, "N"),
              (6, 2, "N"), (6, 2, "E"), (6, 3, "E"), (6, 4, "E"), (6, 6, "N"), (7, 4, "N"), (7, 3, "E")]
B_BN = {(x, y) for x, y, d in B_INTERIOR if d == "N"}
B_BE = {(x, y) for x, y, d in B_INTERIOR if d == "E"}
B_ALL5 = [("move1", d) for d in sorted(list(DIRS) + ["nowhere"])]


def b_step(x, y, d):
    """mummymaze2p: a blocked (or off-board) step stays in place."""
    return step_target(x, y, d, 8, B_BN, B_BE) or (x, y)


def test_b_initial_state():
    g = game(B)
    assert g.roles == ["explorer", "mummy"]
    s = g.initial()
    assert ("step", "0") in s  # the game starts at step 0
    assert ("control", "explorer") in s
    assert location(s, "explorer") == (8, 1)
    assert location(s, "mummy") == (1, 1)
    assert location(s, "exit") == (8, 8)
    assert sum(1 for f in s if f[0] == "cell") == 64
    walls = {(int(f[1]), int(f[2]), f[3]) for f in s if f[0] == "wall"}
    assert len(walls) == 60
    interior = {(x, y, "north" if d == "N" else "east") for x, y, d in B_INTERIOR}
    border = ({(x, 0, "north") for x in range(1, 9)} | {(x, 8, "north") for x in range(1, 9)}
              | {(0, y, "east") for y in range(1, 9)} | {(8, y, "east") for y in range(1, 9)})
    assert walls == interior | border
    assert not g.terminal(s)


def test_b_all_moves_legal():
    g = game(B)
    s = g.initial()
    assert g.legal(s, "explorer") == B_ALL5
    assert g.legal(s, "mummy") == [T("(move2 nowhere nowhere)")]
    s = play(g, s, {"explorer": "(move1 nowhere)", "mummy": "(move2 nowhere nowhere)"})
    assert ("step", "1") in s and ("control", "mummy") in s
    assert g.legal(s, "explorer") == [T("(move1 nowhere)")]
    dirs = sorted(list(DIRS) + ["nowhere"])
    assert g.legal(s, "mummy") == [("move2", a, b) for a in dirs for b in dirs]
    assert len(g.legal(s, "mummy")) == 25


def test_b_blocked_step_stays_in_place():
    g = game(B)
    s0 = g.initial()
    none2 = "(move2 nowhere nowhere)"
    # explorer at (8,1): east and south hit the border walls, north and west are open
    expected = {"east": (8, 1), "south": (8, 1), "north": (8, 2), "west": (7, 1), "nowhere": (8, 1)}
    for d, target in expected.items():
        s = play(g, s0, {"explorer": f"(move1 {d})", "mummy": none2})
        assert location(s, "explorer") == target, d
    # interior walls around (4,1): wall 4 1 east and wall 4 1 north
    for (x, y), d, target in [((4, 1), "east", (4, 1)), ((5, 1), "west", (5, 1)),
                              ((4, 1), "north", (4, 1)), ((4, 2), "south", (4, 2)),
                              ((4, 1), "west", (3, 1)), ((3, 1), "east", (4, 1))]:
        s = play(g, set_location(s0, "explorer", x, y), {"explorer": f"(move1 {d})", "mummy": none2})
        assert location(s, "explorer") == target, (x, y, d)
    # every cell and direction against the wall list of RULES.md
    for x in range(1, 9):
        for y in range(1, 9):
            s = set_location(s0, "explorer", x, y)
            for d in list(DIRS) + ["nowhere"]:
                s2 = g.next(s, {"explorer": ("move1", d), "mummy": T(none2)})
                assert location(s2, "explorer") == b_step(x, y, d), (x, y, d)


def test_b_mummy_two_steps():
    g = game(B)
    s = set_fact(g.initial(), "control", "mummy")  # mummy at (1,1)
    for m, target in [("(move2 north east)", (2, 2)), ("(move2 east east)", (3, 1)),
                      ("(move2 west south)", (1, 1)), ("(move2 north north)", (1, 2)),
                      ("(move2 nowhere nowhere)", (1, 1)), ("(move2 west north)", (1, 2))]:
        s2 = play(g, s, {"explorer": "(move1 nowhere)", "mummy": m})
        assert location(s2, "mummy") == target, m
    for x in range(1, 9):
        for y in range(1, 9):
            st = set_location(s, "mummy", x, y)
            for d1, d2 in [("north", "east"), ("south", "west"), ("west", "west")]:
                s2 = g.next(st, {"explorer": T("(move1 nowhere)"), "mummy": ("move2", d1, d2)})
                assert location(s2, "mummy") == b_step(*b_step(x, y, d1), d2)


def test_b_goals_and_step_limit():
    g = game(B)
    s0 = g.initial()
    eaten = set_location(s0, "mummy", 8, 1)
    assert g.terminal(eaten) and g.goals(eaten) == {"explorer": 0, "mummy": 100}
    eaten_on_exit = set_location(set_location(s0, "mummy", 8, 8), "explorer", 8, 8)
    assert g.goals(eaten_on_exit) == {"explorer": 0, "mummy": 100}
    at_exit = set_location(s0, "explorer", 8, 8)
    assert g.terminal(at_exit) and g.goals(at_exit) == {"explorer": 100, "mummy": 0}
    # 50 plies (steps 0 -> 50), 25 moves each, then 50/50
    s = s0
    for ply in range(50):
        assert not g.terminal(s)
        s = play(g, s, {"explorer": "(move1 nowhere)", "mummy": "(move2 nowhere nowhere)"})
    assert ("step", "50") in s and g.terminal(s)
    assert g.goals(s) == {"explorer": 50, "mummy": 50}


# ---------------------------------------------------------------------------
# C: wallmaze
# ---------------------------------------------------------------------------

C = "wallmaze"
# RULES.md C, initial layout, top row first (y = 9 .. 1)
C_LAYOUT = """
w w w w w w w w w w w w w
w w w o o o o o o o w w w
w w w o w w w w w o w w w
w w w o w w o w w o w w w
w a o o o o o o o o o b w
w w w o w w o w w o w w w
w w w o w w w w w o w w w
w w w o o o o o o o w w w
w w w w w w w w w w w w w
"""
NOOP = "noop"


def c_cells(state):
    return {(int(f[1]), int(f[2])): f[3] for f in state if f[0] == "cell"}


def c_state(white, black, step=1, whitedone=30, blackdone=30):
    """The initial board with the markers moved to ``white`` / ``black``."""
    g = game(C)
    cells = {xy: ("o" if c in "ab" else c) for xy, c in c_cells(g.initial()).items()}
    cells[white] = "a"
    cells[black] = "b"
    facts = {("cell", str(x), str(y), c) for (x, y), c in cells.items()}
    facts |= {("step", str(step)), ("whitedone", str(whitedone)), ("blackdone", str(blackdone))}
    return frozenset(facts)


def mv(a, b):
    return ("move", str(a[0]), str(a[1]), str(b[0]), str(b[1]))


def path(*corners):
    """Cells visited along straight segments between the given corners (start excluded)."""
    cells = []
    cur = corners[0]
    for nxt in corners[1:]:
        while cur != nxt:
            dx = (nxt[0] > cur[0]) - (nxt[0] < cur[0])
            dy = (nxt[1] > cur[1]) - (nxt[1] < cur[1])
            cur = (cur[0] + dx, cur[1] + dy)
            cells.append(cur)
    return cells


WHITE_STRAIGHT = path((2, 5), (12, 5))                                           # 10 moves
WHITE_TOP = path((2, 5), (4, 5), (4, 8), (10, 8), (10, 5), (12, 5))              # 16 moves
BLACK_BOTTOM = path((12, 5), (10, 5), (10, 2), (4, 2), (4, 5), (2, 5))           # 16 moves


def run_paths(white_path, black_path):
    """Both players follow their paths (noop when done); returns the states."""
    g = game(C)
    s = g.initial()
    states = [s]
    pos = {"white": (2, 5), "black": (12, 5)}
    todo = {"white": list(white_path), "black": list(black_path)}
    while not g.terminal(s):
        moves = {}
        for r in g.roles:
            assert NOOP in g.legal(s, r)  # noop is always legal
            if todo[r]:
                nxt = todo[r].pop(0)
                moves[r] = mv(pos[r], nxt)
                pos[r] = nxt
            else:
                moves[r] = NOOP
        s = g.next(s, moves, check_legal=True)
        states.append(s)
    return states


def test_c_initial_state():
    g = game(C)
    assert g.roles == ["white", "black"]
    s = g.initial()
    rows = [r.split() for r in C_LAYOUT.strip().splitlines()]
    expected = {(x + 1, 9 - i): c for i, row in enumerate(rows) for x, c in enumerate(row)}
    assert c_cells(s) == expected
    assert sum(1 for c in expected.values() if c == "o") == 33
    assert ("step", "1") in s and ("whitedone", "30") in s and ("blackdone", "30") in s
    assert g.legal(s, "white") == [NOOP, T("(move 2 5 3 5)")]
    assert g.legal(s, "black") == [NOOP, T("(move 12 5 11 5)")]
    assert c_state((2, 5), (12, 5)) == s
    assert not g.terminal(s) and g.goals(s) == {"white": 0, "black": 0}


def test_c_cannot_enter_opponent_cell():
    g = game(C)
    s = c_state((6, 5), (7, 5))
    assert g.legal(s, "white") == [NOOP, mv((6, 5), (5, 5))]
    assert g.legal(s, "black") == [NOOP, mv((7, 5), (7, 4)), mv((7, 5), (7, 6)), mv((7, 5), (8, 5))]
    # the goal cell is the opponent's start: not enterable while occupied
    s = c_state((11, 5), (12, 5))
    assert mv((11, 5), (12, 5)) not in g.legal(s, "white")


def test_c_collision_leaves_board_unchanged():
    g = game(C)
    s = c_state((6, 5), (8, 5), step=5)
    s2 = g.next(s, {"white": mv((6, 5), (7, 5)), "black": mv((8, 5), (7, 5))}, check_legal=True)
    assert c_cells(s2) == c_cells(s)
    assert ("step", "6") in s2
    # without a collision both move
    s3 = g.next(s, {"white": mv((6, 5), (7, 5)), "black": mv((8, 5), (9, 5))}, check_legal=True)
    assert c_cells(s3)[(7, 5)] == "a" and c_cells(s3)[(9, 5)] == "b"
    assert c_cells(s3)[(6, 5)] == "o" and c_cells(s3)[(8, 5)] == "o"


def test_c_straight_vs_bottom_loop():
    assert len(WHITE_STRAIGHT) == 10 and len(BLACK_BOTTOM) == 16
    g = game(C)
    states = run_paths(WHITE_STRAIGHT, BLACK_BOTTOM)
    final = states[-1]
    # states[k] is the state with (step k+1)
    assert fact_value(states[9], "step") == "10" and c_cells(states[9])[(12, 5)] == "o"
    assert fact_value(states[10], "step") == "11" and c_cells(states[10])[(12, 5)] == "a"
    assert fact_value(states[10], "whitedone") == "30"  # the update lags one state
    assert fact_value(states[11], "whitedone") == "11"
    assert g.legal(states[10], "white") == [NOOP]  # arrived: frozen
    assert fact_value(final, "step") == "17"
    assert fact_value(final, "whitedone") == "11" and fact_value(final, "blackdone") == "30"
    assert g.goals(final) == {"white": 75, "black": 25}


def test_c_top_loop_vs_bottom_loop():
    assert len(WHITE_TOP) == 16
    g = game(C)
    final = run_paths(WHITE_TOP, BLACK_BOTTOM)[-1]
    assert fact_value(final, "step") == "17"
    assert g.goals(final) == {"white": 50, "black": 50}


def run_head_on(black_waits):
    g = game(C)
    s = g.initial()
    pos = {"white": (2, 5), "black": (12, 5)}
    step = {"white": 1, "black": -1}
    while not g.terminal(s):
        moves = {}
        for r in g.roles:
            x, y = pos[r]
            m = mv((x, y), (x + step[r], y))
            moves[r] = m if m in g.legal(s, r) else NOOP
        if black_waits and ("step", "1") in s:
            moves["black"] = NOOP
        s = g.next(s, moves)
        for r in g.roles:
            (pos[r],) = [xy for xy, c in c_cells(s).items() if c == {"white": "a", "black": "b"}[r]]
    return s, pos


def test_c_head_on_block():
    g = game(C)
    # simultaneous head-on: they keep colliding on (7,5)
    s, pos = run_head_on(black_waits=False)
    assert pos == {"white": (6, 5), "black": (8, 5)}
    assert ("step", "30") in s and g.goals(s) == {"white": 0, "black": 0}
    # staggered: they end face to face and block each other
    s, pos = run_head_on(black_waits=True)
    assert pos == {"white": (7, 5), "black": (8, 5)}
    assert ("step", "30") in s and g.goals(s) == {"white": 0, "black": 0}


def test_c_one_arrival_and_done_ranking():
    g = game(C)
    only_white = c_state((12, 5), (7, 5), step=30)
    assert g.terminal(only_white) and g.goals(only_white) == {"white": 100, "black": 0}
    only_black = c_state((7, 5), (2, 5), step=30)
    assert g.goals(only_black) == {"white": 0, "black": 100}
    black_first = c_state((12, 5), (2, 5), step=20, whitedone=30, blackdone=12)
    assert g.terminal(black_first) and g.goals(black_first) == {"white": 25, "black": 75}


# ---------------------------------------------------------------------------
# D: pacman3p
# ---------------------------------------------------------------------------

D = "pacman3p"
# RULES.md D, verbatim
D_PELLETS = [(3, 1), (4, 1), (5, 1), (6, 1), (3, 2), (6, 2), (1, 3), (2, 3), (3, 3), (4, 3), (6, 3), (7, 3),
             (8, 3), (1, 4), (3, 4), (6, 4), (8, 4), (1, 5), (3, 5), (6, 5), (8, 5), (1, 6), (2, 6), (3, 6),
             (6, 6), (7, 6), (8, 6), (3, 7), (6, 7), (3, 8), (4, 8), (5, 8), (6, 8)]
D_BN = {(4, 1), (5, 1), (1, 2), (2, 2), (4, 2), (5, 2), (7, 2), (8, 2), (2, 3), (4, 3), (5, 3), (7, 3),
        (2, 5), (4, 5), (5, 5), (7, 5), (1, 6), (2, 6), (4, 6), (5, 6), (7, 6), (8, 6), (4, 7), (5, 7)}
D_BE = {(1, 4), (1, 5), (2, 1), (2, 2), (2, 4), (2, 5), (2, 7), (2, 8), (3, 2), (3, 4), (3, 5), (3, 7),
        (5, 2), (5, 4), (5, 5), (5, 7), (6, 1), (6, 2), (6, 4), (6, 5), (6, 7), (6, 8), (7, 4), (7, 5)}
D_SCORE = [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 23, 26, 29, 32, 35, 38, 41, 44, 47, 50, 53, 56, 59,
           62, 65, 68, 71, 74, 77, 80, 83, 86, 89, 95, 100]
NOWHERE = "(move nowhere)"


def pellets(state):
    return {(int(f[2]), int(f[3])) for f in state if f[0] == "location" and f[1] == "pellet"}


def test_d_initial_state():
    g = game(D)
    assert g.roles == ["pacman", "blinky", "inky"]
    s = g.initial()
    assert len(pellets(s)) == 33
    assert pellets(s) == set(D_PELLETS)
    assert location(s, "pacman") == (5, 3)
    assert location(s, "blinky") == (4, 6)
    assert location(s, "inky") == (5, 6)
    assert ("collected", "0") in s and ("step", "1") in s and ("control", "pacman") in s
    assert {(int(f[1]), int(f[2])) for f in s if f[0] == "blockedNorth"} == D_BN
    assert {(int(f[1]), int(f[2])) for f in s if f[0] == "blockedEast"} == D_BE
    assert not g.terminal(s)
    assert g.goals(s) == {"pacman": 0, "blinky": 0, "inky": 0}


def test_d_pacman_must_move():
    g = game(D)
    s = g.initial()
    # (5,3): north blocked (blockedNorth 5 3), south blocked (blockedNorth 5 2)
    assert g.legal(s, "pacman") == [T("(move east)"), T("(move west)")]
    assert T(NOWHERE) not in g.legal(s, "pacman")
    assert g.legal(s, "blinky") == [T(NOWHERE)]
    assert g.legal(s, "inky") == [T(NOWHERE)]
    for x in range(1, 9):
        for y in range(1, 9):
            st = set_location(s, "pacman", x, y)
            expected = sorted(("move", d) for d in DIRS if step_target(x, y, d, 8, D_BN, D_BE))
            assert g.legal(st, "pacman") == expected, (x, y)


def test_d_pellet_eating():
    g = game(D)
    s = play(g, g.initial(), {"pacman": "(move east)", "blinky": NOWHERE, "inky": NOWHERE})
    assert location(s, "pacman") == (6, 3)
    assert ("collected", "1") in s and len(pellets(s)) == 32 and (6, 3) not in pellets(s)
    assert ("control", "ghosts") in s and ("step", "2") in s


def test_d_ghosts_move_simultaneously():
    g = game(D)
    s = play(g, g.initial(), {"pacman": "(move east)", "blinky": NOWHERE, "inky": NOWHERE})
    assert g.legal(s, "pacman") == [T(NOWHERE)]
    # blinky (4,6) and inky (5,6): north and south are walled for both
    assert g.legal(s, "blinky") == [T("(move east)"), T("(move west)")]
    assert g.legal(s, "inky") == [T("(move east)"), T("(move west)")]
    swapped = play(g, s, {"pacman": NOWHERE, "blinky": "(move east)", "inky": "(move west)"})
    assert location(swapped, "blinky") == (5, 6) and location(swapped, "inky") == (4, 6)
    assert location(swapped, "pacman") == (6, 3) and ("control", "pacman") in swapped
    # both ghosts may end on the same cell
    st = set_location(s, "blinky", 3, 6)
    same = play(g, st, {"pacman": NOWHERE, "blinky": "(move east)", "inky": "(move west)"})
    assert location(same, "blinky") == location(same, "inky") == (4, 6)


def test_d_capture_by_inky():
    g = game(D)
    s = g.initial()
    for moves in [("(move east)", NOWHERE, NOWHERE),                 # pacman -> (6,3), 1 pellet
                  (NOWHERE, "(move west)", "(move east)"),           # blinky (3,6), inky (6,6)
                  ("(move north)", NOWHERE, NOWHERE),                # pacman -> (6,4), 2 pellets
                  (NOWHERE, "(move east)", "(move south)"),          # blinky (4,6), inky (6,5)
                  ]:
        assert not g.terminal(s)
        s = play(g, s, dict(zip(g.roles, moves)))
    assert location(s, "inky") == (6, 5) and location(s, "pacman") == (6, 4)
    # pacman walks into inky, who stands on a pellet: the pellet still counts
    s = play(g, s, {"pacman": "(move north)", "blinky": NOWHERE, "inky": NOWHERE})
    assert ("collected", "3") in s
    assert g.terminal(s)
    assert g.goals(s) == {"pacman": D_SCORE[3], "blinky": 0, "inky": 100}


def test_d_capture_by_blinky():
    g = game(D)
    s = g.initial()
    for moves in [("(move east)", NOWHERE, NOWHERE),                 # pacman (6,3), 1
                  (NOWHERE, "(move west)", "(move east)"),           # blinky (3,6), inky (6,6)
                  ("(move west)", NOWHERE, NOWHERE),                 # pacman (5,3), 1
                  (NOWHERE, "(move south)", "(move west)"),          # blinky (3,5), inky (5,6)
                  ("(move west)", NOWHERE, NOWHERE),                 # pacman (4,3), 2
                  (NOWHERE, "(move south)", "(move east)"),          # blinky (3,4), inky (6,6)
                  ("(move west)", NOWHERE, NOWHERE),                 # pacman (3,3), 3
                  ]:
        assert not g.terminal(s)
        s = play(g, s, dict(zip(g.roles, moves)))
    s = play(g, s, {"pacman": NOWHERE, "blinky": "(move south)", "inky": "(move west)"})
    assert location(s, "blinky") == location(s, "pacman") == (3, 3)
    assert g.terminal(s)
    assert g.goals(s) == {"pacman": D_SCORE[3], "blinky": 100, "inky": 0}


def test_d_score_table_and_terminal():
    g = game(D)
    s0 = g.initial()
    for n, score in enumerate(D_SCORE):
        s = set_fact(s0, "collected", n)
        assert g.goal(s, "pacman") == score, n
        # noPellets tests (collected 35): unreachable with 33 pellets
        assert g.terminal(s) == (n == 35), n
    assert g.terminal(set_fact(s0, "step", 100))
    assert g.goals(set_fact(s0, "step", 100)) == {"pacman": 0, "blinky": 0, "inky": 0}
    assert not g.terminal(set_fact(s0, "step", 99))


# ---------------------------------------------------------------------------
# random playouts: invariants and speed
# ---------------------------------------------------------------------------

MAX_PLIES = {A: 49, B: 50, C: 29, D: 99}


@pytest.mark.parametrize("name", [A, B, C, D])
def test_random_playouts(name):
    g = game(name)
    rng = random.Random(20240601)
    for _ in range(8):
        s = g.initial()
        plies = 0
        while True:
            if g.terminal(s):
                break
            legal = {r: g.legal(s, r) for r in g.roles}
            assert all(legal.values()), legal
            assert all(m == sorted(m, key=term_sort_key) for m in legal.values())
            moves = {r: rng.choice(ms) for r, ms in legal.items()}
            s = g.next(s, moves)
            plies += 1
            if name == D:
                assert len(pellets(s)) + int(fact_value(s, "collected")) == 33
        assert plies <= MAX_PLIES[name]
        goals = g.goals(s)  # exactly one goal value per role
        assert all(0 <= v <= 100 for v in goals.values())


class _LazyGame(GdlGame):
    MATERIALIZE_LIMIT = 0  # evaluate (almost) every non-recursive component on demand


@pytest.mark.parametrize("name", [A, B, pytest.param(C, marks=pytest.mark.slow), D])
def test_demand_driven_evaluation_agrees(name):
    g = game(name)
    lazy = _LazyGame.from_file(kif_path(f"{name}.kif"))
    assert lazy.initial() == g.initial() and lazy.roles == g.roles
    rng = random.Random(7)
    for _ in range(2):
        s = g.initial()
        while not g.terminal(s):
            assert not lazy.terminal(s)
            legal = {r: g.legal(s, r) for r in g.roles}
            assert legal == {r: lazy.legal(s, r) for r in g.roles}
            moves = {r: rng.choice(ms) for r, ms in legal.items()}
            nxt = g.next(s, moves)
            assert lazy.next(s, moves) == nxt
            s = nxt
        assert lazy.terminal(s) and lazy.goals(s) == g.goals(s)
    assert any(scc.lazy for scc in lazy._sccs)


def test_mummymaze1p_smoke():
    # The 1-player sibling: its static (direction-from x1 y1 x2 y2 dir) has
    # 6.5 million tuples, so it is evaluated on demand.
    g = game("mummymaze1p")
    assert g.roles == ["explorer"]
    s = g.initial()
    assert location(s, "explorer") == (3, 3) and location(s, "mummy") == (5, 1)
    assert ("step", "0") in s
    assert g.legal(s, "explorer") == [("move", d) for d in sorted(list(DIRS) + ["nowhere"])]
    s = g.next(s, {"explorer": T("(move east)")})
    # (wall 3 3 east): the explorer stays.  The mummy chases (3,3): west is
    # walled (wall 4 1 east) so it goes north to (5,2), then west to (4,2).
    assert location(s, "explorer") == (3, 3)
    assert location(s, "mummy") == (4, 2)
    assert not g.terminal(s) and g.goals(s) == {"explorer": 50}
