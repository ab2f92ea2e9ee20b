"""The type policy: which detected values are protected, at which risk level, and why.

Detection says what a value *is*; this policy says whether it may leave in
clear. It follows the two families of HIPAA's Safe Harbor rule and of the
anonymization literature:

* **Direct identifiers** are always protected: names of private people, contact
  details, ID and account numbers, exact street addresses, dates of birth,
  credentials, ages of 90 and over, and anything on the person's deny list.
* **Quasi-identifiers** identify only in combination: ages under 90, dates of
  events, places (cities, regions), nationalities and groups, organisations
  that are not well known (an employer, a school, a clinic). Each kind has a
  threshold on the risk slider (lambda): at or above it the value is protected,
  below it the value leaves in clear because the task usually needs it ("a
  child of 7", "since 1 October", "a job in Munich").
* **Public entities** identify nobody on their own: companies and brands in the
  shipped lexicon, countries and regions, universities, public agencies,
  Wikipedia-linked organisations and places. They leave in clear below
  :data:`PUBLIC_MAX`. Health-care providers and schools are never public here
  (the lexicon leaves them out): where a patient is treated or a child goes to
  school points to them.

A value that is protected anywhere in a text is protected everywhere in it
(``Mr. Ford`` protects a later bare ``Ford``). Every decision carries a
reason the editor's hover, the approval view and the command line show.
Thresholds are data (:data:`QUASI_THRESHOLDS`); the settings dialog shows
them next to the slider.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import cached_property

from core.detect.hosts import site_label
from core.detect.names import CA_POSTCODE, FLIGHT, JOB_TITLE, ORG_WORDS, UK_POSTCODE, flight_context
from core.detect.refine import NICKNAME, PLATFORM_WORDS, RECORD
from core.detect.zones import DEGREES, POSTCODE, STREET
from core.domain import (
    Profile,
    after_locatives,
    card_expiry,
    not_a_place,
    other_languages,
    relation,
    special_category,
    state_level,
    well_known_provider,
)
from core.entities import DESCRIPTIONS, EntityType
from core.lexicon import Lexicon
from core.locales import Locale, locale, month_names
from core.spans import Span


class Family(StrEnum):
    DIRECT = "direct identifier"
    QUASI = "quasi-identifier"
    PUBLIC = "public"


@dataclass(frozen=True, slots=True)
class Decision:
    """Whether one detected value is protected, with the policy's reason.

    The reason is data the editor's hover, the approval view and the command
    line render as they are: the kind the policy saw, the words that gave it
    (``why``) and the norm of the message's profile that protected it (``norm``).
    """

    protect: bool
    family: Family
    kind: str  # "person's name", "city", "public company"...
    threshold: float | None  # the lambda from which it is protected (None: always)
    #: What leaves instead of the value when it is generalized ("5-9" for an age of 7,
    #: "October" for "1 October"); None: a placeholder (or the value, when not protected).
    generalized: str | None = None
    #: The words around the value that decided its kind ("named after “surgery at”").
    why: str | None = None
    #: The norm that protected it at this level, with its profile
    #: ("HIPAA Safe Harbor (health profile)"); None: the level's own thresholds.
    norm: str | None = None

    @property
    def reason(self) -> str:
        """One line for a person: what it is and why it is (not) protected."""
        kind = f"{self.kind} ({self.why})" if self.why else self.kind
        if self.family is Family.DIRECT:
            return f"{kind}: a direct identifier, always protected"
        assert self.threshold is not None
        if self.protect and self.norm is not None:
            sent = f"sent as “{self.generalized}”" if self.generalized is not None else "protected"
            return f"{kind}: {self.norm}, {sent}"
        if self.protect and self.generalized is not None:
            return (
                f"{kind}: {self.family}, sent as “{self.generalized}” (generalized from "
                f"privacy level {self.threshold:g}, hidden from {GENERALIZE_UNTIL:g})"
            )
        verb = "protected at your level" if self.protect else "sent as written at your level"
        return f"{kind}: {self.family}, {verb} (protected from privacy level {self.threshold:g})"


#: Lambda from which each quasi-identifier kind is protected.
QUASI_THRESHOLDS: dict[str, float] = {
    "age": 7.0,
    "date of an event": 7.0,
    "place": 7.0,
    "nationality or group": 7.0,
    # An acronym alone ("FRRO", "CAMHS") names a body or a scheme shared by many.
    "acronym": 7.0,
    # A flight and a day narrow a person to a plane of a few hundred, and with an age or a
    # city to one: protected at the default level (Med-PCD labels them private).
    "flight number": 5.0,
    "job title": 7.0,
    "organisation": 3.0,
    # A well-known company or university is public as a subject ("my Bosch dishwasher",
    # "apply to Georgia Tech"), but where a person works or studies narrows them down
    # like any employer: protected from the same level as an organisation.
    "employer or school": 3.0,
    # Who a place is to the person (core.domain.relation): where they are treated,
    # their bank's branch, their court narrow them down like an employer does.
    "where the person is treated": 3.0,
    "the person's bank or branch": 3.0,
    "the person's court": 3.0,
}


@dataclass(frozen=True)
class Norm:
    """A domain's rule for what may leave: thresholds it lowers, and where it is written.

    ``thresholds`` maps a kind of :data:`QUASI_THRESHOLDS` to the lambda from
    which the norm protects it (the lower of the two applies); 0 protects at
    every level of the profile (the person can still choose another profile,
    or send one value by hand).
    """

    name: str
    citation: str
    thresholds: Mapping[str, float]


#: The norm each profile applies (:class:`core.domain.Profile`; ``general`` has none).
NORMS: dict[Profile, Norm] = {
    # 45 CFR 164.514(b)(2)(i): names, geographic subdivisions smaller than a state,
    # all elements of dates (except year) directly related to an individual, ages
    # over 89, contact details, SSN, MRN, health plan, account, licence, vehicle and
    # device numbers, URLs, IPs, biometrics, photos and any other unique code. The
    # direct identifiers are protected at every level already; the profile adds the
    # places and the dates, and takes a flight number as such a code.
    Profile.HEALTH: Norm(
        "HIPAA Safe Harbor",
        "45 CFR 164.514(b)(2)",
        {"place": 0.0, "date of an event": 0.0, "flight number": 0.0},
    ),
    # GDPR Art. 9(1) special categories (racial or ethnic origin, political opinions,
    # religious beliefs, trade union membership, sex life or orientation) at every
    # level, and Art. 10 (criminal offences): the court of the person's case from 3.
    Profile.LEGAL: Norm(
        "GDPR Art. 9 and 10", "Regulation (EU) 2016/679, Art. 4(1), 9(1), 10",
        {"special category": 0.0, "the person's court": 3.0},
    ),
    # GDPR Art. 88 (processing in the context of employment) with Art. 9(1): an
    # employee's religion, origin, politics, union or orientation at every level.
    Profile.HR: Norm(
        "GDPR Art. 9 and 88", "Regulation (EU) 2016/679, Art. 9(1), 88",
        {"special category": 0.0},
    ),
    # PCI DSS v4.0 requirement 3 (cardholder data: the card number, the cardholder's
    # name, the expiry date, the service code): the card number and the name are
    # direct identifiers already; the profile adds the expiry date (see decide).
    Profile.FINANCE: Norm(
        "PCI DSS cardholder data", "PCI DSS v4.0, requirement 3",
        {"card expiry date": 0.0},
    ),
}
#: Between its threshold and this lambda an age leaves as a range and an event date as
#: its month (measured: better retention than a placeholder on the utility dev set);
#: from here on both are hidden by a placeholder.
GENERALIZE_UNTIL = 9.0
#: Public entities are protected only from this lambda (the slider's top).
PUBLIC_MAX = 9.5

_DIRECT = frozenset(
    {
        EntityType.PERSON,
        EntityType.ADDRESS,
        EntityType.PHONE,
        EntityType.EMAIL,
        EntityType.URL,
        EntityType.IP,
        EntityType.SSN,
        EntityType.CREDIT_CARD,
        EntityType.IBAN,
        EntityType.ACCOUNT,
        EntityType.MRN,
        EntityType.ID,
        EntityType.OTHER,
    }
)
_QUASI_KIND = {
    EntityType.AGE: "age",
    EntityType.DATE: "date of an event",
    EntityType.LOCATION: "place",
    EntityType.NRP: "nationality or group",
    EntityType.ORG: "organisation",
}
_BIRTH = re.compile(
    r"\b(?:born(?:\s+(?:on|in))?|birth|dob|d\.o\.b|b\.|birthday|date of birth|geboren|né|née)\W{0,12}$"
    # The same in the locales' languages (core.locales).
    r"|\b(?:geb\.|geburtsdatum|geboren\s+(?:am|op)|née?\s+le|date de naissance|"
    r"nacid[oa]\s+el|fecha de nacimiento|geboortedatum)\W{0,12}$"
    # A birth told by who gave it ("she gave birth on", "a accouché le", "dio a luz el",
    # "hat am ... entbunden" is too far apart to read; "is bevallen op")
    r"|\b(?:gave\s+birth(?:\s+on)?|(?:a|avait)\s+accouché\s+le|accouchement\s+(?:le|du)|"
    r"(?:dio|ha\s+dado)\s+a\s+luz\s+el|parto\s+(?:el|del)|entbindung\s+am|"
    r"(?:is|ben)\s+bevallen\s+op|bevalling\s+op)\W{0,12}$"
    # A birthday's day: "turns 90 on (the 23rd)", "her bday is (the 4th)".
    r"|\b(?:turn(?:s|ed|ing)?\s+\d{1,3}\s+on|(?:birthday|bday|b-day)\s+is(?:\s+on)?)\s+$"
    # The same in the locales' languages: "cumple 50 el", "fête ses 40 ans le", "jarig op",
    # "Geburtstag ist am".
    r"|\b(?:cumple(?:\s+\d{1,3}(?:\s+años)?)?\s+el|cumpleaños\s+(?:es\s+)?el|"
    r"fête\s+ses\s+\d{1,3}\s+ans\s+le|anniversaire\s+(?:est\s+)?le|(?:is\s+)?jarig\s+op|"
    r"verjaardag\s+(?:is\s+)?op|geburtstag\s+(?:ist\s+)?am)\s+$",
    re.IGNORECASE,
)
#: "oma wird am 14. januar 90": the day someone becomes an age is a birthday.
_BECOMES_ON = re.compile(r"\b(?:wird|werde|wirst|wordt|word)\s+(?:am|op)\s+$", re.IGNORECASE)
_AGE_AFTER = re.compile(r"\.?\s+\d{1,3}\b(?![.,:]\d|\s*(?:uhr|%|€|euro|h\b))", re.IGNORECASE)
_MONTHS = (
    r"(?:(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
    rf"|{month_names()}(?![a-z]))"
)
#: A date with its day, month and year: "03/02/2024", "2024-03-02", "12 July 2024", "January 12, 2025".
_FULL_DATE = re.compile(
    rf"\b\d{{1,2}}[/.\-]\d{{1,2}}[/.\-](?:\d{{4}}|\d{{2}})\b|\b\d{{4}}-\d{{1,2}}-\d{{1,2}}\b"
    rf"|\b\d{{1,2}}(?:st|nd|rd|th|er|\.)?\s+(?:of\s+|de\s+)?{_MONTHS},?\s+(?:de\s+)?\d{{4}}\b"
    rf"|\b{_MONTHS}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}\b",
    re.IGNORECASE,
)
_TITLE_BEFORE = re.compile(
    r"\b(?:mr|mrs|ms|miss|mx|dr|prof|sir|madam|dame"
    # the four other languages' titles and a teacher's ("juf wendy", "señora Zara")
    r"|herr|frau|hr|fr|monsieur|madame|mme|mlle|docteur|señor|señora|sr|sra|srta|doña|dña|"
    r"doctora|dokter|meneer|mevrouw|mevr|dhr|juf|meester|maîtresse|maitresse|profe|seño)\.?\s*$",
    re.IGNORECASE,
)
#: Words a person is addressed or spoken of with, right before the name: "Ask Dell",
#: "Thanks, Ford", "my colleague Sage" (a company is called, e-mailed and paid, rarely
#: thanked or asked by its name).
_ADDRESSED_BEFORE = re.compile(
    r"\b(?:ask|asked|tell|told|thank|thanks|dear|hi|hello|hey|remind|invite|congratulate|"
    # "me and baby Zara": a newborn named by the word for one
    r"cc|baby|newborn|(?:my|our|his|her|their)\s+(?:friend|colleague|boss|manager|neighbou?r|husband|wife|"
    r"partner|son|daughter|brother|sister|mum|mom|dad|cousin|uncle|aunt|nephew|niece|teacher|"
    r"tutor|coach|client|patient|tenant|landlord|landlady|flatmate|roommate|girlfriend|"
    r"boyfriend|fiancée?|twins|kids|children|sons|daughters|grandchildren|grandson|"
    r"granddaughter|baby|nanny|childminder)"
    # "our twins, Arlo and Maeve": the second name of a pair named after the relation too.
    r"(?:,?\s+[A-Z][a-z]+\s+(?:and|&))?)[,:]?\s+$",
    re.IGNORECASE,
)
#: A name given as someone's: "a client named", "her name is", "called".
_NAMED_BEFORE = re.compile(r"\b(?:named|called|name\s+is|name's|names\s+are)[,:]?\s+$", re.IGNORECASE)
#: Organisations whose name says they are public: universities, agencies, courts.
_PUBLIC_ORG = re.compile(
    r"\b(?:university|universit[äéà]t?|college|institute of technology|polytechnic|"
    r"ministry|department of|agency|commission|parliament|senate|congress|court|tribunal|"
    r"council|embassy|consulate|bureau|federal|united nations|airport|museum|gallery|"
    r"stadium|cathedral|national park|railway station|zoo|ombudsman|regulator|police|"
    r"constabulary)\b"
    r"|^(?:MIT|UCLA|NYU|LSE|UCL|ETH|EPFL|KTH|CERN|NASA|WHO|UNESCO|UNICEF|OECD|IMF)$",
    re.IGNORECASE,
)
#: "Georgia Tech", "Virginia Tech": a state or country and "Tech" is a university.
_PLACE_TECH = re.compile(r"^(.+?)\s+Tech$")
_OF_PLACE = re.compile(r"\bof\s+(?:the\s+)?([A-Z][\w .'-]+)$")
#: Where a patient is treated or a child goes to school is never public here.
#: A name, then "Court": a block of homes or a court of law (:meth:`TypePolicy._building_court`).
_BUILDING_COURT = re.compile(r"([A-Z][a-z'’]+)[ \t]+Court")
#: The words before "Court" that make it a court of law.
_LAW_COURT_WORDS = frozenset(
    "county crown high supreme family magistrates magistrates' coroner's coroners youth district "
    "circuit federal appeals appellate superior probate juvenile traffic housing employment civil "
    "criminal royal sheriff municipal tax land commercial admiralty chancery".split()
)
_PRIVATE_ORG = re.compile(
    r"\b(?:hospital|clinic|surgery|medical|health\s*cent(?:re|er)|pharmacy|dental|"
    r"practice|pediatrics|paediatrics|hospice|care home|nursing home|urgent care|"
    r"elementary|primary|high school|middle school|secondary|kindergarten|nursery|"
    r"preschool|daycare|sixth form|academy|ltd|llc|llp|gmbh|partners)\b"
    # A college named after a saint is a secondary school in Ireland, Britain and
    # Australia ("St. Brendan's College", "Saint Ignatius' College").
    r"|\b(?:st\.?|saint)[ \t]+[a-z]+['’]s?[ \t]+college\b",
    re.IGNORECASE,
)
_PUBLIC_KINDS_BY_TYPE = {
    EntityType.ORG: {
        "company", "company-word", "brand", "org", "country", "region", "place", "drug"
    },
    EntityType.LOCATION: {"country", "region"},
    EntityType.NRP: {"country", "region", "org"},
    EntityType.OTHER: {"company", "company-word", "brand", "org", "country", "drug"},
    # A brand, or a brand's product, the model read as a code ("WordPress", "Garmin Forerunner 265").
    EntityType.ID: {"company", "brand"},
    # A name the model typed as a person is public only when the lexicon knows
    # it as a company or brand and nothing around it says person (see decide).
    EntityType.PERSON: {"company", "brand"},
}
_COUNTRY_KINDS = frozenset({"country", "region"})
_COURT = "the person's court"
#: "who delivered our twins, Elsie and Arthur, on": a birth told by who delivered the baby.
_DELIVERED = re.compile(r"\bdelivered\b[^.!?\n]{0,48}\bon\s*$", re.IGNORECASE)
_NEWBORN = re.compile(r"\b(?:midwi(?:fe|ves)|baby|babies|twins|triplets|newborn|labour|labor)\b", re.IGNORECASE)
#: Twelve or more letters, digits and joiners with a letter and a digit: a key, a token or a
#: serial number.
_KEY_SHAPE = re.compile(r"(?<![\w-])(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[\w-]{12,}")
#: Direct types the model sometimes gives a place or an organisation ("Barclays" read
#: as a person): a relation before a public name of these types still says whose it is.
_RELATABLE = frozenset({EntityType.OTHER, EntityType.PERSON})
#: Kinds that only a norm names, and the level's kind they otherwise are.
_BASE_KIND = {"card expiry date": "date of an event", "special category": "nationality or group"}


#: A date that names a day or a month, not only a year or a weekday (Safe Harbor keeps
#: the year; "since Tuesday" names no date).
_DAY_OR_MONTH = re.compile(
    rf"\b{_MONTHS}(?![a-z])|\b\d{{1,2}}\s*[/.\-]\s*\d{{1,2}}\b|\b\d{{1,2}}(?:st|nd|rd|th)\b",
    re.IGNORECASE,
)


_SWEEP_SCORE = 0.9
#: One capitalized word, whole ("Getafe"), and the end of a sentence or a line before one.
_CAPITAL_WORD = re.compile(r"(?<![\w'’.\-])[A-Z][a-zà-ÿ]{3,}(?![\w'’\-])")
_SENTENCE_START = re.compile(r"(?:[.!?:;]|\n)[\s\"'“(]*$|^\s*$")
#: A word rarer than this in English (Zipf scale) is read as a town's name wherever it
#: stands capitalized, when the gazetteer knows it as one ("Getafe", "Bromsgrove").
_RARE_TOWN_ZIPF = 2.5
_SWEEP_WORD = re.compile(r"[^\W\d_][\w'’.-]*[^\W_]|[^\W\d_]")
_DAY = r"(?:0?[1-9]|[12]\d|3[01])"
_MONTH_WORD = (
    r"(?:january|february|march|april|may|june|july|august|september|october|november|"
    r"december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)"
)
#: Dates with a day and a month (Safe Harbor; strict, so "2.1" or "maybe 2" is none).
_SWEEP_DATE = re.compile(
    rf"\b(?:0?[1-9]|1[0-2])/{_DAY}(?:/(?:19|20)?\d\d)?\b"
    rf"|\b{_DAY}/(?:0?[1-9]|1[0-2])/(?:19|20)\d\d\b"
    # "may 2 times a day" is no date: before a day, May counts only capitalised.
    rf"|\b(?!may\b){_MONTH_WORD}\.?\s+{_DAY}(?:st|nd|rd|th)?\b(?!\s*(?:mg|ml|%|°))"
    rf"|\b(?-i:May)\s+{_DAY}(?:st|nd|rd|th)?\b"
    rf"|\b{_DAY}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH_WORD}\b"
    # a month and its year: "since February 2026" (the month is a date's element too;
    # "may 2026" only capitalised)
    rf"|\b(?!may\b){_MONTH_WORD}\.?,?\s+(?:19|20)\d\d\b|\b(?-i:May)\s+(?:19|20)\d\d\b",
    re.IGNORECASE,
)

#: Words before a score written with a slash ("pain 7/10", "MRC power 4/5", "rated 3/10").
_SCORE_BEFORE = re.compile(
    r"\b(?:pain|score[ds]?|rated|rating|scale|severity|vas|nrs|grade[ds]?|power|strength|mrc|gcs|"
    r"apgar|intensity|out[ \t]+of)[ \t]*(?:of|is|was|at|=|:)?[ \t]*$",
    re.IGNORECASE,
)
#: A day and a month the British way, after a word that says a date follows ("Review 18/11",
#: "seen on 3/2", "discharged 28/10"): no score out of ten ("pain 7/10"), no weeks of a
#: year ("6/52").
_SWEEP_SHORT_DATE = re.compile(
    r"\b(?:review(?:ed)?|seen|on|from|until|till|by|due|appt|appointment|booked|discharged|"
    r"admitted|since|clinic|follow[- ]?up|f/u|op|surgery|scan|bloods)[ \t]+(?:on[ \t]+)?"
    rf"({_DAY}/(?:0?[1-9]|1[0-2]))(?![/\d])",
    re.IGNORECASE,
)


#: A town typed in lower case in another language is no word of it this frequent (Zipf):
#: "vénissieux" 2.8, "badalona" 3.1, "almere" 4.2; "vida" 6.0, "gauche" 5.3.
TOWN_WORD_ZIPF = 4.4
#: A word after a place's preposition this rare in the language and in English is a
#: village's name in a health message ("hallum" 2.5, "hittfeld" 2.1, "dirksland" 2.7).
VILLAGE_ZIPF = 2.8
#: The prepositions of :attr:`Locale.town_before` that stand before places far more than
#: before anything else ("de" is "of", "bij" and "bei" "with", "nach" "after", "te" an
#: infinitive's: "bij stuitligging", "op te hogen").
_ONLY_PLACE = frozenset({"in", "aus", "uit", "à", "a", "en", "près de", "cerca de"})
#: The four languages' named conditions, no village's name.
_OTHER_DIAGNOSES = frozenset(other_languages.DIAGNOSES)
#: A place's or a doctor's word and "de" before a village's name, in Spanish and French.
_KIND_DE = re.compile(
    r"(?<![\w-])(?i:m[eé]dico|m[eé]dica|hospital|h[oô]pital|centro de salud|consultorio|ambulatorio|"
    r"residencia|ayuntamiento|pueblo|farmacia|pharmacie|cl[ií]nica|clinique|mairie|m[eé]decin|"
    r"village|commune|ehpad)[ \t]+de[ \t]+(?=[^\W\d_])"
)
#: One word, hyphens inside it ("saint-gildas-des-bois").
_VILLAGE_WORD = re.compile(r"[^\W\d_][\w'’]*(?:-[^\W\d_][\w'’]*)*(?![\w'’-])")
#: A word this frequent in a message's language is one of its function words ("haar",
#: "der"), never a town's or a person's name alone, whatever a gazetteer holds.
_FUNCTION_WORD_ZIPF = 6.0


@functools.cache
def _town_before(words: tuple[str, ...]) -> re.Pattern[str]:
    """Where a word starts right after one of ``words`` (an elided "d'" takes no space)."""
    alts = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    return re.compile(rf"(?<![\w'’])(?:{alts})(?:(?<=['’])|[ \t]+)(?=[^\W\d_])", re.IGNORECASE)


def merge_swept(spans: Sequence[Span], swept: Sequence[Span]) -> list[Span]:
    """The detected spans and the swept ones, without a detected span inside a swept one."""
    if not swept:
        return list(spans)
    inside = bytearray(max([s.end for s in swept] + [s.end for s in spans]) + 1)
    for w in swept:
        inside[w.start : w.end] = b"\x01" * (w.end - w.start)
    kept = [s for s in spans if not all(inside[s.start : s.end])]
    return sorted([*kept, *swept], key=lambda s: (s.start, s.end))


def _stricter(a: Decision, b: Decision) -> Decision:
    """Of two readings of one value, the one protecting from the lower level (``a`` on a tie)."""
    assert a.threshold is not None and b.threshold is not None
    return b if b.threshold < a.threshold else a


def _year(value: str) -> str | None:
    """The year of a date, which Safe Harbor lets leave ("March 2019" -> "2019")."""
    m = re.search(r"\b(1[89]\d\d|20\d\d)\b", value)
    return m.group(1) if m else None


class TypePolicy:
    """Decides, value by value, what leaves in clear at a given risk level."""

    def __init__(
        self,
        lexicon: Lexicon | None = None,
        thresholds: Mapping[str, float] | None = None,
        public_max: float = PUBLIC_MAX,
    ) -> None:
        self._lexicon = lexicon
        self.thresholds = {**QUASI_THRESHOLDS, **(thresholds or {})}
        self.public_max = public_max

    @cached_property
    def lexicon(self) -> Lexicon:
        """The word lists that say which names are public (the shipped ones unless given)."""
        from core.lexicon import lexicon

        return self._lexicon if self._lexicon is not None else lexicon()

    def decide(
        self, text: str, span: Span, risk_lambda: float, profile: Profile = Profile.GENERAL
    ) -> Decision:
        """The decision for ``text[span.start:span.end]`` at ``risk_lambda``.

        ``profile`` is the kind of message (already resolved, never ``auto``):
        its norm (:data:`NORMS`) can protect a kind from a lower level.
        """
        value = text[span.start : span.end]
        if "deny-list" in span.views:
            return Decision(True, Family.DIRECT, "on your always-private list", None)
        if (
            span.type is EntityType.LOCATION
            and (
                RECORD in span.views
                or _contact_line(text, span)
                or _home_of_contact(text, span)
                or _HOUSE_AND_STREET_BEFORE.search(text, max(0, span.start - 60), span.start) is not None
            )
            and not self._country_or_state(value)
        ):
            # "City: Leeds" in a form, the city column of a table of people: where a
            # person of the record lives or was born, a part of their address.
            return Decision(True, Family.DIRECT, "a town in a person's record or contact line", None)
        if self._addressed_by_name(text, span, value):
            # "Thanks, Ford.", "Ask Dell about it": a person addressed by a name that is
            # also a brand's or a place's is a person (a company is rarely thanked by name).
            return Decision(True, Family.DIRECT, "a person's name (addressed by it)", None)
        if self._public_figure(text, span, value, profile):
            return Decision(risk_lambda >= self.public_max, Family.PUBLIC, "public figure", self.public_max)
        norm = NORMS.get(profile)
        public = self._public_kind(text, span, value)
        rel = None if span.type in _DIRECT - _RELATABLE else relation(text, span.start)
        if (
            rel is not None
            and rel.kind == _COURT
            and self.lexicon.public_kind(value) in ("company", "company-word", "brand")
        ):
            # "a claim letter to Aviva": a company is no court; the claim is an insurance one.
            rel = None
        if public is not None and public != "public drug name" and not self._country_or_state(value):
            if rel is not None:
                d = self._quasi(rel.kind, value, span.type, risk_lambda, profile, f"named after “{rel.cue}”")
                if span.type is EntityType.LOCATION or self.lexicon.public_kind(value) in ("place", "region"):
                    # A town is a place too: the stricter of the two rules applies.
                    d = _stricter(d, self._quasi("place", value, EntityType.LOCATION, risk_lambda, profile))
                return d
            if span.type is not EntityType.LOCATION and (
                (public != _PRODUCT_KIND and affiliation(text, span.start))  # no one works in "Sage 50"
                # "She's 16 and goes to St Bede's Catholic College": a school someone attends.
                or (_SCHOOL_WORD.search(value) is not None and _ATTENDS.search(text, max(0, span.start - 24), span.start) is not None)
                # "Teamleiterin bei der Sparkasse Hannover": where someone is employed, in
                # the words of the other languages, whatever the lexicon made of the name.
                or employed_at(text, span.start)
            ):
                return self._quasi(
                    "employer or school", value, span.type, risk_lambda, profile,
                    "named as where someone works or studies",
                )
        if public is not None and not (
            profile is Profile.HEALTH and self._smaller_than_a_state(span.type, value)
        ):
            return Decision(risk_lambda >= self.public_max, Family.PUBLIC, public, self.public_max)
        if span.type is EntityType.AGE and _age(value) >= 90:
            return Decision(True, Family.DIRECT, "age of 90 or over", None)
        if span.type is EntityType.DATE and (
            _BIRTH.search(text[max(0, span.start - 24) : span.start])
            or (
                _BECOMES_ON.search(text, max(0, span.start - 12), span.start)
                and _AGE_AFTER.match(text, span.end)
            )
            or (
                _DELIVERED.search(text, max(0, span.start - 60), span.start)
                and _NEWBORN.search(text) is not None
            )
        ):
            return Decision(True, Family.DIRECT, "date of birth", None)
        if (
            span.type is EntityType.DATE
            and card_expiry(text, span.start)
            and _CARD_NUMBER.search(text)
        ):
            # With the card's number in the same text, its expiry completes the card
            # (PCI DSS cardholder data), whatever kind of message it is.
            return Decision(True, Family.DIRECT, "card expiry date, with the card's number", None)
        if span.type is EntityType.DATE and _FULL_DATE.search(value):
            # Day, month and year pin an event to one day of one person's life
            # (HIPAA counts every such date tied to a person); "1 October" does not.
            return Decision(True, Family.DIRECT, "exact date (day, month and year)", None)
        if public is not None:  # a city or county the gazetteer knows, under Safe Harbor
            return self._quasi("place", value, EntityType.LOCATION, risk_lambda, profile)
        kind = _QUASI_KIND.get(span.type)
        if span.type is EntityType.ORG and _ACRONYM.fullmatch(value):
            kind = "acronym"
        if span.type is EntityType.OTHER and JOB_TITLE.search(value) and len(value.split()) <= 5:
            # A job names a role many people hold; with an employer it narrows.
            kind = "job title"
        if (
            kind == "nationality or group"
            and norm is not None
            and "special category" in norm.thresholds
            and special_category(value)
        ):
            # GDPR Art. 9(1): a religion, an origin, a political view (not a nationality).
            kind = "special category"
        if FLIGHT.fullmatch(value) and flight_context(text, span.start):
            # A flight identifies a plane full of people; with a date, a few hundred.
            kind = "flight number"
        if (
            span.type is EntityType.DATE
            and norm is not None
            and "card expiry date" in norm.thresholds
            and card_expiry(text, span.start)
        ):
            kind = "card expiry date"
        if kind is None or (span.type in _DIRECT and kind not in ("flight number", "job title")):
            return Decision(True, Family.DIRECT, DESCRIPTIONS.get(span.type, "private detail"), None)
        decision = self._quasi(kind, value, span.type, risk_lambda, profile)
        if rel is not None and kind in ("organisation", "place", "acronym"):
            related = self._quasi(rel.kind, value, span.type, risk_lambda, profile, f"named after “{rel.cue}”")
            decision = _stricter(related, decision)
        return decision

    def _quasi(
        self,
        kind: str,
        value: str,
        t: EntityType,
        risk_lambda: float,
        profile: Profile,
        why: str | None = None,
    ) -> Decision:
        """A quasi-identifier's decision: its level's threshold, or the profile's norm."""
        base = self.thresholds[_BASE_KIND.get(kind, kind)]
        norm = NORMS.get(profile)
        ruled = norm.thresholds.get(kind) if norm is not None else None
        shown = kind
        if profile is Profile.HEALTH and ruled is not None:
            # Safe Harbor lets a state stay, and a date's year.
            if kind == "place":
                if state_level(value):
                    ruled = None
                else:
                    shown = "town or place smaller than a state"
            elif kind == "date of an event":
                if _DAY_OR_MONTH.search(value) is None:
                    ruled = None
                else:
                    shown = "date tied to a person (day or month)"
        threshold = base if ruled is None else min(base, ruled)
        protect = risk_lambda >= threshold
        by_norm = norm is not None and ruled is not None and protect and risk_lambda < base
        if by_norm:
            assert norm is not None
            coarse = _year(value) if t is EntityType.DATE else None
            return Decision(True, Family.QUASI, shown, threshold, coarse, why, f"{norm.name} ({profile} profile)")
        coarse = generalize(t, value) if protect and risk_lambda < GENERALIZE_UNTIL else None
        return Decision(protect, Family.QUASI, shown, threshold, coarse, why)

    def _country_or_state(self, value: str) -> bool:
        """A country or a state: never the person's own place ("our bank in France")."""
        return self.lexicon.public_kind(value) == "country" or state_level(value)

    def _smaller_than_a_state(self, t: EntityType, value: str) -> bool:
        """A public place that Safe Harbor still protects: a city, a county, not a state."""
        if t not in (EntityType.LOCATION, EntityType.ORG, EntityType.OTHER):
            return False
        return self.lexicon.public_kind(value) in ("place", "region") and not state_level(value)

    def sweep(
        self, text: str, spans: Sequence[Span], profile: Profile, language: str = "en"
    ) -> list[Span]:
        """Values the profile's norm names that the detector left out, as spans to decide.

        Only the health profile has any: HIPAA Safe Harbor names every date with a
        day or a month and every place smaller than a state, and a detector trained
        on names misses "since 13 march" or "in cape town" written in lower case.
        The sweep reads strict date patterns and gazetteer towns right after "in",
        "from", "near"... (never where a detected span already is, but over a date
        the detector cut short, which the caller then drops: :func:`merge_swept`);
        the policy decides them like any other value. In another language the words
        its locale says a town follows count too (``Locale.town_before``: "a vénissieux",
        "la residencia de alcoy"), the town's frequency read in that language. Linear in
        the text.
        """
        if profile is not Profile.HEALTH:
            return []
        taken = bytearray(len(text) + 1)
        # A detected date cut short ("13" of "since 13 march") may be swept whole: the
        # caller drops a detected span that lies inside a swept one.
        cut: dict[int, Span] = {}
        for s in spans:
            if s.type is EntityType.DATE:
                for i in range(s.start, s.end):
                    cut[i] = s
            else:
                taken[s.start : s.end] = b"\x01" * (s.end - s.start)
        out: list[Span] = []

        def add(a: int, b: int, t: EntityType) -> None:
            inside = {id(cut[i]): cut[i] for i in range(a, b) if i in cut}.values()
            if any(taken[a:b]) or any(s.start < a or s.end > b for s in inside):
                return
            if any(s.start == a and s.end == b for s in inside):
                return  # found whole already
            if t is not EntityType.DATE and inside:
                return
            taken[a:b] = b"\x01" * (b - a)
            out.append(Span(a, b, t, _SWEEP_SCORE, {"safe-harbor": _SWEEP_SCORE}))

        for m in _SWEEP_DATE.finditer(text):
            if "/" in m.group() and _SCORE_BEFORE.search(text, max(0, m.start() - 24), m.start()):
                continue  # "pain 7/10", "power 4/5": a score, no date
            add(m.start(), m.end(), EntityType.DATE)
        for m in _SWEEP_SHORT_DATE.finditer(text):
            add(m.start(1), m.end(1), EntityType.DATE)
        def towns_at(starts: Iterable[int], is_town: Callable[[str], bool]) -> None:
            # The longest of the next three words that is a town, from each start.
            for start in starts:
                words = [w for w in _SWEEP_WORD.finditer(text, start, min(len(text), start + 60))][:3]
                if not words or words[0].start() != start:
                    continue
                for n in (3, 2, 1):
                    if len(words) >= n and is_town(text[start : words[n - 1].end()]):
                        add(start, words[n - 1].end(), EntityType.LOCATION)
                        break

        lc = locale(language) if language != "en" else None
        # (in another language, none of its most frequent words: "in haar tabletten" is "her")
        towns_at(
            after_locatives(text),
            self._town
            if lc is None
            else (lambda value: self._town(value) and lc.zipf(value.split()[0].casefold()) < _FUNCTION_WORD_ZIPF),
        )
        if lc is not None and lc.town_before:
            starts = (m.end() for m in _town_before(tuple(lc.town_before)).finditer(text))
            towns_at(starts, lambda value: self._town_in(value, lc))
            # A village no gazetteer holds after a place's preposition ("woont nog in hallum",
            # "im seniorenstift in hittfeld"): one word neither the language nor English
            # writes, no term, no drug (a preposition that also means "of" is left out).
            places = tuple(w for w in lc.town_before if w in _ONLY_PLACE)
            # ... and after "de" where a place's or a doctor's word comes before it ("el medico
            # de cantavieja", "l'hôpital de paimpol"): "de" is "of" everywhere else.
            befores = [*(_town_before(places).finditer(text) if places else ()), *_KIND_DE.finditer(text)]
            for m in befores:
                word = _VILLAGE_WORD.match(text, m.end())
                if (
                    word is not None
                    # (French "a" is "has" as often: only a name with its capital or hyphens)
                    and (m.group().strip().casefold() != "a" or "-" in word.group() or word.group().istitle())
                    and self._village_in(word.group(), lc)
                ):
                    add(word.start(), word.end(), EntityType.LOCATION)
        # A rare town's name with its capital anywhere inside a sentence ("en la obra de
        # Getafe", "the Bromsgrove clinic"): no word of the language, no one's name.
        for m in _CAPITAL_WORD.finditer(text):
            value = m.group()
            if (
                _SENTENCE_START.search(text, max(0, m.start() - 4), m.start()) is None
                and m.start() > 0
                and self.lexicon.zipf(value) < _RARE_TOWN_ZIPF
                and not (self.lexicon.is_given(value) or self.lexicon.is_surname(value))
                and self._town(value)
            ):
                add(m.start(), m.end(), EntityType.LOCATION)
        return sorted(out, key=lambda s: s.start)

    def _town(self, value: str) -> bool:
        """A gazetteer place smaller than a state (a common word only when capitalised)."""
        first = value.split()[0]
        if len(value) < 4 or not_a_place(first) or state_level(value):
            return False
        if self.lexicon.public_kind(value) not in ("place", "region") and not (
            # a town people carry the name of ("in lindau"), where a town stands
            self.lexicon.is_named_town(value) and not self.lexicon.is_given(first)
        ):
            return False
        # "in reading", "in light of": a frequent word is no town unless capitalised.
        limit = 5.5 if value[:1].isupper() else 4.5
        return self.lexicon.zipf(first) < limit

    def _village_in(self, word: str, lc: Locale) -> bool:
        """A word after a place's preposition in ``lc``'s language that can only be a small
        place's name: rare in the language and in English, no negative word of the
        language, no term, drug or adjective."""
        folded = word.casefold()
        return (
            len(word) >= 4
            and (word.islower() or word.istitle())
            and lc.zipf(folded) < VILLAGE_ZIPF
            and self.lexicon.zipf(folded) < VILLAGE_ZIPF
            and not lc.is_negative(word)
            and not self.lexicon.is_term(word)
            and self.lexicon.public_kind(word) in (None, "place")
            and not folded.endswith(lc.describing_endings)
            and folded not in _OTHER_DIAGNOSES
        )

    def _town_in(self, value: str, lc: Locale) -> bool:
        """A gazetteer place smaller than a state in a message of ``lc``'s language: no
        word of that language (a common one only when capitalised, "a lyon" is missed)."""
        first = value.split()[0]
        if len(value) < 4 or not_a_place(first) or state_level(value) or lc.is_negative(first):
            return False
        if self.lexicon.public_kind(value) not in ("place", "region") and not (
            self.lexicon.is_named_town(value) and not self.lexicon.is_given(first)
        ):
            return False
        limit = 5.5 if value[:1].isupper() else TOWN_WORD_ZIPF
        return lc.zipf(first.casefold()) < limit

    def decide_all(
        self,
        text: str,
        spans: Sequence[Span],
        risk_lambda: float,
        profile: Profile = Profile.GENERAL,
    ) -> list[Decision]:
        """Decisions for every span; a value protected once is protected everywhere."""
        decisions = [self.decide(text, s, risk_lambda, profile) for s in spans]
        protected: set[str] = set()
        for s, d in zip(spans, decisions, strict=True):
            if d.protect:
                value = _bare_name(text[s.start : s.end])
                protected.add(value)
                if s.type is EntityType.PERSON:
                    # "Mr. Ford" protects a later bare "Ford" (the box links them too).
                    protected.update(p for p in value.split() if len(p) >= 3)
        out = []
        for s, d in zip(spans, decisions, strict=True):
            if not d.protect and _bare_name(text[s.start : s.end]) in protected:
                d = replace(d, protect=True, kind=f"{d.kind}, protected elsewhere in this text", generalized=None)
            out.append(d)
        return out

    def _addressed_by_name(self, text: str, span: Span, value: str) -> bool:
        """A name people carry (the lexicon's given names and surnames) right after a word
        a person is addressed or spoken of with (:data:`_ADDRESSED_BEFORE`)."""
        words = value.split()
        return (
            span.type in (EntityType.PERSON, EntityType.ORG, EntityType.LOCATION)
            and 1 <= len(words) <= 2
            and all(w[:1].isupper() for w in words)
            and bool(_ADDRESSED_BEFORE.search(text, max(0, span.start - 32), span.start))
            and all(self.lexicon.is_given(w) or self.lexicon.is_surname(w) for w in words)
            and self.lexicon.public_kind(value) not in ("country", "region")
        )

    def _public_figure(self, text: str, span: Span, value: str, profile: Profile) -> bool:
        """A person in public life named by their full name, with nothing that makes them
        someone the writer deals with: "What did Keir Starmer say about ...".

        A name with a title, addressed or related to the writer ("Dr.", "Dear", "my
        neighbour", "named"), near an e-mail address, a phone number or a postcode, or in
        a health message (under Safe Harbor a name is the patient's) stays protected:
        a private person may share a public figure's name.
        """
        if span.type not in (EntityType.PERSON, EntityType.ORG, EntityType.OTHER):
            return False
        if profile is Profile.HEALTH or not self.lexicon.is_public_person(value):
            return False
        before = text[max(0, span.start - 32) : span.start]
        return not (
            _TITLE_BEFORE.search(before[-12:])
            or _ADDRESSED_BEFORE.search(before)
            or _NAMED_BEFORE.search(before)
            # A contact detail near the name (a message of one line holds the writer's own).
            or _gives_contact_or_postcode(text[max(0, span.start - 40) : span.end + 40])
        )

    def _building_court(self, value: str) -> bool:
        """A block of flats or houses named "Court" ("Flat 9, Larchfield Court"): one word
        before "Court" that is no place and no kind of court of law ("Crown Court",
        "Leeds Combined Court" are courts)."""
        m = _BUILDING_COURT.fullmatch(value.strip())
        return (
            m is not None
            and m.group(1).casefold() not in _LAW_COURT_WORDS
            and self.lexicon.public_kind(m.group(1)) is None
        )

    def _public_kind(self, text: str, span: Span, value: str) -> str | None:
        site = site_label(value)
        if (
            site is not None
            # (a site's name the model typed as an e-mail address has no "@": "BestBuy.com")
            and (
                span.type in (EntityType.URL, EntityType.ORG, EntityType.ID)
                or (span.type is EntityType.EMAIL and "@" not in value)
            )
            # "smith.com", "grace.dev": a site named like a person may be that person's
            and not self.lexicon.is_given(site)
            and not self.lexicon.is_surname(site)
            and (
                self.lexicon.public_kind(value) in _SITE_KINDS
                or self.lexicon.public_kind(site) in _SITE_KINDS
            )
        ):
            # "Booking.com", "Amazon.co.uk", "bol.com": a public company's site, no path
            # (a page below it may be someone's: "linkedin.com/in/...").
            return "public company's website"
        if (
            span.type in MODEL_TYPES
            and not (span.type is EntityType.ADDRESS and _POSTCODE_AFTER.match(text, span.end))
            and product_model(text, span, self.lexicon)
        ):
            # "iPhone 15 Pro" ("15 Pro" found), "FRITZ!Box 7590" (read as an address),
            # "Bosch Serie 4 (SMS4HTI45G)": a product's model, which thousands own.
            return _PRODUCT_KIND
        allowed = _PUBLIC_KINDS_BY_TYPE.get(span.type)
        if allowed is None:
            return None
        kind = self.lexicon.public_kind(value)
        if span.type is EntityType.PERSON:
            if _person_context(text, span) or NICKNAME in span.views:
                return None
            if kind in allowed:
                return f"public {kind}"
            # A brand's model with its number ("Trek Domane SL 6"); "Ford Focus" stays
            # a possible name.
            first = value.split()[0]
            if (
                " " in value
                and any(c.isdigit() for c in value)
                and not _PARTNERS.search(value)
                and _PRODUCT.fullmatch(value)
                and not _BRANCH.search(value.split(None, 1)[1])
                and self.lexicon.public_kind(first) in {"company", "brand"}
            ):
                return _PRODUCT_KIND
            return None
        if kind in allowed:
            if kind in ("place", "region") and _CLIENT_AFTER.match(text, span.end):
                # "the Harrison account", "the Kendal job": a client or a project named
                # like a town is someone's, never the public place.
                return None
            if span.type is EntityType.LOCATION and kind in _COUNTRY_KINDS:
                return "country or region"
            return f"public {_KIND_NAMES.get(kind, kind)}"
        # A product of a public brand: "Adobe Creative Cloud", "Toyota RAV4".
        head = value.split()[0] if " " in value else None
        if (
            head
            and not _PRIVATE_ORG.search(value)
            and not _PARTNERS.search(value)
            and _PRODUCT.fullmatch(value)
            and not _BRANCH.search(value.split(None, 1)[1])
            # A code after the brand is its number, not a model's name ("Delta DL1842").
            and (span.type is not EntityType.ID or re.search(r"\s[A-Za-z]{3,}", value))
            # A long run of letters and digits is a key or a serial, no model's name
            # ("Stripe key sk_live_51Hq8ZyKJ2rX9"; "WH-1000XM5" is a model).
            and not _KEY_SHAPE.search(value)
            and self.lexicon.public_kind(head) in {"company", "company-word", "brand"}
        ):
            rest = value.split(None, 1)[1]
            if _SHOP_ON.match(rest):
                # "Etsy shop Little Loom Knits", "eBay store ...", "YouTube channel ...": a
                # shop or a page someone runs on the brand's platform, theirs, no product.
                return None
            if self.lexicon.public_kind(rest) == "place" or (
                # "PureGym Leeds Kirkstall": a town and its district after the brand.
                " " in rest and self.lexicon.public_kind(rest.split()[0]) in ("place", "region")
            ):
                # "Ray White Carlton", "Sparkasse Hannover": a brand and its town is a
                # branch, an organisation a person banks or works at; protected as one
                # (a brand and its state or region, "AOK Bayern", is the brand's own).
                return None
            if ORG_WORDS.search(rest) or _COMPANY_TAIL.search(rest):
                # "Allianz Travel", "Ocado Technology": an organisation's word after the
                # brand names the company's arm, public as a subject, an employer where
                # someone works there (the caller's affiliation rule); no product.
                return "public company"
            return _PRODUCT_KIND
        if span.type is EntityType.ORG and well_known_provider(value):
            return "public health institution"
        if span.type in (EntityType.ORG, EntityType.OTHER) and not _PRIVATE_ORG.search(value):
            # (An institution a model typed OTHER is judged as one: "the Natural History
            # Museum" of a school trip.)
            if _PUBLIC_ORG.search(value) and not self._building_court(value):
                return "public institution"
            tech = _PLACE_TECH.match(value)
            if tech and self.lexicon.public_kind(tech.group(1)) in _COUNTRY_KINDS | {"place"}:
                return "public institution"
            of = _OF_PLACE.search(value)
            if of and self.lexicon.public_kind(of.group(1)) in _COUNTRY_KINDS:
                # "State Bank of India", "University of Toronto", "Government of Canada".
                return "public institution"
            parts = value.split("-")
            if len(parts) == 2 and all(
                self.lexicon.public_kind(p) in _COUNTRY_KINDS | {"place"} for p in parts
            ):
                # "Mon TGV Paris-Marseille": a route between two places, no organisation.
                return "route between public places"
        return None


