"""Training data for the NER: unit typing rules, overlap resolution, packing, BIO labels."""

from __future__ import annotations

import pytest

from core.entities import EntityType as E
from training.ner.data import Example, _resolve, heuristic_type, pack
from training.ner.labels import LABEL2ID, LABELS, to_type
from training.ner.train import token_labels


@pytest.mark.parametrize(
    ("unit", "expected"),
    [
        ("dr. reena patel", E.PERSON),
        ("Dr Alan Brody", E.PERSON),
        ("mel.g89@protonmail.com", E.EMAIL),
        ("https://www.youtube.com/watch/iyh2deqrgu0", E.URL),
        ("cowrywise.com", E.URL),
        ("mrn mfp-774208", E.MRN),
        ("04/18/1989", E.DATE),
        ("215-555-4078", E.PHONE),
        ("34 years old", E.AGE),
        ("1846 s 9th st, philadelphia pa 19148", E.ADDRESS),
        ("aetna ppo #AXP-771204", E.ACCOUNT),
        ("keystone family clinic", E.ORG),
        ("hhc-772910", E.ID),
        ("presidio_anonymized_person", E.PERSON),
        ("<PRESIDIO_ANONYMIZED_EMAIL_ADDRESS>", E.EMAIL),
        ("melissa grant", None),  # left to the rules view and spaCy
    ],
)
def test_heuristic_type_follows_the_documented_rules(unit, expected):
    assert heuristic_type(unit) == expected


def test_resolve_keeps_the_longer_of_overlapping_units():
    spans = [(0, 11, E.PERSON), (5, 11, E.PERSON), (20, 25, E.ORG)]
    assert _resolve(spans) == [(0, 11, E.PERSON), (20, 25, E.ORG)]


def test_pack_keeps_every_span_on_its_value():
    examples = [
        Example("Call Ann now", [(5, 8, E.PERSON)], "synthetic", "a"),
        Example("Bob lives in Rome", [(0, 3, E.PERSON), (13, 17, E.LOCATION)], "synthetic", "b"),
        Example("nothing", [], "synthetic", "c"),
    ]
    packed = pack(examples, max_chars=30)
    values = sorted(ex.text[a:b] for ex in packed for a, b, _ in ex.spans)
    assert values == ["Ann", "Bob", "Rome"]
    assert all(len(ex.text) <= 30 or "\n" not in ex.text for ex in packed)


def test_token_labels_mark_begin_then_inside():
    offsets = [(0, 4), (5, 8), (8, 10), (11, 16), (17, 20)]  # "call ann ##ie smith now"
    labels = token_labels(offsets, [(5, 16, "PERSON")])
    assert [LABELS[i] for i in labels] == ["O", "B-PERSON", "I-PERSON", "I-PERSON", "O"]


def test_labels_cover_every_entity_type_in_bio():
    assert LABELS[0] == "O"
    for t in E:
        assert f"B-{t}" in LABEL2ID and f"I-{t}" in LABEL2ID


@pytest.mark.parametrize(
    ("label", "expected"),
    [
        ("ZIP_CODE", E.ADDRESS),
        ("GPE", E.LOCATION),
        ("DOMAIN_NAME", E.URL),
        ("TITLE", E.OTHER),
        ("US_DRIVER_LICENSE", E.ID),
        ("ORGANIZATION", E.ORG),
        ("PHONE_NUMBER", E.PHONE),
    ],
)
def test_presidio_labels_map_onto_ours(label, expected):
    assert to_type(label) == expected
