"""A module-level name bound twice: the second binding silently replaces the first for
every use in the module, also those written above it (linters do not flag constants)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MODULES = sorted(p for d in ("core", "training", "app", "ui") for p in (ROOT / d).rglob("*.py"))


def _bindings(node: ast.stmt) -> list[str]:
    """The constants (names in capitals) a module-level statement binds anew: not one
    that grows from itself ("NEGATIVES = NEGATIVES | words(...)")."""
    if isinstance(node, ast.Assign):
        targets, value = node.targets, node.value
    elif isinstance(node, ast.AnnAssign) and node.value is not None:
        targets, value = [node.target], node.value
    else:
        return []
    read = {n.id for n in ast.walk(value) if isinstance(n, ast.Name)}
    return [
        t.id
        for t in targets
        if isinstance(t, ast.Name) and t.id.lstrip("_").isupper() and t.id not in read
    ]


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_constant_is_bound_twice(path: Path) -> None:
    seen: dict[str, int] = {}
    twice = []
    for node in ast.parse(path.read_text("utf-8")).body:
        for name in _bindings(node):
            if name in seen:
                twice.append(f"{name} (lines {seen[name]} and {node.lineno})")
            seen.setdefault(name, node.lineno)
    assert not twice, twice
