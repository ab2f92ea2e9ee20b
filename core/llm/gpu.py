"""GPU offload as the person can see it: the llama.cpp build, layers on the GPU, VRAM.

Three questions, each answered from a source that does not guess:

- Was llama.cpp built with GPU offload? ``llama_supports_gpu_offload()``; the
  backend's name (CUDA, Metal, Vulkan...) comes from llama.cpp's own system
  information line, which lists every backend the build registered.
- How many layers are offloaded? llama.cpp offloads the last
  ``n_gpu_layers`` of the model's ``block_count + 1`` layers (the output layer
  counts as one; ``-1`` means all), so the count follows from the GGUF header
  and the setting, exactly as llama.cpp's own "offloaded N/M layers" line.
- Which device, and how much memory is free on it? llama.cpp's own device
  registry (``ggml_backend_dev_*``, read through the library llama-cpp-python
  loaded): each device's backend (Vulkan, Metal, CUDA, CPU), name and free
  and total memory, as llama.cpp itself will use them. Only where that API is
  missing (an older llama.cpp) does ``nvidia-smi`` answer for NVIDIA GPUs.
  The per-process VRAM still comes from ``nvidia-smi`` (nothing else reports
  it); elsewhere it is "unknown", and said so.
- Where do the layers go? :func:`place`: to the GPU device with the most
  free memory when the model fits in it, else to the CPU with one line that
  says why (no GPU backend, no usable device, not enough free memory, offload
  turned off).

llama.cpp's Vulkan backend skips CPU-type Vulkan devices (Mesa's lavapipe,
SwiftShader): they are slower than llama.cpp's own CPU code. Naming one in
``GGML_VK_VISIBLE_DEVICES`` (an index, as ``vulkaninfo --summary`` lists them)
makes llama.cpp use it anyway; the tests and the bundle's self-test do this
to exercise the Vulkan path without a GPU. An index that names no device
makes llama.cpp drop the Vulkan backend (the CPU is used).

When there is no GPU offload the status carries the command that rebuilds
llama-cpp-python for CUDA (Linux, Windows) or Metal (macOS).
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import os
import platform
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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
    #: GPU backends whose library ships beside llama.cpp, registered or not
    #: (a Vulkan backend with no usable device registers nothing).
    compiled: tuple[str, ...] = ()

    @property
    def gpu_backend(self) -> str | None:
        for name in self.backends:
            if name in GPU_BACKENDS:
                return name
        # llama.cpp's system information leaves some backends out (Vulkan does not
        # list itself); a build with offload and one GPU library is that backend.
        if self.offload and self.compiled:
            return self.compiled[0]
        return None


@dataclass(frozen=True)
class GpuDevice:
    name: str
    total: int | None  # bytes
    used: int | None
    free: int | None
    backend: str | None = None  # "Vulkan", "CUDA", "Metal"... (None: from nvidia-smi)


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
    placement: Placement | None = None  # where the layers go, and why

    def lines(self) -> list[str]:
        """One line per fact, for the self-test, the command line and the settings page."""
        b = self.build
        if b.offload:
            out = [f"llama.cpp: built with GPU offload ({b.gpu_backend or 'GPU'})."]
        elif b.compiled:
            out = [
                f"llama.cpp: built with the {', '.join(b.compiled)} backend"
                f"{'s' if len(b.compiled) > 1 else ''} and the CPU; no usable GPU device."
            ]
        else:
            out = ["llama.cpp: built for the CPU only (no GPU offload)."]
        if self.placement is not None:
            out.append(self.placement.line())
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
        compiled=compiled_backends(Path(llama_cpp.__file__).parent / "lib"),
    )


def compiled_backends(lib_dir: Path) -> tuple[str, ...]:
    """The GPU backends whose shared library is in llama-cpp-python's ``lib`` folder."""
    found: list[str] = []
    with contextlib.suppress(OSError):
        names = [p.name.lower() for p in lib_dir.iterdir()]
        for backend in GPU_BACKENDS:
            stem = f"ggml-{backend.lower()}"
            if any(n.startswith((stem + ".", "lib" + stem + ".")) for n in names):
                found.append(backend)
    return tuple(found)


# --- llama.cpp's devices ----------------------------------------------------------------

#: ``enum ggml_backend_dev_type`` (ggml-backend.h).
DEVICE_KINDS = {0: "cpu", 1: "gpu", 2: "igpu", 3: "accel", 4: "meta"}


