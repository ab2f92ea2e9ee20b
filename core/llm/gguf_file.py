"""Checking a GGUF file before llama.cpp sees it.

llama.cpp reports a bad file only as "failed to load model" (and older builds
could abort the process on some malformed headers), so Sottovoce reads the
header itself first: magic, version, every metadata entry, every tensor
description, and whether the tensor data the header promises is really in
the file. A missing, empty, truncated or foreign file then gets an error that
says which of these it is.

The reader walks the header with :mod:`struct` over a memory map and skips
array contents by their length; the ``gguf`` package's ``GGUFReader`` does
the same job but decodes every token string (2.7 s for a 135M model, against
a few tens of milliseconds here). The quantization block sizes still come from
``gguf.constants`` so new tensor types stay known.
"""

from __future__ import annotations

import math
import mmap
import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.errors import ModelLoadError

GGUF_MAGIC = b"GGUF"
SUPPORTED_VERSIONS = (2, 3)
DEFAULT_ALIGNMENT = 32
# GGML_MAX_DIMS in ggml.h; more dims means a corrupt tensor description.
MAX_DIMS = 4
# Sanity bounds: far above any real model, low enough to stop a corrupt count
# from making us loop for minutes.
MAX_TENSORS = 1_000_000
MAX_KV = 1_000_000

# Scalar GGUF value types -> struct format (little-endian).
_SCALARS: dict[int, str] = {
    0: "<B",  # uint8
    1: "<b",  # int8
    2: "<H",  # uint16
    3: "<h",  # int16
    4: "<I",  # uint32
    5: "<i",  # int32
    6: "<f",  # float32
    7: "<?",  # bool
    10: "<Q",  # uint64
    11: "<q",  # int64
    12: "<d",  # float64
}
_STRING, _ARRAY = 8, 9
#: String metadata kept in :attr:`GGUFInfo.metadata` (with every scalar; arrays are skipped).
_KEEP = (
    "general.architecture",
    "general.name",
    "general.alignment",
    "general.size_label",
    "tokenizer.chat_template",
)


class GGUFError(ModelLoadError):
    """A file is not a usable GGUF model (missing, truncated, foreign, corrupt)."""


@dataclass(frozen=True)
class TensorInfo:
    name: str
    shape: tuple[int, ...]
    ggml_type: int
    offset: int  # from the start of the data section
    n_bytes: int | None  # None when the type is unknown to the installed gguf package


@dataclass(frozen=True)
class GGUFInfo:
    """What the header says, after it has been checked against the file."""

    path: Path
    version: int
    file_size: int
    data_offset: int
    tensors: tuple[TensorInfo, ...]
    metadata: dict[str, Any] = field(default_factory=dict)
    context_length: int | None = None

    @property
    def architecture(self) -> str:
        return str(self.metadata.get("general.architecture", "unknown"))

    @property
    def name(self) -> str:
        return str(self.metadata.get("general.name") or self.path.stem)

    @property
    def chat_template(self) -> str | None:
        value = self.metadata.get("tokenizer.chat_template")
        return str(value) if value else None

    @property
    def tensor_bytes(self) -> int:
        return sum(t.n_bytes or 0 for t in self.tensors)

    @property
    def parameter_count(self) -> int:
        """Weights counted from the tensor shapes (exact, unlike a model's name)."""
        return sum(math.prod(t.shape) for t in self.tensors)

    @property
    def size_label(self) -> str | None:
        """``general.size_label`` as the converter wrote it (``135M``, ``8x7B``), if any."""
        value = self.metadata.get("general.size_label")
        return str(value) if value else None


class _Truncated(Exception):
    pass


class _Cursor:
    """Bounds-checked little-endian reads over a buffer."""

    def __init__(self, buf: Any, size: int) -> None:
        self.buf = buf
        self.size = size
        self.pos = 0

    def take(self, fmt: str) -> Any:
        n = struct.calcsize(fmt)
        if self.pos + n > self.size:
            raise _Truncated
        (value,) = struct.unpack_from(fmt, self.buf, self.pos)
        self.pos += n
        return value

    def skip(self, n: int) -> None:
        if n < 0 or self.pos + n > self.size:
            raise _Truncated
        self.pos += n

    def string(self) -> bytes:
        n = self.take("<Q")
        if self.pos + n > self.size:
            raise _Truncated
        out = bytes(self.buf[self.pos : self.pos + n])
        self.pos += n
        return out

    def skip_string(self) -> None:
        self.skip(self.take("<Q"))


def _quant_sizes() -> dict[int, tuple[int, int]]:
    try:
        from gguf.constants import GGML_QUANT_SIZES
    except ImportError:  # pragma: no cover - gguf is a dependency
        return {}
    return {int(k): (int(v[0]), int(v[1])) for k, v in GGML_QUANT_SIZES.items()}


