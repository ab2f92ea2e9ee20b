"""German (Germany, Austria, Switzerland): tables, formats with checksums, laws and money."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from core.entities import EntityType
from core.locales.base import (
    Locale,
    Rule,
    alternation,
    case_number_after,
    code_after,
    company_rule,
    digits_of,
    lower_company_rule,
    month_date_rules,
    old_age_rules,
    phone_after,
    record_after,
)
from core.locales.de import words as w
from core.locales.money import money_zones, quantity_zones


def steuer_id_valid(value: str) -> bool:
    """The German tax identification number (Steuer-ID): ISO 7064 MOD 11,10 over 11 digits,
    no leading zero, one digit twice or three times among the first ten."""
    d = digits_of(value)
    if len(d) != 11 or d[0] == "0":
        return False
    counts = sorted((d[:10].count(c) for c in set(d[:10])), reverse=True)
    if counts[0] > 3 or counts[0] < 2:
        return False
    product = 10
    for c in d[:10]:
        s = (int(c) + product) % 10 or 10
        product = (s * 2) % 11
    check = (11 - product) % 10
    return check == int(d[10])


def plate_valid(value: str) -> bool:
    """A registration's district has a hyphen after it, or the letters and the number are
    written apart: "B-AB 1234", "M XY 123"; "Art 5" and "Nr 12" are no registration."""
    district, _, rest = value.replace("-", " ", 1).partition(" ")
    return "-" in value or (district.isupper() and rest[:1].isupper() and " " in rest)


def rare_adjective(value: str) -> bool:
    """The first word is no common German word (Zipf below 3): a founder's name made an
    adjective ("cnopfschen"), not "städtischen" or "evangelischen"."""
    from wordfreq import zipf_frequency

    return zipf_frequency(value.split()[0], "de") < 3.0


@lru_cache(maxsize=1)
def _names() -> frozenset[str]:
    """The locale's given names and surnames, in lower case."""
    lines = Path(__file__).with_name("names.txt").read_text("utf-8").splitlines()
    return frozenset(x.strip().lower() for x in lines if x.strip() and not x.startswith("#"))


_CARE_KIND = re.compile(r"-?(?:hospital|krankenhaus|klinikum|klinik|stift)$")


def named_hospital(value: str) -> bool:
    """A hospital named after a saint or a founder, written as one word: "marienhospital",
    "elisabethkrankenhaus", "st.-josef-hospital", "luisenklinik"; the generic ones
    ("kreiskrankenhaus", "kinderklinik", "uniklinik") name no one's."""
    head = _CARE_KIND.sub("", value.lower())
    head = re.sub(r"^(?:st\.?-?|sankt-?)", "", head).strip("-")
    return len(head) >= 3 and any(
        head[: len(head) - k] in _names() for k in (0, 1, 2) if len(head) - k >= 3
    )


def rare_house_name(value: str) -> bool:
    """The name after "Haus" is a house's own ("Sonnenhang", "Abendfrieden", "St. Elisabeth"):
    a word German hardly writes, or a saint's name; not a verb or a noun ("renovieren",
    "Nummer", "Gottes")."""
    from wordfreq import zipf_frequency

    word = value.split()[-1]
    if value[:2].lower() == "st" and " " in value:
        return True
    return zipf_frequency(word.lower(), "de") < 2.5 and word.lower() not in _HOUSE_WORDS


def trade_owner_name(value: str) -> bool:
    """The name after a trade's word is its owner's ("Velo Gubler", "Elektro Huber"): a
    word German writes rarely (Zipf below 3.5, "Gubler" 2.1), not a noun ("Service",
    "Reparatur", "Shop")."""
    from wordfreq import zipf_frequency

    word = value.split()[-1].split("-")[0]
    return zipf_frequency(word.lower(), "de") < 3.5 and zipf_frequency(word.lower(), "en") < 3.5


#: Words after "Haus" that are no house's name however rarely German writes them.
_HOUSE_WORDS = frozenset("nummer nr hausnummer".split())


def rare_place_word(value: str) -> bool:
    """The last word of "praxis am rosenhang" is a place's own name, no common word
    ("klinik am wochenende", "praxis am montag")."""
    from wordfreq import zipf_frequency

    return zipf_frequency(value.split()[-1], "de") < 3.0


