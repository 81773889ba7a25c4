"""The house figures (issue 39, item 6): what can be counted mechanically in a checkout of gridsolve,
for one checkout or two side by side (``--before DIR``: an earlier checkout, e.g. main at 1639722).

    python -m bench house [CHECKOUT] [--before DIR] [--out FILE]

* modules and lines per package of ``gridsolve/`` (Python: ``.py`` files; C: ``.c`` files; lines are
  physical lines, blank lines, comments and docstrings included), and the files and lines of
  ``encodings/*.lp``;
* counts read from the Python syntax trees of ``gridsolve/`` (comments and docstrings never count):
  call sites of ``root_term(``; call sites of ``Rules(`` and the most positional arguments one
  passes; the fields of the ``Rules`` class; the modules and sites reading ``rules.collect`` and
  ``rules.timeout_when`` (an attribute ``collect`` / ``timeout_when`` of a name or attribute
  ``rules``); the modules and sites of f-strings and of plain string literals holding ``#show``;
* each package's ``May import:`` line (its ``__init__.py`` docstring), where the two checkouts differ;
* the core's contract (issue 44), read from the imports and syntax trees: call sites of ``Answer(``
  (every answer's class, a GDL game's too; the GDL answer's class of earlier checkouts,
  ``GdlAnswer(``, apart); functions of ``gridsolve/solve/`` and ``gridsolve/gdl/``
  whose docstring begins "The principal line", and of them those that walk the line by their own
  rule (they neither call the one ``principal_line(`` nor read the line a clingo model shows: at
  most the one itself); call sites of the
  chooser, ``choose(`` imported from ``capabilities``; modules outside ``gridsolve/mechanisms/``
  that import one mechanism's folder (not the registry nor the interface); and pairs of folders of
  ``gridsolve/`` that import each other (in either module's text, at the top or in a function).

What is not countable this way is left out rather than guessed: how many functions rank a game
graph retrogradely, read answers or decide applicability is a reading of the code, not a count.
"""
from __future__ import annotations

import argparse
import ast
import re
import sys
from pathlib import Path

from .launch import ROOT, git_rev
from .cases import Case  # noqa: E402

CASE = Case('the house figures: modules, lines and counts read from the syntax trees of a checkout',
            'bench/RESULTS-house.md', '')


def _lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def packages(checkout: Path) -> dict[str, dict[str, int]]:
    """{package (dotted): {"modules", "lines", "C files", "C lines"}}: each folder of gridsolve/ with
    a Python or C file, counted by itself (not with the folders below it)."""
    out: dict[str, dict[str, int]] = {}
    source = checkout / "gridsolve"
    for path in sorted([*source.rglob("*.py"), *source.rglob("*.c")]):
        name = ".".join(path.parent.relative_to(checkout).parts)
        figures = out.setdefault(name, {"modules": 0, "lines": 0, "C files": 0, "C lines": 0})
        python = path.suffix == ".py"
        figures["modules" if python else "C files"] += 1
        figures["lines" if python else "C lines"] += _lines(path)
    return out


def encodings(checkout: Path) -> dict[str, int]:
    files = sorted((checkout / "encodings").glob("*.lp"))
    return {"files": len(files), "lines": sum(_lines(f) for f in files)}


def _called(node: ast.AST, name: str) -> bool:
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    return (isinstance(func, ast.Name) and func.id == name) or (isinstance(func, ast.Attribute) and func.attr == name)


def _reads(node: ast.AST, field: str) -> bool:
    """``rules.FIELD`` or ``x.rules.FIELD``."""
    if not (isinstance(node, ast.Attribute) and node.attr == field):
        return False
    owner = node.value
    return (isinstance(owner, ast.Name) and owner.id == "rules") or \
        (isinstance(owner, ast.Attribute) and owner.attr == "rules")


