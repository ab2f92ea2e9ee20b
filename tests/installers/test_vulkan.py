"""llama.cpp's Vulkan backend in the bundle, exercised without a GPU through Mesa's lavapipe.

lavapipe is a CPU-type Vulkan device, which llama.cpp skips unless
``GGML_VK_VISIBLE_DEVICES`` names it; with ``VK_ICD_FILENAMES`` pointing at
its driver alone it is device 0. Three ways the bundle meets Vulkan:

* lavapipe named: the self-test reports the Vulkan device, offloads every
  layer and writes the same greedy answer as the CPU;
* lavapipe not named (a machine whose only Vulkan device is a software one):
  the CPU, with the reason in one line;
* no Vulkan driver at all: the CPU, with the reason in one line.

They need Linux, Mesa's lavapipe driver (Debian: ``mesa-vulkan-drivers``) and
the Vulkan build of llama-cpp-python (``make bundle GPU=vulkan`` compiles it
once into ``build/llama-vulkan/``; it takes long, so the tests compile it
themselves only when ``SOTTOVOCE_BUILD_VULKAN=1``, as ``.ci/run`` sets it with
``SOTTOVOCE_CI_VULKAN=1``). Without them every test here is skipped and says
which is missing.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.installers.test_bundle import load_builder, run_bundle

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]

ROOT = Path(__file__).resolve().parents[2]
ICD_DIRS = (Path("/usr/share/vulkan/icd.d"), Path("/etc/vulkan/icd.d"))


def lavapipe_icd() -> Path | None:
    for folder in ICD_DIRS:
        found = sorted(folder.glob("lvp_icd*.json"))
        if found:
            return found[0]
    return None


def missing() -> str | None:
    """Why these tests cannot run here, or None."""
    if not sys.platform.startswith("linux"):
        return "the lavapipe tests run on Linux"
    if lavapipe_icd() is None:
        return "Mesa's lavapipe Vulkan driver is not installed (apt-get install mesa-vulkan-drivers)"
    if load_builder().llama_available("vulkan"):
        return None
    if os.environ.get("SOTTOVOCE_BUILD_VULKAN") != "1":
        return (
            "no Vulkan build of llama-cpp-python in build/llama-vulkan/ "
            "(make bundle GPU=vulkan compiles it once, or set SOTTOVOCE_BUILD_VULKAN=1)"
        )
    if not shutil.which("glslc") or not Path("/usr/include/vulkan/vulkan.h").is_file():
        return "SOTTOVOCE_BUILD_VULKAN=1 but glslc or the Vulkan headers are missing (libvulkan-dev glslc)"
    return None


def lavapipe_env(visible: bool) -> dict[str, str]:
    env = {"VK_ICD_FILENAMES": str(lavapipe_icd())}
    if visible:
        env["GGML_VK_VISIBLE_DEVICES"] = "0"
    return env


#: VK_ICD_FILENAMES naming a file that does not exist: the Vulkan loader finds no driver.
NO_DRIVER = {"VK_ICD_FILENAMES": "/nonexistent/vulkan_icd.json"}


@pytest.fixture(scope="module")
def vulkan_site() -> Path:
    reason = missing()
    if reason:
        pytest.skip(reason)
    site = load_builder().ensure_llama("vulkan")
    assert site is not None
    return site


def source_probe(site: Path, env: dict[str, str]) -> dict[str, Any]:
    """core.llm.gpu's view, from the source tree with the Vulkan llama_cpp first on the path."""
    code = (
        "import json, dataclasses; from core.llm import gpu; from core.llm.local import placement;"
        "devs = gpu.backend_devices() or ();"
        "b = gpu.llama_build(); p = placement(None, 10**8);"
        "print(json.dumps({'devices': [dataclasses.asdict(d) for d in devs], 'offload': b.offload,"
        " 'compiled': b.compiled, 'backend': p.backend, 'layers': p.n_gpu_layers, 'line': p.line()}))"
    )
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("VK_", "GGML_VK_"))}
    proc = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**clean, "PYTHONPATH": f"{site}{os.pathsep}{ROOT}", **env},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    return dict(json.loads(proc.stdout.strip().splitlines()[-1]))


