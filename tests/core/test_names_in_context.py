"""Names, numbers and addresses read from their context, end to end on the shipped
detector: nicknames and full names in brackets, a relative's or a role's word before a
name, greetings and appositions typed in lower case, member numbers, e-mail addresses
at private domains, home folders in code, a drug's strength, a business named after
the writer's word for it; and the words around them that must stay as written.

Every sentence is sent (routed remote), so the outbound checks detection, the type
policy and anonymization, not the router. Texts are long enough for their language to be
told (a short one is read as English).
"""

from __future__ import annotations

import pytest

from core.analyze import Analyzer
from core.entities import EntityType
from core.locales import locale
from core.spans import Span
from tests.core.sending import found, send_all, shipped_analyzer


@pytest.fixture(scope="module")
def analyzer() -> Analyzer:
    return shipped_analyzer()


def _sent_without(analyzer: Analyzer, text: str, gone: tuple[str, ...], kept: tuple[str, ...]) -> None:
    """Every sentence of ``text`` sent: none of ``gone`` leaves (any case), all of ``kept`` do."""
    out = send_all(analyzer, text)
    for value in gone:
        assert value not in out.casefold(), out
    for words in kept:
        assert words in out, out


@pytest.mark.parametrize(
    ("text", "gone", "kept"),
    [
        # A nickname before a full name in brackets; the IBAN's label before a word ("iban vom
        # schorsch is ...") had made "vom" an identifier, replaced everywhere.
        (
            "servus, den jahresbeitrag vom schorsch (georg aumüller) hab i doppelt abbucht, 2x 96,00 €. "
            "iban vom schorsch is de49 7116 0000 0004 8271 53. kann i des einfach zurücküberweisen?",
            ("schorsch", "aumüller", "de49"),
            ("vom", "96,00 €"),
        ),
        # A full name in brackets before a comma; "du" before a phone number is no value.
        (
            "au secours, mon pere (jean-pierre moreau, 78 ans) a fait hier un virement de 3 200 € a un faux "
            "conseiller qui l'a appelé du 06 39 98 41 27 en disant que son compte etait piraté.",
            ("moreau",),
            ("appelé du [PHONE_1]", "3 200 €"),
        ),
        # A role, then "is" as a text message writes it.
        (
            "salut, jsuis apprentie en boulangerie, le patron c pierre le goff. il me fait bosser le dimanche "
            "de 4h a 13h alors que j'ai 17 ans, c legal ?",
            ("goff", "pierre"),
            ("le patron c ", "17 ans"),
        ),
        (
            "hola, una pregunta rápida: mi jefe se llama paco y no me quiere pagar las horas extra de "
            "diciembre, ¿qué puedo hacer?",
            ("paco",),
            ("mi jefe se llama",),
        ),
        # A word set apart by commas after a role; a greeting's name.
        (
            "hoi allemaal, vraagje. de verzorgende, bloem, zei vandaag dat oma heel suf is sinds de nieuwe "
            "pillen. ze kreeg eerst 25 mg quetiapine voor de nacht.",
            ("bloem",),
            ("de verzorgende,", "25 mg"),
        ),
        (
            "servus moni, kurz wega oma: sie hat seit gestern nacht 38,6 fieber und hustet ganz arg, "
            "kannst du am samstag?",
            ("moni",),
            ("servus", "38,6"),
        ),
        # A child's age in brackets after the relative's word: a name, though English lists
        # "pip" as a term.
        (
            "hoi, vraagje over kinderopvangtoeslag. onze dochter pip (2) gaat 3 dagen per week naar de "
            "opvang en nu wil de belastingdienst geld terug.",
            ("pip",),
            ("onze dochter", "3 dagen"),
        ),
        # A street in lower case and its postcode; member numbers after their label.
        (
            "hallo, wij huren een benedenwoning aan de merelhof 22, 3646 bd. sinds de zomer zit er zwarte "
            "schimmel in de slaapkamer. in ons ledenbestand staat ze dubbel (lidnr 2231 en 2319).",
            ("merelhof", "3646", "2231", "2319"),
            ("benedenwoning", "lidnr"),
        ),
        # A hockey club by its kind; a family word before a name; a care home's house.
        (
            "hoi, ik ben sinds kort penningmeester van hc de kraaien in bergentheim en zit met een "
            "probleem met de contributie.",
            ("kraaien",),
            ("penningmeester",),
        ),
        (
            "coucou, mamie est tombee cette nuit. tu peux appeler tonton dédé pour lui dire stp ? moi je "
            "finis a 19h.",
            ("dédé",),
            ("tonton", "19h"),
        ),
        (
            "kurz wega oma: die pflegerin vom seniorenheim haus lindenhof hat grad angrufen, sie hat "
            "seit gestern fieber und hustet.",
            ("lindenhof",),
            ("seniorenheim haus",),
        ),
        # Small places by their kind: a saint's word in the name, a hospital and a nursery
        # school; "de día" is no name.
        (
            "oye una pregunta rapida. mi abuela esta en la residencia san anton de alcaraz y la enfermera "
            "de tarde me ha dicho q le han cambiado el sintrom a 2 mg los lunes.",
            ("anton",),
            ("residencia", "2 mg"),
        ),
        (
            "hola, mi sobrino se ha dado un golpe en la cabeza en el entreno del ud la hoya esta tarde y "
            "ahora vomita. habria q llevarlo ya a urgencias del hospital de elda o al hospital de día?",
            ("elda",),
            ("hospital de día",),
        ),
        (
            "holaa. mi peque va a la escuela infantil el trenecito y la educadora me ha dicho hoy q otro "
            "niño la ha mordido 3 veces esta semana, una en la mejilla.",
            ("trenecito",),
            ("escuela infantil", "3 veces"),
        ),
        # A family firm; a case number five words after its key; a property company.
        (
            "El martes hice una transferencia de 2.350,00 € pensando que era la cuenta de Reformas Cordero "
            "e Hijos, la empresa que nos está haciendo la cocina, pero copié mal un dígito.",
            ("cordero",),
            ("2.350,00 €",),
        ),
        (
            "Me ha llegado esta citación a través de mi abogada y no entiendo bien qué tengo que llevar:\n\n"
            "Procedimiento: Despido/ceses en general 587/2025\nFecha: 12 de enero de 2026, 10:30 horas\n\n"
            "¿Qué debo preparar según el artículo 56 del Estatuto de los Trabajadores?",
            ("587/2025",),
            ("artículo 56 del Estatuto de los Trabajadores",),
        ),
        (
            "Bonjour, je gère la SCI Les Hortensias à Saint-Malo et un locataire ne paie plus son loyer "
            "depuis trois mois. Que dois-je faire ?",
            ("hortensias",),
            ("SCI",),
        ),
        # An age with the language's word for years, after the person's name.
        (
            "Ich bin Apothekerin und habe eine Frage zu einem Stammkunden, Herrn Anselm Gruber, 94 Jahre. "
            "Er nimmt seit Jahren 2,5 mg Bisoprolol und 5 mg Apixaban zweimal täglich.",
            ("gruber", "94"),
            ("2,5 mg Bisoprolol",),
        ),
        # An e-mail address at a reserved domain, which Presidio's recognizer passes over.
        (
            "Bonjour, écrivez à p.vidal@atelier-bertin.example demain, merci beaucoup pour tout et bonne "
            "journée à vous.",
            ("vidal", "bertin"),
            ("Bonjour, écrivez à",),
        ),
    ],
)
def test_the_four_languages_in_context(
    analyzer: Analyzer, text: str, gone: tuple[str, ...], kept: tuple[str, ...]
) -> None:
    _sent_without(analyzer, text, gone, kept)


