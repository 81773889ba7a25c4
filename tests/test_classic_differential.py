"""gridsolve against the independent classic Mummy Maze reference (reference/classic.py).

Random classic boards (tests/classic_boards.py: white and red rules, 0-2 mummies, a scorpion,
traps, a gate and its key, sizes 4 to 8, and up to 10 in the slow tier; and boards that start
with the explorer on the exit, where the start is not judged) are written to a file
and solved as a user would, ``gridsolve solve BOARD --json`` (in process, through the command
line's own code).  Compared with the reference (docs/classic-mummy-maze.md says what the fields
mean for this game):

* ``win`` and ``win_moves``: whether a win is reachable, and the fewest explorer moves to one;
* ``value`` (100 a win, 50 the explorer can only wait forever, 0 every line dies) and ``plies``
  (one ply is one explorer move: to the fastest win, or the most he can hold out);
* the same for each first move (``moves``: its value, win, and plies after it);
* the principal line, replayed by the reference: it wins in exactly ``win_moves`` moves (or dies
  in exactly ``plies``, or never ends).  The lines themselves are not compared: either may be
  one of several shortest.

The answers from the start rarely depend on the rarer quirks (a mummy on a scorpion killed
earlier in the turn, mummy 2's key flip...), so the turns are compared one by one too: the
reference's turn against the compiled rules' (``gridsolve.solve.program.explore.examine``, one
position's moves and where they lead), on turns chosen for the rule that acts in them (the
reference's log, ``classic_reference.EVENTS``): for each rule, the first turn of the random
boards in which it acts; in the slow tier, the first turn that tells each distinct story (the
rules that act in it, in order: about 150 on 1,000 boards, among them the quirks' interplay),
and every reachable turn of a few whole boards.

A failure names the seed and prints the board and both answers; ``python tests/classic_boards.py
SEED`` prints the board again (``SEED big`` for the slow tier's big ones) and ``python
reference/classic.py BOARD`` solves it.
"""
from __future__ import annotations

import functools
import json

import pytest
from click.testing import CliRunner

from gridsolve.cli import main
from gridsolve.language.loader import load_board
from gridsolve.language.model import OFF_BOARD
from gridsolve.language.position import Position
from gridsolve.solve.program.explore import examine, move_parts

from classic_boards import random_classic_board
from reference.classic import DEAD, EVENTS, ON, ORDER, WON, parse_board, play, solve, turn

QUICK = 12          # boards in the quick tier; the slow tier has 200 more of sizes 4..8 and 100 of 4..10
# boards with the explorer on the exit (the start not judged) in the quick tier, chosen for each outcome:
# waiting wins in 1; every line dies; he can only wait forever; he wins by leaving and coming back,
# in 2 and in 10 moves.  The slow tier has 100 more.
ON_EXIT = (0, 10, 11, 64, 68)
CASES = ([pytest.param(seed, False, None, id=f"classic-{seed}") for seed in range(QUICK)]
         + [pytest.param(seed, False, True, id=f"classic-on-exit-{seed}") for seed in ON_EXIT]
         + [pytest.param(seed, False, None, id=f"classic-{seed}", marks=pytest.mark.slow)
            for seed in range(QUICK, QUICK + 200)]
         + [pytest.param(seed, False, True, id=f"classic-on-exit-{seed}", marks=pytest.mark.slow)
            for seed in range(max(ON_EXIT) + 1, max(ON_EXIT) + 101)]
         + [pytest.param(seed, True, None, id=f"classic-big-{seed}", marks=pytest.mark.slow) for seed in range(100)])


def gridsolve_answer(path) -> dict:
    result = CliRunner().invoke(main, ["solve", str(path), "--json"])
    assert result.exit_code == 0, f"gridsolve solve {path} --json: exit {result.exit_code}\n{result.output}"
    return json.loads(result.stdout)


