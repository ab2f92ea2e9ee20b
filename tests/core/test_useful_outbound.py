"""What leaves stays useful: the damage reported on real messages, end to end on the shipped detector.

Every sentence is sent (routed remote) so that these tests check detection,
the type policy and anonymization, not the router.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from core.analyze import Analyzer, Route
from core.box import PrivacyBox
from core.segment import Segmenter
from tests.core.sending import GLUED, send_all, shipped_analyzer


@pytest.fixture(scope="module")
def analyzer() -> Analyzer:
    return shipped_analyzer()


def test_a_paragraph_break_after_an_address_cuts_no_word(analyzer: Analyzer) -> None:
    out = send_all(
        analyzer,
        "My mother lives alone at 14 Larkspur Lane, Dunmore.\n\nCould you tell us what help she can get?",
    )
    assert "14 Larkspur Lane" not in out
    assert "\n\nCould you tell us what help she can get?" in out


@pytest.mark.parametrize(
    "keep",
    ["160/95", "8.4%", "9.8 mmol/L", "eGFR 52", "39.2 °C", "500 mg", "2 puffs", "6 weeks", "180 L/min"],
)
def test_clinical_quantities_leave_as_written(analyzer: Analyzer, keep: str) -> None:
    text = (
        "Patient Mirela Voss: blood pressure 160/95, HbA1c 8.4%, glucose 9.8 mmol/L, eGFR 52, "
        "temperature 39.2 °C. She takes metformin 500 mg, uses 2 puffs of salbutamol, peak flow "
        "180 L/min, for 6 weeks now. What should we change?"
    )
    out = send_all(analyzer, text)
    assert keep in out
    assert "Mirela Voss" not in out


@pytest.mark.parametrize(
    "keep", ["$2,400", "35 EUR", "Texas Property Code section 92.103", "psycopg2.OperationalError"]
)
def test_money_law_and_code_leave_as_written(analyzer: Analyzer, keep: str) -> None:
    text = (
        "My landlord Jorge Alvarado Ruiz kept the $2,400 deposit and a 35 EUR fee. Under the Texas "
        "Property Code section 92.103 he must return it. Also my script fails with "
        "psycopg2.OperationalError for user svc_billing."
    )
    out = send_all(analyzer, text)
    assert keep in out
    assert "Alvarado" not in out and "svc_billing" not in out


def test_one_person_one_placeholder(analyzer: Analyzer) -> None:
    text = (
        "Tadeusz Wielgosz joined in March. Tadeusz is great with clients, but Mr. Wielgosz keeps "
        "missing the stand-up. TADEUSZ says it is the bus. How do I raise this with Tadeusz?"
    )
    out = send_all(analyzer, text)
    assert set(re.findall(r"\[PERSON_\d+\]", out)) == {"[PERSON_1]"}
    assert "Tadeusz" not in out and "Wielgosz" not in out and "TADEUSZ" not in out


def test_public_entities_and_quasi_identifiers_at_the_default_level(analyzer: Analyzer) -> None:
    text = (
        "I'm Sofía Quintero, passport number X4821956, born 22/07/1990. I have a job offer from "
        "Siemens in Munich starting 1 October. Which German visa should I apply for? My daughter, 7, "
        "comes too; HR and the EU rules apply."
    )
    out = send_all(analyzer, text)
    for keep in ("Siemens", "Munich", "1 October", "German", "HR", "EU", "7"):
        assert keep in out, keep
    for private in ("Sofía", "Quintero", "X4821956", "22/07/1990"):
        assert private not in out, private


def test_a_flight_sent_in_clear_is_not_masked_in_pieces(analyzer: Analyzer) -> None:
    text = (
        "My Lufthansa flight LH 401 from Frankfurt to New York JFK on 12 July was cancelled. "
        "Booking reference QX7T4M, passenger Henrike Albrecht-Sørensen."
    )
    out = send_all(analyzer, text, risk_lambda=4.0)
    for keep in ("Lufthansa", "LH 401", "Frankfurt"):
        assert keep in out, out
    for private in ("QX7T4M", "Henrike", "Albrecht"):
        assert private not in out, private


def test_a_possessive_of_a_public_name_stays_with_it(analyzer: Analyzer) -> None:
    text = "I want the roaming charges removed. Mention Ofcom's rules on bill shock if they apply."
    out = send_all(analyzer, text)
    assert "Ofcom's rules" in out, out


def test_a_high_lambda_protects_every_quasi_identifier(analyzer: Analyzer) -> None:
    text = "I start a job in Munich on 1 October with my daughter, 7."
    out = send_all(analyzer, text, risk_lambda=10.0)
    for value in ("Munich", "1 October"):
        assert value not in out, value


def test_a_person_named_like_a_brand_stays_private(analyzer: Analyzer) -> None:
    text = "My husband is Kevin Ford. Mr. Ford bought a Ford Focus, and Ford (my husband) paid."
    out = send_all(analyzer, text)
    assert "Kevin" not in out
    # Wherever the surname stands alone it is his, protected once means protected everywhere.
    assert not re.search(r"\bFord\b(?! Focus)", out)


@pytest.mark.parametrize(
    "text",
    [
        "12 34 56 78 90 1.5 2.25 100/70 99.9% 3/4",
        "[PERSON_1] met PERSON_2 and [DATE_3]; <ID_4> wrote Person 5.",
        "\n\n\n",
    ],
)
def test_odd_inputs_leave_readable(analyzer: Analyzer, text: str) -> None:
    if not text.strip():
        with pytest.raises(Exception):  # noqa: B017 - the empty-input error is covered elsewhere
            analyzer.analyze(text)
        return
    out = send_all(analyzer, text)
    assert out.split() == text.split() or "[" in out


_MIXED = "Anna Berg zahlt 35 EUR. 陈建国说他在北京。Дмитрий Волков звонил. 8.4% 160/95 $2,400 call 215-555-4078\n"


def test_a_hundred_kilobytes_of_mixed_scripts_through_the_rules_view() -> None:
    from core.detect.base import Detector
    from core.detect.rules import RulesView
    from core.detect.tokens import atoms, cuts_token

    text = _MIXED * (100_000 // len(_MIXED))
    spans = Detector([RulesView()]).analyze(text)
    table = atoms(text)
    assert spans and not any(cuts_token(text, s.start, s.end, table) for s in spans)
    assert "35 EUR" not in {text[s.start : s.end] for s in spans}


def test_a_megabyte_of_mixed_scripts_is_rewritten_whole_and_linearly() -> None:
    """Refinement, snapping and the box on 1 MB, with spans cutting tokens on purpose."""
    import time

    from core.detect.refine import refine
    from core.detect.tokens import atoms, cuts_token
    from core.entities import EntityType
    from core.lexicon import lexicon
    from core.spans import Span

    def spans_of(text: str) -> list[Span]:
        out = [Span(m.start(), m.end(), EntityType.PERSON, 0.9, {"ner": 0.9}) for m in re.finditer("Anna Be|олков|建国", text)]
        out += [Span(m.start(), m.end(), EntityType.ID, 0.6, {"ner": 0.6}) for m in re.finditer(r"400|60/9|555-40", text)]
        return out

    lex = lexicon()
    small = _MIXED * (100_000 // len(_MIXED))
    # CPU time: what the work costs, not how long a busy machine made it wait.
    t0 = time.process_time()
    refine(small, spans_of(small), lex)
    t_small = time.process_time() - t0
    text = _MIXED * (1_000_000 // len(_MIXED))
    t0 = time.process_time()
    spans = refine(text, spans_of(text), lex)
    t_big = time.process_time() - t0
    table = atoms(text)
    assert spans and not any(cuts_token(text, s.start, s.end, table) for s in spans)
    box = PrivacyBox()
    out = box.anonymize(text, spans)
    assert not GLUED.search(out.text) and box.deanonymize(out.text).text == text
    assert "$2,400" in out.text and "160/95" in out.text and "Anna Berg" not in out.text
    # Ten times the text costs about ten times the time, not a hundred.
    assert t_big < 30 * t_small + 2


def test_between_seven_and_nine_ages_and_dates_leave_coarse(analyzer: Analyzer) -> None:
    text = "My daughter Lucy Whitfield, 7, has had a fever since 1 October."
    out = send_all(analyzer, text, risk_lambda=8.0)
    assert "5-9" in out and "since October" in out and "Lucy" not in out


def test_a_box_value_written_otherwise_gets_its_own_placeholder(segmenter: Segmenter) -> None:
    """The outbound finds box values by the guard's matcher: spelled out, spaced
    or glued, a person keeps one placeholder (no block, no split)."""
    from core.detect.base import Detector
    from core.detect.rules import RulesView
    from core.entities import EntityType
    from core.outbound.compose import compose_outbound

    analyzer = Analyzer(segmenter, Detector([RulesView()]))
    for text in (
        "Tell L u c y  W h i t f i e l d that the appointment moved.",
        "Please tell L-U-C-Y W-H-I-T-F-I-E-L-D that the results are in.",
        "Tell lucyWhitfield that it moved.",
    ):
        box = PrivacyBox()
        box.placeholder_for("Lucy Whitfield", EntityType.PERSON)
        analysis = analyzer.analyze(text)
        for plan in analysis.plans:
            plan.route = Route.REMOTE
        out = compose_outbound(analysis, box)
        assert "[PERSON_1]" in out and "hitfield" not in out.lower(), out
        assert [e.placeholder for e in box.entries()] == ["[PERSON_1]"]


def test_a_phone_number_with_its_country_code_keeps_its_type(analyzer: Analyzer) -> None:
    # The box matcher skips the "+": the token around it is still the same number.
    out = send_all(analyzer, 'Convert to XML: {"id": 8289240, "phone": "+49 30 56484902"}')
    assert '"phone": "[PHONE_' in out, out
    assert "56484902" not in out


class _Rereads:
    """The detector as settling sees it: what it finds in the composed text, each find
    with its views (only the model, unsure, unless told otherwise)."""

    def __init__(self, finds: dict[str, tuple[str, dict[str, float]]]) -> None:
        self.finds = finds

    def analyze(self, text: str) -> list[Any]:
        from core.entities import EntityType
        from core.spans import Span

        out = []
        for word, (type_, views) in self.finds.items():
            i = text.find(word)
            if i >= 0:
                out.append(Span(i, i + len(word), EntityType(type_), max(views.values()), views))
        return out


def test_settling_leaves_an_unsure_second_reading_of_common_words(segmenter: Segmenter) -> None:
    """A word the whole message's reading passed over, that the model alone guesses at
    once placeholders changed the text, leaves as written when it is a common word that
    names no one; a name, an unknown word or a sure find is replaced as before."""
    from core.detect.base import Detector
    from core.detect.rules import RulesView
    from core.outbound.compose import WEAK_REREAD, settle
    from core.policy import TypePolicy

    text = "Ran the monthly payroll and the card file with byron, tarif and Tessa Wren."
    analysis = Analyzer(segmenter, Detector([RulesView()])).analyze(text)
    for plan in analysis.plans:
        plan.route = Route.REMOTE
    weak = {"ner": 0.5}
    rereads = _Rereads(
        {
            "payroll": ("OTHER", weak),
            "card": ("ORG", weak),
            "byron": ("PERSON", weak),  # a given name
            "tarif": ("PERSON", weak),  # no word of the lexicon
            "Tessa Wren": ("PERSON", {"ner": 0.95}),  # sure
        }
    )
    out = settle(text, PrivacyBox(), rereads, analysis, TypePolicy())  # type: ignore[arg-type]
    assert "monthly payroll and the card file" in out.text
    assert "byron" not in out.text and "tarif" not in out.text and "Tessa Wren" not in out.text
    assert {(v.value, v.reason) for v in out.sent} == {("payroll", WEAK_REREAD), ("card", WEAK_REREAD)}


def _settled(segmenter: Segmenter, text: str, first: dict[str, tuple[str, dict[str, float]]],
             rereads: dict[str, tuple[str, dict[str, float]]]) -> Any:
    """Settle ``text`` whose whole reading found ``first``, the composed text's ``rereads``."""
    from core.detect.base import Detector
    from core.lexicon import lexicon
    from core.outbound.compose import settle
    from core.policy import TypePolicy

    analysis = Analyzer(segmenter, Detector([_Rereads(first)])).analyze(text)  # type: ignore[list-item]
    for plan in analysis.plans:
        plan.route = Route.REMOTE
    return settle(text, PrivacyBox(), _Rereads(rereads), analysis, TypePolicy(lexicon()))  # type: ignore[arg-type]


