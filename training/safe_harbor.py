"""Count HIPAA Safe Harbor identifiers that leave, on health texts at a privacy level.

``python -m training.safe_harbor [--medpcd FILE] [--utility FILE] [--lambda 5]
[--profile auto] [--out DIR]`` classifies each gold unit of the health texts
(the Med-PCD eval fold; the ``med-`` texts of a utility set, their ``protect``
strings) into the categories of 45 CFR 164.514(b)(2)(i) by its
shape and the words before it, runs every text through the real prepare path
of a chat turn (the shipped detector, router and type policy, a privacy box;
nothing is sent) and counts, per category, the units present in the exact
payload that would leave (:func:`training.metrics.unit_leaked`). Gold units
leave out much of what Safe Harbor names (an admission date, a town), so
:func:`scan` also reads those from the text by strict patterns and the
gazetteer, and counts them apart.

The classifier is independent of the detector: it reads only the unit and the
text. Units that are none of the eighteen (a lab value, a drug, an age under
90, a year alone) are counted as ``not an identifier`` and never as leaks. A
facility named as where a patient is treated is no category of its own in the
rule; it is counted apart (``facility``) because it points to a place smaller
than a state.
"""

from __future__ import annotations

import argparse
import json
import re
import tempfile
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from training.metrics import read_medpcd, select_split, unit_leaked

DEFAULT_MEDPCD = Path("../shared/data/med_pcd/med_pcd_train.json")
DEFAULT_UTILITY = Path("training/data/utility_dev.json")

#: The Safe Harbor categories (45 CFR 164.514(b)(2)(i)(A)-(R)), in the rule's order.
CATEGORIES = (
    "name", "geographic", "date", "phone", "fax", "email", "ssn", "medical record number",
    "health plan number", "account number", "licence number", "vehicle identifier",
    "device identifier", "url", "ip address", "biometric", "photo", "other unique code",
    "age over 89",
)
FACILITY = "facility"
NONE = "not an identifier"

_C = re.IGNORECASE
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:[.,][\w-]+)+")
_URL = re.compile(r"https?://|www\.|\b[\w-]+\.(?:com|org|net|io|gov)/", _C)
_IP = re.compile(r"\b\d{1,3}(?:\.\d{1,3}){3}\b")
_SSN = re.compile(r"\b\d{3}-\d{2}-\d{4}\b")
_AGE = re.compile(r"\b(9\d|1[01]\d)\b")
_AGE_WORDS = re.compile(r"\b(?:age[ds]?|years?|yrs?|yo|y/o|year-old)\b", _C)
_STREET = re.compile(
    r"\b\d+\w*\s+(?:[nsew]\.?\s+)?[\w.'-]+(?:\s+[\w.'-]+)*?\s+(?:st|street|ave|avenue|rd|road|ln|lane|dr|drive|"
    r"blvd|boulevard|way|ct|court|pl|place|ter|terrace|pkwy|hwy|close|crescent)\b|\bapt\b|\bsuite\b"
    r"|^\d{5}(?:-\d{4})?$|\b[a-z]{2}\s+\d{5}\b|\b[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}\b|,\s*[a-z]{2}\s*$",
    _C,
)
_ON_STREET = re.compile(r"\b(?:on|at)\s+(?:\d+\s+)?[\w.'-]+\s+(?:st|street|ave|avenue|rd|road|blvd|ln|lane|dr)\b", _C)
_FACILITY = re.compile(
    r"\b(?:hospital|clinic|pharmacy|medical|health|care|pediatrics|paediatrics|surgery|dental|"
    r"practice|centre|center|hospice|hotel|school|academy|college|university|cvs|walgreens|"
    r"rite aid|boots|deli|ltd|inc|llc|group|general|family|urgent|infirmary|drug|lab|labs)\b",
    _C,
)
_PLAN = re.compile(
    r"\b(?:ppo|hmo|epo|plan|insurance|medicare|medicaid|aetna|cigna|blue\s*cross|"
    r"united\s*health|kaiser|humana|anthem|bupa|member)\b",
    _C,
)
_FLIGHT = re.compile(r"\b[a-z]{2}\s?\d{2,4}\b|\b[a-z]\d\s?\d{2,4}\b", _C)
_MEASURE = re.compile(
    r"\d\s*(?:mg|mcg|µg|ml|l|mmol|µmol|umol|u|mu|iu|g|kg|cm|mm|mmhg|bpm|%|°c?)(?:/[a-z0-9.]+)*(?![\w])", _C
)
_PHONE = re.compile(r"(?:\+?\d[\s().-]*){9,}")
_BEFORE = {
    "fax": re.compile(r"\bfax\b", _C),
    "medical record number": re.compile(r"\b(?:mrn|medical record|chart|hospital (?:no|number)|nhs)\b", _C),
    "health plan number": re.compile(r"\b(?:member|policy|insurance|plan|subscriber|group)\b", _C),
    "account number": re.compile(r"\b(?:account|acct|iban|sort code|routing)\b", _C),
    "licence number": re.compile(r"\b(?:licen[cs]e|dl|passport|certificate|npi|dea)\b", _C),
    "vehicle identifier": re.compile(r"\b(?:plate|vin|registration|reg)\b", _C),
    "device identifier": re.compile(r"\b(?:serial|device|imei|pacemaker|pump|implant)\b", _C),
    "ssn": re.compile(r"\b(?:ssn|social security)\b", _C),
}


