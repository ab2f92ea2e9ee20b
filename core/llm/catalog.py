"""Recommended GGUF instruct models, what each needs, and whether it fits this machine.

Every entry names one file (a Q4_K_M quantization on Hugging Face), its exact
size in bytes and its sha256. The download (:mod:`core.llm.download`) refuses
a file whose size or hash differs, so the values below decide what may run
on the person's machine; they were not computed here (this project has no
internet) but copied from public sources, each cited next to its entry. An
entry whose hash could not be found in a public source would carry
``sha256=None``, which makes the download stop before its final step until the
person supplies the hash published by the model's author (none does today).

The URLs use the ``main`` revision of each repository: if an author ever
re-uploads a file, the hash check fails with a clear error instead of
installing a different model.

Memory needs are estimates for running the model with ``n_ctx`` tokens of
context: the weights (the file), the KV cache (f16, from the architecture's
layer count and key/value width) and a compute buffer. They are the same
whether the model runs from RAM on the CPU or from VRAM on a GPU with every
layer offloaded.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from enum import StrEnum

from core.errors import InputError

log = logging.getLogger(__name__)

MIB = 1024**2
GIB = 1024**3

# llama.cpp's compute buffer grows with the context and the vocabulary; a
# flat floor plus a share of the weights covers 1B-8B models at 4K context
# (measured figures published for these files are 60-300 MiB).
_COMPUTE_FLOOR = 256 * MIB
_COMPUTE_SHARE = 0.05

_LOCALAI_GALLERY = (
    "mudler/LocalAI, gallery/index.yaml at commit 000fd87711b70f8a5b44621a9fb597c888dd73f8"
)


class UnknownModel(InputError):
    """A model name that is neither in the catalogue nor in the models folder."""


@dataclass(frozen=True)
class CatalogEntry:
    """One recommended model file and what is known about it."""

    name: str  # what the person types: ``sottovoce model add llama-3.2-1b-instruct``
    title: str
    params: str  # parameter count as its authors state it
    quant: str
    repo: str  # Hugging Face repository that holds the file
    filename: str
    size: int  # bytes, exact
    sha256: str | None  # lowercase hex; None = not found in a public source
    license: str
    license_url: str
    context_length: int  # tokens the model was trained for
    n_layers: int  # transformer blocks (llama.cpp offloads n_layers + 1 with the output)
    kv_bytes_per_token: int  # f16 K and V over all layers: 2 * layers * kv_heads * head_dim * 2
    source: str  # where the size and sha256 come from

    @property
    def url(self) -> str:
        return f"https://huggingface.co/{self.repo}/resolve/main/{self.filename}"

    def kv_bytes(self, n_ctx: int) -> int:
        return self.kv_bytes_per_token * min(n_ctx, self.context_length)

    def memory_needed(self, n_ctx: int) -> int:
        """Bytes of RAM (CPU) or VRAM (every layer on the GPU) to run with ``n_ctx`` tokens."""
        compute = max(_COMPUTE_FLOOR, int(self.size * _COMPUTE_SHARE))
        return self.size + self.kv_bytes(n_ctx) + compute


#: Where each entry's size and sha256 come from (see the module's docstring).
_SOURCES = {
    "llama-3.2-1b-instruct": f"sha256: {_LOCALAI_GALLERY} (entry llama-3.2-1b-instruct:q4_k_m); size: the same file pinned at 807,690,656 bytes with this sha256 by several public repositories' model catalogues",
    "qwen2.5-1.5b-instruct": f"sha256: {_LOCALAI_GALLERY} (entry qwen2.5-1.5b-instruct); size: 986,048,768 bytes, with the same sha256, in several public model catalogues (one pins revision 9eadc66189c7641e1ddd226b8267a9119b2ce2d4)",
    "qwen2.5-3b-instruct": "sha256 and size: pinned identically (1,929,903,264 bytes) by several independent public repositories' catalogues, download scripts and benchmark records, one of them with the upstream LFS metadata of revision f302c64a2269a69fb27b2f9473b362f5bb8e78d8; found with a code search of public GitHub repositories",
    "llama-3.2-3b-instruct": f"sha256: {_LOCALAI_GALLERY} (entry llama-3.2-3b-instruct:q4_k_m); size: 2,019,373,920 bytes, with the same sha256, in several public model catalogues",
    "qwen2.5-7b-instruct": "sha256 and size: pinned identically (4,683,074,240 bytes, \"publisher SHA-256\") by several independent public repositories' catalogues and experiment records (one at revision 8911e8a47f92bac19d6f5c64a2e2095bd2f7d031); found with a code search of public GitHub repositories",
    "llama-3.1-8b-instruct": "sha256 and size: pinned identically (4,920,739,232 bytes) by several independent public repositories' catalogues and scripts, one at revision 4f0c246f125fc7594238ebe7beb1435a8335f519 and one recording that the upstream X-Linked-Size matched; found with a code search of public GitHub repositories",
}

_LLAMA_3_1 = ("Llama 3.1 Community License", "https://www.llama.com/llama3_1/license/")
_LLAMA_3_2 = ("Llama 3.2 Community License", "https://www.llama.com/llama3_2/license/")


def _qwen(size: str, license: str = "Apache-2.0") -> tuple[str, str]:
    return license, f"https://huggingface.co/Qwen/Qwen2.5-{size}-Instruct/blob/main/LICENSE"


def _entry(
    name: str,
    title: str,
    params: str,
    shape: tuple[int, int, int, int],
    licence: tuple[str, str],
    repo: str,
    filename: str,
    size: int,
    sha256: str | None,
) -> CatalogEntry:
    """One row of :data:`CATALOG`; ``shape`` is (layers, KV heads, head width, trained context)."""
    layers, kv_heads, head_dim, context = shape
    return CatalogEntry(
        name=name,
        title=title,
        params=params,
        quant="Q4_K_M",
        repo=repo,
        filename=filename,
        size=size,
        sha256=sha256,
        license=licence[0],
        license_url=licence[1],
        context_length=context,
        n_layers=layers,
        kv_bytes_per_token=2 * layers * kv_heads * head_dim * 2,  # f16 K and V
        source=_SOURCES[name],
    )


#: The recommended models, smallest first, one row each: name, title, parameters, shape
#: (layers, KV heads, head width, trained context), licence, repository, file, bytes, sha256.
CATALOG: tuple[CatalogEntry, ...] = (
    _entry("llama-3.2-1b-instruct", "Llama 3.2 1B Instruct", "1.24B", (16, 8, 64, 131_072), _LLAMA_3_2, "hugging-quants/Llama-3.2-1B-Instruct-Q4_K_M-GGUF", "llama-3.2-1b-instruct-q4_k_m.gguf", 807_690_656, "1d0e9419ec4e12aef73ccf4ffd122703e94c48344a96bc7c5f0f2772c2152ce3"),
    _entry("qwen2.5-1.5b-instruct", "Qwen2.5 1.5B Instruct", "1.54B", (28, 2, 128, 32_768), _qwen("1.5B"), "bartowski/Qwen2.5-1.5B-Instruct-GGUF", "Qwen2.5-1.5B-Instruct-Q4_K_M.gguf", 986_048_768, "1adf0b11065d8ad2e8123ea110d1ec956dab4ab038eab665614adba04b6c3370"),
    # Unlike the 1.5B and 7B models, the 3B is not Apache-2.0.
    _entry("qwen2.5-3b-instruct", "Qwen2.5 3B Instruct", "3.09B", (36, 2, 128, 32_768), _qwen("3B", "Qwen Research License (non-commercial)"), "bartowski/Qwen2.5-3B-Instruct-GGUF", "Qwen2.5-3B-Instruct-Q4_K_M.gguf", 1_929_903_264, "9c9f56a391a3abbd5b89d0245bf6106081bcc3173119d4229235dd9d23253f94"),
    _entry("llama-3.2-3b-instruct", "Llama 3.2 3B Instruct", "3.21B", (28, 8, 128, 131_072), _LLAMA_3_2, "hugging-quants/Llama-3.2-3B-Instruct-Q4_K_M-GGUF", "llama-3.2-3b-instruct-q4_k_m.gguf", 2_019_373_920, "c55a83bfb6396799337853ca69918a0b9bbb2917621078c34570bc17d20fd7a1"),
    _entry("qwen2.5-7b-instruct", "Qwen2.5 7B Instruct", "7.62B", (28, 4, 128, 32_768), _qwen("7B"), "bartowski/Qwen2.5-7B-Instruct-GGUF", "Qwen2.5-7B-Instruct-Q4_K_M.gguf", 4_683_074_240, "65b8fcd92af6b4fefa935c625d1ac27ea29dcb6ee14589c55a8f115ceaaa1423"),
    _entry("llama-3.1-8b-instruct", "Llama 3.1 8B Instruct", "8.03B", (32, 8, 128, 131_072), _LLAMA_3_1, "bartowski/Meta-Llama-3.1-8B-Instruct-GGUF", "Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf", 4_920_739_232, "7b064f5842bf9532c91456deda288a1b672397a54fa729aa665952863033557c"),
)


def find(name: str) -> CatalogEntry:
    """The catalogue entry called ``name`` (case-insensitive; the file name works too)."""
    key = name.strip().lower()
    for entry in CATALOG:
        if key in (entry.name, entry.filename.lower()):
            return entry
    raise UnknownModel(
        f"“{name}” is not in the catalogue of recommended models.",
        hint="`sottovoce model list` shows the catalogue; `sottovoce model add URL` takes any "
        "GGUF URL",
    )


def by_url(url: str) -> CatalogEntry | None:
    """The entry whose download URL is ``url``, if any (so a pasted URL gets its hash)."""
    clean = url.strip().split("?", 1)[0]
    for entry in CATALOG:
        if clean == entry.url:
            return entry
    return None


# --- does it fit ---------------------------------------------------------------------


@dataclass(frozen=True)
class Machine:
    """What this machine offers a model: GPU offload, VRAM, free RAM (None = unknown)."""

    gpu_offload: bool
    gpu_backend: str | None  # "CUDA", "Metal", "Vulkan"...
    vram_free: int | None
    ram_free: int | None

    @property
    def unified_memory(self) -> bool:
        """Apple GPUs share the system RAM: VRAM is RAM there."""
        return self.gpu_backend == "Metal"


class Where(StrEnum):
    GPU = "gpu"  # every layer fits in the GPU's free memory
    CPU = "cpu"  # runs from RAM on the CPU
    TOO_LARGE = "too_large"  # neither the GPU nor the free RAM holds it
    UNKNOWN = "unknown"  # free memory could not be read on this system


@dataclass(frozen=True)
class Fit:
    """Whether a model fits this machine, and a sentence saying why."""

    where: Where
    needed: int
    reason: str

    @property
    def fits(self) -> bool | None:
        if self.where is Where.UNKNOWN:
            return None
        return self.where is not Where.TOO_LARGE


def _gib(n: int) -> str:
    return f"{n / GIB:.1f} GiB"


def assess(needed: int, machine: Machine) -> Fit:
    """Where a model needing ``needed`` bytes would run on ``machine``."""
    if machine.gpu_offload:
        vram = machine.vram_free
        if vram is None and machine.unified_memory:
            vram = machine.ram_free
        if vram is not None and needed <= vram:
            return Fit(Where.GPU, needed, f"fits the GPU ({_gib(needed)} of {_gib(vram)} free)")
    if machine.ram_free is None:
        return Fit(Where.UNKNOWN, needed, f"needs about {_gib(needed)}; free memory unknown here")
    if needed <= machine.ram_free:
        on_gpu = "" if not machine.gpu_offload else "; too large for the GPU's free memory"
        return Fit(
            Where.CPU,
            needed,
            f"runs on the CPU ({_gib(needed)} of {_gib(machine.ram_free)} free RAM){on_gpu}",
        )
    return Fit(
        Where.TOO_LARGE,
        needed,
        f"needs about {_gib(needed)}; only {_gib(machine.ram_free)} of RAM is free",
    )


def probe_machine() -> Machine:
    """This machine, now: llama.cpp's GPU offload, free VRAM (llama.cpp's devices), free RAM."""
    from core.llm.gpu import gpu_devices, llama_build
    from core.llm.local import available_memory

    build = llama_build()
    devices = gpu_devices() if build.offload else ()
    free = [d.free for d in devices if d.free is not None]
    return Machine(
        gpu_offload=build.offload,
        gpu_backend=build.gpu_backend,
        vram_free=max(free) if free else None,
        ram_free=available_memory(),
    )