@pytest.mark.parametrize(
    "text",
    [
        "hallo zusammen, kurze frage zu meiner nebenkostenabrechnung von letztem jahr, ist die korrekt?",
        "hoi allemaal, vraagje over de huur van onze woning, mag de verhuurder dat zomaar doen?",
        "mi jefe, claro, dice que no me paga las horas extra del mes pasado, ¿es legal eso?",
        "hoi, mijn zoon is ziek en mijn buurman is erg aardig, maar wat moet ik met school doen?",
    ],
)
def test_greetings_and_asides_that_name_no_one(analyzer: Analyzer, text: str) -> None:
    assert "PERSON" not in send_all(analyzer, text)


def test_a_phrase_capitalized_by_its_position_is_no_name() -> None:
    from core.language_detector import _name_like

    nl, es = locale("nl"), locale("es")
    assert nl is not None and es is not None
    subject = "Onderwerp: Voorstel vaststellingsovereenkomst\n\nBeste Dennis,"
    a = subject.index("Voorstel")
    assert not _name_like(subject, Span(a, a + len("Voorstel vaststellingsovereenkomst"), EntityType.ORG, 0.8), nl)
    shout = "Se requiere a la demandada para que, en el plazo de DIEZ días, desaloje el inmueble."
    a = shout.index("DIEZ")
    assert not _name_like(shout, Span(a, a + len("DIEZ días"), EntityType.ORG, 0.9), es)
    # A name inside a sentence, or with a particle, still is one.
    firm = "Ik werk bij Bakkerij van Dam in Meppel."
    a = firm.index("Bakkerij")
    assert _name_like(firm, Span(a, a + len("Bakkerij van Dam"), EntityType.ORG, 0.9), nl)