def classify(unit: str, text: str) -> str:
    """The Safe Harbor category of ``unit`` in ``text`` (or ``facility`` / ``not an identifier``)."""
    u = unit.strip()
    at = text.casefold().find(u.casefold())
    before = text[max(0, at - 30) : at] if at >= 0 else ""
    if _EMAIL.search(u):
        return "email"
    if _URL.search(u):
        return "url"
    if _IP.fullmatch(u):
        return "ip address"
    if _SSN.search(u) or (_BEFORE["ssn"].search(before) and any(c.isdigit() for c in u)):
        return "ssn"
    digits = sum(c.isdigit() for c in u)
    if _is_date(u) and not _STREET.search(u):
        return "date"
    near = before[-14:]
    if digits >= 9 and re.fullmatch(r"[\d\s().+-]+", u):
        if _BEFORE["medical record number"].search(near):
            return "medical record number"
        return "fax" if _BEFORE["fax"].search(near) else "phone"
    if _STREET.search(u) or _ON_STREET.search(u) or re.match(r"\d+\s+[A-Za-z]{3,}(?:\s+[A-Za-z]+)*,?", u):
        return "geographic"
    if digits:
        if u.casefold().startswith(("mrn", "nhs")) or (
            _BEFORE["medical record number"].search(before) and digits >= 4
        ):
            return "medical record number"
        if ("#" in u and _PLAN.search(u)) or (_PLAN.search(u) and digits >= 5):
            return "health plan number"
        for cat in ("fax", "account number", "licence number", "vehicle identifier", "device identifier"):
            if _BEFORE[cat].search(before) and digits >= 3:
                return cat
        if _BEFORE["health plan number"].search(before) and digits >= 5:
            return "health plan number"
    if _AGE.fullmatch(u) or (_AGE.search(u) and _AGE_WORDS.search(u + " " + text[at + len(u) : at + len(u) + 12])):
        n = int(_AGE.search(u).group(1))  # type: ignore[union-attr]
        return "age over 89" if n >= 90 else NONE
    if _FACILITY.search(u):
        return FACILITY
    if _MEASURE.search(u):
        return NONE  # a lab value or a dose ("2.1 mU/L", "500 mg"), not a code
    if digits and _FLIGHT.search(u) and len(u.split()) <= 4:
        return "other unique code"
    if (digits and re.search(r"[A-Za-z]", u)) or digits >= 4:
        return "other unique code"
    if digits:
        return NONE
    words = u.split()
    if 1 <= len(words) <= 6 and all(re.fullmatch(r"[^\W\d_][\w.'’-]*", w) for w in words):
        return _place_or_name(u, before)
    return NONE


_PLACE_BEFORE = re.compile(r"\b(?:in|from|near|to|live in|lives in|moved to|visiting)\s*$", _C)


def _place_or_name(unit: str, before: str) -> str:
    """A town after "in"/"from" or known to the gazetteer as a place; else a name."""
    from core.domain import state_level
    from core.lexicon import lexicon

    if re.match(r"(?:dr|mr|mrs|ms|prof)\b", unit, _C):
        return "name"
    kind = lexicon().public_kind(unit)
    if kind == "country" or state_level(unit):
        return NONE
    if kind in ("place", "region") or _PLACE_BEFORE.search(before):
        return "geographic"
    if kind in ("company", "brand", "company-word", "drug"):
        return NONE
    return "name"