# --- a product's model ------------------------------------------------------------

#: What the model reads a product's model as: a code, an account, an address's house number.
MODEL_TYPES = frozenset({EntityType.ID, EntityType.ACCOUNT, EntityType.ADDRESS, EntityType.OTHER})
#: One word of a product's model: a code with a digit ("S23", "R7000", "WH-1000XM5",
#: "7590") or an edition's word.
_MODEL_CODE = r"(?=[\w\-]*\d)[A-Za-z]{0,5}-?\d{1,5}[A-Za-z0-9\-]{0,6}"
_MODEL_WORD = re.compile(
    rf"{_MODEL_CODE}|"
    r"Pro|Max|Plus|Ultra|Mini|Lite|Air|SE|XL|FE|Edge|Neo|Slim|Cable|Cable\+|[0-9]+(?:GB|TB)"
)
_AND_PARTS = re.compile(r",?[ \t]+(?:and|&)[ \t]+|,[ \t]+")
#: Model words right after a span: "R7000" after "Netgear Nighthawk".
_MODEL_AFTER = re.compile(rf"(?:[ \t]+(?:{_MODEL_CODE}|Pro|Max|Plus|Ultra|Mini))+(?![\w\-])")
#: A label that makes the code after it one device's (its serial, not its model).
_SERIAL_LABEL = re.compile(
    r"(?:serial|s/n|sn|service tag|imei|mac|licen[cs]e|key|number|no\.?|nr\.?|#|id|"
    r"seriennummer|numéro|número|nummer)\W{0,3}$",
    re.IGNORECASE,
)


