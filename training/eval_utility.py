"""``sottovoce eval utility``: is what leaves still useful? (EVALUATION.md, "Utility of what leaves")

On any utility set (a JSON list of ``{id, text, protect[], keep[], persons}``;
``training/data/check_utility.py`` validates the format), each text goes
through the real prepare path of a chat turn: the shipped detector, router and
type policy, a privacy box, an encrypted store in a temporary folder. Nothing
is sent. Measured on the exact payload that would leave:

* ``leaks``: protected values present in the payload (NFKC, case-folded,
  whitespace collapsed; must be 0);
* ``keep_rate``: task-critical strings present verbatim in the user content /
  all of them; each lost one is explained (withheld with its sentence, or
  replaced by a placeholder);
* ``glued``: placeholders touching a letter or digit (a cut token; must be 0);
* ``person_splits``: texts whose user content has a different number of
  distinct ``[PERSON_n]`` than people named (texts with a withheld sentence are
  not scored on this);
* ``blocked``: texts the egress guard would refuse to send (it re-scans the
  payload for box values and detected entities; values the policy sends in
  clear are consented, as in a real turn);
* the prepare latency per text (milliseconds).

``results.json`` holds the totals and every text's outbound, ``report.md`` a
table and the failures.
"""

from __future__ import annotations

import argparse
import inspect
import json
import re
import statistics
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from core.errors import InputError
from training.metrics import normalize_for_leak

PLACEHOLDER = re.compile(r"\[[A-Z_]+_\d+\]")
GLUED = re.compile(r"[^\W_]\[[A-Z_]+_\d+\]|\[[A-Z_]+_\d+\][^\W_]")
PERSON = re.compile(r"\[PERSON_\d+\]")


def load_items(path: str | Path) -> list[dict[str, Any]]:
    """Read and validate a utility set; an invalid file is a clear error."""
    from training.data.check_utility import check_items, load

    data = load(path)
    errors = [p for p in check_items(data) if p.level == "error"]
    if errors:
        raise InputError(
            f"{path} is not a valid utility set: {errors[0]}"
            + (f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""),
            hint="python -m training.data.check_utility FILE lists every problem",
        )
    return list(data)


def _assistant(settings: Any, store: Any, detector: Any = None) -> Any:
    from core.analyze import Analyzer
    from core.assembly import default_detector, default_router
    from core.turn import Assistant

    detector = detector if detector is not None else default_detector(settings)
    # The detector gate runs this harness over older commits' core, whose default_router
    # took the settings alone.
    takes_detector = "detector" in inspect.signature(default_router).parameters
    router = default_router(settings, detector) if takes_detector else default_router(settings)
    analyzer = Analyzer(detector=detector, router=router)
    return Assistant(settings, store, cloud=None, local=None, analyzer=analyzer)


def _guard(settings: Any, detector: Any) -> Any:
    from core.egress import EgressGuard, MemoryLedger
    from core.llm.cloud import CloudClient

    # Scanning only: the client is never called.
    return EgressGuard(CloudClient.from_settings(settings), ledger=MemoryLedger(), detector=detector)


_WORD = re.compile(r"[^\W\d_][\w'’\-]{3,}")


def partial_leaks(
    text: str, protect: Sequence[str], payload: str, whole: Sequence[str] = ()
) -> list[str]:
    """Words of a protected value of several words that reach the payload although the
    value does not ("محمود عبد الرحمن" of a full name, "Pentre" of an estate's address):
    a word of four letters or more, written nowhere else in the text (so "Mercedes" of
    "Mercedes Oyarzún" in a message about a Mercedes is no leak), found as a word in the
    payload. ``whole`` are values already counted as leaks."""
    masked = text
    for v in sorted(protect, key=len, reverse=True):
        masked = masked.replace(v, " ")
    found = []
    for v in protect:
        if v in whole or len(v.split()) < 2:
            continue
        for w in _WORD.findall(v):
            if re.search(rf"(?<!\w){re.escape(w)}(?!\w)", masked, re.IGNORECASE):
                continue
            if re.search(rf"(?<!\w){re.escape(w)}(?!\w)", payload, re.IGNORECASE):
                found.append(w)
    return found