def plz_town_valid(value: str) -> bool:
    """A postcode and its town, not a year and a noun: "1995 Präsidentin" (as in "von 1990
    bis 1995 Präsidentin") is no Austrian or Swiss postcode. A number that reads as a year
    (1900 to 2099) takes only a town: a word that is no common German word ("2000
    Neuchâtel", "2020 Hollabrunn"; a town as frequent as a noun, "1950 Sion", is lost)."""
    from wordfreq import zipf_frequency

    number, _, town = value.partition(" ") if " " in value else value.partition("\t")
    digits = number.rpartition("-")[2]
    if not (len(digits) == 4 and 1900 <= int(digits) <= 2099):
        return True
    word = town.split()[0] if town.split() else ""
    return zipf_frequency(word, "de") < 3.0


def _presidio() -> list[Any]:
    from presidio_analyzer.predefined_recognizers.country_specific.germany import (
        de_health_insurance_recognizer,
        de_social_security_recognizer,
        de_tax_id_recognizer,
    )

    return [
        de_tax_id_recognizer.DeTaxIdRecognizer(),
        de_social_security_recognizer.DeSocialSecurityRecognizer(),
        de_health_insurance_recognizer.DeHealthInsuranceRecognizer(),
    ]


_STREET = (
    r"(?:straße|strasse|str\.|weg|allee|platz|gasse|ring|damm|ufer|chaussee|steig|pfad|markt|"
    r"graben|berg|hof|park|garten|feld|wall|kai|reihe|twiete)"
)
_HOUSE = r"\d{1,4}(?:\s?[a-zA-Z])?(?:\s?[-/]\s?\d{1,4}[a-zA-Z]?)?"

