"""The layers, read from the source: which of our modules each module imports (with ``ast``,
every import, at the top or inside a function), checked against the rules of the tree.

* ``scorepad/rules/`` imports nothing of ours outside ``rules``;
* ``storage/`` and ``paper/`` import only ``rules`` among our packages, and never a web
  framework (Flask, Werkzeug, Flask-WTF, WTForms, Click);
* ``web/``, ``api/`` and ``cli/`` do not import each other, and ``cli/main.py`` (the
  ``scorepad`` command) reaches no web framework through anything it imports;
* no module imports another module's ``_private`` name, nor reads one as ``module._name``;
* no cycle among the imports made when a module loads (an import inside a function, made
  when it runs, is left out of this one check).
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
    module = Module(_module_name(path), path)
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
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


def test_the_modules_are_read():
    """The reader finds the layers and what they import (a check of the check)."""
    names = modules()
    assert {"scorepad.rules.sheet", "scorepad.storage.writing", "scorepad.api", "scorepad.cli.main"} <= set(names)
    assert "scorepad.storage.writing" in names["scorepad.api.games"].ours()
    assert "flask" in {_top(i.module) for i in names["scorepad.app"].imports}


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
    """``scorepad`` (cli/main.py) runs where Flask is not installed: nothing it imports,
    nor anything those import, is a web framework."""
    reached = _reached("scorepad.cli.main")
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


def _load_graph() -> dict[str, list[str]]:
    """Each module's imports of ours made when it loads."""
    return {name: sorted({i.module for i in m.imports if i.at_load and i.module in modules()} - {name})
            for name, m in modules().items()}


def _cycle(graph: dict[str, list[str]]) -> list[str] | None:
    """One cycle in ``graph`` (each name to the names it imports), as a path back to its start; or None."""
    state: dict[str, int] = {}  # 1 on the path, 2 done
    path: list[str] = []

    def visit(name: str) -> list[str] | None:
        state[name] = 1
        path.append(name)
        for below in graph.get(name, ()):
            if state.get(below) == 1:
                return path[path.index(below):] + [below]
            if below not in state and (found := visit(below)):
                return found
        path.pop()
        state[name] = 2
        return None

    for name in graph:
        if name not in state and (found := visit(name)):
            return found
    return None


def test_no_import_cycles():
    assert _cycle(_load_graph()) is None


def test_a_cycle_is_found():
    """The cycle finder finds one, and only where there is one (a check of the check)."""
    assert _cycle({"a": ["b"], "b": ["c"], "c": ["b"]}) == ["b", "c", "b"]
    assert _cycle({"a": ["b", "c"], "b": ["c"], "c": []}) is None
