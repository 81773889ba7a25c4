"""The mechanisms as plug-ins (gridsolve/mechanisms/): the registries are the one source of what
each mechanism adds (keys of the file format, names, fields of the position term), every part
of the interface is filled in by some mechanism, a key of a mechanism left out of the registry
is refused by the loader, and the language parts stay below the compiler."""
from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import pytest

from gridsolve.compile.state import Layout, layout_for
from gridsolve.errors import BoardError
from gridsolve.language import loader, schema
from gridsolve.language.loader import board_of
from gridsolve.language.model import CORE_MECHANISMS, MECHANISMS as NAMES
from gridsolve.mechanisms.base import Encoding, Key, Mechanism
from gridsolve.mechanisms.encodings import ENCODINGS, TERM
from gridsolve.mechanisms.registry import MECHANISMS, place_keys

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_house import ROOT, import_graph  # noqa: E402

BOARDS = sorted(p for p in (ROOT / "boards").rglob("*.yaml") if p.parent.name != "gdl")    # (boards/gdl: GDL games)


def test_each_mechanism_has_a_language_part_and_a_compiled_part_of_one_name_in_its_own_folder():
    names = [m.name for m in MECHANISMS]
    assert len(set(names)) == len(names)
    assert sorted(e.name for e in ENCODINGS) == sorted(names)
    for name in names:
        folder = ROOT / "gridsolve" / "mechanisms" / name
        assert {"__init__.py", "language.py", "compiled.py"} <= {p.name for p in folder.iterdir()}
        assert (folder / "__init__.py").read_text().startswith('"""'), f"{name}: say what the mechanism is"


def test_every_folder_of_the_package_is_a_registered_mechanism():
    package = ROOT / "gridsolve" / "mechanisms"
    found = {p.name for p in package.iterdir() if p.name != "__pycache__"}
    assert found == {m.name for m in MECHANISMS} | {"__init__.py", "base.py", "registry.py", "encodings.py"}


def _given(part, hook: str, default) -> bool:
    value = getattr(part, hook)
    return value is not None and value != () and value is not default


@pytest.mark.parametrize("kind, parts", [(Mechanism, MECHANISMS), (Encoding, ENCODINGS)], ids=["language", "compiled"])
def test_every_hook_of_the_interface_is_filled_in_by_some_mechanism(kind, parts):
    defaults = {f.name: f.default for f in dataclasses.fields(kind)}
    unused = [hook for hook in defaults if hook != "name" and not any(_given(p, hook, defaults[hook]) for p in parts)]
    assert unused == []


def test_each_mechanism_adds_something():
    """A mechanism without keys, loader parts or names in the language adds facts or rules."""
    defaults = {f.name: f.default for f in dataclasses.fields(Mechanism)}
    compiled = {e.name: e for e in ENCODINGS}
    edefaults = {f.name: f.default for f in dataclasses.fields(Encoding)}
    for mechanism in MECHANISMS:
        language = [h for h in defaults if h != "name" and _given(mechanism, h, defaults[h])]
        program = [h for h in edefaults if h != "name" and _given(compiled[mechanism.name], h, edefaults[h])]
        assert language or program, mechanism.name


def _owners(part: str) -> dict[str, list[str]]:
    """{key: the mechanisms that add it} of one object of the file format."""
    out: dict[str, list[str]] = {}
    for mechanism in MECHANISMS:
        keys = mechanism.rules_keys(schema.CONDITION) if part == "rules_keys" else getattr(mechanism, part)
        for key in keys:
            out.setdefault(key.name, []).append(mechanism.name)
    return out


@pytest.mark.parametrize("part, core, whole", [
    ("rules_keys", schema.CORE_RULES_FIELDS, schema.RULES_FIELDS),
    ("board_keys", schema.CORE_BOARD_FIELDS, schema.BOARD.fields),
    ("condition_keys", schema.CONDITION_FIELDS, schema.CONDITION.fields),
    ("move_keys", schema.MOVE_FIELDS, schema.MOVE.fields)])
def test_every_key_of_the_file_format_belongs_to_the_core_or_exactly_one_mechanism(part, core, whole):
    owners = _owners(part)
    assert {key: names for key, names in owners.items() if len(names) > 1} == {}
    assert set(owners) & set(core) == set()
    assert set(whole) == set(core) | set(owners)


def test_the_keys_keep_their_places_after_the_keys_they_name():
    assert list(schema.RULES_FIELDS)[7:10] == ["collisions", "collect", "score_tables"]
    assert list(schema.CONDITION.fields) == ["same_cell", "reaches", "was_on", "collected", "nearer", "crates_on"]
    keys = [Key("d", None, "c"), Key("c", None, "a"), Key("e", None, "gone")]
    assert list(place_keys({"a": 1, "b": 2}, keys)) == ["a", "c", "d", "b", "e"]


