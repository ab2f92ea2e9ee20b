"""Unit location, unit recall, leak checks, readers and the fixed split (training.metrics)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from training.metrics import (
    PRF,
    UnitTally,
    locate_units,
    read_medpcd,
    read_presidio,
    read_pupa,
    select_split,
    split_of,
    unit_caught,
    unit_leaked,
    unit_leaked_fuzzy,
)


@pytest.mark.parametrize(
    ("text", "unit", "case_sensitive", "expected"),
    [
        ("call John Smith now", "John Smith", True, [(5, 15)]),
        ("call john smith now", "John Smith", True, []),
        ("call john smith now", "John Smith", False, [(5, 15)]),
        ("John  Smith\nand John\nSmith", "john smith", False, [(0, 11), (16, 26)]),
        ("aaa", "aa", True, [(0, 2), (1, 3)]),
        ("nothing here", "anna", False, []),
        ("a+b (c)", "b (c)", True, [(2, 7)]),
    ],
)
def test_locate_units_finds_every_occurrence(text, unit, case_sensitive, expected):
    assert locate_units(text, [unit], case_sensitive) == [expected]


@pytest.mark.parametrize(
    ("text", "spans", "strict", "caught"),
    [
        ("Dr. Reena Patel", [(0, 15)], False, True),
        ("Dr. Reena Patel", [(4, 15)], False, False),  # "Dr" is part of the unit
        ("Dr. Reena Patel", [(0, 3), (4, 9), (10, 15)], False, True),
        ("Dr. Reena Patel", [(0, 3), (4, 9), (10, 15)], True, False),  # spaces uncovered
        ("kaiber, moonvalley", [(0, 6), (8, 18)], False, True),  # the comma leaks nothing
        ("Dr. Reena Patel", [], False, False),
        # A field label the detector keeps in clear before a value with a digit.
        ("MRN OR-77219", [(4, 12)], False, True),
        ("MRN OR-77219", [(4, 12)], True, False),
        ("NHS no. 943 476 5919", [(8, 20)], False, True),
        ("DOB: 03/02/1961", [(5, 15)], False, True),
        ("MRN OR-77219", [(4, 9)], False, False),  # the value only in part
        ("MRN OR-77219", [], False, False),
        ("Lakeview Medical Center", [(9, 23)], False, False),  # a name's word is no label
        ("MRN: pending", [(5, 12)], False, False),  # no digit after it: not a field value
    ],
)
def test_unit_caught_needs_every_character_covered(text, spans, strict, caught):
    occ = [(0, len(text))]
    assert unit_caught(occ, spans, None if strict else text) is caught


def test_unit_caught_accepts_any_one_occurrence():
    assert unit_caught([(0, 4), (10, 14)], [(10, 14)])
    assert not unit_caught([], [(0, 100)])


def test_unit_tally_counts_not_located_units_apart():
    tally = UnitTally()
    verdicts = tally.add("Anna met Bob", ["anna", "bob", "carol"], False, [(0, 4)])
    assert verdicts == [True, False, None]
    assert (tally.units, tally.located, tally.caught, tally.not_located) == (3, 2, 1, 1)
    assert tally.recall == 0.5


@pytest.mark.parametrize(
    ("unit", "payload", "leaked"),
    [
        ("John Smith", "hello JOHN   smith!", True),
        ("John Smith", "hello JOHN\u200b smith", True),  # zero-width space removed
        ("ｊｏｈｎ", "john", True),  # NFKC folds full-width letters
        ("John Smith", "hello [PERSON_1]", False),
        ("Straße", "STRASSE", True),  # case folding
    ],
)
def test_unit_leaked_after_normalization(unit, payload, leaked):
    assert unit_leaked(unit, payload) is leaked


@pytest.mark.parametrize(
    ("unit", "payload", "leaked"),
    [
        ("melissa grant", "hi, melisa grant here", True),
        ("melissa grant", "hi there grant", False),
        ("chris", "hey chris!", True),
        ("chris", "hey bob", False),
    ],
)
def test_unit_leaked_fuzzy_tolerates_small_paraphrases(unit, payload, leaked):
    assert unit_leaked_fuzzy(unit, payload) is leaked


def test_split_is_stable_and_near_the_share():
    ids = [f"rec-{i}" for i in range(4000)]
    folds = [split_of(i) for i in ids]
    assert folds == [split_of(i) for i in ids]
    assert 0.17 < folds.count("eval") / len(ids) < 0.23


def test_readers_share_one_record_shape(tmp_path: Path):
    med = tmp_path / "med.json"
    med.write_text(json.dumps([{"id": "m1", "query": "I am Ann Lee.", "pii_units": ["Ann Lee"]}]))
    pupa = tmp_path / "pupa.csv"
    with pupa.open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["conversation_hash", "user_query", "pii_units"])
        w.writerow(["h1", "Write to Sara at Nvidia", "sara||nvidia"])
    pres = tmp_path / "p.json"
    pres.write_text(
        json.dumps(
            [
                {
                    "full_text": "Call Bob",
                    "template_id": 3,
                    "spans": [
                        {
                            "entity_type": "PERSON",
                            "entity_value": "Bob",
                            "start_position": 5,
                            "end_position": 8,
                        }
                    ],
                }
            ]
        )
    )
    (m,) = read_medpcd(med)
    (p,) = read_pupa(pupa)
    (s,) = read_presidio(pres)
    assert (m.id, m.units, m.case_sensitive) == ("m1", ["Ann Lee"], True)
    assert (p.id, p.units, p.case_sensitive) == ("h1", ["sara", "nvidia"], False)
    assert s.units == ["Bob"] and s.spans[0].label == "PERSON" and s.group == "template-3"
    # Presidio records follow their template's fold, so a template never straddles folds.
    assert s.split == split_of("template-3")
    assert select_split([m, p, s], "all") == [m, p, s]


def test_prf_f2_weighs_recall():
    prf = PRF(tp=8, fp=8, fn=2)
    assert prf.precision == 0.5 and prf.recall == 0.8
    assert prf.f_beta(2.0) > prf.f_beta(1.0)
