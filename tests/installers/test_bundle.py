"""The desktop bundle: build it with PyInstaller, then run its self-test headless and offline.

Slow (about two minutes on two cores, most of it PyInstaller). A ``make
bundle`` output in ``dist/sottovoce`` built from exactly the present sources
and packages (``installers/build.py`` fingerprints them) is reused; otherwise
the bundle is built in a temporary folder and removed afterwards. The bundle
runs from an empty working folder with no display, no ``SOTTOVOCE_*``
settings and, where Linux allows an unprivileged network namespace, no
network at all; its self-test refuses internet access in any case.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from app.selftest import CHECKS

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]

ROOT = Path(__file__).resolve().parents[2]
#: Never in the bundle: the training stack and what only it pulls in.
EXCLUDED = (
    "torch",
    "transformers",
    "sentence_transformers",
    "presidio_evaluator",
    "matplotlib",
    "pandas",
    "scipy",
    "training",
)


def load_builder() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "sottovoce_bundle_build", ROOT / "installers" / "build.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    builder = load_builder()
    fresh = ROOT / "dist" / builder.NAME
    if builder.is_current(fresh):
        yield {"path": fresh, "built": False, "info": builder.read_info(fresh)}
        return
    tmp = tmp_path_factory.mktemp("bundle")
    info = builder.build(tmp / "dist", tmp / "work")
    yield {"path": tmp / "dist" / builder.NAME, "built": True, "info": info}
    shutil.rmtree(tmp, ignore_errors=True)  # half a gigabyte


def executable(folder: Path) -> Path:
    return Path(load_builder().program(folder))


def isolated_env(home: Path) -> dict[str, str]:
    """No display, no settings of ours, no Python paths into the source tree."""
    drop = {"DISPLAY", "WAYLAND_DISPLAY", "PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV"}
    env = {k: v for k, v in os.environ.items() if k not in drop and not k.startswith("SOTTOVOCE_")}
    env.update(QT_QPA_PLATFORM="offscreen", SOTTOVOCE_HOME=str(home / "sottovoce"), HOME=str(home))
    return env


def no_network_prefix() -> list[str]:
    """``unshare -rn`` (a network namespace with no interface up) where the kernel allows it."""
    if sys.platform.startswith("linux") and shutil.which("unshare"):
        probe = subprocess.run(["unshare", "-rn", "true"], capture_output=True)
        if probe.returncode == 0:
            return ["unshare", "-rn"]
    return []


def run_bundle(
    folder: Path,
    home: Path,
    *args: str,
    offline: bool = True,
    stdin: str | None = None,
    env: dict[str, str] | None = None,
) -> tuple[subprocess.CompletedProcess[str], float]:
    home.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    proc = subprocess.run(
        [*(no_network_prefix() if offline else []), str(executable(folder)), *args],
        cwd=home,  # not the source tree: nothing may be found there by accident
        env={**isolated_env(home), **(env or {})},
        input=stdin,
        capture_output=True,
        text=True,
        timeout=600,
    )
    return proc, time.perf_counter() - start


def report(capsys: pytest.CaptureFixture[str], text: str) -> None:
    with capsys.disabled():
        print(f"\n[bundle] {text}", flush=True)


def test_bundle_self_test_passes_headless_and_offline(
    bundle: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder: Path = bundle["path"]
    builder = load_builder()
    size_mb = builder.disk_usage(folder) / 1e6
    if bundle["built"]:
        report(capsys, f"built in {bundle['info']['build_seconds']} s")
    else:
        report(capsys, f"reused {folder} (commit {str(bundle['info'].get('commit'))[:10]})")

    help_proc, help_s = run_bundle(folder, tmp_path / "help", "--help")
    assert help_proc.returncode == 0, help_proc.stderr
    assert "--self-test" in help_proc.stdout

    proc, selftest_s = run_bundle(folder, tmp_path / "selftest", "--self-test")
    out = proc.stdout
    assert proc.returncode == 0, out + proc.stderr
    assert "(bundle," in out
    for check in CHECKS:
        assert f"  ok    {check.name}" in out, out
    shipped = sorted(p.parent.name for p in (ROOT / "models").glob("*/manifest.json"))
    assert "shipped and verified: " + (", ".join(shipped) or "none") in out
    assert "network: no connection attempted" in out
    assert "self-test passed" in out
    assert "Traceback" not in proc.stderr and "Exception ignored" not in proc.stderr, proc.stderr
    report(
        capsys,
        f"size on disk {size_mb:.0f} MB; start-up (--help) {help_s:.2f} s; "
        f"self-test {selftest_s:.1f} s wall\n{out.rstrip()}",
    )


def test_bundle_leaves_out_the_training_stack(bundle: dict[str, Any]) -> None:
    from PyInstaller.archive.readers import CArchiveReader

    folder: Path = bundle["path"]
    archive = CArchiveReader(str(executable(folder)))
    modules: set[str] = set()
    for name, (*_, typecode) in archive.toc.items():
        if typecode == "z":  # the PYZ of pure-Python modules
            modules |= set(archive.open_embedded_archive(name).toc)
    assert "app.selftest" in modules and "core.segment" in modules
    bundled = {m.split(".")[0] for m in modules}
    bundled |= {p.name for p in (folder / "_internal").iterdir()}
    assert not bundled & set(EXCLUDED)
    # Only English spaCy language data (and the shared tables).
    langs = {m.split(".")[2] for m in modules if m.startswith("spacy.lang.") and m.count(".") >= 2}
    assert "en" in langs and "de" not in langs and "fr" not in langs


def test_bundle_answers_through_its_demo_cloud(bundle: dict[str, Any], tmp_path: Path) -> None:
    """A whole turn: the bundle starts a second copy of itself as the loopback demo cloud."""
    home = tmp_path / "demo"
    # No keyring here: the store is created with a passphrase.
    secret = {"SOTTOVOCE_PASSPHRASE": "bundle test passphrase"}
    question = "How should I structure the agenda of a team meeting?"
    proc, _ = run_bundle(
        bundle["path"], home, "ask", "--demo-cloud", "--yes", "--no-local", "-",
        offline=False,  # loopback only: the demo cloud listens on 127.0.0.1
        stdin=question, env=secret,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    answer = proc.stdout.split("Answer:", 1)[1]
    assert answer.strip()
    ledger, _ = run_bundle(bundle["path"], home, "ledger", "--json", env=secret)
    assert ledger.returncode == 0, ledger.stderr
    assert question in ledger.stdout  # the request that left, verbatim
