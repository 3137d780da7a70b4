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
