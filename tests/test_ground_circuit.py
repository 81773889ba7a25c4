"""The circuit of a ground program (gridsolve/ground/circuit.py): random stratified programs with
free inputs, positive recursion and negation, clingo's one model of each input set against the
circuit's rows for all input sets at once (numpy, and the C kernel where it was built); the
rules' order for the layout judge; the programs that are no circuit."""
from __future__ import annotations

import importlib
import random

import clingo
import numpy as np
import pytest

from gridsolve.ground import circuit as ground
from gridsolve.ground.circuit import NotACircuit, UnstratifiedError, ground_circuit, pack, unpack


def kernel():
    """The C kernel, built for the test session (tests/native_build.py), even where
    GRIDSOLVE_NATIVE=0 runs the rest in numpy."""
    return importlib.import_module("gridsolve.ground.circuitkernel")


def random_program(seed: int) -> tuple[str, list[str], list[str]]:
    """A stratified program over inputs i0..: atoms a<stratum>_<k>, each stratum's rules reading
    inputs, atoms of its own stratum (positively: recursion) and of lower strata (also negated).
    Returns (program, inputs, atoms)."""
    rng = random.Random(seed)
    inputs = [f"i{k}" for k in range(rng.randrange(1, 6))]
    lines = [f"{{{name}}}." for name in inputs]
    atoms, lower = [], list(inputs)
    for stratum in range(rng.randrange(1, 5)):
        own = [f"a{stratum}_{k}" for k in range(rng.randrange(1, 5))]
        for _ in range(rng.randrange(1, 9)):
            body = []
            for _ in range(rng.randrange(0, 4)):
                if rng.random() < 0.4:
                    body.append(rng.choice(own))
                else:
                    atom = rng.choice(lower)
                    body.append(atom if rng.random() < 0.6 else f"not {atom}")
            lines.append(f"{rng.choice(own)}" + (f" :- {', '.join(body)}." if body else "."))
        atoms += own
        lower += own
    if rng.random() < 0.5:
        lines.append(f"{atoms[0]}(X) :- X = 1..3, {rng.choice(lower)}.")      # (some atoms with arguments)
        atoms += [f"{atoms[0]}({x})" for x in (1, 2, 3)]
    return "\n".join(lines) + "\n", inputs, atoms


def clingo_model(program: str, inputs: list[str], chosen: tuple[bool, ...]) -> set[str]:
    """clingo's one model of ``program`` with the inputs ``chosen`` (the choices made facts)."""
    text = "".join(line for line in program.splitlines(True) if not line.startswith("{"))
    text += "".join(f"{name}.\n" for name, on in zip(inputs, chosen) if on)
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], text)
    ctl.ground([("base", [])])
    found = []
    ctl.solve(on_model=lambda model: found.append({str(s) for s in model.symbols(atoms=True)}))
    assert len(found) == 1
    return found[0]


def circuit_values(circuit, inputs: list[str], cases: np.ndarray, atoms: list[str]) -> dict[str, list[bool]]:
    rows = [circuit.rows[clingo.parse_term(name)] for name in inputs]
    out = circuit.evaluate(np.array(rows, dtype=np.int64), pack(cases))
    values = {}
    for name in atoms:
        row = circuit.rows.get(clingo.parse_term(name))
        values[name] = ([False] * len(cases) if row is None else unpack(out[[row]], len(cases))[:, 0].tolist())
    return values


@pytest.mark.parametrize("seed", range(40))
def test_every_input_set_s_rows_are_clingo_s_model(seed):
    program, inputs, atoms = random_program(seed)
    cases = np.array([[(case >> k) & 1 for k in range(len(inputs))] for case in range(2 ** len(inputs))] * 5,
                     dtype=bool)      # (more than one word of cases)
    circuit = ground_circuit(program)
    values = circuit_values(circuit, inputs, cases, atoms)
    for c, chosen in enumerate(map(tuple, cases[:2 ** len(inputs)].tolist())):
        model = clingo_model(program, inputs, chosen)
        assert {name for name in atoms if values[name][c]} == {name for name in atoms if name in model}, chosen
    in_c = ground_circuit(program, kernel=kernel())
    assert circuit_values(in_c, inputs, cases, atoms) == values


@pytest.mark.parametrize("seed", range(40, 100))
def test_the_c_kernel_gives_numpy_s_rows(seed):
    program, inputs, atoms = random_program(seed)
    rng = np.random.default_rng(seed)
    cases = rng.random((200, len(inputs))) < 0.5
    numpy_out = ground_circuit(program)
    c_out = ground_circuit(program, kernel=kernel())
    given = np.array([numpy_out.rows[clingo.parse_term(name)] for name in inputs], dtype=np.int64)
    assert (c_out.evaluate(given, pack(cases)) == numpy_out.evaluate(given, pack(cases))).all()


@pytest.mark.parametrize("seed", range(20))
def test_the_rules_order_decides_each_body_atom_before_its_rule(seed):
    program, _, _ = random_program(seed)
    circuit = ground_circuit(program)
    order = circuit.ordered()
    if any(level.recursive for level in circuit.levels):
        assert order is None
        return
    heads = [head for head, _ in order]
    for k, (_, body) in enumerate(order):
        assert all(abs(lit) not in heads[k:] for lit in body)


def test_a_shown_term_with_a_condition_is_a_row_true_where_it_holds():
    circuit = ground_circuit("{a}. {b}. #show t(1) : a, not b. #show t(1) : b, not a. #show u : a.")
    given = np.array([circuit.rows[clingo.Function(name)] for name in "ab"], dtype=np.int64)
    cases = np.array([[0, 0], [1, 0], [0, 1], [1, 1]], dtype=bool)
    out = circuit.evaluate(given, pack(cases))
    assert unpack(out[[circuit.rows[clingo.parse_term("t(1)")]]], 4)[:, 0].tolist() == [False, True, True, False]
    assert unpack(out[[circuit.rows[clingo.parse_term("u")]]], 4)[:, 0].tolist() == [False, True, False, True]


def test_an_external_atom_is_an_input():
    ctl = clingo.Control(["--warn=none"])
    observer = ground.Observer()
    ctl.register_observer(observer)
    ctl.add("base", [], "#external e. p :- e. q :- not p.")
    ctl.ground([("base", [])])
    circuit = ground.Circuit(observer)
    row = circuit.atom_rows[ctl.symbolic_atoms[clingo.Function("e")].literal]
    assert circuit.input_rows == {row}
    out = circuit.evaluate(np.array([row]), pack(np.array([[0], [1]], dtype=bool)))
    assert unpack(out[[circuit.rows[clingo.Function("q")]]], 2)[:, 0].tolist() == [True, False]


@pytest.mark.parametrize("program, error", [
    ("{a; c}. b :- #sum { 2 : a; 3 : c } >= 4.", NotACircuit), ("{a}. b ; c :- a.", NotACircuit),
    ("{a}. {b} :- a.", NotACircuit), ("{a}. a :- b. {b}.", NotACircuit),
    ("{a}. p :- a, not q. q :- a, not p.", UnstratifiedError)])
def test_a_program_that_is_no_circuit_is_refused(program, error):
    with pytest.raises(error):
        ground_circuit(program)
