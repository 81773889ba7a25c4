"""Rule sets of the other Mummy Maze game of issue 39 (enemies that move their whole turn one after
another, in the order the level lists them) and random boards for them, as YAML text, for the
differential of tests/test_scripted.py (gridsolve's answers against plain clingo on the program
``gridsolve compile`` writes).

``enemy_rules(kinds)`` writes the rule set for one list of enemies (``mw`` white mummy: two steps,
horizontal first; ``mr`` red mummy: two steps, vertical first; ``sw``/``sr`` the scorpions: one
step); ``enemy_rules(["mw", "mr", "sr", "sw"])`` is, action for action, the rule set quoted at the
end of issue 39 (tests/data/rules/other-game-mw-mr-sr-sw.yaml).  The variants: ``stops_first``
(the explorer's ends stop the ply before any enemy moves, as in that game; False: only the
enemies' own stops), ``optional`` (the enemies may be left out of a board; else every enemy is
on it, yet ``remove`` takes them off) and ``slots`` (the issue's one rule set for every list:
each of ``slots`` places any of the four kinds, every one optional: 4 x ``slots`` chasers).

``random_board(seed, rules_name, enemies)`` is a random board of 2 to 5 cells a side (square or
not), walls, an exit on the border, up to two traps (enemies may start on them; the explorer now
and then), and now and then a gate and its key.
``python tests/scripted_boards.py SEED`` prints one board and its rule set.
"""
from __future__ import annotations

import random
import sys

from classic_boards import board_text, random_layout

KINDS = {"mw": ("horizontal", 2), "mr": ("vertical", 2), "sw": ("horizontal", 1), "sr": ("vertical", 1)}


def enemy_names(kinds: list[str]) -> list[str]:
    return [f"{kind}{i}" for i, kind in enumerate(kinds, start=1)]


def _removes(name: str, kind: str, others: list[tuple[str, str]]) -> list[str]:
    """What follows an enemy's step: it takes off the enemies it lands on, but a scorpion that
    lands on a mummy is taken off itself (the order of the quoted rule set)."""
    out = []
    if kind.startswith("s"):
        mummies = [n for n, k in others if k.startswith("m")]
        if mummies:
            out.append(f"remove: {{piece: {name}, by: [{', '.join(mummies)}]}}")
        out += [f"remove: {{piece: {n}, by: [{name}]}}" for n, k in others if k.startswith("s")]
    else:
        out += [f"remove: {{piece: {n}, by: [{name}]}}" for n, _ in others]
    return out


def enemy_rules(kinds: list[str], stops_first: bool = True, optional: bool = False) -> str:
    """The rule set of one list of enemies (module docstring)."""
    names = enemy_names(kinds)
    lines = [f"name: other-game-{'-'.join(kinds)}", "roles: [explorer]", "turns: [[explorer]]",
             "moves:", "  explorer: {steps: 1, idle: true, blocked: stay}", "chasers:"]
    lines += [f"  {n}: {{target: explorer, first: {KINDS[k][0]}}}" for n, k in zip(names, kinds)]
    lines += [f"optional: [trap, key{''.join(', ' + n for n in names) if optional else ''}]",
              "gate: {key: key}", "after_ply:"]
    if stops_first:
        lines += ["  - stop: {reaches: {explorer: exit}}", "  - key: [explorer]",
                  "  - stop: {reaches: {explorer: trap}}"]
        lines += [f"  - stop: {{same_cell: [explorer, {n}]}}" for n in names]
    else:
        lines += ["  - key: [explorer]"]
    for name, kind in zip(names, kinds):
        others = [(n, k) for n, k in zip(names, kinds) if n != name]
        turn = [f"step: [{name}]", f"key: [{name}]", *_removes(name, kind, others),
                f"stop: {{same_cell: [explorer, {name}]}}"]
        if KINDS[kind][1] == 1:
            lines += [f"  - {action}" for action in turn]
        else:
            lines += ["  - repeat: 2", "    do:", *[f"      - {action}" for action in turn]]
    lines += ["ends:", "  - {name: trapped, when: {reaches: {explorer: trap}}, scores: {explorer: 0}}"]
    lines += [f"  - {{name: caught_by_{n}, when: {{same_cell: [explorer, {n}]}}, scores: {{explorer: 0}}}}"
              for n in names]
    lines += ["  - {name: escaped, when: {reaches: {explorer: exit}}, scores: {explorer: 100}}",
              "steps: {first: 1}", "timeout: {explorer: 50}"]
    return "\n".join(lines) + "\n"


def slot_kinds(slots: int) -> list[str]:
    """The chasers of the one rule set for every list of ``slots`` enemies: each kind per slot."""
    return [kind for _ in range(slots) for kind in KINDS]


def random_board(seed: int, rules_name: str, enemies: list[str], sides: tuple[int, int] = (2, 5)) -> str:
    """A random board for the rule set ``rules_name`` with the enemies named ``enemies`` on it,
    each side from ``sides`` (the least and the most)."""
    rng = random.Random(seed * 6007 + 11)
    width, height = rng.randint(*sides), rng.randint(*sides)
    while width * height < len(enemies) + 2:
        width, height = width + 1, height + 1
    cells, walls, gate, exit_cell, key, free = random_layout(rng, width, height, (0.0, 0.3), 0.3)
    traps = [free.pop() for _ in range(min(len(free) - 1, rng.choice((0, 1, 1, 2))))]
    # the explorer: on no mark, but on a trap (dead at once) one time in twenty
    explorer = traps[0] if traps and rng.random() < 0.05 else free.pop()
    spots = [c for c in cells if c != explorer]
    rng.shuffle(spots)
    # the enemies like to start on the traps and the key (the quirks of the rules are there)
    spots.sort(key=lambda c: 0 if (c in traps or c == key) and rng.random() < 0.5 else 1)
    pieces = {"explorer": explorer, **{name: spots.pop(0) for name in enemies}}
    return board_text(f"random scripted board {seed}", rules_name, (width, height), walls, pieces,
                      {"exit": [exit_cell], "trap": traps, "key": [key] if key else []}, gate)


if __name__ == "__main__":   # python tests/scripted_boards.py SEED: a board and its rule set
    kinds = ["mw", "mr", "sr", "sw"]
    print(enemy_rules(kinds), end="---\n")
    print(random_board(int(sys.argv[1]) if len(sys.argv) > 1 else 0, f"other-game-{'-'.join(kinds)}",
                       enemy_names(kinds)), end="")
