"""1,000 random questions on the layered seed games, before and after the layered tables
(issue 21, item 4), and Pacman's play figures.

For each board, the same random questions (``multishot.question_lines``: pieces on random
free cells, random side, role and kind, no principal line) are answered in a fresh process:

* *after*: as ``gridsolve ask`` answers them (``gridsolve.ask.questions.ask_many``: an
  Asker, one layered table per role, gridsolve/solve/layered/table.py);
* *before*: each question solved alone by ``gridsolve.solve.dispatch.dispatcher.solve`` (encodings/layered.lp,
  one grounding a question; on Pacman the bounded solver, with or without a table alike).

Each set stops after ``--cap`` seconds (default 60) and the rest is extrapolated from its pace;
the answers both computed must agree (every field and move).  Then Pacman's play set: the
value and first move at the whole step limit at 24 positions of a game (``multishot``'s play
set), through one Asker as ``play`` asks: the first answer, and the later ones; and a scripted
game of ``play`` (the computer plays pacman, the ghosts type random moves at once or after
1.5 s each, while the computer thinks ahead): the time of each of the computer's moves.

    python -m bench ask                  # -> printed, as the rows of bench/RESULTS.md
    python -m bench ask --cap 20 --boards boards/wallmaze.yaml --no-play
    python -m bench ask --no-ask         # Pacman's play figures only
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from .cases import Case  # noqa: E402

CASE = Case("1,000 random questions on the layered seed games, asked as `ask` does and solved alone; Pacman's play",
            None, '--boards boards/wallmaze.yaml --cap 5 --no-play')

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

BOARDS = ["boards/wallmaze.yaml", "boards/maze-runner-duel.yaml", "boards/pacman3p.yaml"]
QUESTIONS = 1000
TARGET_S = 60.0


def _one(board_path: str, mode: str, n: int, seed: int, cap: float) -> dict:
    """Answer the questions in this process: ``mode`` "after" (ask_many) or "before" (solve each)."""
    import hashlib
    from . import multishot
    from gridsolve.errors import GridsolveError
    from gridsolve.language.loader import load_board
    from gridsolve.ask.questions import ask_many, parse_question
    from gridsolve.solve.dispatch.dispatcher import solve
    started = time.perf_counter()
    board = load_board(board_path)
    lines = multishot.question_lines(board, n, seed, False)

    def before():
        for line in lines:
            question = parse_question(board, line)
            try:
                answer = solve(board, question.query).as_dict()
            except GridsolveError as exc:
                answer = {"error": str(exc)}
            yield answer
    replies = (reply.as_dict() for reply in ask_many(board, lines)) if mode == "after" else before()
    times, digests, errors, last = [], [], 0, time.perf_counter()
    for answer in replies:
        now = time.perf_counter()
        times.append(now - last)
        last = now
        errors += "error" in answer
        for key in ("stats", "line", "question", "exit_code"):
            answer.pop(key, None)
        if "error" in answer:
            answer = {"error": True}
        digests.append(hashlib.sha1(json.dumps(answer, sort_keys=True).encode()).hexdigest())
        if now - started > cap:
            break
    return {"total_s": time.perf_counter() - started, "times": times, "digests": digests, "errors": errors}


def _play() -> dict:
    """Pacman's play set through one Asker (as ``play``): the time of each answer, by role."""
    from . import multishot
    from gridsolve.language.loader import load_board
    from gridsolve.solve.dispatch.asker import Asker
    board = load_board("boards/pacman3p.yaml")
    asked = multishot.questions(board, "game")
    asker = Asker(board)
    out = []
    for query in asked:
        t = time.perf_counter()
        asker.ask(query, line_plies=1)
        out.append((query.role, time.perf_counter() - t))
    return {"times": out}


def _game(think_s: float, moves: int, seed: int, humans: str = "random") -> dict:
    """A game of ``play`` on Pacman: the computer plays pacman, scripted humans the ghosts, each
    taking ``think_s`` seconds a move: random legal moves, or (``humans`` "chase") the ghosts'
    joint move after which pacman is doomed soonest ("chase-unordered": the same, with the
    computer thinking ahead in the order of the moves); the time the computer takes for each of
    its moves (from the humans' last input to its move)."""
    import random
    from gridsolve.play import game as playing
    from gridsolve.language.loader import load_board
    from gridsolve.language.position import Query, initial_position
    from gridsolve.solve.dispatch.asker import Asker
    from gridsolve.solve.program.explore import move_parts
    board = load_board("boards/pacman3p.yaml")
    rng = random.Random(seed)
    state = {"last": time.perf_counter(), "asked": 0}
    times, plan = [], {}
    chooser = Asker(board) if humans != "random" else None
    read_move, think_ahead = playing.Game.read_move, playing.Thinker.think_ahead

    def reading(game, position, role, names):
        state.update(position=position, role=role, names=names)
        return read_move(game, position, role, names)
    playing.Game.read_move = reading
    if humans == "chase-unordered":
        playing.Thinker.think_ahead = lambda thinker, asked, order_by=None: think_ahead(thinker, asked, None)

    def say(text: str) -> None:
        if text.startswith("pacman plays:"):
            times.append(time.perf_counter() - state["last"])

    def lines():
        while state["asked"] < moves:
            if chooser is not None and not plan:
                answer = chooser.ask(Query("pacman", "survive", state["position"]), line_plies=1)
                best = min(answer.moves, key=lambda m: (m.doom_plies is None, m.doom_plies or 0, m.move))
                plan.update(move_parts(best.move, ["blinky", "inky"]))
            time.sleep(think_s)
            state["asked"] += 1
            choice = plan.pop(state["role"]) if chooser is not None else rng.choice(state["names"])
            state["last"] = time.perf_counter()
            yield choice
    try:
        playing.play(board, {"blinky", "inky"}, lines(), say, initial_position(board))
    finally:
        playing.Game.read_move, playing.Thinker.think_ahead = read_move, think_ahead
    return {"times": times}


