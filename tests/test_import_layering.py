"""Imports go one way: no cycle among module-level imports, and no import inside a function.

An import placed inside a function is how a cycle is usually hidden; both are read here from the
source (``ast``), so the check runs without importing anything. Imports under ``if TYPE_CHECKING:``
are for annotations only and are left out. Add a package to ``PACKAGES`` once it holds to this.
And the core of the bot, bot/core/, imports without discord.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "renders", "bot")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules(package: str) -> dict[str, Path]:
    return {_module_name(path): path for path in sorted((ROOT / package).rglob("*.py"))}


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _targets(node: ast.Import | ast.ImportFrom, module: str, is_package: bool, known: set[str]) -> set[str]:
    """The modules of ``known`` that ``node`` (in ``module``) imports."""
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names if alias.name in known}
    if node.level:
        base = module.split(".") if is_package else module.split(".")[:-1]
        base = base[: len(base) - (node.level - 1)]
        origin = ".".join(base + ([node.module] if node.module else []))
    else:
        origin = node.module or ""
    found = {f"{origin}.{alias.name}" for alias in node.names} & known
    return found or ({origin} & known)


def _walk(tree: ast.AST, module: str, is_package: bool, known: set[str]) -> tuple[set[str], list[str]]:
    """(modules imported at module level, imports placed inside a function) of one module."""
    top: set[str] = set()
    nested: list[str] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                for other in child.orelse:
                    visit(other, in_function)
                continue
            if isinstance(child, ast.Import | ast.ImportFrom):
                targets = _targets(child, module, is_package, known)
                if in_function:
                    nested.extend(f"{module}:{child.lineno} -> {t}" for t in sorted(targets))
                else:
                    top.update(targets)
            visit(child, in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef))

    visit(tree, False)
    return top - {module}, nested


def _graph() -> tuple[dict[str, set[str]], list[str]]:
    paths = {name: path for package in PACKAGES for name, path in _modules(package).items()}
    known = set(paths)
    graph: dict[str, set[str]] = {}
    nested: list[str] = []
    for name, path in paths.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        graph[name], inside = _walk(tree, name, path.name == "__init__.py", known)
        nested.extend(inside)
    return graph, nested


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for succ in sorted(graph.get(node, ())):
            if succ not in index:
                connect(succ)
                low[node] = min(low[node], low[succ])
            elif succ in on_stack:
                low[node] = min(low[node], index[succ])
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
            connect(node)
    return found


def test_no_import_cycle() -> None:
    graph, _ = _graph()
    assert _cycles(graph) == []


def test_no_import_inside_a_function() -> None:
    _, nested = _graph()
    assert nested == []


@pytest.mark.parametrize(("source", "cycles", "nested"), [
    ("import engine.b\n", [["engine.a", "engine.b"]], []),
    ("def f():\n    from . import b\n", [], ["engine.a:2 -> engine.b"]),
    ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import b\n", [], []),
])
def test_the_check_sees_what_it_forbids(source: str, cycles: list[list[str]], nested: list[str]) -> None:
    known = {"engine.a", "engine.b"}
    top, inside = _walk(ast.parse(source), "engine.a", False, known)
    assert _cycles({"engine.a": top, "engine.b": {"engine.a"}}) == cycles
    assert inside == nested


DISCORD_FREE = ("bot.core", "bot.web", "bot.board")
"""The core, and the fronts beside Discord's that build on it: the web board and its offline entry."""


def test_the_core_imports_without_discord() -> None:
    """Every module under bot/core/ and bot/web/ (and ``bot.board``), imported in a process where
    ``import discord`` fails."""
    modules = sorted(m for m in _modules("bot")
                     if any(m == top or m.startswith(top + ".") for top in DISCORD_FREE))
    script = textwrap.dedent(f"""
        import importlib, sys

        class NoDiscord:
            def find_spec(self, name, path=None, target=None):
                if name == "discord" or name.startswith("discord."):
                    raise ImportError("discord is not importable here: " + name)
                return None

        sys.meta_path.insert(0, NoDiscord())
        for name in {modules!r}:
            importlib.import_module(name)
        assert not any(m == "discord" or m.startswith("discord.") for m in sys.modules)
        print(len({modules!r}))
    """)
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(len(modules))


# The core's layers, lowest first (bot/core/__init__.py): each imports only those before it. The
# top-level modules of bot/core are "base" (config, clock, shards, storage), "values" (errors,
# games: the refusals and games every package above hands around) and services (the top).
CORE_LAYERS = ("base", "wording", "values", "rendering", "records", "play", "days", "services")
VALUES = ("errors", "games")


def _core_layer(module: str) -> str | None:
    parts = module.split(".")
    if parts[:2] != ["bot", "core"] or len(parts) < 3:
        return None
    if parts[2] in CORE_LAYERS:
        return parts[2]
    return "values" if parts[2] in VALUES else "base"


def test_the_web_front_never_imports_the_discord_front() -> None:
    graph, _ = _graph()
    web = {m: targets for m, targets in graph.items() if m == "bot.web" or m.startswith("bot.web.")}
    assert web, "bot/web/ is checked"
    assert [f"{m} -> {t}" for m, targets in web.items() for t in targets if t.startswith("bot.discord")] == []


def test_the_core_packages_import_downwards_only() -> None:
    graph, _ = _graph()
    upward = []
    for module, targets in graph.items():
        source = _core_layer(module)
        for target in targets:
            layer = _core_layer(target)
            if source and layer and CORE_LAYERS.index(layer) > CORE_LAYERS.index(source):
                upward.append(f"{module} -> {target}")
    assert upward == []


def test_the_core_keeps_few_modules_side_by_side() -> None:
    """A newcomer reads bot/core/ from its packages' names: loose modules stay few."""
    loose = [p.name for p in (ROOT / "bot" / "core").glob("*.py") if p.name != "__init__.py"]
    assert len(loose) <= 8, loose
