"""The Safe Harbor counting tool: gold units sorted into the rule's categories, and the
elements the gold leaves out read from the text by strict patterns."""

from __future__ import annotations

import pytest

from training.safe_harbor import FACILITY, NONE, classify, scan


@pytest.mark.parametrize(
    ("unit", "text", "category"),
    [
        ("melissa grant", "hi, this is melissa grant, dob 04/18/1989", "name"),
        ("dr. reena patel", "my pcp dr. reena patel thru the portal", "name"),
        ("04/18/1989", "melissa grant, dob 04/18/1989, i know", "date"),
        ("215-555-4078", "my number is 215-555-4078 and", "phone"),
        ("0161 496 0731", "fax 0161 496 0731 today", "fax"),
        ("mel.g89@protonmail.com", "email is mel.g89@protonmail.com", "email"),
        ("123-45-6789", "my ssn 123-45-6789", "ssn"),
        ("MRN KDH-77419", "chart says MRN KDH-77419", "medical record number"),
        ("943 476 5919", "NHS no. 943 476 5919", "medical record number"),
        ("aetna ppo #AET-4839021", "insured with aetna ppo #AET-4839021", "health plan number"),
        ("4428 cedar ave apt 3b, philadelphia pa 19104", "I live at 4428 cedar ave apt 3b, philadelphia pa 19104", "geographic"),
        ("cvs on maple ave", "picked it up at cvs on maple ave", "geographic"),
        ("air france af178", "flying air france af178 tomorrow", "other unique code"),
        ("keystone family clinic", "the portal at keystone family clinic", FACILITY),
        ("94", "my grandmother is 94 years old", "age over 89"),
        ("78", "my father is 78 years old", NONE),
        ("2.1 mU/L", "TSH 2.1 mU/L", NONE),
    ],
)
def test_a_gold_unit_is_sorted_into_its_safe_harbor_category(unit: str, text: str, category: str) -> None:
    assert classify(unit, text) == category


def test_scan_reads_what_the_gold_leaves_out_and_nothing_it_has() -> None:
    text = (
        "Admitted on 3 March, discharged march 15th; she is 93 years old and we live "
        "in Philadelphia, PA 19104. In light of that, maybe 2 doses? Her DOB 04/18/1989."
    )
    found = scan(text, gold=["04/18/1989"])
    assert ("date", "3 March") in found and ("date", "march 15th") in found
    assert ("age over 89", "93 years old") in found
    assert ("geographic", "Philadelphia") in found and ("geographic", "PA 19104") in found
    # Not dates, not towns, and never a gold unit again.
    assert all(v not in ("maybe 2", "light", "04/18/1989") for _, v in found)