RULES = [
    # an age of 90 or more, which Safe Harbor names
    *old_age_rules(r"ist|wird|war|mit|von", r"Jahre(?:[ \t]+alt)?|J\.", r"jährige[nrm]?|Jährige[nrm]?"),
    # an age of 90 or more after a record's comma: "geb. 12.03.1933, 93 J., SVNR ..."
    Rule(EntityType.AGE, r"(?<=,)[ \t]*(9\d|1[01]\d)[ \t]*(?:J\.|Jahre(?:[ \t]+alt)?)(?![\w-])", 1, 0.9),
    # the Swiss social security number (AHV/AVS): "756.3819.2470.64"
    Rule(EntityType.SSN, r"(?<![\d.])(756\.\d{4}\.\d{4}\.\d{2})(?![\d.])", 1, 0.95),
    # the age someone becomes on their birthday: "oma wird am 14. januar 90"
    Rule(EntityType.AGE, r"\bwird[ \t]+am[ \t]+\d{1,2}\.[ \t]*(?:[a-zäöü]{3,}\.?|\d{1,2}\.)[ \t]+(9\d|1[01]\d)(?![\w.,]\d|[\w])", 1, 0.9),
    # a school named after people, in any case: "die astrid-lindgren-schule",
    # "Max-Planck-Gymnasium" (two words at least before the school's kind)
    Rule(
        EntityType.ORG,
        r"(?<![\w-])((?:[a-zäöüß]{2,}-){2,3}(?:schule|grundschule|realschule|gesamtschule|"
        r"oberschule|gymnasium|kita|kindergarten|förderschule))(?![\w-])",
        1,
        0.85,
    ),
    record_after(r"Fallnummer|Patientennummer|Patienten-ID|Patientenkennung", r"ist|lautet"),
    lower_company_rule(r"gmbh|ohg|gbr|gmbh[ \t]*&[ \t]*co\.?[ \t]*kg"),
    case_number_after(r"Verfahren|Verfahrens|Klage|Rechtssache"),
    # A court's file number: the department, the register's letters, the number and the
    # year ("2 C 418/24", "12 Ca 345/24", "3 F 88/2023", "123 Js 4567/24"), after its key
    # or with a register's letters courts use.
    Rule(
        EntityType.ID,
        r"(?i:\b(?:Aktenzeichen|Az\.?|Gz\.?|Geschäftszeichen))[\s:.]*"
        r"(\d{1,4}[ \t]+[A-Z][A-Za-z]{0,3}[ \t]+\d{1,6}/\d{2,4})(?![\w/])",
        1,
        0.9,
        flags=0,
    ),
    Rule(
        EntityType.ID,
        r"(?<![\w/.,])(\d{1,4}[ \t]+(?:C|O|S|T|U|Ca|Sa|F|UF|WF|Js|Ds|Cs|Ls|K|L|AR|IN|IK|M|BvR|StR|ZR)"
        r"[ \t]+\d{1,6}/\d{2,4})(?![\w/])",
        1,
        0.85,
        flags=0,
    ),
    company_rule(
        r"GmbH(?:\s*&\s*Co\.\s*KG)?|AG|KG|OHG|e\.\s?K\.|e\.\s?V\.|SE|UG(?:\s*\(haftungsbeschränkt\))?"
    ),
    phone_after(
        r"Telefonnummer|Handynummer|Mobilnummer|Rufnummer|Festnetz(?:nummer)?|Telefon|Handy|Mobil|Tel\.?",
        r"ist|lautet",
    ),
    code_after(
        r"\w*nummer|Nr\.?|Kennung|Aktenzeichen|Az\.?|Referenz|Kunden-ID|Bestellung|Rechnung",
        r"ist|lautet|lauten",
    ),
    # A school, a nursery or a practice named after where it is: "Grundschule am Rosenhof",
    # "Kita an der Linde", "Gymnasium zum Grauen Kloster" (the kind of school alone is a word).
    # A nursery or a school by its own name: "die Kita Sonnenblume", "Kindergarten Regenbogen".
    Rule(
        EntityType.ORG,
        r"(?<![\w-])((?:Kita|Kindertagesstätte|Kindergarten|Kinderkrippe|Krippe|Hort|Grundschule)"
        r"[ \t]+(?!am\b|an\b|im\b|in\b|auf\b|zum\b|zur\b)[A-ZÄÖÜ][\wäöüß-]+)(?![\w-])",
        1,
        0.85,
        flags=0,
    ),
    Rule(
        EntityType.ORG,
        r"(?<![\w-])((?:\w*[Ss]chule|Gymnasium|Kita|Kindertagesstätte|Kindergarten|Hort|Klinik|"
        r"Klinikum|Krankenhaus|Praxis|Pflegeheim|Seniorenheim)[ \t]+(?:am|an[ \t]+der|im|in[ \t]+der|"
        r"auf[ \t]+der|zum|zur|St\.)[ \t]+[A-ZÄÖÜ][\wäöüß-]+(?:[ \t]+[A-ZÄÖÜ][\wäöüß-]+)?)(?![\w-])",
        1,
        0.9,
        flags=0,
    ),
    # The same in lower case, where the place's word is no common one: "die
    # kinderarztpraxis am rosenhang" ("in der klinik am wochenende" names none).
    Rule(
        EntityType.ORG,
        r"(?<![\w-])([a-zäöüß]*(?:schule|gymnasium|kita|praxis|klinik|klinikum|krankenhaus|"
        r"pflegeheim|seniorenheim)[ \t]+(?:am|an[ \t]+der|im|in[ \t]+der|auf[ \t]+der|zum|zur)"
        r"[ \t]+[a-zäöüß][a-zäöüß-]{3,})(?![\w-])",
        1,
        0.85,
        flags=0,
        validate=rare_place_word,
    ),
    # A care home's or a clinic's house by its own name, in any case: "im Haus Sonnenhang",
    # "seniorenstift haus abendfrieden" (a rare word: "im Haus Nummer 5", "das haus
    # renovieren" name none).
    Rule(
        EntityType.ORG,
        r"(?<![\w-])(?:[Hh]aus)[ \t]+((?:[Ss]t\.?[ \t]+|[Ss]ankt[ \t]+)?[A-ZÄÖÜa-zäöüß][a-zäöüß]{4,}(?:-[A-ZÄÖÜa-zäöüß][a-zäöüß]+)?)(?![\w-])",
        1,
        0.85,
        flags=0,
        validate=rare_house_name,
    ),
    # A hospital named after a saint or a founder, as one word in any case: "vom
    # marienhospital", "ins Elisabeth-Krankenhaus" ("kreiskrankenhaus" is none).
    Rule(
        EntityType.ORG,
        r"(?<![\w-])((?:[Ss]t\.?-?|[Ss]ankt-)?[A-Za-zäöüß]{3,}-?(?i:hospital|krankenhaus|klinikum|klinik|stift))(?![\w-])",
        1,
        0.85,
        flags=0,
        validate=named_hospital,
    ),
    # A shop or a trade by its owner's surname, as German-speaking villages name them:
    # "Velo Gubler", "Elektro Huber", "Bäckerei Schnitzler", "Sanitär Krämer".
    Rule(
        EntityType.ORG,
        r"(?<![\w-])((?:Bäckerei|Metzgerei|Konditorei|Elektro|Velo|Velos|Fahrrad|Fahrräder|Zweirad|Foto|Optik|"
        r"Sanitär|Heizung|Malerbetrieb|Maler|Schreinerei|Tischlerei|Zimmerei|Gärtnerei|Blumen|Friseur|"
        r"Autohaus|Garage|Kfz|Auto|Reifen|Dachdecker|Getränke|Schuhhaus|Modehaus|Möbel|Bau|Transporte|"
        r"Umzüge|Spedition|Landmaschinen|Brennholz|Hofladen)[ \t]+[A-ZÄÖÜ][a-zäöüß]{2,}(?:-[A-ZÄÖÜ][a-zäöüß]+)?)(?![\w-])",
        1,
        0.85,
        flags=0,
        validate=trade_owner_name,
    ),
    # A pharmacy or a practice by its own name joined with a hyphen: "die Rosen-Apotheke",
    # "in der rosen-apotheke", "Hirsch-Apotheke" (not a mail-order one).
    Rule(
        EntityType.ORG,
        r"(?<![\w-])((?!(?i:versand|online|internet|notdienst|gemeinschafts)-)[A-Za-zÄÖÜäöüß]{3,}-(?i:apotheke|praxis))(?![\w-])",
        1,
        0.85,
        flags=0,
    ),
    # A hospital named after its founder, written in lower case: "der cnopfschen
    # kinderklinik" (a common adjective, "der städtischen klinik", names none).
    Rule(
        EntityType.ORG,
        r"(?<![\w-])([a-zäöüß]{2,}[a-hj-zäöüß]sch(?:e|en|er)[ \t]+(?:kinder)?(?:klinik|klinikum|krankenhaus))(?![\w-])",
        1,
        0.85,
        flags=0,
        validate=rare_adjective,
    ),
    # "12 345 678 901": the Steuer-ID as it is often written, checked like presidio's.
    Rule(
        EntityType.SSN,
        r"(?<![\d-])(\d{2}\s\d{3}\s\d{3}\s\d{3})(?![\d-])",
        1,
        0.95,
        validate=steuer_id_valid,
    ),
    Rule(EntityType.SSN, r"(?<![\d-])(\d{11})(?![\d-])", 1, 0.95, validate=steuer_id_valid),
    # Phones: +49 30 1234567, 030 12345678, 0151 23456789, (030) 123 45 67, 030/123456.
    Rule(
        EntityType.PHONE,
        r"(?<![\w+])((?:\+|00)\s?(?:49|43|41)[\s/-]?\(?0?\)?\s?\d{2,5}(?:[\s/-]?\d{2,8}){1,3})(?!\w)",
        1,
        0.9,
    ),
    Rule(
        EntityType.PHONE,
        # (a mobile in pairs too: "0157 32 84 19 06")
        r"(?<![\w+.,])(\(?0\d{2,5}\)?(?:[\s/-]?\d{3,8}(?:[\s-]?\d{2,6}){0,2}|(?:[\s-]\d{2}){3,5}))(?![\w.,]\d)",
        1,
        0.75,
        validate=lambda v: 8 <= len(digits_of(v)) <= 13,
    ),
    # Street and house number: "Hauptstraße 5", "Berliner Str. 12a", "Am Markt 3".
    Rule(
        EntityType.ADDRESS,
        rf"(?<![\w-])((?:[A-ZÄÖÜ][\wäöüß.-]*[ \t-])?[A-ZÄÖÜ]?[\wäöüß-]*{_STREET}[ \t]+{_HOUSE})(?!\w)",
        1,
        0.9,
        flags=0,
    ),
    Rule(
        EntityType.ADDRESS,
        rf"(?<![\w-])((?:Am|An der|Auf dem|Im|In der|Zum|Zur)[ \t]+[A-ZÄÖÜ][\wäöüß-]+[ \t]+{_HOUSE})(?!\w)",
        1,
        0.85,
        flags=0,
    ),
    # Postcode and town: "10115 Berlin", "D-80331 München", "A-1010 Wien".
    Rule(
        EntityType.ADDRESS,
        r"(?<![\w-])((?:[DA]-)?\d{4,5}[ \t]+[A-ZÄÖÜ][\wäöüß-]+(?:[ \t](?:am|an der|im|bei)"
        r"[ \t][A-ZÄÖÜ][\wäöüß-]+)?)(?!\w)",
        1,
        0.85,
        flags=0,
        validate=plz_town_valid,
    ),
    # A car's registration (Kennzeichen): "B-AB 1234", "M XY 123E", "HH-K 42".
    Rule(
        EntityType.ID,
        r"(?<![\w-])([A-ZÄÖÜ]{1,3}[- ][A-Z]{1,2}[ \t]?\d{1,4}[EH]?)(?![\w-])",
        1,
        0.8,
        flags=0,
        validate=plate_valid,
    ),
    # ... typed in lower case after its word: "(kennzeichen pir-je 418)"
    Rule(
        EntityType.ID,
        r"(?i:kennzeichen|nummernschild|kfz-kennzeichen|kennz\.)[ \t:]*"
        r"((?-i:[a-zäöü]{1,3})[- ](?-i:[a-z]{1,2})[ \t]?\d{1,4}[eh]?)(?![\w-])",
        1,
        0.85,
        flags=0,
    ),
    *month_date_rules(w.MONTHS, day=r"\d{1,2}\.?"),
    # A day and a month without the year, as German writes them: "ab 20.11.", "bis einschl.
    # 28.11." (the second dot is the date's; "Abschnitt 3.2." is a section).
    Rule(
        EntityType.DATE,
        r"(?<![\w.,/-])(?<!Abschnitt )(?<!Kapitel )(?<!Version )(?<!Punkt )(?<!Ziffer )(?<!Absatz )"
        r"(?<!Nr\. )(?<!§ )(?<!Nr )((?:0?[1-9]|[12]\d|3[01])\.(?:0?[1-9]|1[0-2])\.)(?![\d.,/-]|[ \t]*\d)",
        1,
        0.85,
    ),
]

