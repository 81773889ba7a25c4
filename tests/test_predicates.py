"""The ASP predicates declared once (gridsolve/compile/predicates.py): the declarations match the
encodings' inputs, the fact writers use them, and facts written by a declaration read back the
same through clingo."""
from __future__ import annotations

import re
from pathlib import Path

import clingo
import pytest

from gridsolve.compile.predicates import (DECLARED, EDGE, ESCORE, ESCORE_OF, FGRAPH_END, FGRAPH_MOVE, IBIT, SCORE, TABLE_MOVE, TURN_AFTER,
                                          Predicate, declare, declared, each_atom, read_atoms)
from gridsolve.errors import EncodingError
from gridsolve.mechanisms import encodings  # noqa: F401  (the mechanisms' own declarations, in DECLARED)

ROOT = Path(__file__).resolve().parent.parent
ENCODINGS = sorted((ROOT / "encodings").glob("*.lp"))
WRITERS = ["gridsolve/compile/facts.py", "gridsolve/compile/knowledge.py", "gridsolve/generate/genprogram.py",
           *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "gridsolve" / "mechanisms").glob("*/compiled.py"))]


def _declared_arities() -> dict[str, set]:
    out: dict[str, set] = {}
    for predicate in DECLARED.values():
        out.setdefault(predicate.name, set()).add("*" if predicate.variadic else predicate.arity)
    return out


@pytest.mark.parametrize("path", ENCODINGS, ids=lambda p: p.name)
def test_every_input_an_encoding_defines_is_declared_with_its_arity(path):
    arities = _declared_arities()
    inputs = re.findall(r"#defined\s+(\w+)/(\d+)\.", path.read_text())
    assert inputs, f"{path.name} declares no input with #defined"
    missing = [f"{name}/{arity}" for name, arity in inputs
               if int(arity) not in arities.get(name, set()) and "*" not in arities.get(name, set())]
    assert missing == [], f"{path.name} reads predicates gridsolve/compile/predicates.py does not declare"


@pytest.mark.parametrize("writer", WRITERS)
def test_no_fact_writer_spells_a_declared_predicate_by_hand(writer):
    """(the mechanisms' compiled parts write their facts and their rules' atoms with them too)"""
    text = (ROOT / writer).read_text()
    names = {p.name for p in DECLARED.values()}
    by_hand = sorted({m for m in re.findall(r'f"(\w+)\(', text) if m in names})
    assert by_hand == [], f"{writer} writes {by_hand} as f-strings; use their Predicate"


def test_a_fact_reads_back_through_clingo_as_written():
    rows = {SCORE: ("escaped", "explorer", 100), IBIT: ("coin", 2, 3, (0, 4, 1)),
            EDGE: (clingo.parse_term("s(0,1,2)"), clingo.parse_term("(north,east)"), clingo.parse_term("s(1,1,3)"))}
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], "\n".join(p.fact(*values) for p, values in rows.items()))
    ctl.ground([("base", [])])
    atoms = [a.symbol for a in ctl.symbolic_atoms]
    read = {p: [p.read(a) for a in atoms if p.matches(a)] for p in rows}
    assert read[SCORE] == [("escaped", "explorer", 100)]
    assert read[IBIT] == [("coin", 2, 3, (0, 4, 1))]
    assert read[EDGE] == [rows[EDGE]]
    assert not SCORE.matches(clingo.parse_term("score(a,b)"))


def test_a_run_of_numbers_in_the_middle_is_written_but_not_read():
    assert TURN_AFTER.fact(1, (0, 2), 0, (0, 1)) == "turn_after(1,0,2,0,0,1)."
    with pytest.raises(ValueError, match="only a last `ints` field"):
        TURN_AFTER.read(clingo.parse_term("turn_after(1,0,2,0,0,1)"))


def test_declarations_refuse_wrong_counts_kinds_and_twins():
    with pytest.raises(TypeError, match="score/3: 2 values given for 3 fields"):
        SCORE.fact("escaped", 100)
    with pytest.raises(ValueError, match="has kind 'text'"):
        Predicate("p", "x:text", "")
    with pytest.raises(ValueError, match="score/3 is declared twice"):
        declare("score", "a:name b:name c:int", "")
    with pytest.raises(ValueError, match="is not an atom of edge/3"):
        EDGE.read(clingo.parse_term("edge(a,b)"))
    assert declared("score/3") is SCORE and declared("score/4") is None
    assert EDGE.atom("S", "M", "S2") == "edge(S,M,S2)" and EDGE.show() == "#show edge/3."


def test_shown_atoms_read_back_in_their_order_by_name_and_arity():
    """(escore/2 and escore/3 share a name: the arity tells them apart)"""
    written = [(ESCORE, (clingo.parse_term("s(1,2)"), 100)), (IBIT, ("coin", 1, 1, (7,))),
               (ESCORE_OF, (clingo.parse_term("s(1,2)"), "mummy", 0)), (ESCORE, (clingo.parse_term("s(2,2)"), -5)),
               (IBIT, ("coin", 2, 1, (0, 3)))]
    symbols = [clingo.parse_term(p.atom(*values)) for p, values in written]
    assert list(each_atom(symbols, [ESCORE, ESCORE_OF, IBIT])) == written
    read = read_atoms(symbols, [ESCORE_OF, ESCORE, IBIT, SCORE])
    assert read[ESCORE] == [values for p, values in written if p is ESCORE] and read[SCORE] == []


