"""CoNLL files (WNUT-17, WikiANN): sentences of ``token TAG`` lines, read as texts with spans.

Both sets label entity *mentions*, not privacy: a public figure, a brand or a
city is tagged like a private name. They teach the NER what a name looks like
in noisy, lower-case and rare text; what is private is decided later (context,
the public lexicon, the type policy). Their labels map onto ours as
:data:`LABEL_TYPES` says; product and creative-work mentions have no type of
ours (see :data:`UNTYPED`).

A sentence becomes a text by joining its tokens with single spaces (the usual
way CoNLL sets are scored), so character offsets follow from token lengths.
WikiANN writes each token with a language prefix (``en:Paris``, ``de:Köln``,
``nl:Utrecht``); a prefix of a language WikiANN has here is removed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from core.entities import EntityType
from core.errors import InputError
from training.metrics import GoldSpan, Record

#: The sets' labels (lower-cased) and ours.
LABEL_TYPES: dict[str, EntityType] = {
    "person": EntityType.PERSON,
    "per": EntityType.PERSON,
    "location": EntityType.LOCATION,
    "loc": EntityType.LOCATION,
    "corporation": EntityType.ORG,
    "org": EntityType.ORG,
    "group": EntityType.ORG,
}
#: WNUT-17 labels with no type of ours: products and titles of works are public
#: things far more often than private ones (``docs/data-card-ner.md`` has the
#: measurement); training neither marks nor clears them.
UNTYPED = frozenset({"product", "creative-work"})


@dataclass(frozen=True)
class Sentence:
    """One CoNLL sentence: its tokens and their BIO tags (labels as written)."""

    tokens: list[str]
    tags: list[str]


#: WikiANN's language prefix on a token (the languages of ``../shared/data`` and
#: a few more), followed by the token itself.
_PREFIX = re.compile(r"(?:en|de|fr|nl|es|it|pt):(?=.)")


def read_conll(path: str | Path) -> list[Sentence]:
    """The sentences of a CoNLL file (``token<TAB>tag`` or ``token tag`` per line).

    WikiANN's language prefix (``de:``) is removed; other tokens stay as
    written (WNUT-17's ``re:``, ``http://...``)."""
    sentences: list[Sentence] = []
    tokens: list[str] = []
    tags: list[str] = []
    with Path(path).open(encoding="utf-8") as fh:
        for n, raw in enumerate(fh, 1):
            # WNUT-17 dev has a line holding only a byte-order mark.
            line = raw.rstrip("\n\r").replace("\ufeff", "")
            if not line.strip():
                if tokens:
                    sentences.append(Sentence(tokens, tags))
                    tokens, tags = [], []
                continue
            if line.startswith("-DOCSTART-"):
                continue
            parts = line.split("\t") if "\t" in line else line.rsplit(None, 1)
            if len(parts) < 2 or not _is_tag(parts[-1].strip()):
                raise InputError(
                    f"{path}, line {n}, is not a CoNLL line (a token and a BIO tag).",
                    hint="give a file of `token<TAB>tag` lines with a blank line between sentences",
                )
            token = parts[0].strip()
            if m := _PREFIX.match(token):
                token = token[m.end() :]
            if not token:
                continue
            tokens.append(token)
            tags.append(parts[-1].strip())
    if tokens:
        sentences.append(Sentence(tokens, tags))
    return sentences


def _is_tag(tag: str) -> bool:
    return tag == "O" or (len(tag) > 2 and tag[:2] in ("B-", "I-"))


def sentence_text(tokens: Sequence[str]) -> tuple[str, list[tuple[int, int]]]:
    """The tokens joined by single spaces, and each token's ``(start, end)``."""
    offsets = []
    pos = 0
    for tok in tokens:
        offsets.append((pos, pos + len(tok)))
        pos += len(tok) + 1
    return " ".join(tokens), offsets


def entity_spans(
    tags: Sequence[str], offsets: Sequence[tuple[int, int]]
) -> list[tuple[int, int, str]]:
    """BIO tags to character spans ``(start, end, label)``; an ``I-`` after another label starts one."""
    spans: list[tuple[int, int, str]] = []
    current: list[int] | None = None
    label = ""
    for tag, (a, b) in zip(tags, offsets, strict=True):
        kind, _, name = tag.partition("-")
        if kind == "I" and current is not None and name == label:
            current[1] = b
            continue
        if current is not None:
            spans.append((current[0], current[1], label))
            current = None
        if kind in ("B", "I"):
            current, label = [a, b], name
    if current is not None:
        spans.append((current[0], current[1], label))
    return spans


def label_type(label: str) -> EntityType | None:
    """Our type for a CoNLL label (None for the untyped ones and for unknown labels)."""
    return LABEL_TYPES.get(label.strip().lower())


def conll_records(path: str | Path) -> list[Record]:
    """One :class:`Record` per sentence; every mention is a unit and a gold span."""
    name = Path(path).name
    out = []
    for i, s in enumerate(read_conll(path)):
        text, offsets = sentence_text(s.tokens)
        spans = [GoldSpan(a, b, lab) for a, b, lab in entity_spans(s.tags, offsets)]
        units = list(dict.fromkeys(text[g.start : g.end] for g in spans))
        out.append(
            Record(id=f"{name}-{i:05d}", text=text, units=units, spans=spans, case_sensitive=True)
        )
    return out