@pytest.mark.parametrize(
    ("text", "gone", "kept"),
    [
        # A home folder in backticks at a sentence's end; a colleague named by a word.
        (
            "ssh to the build box stopped working. `ssh robin@ci-runner-03.corp.tansy.example` gives "
            "`Permission denied (publickey)`. sshd log shows `Authentication refused: bad ownership or "
            "modes for directory /home/robin`. my colleague storm set the box up and she's off till monday.",
            ("robin", "tansy", "storm"),
            ("Permission denied (publickey)", "modes for directory [ID_1]", "my colleague"),
        ),
        # The writer's name in brackets after "me"; a nickname's "big".
        (
            "captain is me (peg, table by the dartboard), entry is £2 a head. big mick paid the cottage, "
            "i paid the train for all 8.",
            ("peg", "mick"),
            ("captain is me (", "£2 a head"),
        ),
        # A drug's strength after its name is a dose, no identifier.
        (
            "quick one - my mate had her gallbladder out on monday. she's on co-codamol 30/500 two tablets "
            "up to 4 times a day and hasn't pooped in 4 days.",
            (),
            ("co-codamol 30/500", "4 times a day"),
        ),
    ],
)
def test_english_in_context(analyzer: Analyzer, text: str, gone: tuple[str, ...], kept: tuple[str, ...]) -> None:
    _sent_without(analyzer, text, gone, kept)


def test_a_business_named_after_the_writers_word_for_it(analyzer: Analyzer) -> None:
    text = (
        "I'm trying to get money back from my broadband provider, Fibrecastle (a small community network "
        "in Powys), after 19 days without service in October. My contract is £32 a month."
    )
    got = found(analyzer, text)
    assert got.get("Fibrecastle") is EntityType.ORG
    assert "Fibrecastle" not in send_all(analyzer, text)


def test_a_preposition_that_opens_the_sentence_is_no_part_of_a_name(analyzer: Analyzer) -> None:
    text = (
        "Their engineer said a tractor cut the cable, but the company has only offered a £15 credit. "
        "Under Ofcom's automatic compensation scheme I think I'm owed £9.76 a day."
    )
    got = found(analyzer, text)
    assert "Under Ofcom" not in got
    assert "Under Ofcom's automatic compensation scheme" in send_all(analyzer, text)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("please write to p.vidal@bertin.example tomorrow, thanks", "p.vidal@bertin.example"),
        ("the alert went to ops@db.internal at 03:12 and nobody saw it", "ops@db.internal"),
        ("mail a.b@corp.local. thanks", "a.b@corp.local"),
    ],
)
def test_e_mail_addresses_at_private_and_reserved_domains(analyzer: Analyzer, text: str, value: str) -> None:
    assert found(analyzer, text).get(value) is EntityType.EMAIL


