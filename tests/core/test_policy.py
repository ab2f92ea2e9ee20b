"""The type policy: direct identifiers always, quasi-identifiers by lambda, public entities pass."""

from __future__ import annotations

import pytest

from core.entities import EntityType as T
from core.policy import QUASI_THRESHOLDS, Family, TypePolicy
from core.spans import Span


@pytest.fixture(scope="module")
def policy() -> TypePolicy:
    return TypePolicy()


def decide(policy: TypePolicy, text: str, value: str, t: T, lam: float = 5.0, views=None):  # type: ignore[no-untyped-def]
    a = text.index(value)
    return policy.decide(text, Span(a, a + len(value), t, 0.9, views or {"ner": 0.9}), lam)


@pytest.mark.parametrize(
    ("text", "value", "t"),
    [
        ("I am Sofía Quintero.", "Sofía Quintero", T.PERSON),
        ("Mail me at a@b.example.", "a@b.example", T.EMAIL),
        ("Call 215-555-4078.", "215-555-4078", T.PHONE),
        ("I was born 22/07/1990 in Lyon.", "22/07/1990", T.DATE),
        ("My great-aunt is 94 now.", "94", T.AGE),
        ("She lives at 14 Larkspur Lane.", "14 Larkspur Lane", T.ADDRESS),
        ("Passport X4821956.", "X4821956", T.ID),
    ],
)
def test_direct_identifiers_are_protected_at_any_level(policy: TypePolicy, text: str, value: str, t: T) -> None:
    for lam in (0.0, 5.0, 10.0):
        d = decide(policy, text, value, t, lam)
        assert d.protect and d.family is Family.DIRECT


@pytest.mark.parametrize(
    ("text", "value", "t", "kind"),
    [
        ("My daughter, 7, has a fever.", "7", T.AGE, "age"),
        ("It started on 1 October.", "1 October", T.DATE, "date of an event"),
        ("A job in Munich.", "Munich", T.LOCATION, "place"),
        ("I am Egyptian.", "Egyptian", T.NRP, "nationality or group"),
        ("Report it to the KLDR.", "KLDR", T.ORG, "acronym"),
        ("I work at Hollis & Brandt Logistics.", "Hollis & Brandt Logistics", T.ORG, "organisation"),
    ],
)
def test_quasi_identifiers_follow_their_threshold(
    policy: TypePolicy, text: str, value: str, t: T, kind: str
) -> None:
    threshold = QUASI_THRESHOLDS[kind]
    below = decide(policy, text, value, t, max(0.0, threshold - 0.5))
    at = decide(policy, text, value, t, threshold)
    assert below.family is Family.QUASI and below.kind == kind
    assert not below.protect and at.protect
    assert f"from privacy level {threshold:g}" in at.reason


@pytest.mark.parametrize(
    ("text", "value", "t"),
    [
        ("I have an offer from Siemens.", "Siemens", T.ORG),
        ("The EU rules apply.", "EU", T.LOCATION),
        ("I want to study at Georgia Tech.", "Georgia Tech", T.ORG),
        ("She got into University College London.", "University College London", T.ORG),
        ("I paid for Adobe Creative Cloud.", "Adobe Creative Cloud", T.ORG),
        ("We fly via Denver International Airport.", "Denver International Airport", T.ORG),
    ],
)
def test_public_entities_leave_below_the_top_of_the_slider(policy: TypePolicy, text: str, value: str, t: T) -> None:
    d = decide(policy, text, value, t, 5.0)
    assert d.family is Family.PUBLIC and not d.protect
    assert decide(policy, text, value, t, 10.0).protect


@pytest.mark.parametrize(
    ("text", "value", "t"),
    [
        ("Her GP is at Hollowbrook Surgery.", "Hollowbrook Surgery", T.ORG),
        ("My school, Kingsmead Sixth Form College, agreed.", "Kingsmead Sixth Form College", T.ORG),
        ("Okeke & Partners Ltd wrote.", "Okeke & Partners Ltd", T.ORG),
        ("My husband is Mr. Siemens.", "Siemens", T.PERSON),  # a title says person
        # A client's account named like a town is the client's.
        ("Just checking in on the Harrison account: they're unhappy.", "Harrison", T.ORG),
    ],
)
def test_private_organisations_and_people_named_like_brands_are_protected(
    policy: TypePolicy, text: str, value: str, t: T
) -> None:
    assert decide(policy, text, value, t, 5.0).protect


