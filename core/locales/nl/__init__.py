"""Dutch (the Netherlands, Flanders): tables, formats with checksums, laws and money."""

from __future__ import annotations

from pathlib import Path

from core.entities import EntityType
from core.locales.base import (
    Locale,
    Rule,
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
from core.locales.money import money_zones, quantity_zones
from core.locales.nl import words as w


def _rare(word: str) -> bool:
    """A word Dutch hardly writes (Zipf below 3.5): a name, where a name may stand."""
    from wordfreq import zipf_frequency

    return bool(zipf_frequency(word.casefold(), "nl") < 3.5)


def bsn_valid(value: str) -> bool:
    """The Dutch citizen service number (BSN): 9 digits passing the 11-proef
    (9*d1 + 8*d2 + ... + 2*d8 - 1*d9 divisible by 11, and not zero)."""
    d = digits_of(value)
    if len(d) == 8:
        d = "0" + d
    if len(d) != 9 or d == "0" * 9:
        return False
    total = sum(int(c) * wgt for c, wgt in zip(d[:8], range(9, 1, -1), strict=True))
    total -= int(d[8])
    return total % 11 == 0


_STREET = (
    r"(?:straat|gracht|weg|laan|plein|kade|singel|dijk|pad|steeg|hof|park|markt|dreef|"
    r"baan|burgwal|wal|veld|ring|singel|boulevard|plantsoen|erf|kwartier|hoven|poort)"
)

RULES = [
    # an age of 90 or more, which Safe Harbor names
    *old_age_rules(r"is|wordt|van|was", r"jaar(?:[ \t]+oud)?", r"jarige?"),
    record_after(r"pati[ëe]ntnummer|pati[ëe]nt-ID|dossiernummer\s+pati[ëe]nt", r"is"),
    lower_company_rule(r"b\.v\.?|bv|v\.o\.f\.?"),
    case_number_after(r"zaak|zaaknummer|rolnummer|procedure"),
    company_rule(r"B\.V\.|BV|N\.V\.|NV|V\.O\.F\.|VOF|C\.V\."),
    phone_after(r"telefoonnummer|mobiele?\s+nummer|mobiel|telefoon|tel\.?|gsm(?:-nummer)?", r"is"),
    code_after(r"\w*nummer|nr\.?|kenmerk|referentie|dossier|bestelling|factuur", r"is"),
    # A hospital or a clinic named before its kind: "het Rijnstate ziekenhuis", "Isala kliniek",
    # "het Meander Medisch Centrum".
    Rule(
        EntityType.ORG,
        r"(?<![\w-])((?:[A-Z][\w'-]+[ \t]+){1,2}(?:ziekenhuis|Ziekenhuis|kliniek|Kliniek|verpleeghuis|"
        r"Verpleeghuis|Medisch[ \t]+Centrum|medisch[ \t]+centrum|Gasthuis|Revalidatiecentrum|"
        r"Zorggroep))(?![\w-])",
        1,
        0.85,
        flags=0,
    ),
    # A pupil's school after the pupil's class: "(groep 8, De Zonnewijzer)".
    Rule(
        EntityType.ORG,
        r"(?<![\w-])groep[ \t]+[1-8][a-z]?,[ \t]+((?:(?:De|Het|'t)[ \t]+)?[A-Z][\w'-]+"
        r"(?:[ \t]+[A-Z][\w'-]+)?)(?![\w-])",
        1,
        0.85,
        flags=0,
    ),
    # A school, a nursery or a home named after its kind: "basisschool De Regenboog",
    # "kinderopvang Het Kabouterhuis", "verpleeghuis De Hooge Weide".
    Rule(
        EntityType.ORG,
        r"(?<![\w-])(?:basisschool|school|kinderopvang|kinderdagverblijf|bso|peuterspeelzaal|OBS|CBS|RKBS|PCBS|"
        r"verpleeghuis|verzorgingshuis|zorgcentrum|woonzorgcentrum)[ \t]+((?:(?:De|Het|'t)[ \t]+)?[A-Z][\w'-]+"
        r"(?:[ \t]+[A-Z][\w'-]+)?)(?![\w-])",
        1,
        0.85,
        flags=0,
    ),
    # A firm by its trade and its owner's name: "Schildersbedrijf Van Leeuwen",
    # "Installatiebedrijf De Groot", "Bakkerij Visser".
    Rule(
        EntityType.ORG,
        r"(?<![\w-])([A-Z][a-z]*(?:bedrijf|handel|techniek|bouw|installaties|onderhoud|transport|"
        r"makelaardij|bakkerij|slagerij|kapsalon|adviesbureau|administratiekantoor|hoveniers|isterij|kerij)"
        r"[ \t]+(?:(?:van|de|der|den|Van|De|Der|Den)[ \t]+){0,2}[A-Z][\w'-]+)(?![\w-])",
        1,
        0.85,
        flags=0,
    ),
    Rule(
        EntityType.SSN,
        r"(?<![\w.])(\d{4}\.?\d{2}\.?\d{3}|\d{3}[.\s]\d{3}[.\s]\d{3})(?![\w]|\.\d)",
        1,
        0.9,
        validate=bsn_valid,
    ),
    Rule(
        EntityType.PHONE,
        r"(?<![\w+])((?:\+|00)\s?(?:31|32)[\s.-]?\(?0?\)?[\s.-]?[1-9](?:[\s.-]?\d){7,8})(?!\w)",
        1,
        0.9,
    ),
    Rule(
        EntityType.PHONE,
        r"(?<![\w+.,])(0[1-9]\d{0,2}[\s-]?\d{3}[\s-]?\d{2}[\s-]?\d{2}|06[\s-]?\d{8}|"
        r"0[1-9]\d{1,2}[\s-]\d{6,7})(?![\w,]|\.\d)",
        1,
        0.85,
        validate=lambda v: len(digits_of(v)) == 10,
    ),
    # "Prinsengracht 263-A", "Kerkstraat 12 bis", "Van Baerlestraat 27".
    Rule(
        EntityType.ADDRESS,
        # The article before a street is not its name ("aan de Kerkstraat 45"), nor a
        # word after its number ("45 in Haarlem"): particles start with a capital, and a
        # lower-case letter of the number is written against it ("12a", "12-a").
        rf"(?<![\w-])((?:(?:Van|De|Den|Der)(?:\s+(?:van|de|den|der))*\s+)?[A-Z][\w'-]*{_STREET}[ \t]+"
        r"\d{1,4}(?:-?[a-z]\b|[ \t]?-?[ \t]?(?:[A-Z]{1,2}\b|\d{1,3}\b|hs\b|bis\b|I{1,3}\b))?)",
        1,
        0.9,
        flags=0,
    ),
    # A day and a month without a year after the word it dates ("Lab 16-02: Na 131",
    # "opgenomen op 3-11"): a date, which a health message's norm protects.
    Rule(
        EntityType.DATE,
        r"\b(?:lab|labwaarden|bloedafname|op|d\.d\.|datum|sinds|vanaf|per|controle|opgenomen|ontslagen|"
        r"opname|ontslag|gezien)[ \t:]+((?:0?[1-9]|[12]\d|3[01])-(?:0?[1-9]|1[0-2]))(?![\d\-/.,]|\.\d)",
        1,
        0.85,
    ),
    # An age of 90 or more, which identifies ("90 jaar", "94 jaar oud"): HIPAA's Safe Harbor.
    Rule(EntityType.AGE, r"(?<![\d,.])((?:9\d|1[01]\d))[ \t]+jaar\b(?![ \t]+(?:geleden|lang|later))", 1, 0.85),
    # Postcode: "1016 GV", "1016GV Amsterdam"; Belgian "1000 Brussel".
    Rule(
        EntityType.ADDRESS,
        r"(?<![\w-])([1-9]\d{3}[ \t]?(?!SA|SD|SS)[A-Z]{2}(?:[ \t]+[A-Z][\w'-]+(?:[ \t][A-Z][\w'-]+)?"
        # a town on its river or by its hill: "Koog aan de Zaan", "Alphen aan den Rijn", "Bergen op Zoom"
        r"(?:[ \t]+(?:aan[ \t]+(?:de|den|het)|op|bij|in[ \t]+de)[ \t]+[A-Z][\w'-]+)?)?)"
        r"(?![\w])",
        1,
        0.9,
        flags=0,
    ),
    # A car's registration (kenteken) by its side codes: "12-ABC-3", "AB-123-C", "1-ABC-23",
    # "XX-99-99" (three groups of letters and digits, six in all).
    Rule(
        EntityType.ID,
        r"(?<![\w-])((?:[A-Z]{2}-\d{2}-\d{2}|\d{2}-\d{2}-[A-Z]{2}|\d{2}-[A-Z]{2}-\d{2}|[A-Z]{2}-\d{2}-[A-Z]{2}|"
        r"[A-Z]{2}-[A-Z]{2}-\d{2}|\d{2}-[A-Z]{2}-[A-Z]{2}|\d{2}-[A-Z]{3}-\d|\d-[A-Z]{3}-\d{2}|[A-Z]{2}-\d{3}-[A-Z]|"
        r"[A-Z]-\d{3}-[A-Z]{2}|[A-Z]{3}-\d{2}-[A-Z]|[A-Z]-\d{2}-[A-Z]{3}|\d-[A-Z]{2}-\d{3}|\d{3}-[A-Z]{2}-\d))(?![\w-])",
        1,
        0.85,
        flags=0,
    ),
    *month_date_rules(w.MONTHS, day=r"\d{1,2}"),
    # A pupil's school after the class ("zit in groep 5 bij juf marieke op de wegwijzer"):
    # "op" and the school's name, which the language hardly writes as a word.
    Rule(
        EntityType.ORG,
        r"(?i:\bgroep[ \t]+[1-8][a-z]?\b)[^.!?\n]{0,40}?[ \t]op[ \t]+(?:de|het|'t)[ \t]+"
        r"((?i:[a-zà-ÿ][\wà-ÿ'-]+))(?![\w-])",
        1,
        0.8,
        flags=0,
        validate=_rare,
    ),
]

ZONES = [
    # A pupil's school year: "groep 4", "groep 8b" (the school's name may follow).
    r"\bgroep[ \t]+[1-8][a-z]?\b",
    # An eponym names a test or a disease, not a person: "ziekte van Crohn", "syndroom van Down", "test van Romberg".
    r"\b(?i:ziekte|syndroom|test|teken|score|schaal|criteria|reflex|manoeuvre|fractuur|classificatie)\s+van\s+[A-ZÁÉÍÓÚÑÄÖÜ][\w'’]+(?:[-\s][A-ZÁÉÍÓÚÑÄÖÜ][\w'’]+)?",
    # "artikel 7:669 BW", "art. 7:611 BW", "artikel 6 lid 1 AVG".
    r"(?i:artikel|art\.)\s+\d+(?::\d+)?[a-z]?(?:\s+(?i:lid)\s+\d+)?(?:\s+(?i:sub)\s+[a-z\d]+)?"
    r"(?:\s+(?:BW|Sr|Sv|Rv|Awb|AVG|WW|WIA|WOR|Arbowet|Wet\s[^,.;\n]{0,30}|[A-Z][A-Za-z]{1,5}))?",
    # EU law by its number: "Verordening (EG) nr. 261/2004", "richtlijn 2003/88/EG".
    r"\b(?i:verordening|richtlijn)(?:\s+\((?:EG|EU)\))?(?:\s+nr\.)?\s*\d+/\d{2,4}(?:/(?:EG|EU))?",
    r"\b(?:BW|AVG|UWV|WW|WIA|ZW|CAO|cao|WOZ|BTW|btw|KvK|IND|GGD|DUO)\b",
    *money_zones(r"(?:€|EUR|euro)"),
    *quantity_zones(),
]

LOCALE = Locale(
    code="nl",
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
    # (Belgium writes four digits alone: "9140 Temse")
    postcode=r"\d{4}(?:[ \t]?[A-Za-z]{2}(?![\w]))?",
    lower_street=r"(?<![\w-])((?:van[ \t]+(?:der|den|de)[ \t]+|(?!de\b|het\b|een\b|aan\b|in\b|op\b|van\b|naar\b)[a-z]+[ \t])?(?!onderweg|halfweg|zijweg)[a-z]{3,}(?:straat|gracht|weg|laan|plein|kade|singel|dijk|steeg|dreef|hof|pad|park|markt|erf|wal)[ \t]+\d{1,5}(?:-?(?:bis|hs|[a-z]\b|\d{1,3}))?"
    # and its postcode after a comma ("merelhof 22, 3646 bd")
    r"(?:,?[ \t]+\d{4}[ \t]?[a-z]{2}(?![\w]))?)(?![\w])",
    # (not "weg", "hof", "park", "markt": "bij de supermarkt 2 keer")
    cased_street=r"(?:van[ \t]+(?:der|den|de)[ \t]+|[a-z]+[ \t])?[a-z]{3,}(?:straat|gracht|laan|plein|kade|singel|dijk|steeg|dreef)[ \t]",
    address_unit=r"(?:\d{1,2}(?:e)?[ \t-]*(?:hoog|hg)|(?:\d{1,2}e|eerste|tweede|derde|vierde)[ \t]+(?:verdieping|etage)|(?:bus|app\.?|appartement)[ \t]+\d{1,4}[A-Z]?|(?:huis|hs|boven|beneden|parterre|bel-?etage))(?![\w-])",
    name_particles=frozenset({"der", "den", "ter", "ten", "'t"}),
    describing_endings=("ig", "lijk", "isch", "ende", "eerd", "erde"),
    town_before=("in", "uit", "bij", "te"),
    place_kinds=("uitzendbureau", "detacheringsbureau", "ckv", "vv", "sv", "kv", "hv", "hc", "mhc", "rkvv", "voetbalvereniging", "voetbalclub", "korfbalvereniging", "korfbalclub", "hockeyclub", "hockeyvereniging", "tennisclub", "tennisvereniging", "zwemvereniging", "turnvereniging", "sportvereniging", "obs", "cbs", "kbs", "pcbs", "rkbs", "ikc", "sbo", "basisschool", "ggz", "gezondheidscentrum", "huisartsenpraktijk", "huisartsenpost", "tandartspraktijk", "praktijk", "apotheek", "fysiotherapie", "kinderopvang", "kinderdagverblijf", "verpleeghuis", "verzorgingshuis", "zorgcentrum", "kapsalon", "bakkerij", "garage", "kwekerij", "slagerij", "boerderij", "hoveniersbedrijf", "schildersbedrijf", "installatiebedrijf", "aannemersbedrijf", "transportbedrijf", "loonbedrijf", "makelaardij", "makelaarskantoor", "administratiekantoor", "advocatenkantoor", "notariskantoor", "autobedrijf", "rijschool", "schoonmaakbedrijf", "tuincentrum", "supermarkt", "bloemenwinkel", "winkel", "hotel", "camping", "restaurant", "eetcafé", "cafetaria", "snackbar", "bouwbedrijf", "groothandel", "zorgboerderij", "dagbesteding", "brede school", "kindcentrum", "ikc", "klusbedrijf", "klussenbedrijf", "timmerbedrijf", "loodgietersbedrijf", "stukadoorsbedrijf", "schoonheidssalon", "fietsenwinkel", "kdv", "bso", "psz", "peuterspeelzaal", "woonstichting", "woningcorporatie", "woningbouwvereniging", "pizzeria"),
    place_links=("de", "het", "'t", "van", "van de", "van het", "van der", "van den"),
    place_articles=("de", "het", "'t", "der", "den"),
)