def test_a_label_before_a_word_takes_no_value() -> None:
    from core.detect.fields import fields

    text = "iban vom schorsch is de49 7116 0000 0004 8271 53"
    values = [text[f.start : f.end] for f in fields(text)]
    assert "vom" not in values


@pytest.mark.parametrize(
    ("text", "gone", "kept"),
    [
        # A care home's house by its name, in capitals with no kind before it.
        (
            "Papa hat heut Nacht wieder nicht geschlafen, die Nachtschwester im Haus Sonnenhang hat ihm "
            "0,5 mg Lorazepam gegeben. Wer hat das angeordnet?",
            ("sonnenhang",),
            ("0,5 mg Lorazepam",),
        ),
        # A full name of four words in brackets after a nickname.
        (
            "hoi, vraagje voor mn vriendin. haar voorman, de grote kees (kees van der plas), zegt tegen "
            "iedereen dat ze simuleert. ze krijgt nu ziektewet van het uwv, klopt dat?",
            ("kees", "plas"),
            ("haar voorman",),
        ),
        # A chat exported without a comma between the date and the time.
        (
            "Geëxporteerd uit WhatsApp, kun je kijken of dit klopt?\n\n"
            "12-11-2024 07:52 - Rachid: Nacht was onrustig, 38,9 gehad. Paracetamol zetpil 240 mg gegeven\n"
            "12-11-2024 07:53 - Rachid: Huisarts denkt aan een oorontsteking\n",
            ("rachid",),
            ("240 mg",),
        ),
        # An ages column of a CSV.
        (
            "Kun je deze thuiszorgronde in een logische rijvolgorde zetten? Ik start om 07:30.\n\n"
            "client;adres;leeftijd;zorg\nMw. J.W. Brouwer-Kuipers;Dorpsstraat 12, Smilde;92;steunkousen aan\n"
            "Dhr. H. (Harm) Oosting;Vaart 3, Hoogersmilde;90;medicatie controle\n",
            (";92;", ";90;"),
            ("steunkousen aan",),
        ),
        # An account's holder; a child named through the parent, and a friend of the child's
        # ("petit" stays a surname: a relation's words are never names); a postcode and its town.
        (
            "buenas, mi padre murió en agosto. la cuenta es del banco de siempre, titular manuel bouzas "
            "pereiro, y tiene 12.300 €. qué papeles nos piden?",
            ("bouzas", "pereiro"),
            ("12.300 €",),
        ),
        (
            "bjr mme leroy, c'est la maman de soan (cm1 b). il a oublié sa ventoline dans son cartable, "
            "c'est son copain ilyès qui est allé chercher l'atsem. la cpe mme petit est au courant.",
            ("soan", "ilyès", "petit"),
            ("son copain", "sa ventoline"),
        ),
        (
            "bonsoir, j'habite au 3 impasse des lavandières, 44190 clisson, et le plafond de ma salle de "
            "bain est noir de moisi depuis 3 semaines. je peux retenir une partie du loyer ?",
            ("44190", "clisson"),
            ("3 semaines",),
        ),
        # A name at a sentence's end after the relative's word (a dot after a long word ends
        # the sentence; after "Dr. med." it is an abbreviation's).
        (
            "hoi, vraagje voor mn vriendin kasia. ze werkt via een uitzendbureau bij een kwekerij en is "
            "nu 6 weken ziek (rug). mag het contract dan gewoon stoppen?",
            ("kasia",),
            ("mn vriendin", "6 weken"),
        ),
        # A members' column whose key begins with its number sign.
        (
            "Soy la tesorera del club y tengo que pasar las fichas a la federación. Te pego la hoja:\n\n"
            "nº socio;apellidos;nombre;cuota\n0417;Ruiz de Azúa Lozano;Íñigo;35,00\n"
            "0431;Ndong Obiang;Salomé;35,00\n",
            ("0417", "0431"),
            ("35,00",),
        ),
    ],
)
def test_the_four_languages_second_round(
    analyzer: Analyzer, text: str, gone: tuple[str, ...], kept: tuple[str, ...]
) -> None:
    _sent_without(analyzer, text, gone, kept)


