"""Shared evaluation helpers: data readers, the fixed split, unit location and leaks.

Everything here follows ``EVALUATION.md``:

* a PII **unit** is *located* at every place it occurs in the query (exactly for
  Med-PCD and Presidio, case-insensitively for PUPA, whose units are lower-cased);
* a unit is **caught** when every character of one of its occurrences lies inside
  a detected span. We accept a union of spans, and whitespace or punctuation
  between covered characters need not be covered, since ``[PERSON_1] [PERSON_2]``
  or ``[ORG_1], [ORG_2]`` leaks nothing of the unit; nor need a field label that
  the unit begins with (:data:`FIELD_LABEL`: "MRN OR-77219", "DOB 03/02/1961"):
  the detector keeps a label in clear on purpose, so that the cloud knows what
  ``[ID_1]`` is, and the label identifies no one; pass ``text=None`` to
  :func:`unit_caught` for the strict reading (every character inside a span);
* a unit **leaks** when it occurs in an outbound payload after normalization
  (NFKC, case folding, zero-width characters removed, whitespace collapsed);
  :func:`unit_leaked_fuzzy` is the paraphrase-tolerant variant (rapidfuzz
  token-set ratio >= 90 against windows of the payload).

The readers return one record type for every format, and :func:`split_of`
assigns each record to ``train`` or ``eval`` from a hash of its id, so the same
record lands in the same fold in every tool and on every machine.
"""

from __future__ import annotations

import csv
import hashlib
import json
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

Split = Literal["train", "eval"]

#: Share of records in the evaluation fold (by hash of the record id).
EVAL_SHARE = 0.2
_SPLIT_SALT = "sottovoce-split-v1"


# --- records ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GoldSpan:
    """An annotated entity: ``text[start:end]`` with the data set's own label."""

    start: int
    end: int
    label: str


@dataclass(slots=True)
class Record:
    """One query of any data set, in the shape every tool uses.

    ``units`` are the PII units to protect; ``spans`` are typed gold spans when
    the format has them (Presidio), else ``None``. ``case_sensitive`` says how
    units are located. ``group`` is what must not straddle folds (the template
    for Presidio's synthetic set), when there is one.
    """

    id: str
    text: str
    units: list[str]
    spans: list[GoldSpan] | None = None
    case_sensitive: bool = True
    group: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def split(self) -> Split:
        """The record's fold: by ``group`` when it has one (Presidio: by template), else by id."""
        return split_of(self.group or self.id)


def read_medpcd(path: str | Path) -> list[Record]:
    """Med-PCD JSON: ``[{id, query, pii_units[], ...}]``; units are exact substrings."""
    rows = json.loads(Path(path).read_text("utf-8"))
    out = []
    for i, row in enumerate(rows):
        units = _dedupe(u for u in row.get("pii_units", []) if u and u.strip())
        out.append(
            Record(
                id=str(row.get("id") or f"medpcd-{i:05d}"),
                text=row["query"],
                units=units,
                case_sensitive=True,
                extra={"target_response": row.get("target_response")},
            )
        )
    return out


def read_pupa(path: str | Path) -> list[Record]:
    """PUPA CSV: ``user_query`` and ``pii_units`` (lower-cased, joined with ``||``)."""
    out = []
    with Path(path).open(newline="", encoding="utf-8") as fh:
        for i, row in enumerate(csv.DictReader(fh)):
            units = _dedupe(
                u.strip() for u in (row.get("pii_units") or "").split("||") if u.strip()
            )
            out.append(
                Record(
                    id=row.get("conversation_hash") or f"pupa-{i:05d}",
                    text=row["user_query"],
                    units=units,
                    case_sensitive=False,
                    extra={
                        "target_response": row.get("target_response"),
                        "category": row.get("predicted_category"),
                    },
                )
            )
    return out


def read_presidio(path: str | Path) -> list[Record]:
    """Presidio research JSON: ``[{full_text, spans[{entity_type, start_position, ...}]}]``."""
    rows = json.loads(Path(path).read_text("utf-8"))
    out = []
    for i, row in enumerate(rows):
        text = row["full_text"]
        spans = [
            GoldSpan(int(s["start_position"]), int(s["end_position"]), str(s["entity_type"]))
            for s in row.get("spans", [])
            if int(s["end_position"]) > int(s["start_position"])
        ]
        spans.sort(key=lambda s: (s.start, s.end))
        units = _dedupe(text[s.start : s.end] for s in spans if text[s.start : s.end].strip())
        tid = row.get("template_id")
        out.append(
            Record(
                id=f"presidio-{i:05d}",
                text=text,
                units=units,
                spans=spans,
                case_sensitive=True,
                group=None if tid is None else f"template-{tid}",
                extra={"masked": row.get("masked")},
            )
        )
    return out


READERS = {"medpcd": read_medpcd, "pupa": read_pupa, "presidio": read_presidio}


