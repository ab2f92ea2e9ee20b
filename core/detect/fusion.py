"""GAMA's multi-view fusion: keep what the views agree on, plus what the fusion step adds.

Every view (NER, rules, spaCy) proposes spans. Overlapping proposals form one
candidate, which is kept when

1. two or more views found it (agreement), or
2. one view found it with a score at or above that view's single-view
   threshold (``Settings.fusion_single_view_min``; the rules view needs a little
   more, see :data:`RULES_SINGLE_VIEW_MIN`), or
3. the fusion step adds it: with the agent enabled, the local model judges each
   person, organization or place candidate in context. "Private" keeps it even
   below the thresholds; "public" (a famous person, a landmark) drops it even
   when a view was sure. An unusable answer changes nothing.

Deny-list values are always kept, allow-list values never. Each kept span is
the union of its candidate's proposals and records every view that found it,
with its score (``Span.views``), plus ``agent`` when the agent was asked.

A proposal marked ``name-extent`` (the rules view's runs of capitalized words,
:data:`core.detect.rules.NAME_EXTENT`) is no evidence: it counts for none of
the rules above and only widens a candidate kept on other views' evidence to
the full name ("Metadee" to "Metadee Concept Hotel").
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, Unpack

from core.detect.base import DetectionView, Detector, DetectorOptions, _deny_spans
from core.detect.refine import cut_at_table_cells
from core.detect.rules import NAME_EXTENT, markers_win
from core.detect.zones import EMAIL
from core.entities import EntityType
from core.spans import Span, merge_spans

if TYPE_CHECKING:
    from pathlib import Path

    from core.lexicon import Lexicon
    from core.settings import Settings

log = logging.getLogger(__name__)

DENY = "deny-list"
AGENT = "agent"
#: The types the agent is asked about (GAMA: people, organizations and places).
AGENT_TYPES = frozenset({EntityType.PERSON, EntityType.ORG, EntityType.LOCATION})


class PrivacyJudge(Protocol):
    """Decides whether an entity is private in its context (the agent view)."""

    name: str

    def judge(self, text: str, span: Span) -> float | None:
        """1.0 private, 0.0 public, None when it cannot tell."""
        ...


class Fusion(Detector):
    """A :class:`Detector` whose fusion follows GAMA's multi-view privacy identification.

    ``single_view_min`` is the score a span found by one view only must reach;
    ``view_min`` overrides it per view name. ``agent`` is the optional fusion
    step. ``min_score`` drops proposals below it before anything else; the
    other ``options`` are :class:`Detector`'s.
    """

    def __init__(
        self,
        views: Sequence[DetectionView],
        *,
        single_view_min: float = 0.5,
        view_min: Mapping[str, float] | None = None,
        agent: PrivacyJudge | None = None,
        **options: Unpack[DetectorOptions],
    ) -> None:
        super().__init__(views, **options)
        self.single_view_min = single_view_min
        self.view_min = dict(view_min or {})
        self.agent = agent

    def analyze(self, text: str) -> list[Span]:
        return self.fuse(text, {view.name: view.analyze(text) for view in self.views})

    def fuse(self, text: str, proposals: Mapping[str, Sequence[Span]]) -> list[Span]:
        """Fuse the spans each view proposed for ``text`` (views keyed by name)."""
        spans = _cut_at_addresses(
            text,
            markers_win(
                cut_at_table_cells(
                    text, [s for group in proposals.values() for s in group if s.score >= self.min_score]
                ),
                text,
            ),
        )
        spans = _extent_between_names(
            text, [_before_next_setting(text, _extent_before_home(text, s)) for s in spans]
        )
        if self.refines:
            spans = [s for s in spans if not _terms_only(text, s, self.lexicon)]
        kept: list[Span] = []
        for group in _clusters(spans):
            views: dict[str, float] = {}
            for s in group:
                for name, score in s.views.items():
                    views[name] = max(score, views.get(name, 0.0))
            evidence = {name: score for name, score in views.items() if name != NAME_EXTENT}
            keep = len(evidence) >= 2 or any(
                score >= self.view_min.get(name, self.single_view_min)
                for name, score in evidence.items()
            )
            merged = merge_spans(group)[0] if len(group) > 1 else group[0]
            merged = Span(merged.start, merged.end, merged.type, merged.score, views)
            # A pattern match (an anonymization marker, a deny-list value) is not
            # a matter of context: the agent judges names the models proposed.
            if (
                self.agent is not None
                and merged.type in AGENT_TYPES
                and not evidence.keys() & {"rules", DENY}
            ):
                verdict = self.agent.judge(text, merged)
                if verdict is not None:
                    merged = merged.with_view(AGENT, verdict)
                    keep = verdict >= 0.5
            if keep:
                kept.append(merged)
        kept.extend(_deny_spans(text, self.deny))
        kept = self.refine(text, kept)
        if self.allow:
            kept = [
                s
                for s in kept
                if DENY in s.views or text[s.start : s.end].casefold() not in self.allow
            ]
        return kept


#: Addresses a pattern matched whole: what a model ran into them from either side is
#: another value.
_ADDRESSES = frozenset({EntityType.EMAIL, EntityType.IP})


def _cut_at_addresses(text: str, spans: list[Span]) -> list[Span]:
    """A model's span that runs into an e-mail or IP address the rules matched whole
    keeps only what lies outside it ("uk\\n224 Moore Roads" of a signature: the end of
    "...co.uk" and the street on the next line, typed an address; merged with the
    e-mail, the street was cut into words and lost as no part of it).

    A link with a path is whole the same way; what a model read inside it stays as
    evidence for the link, with the link's type ("seun" of "github.com/seun-adebayo"
    read as a company)."""
    whole = [s for s in spans if s.type in _ADDRESSES and s.views.get("rules", 0.0) >= 0.9]
    # An e-mail address is whole by its shape too, whatever its domain's ending ("...@
    # fastmail.example", which the rules view's check of the top-level domain refuses).
    whole += [
        Span(m.start(), m.end(), EntityType.EMAIL, 1.0, {})
        for m in EMAIL.finditer(text)
        if not any(a.start == m.start() and a.end == m.end() for a in whole)
    ]
    links = [s for s in spans if _link_with_path(text, s)]
    if not whole and not links:
        return spans
    whole += links
    out: list[Span] = []
    for s in spans:
        if "rules" in s.views or (
            s.type in _ADDRESSES
            and not any(
                a.start < s.end and s.start < a.end and (s.start < a.start or a.end < s.end)
                for a in whole
            )
        ):
            out.append(s)
            continue
        hits = [a for a in whole if a.start < s.end and s.start < a.end]
        for link in (a for a in hits if a in links):
            a, b = max(s.start, link.start), min(s.end, link.end)
            out.append(Span(a, b, EntityType.URL, s.score, s.views))
        if not hits:
            out.append(s)
            continue
        if any(a.start <= s.start and s.end <= a.end for a in hits):
            if not any(a in links for a in hits):
                out.append(s)
            continue
        pos, pieces = s.start, []
        for hit in sorted(hits, key=lambda x: x.start):
            pieces.append((pos, hit.start))
            pos = max(pos, hit.end)
            if s.type in _ADDRESSES and s.type is hit.type:
                # "Marisol Etxeberria, marisol.etx@...": a model's e-mail address that took
                # in the name before it keeps the address; the name is cut off below.
                out.append(Span(max(s.start, hit.start), min(s.end, hit.end), s.type, s.score, s.views))
        pieces.append((pos, s.end))
        for a, b in pieces:
            while a < b and not text[a].isalnum():
                a += 1
            while b > a and not text[b - 1].isalnum():
                b -= 1
            if b - a >= 2:
                out.append(Span(a, b, s.type, s.score, s.views))
    return out


_TERM_WORD = re.compile(r"[^\W_][\w&'-]*")


def _terms_only(text: str, span: Span, lexicon: Lexicon) -> bool:
    """A model's span made only of terms ("MRCGP\\nGP", "MBBS") names no one; dropped
    before clustering, it can no longer join the name before it to the role after it
    ("Dr. Anneliese Vukovic MBBS MRCGP\\nGP Partner" typed one person)."""
    if span.type is EntityType.PERSON or span.views.keys() - {"ner", NAME_EXTENT}:
        return False  # a person's name may be a term too ("Dev's car"): refinement judges
    words = _TERM_WORD.findall(text, span.start, span.end)
    return bool(words) and all(
        lexicon.is_term(w) and not (lexicon.is_given(w) or lexicon.is_surname(w)) for w in words
    )


#: " of " and the word of a home or a place in a building after it ("Mr Kwame Asante of
#: Flat 3", "Dr Lee of Unit 4B").
_OF_HOME = re.compile(
    r"[ \t]+of[ \t]+(?:the[ \t]+)?(?:Flat|Apartment|Apt|Unit|Suite|Room|House|Block|Floor|No)\b"
)


def _extent_before_home(text: str, span: Span) -> Span:
    """A name's extent ends before " of " and a home's word: "Mr Kwame Asante of Flat 3"
    is a person, then an address (the extent joined them into one person's span)."""
    if NAME_EXTENT not in span.views:
        return span
    m = _OF_HOME.search(text, span.start, span.end)
    return span if m is None else Span(span.start, m.start(), span.type, span.score, span.views)


#: A line break and the next line's setting ("\n      POSTGRES_PASSWORD: ...", "\n  db_user=").
_NEXT_LINE_SETTING = re.compile(
    r"[ \t]*\n[ \t]*(?:- )?(?:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[a-z][a-z0-9]*(?:_[a-z0-9]+)+)[\"']?[ \t]*[:=]"
)


def _before_next_setting(text: str, span: Span) -> Span:
    """A span ends at the line break before the next line's setting: a model's "harriet\n
    POSTGRES" of a configuration's block is the value of one line, and the key of the next
    one no part of it (joined, the next value took the first one's type and the first was
    lost)."""
    nl = text.find("\n", span.start, span.end)
    while nl > span.start:
        cut = len(text[span.start : nl].rstrip(" \t")) + span.start
        if cut > span.start and _NEXT_LINE_SETTING.match(text, cut):
            return Span(span.start, cut, span.type, span.score, span.views)
        nl = text.find("\n", nl + 1, span.end)
    return span


#: " of " between two names.
_OF = re.compile(r"[ \t]+of[ \t]+")


def _extent_between_names(text: str, spans: list[Span]) -> list[Span]:
    """A name's extent ends before " of " where a view's person ends and a view's
    organisation begins after it: "Sunil Mehta of Mehta & Co Chartered Accountants" is a
    person and a firm (the extent joined them into one person's span, and the firm's name
    became the person's). A place after "of" may be the person's own name ("Catherine
    of Aragon")."""
    if not any(NAME_EXTENT in s.views for s in spans):
        return spans
    found = [s for s in spans if NAME_EXTENT not in s.views]
    person_ends = {s.end for s in found if s.type is EntityType.PERSON}
    other_starts = {s.start for s in found if s.type is EntityType.ORG}
    out = []
    for s in spans:
        if NAME_EXTENT in s.views:
            for m in _OF.finditer(text, s.start, s.end):
                if m.start() in person_ends and m.end() in other_starts:
                    s = Span(s.start, m.start(), s.type, s.score, s.views)
                    break
        out.append(s)
    return out


def _link_with_path(text: str, span: Span) -> bool:
    """A link the rules matched with its path ("linkedin.com/in/ana-lee-07b2"): whole,
    like an e-mail address (a model reads its pieces as a company, a link and an ID and
    runs them into the next link and the next sentence)."""
    return (
        span.type is EntityType.URL
        and span.views.get("rules", 0.0) >= 0.5
        and "/" in text[span.start : span.end].strip("/")
    )


def _clusters(spans: Iterable[Span]) -> list[list[Span]]:
    """Groups of spans connected by overlap (touching spans stay apart)."""
    groups: list[list[Span]] = []
    end = -1
    for span in sorted(spans, key=lambda s: (s.start, -s.end)):
        if groups and span.start < end:
            groups[-1].append(span)
            end = max(end, span.end)
        else:
            groups.append([span])
            end = span.end
    return groups


def fused_detector(
    settings: Settings,
    generate: Callable[[str], str] | None = None,
    ner_folder: Path | None = None,
) -> Fusion | None:
    """The shipped detector: NER and rules views fused, or None when the NER model is absent.

    spaCy's view is not among the defaults: it costs as much as the NER pass
    and adds little to it (see ``docs/data-card-ner.md``), and the detector must
    stay faster than Presidio's. With ``settings.agent_view`` the local model
    (``generate``, else the one the settings describe, loaded on first use)
    judges names in context. ``ner_folder`` points at another NER artifact.
    """
    import models
    from core.detect.ner import ARTIFACT, NerView
    from core.detect.rules import RulesView

    folder = ner_folder or models.artifact_dir(ARTIFACT)
    if not (folder / "manifest.json").exists():
        return None
    agent = None
    if settings.agent_view:
        from core.detect.agent import AgentView

        agent = AgentView(generate or local_generate(settings))
    # The rules view proposes proper-name extents too; they only widen a name
    # another view found (see the module's docstring).
    rules = RulesView(name_extents=True)
    return Fusion([NerView(folder), rules], agent=agent, **fusion_options(settings))


#: Presidio scores its weak pattern matches (any digit run as a possible phone
#: number at 0.4, a bare domain at 0.5) low; alone they are mostly noise (4,213
#: of 4,418 such phone matches on PUPA's train fold touch no PII unit), so the
#: rules view needs a little more than the general single-view threshold.
RULES_SINGLE_VIEW_MIN = 0.55


def fusion_options(settings: Settings) -> dict[str, Any]:
    """The keyword arguments of :class:`Fusion` that come from the settings."""
    return {
        "single_view_min": settings.fusion_single_view_min,
        "view_min": {"rules": max(RULES_SINGLE_VIEW_MIN, settings.fusion_single_view_min)},
        "allow": settings.allow_list,
        "deny": settings.deny_list,
        "min_score": settings.detect_min_score,
    }


def local_generate(settings: Settings) -> Callable[[str], str]:
    """``generate(prompt)`` over the local model of ``settings``, loaded on first call."""
    holder: dict[str, Any] = {}

    def generate(prompt: str) -> str:
        if "model" not in holder:
            from core.llm.local import LocalModel

            holder["model"] = LocalModel.from_settings(settings)
        reply = holder["model"].chat(
            [{"role": "user", "content": prompt}], max_tokens=4, temperature=0.0
        )
        return str(reply.text)

    return generate
