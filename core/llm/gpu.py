"""GPU offload as the person can see it: the llama.cpp build, layers on the GPU, VRAM.

Three questions, each answered from a source that does not guess:

- Was llama.cpp built with GPU offload? ``llama_supports_gpu_offload()``; the
  backend's name (CUDA, Metal, Vulkan...) comes from llama.cpp's own system
  information line, which lists every backend the build registered.
- How many layers are offloaded? llama.cpp offloads the last
  ``n_gpu_layers`` of the model's ``block_count + 1`` layers (the output layer
  counts as one; ``-1`` means all), so the count follows from the GGUF header
  and the setting, exactly as llama.cpp's own "offloaded N/M layers" line.
- How much VRAM is in use? Only NVIDIA's ``nvidia-smi`` reports it here, per
  device and, where the driver lets it, per process. Elsewhere (Metal, Vulkan)
  it is "unknown", and said so.

When there is no GPU offload the status carries the command that rebuilds
llama-cpp-python for CUDA (Linux, Windows) or Metal (macOS).
"""

from __future__ import annotations

import contextlib
import logging
import os
import platform
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

MIB = 1024**2
#: Backends of llama.cpp that run layers on a GPU (the rest are CPU or network).
GPU_BACKENDS = ("CUDA", "Metal", "Vulkan", "ROCm", "HIP", "SYCL", "MUSA", "CANN", "OpenCL")
_SMI_TIMEOUT_S = 3.0

Runner = Callable[..., "subprocess.CompletedProcess[str]"]


@dataclass(frozen=True)
class LlamaBuild:
    """What the installed llama.cpp can do."""

    offload: bool
    backends: tuple[str, ...]  # as registered, e.g. ("CUDA", "CPU")
    version: str | None

    @property
    def gpu_backend(self) -> str | None:
        for name in self.backends:
            if name in GPU_BACKENDS:
                return name
        return None


@dataclass(frozen=True)
class GpuDevice:
    name: str
    total: int | None  # bytes
    used: int | None
    free: int | None


@dataclass(frozen=True)
class GpuStatus:
    """The GPU offload status of one model under the current settings."""

    build: LlamaBuild
    requested: int | None  # the n_gpu_layers setting (None = automatic)
    n_gpu_layers: int  # what LocalModel passes to llama.cpp
    layers_offloaded: int | None  # None when no model file could be read
    layers_total: int | None
    devices: tuple[GpuDevice, ...] = ()
    vram_used_by_process: int | None = None  # bytes this process holds on the GPU
    rebuild: str | None = None  # a command, when the build has no offload
    model: str | None = None  # which model file the layer counts are for

    def lines(self) -> list[str]:
        """One line per fact, for the self-test, the command line and the settings page."""
        b = self.build
        if b.offload:
            out = [f"llama.cpp: built with GPU offload ({b.gpu_backend or 'GPU'})."]
        else:
            out = ["llama.cpp: built for the CPU only (no GPU offload)."]
        if self.layers_total is not None:
            mode = "automatic" if self.requested is None else f"setting {self.requested}"
            out.append(
                f"Layers on the GPU: {self.layers_offloaded} of {self.layers_total} ({mode})"
                + (f", {self.model}." if self.model else ".")
            )
        for d in self.devices:
            if d.used is not None and d.total is not None:
                out.append(f"GPU {d.name}: {_mib(d.used)} of {_mib(d.total)} in use (all programs).")
            else:
                out.append(f"GPU {d.name}: memory use unknown.")
        if self.vram_used_by_process is not None:
            out.append(f"VRAM used by Sottovoce: {_mib(self.vram_used_by_process)}.")
        elif b.offload:
            out.append("VRAM used by Sottovoce: unknown (no per-process report on this system).")
        if self.rebuild:
            out.append(f"To use a GPU, rebuild llama.cpp: {self.rebuild}")
        return out

    def summary(self) -> str:
        return " ".join(self.lines())


def _mib(n: int) -> str:
    return f"{n / MIB:,.0f} MiB"


# --- the llama.cpp build --------------------------------------------------------------


def parse_backends(system_info: str) -> tuple[str, ...]:
    """Backend names from llama.cpp's system information line.

    Each registered backend appears as ``NAME : FEATURE = 1 | FEATURE = 1 | ``
    (for example ``CUDA : ARCHS = 890 | USE_GRAPHS = 1 | CPU : SSE3 = 1 | ...``).
    """
    names: list[str] = []
    for part in system_info.split("|"):
        if " : " in part:
            name = part.split(" : ", 1)[0].strip()
            if name and name not in names:
                names.append(name)
    return tuple(names)


def llama_build() -> LlamaBuild:
    """The installed llama.cpp's offload support and backends (CPU only when it is missing)."""
    try:
        import llama_cpp
    except ImportError:  # pragma: no cover - a dependency
        return LlamaBuild(False, (), None)
    info = llama_cpp.llama_print_system_info()
    text = info.decode("utf-8", "replace") if isinstance(info, bytes) else str(info)
    return LlamaBuild(
        offload=bool(llama_cpp.llama_supports_gpu_offload()),
        backends=parse_backends(text),
        version=getattr(llama_cpp, "__version__", None),
    )


# --- layers -----------------------------------------------------------------------------


def layers_offloaded(block_count: int, n_gpu_layers: int, offload: bool) -> tuple[int, int]:
    """(layers on the GPU, layers in all) as llama.cpp counts them for this model."""
    total = block_count + 1  # the output layer is offloaded as one more
    if not offload or n_gpu_layers == 0:
        return 0, total
    if n_gpu_layers < 0:
        return total, total
    return min(n_gpu_layers, total), total