def _child(args: list[str], timeout: float) -> dict:
    done = subprocess.run([sys.executable, "-m", "bench.ask", *args], capture_output=True, text=True, timeout=timeout,
                          cwd=ROOT, env={**__import__("os").environ, "PYTHONPATH": str(ROOT)})
    if done.returncode != 0:
        return {"error": done.stderr[-400:]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def rows(boards: list[str], seed: int, cap: float, log=print) -> list[str]:
    out = [f"| board | before: answered in {cap:.0f} s | before: {QUESTIONS:,} questions (s) | after: answered | "
           f"after: first reply (s) | after: median / max of the others (s) | after: {QUESTIONS:,} questions (s) | "
           f"after ÷ before | < {TARGET_S:.0f} s | check |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    for board in boards:
        res = {}
        for mode in ("before", "after"):
            log(f"  {board}: {mode} ...")
            res[mode] = _child(["--one", board, mode, str(seed), str(cap)], cap * 3 + 300)
        b, a = res["before"], res["after"]
        if "error" in b or "error" in a:
            out.append(f"| {board} | {(b.get('error') or a.get('error'))!r} |")
            continue

        def whole(r):
            n = len(r["times"])
            return r["total_s"] if n == QUESTIONS else r["total_s"] / n * QUESTIONS
        both = min(len(a["digests"]), len(b["digests"]))
        same = sum(x == y for x, y in zip(a["digests"], b["digests"]))
        later = a["times"][1:] or [0.0]
        wa, wb = whole(a), whole(b)
        ext = lambda r: "" if len(r["times"]) == QUESTIONS else " (extrapolated)"  # noqa: E731
        out.append(f"| {board} | {len(b['times'])} ({b['errors']} errors) | {wb:.0f}{ext(b)} | "
                   f"{len(a['times'])} ({a['errors']} errors) | {a['times'][0]:.2f} | "
                   f"{statistics.median(later):.4f} / {max(later):.2f} | {wa:.1f}{ext(a)} | {wa / wb:.4f}× | "
                   f"{'met' if wa < TARGET_S else f'**not met** ({wa / TARGET_S:.1f}×)'} | "
                   f"{same} of {both} equal{'' if same == both else ' **differ**'} |")
    return out


def play_rows(log=print) -> list[str]:
    log("  Pacman play set ...")
    r = _child(["--play"], 900)
    if "error" in r:
        return [f"Pacman play set: {r['error']!r}"]
    times = r["times"]
    pac = [t for role, t in times[1:] if role == "pacman"]
    ghosts = [t for role, t in times[1:] if role != "pacman"]
    return ["| answers | first (s) | later pacman moves: median / max (s) | later ghost moves: median / max (s) | all (s) |",
            "|---|---|---|---|---|",
            f"| {len(times)} | {times[0][1]:.2f} | {statistics.median(pac):.3f} / {max(pac):.2f} | "
            f"{statistics.median(ghosts):.3f} / {max(ghosts):.2f} | {sum(t for _, t in times):.1f} |"]


GAME_CASES = [(0.0, "random"), (1.5, "random"), (1.5, "chase-unordered"), (1.5, "chase")]   # (seconds each
# scripted human, a ghost, takes to type its move; how it plays)
GAME_INPUTS = 24              # ghost moves typed: 12 ghost plies, 13 pacman moves


def game_rows(seed: int, log=print) -> list[str]:
    """The computer's pacman moves in scripted games of ``play`` (GAME_CASES): the humans (the
    ghosts) type at once or after a while (the computer thinks ahead meanwhile), random moves
    or chasing pacman."""
    out = ["| humans' time a move (s) | humans play | pacman moves | first (s) | later: median / max (s) | "
           "later under 1 s |", "|---|---|---|---|---|---|"]
    for think, humans in GAME_CASES:
        log(f"  Pacman game, humans take {think} s a move, {humans} ...")
        r = _child(["--game", str(think), str(GAME_INPUTS), humans, "--seed", str(seed)], 1800)
        if "error" in r:
            out.append(f"| {think} | {humans} | {r['error']!r} |")
            continue
        times = r["times"]
        later = times[1:]
        out.append(f"| {think:.1f} | {humans} | {len(times)} | {times[0]:.2f} | {statistics.median(later):.3f} / "
                   f"{max(later):.2f} | {sum(t < 1 for t in later)} of {len(later)} |")
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--one", nargs=4, metavar=("BOARD", "MODE", "SEED", "CAP"), help=argparse.SUPPRESS)
    parser.add_argument("--play", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--game", nargs=3, metavar=("THINK_S", "MOVES", "HUMANS"), help=argparse.SUPPRESS)
    parser.add_argument("--boards", nargs="*", default=BOARDS)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cap", type=float, default=60.0)
    parser.add_argument("--no-play", action="store_true")
    parser.add_argument("--no-ask", action="store_true", help="only Pacman's play figures")
    args = parser.parse_args(argv)
    if args.one:
        board, mode, seed, cap = args.one
        print(json.dumps(_one(board, mode, QUESTIONS, int(seed), float(cap))))
        return 0
    if args.play:
        print(json.dumps(_play()))
        return 0
    if args.game:
        think, moves, humans = args.game
        print(json.dumps(_game(float(think), int(moves), args.seed, humans)))
        return 0
    log = lambda msg: print(msg, file=sys.stderr)  # noqa: E731
    lines = [] if args.no_ask else rows(args.boards, args.seed, args.cap, log)
    if not args.no_play:
        lines += [""] + play_rows(log) + [""] + game_rows(args.seed, log)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
