"""Privacy profiles (issue 23, point 5): the kind of message picks the norm the level applies.

Health applies HIPAA Safe Harbor (45 CFR 164.514(b)(2)): every one of its
identifiers is protected at the default level; what the rule lets stay (a
state, a year, an age under 90, a country) still leaves.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.analyze import Analyzer
from core.domain import Profile, detect, resolve
from core.entities import EntityType as T
from core.policy import NORMS, Family, TypePolicy
from core.spans import Span


@pytest.fixture(scope="module")
def policy() -> TypePolicy:
    return TypePolicy()


def decide(policy: TypePolicy, text: str, value: str, t: T, lam: float = 5.0, profile: Profile = Profile.HEALTH):  # type: ignore[no-untyped-def]
    a = text.index(value)
    return policy.decide(text, Span(a, a + len(value), t, 0.9, {"ner": 0.9}), lam, profile)


#: One value per Safe Harbor category (A)-(R) that a detector types, in a health message.
SAFE_HARBOR = [
    ("name", "Seen by Dr. Anand Krishnan today.", "Anand Krishnan", T.PERSON),
    ("town", "I live in Rochester and my INR is 4.6.", "Rochester", T.LOCATION),
    ("city the gazetteer knows", "We moved to Boston for her chemo.", "Boston", T.LOCATION),
    ("county", "A clinic in Aberdeenshire gave the dose.", "Aberdeenshire", T.LOCATION),
    ("street address", "She lives at 14 Larkspur Lane since the stroke.", "14 Larkspur Lane", T.ADDRESS),
    ("ZIP code", "Our ZIP is 19104 near the hospital.", "19104", T.ADDRESS),
    ("admission date", "She was admitted on 3 May with pneumonia.", "3 May", T.DATE),
    ("discharge date", "Discharged March 12 after the surgery.", "March 12", T.DATE),
    ("date of birth", "DOB 04/18/1989, asthma since childhood.", "04/18/1989", T.DATE),
    ("month of an event", "The biopsy was in March 2019.", "March 2019", T.DATE),
    ("phone", "Call 215-555-4078 about the results.", "215-555-4078", T.PHONE),
    ("fax", "Fax the referral to 0161 496 0731.", "0161 496 0731", T.PHONE),
    ("email", "Mail the scan to mel.g89@protonmail.com please.", "mel.g89@protonmail.com", T.EMAIL),
    ("SSN", "SSN 123-45-6789 for the claim.", "123-45-6789", T.SSN),
    ("MRN", "MRN KDH-77419, ward 6.", "KDH-77419", T.MRN),
    ("health plan number", "Aetna PPO #AET-4839021 covers it.", "AET-4839021", T.ACCOUNT),
    ("account number", "Billing account 00482913 for the visit.", "00482913", T.ACCOUNT),
    ("licence number", "Driving licence MORGA753116SM9IJ was shown.", "MORGA753116SM9IJ", T.ID),
    ("vehicle identifier", "My car plate AB12 CDE was in the ambulance bay.", "AB12 CDE", T.ID),
    ("device identifier", "Pacemaker serial PM-2207731 was checked.", "PM-2207731", T.ID),
    ("URL", "My results are at https://portal.example/p/8841 now.", "https://portal.example/p/8841", T.URL),
    ("IP address", "The portal logged 203.0.113.7 for my login.", "203.0.113.7", T.IP),
    ("other unique code", "My flight LH 401 landed before the dialysis.", "LH 401", T.ID),
    ("age over 89", "My grandmother is 94 and has a fever.", "94", T.AGE),
]


@pytest.mark.parametrize(("category", "text", "value", "t"), SAFE_HARBOR, ids=[c[0] for c in SAFE_HARBOR])
def test_every_safe_harbor_identifier_is_protected_under_the_health_profile(
    policy: TypePolicy, category: str, text: str, value: str, t: T
) -> None:
    for lam in (0.0, 5.0):
        d = decide(policy, text, value, t, lam)
        assert d.protect, (category, lam, d.reason)
        assert d.generalized is None or d.generalized.isdigit()  # a year at most


@pytest.mark.parametrize(
    ("text", "value", "t", "coarse"),
    [
        ("I live in Rochester and my INR is 4.6.", "Rochester", T.LOCATION, None),
        ("She was admitted on 3 May with pneumonia.", "3 May", T.DATE, None),
        ("The biopsy was in March 2019.", "March 2019", T.DATE, "2019"),
    ],
)
def test_the_health_norm_is_what_protects_places_and_dates_and_the_reason_says_so(
    policy: TypePolicy, text: str, value: str, t: T, coarse: str | None
) -> None:
    general = decide(policy, text, value, t, 5.0, Profile.GENERAL)
    assert not general.protect  # at the default level, without the norm, they leave
    health = decide(policy, text, value, t, 5.0)
    assert health.protect and health.generalized == coarse
    assert health.norm == "HIPAA Safe Harbor (health profile)"
    assert "HIPAA Safe Harbor (health profile)" in health.reason


@pytest.mark.parametrize(
    ("text", "value", "t"),
    [
        ("I live in Texas and my INR is 4.6.", "Texas", T.LOCATION),
        ("We flew home to France after the surgery.", "France", T.LOCATION),
        ("The diagnosis was in 2019.", "2019", T.DATE),
        ("My father is 78 and on warfarin.", "78", T.AGE),
        ("The fever started on Tuesday night.", "Tuesday night", T.DATE),
        ("Is ibuprofen safe with Paxlovid?", "Paxlovid", T.ORG),
    ],
)
def test_what_safe_harbor_lets_stay_still_leaves_under_the_health_profile(
    policy: TypePolicy, text: str, value: str, t: T
) -> None:
    d = decide(policy, text, value, t, 5.0)
    assert not d.protect, d.reason


def test_the_finance_profile_protects_a_cards_expiry_date(policy: TypePolicy) -> None:
    text = "Card ending 4242, exp 09/27, was charged twice."
    assert decide(policy, text, "09/27", T.DATE, 5.0, Profile.FINANCE).protect
    assert "PCI DSS" in decide(policy, text, "09/27", T.DATE, 5.0, Profile.FINANCE).reason
    assert not decide(policy, text, "09/27", T.DATE, 5.0, Profile.GENERAL).protect


@pytest.mark.parametrize(
    "text",
    ["Expiry = 05/31", "Expiry: 05/31", "exp. 05/31", "expiry\t05/31", 'Expiry = "05/31"', "Valid thru 05/31"],
)
def test_a_cards_expiry_date_is_read_after_any_field_separator(policy: TypePolicy, text: str) -> None:
    # A pasted profile writes "Expiry = 05/31": the equals sign hid the label.
    assert decide(policy, f"Card number 4111 1111 1111 1111\n{text}", "05/31", T.DATE, 5.0, Profile.FINANCE).protect


@pytest.mark.parametrize("profile", [Profile.LEGAL, Profile.HR])
@pytest.mark.parametrize("value", ["Muslim", "Catholic", "Labour", "gay"])
def test_legal_and_hr_profiles_protect_gdpr_special_categories(
    policy: TypePolicy, profile: Profile, value: str
) -> None:
    text = f"My colleague is {value} and was passed over."
    assert not decide(policy, text, value, T.NRP, 5.0, Profile.GENERAL).protect
    d = decide(policy, text, value, T.NRP, 0.0, profile)
    assert d.protect and d.family is Family.QUASI and d.kind == "special category"
    assert "GDPR" in d.reason


@pytest.mark.parametrize("profile", [Profile.LEGAL, Profile.HR])
def test_a_nationality_is_no_special_category(policy: TypePolicy, profile: Profile) -> None:
    text = "Can I work on a German visa while my appeal is pending?"
    assert not decide(policy, text, "German", T.NRP, 5.0, profile).protect


def test_every_norm_cites_its_source() -> None:
    assert set(NORMS) == {Profile.HEALTH, Profile.LEGAL, Profile.HR, Profile.FINANCE}
    assert NORMS[Profile.HEALTH].citation == "45 CFR 164.514(b)(2)"
    assert all(n.citation and n.thresholds for n in NORMS.values())


@pytest.mark.parametrize(
    ("text", "types", "profile"),
    [
        ("My blood pressure is 150/90 and my doctor doubled the amlodipine dose.", (), Profile.HEALTH),
        ("The ward discharged him with amoxicillin.", (), Profile.HEALTH),
        # A care home's resident: the falls and the nursing care are health, the pension is not.
        ("Since 2 November she has had three falls and the manager wants nursing care. Her pension is small.", (), Profile.HEALTH),
        ("Patient ref only.", ("MRN",), Profile.HEALTH),
        ("My landlord kept the deposit; can I sue in small claims court?", (), Profile.LEGAL),
        ("Is the non-compete clause in my contract enforceable?", (), Profile.LEGAL),
        ("My manager ignored my harassment complaint and HR did nothing.", (), Profile.HR),
        ("How do I write a disciplinary letter for an employee who misses shifts?", (), Profile.HR),
        ("The bank charged an overdraft fee and refused a refund.", (), Profile.FINANCE),
        ("Card number below, please check.", ("CREDIT_CARD",), Profile.FINANCE),
        ("Write a haiku about autumn leaves.", (), Profile.GENERAL),
        ("Fix this Python error: KeyError in my dict.", (), Profile.GENERAL),
        ("Any tips for a weekend in Lisbon?", (), Profile.GENERAL),
        # The other languages with rules (core.domain.other_languages).
        ("Sein Hausarzt hat ihm Metformin verschrieben. Ist das die übliche Dosis?", (), Profile.HEALTH),
        ("Mon fils a de la fièvre et notre médecin est en congé.", (), Profile.HEALTH),
        ("Mi pediatra dice que la fiebre no es grave.", (), Profile.HEALTH),
        ("Mijn huisarts zegt dat mijn bloeddruk te hoog is.", (), Profile.HEALTH),
        ("Mein Vermieter will die Kaution nicht zurückzahlen. Hilft eine Klage?", (), Profile.LEGAL),
        ("Mijn werkgever weigert mijn ouderschapsverlof.", (), Profile.HR),
        ("Die Überweisung ging auf das falsche Konto.", (), Profile.FINANCE),
        ("Wir fahren im Sommer nach Lissabon.", (), Profile.GENERAL),
        # A dismissal and its law: "gekündigt", "KSchG", "licencié", "despedido", "ontslagen".
        ("Mein Arbeitgeber hat mir gekündigt. Ist das nach dem KSchG wirksam?", (), Profile.LEGAL),
        ("J'ai été licencié et mon employeur refuse de payer le préavis.", (), Profile.LEGAL),
        ("Una empleada pide una reducción de jornada.", (), Profile.HR),
        ("Mein Steuerberater hilft bei der Steuererklärung.", (), Profile.FINANCE),
        ("Le divorce de ma sœur: son mari refuse la garde alternée.", (), Profile.LEGAL),
        ("Mijn personeelsnummer staat op de ontslagbrief; ik neem ontslag.", (), Profile.HR),
        ("Necesito cancelar mi cita en el centro de salud; mi tarjeta sanitaria está caducada.", (), Profile.HEALTH),
        ("I'm a therapist: my client reports panic attacks at work.", (), Profile.HEALTH),
        # A named diagnosis is health on its own.
        ("My mum Patricia (72) has early Alzheimer's and lives alone in Bexhill.", (), Profile.HEALTH),
        ("Meine Schwester hat Krebs.", (), Profile.HEALTH),
        ("Jacob has a peanut allergy; please keep his EpiPen in class.", (), Profile.HEALTH),
        # A care home's resident who fell, in each language.
        ("Meine Oma lebt im Seniorenheim und ist dreimal gestürzt.", (), Profile.HEALTH),
        ("Mijn moeder is gevallen en moet naar een verpleeghuis.", (), Profile.HEALTH),
        # Mental health, an admission, a nurse's patient, in four languages.
        ("I'm a counsellor. My client disclosed self-harm and suicidal thoughts.", (), Profile.HEALTH),
        ("Meine Mutter wurde ins Klinikum eingeliefert, Herzinsuffizienz.", (), Profile.HEALTH),
        ("Je suis infirmier, mon patient diabétique a été hospitalisé.", (), Profile.HEALTH),
        ("Soy enfermera; la paciente fue ingresada por una neumonía.", (), Profile.HEALTH),
        ("Mon père est hospitalisé au CHU pour une pneumonie.", (), Profile.HEALTH),
        ("Mijn cliënt heeft een indicatie nodig; hij heeft longontsteking.", (), Profile.HEALTH),
        # A work injury and who treats it.
        ("Informe para la mutua: mi paciente sufrió un accidente laboral.", (), Profile.HEALTH),
        ("Arbeitsunfall auf der Baustelle, Verletzung am Knie.", (), Profile.HEALTH),
        ("Soy conductor; el 28 de octubre tuve un accidente y estoy de baja por la mutua.", (), Profile.HEALTH),
        # A nurse's handover.
        ("Turn this into an SBAR handover: post-op day 2 right hemiarthroplasty, NEWS2 5.", (), Profile.HEALTH),
        # A specialist's appointment, a hospital's ward.
        ("Je vous confirme le rendez-vous de votre fille chez l'orthophoniste jeudi.", (), Profile.HEALTH),
        ("Mijn vader is gevallen; de afdeling geriatrie belt steeds met mijn broer.", (), Profile.HEALTH),
        # An operation is health.
        ("My wife is having her gallbladder removed by keyhole surgery on Monday.", (), Profile.HEALTH),
        # Immigration is law.
        ("His asylum interview was moved and his visa expired.", (), Profile.LEGAL),
        # A fall, a broken hip and the infirmary: health, with no word of a doctor.
        ("My mum is in the Cumberland Infirmary with a broken hip; what about her discharge?", (), Profile.HEALTH),
        ("Unsere Tochter hat seit dem 3. November Bauchschmerzen, sagt die Kinderärztin.", (), Profile.HEALTH),
        ("Je suis RH chez un boulanger ; notre salariée est en arrêt maladie, quelles indemnités ?", (), Profile.HR),
        ("Ma mutuelle refuse de rembourser mes séances de kiné.", (), Profile.HEALTH),
        # A keyword inside a compound, a lab value written with digits.
        ("Ik ben praktijkondersteuner bij huisartsenpraktijk De Linde. Meneer Bakker heeft een HbA1c van 64 mmol/mol.",
         (), Profile.HEALTH),
        ("Er hat Blutdruckwerte von 160/95 und Rückenschmerzen.", (), Profile.HEALTH),
        ("Mijn vader woont in een verzorgingshuis en de casemanager wil een valrisico-analyse.", (), Profile.HEALTH),
        ("Baby born at 29 weeks, 1.2 kg, developed NEC on day 9 in the NICU.", (), Profile.HEALTH),
        # An insurer's denial of a scan.
        ("Blue Cross denied my MRI claim at Valley Imaging Center. How do I appeal?", (), Profile.HEALTH),
        # An older person's infection, with only "GP" of the older words.
        ("My dad has been confused since Sunday and his urine smells strong. A UTI? Call his GP?", (), Profile.HEALTH),
        # German "er" and "ob" are no emergency room and no obstetrics; English compounds
        # are no keywords ("hospitality").
        ("Er fragt, ob er morgen nach Lissabon fahren kann.", (), Profile.GENERAL),
        ("We loved the hospitality of the hotel in Lisbon.", (), Profile.GENERAL),
        # A named condition in the four languages is health on its own, typed without its
        # accents too ("epileptique", "celiaco").
        ("bjr, ma fille est en ce1, elle est epileptique et la maitresse refuse le PAI, jsuis perdue", (), Profile.HEALTH),
        ("Mi hijo es celíaco y en el comedor del colegio le han dado croquetas otra vez.", (), Profile.HEALTH),
        ("Onze zoon heeft autisme en een angststoornis en zit sinds de herfstvakantie thuis.", (), Profile.HEALTH),
    ],
)
def test_the_profile_is_read_from_the_message(text: str, types: tuple[str, ...], profile: Profile) -> None:
    from core.language import message_language

    guess = detect(text, types, message_language(text))
    assert guess.profile is profile, guess
    if profile is not Profile.GENERAL:
        assert guess.cues and profile.value in guess.reason


def test_a_chosen_profile_wins_over_the_message() -> None:
    text = "My doctor changed my dose."
    assert resolve("auto", text) [0] is Profile.HEALTH
    chosen, guess = resolve(Profile.GENERAL, text)
    assert chosen is Profile.GENERAL and guess is None


def test_the_analysis_records_the_profile_and_protects_a_town_in_a_health_message() -> None:
    analyzer = Analyzer()
    text = "My doctor in Rochester says my blood pressure is too high. Should I change the dose?"
    a = analyzer.analyze(text, 5.0)
    assert a.profile is Profile.HEALTH and a.guess is not None
    assert a.profile_reason.startswith("health profile (read from the message")
    assert a.to_json()["profile"] == "health"
    general = analyzer.analyze(text, 5.0, Profile.GENERAL)
    assert general.profile is Profile.GENERAL and general.profile_reason == "general profile (your choice)"


@given(st.text(max_size=300), st.lists(st.sampled_from(["MRN", "IBAN", "PERSON", "X"]), max_size=3))
def test_detection_always_names_a_real_profile(text: str, types: list[str]) -> None:
    guess = detect(text, types)
    assert guess.profile is not Profile.AUTO
    assert (guess.profile is Profile.GENERAL) == (not guess.cues)


@pytest.mark.parametrize(
    ("text", "value", "t"),
    [
        ("hi where in cape town can you get tested for covid19?", "cape town", T.LOCATION),
        ("I have had a cough since 13 march and a fever.", "13 march", T.DATE),
        ("Seen on March 5th by the nurse.", "March 5th", T.DATE),
        ("The rash started 03/14 after the dose.", "03/14", T.DATE),
        ("We moved to Durban after the stroke.", "Durban", T.LOCATION),
        ("Seen May 12 for the asthma review.", "May 12", T.DATE),
        # After the locales' words for where someone is.
        ("Il vit à l'EHPAD à Angers et il a chuté.", "Angers", T.LOCATION),
        ("Sie kommt aus Göttingen und ist gestürzt.", "Göttingen", T.LOCATION),
        # A rare town's name with its capital anywhere inside a sentence.
        ("Sufrió un accidente laboral en la obra de Getafe.", "Getafe", T.LOCATION),
        # A day and a month the British way after a word that says a date follows.
        ("No running until LSI >80% and cleared at 12/52. Review 18/11 in clinic.", "18/11", T.DATE),
        # A month and its year are a date's elements too.
        ("Since February 2026 she has been forgetting her tablets.", "February 2026", T.DATE),
        # A town people carry the name of, after "in", in lower case.
        ("ihr hausarzt in lindau hat ihr ibuprofen aufgeschrieben", "lindau", T.LOCATION),
    ],
)
def test_the_health_sweep_finds_what_safe_harbor_names_and_the_detector_missed(
    policy: TypePolicy, text: str, value: str, t: T
) -> None:
    found = policy.sweep(text, [], Profile.HEALTH)
    assert [(text[s.start : s.end], s.type) for s in found] == [(value, t)]
    assert all("safe-harbor" in s.views for s in found)
    # Only the health profile sweeps; a detected span is never swept again.
    assert policy.sweep(text, [], Profile.GENERAL) == []
    a = text.index(value)
    assert policy.sweep(text, [Span(a, a + len(value), t, 0.9, {"ner": 0.9})], Profile.HEALTH) == []


@pytest.mark.parametrize(
    ("text", "language", "value"),
    [
        # A town after the words the message's language puts before one, typed as chat
        # types them ("a" for "à"), its frequency read in that language.
        ("le dentiste du cabinet des lilas a vénissieux, le dr blanc, peut me prendre", "fr", "vénissieux"),
        ("mon père vit a l'ehpad les tilleuls a bourg-en-bresse depuis mars", "fr", "bourg-en-bresse"),
        ("mi suegra esta en la residencia los almendros de alcoy y tiene una ulcera", "es", "alcoy"),
        # A village no gazetteer holds, a word neither the language nor English writes.
        ("onze oma is 93 en woont nog zelfstandig in hallum. ze slikt metoprolol", "nl", "hallum"),
        ("de huisarts dokter oudshoorn in dirksland zei paracetamol 500 mg", "nl", "dirksland"),
        ("mon grand-pere est en ehpad a saint-gildas-des-bois, le medecin dit", "fr", "saint-gildas-des-bois"),
        ("hay q subir la dosis pero q eso lo decide el medico de cantavieja. es normal??", "es", "cantavieja"),
    ],
)
def test_the_health_sweep_reads_a_town_after_the_languages_own_words(
    policy: TypePolicy, text: str, language: str, value: str
) -> None:
    found = policy.sweep(text, [], Profile.HEALTH, language)
    assert [(text[s.start : s.end], s.type) for s in found] == [(value, T.LOCATION)]
    # Not in English ("a" is an article there), not outside the health profile.
    assert value not in [text[s.start : s.end] for s in policy.sweep(text, [], Profile.HEALTH)]
    assert policy.sweep(text, [], Profile.GENERAL, language) == []


def test_a_dutch_city_geonames_names_by_its_centre_is_a_town(policy: TypePolicy) -> None:
    # GeoNames calls it "Almere Stad"; the lexicon holds the town by its own name too.
    text = "de huisarts van gezondheidscentrum de hoven in almere zei mss trombose"
    found = policy.sweep(text, [], Profile.HEALTH, "nl")
    assert [(text[s.start : s.end], s.type) for s in found] == [("almere", T.LOCATION)]


@pytest.mark.parametrize(
    ("text", "language"),
    [
        # Words of the language after "a", "de": no towns.
        ("molaire en bas a gauche, et la joue est gonflée depuis 3 jours", "fr"),
        ("tiene ganas de vida y de salud, dice la enfermera", "es"),
        # A rare word after a preposition that is no place's sign ("bij", "nach", "te").
        ("spoedkeizersnede bij stuitligging, daarna goed hersteld", "nl"),
        ("is het verstandig om de gliclazide alleen 's ochtends op te hogen", "nl"),
        ("er war verschwitzt und verwirrt, nach traubenzucker ging es besser", "de"),
        ("een collega zegt dat dat bij retardtabletten gevaarlijk is", "nl"),
        # "de" after a doctor's or a place's word, before a word of the language: no village.
        ("el medico de cabecera dice q no y la farmacia de guardia esta cerrada", "es"),
        # English: "a" is an article ("a barking cough").
        ("she has a barking cough and a fever since the weekend", "en"),
    ],
)
def test_the_languages_town_words_leave_their_common_words(policy: TypePolicy, text: str, language: str) -> None:
    assert policy.sweep(text, [], Profile.HEALTH, language) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Son épouse, Camille Morel, a accouché le 30 novembre et il commence son congé.", "30 novembre"),
        ("My wife gave birth on 3 March, so I need paternity leave.", "3 March"),
        ("Mi mujer dio a luz el 5 de mayo y pido el permiso.", "5 de mayo"),
        ("Mijn vrouw is bevallen op 12 mei en ik wil verlof.", "12 mei"),
        # A birthday's day, without its month.
        ("my grandad turns 90 on the 23rd, can you write a poem?", "the 23rd"),
    ],
)
def test_a_birth_told_by_who_gave_it_dates_a_birth(policy: TypePolicy, text: str, value: str) -> None:
    d = decide(policy, text, value, T.DATE, profile=Profile.GENERAL)
    assert d.protect and d.family is Family.DIRECT and d.kind == "date of birth"


@pytest.mark.parametrize(
    "text",
    [
        "I may 2 times a day take 5 mg amlodipine.",
        # A score out of ten and weeks of a year are no dates.
        "Pain 7/10 on movement, 6/52 post op, seen by physio.",
        "In reading the leaflet I saw the dose.",
        "Her TSH was 2.1 mU/L in March.",
        "We flew home to France and then in Texas the fever came back.",
        "She is in hospital and in bed since Tuesday.",
        # "may" before a year only capitalised; a month alone is left.
        "I may 2026 be wrong about the dose taken in March.",
        # A town's name first in a sentence, a common word, someone's name: not swept.
        "Getafe is where it happened. The Reading clinic and Dr Preston saw him.",
    ],
)
def test_the_health_sweep_leaves_doses_months_states_and_common_words(policy: TypePolicy, text: str) -> None:
    assert policy.sweep(text, [], Profile.HEALTH) == [], [
        text[s.start : s.end] for s in policy.sweep(text, [], Profile.HEALTH)
    ]


@given(st.text(max_size=300))
def test_the_sweep_only_returns_whole_words_outside_detected_spans(text: str) -> None:
    policy = TypePolicy()
    found = policy.sweep(text, [], Profile.HEALTH)
    for s in found:
        assert 0 <= s.start < s.end <= len(text)
        assert s.start == 0 or not text[s.start - 1].isalnum()
        assert s.end == len(text) or not text[s.end].isalnum()
    assert all(a.end <= b.start for a, b in itertools.pairwise(found))


def test_a_date_the_detector_cut_short_is_swept_whole_and_the_piece_dropped(policy: TypePolicy) -> None:
    from core.policy import merge_swept

    text = "i've had a cold since 13 march and a cough."
    piece = Span(text.index("13"), text.index("13") + 2, T.DATE, 0.85, {"rules": 0.85})
    swept = policy.sweep(text, [piece], Profile.HEALTH)
    assert [text[s.start : s.end] for s in swept] == ["13 march"]
    merged = merge_swept([piece], swept)
    assert [text[s.start : s.end] for s in merged] == ["13 march"]
    # A detected place or name is never swept over.
    name = Span(text.index("13"), text.index("13") + 2, T.PERSON, 0.9, {"ner": 0.9})
    assert policy.sweep(text, [name], Profile.HEALTH) == []


def test_a_french_word_after_its_elided_article_counts() -> None:
    from core.domain import detect

    guess = detect("Ma fille est à l'hôpital depuis hier avec de la fièvre.")
    assert guess.profile.value == "health"


def test_the_states_of_federal_countries_in_europe_are_states() -> None:
    from core.domain import state_level

    for name in ("Niedersachsen", "Lower Saxony", "Andalucía", "Noord-Holland", "Occitanie", "Tirol"):
        assert state_level(name), name
    # A city that shares a province's name is meant as the city.
    assert not state_level("Utrecht")