def test_deny_list_wins_over_everything(policy: TypePolicy) -> None:
    d = decide(policy, "We use Siemens parts.", "Siemens", T.ORG, 0.0, {"deny-list": 1.0})
    assert d.protect and "always-private" in d.reason


def test_a_value_protected_once_is_protected_everywhere(policy: TypePolicy) -> None:
    text = "Mr. Ford called. Ford said the Ford Focus is fine."
    first = text.index("Ford")
    second = text.index("Ford", first + 1)
    spans = [Span(first, first + 4, T.PERSON, 0.9, {"ner": 0.9}), Span(second, second + 4, T.ORG, 0.9, {"ner": 0.9})]
    decisions = policy.decide_all(text, spans, 5.0)
    assert all(d.protect for d in decisions)
    assert "protected elsewhere" in decisions[1].reason


@pytest.mark.parametrize(
    ("text", "value", "protect"),
    [
        ("A fever since 03/02/2024 now.", "03/02/2024", True),
        ("Broken since January 12, 2025 again.", "January 12, 2025", True),
        ("Flight on 12 July 2024 was late.", "12 July 2024", True),
        ("I start on 1 October with them.", "1 October", False),
        ("It began in March this year.", "March", False),
    ],
)
def test_an_exact_date_is_direct_a_partial_one_is_an_event(
    policy: TypePolicy, text: str, value: str, protect: bool
) -> None:
    assert decide(policy, text, value, T.DATE, 5.0).protect is protect


@pytest.mark.parametrize(
    ("text", "value", "t", "public"),
    [
        ("The item was a Garmin Forerunner 265 worth a lot.", "Garmin Forerunner 265", T.ID, True),
        ("My Toyota RAV4 was scratched.", "Toyota RAV4", T.ORG, True),
        ("My Tesla 5YJ3E1EA7KF317000 was towed.", "Tesla 5YJ3E1EA7KF317000", T.ID, False),
        # A shop someone runs on a brand's platform is theirs, no product.
        ("She ordered from our Etsy shop Little Loom Knits.", "Etsy shop Little Loom Knits", T.ORG, False),
    ],
)
def test_a_public_brands_product_passes_its_serial_number_does_not(
    policy: TypePolicy, text: str, value: str, t: T, public: bool
) -> None:
    d = decide(policy, text, value, t, 5.0)
    assert (d.family is Family.PUBLIC and not d.protect) is public


@pytest.mark.parametrize(
    ("text", "value", "t", "expected"),
    [

        ("I ride a Trek Domane SL 6 daily.", "Trek Domane SL 6", T.PERSON, "public brand's product"),
        ("A deposit with State Bank of India matured.", "State Bank of India", T.ORG, "public institution"),
        # An institution a model typed OTHER is judged as one.
        ("The Year 4 trip to the Natural History Museum is on Friday.", "Natural History Museum", T.OTHER, "public institution"),
        ("How do I escalate to the Banking Ombudsman now?", "Banking Ombudsman", T.OTHER, "public institution"),
        ("It runs WordPress on the box.", "WordPress", T.ID, "public brand"),
    ],
)
def test_flights_products_and_national_institutions(
    policy: TypePolicy, text: str, value: str, t: T, expected: str
) -> None:
    d = decide(policy, text, value, t, 5.0)
    assert d.kind == expected and not d.protect


@pytest.mark.parametrize(
    ("text", "value", "t"),
    [
        # A product's model after its brand or product name: thousands own one.
        ("My iPhone 15 Pro will not charge.", "15 Pro", T.ID),
        ("My router (FRITZ!Box 7590) keeps dropping.", "FRITZ!Box 7590", T.ADDRESS),
        ("It fails on the Netgear Nighthawk R7000 too.", "Netgear Nighthawk", T.ID),
        ("Our Bosch Serie 4 (SMS4HTI45G) dishwasher shows E24.", "SMS4HTI45G", T.ID),
        ("Our Bosch Serie 4 dishwasher (SMS4HTI45G) shows E24.", "SMS4HTI45G", T.ID),
        ("My Sony WH-1000XM5 and Samsung Galaxy S23 Ultra.", "Sony WH-1000XM5 and Samsung Galaxy S23 Ultra", T.ID),
    ],
)
def test_a_products_model_leaves_as_written(policy: TypePolicy, text: str, value: str, t: T) -> None:
    d = decide(policy, text, value, t, 5.0)
    assert d.kind == "public brand's product" and not d.protect
    assert decide(policy, text, value, t, 10.0).protect


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # A serial's label makes the code one device's.
        ("The Dell with service tag 7XK2L93 is broken.", "7XK2L93"),
        ("Serial number of my Galaxy S23 is R58N12ABCDE.", "R58N12ABCDE"),
        ("My iPhone IMEI: 356938035643809.", "356938035643809"),
        # A flight is someone's trip.
        ("We flew Thai Airways TG 917 home.", "TG 917"),
        ("Rebooked on Delta DL1842.", "DL1842"),
        # A code after no brand the lexicon knows stays an identifier.
        ("My Quorvex 7590 keeps dropping.", "Quorvex 7590"),
        # A kind of product in brackets is no brand: "the customer (AB-4471)".
        ("Our Bosch order for the customer (AB-4471) is late.", "AB-4471"),
    ],
)
def test_a_devices_own_code_and_a_flight_stay_protected(policy: TypePolicy, text: str, value: str) -> None:
    assert decide(policy, text, value, T.ID, 5.0).protect


