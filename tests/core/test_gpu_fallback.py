"""A GPU lost mid-answer: that answer ends with a clear error, the next one runs on the CPU.

The device is simulated: llama.cpp is told offload works (so the model is
placed "on the GPU"; this CPU build of llama.cpp runs it on the CPU anyway)
and its chat call raises part-way, as llama-cpp-python does when
``llama_decode`` fails.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from core.llm import local as local_mod
from core.llm.local import DeviceLost, LocalModel

HELLO = [{"role": "user", "content": "Say hello."}]


@pytest.fixture
def on_gpu(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Offload "supported"; records the arguments of every llama.cpp load."""
    import llama_cpp

    loads: list[dict[str, Any]] = []
    real = llama_cpp.Llama

    def load(**kwargs: Any) -> Any:
        loads.append(kwargs)
        return real(**kwargs)

    monkeypatch.setattr(llama_cpp, "llama_supports_gpu_offload", lambda: True)
    monkeypatch.setattr(llama_cpp, "Llama", load)
    return loads


def _fail_after(model: LocalModel, n: int) -> None:
    """Make the loaded llama stream ``n`` chunks, then fail as a lost device does."""
    real = model.llama.create_chat_completion

    def broken(**kwargs: Any) -> Any:
        if not kwargs.get("stream"):
            raise RuntimeError("llama_decode returned -1")
        inner = real(**kwargs)

        def gen() -> Iterator[Any]:
            for i, chunk in enumerate(inner):
                if i >= n:
                    raise RuntimeError("llama_decode returned -1")
                yield chunk

        return gen()

    model.llama.create_chat_completion = broken


def test_a_device_lost_mid_stream_ends_the_answer_and_the_next_runs_on_the_cpu(
    on_gpu: list[dict[str, Any]],
) -> None:
    with LocalModel(None, n_ctx=512) as model:
        assert model.n_gpu_layers == -1 and model.placement.on_gpu
        _fail_after(model, 3)
        pieces: list[str] = []
        with pytest.raises(DeviceLost) as info:
            for piece in model.stream_chat(HELLO, max_tokens=12, temperature=0.0, seed=0):
                pieces.append(piece)
        assert 0 < len(pieces) <= 3  # what came before the failure was delivered
        assert "stopped during this answer" in info.value.message
        assert "next answer runs on the CPU" in (info.value.hint or "")
        # The next answer reloads the model with no GPU layers and completes.
        reply = model.chat(HELLO, max_tokens=8, temperature=0.0, seed=0)
        assert reply.text.strip()
        assert [k["n_gpu_layers"] for k in on_gpu] == [-1, 0]
        assert model.n_gpu_layers == 0 and model.placement.backend == "CPU"
        assert "failed" in (model.placement.reason or "")
        # And it stays on the CPU: no third load.
        assert "".join(model.stream_chat(HELLO, max_tokens=4, temperature=0.0, seed=0))
        assert len(on_gpu) == 2


def test_a_device_lost_in_a_whole_answer_is_the_same_error(on_gpu: list[dict[str, Any]]) -> None:
    with LocalModel(None, n_ctx=512) as model:
        _fail_after(model, 0)
        with pytest.raises(DeviceLost):
            model.chat(HELLO, max_tokens=4)
        assert model.chat(HELLO, max_tokens=4, temperature=0.0, seed=0).text.strip()
        assert [k["n_gpu_layers"] for k in on_gpu] == [-1, 0]


def test_an_error_on_the_cpu_is_not_taken_for_a_lost_device(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import llama_cpp

    monkeypatch.setattr(llama_cpp, "llama_supports_gpu_offload", lambda: False)
    with LocalModel(None, n_ctx=512) as model:
        assert model.n_gpu_layers == 0
        _fail_after(model, 1)
        with pytest.raises(RuntimeError, match="llama_decode"):
            list(model.stream_chat(HELLO, max_tokens=4))
        assert not model._lost


def test_placement_reads_the_real_registry_of_this_cpu_build() -> None:
    p = local_mod.placement(None, 10**6)
    assert (p.backend, p.n_gpu_layers) == ("CPU", 0) and p.reason