ZONES = [
    # A school class: "Klasse 3b", "Klasse 10", "die 4a".
    r"\bKlasse[ \t]+\d{1,2}[a-f]?\b",
    # An eponym names a disease or a test, not a person: "Morbus Crohn", "Crohn-Krankheit",
    # "Romberg-Test", "Down-Syndrom".
    r"\bMorbus\s+[A-ZÁÉÍÓÚÑÄÖÜ][\w'’]+(?:[-\s][A-ZÁÉÍÓÚÑÄÖÜ][\w'’]+)?|\b[A-ZÄÖÜ][\w'’]+-(?:Krankheit|Syndrom|Test|Zeichen|Reflex|Score|Skala|Kriterien|Fraktur)\b",
    # Laws: "§ 622 BGB", "§ 622 Abs. 2 BGB", "§§ 1, 4 KSchG", "Art. 6 DSGVO", "SGB V".
    r"(?:§§?|(?i:Art\.|Artikel))\s*\d+[a-z]?(?:\s*(?:,|und|bis|-)\s*\d+[a-z]?)*"
    r"(?:\s+(?i:Abs\.|Absatz|S\.|Satz|Nr\.|Ziff\.)\s*\d+[a-z]?)*"
    r"(?:\s+(?:SGB\s+[IVX]+|[A-ZÄÖÜ][A-Za-zäöü]{0,7}[A-Z]))?",
    r"\bSGB\s+[IVX]+\b",
    # Where on the body: "am Knie operiert", "an der Hüfte", "im Rücken" (a place's name
    # ends before it: "Uniklinik Freiburg am Knie" was read as "Frankfurt am Main" is).
    rf"(?<![\w-])(?:am|an[ \t]+der|an[ \t]+den|im|in[ \t]+der|in[ \t]+den)[ \t]+(?:{alternation(w.BODY_PARTS)})(?![\w-])",
    # EU law by its number: "Verordnung (EG) Nr. 261/2004", "Richtlinie 2003/88/EG".
    r"\b(?:Verordnung|Richtlinie)(?:\s+\((?:EG|EU)\))?(?:\s+Nr\.)?\s*\d+/\d{2,4}(?:/(?:EG|EU))?",
    r"\b(?:BGB|HGB|StGB|ZPO|KSchG|ArbZG|BUrlG|EntgFG|TzBfG|DSGVO|BDSG|AGG|BetrVG|MuSchG|BEEG|"
    r"GG|AO|EStG|UStG|SGB|IfSG|BetrKV|MiLoG|NachwG)\b",
    *money_zones(r"(?:€|EUR|Euro|CHF|Fr\.)"),
    *quantity_zones(),
]