def test_settling_leaves_a_small_number_of_an_unsure_second_reading(segmenter: Segmenter) -> None:
    weak = {"ner": 0.5}
    out = _settled(segmenter, "They sent size 7.5 but I ordered size 9 uk.", {}, {"9 uk": ("ID", weak)})
    assert "size 9 uk" in out.text, out.text
    # An age is never read so: it is replaced as before.
    out = _settled(segmenter, "My father, aged 92, lives alone.", {}, {"aged 92": ("AGE", weak)})
    assert "92" not in out.text, out.text


def test_settling_leaves_a_public_brands_model_and_never_a_long_number(segmenter: Segmenter) -> None:
    weak = {"ner": 0.6}
    first = {"Garmin": ("ORG", {"ner": 0.9})}
    text = "The item was a Garmin Forerunner 265 worth £349.99."
    out = _settled(segmenter, text, first, {"Garmin Forerunner 265": ("PERSON", weak)})
    assert "Garmin Forerunner 265" in out.text, out.text
    text = "I paid with my Garmin 4111 1111 1111 1111 card."
    out = _settled(segmenter, text, first, {"Garmin 4111 1111 1111 1111": ("PERSON", weak)})
    assert "4111" not in out.text, out.text


def test_settling_leaves_lower_case_words_after_a_public_name_sent_in_clear(segmenter: Segmenter) -> None:
    from core.outbound.compose import CLEAR_TAIL

    text = "The build fails again. Is it the Redis sidecar or the proxy?"
    first = {"Redis": ("ORG", {"ner": 0.9})}
    out = _settled(segmenter, text, first, {"Redis sidecar": ("ORG", {"ner": 0.9})})
    assert "Redis sidecar" in out.text, out.text
    assert {(v.value, v.reason) for v in out.sent} == {("sidecar", CLEAR_TAIL)}
    # A capitalised word after it may be a name: replaced as before.
    text = "The build fails again. Is it the Redis Okonjo branch or the proxy?"
    out = _settled(segmenter, text, first, {"Redis Okonjo": ("ORG", {"ner": 0.9})})
    assert "Okonjo" not in out.text, out.text