def score_item(item: Mapping[str, Any], prepared: Any, guard: Any) -> dict[str, Any]:
    """The figures of one text from its prepared turn."""
    text = item["text"]
    user = prepared.outbound
    payload = "\n".join(m["content"] for m in prepared.messages) if prepared.messages else ""
    norm_payload = normalize_for_leak(payload)
    leaks = [v for v in item["protect"] if normalize_for_leak(v) in norm_payload]
    partial = partial_leaks(text, item["protect"], payload, leaks)
    plans = prepared.analysis.plans
    withheld = any(p.route == "local" for p in plans)
    lost = []
    for k in item["keep"]:
        if k in user:
            continue
        pos = text.find(k)
        local = any(
            p.route == "local" and p.sentence.start <= pos < p.sentence.end for p in plans
        )
        lost.append({"keep": k, "why": "withheld" if local else "replaced or cut"})
    persons = len(set(PERSON.findall(user)))
    split = (not withheld) and persons != int(item["persons"])
    blocked: list[str] = []
    if prepared.request is not None:
        consented = [e.value for e in prepared.request.entities if not e.protected]
        hits = guard.scan(prepared.messages, box=prepared.box, consented=consented)
        blocked = sorted({f"{h.type}/{h.source}" for h in hits})
    sent = (
        [
            {"value": e.value, "type": e.type, "reason": e.reason}
            for e in prepared.request.entities
            if not e.protected
        ]
        if prepared.request is not None
        else []
    )
    return {
        "id": item["id"],
        "outbound": user,
        "routes": [str(p.route) for p in plans],
        "leaks": leaks,
        "partial_leaks": partial,
        "kept": len(item["keep"]) - len(lost),
        "keep_total": len(item["keep"]),
        "lost": lost,
        "glued": GLUED.findall(user),
        "persons_named": int(item["persons"]),
        "person_placeholders": persons,
        "person_split": split,
        "withheld": withheld,
        "blocked": blocked,
        "sent_in_clear": sent,
        "placeholders": len(set(PLACEHOLDER.findall(user))),
    }


def prepared_turns(
    items: Sequence[Mapping[str, Any]],
    *,
    detector: Any = None,
    risk_lambda: float = 5.0,
) -> Iterator[tuple[Mapping[str, Any], Any, Any, float]]:
    """Each item's prepared turn on the real prepare path: ``(item, prepared, guard, ms)``.

    ``detector`` replaces the shipped one (``default_detector``) when given; the
    router, the type policy and the box are the shipped ones. ``guard`` is an
    egress guard on the same detector, for scanning only; ``ms`` the prepare time.
    """
    from core.settings import Settings
    from core.store import Store

    settings = Settings()
    settings.risk_lambda = risk_lambda
    with tempfile.TemporaryDirectory(prefix="sottovoce-utility-") as tmp:
        store = Store.create(Path(tmp) / "vault.db", "utility evaluation only")
        try:
            assistant = _assistant(settings, store, detector)
            guard = _guard(settings, assistant.analyzer.detector)
            for item in items:
                conv = assistant.new_conversation(str(item["id"]))
                t0 = time.perf_counter()
                prepared = assistant.prepare(item["text"], conv)
                yield item, prepared, guard, (time.perf_counter() - t0) * 1000
        finally:
            store.close()


def score_items(
    items: Sequence[Mapping[str, Any]], *, detector: Any = None, risk_lambda: float = 5.0
) -> dict[str, Any]:
    """The totals (:func:`summarize`) and every text's row (``texts``) of a utility set."""
    rows: list[dict[str, Any]] = []
    latency: list[float] = []
    for item, prepared, guard, ms in prepared_turns(
        items, detector=detector, risk_lambda=risk_lambda
    ):
        latency.append(ms)
        rows.append(score_item(item, prepared, guard))
    results = summarize(rows, latency)
    results["texts"] = rows
    return results


def run_utility(
    data: str | Path,
    out: str | Path | None = None,
    *,
    risk_lambda: float = 5.0,
    limit: int | None = None,
    detector: Any = None,
) -> dict[str, Any]:
    """Evaluate a utility set; write ``results.json`` and ``report.md`` to ``out``."""
    items = load_items(data)[:limit]
    scored = score_items(items, detector=detector, risk_lambda=risk_lambda)
    rows = scored.pop("texts")
    results = {**scored, "data": str(data), "risk_lambda": risk_lambda, "texts": rows}
    if out is not None:
        folder = Path(out)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "results.json").write_text(
            json.dumps(results, indent=1, ensure_ascii=False) + "\n", "utf-8"
        )
        (folder / "report.md").write_text(report(results), "utf-8")
    return results


