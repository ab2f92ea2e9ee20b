"""Analysis of one text: segment, detect, route, and compose what would leave.

:class:`Analyzer` is the privacy pipeline up to (not including) egress. It is
what ``sottovoce analyze`` prints and what the editor colours; the turn
pipeline builds on it. Everything here works on character spans of the
original text.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from core.box import PrivacyBox
from core.detect.base import Detector
from core.entities import EntityType
from core.errors import InputError
from core.router.base import HeuristicRouter, RouteInput, Router
from core.segment import Segmenter
from core.spans import Sentence, Span

#: The largest text one turn accepts (characters). Larger inputs are refused
#: with a clear message instead of hanging the window.
MAX_CHARS = 1_000_000
WITHHELD = "[private sentence withheld]"


class Route(StrEnum):
    LOCAL = "local"
    REMOTE = "remote"


@dataclass
class SentencePlan:
    """The decision for one sentence, with its reasons."""

    index: int
    sentence: Sentence
    route: Route
    p_remote: float
    entities: list[Span]
    overridden: bool = False
    protected: list[bool] = field(default_factory=list)  # per entity; False = sent in clear

    def __post_init__(self) -> None:
        if not self.protected:
            self.protected = [True] * len(self.entities)

    def to_json(self) -> dict[str, Any]:
        return {
            "start": self.sentence.start,
            "end": self.sentence.end,
            "text": self.sentence.text,
            "route": str(self.route),
            "p_remote": round(self.p_remote, 4),
            "overridden": self.overridden,
            "entities": [
                {**e.to_json(), "protected": p} for e, p in zip(self.entities, self.protected, strict=True)
            ],
        }


@dataclass
class Analysis:
    text: str
    plans: list[SentencePlan]
    risk_lambda: float
    router: str

    @property
    def entities(self) -> list[Span]:
        return [e for p in self.plans for e in p.entities]

    def remote(self) -> list[SentencePlan]:
        return [p for p in self.plans if p.route is Route.REMOTE]

    def to_json(self, outbound: str | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "sentences": [p.to_json() for p in self.plans],
            "risk_lambda": self.risk_lambda,
            "router": self.router,
        }
        if outbound is not None:
            out["outbound"] = outbound
        return out


def check_text(text: str) -> str:
    if not text.strip():
        raise InputError("The text is empty: there is nothing to analyze.")
    if len(text) > MAX_CHARS:
        raise InputError(
            f"The text is too long ({len(text):,} characters; the limit is {MAX_CHARS:,}).",
            hint="split it into smaller parts",
        )
    return text


class Analyzer:
    """Segment, detect and route a text; build defaults only when given none."""

    def __init__(
        self,
        segmenter: Segmenter | None = None,
        detector: Detector | None = None,
        router: Router | None = None,
    ) -> None:
        if detector is None:
            from core.detect.rules import RulesView

            detector = Detector([RulesView()])
        self.segmenter = segmenter or Segmenter()
        self.detector = detector
        self.router: Router = router or HeuristicRouter()

    def analyze(
        self,
        text: str,
        risk_lambda: float = 5.0,
        overrides: Mapping[int, Route] | None = None,
    ) -> Analysis:
        check_text(text)
        sentences = self.segmenter.segment(text)
        spans = self.detector.analyze(text)
        per_sentence = assign(sentences, spans)
        probs = self.router.route(RouteInput(text, sentences, per_sentence, risk_lambda))
        plans = []
        for i, (s, ents, p) in enumerate(zip(sentences, per_sentence, probs, strict=True)):
            route = Route.REMOTE if p >= 0.5 else Route.LOCAL
            over = (overrides or {}).get(i)
            plans.append(
                SentencePlan(i, s, over or route, float(p), list(ents), overridden=over is not None)
            )
        return Analysis(text, plans, risk_lambda, self.router.name)


def assign(sentences: Sequence[Sentence], spans: Sequence[Span]) -> list[list[Span]]:
    """Give each sentence the entities that overlap it, clipped to its bounds."""
    out: list[list[Span]] = [[] for _ in sentences]
    j = 0
    ordered = sorted(spans, key=lambda s: s.start)
    for i, sent in enumerate(sentences):
        while j < len(ordered) and ordered[j].end <= sent.start:
            j += 1
        k = j
        while k < len(ordered) and ordered[k].start < sent.end:
            s = ordered[k]
            a, b = max(s.start, sent.start), min(s.end, sent.end)
            if a < b:
                out[i].append(Span(a, b, s.type, s.score, dict(s.views)))
            k += 1
    return out


def compose_outbound(analysis: Analysis, box: PrivacyBox) -> str:
    """The user content the cloud would receive: remote sentences, anonymized.

    Each run of sentences kept local becomes one ``[private sentence withheld]``
    marker, so the cloud knows that context is missing. Protected entities of
    remote sentences are replaced by their placeholders (the box is updated);
    an entity the person chose to send in clear is left as it is.

    A value is private wherever it occurs: every other occurrence of a
    protected value (found in this text or already in the box) in a remote
    sentence is replaced too, even where no view flagged it there. Otherwise
    the egress guard, which looks for box values everywhere, would rightly
    block the request.
    """
    text = analysis.text
    clear = {
        text[e.start : e.end]
        for p in analysis.plans
        for e, keep in zip(p.entities, p.protected, strict=True)
        if not keep
    }
    known: dict[str, EntityType] = {
        text[e.start : e.end]: e.type
        for p in analysis.plans
        for e, keep in zip(p.entities, p.protected, strict=True)
        if keep
    }
    for entry in box.entries():
        known.setdefault(entry.value, entry.type)
    finder = _value_finder([v for v in known if v not in clear])
    pieces: list[str] = []
    prev_end: int | None = None
    withheld = False
    for plan in analysis.plans:
        s = plan.sentence
        if plan.route is Route.LOCAL:
            if not withheld:
                if pieces and prev_end is not None:
                    pieces.append(text[prev_end : s.start] or " ")
                pieces.append(WITHHELD)
                withheld = True
            prev_end = s.end
            continue
        if pieces and prev_end is not None:
            # Sentences are contiguous, so the gap is the original whitespace.
            pieces.append(text[prev_end : s.start] or " ")
        withheld = False
        spans = [
            Span(e.start - s.start, e.end - s.start, e.type, e.score, e.views)
            for e, keep in zip(plan.entities, plan.protected, strict=True)
            if keep
        ]
        if finder is not None:
            for m in finder.finditer(s.text):
                value = _canonical(m.group(0), known)
                spans.append(Span(m.start(), m.end(), known[value], 1.0, {"box": 1.0}))
        # Overlaps merge into one placeholder (never half a name in clear).
        pieces.append(box.anonymize(s.text, spans).text)
        prev_end = s.end
    return "".join(pieces)


def _value_finder(values: Sequence[str]) -> re.Pattern[str] | None:
    """One pattern for every value, longest first, as whole words.

    Values of four characters or more match in any case; shorter ones only in
    their own case or in capitals (as the egress guard reads them: "May" the
    name must not turn every "may" into a placeholder).
    """
    values = [v for v in values if len(v.strip()) >= 2]
    if not values:
        return None
    alts = []
    for v in sorted(set(values), key=len, reverse=True):
        esc = re.escape(v)
        if len(v) >= 4:
            body = f"(?i:{esc})"
        else:
            body = esc if v == v.upper() else f"(?:{esc}|{re.escape(v.upper())})"
        # Word edges as the guard sees them: a change of class (letter, digit,
        # anything else), so "id" is a word in "email_id" and "u789x" holds "u789".
        alts.append(_edge(v[0], before=True) + body + _edge(v[-1], before=False))
    return re.compile("|".join(alts))


def _edge(ch: str, *, before: bool) -> str:
    same = r"\d" if ch.isdigit() else r"[^\W\d_]" if ch.isalpha() else None
    if same is None:
        return ""
    return f"(?<!{same})" if before else f"(?!{same})"


def _canonical(found: str, known: dict[str, EntityType]) -> str:
    if found in known:
        return found
    low = found.casefold()
    return next(v for v in known if v.casefold() == low)
