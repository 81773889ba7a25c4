"""bench/oldnew.py and bench/house.py: they import, their arguments parse, oldnew's cases and answer
comparison are what its table claims, and house's counts on a small tree are right (no timing)."""
from __future__ import annotations


import pytest

from conftest import ROOT

from bench import house, oldnew  # noqa: E402  (bench/house.py, bench/oldnew.py)


def fake_checkout(folder):
    (folder / "gridsolve").mkdir(parents=True)
    (folder / "gridsolve" / "cli.py").write_text("")
    return folder


def test_oldnew_parses_its_arguments_and_refuses_a_folder_without_gridsolve(tmp_path, capsys):
    with pytest.raises(SystemExit) as stopped:
        oldnew.parse(["--before", str(tmp_path)])
    assert stopped.value.code == 2 and "not a checkout of gridsolve" in capsys.readouterr().err
    before = fake_checkout(tmp_path / "old")
    assert oldnew.parse(["--before", str(before)]).repeat == 5
    quick = oldnew.parse(["--before", str(before), "--quick", "--out", str(tmp_path / "r.md")])
    assert (quick.repeat, quick.quick, quick.out) == (3, True, tmp_path / "r.md")
    assert oldnew.parse(["--before", str(before), "--quick", "--repeat", "2"]).repeat == 2
    with pytest.raises(SystemExit):
        oldnew.parse(["--before", str(before), "--repeat", "0"])


def test_oldnew_runs_every_group_from_the_checkout_it_measures(tmp_path):
    quick = oldnew.cases(True, tmp_path / "levels", tmp_path / "q.jsonl")
    full = oldnew.cases(False, tmp_path / "levels", tmp_path / "q.jsonl")
    assert {c.group for c in quick} == {"engine", "classic", "hidden", "generation"}
    assert len(full) > len(quick)
    generate = next(c for c in quick if c.group == "generation")
    command = generate.command(tmp_path / "old", tmp_path / "run")
    assert str(tmp_path / "old") in command and str(tmp_path / "run" / "out") in command and oldnew.OUT not in command
    script = next(c for c in quick if c.script)
    assert script.command(tmp_path / "old", tmp_path)[1] == str(tmp_path / "old" / "bench" / "hidden.py")
    (tmp_path / "new" / "bench").mkdir(parents=True)
    (tmp_path / "new" / "bench" / "__init__.py").write_text("")          # a checkout whose bench/ is a package
    assert script.command(tmp_path / "new", tmp_path)[1:3] == ["-m", "bench.hidden"]


def test_oldnew_compares_answers_and_names_the_fields_only_new_gives():
    old = {"value": 1, "levels": [{"expect": [{"win": True}]}]}
    assert oldnew.compare(old, {"value": 1, "levels": [{"expect": [{"win": True, "hints": 0}]}]}) == \
        ([], {"levels.expect.hints"})
    diffs, _ = oldnew.compare(old, {"value": 2, "levels": [{"expect": [{"win": True}]}]})
    assert diffs == ["value: 1 -> 2"]
    assert oldnew.compare(old, {"levels": old["levels"]})[0] == ["value: missing"]
    cell, equal = oldnew.answers_cell({"old": [old, old], "new": [old, {**old, "value": 3}]})
    assert not equal and cell.startswith("**differ** (1;")
    assert oldnew.verify_answer({"stdout": "3 checks on 1 boards: 3 passed (0.4 s, 2 jobs)\n"}, None) == \
        "3 checks on 1 boards: 3 passed"


SOURCE = '''"""A module."""
# rules.collect root_term( "#show" in a comment counts nowhere
from x import Rules


class Rules:
    name: str
    collect: tuple = ()


def f(state, board, rules, x):
    state.root_term(1, board)
    root_term(2)
    Rules("a", "b", "c", collect=())
    if rules.collect and board.rules.timeout_when and board.rules.collect and not state.collect:
        return f"#show {x}/1." + "#show a/2." + f"{x}"
    return "rules.collect"
'''


