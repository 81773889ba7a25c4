"""Seeded text mutations of the shipped boards (and their rule sets), for the fuzz tests.

``mutants(count, seed)`` yields :class:`Mutant` s: a shipped board file with one to three
mutations of the kinds a hand-edited or damaged file has (deleted, duplicated and swapped
lines, truncation, numbers replaced by 0/-1/99/1000000/2.5/x, tabs, removed colons, odd map
characters, YAML anchors, aliases and tags, NUL/BOM/``---``/``...`` at the start, bytes that
are not UTF-8).  One mutant in eight damages the named rule set instead, written to a
``rules/`` folder beside the board.  ``probe(mutant, folder)`` runs what a user would
(``gridsolve show``, then reading the expect block and compiling the default query) and
returns the traceback if anything but a gridsolve error escaped, else None.

``python tests/mutants.py [COUNT] [SEED]`` prints the figure: mutants, clean errors (exit 2),
valid boards, tracebacks.
"""
from __future__ import annotations

import random
import re
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BOARDS = sorted(p for p in (ROOT / "boards").rglob("*.yaml") if p.parent.name != "gdl")    # (boards/gdl: GDL games)
NUMBERS = ("0", "-1", "99", "1000000", "2.5", "x")
MAP_CHARACTERS = ("#", "?", "@", "|", "+", "-", "Z", "é", "★", "\t", "  ", "")
PREFIXES = ("\0", "\ufeff", "---\n", "...\n", "\x01", "%YAML 1.1\n---\n", "--- !!map\n", "\x7f")
TAGS = ("&a ", "*a ", "!!str ", "!!int ", "!!binary ", "!!python/object:os.system ", "!custom ",
        "!!set ", "!!omap ", "<<: *a\n", "? ", "- ")


@dataclass
class Mutant:
    name: str                     # what was done, e.g. "mummymaze2p.yaml: swap lines 3, 9"
    board: bytes                  # the board file
    rules_name: str | None = None  # a mutated rule set beside it, under this name
    rules: bytes | None = None


# - The mutations: each takes the text and the random generator, returns (text, what) ---

def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True) or [""]


def delete_line(text, rng):
    lines = _lines(text)
    i = rng.randrange(len(lines))
    return "".join(lines[:i] + lines[i + 1:]), f"delete line {i + 1}"


def duplicate_line(text, rng):
    lines = _lines(text)
    i = rng.randrange(len(lines))
    return "".join(lines[:i + 1] + lines[i:]), f"duplicate line {i + 1}"


def swap_lines(text, rng):
    lines = _lines(text)
    i = rng.randrange(len(lines))
    j = min(len(lines) - 1, i + 1) if rng.random() < 0.5 else rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return "".join(lines), f"swap lines {i + 1}, {j + 1}"


def truncate(text, rng):
    at = rng.randrange(len(text) + 1)
    return text[:at], f"truncate at {at}"


def replace_number(text, rng):
    found = list(re.finditer(r"-?\d+", text))
    if not found:
        return text, "no number"
    match, new = rng.choice(found), rng.choice(NUMBERS)
    return text[:match.start()] + new + text[match.end():], f"number {match.group()} -> {new} at {match.start()}"


def insert_tab(text, rng):
    lines = _lines(text)
    i = rng.randrange(len(lines))
    line = lines[i]
    if line.startswith(" ") and rng.random() < 0.6:
        lines[i] = "\t" + line.lstrip(" ")
    else:
        at = rng.randrange(len(line) + 1)
        lines[i] = line[:at] + "\t" + line[at:]
    return "".join(lines), f"tab in line {i + 1}"


def remove_colon(text, rng):
    colons = [m.start() for m in re.finditer(":", text)]
    if not colons:
        return text, "no colon"
    at = rng.choice(colons)
    return text[:at] + text[at + 1:], f"remove colon at {at}"


def odd_map_character(text, rng):
    lines = _lines(text)
    drawn = [i for i, line in enumerate(lines) if re.match(r"\s*(\d+\s*)?[|+]", line)]
    i = rng.choice(drawn) if drawn else rng.randrange(len(lines))
    line = lines[i].rstrip("\n")
    at = rng.randrange(len(line) + 1)
    new = rng.choice(MAP_CHARACTERS)
    lines[i] = line[:at] + new + line[at + 1:] + ("\n" if lines[i].endswith("\n") else "")
    return "".join(lines), f"map character {new!r} in line {i + 1}"


