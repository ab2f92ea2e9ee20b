"""The forms measure: every value replaced, every label kept, every value typed right.

On the forms dev set (``training/data/forms_dev.json``, ``docs/data-card-forms.md``)
each text goes through the real prepare path (:func:`training.eval_utility.prepared_turns`)
and three figures are read on what would leave:

* ``leaks``: protect values present in the payload (the utility evaluation's test);
* ``labels_kept``: labels present verbatim in the user content, over the labels
  outside withheld sentences;
* ``type_accuracy``: over the gold spans outside withheld sentences, the share
  replaced whole by one placeholder of the gold type.

To know which stretch of the text each placeholder replaced, the user content
is aligned with the text (:func:`align`): its literal pieces must occur in the
text in order; a placeholder matches one of its box entry's written forms (the
value and its aliases) at that place, else any stretch up to the next literal
piece; a ``[private sentence withheld]`` marker matches any stretch. A gold span
is typed right when exactly one placeholder's stretch overlaps it, covers it
entirely, and has the gold type; a gold span that overlaps a withheld stretch
is not scored (counted as ``withheld``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from training.metrics import normalize_for_leak

WITHHELD = "[private sentence withheld]"
_PIECE = re.compile(r"\[private sentence withheld\]|\[[A-Z][A-Z_]*_\d+\]")


@dataclass(frozen=True)
class Stretch:
    """A stretch ``[start, end)`` of the text that the outbound replaced."""

    start: int
    end: int
    placeholder: str  # "[PHONE_1]", or WITHHELD
    type: str  # the placeholder's type ("PHONE"), "" for a withheld stretch


def _pieces(outbound: str, known: Mapping[str, Any]) -> list[tuple[str, str]]:
    """``("lit", text)``, ``("ph", placeholder)`` and ``("withheld", marker)`` pieces in order."""
    out: list[tuple[str, str]] = []
    pos = 0
    for m in _PIECE.finditer(outbound):
        tok = m.group()
        if tok != WITHHELD and tok not in known:
            continue  # placeholder-like text the person wrote: a literal
        if m.start() > pos:
            out.append(("lit", outbound[pos : m.start()]))
        out.append(("withheld" if tok == WITHHELD else "ph", tok))
        pos = m.end()
    if pos < len(outbound):
        out.append(("lit", outbound[pos:]))
    # Merge adjacent literals (a skipped placeholder-like string splits one).
    merged: list[tuple[str, str]] = []
    for kind, s in out:
        if merged and kind == "lit" and merged[-1][0] == "lit":
            merged[-1] = ("lit", merged[-1][1] + s)
        else:
            merged.append((kind, s))
    # The whitespace beside a withheld run is the composer's (it may add a space where
    # two sentences touched): the run's stretch takes whatever whitespace the text has.
    for i, (kind, _) in enumerate(merged):
        if kind == "withheld":
            if i > 0 and merged[i - 1][0] == "lit" and merged[i - 1][1].strip():
                merged[i - 1] = ("lit", merged[i - 1][1].rstrip())
            if i + 1 < len(merged) and merged[i + 1][0] == "lit" and merged[i + 1][1].strip():
                merged[i + 1] = ("lit", merged[i + 1][1].lstrip())
    return merged


def align(
    text: str, outbound: str, forms: Mapping[str, Sequence[str]], types: Mapping[str, str]
) -> list[Stretch] | None:
    """The stretches of ``text`` each placeholder (or withheld marker) of ``outbound`` replaced.

    ``forms`` maps a placeholder to its written forms (box value and aliases),
    ``types`` to its type. None when the outbound cannot be aligned with the text.
    Whitespace at either end of the text may be missing from the outbound.
    """
    lead = len(text) - len(text.lstrip())
    found = _align(text[lead : len(text.rstrip())], outbound.strip(), forms, types)
    if found is None:
        return None
    return [Stretch(s.start + lead, s.end + lead, s.placeholder, s.type) for s in found]


def _align(
    text: str, outbound: str, forms: Mapping[str, Sequence[str]], types: Mapping[str, str]
) -> list[Stretch] | None:
    pieces = _pieces(outbound, forms)

    @cache
    def walk(i: int, pos: int) -> tuple[Stretch, ...] | None:
        if i == len(pieces):
            return () if pos == len(text) else None
        kind, s = pieces[i]
        if kind == "lit":
            return walk(i + 1, pos + len(s)) if text.startswith(s, pos) else None
        ends: list[int] = []
        if kind == "ph":
            for f in sorted(set(forms.get(s, ())), key=len, reverse=True):
                if f and text.startswith(f, pos):
                    ends.append(pos + len(f))
        # Else (or as well, for a withheld run) any stretch up to where the next piece fits:
        # the next literal, or a written form of the next placeholder.
        following: list[str] = []
        if i + 1 < len(pieces):
            nkind, ns = pieces[i + 1]
            following = [ns] if nkind == "lit" else [f for f in forms.get(ns, ()) if f]
        found: set[int] = set()
        for nxt in following:
            j = text.find(nxt, pos + 1 if kind == "ph" else pos)
            while j >= 0:
                found.add(j)
                j = text.find(nxt, j + 1)
        ends += [j for j in sorted(found) if j not in ends]  # the shortest stretch first
        if i + 1 == len(pieces):
            ends.append(len(text))
        elif pieces[i + 1][0] != "lit":  # two replacements in a row: at last, every end
            ends += [e for e in range(pos + 1, len(text) + 1) if e not in ends]
        for end in ends:
            if kind == "ph" and end <= pos:
                continue
            if kind == "withheld" and not text[pos:end].strip():
                continue  # a withheld marker stands for a sentence, never for nothing
            rest = walk(i + 1, end)
            if rest is not None:
                here = Stretch(pos, end, s, types.get(s, "") if kind == "ph" else "")
                return (here, *rest)
        return None

    import sys

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 4 * len(pieces) + 100))
    try:
        found = walk(0, 0)
    finally:
        sys.setrecursionlimit(limit)
    return None if found is None else list(found)


def _overlaps(a: int, b: int, s: Stretch) -> bool:
    return s.start < b and a < s.end


def score_form(item: Mapping[str, Any], prepared: Any) -> dict[str, Any]:
    """One text's figures: leaks, labels kept and lost, each gold span's outcome."""
    text: str = item["text"]
    user: str = prepared.outbound
    payload = "\n".join(m["content"] for m in prepared.messages) if prepared.messages else ""
    norm_payload = normalize_for_leak(payload)
    leaks = [v for v in item["protect"] if normalize_for_leak(v) in norm_payload]
    entries = prepared.box.entries()
    forms = {e.placeholder: list(e.forms) for e in entries}
    types = {e.placeholder: str(e.type) for e in entries}
    if prepared.request is None:  # nothing leaves: every sentence withheld
        stretches: list[Stretch] | None = [Stretch(0, len(text), WITHHELD, "")]
    else:
        stretches = align(text, user, forms, types)
    withheld = [s for s in stretches or () if s.placeholder == WITHHELD]

    labels_kept, labels_lost, labels_withheld = [], [], []
    for label in item.get("labels", []):
        if label in user:
            labels_kept.append(label)
            continue
        pos = text.find(label)
        if any(_overlaps(pos, pos + len(label), s) for s in withheld):
            labels_withheld.append(label)
        else:
            labels_lost.append(label)

    spans = []
    for g in item.get("spans", []):
        a, b, gold = int(g["start"]), int(g["end"]), str(g["type"])
        value = text[a:b]
        if stretches is None:
            outcome, got = "unaligned", ""
        elif any(_overlaps(a, b, s) for s in withheld):
            outcome, got = "withheld", ""
        else:
            over = [s for s in stretches if _overlaps(a, b, s)]
            got = "+".join(s.type for s in over)
            if not over:
                outcome = "in clear"
            elif len(over) > 1:
                outcome = "split"
            elif over[0].start > a or over[0].end < b:
                outcome = "partial"
            elif over[0].type != gold:
                outcome = "wrong type"
            else:
                outcome = "right"
        spans.append({"value": value, "gold": gold, "got": got, "outcome": outcome})
    return {
        "id": item["id"],
        "outbound": user,
        "aligned": stretches is not None,
        "leaks": leaks,
        "labels_kept": len(labels_kept),
        "labels_lost": labels_lost,
        "labels_withheld": labels_withheld,
        "spans": spans,
    }


def summarize_forms(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Totals of :func:`score_form` rows."""
    scored = [s for r in rows for s in r["spans"] if s["outcome"] != "withheld"]
    right = sum(s["outcome"] == "right" for s in scored)
    kept = sum(r["labels_kept"] for r in rows)
    lost = sum(len(r["labels_lost"]) for r in rows)
    outcomes = Counter(s["outcome"] for r in rows for s in r["spans"])
    confusion = Counter(
        f"{s['gold']} -> {s['got'] or '-'}"
        for s in scored
        if s["outcome"] != "right"
    )
    return {
        "n": len(rows),
        "leaks": sum(len(r["leaks"]) for r in rows),
        "labels_kept": round(kept / (kept + lost), 4) if kept + lost else None,
        "labels_scored": kept + lost,
        "labels_withheld": sum(len(r["labels_withheld"]) for r in rows),
        "type_accuracy": round(right / len(scored), 4) if scored else None,
        "spans_scored": len(scored),
        "spans_withheld": outcomes.get("withheld", 0),
        "unaligned_texts": sum(not r["aligned"] for r in rows),
        "outcomes": dict(sorted(outcomes.items())),
        "errors": dict(confusion.most_common()),
    }


def score_forms(
    items: Sequence[Mapping[str, Any]], *, detector: Any = None, risk_lambda: float = 5.0
) -> dict[str, Any]:
    """The forms measure over ``items`` with ``detector`` (the shipped one when None)."""
    from training.eval_utility import prepared_turns

    rows = [
        score_form(item, prepared)
        for item, prepared, _guard, _ms in prepared_turns(
            items, detector=detector, risk_lambda=risk_lambda
        )
    ]
    return {**summarize_forms(rows), "texts": rows}
