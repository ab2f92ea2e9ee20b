"""Local-model speed: the project's LocalModel against bare llama_cpp.Llama, same run.

Both load the same GGUF with the same settings (context, threads, no GPU
layers, seed) and answer the same chat prompts at temperature 0 (so they
write the same tokens), streamed. Pairs alternate the order (A/B, B/A...)
after a warm-up; each pair uses its own prompt so neither side reuses the
other's cached prefix. Printed, one JSON object per line:

- ``local_llm_decode_tokens_per_s``: tokens/s after the first token, median,
  with bare llama_cpp's figure and the ratio (target >= 0.97);
- ``local_llm_time_to_first_token``: ms from the call to the first piece;
- ``local_llm_load``: seconds to load (GGUF check included) and the GGUF check alone.

    python benchmarks/bench_llm.py [--model FILE.gguf] [--pairs 9] [--tokens 96] [--threads 1]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.llm.gguf_file import read_gguf  # noqa: E402
from core.llm.local import LocalModel, embedded_model_path  # noqa: E402

TOPICS = [
    "the water cycle",
    "how bridges carry weight",
    "why the sky is blue",
    "how a bicycle stays upright",
    "the history of paper",
    "how bees make honey",
    "what causes tides",
    "how vaccines train the immune system",
    "the rules of chess",
    "how a refrigerator works",
    "why leaves change colour",
    "how trains switch tracks",
]


def prompt(i: int) -> list[dict[str, str]]:
    return [
        {"role": "system", "content": "You are a patient teacher."},
        {"role": "user", "content": f"Explain {TOPICS[i % len(TOPICS)]} in detail, step by step."},
    ]


def bare_stream(llm: Any, messages: list[dict[str, str]], tokens: int) -> Iterator[str]:
    for chunk in llm.create_chat_completion(
        messages=messages, max_tokens=tokens, temperature=0.0, top_p=0.95, stream=True, seed=0
    ):
        piece = chunk["choices"][0]["delta"].get("content")
        if piece:
            yield piece


def run_once(stream: Callable[[], Iterator[str]]) -> tuple[float, float, int, str]:
    """(ms to first piece, decode tokens/s after it, pieces, text)."""
    t0 = time.perf_counter()
    first = 0.0
    pieces = []
    for piece in stream():
        if not pieces:
            first = time.perf_counter()
        pieces.append(piece)
    end = time.perf_counter()
    n = len(pieces)
    rate = (n - 1) / (end - first) if n > 1 and end > first else 0.0
    return (first - t0) * 1000, rate, n, "".join(pieces)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", help="a GGUF file (default: the embedded SmolLM2)")
    ap.add_argument("--pairs", type=int, default=9, help="A/B pairs after the warm-up")
    ap.add_argument("--tokens", type=int, default=96, help="max tokens per answer")
    ap.add_argument("--threads", type=int, default=1, help="llama.cpp threads (both sides)")
    ap.add_argument("--ctx", type=int, default=2048)
    args = ap.parse_args()

    import llama_cpp

    path = Path(args.model) if args.model else embedded_model_path()
    t = time.perf_counter()
    read_gguf(path)
    check_ms = (time.perf_counter() - t) * 1000
    t = time.perf_counter()
    wrapped = LocalModel(path, n_ctx=args.ctx, n_threads=args.threads, n_gpu_layers=0, seed=0)
    load_wrapped = time.perf_counter() - t
    t = time.perf_counter()
    bare = llama_cpp.Llama(
        model_path=str(path),
        n_ctx=args.ctx,
        n_threads=args.threads,
        n_threads_batch=args.threads,
        n_gpu_layers=0,
        seed=0,
        verbose=False,
    )
    load_bare = time.perf_counter() - t

    def a(i: int) -> Callable[[], Iterator[str]]:
        return lambda: wrapped.stream_chat(
            prompt(i), max_tokens=args.tokens, temperature=0.0, top_p=0.95, seed=0
        )

    def b(i: int) -> Callable[[], Iterator[str]]:
        return lambda: bare_stream(bare, prompt(i), args.tokens)

    run_once(a(len(TOPICS) - 1))  # warm-up, both sides
    run_once(b(len(TOPICS) - 1))
    rates_a, rates_b, ttft_a, ttft_b, ratios = [], [], [], [], []
    same_text = 0
    for i in range(args.pairs):
        order = (("a", a(i)), ("b", b(i))) if i % 2 == 0 else (("b", b(i)), ("a", a(i)))
        got: dict[str, tuple[float, float, int, str]] = {}
        for side, fn in order:
            got[side] = run_once(fn)
        rates_a.append(got["a"][1])
        rates_b.append(got["b"][1])
        ttft_a.append(got["a"][0])
        ttft_b.append(got["b"][0])
        if got["b"][1] > 0:
            ratios.append(got["a"][1] / got["b"][1])
        same_text += got["a"][3] == got["b"][3]

    common = {
        "model": path.name,
        "threads": args.threads,
        "max_tokens": args.tokens,
        "pairs": args.pairs,
        "identical_answers": f"{same_text}/{args.pairs}",
    }
    print(
        json.dumps(
            {
                "name": "local_llm_decode_tokens_per_s",
                "unit": "tokens/s",
                "value": round(statistics.median(rates_a), 2),
                "comparison": {
                    "bare_llama_cpp": round(statistics.median(rates_b), 2),
                    "ratio_median_of_pairs": round(statistics.median(ratios), 4),
                    "target": ">= 0.97",
                },
                **common,
            }
        )
    )
    print(
        json.dumps(
            {
                "name": "local_llm_time_to_first_token",
                "unit": "ms",
                "value": round(statistics.median(ttft_a), 1),
                "comparison": {"bare_llama_cpp": round(statistics.median(ttft_b), 1)},
                **common,
            }
        )
    )
    print(
        json.dumps(
            {
                "name": "local_llm_load",
                "unit": "s",
                "value": round(load_wrapped, 3),
                "comparison": {
                    "bare_llama_cpp": round(load_bare, 3),
                    "gguf_check_ms": round(check_ms, 1),
                },
                "model": path.name,
            }
        )
    )
    wrapped.close()
    bare.close()


if __name__ == "__main__":
    main()