@dataclass(frozen=True)
class BackendDevice:
    """One device of llama.cpp's registry, as ``ggml_backend_dev_*`` describes it."""

    backend: str  # the registry's name: "Vulkan", "CUDA", "Metal", "CPU"...
    name: str  # "Vulkan0", "CUDA0", "CPU"
    description: str  # "NVIDIA GeForce RTX 4070", "llvmpipe (LLVM 15.0.6, 256 bits)"
    kind: str  # one of DEVICE_KINDS' values
    free: int | None  # bytes
    total: int | None

    @property
    def is_gpu(self) -> bool:
        return self.kind in ("gpu", "igpu")

    def as_gpu(self) -> GpuDevice:
        used = self.total - self.free if self.total is not None and self.free is not None else None
        return GpuDevice(self.description or self.name, self.total, used, self.free, self.backend)


def _ggml_api() -> Any | None:
    """llama.cpp's loaded library with the device API's signatures set, or None without it.

    The ``ggml_backend_*`` symbols live in libggml, which libllama links; a
    symbol looked up through libllama's handle is found there, so this reads
    the very registry llama-cpp-python's models use.
    """
    try:
        from llama_cpp import llama_cpp as low
    except ImportError:  # pragma: no cover - a dependency
        return None
    lib = getattr(low, "_lib", None)
    sigs: dict[str, tuple[list[Any], Any]] = {
        "ggml_backend_dev_count": ([], ctypes.c_size_t),
        "ggml_backend_dev_get": ([ctypes.c_size_t], ctypes.c_void_p),
        "ggml_backend_dev_name": ([ctypes.c_void_p], ctypes.c_char_p),
        "ggml_backend_dev_description": ([ctypes.c_void_p], ctypes.c_char_p),
        "ggml_backend_dev_type": ([ctypes.c_void_p], ctypes.c_int),
        "ggml_backend_dev_backend_reg": ([ctypes.c_void_p], ctypes.c_void_p),
        "ggml_backend_reg_name": ([ctypes.c_void_p], ctypes.c_char_p),
        "ggml_backend_dev_memory": (
            [ctypes.c_void_p, ctypes.POINTER(ctypes.c_size_t), ctypes.POINTER(ctypes.c_size_t)],
            None,
        ),
    }
    try:
        for name, (args, res) in sigs.items():
            fn = getattr(lib, name)
            fn.argtypes = args
            fn.restype = res
    except AttributeError:  # an older llama.cpp without the device registry
        return None
    return lib


def _text(raw: bytes | None) -> str:
    return raw.decode("utf-8", "replace") if raw else ""


def backend_devices() -> tuple[BackendDevice, ...] | None:
    """Every device llama.cpp registered (CPU included), or None when its API is missing."""
    lib = _ggml_api()
    if lib is None:
        return None
    out: list[BackendDevice] = []
    for i in range(int(lib.ggml_backend_dev_count())):
        dev = lib.ggml_backend_dev_get(i)
        if not dev:
            continue
        free, total = ctypes.c_size_t(0), ctypes.c_size_t(0)
        lib.ggml_backend_dev_memory(dev, ctypes.byref(free), ctypes.byref(total))
        reg = lib.ggml_backend_dev_backend_reg(dev)
        out.append(
            BackendDevice(
                backend=_text(lib.ggml_backend_reg_name(reg)) if reg else "",
                name=_text(lib.ggml_backend_dev_name(dev)),
                description=_text(lib.ggml_backend_dev_description(dev)),
                kind=DEVICE_KINDS.get(int(lib.ggml_backend_dev_type(dev)), "other"),
                free=free.value or None,
                total=total.value or None,
            )
        )
    return tuple(out)


def gpu_devices() -> tuple[GpuDevice, ...]:
    """The GPUs llama.cpp can offload to, with their memory; nvidia-smi's where its API is missing."""
    devices = backend_devices()
    if devices is None:
        return query_gpus()
    return tuple(d.as_gpu() for d in devices if d.is_gpu)


# --- where the layers go ----------------------------------------------------------------


