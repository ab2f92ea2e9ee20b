"""Character spans: the one currency of the pipeline.

Sentences and entities are spans of the original text; highlighting,
routing, anonymizing and metrics all work on them and never re-find
substrings (DESIGN.md, "offsets are the truth").
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from core.entities import EntityType


@dataclass(frozen=True, slots=True)
class Sentence:
    """A sentence as ``text[start:end]`` of the original text."""

    start: int
    end: int
    text: str


@dataclass(frozen=True, slots=True)
class Span:
    """A detected entity: ``text[start:end]`` with a type and its evidence.

    ``views`` maps each detection view that found the span to its score, so
    the UI and the ledger can explain the decision without recomputing it.
    """

    start: int
    end: int
    type: EntityType
    score: float
    views: dict[str, float] = field(default_factory=dict, compare=False, hash=False)

    def __post_init__(self) -> None:
        if not 0 <= self.start < self.end:
            raise ValueError(f"invalid span [{self.start}, {self.end})")

    def overlaps(self, other: Span) -> bool:
        return self.start < other.end and other.start < self.end

    def with_view(self, view: str, score: float) -> Span:
        return replace(self, views={**self.views, view: max(score, self.views.get(view, 0.0))})

    def to_json(self) -> dict[str, object]:
        return {
            "start": self.start,
            "end": self.end,
            "type": str(self.type),
            "score": round(self.score, 4),
            "views": sorted(self.views),
        }


def merge_spans(spans: Iterable[Span]) -> list[Span]:
    """Merge overlapping and touching spans into maximal, disjoint ones.

    The merged span keeps the type of its highest-scoring (then longest)
    member, the highest score, and the union of the views. Spans that only
    touch (``a.end == b.start``) are merged too: two placeholders side by side
    would tell the cloud where one name ends and another begins.
    """
    ordered = sorted(spans, key=lambda s: (s.start, -s.end))
    out: list[Span] = []
    groups: list[list[Span]] = []
    for span in ordered:
        if groups and span.start <= out[-1].end:
            groups[-1].append(span)
            last = out[-1]
            out[-1] = Span(last.start, max(last.end, span.end), last.type, last.score)
        else:
            groups.append([span])
            out.append(span)
    merged: list[Span] = []
    for bounds, group in zip(out, groups, strict=True):
        best = max(group, key=lambda s: (s.score, s.end - s.start))
        views: dict[str, float] = {}
        for s in group:
            for name, score in s.views.items():
                views[name] = max(score, views.get(name, 0.0))
        merged.append(
            Span(bounds.start, bounds.end, best.type, max(s.score for s in group), views)
        )
    return merged