@pytest.mark.parametrize(
    ("text", "value", "t", "protect"),
    [
        # A person addressed by a name that is also a brand's or a place's.
        ("Ask Dell about it.", "Dell", T.ORG, True),
        ("Thanks, Ford.", "Ford", T.LOCATION, True),
        ("My colleague Sage left.", "Sage", T.PERSON, True),
        # Children named after the relation, the second of a pair too.
        ("She looked after our twins, Arlo and Maeve.", "Arlo", T.PERSON, True),
        ("Their kids Chase and Harper are 6.", "Harper", T.PERSON, True),
        # A company called or thanked by a name no person carries stays public.
        ("Please call Vodafone about my bill.", "Vodafone", T.PERSON, False),
        ("Thanks, Vodafone!", "Vodafone", T.ORG, False),
        # The brand without the address stays public.
        ("I bought a Dell laptop.", "Dell", T.ORG, False),
    ],
)
def test_a_person_addressed_by_a_brands_name_is_a_person(
    policy: TypePolicy, text: str, value: str, t: T, protect: bool
) -> None:
    assert decide(policy, text, value, t, 5.0).protect is protect


@pytest.mark.parametrize(
    ("text", "value", "t", "public"),
    [
        # A public company's site, no path: no one's address.
        ("I booked through Booking.com.", "Booking.com", T.URL, True),
        ("Order via Amazon.co.uk please.", "Amazon.co.uk", T.ORG, True),
        # A brand of two words as its site writes it, and one a model typed as an e-mail.
        ("It was charged twice by BestBuy.com on 11/14.", "BestBuy.com", T.EMAIL, True),
        ("I flew with britishairways.com last year.", "britishairways.com", T.URL, True),
        ("Write to me at ana@bestbuy.com please.", "ana@bestbuy.com", T.EMAIL, False),
        # A page below it, a site of a name no list knows, or named like a person, may be someone's.
        ("See linkedin.com/in/jane-smith-22 too.", "linkedin.com/in/jane-smith-22", T.URL, False),
        ("My shop is quorvex-design.com now.", "quorvex-design.com", T.URL, False),
        ("My site is smith.com now.", "smith.com", T.URL, False),
    ],
)
def test_a_public_companys_site_leaves_as_written(
    policy: TypePolicy, text: str, value: str, t: T, public: bool
) -> None:
    assert (not decide(policy, text, value, t, 5.0).protect) is public


def test_a_room_code_without_a_flight_is_no_flight(policy: TypePolicy) -> None:
    assert decide(policy, "Her locker is AB 401 in the basement.", "AB 401", T.ID, 5.0).protect


@pytest.mark.parametrize(
    ("value", "t", "coarse"),
    [("7", T.AGE, "5-9"), ("34", T.AGE, "30s"), ("1 October", T.DATE, "October"), ("Tuesday", T.DATE, None)],
)
def test_ages_and_event_dates_are_generalized_below_nine(
    policy: TypePolicy, value: str, t: T, coarse: str | None
) -> None:
    text = f"It is about {value} here."
    at8 = decide(policy, text, value, t, 8.0)
    assert at8.protect and at8.generalized == coarse
    if coarse is not None:
        assert f"sent as “{coarse}”" in at8.reason
    at9 = decide(policy, text, value, t, 9.0)
    assert at9.protect and at9.generalized is None


