"""The layers, read from the source: which of our modules each module imports (with ``ast``,
every import statement: at the top, inside a function or a method, under ``if TYPE_CHECKING``),
checked against the rules of the tree. Every rule reads every import, so an import moved into
a function is held to the same line as one at the top.

* ``scorepad/rules/`` imports nothing of ours outside ``rules``;
* ``storage/`` and ``paper/`` import only ``rules`` among our packages, and never a web
  framework (Flask, Werkzeug, Flask-WTF, WTForms, Click);
* the top-level helpers (``access``, ``builds``, ``downloads``, ``links``, ``ratelimit``,
  ``retry``: every module directly in ``scorepad/`` but the package and ``app``) import only
  ``rules``, ``storage``, ``paper`` and each other: they sit below ``web/``, ``api/`` and ``cli/``;
* ``web/``, ``api/`` and ``cli/`` do not import each other, and ``cli/scorepad_command.py`` (the
  ``scorepad`` command) reaches no web framework through anything it imports;
* no module imports another module's ``_private`` name, nor reads one as ``module._name``;
* no import loop among our modules, through any import (one made inside a function, when it
  runs, too: a loop hidden in a function is a module boundary in the wrong place). A lazy
  import that closes no loop (an optional dependency, the app built on demand) is fine.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "scorepad"
WEB_FRAMEWORKS = ("flask", "werkzeug", "flask_wtf", "wtforms", "click")
INTERFACES = ("web", "api", "cli")


@dataclass
class Imported:
    """One name a module imports: the module it comes from, the name (None for ``import x``),
    its line, and whether it is imported when the module loads (not inside a function)."""

    module: str
    name: str | None
    line: int
    at_load: bool


@dataclass
class Module:
    name: str
    path: Path
    imports: list[Imported] = field(default_factory=list)
    private_reads: list[tuple[str, str, int]] = field(default_factory=list)  # module, attribute, line

    @property
    def layer(self) -> str:
        """``rules``, ``storage``, ``web``...: the package below ``scorepad`` (or the module
        itself, for ``app``, ``access``...)."""
        return _layer(self.name)

    def ours(self) -> set[str]:
        """Our modules this one imports."""
        return {i.module for i in self.imports if _is_ours(i.module)}


def _is_ours(module: str) -> bool:
    return module == "scorepad" or module.startswith("scorepad.")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_module(name: str) -> bool:
    path = PACKAGE.parent / Path(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _resolve(module: Module, node: ast.ImportFrom) -> str:
    """The absolute name of the module a ``from ... import`` reads from."""
    if not node.level:
        return node.module or ""
    package = module.name.split(".")
    if not module.path.name == "__init__.py":
        package.pop()
    base = package[:len(package) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _function_nodes(tree: ast.AST) -> set[int]:
    """The ids of the import statements inside a function body (or an ``if TYPE_CHECKING``)."""
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or (
                isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)):
            inside.update(id(n) for n in ast.walk(node) if isinstance(n, (ast.Import, ast.ImportFrom)))
    return inside


def _read(path: Path) -> Module:
    return _parse(_module_name(path), path, path.read_text(encoding="utf-8"))


def _parse(name: str, path: Path, source: str) -> Module:
    """What the module ``name`` (at ``path``) imports, read from its ``source``."""
    module = Module(name, path)
    tree = ast.parse(source, str(path))
    later = _function_nodes(tree)
    bound: dict[str, str] = {}  # a local name -> our module it is
    for node in ast.walk(tree):
        at_load = id(node) not in later
        if isinstance(node, ast.Import):
            for alias in node.names:
                module.imports.append(Imported(alias.name, None, node.lineno, at_load))
                if _is_ours(alias.name):
                    bound[alias.asname or alias.name] = alias.name
        elif isinstance(node, ast.ImportFrom):
            source = _resolve(module, node)
            for alias in node.names:
                full = f"{source}.{alias.name}"
                if _is_ours(full) and _is_module(full):  # a submodule: ``from ..storage import db``
                    module.imports.append(Imported(full, None, node.lineno, at_load))
                    bound[alias.asname or alias.name] = full
                else:
                    module.imports.append(Imported(source, alias.name, node.lineno, at_load))
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in bound
                and node.attr.startswith("_") and not node.attr.startswith("__")):
            module.private_reads.append((bound[node.value.id], node.attr, node.lineno))
    return module


@cache
def modules() -> dict[str, Module]:
    found = (_read(path) for path in sorted(PACKAGE.rglob("*.py")))
    return {m.name: m for m in found}


def _in(layer: str) -> list[Module]:
    return [m for m in modules().values() if m.layer == layer]


def _ids(found: list[Module]) -> list[str]:
    return [m.name for m in found]


def _layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def _top(module: str) -> str:
    return module.split(".")[0]


def _is_helper(module: str) -> bool:
    """A top-level helper: a module directly in ``scorepad/`` but the package and the app factory."""
    return module.count(".") == 1 and module != "scorepad.app" and not _is_package(module)


def _is_package(module: str) -> bool:
    return (PACKAGE.parent / Path(*module.split(".")) / "__init__.py").is_file()


def test_the_modules_are_read():
    """The reader finds the layers and what they import (a check of the check)."""
    names = modules()
    assert {"scorepad.rules.sheet", "scorepad.storage.writing", "scorepad.api",
            "scorepad.cli.scorepad_command"} <= set(names)
    assert "scorepad.storage.writing" in names["scorepad.api.games"].ours()
    assert "flask" in {_top(i.module) for i in names["scorepad.app"].imports}


NESTED = """
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..storage import db


