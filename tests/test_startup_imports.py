"""What a command imports before it answers (issue 45: a classic level at the speed of a glance):
the command line's entry imports no command's module, ``--help`` lists every command from the
table alone, reading a board needs neither clingo nor numpy nor the compiler, and a classic
``solve`` imports none of the other commands' stages.  Each check runs a fresh interpreter and reads
its ``sys.modules``: it fails when someone adds a top-level import back.  No timing here (bench/)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import click
from click.testing import CliRunner

from gridsolve.cli import COMMANDS, main

ROOT = Path(__file__).resolve().parent.parent
CLASSIC = ROOT / "boards" / "classic" / "ten-by-ten.yaml"      # 10x10, two mummies, a scorpion, a gate


def modules_after(code: str) -> tuple[set[str], str]:
    """The modules a fresh interpreter holds after running ``code``, and what ``code`` printed."""
    script = f"{code}\nimport sys, json\nprint('\\n' + json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, check=True)
    printed, _, last = done.stdout.rstrip("\n").rpartition("\n")
    return set(json.loads(last)), printed.removesuffix("\n")


def under(modules: set[str], *packages: str) -> set[str]:
    """The modules of ``modules`` that are one of ``packages`` or inside one."""
    return {m for m in modules if any(m == p or m.startswith(p + ".") for p in packages)}


def test_the_reader_of_modules_sees_an_import():
    modules, printed = modules_after("import json; print('x')")
    assert "json" in modules and "clingo" not in modules
    assert printed == "x"
    assert under({"a", "a.b", "ab", "c"}, "a") == {"a", "a.b"}


def test_the_entry_imports_no_command_and_no_library_of_one():
    modules, _ = modules_after("import gridsolve.cli")
    assert under(modules, "gridsolve") == {"gridsolve", "gridsolve.cli"}
    assert not under(modules, "clingo", "numpy", "yaml")


def test_help_lists_every_command_without_importing_it():
    modules, printed = modules_after("from gridsolve.cli import main\n"
                                     "try:\n    main(['--help'], prog_name='gridsolve')\nexcept SystemExit:\n    pass")
    assert not under(modules, "gridsolve.commands", "gridsolve.language", "clingo", "numpy")
    listed = printed.split("Commands:\n", 1)[1].splitlines()
    assert [line.split()[0] for line in listed] == sorted(COMMANDS)


def test_the_listed_line_is_the_line_of_each_command_loaded():
    listed = CliRunner().invoke(main, ["--help"]).output.split("Commands:\n", 1)[1]
    context = main.make_context("gridsolve", ["--help"], resilient_parsing=True)
    width = 80 - 6 - max(len(name) for name in COMMANDS)
    loaded = [f"  {name:<{max(map(len, COMMANDS))}}  {main.get_command(context, name).get_short_help_str(width)}"
              for name in sorted(COMMANDS)]
    assert listed.splitlines() == loaded
    for name, line in COMMANDS.items():
        assert main.get_command(context, name).help.split("\n\n")[0] == line


def test_reading_a_board_needs_neither_clingo_nor_numpy_nor_the_compiler():
    modules, printed = modules_after("from gridsolve.commands import options\n"
                                     "from gridsolve.language.loader import load_board\n"
                                     f"print(load_board({str(CLASSIC)!r}).name)")
    assert printed == "Ten by ten"
    assert not under(modules, "clingo", "numpy", "gridsolve.compile", "gridsolve.solve.graph", "gridsolve.ground")


def test_a_classic_solve_imports_none_of_the_other_commands_stages():
    modules, printed = modules_after("from gridsolve.cli import main\n"
                                     f"try:\n    main(['solve', {str(CLASSIC)!r}, '--json'])\n"
                                     "except SystemExit as exc:\n    assert not exc.code, exc.code")
    answer = json.loads(printed)
    assert (answer["stats"]["solver"], answer["win"], answer["win_moves"]) == ("race", True, 35)
    assert under(modules, "gridsolve.commands") == {"gridsolve.commands", "gridsolve.commands.options",
                                                     "gridsolve.commands.solve"}
    assert not under(modules, "gridsolve.generate", "gridsolve.verify", "gridsolve.explain", "gridsolve.play",
                     "gridsolve.studio", "gridsolve.ask", "gridsolve.crosscheck", "gridsolve.gdl",
                     "gridsolve.render", "gridsolve.svg", "gridsolve.analysis",
                     "gridsolve.solve.program.compiledsolver", "gridsolve.solve.hidden", "gridsolve.solve.bounded",
                     "gridsolve.solve.layered", "gridsolve.compile.compiler", "gridsolve.ground")


def test_a_mistyped_command_is_answered_as_by_a_group_holding_every_command():
    eager = click.Group("gridsolve", commands=[click.Command(name, help=line) for name, line in COMMANDS.items()])
    for typed in ("solv", "generat", "nothing-like-it"):
        lazy_said, eager_said = (CliRunner().invoke(group, [typed]) for group in (main, eager))
        assert lazy_said.exit_code == eager_said.exit_code == 2
        assert lazy_said.output.splitlines()[-1] == eager_said.output.splitlines()[-1]
        assert lazy_said.output.splitlines()[-1].startswith(f"Error: No such command '{typed}'.")


def test_a_board_is_drawn_without_the_solvers():
    modules, printed = modules_after("from gridsolve.cli import main\n"
                                     f"try:\n    main(['show', {str(CLASSIC)!r}])\n"
                                     "except SystemExit as exc:\n    assert not exc.code, exc.code")
    assert "Ten by ten" in printed
    assert not under(modules, "clingo", "numpy", "gridsolve.compile", "gridsolve.solve.graph",
                     "gridsolve.solve.common.answer", "gridsolve.svg")


def test_the_command_line_freezes_the_collector_at_the_process_end_not_before():
    script = ("import atexit, gc\n"
              "atexit.register(lambda: print('at exit:', gc.get_freeze_count() > 0))\n"
              "from gridsolve.cli import main\n"
              "for _ in range(2):\n"
              "    try:\n        main(['--version'])\n    except SystemExit:\n        pass\n"
              "print('before exit:', gc.get_freeze_count() > 0)")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, check=True)
    assert done.stdout.splitlines()[-2:] == ["before exit: False", "at exit: True"]
    plain = subprocess.run([sys.executable, "-c", script.replace("main(['--version'])", "pass")],
                           capture_output=True, text=True, cwd=ROOT, check=True)
    assert plain.stdout.splitlines()[-2:] == ["before exit: False", "at exit: False"]
