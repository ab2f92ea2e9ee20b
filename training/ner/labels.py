"""The NER label set and the mappings from the data sets' vocabularies onto it.

Labels are BIO tags over :class:`core.entities.EntityType`, one to one with the
placeholder types, so a span the model finds becomes ``[TYPE_n]`` with no
further mapping. Every type is kept, even the rare ones (IBAN, IP, SSN), because
the synthetic generator produces them; Presidio's ``TITLE`` (prefixes and job
titles) and anything untyped fall into ``OTHER``.
"""

from __future__ import annotations

from core.entities import EntityType, canonical_type

TYPES: list[EntityType] = list(EntityType)
LABELS: list[str] = ["O"] + [f"{p}-{t.value}" for t in TYPES for p in ("B", "I")]
LABEL2ID: dict[str, int] = {label: i for i, label in enumerate(LABELS)}

#: Presidio research labels whose canonical mapping in core.entities is not ours.
_PRESIDIO: dict[str, EntityType] = {
    "ZIP_CODE": EntityType.ADDRESS,
    "STREET_ADDRESS": EntityType.ADDRESS,
    "GPE": EntityType.LOCATION,
    "DOMAIN_NAME": EntityType.URL,
    "TITLE": EntityType.OTHER,
    "US_DRIVER_LICENSE": EntityType.ID,
    "ORGANIZATION": EntityType.ORG,
}


def to_type(label: str) -> EntityType:
    """Map a label of any vocabulary (Presidio research, Presidio analyzer, spaCy) to ours."""
    key = label.strip().upper()
    return _PRESIDIO.get(key) or canonical_type(key)