def _brand(words: Sequence[str], lexicon: Lexicon) -> bool:
    """Whether ``words`` name a product or its maker the lexicon knows as public."""
    name = " ".join(words)
    return (
        len(name) >= 2
        and any(c.isupper() for c in name)  # as brands are written ("iPhone", not "the")
        and not all(_MODEL_WORD.fullmatch(w) for w in words)  # "N2" (an org) reads as a code
        and lexicon.public_kind(name) in ("brand", "company", "company-word", "org")
    )


def _flight(text: str, span: Span, value: str) -> bool:
    """Whether ``value`` holds a flight number in an airline's context ("Thai Airways TG
    917", "Delta DL1842"): a flight is someone's trip, not a product."""
    return bool(
        FLIGHT.search(value)
        and (flight_context(text, span.start) or re.search(r"\bair", value, re.IGNORECASE))
    )


def _model_words(words: Sequence[str]) -> bool:
    """Whether ``words`` are a model's: model words, at most one product line's word."""
    line = [w for w in words if not _MODEL_WORD.fullmatch(w)]
    return len(line) <= 1 and all(w[:1].isupper() and w.isalpha() for w in line)


def _branded(words: Sequence[str], lexicon: Lexicon) -> bool:
    """Whether ``words`` begin with a public brand or product name and go on with a
    model's words only ("Bosch Serie 4", "iPhone")."""
    return any(
        _brand(words[:k], lexicon) and _model_words(words[k:]) for k in range(1, len(words) + 1)
    )


