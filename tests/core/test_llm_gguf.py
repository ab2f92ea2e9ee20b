"""Checking GGUF files before llama.cpp sees them."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from core.errors import ModelLoadError
from core.llm.gguf_file import GGUFError, read_gguf
from core.llm.local import embedded_model_path


@pytest.fixture(scope="module")
def real() -> Path:
    return embedded_model_path()


@pytest.fixture(scope="module")
def header(real: Path) -> bytes:
    info = read_gguf(real)
    with real.open("rb") as fh:
        return fh.read(info.data_offset)


def test_the_embedded_model_is_a_complete_llama_gguf(real: Path) -> None:
    info = read_gguf(real)
    assert info.version == 3
    assert info.architecture == "llama"
    assert len(info.tensors) == 272
    assert info.data_offset + info.tensor_bytes == info.file_size
    assert info.context_length == 8192
    assert info.chat_template and "message" in info.chat_template


def _write(tmp: Path, name: str, data: bytes, size: int | None = None) -> Path:
    p = tmp / name
    with p.open("wb") as fh:
        fh.write(data)
        if size is not None:
            fh.truncate(size)  # sparse: cheap "weights" of zeros
    return p


def _patch(data: bytes, key: bytes, fmt: str, value: int, skip: int = 0) -> bytes:
    """Replace the scalar that follows metadata ``key`` (after its u32 type)."""
    i = data.index(key) + len(key) + 4 + skip
    out = bytearray(data)
    struct.pack_into(fmt, out, i, value)
    return bytes(out)


def test_a_header_with_all_its_weights_passes(tmp_path: Path, real: Path, header: bytes) -> None:
    p = _write(tmp_path, "ok.gguf", header, size=real.stat().st_size)
    assert read_gguf(p).architecture == "llama"


CASES = [
    ("missing", None, "does not exist"),
    ("empty", b"", "empty"),
    ("short", b"GGUF\x03\x00", "too short"),
    ("text", b"This is a text file, not a model at all.\n" * 4, "not a GGUF"),
    ("safetensors", b"\x40\x00\x00\x00\x00\x00\x00\x00" + b"{}" * 40, "not a GGUF"),
]


@pytest.mark.parametrize(("name", "data", "words"), CASES, ids=[c[0] for c in CASES])
def test_files_that_are_not_gguf_models_get_a_clear_error(
    tmp_path: Path, name: str, data: bytes | None, words: str
) -> None:
    p = tmp_path / f"{name}.gguf"
    if data is not None:
        p.write_bytes(data)
    with pytest.raises(GGUFError) as info:
        read_gguf(p)
    assert isinstance(info.value, ModelLoadError)
    assert words in info.value.message
    assert p.name in info.value.message


def test_a_directory_is_not_a_model(tmp_path: Path) -> None:
    with pytest.raises(GGUFError, match="not a file"):
        read_gguf(tmp_path)


@pytest.mark.parametrize("cut", [10, 30, 1000, 100_000, 1_700_000])
def test_a_header_cut_short_is_reported_as_truncated(
    tmp_path: Path, header: bytes, cut: int
) -> None:
    p = _write(tmp_path, "cut.gguf", header[:cut])
    with pytest.raises(GGUFError, match=r"truncated|too short"):
        read_gguf(p)


def test_missing_weights_are_reported(tmp_path: Path, real: Path, header: bytes) -> None:
    p = _write(tmp_path, "noweights.gguf", header, size=real.stat().st_size - 4096)
    with pytest.raises(GGUFError, match="truncated: its weights need"):
        read_gguf(p)


@pytest.mark.parametrize(
    ("mutate", "words"),
    [
        (lambda d: d[:4] + struct.pack("<I", 99) + d[8:], "unsupported GGUF version 99"),
        (lambda d: d[:4] + struct.pack(">I", 3) + d[8:], "big-endian"),
        (lambda d: d[:8] + struct.pack("<Q", 2**40) + d[16:], "implausible"),
        (
            lambda d: _patch(d, b"llama.block_count", "<I", 77, skip=-4),
            "unknown metadata value type",
        ),
        (
            lambda d: _patch(d, b"token_embd.weight", "<I", 9, skip=-4),
            "dimensions",
        ),
    ],
    ids=["version", "big-endian", "counts", "value-type", "dims"],
)
def test_corrupt_headers_are_reported(
    tmp_path: Path, real: Path, header: bytes, mutate, words: str
) -> None:  # type: ignore[no-untyped-def]
    p = _write(tmp_path, "bad.gguf", mutate(header), size=real.stat().st_size)
    with pytest.raises(GGUFError, match=words):
        read_gguf(p)