def yaml_node_property(text, rng):
    values = [m.end() for m in re.finditer(r": |^\s*- ", text, re.MULTILINE)]
    if not values:
        return text, "no value"
    at, tag = rng.choice(values), rng.choice(TAGS)
    return text[:at] + tag + text[at:], f"{tag.strip()!r} at {at}"


def prefix(text, rng):
    start = rng.choice(PREFIXES)
    return start + text, f"start with {start!r}"


def control_character(text, rng):
    at = rng.randrange(len(text) + 1)
    char = chr(rng.choice([0, 1, 8, 0x0b, 0x0c, 0x1b, 0x7f, 0x85, 0xfffe]))
    return text[:at] + char + text[at:], f"character {char!r} at {at}"


MUTATIONS = (delete_line, duplicate_line, swap_lines, truncate, replace_number, replace_number, insert_tab,
             remove_colon, odd_map_character, odd_map_character, yaml_node_property, prefix, control_character)


def _mutate(text: str, rng: random.Random) -> tuple[bytes, list[str]]:
    done = []
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        text, what = rng.choice(MUTATIONS)(text, rng)
        done.append(what)
    data = text.encode("utf-8", "surrogatepass")
    if rng.random() < 0.03:                      # bytes that are not UTF-8
        at = rng.randrange(len(data) + 1)
        data = data[:at] + bytes([rng.choice([0xff, 0xc3, 0x80, 0xfe])]) + data[at:]
        done.append(f"byte not UTF-8 at {at}")
    return data, done


def mutants(count: int, seed: int = 0):
    """``count`` mutants of the shipped boards; the same seed gives the same mutants."""
    rng = random.Random(seed)
    for _ in range(count):
        source = rng.choice(BOARDS)
        text = source.read_text(encoding="utf-8")
        named = re.search(r"^rules: ([\w-]+)\s*$", text, re.MULTILINE)
        if named and rng.random() < 1 / 8:
            rules_text = (ROOT / "rules" / f"{named.group(1)}.yaml").read_text(encoding="utf-8")
            data, done = _mutate(rules_text, rng)
            yield Mutant(f"{named.group(1)}.yaml: {'; '.join(done)}", text.encode(), named.group(1), data)
        else:
            data, done = _mutate(text, rng)
            yield Mutant(f"{source.name}: {'; '.join(done)}", data)


# - Probing a mutant as a user would ---

def probe(mutant: Mutant, folder: Path) -> tuple[int, str | None]:
    """Write the mutant to ``folder`` and run ``gridsolve show`` on it, then read its expect
    block and compile its default query: (exit code of show, traceback or None)."""
    from click.testing import CliRunner

    from gridsolve.cli import main
    from gridsolve.compile.compiler import compile_program
    from gridsolve.errors import GridsolveError
    from gridsolve.language.loader import load_board
    from gridsolve.language.position import make_query
    from gridsolve.verify.expect import load_expectations

    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "board.yaml"
    path.write_bytes(mutant.board)
    if mutant.rules is not None:
        (folder / "rules").mkdir(exist_ok=True)
        (folder / "rules" / f"{mutant.rules_name}.yaml").write_bytes(mutant.rules)
    result = CliRunner().invoke(main, ["show", str(path)])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        return 1, "".join(traceback.format_exception(result.exception))
    if result.exit_code not in (0, 2):
        return result.exit_code, f"exit code {result.exit_code}:\n{result.output}"
    if result.exit_code == 2:
        if not result.output.startswith("Error: ") or "Traceback" in result.output:
            return 2, f"not one error line:\n{result.output}"
        return 2, None
    try:
        board = load_board(path)
        load_expectations(board)
        compile_program(board, make_query(board))
    except GridsolveError:
        return 2, None
    except Exception:                            # noqa: BLE001  (what the fuzz test looks for)
        return 1, traceback.format_exc()
    return 0, None


def main(count: int = 1000, seed: int = 0) -> int:
    import tempfile
    outcomes = {0: 0, 2: 0}
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        for index, mutant in enumerate(mutants(count, seed)):
            code, problem = probe(mutant, Path(tmp) / str(index))
            if problem is not None:
                failures.append((mutant.name, problem))
            else:
                outcomes[code] += 1
    print(f"{count} mutants (seed {seed}): {outcomes[2]} clean errors (exit 2), {outcomes[0]} valid boards, "
          f"{len(failures)} tracebacks or other exits")
    for name, problem in failures[:10]:
        print(f"--- {name}\n{problem}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main(*map(int, sys.argv[1:3])))