def test_an_atom_of_a_wrong_arity_or_name_is_no_atom_of_the_shown_predicates():
    for text in ("escore(s(1,2))", "escore(s(1,2),mummy,0,1)", "escores(s(1,2),3)"):
        with pytest.raises(EncodingError, match="is shown, an atom of none of escore/2"):
            read_atoms([clingo.parse_term(text)], [ESCORE])
    with pytest.raises(ValueError, match="is not an atom of escore/3"):
        ESCORE_OF.read(clingo.parse_term("escore(s(1,2),3)"))


def test_a_shown_term_names_its_fields_by_their_variables():
    assert TABLE_MOVE.when("rmove(explorer,X,Y,M,AX,AY,PX,PY,_)").show() == \
        "#show tm(M,X,Y,AX,AY,PX,PY) : rmove(explorer,X,Y,M,AX,AY,PX,PY,_)."
    assert SCORE.when("end(E)", role="mummy", value=0).show() == "#show score(END,mummy,0) : end(E)."
    with pytest.raises(TypeError, match="score/3 has no field who"):
        SCORE.when("x", who="mummy")
    with pytest.raises(TypeError, match="a run of numbers"):
        IBIT.when("x")


def test_a_constant_field_tells_two_predicates_of_one_name_and_arity_apart():
    """(with three pieces an end's fgraph atom has nine arguments, as a move's)"""
    move, end = (clingo.parse_term(t) for t in ("fgraph(move,explorer,1,2,north,1,3,1,3)", "fgraph(end,dead,0,1,1,2,2,3,3)"))
    assert FGRAPH_MOVE.matches(move) and not FGRAPH_MOVE.matches(end)
    assert FGRAPH_END.matches(end) and not FGRAPH_END.matches(move)
    assert list(each_atom([end, move], [FGRAPH_MOVE, FGRAPH_END])) == [
        (FGRAPH_END, ("end", "dead", 0, (1, 1, 2, 2, 3, 3))),
        (FGRAPH_MOVE, ("move", "explorer", 1, 2, clingo.Function("north"), 1, 3, 1, 3))]
    assert FGRAPH_MOVE.signature == "fgraph/9" and FGRAPH_MOVE.atom("move", "R", "X", "Y", "M", 1, 2, 3, 4) == \
        "fgraph(move,R,X,Y,M,1,2,3,4)"


def test_an_atom_built_as_a_symbol_reads_back_as_its_values():
    symbol = SCORE.symbol("escaped", "explorer", -5)
    assert str(symbol) == "score(escaped,explorer,-5)" and SCORE.read(symbol) == ("escaped", "explorer", -5)
    assert EDGE.symbol(clingo.parse_term("s(0,1)"), clingo.Function("north"), clingo.parse_term("s(1,1)")) == \
        clingo.parse_term("edge(s(0,1),north,s(1,1))")
    with pytest.raises(TypeError, match="score/3: 2 values given for 3 fields"):
        SCORE.symbol("escaped", 100)


def test_a_tagged_predicate_is_shown_as_a_tuple_of_its_name_and_arguments():
    assert EDGE.tagged().show() == "#show (edge,X0,X1,X2) : edge(X0,X1,X2)."
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], "edge(s(0),north,s(1)). score(e,r,1).\n#show.\n" + EDGE.tagged().show())
    ctl.ground([("base", [])])
    shown = []
    ctl.solve(on_model=lambda model: shown.extend(str(s) for s in model.symbols(shown=True)))
    assert shown == ["(edge,s(0),north,s(1))"]
    with pytest.raises(TypeError, match="a run of numbers"):
        IBIT.tagged()


def test_a_predicate_whose_arity_varies_is_shown_with_the_arity_of_its_atoms():
    assert FGRAPH_END.show(7) == "#show fgraph/7." and EDGE.show() == "#show edge/3."
    for predicate, arity in ((FGRAPH_END, None), (FGRAPH_END, 3), (EDGE, 3)):
        with pytest.raises(TypeError, match="shown with an arity only where"):
            predicate.show(arity)


def test_the_shared_tables_rows_are_told_apart_by_their_arity():
    """(their raw reader, gridsolve/solve/graph/scripted.py, keys the rows by arity)"""
    from gridsolve.compile.predicates import TABLE_CHASE, TABLE_DISTANCE, TABLE_GATE, TABLE_KEY, TABLE_MARK, TABLE_MOVE
    tables = [TABLE_MOVE, TABLE_GATE, TABLE_CHASE, TABLE_KEY, TABLE_MARK, TABLE_DISTANCE]
    assert len({p.arity for p in tables}) == len(tables)
