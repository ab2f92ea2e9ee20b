"""Who a place or an organisation is to the person (issue 22, point 5).

A hospital, clinic, school, employer, bank branch or court named in relation to
the person is a quasi-identifier protected from its level, even when the
gazetteer knows the name; the same name used as a subject stays public.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.domain import relation
from core.entities import EntityType as T
from core.policy import QUASI_THRESHOLDS, Family, TypePolicy
from core.spans import Span


@pytest.fixture(scope="module")
def policy() -> TypePolicy:
    return TypePolicy()


def decide(policy: TypePolicy, text: str, value: str, t: T, lam: float = 5.0):  # type: ignore[no-untyped-def]
    a = text.index(value)
    return policy.decide(text, Span(a, a + len(value), t, 0.9, {"ner": 0.9}), lam)


@pytest.mark.parametrize(
    ("text", "value", "t", "kind", "cue"),
    [
        ("My mum has surgery at St Mary's Hospital on Friday.", "St Mary's Hospital", T.ORG,
         "where the person is treated", "surgery at"),
        ("He was admitted to Mayo Clinic last night.", "Mayo Clinic", T.ORG,
         "where the person is treated", "admitted to"),
        ("She is treated at Cleveland Clinic for lupus.", "Cleveland Clinic", T.ORG,
         "where the person is treated", "treated at"),
        ("My GP at Hollowbrook Surgery changed my dose.", "Hollowbrook Surgery", T.ORG,
         "where the person is treated", "my gp at"),
        ("I have surgery next week at Johns Hopkins Hospital.", "Johns Hopkins Hospital", T.ORG,
         "where the person is treated", "surgery next week at"),
        ("My son's school, Kingsmead Academy, rang me.", "Kingsmead Academy", T.ORG,
         "employer or school", "son's school"),
        ("I queued at my branch of Barclays for an hour.", "Barclays", T.ORG,
         "the person's bank or branch", "my branch of"),
        ("Our bank in Croydon closed its counter.", "Croydon", T.LOCATION,
         "the person's bank or branch", "our bank in"),
        ("My hearing at Leeds Crown Court is next week.", "Leeds Crown Court", T.ORG,
         "the person's court", "hearing at"),
        # The model read the bank as a person; the gazetteer knows the brand.
        ("I queued at my branch of Barclays for an hour.", "Barclays", T.PERSON,
         "the person's bank or branch", "my branch of"),
    ],
)
def test_a_place_named_in_relation_to_the_person_is_protected_from_its_level(
    policy: TypePolicy, text: str, value: str, t: T, kind: str, cue: str
) -> None:
    threshold = QUASI_THRESHOLDS[kind]
    at = decide(policy, text, value, t, 5.0)
    assert at.protect and at.family is Family.QUASI and at.kind == kind
    # The reason names the words that made it the person's own.
    assert f"“{cue}”" in at.reason and "protected at your level" in at.reason
    below = decide(policy, text, value, t, threshold - 0.5)
    assert not below.protect and below.kind == kind


@pytest.mark.parametrize(
    ("text", "value", "t"),
    [
        ("My Bosch dishwasher shows error E15.", "Bosch", T.ORG),
        ("Georgia Tech's ranking in engineering is high.", "Georgia Tech", T.ORG),
        ("Is Mayo Clinic good for heart surgery?", "Mayo Clinic", T.ORG),
        ("Cleveland Clinic published a study on statins.", "Cleveland Clinic", T.ORG),
        ("Barclays raised its mortgage rates again.", "Barclays", T.ORG),
        # Wanting or comparing is no relation yet.
        ("I am thinking of having surgery at Mayo Clinic, is it good?", "Mayo Clinic", T.ORG),
        # A country is never the person's own place.
        ("Our bank in France charges a fee.", "France", T.LOCATION),
    ],
)
def test_a_public_name_in_general_use_still_passes(
    policy: TypePolicy, text: str, value: str, t: T
) -> None:
    d = decide(policy, text, value, t, 5.0)
    assert d.family is Family.PUBLIC and not d.protect, d.reason


@pytest.mark.parametrize(
    ("window", "kind"),
    [
        ("She was discharged from ", "where the person is treated"),
        ("my daughter's nursery, ", "employer or school"),
        ("I bank with my local branch of ", "the person's bank or branch"),
        ("he appeared before the ", "the person's court"),
        ("We bought a ", None),
        ("the best hospital is ", None),
        # Only the name's own sentence: a relation word before the last full stop is another's.
        ("The operation was quoted at £4,100. ", None),
        ("She has surgery with Dr. Lee at ", "where the person is treated"),
        ("", None),
    ],
)
def test_relation_reads_the_words_before_the_name(window: str, kind: str | None) -> None:
    text = window + "Northgate"
    found = relation(text, len(window))
    assert (found.kind if found else None) == kind


@given(st.text(max_size=200), st.integers(min_value=0, max_value=200))
def test_relation_never_fails_on_any_text(text: str, start: int) -> None:
    found = relation(text, min(start, len(text)))
    assert found is None or found.kind in QUASI_THRESHOLDS