def summarize(rows: Sequence[Mapping[str, Any]], latency: Sequence[float]) -> dict[str, Any]:
    kept = sum(r["kept"] for r in rows)
    total = sum(r["keep_total"] for r in rows)
    withheld = sum(1 for r in rows for x in r["lost"] if x["why"] == "withheld")
    return {
        "n": len(rows),
        "leaks": sum(len(r["leaks"]) for r in rows),
        "partial_leaks": sum(len(r.get("partial_leaks", ())) for r in rows),
        "keep_rate": round(kept / total, 4) if total else None,
        "kept": kept,
        "keep_total": total,
        # Apart, the two causes of a lost string: a sentence kept on the machine by the
        # router, or anonymization (replaced or cut) in a sentence that left.
        "lost_withheld": withheld,
        "keep_rate_sent": round(kept / (total - withheld), 4) if total - withheld else None,
        "glued": sum(len(r["glued"]) for r in rows),
        "person_splits": sum(1 for r in rows if r["person_split"]),
        "person_scored": sum(1 for r in rows if not r["withheld"]),
        "withheld_texts": sum(1 for r in rows if r["withheld"]),
        "blocked": sum(1 for r in rows if r["blocked"]),
        "prepare_ms_p50": round(statistics.median(latency), 1) if latency else None,
        "definitions": {
            "leaks": "protected values in the payload (NFKC, case-folded, whitespace collapsed)",
            "partial_leaks": "words (4+ letters) of a protected value of several words, written "
            "nowhere else in the text, found in the payload while the whole value is not",
            "keep_rate": "task-critical strings present verbatim in the user content / all",
            "keep_rate_sent": "the same among strings whose sentence left (router withholding "
            "set apart)",
            "glued": "placeholders touching a letter or digit",
            "person_splits": "texts without a withheld sentence whose user content has another "
            "number of distinct [PERSON_n] than people named",
            "blocked": "texts the egress guard would refuse (box value or protected entity found)",
        },
    }


def report(r: Mapping[str, Any]) -> str:
    lines = [
        f"# Utility of what leaves: {r['data']}",
        "",
        f"Real prepare path at lambda {r['risk_lambda']:g}; {r['n']} texts. "
        "Figures on the exact payload that would leave.",
        "",
        "| leaks | leaked in part | keep rate | of sentences that left | glued | person splits "
        "| withheld texts | blocked by the guard | prepare p50 |",
        "|---|---|---|---|---|---|---|---|---|",
        f"| {r['leaks']} | {r.get('partial_leaks', 0)} | {r['keep_rate']} ({r['kept']}/{r['keep_total']}) | "
        f"{r['keep_rate_sent']} ({r['lost_withheld']} lost to withheld sentences) | {r['glued']} | "
        f"{r['person_splits']} of {r['person_scored']} scored | {r['withheld_texts']} | "
        f"{r['blocked']} | {r['prepare_ms_p50']} ms |",
        "",
    ]
    failures = [
        t
        for t in r["texts"]
        if t["leaks"] or t.get("partial_leaks") or t["lost"] or t["glued"] or t["person_split"]
        or t["blocked"]
    ]
    if failures:
        lines += ["## Texts with a failure", ""]
        for t in failures:
            lines.append(f"### {t['id']}")
            if t["leaks"]:
                lines.append(f"- leaked: {t['leaks']}")
            if t.get("partial_leaks"):
                lines.append(f"- leaked in part: {t['partial_leaks']}")
            if t["lost"]:
                lines.append(
                    "- lost: " + "; ".join(f"`{x['keep']}` ({x['why']})" for x in t["lost"])
                )
            if t["glued"]:
                lines.append(f"- glued: {t['glued']}")
            if t["person_split"]:
                lines.append(
                    f"- persons: {t['persons_named']} named, "
                    f"{t['person_placeholders']} person placeholders"
                )
            if t["blocked"]:
                lines.append(f"- the guard would block: {t['blocked']}")
            lines += ["", "```", t["outbound"], "```", ""]
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    results = run_utility(args.data, args.out, risk_lambda=args.risk_lambda, limit=args.limit)
    print(
        f"{results['n']} texts at lambda {results['risk_lambda']:g}: {results['leaks']} leaks "
        f"({results['partial_leaks']} words of protected values in part), "
        f"keep rate {results['keep_rate']} ({results['kept']}/{results['keep_total']}; "
        f"{results['keep_rate_sent']} of strings whose sentence left), "
        f"{results['glued']} glued, {results['person_splits']} person splits "
        f"(of {results['person_scored']} scored), {results['blocked']} blocked; "
        f"prepare p50 {results['prepare_ms_p50']} ms. Report: {args.out}/report.md"
    )
    return 0
