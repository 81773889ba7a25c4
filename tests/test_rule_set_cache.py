"""A named rule set is built once a process and used again while every file it was read from (the
rule set and the ones it ``use``s) holds the same bytes (gridsolve/language/loader.py): boards
of one rule set share its rules; an edit of either file, even one that keeps its size, is read."""
from __future__ import annotations

from conftest import ROOT

from gridsolve.language.loader import load_board

BOARD = ("rules: mine\nsize: [4, 4]\npieces: {explorer: [1, 1], mummy: [4, 4]}\n"
         "marks: {exit: [[1, 4]]}\n")


def _folder(tmp_path):
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "base.yaml").write_text((ROOT / "rules" / "mummy-maze-classic.yaml").read_text(encoding="utf-8")
                                     .replace("name: mummy-maze-classic", "name: base"), encoding="utf-8")
    (rules / "mine.yaml").write_text("name: mine\nuse: base\nchasers:\n" + "".join(
        f"  {name}: {{target: explorer, first: vertical}}\n" for name in ("mummy", "mummy2", "scorpion")),
        encoding="utf-8")
    for name in ("a", "b"):
        (tmp_path / f"{name}.yaml").write_text(BOARD, encoding="utf-8")
    return rules


def test_boards_of_one_rule_set_share_its_rules(tmp_path):
    _folder(tmp_path)
    first, second = load_board(tmp_path / "a.yaml"), load_board(tmp_path / "b.yaml")
    assert first.rules is second.rules
    assert first.rules.chasers["mummy"].first == "vertical" and first.rules.name == "mine"


def test_an_edit_of_the_rule_set_or_its_base_is_read(tmp_path):
    rules = _folder(tmp_path)
    before = load_board(tmp_path / "a.yaml").rules
    mine = rules / "mine.yaml"
    mine.write_text(mine.read_text(encoding="utf-8").replace("vertical", "horizontal"), encoding="utf-8")
    edited = load_board(tmp_path / "a.yaml").rules
    assert edited is not before and edited.chasers["mummy"].first == "horizontal"
    base = rules / "base.yaml"
    text = base.read_text(encoding="utf-8")
    assert text.count("scores: {explorer: 100}") == 1
    base.write_text(text.replace("scores: {explorer: 100}", "scores: {explorer: 900}"), encoding="utf-8")  # same size
    assert [e.scores["explorer"] for e in load_board(tmp_path / "b.yaml").rules.ends if e.name == "escaped"] == [900]
