"""Every stage of a GDL game stops at its limits (gridsolve/gdl/engine.py, gridsolve/ground/circuit.py):
clingo's grounding, which Python cannot interrupt, is watched through the rules it emits (a watch's
check that raises aborts it; the domains' grounding, where a time limit is set, runs in a forked child
killed at the limit), the Python stages between are checked in chunks, the exploration in C after every
batch of joint moves; each stops with exit code 3 and what stage it was in, 0 or more
states reached.  The games are written here: a move domain too large to ground in a small limit."""
from __future__ import annotations

import os
import re
import time
from pathlib import Path

import clingo
import numpy as np
import pytest
from click.testing import CliRunner

from gridsolve.cli import main
from gridsolve.errors import BoardError, LimitError, MemoryLimitError
from gridsolve.gdl.demand import DemandPlan
from gridsolve.gdl.description import read_description
from gridsolve.gdl.engine import explore, ground_game
from gridsolve.gdl.forked import run_forked
from gridsolve.gdl import solving
from gridsolve.gdl.solving import GdlSession
from gridsolve.ground.circuit import CHECK_RULES, Stopped, Watch, ground_circuit, watched_ground
from gridsolve.solve.common.limits import LimitGuard, Limits

GAMES = Path(__file__).parent / "gdl" / "games"


def wide_game(numbers: int) -> str:
    """A one-role game whose move domain is ``numbers`` cubed: ``(m ?a ?b ?c)`` over ``(n 0)``.. facts."""
    return ("(role p)\n" + "".join(f"(n {i})\n" for i in range(numbers)) + "(init (at 0))\n"
            "(<= (legal p (m ?a ?b ?c)) (n ?a) (n ?b) (n ?c))\n"
            "(<= (next (at ?a)) (does p (m ?a ?b ?c)))\n"
            "(<= terminal (true (at 5)))\n(goal p 100)\n")


def branching_game(moves: int) -> str:
    """Three roles moving at once, ``moves`` moves each, a counter to 9 (each state ``moves`` cubed joint moves)."""
    numbers = "".join(f"(n {i})\n" for i in range(moves))
    return ("(role a)\n(role b)\n(role c)\n" + numbers + "(init (t 0))\n"
            + "".join(f"(succ {i} {i + 1})\n" for i in range(9)) +
            "(<= (legal ?r (m ?x)) (role ?r) (n ?x))\n"
            "(<= (next (t ?y)) (true (t ?x)) (succ ?x ?y))\n"
            "(<= (next (s ?x)) (does a (m ?x)))\n"
            "(<= terminal (true (t 9)))\n(<= (goal ?r 100) (role ?r))\n")


def run(path, *options):
    return CliRunner().invoke(main, ["solve", str(path), *options])


def assert_out_of_time(result, stage: str) -> None:
    """``result`` (wide.kif's, at a 1 s limit) stopped with exit code 3 in ``stage`` (a pattern), no traceback."""
    assert result.exit_code == 3, result.output
    message = result.output.strip()
    assert re.fullmatch(
        r"Error: the reachable states of wide\.kif do not fit: [0-9.]+ s \(limit 1 s\) " + stage + r", 0 states "
        r"reached\. Allow more time with --timeout \(now 1 s\), or look fewer steps ahead \(--horizon\), or ask "
        r"from a later state \(--at\)\.", message), message
    assert "Traceback" not in result.output

# - The watch of clingo's grounding ---

def test_a_watch_s_check_that_raises_aborts_clingo_s_grounding_with_its_own_error():
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], "n(1..100). p(X,Y,Z) :- n(X), n(Y), n(Z).")      # (a million rules unless stopped)

    def check(rules):
        if rules >= 3 * CHECK_RULES:
            raise LimitError(f"stopped after {rules:,} rules")
    watch = Watch(check)
    ctl.register_observer(watch)
    with pytest.raises(LimitError) as caught:
        watched_ground(ctl, watch, lambda c, parts: c.ground(parts), [("base", [])])
    assert str(caught.value) == f"stopped after {3 * CHECK_RULES:,} rules"
    assert watch.count == 3 * CHECK_RULES        # (no rule emitted after the check raised)


