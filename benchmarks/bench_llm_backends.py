"""Local-model speed on each llama.cpp backend of this build, same run: the GPU against the CPU.

Loads the same GGUF twice, with every layer on the GPU (``n_gpu_layers=-1``)
and with none (``0``), and answers the same prompts at temperature 0,
alternating the two (A/B, B/A...) after a warm-up. Printed, one JSON object
per line: the backend and device llama.cpp chose (``core.llm.gpu``), then for
each side the prompt tokens/s (prompt length over the time to the first
token) and the decode tokens/s (after the first token), medians, and whether
both wrote the same tokens.

Run it with the Vulkan build first on the path and lavapipe named, e.g.:

    PYTHONPATH=build/llama-vulkan/site-0.3.36 GGML_VK_VISIBLE_DEVICES=0 \\
        python benchmarks/bench_llm_backends.py [--model FILE.gguf] [--pairs 3] [--tokens 32]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.llm.local import LocalModel, placement  # noqa: E402

PROMPT = (
    "Explain, in plain words and in a few sentences, how {topic} works, "
    "what can go wrong with it, and what a careful person should check first."
)
TOPICS = ["a water filter", "a bicycle brake", "a smoke alarm", "a pressure cooker", "a thermostat"]


def run(model: LocalModel, topic: str, tokens: int) -> dict[str, Any]:
    llama = model.llama
    prompt = PROMPT.format(topic=topic)
    n_prompt = len(llama.tokenize(prompt.encode()))
    llama.reset()
    start = time.perf_counter()
    first = None
    pieces: list[str] = []
    for chunk in llama.create_completion(prompt, max_tokens=tokens, temperature=0.0, stream=True):
        if first is None:
            first = time.perf_counter()
        pieces.append(chunk["choices"][0]["text"])
    end = time.perf_counter()
    assert first is not None
    return {
        "prompt_tps": n_prompt / (first - start),
        "decode_tps": (len(pieces) - 1) / (end - first) if len(pieces) > 1 else 0.0,
        "text": "".join(pieces),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", help="a GGUF file (default: the embedded SmolLM2)")
    ap.add_argument("--pairs", type=int, default=3)
    ap.add_argument("--tokens", type=int, default=32)
    ap.add_argument("--ctx", type=int, default=1024)
    args = ap.parse_args()
    where = placement(None)
    print(json.dumps({"placement": where.line(), "n_gpu_layers": where.n_gpu_layers}), flush=True)
    if not where.on_gpu:
        print(json.dumps({"skipped": "no GPU device: nothing to compare"}))
        return 0
    models = {
        "gpu": LocalModel(args.model, n_ctx=args.ctx, n_gpu_layers=-1, check_memory=False),
        "cpu": LocalModel(args.model, n_ctx=args.ctx, n_gpu_layers=0),
    }
    results: dict[str, list[dict[str, Any]]] = {k: [] for k in models}
    for model in models.values():
        run(model, "a kettle", 4)  # warm-up
    same = True
    for i in range(args.pairs):
        order = ["gpu", "cpu"] if i % 2 == 0 else ["cpu", "gpu"]
        topic = TOPICS[i % len(TOPICS)]
        out = {name: run(models[name], topic, args.tokens) for name in order}
        same = same and out["gpu"]["text"] == out["cpu"]["text"]
        for name in order:
            results[name].append(out[name])
    summary: dict[str, Any] = {"backend": where.backend, "pairs": args.pairs, "tokens": args.tokens}
    for name, rs in results.items():
        summary[f"{name}_prompt_tokens_per_s"] = round(statistics.median(r["prompt_tps"] for r in rs), 2)
        summary[f"{name}_decode_tokens_per_s"] = round(statistics.median(r["decode_tps"] for r in rs), 2)
    summary["same_tokens"] = same
    print(json.dumps(summary), flush=True)
    for m in models.values():
        m.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
