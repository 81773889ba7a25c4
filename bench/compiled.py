"""Plain clingo on ``gridsolve compile``'s program (issue 47 item 3), into bench/RESULTS-compiled.md.

For every shipped board (``boards/**/*.yaml``) and the three cases of the issue
(``bench/boards/compiled-*.yaml``): ``gridsolve compile BOARD [--query ...]`` into a temporary file
(its seconds and size), then ``python -m clingo FILE --stats --time-limit 60`` in its own process
with its address space capped at 4 GB (``RLIMIT_AS``; killed 30 s past the time limit where the
grounding, which ``--time-limit`` does not interrupt, has not returned): ground atoms and rules
(clingo's ``--stats``), seconds, peak resident memory (``ru_maxrss`` of that child), answered or
not; and beside it compile's own size estimate (``gridsolve.solve.common.plainsize``) and
whether ``compile`` warns.

    python -m bench compiled                       # every board -> bench/RESULTS-compiled.md
    python -m bench compiled --only pacman         # the boards whose path holds "pacman"
    python -m bench compiled --json runs.json      # also keep the raw rows
    python -m bench compiled --from runs.json      # the table again from kept rows (estimates recomputed)
"""
from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from .cases import Case  # noqa: E402

CASE = Case("plain clingo on compile's program, every shipped board, beside compile's estimate",
            'bench/RESULTS-compiled.md', '--only mummymaze2p-2007 --out /tmp/compiled.md')

ROOT = Path(__file__).resolve().parents[1]
SECONDS = 60
MEMORY = 4 * 1000 ** 3
GRACE = 30
COMPILE_SECONDS = 600
# the query of a board where it is not its default one (the issue's Pac-Man case; a secret board)
QUERIES = {"bench/boards/compiled-pacman-6x5.yaml": ("--query", "win"),
           "boards/maze-runner-duel-secret.yaml": ("--hidden",)}
# the calibration of the estimate: one level with smaller horizons (the program's levels grow with them)
CALIBRATION = ([("boards/classic/red-ten.yaml", ("--horizon", str(h))) for h in (200, 300, 450, 650, 1000)]
               + [("boards/combined/treasure.yaml", ("--horizon", str(h))) for h in (8, 12, 16)]
               + [("boards/maze-runner-duel.yaml", ("--horizon", str(h))) for h in (8, 12, 16)])


def cases() -> list[tuple[str, tuple[str, ...]]]:
    """(board, compile's options): every shipped board, the issue's cases, the calibration."""
    shipped = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "boards").rglob("*.yaml"))
    issue = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "bench" / "boards").glob("compiled-*.yaml"))
    return [(board, QUERIES.get(board, ())) for board in shipped + issue] + CALIBRATION


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def _stat(text: str, name: str) -> int | None:
    found = re.search(rf"^{name}\s*:\s*(\d+)", text, re.M)
    return int(found.group(1)) if found else None


class _Child(subprocess.Popen):
    """A Popen that reaps its child with ``os.wait4`` and keeps that child's peak RSS and CPU."""

    rss, cpu = 0, 0.0

    def _try_wait(self, wait_flags):
        pid, status, usage = os.wait4(self.pid, wait_flags)
        if pid:
            self.rss, self.cpu = usage.ru_maxrss * 1024, usage.ru_utime + usage.ru_stime
        return pid, status


def run_child(command: list[str], timeout: float, limited: bool, stdout) -> tuple[int | None, float, int, float, str]:
    """Run ``command``: its exit code (None: killed at ``timeout``), wall seconds, peak RSS
    (bytes), CPU seconds and standard error (and standard output where ``stdout`` is PIPE)."""
    started = time.perf_counter()
    child = _Child(command, stdout=stdout, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                   preexec_fn=_limited if limited else None)
    try:
        out, err = child.communicate(timeout=timeout)
        code = child.returncode
    except subprocess.TimeoutExpired:
        child.kill()
        out, err = child.communicate()
        code = None
    return code, time.perf_counter() - started, child.rss, child.cpu, (out or "") + (err or "")