def product_model(text: str, span: Span, lexicon: Lexicon | None) -> bool:
    """Whether ``span`` is a product's model: model words (:data:`_MODEL_WORD`), at most
    one product line's word among them, after a public brand or product name written in
    the span or just before it ("iPhone 15 Pro" with "15 Pro" found; "Bosch Serie 4
    (SMS4HTI45G)"). A serial's label before it makes it one device's ("service tag
    7XK2L93"): never a model."""
    if lexicon is None:
        return False
    value = text[span.start : span.end]
    parts = _AND_PARTS.split(value)
    if len(parts) > 1:
        # "Sony WH-1000XM5 and Samsung Galaxy S23 Ultra": two products read as one code.
        return (
            any(_MODEL_WORD.fullmatch(w) for w in value.split())
            and all(_branded(p.split(), lexicon) for p in parts)
        ) and not _SERIAL_LABEL.search(text[max(0, span.start - 48) : span.start])
    words = value.split()
    after = _MODEL_AFTER.match(text, span.end)
    if after is not None:
        words += after.group(0).split()
    if not words or len(words) > 6 or sum(c.isdigit() for w in words for c in w) > 6:
        return False
    # What stands before it on its line: a brand on the line above is another value's.
    before = text[max(0, span.start - 48) : span.start].rpartition("\n")[2]
    if (
        _SERIAL_LABEL.search(before)
        or _flight(text, span, " ".join(words))
        # A British or a Canadian postcode in it, alone or after its town ("Thirsk YO7 1HB",
        # "Toronto ON M5V 2Z4"): an address.
        or UK_POSTCODE.search(value)
        or CA_POSTCODE.search(value)
    ):
        return False
    if not any(_MODEL_WORD.fullmatch(w) for w in words):
        return False
    if _branded(words, lexicon):
        # The brand written in the span: "Netgear Nighthawk R7000", "FRITZ!Box 7590".
        return True
    if not _model_words(words) or not re.search(r"(?:\s|\(\s*)$", before):
        return False
    # A brand just before it: "iPhone" of "iPhone 15 Pro", "Bosch Serie 4 (", "Bosch
    # Serie 4 dishwasher (" (the kind of product in lower case between).
    prior = before.rstrip(" \t(").split()
    if prior and prior[-1].isalpha() and prior[-1].islower() and before.rstrip(" \t").endswith("("):
        prior = prior[:-1]
    return any(_branded(prior[-k:], lexicon) for k in range(1, min(4, len(prior)) + 1))