def read_records(path: str | Path, fmt: str) -> list[Record]:
    """Read a data file of format ``medpcd``, ``pupa`` or ``presidio``."""
    try:
        reader = READERS[fmt]
    except KeyError:
        raise ValueError(f"unknown format {fmt!r}; expected one of {sorted(READERS)}") from None
    return reader(path)


def _dedupe(items: Iterable[str]) -> list[str]:
    seen: set[str] = set()
    out = []
    for item in items:
        if item not in seen:
            seen.add(item)
            out.append(item)
    return out


# --- the fixed split ----------------------------------------------------------


def split_of(record_id: str, eval_share: float = EVAL_SHARE) -> Split:
    """``'eval'`` for about ``eval_share`` of ids, ``'train'`` for the rest; stable forever.

    The fold depends only on the id (a salted SHA-256), never on the order or the
    size of the file, so a record never moves between folds.
    """
    digest = hashlib.sha256(f"{_SPLIT_SALT}:{record_id}".encode()).digest()
    bucket = int.from_bytes(digest[:8], "big") / 2**64
    return "eval" if bucket < eval_share else "train"


def select_split(records: Sequence[Record], split: str) -> list[Record]:
    """Records of ``split`` (``all``, ``train`` or ``eval``); see :attr:`Record.split`."""
    if split == "all":
        return list(records)
    if split not in ("train", "eval"):
        raise ValueError(f"unknown split {split!r}")
    return [r for r in records if r.split == split]


# --- locating units ---------------------------------------------------------------


def _unit_pattern(unit: str, case_sensitive: bool) -> re.Pattern[str]:
    # Any run of whitespace in the unit matches any run in the text: units are
    # often copied with a line break or a double space collapsed.
    parts = [re.escape(p) for p in unit.split()]
    flags = 0 if case_sensitive else re.IGNORECASE
    return re.compile(r"\s+".join(parts), flags)


def locate_unit(text: str, unit: str, case_sensitive: bool = True) -> list[tuple[int, int]]:
    """Every occurrence of ``unit`` in ``text`` as ``(start, end)``, overlapping ones included."""
    if not unit.strip():
        return []
    pattern = _unit_pattern(unit, case_sensitive)
    out = []
    pos = 0
    while True:
        m = pattern.search(text, pos)
        if m is None:
            break
        if m.end() > m.start():
            out.append((m.start(), m.end()))
        pos = m.start() + 1
    return out


def locate_units(
    text: str, units: Sequence[str], case_sensitive: bool = True
) -> list[list[tuple[int, int]]]:
    """For each unit, its occurrences in ``text`` (an empty list: the unit was not located)."""
    return [locate_unit(text, u, case_sensitive) for u in units]


def _bounds(span: Any) -> tuple[int, int]:
    if isinstance(span, tuple):
        return int(span[0]), int(span[1])
    return int(span.start), int(span.end)


#: A field label at the start of a gold unit ("MRN OR-77219", "NHS no. 943 476 5919",
#: "DOB: 03/02/1961"), which some data sets include in the unit: followed by a value
#: with a digit, it need not be covered (the lenient reading only). Measurement-side and
#: deliberately short: the labels the data sets put inside their units, no more.
FIELD_LABEL = re.compile(
    r"(?i)(?:mrn|dob|d\.o\.b\.|date of birth|ssn|nhs(?: staff)?(?: number| no\.?| id)?"
    r"|(?:patient|member|staff|employee) id|policy(?: number| no\.?)?"
    r"|account(?: number| no\.?)?|case(?: number| no\.?)?|booking(?: ref(?:erence)?)?)"
    r"[\s:#.]+(?=[^\s:#.]*\d)"
)


def occurrence_covered(text: str | None, occurrence: tuple[int, int], spans: Iterable[Any]) -> bool:
    """Whether every character of ``occurrence`` lies inside one of ``spans``.

    With ``text`` given, whitespace and punctuation need not be covered (two
    adjacent placeholders leave nothing of the unit behind), nor a leading field
    label (:data:`FIELD_LABEL`) before a value with a digit; with ``text=None``
    every character must be.
    """
    a, b = occurrence
    if text is not None:
        label = FIELD_LABEL.match(text, a, b)
        if label is not None and label.end() < b:
            a = label.end()
    covered = bytearray(b - a)
    for span in spans:
        s, e = _bounds(span)
        lo, hi = max(s, a), min(e, b)
        if lo < hi:
            covered[lo - a : hi - a] = b"\x01" * (hi - lo)
    for i, c in enumerate(covered):
        if not c and (text is None or not _ignorable(text[a + i])):
            return False
    return True


def _ignorable(ch: str) -> bool:
    return ch.isspace() or unicodedata.category(ch).startswith("P")