def test_a_value_sent_in_clear_is_a_whole_word_when_settling(segmenter: Segmenter) -> None:
    weak = {"ner": 0.5}
    text = "Flight BA 283 lost my suitcase, bag tag BA 429871."
    out = _settled(segmenter, text, {"BA": ("ORG", {"ner": 0.9})}, {"bag tag BA": ("OTHER", weak)})
    # "bag tag" is what the second reading added: "BA" in clear is not the "ba" of "bag".
    assert {v.value for v in out.sent} == {"bag tag"}, out.sent


def test_a_name_that_is_a_word_is_replaced_where_it_names_the_person(analyzer: Analyzer) -> None:
    # "Hope" of a protected name, written alone with its capital, is her; "hope" is not.
    out = send_all(
        analyzer,
        "Hope Adeyemi-Clarke started as our office manager in June. Hope is brilliant, but "
        "Mrs Adeyemi-Clarke keeps double-booking rooms. I hope to tell Hope kindly.",
    )
    assert "Hope is" not in out and "tell Hope" not in out, out
    assert "I hope to" in out, out
    assert len(set(re.findall(r"\[PERSON_\d+\]", out))) == 1, out
    # "Will" the name and "will" the verb; "Grace" and a grace period.
    out = send_all(analyzer, "Will Thompson joined in May. Will said he will call you tomorrow.")
    assert "he will call" in out and "Will" not in out, out
    out = send_all(analyzer, "Grace Okafor is our new nurse. Grace asked for a grace period on the rota.")
    assert "a grace period" in out and "Grace" not in out, out