def test_the_names_of_the_mechanisms_come_from_the_core_and_the_registry_and_each_is_given_once():
    registered = [name for mechanism in MECHANISMS for name in mechanism.names]
    assert len(set(registered)) == len(registered) and not set(registered) & set(CORE_MECHANISMS)
    assert set(NAMES) == set(CORE_MECHANISMS) | set(registered)


@pytest.mark.parametrize("path", BOARDS, ids=lambda p: p.stem)
def test_each_mechanism_says_only_its_own_names_and_every_position_field_is_a_mechanisms(path):
    board = loader.load_board(path)
    for mechanism in MECHANISMS:
        assert mechanism.used(board.rules) <= set(mechanism.names)
    layout = layout_for(board)
    fields = [f.name for f in dataclasses.fields(Layout)]
    assert fields[:2] == ["roles", "turns"] and fields[-1] == "plugins"
    # each field after the pieces is one mechanism's: a Layout attribute, or kept in Layout.plugins
    assert set(fields[2:-1]) <= {part.position.name for part in TERM}
    assert {name for name, _ in layout.plugins} <= {part.position.name for part in TERM} - set(fields)
    assert len(layout.variables()) == sum(len(f.variables(layout, "")) for f in layout.fields())


def test_the_term_order_lists_every_mechanism_with_a_field_of_the_position_term_once():
    assert len(set(TERM)) == len(TERM) and set(TERM) <= set(ENCODINGS)
    assert {e for e in ENCODINGS if e.position is not None} == set(TERM)


def test_a_key_of_a_mechanism_left_out_of_the_registry_is_refused_by_the_loader(monkeypatch):
    text = ("rules: {roles: [hero], ends: [{name: out, when: {reaches: {hero: exit}}, scores: {hero: 1}}], "
            "steps: {first: 1, last: 3}, timeout: {hero: 0}, collect: {coin: {piece: hero, mark: coin}}}\n"
            "size: [2, 1]\npieces: {hero: [1, 1]}\nmarks: {exit: [[2, 1]], coin: [[2, 1]]}\n")
    from gridsolve.language.yamlsrc import load_text
    assert board_of(load_text(text, "b.yaml"), "b.yaml").rules.mechanisms >= {"items"}
    without = tuple(m for m in MECHANISMS if m.name != "items")
    monkeypatch.setattr(schema, "RULES", schema.rules_object(without))
    monkeypatch.setattr(loader, "MECHANISMS", without)
    with pytest.raises(BoardError, match="unknown key 'collect'"):
        board_of(load_text(text, "b.yaml"), "b.yaml")


def _reaches(graph: dict, start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        for target in graph[todo.pop()]:
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return seen


@pytest.mark.slow
def test_the_language_parts_stay_below_the_compiler():
    """No language part (nor the language, through them) reaches a compiled part or the compiler."""
    graph = import_graph(ROOT / "gridsolve")
    language = [m for m in graph if m.startswith("gridsolve.language")
                or m == "gridsolve.mechanisms.registry" or m.endswith(".language") and ".mechanisms." in m]
    assert len(language) > 20
    for module in language:
        above = {t for t in _reaches(graph, module) if t.startswith("gridsolve.compile") or t.endswith(".compiled")
                 or t == "gridsolve.mechanisms.encodings"}
        assert above == set(), module


def test_every_mechanisms_move_cases_are_combined(monkeypatch):
    """The compiler combines the ``move_cases`` of every mechanism that has some (one case of
    each; a mover any of them stops is stopped), not only the first one's: here the gates' with
    a second mechanism's (a step onto a mark ``mud`` stays), on a board with gates."""
    from gridsolve.compile import gamerules
    from gridsolve.language.loader import load_board
    from gridsolve.mechanisms.gates.compiled import move_cases as gate_cases
    board = load_board(ROOT / "boards" / "classic" / "behind-the-gate.yaml")
    layout, mover = layout_for(board), "explorer"
    v = gamerules.Vars(layout)
    i = v.index[mover]

    def mud_cases(board, layout, movers, v):
        on_mud = gamerules.MARK.atom("mud", f"AX{i}", f"AY{i}")
        return [([on_mud], {mover: v.cell(mover)}, {mover: "0"}),
                ([f"not {on_mud}"], {mover: f"(PX{i},PY{i})"}, {})]
    monkeypatch.setattr(gamerules, "parts", lambda hook: [gate_cases, mud_cases] if hook == "move_cases" else [])
    gates = gate_cases(board, layout, [mover], v)
    combined = gamerules._move_cases(board, layout, [mover], v)
    assert len(combined) == len(gates) * 2
    for (gate_body, gate_cells, gate_lost), (mud_body, mud_cells, mud_lost) in \
            zip([g for g in gates for _ in range(2)], mud_cases(board, layout, [mover], v) * len(gates)):
        extra, cells, lost = combined.pop(0)
        assert extra == gate_body + mud_body
        stopped = v.cell(mover) in (gate_cells[mover], mud_cells[mover])
        assert cells == {mover: v.cell(mover) if stopped else f"(PX{i},PY{i})"}
        assert lost == {**gate_lost, **mud_lost}
