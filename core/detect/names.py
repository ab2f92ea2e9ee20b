"""What a name is: one span per name, the type its own text shows, and words that are no name.

Rules of :mod:`core.detect.refine` about names: pieces of one name are joined
(:func:`join_names`), a name written a second time in another script is found
(:func:`other_script_names`), and a span is given the type its own text shows
(:func:`retype`: an address, an e-mail, a firm, a nationality). The word lists
here (job titles, flight numbers, organisation words, relatives) are data that
:mod:`core.policy` reads too.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from core.detect.fields import card_grouping
from core.detect.hosts import host_names
from core.detect.zones import DIGITS, EMAIL, EVERY_MACHINE, IP, URL, rule_patterns
from core.entities import EntityType
from core.lexicon import Lexicon
from core.lexicon import lexicon as shared_lexicon
from core.spans import Span, merge_spans

#: The view of a name read from a table's name column ("nom" | "CHERIF"): a surname in
#: capitals there is no acronym.
NAME_CELL = "name-cell"

#: A possessive and a word for a relative in the languages people mix into English
#: messages ("Mi madre", "ma mère", "meine Mutter", "minha mãe").
KINSHIP = re.compile(
    r"(?:(?:mi|mis|tu|su|ma|mon|mes|ta|ton|sa|son|meine?|meinem|deine?|mia|mio|miei|"
    r"minha|meu|meus|minhas|mijn|moja|mój|moj)\s+)"  # the possessive is required: "Mann" is a surname
    r"(?:madre|padre|mamá|mama|papá|papa|abuela|abuelo|hija|hijo|hermana|hermano|esposa|esposo|"
    r"tía|tio|tío|tia|mère|père|grand-mère|grand-père|fille|fils|sœur|soeur|frère|frere|femme|mari|"
    r"mutter|vater|oma|opa|tochter|sohn|schwester|bruder|frau|mann|nonna|nonno|figlia|figlio|"
    r"sorella|fratello|moglie|marito|mãe|mae|pai|avó|avô|filha|filho|irmã|irmão|moeder|vader|"
    r"matka|ojciec|babcia|dziadek|córka|syn)",
    re.IGNORECASE,
)

#: A job title ("Technical writer", "sewer pipe cleaner"): a quasi-identifier (core.policy).
JOB_TITLE = re.compile(
    r"\b(?:writer|editor|operator|cleaner|consultant|clerk|engineer|manager|nurse|teacher|officer|partner|"
    r"assistant|analyst|director|designer|developer|programmer|technician|specialist|coordinator|"
    r"administrator|worker|driver|agent|representative|accountant|lawyer|attorney|solicitor|"
    r"doctor|physician|surgeon|therapist|pharmacist|dentist|midwife|paramedic|cashier|clerk|"
    r"secretary|receptionist|supervisor|foreman|mechanic|electrician|plumber|carpenter|"
    r"builder|chef|cook|waiter|waitress|bartender|salesperson|advisor|adviser|planner|"
    r"scientist|researcher|professor|lecturer|tutor|instructor|architect|surveyor|inspector|"
    r"auditor|economist|journalist|reporter|photographer|artist|musician|actor|producer|"
    r"executive|president|founder|owner|intern|apprentice|trainee|guard|firefighter|"
    r"police officer|soldier|pilot|steward|stewardess|librarian|counsellor|counselor|"
    r"caregiver|carer|housekeeper|janitor|labourer|laborer|farmer|fisherman|tailor|baker|"
    r"butcher|barber|hairdresser|fumigator|geologist|biologist|chemist|physicist|"
    r"adjuster|assessor|underwriter|caseworker|investigator|valuer|conveyancer|paralegal|"
    r"dispenser|barista|sonographer|radiographer|phlebotomist|"
    r"head(?=\s+of\s)|dean(?=\s+of\s)|chair(?=\s+of\s)|"
    # A doctor by their field: "Rheumatologist", "Psychiatrist", "Paediatrician".
    r"[a-z]{3,}ologist|[a-z]{2,}iatrist|[a-z]{3,}ician)s?\b",
    re.IGNORECASE,
)
TITLE_CASE_NAME = re.compile(r"[A-Z][\w'’&.-]*(?:\s+(?:of|and|the|for|&)?\s*[A-Z][\w'’&.-]*)+")


#: A flight number: an airline's two-character code and one to four digits ("LH 401", "U2 1234"),
#: or its three-letter code, in capitals ("EZY 8473", "BAW 283").
FLIGHT = re.compile(
    r"\b(?:[A-Z]{2}|[A-Z]\d|\d[A-Z]|(?-i:[A-Z]{3}))\s?\d{1,4}[A-Z]?\b", re.IGNORECASE
)
#: Words that speak of a flight or an airline.
_AIRLINE_WORDS = (
    r"flights?|flew|fly|flying|airlines?|airways|air\s+\w+|booked on|rebooked on|"
    r"boarding|departure|arrival|lufthansa|ryanair|easyjet|klm|delta|united|emirates|iberia|"
    # an airline by its name: "Icelandair", "Finnair", "JetBlue", "Jet2", "Jetstar"
    r"icelandair|finnair|egyptair|airasia|jet(?:blue|2|star)|aer\s+lingus|qantas|vueling|"
    r"eurowings|transavia|wizz|loganair|westjet|etihad|cathay|avianca|latam|saudia|volotea|"
    r"aerom[eé]xico|korean\s+air|swiss"
)
#: ... at most two words before a flight number.
_FLIGHT_WORDS = re.compile(rf"\b(?:{_AIRLINE_WORDS})\W*(?:\w+\W+){{0,2}}$", re.IGNORECASE)


#: A flight's route after its code: "BA0287 London Heathrow to San Francisco", "LH 903 FRA-LHR".
_ROUTE_AFTER = re.compile(
    r"[ \t]+(?:[A-Z][a-z]+(?:[ \t][A-Z][a-z]+){0,2}[ \t]+(?:to|→|->)[ \t]+[A-Z]|[A-Z]{3}[ \t]*(?:-|–|→|->)[ \t]*[A-Z]{3}\b)"
)


def flight_context(text: str, start: int) -> bool:
    """True when the words before ``start`` speak of a flight or an airline, or the code
    at ``start`` is followed by its route ("..., BA0287 London Heathrow to San Francisco")."""
    if _FLIGHT_WORDS.search(text[max(0, start - 40) : start]):
        return True
    code = FLIGHT.match(text, start)
    return code is not None and _ROUTE_AFTER.match(text, code.end()) is not None


#: Words that make a name an organisation's ("Cedar Ridge Orthopedics", "Clínica Dental ...").
ORG_WORDS = re.compile(
    r"\b(?:hospital|clinic|cl[ií]nica|klinik|surgery|medical|health|healthcare|dental|dentistry|"
    r"orthopedics|orthopaedics|pediatrics|paediatrics|veterinary|vets|pharmacy|practice|"
    r"general|infirmary|hospice|care|school|academy|college|university|institute|nursery|"
    r"infants|juniors|preschool|pre-school|kindergarten|primary|elementary|secondary|grammar|comprehensive|"
    r"ltd|llc|llp|inc|plc|gmbh|ag|sa|bv|co|corp|corporation|company|group|holdings|partners|"
    r"associates|consulting|services|solutions|systems|technologies|tech|labs?|studios?|"
    r"logistics|joinery|builders|bakery|caf[eé]|restaurant|hotel|motel|bank|insurance|"
    r"mortgage|mortgages|capital|ventures|foundation|trust|charity|church|mosque|temple|"
    r"council|agency|house|centre|center|robotics|motors|airways|airlines|travel|energy|"
    r"dynamics|analytics|software|digital|networks|industries|enterprises|innovations|"
    r"therapeutics|pharmaceuticals|biosciences|brewery|distillery|realty|refunds|"
    # a trade's plural or its -ing: "Carrow Foods", "Cotswold Roofing", "Ashdown Lettings"
    r"foods|roofing|plumbing|electrical|construction|interiors|properties|estates|lettings|"
    r"haulage|landscaping|engineering|marketing|media|scaffolding|glazing|plastering|"
    r"decorating|decorators|flooring|fencing|paving|tiling|removals|cleaning|catering|"
    r"fabrications|welding|drainage|groundworks|carpentry|electrics|heating|home|homes|"
    r"transport|freight|couriers|coaches|taxis|photography|productions|events|florists?|"
    r"tutoring|fitness|salon|barbers|designs|crafts|"
    # a club or a team by its nickname: "tonbridge otters", "Hartley Wanderers"
    r"fc|afc|rfc|otters|sharks|dolphins|stingrays|seals|penguins|lions|tigers|panthers|"
    r"jaguars|bears|wolves|foxes|badgers|eagles|hawks|falcons|kestrels|owls|swifts|magpies|"
    r"rovers|rangers|wanderers|harriers|athletic|albion|jets|titans|spartans|vikings|warriors|"
    r"raiders|pirates|dragons|comets|hornets|wasps|bees|bulldogs|"
    # shops and restaurants named in their own language: "Panadería La Espiga"
    r"panader[ií]a|boulangerie|p[aâ]tisserie|trattoria|pizzeria|osteria|ristorante|"
    r"taquer[ií]a|cantina|bodega|b[aä]ckerei|metzgerei|konditorei|brasserie|bistro|"
    r"farmacia|pharmacie|apotheke)\b",
    re.IGNORECASE,
)
#: "Co." before a county's name ("Ballina, Co. Mayo"), not a company's "Co.".
_COUNTY = re.compile(r"\bCo\.?[ \t]+(?=[A-Z][a-z])")
_LABEL_END = re.compile(r"\s+(?:member|account|number|no|id|customer|policy|ref)\.?$", re.IGNORECASE)
#: What a person has with a bank, a shop or a provider, named right after it.
_HELD_WITH = (
    r"account|card|bank|app|store|shop|order|plan|policy|subscription|membership|"
    r"customer service|support|website|dishwasher|washer|fridge|laptop|phone|router|flight|"
    r"airline|hotel"
)
#: The word for a place of care, school or business and a comma, right before its name.
_PLACE_NOUN_COMMA = re.compile(
    r"\b(?:nursery|preschool|school|college|clinic|practice|surgery|pharmacy|gym|salon|caf[eé]|"
    r"shop|restaurant|pub|hotel|garage|care home|daycare|childminder's)[ \t]*,[ \t]*$",
    re.IGNORECASE,
)
_INSTITUTION_AFTER = re.compile(
    # Not the key of the next field: "customer: Kathleen Higgins card: **** 4421".
    rf"[ \t]+(?:current\s+|savings\s+|credit\s+|debit\s+)?(?:{_HELD_WITH})\b(?![ \t]*[:=])",
    re.IGNORECASE,
)
#: A user name or host name: a single token with an underscore or a digit, or a
#: lower-case hyphenated one ("etl_rbaptiste", "nas-dobrescu", "tzack88").
HANDLE = re.compile(r"(?=\S*[_\d])[\w.\-]+|[a-z][a-z0-9]*(?:-[a-z0-9]+)+")
#: A card statement's payment processor before the merchant: "PAYPAL *", "SQ *", "AMZN Mktp *".
_DESCRIPTOR_BEFORE = re.compile(r"\b[A-Z][A-Za-z.]{1,11}(?:[ \t][A-Za-z]{2,6})?[ \t]?\*[ \t]?$")
#: A reference's code: capitals and digits, both, in one word ("XK7P2Q", "PNR-4K7Q2").
_CODE = re.compile(r"(?=[A-Z0-9-]*\d)(?=[A-Z0-9-]*[A-Z])[A-Z0-9][A-Z0-9-]{4,}")
#: A secret written as key = value: only the value is the secret.
_KEY_VALUE = re.compile(r"""^([\w.\-]+["']?\s*[:=]\s*["'“‘]?)(\S.*)$""")
#: A setting's name before its value ("POSTGRES_PASSWORD: hX9#", "api_key=..."): the name is
#: code, the value may be a secret.
_SETTING_KEY = re.compile(r"^(?:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[a-z][a-z0-9]*(?:_[a-z0-9]+)+)\s*[:=]")


#: One to four words of a non-Latin script right before "(", or inside "( )" right after.
_OTHER_SCRIPT = r"[^\W\d_A-Za-z\u00c0-\u024f][^\s()]*(?:\s[^\W\d_A-Za-z\u00c0-\u024f][^\s()]*){0,3}"
_SCRIPT_BEFORE = re.compile(rf"({_OTHER_SCRIPT})\s*\(\s*$")
_SCRIPT_AFTER = re.compile(rf"\s*\(\s*({_OTHER_SCRIPT})\s*\)")  # match() anchors it at the name's end


_INITIALS_AFTER = re.compile(r",\s?(?:[A-Z]\.\s?){1,3}")
#: What belongs to a name written before it: a title ("Mr. Rasooli", "dr lena patel").
_TITLE_BEFORE_NAME = re.compile(
    r"\b(?:mr|mrs|ms|miss|mx|dr|prof|sir|madam|dame|herr|frau|mme)\.?,?\s+$", re.IGNORECASE
)
#: A chat export's speaker, after the message's time: "[14:02] Will Adeyemi: ..." (the
#: word before the surname the model found is the given name, whatever else it means).
_SPEAKER_GIVEN_BEFORE = re.compile(
    r"(?:^|\n)[ \t]*\[[^\]\n]{0,24}\d{1,2}:\d{2}(?::\d{2})?(?:[ \t]?[APap][Mm])?\][ \t]*"
    r"([A-Z][a-z]+(?:-[A-Z][a-z]+)?)[ \t]$"
)
_TITLE_WORD = re.compile(
    r"(?:mr|mrs|ms|miss|mx|dr|prof|sir|madam|dame|herr|frau|mme|lord|lady|rev|judge)", re.IGNORECASE
)


_HEADING_LEAD = re.compile(r"[ \t#*>\-•]*")


#: What separates the items of one line ("Office Manager | Kelly, Dickinson and Smith",
#: "Browne, Godfrey and Parker · 136 Kerry Trail").
ITEM_SEPARATOR = re.compile(r"\s[·•|]\s")


def _heads_a_line(text: str, span: Span) -> bool:
    """The span opens a short line of a text of several lines, and the line is no
    sentence: a heading ("Notice of hearing") or a label ("Attachments (not opened):")."""
    if text.count("\n") < 2:
        return False
    line_start = text.rfind("\n", 0, span.start) + 1
    if not _HEADING_LEAD.fullmatch(text, line_start, span.start):
        return False
    line_end = text.find("\n", span.end)
    line = text[line_start : line_end if line_end >= 0 else len(text)].rstrip()
    # A signature's line holds items ("Office Manager | Kelly, Dickinson and Smith"):
    # the span's own item is the line that counts.
    line = ITEM_SEPARATOR.split(line, maxsplit=1)[0]
    return len(line.split()) <= 6 and not line.endswith((".", "!", "?", ","))


def words_not_a_name(text: str, span: Span, lexicon: Lexicon) -> bool:
    """A person the model alone found at the head of a short line of a document or a
    form, made only of plain words (common English words a dictionary writes in
    lower case, none of them anyone's name: "Notice of hearing", "Attachments (not
    opened):"), or a role ("Office Manager"): a heading, a label or a job, no person. A
    title before it or in it ("Mr. Notice"), a word that is a name ("Grace", "Bridges",
    "Baker"), a proper noun ("Caspian"), a brand ("Google") or a rare word keeps it; so
    does a sentence."""
    if set(span.views) - {"name-extent"} != {"ner"} or not _heads_a_line(text, span):
        return False
    value = text[span.start : span.end]
    words = re.findall(r"[^\W\d_]+", value)
    if not words or DIGITS.search(value):
        return False
    if _TITLE_BEFORE_NAME.search(text, max(0, span.start - 8), span.start):
        return False
    def plain(w: str) -> bool:
        return len(w) >= 3 and lexicon.is_plain(w) and not _TITLE_WORD.fullmatch(w)

    # A role's last word may be a rare one, a doctor's field ("Consultant Rheumatologist"),
    # when it is no name people carry.
    last = words[-1]
    role = (
        len(words) > 1
        and JOB_TITLE.fullmatch(last.casefold()) is not None
        and not (lexicon.is_given(last) or lexicon.is_surname(last))
    )
    return all(plain(w) for w in words[:-1]) and (plain(last) or role)


#: ... and after it: a possessive ("Joseph's"), a citation's "et al.".
#: Particles of surnames ("Ní Cheallaigh", "van Dijk", "de la Cruz").
_PARTICLES = r"(?:Ní|Nic|Ó|Ua|Mac|van|von|de|di|da|del|dos|ter|la|le)"
_ENDS_IN_PARTICLE = re.compile(rf"\S[ \t]+{_PARTICLES}$")
_SURNAME_AFTER = re.compile(r"[ \t]+[A-ZÁÉÍÓÚ][\w'’\-]+")
#: Between two pieces of one name: a space, or a particle between spaces.
_NAME_GAP = re.compile(rf" (?:{_PARTICLES} )?")
#: A surname's particles between a given name and the rest of the surname, which a
#: model may type as an organisation ("Wieteke van Dort", "Anna van der Berg").
_SURNAME_GAP = re.compile(rf" {_PARTICLES}(?: (?:der|den|la|le|los|las))? ")
#: The rest of a surname after its particles: one capitalized word.
_SURNAME_REST = re.compile(r"[A-ZÀ-ÖØ-Þ][\w'’\-]+")
_NAME_TAIL = re.compile(r"['’][sS]\b|\s+et\s+al\.?", re.IGNORECASE)
_NAME_JOIN_TYPES = frozenset({EntityType.PERSON, EntityType.ORG, EntityType.LOCATION})


def _public_kind(name: str) -> str | None:
    return shared_lexicon().public_kind(name)


#: A given name, a nickname in brackets or quotes, and a surname: 'Reginald "Reg" Pocock',
#: 'Bronisława ("Bronia") Kaczmarek', "Cornelis (Kees) Smit".
NICKNAMED = re.compile(
    r"(?P<first>[A-ZÀ-ÖØ-Þ][\w'’-]+)[ \t]+"
    r"(?:\([ \t]*[\"'“‘]?(?P<nick>[A-ZÀ-ÖØ-Þ][\w'’-]*[\w])[\"'”’]?[ \t]*\)|[\"'“‘](?P<quoted>[A-ZÀ-ÖØ-Þ][\w'’-]*[\w])[\"'”’])"
    r"[ \t]+(?P<last>[A-ZÀ-ÖØ-Þ][\w'’-]+)"
)


def _nicknamed(text: str, spans: list[Span]) -> list[Span]:
    """A person's name with a nickname between the given name and the surname, as one
    name: pieces the model read as two or three people ("Bronisława" | "Bronia" |
    "Kaczmarek") that the box would count apart. The given name and the surname must
    each be a person's piece already."""
    persons = [s for s in spans if s.type is EntityType.PERSON]
    if len(persons) < 2 or not any(c in text for c in "(\"“‘'"):
        return spans
    for m in NICKNAMED.finditer(text):
        first = [s for s in persons if s.start <= m.start("first") < s.end]
        last = [s for s in persons if s.start <= m.start("last") < s.end]
        if not first or not last or first[0] is last[0]:
            continue
        start, end = min(s.start for s in first), max(s.end for s in last)
        inside = [s for s in spans if s.start < end and start < s.end]
        if any(s.type not in (EntityType.PERSON, EntityType.OTHER) for s in inside):
            continue
        views: dict[str, float] = {}
        for s in inside:
            for k, v in s.views.items():
                views[k] = max(v, views.get(k, 0.0))
        merged = Span(start, end, EntityType.PERSON, max(s.score for s in inside), views)
        spans = sorted([s for s in spans if s not in inside] + [merged], key=lambda x: x.start)
        persons = [s for s in spans if s.type is EntityType.PERSON]
    return spans


def join_names(text: str, spans: list[Span]) -> list[Span]:
    """One name, one span: "QUARTEY-MENSAH, E." and pieces one space apart.

    The model sometimes starts a new entity at each word of a name
    ("Κωνσταντίνος" + "Παπαδόπουλος", "Clínica" + "Dental Sonrisa Azul"); two
    name pieces separated by a single space are one name. A surname followed
    by ", E." keeps its initials. A nickname between a given name and a surname is part
    of the name (:func:`_nicknamed`).
    """
    out: list[Span] = []
    for span in _nicknamed(text, spans):
        if span.type in _NAME_JOIN_TYPES:
            start, end = span.start, span.end
            m = _INITIALS_AFTER.match(text, end) if span.type is EntityType.PERSON else None
            if m:
                end = m.end() - (1 if text[m.end() - 1] == " " else 0)
            after = _NAME_TAIL.match(text, end)
            if after:
                end = after.end()
            if _ENDS_IN_PARTICLE.search(text, start, end):
                # "Siobhán Ní" | "Cheallaigh": a name that ends in a surname's particle
                # goes on with the surname on its line.
                surname = _SURNAME_AFTER.match(text, end)
                if surname is not None:
                    end = surname.end()
            before = _TITLE_BEFORE_NAME.search(text, max(0, start - 12), start)
            if before and span.type is EntityType.PERSON:
                start = before.start()
            speaker = (
                _SPEAKER_GIVEN_BEFORE.search(text, max(0, start - 60), start)
                if span.type is EntityType.PERSON and text[end : end + 1] == ":"
                else None
            )
            if speaker is not None:
                start = speaker.start(1)
            if (start, end) != (span.start, span.end):
                span = Span(start, end, span.type, span.score, span.views)
        prev = out[-1] if out else None
        joins_org = (
            prev is not None
            and prev.type is EntityType.ORG
            and span.type is EntityType.OTHER
            and text[span.start].isupper()
        )
        if (
            prev is not None
            and prev.type in _NAME_JOIN_TYPES
            and (span.type in _NAME_JOIN_TYPES or joins_org)
            and (
                text[prev.end : span.start] == " "
                # "Siobhán" | "Ní" | "Cheallaigh": a particle between two pieces of a person's name
                or (
                    prev.type is span.type is EntityType.PERSON
                    and _NAME_GAP.fullmatch(text, prev.end, span.start) is not None
                )
            )
            and (
                text[prev.start].isupper() == text[span.start].isupper()
                or (prev.type is not EntityType.PERSON and text[span.start : span.end].isdigit())
            )
        ):
            joined = merge_spans([prev, Span(prev.end, span.start, prev.type, 0.0), span])[0]
            out[-1] = Span(joined.start, joined.end, joined.type, joined.score, joined.views)
            continue
        if (
            prev is not None
            and prev.type is EntityType.PERSON
            and span.type in (EntityType.ORG, EntityType.OTHER)
            and text[prev.start].isupper()
            and _SURNAME_GAP.fullmatch(text, prev.end, span.start) is not None
            and _SURNAME_REST.fullmatch(text, span.start, span.end) is not None
            and _public_kind(text[span.start : span.end]) is None
        ):
            # "Wieteke" | "van" | "Dort" (typed an organisation): the rest of a person's
            # surname after its particles is the person's. Not a place ("Anna de Lyon"
            # is Anna from Lyon) nor a public company ("Jan van Philips", "Pedro de
            # Telefónica": someone who works there).
            joined = merge_spans([prev, Span(prev.end, span.start, prev.type, 0.0), span])[0]
            out[-1] = Span(joined.start, joined.end, EntityType.PERSON, joined.score, joined.views)
            continue
        if (
            prev is not None
            and text[prev.end : span.start] == " "
            and (tail := _POSTCODE_TAIL.search(text, prev.start, span.end)) is not None
            and tail.start() < prev.end
        ):
            # "CB3" + "7DA": the two halves of a postcode are one address, the first one
            # alone or closing an address ("41 Marlowe Court, Canterbury CT1" + "2RP").
            out[-1] = Span(
                prev.start,
                span.end,
                EntityType.ADDRESS,
                max(prev.score, span.score),
                {**prev.views, **span.views},
            )
            continue
        if prev is not None and span.start < prev.end:
            out[-1] = merge_spans([prev, span])[0]
            continue
        out.append(span)
    return out


#: A British postcode ("B7T 1GD", "SW1A 1AA", "LE60 7EY"): an address, whatever a model typed it.
UK_POSTCODE = re.compile(r"[A-Z]{1,2}\d[A-Z\d]?\s?\d[ABD-HJLNP-UW-Z]{2}")
#: A Canadian postal code: "M5V 2Z4" (Canada Post's letters: no D, F, I, O, Q, U; no W or Z first).
_GIVEN_AND_INITIAL = re.compile(r"([A-Z][a-z]+)[ \t]+[A-Z]\.?")
#: A given name and a surname, each one capitalized word ("Kwame Mensah", "Jean-Luc Roux",
#: "Siofra O'Neill"); groups 1 and 2 are the two names.
GIVEN_AND_SURNAME = re.compile(r"([A-Z][a-z]+(?:[-'’][A-Z]?[a-z]+)?) ([A-Z][a-z]+(?:[-'’][A-Z]?[a-z]+)?)")
_DIGIT_AND_SIGN = re.compile(r"(?=.*\d)(?=.*[!@#$%^&*])")
_ONE_CAPITALIZED_WORD = re.compile(r"[A-Z][a-zà-ÿ'’\-]{2,}")
#: A town's name of one to three words, then a UK postcode: an address's last line.
_TOWN_AND_POSTCODE = re.compile(
    rf"[A-Z][\w'’\-]+(?:[ \t]+[A-Z][\w'’\-]+){{0,2}},?[ \t]+{UK_POSTCODE.pattern}"
)
CA_POSTCODE = re.compile(r"[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z][ -]?\d[ABCEGHJ-NPRSTV-Z]\d")

#: A postcode closing a text, from a word's start: what two spans of it make one address.
_POSTCODE_TAIL = re.compile(rf"(?<![\w])(?:{UK_POSTCODE.pattern})$")


#: An e-mail header's display name before its address: "From: Patricia Robinson <p@x.com>".
_HEADER_NAME = re.compile(
    r"(?im)^(?:from|to|cc|bcc|reply-to|sender|von|an|de|à|para|van|aan)[ \t]*:[ \t]*"
    r"(?:[^<>\n]*?,[ \t]*)?\"?(?P<name>[^\W\d_][^<>\"\n,;@]{1,60}?)\"?[ \t]*<[^<>@\s]+@[^<>\s]+>"
)


def header_names(text: str) -> list[Span]:
    """The display names of an e-mail's header lines ("From: Patricia Robinson
    <patriciarobinson@example.com>", "Cc: Dale Phillips <d@example.com>"): whoever
    an address belongs to, written before it in angle brackets, is a person or a
    team; the model reads such a line poorly (a name glued to an address)."""
    if "@" not in text or "<" not in text:
        return []
    return [
        Span(m.start("name"), m.end("name"), _sender_type(m.group("name")), 0.9, {"rules": 0.9})
        for m in _HEADER_NAME.finditer(text)
    ]


def _sender_type(name: str) -> EntityType:
    """A sender's display name is a person's unless it says an organisation: an acronym
    first ("HMRC Refunds", "HSBC Alerts") or an organisation's word ("Acme Support")."""
    if re.match(r"[A-Z]{2,6}\b", name) or ORG_WORDS.search(name) or _TEAM_WORD.search(name):
        return EntityType.ORG
    return EntityType.PERSON


#: Words a team's or a service's mailbox is named with.
_TEAM_WORD = re.compile(
    r"\b(?:support|team|alerts?|notifications?|billing|accounts|customer service|helpdesk|"
    r"no-?reply|noreply|info|newsletter|security|service)\b",
    re.IGNORECASE,
)


def other_script_names(text: str, spans: Sequence[Span]) -> list[Span]:
    """A name written in a second script next to a found one: "李若曦 (Li Ruoxi)".

    The NER model reads Latin script well and others poorly; a person's name
    in brackets right after (or before) a run of another script's letters is
    the same name written twice, so the other run is a name too.
    """
    out = []
    for s in spans:
        if s.type is not EntityType.PERSON:
            continue
        before = _SCRIPT_BEFORE.search(text, max(0, s.start - 60), s.start)
        if before:
            out.append(Span(before.start(1), before.end(1), EntityType.PERSON, 0.7, {"rules": 0.7}))
        after = _SCRIPT_AFTER.match(text, s.end, min(len(text), s.end + 60))
        if after:
            out.append(Span(after.start(1), after.end(1), EntityType.PERSON, 0.7, {"rules": 0.7}))
    return out


NO_MACHINE = re.compile(
    # (with a scheme and a path too: "redis://localhost:6379", "http://127.0.0.1:8000/docs")
    rf"(?:[a-z][a-z0-9+.\-]*://)?(?:{EVERY_MACHINE}|::1?|localhost)(?::\d{{1,5}})?(?:/[^\s\"'<>]*)?",
    re.IGNORECASE,
)


#: A time of day with its "am" or "pm": "3am", "10.30 pm", "7:45PM".
_CLOCK_TIME = re.compile(r"(?:[1-9]|1[0-2])(?:[:.][0-5]\d)?\s?(?:am|pm|a\.m\.|p\.m\.)", re.IGNORECASE)


#: "he's" or "I'm" typed without the apostrophe, then an age: "hes 66", "shes 71", "im 34".
_CONTRACTED_AGE = re.compile(r"(?i:hes|shes|im)[ \t]+(\d{1,3})")
#: An age and a sex as a clinical note writes them: "58F", "72M".
_AGE_SEX_VALUE = re.compile(r"\d{1,3}[FM]")
#: Words that say someone lives or works in a place, then "in", right before a name.
_LIVES_IN = re.compile(
    r"\b(?:lives?|lived|living|based|born|moved|grew[ \t]+up|stay(?:s|ed|ing)?|resides?|resident|"
    r"settled|relocated)(?:[ \t]+(?:alone|together|now|still))?[ \t]+in[ \t]+$",
    re.IGNORECASE,
)
#: A place's preposition and "the" in lower case right before a name.
_THE_BEFORE = re.compile(r"(?<![\w])(?:at|to|from|in|into|outside|near)[ \t]+the[ \t]+$")
#: "in" right before a name.
_IN_BEFORE = re.compile(r"\bin[ \t]+$")


def _known_place_after_in(text: str, span: Span, value: str, lexicon: Lexicon | None) -> bool:
    """Right after "in", a town or a region the gazetteer knows ("in Ormskirk", "in
    Cambridge"): that place, whatever a model typed it."""
    return (
        lexicon is not None
        and _IN_BEFORE.search(text, max(0, span.start - 4), span.start) is not None
        and lexicon.public_kind(value) in ("place", "region")
    )


#: A few letters, a hyphen or none, then digits: a code's shape ("P-0381", "INV0417").
_LETTERS_THEN_DIGITS = re.compile(r"([A-Za-z]{1,3})[-_#]?\d{3,8}")
#: Months' short names in the languages the product reads ("Nov-2023" is a date).
_MONTH_ABBREVIATIONS = frozenset(
    "jan feb mar apr may jun jul aug sep oct nov dec mär mai okt dez fév fev avr jui aoû "
    "aou déc ene abr ago dic mrt mei".split()
)


def retype(text: str, span: Span, lexicon: Lexicon | None, cased: bool) -> Span | None:
    """Give a span the type its own text shows; trim a secret's key; None drops it."""
    value = text[span.start : span.end]
    t = span.type
    if NO_MACHINE.fullmatch(value):
        # "0.0.0.0:5432", "127.0.0.1", "localhost": an address of every machine, no one's.
        return None
    if IP.fullmatch(value):
        t = EntityType.IP
    elif EMAIL.fullmatch(value):
        t = EntityType.EMAIL
    elif URL.fullmatch(value) or (
        t is not EntityType.EMAIL
        and (h := host_names(value))
        and h[0][0] == 0
        and (h[0][1] == len(value) or value[h[0][1]] == "/")
    ):
        # A link, or a machine of someone's network ("db-3.internal.acme-corp.com:5432").
        t = EntityType.URL
    elif t is EntityType.ID and _KEY_VALUE.match(value) and (
        "rules" in span.views or _SETTING_KEY.match(value)
    ):
        kv = _KEY_VALUE.match(value)
        if kv and (
            _SETTING_KEY.match(value) or any(p.search(value) for p in rule_patterns()[1])
        ):
            a = span.start + len(kv.group(1))
            return Span(a, span.end, t, span.score, span.views) if a < span.end else None
    elif t in (EntityType.PHONE, EntityType.ID) and (age := _CONTRACTED_AGE.fullmatch(value)) is not None:
        # "hes 66 and takes ramipril": "he's" typed without its apostrophe, then an age.
        return Span(span.start + age.start(1), span.end, EntityType.AGE, span.score, span.views)
    elif t in (EntityType.PHONE, EntityType.ID) and "rules" in span.views and _AGE_SEX_VALUE.fullmatch(value):
        # "referral letter: 58F, DOB ...": a clinical note's age and sex, which the rules
        # read there, whatever a model typed the digits and the letter.
        t = EntityType.AGE
    elif (
        t is EntityType.DATE
        and (code := _LETTERS_THEN_DIGITS.fullmatch(value)) is not None
        and code.group(1).casefold() not in _MONTH_ABBREVIATIONS
    ):
        # "P-0381" in a payroll's first column, read as a date: letters no month is called,
        # then digits, are a code.
        t = EntityType.ID
    elif t is not EntityType.ADDRESS and UK_POSTCODE.fullmatch(value):
        t = EntityType.ADDRESS
    elif (
        t is EntityType.ADDRESS
        and lexicon is not None
        and _ONE_CAPITALIZED_WORD.fullmatch(value)
        and lexicon.public_kind(value) in ("place", "region", "brand")
    ):
        # "flying FR 8342 Stansted to Girona": one word a map or a timetable names is a
        # place, not a street address (which has a number or a street's word).
        t = EntityType.LOCATION
    elif t is EntityType.PERSON and re.fullmatch(r"@[\w.\-]{2,}", value):
        # "@dan.reilly": a handle, an account's name (a person only where written as a name).
        t = EntityType.ID
    elif t is EntityType.PERSON and "rules" in span.views and _DIGIT_AND_SIGN.search(value):
        # "wifi password is Sunflower!77": a word with digits and a sign is a secret or a
        # code the rules found, never a person's name.
        t = EntityType.ID
    elif (
        t is EntityType.ADDRESS
        and lexicon is not None
        and (m := _GIVEN_AND_INITIAL.fullmatch(value)) is not None
        and lexicon.is_given(m.group(1))
    ):
        # "- Lorraine P." signing a review: a given name and an initial, a person.
        t = EntityType.PERSON
    elif (
        t is EntityType.ADDRESS
        and lexicon is not None
        and (m := GIVEN_AND_SURNAME.fullmatch(value)) is not None
        and lexicon.is_given(m.group(1))
        and (
            lexicon.is_surname(m.group(2))
            or not (lexicon.is_plain(m.group(2)) or lexicon.zipf(m.group(2)) >= 3.0)
        )
        and lexicon.public_kind(value) is None
        and not any(lexicon.public_kind(w) in ("place", "region", "country") for w in m.groups())
    ):
        # "my tenant, Kwame Mensah, at 22B Alder Street": a given name and a surname, no
        # number and no street's word, are a person's name, not an address.
        t = EntityType.PERSON
    elif t is EntityType.PERSON and _TOWN_AND_POSTCODE.fullmatch(value):
        # "Didcot OX11 7QT": a town and its postcode, the end of an address.
        t = EntityType.ADDRESS
    elif t is not EntityType.DATE and _CLOCK_TIME.fullmatch(value):
        # "at 3am", "by 10.30 pm": a time of day, whatever a model read it as.
        t = EntityType.DATE
    elif t in (EntityType.PERSON, EntityType.LOCATION) and ORG_WORDS.search(
        _COUNTY.sub(" ", value)
    ) and (len(value.split()) >= 2):
        # "Cedar Ridge Orthopedics", "Meadowsweet House": a practice, a home, a firm (the
        # "Co." of "Ballina, Co. Mayo" is a county's).
        t = EntityType.ORG
    elif t in _NAME_JOIN_TYPES and " " in value and _LABEL_END.search(value):
        # "Gold Plus Rewards member": the label stays out of the name.
        cut = _LABEL_END.search(value)
        assert cut is not None
        end = span.start + cut.start()
        while end > span.start and text[end - 1] in " \t,;:-–":
            end -= 1  # "Allianz Travel, policy": the comma goes with the label
        return Span(span.start, end, t, span.score, span.views) if end > span.start else None
    elif t is EntityType.PERSON and _DESCRIPTOR_BEFORE.search(text, max(0, span.start - 16), span.start):
        # "PAYPAL *GADGETHUB", "SQ *HARBOUR CAFE": a merchant on a card statement.
        t = EntityType.ORG
    elif (
        t is EntityType.PERSON
        and lexicon is not None
        and " " not in value
        and text[span.end : span.end + 1] == ")"
        and re.search(r"\w[ \t]*\($", text[max(0, span.start - 3) : span.start])
        and lexicon.public_kind(value) in ("place", "region")
    ):
        # "Nuttall Roofing (Bolton)": a town in brackets after a name says where it is.
        t = EntityType.LOCATION
    elif t is EntityType.PERSON and _PLACE_NOUN_COMMA.search(text, max(0, span.start - 24), span.start):
        # "Our twins' nursery, Little Acorns in Frome": the name a nursery, a school or a
        # practice goes by, right after the word for it.
        t = EntityType.ORG
    elif t is EntityType.PERSON and _INSTITUTION_AFTER.match(text, span.end):
        # "her Lloyds account", "my Chase Sapphire card": a bank, a shop, a provider.
        t = EntityType.ORG
    elif t is EntityType.CREDIT_CARD and not card_grouping(value):
        # "order 204-5583921-7741023" read as a card: grouped as no card is, an identifier.
        t = EntityType.ID
    elif t is EntityType.OTHER and _CODE.fullmatch(value):
        # "Booking ref XK7P2Q": capitals and digits in one word are a reference, an ID.
        t = EntityType.ID
    elif t is EntityType.OTHER and "rules" in span.views and HANDLE.fullmatch(value) and " " not in value:
        # 'username = "dbadmin_tk"': an account's name the rules read after its key.
        t = EntityType.ID
    elif t is EntityType.LOCATION and HANDLE.fullmatch(value) and " " not in value and not value[0].isupper():
        # "nas-dobrescu", "db_prod3": a machine's or a user's name, no place.
        t = EntityType.ID
    elif t is EntityType.PERSON:
        if (
            HANDLE.fullmatch(value)
            and " " not in value
            # "meine tochter lea-sophie": given names joined by a hyphen, in lower case
            and not (
                lexicon is not None
                and "-" in value
                and all(part and lexicon.is_given(part) for part in value.split("-"))
            )
        ):
            t = EntityType.ID
        elif _known_place_after_in(text, span, value, lexicon) or (
            " " not in value and _LIVES_IN.search(text, max(0, span.start - 40), span.start)
        ):
            # "my midwife at the Rosie in Cambridge": after "in", a town the gazetteer
            # knows is that town, whoever else carries its name; after "lives alone in",
            # any one word is a place ("Hexham").
            t = EntityType.LOCATION
        elif (
            cased
            and value.isalpha()
            and not value.endswith("s")
            and _THE_BEFORE.search(text, max(0, span.start - 12), span.start)
        ):
            # "at the Rosie", "referred to the Marsden": one name after "at the", "to the"
            # is a hospital, a pub, a building named after someone, not the person ("the
            # Smiths" is a family; "met the Jennifer you told me about" is someone).
            t = EntityType.ORG
        elif lexicon is not None and lexicon.public_kind(value) == "nationality":
            t = EntityType.NRP
        elif value.isalpha() and value.isupper() and 2 <= len(value) <= 6 and cased and NAME_CELL not in span.views:
            # An acronym in a cased text names a body or a thing, not a person (but a
            # surname in capitals in a table's name column is a surname: "CHERIF").
            t = EntityType.ORG
    elif (
        t in (EntityType.ORG, EntityType.LOCATION, EntityType.OTHER)
        and lexicon is not None
        and lexicon.public_kind(value) == "nationality"
    ):
        t = EntityType.NRP
    elif t is EntityType.ORG and _known_place_after_in(text, span, value, lexicon):
        # "St Bede's Catholic High in Ormskirk": after "in", a town the gazetteer knows.
        t = EntityType.LOCATION
    if t is span.type:
        return span
    return Span(span.start, span.end, t, span.score, span.views)