def test_a_house_renovated_names_no_care_home(analyzer: Analyzer) -> None:
    text = "wir wollen das haus renovieren und die küche ist auch alt, was kostet das ungefähr im jahr?"
    assert "ORG" not in send_all(analyzer, text)


@pytest.mark.parametrize(
    ("text", "gone", "kept"),
    [
        # A form's age after a date of birth, which a model had typed a date.
        (
            "REFERRAL - falls clinic\nPatient: Ewa Nowak\nDOB: 03/04/1928\nAge: 93\nNHS no: 943 476 5919\n"
            "Reason: 3 falls in 8 weeks\n\nWhat should the OT home assessment prioritise?",
            ("age: 93",),
            ("3 falls in 8 weeks",),
        ),
        # A Welsh name with "ap".
        (
            "Subject: Flexible working request - Rhodri ap Iorwerth\n\nHi both, he has asked to move to a "
            "compressed week (4 x 9.5 hours) from September.",
            ("iorwerth",),
            ("4 x 9.5 hours",),
        ),
    ],
)
def test_english_second_round(analyzer: Analyzer, text: str, gone: tuple[str, ...], kept: tuple[str, ...]) -> None:
    _sent_without(analyzer, text, gone, kept)


def test_no_date_has_nine_digits() -> None:
    from core.detect.fields import checked_type

    assert checked_type("07700 900263", EntityType.DATE) is EntityType.PHONE
    assert checked_type("11 02 2024", EntityType.DATE) is EntityType.DATE


@pytest.mark.parametrize(
    ("text", "gone", "kept"),
    [
        # A nickname in quotes before the person's own name in brackets, and one in quotes
        # after "everyone calls" that is a brand's name too.
        (
            "writing the best man speech for saturday, 2 mins max. the lads: 'badger' (owen trelease, "
            "always late) and my brother, who everyone calls 'the bishop' since school.",
            ("badger", "bishop", "trelease"),
            ("2 mins max", "the [PERSON_"),
        ),
        # A handle before "(that's Name)" and the writer's own in brackets after "me".
        (
            "can you write a short announcement for our discord server? the mods are crumb_goblin "
            "(that's Imogen) and me (velvetotter). ask people to DM Imogen for the whitelist.",
            ("crumb_goblin", "velvetotter", "imogen"),
            ("whitelist",),
        ),
        # A pupil's column of a table: its cells are people, whatever a model made of them.
        (
            "Can you write one sentence for each child's report?\n\n| Pupil | Reading age | Notes |\n"
            "|---|---|---|\n| Elsie-Mae Rundle | 8y 9m | phonics gaps |\n| Tomos Varcoe | 10y 1m | reads a lot |\n",
            ("rundle", "varcoe"),
            ("8y 9m",),
        ),
        # A form's role stays; months abbreviated after a number are a quantity.
        (
            "Please check this form:\nApplicant full name: Dorcas Penberthy\nTime at address: 2 yrs 3 mths\n"
            "Job title: Dental nurse\nEmployer: Smilewell Dental Care Ltd\n",
            ("penberthy",),
            ("Job title: Dental nurse", "2 yrs 3 mths"),
        ),
        # A pub named by its owner's possessive is a business, not a town; the name a note
        # is to be signed with is a person's.
        (
            "we're meeting at hegarty's in kilnaboy, tiny pub. Sign it from Tamsin at the yellow house. "
            "can you write the invite?",
            ("hegarty", "tamsin"),
            ("the yellow house",),
        ),
    ],
)
def test_english_third_round(analyzer: Analyzer, text: str, gone: tuple[str, ...], kept: tuple[str, ...]) -> None:
    _sent_without(analyzer, text, gone, kept)