_SITE_KINDS = frozenset({"brand", "company", "company-word", "org"})
#: A postcode right after a street's line ("Am Mühlenbach 14, 49692 Cappeln"): an
#: address, no brand's product, whatever brand its street shares a name with.
_POSTCODE_AFTER = re.compile(r"[ \t]*,?[ \t]*(?:\d{4}[ \t]?[A-Za-z]{2}\b|\d{4,5}\b|[A-Z]{1,2}\d[A-Z\d]?[ \t]?\d[A-Z]{2}\b)")
#: The public kind of a brand's product ("Garmin Forerunner 265", "Sage 50").
#: The word after a client's or a project's name: "the Harrison account".
_CLIENT_AFTER = re.compile(r"[ \t]+(?:account|matter|file|case|contract|project|job|portfolio)\b")
_PRODUCT_KIND = "public brand's product"

_KIND_NAMES = {
    "org": "organisation",
    "place": "place",
    "drug": "drug name",
    "company-word": "company",
}
_ACRONYM = re.compile(r"[A-Z][A-Z&]{1,5}")
#: A brand's product: the brand, then up to four words, model names or short numbers
#: (never a long run of digits: "Tesla 5YJ3E1EA7KF317000" is a vehicle's number).
_PRODUCT = re.compile(
    r"\S+(?:\s+(?:[A-Za-z][\w\-+]*|\d{1,4}(?:\.\d{1,3}){0,2}[A-Za-z]{0,3}|[A-Z]{1,4}\d{1,4}[A-Za-z]?)){1,4}"
)
#: Words after a brand that name a company's arm, beside :data:`ORG_WORDS`.
_COMPANY_TAIL = re.compile(r"\b(?:technology|retail|uk|us|europe|international|global|payments|finance)\b", re.IGNORECASE)
#: Names joined by a comma, "and" or "&" are a firm of partners ("Pearson, Macdonald and
#: Hussain", "Kline & Partners"), never a product of the public brand one of them shares.
_PARTNERS = re.compile(r",\s|\s(?:and|&)\s", re.IGNORECASE)
#: A brand with a place after it is a branch, not a product ("CVS on Maple Ave", "Boots on
#: King St", "Clicks Sea Point"): a place, and where someone goes.
_BRANCH = re.compile(
    r"\b(?:on|in|at|near|by|off|of)\b|\b(?:st|street|ave|avenue|rd|road|blvd|boulevard|ln|lane|"
    r"way|dr|drive|sq|square|pl|place|plaza|mall|centre|center|point|park|market)\.?$|\d+(?:st|nd|rd|th)\b",
    re.IGNORECASE,
)