# --- VRAM -------------------------------------------------------------------------------


def _run(cmd: Sequence[str], runner: Runner) -> str | None:
    try:
        done = runner(list(cmd), capture_output=True, text=True, timeout=_SMI_TIMEOUT_S, check=False)
    except (OSError, subprocess.SubprocessError) as exc:
        log.debug("%s failed: %s", cmd[0], type(exc).__name__)
        return None
    return done.stdout if done.returncode == 0 else None


def _num(text: str) -> int | None:
    try:
        return int(float(text.strip()) * MIB)
    except ValueError:  # "[N/A]", "[Not Supported]"
        return None


def query_gpus(runner: Runner = subprocess.run, smi: str | None = None) -> tuple[GpuDevice, ...]:
    """NVIDIA GPUs and their memory, from ``nvidia-smi`` (empty when it is not there)."""
    smi = smi or shutil.which("nvidia-smi")
    if not smi:
        return ()
    out = _run(
        [smi, "--query-gpu=name,memory.total,memory.used,memory.free", "--format=csv,noheader,nounits"],
        runner,
    )
    devices: list[GpuDevice] = []
    for line in (out or "").splitlines():
        cols = [c.strip() for c in line.split(",")]
        if len(cols) == 4:
            devices.append(GpuDevice(cols[0], _num(cols[1]), _num(cols[2]), _num(cols[3])))
    return tuple(devices)


def process_vram(
    pid: int | None = None, runner: Runner = subprocess.run, smi: str | None = None
) -> int | None:
    """Bytes of GPU memory held by process ``pid`` (this one by default), or None when unknown.

    Inside containers the driver often hides process ids; then it is unknown,
    not zero.
    """
    smi = smi or shutil.which("nvidia-smi")
    if not smi:
        return None
    pid = os.getpid() if pid is None else pid
    out = _run([smi, "--query-compute-apps=pid,used_memory", "--format=csv,noheader,nounits"], runner)
    if out is None:
        return None
    total: int | None = None
    for line in out.splitlines():
        cols = [c.strip() for c in line.split(",")]
        if len(cols) == 2 and cols[0] == str(pid):
            used = _num(cols[1])
            if used is not None:
                total = (total or 0) + used
    return total


# --- how to rebuild --------------------------------------------------------------------


def rebuild_command(system: str | None = None, machine: str | None = None) -> str:
    """The pip command that rebuilds llama-cpp-python with GPU offload on this platform."""
    system = system or platform.system()
    machine = (machine or platform.machine()).lower()
    python = sys.executable or "python3"
    pip = f'"{python}" -m pip' if " " in python else f"{python} -m pip"
    if system == "Darwin":
        if machine in ("arm64", "aarch64"):
            flags = "-DGGML_METAL=on"
        else:  # Intel Macs have no Metal offload worth having; Vulkan via MoltenVK is fragile
            return "GPU offload needs an Apple-silicon Mac (Metal); Intel Macs run on the CPU."
    else:
        flags = "-DGGML_CUDA=on"
    cmd = f'CMAKE_ARGS="{flags}" {pip} install --force-reinstall --no-cache-dir llama-cpp-python'
    if getattr(sys, "frozen", False):
        # A desktop bundle cannot rebuild its own llama.cpp; the source install can.
        return (
            "this desktop bundle's llama.cpp runs on the CPU; for a GPU, run Sottovoce from "
            f'source and reinstall llama-cpp-python with CMAKE_ARGS="{flags}"'
        )
    if system == "Windows":
        cmd = (
            f'set CMAKE_ARGS={flags} && {pip} install --force-reinstall --no-cache-dir '
            "llama-cpp-python"
        )
    if system != "Darwin":
        cmd += " (NVIDIA CUDA toolkit needed; for AMD or Intel GPUs use -DGGML_VULKAN=on)"
    return cmd


# --- all together -----------------------------------------------------------------------


@dataclass
class Probe:
    """The parts of :func:`gpu_status` that touch the system, replaceable in unit tests."""

    build: Callable[[], LlamaBuild] = llama_build
    gpus: Callable[[], tuple[GpuDevice, ...]] = query_gpus
    vram: Callable[[], int | None] = process_vram


def gpu_status(
    model_path: str | Path | None = None,
    n_gpu_layers: int | None = None,
    *,
    probe: Probe | None = None,
) -> GpuStatus:
    """The GPU status for ``model_path`` (None = the embedded model) under ``n_gpu_layers``.

    ``n_gpu_layers`` is the setting (None = automatic, as :class:`LocalModel`
    chooses it). A model file that cannot be read leaves the layer counts out.
    """
    from core.errors import ModelLoadError
    from core.llm.gguf_file import read_gguf
    from core.llm.local import embedded_model_path

    probe = probe or Probe()
    build = probe.build()
    chosen = n_gpu_layers if n_gpu_layers is not None else (-1 if build.offload else 0)
    offloaded = total = None
    name = None
    with contextlib.suppress(ModelLoadError):
        path = Path(model_path).expanduser() if model_path else embedded_model_path()
        info = read_gguf(path)
        blocks = info.metadata.get(f"{info.architecture}.block_count")
        if isinstance(blocks, int):
            offloaded, total = layers_offloaded(blocks, chosen, build.offload)
            name = path.name
    devices = probe.gpus() if build.offload else ()
    return GpuStatus(
        build=build,
        requested=n_gpu_layers,
        n_gpu_layers=chosen,
        layers_offloaded=offloaded,
        layers_total=total,
        devices=devices,
        vram_used_by_process=probe.vram() if devices else None,
        rebuild=None if build.offload else rebuild_command(),
        model=name,
    )