def _value(outlook) -> int:
    return 100 if outlook.win else 50 if outlook.why == "waits" else 0


def _plies(outlook, made: int) -> int | None:
    """Plies still to play after ``made`` explorer moves: to the fastest win, or the longest
    hold-out; None when he can wait forever."""
    total = outlook.moves if outlook.win else outlook.holds_out
    return None if total is None else total - made


def expected_fields(answer) -> dict:
    """gridsolve's answer as the reference predicts it."""
    return {"win": answer.win, "win_moves": answer.moves, "value": _value(answer), "plies": _plies(answer, 0),
            "moves": {move: {"value": _value(o), "win": o.win, "plies": _plies(o, 1)}
                      for move, o in sorted(answer.by_move.items())}}


def reported_fields(answer: dict) -> dict:
    return {"win": answer["win"], "win_moves": answer["win_moves"], "value": answer["value"], "plies": answer["plies"],
            "moves": {m["move"]: {"value": m["value"], "win": m["win"], "plies": m["plies"]}
                      for m in sorted(answer["moves"], key=lambda m: m["move"])}}


@pytest.mark.parametrize("seed,big,on_exit", CASES)
def test_gridsolve_agrees_with_the_classic_reference(tmp_path, seed, big, on_exit):
    text = random_classic_board(seed, big, on_exit)
    path = tmp_path / "board.yaml"
    path.write_text(text, encoding="utf-8")
    level = parse_board(text)
    expected = solve(level)
    answer = gridsolve_answer(path)
    where = (f"seed {seed}{' big' if big else ''}{' on-exit' if on_exit else ''}\n{text}"
             f"reference: {expected.why or ' '.join(expected.line)}")
    assert reported_fields(answer) == expected_fields(expected), where

    line = [step["move"] for step in answer["line"]]
    outcomes = [outcome for _move, _state, outcome in play(level, line)]
    if expected.win:
        assert outcomes == [ON] * (expected.moves - 1) + [WON], f"{where}\ngridsolve's line: {line}"
    elif expected.why == "dies":
        assert outcomes == [ON] * (expected.holds_out - 1) + [DEAD], f"{where}\ngridsolve's line: {line}"
    else:
        assert set(outcomes) <= {ON}, f"{where}\ngridsolve's line: {line}"


# --- turn by turn -------------------------------------------------------------------------------

SEARCHED = 3000     # random boards searched (at the most) for a turn in which each rule acts
STORIES = 1000      # random boards searched for every distinct story of a turn (slow tier)
WHOLE = 4           # boards checked on every reachable turn (slow tier)


def reachable_turns(level):
    """Every turn the explorer can reach from the start: (state, move, log) in search order."""
    seen, todo = {level.start}, [level.start]
    while todo:
        state = todo.pop(0)
        for move in ORDER:
            log = []
            after, outcome = turn(level, state, move, log)
            yield state, move, log
            if outcome == ON and after not in seen:
                seen.add(after)
                todo.append(after)


@functools.cache
def first_turn_by_rule() -> dict[str, tuple[int, object, str]]:
    """Per rule, the first turn (seed, state, move) of the random boards in which it acts."""
    found = {}
    for seed in range(SEARCHED):
        if len(found) == len(EVENTS):
            break
        for state, move, log in reachable_turns(parse_board(random_classic_board(seed))):
            for event in log:
                found.setdefault(event, (seed, state, move))
    return found


def first_turn_by_story() -> dict[tuple, tuple[int, object, str]]:
    """Per story of a turn (the rules that act in it, in order; a bump left out), the first turn
    of the random boards that tells it."""
    found = {}
    for seed in range(STORIES):
        for state, move, log in reachable_turns(parse_board(random_classic_board(seed))):
            found.setdefault(tuple(e for e in log if e != "1 a wall or the border stops him"), (seed, state, move))
    return found