@dataclass(frozen=True)
class Placement:
    """Where the model's layers go: a GPU device, or the CPU and the one-line reason why."""

    backend: str  # "Vulkan", "CUDA", "Metal"... or "CPU"
    n_gpu_layers: int  # what LocalModel passes to llama.cpp
    device: GpuDevice | None = None
    reason: str | None = None  # why the CPU (None when a GPU takes the layers)

    @property
    def on_gpu(self) -> bool:
        return self.n_gpu_layers != 0

    def line(self) -> str:
        """The one line the person sees about it."""
        if self.on_gpu:
            where = f"Backend: {self.backend}"
            if self.device is not None:
                where += f" on {self.device.name}"
                if self.device.free is not None and self.device.total is not None:
                    where += f" ({_mib(self.device.free)} free of {_mib(self.device.total)})"
                elif self.device.free is not None:
                    where += f" ({_mib(self.device.free)} free)"
            return where + "."
        return f"Backend: CPU ({self.reason})." if self.reason else "Backend: CPU."


def place(
    requested: int | None,
    need: int | None,
    build: LlamaBuild,
    devices: Sequence[GpuDevice],
) -> Placement:
    """Choose where the layers go.

    ``requested`` is the ``n_gpu_layers`` setting (None = automatic), ``need``
    the bytes the model needs (weights and KV cache; None = unknown),
    ``devices`` the GPUs llama.cpp registered. Automatic: every layer on the
    device with the most free memory when the model fits there (or when its
    free memory is unknown), otherwise the CPU. A setting is obeyed as it is
    (llama.cpp splits the layers itself), except that a build without offload
    runs on the CPU whatever it says.
    """
    if not build.offload:
        if build.compiled:
            names = "/".join(build.compiled)
            hint = (
                "; software Vulkan devices are used only when GGML_VK_VISIBLE_DEVICES names one"
                if "Vulkan" in build.compiled
                else ""
            )
            return Placement("CPU", 0, reason=f"no usable {names} device found{hint}")
        return Placement("CPU", 0, reason="this llama.cpp is built for the CPU only")
    if requested == 0:
        return Placement("CPU", 0, reason="GPU offload is turned off in Settings (GPU layers 0)")
    backend = build.gpu_backend or "GPU"
    best = max(devices, key=lambda d: d.free or 0) if devices else None
    if best is not None and best.backend:
        backend = best.backend
    if requested is not None:
        return Placement(backend, requested, best)
    if best is not None and need is not None and best.free is not None and need > best.free:
        return Placement(
            "CPU",
            0,
            reason=(
                f"{best.name} has {_mib(best.free)} free; the model needs about {_mib(need)}"
            ),
        )
    return Placement(backend, -1, best)


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
    gpus: Callable[[], tuple[GpuDevice, ...]] = gpu_devices
    vram: Callable[[], int | None] = process_vram


def gpu_status(
    model_path: str | Path | None = None,
    n_gpu_layers: int | None = None,
    *,
    n_ctx: int = 4096,
    probe: Probe | None = None,
) -> GpuStatus:
    """The GPU status for ``model_path`` (None = the embedded model) under ``n_gpu_layers``.

    ``n_gpu_layers`` is the setting (None = automatic, as :class:`LocalModel`
    chooses it, with a context of ``n_ctx`` tokens). A model file that cannot
    be read leaves the layer counts out.
    """
    from core.errors import ModelLoadError
    from core.llm.gguf_file import read_gguf
    from core.llm.local import embedded_model_path, memory_needed

    probe = probe or Probe()
    build = probe.build()
    devices = probe.gpus() if build.offload else ()
    info = None
    path = None
    with contextlib.suppress(ModelLoadError):
        path = Path(model_path).expanduser() if model_path else embedded_model_path()
        info = read_gguf(path)
    need = memory_needed(info, n_ctx) if info is not None else None
    placement = place(n_gpu_layers, need, build, devices)
    offloaded = total = None
    name = None
    if info is not None and path is not None:
        blocks = info.metadata.get(f"{info.architecture}.block_count")
        if isinstance(blocks, int):
            offloaded, total = layers_offloaded(blocks, placement.n_gpu_layers, build.offload)
            name = path.name
    no_gpu_backend = not build.offload and not build.compiled
    return GpuStatus(
        build=build,
        requested=n_gpu_layers,
        n_gpu_layers=placement.n_gpu_layers,
        layers_offloaded=offloaded,
        layers_total=total,
        devices=devices,
        vram_used_by_process=probe.vram() if devices else None,
        rebuild=rebuild_command() if no_gpu_backend else None,
        model=name,
        placement=placement,
    )
