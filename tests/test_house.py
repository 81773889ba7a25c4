"""The package's import graph has no cycle: no module imports one that imports it back,
directly or through others, at the top or inside a function; and every package imports only
what its docstring's "May import:" line allows (docs/how-it-works.md, docs/development.md)."""
from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def module_files(package: Path) -> dict[str, Path]:
    """{dotted module name: file} of every module under ``package``."""
    out = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


@functools.cache
def imports_in(text: str) -> tuple[ast.Import | ast.ImportFrom, ...]:
    """The import statements anywhere in a module's ``text`` (each module parsed once a session:
    three tests read all of them)."""
    return tuple(node for node in ast.walk(ast.parse(text)) if isinstance(node, (ast.Import, ast.ImportFrom)))


def import_graph(package: Path) -> dict[str, set[str]]:
    """{module: the package's modules it imports anywhere in its text}."""
    files = module_files(package)
    graph = {name: set() for name in files}
    for name, path in files.items():
        here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        for node in imports_in(path.read_text()):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = ".".join(here[:len(here) - node.level + 1] + [node.module or ""]) if node.level else node.module
                base = base.rstrip(".")
                targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in files else base for alias in node.names]
            else:
                continue
            graph[name] |= {target for target in targets if target in files and target != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_cycle_finder_sees_a_lazy_two_module_cycle(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from .b import thing\n")
    (package / "b.py").write_text("thing = 1\ndef later():\n    from . import a\n    return a\n")
    (package / "c.py").write_text("import pkg.a\n")
    assert cycles(import_graph(package)) == [["pkg.a", "pkg.b"]]


def test_gridsolve_has_no_import_cycle():
    graph = import_graph(ROOT / "gridsolve")
    assert len(graph) > 50
    assert cycles(graph) == []


def may_import(package: Path) -> dict[str, set[str]]:
    """{package: the packages its docstring's "May import:" line names} for every package under
    ``package`` whose ``__init__.py`` has one; a line that ends "and the stages below it" (or
    "them") also allows what the packages it names may import, and so on down."""
    named, below = {}, set()
    for init in sorted(package.rglob("__init__.py")):
        doc = ast.get_docstring(ast.parse(init.read_text())) or ""
        found = re.search(r"May import:(.*?)(?:\n\n|$)", doc, re.S)
        if found:
            name = ".".join(init.parent.relative_to(package.parent).parts)
            named[name] = set(re.findall(r"``([\w.]+)``", found.group(1)))
            if re.search(r"stages below (it|them)", found.group(1)):
                below.add(name)

    def allowed(name: str, seen: frozenset = frozenset()) -> set[str]:
        out = set(named.get(name, ()))
        if name in below:
            for other in named.get(name, ()):
                if other not in seen:
                    out |= allowed(other, seen | {name})
        return out

    return {name: allowed(name) for name in named}


def forbidden_imports(package: Path) -> list[tuple[str, str]]:
    """(module, what it imports) for every import of a module of a package with a "May import:"
    line that leaves the package for a module no package its line allows holds."""
    graph, rules = import_graph(package), may_import(package)

    def within(module: str, packages) -> bool:
        return any(module == other or module.startswith(other + ".") for other in packages)

    return sorted((module, target) for owner, allowed in rules.items()
                  for module, targets in graph.items() if within(module, [owner])
                  for target in targets if not within(target, [owner, *allowed]))


def test_the_import_rule_reader_sees_a_forbidden_import_and_the_stages_below(tmp_path):
    package = tmp_path / "pkg"
    for name, line in [("low", "May import: ``pkg.base`` only."), ("mid", "May import: ``pkg.low`` and the stages below it."),
                       ("top", "May import: ``pkg.low``."), ("base", "")]:
        (package / name).mkdir(parents=True)
        (package / name / "__init__.py").write_text(f'"""The {name} floor.\n\n{line}\n"""\n')
    (package / "__init__.py").write_text("")
    (package / "base" / "core.py").write_text("x = 1\n")
    (package / "low" / "a.py").write_text("from ..base.core import x\n")
    (package / "mid" / "b.py").write_text("from ..low import a\nfrom ..base.core import x\n")
    (package / "top" / "c.py").write_text("def f():\n    from ..base import core\n    from ..low.a import x\n")
    assert may_import(package)["pkg.mid"] == {"pkg.low", "pkg.base"}
    assert forbidden_imports(package) == [("pkg.top.c", "pkg.base.core")]


def private_imports(package: Path) -> list[tuple[str, str, str]]:
    """(module, the module it imports from, the name) for every ``_name`` a module of ``package``
    imports from a module of the package in another subpackage than its own."""
    files, out = module_files(package), []
    for name, path in files.items():
        here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        for node in imports_in(path.read_text()):
            if not isinstance(node, ast.ImportFrom):
                continue
            base = ".".join(here[:len(here) - node.level + 1] + [node.module or ""]).rstrip(".") if node.level \
                else node.module
            if base not in files or base.rsplit(".", 1)[0] == ".".join(here):
                continue
            out += [(name, base, alias.name) for alias in node.names
                    if alias.name.startswith("_") and not alias.name.startswith("__")]
    return sorted(out)


def test_the_private_name_finder_sees_one_across_subpackages(tmp_path):
    package = tmp_path / "pkg"
    for sub in ("a", "b"):
        (package / sub).mkdir(parents=True)
        (package / sub / "__init__.py").write_text("")
    (package / "__init__.py").write_text("")
    (package / "a" / "one.py").write_text("_x = 1\ny = 2\n")
    (package / "a" / "two.py").write_text("from .one import _x\n")
    (package / "b" / "three.py").write_text("from ..a.one import _x, y\n")
    assert private_imports(package) == [("pkg.b.three", "pkg.a.one", "_x")]


def test_every_package_imports_only_what_its_docstring_allows():
    rules = may_import(ROOT / "gridsolve")
    assert {"gridsolve.solve", "gridsolve.solve.common", "gridsolve.analysis", "gridsolve.verify"} <= set(rules)
    assert forbidden_imports(ROOT / "gridsolve") == []


def test_no_private_name_crosses_a_package_line():
    assert private_imports(ROOT / "gridsolve") == []


# The registry's assemblers, gridsolve/mechanisms/registry.py (the language parts) and
# gridsolve/mechanisms/encodings.py (the compiled parts), are the only modules that name every
# mechanism; they sit in gridsolve/mechanisms/ beside the interface (base.py), above both the
# core and the mechanisms.  Outside gridsolve/mechanisms/ a module reaches a mechanism only
# through them and the interface, but for these (module: the mechanism's module, why):
MECHANISM_IMPORTS_ALLOWED: dict[tuple[str, str], str] = {}     # (module, mechanism module): why it may
NOT_A_MECHANISM = {"base", "registry", "encodings"}     # gridsolve/mechanisms/'s own modules


def mechanism_imports(package: Path) -> set[tuple[str, str]]:
    """(module, the mechanism's module it imports) for every module of ``package`` outside its
    ``mechanisms`` folder that imports a module of a mechanism's folder (``mechanisms/NAME/``)."""
    top = package.name
    inside = f"{top}.mechanisms"
    return {(module, target) for module, targets in import_graph(package).items()
            if module != inside and not module.startswith(inside + ".")
            for target in targets if target.startswith(inside + ".")
            and target.split(".")[2] not in NOT_A_MECHANISM}


def test_the_mechanism_import_finder_sees_a_core_module_naming_a_mechanism(tmp_path):
    package = tmp_path / "pkg"
    for folder in ("core", "mechanisms", "mechanisms/doors"):
        (package / folder).mkdir(parents=True)
        (package / folder / "__init__.py").write_text("")
    (package / "__init__.py").write_text("")
    (package / "mechanisms" / "base.py").write_text("class Mechanism: pass\n")
    (package / "mechanisms" / "doors" / "language.py").write_text("from ..base import Mechanism\n")
    (package / "mechanisms" / "registry.py").write_text("from .doors.language import Mechanism\n")
    (package / "core" / "model.py").write_text("from ..mechanisms.registry import Mechanism\n"
                                               "from ..mechanisms.base import Mechanism\n")
    (package / "core" / "facts.py").write_text("def later():\n    from ..mechanisms.doors import language\n")
    assert mechanism_imports(package) == {("pkg.core.facts", "pkg.mechanisms.doors.language")}


def test_no_module_outside_the_mechanisms_names_a_mechanism_but_the_listed_ones():
    """The core reaches a mechanism through the registry and the hooks of mechanisms/base.py."""
    assert mechanism_imports(ROOT / "gridsolve") == set(MECHANISM_IMPORTS_ALLOWED)


# The fields of the position's state that mechanisms keep beside the pieces' cells (items' collect
# and their counts, bumps' bump_on and lose_turns, was_on's bits): the core's one-mover predicate
# asks each mechanism (Mechanism.state_beside_cells) instead of reading them.
STATE_BESIDE_CELLS_FIELDS = {"collect", "tables", "collected", "bump_on", "lose_turns", "was_on"}


def attributes_read(path: Path, function: str) -> set[str]:
    """The attribute names read in the functions (or properties) named ``function`` of ``path``."""
    tree = ast.parse(path.read_text())
    return {node.attr for fn in ast.walk(tree) if isinstance(fn, ast.FunctionDef) and fn.name == function
            for node in ast.walk(fn) if isinstance(node, ast.Attribute)}


def test_the_attribute_reader_sees_a_field_read_in_a_property(tmp_path):
    path = tmp_path / "model.py"
    path.write_text("class Rules:\n    @property\n    def one_mover_script(self):\n"
                    "        return not self.collect and all(m.steps == 1 for m in self.moves.values())\n"
                    "    def other(self):\n        return self.was_on\n")
    assert attributes_read(path, "one_mover_script") == {"collect", "steps", "moves", "values"}


def test_the_one_mover_predicate_names_no_mechanism_s_state_field():
    """Rules.one_mover_script (and compile/script.py's, which reads it) asks the registry's
    mechanisms whether they keep state beside the pieces' cells."""
    for path in (ROOT / "gridsolve/language/model.py", ROOT / "gridsolve/compile/script.py"):
        read = attributes_read(path, "one_mover_script")
        assert read, path
        assert not read & STATE_BESIDE_CELLS_FIELDS, (path, read & STATE_BESIDE_CELLS_FIELDS)
