"""Analysis of one text: segment, detect and route.

:class:`Analyzer` is the privacy pipeline up to what would leave: what
``sottovoce analyze`` prints and what the editor colours. Composing the
outbound from an analysis is :mod:`core.outbound.compose`; the turn
(:mod:`core.turn`) builds on both. Everything here works on character spans
of the original text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from core.detect.base import Detector
from core.domain import DomainGuess, Profile, resolve
from core.entities import DESCRIPTIONS
from core.errors import InputError
from core.policy import Decision, Family, TypePolicy, merge_swept, protection
from core.router.base import HeuristicRouter, RouteInput, Router
from core.segment import Segmenter
from core.spans import Sentence, Span

#: Below this detection score an entity is one "the detector is not sure of" (the
#: router keeps such sentences here more often: a value half found may half leak).
UNSURE = 0.6

#: The largest text one turn accepts (characters). Larger inputs are refused
#: with a clear message instead of hanging the window.
MAX_CHARS = 1_000_000


class Route(StrEnum):
    LOCAL = "local"
    REMOTE = "remote"


def route_of(p_remote: float) -> Route:
    """The router's decision for a sentence it gives ``p_remote``."""
    return Route.REMOTE if p_remote >= 0.5 else Route.LOCAL


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
    #: The type policy's decision per entity (why it is protected or sent), when known.
    decisions: list[Decision] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.protected:
            self.protected = self.policy_protects

    @property
    def model_route(self) -> Route:
        """The route the router chose, before any choice of the person's."""
        return route_of(self.p_remote)

    @property
    def policy_protects(self) -> list[bool]:
        """Per entity: does the type policy protect it (True where it has no say)?"""
        if len(self.decisions) == len(self.entities):
            return [d.protect for d in self.decisions]
        return [True] * len(self.entities)

    @property
    def route_reasons(self) -> list[str]:
        """Why the sentence goes where it goes, for a person: from what the router saw
        (each entity's type and detection score) and the type policy decided."""
        local = self.model_route is Route.LOCAL
        out = []
        for i, e in enumerate(self.entities):
            what = DESCRIPTIONS.get(e.type, "private detail")
            d = self.decisions[i] if i < len(self.decisions) else None
            if e.score < UNSURE:
                out.append(f"a {what} the detector is not sure of (score {e.score:.2f})")
            elif local and d is not None and d.protect and d.norm is not None:
                out.append(f"a {d.kind}: {d.norm}")
            elif local and d is not None and d.protect and d.family is Family.QUASI:
                out.append(f"a {d.kind} protected at your level")
            elif local and d is not None and d.family is Family.DIRECT:
                out.append(f"a {d.kind}, always protected")
        if local:
            if not out:
                out.append(f"the router's estimate (p(cloud) {self.p_remote:.2f}), no private detail found")
            return list(dict.fromkeys(out))
        hidden = sum(self.policy_protects)
        sent = len(self.entities) - hidden
        parts = [f"{hidden} private detail{'s' * (hidden != 1)} replaced by placeholders"] if hidden else []
        if sent:
            parts.append(f"{sent} sent as written by the type policy")
        return [*dict.fromkeys(out), "; ".join(parts) or "no private detail found"]

    def reason(self, i: int) -> str:
        """Why entity ``i`` is protected or sent, for the editor, the approval and the CLI."""
        if i < len(self.decisions):
            d = self.decisions[i]
            if d.protect == self.protected[i]:
                return d.reason
        return "your choice: " + ("protected" if self.protected[i] else "sent as written")

    def to_json(self) -> dict[str, Any]:
        return {
            "start": self.sentence.start,
            "end": self.sentence.end,
            "text": self.sentence.text,
            "route": str(self.route),
            "p_remote": round(self.p_remote, 4),
            "overridden": self.overridden,
            "entities": [
                {**e.to_json(), "protected": p, "reason": self.reason(i)}
                for i, (e, p) in enumerate(zip(self.entities, self.protected, strict=True))
            ],
        }


@dataclass
class Analysis:
    text: str
    plans: list[SentencePlan]
    risk_lambda: float
    router: str
    #: The privacy profile whose norm the type policy applied (never ``auto``).
    profile: Profile = Profile.GENERAL
    #: What the message was read as when the profile was ``auto`` (None: chosen by the person).
    guess: DomainGuess | None = None
    #: A line for the person when part of the text is in a language without rules of its own.
    notice: str | None = None

    @property
    def profile_reason(self) -> str:
        """One line for the editor and the approval view: which profile applied, and why."""
        if self.guess is None:
            return f"{self.profile} profile (your choice)"
        return f"{self.profile} profile (read from the message: {self.guess.reason})"

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
            "profile": str(self.profile),
            "profile_reason": self.profile_reason,
        }
        if self.notice:
            out["notice"] = self.notice
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


def rules_detector() -> Detector:
    """The detector with the rules view alone (no model files needed)."""
    from core.detect.rules import RulesView

    return Detector([RulesView()])


@dataclass(eq=False)
class Analyzer:
    """Segment, detect and route a text.

    The parts not given are the plain ones (the rules detector, the heuristic
    router); the app's are assembled from the settings (:mod:`core.assembly`).
    The type policy reads the detector's word lists (public names).
    """

    segmenter: Segmenter = field(default_factory=Segmenter)
    detector: Detector = field(default_factory=rules_detector)
    router: Router = field(default_factory=HeuristicRouter)
    policy: TypePolicy = None  # type: ignore[assignment]  # set from the detector when None

    def __post_init__(self) -> None:
        if self.policy is None:
            self.policy = TypePolicy(detector_lexicon(self.detector))

    def analyze(
        self, text: str, risk_lambda: float = 5.0, profile: Profile | str = Profile.AUTO
    ) -> Analysis:
        """The router's and the type policy's decisions for ``text``; the person's
        choices are applied later, once (:meth:`core.turn.Choices.apply`).
        ``profile`` is the privacy profile (``auto``: read from the text and its
        entity types, :func:`core.domain.detect`)."""
        check_text(text)
        sentences = self.segmenter.segment(text)
        spans = list(self.detector.analyze(text))
        # The detector says which languages it judged (core.language_detector).
        languages = getattr(self.detector, "languages", None)
        langs = languages(text) if callable(languages) else None
        message = langs.message if langs is not None else "en"
        applied, guess = resolve(profile, text, (s.type for s in spans), message)
        # What the profile's norm names and the detector left out ("since 13 march").
        spans = merge_swept(spans, self.policy.sweep(text, spans, applied, message))
        per_sentence = assign(sentences, spans)
        codes = tuple(langs.at(s.start) for s in sentences) if langs is not None else ()
        probs = self.router.route(RouteInput(text, sentences, per_sentence, risk_lambda, codes))
        decisions = protection(text, per_sentence, risk_lambda, self.policy, applied)
        plans = []
        for i, (s, ents, p, ds) in enumerate(
            zip(sentences, per_sentence, probs, decisions, strict=True)
        ):
            plans.append(SentencePlan(i, s, route_of(p), float(p), list(ents), decisions=ds))
        notice = langs.notice() if langs is not None else None
        return Analysis(text, plans, risk_lambda, self.router.name, applied, guess, notice)


def detector_lexicon(detector: Detector) -> Any:
    """The detector's word lists when it has them (None: the policy loads the shipped ones)."""
    return getattr(detector, "_lexicon", None)


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