def test_twins_named_by_words_are_both_protected(analyzer: Analyzer) -> None:
    out = send_all(
        analyzer,
        "My twins Summer and River start reception in September. Summer has a peanut allergy.",
    )
    assert "Summer" not in out and "River" not in out, out
    assert "in September" in out, out


def test_settling_leaves_the_label_of_a_value_already_replaced(segmenter: Segmenter) -> None:
    """"My NIF is [ID_1]": read again without its value, "NIF is" may look like a name to
    the model; the label of a replaced value stays as written."""
    from core.detect.base import Detector
    from core.lexicon import lexicon
    from core.outbound.compose import settle
    from core.policy import TypePolicy

    text = "Is the transfer taxed in Portugal? My NIF is 287 643 190. Ask Tessa Wren."
    analysis = Analyzer(segmenter, Detector([_Rereads({"287 643 190": ("ID", {"rules": 0.97})})])).analyze(text)  # type: ignore[list-item]
    composed = text.replace("287 643 190", "[ID_1]")
    rereads = _Rereads({"NIF is": ("OTHER", {"ner": 0.9}), "Tessa Wren": ("PERSON", {"ner": 0.9})})
    out = settle(composed, PrivacyBox(), rereads, analysis, TypePolicy(lexicon()))  # type: ignore[arg-type]
    assert "My NIF is [ID_1]." in out.text, out.text
    # A name that is no label is still read again.
    assert "Tessa Wren" not in out.text, out.text