def view():
    from ..rules.sheet import RuleSheet


class Page:
    def show(self):
        import scorepad.paper.pad
"""


def test_imports_inside_functions_methods_and_type_checking_are_read():
    """An import inside a function, a method or ``if TYPE_CHECKING`` is read like one at the
    top (marked as not made at load), so every layer rule and the loop check see it (a check of the check)."""
    module = _parse("scorepad.web.nested", PACKAGE / "web" / "nested.py", NESTED)
    assert {"scorepad.storage.db", "scorepad.rules.sheet", "scorepad.paper.pad"} <= module.ours()
    assert not any(i.at_load for i in module.imports if _is_ours(i.module))
    below = _parse("scorepad.rules.sheet", PACKAGE / "rules" / "sheet.py", "import scorepad.web.nested\n")
    assert _cycles(_graph({"scorepad.web.nested": module, "scorepad.rules.sheet": below})) == [
        ["scorepad.rules.sheet", "scorepad.web.nested", "scorepad.rules.sheet"]]


@pytest.mark.parametrize("module", _in("rules"), ids=_ids(_in("rules")))
def test_rules_import_nothing_of_ours_outside_rules(module: Module):
    outside = sorted(m for m in module.ours() if not m.startswith("scorepad.rules"))
    assert outside == [], f"{module.name} imports {outside}"


LOWER = _in("storage") + _in("paper")


@pytest.mark.parametrize("module", LOWER, ids=_ids(LOWER))
def test_storage_and_paper_import_only_rules_and_no_web_framework(module: Module):
    ours = sorted(m for m in module.ours() if _layer(m) not in ("rules", module.layer))
    frameworks = sorted({i.module for i in module.imports if _top(i.module) in WEB_FRAMEWORKS})
    assert (ours, frameworks) == ([], []), f"{module.name} imports {ours + frameworks}"


HELPERS = [m for m in modules().values() if _is_helper(m.name)]


def test_the_top_level_helpers_are_found():
    assert {m.name for m in HELPERS} >= {"scorepad.access", "scorepad.builds", "scorepad.downloads",
                                         "scorepad.links", "scorepad.ratelimit", "scorepad.retry"}
    assert not {"scorepad", "scorepad.app"} & {m.name for m in HELPERS}


@pytest.mark.parametrize("module", HELPERS, ids=_ids(HELPERS))
def test_the_top_level_helpers_import_only_rules_storage_paper_and_each_other(module: Module):
    """``access``, ``ratelimit``... are shared by the pages, the API and the commands: they sit
    below those and above storage and the PDFs, never reaching up to what uses them."""
    above = sorted(m for m in module.ours() if _layer(m) not in ("rules", "storage", "paper") and not _is_helper(m))
    assert above == [], f"{module.name} imports {above}"


INTERFACE_MODULES = [m for layer in INTERFACES for m in _in(layer)]


@pytest.mark.parametrize("module", INTERFACE_MODULES, ids=_ids(INTERFACE_MODULES))
def test_web_api_and_cli_do_not_import_each_other(module: Module):
    others = sorted(m for m in module.ours() if _layer(m) in INTERFACES and _layer(m) != module.layer)
    assert others == [], f"{module.name} imports {others}"


def _reached(start: str) -> set[str]:
    """Our modules ``start`` imports, and theirs, and so on (``start`` included)."""
    seen, todo = set(), [start]
    while todo:
        name = todo.pop()
        if name in seen or name not in modules():
            continue
        seen.add(name)
        todo.extend(modules()[name].ours())
    return seen


def test_the_scorepad_command_reaches_no_web_framework():
    """``scorepad`` (cli/scorepad_command.py) runs where Flask is not installed: nothing it imports,
    nor anything those import, is a web framework."""
    reached = _reached("scorepad.cli.scorepad_command")
    assert "scorepad.cli.output" in reached  # it words its output with the flask commands' module
    frameworks = sorted({f"{name}: {i.module}" for name in reached for i in modules()[name].imports
                         if _top(i.module) in WEB_FRAMEWORKS})
    assert frameworks == []


def _private_imports() -> Iterator[str]:
    for module in modules().values():
        for i in module.imports:
            if _is_ours(i.module) and i.module != module.name and i.name and i.name.startswith("_") \
                    and not i.name.startswith("__"):
                yield f"{module.name}:{i.line} imports {i.name} from {i.module}"
        for source, attribute, line in module.private_reads:
            if source != module.name:
                yield f"{module.name}:{line} reads {source}.{attribute}"


def test_no_module_imports_another_modules_private_name():
    assert list(_private_imports()) == []


def _graph(found: dict[str, Module] | None = None) -> dict[str, list[str]]:
    """Each module's imports of ours, every one (at load, inside a function, for type checking)."""
    found = modules() if found is None else found
    return {name: sorted({i.module for i in m.imports if i.module in found} - {name}) for name, m in found.items()}


