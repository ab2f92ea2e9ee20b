"""The four languages' addresses with their floors, small places by their kind, initials
and other names in brackets, end to end on the shipped detector.

Every sentence is sent (routed remote) so that the outbound checks detection, the type
policy and anonymization, not the router. Texts are long enough for their language to be
told (a short one is read as English).
"""

from __future__ import annotations

import re

import pytest

from core.analyze import Analyzer
from core.assembly import default_detector
from core.entities import EntityType
from core.lexicon import is_cased
from core.segment import Segmenter
from core.settings import Settings
from tests.core.sending import found as detected
from tests.core.sending import send_all, shipped_analyzer

PLACEHOLDER = re.compile(r"\[[A-Z_]+_\d+\]")


@pytest.fixture(scope="module")
def analyzer() -> Analyzer:
    return shipped_analyzer()


@pytest.mark.parametrize(
    ("text", "unit"),
    [
        (
            "moin, unser vermieter will die miete erhoehen. wir wohnen seit 2016 in der gneisenaustr. 14, "
            "2. og links, 24105 kiel. darf er das einfach so?",
            "2. og links",
        ),
        (
            "Le propriétaire demande une photo de ma carte Vitale. Logement : 27 rue Paul-Bert, 3e étage, "
            "35000 Rennes. Il a le droit de demander ça ?",
            "3e étage",
        ),
        (
            "Ik schrijf me in bij een nieuwe huisarts en vul het formulier in.\nAdres: Pieter Calandlaan 204, "
            "3 hoog, 1069 KL Amsterdam\nMoet ik ook mijn BSN invullen?",
            "3 hoog",
        ),
        (
            "La Agencia Tributaria me ha embargado la cuenta y vivo desde 2024 en la Calle de Toledo 45, "
            "pta. 14, 28005 Madrid, pero la notificación se envió a mi dirección antigua.",
            "pta. 14",
        ),
    ],
)
def test_a_floor_or_a_flat_goes_with_its_address(analyzer: Analyzer, text: str, unit: str) -> None:
    out = send_all(analyzer, text)
    assert unit not in out, out
    # one address, not a placeholder cut at the abbreviation's full stop
    assert not re.search(r"\[ADDRESS_\d+\] \[ADDRESS_\d+\]", out), out


def test_a_street_no_list_knows_before_its_postcode(analyzer: Analyzer) -> None:
    text = (
        "Namens mijn vader vraag ik een traplift aan. Mijn vader woont alleen op de Skilpleats 8, "
        "8601 KM Sneek, en kan de trap niet meer op."
    )
    out = send_all(analyzer, text)
    assert "Skilpleats" not in out and "Sneek" not in out, out


def test_a_surname_named_again_with_a_given_name_is_a_person(analyzer: Analyzer) -> None:
    text = (
        "Unser Mandant, Herr Wolf-Dieter Kühn, ist der Sohn des am 2. September 2026 verstorbenen "
        "Egon Kühn. Im notariellen Testament hat der Vater nichts weiter geregelt."
    )
    out = send_all(analyzer, text)
    assert "Kühn" not in out and "Egon" not in out, out


def test_a_given_name_that_is_a_region_beside_a_person(analyzer: Analyzer) -> None:
    text = (
        "Mi exmarido paga una pensión de 350 € por hijo y ahora quiere la custodia compartida de Alba "
        "y Hugo porque se ha mudado cerca."
    )
    assert "Alba" not in send_all(analyzer, text)


def test_two_people_named_together_in_a_form(analyzer: Analyzer) -> None:
    text = (
        "Kannst du mir bei diesem Antrag helfen?\nErziehungsberechtigte: Wiebke Petersen, Chidi Okafor\n"
        "Anschrift: Fährstraße 28, 20457 Hamburg"
    )
    assert detected(analyzer, text).get("Chidi Okafor") is EntityType.PERSON


@pytest.mark.parametrize(
    ("text", "name"),
    [
        (
            "moin, mach grad die steuererklärung. bezahlt hat die hälfte meine freundin malu (eig. "
            "marie-luise), die andere hälfte ich. geht das so?",
            "malu",
        ),
        ("ma collègue fatou dit que dans son avenant c'est pareil, t'en penses quoi toi ?", "fatou"),
    ],
)
def test_a_rare_word_the_model_reads_as_a_name_after_a_relation(analyzer: Analyzer, text: str, name: str) -> None:
    assert detected(analyzer, text).get(name) is EntityType.PERSON


