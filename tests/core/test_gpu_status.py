"""GPU offload status: the CPU build of this machine for real; GPU builds, nvidia-smi
and the per-process VRAM through fakes of one function each."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

from core.llm import gpu
from core.llm.gpu import GpuDevice, LlamaBuild, Probe, gpu_status
from core.llm.local import auto_gpu_layers, embedded_model_path

MIB = 2**20
# Lines as llama.cpp builds print them (llama_print_system_info).
CPU_INFO = "CPU : SSE3 = 1 | SSSE3 = 1 | AVX = 1 | AVX2 = 1 | F16C = 1 | FMA = 1 | OPENMP = 1 | REPACK = 1 | "
CUDA_INFO = "CUDA : ARCHS = 900 | USE_GRAPHS = 1 | PEER_MAX_BATCH_SIZE = 128 | " + CPU_INFO
METAL_INFO = "Metal : EMBED_LIBRARY = 1 | BF16 = 1 | CPU : NEON = 1 | ARM_FMA = 1 | ACCELERATE = 1 | "


@pytest.mark.parametrize(
    ("info", "backends", "gpu_backend"),
    [(CPU_INFO, ("CPU",), None), (CUDA_INFO, ("CUDA", "CPU"), "CUDA"), (METAL_INFO, ("Metal", "CPU"), "Metal")],
    ids=["cpu", "cuda", "metal"],
)
def test_backends_are_read_from_llama_cpps_system_info(info: str, backends: tuple[str, ...], gpu_backend: str | None) -> None:
    assert gpu.parse_backends(info) == backends
    assert LlamaBuild(gpu_backend is not None, backends, None).gpu_backend == gpu_backend


def test_this_machines_llama_cpp_is_a_cpu_build() -> None:
    build = gpu.llama_build()
    assert build.offload is False and "CPU" in build.backends and build.gpu_backend is None
    assert build.version


@pytest.mark.parametrize(
    ("blocks", "n_gpu_layers", "offload", "expected"),
    [
        (30, -1, True, (31, 31)),  # all, the output layer included (llama.cpp's "31/31")
        (30, 10, True, (10, 31)),
        (30, 99, True, (31, 31)),
        (30, 0, True, (0, 31)),
        (30, -1, False, (0, 31)),  # a CPU build offloads nothing whatever the setting
        (32, 33, True, (33, 33)),
    ],
)
def test_layers_offloaded_are_counted_as_llama_cpp_does(
    blocks: int, n_gpu_layers: int, offload: bool, expected: tuple[int, int]
) -> None:
    assert gpu.layers_offloaded(blocks, n_gpu_layers, offload) == expected


def test_the_cpu_status_of_this_machine_for_real() -> None:
    status = gpu_status(None, None)
    assert status.build.offload is False
    assert status.n_gpu_layers == 0 == auto_gpu_layers(None)  # what LocalModel chooses too
    assert (status.layers_offloaded, status.layers_total) == (0, 31)  # SmolLM2: 30 blocks
    assert status.model == embedded_model_path().name
    assert status.devices == () and status.vram_used_by_process is None
    text = status.summary()
    assert "built for the CPU only" in text and "0 of 31" in text
    assert 'CMAKE_ARGS="-DGGML_CUDA=on"' in text and "llama-cpp-python" in text


def test_an_unreadable_model_leaves_the_layer_counts_out(tmp_path: Any) -> None:
    bad = tmp_path / "bad.gguf"
    bad.write_bytes(b"nope")
    status = gpu_status(bad, None)
    assert status.layers_total is None and "Layers" not in status.summary()


def _cuda_probe(devices: tuple[GpuDevice, ...] = (), vram: int | None = None) -> Probe:
    return Probe(
        build=lambda: LlamaBuild(True, ("CUDA", "CPU"), "0.3.36"),
        gpus=lambda: devices,
        vram=lambda: vram,
    )


def test_a_cuda_build_offloads_every_layer_and_reports_vram() -> None:
    h100 = GpuDevice("NVIDIA H100 80GB HBM3", 81559 * MIB, 1200 * MIB, 80359 * MIB)
    status = gpu_status(None, None, probe=_cuda_probe((h100,), 412 * MIB))
    assert (status.n_gpu_layers, status.layers_offloaded, status.layers_total) == (-1, 31, 31)
    assert status.rebuild is None
    lines = status.lines()
    assert lines[0] == "llama.cpp: built with GPU offload (CUDA)."
    assert lines[1] == "Backend: CUDA on NVIDIA H100 80GB HBM3 (80,359 MiB free of 81,559 MiB)."
    assert "Layers on the GPU: 31 of 31 (automatic)" in lines[2]
    assert "GPU NVIDIA H100 80GB HBM3: 1,200 MiB of 81,559 MiB in use (all programs)." in lines
    assert "VRAM used by Sottovoce: 412 MiB." in lines


def test_a_layer_setting_and_unknown_vram_are_said_as_such() -> None:
    status = gpu_status(None, 12, probe=_cuda_probe((GpuDevice("Radeon", None, None, None),), None))
    text = status.summary()
    assert "12 of 31 (setting 12)" in text
    assert "GPU Radeon: memory use unknown." in text
    assert "VRAM used by Sottovoce: unknown" in text


# --- nvidia-smi, faked at the subprocess call ---------------------------------------------------


def fake_run(stdout: str, returncode: int = 0) -> Any:
    calls: list[list[str]] = []

    def run(cmd: list[str], **kw: Any) -> subprocess.CompletedProcess[str]:
        calls.append(cmd)
        assert kw["timeout"] > 0 and kw["check"] is False
        return subprocess.CompletedProcess(cmd, returncode, stdout=stdout, stderr="")

    run.calls = calls  # type: ignore[attr-defined]
    return run


def test_gpus_are_read_from_nvidia_smi() -> None:
    run = fake_run("NVIDIA H100 80GB HBM3, 81559, 1200, 80359\nNVIDIA A10, 23028, [N/A], 23028\n")
    devices = gpu.query_gpus(runner=run, smi="/usr/bin/nvidia-smi")
    assert devices == (
        GpuDevice("NVIDIA H100 80GB HBM3", 81559 * MIB, 1200 * MIB, 80359 * MIB),
        GpuDevice("NVIDIA A10", 23028 * MIB, None, 23028 * MIB),
    )
    assert run.calls[0][1].startswith("--query-gpu=")


def test_no_nvidia_smi_means_no_devices(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gpu.shutil, "which", lambda name: None)
    assert gpu.query_gpus() == () and gpu.process_vram() is None


@pytest.mark.parametrize(
    ("stdout", "code", "expected"),
    [
        ("4242, 412\n777, 100\n", 0, 412 * MIB),
        ("4242, 400\n4242, 12\n", 0, 412 * MIB),  # two contexts of one process
        ("777, 100\n", 0, None),  # containers often hide our pid: unknown, not zero
        ("", 9, None),
    ],
)
def test_the_processs_vram_comes_from_its_own_pid(stdout: str, code: int, expected: int | None) -> None:
    assert gpu.process_vram(4242, runner=fake_run(stdout, code), smi="nvidia-smi") == expected


def test_a_hanging_nvidia_smi_is_cut_short() -> None:
    def run(cmd: list[str], **kw: Any) -> Any:
        raise subprocess.TimeoutExpired(cmd, kw["timeout"])

    assert gpu.query_gpus(runner=run, smi="nvidia-smi") == ()


@pytest.mark.parametrize(
    ("system", "machine", "contains"),
    [
        ("Linux", "x86_64", 'CMAKE_ARGS="-DGGML_CUDA=on"'),
        ("Windows", "AMD64", "set CMAKE_ARGS=-DGGML_CUDA=on"),
        ("Darwin", "arm64", 'CMAKE_ARGS="-DGGML_METAL=on"'),
        ("Darwin", "x86_64", "Apple-silicon"),
    ],
)
def test_the_rebuild_command_fits_the_platform(system: str, machine: str, contains: str) -> None:
    assert contains in gpu.rebuild_command(system, machine)


def test_a_desktop_bundle_is_told_to_run_from_source(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    text = gpu.rebuild_command("Linux", "x86_64")
    assert "desktop bundle" in text and "-DGGML_CUDA=on" in text and "-m pip" not in text


# --- llama.cpp's device registry and where the layers go ---------------------------------------

VULKAN_BUILD = LlamaBuild(True, ("Vulkan", "CPU"), "0.3.36", compiled=("Vulkan",))
VULKAN_NO_DEVICE = LlamaBuild(False, ("CPU",), "0.3.36", compiled=("Vulkan",))
LAVAPIPE = GpuDevice("llvmpipe (LLVM 15.0.6, 256 bits)", 2048 * MIB, 48 * MIB, 2000 * MIB, "Vulkan")


def test_this_machines_device_registry_is_read_from_llama_cpp() -> None:
    devices = gpu.backend_devices()
    assert devices is not None  # llama-cpp-python 0.3 links the device API
    cpu = [d for d in devices if d.backend == "CPU"]
    assert len(cpu) == 1 and cpu[0].kind == "cpu" and not cpu[0].is_gpu and cpu[0].description
    assert gpu.gpu_devices() == tuple(d.as_gpu() for d in devices if d.is_gpu)


def test_the_compiled_backends_are_found_by_their_library_files(tmp_path: Any) -> None:
    for name in ("libggml-vulkan.so", "libggml-cpu.so", "libggml-cudart.so.12", "ggml-metal.dll"):
        (tmp_path / name).write_bytes(b"")
    assert gpu.compiled_backends(tmp_path) == ("Metal", "Vulkan")
    assert gpu.compiled_backends(tmp_path / "missing") == ()


@pytest.mark.parametrize(
    ("requested", "need", "build", "devices", "expected"),
    [
        (None, 100 * MIB, VULKAN_BUILD, (LAVAPIPE,), ("Vulkan", -1, True)),
        (None, None, VULKAN_BUILD, (LAVAPIPE,), ("Vulkan", -1, True)),
        (None, 3000 * MIB, VULKAN_BUILD, (LAVAPIPE,), ("CPU", 0, False)),  # does not fit
        (12, 3000 * MIB, VULKAN_BUILD, (LAVAPIPE,), ("Vulkan", 12, True)),  # a setting is obeyed
        (0, 100 * MIB, VULKAN_BUILD, (LAVAPIPE,), ("CPU", 0, False)),
        (None, 100 * MIB, VULKAN_NO_DEVICE, (), ("CPU", 0, False)),
        (-1, 100 * MIB, LlamaBuild(False, ("CPU",), None), (), ("CPU", 0, False)),
        (None, 100 * MIB, LlamaBuild(True, ("CUDA", "CPU"), None), (), ("CUDA", -1, True)),
    ],
    ids=["fits", "need-unknown", "too-large", "setting", "off", "no-device", "cpu-build", "no-memory-info"],
)
def test_the_layers_go_to_a_device_with_enough_free_memory_or_to_the_cpu(
    requested: int | None,
    need: int | None,
    build: LlamaBuild,
    devices: tuple[GpuDevice, ...],
    expected: tuple[str, int, bool],
) -> None:
    p = gpu.place(requested, need, build, devices)
    assert (p.backend, p.n_gpu_layers, p.on_gpu) == expected
    assert (p.reason is None) == p.on_gpu  # the CPU always says why, in one line
    assert p.line().count("\n") == 0 and p.line().startswith(f"Backend: {p.backend}")


def test_the_device_with_the_most_free_memory_is_chosen() -> None:
    small = GpuDevice("Intel(R) UHD Graphics 770", 4096 * MIB, 3900 * MIB, 196 * MIB, "Vulkan")
    p = gpu.place(None, 150 * MIB, VULKAN_BUILD, (small, LAVAPIPE))
    assert p.device == LAVAPIPE
    assert p.line() == "Backend: Vulkan on llvmpipe (LLVM 15.0.6, 256 bits) (2,000 MiB free of 2,048 MiB)."


def _probe(build: LlamaBuild, devices: tuple[GpuDevice, ...]) -> Probe:
    return Probe(build=lambda: build, gpus=lambda: devices, vram=lambda: None)


def test_a_vulkan_bundle_with_no_usable_device_says_so_in_one_line() -> None:
    status = gpu_status(None, None, probe=_probe(VULKAN_NO_DEVICE, ()))
    lines = status.lines()
    assert lines[0] == "llama.cpp: built with the Vulkan backend and the CPU; no usable GPU device."
    assert lines[1].startswith("Backend: CPU (no usable Vulkan device found;")
    assert "GGML_VK_VISIBLE_DEVICES" in lines[1]
    assert status.rebuild is None and "rebuild" not in status.summary()  # nothing to rebuild
    assert (status.n_gpu_layers, status.layers_offloaded) == (0, 0)


def test_a_model_too_large_for_the_devices_free_memory_runs_on_the_cpu() -> None:
    tiny = GpuDevice("llvmpipe", 64 * MIB, 60 * MIB, 4 * MIB, "Vulkan")
    status = gpu_status(None, None, n_ctx=512, probe=_probe(VULKAN_BUILD, (tiny,)))
    assert (status.n_gpu_layers, status.layers_offloaded, status.layers_total) == (0, 0, 31)
    assert status.lines()[1].startswith("Backend: CPU (llvmpipe has 4 MiB free; the model needs about")


def test_a_vulkan_device_that_holds_the_model_gets_every_layer() -> None:
    status = gpu_status(None, None, n_ctx=512, probe=_probe(VULKAN_BUILD, (LAVAPIPE,)))
    assert (status.n_gpu_layers, status.layers_offloaded, status.layers_total) == (-1, 31, 31)
    assert status.lines()[:2] == [
        "llama.cpp: built with GPU offload (Vulkan).",
        "Backend: Vulkan on llvmpipe (LLVM 15.0.6, 256 bits) (2,000 MiB free of 2,048 MiB).",
    ]
    assert "GPU llvmpipe (LLVM 15.0.6, 256 bits): 48 MiB of 2,048 MiB in use (all programs)." in status.lines()


def test_a_backend_missing_from_the_system_information_is_named_by_its_library() -> None:
    # Vulkan does not list itself in llama_print_system_info().
    assert LlamaBuild(True, ("CPU",), None, compiled=("Vulkan",)).gpu_backend == "Vulkan"
    assert LlamaBuild(False, ("CPU",), None, compiled=("Vulkan",)).gpu_backend is None
