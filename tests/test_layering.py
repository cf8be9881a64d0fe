"""Imports go one way. Read from the source (``ast``): among the module-level imports of bot/,
engine/ and renders/ (those under ``if TYPE_CHECKING:`` aside, they never run) there is no
cycle, and no module of bot/ imports a project module from inside a function — the way a cycle
is usually dodged. And the core of the bot, bot/core/, imports without discord."""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "engine", "renders")


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module(p): p for package in PACKAGES for p in sorted((ROOT / package).rglob("*.py"))}


def _targets(node: ast.Import | ast.ImportFrom, module: str, is_package: bool,
             known: dict[str, Path]) -> list[str]:
    """The project modules an import statement loads (the deepest known module of each name)."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        if node.level:
            base_parts = module.split(".") if is_package else module.split(".")[:-1]
            base_parts = base_parts[: len(base_parts) - node.level + 1]
            base = ".".join(base_parts + ([node.module] if node.module else []))
        else:
            base = node.module or ""
        subs = [f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in known]
        names = subs + ([base] if len(subs) < len(node.names) else [])
    found = []
    for name in names:
        while name and name not in known:
            name = name.rpartition(".")[0]
        if name and name != module:
            found.append(name)
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _scan(module: str, path: Path, known: dict[str, Path], edges: dict[str, set[str]],
          in_functions: list[str]) -> None:
    """Add ``module``'s module-level imports to ``edges`` and those inside functions to ``in_functions``."""
    is_package = path.name == "__init__.py"

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child.test):
                for other in child.orelse:
                    visit_one(other, in_function)
                continue
            visit_one(child, in_function)

    def visit_one(child: ast.AST, in_function: bool) -> None:
        if isinstance(child, (ast.Import, ast.ImportFrom)):
            targets = _targets(child, module, is_package, known)
            if in_function:
                in_functions.extend(f"{module}:{child.lineno} -> {t}" for t in targets)
            else:
                edges[module].update(targets)
        elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            visit(child, True)
        else:
            visit(child, in_function)

    visit(ast.parse(path.read_text(encoding="utf-8")), False)


def _imports(known: dict[str, Path]) -> tuple[dict[str, set[str]], list[str]]:
    """Each module's module-level project imports, and every import inside a function."""
    edges: dict[str, set[str]] = {m: set() for m in known}
    in_functions: list[str] = []
    for module, path in known.items():
        _scan(module, path, known, edges, in_functions)
    return edges, in_functions


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(edges[node]):
            if target not in index:
                connect(target)
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

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for node in sorted(edges):
        if node not in index:
            connect(node)
    return found


def test_the_analysis_finds_a_cycle_and_an_import_inside_a_function() -> None:
    """The check itself: a made-up pair of modules importing each other is a cycle."""
    edges = {"bot.a": {"bot.b"}, "bot.b": {"bot.a"}, "bot.c": {"bot.a"}}
    assert _cycles(edges) == [["bot.a", "bot.b"]]
    known = {"bot": ROOT / "bot/__init__.py", "bot.core": ROOT / "bot/core/__init__.py",
             "bot.core.texts": ROOT / "bot/core/texts.py"}
    node = ast.parse("from .. import texts").body[0]
    assert isinstance(node, ast.ImportFrom)
    assert _targets(node, "bot.core.locales", True, known) == ["bot.core.texts"]


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_cycle(package: str) -> None:
    edges, _ = _imports(_modules())
    assert [c for c in _cycles(edges) if c[0].split(".")[0] == package] == []


def test_no_import_inside_a_function_in_bot() -> None:
    _, in_functions = _imports(_modules())
    assert [line for line in in_functions if line.startswith("bot.")] == []


def test_the_core_imports_without_discord() -> None:
    """Every module under bot/core/, imported in a process where ``import discord`` fails."""
    modules = sorted(m for m in _modules() if m == "bot.core" or m.startswith("bot.core."))
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