@pytest.mark.parametrize(
    ("text", "value", "t"),
    [
        ("My Lufthansa flight LH 401 was cancelled.", "LH 401", T.ADDRESS),
        ("We were rebooked on TP 1351 at night.", "TP 1351", T.ID),
    ],
)
def test_a_flight_number_is_a_quasi_identifier_protected_from_five(
    policy: TypePolicy, text: str, value: str, t: T
) -> None:
    assert decide(policy, text, value, t, 5.0).protect
    low = decide(policy, text, value, t, 4.0)
    assert low.kind == "flight number" and not low.protect


@pytest.mark.parametrize(
    "value", ["cvs on maple ave", "CVS on 19th and Chestnut", "Boots on King St", "walgreens on 5th ave"]
)
def test_a_brand_with_a_place_is_a_branch_not_a_product(policy: TypePolicy, value: str) -> None:
    text = f"I picked them up at {value} yesterday."
    assert decide(policy, text, value, T.ORG, 5.0).protect


@pytest.mark.parametrize(
    ("text", "value", "t"),
    [
        ("I work at Google as a senior engineer.", "Google", T.ORG),
        ("She graduated from Stanford University in 2019.", "Stanford University", T.ORG),
        ("My manager at Microsoft asked me to stay.", "Microsoft", T.ORG),
        ("I'm 34 and earn about $96,000 at Northrop Grumman.", "Northrop Grumman", T.ORG),
        # The hours, shifts and pay of a job there.
        ("Explain that my hours at Sainsbury's dropped from 30 to 16.", "Sainsbury", T.ORG),
        # The end of a shift there.
        ("I can do Mon and Wed evenings, I finish at Asda at 5.", "Asda", T.ORG),
        ("He's in the MSc Data Science programme at the University of Leeds.", "University of Leeds", T.ORG),
        ("I work at the Natural History Museum as a curator.", "Natural History Museum", T.OTHER),
    ],
)
def test_a_public_company_or_university_where_someone_works_or_studies_is_an_employer(
    policy: TypePolicy, text: str, value: str, t: T
) -> None:
    threshold = QUASI_THRESHOLDS["employer or school"]
    below = decide(policy, text, value, t, threshold - 0.5)
    at = decide(policy, text, value, t, 5.0)
    assert below.family is Family.QUASI and below.kind == "employer or school"
    assert not below.protect and at.protect


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("In my current position at Ocado Technology in Hatfield I built the pipeline.", "Ocado Technology"),
        ("I run a small café, The Copper Kettle, in town.", "The Copper Kettle"),
    ],
)
def test_a_brand_and_an_organisations_word_is_a_company_not_a_product(
    policy: TypePolicy, text: str, value: str
) -> None:
    d = decide(policy, text, value, T.ORG, 5.0)
    assert d.protect and d.kind != "public brand's product"


def test_a_brands_arm_is_public_as_a_subject(policy: TypePolicy) -> None:
    text = "My travel insurer is Allianz Travel; the claim was rejected."
    d = decide(policy, text, "Allianz Travel", T.ORG, 5.0)
    assert not d.protect and d.kind == "public company"


def test_no_one_works_in_a_brands_product(policy: TypePolicy) -> None:
    text = "Ran the monthly payroll for 240 staff in Sage 50 with zero late payments."
    d = decide(policy, text, "Sage 50", T.ORG, 5.0)
    assert not d.protect and d.kind == "public brand's product"


@pytest.mark.parametrize(
    ("text", "value", "t"),
    [
        ("My Bosch dishwasher shows error E15.", "Bosch", T.ORG),
        ("My son wants to apply to Georgia Tech next year.", "Georgia Tech", T.ORG),
        ("Compare Google and Microsoft for cloud storage.", "Microsoft", T.ORG),
    ],
)
def test_a_public_company_as_the_subject_stays_public(
    policy: TypePolicy, text: str, value: str, t: T
) -> None:
    d = decide(policy, text, value, t, 5.0)
    assert d.family is Family.PUBLIC and not d.protect


def test_a_brand_in_lower_case_after_a_sentences_first_word_stays_public(policy: TypePolicy) -> None:
    d = decide(policy, "Run aws s3 sync ./dist --delete", "aws", T.PERSON)
    assert d.family is Family.PUBLIC and not d.protect
    # Capitalised next to another capitalised word inside a sentence: a person.
    assert decide(policy, "I met Tesla Ramos today.", "Tesla", T.PERSON).protect