def _value(cur: _Cursor, vtype: int, keep: bool) -> Any:
    if vtype in _SCALARS:
        return cur.take(_SCALARS[vtype])
    if vtype == _STRING:
        if keep:
            return cur.string().decode("utf-8", errors="replace")
        cur.skip_string()
        return None
    if vtype == _ARRAY:
        item_type = cur.take("<I")
        count = cur.take("<Q")
        if item_type in _SCALARS:
            # Fixed-size items: one jump, however long the array.
            cur.skip(count * struct.calcsize(_SCALARS[item_type]))
        elif item_type == _STRING:
            if count > cur.size:
                raise _Truncated
            for _ in range(count):
                cur.skip_string()
        elif item_type == _ARRAY:
            if count > cur.size:
                raise _Truncated
            for _ in range(count):
                _value(cur, _ARRAY, False)
        else:
            raise ValueError(f"unknown array item type {item_type}")
        return None
    raise ValueError(f"unknown metadata value type {vtype}")


def read_gguf(path: str | Path) -> GGUFInfo:
    """Check that ``path`` is a complete GGUF file and return what its header says.

    Raises :class:`GGUFError` (a :class:`~core.errors.ModelLoadError`) with a
    message that names the file and the problem.
    """
    path = Path(path).expanduser()
    if not path.exists():
        raise GGUFError(
            f"The model file {path} does not exist.", hint="choose a GGUF file in Settings"
        )
    if not path.is_file():
        raise GGUFError(f"{path} is not a file.", hint="choose a GGUF file in Settings")
    size = path.stat().st_size
    if size < 24:
        raise GGUFError(
            f"{path.name} is {'empty' if size == 0 else 'too short'}; it is not a GGUF model."
        )
    with path.open("rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as mm:
        if mm[:4] != GGUF_MAGIC:
            raise GGUFError(
                f"{path.name} is not a GGUF model (it does not start with the GGUF signature).",
                hint="llama.cpp needs a .gguf file; convert other formats with llama.cpp's tools",
            )
        try:
            return _parse(path, mm, size)
        except _Truncated as cut:
            detail = (
                cut.args[0]
                if cut.args
                else (f"its header describes more than the file holds ({size:,} bytes)")
            )
            raise GGUFError(
                f"{path.name} is truncated: {detail}.", hint="download or copy the file again"
            ) from None
        except (ValueError, UnicodeDecodeError, OverflowError) as exc:
            raise GGUFError(f"{path.name} is a corrupt GGUF file ({exc}).") from None


def _parse(path: Path, mm: Any, size: int) -> GGUFInfo:
    cur = _Cursor(mm, size)
    cur.skip(4)
    version = cur.take("<I")
    if version not in SUPPORTED_VERSIONS:
        if struct.unpack("<I", struct.pack(">I", version))[0] in SUPPORTED_VERSIONS:
            raise ValueError("big-endian GGUF files cannot be used on this machine")
        raise ValueError(f"unsupported GGUF version {version}")
    n_tensors = cur.take("<Q")
    n_kv = cur.take("<Q")
    if n_tensors > MAX_TENSORS or n_kv > MAX_KV:
        raise ValueError(f"implausible header counts ({n_tensors} tensors, {n_kv} entries)")
    metadata: dict[str, Any] = {}
    for _ in range(n_kv):
        key = cur.string().decode("utf-8")
        vtype = cur.take("<I")
        # Scalars are kept (cheap); of the strings only the few we use.
        value = _value(cur, vtype, key in _KEEP)
        if vtype in _SCALARS or key in _KEEP:
            metadata[key] = value
    alignment = int(metadata.get("general.alignment") or DEFAULT_ALIGNMENT)
    if alignment <= 0 or alignment & (alignment - 1):
        raise ValueError(f"invalid alignment {alignment}")
    sizes = _quant_sizes()
    raw: list[tuple[str, tuple[int, ...], int, int]] = []
    for _ in range(n_tensors):
        name = cur.string().decode("utf-8")
        n_dims = cur.take("<I")
        if not 1 <= n_dims <= MAX_DIMS:
            raise ValueError(f"tensor {name!r} has {n_dims} dimensions")
        shape = tuple(cur.take("<Q") for _ in range(n_dims))
        raw.append((name, shape, cur.take("<I"), cur.take("<Q")))
    data_offset = -(-cur.pos // alignment) * alignment
    tensors: list[TensorInfo] = []
    data_end = data_offset
    for name, shape, ggml_type, offset in raw:
        n_bytes: int | None = None
        if ggml_type in sizes:
            block, type_size = sizes[ggml_type]
            n_elems = 1
            for d in shape:
                n_elems *= d
            if n_elems % block:
                raise ValueError(f"tensor {name!r} does not fill whole blocks of its type")
            n_bytes = n_elems // block * type_size
        elif sizes:
            raise ValueError(f"tensor {name!r} has unknown type {ggml_type}")
        if offset % alignment:
            raise ValueError(f"tensor {name!r} is not aligned")
        data_end = max(data_end, data_offset + offset + (n_bytes or 0))
        tensors.append(TensorInfo(name, shape, ggml_type, offset, n_bytes))
    if data_end > size:
        raise _Truncated(f"its weights need {data_end:,} bytes but the file holds {size:,}")
    arch = str(metadata.get("general.architecture", ""))
    ctx = metadata.get(f"{arch}.context_length")
    return GGUFInfo(
        path=path,
        version=version,
        file_size=size,
        data_offset=data_offset,
        tensors=tuple(tensors),
        metadata=metadata,
        context_length=ctx if isinstance(ctx, int) else None,
    )