_FULL_MONTH = (
    r"(?:january|february|march|april|may|june|july|august|september|october|november|"
    r"december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)"
)
#: Dates with a day or a month written in a text (strict: "03/14", "5 March", "march 5th").
_SCAN_DATE = re.compile(
    r"\b(?:0?[1-9]|1[0-2])/(?:0?[1-9]|[12]\d|3[01])(?:/(?:19|20)?\d\d)?\b"
    r"|\b(?:0?[1-9]|[12]\d|3[01])/(?:0?[1-9]|1[0-2])/(?:19|20)\d\d\b"
    rf"|\b{_FULL_MONTH}\.?\s+(?:0?[1-9]|[12]\d|3[01])(?:st|nd|rd|th)?\b"
    rf"|\b(?:0?[1-9]|[12]\d|3[01])(?:st|nd|rd|th)?\s+(?:of\s+)?{_FULL_MONTH}\b",
    _C,
)
_OTHER_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}[.-]\d{1,2}[.-](?:19|20)?\d\d\b")


def _is_date(value: str) -> bool:
    """A date with a day or a month ("04/18/1989", "2024-03-02", "5 March"), not "2.1"."""
    return bool(_SCAN_DATE.search(value) or _OTHER_DATE.search(value))


_SCAN_AGE = re.compile(r"\b(?:9\d|1[01]\d)\s*(?:-?\s*(?:years?|yrs?)[- ]old|yo\b|y/o)|\baged?\s+(?:9\d|1[01]\d)\b", _C)
_SCAN_ZIP = re.compile(r"\b(?:(?-i:[A-Z]{2})|zip(?: code)?:?)\s+\d{5}(?:-\d{4})?\b", _C)
_LOCATIVE = re.compile(r"\b(?:in|from|near|around|outside|live in|moved to)\s+$", _C)
_TOKEN = re.compile(r"[A-Za-z][\w'’.-]*")


def scan(text: str, gold: Sequence[str] = ()) -> list[tuple[str, str]]:
    """Safe Harbor elements written in ``text`` that the gold units leave out: dates with
    a day or a month, ages over 89, ZIP codes after a state, and gazetteer places smaller
    than a state after "in", "from", "near"... (``(category, value)``; a pattern reading,
    reported apart from the gold count)."""
    from core.domain import state_level
    from core.lexicon import lexicon

    inside = [g.casefold() for g in gold]
    found: list[tuple[str, str]] = []
    for cat, rx in (("date", _SCAN_DATE), ("age over 89", _SCAN_AGE), ("geographic", _SCAN_ZIP)):
        found += [(cat, m.group(0)) for m in rx.finditer(text)]
    lx = lexicon()
    toks = [(m.start(), m.end()) for m in _TOKEN.finditer(text)]
    i = 0
    while i < len(toks):
        step = 1
        for n in (3, 2, 1):
            if i + n > len(toks) or not _LOCATIVE.search(text[max(0, toks[i][0] - 12) : toks[i][0]]):
                continue
            v = text[toks[i][0] : toks[i + n - 1][1]].strip(".")
            if (
                len(v) >= 4
                and lx.public_kind(v) in ("place", "region")
                and not state_level(v)
                # "in reading", "in light of": a common word is no town unless capitalised.
                and (v[0].isupper() or lx.zipf(v.split()[0]) < 4.5)
            ):
                found.append(("geographic", v))
                step = n
                break
        i += step
    return [(c, v) for c, v in found if not any(v.casefold() in g for g in inside)]


@dataclass(frozen=True)
class HealthText:
    id: str
    text: str
    units: tuple[str, ...]
    source: str


def health_texts(medpcd: Path | None, utility: Path | None) -> list[HealthText]:
    """The Med-PCD eval fold and the ``med-`` texts of a utility set, with their gold units."""
    out = []
    if medpcd is not None and medpcd.exists():
        for r in select_split(read_medpcd(medpcd), "eval"):
            out.append(HealthText(r.id, r.text, tuple(r.units), "med_pcd"))
    if utility is not None and utility.exists():
        for item in json.loads(utility.read_text("utf-8")):
            if str(item["id"]).startswith("med-"):
                # The set's task-critical strings (lab values, drugs, ages) are
                # not identifiers by its own definition: only ``protect`` is gold.
                units = tuple(dict.fromkeys(item["protect"]))
                out.append(HealthText(str(item["id"]), item["text"], units, utility.stem))
    return out