def test_the_vulkan_build_lists_lavapipe_with_its_memory_when_it_is_named(vulkan_site: Path) -> None:
    seen = source_probe(vulkan_site, lavapipe_env(visible=True))
    vulkan = [d for d in seen["devices"] if d["backend"] == "Vulkan"]
    assert len(vulkan) == 1, seen
    dev = vulkan[0]
    assert dev["description"].startswith("llvmpipe") and dev["kind"] in ("gpu", "igpu")
    assert dev["free"] and dev["total"] and dev["free"] <= dev["total"]
    assert seen["offload"] is True and "Vulkan" in seen["compiled"]
    assert (seen["backend"], seen["layers"]) == ("Vulkan", -1)
    assert seen["line"].startswith("Backend: Vulkan on llvmpipe")


@pytest.mark.parametrize(
    "env", [lavapipe_env(visible=False), NO_DRIVER], ids=["software-device-skipped", "no-driver"]
)
def test_without_a_usable_vulkan_device_the_cpu_is_used_and_said(
    vulkan_site: Path, env: dict[str, str]
) -> None:
    seen = source_probe(vulkan_site, env)
    assert not [d for d in seen["devices"] if d["backend"] == "Vulkan"]
    assert seen["offload"] is False and seen["compiled"] == ["Vulkan"]
    assert (seen["backend"], seen["layers"]) == ("CPU", 0)
    assert seen["line"].startswith("Backend: CPU (no usable Vulkan device found;")


# --- the bundle -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def vulkan_bundle(vulkan_site: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    builder = load_builder()
    fresh = ROOT / "dist" / builder.NAME
    if builder.is_current(fresh, llama="vulkan"):
        yield fresh
        return
    tmp = tmp_path_factory.mktemp("vulkan-bundle")
    builder.build(tmp / "dist", tmp / "work", llama="vulkan")
    yield tmp / "dist" / builder.NAME
    shutil.rmtree(tmp, ignore_errors=True)


def _gpu_line(out: str) -> str:
    return next(line for line in out.splitlines() if "  gpu offload  " in line)


def test_the_bundle_carries_the_vulkan_backend_and_the_vulkan_loader(vulkan_bundle: Path) -> None:
    names = {p.name for p in (vulkan_bundle / "_internal").rglob("*.so*")}
    assert any(n.startswith("libggml-vulkan.so") for n in names), sorted(names)
    assert any(n.startswith("libggml-cpu.so") for n in names)
    assert (load_builder().read_info(vulkan_bundle) or {}).get("llama") == "vulkan"


def test_the_bundle_self_test_offloads_to_lavapipe_and_matches_the_cpu(
    vulkan_bundle: Path, tmp_path: Path
) -> None:
    proc, _ = run_bundle(vulkan_bundle, tmp_path / "home", "--self-test", env=lavapipe_env(visible=True))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    line = _gpu_line(proc.stdout)
    assert "Backend: Vulkan on llvmpipe" in line and "MiB free of" in line, line
    assert "Layers on the GPU: 31 of 31" in line, line
    assert "greedy answer on Vulkan = CPU" in line, line


@pytest.mark.parametrize(
    "env", [lavapipe_env(visible=False), NO_DRIVER], ids=["software-device-skipped", "no-driver"]
)
def test_the_bundle_self_test_falls_back_to_the_cpu_and_passes(
    vulkan_bundle: Path, tmp_path: Path, env: dict[str, str]
) -> None:
    proc, _ = run_bundle(vulkan_bundle, tmp_path / "home", "--self-test", env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    line = _gpu_line(proc.stdout)
    assert "Backend: CPU (no usable Vulkan device found;" in line, line
    assert "Layers on the GPU: 0 of 31" in line and "rebuild" not in line, line
