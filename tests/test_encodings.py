"""Each encoding's semantics, pinned on tiny hand-checked inputs."""
from __future__ import annotations

from gridsolve.compile.gameprogram import base_part
from gridsolve.compile.gamerules import outcome_rules, with_domain
from gridsolve.resources import encoding
from gridsolve.compile.unroll import instantiate

from conftest import run_clingo


def levels(upto: int) -> str:
    return "\n".join(instantiate(encoding("solve.lp"), "solve.lp", "level", (d,)) for d in range(1, upto + 1))


# - board.lp ---

def test_open_steps_respect_walls_border_and_solid_cells():
    facts = "dim(2,2). wall_north(1,1). wall_east(1,2). solid(2,1). #show open_step/3."
    atoms = run_clingo(facts + encoding("board.lp"))
    steps = {a for a in atoms if not a.endswith("nowhere)")}
    # (1,1): north is walled, east is solid, south/west are off the board.
    # (1,2): east is walled, south is walled (the same edge as (1,1) north).
    # (2,2): west is walled; south is the solid cell.
    assert steps == set()
    assert {a for a in atoms if a.endswith("nowhere)")} == {
        "open_step(1,1,nowhere)", "open_step(1,2,nowhere)", "open_step(2,2,nowhere)"}


def test_open_steps_on_an_open_board_go_both_ways():
    atoms = run_clingo("dim(2,1). #show open_step/3." + encoding("board.lp"))
    assert atoms == {"open_step(1,1,east)", "open_step(2,1,west)",
                     "open_step(1,1,nowhere)", "open_step(2,1,nowhere)"}


# - moves.lp ---

def moves(facts: str) -> set[str]:
    return run_clingo(facts + " #show cmove/6." + encoding("board.lp") + encoding("moves.lp"))


def test_one_step_moves_with_idle_and_illegal_walls():
    atoms = moves("dim(3,1). wall_east(2,1). move_steps(r,1). idle(r).")
    from_2 = {a for a in atoms if a.startswith("cmove(r,2,1,")}
    assert from_2 == {"cmove(r,2,1,west,1,1)", "cmove(r,2,1,nowhere,2,1)"}


def test_blocked_steps_stay_when_asked():
    atoms = moves("dim(2,1). move_steps(r,1). blocked_stays(r).")
    assert {a for a in atoms if a.startswith("cmove(r,1,1,")} == {
        "cmove(r,1,1,east,2,1)", "cmove(r,1,1,west,1,1)", "cmove(r,1,1,north,1,1)", "cmove(r,1,1,south,1,1)"}


def test_two_steps_first_real_and_not_back_to_start():
    # A 3x1 corridor; from the middle: west/east first, then any legal step or nowhere,
    # never ending back on (2,1).
    atoms = moves("dim(3,1). move_steps(r,2). idle(r). first_step_real(r). end_differs(r).")
    assert {a for a in atoms if a.startswith("cmove(r,2,1,")} == {
        "cmove(r,2,1,(west,nowhere),1,1)", "cmove(r,2,1,(east,nowhere),3,1)"}
    # From the end (1,1): east then east, or east then nowhere; east-west returns: illegal.
    assert {a for a in atoms if a.startswith("cmove(r,1,1,")} == {
        "cmove(r,1,1,(east,east),3,1)", "cmove(r,1,1,(east,nowhere),2,1)"}


def test_two_steps_without_idle_must_make_two_real_steps():
    atoms = moves("dim(2,1). move_steps(r,2).")
    assert {a for a in atoms if a.startswith("cmove(r,1,1,")} == {"cmove(r,1,1,(east,west),1,1)"}


# - solve.lp ---

GRAPH = """
% A hand-made game graph: side 0 attacks, side 1 defends; target end 'goal'.
race(1). race_attacker(1,0). race_target(1,goal).
reach(a). reach(b). reach(c). reach(d). reach(e). reach(f). reach(g).
mover(a,0). mover(b,1). mover(c,1). mover(d,0). mover(e,0). mover(f,1). mover(g,0).
edge(a,m1,b). edge(a,m2,c).          % attacker at a: to b or c
edge(b,m,d). edge(b,m,e).            % defender at b: d or e
edge(c,m,d). edge(c,m,f).            % defender at c: d or f (f never reaches the goal)
edge(d,m,g). edge(e,m,d).            % attacker chains
edge(f,m,f).
terminal(g). outcome(g,goal).
#show won_in/3.
"""


def test_ranks_attackers_hurry_defenders_delay():
    atoms = run_clingo(GRAPH + base_part(encoding("solve.lp")) + levels(6))
    # g: target (0); d -> g (1); e -> d (2); b: defender, max(d=1, e=2)+1 = 3;
    # c: defender with f unreachable -> not won; a: attacker, min(b=3)+1 = 4.
    assert atoms == {"won_in(1,g,0)", "won_in(1,d,1)", "won_in(1,e,2)", "won_in(1,b,3)", "won_in(1,a,4)"}


def test_ranks_stop_at_the_levels_instantiated():
    atoms = run_clingo(GRAPH + base_part(encoding("solve.lp")) + levels(2))
    assert atoms == {"won_in(1,g,0)", "won_in(1,d,1)", "won_in(1,e,2)"}


def test_terminal_positions_are_decided_by_precedence():
    program = ("term(s,a). term(s,b). precedes(a,b). reach(s). #show outcome/2."
               + with_domain("\n".join(outcome_rules()), "reach(", "reach("))
    assert run_clingo(program) == {"outcome(s,a)"}


# - unroll ---

def test_unrolled_levels_equal_the_conditional_form():
    """The instantiated level part has the same answer set as the original rules."""
    original = encoding("solve.lp").split("\n#program level(d).")[1]
    conditional = "\n".join(original.replace("(d-1)", f"({d}-1)").replace("d-1", f"{d}-1")
                            .replace(",d)", f",{d})") for d in range(1, 7))
    base = GRAPH + base_part(encoding("solve.lp"))
    assert run_clingo(base + conditional) == run_clingo(base + levels(6))