def payloads(
    texts: Sequence[HealthText], risk_lambda: float, profile: str
) -> Iterator[tuple[HealthText, str, str]]:
    """``(text, payload, profile applied)`` on the real prepare path of a chat turn."""
    from core.settings import Settings
    from core.store import Store
    from training.eval_utility import _assistant

    settings = Settings(risk_lambda=risk_lambda, privacy_profile=profile)
    with tempfile.TemporaryDirectory(prefix="sottovoce-safe-harbor-") as tmp:
        store = Store.create(Path(tmp) / "vault.db", "evaluation only")
        try:
            assistant = _assistant(settings, store)
            for t in texts:
                conv = assistant.new_conversation(t.id)
                prepared = assistant.prepare(t.text, conv)
                payload = "\n".join(m["content"] for m in prepared.messages) if prepared.messages else ""
                yield t, payload, str(prepared.analysis.profile)
        finally:
            store.close()


def count(texts: Sequence[HealthText], risk_lambda: float = 5.0, profile: str = "auto") -> dict[str, Any]:
    """Units per category, those that leave, and every leak (id, category, unit)."""
    present: Counter[str] = Counter()
    leaked: Counter[str] = Counter()
    profiles: Counter[str] = Counter()
    scanned: Counter[str] = Counter()
    scanned_leaked: Counter[str] = Counter()
    leaks: list[dict[str, Any]] = []
    for t, payload, applied in payloads(texts, risk_lambda, profile):
        profiles[applied] += 1
        for u in t.units:
            cat = classify(u, t.text)
            present[cat] += 1
            if cat != NONE and unit_leaked(u, payload):
                leaked[cat] += 1
                leaks.append({"id": t.id, "source": t.source, "category": cat, "unit": u})
        for cat, v in scan(t.text, t.units):
            scanned[cat] += 1
            if unit_leaked(v, payload):
                scanned_leaked[cat] += 1
                leaks.append({"id": t.id, "source": t.source, "category": cat, "unit": v, "scan": True})
    identifiers = [c for c in (*CATEGORIES, FACILITY) if present[c]]
    return {
        "texts": len(texts),
        "risk_lambda": risk_lambda,
        "profile": profile,
        "profiles_applied": dict(profiles),
        "units": {c: present[c] for c in (*identifiers, NONE) if present[c]},
        "leaked": {c: leaked[c] for c in identifiers if leaked[c]},
        "safe_harbor_leaks": sum(leaked[c] for c in CATEGORIES),
        "facility_leaks": leaked[FACILITY],
        "scanned": dict(scanned),
        "scanned_leaked": dict(scanned_leaked),
        "scanned_leaks": sum(scanned_leaked.values()),
        "leaks": leaks,
    }


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m training.safe_harbor", description=__doc__.split("\n\n")[0])
    p.add_argument("--medpcd", type=Path, default=DEFAULT_MEDPCD, help="Med-PCD JSON (its eval fold is used)")
    p.add_argument("--utility", type=Path, default=DEFAULT_UTILITY, help="a utility set (its med- texts)")
    p.add_argument("--lambda", dest="risk_lambda", type=float, default=5.0)
    p.add_argument("--profile", default="auto", choices=["auto", "general", "health", "legal", "hr", "finance"])
    p.add_argument("--out", type=Path, help="write results.json here")
    args = p.parse_args(argv)
    texts = health_texts(args.medpcd, args.utility)
    r = count(texts, args.risk_lambda, args.profile)
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "results.json").write_text(json.dumps(r, indent=1, ensure_ascii=False) + "\n", "utf-8")
    print(
        f"{r['texts']} health texts at lambda {r['risk_lambda']:g}, profile {r['profile']} "
        f"(applied: {r['profiles_applied']}): {r['safe_harbor_leaks']} Safe Harbor identifiers "
        f"leave, {r['facility_leaks']} facilities; units {r['units']}; leaked {r['leaked']}. "
        f"Beyond the gold units, {sum(r['scanned'].values())} elements read by pattern "
        f"{r['scanned']}: {r['scanned_leaks']} leave {r['scanned_leaked']}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