def test_a_word_describing_the_relative_is_no_name(analyzer: Analyzer) -> None:
    text = "mi suegra jubilada vive con nosotros desde hace dos años y no sé qué hacer con la casa"
    assert "jubilada" not in detected(analyzer, text)


@pytest.mark.parametrize(
    ("text", "name", "kind"),
    [
        (
            "Guten Tag, ich bin Pflegefachkraft beim ambulanten Pflegedienst „Pflege mit Herz“ in Bad "
            "Salzuflen und brauche eine Einschätzung.",
            "Pflege mit Herz",
            "Pflegedienst",
        ),
        (
            "Bonjour, je suis pharmacienne adjointe à la pharmacie du Port à Concarneau. Ce matin, une "
            "cliente est venue avec son pilulier.",
            "du Port",
            "pharmacie",
        ),
        (
            "Buenos días. Soy técnica de RR. HH. en Talleres Arriaga, en Vitoria-Gasteiz. Un operario nos "
            "ha pedido una adaptación de jornada.",
            "Arriaga",
            "",
        ),
    ],
)
def test_a_small_place_by_its_kind_and_its_name(analyzer: Analyzer, text: str, name: str, kind: str) -> None:
    out = send_all(analyzer, text)
    assert name not in out and kind in out, out  # the kind as written ("" where a model took it in)


def test_a_company_with_its_legal_form_stays_one_name(analyzer: Analyzer) -> None:
    text = "Trabajo en Transportes Ruiz S.L. desde 2019 y mi jefe me quiere cambiar el turno sin avisar."
    assert detected(analyzer, text).get("Transportes Ruiz S.L.") is EntityType.ORG


def test_a_town_after_a_place_of_its_kind_is_no_name_of_it(analyzer: Analyzer) -> None:
    text = "Je travaille à la pharmacie de Concarneau depuis six ans et je voudrais changer de poste."
    found = detected(analyzer, text)
    assert "Concarneau" in found and "de Concarneau" not in found, found  # the town, not "de" with it


@pytest.mark.parametrize(
    ("text", "gone"),
    [
        (
            "Moet de bank dit vergoeden, en wat kan ik nog doen om het geld terug te krijgen? Groet, "
            "H.J. (Henk) Brouwer",
            ["H.J.", "Henk", "Brouwer"],
        ),
        (
            "Kun je deze uitslagen uitleggen?\n\nPatiënt: mevr. E.M. (Esther) de Graaf-Pinas\n"
            "Geboortedatum: 22-07-1958\nIk ben de laatste maanden erg moe.",
            ["E.M.", "Esther", "Graaf-Pinas"],
        ),
        (
            "Kun je deze brief nakijken?\n\nMet vriendelijke groet,\nWilhelmina (Willeke) de Jong\n"
            "Kerkweg 88, 3603 CL Maarssen",
            ["Wilhelmina", "Willeke", "Jong"],
        ),
    ],
)
def test_initials_and_a_nickname_go_with_the_name(analyzer: Analyzer, text: str, gone: list[str]) -> None:
    out = send_all(analyzer, text)
    assert not any(g in out for g in gone), out
    assert len(set(re.findall(r"\[PERSON_\d+\]", out))) == 1, out


def test_a_surname_particle_only_surnames_have(analyzer: Analyzer) -> None:
    found = detected(analyzer, "ik wil graag een gesprek met de ib'er, meneer van der poel, erbij. niet te boos maar")
    assert found.get("van der poel") is EntityType.PERSON
    found = detected(analyzer, "ik heb gisteren gebeld met meneer van de gemeente over de vergunning maar niks")
    assert not any(t is EntityType.PERSON for t in found.values()), found


def test_an_abbreviation_before_a_particle_is_no_initial(analyzer: Analyzer) -> None:
    found = detected(analyzer, "graag t.a.v. de heer jansen sturen, en ook naar de gemeente want die moet het nog tekenen")
    assert not any(v.startswith("t.a.v") for v in found), found


def test_initials_end_no_sentence() -> None:
    text = "Moet de bank dit vergoeden? Groet, H.J. (Henk) Brouwer en zijn vrouw."
    sentences = Segmenter(language="nl").segment(text)
    assert [s.text for s in sentences][-1].startswith("Groet, H.J. (Henk)"), sentences