@pytest.mark.parametrize(
    ("text", "gone", "kept"),
    [
        # A nickname before brackets that say the real name follows.
        (
            "servus, unser nachbar, im ort heißt er nur der Dachs (eigentlich Rupert Eichinger), hat an der "
            "grenze in der mühlgasse 12 eine hecke gepflanzt, die jetzt 3,5 m hoch ist. was gilt da?",
            ("dachs", "eichinger", "mühlgasse"),
            ("3,5 m",),
        ),
        # A street typed in lower case in a text with capitals, before a postcode; "chez" and
        # a given name; a nickname before "(en vrai ...)".
        (
            "Bonjour, pouvez-vous m'aider ? Ma voisine, la mouette (en vrai elle s'appelle Odile Kerjean), "
            "habite au 14 rue des acacias. On s'est disputées devant le tabac chez jojo.",
            ("mouette", "acacias", "jojo", "kerjean"),
            ("devant le tabac chez",),
        ),
        # A street and its number before a postcode and its town, the street a plain word.
        (
            "Kannst du diesen Brief kürzen?\nAn: Frau Dr. Hanna Feurstein, Allgemeinmedizin, Dorf 14, "
            "6867 Schwarzenberg\nBetrifft: Herr Alois Fink, geb. 04.05.1931",
            ("dorf 14", "6867", "schwarzenberg"),
            ("Kannst du diesen Brief kürzen?",),
        ),
        # A Belgian street with its number after it and its postcode of four digits; an
        # employee's number after "matricule".
        (
            "Bonjour, pour le salarié matricule 4418 je dois envoyer le solde de tout compte de 1 418,62 € "
            "à son adresse, rue de la gare 27, 4020 Liège. Pouvez-vous rédiger le courrier ?",
            ("4418", "rue de la gare 27", "4020"),
            ("1 418,62 €",),
        ),
        # A person read as a place after Spanish "a".
        (
            "Hola, el gerente quiere despedir a Edwin Condori Huanca por ineptitud sobrevenida según el "
            "artículo 52 del Estatuto de los Trabajadores. ¿Cómo redacto la carta?",
            ("condori", "huanca"),
            ("artículo 52 del Estatuto de los Trabajadores",),
        ),
    ],
)
def test_the_four_languages_third_round(
    analyzer: Analyzer, text: str, gone: tuple[str, ...], kept: tuple[str, ...]
) -> None:
    _sent_without(analyzer, text, gone, kept)


def test_keys_of_people_and_places_read_as_people() -> None:
    """A table's pupil column types its cells as people; a place a model read that begins
    with a given name and goes on with words no list holds is a person; a street and its
    number before a postcode's address are that address."""
    from core.assembly import default_detector
    from core.detect.refine import _key_type, _people_read_as_places, _street_and_postcode
    from core.settings import Settings

    assert _key_type("Pupil") is EntityType.PERSON
    assert _key_type("Job title") is None
    lexicon = default_detector(Settings()).lexicon
    text = "quiere despedir a Wilmer Ccama Huarachi por ineptitud"
    a = text.index("Wilmer")
    place = Span(a, a + len("Wilmer Ccama Huarachi"), EntityType.LOCATION, 0.8, {"ner": 0.8})
    assert [x.type for x in _people_read_as_places(text, [place], lexicon)] == [EntityType.PERSON]
    town = Span(text.index("quiere"), text.index("quiere") + 6, EntityType.LOCATION, 0.8, {"ner": 0.8})
    assert _people_read_as_places(text, [town], lexicon) == [town]
    letter = "An: Frau Dr. Hanna Feurstein, Dorf 14, 6867 Schwarzenberg\nBetrifft: Herr Fink"
    b = letter.index("6867")
    found = _street_and_postcode(letter, [Span(b, b + len("6867 Schwarzenberg"), EntityType.ADDRESS, 0.8, {"ner": 0.8})])
    assert [letter[x.start : x.end] for x in found] == ["Dorf 14, 6867 Schwarzenberg"]