#: A platform's word for what someone runs on it, then its name: "shop Little Loom Knits".
_SHOP_ON = re.compile(rf"{PLATFORM_WORDS}[ \t]+\S", re.IGNORECASE)


_MONTH_NAMES = (
    "January February March April May June July August September October November December"
).split()


def generalize(t: EntityType, value: str) -> str | None:
    """A coarser form that keeps what a task needs: an age as a range, a date as its month.

    Ages under 20 go in bands of five ("5-9"), older ones by decade ("30s"); a date
    keeps only its month name, when it names one. None when there is nothing coarser.
    """
    if t is EntityType.AGE:
        m = re.search(r"\d{1,3}", value)
        if m is None:
            return None
        n = int(m.group(0))
        if n < 20:
            lo = n // 5 * 5
            return f"{lo}-{lo + 4}"
        return f"{n // 10 * 10}s"
    if t is EntityType.DATE:
        low = value.casefold()
        for i, name in enumerate(_MONTH_NAMES):
            if re.search(rf"\b{name[:3].casefold()}", low):
                return _MONTH_NAMES[i]
    return None


def _bare_name(value: str) -> str:
    """A value without a title before it or a possessive after it, case-folded."""
    value = re.sub(r"^(?:mr|mrs|ms|miss|mx|dr|prof|sir|madam|dame)\.?\s+", "", value, flags=re.IGNORECASE)
    return re.sub(r"['’]s$", "", value).casefold().strip()


