"""The answers' output before and after a change (issue 44: GDL answers through the one reader):
``gridsolve solve --json`` and the text answer of GDL games and boards, recorded by one checkout
and compared with another's, field by field and in their order (the ``stats`` timing fields, ``*_s``, and the seconds a
text answer says aside).

    python -m bench answer_check record OUT.json [--ggp GAMES]     # the checkout's code on the path
    python -m bench answer_check compare BEFORE.json AFTER.json

The GDL questions: every game of tests/gdl/games and boards/gdl, and with ``--ggp`` (the games'
folder of a GGP repository checkout, read in place, never copied) a handful of small games; each
asked the value and the win for its first and last role, by the breadth-first ranking and by the
depth-first search, with and without a horizon.  The boards: a few shipped boards, the value, win
and survive questions.  Exit code 1 where an output differs."""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
from pathlib import Path

from .cases import Case

CASE = Case("answers' output before and after a change: every field of --json and the text, in order",
            None, "record /tmp/answers.json", "")

ROOT = Path(__file__).resolve().parent.parent
GGP = ("blocks", "buttons", "chomp", "circlesolitaire", "coins", "duplicateStateMedium", "eotcatcit",
       "gt_centipede", "gt_chicken", "gt_coordination")
BOARDS = ("boards/classic/first-steps.yaml", "boards/classic/red-pair.yaml", "boards/classic/behind-the-gate.yaml",
          "boards/combined/crate-chase.yaml", "boards/wallmaze.yaml")


def _games(ggp: Path | None) -> list[Path]:
    games = sorted((ROOT / "tests/gdl/games").glob("*.kif")) + sorted((ROOT / "boards/gdl").glob("*.kif"))
    if ggp is not None:
        games += [path for name in GGP for path in sorted(ggp.glob(f"{name}/*.kif"))[:1]]
    return games


def _roles(path: Path) -> list[str]:
    from gridsolve.gdl.solving import GdlSession
    roles = GdlSession(path).game.role_names
    return sorted({roles[0], roles[-1]}, key=roles.index)


def _untimed(out):
    """``out`` with the stats' timing fields (``*_s``) left out."""
    if isinstance(out, dict):
        return {k: _untimed(v) for k, v in out.items() if not (k.endswith("_s") and isinstance(v, (float, type(None))))}
    if isinstance(out, list):
        return [_untimed(v) for v in out]
    return out


def _run(args: list[str]) -> dict:
    from click.testing import CliRunner
    from gridsolve.cli import main
    runner = CliRunner()
    text = runner.invoke(main, args)
    shown = runner.invoke(main, [*args, "--json"])
    try:       # (the object written again in its own order: the order of its keys is compared too)
        as_json = json.dumps(_untimed(json.loads(shown.output)), indent=1)
    except ValueError:
        as_json = shown.output
    return {"exit": text.exit_code, "text": re.sub(r"\b\d+\.\d+ s\b", "N s", text.output), "json": as_json}


def record(out: Path, ggp: Path | None) -> None:
    os.chdir(ROOT)      # (the checkout's files named as the answers name them: relative)
    found = {}
    for game in _games(ggp):
        name = str(game.relative_to(ggp.parent) if ggp is not None and ggp in game.parents else game.relative_to(ROOT))
        game = game if ggp is not None and ggp in game.parents else game.relative_to(ROOT)
        try:
            roles = _roles(game)
        except Exception:      # (a game the reader refuses: its answer's error is recorded below)
            roles = [None]
        for role in roles:
            for args in (["--query", "value"], ["--query", "win"], ["--query", "win", "--horizon", "3"],
                         ["--query", "value", "--search", "depth", "--horizon", "4"],
                         ["--query", "win", "--search", "breadth", "--horizon", "4"]):
                question = [str(game), *(["--role", role] if role else []), *args, "--timeout", "20"]
                found[" ".join([name, *question[1:]])] = _run(["solve", *question])
                print(name, *question[1:], file=sys.stderr)
    for board in BOARDS:
        for kind in ("value", "win", "survive"):
            found[f"{board} --query {kind}"] = _run(["solve", board, "--query", kind])
    out.write_text(json.dumps(found, indent=1, sort_keys=True), encoding="utf-8")
    print(f"{len(found)} questions recorded in {out}")


def compare(before: Path, after: Path) -> int:
    old, new = (json.loads(p.read_text(encoding="utf-8")) for p in (before, after))
    differ = [key for key in sorted(old.keys() | new.keys()) if old.get(key) != new.get(key)]
    for key in differ:
        print(f"differs: {key}")
        for part in ("exit", "text", "json"):
            if (old.get(key) or {}).get(part) != (new.get(key) or {}).get(part):
                print(f"  {part}: {json.dumps((old.get(key) or {}).get(part))[:400]}\n  -> "
                      f"{json.dumps((new.get(key) or {}).get(part))[:400]}")
    print(f"{len(old)} questions before, {len(new)} after, {len(differ)} differ")
    return 1 if differ else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record")
    rec.add_argument("out", type=Path)
    rec.add_argument("--ggp", type=Path, help="the games' folder of a GGP repository checkout")
    cmp = sub.add_parser("compare")
    cmp.add_argument("before", type=Path)
    cmp.add_argument("after", type=Path)
    args = parser.parse_args()
    if args.command == "record":
        record(args.out, args.ggp)
        return 0
    return compare(args.before, args.after)


if __name__ == "__main__":
    sys.exit(main())