@pytest.mark.parametrize(
    ("text", "gone", "kept"),
    [
        # A bare form's address line is the address whole; an amount column stays.
        (
            "me ayudas con el reclamo? datos del formulario:\n\nNombre completo: Josefa Quintanilla Ortúzar\n"
            "Dirección: pasaje los boldos 2231, villa el roble\nComuna: Limache\nMonto: $389.990\n",
            ("boldos", "roble", "2231"),
            ("$389.990",),
        ),
        (
            "which invoices are overdue? csv:\n\ninvoice_no,client,amount_gbp,status\n"
            "INV-2207,Tidewater Kitchens,1450.00,unpaid\nINV-2208,Moss & Fern,2200.00,unpaid\n",
            ("inv-2207",),
            ("1450.00", "2200.00"),
        ),
        # An Indian house number after "Door No." and a title's abbreviation.
        (
            "Kindly draft a reply. My client Smt. Lakshmi Narayanan, R/o Door No. 4-12-9, Ramnagar, "
            "Guntur 522002, bought a washing machine for ₹28,500 on EMI.",
            ("4-12-9", "narayanan"),
            ("₹28,500", "My client Smt. [PERSON_1], R/o Door No. [ADDRESS_1]"),
        ),
        # A law with a nation in brackets, a government form by its code, a limit asked for,
        # an operating system's version, a clinical risk score: as written.
        (
            "Hi, trainee solicitor here. Does the Renting Homes (Wales) Act 2016 change the notice? He sent "
            "his WH-380-F form yesterday. Max 4 lines please. The server runs ubuntu 22.04. CHA2DS2-VASc 4.",
            (),
            ("Renting Homes (Wales) Act 2016", "WH-380-F form", "Max 4 lines", "ubuntu 22.04", "CHA2DS2-VASc 4"),
        ),
        # A possessive's nouns after a name are no part of it.
        (
            "Thanks. As Kofi's line manager (I'm Ruth Aldred), can I tell the team about his phased return?",
            ("kofi", "aldred"),
            ("'s line manager",),
        ),
    ],
)
def test_forms_and_words_of_the_third_round(
    analyzer: Analyzer, text: str, gone: tuple[str, ...], kept: tuple[str, ...]
) -> None:
    _sent_without(analyzer, text, gone, kept)


@pytest.mark.parametrize(
    ("text", "gone", "kept"),
    [
        # A given name the language writes often, with its surname after it, in lower case;
        # a rare given name after the article people put before one.
        (
            "illo ayudame con el mensaje pa la peña. el sábado es la jubilación de antonio sepúlveda de la "
            "vega y hay q decirselo a la encarni antes del jueves, son 25 € por cabeza",
            ("sepúlveda", "encarni"),
            ("25 € por cabeza",),
        ),
        # German medical words and a house's rooms are nouns, no names; a shop by its owner's
        # surname is an organisation.
        (
            "Die 91-jährige Patientin wurde nach Synkope aufgenommen, Diagnose Exsikkose, Torasemid pausiert. "
            "Der Schlüssel liegt in der Waschküche, sagt der Mann vom Laden (Elektro Gschwend).",
            ("gschwend",),
            ("Synkope", "Exsikkose", "Torasemid pausiert", "Waschküche"),
        ),
        # A Dutch day and month without a year after the word it dates, in a health message.
        (
            "Graag verwijs ik mevrouw Geertje Huisman (93 jaar) naar de geheugenpoli. Lab 14-03: Na 131 "
            "mmol/l, eGFR 34 ml/min. Contactpersoon is zoon Harm.",
            ("14-03", "huisman"),
            ("Na 131", "Contactpersoon is zoon"),
        ),
        # A Spanish bar number after "Col.", a procedure's kind and a code's acronym.
        (
            "Buenos días, letrada: me ha llegado la notificación en el Procedimiento Ordinario 311/2025. "
            "Plazo de veinte días (artículo 404 de la LEC).\n\nMarta Villalobos Cuesta\nAbogada · Col. ICAM 77.418",
            ("77.418", "villalobos"),
            ("Procedimiento Ordinario", "artículo 404 de la LEC"),
        ),
    ],
)
def test_the_four_languages_words_of_the_third_round(
    analyzer: Analyzer, text: str, gone: tuple[str, ...], kept: tuple[str, ...]
) -> None:
    _sent_without(analyzer, text, gone, kept)