LOCALE = Locale(
    code="de",
    negatives=w.NEGATIVES,
    titles=w.TITLES,
    relations=w.RELATIONS,
    roles=w.ROLES,
    particles=w.PARTICLES,
    intros=w.INTROS,
    greetings=w.GREETINGS,
    closings=w.CLOSINGS,
    months=w.MONTHS,
    rules=RULES,
    zones=ZONES,
    public_bodies=w.PUBLIC_BODIES,
    abbreviations=w.ABBREVIATIONS,
    names_file=Path(__file__).with_name("names.txt"),
    postcode=r"\d{5}",
    lower_street=r"(?<![\w-])((?:[a-zäöüß]+-)*[a-zäöüß]{3,}(?:straße|strasse|str\.|weg|allee|platz|gasse|ring|damm|ufer|reihe|twiete)[ \t]+\d{1,4}[a-z]?"
    # an adjective, then the street's word ("lange reihe 12", "alte gasse 3")
    r"|[a-zäöüß]{3,}(?:e|er|es|en)[ \t]+(?:reihe|straße|strasse|str\.|allee|gasse|twiete|weg)[ \t]+\d{1,4}[a-z]?)(?![\w])",
    # (German writes nouns with a capital: a street typed lower is one in any text)
    cased_street=r".",
    address_unit=r"(?:\d{1,2}\.?[ \t]*(?:OG|Obergeschoss|Stock|Etage)|EG|Erdgeschoss|DG|Dachgeschoss|Souterrain|Hochparterre|(?:Hinter|Vorder|Garten)haus|Seitenflügel|Quergebäude|(?:Whg|Wohnung|App|Appartement)\.?[ \t]*(?:Nr\.?[ \t]*)?\d{1,4}[a-z]?)(?:[ \t]+(?:links|rechts|Mitte|li\.|re\.|l\.|r\.))?",
    describing_endings=("ig", "lich", "isch", "end", "ene", "enen", "ener"),
    town_before=("in", "aus", "bei", "nach"),
    place_kinds=("praxis", "hebammenpraxis", "tierarztpraxis", "klinikum", "krankenhaus", "arztpraxis", "hausarztpraxis", "zahnarztpraxis", "physiotherapiepraxis", "apotheke", "klinik", "kita", "pflegeheim", "seniorenheim", "pflegedienst", "friseursalon", "salon", "spedition", "elektro", "bäckerei", "metzgerei", "autohaus", "malerbetrieb", "schreinerei", "tischlerei", "gärtnerei", "dachdeckerei", "fahrschule", "kfz-werkstatt", "werkstatt", "hausverwaltung", "steuerbüro", "kanzlei", "umzugsunternehmen", "getränkemarkt", "supermarkt", "baumarkt", "blumenladen", "imbiss", "gaststätte", "gasthof", "landgasthof", "restaurant", "hotel", "pension", "reinigung", "druckerei", "schlosserei", "bauunternehmen", "baufirma", "grundschule", "gesamtschule", "realschule", "gymnasium", "hauptschule", "kindergarten", "physiopraxis", "tagespflege", "campingplatz", "optiker", "ambulante pflegedienst", "ambulanten pflegedienst", "ambulanter pflegedienst", "seniorenstift", "seniorenresidenz", "altenheim", "wohnheim", "pflegeeinrichtung", "bäckerei-konditorei", "konditorei", "pizzeria", "kfz-betrieb"),
    # ("seniorenheim haus lindenhof": a care home's house by its name)
    place_links=("am", "an der", "im", "zum", "zur", "von", "haus"),
    place_articles=("am", "an der"),
    person_articles=("der", "die"),
    name_contractions=("vom", "beim"),
    determiners=w.DETERMINERS,
    noun_suffixes=w.NOUN_SUFFIXES,
    presidio=_presidio,
)
