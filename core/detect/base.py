"""The interface of a detection view, and the detector that runs several."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Protocol, TypedDict, runtime_checkable

from core.spans import Span, merge_spans

if TYPE_CHECKING:
    from core.lexicon import Lexicon


@runtime_checkable
class DetectionView(Protocol):
    """Finds private entities in a text.

    ``analyze`` returns spans of ``text`` with a type, a score in [0, 1] and
    ``views == {name: score}``. It must not touch the network.
    """

    name: str

    def analyze(self, text: str) -> list[Span]: ...


class DetectorOptions(TypedDict, total=False):
    """The keywords of :class:`Detector` that a detector built on it passes on."""

    allow: Iterable[str]
    deny: Iterable[str]
    min_score: float
    lexicon: Lexicon | None
    refine: bool


class Detector:
    """Runs views over a text and fuses their spans.

    The default fusion is the union: a span any view finds is kept, and spans
    that overlap are merged with the union of their views (see
    :func:`core.spans.merge_spans`). ``allow`` values are never reported;
    ``deny`` values are always reported wherever they occur. Every result is
    refined (:func:`core.detect.refine.refine`: whole tokens, no quantities,
    code or generic terms) with ``lexicon`` (default: the shipped word lists,
    loaded on first use); ``refine=False`` returns the views' spans as found.
    """

    def __init__(
        self,
        views: Sequence[DetectionView],
        *,
        allow: Iterable[str] = (),
        deny: Iterable[str] = (),
        min_score: float = 0.0,
        lexicon: Lexicon | None = None,
        refine: bool = True,
    ) -> None:
        self.views = list(views)
        self.allow = {a.casefold() for a in allow if a.strip()}
        self.deny = [d for d in deny if d.strip()]
        self.min_score = min_score
        self._lexicon = lexicon
        self.refines = refine

    @cached_property
    def lexicon(self) -> Lexicon:
        """The word lists the refinement and the type policy read."""
        from core.lexicon import lexicon

        return self._lexicon if self._lexicon is not None else lexicon()

    def refine(self, text: str, spans: list[Span]) -> list[Span]:
        """Whole tokens, and what is not an identifier removed (see :mod:`core.detect.refine`)."""
        if not self.refines:
            return merge_spans(spans)
        from core.detect.refine import refine

        return refine(text, spans, self.lexicon)

    def analyze(self, text: str) -> list[Span]:
        spans: list[Span] = []
        for view in self.views:
            spans.extend(s for s in view.analyze(text) if s.score >= self.min_score)
        spans.extend(_deny_spans(text, self.deny))
        spans = self.refine(text, spans)
        if self.allow:
            spans = [s for s in spans if text[s.start : s.end].casefold() not in self.allow]
        return spans


def _deny_spans(text: str, deny: list[str]) -> list[Span]:
    import re

    from core.entities import EntityType

    out = []
    for value in deny:
        for m in re.finditer(re.escape(value), text, flags=re.IGNORECASE):
            out.append(Span(m.start(), m.end(), EntityType.OTHER, 1.0, {"deny-list": 1.0}))
    return out