def test_a_watch_that_never_raises_lets_the_grounding_finish():
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], "n(1..20). p(X,Y) :- n(X), n(Y).")
    seen = []
    watch = Watch(seen.append)
    ctl.register_observer(watch)
    watched_ground(ctl, watch, lambda c, parts: c.ground(parts), [("base", [])])
    assert watch.count == 420 and seen == []       # (20 + 400 facts: fewer than a check's rules)
    assert len(list(ctl.symbolic_atoms.by_signature("p", 2))) == 400


def test_the_circuit_s_rule_budget_stops_the_grounding_at_the_budget():
    with pytest.raises(MemoryError, match="more than 10,000 ground rules"):
        ground_circuit("n(1..100). {a(X)} :- n(X). p(X,Y,Z) :- n(X), n(Y), n(Z), a(X).", budget=10_000)


def test_the_circuit_s_check_stops_the_grounding_with_its_error():
    calls = []

    def check(rules):
        calls.append(rules)
        raise LimitError("out of time")
    with pytest.raises(LimitError, match="out of time"):
        ground_circuit("n(1..100). {a(X)} :- n(X). p(X,Y,Z) :- n(X), n(Y), n(Z), a(X).", check=check)
    assert calls == [CHECK_RULES]


# - Every stage of a game, from the command line ---

def test_a_game_whose_domains_do_not_ground_in_time_stops_with_exit_3_and_the_stage(tmp_path):
    game = tmp_path / "wide.kif"
    game.write_text(wide_game(200))         # (8 million moves: minutes to ground, stopped at its limit)
    assert_out_of_time(run(game, "--timeout", "1"),
                       r"grounding the fluents' and moves' domains \([0-9,]+ ground rules so far\)")


SILENT_JOIN = "zz_never :- zz_n(A), zz_n(B), zz_n(C), zz_n(D), zz_n(E), A+B+C+D+E < 0.\nzz_n(1..100).\n"


def test_a_one_ply_join_that_emits_nothing_is_killed_past_the_time_limit(tmp_path, monkeypatch):
    game = tmp_path / "wide.kif"
    game.write_text(wide_game(3))       # (its domains ground at once)
    ply_text = DemandPlan.ply_text      # (a join of 10^10 bindings that derives nothing: no rule for the watch)
    monkeypatch.setattr(DemandPlan, "ply_text", lambda plan: ply_text(plan) + SILENT_JOIN)
    assert_out_of_time(run(game, "--timeout", "1"), r"grounding the one-ply rules \(stopped within clingo's grounding\)")


@pytest.mark.parametrize("name", ["tictactoe.kif", "blockade.kif", "hanoi.kif"])
def test_the_one_ply_circuit_ground_in_a_forked_child_is_the_one_ground_here(name):
    path = GAMES / name
    here = ground_game(read_description(path), LimitGuard(Limits(), "the states", lambda needed: ""))
    forked = ground_game(read_description(path), LimitGuard(Limits(seconds=600), "the states", lambda needed: ""))
    assert forked.circuit.rows == here.circuit.rows and forked.circuit.atom_rows == here.circuit.atom_rows
    assert forked.circuit.kernel is here.circuit.kernel
    for a, b in zip(forked.circuit.flat(), here.circuit.flat(), strict=True):
        assert np.array_equal(a, b)
    assert np.array_equal(forked.circuit.fact_rows, here.circuit.fact_rows)
    assert forked.goals == here.goals and np.array_equal(forked.init, here.init)
    a, b = (explore(game, game.init, LimitGuard(Limits(), "the states", str)) for game in (forked, here))
    for field in ("states", "terminal", "goal", "src", "dst", "joint"):
        assert np.array_equal(getattr(a, field), getattr(b, field)), field


