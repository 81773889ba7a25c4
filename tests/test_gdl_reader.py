"""The GDL reader (gridsolve/gdl/kif.py, description.py, translate.py): KIF read with its lines,
the checks that refuse what is not a GDL game, and the translation to clingo, on tiny texts."""
from __future__ import annotations

import clingo
import pytest

from gridsolve.errors import BoardError
from gridsolve.gdl.description import read_description
from gridsolve.gdl.kif import read_kif
from gridsolve.gdl.translate import kif_symbol, mangle, program_text, symbol_kif, unmangle

GAME = """; a one-step game
(ROLE Robot)
(init (at 1))
(<= (legal robot go) (true (at 1)))
(<= (next (at 2)) (does robot go))
(<= terminal (true (at 2)))
(<= (goal robot 100) (true (at 2)))
(<= (goal robot 0) (not (true (at 2))))
"""


def description(text: str = GAME, path: str = "game.kif"):
    return read_description(path, text)


def refusal(text: str) -> BoardError:
    with pytest.raises(BoardError) as caught:
        description(text)
    return caught.value


def test_kif_terms_keep_their_lines_and_symbols_are_read_in_lower_case():
    terms = read_kif("; comment (\n(Cell 1 ?X)\n\n(<= TERMINAL\n   (true (Done)))\n")
    assert [str(t) for t in terms] == ["(cell 1 ?x)", "(<= terminal (true (done)))"]
    assert [t.line for t in terms] == [2, 4]
    assert terms[1].args[1].line == 5


@pytest.mark.parametrize("text, line, words", [
    ("(role a)\n(init (b)", 2, "never closed"),
    ("(role a))", 1, "closes no '('"),
    ("(role a)\n\n()", 3, "empty list"),
    ("((f) a)", 1, "does not start with a name"),
    ("(?x a)", 1, "does not start with a name"),
])
def test_text_that_is_not_kif_names_the_line(text, line, words):
    error = refusal(text)
    assert error.line == line and words in error.message
    assert str(error).startswith(f"game.kif:{line}: ")


def test_a_game_reads_with_or_expanded_and_not_distinct_as_equality():
    game = description(GAME + "(<= (p ?x) (true (at ?x)) (or (distinct ?x 1) (not (distinct ?x 2))))\n")
    p_rules = [rule for rule in game.rules if rule.head.name == "p"]
    assert [[lit.kind for lit in rule.body] for rule in p_rules] == [["pos", "ne"], ["pos", "eq"]]
    assert "p(Vx) :- true(at(Vx)), Vx!=1." in program_text(game)
    assert "p(Vx) :- true(at(Vx)), Vx=2." in program_text(game)


def test_not_of_or_is_the_conjunction_of_the_negations():
    game = description(GAME + "(<= q (true (at 1)) (not (or (true (at 2)) (true (at 3)))))\n")
    (rule,) = [rule for rule in game.rules if rule.head.name == "q"]
    assert [(lit.kind, str(lit.atom)) for lit in rule.body] == [
        ("pos", "(true (at 1))"), ("neg", "(true (at 2))"), ("neg", "(true (at 3))")]


@pytest.mark.parametrize("extra, line, words", [
    ("(<= (sees robot ?x) (true (at ?x)))", 9, "GDL-II"),
    ("(role random)", 9, "chance role"),
    ("(<= (p ?x) (not (true (at ?x))))", 9, "unsafe rule: ?x"),
    ("(<= (p ?x) (true (at 1)) (distinct ?x 1))", 9, "unsafe rule: ?x"),
    ("(<= (p ?y) (true (at ?x)))", 9, "unsafe rule: ?y in the head"),
    ("(<= p (not q))\n(<= q (not p))", 9, "not stratified"),
    ("(<= (p ?x) (true (at ?x)) (not q))\n(<= q (p 1))", 9, "not stratified"),
    ("(<= (true (at 3)) (true (at 1)))", 9, "cannot be a fact or a rule's head"),
    ("(<= (legal robot stay) (does robot go))", 4, "legal depends on does"),
    ("(<= q (not))", 9, "(not ...) takes one literal"),
])
def test_what_gdl_forbids_is_refused_with_its_line(extra, line, words):
    error = refusal(GAME + extra + "\n")
    assert words in error.message, error.message
    assert error.line == line


def test_a_file_without_a_game_s_relations_says_which_are_missing():
    error = refusal("(role a)\n(init (x))\n")
    assert error.line is None
    assert "no legal, next, goal, terminal rules" in error.message


def test_base_and_input_are_read_as_relations():
    game = description(GAME + "(base (at 1)) (base (at 2)) (<= (input robot go) (role robot))\n")
    assert ("base", 1) in game.relations() and ("input", 2) in game.relations()


@pytest.mark.parametrize("symbol, mangled", [
    ("cell", "cell"), ("a_b", "a_b"), ("my-cell", "z_my_2Dcell"), ("zone", "z_zone"), ("z_x", "z_z_5Fx"),
    ("not", "z_not"), ("+", "z__2B"), ("1x", "z_1x"), ("caf\u00e9", "z_caf_C3_A9"),
])
def test_symbols_clingo_does_not_take_are_mangled_reversibly(symbol, mangled):
    assert mangle(symbol) == mangled
    assert unmangle(mangle(symbol)) == symbol


def test_terms_round_trip_through_clingo_symbols():
    for text in ["(cell 1 2 x)", "(my-cell z_q 007 12)", "noop", "(f (g -1) +)"]:
        (term,) = read_kif(text)
        symbol = kif_symbol(term)
        assert symbol_kif(symbol) == text
    assert kif_symbol(read_kif("12")[0]) == clingo.Number(12)
    assert kif_symbol(read_kif("007")[0]).type == clingo.SymbolType.Function