def measure(board: str, options: tuple[str, ...]) -> dict:
    row: dict = {"board": board, "options": list(options)}
    with tempfile.NamedTemporaryFile(suffix=".lp", delete=False) as handle:
        path = handle.name
    try:
        with open(path, "w") as out:
            code, seconds, rss, _, err = run_child([sys.executable, "-m", "gridsolve", "compile", board, *options],
                                                COMPILE_SECONDS, False, out)
        row.update(compile_seconds=seconds, compile_rss=rss, bytes=os.path.getsize(path),
                   warning=next((line for line in err.splitlines() if line.startswith("warning:")), ""))
        if code != 0:
            row.update(outcome=f"compile failed ({'killed' if code is None else f'exit {code}'})")
            return row
        code, seconds, rss, cpu, out = run_child([sys.executable, "-m", "clingo", path, "--stats", "-q",
                                             f"--time-limit={SECONDS}"], SECONDS + GRACE, True, subprocess.PIPE)
        row.update(clingo_seconds=seconds, clingo_cpu=cpu, clingo_rss=rss, atoms=_stat(out, "Atoms"), rules=_stat(out, "Rules"))
        if code is None:
            row["outcome"] = f"killed at {SECONDS + GRACE} s"
        elif "SATISFIABLE" in out and "UNKNOWN" not in out and "INTERRUPTED" not in out and "TIME LIMIT" not in out:
            row["outcome"] = "answered"
        elif "std::bad_alloc" in out or "MemoryError" in out or "bad_alloc" in out:
            row["outcome"] = "out of memory (4 GB)"
        elif "INTERRUPTED" in out or "TIME LIMIT" in out or "UNKNOWN" in out:
            row["outcome"] = f"time limit ({SECONDS} s)"
        else:
            row["outcome"] = f"exit {code}: " + (out.strip().splitlines() or [""])[-1][:80]
        return row
    finally:
        os.unlink(path)


def estimate(board: str, options: list[str]) -> dict:
    """compile's size estimate of ``board``'s program for ``options`` (the CLI's query options)."""
    sys.path.insert(0, str(ROOT))
    from gridsolve.language.loader import load_board
    from gridsolve.language.position import make_query
    from gridsolve.solve.common.plainsize import plain_size
    loaded = load_board(board)
    kind = options[options.index("--query") + 1] if "--query" in options else "value"
    horizon = int(options[options.index("--horizon") + 1]) if "--horizon" in options else None
    query = make_query(loaded, None, kind, horizon=horizon, hidden="--hidden" in options)
    size = plain_size(loaded, query)
    return {"positions": size.positions, "plies": size.plies, "ground": size.ground, "too_big": size.too_big}


def _mb(amount) -> str:
    return "-" if not amount else f"{amount / 1e6:,.0f} MB" if amount >= 1e6 else f"{amount / 1e3:,.0f} kB"


NOTES = """What the rows show (the estimate's limits are fitted to them: `TEXT_LIMIT`, `GROUND_LIMIT`,
`LAYERED_GROWTH`, `LAYERED_SHARE` in `gridsolve/solve/common/plainsize.py`):

- **Race programs fail by their text.** `encodings/solve.lp`'s level `d` is unrolled with its range
  conditions spelled out (`not won_in(K,S,0), ..., not won_in(K,S,d-1)`), so `L` levels are about
  `43 * L**2 / 2` bytes, and a game without a step limit takes its reachable count as `L`: Red ten's
  4,305 positions are 425 MB, Ten by ten's 6,537 are 974 MB, the order Scorpion nest's 8,569 are
  1.7 GB (its compile alone took 9 minutes). Their ground atoms are few (Red ten at `--horizon 300`:
  369,109). Up to 3 MB answered (Red ten at 300 levels, 49 s wall, 8 s CPU), 6 MB and more did not;
  the 4 GB cap is met at about 40 MB (25 MB held 2.5 GB when stopped).
- **Layered programs fail by their plies.** `encodings/layered.lp` in one call is not evaluated by
  gringo (the solver is left tens of thousands of variables; Choices stay 0), and its ground rules
  grow 3 to 7 times every 4 plies whatever the positions: the treasure room (29 positions) has
  41,415 rules at 8 plies, 293,578 at 12, 783,346 at 16, and does not finish its 29; Maze Runner
  Duel answers 12 plies and not 16; Wallmaze (29), Pacman (99), Pac-Man chased (24) and the 6x5
  case do not answer.
- **Wall against CPU.** The machine's load (11 to 14 on 2 cores for most rows) gave clingo a fifth
  to a sixth of a core: Red ten at 450 levels had used 10.6 s of CPU at the 60 s wall. On a quiet
  machine somewhat larger programs answer; the limits follow these rows.
- `boards/gdl/tictactoe.yaml` is a GDL game: `compile` does not take it (exit 2, "unknown key 'game'")."""


