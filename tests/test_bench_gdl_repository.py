"""bench/gdl_repository.py's --from RESULTS --stopped --most N: which games of a previous table it reruns."""
from __future__ import annotations

import argparse

from bench import gdl_repository  # (bench/gdl_repository.py)

TABLE = """# results

| game | outcome | reachable states | value per role (initial state) | seconds | CPU s | detail |
|---|---|---:|---|---:|---:|---|
| big | stopped |  |  | 9.8 | 2.2 | the reachable states of big.kif do not fit: 8 s (limit 8 s) after 670,835 states reached |
| twice | stopped |  |  | 9.6 | 2.3 | the reachable states of twice.kif do not fit: 8 s (limit 8 s) after 9,344 states reached |
| twice | stopped |  |  | 9.6 | 2.3 | the reachable states of twice.kif do not fit: 8 s (limit 8 s) after 12 states reached |
| deep | stopped |  |  | 9.6 | 2.3 | the reachable states of deep.kif do not fit: 8 s (limit 8 s) depth-first search: after 500 states searched |
| grounding | stopped |  |  | 12.4 | 1.4 | the reachable states of grounding.kif do not fit: 8 s (limit 8 s) grounding the one-ply rules (87,040 ground rules so far), 0 states reached |
| full | stopped |  |  | 51.4 | 26.8 | the reachable states of full.kif do not fit: 2.0 GB in use (limit 2.0 GB) while ranking, after 2,141 states reached |
| blocks | answered | 16 | robot 100 | 3.9 | 0.4 |  |

## 60 s: a later section

| game | outcome | reachable states | value per role (initial state) | seconds | CPU s | detail |
|---|---|---:|---|---:|---:|---|
| later | stopped |  |  | 61.5 | 19.6 | the reachable states of later.kif do not fit: 60 s (limit 60 s) after 5 states reached |
"""


def test_the_stopped_games_of_the_first_table_fewest_states_first(tmp_path):
    results = tmp_path / "RESULTS.md"
    results.write_text(TABLE, encoding="utf-8")
    assert gdl_repository.stopped_games(results) == ["twice", "deep", "full", "big"]
    assert gdl_repository.stopped_games(results, 2) == ["twice", "deep"]


def test_the_header_says_which_files_the_options_chose(tmp_path):
    """A rerun of a previous table's stopped games says so, with its options; a whole run says every file."""
    previous = tmp_path / "RESULTS.md"
    previous.write_text(TABLE, encoding="utf-8")
    args = argparse.Namespace(only=None, names=None, stopped=True, previous=previous, most=2)
    options, which = gdl_repository.choice(args)
    assert options == " --from RESULTS.md --stopped --most 2"
    assert which == ("every `.kif` file of a local checkout stopped by a limit in the first table of RESULTS.md, "
                     "fewest states reached first, at most 2 games")
    out = tmp_path / "out.md"
    row = {"outcome": "answered", "states": 9, "values": {"x": 100}, "seconds": 1.0, "cpu": 0.5}
    gdl_repository.write_results([("g", row)], out, 60, "2GB", tmp_path / "games", "1.0", 1, None, "",
                                 (options, which))
    text = out.read_text(encoding="utf-8")
    assert "--jobs 1 --from RESULTS.md --stopped --most 2` (bench/gdl_repository.py): every `.kif` file" in text
    assert "at most 2 games (1 files)" in text
    whole = gdl_repository.choice(argparse.Namespace(only=None, names=None, stopped=False, previous=None, most=None))
    assert whole == ("", "every `.kif` file of a local checkout")