def counts(checkout: Path) -> dict[str, int]:
    """The syntax-tree counts over gridsolve/ (see the module's docstring)."""
    found = {"root_term( call sites": 0, "Rules( call sites": 0, "Rules( positional arguments (most at one site)": 0,
             "Rules class fields": 0}
    modules: dict[str, set[str]] = {}
    sites: dict[str, int] = {}

    def seen(what: str, module: str) -> None:
        modules.setdefault(what, set()).add(module)
        sites[what] = sites.get(what, 0) + 1

    for path in sorted((checkout / "gridsolve").rglob("*.py")):
        module = str(path.relative_to(checkout))
        tree = ast.parse(path.read_text(encoding="utf-8"))
        inside_fstrings = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.JoinedStr):
                inside_fstrings |= {id(part) for part in ast.walk(node) if part is not node}
                if any(isinstance(p, ast.Constant) and "#show" in str(p.value) for p in ast.walk(node)):
                    seen("f-strings with #show", module)
        for node in ast.walk(tree):
            found["root_term( call sites"] += _called(node, "root_term")
            if _called(node, "Rules"):
                found["Rules( call sites"] += 1
                found["Rules( positional arguments (most at one site)"] = max(
                    found["Rules( positional arguments (most at one site)"], len(node.args))
            if isinstance(node, ast.ClassDef) and node.name == "Rules":
                found["Rules class fields"] += sum(isinstance(s, ast.AnnAssign) for s in node.body)
            for field in ("collect", "timeout_when"):
                if _reads(node, field):
                    seen(f"rules.{field} reads", module)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and "#show" in node.value \
                    and id(node) not in inside_fstrings:
                seen("plain strings with #show", module)
    for what in ("rules.collect reads", "rules.timeout_when reads", "f-strings with #show", "plain strings with #show"):
        found[f"{what}: modules"] = len(modules.get(what, ()))
        found[f"{what}: sites"] = sites.get(what, 0)
    return found


MECHANISM_CORE = {"base", "registry", "encodings"}     # gridsolve/mechanisms/'s own modules, not a mechanism


def _module_imports(checkout: Path) -> dict[str, set[str]]:
    """{dotted module: the dotted names it imports, anywhere in its text}, relative imports resolved."""
    out = {}
    for path in sorted((checkout / "gridsolve").rglob("*.py")):
        parts = list(path.relative_to(checkout).with_suffix("").parts)
        package = parts[:-1]
        if parts[-1] == "__init__":
            parts.pop()
        found = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = (".".join(package[:len(package) - node.level + 1] + [node.module or ""]).rstrip(".")
                        if node.level else node.module or "")
                found |= {f"{base}.{alias.name}" for alias in node.names} | {base}
        out[".".join(parts)] = found
    return out


def _folder(module: str, folders: set[str]) -> str:
    """The folder (dotted package) a module's file sits in."""
    return module if module in folders else module.rpartition(".")[0]