def test_a_bsb_and_an_account_number_are_replaced(analyzer: Analyzer) -> None:
    out = send_all(analyzer, "[12/11/25, 8:44 pm] Kayla: yep, BSB 062-914 acct 1047 2286, ref WATER-Q3. pay by friday pls")
    assert "062-914" not in out and "1047 2286" not in out and "BSB" in out, out


@pytest.mark.parametrize(
    ("text", "keep", "gone"),
    [
        (
            "flight from dublin to toronto got cancelled last min (aer lingus, booking ref 2KT9WD), they "
            "rebooked us 2 days later and we had to pay for a hotel",
            "aer lingus",
            "2KT9WD",
        ),
        (
            "ugh my dyson v15 detect stopped charging after 13 months and dyson support said its out of "
            "warranty?? the guy on live chat (renaldo) said he'd escalate it",
            "dyson support",
            "renaldo",
        ),
        (
            "my son kayode (14) takes methylphenidate XL 36 mg (concerta). the camhs nurse bernadette said "
            "try a drug holiday at weekends",
            "methylphenidate XL 36 mg",
            "bernadette",
        ),
        # days, lists of people, relation words and chat words in lower case
        (
            "we need a carpool rota for the 6:15am tues + thurs sessions at the leisure centre. drivers so far: "
            "priyanka's dad (thurs only) and lowri's mum bronwen (tues).",
            "tues + thurs",
            "bronwen",
        ),
        (
            "excel help pls. me + 3 housemates split bills in a sheet, col B is who paid (kasia, tobenna, ffion, "
            "me), col C is amount. i put =SUMIF(B2:B40,\"tobenna\",C2:C40) and it gives 0 even tho he def paid "
            "£312.60 for the energy bill",
            "=SUMIF(B2:B40",
            "ffion",
        ),
        (
            "need a msg that says keep it secret, rsvp to me by the 10th. my number 07700 900871, or my aunty "
            "grace-ann on 0121 496 0528",
            "my aunty",
            "grace-ann",
        ),
    ],
)
def test_public_names_doses_and_roles_in_lower_case(analyzer: Analyzer, text: str, keep: str, gone: str) -> None:
    out = send_all(analyzer, text)
    assert keep in out and gone not in out, out
    assert "camhs nurse" in out or "camhs" not in text, out
    assert "rsvp" in out or "rsvp" not in text, out


