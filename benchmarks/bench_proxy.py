"""What `sottovoce proxy` adds to a call, next to what the privacy pipeline itself costs.

Three ways to get the same answer from the same loopback cloud (a capable
echo model on 127.0.0.1 that uses the placeholders it is given, in a process
of its own), timed query by query, after a warm-up, in a shuffled order:

- ``direct``: the ``openai`` client straight to the cloud with the raw text
  (what an app does without Sottovoce);
- ``pipeline``: the same text as one turn of the :class:`~core.turn.Assistant`
  in this process (a new conversation, segment, detect, route, anonymize,
  the egress guard and its ledger, the same ``openai`` client, restore, save);
- ``proxy``: the ``openai`` client to ``sottovoce proxy``, started as a person
  starts it (a process of its own, the same models and settings), which does
  all of that behind a loopback HTTP server.

The pipeline's own cost is ``pipeline - direct``; the proxy's added latency is
``proxy - direct``. Target (issue 15): p50 of the added latency at most 1.2
times the pipeline's p50 cost plus 5 ms. Then 20 streaming clients at once
through the proxy (errors and latency). Every request streams. Prints one JSON
object per measurement and appends them to ``--out``.

    python benchmarks/bench_proxy.py [--runs 3] [--queries 20] [--clients 20]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TOKEN = "svp-bench"

FIRST = ["Maria", "James", "Wei", "Olga", "Kwame", "Lucia", "Arjun", "Hana", "Pieter", "Ines",
         "Tomasz", "Aiko", "Rafael", "Zainab", "Daniel", "Sofia", "Liam", "Chloe", "Mateo", "Amara"]
LAST = ["Gonzalez", "Whitaker", "Chen", "Petrova", "Mensah", "Rossi", "Sharma", "Kobayashi",
        "Visser", "Almeida", "Nowak", "Tanaka", "Herrera", "Okafor", "Fischer", "Laurent",
        "Murphy", "Dubois", "Silva", "Adeyemi"]  # fmt: skip
TEMPLATES = [
    "Please write a short, friendly reminder to {name} ({email}) about the team meeting on "
    "Thursday. Mention that the agenda covers the budget review and the new hiring plan.",
    "My colleague {name} asked me to review the quarterly report before Friday. You can reach "
    "{first} at {phone}. What should I check first in a report like that?",
    "I need to reply to {name}, who wrote to {email} asking for a refund on an order that "
    "arrived damaged. How do I answer politely and ask for photos of the damage?",
    "What are good questions to ask at a first meeting with a new accountant? I am meeting "
    "{name} next week and want to understand the fees.",
]


def person(i: int) -> dict[str, str]:
    """The synthetic private values of query ``i``."""
    first, last = FIRST[i % len(FIRST)], LAST[(i * 7) % len(LAST)]
    return {
        "name": f"{first} {last}",
        "first": first,
        "email": f"{first.lower()}.{last.lower()}{i}@example.org",
        "phone": f"412-555-{1000 + i:04d}",
    }


def queries(n: int) -> list[str]:
    """Synthetic queries with names, e-mail addresses and phone numbers."""
    return [TEMPLATES[i % len(TEMPLATES)].format(**person(i)) for i in range(n)]


def stream(client: Any, text: str, headers: dict[str, str] | None = None) -> str:
    pieces = []
    for chunk in client.chat.completions.create(
        model="echo-capable",
        messages=[{"role": "user", "content": text}],
        stream=True,
        extra_headers=headers or {},
    ):
        if chunk.choices and chunk.choices[0].delta.content:
            pieces.append(chunk.choices[0].delta.content)
    return "".join(pieces)


def ms(t0: float) -> float:
    return (time.perf_counter() - t0) * 1000


def p(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(q * (len(values) - 1)))]


@contextmanager
def child(
    cmd: list[str],
    ready: str,
    env: dict[str, str] | None = None,
    on_stderr: Callable[[str], None] | None = None,
) -> Iterator[str]:
    """Run ``cmd`` until the block ends; yields the first match of ``ready`` in its output."""
    full = {**{k: v for k, v in os.environ.items() if not k.startswith("SOTTOVOCE_")}, **(env or {})}
    proc = subprocess.Popen(
        cmd,
        cwd=ROOT,
        env=full,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE if on_stderr else subprocess.DEVNULL,
        text=True,
    )
    assert proc.stdout is not None
    if on_stderr is not None:
        assert proc.stderr is not None
        lines = proc.stderr
        threading.Thread(target=lambda: [on_stderr(x) for x in lines], daemon=True).start()
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line and proc.poll() is not None:
                raise SystemExit(f"{cmd[1:4]} ended before it was ready")
            m = re.search(ready, line)
            if m:
                break
        else:
            raise SystemExit(f"{cmd[1:4]} did not get ready in time")
        # Keep reading its output so it never blocks on a full pipe.
        threading.Thread(target=proc.stdout.read, daemon=True).start()
        yield m.group(1)
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def serve_echo() -> int:
    """The loopback cloud, in a process of its own (``--serve-echo``), until interrupted."""
    from tests.integration.echo_cloud import EchoCloud

    with EchoCloud(piece=4) as cloud:
        print(cloud.base_url, flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=3, help="passes over the queries")
    ap.add_argument("--queries", type=int, default=20)
    ap.add_argument("--clients", type=int, default=20, help="concurrent streaming clients")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "bench_proxy.jsonl"))
    ap.add_argument("--serve-echo", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serve_echo:
        return serve_echo()

    home = tempfile.mkdtemp(prefix="sottovoce-bench-proxy-")
    os.environ["SOTTOVOCE_HOME"] = home
    results: list[dict[str, Any]] = []

    def emit(row: dict[str, Any]) -> None:
        row = {"bench": "proxy", **row, "cpus": os.cpu_count(), "loadavg_1m": round(os.getloadavg()[0], 2)}
        results.append(row)
        print(json.dumps(row), flush=True)

    try:
        with child([sys.executable, __file__, "--serve-echo"], r"(http://127\.0\.0\.1:\d+/v1)") as echo_url:
            env = {
                "SOTTOVOCE_HOME": str(Path(home) / "proxy"),
                "SOTTOVOCE_PASSPHRASE": "a benchmark passphrase",
                "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring",
                "SOTTOVOCE_CLOUD_BASE_URL": echo_url,
                "SOTTOVOCE_CLOUD_MODEL": "echo-capable",
                "SOTTOVOCE_CLOUD_MAX_RETRIES": "0",
                "SOTTOVOCE_APPROVAL_POLICY": "never",
                "SOTTOVOCE_CHAT_INTEGRATION": "pass_through",
                "SOTTOVOCE_PROXY_TOKEN": TOKEN,
            }
            # -v: the proxy logs how long it held each request (never its text).
            proxy_cmd = [sys.executable, "-m", "app.main", "-v", "proxy", "--port", "0", "--no-local"]
            held: list[float] = []

            def log_line(line: str) -> None:
                m = re.search(r"streamed request from .*: ok in (\d+) ms", line)
                if m:
                    held.append(float(m.group(1)))

            with child(proxy_cmd, r"Sottovoce proxy: (\S+)", env, log_line) as proxy_url:
                measure(emit, echo_url, proxy_url, Path(home), args, held)
    finally:
        shutil.rmtree(home, ignore_errors=True)
    if args.out:
        with open(args.out, "a", encoding="utf-8") as fh:
            for row in results:
                fh.write(json.dumps(row) + "\n")
    return 0


def measure(
    emit: Callable[[dict[str, Any]], None],
    echo_url: str,
    proxy_url: str,
    home: Path,
    args: argparse.Namespace,
    held: list[float],
) -> None:
    """The timed runs (see the module's docstring). ``held`` fills with the proxy's own
    handling time of each request, from its log."""
    import openai

    from core.analyze import Analyzer
    from core.assembly import default_detector, default_router, make_cloud_door
    from core.settings import ApprovalPolicy, Integration, Settings
    from core.store import Store
    from core.turn import Assistant, TurnKind, collect

    # The same settings as the proxy's (its environment above).
    settings = Settings(
        cloud_base_url=echo_url,
        cloud_model="echo-capable",
        cloud_max_retries=0,
        approval_policy=ApprovalPolicy.NEVER,
        chat_integration=Integration.PASS_THROUGH,
    )
    store = Store.create(home / "bench.db", "a benchmark passphrase")
    detector = default_detector(settings)
    analyzer = Analyzer(detector=detector, router=default_router(settings, detector))
    assistant = Assistant(
        settings, store, cloud=make_cloud_door(settings, store, analyzer.detector),
        local=None, analyzer=analyzer,
    )  # fmt: skip
    direct = openai.OpenAI(base_url=echo_url, api_key="none", max_retries=0)
    proxied = openai.OpenAI(base_url=proxy_url, api_key=TOKEN, max_retries=0)

    def run_direct(text: str) -> float:
        t0 = time.perf_counter()
        stream(direct, text)
        return ms(t0)

    def run_pipeline(text: str) -> float:
        t0 = time.perf_counter()
        conv = assistant.new_conversation("bench", TurnKind.CHAT)
        collect(assistant.execute(assistant.prepare(text, conv), None))
        return ms(t0)

    outside: list[float] = []

    def run_proxy(text: str) -> float:
        before = len(held)
        t0 = time.perf_counter()
        stream(proxied, text)
        took = ms(t0)
        deadline = time.monotonic() + 1
        while len(held) == before and time.monotonic() < deadline:
            time.sleep(0.002)  # the log line follows the answer's last event
        if len(held) > before:
            outside.append(took - held[-1])
        return took

    ways = {"direct": run_direct, "pipeline": run_pipeline, "proxy": run_proxy}
    texts = queries(args.queries)
    for text in texts[:4]:  # warm-up: models, caches, connections
        for fn in ways.values():
            fn(text)
    outside.clear()
    rng = random.Random(15)
    times: dict[str, list[float]] = {k: [] for k in ways}
    for _ in range(args.runs):
        for text in texts:
            order = list(ways)
            rng.shuffle(order)
            for k in order:
                times[k].append(ways[k](text))
    store.close()
    pipe_cost = [pl - d for pl, d in zip(times["pipeline"], times["direct"], strict=True)]
    added = [px - d for px, d in zip(times["proxy"], times["direct"], strict=True)]
    over = [px - pl for px, pl in zip(times["proxy"], times["pipeline"], strict=True)]
    n = len(added)
    for k, v in times.items():
        emit({"name": f"{k}_ms", "unit": "ms", "value": round(statistics.median(v), 2),
              "p90": round(p(v, 0.9), 2), "n": n})  # fmt: skip
    cost50, added50 = statistics.median(pipe_cost), statistics.median(added)
    target = 1.2 * cost50 + 5
    emit({"name": "pipeline_cost_ms", "unit": "ms", "value": round(cost50, 2),
          "p90": round(p(pipe_cost, 0.9), 2), "n": n,
          "what": "in-process turn minus direct call, query by query"})  # fmt: skip
    emit({"name": "proxy_added_ms", "unit": "ms", "value": round(added50, 2),
          "p90": round(p(added, 0.9), 2), "n": n, "compared_with": "pipeline_cost_ms",
          "target_ms": round(target, 2), "ok": added50 <= target,
          "what": "proxy call minus direct call, query by query"})  # fmt: skip
    emit({"name": "proxy_over_pipeline_ms", "unit": "ms", "value": round(statistics.median(over), 2),
          "p90": round(p(over, 0.9), 2), "n": n,
          "what": "proxy call minus in-process turn, query by query (two processes on a shared CPU)"})  # fmt: skip
    if outside:
        emit({"name": "proxy_http_ms", "unit": "ms", "value": round(statistics.median(outside), 2),
              "p90": round(p(outside, 0.9), 2), "n": len(outside),
              "what": "client's time minus the proxy's own handling time (its log): HTTP and "
              "event framing only"})  # fmt: skip

    # --- many clients at once ---------------------------------------------------------
    people = queries(args.clients)
    lat: list[float] = []
    errors: list[str] = []
    mixed = 0
    barrier = threading.Barrier(len(people))

    def client(i: int) -> None:
        nonlocal mixed
        c = openai.OpenAI(base_url=proxy_url, api_key=TOKEN, max_retries=0, timeout=300)
        try:
            barrier.wait()
            t0 = time.perf_counter()
            answer = stream(c, people[i], {"X-Sottovoce-Client": f"bench-{i}"})
            lat.append(ms(t0))
            others = [
                v for j in range(len(people)) if j != i
                for k, v in person(j).items() if k != "first"
            ]  # fmt: skip
            if any(v in answer for v in others):
                mixed += 1  # another client's value in this client's answer
        except Exception as exc:
            errors.append(type(exc).__name__)

    t0 = time.perf_counter()
    threads = [threading.Thread(target=client, args=(i,)) for i in range(len(people))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    emit({"name": "concurrent_streaming_clients", "unit": "clients", "value": len(people),
          "errors": len(errors), "error_types": sorted(set(errors)), "mixed_up_answers": mixed,
          "wall_s": round(ms(t0) / 1000, 2),
          "latency_ms_p50": round(statistics.median(lat), 1) if lat else None,
          "latency_ms_max": round(max(lat), 1) if lat else None,
          "ok": not errors and not mixed})  # fmt: skip


if __name__ == "__main__":
    raise SystemExit(main())