#: Words that make the organisation after them where someone works or studies:
#: "works at", "a nurse at", "joined", "offer from", "studying at", "graduated from".
_AFFILIATION = re.compile(
    # A verb of working, studying or earning, up to three words, then the preposition ...
    r"\b(?:work(?:s|ed|ing)?|employed|studying|studied|enrolled|graduat(?:e|ed|ing)|"
    r"interned|trained|qualified|apprenticed|teach(?:es|ing)?|taught|joined|hired|promoted|"
    r"earn(?:s|ed|ing)?|"
    # the end or start of a shift there: "I finish at Asda at 5", "clock in at Tesco"
    r"finish(?:es|ed|ing)?|clock(?:s|ed|ing)?[ \t]+(?:in|off|out|on))\b"
    # (the words between may hold a sum: "earn about $96,000 at")
    r"(?:\s+(?:[a-z\-]+|[$£€]?\d[\d,.]*[kK]?)){0,3}?"
    r"\s+(?:at|for|with|from|by|in|to)\s+(?:the\s+)?$"
    # ... or a role or a tie right before it ("a nurse at", "student of", "alumni of").
    r"|\b(?:job|jobs|employee|employer|intern(?:ship)?|role|position|post|engineer|"
    r"developer|designer|manager|analyst|consultant|accountant|nurse|doctor|physician|"
    r"resident|residency|teacher|professor|lecturer|researcher|scientist|staff|"
    r"colleagues?|boss|team|student|study|studies|alumn(?:us|a|i)|degree|phd|freshman|sophomore|"
    r"junior|senior|semester|programme|program|course|dissertation|thesis|"
    # the hours, shifts and pay of a job there: "my hours at Sainsbury's"
    r"hours|shifts?|rota|payslips?|wages?|salary)\s+(?:at|for|with|from|of|in)\s+(?:the\s+)?$"
    r"|\bmy\s+(?:company|employer|firm|school|university|college|uni)\s*,?\s*$"
    # ... or a degree and its subject right before, as a CV lists them
    # ("B.Eng. Mechanical Engineering, University of ...").
    rf"|(?<![\w.])(?:{DEGREES})\.?(?:\s*\(Hons?\.?\))?(?:\s+[\w&'’\-]+){{0,6}}\s*(?:,|[-–]|from|at)\s*$",
    re.IGNORECASE,
)


