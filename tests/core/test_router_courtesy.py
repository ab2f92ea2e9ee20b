"""Courtesy sentences go to the cloud whatever the learned policy says (core.router.courtesy)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.assembly import ner_states
from core.entities import EntityType
from core.router.base import RouteInput
from core.router.courtesy import (
    _whole_occurrences,
    is_courtesy,
    is_form_label,
    is_plain_remainder,
    is_values_only,
)
from core.router.policy import PolicyRouter
from core.spans import Sentence, Span


@pytest.mark.parametrize(
    "text",
    [
        "Thanks.", "Thank you so much for your help!", "Hi!", "Hello,", "Best regards,",
        "Many thanks in advance.", "Good morning :)", "Sehr geehrte Damen und Herren,",
        "Mit freundlichen Grüßen", "Merci beaucoup !", "Bonjour,", "Muchas gracias.",
        "Hartelijk dank!", "Thanks 🙏", "OK, thanks!", "Hello there, I hope you're doing well.",
        "Hey, hope all is well!", "Hi, quick question.", "Hello everyone.", "Hello assistant!",
        "Hallo zusammen,",
    ],
)
def test_greetings_thanks_and_closings_are_courtesy(text: str) -> None:
    assert is_courtesy(text)


@pytest.mark.parametrize(
    "text",
    [
        "Dear Claims Team,",  # a name of a team: the policy decides
        "Thanks, Anna.",  # a word outside the list: a name the detector may have missed
        "Thanks for the 3 reports.",  # a digit
        "Thank you for your help with the claim.",  # more than courtesy
        "Thank you so much for all your help again!!",  # eight words
        "",
        "...",
        "Can you make this firmer?",
        "Thanks, Hope!",  # a given name written with its capital
        "Hi, I live in sea point.",  # a place in lower case: the policy decides
    ],
)
def test_anything_else_is_not(text: str) -> None:
    assert not is_courtesy(text)


def test_a_courtesy_sentence_with_an_entity_is_not() -> None:
    assert not is_courtesy("Hi!", [Span(0, 2, EntityType.PERSON, 0.9)])


def test_the_shipped_router_sends_a_thank_you_and_leaves_the_rest_to_the_policy() -> None:
    router = PolicyRouter(states=ner_states()).load()
    text = "Thanks. My neighbour Dale Whitcombe, 58, asked me about his biopsy."
    sents = [Sentence(0, 7, text[:7]), Sentence(8, len(text), text[8:])]
    ents = [[], [Span(21, 35, EntityType.PERSON, 0.95), Span(37, 39, EntityType.AGE, 0.9)]]
    probs = router.route(RouteInput(text, sents, ents, 5.0))
    assert probs[0] == 1.0
    assert 0.0 <= probs[1] <= 1.0  # the policy's own estimate


@pytest.mark.parametrize(
    "text",
    [
        "id,first_name,last_name,dob,city", "Name;IBAN;Amount;Currency",
        "order,date,customer,postcode,total", "| Field | Value |", "Staff no.,Name,Joined,Course",
        "Reporter:", "Emergency contact:",
    ],
)
def test_a_tables_header_row_or_a_lone_key_only_names_fields(text: str) -> None:
    assert is_form_label(text)


@pytest.mark.parametrize(
    "text",
    [
        "Which order is the largest?", "Leon,Smith,13.11.1959,Abbietown", "Anna Berg, Jan Vos",
        "My son has cancer:", "id,name\n97191,Leon", "I was diagnosed with HIV last year.",
    ],
)
def test_a_sentence_with_words_of_its_own_is_no_form_label(text: str) -> None:
    # "Anna Berg, Jan Vos" has the shape of a header row: the detector's spans keep it
    # with the policy (below); "My son has cancer:" is more than a key.
    ents = [Span(0, 9, EntityType.PERSON, 0.9, {"ner": 0.9})] if text.startswith("Anna") else []
    assert not is_form_label(text, ents)


def test_a_line_of_values_only_carries_what_the_policy_decides() -> None:
    text = "I was signed off.\nSiobhán Ní Cheallaigh\nsiobhan.n@example.org, 0161 496 0731"
    name = Sentence(18, 39, text[18:39])
    contact = Sentence(40, len(text), text[40:])
    assert is_values_only(name, [Span(18, 39, EntityType.PERSON, 0.9)])
    both = [Span(40, 61, EntityType.EMAIL, 1.0), Span(63, 76, EntityType.PHONE, 0.9)]
    assert is_values_only(contact, both)
    # A word of its own in clear, or nothing found, leaves it to the policy.
    assert not is_values_only(contact, both[:1])
    assert not is_values_only(name, [])
    first = Sentence(0, 17, text[:17])
    assert not is_values_only(first, [])
    # The same name again, where the detector did not find it: a value found elsewhere
    # in the message, replaced wherever it occurs.
    assert is_values_only(name, [], values=["Siobhán Ní Cheallaigh"])
    assert not is_values_only(name, [], values=["Siobhán"])  # a word in clear is left
    assert not is_values_only(name, [], values=["Ní"])  # too short to count
    router = PolicyRouter(states=ner_states()).load()
    probs = router.route(RouteInput(text, [first, name, contact], [[], [Span(18, 39, EntityType.PERSON, 0.9)], both], 10.0))
    assert probs[1] == 1.0 and probs[2] == 1.0


def _found(text: str, values: list[str]) -> list[Span]:
    return [Span(text.index(v), text.index(v) + len(v), EntityType.ID, 0.9) for v in values]


@pytest.mark.parametrize(
    ("text", "values", "goes"),
    [
        ("POSTGRES_USER: mirela_d", ["mirela_d"], True),
        (
            "Secrets: AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE, AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG.",
            ["AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG"],
            True,
        ),
        ("phone number: 555-0101", ["555-0101"], True),
        # A key whose words are terms and dictionary words in capitals.
        ("NHS No: 485 777 3456", ["485 777 3456"], True),
        ("Phone Number: 555-0101", ["555-0101"], True),
        ("Dana Phone: 555-0101", ["555-0101"], False),
        # A key with a name in it, a word after the value, a key without a value found.
        ("Dana phone: 555-0101", ["555-0101"], False),
        ("POSTGRES_USER: mirela_d and more", ["mirela_d"], False),
        ("Secrets: none here", [], False),
    ],
)
def test_a_line_of_keys_and_found_values_goes(text: str, values: list[str], goes: bool) -> None:
    line = Sentence(0, len(text), text)
    assert is_values_only(line, _found(text, values), keys=True) is goes
    if values:  # without keys, only a line of values alone goes
        assert not is_values_only(line, _found(text, values))


def _sentence(text: str, values: list[str]) -> tuple[Sentence, list[Span]]:
    spans = []
    for v in values:
        a = text.index(v)
        spans.append(Span(a, a + len(v), EntityType.PERSON, 0.9, {"ner": 0.9}))
    return Sentence(0, len(text), text), spans


@pytest.mark.parametrize(
    ("text", "values", "goes"),
    [
        # Common words and small numbers or amounts around the detected values: nothing
        # in the sentence can be a value the detector missed.
        ("£2,840.55 net / £1,150 rent / £245 loan at 14.9% APR / 5% to savings / per week?", [], True),
        ("Student: Dashiell Okafor-Brandt, grade 3, student ID 300418827.", ["Dashiell Okafor-Brandt", "300418827"], True),
        ("I would be grateful if you could see Ms Ngozi Adebayo in the clinic.", ["Ngozi Adebayo"], True),
        ("Her results came back normal and she feels chatty again.", [], True),
        # Words of medicine by their endings, and drugs.
        ("She was referred to rheumatology after the colonoscopy and takes metformin.", [], True),
        # Lab tests and their units; a second sentence the segmenter left joined.
        ("ALT 148 U/L (ref 7-56), bilirubin 28 µmol/L. These are my husband Piet's results.", ["Piet"], True),
        # A word with a capital the lexicon does not know, a rare word, an unknown
        # acronym, a long number or an address left in it: the policy decides.
        ("Lance showing a slight increase, Byron a decrease.", [], False),
        ("We met at the Playground of Higher Consciousness.", [], False),
        ("Then send it to BHP for review.", [], False),
        ("Call me on 07700900123 tomorrow.", [], False),
        ("Write to me at jo@example.org about it.", [], False),
        ("the results came back from naidoo yesterday.", [], False),
        # The plural of a plain word, two words written as one, a degree, a program's name.
        ("- Oliver Brennan-Ashe: 72% in the test, great at practicals", ["Oliver Brennan-Ashe"], True),
        ("Re: income protection claim IP-0093381, policyholder Siobhán Ní Cheallaigh", ["IP-0093381", "Siobhán Ní Cheallaigh"], True),
        ("2. Tomasz Żółkiewski: BSc, 3 years of dbt and Python, available immediately", ["Tomasz Żółkiewski"], True),
        # A plain word listed with a program's name ("Spark/Kafka"), a loyalty scheme's
        # name before its member's number.
        ("1. Lakshmi Venkataraghavan: MSc, 5 years of Spark/Kafka", ["Lakshmi Venkataraghavan"], True),
        ("Rental agreement 837104229, Gold Plus Rewards member 71948302.", ["837104229", "71948302"], True),
        # An unknown word beside a program, the same words without the scheme's word, and
        # the plural of a surname: the policy decides.
        ("Then send it to Brackley/Kafka for review.", [], False),
        ("I met Gold Plus yesterday at the depot.", [], False),
        ("Dinner with the okafors was lovely.", [], False),
        # A configuration's constants of common words are keys; one with a rare word is not.
        ("Our server fails: export AWS_SECRET_ACCESS_KEY=wJalrXUt and export DB_PASSWORD=Hunter2 in deploy.sh.", ["wJalrXUt", "Hunter2"], True),
        ("Our server fails: export QUILLFEATHER_TOKEN=wJalrXUt in deploy.sh.", ["wJalrXUt"], False),
        # A log's capitalized dictionary words after a bracket, a colon or a quote; a
        # name there, or a rare word, leaves the decision to the policy.
        ('Error from server (Forbidden): pods "etl-nightly-7f9c4" is forbidden: User "svc@x.iam.example.com" '
         'cannot get resource "pods/log" in API group "" in the namespace "finance-prod"',
         ["etl-nightly-7f9c4", "svc@x.iam.example.com"], True),
        ("Escalated to: Brackley for review.", [], False),
        ("Signed: Rose, the duty manager.", [], False),
        # A program's public name in a constant ("POSTGRES_USER") is a key too.
        ("environment: POSTGRES_USER=billing_admin POSTGRES_DB=billing and the volume is /home/rkapoor/pgdata",
         ["billing_admin", "/home/rkapoor/pgdata"], True),
        # A program's part in CamelCase in a log line is code; a rare word in it is not.
        ("Log line: ERROR AuthService - user=k.b@x.io failed token refresh.", ["k.b@x.io"], True),
        ("Log line: ERROR Quillfeather - user=k.b@x.io failed token refresh.", ["k.b@x.io"], False),
        # British spellings of plain words, a pregnancy's shorthand, a blood pressure.
        ("Summarise for the MDT: 34F, G2P1, 29+3 weeks, BMI 41, BP 148/96 today.", ["34F"], True),
        ("Please organise the colour copies for the paediatric clinic.", [], True),
        # Five digits or more otherwise may be a number the detector missed.
        ("Summarise for the MDT: 34F, ref 148960 today.", ["34F"], False),
        # A day's name, a quarter, a role in brackets after a person, a hospital's service
        # by its kind, a long rare word of the language.
        ("The meeting is on Tuesday at 3:30 pm with Ms. Hartley (special ed) and Mr. Osei (principal).",
         ["Hartley", "Osei"], True),
        ("Summarize: Meeting with Dana Whitfield (CFO) and Rahul Bose (VP Sales) on Q3 numbers.",
         ["Dana Whitfield", "Rahul Bose"], True),
        ("Seen in Fracture Clinic at Royal Derby Hospital 27/11.", ["Royal Derby Hospital", "27/11"], True),
        ("His INR was 4.6 yesterday at the anticoagulation clinic of Riverside Cottage Hospital.",
         ["Riverside Cottage Hospital"], True),
        # A name in the brackets, a capitalized word before them, a login: the policy decides.
        ("Meeting with Dana Whitfield (Rahul's boss) on Q3 numbers.", ["Dana Whitfield"], False),
        ("Meeting on Tuesday with Brackley about the numbers.", [], False),
        ("The file was shared by jkaraoglu yesterday.", [], False),
        # A pet's name after the animal, and its breed.
        ("My dog Biscuit (cocker spaniel, microchip 985112004539871) needs a cruciate ligament operation.",
         ["985112004539871"], True),
    ],
)
def test_a_sentence_of_common_words_around_its_values_goes(text: str, values: list[str], goes: bool) -> None:
    sentence, spans = _sentence(text, values)
    assert is_plain_remainder(sentence, spans, text_is_cased=True) is goes


@pytest.mark.parametrize(
    ("text", "goes"),
    [
        ("results r hba1c 49 mmol/mol, cholesterol 6.1, ldl 4.0, egfr 58, alt 62.", True),
        ("her results came back normal and she feels fine again.", True),
        # A name in lower case cannot be told from a word there ("byron", "mercy urgent
        # care", "may"): a word people carry as a name leaves it to the policy, unless it is
        # one of the most frequent words ("her", "back", "will").
        ("we went to mercy urgent care on the way back.", False),
        ("byron came back normal and feels chatty again.", False),
        ("may says the results came back normal.", False),
    ],
)
def test_in_a_text_without_capitals_no_word_may_be_a_name(text: str, goes: bool) -> None:
    sentence, spans = _sentence(text, [])
    assert is_plain_remainder(sentence, spans, text_is_cased=False) is goes


def test_the_rules_the_router_and_its_evaluation_share() -> None:
    from core.router.policy import rules_send

    text = "Thanks. Call Dr Okafor at Northgate about the MRI. The results were normal and reassuring."
    sentences = [Sentence(0, 7, "Thanks.")]
    a = text.index("Call")
    b = text.index("The results")
    sentences += [Sentence(a, b - 1, text[a : b - 1]), Sentence(b, len(text), text[b:])]
    okafor = text.index("Okafor")
    entities: list[list[Span]] = [[], [Span(okafor, okafor + 6, EntityType.PERSON, 0.9, {"ner": 0.9})], []]
    # The thank-you and the sentence of common words go; "Northgate", found by no view,
    # leaves its sentence to the policy.
    assert rules_send(text, sentences, entities) == [True, False, True]


@settings(max_examples=300, deadline=None)
@given(
    st.text(alphabet="ab _-.éß1", max_size=30),
    st.text(alphabet="ab _-.éß1", min_size=1, max_size=4),
)
def test_whole_occurrences_are_the_patterns(text: str, value: str) -> None:
    # The same places as (?<!\w)value(?!\w), found without compiling a pattern per value
    # (the pattern's matches do not overlap; every one of them is found).
    pattern = [m.span() for m in re.finditer(rf"(?<!\w){re.escape(value)}(?!\w)", text)]
    found = list(_whole_occurrences(text, value))
    assert set(pattern) <= set(found)
    for a, b in found:
        assert re.fullmatch(rf"(?<!\w){re.escape(value)}(?!\w)", text[a:b]) is not None
        assert re.match(rf"(?<!\w){re.escape(value)}(?!\w)", text[a:], 0) is not None
        assert a == 0 or not re.match(r"\w", text[a - 1])


def test_a_query_the_rules_send_whole_skips_the_policy(monkeypatch: pytest.MonkeyPatch) -> None:
    router = PolicyRouter(states=ner_states()).load()

    def no_policy(*args: object, **kwargs: object) -> None:
        raise AssertionError("the policy was asked")

    monkeypatch.setattr(router, "route_features", no_policy)
    text = "Thanks. Best regards,"
    sents = [Sentence(0, 7, text[:7]), Sentence(8, len(text), text[8:])]
    assert router.route(RouteInput(text, sents, [[], []], 5.0)) == [1.0, 1.0]


def test_at_the_sliders_top_a_sentence_with_a_value_leaves_only_when_the_rules_send_it() -> None:
    from core.router.policy import TOP_LAMBDA, top_holds

    router = PolicyRouter(states=ner_states()).load()
    text = "Dale Whitcombe saw Dr Quenby at Harrowfield about his biopsy. Dale Whitcombe is well."
    cut = text.index(" Dale", 10)
    sents = [Sentence(0, cut, text[:cut]), Sentence(cut + 1, len(text), text[cut + 1 :])]
    second = cut + 1
    ents = [
        [Span(0, 14, EntityType.PERSON, 0.95), Span(22, 28, EntityType.PERSON, 0.9)],
        [Span(second, second + 14, EntityType.PERSON, 0.95)],
    ]
    # "Harrowfield", found by no view, may be a place the detector missed: at the top the
    # first sentence stays here; the second is a value and common words, and goes.
    assert top_holds(ents, TOP_LAMBDA) == [True, True]
    assert top_holds(ents, TOP_LAMBDA - 1) == [False, False]
    assert top_holds([[], []], 10.0) == [False, False]
    top = router.route(RouteInput(text, sents, ents, 10.0))
    assert top == [0.0, 1.0]
    below = router.route(RouteInput(text, sents, ents, 5.0))
    assert below[1] == 1.0 and 0.0 <= below[0] <= 1.0


def test_terms_written_with_digits_are_common_words_of_a_sentence() -> None:
    sentence, spans = _sentence("PMH: T2DM, HTN, CKD3a and a recent eGFR of 48 with HbA1c stable.", [])
    assert is_plain_remainder(sentence, spans, text_is_cased=True)


def test_a_value_found_elsewhere_and_a_config_file_are_no_unknown_words() -> None:
    text = "Here's the pg_hba.conf line: host all svc_payroll 10.20.0.0/16 md5."
    sentence, spans = _sentence(text, ["10.20.0.0/16 md5"])
    # Without knowing that "svc_payroll" was found in another sentence, the policy decides.
    assert not is_plain_remainder(sentence, spans, text_is_cased=True)
    assert is_plain_remainder(sentence, spans, text_is_cased=True, values=["svc_payroll"])


def test_a_connection_strings_scheme_port_and_database_and_a_local_link_name_no_one() -> None:
    text = "DATABASE_URL=postgres://app_user:Xk9$mPq2@db.staging.example:5432/ledger\nREDIS_URL=redis://localhost:6379"
    sentence, spans = _sentence(text, ["app_user", "Xk9$mPq2", "db.staging.example"])
    assert is_plain_remainder(sentence, spans, text_is_cased=True)
    assert is_values_only(sentence, spans, keys=True) is False  # the local link is no value
    line = "DATABASE_URL=postgres://app_user:Xk9$mPq2@db.staging.example:5432/ledger"
    sentence, spans = _sentence(line, ["app_user", "Xk9$mPq2", "db.staging.example"])
    assert is_values_only(sentence, spans, keys=True)
    # Without a value found in it, a connection string is read like any other text.
    sentence, spans = _sentence("See postgres://app_user:Xk9$mPq2@db.staging.example:5432/ledger now.", [])
    assert not is_plain_remainder(sentence, spans, text_is_cased=True)
