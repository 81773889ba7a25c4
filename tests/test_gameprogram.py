"""The one builder of the game program (gridsolve/compile/gameprogram.py) on tiny hand-checked positions."""
from __future__ import annotations

import clingo
import pytest

from gridsolve.compile.gameprogram import GameProgram, base_part, board_externals, show_statements
from gridsolve.compile.predicates import (CELL, CMOVE, EDGE, GRAPH_STEP, OUTCOME, REACH, TABLE_CHASE, Predicate,
                                          model_atoms)
from gridsolve.errors import EncodingError
from gridsolve.compile.state import layout_for
from gridsolve.language.loader import load_board
from gridsolve.language.position import make_query

from conftest import CORRIDOR, run_clingo

ROOT = "s(0,2,2,1,1)"       # the corridor's start: the explorer to move on (2,2), the mummy on (1,1)
FIRST_MOVES = {f"edge({ROOT},east,s(1,3,2,1,1))", f"edge({ROOT},nowhere,s(1,2,2,1,1))",
               f"edge({ROOT},west,s(1,1,2,1,1))"}


@pytest.fixture
def corridor(board_file):
    board = load_board(str(board_file(CORRIDOR)))
    layout = layout_for(board)
    assert layout.root_term(make_query(board).position, board) == ROOT
    return board, layout


def test_the_roots_only_reach_themselves_and_give_their_moves(corridor):
    board, layout = corridor
    program = GameProgram(board, layout, [ROOT], shown=[EDGE, REACH], reached_by=None)
    assert run_clingo(program.text()) == FIRST_MOVES | {f"reach({ROOT})"}


def test_explored_positions_are_the_closure_of_the_moves(corridor):
    board, layout = corridor
    program = GameProgram(board, layout, [ROOT], shown=[EDGE, "reach/1"]).text()
    assert FIRST_MOVES <= run_clingo(program)
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], program)
    ctl.ground([("base", [])])
    atoms = model_atoms(ctl, [EDGE, REACH])
    reached = {str(s) for s, in atoms[REACH]}
    assert {str(after) for _, _, after in atoms[EDGE]} | {ROOT} == reached
    assert {str(before) for before, _, _ in atoms[EDGE]} <= reached


def test_the_header_titles_the_program_and_heads_each_block_of_facts(corridor):
    board, layout = corridor
    lines = GameProgram(board, layout).header("a test", "race")
    assert lines[0] == f"% gridsolve program: board Corridor ({board.path}), rules mummy-maze-2007"
    assert lines[1] == "% a test, race solver. Run: clingo THIS_FILE"
    heads = [line for line in lines if line.startswith("% - ")]
    assert heads == ["% - Board facts ---", "% - Rule facts ---", "% - Mechanism facts ---"]


def test_a_program_without_rules_has_no_reach_and_no_mechanisms(corridor):
    board, _ = corridor
    text = GameProgram(board, None).text(rules=False, encodings=("board.lp", "moves.lp"),
                                                            mechanisms=False)
    assert "reach(" not in text and "% - Mechanism facts ---" not in text and "% - Roots ---" not in text
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], text)
    ctl.ground([("base", [])])
    assert len(CELL.ground(ctl.symbolic_atoms)) == 8            # a board of 4 by 2 cells
    # from (2,2) the explorer's moves stay in the top corridor or stand still (the wall below it)
    ends = {(x2, y2) for role, x, y, _, x2, y2 in CMOVE.ground(ctl.symbolic_atoms)
            if role == "explorer" and (x, y) == (2, 2)}
    assert ends == {(1, 2), (2, 2), (3, 2)}


def test_other_board_facts_replace_the_boards_own(corridor):
    board, layout = corridor
    text = GameProgram(board, layout, board_text="dim(2,1).").text(rules=False)
    assert "% - Board facts ---\ndim(2,1).\n" in text and "dim(4,2)" not in text


def test_board_externals_cover_every_interior_edge_and_each_marks_cells():
    assert board_externals(3, 2, ["key"]) == [
        "#external wall_north(X,Y) : X = 1..3, Y = 1..1.", "#external wall_east(X,Y) : X = 1..2, Y = 1..2.",
        "#external gate_north(X,Y) : X = 1..3, Y = 1..1.", "#external gate_east(X,Y) : X = 1..2, Y = 1..2.",
        "#external mark(key,X,Y) : X = 1..3, Y = 1..2."]
    assert board_externals(3, 2, [], gates=False) == [
        "#external wall_north(X,Y) : X = 1..3, Y = 1..1.", "#external wall_east(X,Y) : X = 1..2, Y = 1..2."]


def test_an_encodings_base_part_ends_before_its_first_program_directive():
    assert base_part("a.\nb.\n#program p(k).\nc(k).\n") == "a.\nb.\n"
    assert base_part("a.\n") == "a.\n"
    headed = GameProgram.encodings(("board.lp",), headed=True)
    assert headed[0] == "% === encodings/board.lp ===" and headed[2] == ""


def test_shown_predicates_hide_every_other_atom_and_show_terms_where_their_condition_holds(corridor):
    board, layout = corridor
    assert show_statements([]) == []
    assert show_statements([EDGE, "outcome/2", GRAPH_STEP.when("edge(S,_,S2)")]) == [
        "#show.", "#show edge/3.", "#show outcome/2.", "#show graph_step(S,S2) : edge(S,_,S2)."]
    assert TABLE_CHASE.when("chase(vertical,X,Y,SX,SY,G,X2,Y2)", axis=1).show() == \
        "#show tc(1,X,Y,SX,SY,G,X2,Y2) : chase(vertical,X,Y,SX,SY,G,X2,Y2)."
    program = GameProgram(board, layout, [ROOT], shown=[GRAPH_STEP.when("edge(S,_,S2)")], reached_by=None)
    assert run_clingo(program.text()) == {f"graph_step({ROOT},s(1,{cells}))" for cells in ("3,2,1,1", "2,2,1,1", "1,2,1,1")}


def test_the_first_model_reads_back_by_the_shown_predicates(corridor):
    board, layout = corridor
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], GameProgram(board, layout, [ROOT], shown=[EDGE, OUTCOME], reached_by=None).text())
    ctl.ground([("base", [])])
    atoms = model_atoms(ctl, [EDGE, OUTCOME])
    assert atoms[OUTCOME] == []         # the start: no end holds
    assert sorted((str(s), str(m), str(s2)) for s, m, s2 in atoms[EDGE]) == sorted(
        (ROOT, move, after) for move, after in [("east", "s(1,3,2,1,1)"), ("nowhere", "s(1,2,2,1,1)"),
                                                 ("west", "s(1,1,2,1,1)")])
    with pytest.raises(EncodingError, match="an atom of none of outcome/2"):
        model_atoms(ctl, [OUTCOME])


@pytest.mark.parametrize("shown", ["edges/3", "edge/4", "#show edge/3.", Predicate("edge", "a:term b:term c:term", "")],
                         ids=["unknown name", "wrong arity", "a statement", "not the declared one"])
def test_a_predicate_not_declared_cannot_be_shown(corridor, shown):
    board, layout = corridor
    with pytest.raises(EncodingError, match="declare it there"):
        GameProgram(board, layout, [ROOT], shown=[shown]).text()
