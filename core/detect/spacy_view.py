"""spaCy's own named entities as a detection view (en_core_web_sm).

A cheap, general second opinion on names, organizations and places; the
fine-tuned NER view is the main one. Only the pipes NER needs are loaded.
"""

from __future__ import annotations

from typing import Any

from core.entities import EntityType, canonical_type
from core.segment import LazyPipeline, load_pipeline
from core.spans import Span

NAME = "spacy"
# spaCy labels that are private in our sense; CARDINAL, MONEY, PERCENT... are not.
_LABELS = {"PERSON", "ORG", "GPE", "LOC", "FAC", "NORP", "DATE", "TIME"}
# en_core_web_sm gives no per-entity confidence; this is the score we report.
SCORE = 0.6


def _load_ner() -> Any:
    return load_pipeline(
        ["parser", "lemmatizer", "senter", "attribute_ruler", "tagger"], max_length=2_000_000
    )


class SpacyView:
    name = NAME

    def __init__(self, nlp: Any | None = None) -> None:
        self._pipeline = LazyPipeline(_load_ner, nlp)

    def analyze(self, text: str) -> list[Span]:
        nlp = self._pipeline.get()
        doc = nlp(text)
        out = []
        for ent in doc.ents:
            if ent.label_ not in _LABELS or not ent.text.strip():
                continue
            t = canonical_type(ent.label_)
            if t is EntityType.OTHER:
                continue
            out.append(Span(ent.start_char, ent.end_char, t, SCORE, {NAME: SCORE}))
        return out