#: Where someone wants to go is a destination many share, not an affiliation yet
#: ("an offer from Siemens", "want to study at Georgia Tech", "applying to MIT").
_DESTINATION = re.compile(
    r"\b(?:want(?:s|ed)?|plan(?:s|ning)?|hop(?:e|es|ing)|apply(?:ing)?|applied|applications?|"
    r"would like|'d like|dream(?:s|ing)?|consider(?:s|ing)?|offers?|interview(?:s|ed|ing)?|"
    r"admission|admitted|visit(?:s|ed|ing)?|tour)\b",
    re.IGNORECASE,
)


#: An e-mail address or a phone number (seven digits or more) on a line.
_CONTACT = re.compile(r"[\w.+\-]+@[\w\-]+\.[\w.\-]+|\+?\d(?:[\s().\-]?\d){6,}")
#: A street address or a postcode on a line: the town beside it is part of the address
#: ("139 Thompson Plaza, G5A 6JR Deborahbury").
_POSTAL = re.compile(rf"(?i:{STREET.pattern})|{POSTCODE.pattern}")
#: Words before a town that make it where someone lives or works from.
_HOME_CUE = re.compile(
    r"\b(?:based|living|lives|live|resides|residing|resident|located)[ \t]+(?:in|at|of|near)[ \t]+$",
    re.IGNORECASE,
)


#: Sixteen digits in groups (or 13 to 19 in a row): a payment card's number.
_CARD_NUMBER = re.compile(r"(?<!\d)(?:\d{4}[ \-]?){3}\d{1,7}(?!\d)")
_DATE_LIKE = re.compile(r"\d{4}[-./]\d{1,2}[-./]\d{1,2}|\d{1,2}[-./]\d{1,2}[-./]\d{2,4}")


#: A house's number and its street, then a comma, right before a town: "visit to 14
#: Fjordvegen, Bergen" (the town of an address; a year is no house number).
_HOUSE_AND_STREET_BEFORE = re.compile(
    r"(?<![\w.,/-])(?!(?:19|20)\d\d\b)\d{1,5}[a-zA-Z]?,?[ \t]+[A-ZÀ-Þ][\w'’\-]*"
    r"(?:[ \t]+[A-ZÀ-Þa-z][\w'’\-]*){0,3},[ \t]*$"
)


def _contact_line(text: str, span: Span) -> bool:
    """The place shares a short line with an e-mail address or a phone number: a CV's or
    a signature's contact line ("Campbellport · jmora@outlook.com · 07458 386210")."""
    a = text.rfind("\n", 0, span.start) + 1
    b = text.find("\n", span.end)
    line = text[a : b if b >= 0 else len(text)]
    return len(line) <= 160 and _gives_contact_or_postcode(line)


def _gives_contact_or_postcode(s: str) -> bool:
    """``s`` holds an e-mail address, a phone number or a postcode."""
    return _gives_contact(s) or _POSTAL.search(s) is not None


def _gives_contact(s: str) -> bool:
    """``s`` holds an e-mail address or a phone number (a date's digits are neither)."""
    return any(not _DATE_LIKE.fullmatch(m.group(0)) for m in _CONTACT.finditer(s))


def _home_of_contact(text: str, span: Span) -> bool:
    """A town after "based in", "lives in" in a text that gives an e-mail address or a
    phone number: where the person of a profile or a contact record lives."""
    return (
        _HOME_CUE.search(text, max(0, span.start - 24), span.start) is not None
        and _gives_contact(text)
    )


def affiliation(text: str, start: int) -> bool:
    """True when the words before ``start`` say someone works or studies there."""
    window = text[max(0, start - 60) : start]
    m = _AFFILIATION.search(window)
    return m is not None and not _DESTINATION.search(window[max(0, m.start() - 20) :])


#: A job or a verb of working and the preposition of an employer, in German, French,
#: Spanish and Dutch: "Teamleiterin bei der", "je travaille chez", "trabajo en",
#: "HR-adviseur bij".
_EMPLOYED_AT = re.compile(
    r"\b(?:arbeite[nt]?|tätig|beschäftigt|angestellt|\w*leiter(?:in)?|\w*mitarbeiter(?:in)?|"
    r"azubi|praktikant(?:in)?)[ \t]+(?:[\w-]+[ \t]+)?bei[ \t]+(?:der|dem|den|die)?[ \t]*$"
    r"|\b(?:travaille|travaillé|travaillais|employée?|salariée?|stagiaire|drh|rh|directeur|"
    r"directrice|responsable)[ \t]+(?:[\w-]+[ \t]+)?chez[ \t]+$"
    r"|\b(?:trabajo|trabaja|trabajaba|trabajé|empleada?o?|jefe|jefa|responsable[ \t]+de[ \t]+\w+)"
    r"[ \t]+en[ \t]+(?:la[ \t]+|el[ \t]+)?$"
    # the writer's job and where: "Soy técnica de RR. HH. en Talleres Arriaga"
    r"|\b(?:soy|es|era)[ \t]+[\w-]+(?:[ \t]+de[ \t]+[\w.]+(?:[ \t]+[\w.]+)?)?[ \t]+en[ \t]+(?:la[ \t]+|el[ \t]+)?$"
    r"|\b(?:werk|werkt|werkte|werkzaam|[\w-]*adviseur|[\w-]*medewerker|[\w-]*manager)"
    r"[ \t]+(?:[\w-]+[ \t]+)?bij[ \t]+(?:de[ \t]+|het[ \t]+)?$",
    re.IGNORECASE,
)


#: Going to a school: "goes to ", "attends the ", "is at ".
_ATTENDS = re.compile(
    r"\b(?:goes|go|going|went)[ \t]+to[ \t]+(?:the[ \t]+)?$|\battend(?:s|ed|ing)?[ \t]+(?:the[ \t]+)?$"
    # "His current college, Burton and South Derbyshire College": the person's own school.
    r"|\b(?:my|our|his|her|their)[ \t]+(?:current[ \t]+|old[ \t]+|new[ \t]+)?"
    r"(?:school|college|university|uni|sixth[ \t]+form|nursery|academy)[ \t]*,?[ \t]*(?:is[ \t]+)?$",
    re.IGNORECASE,
)
#: The word of a school's name.
_SCHOOL_WORD = re.compile(
    r"\b(?:school|college|academy|primary|secondary|nursery|university|sixth form|grammar|high)\b",
    re.IGNORECASE,
)


def employed_at(text: str, start: int) -> bool:
    """True when the words before ``start`` say, in another language, someone works there."""
    return _EMPLOYED_AT.search(text, max(0, start - 60), start) is not None


def _person_context(text: str, span: Span) -> bool:
    """A title before the name, a word a person is addressed or spoken of with ("Ask",
    "my colleague"), or a capitalised word right next to it, says person."""
    before = text[max(0, span.start - 12) : span.start]
    if _TITLE_BEFORE.search(before) or _ADDRESSED_BEFORE.search(
        text, max(0, span.start - 32), span.start
    ):
        return True
    if not text[span.start : span.start + 1].isupper():
        # "Run aws s3 sync": a word written in lower case is no name by its neighbours.
        return False
    after = text[span.end : span.end + 20]
    # A capital at the start of a sentence or a line says nothing ("Run", "We").
    prev = re.search(r"\b[A-Z][a-z]+\s+$", text[max(0, span.start - 20) : span.start])
    if prev is not None:
        at = max(0, span.start - 20) + prev.start()
        if re.search(r"(?:^|[.!?:\n])\s*$", text[max(0, at - 3) : at]):
            prev = None
    nxt = re.match(r"\s+([A-Z][a-z]+)", after)
    return bool(prev or nxt)


def _age(value: str) -> int:
    m = re.search(r"\d{1,3}", value)
    return int(m.group(0)) if m else 0


def protection(
    text: str,
    plans_entities: Iterable[Sequence[Span]],
    risk_lambda: float,
    policy: TypePolicy,
    profile: Profile = Profile.GENERAL,
) -> list[list[Decision]]:
    """Decisions for the entities of each sentence, consistent across the whole text."""
    groups = [list(g) for g in plans_entities]
    flat = [s for g in groups for s in g]
    decisions = policy.decide_all(text, flat, risk_lambda, profile)
    out, k = [], 0
    for g in groups:
        out.append(decisions[k : k + len(g)])
        k += len(g)
    return out
