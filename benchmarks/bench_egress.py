"""Egress-guard cost per request: a 4,000-character payload against a 200-entry box.

The payload is a system prompt, two earlier turns and a user message, with
placeholders in it, as the turn pipeline sends them; the box holds 200
values of mixed types (names, phones, e-mails, addresses, card numbers,
dates). Printed, one JSON object per line (medians after a warm-up):

- ``egress_scan_box``: the re-scan of the whole payload for every box value,
  its decoded views and the other forms of its person names (target < 5 ms),
  the figure that every request pays; compared in the same run with the
  guard without decoding and name forms (``without_decoding_ms``);
- ``egress_scan_box_encoded``: the same on a payload whose user message
  carries encoded text (a percent-encoded link, HTML references, a base64
  attachment: a third of it), where every decoder has work to do;
- ``egress_prepare``: building the request body and scanning it (:meth:`EgressGuard.check`);
- ``egress_matcher_build``: the one-off cost when the box changes;
- ``egress_scan_with_rules_view`` (unless ``--no-detector``): the same plus the
  rules view run on every string of the payload, uncached, and cached (the
  history strings repeat from one turn to the next).

    python benchmarks/bench_egress.py [--runs 200] [--entries 200] [--chars 4000] [--no-detector]
"""

from __future__ import annotations

import argparse
import base64
import json
import random
import statistics
import sys
import time
import urllib.parse
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.box import PrivacyBox  # noqa: E402
from core.egress import EgressGuard  # noqa: E402
from core.entities import EntityType  # noqa: E402

FIRST = [
    "Maria",
    "James",
    "Wei",
    "Olga",
    "Kwame",
    "Lucia",
    "Arjun",
    "Hana",
    "Pieter",
    "Ines",
    "Tomasz",
    "Aiko",
    "Rafael",
    "Zainab",
]
LAST = [
    "Gonzalez",
    "Whitaker",
    "Chen",
    "Petrova",
    "Mensah",
    "Rossi",
    "Raman",
    "Sato",
    "Jansen",
    "Silva",
    "Nowak",
    "Okafor",
]
STREETS = ["Oak", "Maple", "Harbor", "Station", "Mill", "Cedar", "Lake", "River", "Church", "Park"]
CITIES = [
    "Springfield",
    "Riverton",
    "Lakeside",
    "Brookfield",
    "Fairview",
    "Greenville",
    "Kingston",
    "Ashford",
]
WORDS = [
    "the",
    "report",
    "shows",
    "steady",
    "progress",
    "across",
    "every",
    "team",
    "and",
    "the",
    "budget",
    "review",
    "will",
    "follow",
    "next",
    "week",
    "please",
    "summarize",
    "the",
    "main",
    "points",
    "and",
    "suggest",
    "three",
    "actions",
    "for",
    "the",
    "coming",
    "quarter",
    "while",
    "keeping",
    "the",
    "tone",
    "friendly",
    "and",
    "concise",
    "we",
    "also",
    "need",
    "a",
    "short",
    "paragraph",
    "about",
    "risks",
    "and",
    "a",
    "closing",
    "line",
]


class _Client:
    """Builds bodies like CloudClient; never sends (scanning is what is timed)."""

    model = "bench-model"
    endpoint = "https://cloud.example/v1/chat/completions"

    def build_body(self, messages: Any, *, stream: bool = False, **params: Any) -> dict[str, Any]:
        body = {"model": self.model, "messages": [dict(m) for m in messages], "stream": stream}
        body.update({k: v for k, v in params.items() if v is not None})
        return body

    def post(self, body: Any, *, cancel: Any = None) -> Any:
        raise AssertionError("the benchmark sends nothing")

    def post_stream(self, body: Any, *, cancel: Any = None) -> Any:
        raise AssertionError("the benchmark sends nothing")


def make_box(n: int, rng: random.Random) -> PrivacyBox:
    box = PrivacyBox()
    makers: list[tuple[EntityType, Callable[[], str]]] = [
        (EntityType.PERSON, lambda: f"{rng.choice(FIRST)} {rng.choice(LAST)}"),
        (
            EntityType.PHONE,
            lambda: f"{rng.randint(200, 989)}-{rng.randint(200, 999)}-{rng.randint(1000, 9999)}",
        ),
        (
            EntityType.EMAIL,
            lambda: (
                f"{rng.choice(FIRST).lower()}.{rng.choice(LAST).lower()}{rng.randint(1, 99)}@example.org"
            ),
        ),
        (EntityType.ADDRESS, lambda: f"{rng.randint(1, 999)} {rng.choice(STREETS)} Street"),
        (EntityType.LOCATION, lambda: rng.choice(CITIES)),
        (EntityType.CREDIT_CARD, lambda: " ".join(str(rng.randint(1000, 9999)) for _ in range(4))),
        (EntityType.DATE, lambda: f"{rng.randint(1, 28)} March {rng.randint(1950, 2020)}"),
        (EntityType.PERSON, lambda: rng.choice(FIRST)),
    ]
    while len(box) < n:
        t, make = rng.choice(makers)
        box.placeholder_for(make(), t)
    return box