def _position(board, state) -> Position:
    cells = {"explorer": state.explorer, "mummy": state.mummy, "mummy2": state.mummy2, "scorpion": state.scorpion}
    return Position(tuple((piece, cells.get(piece) or OFF_BOARD) for piece in board.rules.pieces), 0,
                    board.rules.first_step, gates_open=state.gate_open)


def _layout(position: Position) -> tuple:
    return tuple(sorted(position.pieces)), position.gates_open


def _examined(position: Position) -> tuple:
    """What examine's answer depends on: the layout, and whether it is the start (not judged)."""
    return _layout(position), position.step


class CompiledTurns:
    """The compiled rules' turns on one random board (positions examined once)."""

    def __init__(self, tmp_path, seed: int):
        self.text = random_classic_board(seed)
        self.seed = seed
        self.level = parse_board(self.text)
        path = tmp_path / f"board-{seed}.yaml"
        path.write_text(self.text, encoding="utf-8")
        self.board = load_board(path)
        self.examined: dict = {}

    def examine(self, position: Position):
        key = _examined(position)
        if key not in self.examined:
            self.examined[key] = examine(self.board, position)
        return self.examined[key]

    def problem(self, state, move) -> str | None:
        """How the compiled rules' turn differs from the reference's (None: it does not).  A
        turn that kills the explorer is compared by its end only (where the pieces stand then
        is a matter of presentation)."""
        end, steps = self.examine(_position(self.board, state))
        where = f"seed {self.seed}, {state}, {move}:\n{self.text}"
        if end is not None:
            return f"{where}gridsolve ends the game ({end}) before the turn"
        after = {move_parts(step.move, self.board.rules.roles)[self.board.rules.roles[0]]: step.position
                 for step in steps}
        if sorted(after) != sorted(ORDER):
            return f"{where}gridsolve's moves {sorted(after)}"
        expected, outcome = turn(self.level, state, move)
        got_end = self.examine(after[move])[0]
        if outcome == DEAD:
            if got_end is None or got_end == "escaped":
                return f"{where}the reference: he dies; gridsolve: {got_end or 'the game goes on'} at {after[move]}"
            return None
        if (got_end == "escaped") != (outcome == WON) or (outcome == ON and got_end is not None):
            return f"{where}the reference: {outcome} at {expected}; gridsolve: {got_end} at {after[move]}"
        if _layout(after[move]) != _layout(_position(self.board, expected)):
            return f"{where}the reference: {expected}; gridsolve: {_layout(after[move])}"
        return None


def _problems(tmp_path, turns) -> list[str]:
    boards: dict[int, CompiledTurns] = {}
    problems = []
    for seed, state, move in turns:
        compiled = boards.setdefault(seed, CompiledTurns(tmp_path, seed))
        problems += [p for p in [compiled.problem(state, move)] if p]
    return problems


@pytest.mark.slow
def test_every_rule_acts_in_the_turns_searched():
    """The search finds a turn for every rule (else the turn-by-turn checks lose their teeth)."""
    assert sorted(first_turn_by_rule()) == sorted(EVENTS)


@pytest.mark.parametrize("event", EVENTS)
def test_the_compiled_turn_is_the_reference_turn(tmp_path, event):
    assert _problems(tmp_path, [first_turn_by_rule()[event]]) == []


@pytest.mark.slow
def test_the_compiled_turns_tell_every_story_of_the_reference(tmp_path):
    stories = first_turn_by_story()
    assert len(stories) > len(EVENTS)
    problems = _problems(tmp_path, stories.values())
    assert not problems, f"{len(problems)} of {len(stories)} turns differ; the first: {problems[0]}"


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(WHOLE))
def test_every_reachable_turn_of_a_board(tmp_path, seed):
    compiled = CompiledTurns(tmp_path, seed)
    problems = [p for state, move, _log in reachable_turns(compiled.level) if (p := compiled.problem(state, move))]
    assert not problems, f"{len(problems)} turns differ; the first: {problems[0]}"