def test_a_permit_from_an_office_is_no_affiliation(policy: TypePolicy) -> None:
    from core.policy import affiliation

    text = "would that delay her study permit from IRCC?"
    assert not affiliation(text, text.index("IRCC"))
    for text, name in [
        ("I study at MIT now.", "MIT"),
        ("He has worked part-time at Tesco for years.", "Tesco"),
        ("She is a nurse at Guy's.", "Guy's"),
    ]:
        assert affiliation(text, text.index(name)), text


@pytest.mark.parametrize(
    ("text", "value", "protected"),
    [
        ("Mon TGV Paris-Marseille a eu 2 h 10 de retard.", "Paris-Marseille", False),
        ("My London-Paris train was three hours late.", "London-Paris", False),
        # A double-barrelled firm is no route.
        ("I work at Smith-Jones and want a reference.", "Smith-Jones", True),
    ],
)
def test_a_route_between_two_public_places_is_no_organisation(
    policy: TypePolicy, text: str, value: str, protected: bool
) -> None:
    assert decide(policy, text, value, T.ORG).protect is protected


def test_a_canadian_postcode_is_no_brands_product() -> None:
    from core.lexicon import lexicon
    from core.policy import product_model
    from core.spans import Span

    text = "I need to cancel at Smile Dental, 220 Queen St W, Toronto ON M5V 2Z4. Thanks."
    a = text.index("M5V")
    assert not product_model(text, Span(a, a + 7, T.ADDRESS, 0.99, {"ner": 0.99}), lexicon())


def test_a_brand_and_its_town_is_a_branch_not_a_product(policy: TypePolicy) -> None:
    text = "Ich bin Teamleiterin bei der Sparkasse Hannover."
    d = decide(policy, text, "Sparkasse Hannover", T.ORG, 5.0)
    assert d.protect and d.kind != "public brand's product"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Je suis DRH chez Boulangeries Perrin SAS à Dijon.", "Boulangeries Perrin SAS"),
        ("Soy responsable de RRHH en Construcciones Vidal S.A. y tengo dudas.", "Construcciones Vidal S.A."),
        ("Ik ben HR-adviseur bij Transportbedrijf De Groot B.V. in Venlo.", "Transportbedrijf De Groot B.V."),
        # The writer's job and where ("soy técnica de RR. HH. en").
        ("Soy técnica de RR. HH. en Mercadona desde 2019.", "Mercadona"),
    ],
)
def test_an_employer_in_another_language_is_protected(policy: TypePolicy, text: str, value: str) -> None:
    from core.policy import employed_at

    assert employed_at(text, text.index(value))
    assert decide(policy, text, value, T.ORG, 5.0).protect


def test_a_brand_and_its_region_is_the_brands_own(policy: TypePolicy) -> None:
    text = "Die Krankenkasse (AOK Bayern) hat die Kostenübernahme abgelehnt."
    d = decide(policy, text, "AOK Bayern", T.ORG, 5.0)
    assert not d.protect


def test_the_town_after_a_house_and_its_street_is_the_addresss(policy: TypePolicy) -> None:
    text = "She wants an engineer visit to 14 Fjordvegen, Bergen, after the update that broke her bike."
    assert decide(policy, text, "Bergen", T.LOCATION, 5.0).protect
    # A year and a city are no house and street.
    text = "In 2019 Paris, Lyon and Nice hosted the games, a great summer for everyone involved."
    assert not decide(policy, text, "Lyon", T.LOCATION, 5.0).protect