def make_messages(chars: int, box: PrivacyBox, rng: random.Random) -> list[dict[str, str]]:
    placeholders = [e.placeholder for e in box.entries()]

    def text(n: int) -> str:
        out: list[str] = []
        size = 0
        while size < n:
            w = rng.choice(placeholders) if rng.random() < 0.06 else rng.choice(WORDS)
            out.append(w)
            size += len(w) + 1
        return " ".join(out)[:n]

    system = "You are a careful assistant. Placeholders like [PERSON_1] stand for private data."
    rest = chars - len(system)
    return [
        {"role": "system", "content": system},
        {"role": "user", "content": text(rest // 3)},  # an earlier turn...
        {"role": "assistant", "content": text(rest // 3)},
        {"role": "user", "content": text(rest - 2 * (rest // 3))},  # ...and the new message
    ]


def encode_user_message(messages: list[dict[str, str]], rng: random.Random) -> list[dict[str, str]]:
    """The same payload with a third of the user message encoded (same length, clean)."""
    user = messages[-1]["content"]
    words = [w for w in user.split(" ") if w and not w.startswith("[")]
    budget = len(user) // 3
    link = "https://docs.example.org/view?q=" + urllib.parse.quote(" ".join(words[:12]))
    entities = "".join(f"&#{ord(c)};" for c in " ".join(words[12:20]))
    raw = " ".join(words[20:]).encode()
    attachment = base64.b64encode(raw).decode()
    blob = f"{link}\n{entities}\n{attachment}"[:budget]
    text = user[: len(user) - len(blob) - 1] + "\n" + blob
    return [*messages[:-1], {"role": "user", "content": text}]


def median_ms(fn: Callable[[], Any], runs: int) -> float:
    for _ in range(max(3, runs // 20)):
        fn()
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--entries", type=int, default=200)
    ap.add_argument("--chars", type=int, default=4000)
    ap.add_argument("--no-detector", action="store_true", help="skip the rules-view figures")
    args = ap.parse_args()

    rng = random.Random(3)
    box = make_box(args.entries, rng)
    messages = make_messages(args.chars, box, rng)
    payload_chars = sum(len(m["content"]) for m in messages)
    guard = EgressGuard(_Client())
    plain = EgressGuard(_Client(), decode=False, name_orders=False)
    assert guard.scan(messages, box=box) == [], "the synthetic payload must be clean"
    common = {"payload_chars": payload_chars, "box_entries": len(box), "runs": args.runs}

    # A/B in alternation, so that both sides see the same machine load.
    scan = median_ms(lambda: guard.scan(messages, box=box), args.runs)
    before = median_ms(lambda: plain.scan(messages, box=box), args.runs)
    scan = min(scan, median_ms(lambda: guard.scan(messages, box=box), args.runs))
    print(json.dumps({"name": "egress_scan_box", "unit": "ms", "value": round(scan, 3),
                      "comparison": {"target_ms": 5.0, "without_decoding_ms": round(before, 3)},
                      **common}))  # fmt: skip
    encoded = encode_user_message(messages, rng)
    assert guard.scan(encoded, box=box) == [], "the encoded payload must be clean"
    enc = median_ms(lambda: guard.scan(encoded, box=box), args.runs)
    enc_before = median_ms(lambda: plain.scan(encoded, box=box), args.runs)
    print(json.dumps({"name": "egress_scan_box_encoded", "unit": "ms", "value": round(enc, 3),
                      "comparison": {"target_ms": 5.0, "without_decoding_ms": round(enc_before, 3)},
                      **common, "payload_chars": sum(len(m["content"]) for m in encoded)}))  # fmt: skip
    prep = median_ms(lambda: guard.check(messages, box=box, max_tokens=512), args.runs)
    print(json.dumps({"name": "egress_prepare", "unit": "ms", "value": round(prep, 3),
                      "comparison": {"target_ms": 5.0}, **common}))  # fmt: skip

    def rebuild() -> None:
        guard.matchers.clear()
        guard.matchers.of(box)

    build = median_ms(rebuild, max(5, args.runs // 20))
    print(json.dumps({"name": "egress_matcher_build", "unit": "ms", "value": round(build, 2),
                      "note": "once per box change", **common}))  # fmt: skip

    if args.no_detector:
        return
    from core.detect.rules import RulesView

    rules = RulesView()
    with_rules = EgressGuard(_Client(), detector=rules)
    with_rules.scan(messages, box=box)  # loads presidio's recognizers

    def uncached() -> None:
        with_rules._spans.clear()
        with_rules.scan(messages, box=box)

    runs = max(10, args.runs // 10)
    cold = median_ms(uncached, runs)
    warm = median_ms(lambda: with_rules.scan(messages, box=box), args.runs)
    print(json.dumps({"name": "egress_scan_with_rules_view", "unit": "ms", "value": round(cold, 2),
                      "comparison": {"cached_history_ms": round(warm, 3), "box_only_ms": round(scan, 3)},
                      **common, "runs": runs}))  # fmt: skip


if __name__ == "__main__":
    main()