def _cycles(graph: dict[str, list[str]]) -> list[list[str]]:
    """The import loops in ``graph`` (each name to the names it imports): for each import
    between modules that reach each other, the shortest loop through it, each loop once, as a
    path from its first module (by name) back to itself."""
    loops: set[tuple[str, ...]] = set()
    for group in _tangles(graph):
        inside = set(group)
        for name in group:
            for below in graph.get(name, ()):
                if below in inside:
                    loop = [name, *_shortest_path(graph, below, name, inside)]
                    first = loop.index(min(loop))
                    loops.add(tuple(loop[first:] + loop[:first] + [loop[first]]))
    return [list(loop) for loop in sorted(loops)]


def _tangles(graph: dict[str, list[str]]) -> list[list[str]]:
    """The sets of two or more modules each of which imports the others, directly or not
    (Tarjan's strongly connected components), each sorted, in order."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(name: str) -> None:
        index[name] = low[name] = len(index)
        stack.append(name)
        for below in graph.get(name, ()):
            if below not in index:
                visit(below)
                low[name] = min(low[name], low[below])
            elif below in stack:
                low[name] = min(low[name], index[below])
        if low[name] == index[name]:
            group = stack[stack.index(name):]
            del stack[stack.index(name):]
            if len(group) > 1:
                found.append(sorted(group))

    for name in graph:
        if name not in index:
            visit(name)
    return sorted(found)


def _shortest_path(graph: dict[str, list[str]], start: str, end: str, inside: set[str]) -> list[str]:
    """The shortest path of imports from ``start`` to ``end`` through ``inside``, without ``end``
    itself (``start`` included)."""
    came_from: dict[str, str | None] = {start: None}
    todo = [start]
    while todo:
        name = todo.pop(0)
        if name == end:
            path: list[str] = []
            step: str | None = came_from[end]
            while step is not None:
                path.append(step)
                step = came_from[step]
            return path[::-1]
        for below in graph.get(name, ()):
            if below in inside and below not in came_from:
                came_from[below] = name
                todo.append(below)
    raise AssertionError(f"no path from {start} to {end}")  # modules that reach each other always have one


def _where(source: str, target: str) -> str:
    """Where ``source`` imports ``target``: its lines, ``(inside a function)`` when none is made at load."""
    found = [i for i in modules()[source].imports if i.module == target]
    lines = ",".join(str(line) for line in sorted({i.line for i in found}))
    return f"{source}:{lines}{'' if any(i.at_load for i in found) else ' (inside a function)'}"


def _words(loop: list[str]) -> str:
    steps = "; ".join(f"{_where(a, b)} imports {b}" for a, b in zip(loop, loop[1:], strict=False))
    return f"{' -> '.join(loop)} ({steps})"


def test_no_import_loops():
    """No module imports, directly or through others, one that imports it: not at load, and
    not inside a function either (which only hides the loop until the function runs)."""
    loops = [_words(loop) for loop in _cycles(_graph())]
    assert loops == [], "import loops:\n" + "\n".join(loops)


def test_a_loop_is_found():
    """The loop finder finds each, and only where there is one (a check of the check)."""
    assert _cycles({"a": ["b"], "b": ["c"], "c": ["b"]}) == [["b", "c", "b"]]
    assert _cycles({"a": ["b", "c"], "b": ["c"], "c": []}) == []
    assert _cycles({"a": ["b"], "b": ["c", "a"], "c": ["a"], "d": ["e"], "e": ["d"]}) == [
        ["a", "b", "a"], ["a", "b", "c", "a"], ["d", "e", "d"]]
    assert _cycles({"a": ["a"]}) == []  # one module alone is no loop between modules


# -- size and Any ---------------------------------------------------------------------------------

MAX_MODULE_LINES = 600  # a module past this holds more than one job (issue 22): split it along its jobs
MAX_ANY = 60  # uses of Any (or cast) in the whole package: each says why it cannot be precise


def test_no_module_is_over_600_lines():
    """A module of one job fits in 600 lines; a longer one is split along its jobs, never by count."""
    long = {name: n for name, m in modules().items()
            if (n := len(m.path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES}
    assert long == {}, f"modules over {MAX_MODULE_LINES} lines: {long}"


def _any_uses(source: str) -> list[int]:
    """The lines of ``source`` that use ``Any`` (a name or ``typing.Any``) or call ``cast``,
    import lines left out (an alias of Any is a use where it is defined)."""
    lines: list[int] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Name) and node.id == "Any":
            lines.append(node.lineno)
        elif isinstance(node, ast.Attribute) and node.attr == "Any" and isinstance(node.value, ast.Name):
            lines.append(node.lineno)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "cast":
            lines.append(node.lineno)
    return sorted(lines)


def test_any_is_counted_in_annotations_and_casts_not_imports():
    """The count sees ``Any``, ``typing.Any`` and ``cast``, not an import (a check of the check)."""
    sample = "from typing import Any, cast\nimport typing\nx: Any = 1\ny: typing.Any = cast(int, x)\n"
    assert _any_uses(sample) == [3, 4, 4]


def test_any_is_rare_and_each_use_says_why():
    """``Any`` (or a ``cast``) is left only where no precise type can say it, under
    :data:`MAX_ANY` in the whole package, and each line that uses it carries a comment (on
    it, or on the line above) saying why."""
    uses: list[str] = []
    unexplained: list[str] = []
    for name, module in modules().items():
        text = module.path.read_text(encoding="utf-8").splitlines()
        for line in _any_uses("\n".join(text)):
            uses.append(f"{name}:{line}")
            said = "#" in text[line - 1] or text[line - 2].lstrip().startswith("#")
            if not said:
                unexplained.append(f"{name}:{line}: {text[line - 1].strip()}")
    assert len(uses) < MAX_ANY, f"{len(uses)} uses of Any: {uses}"
    assert unexplained == [], "Any without a comment saying why:\n" + "\n".join(unexplained)