def contract(checkout: Path) -> dict[str, int]:
    """Issue 44's countable figures (the module's docstring)."""
    found = {"Answer( call sites": 0, "GdlAnswer( call sites": 0, "principal-line functions": 0,
             "principal-line functions with a rule of their own": 0, "chooser call sites": 0}
    for path in sorted((checkout / "gridsolve").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        chooser = any(isinstance(node, ast.ImportFrom) and (node.module or "").endswith("capabilities")
                      and any(alias.name == "choose" for alias in node.names) for node in ast.walk(tree))
        for node in ast.walk(tree):
            found["Answer( call sites"] += _called(node, "Answer")
            found["GdlAnswer( call sites"] += _called(node, "GdlAnswer")
            found["chooser call sites"] += chooser and _called(node, "choose")
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and {"solve", "gdl"} & set(path.parts) and \
                    (ast.get_docstring(node) or "").startswith("The principal line"):
                found["principal-line functions"] += 1
                found["principal-line functions with a rule of their own"] += not any(
                    _called(inner, "principal_line") or (isinstance(inner, ast.Attribute) and "line_" in inner.attr)
                    for inner in ast.walk(node))
    imports = _module_imports(checkout)
    folders = {".".join(p.parent.relative_to(checkout).parts) for p in (checkout / "gridsolve").rglob("__init__.py")}
    mechanism = re.compile(r"gridsolve\.mechanisms\.(\w+)")
    naming = set()
    for module, names in imports.items():
        if module.startswith("gridsolve.mechanisms"):
            continue
        if any((m := mechanism.match(name)) and m.group(1) not in MECHANISM_CORE for name in names):
            naming.add(module)
    found["modules outside mechanisms/ importing a mechanism's folder"] = len(naming)
    edges = {(_folder(module, folders), _folder(name, folders)) for module, names in imports.items()
             for name in names if name.startswith("gridsolve")}
    edges = {(a, b) for a, b in edges if a != b and b in folders and not a.startswith(b + ".")
             and not b.startswith(a + ".")}
    found["pairs of folders importing each other"] = len({frozenset(e) for e in edges if e[::-1] in edges})
    return found


def may_import(checkout: Path) -> dict[str, str]:
    """{package: its "May import:" line, whitespace joined}."""
    out = {}
    for init in sorted((checkout / "gridsolve").rglob("__init__.py")):
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
        line = re.search(r"May import:(.*?)(?:\n\n|$)", doc, re.S)
        if line:
            out[".".join(init.parent.relative_to(checkout).parts)] = " ".join(line.group(1).split())
    return out


def _pair(values: list) -> str:
    """One figure, or ``before → after (change)``; – where a checkout has none."""
    if all(v is None for v in values):
        return ""
    cells = ["–" if v is None else f"{v:,}" for v in values]
    if len(values) == 1 or values[0] == values[1]:
        return cells[-1] if len(values) == 1 else f"{cells[1]} (same)"
    change = f" ({values[1] - values[0]:+,})" if None not in values else ""
    return f"{cells[0]} → {cells[1]}{change}"


def _table(head: list[str], rows: list[tuple[str, list[list]]]) -> list[str]:
    return ["| " + " | ".join(head) + " |", "|---" * len(head) + "|"] + [
        f"| {label} | " + " | ".join(_pair(values) for values in cells) + " |" for label, cells in rows]


def report(after: Path, before: Path | None = None) -> list[str]:
    """The house figures of ``after`` (beside those of ``before``: ``before → after (change)``) as
    Markdown."""
    sides = [before, after] if before is not None else [after]
    lines = [f"# The house: {' → '.join(f'`{s}` (git {git_rev(s)})' for s in sides)}", "",
             f"`python -m bench house{f' --before {before}' if before else ''} {after}` (the figures are "
             "described in its docstring; lines are physical lines: blank lines, comments and docstrings included).",
             "", "## Packages of gridsolve/ (each folder by itself)", ""]
    columns = ("modules", "lines", "C files", "C lines")
    figures = [packages(side) for side in sides]
    rows = [(f"`{name}`", [[f.get(name, {}).get(c) or None for f in figures] for c in columns])
            for name in sorted(set().union(*figures))]
    rows.append(("**total**", [[sum(p[c] for p in f.values()) for f in figures] for c in columns]))
    lines += _table(["package", *columns], rows)
    lines += ["", "## encodings/", ""]
    figures = [encodings(side) for side in sides]
    lines += _table(["encodings/*.lp", "files", "lines"],
                    [("all", [[f[key] for f in figures] for key in ("files", "lines")])])
    lines += ["", "## Counted in the syntax trees of gridsolve/", ""]
    figures = [counts(side) for side in sides]
    lines += _table(["count", "figure"], [(key, [[f[key] for f in figures]]) for key in figures[-1]])
    lines += ["", "## The core's contract (issue 44)", ""]
    figures = [contract(side) for side in sides]
    lines += _table(["count", "figure"], [(key, [[f[key] for f in figures]]) for key in figures[-1]])
    if before is not None:
        old, new = may_import(before), may_import(after)
        changed = [name for name in sorted(set(old) | set(new)) if old.get(name) != new.get(name)]
        lines += ["", "## May import lines that differ", ""]
        rows = [f"| `{name}` | {old.get(name, '–')} | {new.get(name, '–')} |" for name in changed]
        lines += ["| package | before | after |", "|---|---|---|", *rows] if changed else ["none"]
    return lines + [""]


def parse(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].replace("\n", " "))
    parser.add_argument("checkout", nargs="?", type=Path, default=ROOT, help="the checkout (default: this one)")
    parser.add_argument("--before", type=Path, help="an earlier checkout, shown beside it")
    parser.add_argument("--out", type=Path, help="also write the report to this file")
    args = parser.parse_args(argv)
    for folder in filter(None, (args.checkout, args.before)):
        if not (folder / "gridsolve").is_dir():
            parser.error(f"{folder}: not a checkout of gridsolve (no gridsolve/ folder)")
    return args


def main(argv=None) -> int:
    args = parse(argv)
    text = "\n".join(report(args.checkout.resolve(), args.before.resolve() if args.before else None))
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