def test_a_game_whose_domains_do_not_fit_in_memory_stops_with_exit_3(tmp_path):
    game = tmp_path / "wide.kif"
    game.write_text(wide_game(70))          # (343,000 moves: more than 100 MB of ground rules)
    result = run(game, "--max-memory", "100MB")
    assert result.exit_code == 3, result.output
    message = result.output.strip()
    assert message.startswith("Error: the reachable states of wide.kif do not fit: "), message
    assert "100 MB" in message and "0 states reached. Allow more memory with --max-memory" in message
    assert "Traceback" not in result.output


def test_the_estimate_before_the_one_ply_grounding_refuses_a_move_domain_too_large(tmp_path, monkeypatch):
    game = tmp_path / "wide.kif"
    game.write_text(wide_game(20))          # (8,000 moves and 20 fluents, a ground rule each: about 4.8 MB)

    class Small(LimitGuard):        # (a 4 MB limit, checked by the estimate alone: the domains ground freely)
        def after(self, where, growth=0, held=0):
            pass

        def ground(self, ctl, parts, where):
            ctl.ground(parts)
    monkeypatch.setattr(solving, "limits_guard", lambda path, limits: Small(
        Limits(memory=4 * 10 ** 6), f"the reachable states of {path.name}", lambda needed: "allow more memory"))
    with pytest.raises(LimitError) as caught:
        GdlSession(game)
    assert str(caught.value) == ("the reachable states of wide.kif do not fit: 20 fluents and 8,000 moves need about "
                                 "5 MB for their ground rules alone (limit 4 MB) by an estimate before grounding "
                                 "the one-ply rules, 0 states reached. Allow more memory.")


def test_the_exploration_in_c_is_checked_after_each_batch_of_joint_moves(tmp_path):
    game = tmp_path / "branching.kif"
    game.write_text(branching_game(40))     # (64,000 joint moves a state)
    session = GdlSession(game)
    checked = []

    class Counting(LimitGuard):
        def after(self, where, growth=0, held=0):
            checked.append(where)
            if len(checked) == 3:
                raise LimitError(f"stopped {where}")
    guard = Counting(Limits(), "the states", lambda needed: "")
    with pytest.raises(LimitError, match=r"^stopped after [0-9,]+ states reached$"):
        explore(session.game, session.game.init, guard)
    assert len(checked) == 3        # (within the first state's joint moves: before 20,000 states were found)


# - A step in a forked child, killed at its deadline ---

def test_a_forked_step_gives_its_result_and_its_errors_as_raised():
    assert run_forked(lambda: ["(cell 1 1 x)", ("p", "(mark 1 1)")], time.perf_counter() + 60, None) == [
        "(cell 1 1 x)", ("p", "(mark 1 1)")]

    def limited():
        raise MemoryLimitError("the states do not fit", "allow more memory")
    with pytest.raises(MemoryLimitError) as caught:
        run_forked(limited, time.perf_counter() + 60, None)
    assert (str(caught.value), caught.value.hint) == ("the states do not fit. Allow more memory.", "allow more memory")

    def wrong():
        raise BoardError("game.kif", 3, "an unsafe rule", "bind ?x")
    with pytest.raises(BoardError, match=r"^game\.kif:3: an unsafe rule\. Bind \?x\.$"):
        run_forked(wrong, time.perf_counter() + 60, None)


def test_a_forked_step_past_its_deadline_is_killed_and_the_late_error_raised():
    with pytest.raises(LimitError, match="^out of time$"):
        run_forked(lambda: time.sleep(600), time.perf_counter() + 0.2, lambda: LimitError("out of time"))


def test_without_a_deadline_the_step_runs_in_this_process():
    here = os.getpid()
    assert run_forked(os.getpid, None, None) == here
    assert run_forked(os.getpid, time.perf_counter() + 60, None) != here