@pytest.mark.parametrize(
    ("text", "gone", "kept"),
    [
        # A nickname told by "zoals ze hem noemen" before brackets with the real name; a verb
        # before the brackets is no nickname; a role set apart by a comma before a cased name.
        (
            "Onze hond is gebeten door de hond van de buur, de Snoek zoals ze hem hier noemen (eigenlijk "
            "Jozef Verlinden). Volgens de eigenaar, Karel Mertens: de hond was los. Kunt u een mail opstellen?",
            ("snoek", "verlinden", "mertens"),
            ("zoals ze hem hier noemen",),
        ),
        # A nickname after "iedereen noemt hem" and after "l'appelle", quoted or not.
        (
            "hoi! kun je me helpen met een berichtje? mn buurjongen, iedereen noemt hem kleine dribbel, echte "
            "naam yusuf kaya, heeft mn fiets gevonden. hou het luchtig pls",
            ("dribbel", "kaya"),
            ("kleine",),
        ),
        (
            "coucou ! tu peux m'aider pour le mot de départ de ma collègue ? elle s'appelle sonia haddad-roux "
            "mais tout le monde l'appelle \"pupuce\". merci",
            ("pupuce", "haddad"),
            ("tout le monde l'appelle",),
        ),
        # A nickname after a spoken article before brackets with the real name; a staff file's
        # number after "N° de ficha".
        (
            "Hola, ayudame con el parte: hab 11, la Chiqui (Rosa Elvira Mansilla), caída sin lesiones a "
            "las 4:15. Mi N° de ficha es 0412, firma la enfermera.",
            ("chiqui", "mansilla", "0412"),
            ("caída sin lesiones",),
        ),
        # Belgium's national register number, Switzerland's social security number, an age
        # after a record's comma, an account named by a log's key.
        (
            "Bonjour, je suis infirmière à domicile. Voici le compte rendu de sortie, pouvez-vous le "
            "reformuler pour sa fille ?\n\n« Patiente : Mme Odette Claes, 91 ans, domiciliée à Ellezelles. "
            "N° registre national : 35.02.11-208.44. Son mari a le numéro AHV-Nr. 756.4411.2233.09 en Suisse. »",
            ("35.02.11-208.44", "756.4411.2233.09", "91"),
            ("registre national",),
        ),
        (
            "Moin, das Backup bricht ab:\n2026-12-04 02:15:03 WARN fallback failed (user=kbrandt, "
            "key=/home/kbrandt/.ssh/id_ed25519)\nWoran liegt's?",
            ("kbrandt",),
            ("user=", "key="),
        ),
    ],
)
def test_the_fourth_round(analyzer: Analyzer, text: str, gone: tuple[str, ...], kept: tuple[str, ...]) -> None:
    _sent_without(analyzer, text, gone, kept)


def test_a_block_of_flats_named_court_is_no_court_of_law() -> None:
    from core.assembly import default_detector
    from core.policy import TypePolicy
    from core.settings import Settings

    policy = TypePolicy(default_detector(Settings()).lexicon)
    assert policy._building_court("Larchfield Court")
    assert not policy._building_court("Crown Court")
    assert not policy._building_court("Leeds Combined Court")
