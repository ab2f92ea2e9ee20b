from __future__ import annotations

import socket

import pytest

from core.detect.rules import RulesView
from core.entities import EntityType


@pytest.mark.parametrize(
    ("text", "value", "etype"),
    [
        ("write to anna.k@example.org please", "anna.k@example.org", EntityType.EMAIL),
        ("call me at 215-555-4078 tonight", "215-555-4078", EntityType.PHONE),
        ("card 4111 1111 1111 1111 was charged", "4111 1111 1111 1111", EntityType.CREDIT_CARD),
        ("IBAN DE89 3704 0044 0532 0130 00 for rent", "DE89 3704 0044 0532 0130 00", EntityType.IBAN),
        ("server at 192.168.10.45 is down", "192.168.10.45", EntityType.IP),
        ("see https://intranet.acme-clinic.com/patients/77", "https://intranet.acme-clinic.com/patients/77", EntityType.URL),
        ("my ssn is 536-22-1974 ok", "536-22-1974", EntityType.SSN),
        ("born 04/18/1989 in", "04/18/1989", EntityType.DATE),
        ("his wrist band says MRN SM-447219 and", "SM-447219", EntityType.MRN),
        ("insurance is anthem bcbs #XQJ8842190 and", "#XQJ8842190", EntityType.ACCOUNT),
        ("account number 004512398 was closed", "004512398", EntityType.ACCOUNT),
        ("my son is 7 years old and", "7 years old", EntityType.AGE),
        ("on March 3rd, 2023 we met", "March 3rd, 2023", EntityType.DATE),
        ("I live at 428 maple ave apt 3b, newark nj", "428 maple ave apt 3b, newark nj", EntityType.ADDRESS),
        ('"street": "94 Irene Knoll",', "94 Irene Knoll", EntityType.ADDRESS),
        ("Street address:\t129 David Forge\n", "129 David Forge", EntityType.ADDRESS),
        ("My name is <PRESIDIO_ANONYMIZED_PERSON> and", "<PRESIDIO_ANONYMIZED_PERSON>", EntityType.PERSON),
        # A relative named right after the relation, even by a word.
        ("Daughter Comfort is next of kin.", "Comfort", EntityType.PERSON),
        ("my stepson Reuben-Lee starts school", "Reuben-Lee", EntityType.PERSON),
        ("My twins Summer and River start school.", "Summer", EntityType.PERSON),
        # The nursery, school or home someone goes to, named after its kind.
        ("a note for her nursery, Little Acorns in Didsbury", "Little Acorns", EntityType.ORG),
        ("she moved to her care home, Oakwood Lodge, in May", "Oakwood Lodge", EntityType.ORG),
        # A dotted account name after the word for a user, in the languages with rules too.
        ("Benutzer j.mueller konnte sich nicht anmelden", "j.mueller", EntityType.ID),
        ("login failed for user a.khan at 09:14", "a.khan", EntityType.ID),
        ("ship to WA 98101-2215 today", "WA 98101-2215", EntityType.ADDRESS),
        # A day and a month without a year after a word that dates an event.
        ("admitted 12/11 with pneumonia. Discharged 18/11 on amoxicillin", "18/11", EntityType.DATE),
        ("seen on 3/4 by the registrar", "3/4", EntityType.DATE),
        ("rota for Tue 18/11 and Wed 19/11", "19/11", EntityType.DATE),
        # A weekday and the day of the month, as chat writes it.
        ("hes had d&v since tues 4th, about 5 loose stools a day", "tues 4th", EntityType.DATE),
        ("party is on sat 21st at the red lion", "sat 21st", EntityType.DATE),
        ("Thursday the 3rd works for the review", "Thursday the 3rd", EntityType.DATE),
        # A birthday's day without its month.
        ("grandad turns 90 on the 23rd and we're doing a surprise do", "the 23rd", EntityType.DATE),
        ("her bday is the 4th so book it", "the 4th", EntityType.DATE),
        # A forge's refusal: the repository's owner and the account refused.
        ("remote: Permission to drewbie-dev/pantry-api.git denied to oisin-97.", "drewbie-dev", EntityType.ID),
        ("remote: Permission to drewbie-dev/pantry-api.git denied to oisin-97.", "oisin-97", EntityType.ID),
        # An account's name after its key, with spaces around "=" (Terraform, HCL).
        ('username = "dbadmin_tk" password = "x"', "dbadmin_tk", EntityType.ID),
        # A configuration's user name.
        ("environment: POSTGRES_USER=billing_admin POSTGRES_DB=billing", "billing_admin", EntityType.ID),
    ],
)
def test_rules_find_formatted_identifiers(
    rules_view: RulesView, text: str, value: str, etype: EntityType
) -> None:
    spans = rules_view.analyze(text)
    found = {(text[s.start : s.end], s.type) for s in spans}
    assert any(v == value and t == etype for v, t in found), found
    assert all(s.views.get("rules", 0) > 0 for s in spans)


