"""One door out: in the product (core, ui, app) only the egress guard sends content.

Checked on the source: network-capable modules are imported only where they
are allowed, and the cloud client's sending methods are called only by
``core/egress/guard.py``. (``training/`` is evaluation tooling that talks to judge
endpoints on purpose; it is not part of the app.)
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ["core", "ui", "app"]

#: module -> files allowed to import it (relative to the project root).
NETWORK_MODULES: dict[str, set[str]] = {
    "openai": {"core/llm/cloud.py"},
    # Model downloads: a bare GET for a public GGUF file, never a model request;
    # the module sees no conversation (an import-linter contract keeps it apart).
    "httpx": {"core/llm/download.py"},
    "httpx2": set(),
    "requests": set(),
    "aiohttp": set(),
    "urllib3": set(),
    "websockets": set(),
    "http.client": set(),
    # The demo cloud starts a loopback server and polls it on 127.0.0.1; the
    # self-test patches socket to refuse every internet connection.
    "urllib.request": {"core/llm/demo.py"},
    "socket": {"core/llm/demo.py", "app/selftest.py"},
}
SENDING_METHODS = {"post", "post_stream"}


def _sources() -> list[Path]:
    return sorted(p for d in PRODUCT for p in (ROOT / d).rglob("*.py") if ".venv" not in p.parts)


def _imports(tree: ast.AST) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module)
            out.update(f"{node.module}.{a.name}" for a in node.names)
    return out


def _violations(module: str, imported: set[str]) -> bool:
    return any(name == module or name.startswith(module + ".") for name in imported)


@pytest.mark.parametrize("module", sorted(NETWORK_MODULES))
def test_network_modules_are_imported_only_where_allowed(module: str) -> None:
    offenders = []
    for path in _sources():
        rel = path.relative_to(ROOT).as_posix()
        if rel in NETWORK_MODULES[module]:
            continue
        if _violations(module, _imports(ast.parse(path.read_text("utf-8")))):
            offenders.append(rel)
    assert offenders == []


def test_only_the_egress_guard_calls_the_cloud_clients_sending_methods() -> None:
    offenders = []
    for path in _sources():
        rel = path.relative_to(ROOT).as_posix()
        if rel in ("core/egress/guard.py", "core/llm/cloud.py"):
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in SENDING_METHODS
            ):
                offenders.append(f"{rel}:{node.lineno}")
    assert offenders == []


def test_the_checks_see_the_files_they_guard() -> None:
    rels = {p.relative_to(ROOT).as_posix() for p in _sources()}
    assert {"core/egress/guard.py", "core/llm/cloud.py", "core/llm/demo.py"} <= rels
    cloud = _imports(ast.parse((ROOT / "core/llm/cloud.py").read_text("utf-8")))
    assert _violations("openai", cloud)
