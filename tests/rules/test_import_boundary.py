"""``rules/`` is a pure-Python library: stdlib and ``rules.*`` imports only, never Django."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "rules"


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def test_every_rules_module_imports_only_stdlib_and_rules() -> None:
    allowed = set(sys.stdlib_module_names) | {"rules", "__future__"}
    modules = sorted(RULES.rglob("*.py"))
    assert modules
    bad = {
        str(p.relative_to(ROOT)): sorted(imported_roots(p) - allowed)
        for p in modules
        if imported_roots(p) - allowed
    }
    assert bad == {}


def test_importing_every_rules_module_never_loads_django() -> None:
    names = [module_name(p) for p in sorted(RULES.rglob("*.py"))]
    code = (
        "import importlib, sys\n"
        f"for name in {names!r}:\n"
        "    importlib.import_module(name)\n"
        "assert not any(m == 'django' or m.startswith('django.') for m in sys.modules), 'django'\n"
        "print('ok')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


# --- no import circle inside rules/ ----------------------------------------------------------


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _runtime_imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import Python may execute: at module level, in functions (a late import is still a
    dependency), but not under ``if TYPE_CHECKING:`` (annotations only, never run)."""
    found: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                for other in child.orelse:
                    visit(other)
                continue
            if isinstance(child, ast.Import | ast.ImportFrom):
                found.append(child)
            visit(child)

    visit(tree)
    return found


def rules_import_graph() -> dict[str, set[str]]:
    """Module → the ``rules`` modules it imports (as import-linter counts them: ``import a.b``
    and ``from a import b`` with ``b`` a module name ``a.b``; ``from a import name`` names
    ``a``), at module level or late in a function, ``TYPE_CHECKING`` blocks left out."""
    modules = {module_name(p): p for p in sorted(RULES.rglob("*.py"))}
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        for node in _runtime_imports(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = {alias.name for alias in node.names}
            elif node.level == 0 and node.module:
                targets = {
                    f"{node.module}.{alias.name}"
                    if f"{node.module}.{alias.name}" in modules
                    else node.module
                    for alias in node.names
                }
            else:
                targets = set()
            graph[name] |= {t for t in targets if t in modules and t != name}
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``graph`` (its modules in order), or None."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(name: str) -> list[str] | None:
        state[name] = 1
        path.append(name)
        for nxt in sorted(graph[name]):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (cycle := visit(nxt)) is not None:
                return cycle
        path.pop()
        state[name] = 2
        return None

    for name in sorted(graph):
        if name not in state and (cycle := visit(name)) is not None:
            return cycle
    return None


def test_rules_has_no_import_circle() -> None:
    graph = rules_import_graph()
    assert "rules.registry" in graph["rules.persist"]  # the graph sees real edges
    assert find_cycle(graph) is None, " → ".join(find_cycle(graph) or [])


def test_a_circle_would_be_found() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_the_engine_never_imports_a_variant_or_the_registry() -> None:
    graph = rules_import_graph()
    reached: set[str] = set()
    todo = ["rules.engine.core", "rules.engine"]
    while todo:
        name = todo.pop()
        if name not in reached:
            reached.add(name)
            todo += graph[name]
    assert not {n for n in reached if n.startswith(("rules.variants", "rules.registry"))}


def test_every_rules_module_imports_first_on_its_own() -> None:
    """Each module imported first in a clean interpreter state (an import circle that only
    shows in some import order fails here)."""
    names = [module_name(p) for p in sorted(RULES.rglob("*.py"))]
    code = (
        "import importlib, sys\n"
        f"for name in {names!r}:\n"
        "    for loaded in [m for m in sys.modules if m == 'rules' or m.startswith('rules.')]:\n"
        "        del sys.modules[loaded]\n"
        "    importlib.import_module(name)\n"
        "print('ok')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


def test_the_doctests_of_rules_run_in_the_suite() -> None:
    """``pytest`` collects ``rules/`` with ``--doctest-modules`` (pyproject's testpaths)."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    options = config["tool"]["pytest"]["ini_options"]
    assert "rules" in options["testpaths"]
    assert "--doctest-modules" in options["addopts"].split()
    with_examples = [p for p in RULES.rglob("*.py") if ">>> " in p.read_text(encoding="utf-8")]
    assert len(with_examples) >= 10