def test_plain_prose_has_no_rule_hits(rules_view: RulesView) -> None:
    assert rules_view.analyze("What are the warning signs of heart failure in older adults?") == []
    # A school's season or a pronoun after it is no school's name.
    assert not any(s.type is EntityType.ORG for s in rules_view.analyze("His school Christmas play is on Friday."))


def test_rules_never_touch_the_network(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the rules view tried to open a network connection")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    view = RulesView()  # fresh: recognizers and tldextract are set up under the guard
    spans = view.analyze("mail bob@example.co.uk or visit https://www.example.com.au/x today")
    assert {s.type for s in spans} >= {EntityType.EMAIL, EntityType.URL}


def test_a_street_address_stays_on_its_line(rules_view: RulesView) -> None:
    text = "Form 1 of 3\nStreet address: none given"
    assert not [s for s in rules_view.analyze(text) if s.type is EntityType.ADDRESS]


def test_a_number_and_a_streets_kind_alone_are_no_address(rules_view: RulesView) -> None:
    text = "She was refused a Year 7 place. We live at 22 Kirkby Road."
    found = [text[s.start : s.end] for s in rules_view.analyze(text) if s.type is EntityType.ADDRESS]
    assert found == ["22 Kirkby Road."] or found == ["22 Kirkby Road"]


@pytest.mark.parametrize(
    "text",
    [
        "My son May be late.",  # a month-like word is no name after a relation (capitals: "May")
        "Her daughter Is coming.",
        "If anyone calls about PO 88213, tell them.",  # an order, no US state and ZIP code
    ],
)
def test_relations_and_state_codes_need_their_shape(rules_view: RulesView, text: str) -> None:
    assert not [s for s in rules_view.analyze(text) if s.type in (EntityType.PERSON, EntityType.ADDRESS)]


@pytest.mark.parametrize(
    ("text", "link"),
    [
        ("see github.com/ana-lee, linkedin.com/in/ana-lee.", "github.com/ana-lee"),
        ("see github.com/ana-lee, linkedin.com/in/ana-lee.", "linkedin.com/in/ana-lee"),
        ("(docs: https://wiki.acme.net/ops/runbook)", "https://wiki.acme.net/ops/runbook"),
        ("(see https://wiki.acme.net/a).", "https://wiki.acme.net/a"),
    ],
)
def test_a_link_ends_before_the_punctuation_written_after_it(text: str, link: str) -> None:
    found = [text[s.start : s.end] for s in RulesView().analyze(text) if s.type is EntityType.URL]
    assert link in found, found


@pytest.mark.parametrize(
    "text",
    [
        "Pain 7/10, improved from 7/10 to 3/10 since the block.",
        "GCS 14/15 on arrival, power 4/5 in the left arm.",
        "She scored 9/10 on the quiz and 3/4 of the class passed.",
    ],
)
def test_scores_and_fractions_are_no_day_and_month(rules_view: RulesView, text: str) -> None:
    # Presidio's date recognizer proposes such shapes at 0.1, a guess fusion gives no weight.
    assert not [s for s in rules_view.analyze(text) if s.type is EntityType.DATE and s.score >= 0.5]


def test_a_count_after_born_is_no_date_field() -> None:
    from core.detect.fields import fields

    text = "Baby born 29 weeks at St Mary's, 1.2 kg."
    assert not [f for f in fields(text) if text[f.start : f.end] == "29"]
    text = "Born: 29 March 1990."
    assert [f for f in fields(text) if text[f.start : f.end].startswith("29")]


def test_an_eircode_is_an_address() -> None:
    from core.detect.rules import RulesView
    from core.entities import EntityType

    text = "Send it to 12 Main St, Dublin 2, D02 X285 please."
    found = [(text[s.start : s.end], s.type) for s in RulesView().analyze(text)]
    assert ("D02 X285", EntityType.ADDRESS) in found
    # A fault code and a number are none: "F05 then E24".
    text = "The boiler shows F05 then E24 again."
    assert not [s for s in RulesView().analyze(text) if s.type is EntityType.ADDRESS]


def test_a_reference_with_slashes_is_an_account(rules_view: RulesView) -> None:
    text = "Your application for the Senior Nurse post (ref SN/2025/44) has been shortlisted."
    found = [(text[s.start : s.end], s.type) for s in rules_view.analyze(text)]
    assert ("SN/2025/44", EntityType.ACCOUNT) in found, found