def _g(amount) -> str:
    return "-" if amount is None else f"{amount:,}" if amount < 10 ** 9 else f"{amount:.1e}"


def _n(amount) -> str:
    return "-" if amount is None else f"{amount:,}"


def write(rows: list[dict], out: Path, load: str) -> None:
    lines = ["# Plain clingo on `gridsolve compile`'s program (issue 47 item 3)", "",
             f"`python -m bench compiled`: every shipped board's default query (the Pac-Man case: `--query win`), "
             f"`gridsolve compile BOARD` into a file, then `python -m clingo FILE --stats -q --time-limit={SECONDS}` "
             f"in its own process, address space capped at {MEMORY // 1000 ** 3} GB. One run each; {load}. "
             "Atoms and rules: clingo's `--stats` (`-` where clingo stopped before printing them); "
             "RSS: the child's peak. Estimate: `gridsolve/solve/common/plainsize.py` "
             "(positions x plies, and its ground-atom estimate); *warns*: compile prints its one-line warning.", "",
             "| board | program | compile | clingo | clingo CPU | atoms | rules | peak RSS | outcome | est. positions | plies | est. ground | warns |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---|"]
    for row in rows:
        est = row.get("estimate", {})
        lines.append("| " + " | ".join([
            f"`{row['board']}`" + (f" `{' '.join(row['options'])}`" if row["options"] else ""),
            _mb(row.get("bytes")), f"{row['compile_seconds']:.1f} s",
            f"{row['clingo_seconds']:.1f} s" if "clingo_seconds" in row else "-",
            f"{row['clingo_cpu']:.1f} s" if "clingo_cpu" in row else "-",
            _n(row.get("atoms")), _n(row.get("rules")), _mb(row.get("clingo_rss")), row["outcome"],
            _n(est.get("positions")), _n(est.get("plies")), _g(est.get("ground")),
            ("yes" if est.get("too_big") else "no") if est else "-"]) + " |")
    answered = sum(row["outcome"] == "answered" for row in rows)
    estimated = [row for row in rows if row.get("estimate")]
    agree = sum(row["estimate"]["too_big"] != (row["outcome"] == "answered") for row in estimated)
    lines += ["", f"{answered} of {len(rows)} answered within the limits; the estimate's verdict (warns = does not "
              f"answer) agrees with the outcome on {agree} of the {len(estimated)} rows compile writes a program for."]
    lines += ["", NOTES]
    out.write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="only the boards whose path holds this text")
    parser.add_argument("--json", type=Path, help="also write the raw rows here")
    parser.add_argument("--from", dest="source", type=Path, nargs="+", help="the rows of earlier --json runs")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "RESULTS-compiled.md")
    parser.add_argument("--load", default="", help="the load to state in the table (default: read now)")
    args = parser.parse_args()
    if args.source:
        rows = [row for source in args.source for row in json.loads(source.read_text())]
    else:
        rows = []
        for board, options in cases():
            if args.only and args.only not in " ".join((board, *options)):
                continue
            rows.append(measure(board, options))
            print(json.dumps(rows[-1]), flush=True)
            if args.json:
                args.json.write_text(json.dumps(rows, indent=1))
    for row in rows:
        if not row["outcome"].startswith("compile failed"):
            row["estimate"] = estimate(row["board"], row["options"])
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    load = args.load or "load average %.1f / %.1f / %.1f at the end (2 cores)" % os.getloadavg()
    write(rows, args.out, load)
    return 0


if __name__ == "__main__":
    sys.exit(main())