def test_a_tab_separated_tables_cells_keep_their_columns(analyzer: Analyzer) -> None:
    text = (
        "What's wrong with these Gift Aid rows before I upload them?\n\n"
        "Title\tFirst\tLast\tHouse\tPostcode\tDate\tAmount\n"
        "Mrs\tMorfudd\tParry-Jenkins\tTŷ Capel\tLL28 5TD\t04/10/26\t£120.00\n"
        "Mr\tKrzysztof\tWiśniewski\t17\tLL29 7BQ\t11/10/26\t£50\n"
        "Dr\tH\tOkoye\tFlat 3\tll30 2ne\t11/10/26\t30\n"
        "\tAoibheann\tNí Ghallchobhair\t9\tLL28 5UG\t18/10/26\t£200.00"
    )
    out = send_all(analyzer, text)
    rows = out.split("\n")[-4:]
    # every row keeps its seven cells: no value runs from one cell into the next
    assert all(r.count("\t") == 6 for r in rows), out
    for gone in ("Morfudd", "Okoye", "Tŷ Capel", "Flat 3", "ll30 2ne", "Aoibheann", "Ghallchobhair", "\t17\t", "\t9\t"):
        assert gone not in out, (gone, out)
    assert rows[0].startswith("Mrs\t") and rows[2].startswith("Dr\t") and "£200.00" in rows[3], out


def test_a_secrets_default_in_code_is_replaced_and_its_variable_stays(analyzer: Analyzer) -> None:
    text = (
        "settings.py has DATABASES = {'default': {'ENGINE': 'django.db.backends.postgresql', 'HOST': "
        "os.environ['DB_HOST'], 'PASSWORD': os.getenv('DB_PASS', 'changeme-Ab12')}}\n\n"
        "DB_PASS is set in my .env so why is it using the default? Django 5.1, Python 3.12."
    )
    out = send_all(analyzer, text)
    assert "changeme-Ab12" not in out and "os.getenv('DB_PASS', '[" in out, out


@pytest.mark.parametrize(
    ("text", "gone"),
    [
        # A club by its nickname in lower case is an organisation, no town sent as one.
        (
            "can u help me write a msg for the parents whatsapp group for my daughter's swim squad at tonbridge "
            "otters. we need a carpool rota for the 6:15am sessions at the leisure centre.",
            "otters",
        ),
        # A config file's users are accounts, whatever a model typed them.
        (
            "pgbouncer won't log in since the move. Config:\n\n[pgbouncer]\nlisten_port = 6432\n"
            "auth_type = scram-sha-256\nadmin_users = okwame\n",
            "okwame",
        ),
        # A payment's references in a table's "ref" column.
        (
            "Below is my tracker. Can you give me a formula for the Due column?\n\n"
            "Pupil\tClass\tPaid\tDue\tPay ref\nAmara Okafor\t5K\t£145.00\t£0.00\tWH-5K-0112\n"
            "Leo Brandt\t5K\t£80.00\t£65.00\tWH-5K-0117\n",
            "WH-5K-0117",
        ),
    ],
)
def test_clubs_config_users_and_table_references_are_replaced(analyzer: Analyzer, text: str, gone: str) -> None:
    assert gone not in send_all(analyzer, text)