def unit_caught(
    occurrences: Sequence[tuple[int, int]], spans: Iterable[Any], text: str | None = None
) -> bool:
    """A unit is caught when one of its occurrences is fully covered by detected spans.

    ``spans`` may be :class:`core.spans.Span` objects or ``(start, end)`` tuples.
    A unit with no occurrence is not caught (report it as not located).
    """
    spans = list(spans)
    return any(occurrence_covered(text, occ, spans) for occ in occurrences)


@dataclass
class UnitTally:
    """Unit recall over a set of records."""

    units: int = 0
    located: int = 0
    caught: int = 0

    @property
    def not_located(self) -> int:
        return self.units - self.located

    @property
    def recall(self) -> float:
        return self.caught / self.located if self.located else 0.0

    def add(
        self,
        text: str,
        units: Sequence[str],
        case_sensitive: bool,
        spans: Sequence[Any],
        strict: bool = False,
    ) -> list[bool | None]:
        """Count one record; return per unit True (caught), False (missed), None (not located)."""
        verdicts: list[bool | None] = []
        for occ in locate_units(text, units, case_sensitive):
            self.units += 1
            if not occ:
                verdicts.append(None)
                continue
            self.located += 1
            hit = unit_caught(occ, spans, None if strict else text)
            self.caught += hit
            verdicts.append(hit)
        return verdicts


# --- leaks ---------------------------------------------------------------------------

_ZERO_WIDTH = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"), None)
_WS = re.compile(r"\s+")


def normalize_for_leak(text: str) -> str:
    """NFKC, zero-width characters removed, case folded, whitespace collapsed to one space."""
    text = unicodedata.normalize("NFKC", text).translate(_ZERO_WIDTH).casefold()
    return _WS.sub(" ", text).strip()


def unit_leaked(unit: str, payload: str) -> bool:
    """Whether ``unit`` occurs in ``payload`` after normalization (EVALUATION.md's leak)."""
    u = normalize_for_leak(unit)
    return bool(u) and u in normalize_for_leak(payload)


def unit_leaked_fuzzy(unit: str, payload: str, threshold: float = 90.0) -> bool:
    """Paraphrase-tolerant leak: token-set ratio >= ``threshold`` with a window of the payload.

    The payload is cut into windows of the unit's length in tokens (and one more),
    and rapidfuzz's ``token_set_ratio`` compares each window with the unit; an
    exact leak is always a fuzzy leak. Shorter windows are not used: the token-set
    ratio of a unit against any subset of its own tokens is 100.
    """
    from rapidfuzz import fuzz, utils

    if unit_leaked(unit, payload):
        return True
    u = utils.default_process(normalize_for_leak(unit))
    if not u:
        return False
    tokens = utils.default_process(normalize_for_leak(payload)).split()
    n = len(u.split())
    for size in (n, n + 1):
        for i in range(max(1, len(tokens) - size + 1)):
            window = " ".join(tokens[i : i + size])
            if fuzz.token_set_ratio(u, window, score_cutoff=threshold):
                return True
    return False


def unit_protected(
    occurrences: Sequence[tuple[int, int]],
    spans: Sequence[Any],
    protects: Sequence[bool],
    missed: Callable[[], bool],
) -> bool:
    """Whether a located gold unit is one the type policy protects (EVALUATION.md).

    ``spans`` are the detected values with ``protects``, the policy's decision
    for each. A detected value overlapping an occurrence decides: the unit is
    protected when any such value is protected, and sent on purpose when every
    one of them is sent in clear. A unit no detected value overlaps was missed:
    ``missed()`` says what the policy would have done with it.
    """
    overlapping = [
        p
        for s, p in zip(spans, protects, strict=True)
        for a, b in occurrences
        if _bounds(s)[0] < b and a < _bounds(s)[1]
    ]
    if overlapping:
        return any(overlapping)
    return missed()


def protected_leak_pct(leaked: int, protected: int) -> float:
    """Protected-unit Leak%: leaked protected units / protected units, in percent (0 when none)."""
    return round(100.0 * leaked / protected, 3) if protected else 0.0


def leak_counts(units: Sequence[str], payload: str) -> dict[str, int]:
    """Exact and fuzzy leaked-unit counts of one payload."""
    return {
        "leaked": sum(unit_leaked(u, payload) for u in units),
        "leaked_fuzzy": sum(unit_leaked_fuzzy(u, payload) for u in units),
    }


# --- span metrics ------------------------------------------------------------------------


@dataclass
class PRF:
    """True positives, false positives and false negatives, and the scores they give."""

    tp: int = 0
    fp: int = 0
    fn: int = 0

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 0.0

    def f_beta(self, beta: float) -> float:
        p, r = self.precision, self.recall
        b2 = beta * beta
        return (1 + b2) * p * r / (b2 * p + r) if p + r else 0.0

    def to_json(self) -> dict[str, float | int]:
        return {
            "precision": round(self.precision, 4),
            "recall": round(self.recall, 4),
            "f1": round(self.f_beta(1.0), 4),
            "f2": round(self.f_beta(2.0), 4),
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
        }