@pytest.mark.parametrize(
    "text",
    [
        "bezahlt hat die hälfte meine freundin malu (eig. marie-luise), die andere hälfte ich. passt das?",
        "Tenemos una residente, doña Purificación Gil de la Torre (Purita para todas), de 93 años, con demencia.",
    ],
)
def test_the_other_name_in_brackets_is_the_same_person(analyzer: Analyzer, text: str) -> None:
    out = send_all(analyzer, text)
    assert len(set(re.findall(r"\[PERSON_\d+\]", out))) == 1, out


def test_a_postcode_in_capitals_and_its_town_in_lower_case() -> None:
    text = "goedenavond, de buurman boven ons heeft feest. wij wonen op de javastraat 87-2, 1094 HE amsterdam, huurwoning."
    assert not is_cased(text)  # a postcode's letters are no sign of ordinary casing
    found = {text[s.start : s.end] for s in default_detector(Settings()).analyze(text)}
    # (with the street before it: one address)
    assert "javastraat 87-2, 1094 HE amsterdam" in found, found


@pytest.mark.parametrize(
    ("text", "gone"),
    [
        # A company with its legal form typed in lower case.
        ("ich arbeite in teilzeit (25 std/woche) bei holzbau brückner gmbh. mein kollege ist krank und ich soll", "brückner"),
        # A title's abbreviation in lower case.
        ("heute lag ein zettel von ihrer klassenlehrerin fr. nowak im ranzen, dass mila nicht mitdarf", "nowak"),
        # A name no list holds, the model sure of it.
        ("puede hacerlo?? mi compi de piso ioana tambien esta en el contrato y no sabe nada del tema", "ioana"),
        # A form's "Surname, Given name"; a town on its river after its postcode.
        (
            "Mijn vrouw en ik hebben dit formulier ingevuld.\nAanvrager: Jan de Wit\nToeslagpartner: "
            "Nowak-Kowalska, Agnieszka\nHebben we recht op huurtoeslag?",
            "Nowak-Kowalska",
        ),
        ("Graag betaling binnen 14 dagen.\nKlusbedrijf Yilmaz\nDorpsstraat 8, 1541 AB Koog aan de Zaan\nKvK 81736624", "Zaan"),
        # A nickname's full name in brackets with particles and a surname that is also a word.
        ("mi encargada, la mari (maria del carmen espejo), me ha cambiado el horario sin avisar y no sé qué hacer", "maria del"),
        # Initials and a particle surname in lower case; a family firm after its kind.
        (
            "de bank zegt dat de ontvanger, ene k. de boer, daar mee moet instemmen. als hij niet reageert, "
            "kan ik dan naar het kifid?",
            "k. de boer",
        ),
        ("hola, hoy me han echado del almacén (logística hermanos ortega, en getafe) por 'bajo rendimiento'", "ortega"),
        # A court case's number and year after the words that name the case.
        (
            "Estimada letrada: le escribo por el procedimiento de divorcio 412/2022 del Juzgado de Primera "
            "Instancia, mi exmarido quiere la custodia.",
            "412/2022",
        ),
        # A surname with an apostrophe after its first letter, after a title in lower case.
        (
            "jsp si je dois passer par le medecin traitant (dr n'diaye) pour l'ordonnance ou appeler direct "
            "une orthophoniste. c remboursé par la secu ?",
            "diaye",
        ),
        # A German court's file number after its key; a Bavarian closing before the writer's name.
        (
            "Amtsgericht Schwäbisch Hall\nAktenzeichen: 2 C 418/24\nBitte bei allen Schreiben angeben\n\n"
            "Was bedeutet das vereinfachte Verfahren nach § 495a ZPO?",
            "418/24",
        ),
        ("er is stur und will ned ins krankenhaus, was soll ma da macha. dankschee, vroni", "vroni"),
        # A street in lower case whose adjective is its own word, before its postcode.
        ("die rechnung ging wohl an meine alte adresse lange reihe 12, 20099 hamburg, was mach ich jetzt", "reihe 12"),
        # A Dutch street and postcode in lower case, and a second writer after the first.
        (
            "wij huren een benedenwoning op de wâlden 14, 9231 ab surhuisterveen. de ketel is kapot. gr sanne en jelmer",
            "wâlden",
        ),
        ("wij huren een benedenwoning en de ketel is al weken kapot, wat nu? gr sanne en jelmer", "jelmer"),
        ("ik wil een gesprek met de directeur mevr. el amrani-de jong, kun je een berichtje schrijven", "jong"),
        ("mn zoon zit in groep 8 op kbs de zevensprong en het advies is te laag, wat nu", "zevensprong"),
        ("er is 1.450 euro van mn rekening nl52 rabo 2653 5940 72 afgeschreven, wat moet ik doen", "2653"),
        # A relation typed without its accent; a French lane; a place by its kind, no number.
        ("bjr, mon pere abdelkrim a 78 ans, il est diabetique depuis 20 ans, faut arreter le gliclazide ?", "abdelkrim"),
        ("bsr, jloue un t2 meublé au 6 venelle des sardinieres, 29900 concarneau depuis mars, c normal ?", "sardinieres"),
        (
            "Le couvreur m'a facturé l'isolation des combles avec 20 % de TVA. Il a raison ? Voici sa facture :\n\n"
            "FACTURE 2025-118\nCouverture Le Goff\nZA de Kerhuel, 29120 Pont-l'Abbé\nTél. : 02 98 87 41 63\n\n"
            "Client : M. Tristan Guillou, Lieu-dit Penfrat, 29560 Argol",
            "Kerhuel",
        ),
        # A surname in capitals in a table's name column ("nom"), no acronym.
        (
            "Voici l'export des prélèvements rejetés :\n\ndate_rejet;nom;prenom;montant\n05/11/2025;CHERIF;Nadir;48,00\n"
            "06/11/2025;BALDÉ;Hawa;72,00",
            "CHERIF",
        ),
        # A compound given name and the surname after it; a procedure's number with its zeros;
        # a closing stretched as chat writes it; a Basque teacher's word before her name.
        ("ayuda porfa. a mi madre, rosa maría albarracín, la llamaron ayer del banco y le han quitado 950 €", "albarracín"),
        ("Procedimiento: Juicio verbal (desahucio por falta de pago) 0000412/2025\nNIG: 2811541120250001873", "0000412"),
        ("si lo denuncio a la inspeccion de trabajo me echan?? me toca algo? graciaas, nahia", "nahia"),
        ("la tutora, la andereño itsaso, dice q no piensa hacerle ninguna adaptacion en los examenes", "itsaso"),
        # The person's own given name again in brackets, with the surname.
        ("bjr, ma fille awa (awa sangaré) est en ce1, elle est epileptique, la maitresse refuse le PAI", "sangaré"),
        # An age set apart after the name; a full name in brackets the language hardly writes;
        # a second signer with a surname; a club and an agency by their kind.
        (
            "Goedemiddag, ik ben EVV'er op een psychogeriatrische afdeling. Onze bewoonster mevrouw Aaltje "
            "Scholten-Brink, 95, verslikt zich steeds vaker in haar tabletten. Wat kan ik de apotheek vragen?",
            "95",
        ),
        (
            "ik werk via uitzendbureau flexpoint in venlo. mn teamleider kamil (bartłomiej zając) zegt dit is "
            "normaal en staat in het contract. klopt dit? dank je, marek",
            "zając",
        ),
        ("ik werk via uitzendbureau flexpoint in een distributiecentrum in venlo, klopt dat wel?", "flexpoint"),
        (
            "moeten we akkoord gaan met de renovatie? wij huren al 22 jaar. met vriendelijke groet, harry en "
            "wilma kartodikromo",
            "kartodikromo",
        ),
        ("mn dochter kreeg bij de korfbaltraining van ckv de meeuwen een bal tegen haar hoofd, wat nu", "meeuwen"),
        (
            "Klopt deze factuur?\n\nfactuurnr;kind;uren;uurprijs;bedrag\nGOB-24-10-118;Noah Verhulst;96;8,25;792,00\n"
            "GOB-24-10-119;Lotte Verhulst;112;8,25;924,00\n",
            "GOB-24-10-119",
        ),
        # A street whose name a brand shares, before its postcode; a French cheese shop;
        # a Galician street with its particle.
        (
            "Hier die Mail:\n\nMit freundlichen Grüßen\nSabine Lütke-Wöstmann\nPersonal & Lohn\n"
            "Elektro Hagedorn GmbH & Co. KG\nAm Mühlenbach 14, 49692 Cappeln\nTel. 04478 93 27-15",
            "Mühlenbach",
        ),
        ("slt, ma mission c'etait a la fromagerie bourdarias a ussel jusqu'au 20 decembre, c normal ?", "bourdarias"),
        # A daycare, a care home, an olive mill by their kinds, a link of the kind's own.
        ("hoi! onze dochter noor ging tot 1 okt naar kdv de boefjes in wognum. we hebben netjes opgezegd", "boefjes"),
        ("slt, mon grand-pere a 92 ans, il est en ehpad aux tilleuls depuis mars. le medecin lui a donné", "tilleuls"),
        ("me hice un corte en la almazara la esperanza y el encargado me dice q diga q me lo hice en casa", "esperanza"),
        (
            "Me ha llegado esta carta del SEPE.\n\nD. NUNO FERNANDES DA ROCHA\nRúa do Progreso 41, 3º B\n"
            "32005 Ourense\n\nAsunto: cobro indebido",
            "Progreso",
        ),
        # A teacher's title before a given name a brand shares ("Wendy's"): a person, never sent.
        (
            "hoi, mijn zoon zit in groep 7 op cbs de akker in nijkerk. juf wendy heeft gezegd dat hij niet mee "
            "mag op schoolkamp als wij de € 85 voor het kamp niet betalen. klopt dat?",
            "wendy",
        ),
        # A CSV whose header has letters English does not write; a member's number of four digits.
        (
            "Warum zeigt Excel die IBAN falsch an? So sieht die Datei aus:\n\nMitgl-Nr;Nachname;Vorname;Straße;PLZ;Ort\n"
            "0417;Wolf;Henrike;Am Wolfsberg 12;01728;Bannewitz\n0418;Engel;Deniz;Dorfstr. 3;01737;Tharandt\n",
            "0417",
        ),
    ],
)
def test_more_names_and_numbers_of_the_four_languages(analyzer: Analyzer, text: str, gone: str) -> None:
    assert gone not in send_all(analyzer, text)