def test_house_counts_a_small_tree(tmp_path):
    checkout = fake_checkout(tmp_path / "c")
    (checkout / "gridsolve" / "__init__.py").write_text('"""Top.\n\nMay import: ``gridsolve.solve`` only.\n"""\n')
    (checkout / "gridsolve" / "solve").mkdir()
    (checkout / "gridsolve" / "solve" / "a.py").write_text(SOURCE)
    (checkout / "gridsolve" / "solve" / "k.c").write_text("int x;\n\nint y;\n")
    (checkout / "encodings").mkdir()
    (checkout / "encodings" / "a.lp").write_text("a.\nb.\n")
    assert house.packages(checkout) == {"gridsolve": {"modules": 2, "lines": 4, "C files": 0, "C lines": 0},
                                        "gridsolve.solve": {"modules": 1, "lines": 17, "C files": 1, "C lines": 3}}
    assert house.encodings(checkout) == {"files": 1, "lines": 2}
    assert house.counts(checkout) == {
        "root_term( call sites": 2, "Rules( call sites": 1, "Rules( positional arguments (most at one site)": 3,
        "Rules class fields": 2,
        "rules.collect reads: modules": 1, "rules.collect reads: sites": 2,
        "rules.timeout_when reads: modules": 1, "rules.timeout_when reads: sites": 1,
        "f-strings with #show: modules": 1, "f-strings with #show: sites": 1,
        "plain strings with #show: modules": 1, "plain strings with #show: sites": 1}
    assert house.may_import(checkout) == {"gridsolve": "``gridsolve.solve`` only."}
    before = fake_checkout(tmp_path / "b")
    (before / "gridsolve" / "cli.py").write_text("a\nb\n")
    text = "\n".join(house.report(checkout, before))
    assert "| `gridsolve.solve` | – → 1 | – → 17 | – → 1 | – → 3 |" in text
    assert "| `gridsolve` | 1 → 2 (+1) | 2 → 4 (+2) |  |  |" in text
    assert "| `gridsolve` | – | ``gridsolve.solve`` only. |" in text


def test_house_parses_its_arguments(tmp_path, capsys):
    assert house.parse([]).checkout == ROOT and house.parse([]).before is None
    assert house.parse(["--before", str(ROOT), str(ROOT)]).before == ROOT
    with pytest.raises(SystemExit) as stopped:
        house.parse(["--before", str(tmp_path)])
    assert stopped.value.code == 2 and "not a checkout of gridsolve" in capsys.readouterr().err


CONTRACT = {
    "gridsolve/__init__.py": "",
    "gridsolve/solve/__init__.py": "",
    "gridsolve/solve/race/__init__.py": "",
    "gridsolve/solve/race/reader.py": (
        "from ..common.capabilities import choose\n"
        "from ...mechanisms.registry import ALL\n"
        "def principal_line(view):\n    '''The principal line, by the one rule.'''\n    return [view]\n"
        "def line(view):\n    '''The principal line, its own walk.'''\n    return sorted(view)\n"
        "def shown(model):\n    '''The principal line a model shows.'''\n    return model.line_moves()\n"
        "def delegates(view):\n    '''The principal line from the root.'''\n    return principal_line(view)\n"
        "def answer():\n    return Answer(1), Answer(2), GdlAnswer(3), choose(4)\n"),
    "gridsolve/language/__init__.py": "",
    "gridsolve/language/model.py": "from ..mechanisms.items.language import Collect\nfrom ..solve import reader\n",
    "gridsolve/mechanisms/__init__.py": "",
    "gridsolve/mechanisms/registry.py": "from . import items\n",
    "gridsolve/mechanisms/items/__init__.py": "from ...language.model import Board\n",
    "gridsolve/mechanisms/items/language.py": "",
    "gridsolve/verify/__init__.py": "",
    "gridsolve/verify/page.py": "def stepper():\n    '''The principal line stepped through.'''\n    choose(1)\n",
}


def test_house_counts_the_cores_contract_on_a_small_tree(tmp_path):
    checkout = fake_checkout(tmp_path / "c")
    for name, text in CONTRACT.items():
        (checkout / name).parent.mkdir(parents=True, exist_ok=True)
        (checkout / name).write_text(text)
    # reader's four line functions: two walk by a rule of their own (the one rule itself, and line); the
    # model's line and the delegate do not; page.py is not under solve/ and its choose( is not the chooser's (not imported)
    assert house.contract(checkout) == {
        "Answer( call sites": 2, "GdlAnswer( call sites": 1, "principal-line functions": 4,
        "principal-line functions with a rule of their own": 2, "chooser call sites": 1,
        "modules outside mechanisms/ importing a mechanism's folder": 1,     # model.py (reader: the registry only)
        "pairs of folders importing each other": 1}                          # language <-> mechanisms.items