def test_a_school_someone_goes_to_is_protected(policy: TypePolicy) -> None:
    text = "She's 16 and goes to St Bede's Catholic College in Bristol."
    assert decide(policy, text, "St Bede's Catholic College", T.ORG, 5.0).protect
    # A college named after a saint is a secondary school ("she's in Year 8").
    text = "She's in Year 8 (form 8R) at St. Brendan's College, and she sprained her ankle."
    assert decide(policy, text, "St. Brendan's College", T.ORG, 5.0).protect
    text = "We're taking the kids to visit the Natural History Museum."
    assert not decide(policy, text, "Natural History Museum", T.ORG, 5.0).protect


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("What did Keir Starmer say about immigration in his conference speech?", "Keir Starmer"),
        ("Compare Rishi Sunak's and Liz Truss's economic policies.", "Rishi Sunak"),
        ("Write a short bio of Serena Williams for a school project.", "Serena Williams"),
        ("Summarise Ursula von der Leyen's speech.", "Ursula von der Leyen"),
    ],
)
def test_a_public_figure_named_in_a_public_role_leaves_below_the_top_of_the_slider(
    policy: TypePolicy, text: str, value: str
) -> None:
    d = decide(policy, text, value, T.PERSON, 5.0)
    assert d.family is Family.PUBLIC and not d.protect and d.kind == "public figure"
    assert decide(policy, text, value, T.PERSON, 10.0).protect


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # Related to the writer, addressed, titled, named as someone's, with contact data.
        ("My neighbour Taylor Swift keeps parking in front of our drive.", "Taylor Swift"),
        ("Dear Keir Starmer, I am writing about our library.", "Keir Starmer"),
        ("The report is from Dr. Rishi Sunak at the practice.", "Rishi Sunak"),
        ("A new client named Serena Williams called.", "Serena Williams"),
        ("Keir Starmer · keir.s@example.com · 07458 386210", "Keir Starmer"),
        # One word is never a public figure; a name many people carry is not in the list.
        ("Did Starmer reply?", "Starmer"),
        ("Andy Murray from accounts sent the figures.", "Andy Murray"),
        ("John Williams signed the lease.", "John Williams"),
    ],
)
def test_a_public_figures_name_is_protected_where_it_may_be_a_private_persons(
    policy: TypePolicy, text: str, value: str
) -> None:
    assert decide(policy, text, value, T.PERSON, 5.0).protect


def test_a_public_figure_in_a_health_message_is_protected(policy: TypePolicy) -> None:
    from core.policy import Profile

    text = "Patient Barack Obama, 63, presented with chest pain."
    a = text.index("Barack Obama")
    span = Span(a, a + len("Barack Obama"), T.PERSON, 0.9, {"ner": 0.9})
    assert policy.decide(text, span, 5.0, Profile.HEALTH).protect


def test_a_company_after_a_claim_is_no_court(policy: TypePolicy) -> None:
    # "a claim letter to Aviva": an insurance claim; the insurer is public as a subject.
    d = decide(policy, "Draft a claim letter to Aviva about my burst pipe.", "Aviva", T.ORG)
    assert not d.protect and d.family is Family.PUBLIC
    # A court after a claim is the person's court.
    text = "I filed a claim at Leeds County Court last month."
    assert decide(policy, text, "Leeds County Court", T.ORG).protect


@pytest.mark.parametrize(
    "text", ["Our daughter was born on 28 August at 36 weeks.", "He was born in March 1990 in Hull."]
)
def test_a_date_after_born_on_or_in_is_a_date_of_birth(policy: TypePolicy, text: str) -> None:
    value = "28 August" if "August" in text else "March 1990"
    d = decide(policy, text, value, T.DATE)
    assert d.protect and d.kind == "date of birth"


def test_a_claim_names_no_court_and_a_firm_where_someone_trained_is_an_employer(policy: TypePolicy) -> None:
    # "The claim was for 10/14 at Valley Imaging Center": the imaging centre is no court.
    d = decide(policy, "The claim was for 10/14 at Valley Imaging Center in Boise.", "Valley Imaging Center", T.ORG)
    assert "court" not in d.kind
    d = decide(policy, "I trained at Irwin Mitchell in Sheffield.", "Irwin Mitchell", T.ORG)
    assert d.protect and d.kind.startswith("employer")


def test_the_day_babies_were_delivered_is_their_date_of_birth(policy: TypePolicy) -> None:
    text = "Thanks to the midwives who delivered our twins, Elsie and Arthur, on 1 December."
    d = decide(policy, text, "1 December", T.DATE)
    assert d.protect and d.kind == "date of birth"
    # A parcel delivered on a day is an event's date.
    assert not decide(policy, "The parcel was delivered on 1 December.", "1 December", T.DATE).protect


def test_a_public_figure_in_a_one_line_message_with_an_address_far_away_leaves(policy: TypePolicy) -> None:
    text = (
        "Help me write to my MP, Rachel Reeves, about the closure of the Armley library branch. "
        "I've lived at 16 Hall Lane, Leeds LS12 1EZ for 30 years."
    )
    assert not decide(policy, text, "Rachel Reeves", T.PERSON).protect
    # The person's own school named as theirs is protected, whatever the gazetteer says.
    text = "His current college, Burton and South Derbyshire College, says he'll lose his bursary."
    assert decide(policy, text, "Burton and South Derbyshire College", T.ORG).protect


def test_a_newborn_named_like_a_shop_is_a_person(policy: TypePolicy) -> None:
    d = decide(policy, "Thanks for looking after me and baby Zara last week.", "Zara", T.PERSON, 5.0)
    assert d.protect, d