@pytest.mark.parametrize(
    "text",
    [
        "mi suegra jubilada vive con nosotros y estamos agobiadisimos con la casa, porfa ayudame con esto",
        "ze heeft jaren geleden ook uitslag gehad van augmentin en nu weer van de amoxicilline, klopt dat?",
        "jsp quoi faire, le dr n'a pas répondu à mon mail et la pharmacie non plus, c remboursé par la secu ?",
    ],
)
def test_rare_words_that_are_no_names(analyzer: Analyzer, text: str) -> None:
    assert "PERSON" not in send_all(analyzer, text)


@pytest.mark.parametrize(
    ("lang", "item", "gone"),
    [
        # A small town no list holds in a health message, the model sure of it.
        ("fr", "fr-s55-1", "cornebarrieu"),
        # A name in quotes after a relation word, however often the language writes the word.
        ("de", "de-s53b-6", "becker"),
    ],
)
def test_whole_messages_of_the_dev_sets(analyzer: Analyzer, lang: str, item: str, gone: str) -> None:
    import json
    from pathlib import Path

    data = Path(__file__).resolve().parents[2] / "training" / "data" / f"utility_dev_{lang}.json"
    text = next(x["text"] for x in json.loads(data.read_text("utf-8")) if x["id"] == item)
    assert gone not in send_all(analyzer, text)


def test_a_function_word_a_gazetteer_or_a_surname_holds_stays_as_written(analyzer: Analyzer) -> None:
    # "Haar" is a town (Bavaria) and the end of "Femke Ter Haar"; "in haar tabletten" is "her tablets".
    text = (
        "Goedemiddag, ik ben EVV'er op een psychogeriatrische afdeling van woonzorgcentrum De Wijde Blik in "
        "Kampen. Onze bewoonster verslikt zich steeds vaker in haar tabletten; de logopedist, Femke Ter Haar, "
        "adviseert de medicatie gemalen in vla te geven. Ze gebruikt metoprolol retard 50 mg."
    )
    out = send_all(analyzer, text)
    assert "in haar tabletten" in out and "Ter Haar" not in out, out
