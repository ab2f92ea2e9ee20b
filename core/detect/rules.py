"""The rules view: presidio-analyzer's pattern recognizers, offline, plus a few of our own.

Presidio's recognizers for email, phone, credit card, IBAN, IP, URL, US SSN
and dates are used directly (``recognizer.analyze``), without its
AnalyzerEngine: the engine would load a second spaCy pipeline we do not need.
Our own patterns add what the data sets need and Presidio lacks: medical record
numbers, account / policy / member numbers, ages, ZIP codes, month-name dates
and Presidio's own anonymization markers (``<PRESIDIO_ANONYMIZED_PERSON>``).
They are plain ``re`` patterns with a capture group rather than
``PatternRecognizer`` because the private part is usually only a piece of the
match (the number after ``MRN``), which PatternRecognizer cannot express.
Where the whole match is private, our patterns are ``PatternRecognizer`` objects:
file paths in a user's home folder, credentials written as ``key = value`` or
as an authorization header, and (for the fused detector only) runs of
capitalized words that extend a name another view found to its full length.

Presidio's URL and email checks call tldextract, which by default downloads
the public-suffix list; :func:`make_tldextract_offline` points it at the
snapshot bundled inside the tldextract package before any recognizer runs.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Sequence
from typing import Any

from core.detect.fields import card_grouping, fields, iban_ok
from core.detect.hosts import host_names
from core.domain.en import US_STATE_CODES
from core.entities import EntityType, canonical_type
from core.lexicon import CONNECTION
from core.spans import Span

log = logging.getLogger(__name__)

NAME = "rules"
#: The view of a value whose extent and type are exact by its pattern, whatever a model reads
#: in or around it: an anonymization marker already in the text (``<PRESIDIO_ANONYMIZED_URL>``),
#: a connection string's user, password and host.
MARKER = "marker"

#: US states' and Canadian provinces' codes written in lower case ("newark nj"), less
#: those that are English words ("in", "or", "me", "hi", "oh", "ok", "on"...).
_STATE_CODES_LOWER = (
    "ak|az|ar|ca|ct|fl|ga|ia|ks|ky|md|mn|ms|mt|ne|nv|nh|nj|nm|ny|nc|nd|ri|sc|sd|tn|tx|ut|vt|"
    "va|wa|wv|wi|wy|dc|qc|bc|mb|sk|ns|nb|pe"
)

_offline_lock = threading.Lock()
_offline_done = False


def make_tldextract_offline() -> None:
    """Make every ``tldextract.extract`` call use the bundled suffix-list snapshot."""
    global _offline_done
    with _offline_lock:
        if _offline_done:
            return
        import tldextract
        import tldextract.tldextract as impl

        offline = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)
        impl.TLD_EXTRACTOR = offline
        tldextract.extract = offline  # type: ignore[assignment]
        _offline_done = True


_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)

#: A US state code and a ZIP code ("PA 19104"); capitals matter ("is 12345" is no state).
#: A US state's (or territory's) code and a ZIP code: "CA 94110" ("PO 88213" is an order).
_STATE_ZIP = (
    rf"\b((?:{'|'.join((*US_STATE_CODES, 'PR', 'GU', 'VI', 'AS', 'MP'))})\s+\d{{5}}(?:-\d{{4}})?)\b"
)
#: A code such as "SM-447219" (capitals matter).
_CODE_ID = r"\b([A-Z]{1,5}-\d{4,12})\b"

#: The courts and tribunals of neutral citations (a law report's series, "[1932] AC 562",
#: is precedent: core.detect.zones).
_NEUTRAL_COURTS = (
    r"UKSC|UKHL|UKPC|EWCA|EWHC|EWFC|EWCOP|EWMC|UKUT|UKFTT|UKEAT|UKAIT|UKIPTrib|CSIH|CSOH|"
    r"HCJAC|NICA|NIQB|NIKB|NICh|NIFam|IESC|IECA|IEHC|IEDC|HCA|FCA|FCAFC|NZSC|NZCA|NZHC|SGCA|SGHC|ZACC|ZASCA"
)
#: A neutral citation of a judgment: "[2023] EWHC 123 (KB)", "[2021] UKSC 5" (capitals matter).
_CITATION = (
    rf"(\[(?:19|20)\d{{2}}\]\s+(?:{_NEUTRAL_COURTS})(?:\s+(?:Civ|Crim|Admin|Fam|Ch|QB|KB|Comm|Pat|TCC|IPEC))?"
    r"\s+\d{1,5}(?:\s+\([A-Z][A-Za-z]{1,10}\))?)"
)

#: (type, pattern, group, score). The span is the pattern's ``group``.
_EIRCODE = (
    r"(?<![\w-])((?:[AC-FHKNPRTV-Y]\d{2}|D6W)[ \t]?"
    r"(?=[0-9AC-FHKNPRTV-Y]{0,3}\d)(?=[0-9AC-FHKNPRTV-Y]{0,3}[AC-FHKNPRTV-Y])[0-9AC-FHKNPRTV-Y]{4})(?![\w-])"
)
_NINO = r"(?<![\w-])([A-Z]{2} ?\d{2} ?\d{2} ?\d{2} ?[A-D])(?![\w-])"
#: The same, for other modules (the value is the pattern's group 1).
NINO = _NINO

#: An age and a sex as notes write them after a name: "54F", "(72M)".
_AGE_SEX = r"(?:(?<=[,(:]\s)|(?<=\())(\d{1,3}[FM])(?=[\s,.;:)]|$)"

#: A relation word, then a capitalized name that no month or weekday is (case matters
#: for the name: "(?i:...)" makes only the relation case-blind).
_RELATIVE_NAME = (
    r"\b(?i:daughter|son|wife|husband|mother|father|mum|mom|dad|sister|brother|"
    r"grandson|granddaughter|grandmother|grandfather|niece|nephew|aunt|auntie|uncle|cousin|"
    r"stepson|stepdaughter|stepfather|stepmother|boyfriend|girlfriend|fianc[ée]e?|twins?|kids|"
    r"children|sons|daughters|grandchildren|grandkids)"
    r"[ \t]+(?!(?:January|February|March|April|May|June|July|August|September|October|"
    r"November|December|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|"
    r"I|Is|Has|Had|Was|And|Or|But|The)\b)"
    r"([A-Z][a-z]+(?:-[A-Z][a-z]+)?)(?![\w'’-]*[\w])"
)

#: The nursery, school or home someone goes to, then its name: "her nursery, Little
#: Acorns", "his school St Peter's", "the care home called Oakwood Lodge".
_SETTING_NAME = (
    r"\b(?i:(?:her|his|their|our|my|your)[ \t]+(?:nursery|pre-?school|playgroup|day[ \t]?care|"
    r"cr[eè]che|primary(?:[ \t]+school)?|secondary(?:[ \t]+school)?|school|academy|college|"
    r"sixth[ \t]+form|care[ \t]+home|nursing[ \t]+home|residential[ \t]+home))"
    r"(?:[ \t]*,[ \t]*|[ \t]+(?i:is|called|named)[ \t]+|[ \t]+)"
    r"(?!(?:January|February|March|April|May|June|July|August|September|October|"
    r"November|December|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|"
    r"Christmas|Easter|I|The|This|That|It|They|She|He|We)\b)"
    r"([A-Z][a-z]+(?:[ \t]+[A-Z][a-z]+){0,3})(?![\w-])"
)

#: A day and a month (or a month and a day) without a year, after a word that dates an
#: event: "admitted 12/11", "discharged on 18/11", "DOB 3/4", "w/c 18/11", "Tue 18/11",
#: a test's day in a clinical note ("Echo 20/11: LVEF 35%", "bloods 3/12").
_DAY_MONTH = (
    r"\b(?:on|admitted|discharged|seen|reviewed|dated|born|died|due|until|till|by|dob|"
    r"echo|ecg|ekg|mri|ct|cxr|scan|x-?ray|ultrasound|uss|bloods|labs|biopsy|angiogram|"
    r"endoscopy|colonoscopy|appt|op|surgery|"
    # a fall, a night, a visit: "Prev fall 18/11", "night 03/12", "since 2/11"
    r"fall|fell|night|visit|since|prev|previous|started|stopped|inserted|removed|"
    r"d\.o\.b\.?|w/c|(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day|nesday|sday|urday)?)"
    r"[:,]?[ \t]+(?:on[ \t]+)?"
    r"((?:0?[1-9]|[12]\d|3[01])/(?:0?[1-9]|1[0-2])|(?:0?[1-9]|1[0-2])/(?:1[3-9]|2\d|3[01]))"
    r"(?![\d/.,]\d|[\d/])"
)

#: A full name (two capitalized words), then an age in brackets: "Gerrit Hoekstra (94)".
_AGE_AFTER_NAME = r"(?<![\w-])[A-ZÀ-Ý][\w'’-]+[ \t]+[A-ZÀ-Ý][\w'’-]+[ \t]*\([ \t]?(1[01]\d|120|\d{1,2})[ \t]?\)"

#: A secret's default value in code, the value its group 1 (see :data:`_PATTERNS`).
SECRET_DEFAULT = (
    r"(?:getenv|environ\.get|env\.get|ENV\.fetch|config\.get)\(\s*[\"'][A-Za-z0-9_.]*"
    r"(?:PASS|PASSWD|PASSWORD|SECRET|TOKEN|API_?KEY|PWD)[A-Za-z0-9_.]*[\"']\s*,\s*[\"']([^\"'\s]{4,})[\"']"
)

_PATTERNS: list[tuple[EntityType, str, int, float]] = [
    # A secret's default in code: "os.getenv('DB_PASS', 'changeme-Ab12')",
    # "ENV.fetch('API_TOKEN', 's3cr3t')" (the variable's name stays, its value goes).
    (EntityType.ID, SECRET_DEFAULT, 1, 0.85),
    (
        EntityType.MRN,
        r"\b(?:MRN|medical record(?: number| no\.?| #)?|chart(?: number| no\.?| #))"
        r"[\s:#.]*(?:is\s+|number\s+)?([A-Z]{0,5}[-\s]?\d[\d-]{3,12}\d)\b",
        1,
        0.95,
    ),
    (
        EntityType.ACCOUNT,
        r"\b(?:account|acct|policy|member|subscriber|insurance|claim|group|invoice|order|"
        r"case|ticket|reference|ref|booking|confirmation|id|routing)\b"
        r"(?:\s+(?:number|no\.?|num|id|#))?[\s:#.]*(?:is\s+)?"
        r"(?=#?[A-Z0-9-]*?(?:\d[A-Z-]*){4})(#?[A-Z0-9]{0,6}[-]?\d[A-Z0-9-]{3,20})\b",
        1,
        0.8,
    ),
    # "(ref SN/2025/44)", "our ref: LIT/24/0193": a reference of letters, a year and a
    # number between slashes.
    (
        EntityType.ACCOUNT,
        r"\b(?:ref|reference|case|file|matter)\b\.?(?:\s+(?:number|no\.?|#))?[\s:#.]*(?:is\s+)?"
        r"([A-Z]{1,6}/\d{2,4}/\d{1,6}(?:/\d{1,4})?)(?![\w/])",
        1,
        0.8,
    ),
    # An e-mail address at a domain no public registry holds: the reserved names of RFC
    # 2606 and 6761 ("example", "test", "invalid", "localhost"), multicast DNS's "local",
    # ICANN's private-use "internal" and the names companies give their own networks
    # ("corp", "lan", "intranet"...). Presidio's recognizer checks the top-level domain
    # against the public suffix list, so "p.vidal@atelier-bertin.example" or
    # "ops@db.internal" had left in clear wherever the NER missed them.
    (
        EntityType.EMAIL,
        r"(?<![\w.+-])([A-Za-z0-9][\w.+-]{0,63}@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+"
        r"(?:example|test|invalid|localhost|local|internal|intranet|corp|lan|home|private|"
        r"localdomain|home\.arpa))(?![\w-])",
        1,
        0.9,
    ),
    # "#XQJ8842190", "#BCP-7781-20": a hash tag followed by an id with digits.
    (EntityType.ACCOUNT, r"(#[A-Z]{0,6}-?\d[A-Z0-9-]{3,20})\b", 1, 0.75),
    # Codes such as "SM-447219" or "KDH-77419".
    (EntityType.ID, _CODE_ID, 1, 0.6),
    (
        EntityType.AGE,
        r"\b(\d{1,3}[- ]?(?:years?|yrs?|y\.?o\.?|months?|mos?)[- ]old)\b",
        1,
        0.85,
    ),
    (EntityType.AGE, r"\b(?:aged?|age of)\s+(\d{1,3})\b", 1, 0.8),
    (EntityType.AGE, r"\b(\d{1,3}\s?(?:yo|y/o))\b", 1, 0.8),
    # A clinical note's age and sex after the name: "Wilhelmina Akerman, 54F", "(72M)".
    (EntityType.AGE, _AGE_SEX, 1, 0.85),
    # An age in brackets after a full name, in any language: "Gerrit Hoekstra (94)".
    (EntityType.AGE, _AGE_AFTER_NAME, 1, 0.8),
    (
        EntityType.DATE,
        rf"\b({_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?)\b",
        1,
        0.85,
    ),
    (EntityType.DATE, rf"\b(\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH}(?:,?\s+\d{{4}})?)\b", 1, 0.85),
    (EntityType.DATE, r"(?<![\d.])(\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4})(?![\d.])", 1, 0.8),
    # A day and a month without a year ("Discharged 18/11", "seen on 3/4", "Tue 18/11"),
    # after a word that dates an event: a score ("pain 7/10", "GCS 14/15", "power 4/5")
    # and a fraction stand after other words.
    (EntityType.DATE, _DAY_MONTH, 1, 0.75),
    # A weekday and the day of the month, as chat writes it: "since tues 4th", "Sat 21st".
    (
        EntityType.DATE,
        r"(?i:\b((?:mon|tue|tues|wed|weds|thu|thur|thurs|fri|sat|sun)(?:day|nesday|sday|urday)?\.?"
        r"[ \t]+(?:the[ \t]+)?(?:0?[1-9]|[12]\d|3[01])(?:st|nd|rd|th))\b)",
        1,
        0.8,
    ),
    # A birthday's day, told without its month: "turns 90 on the 23rd", "her bday is the 4th".
    (
        EntityType.DATE,
        r"(?i:\b(?:turn(?:s|ed|ing)?[ \t]+\d{1,3}|(?:birthday|bday|b-day)(?:[ \t]+is)?)[ \t]+(?:on[ \t]+)?"
        r"((?:the[ \t]+)?(?:0?[1-9]|[12]\d|3[01])(?:st|nd|rd|th))\b)",
        1,
        0.8,
    ),
    # A time of day: "8:30 pm", "9am", "14:15".
    (EntityType.DATE, r"(?<![\d:.])(\d{1,2}(?::[0-5]\d)?\s?(?:am|pm|a\.m\.|p\.m\.))(?![\w])", 1, 0.7),
    (EntityType.PHONE, r"(?<!\w)(\(?\d{3}\)?[\s.-]\d{3}[\s.-]\d{4})(?!\w)", 1, 0.85),
    (EntityType.PHONE, r"(?<!\w)(\+\d{1,3}[\s.-]?\(?\d{1,4}\)?(?:[\s.-]?\d{2,4}){2,4})(?!\w)", 1, 0.8),
    (EntityType.PHONE, r"(?<!\w)(0\d{3,4}\s\d{3}\s\d{3,4})(?!\w)", 1, 0.75),
    (
        EntityType.ADDRESS,
        # One line: a number, up to three words, a street's kind (USPS and Royal Mail
        # suffixes that are not common words on their own).
        # A street's words are no "at", "on" or "in": "died on 2 January at St Luke's" is a
        # date and a place.
        # At least one word before the kind: "a Year 7 place", "in 2 ways" name no street.
        r"\b(\d{1,6}[ \t]+(?:[nsew]\.?[ \t]+)?(?:(?!(?:at|on|in|from|to|for|by|of)\b)[a-z0-9]+[ \t]+){1,3}"
        r"(?:st|street|ave|avenue|rd|road|blvd|boulevard|dr|drive|ln|lane|way|ct|court|pl|place|"
        r"hwy|highway|pkwy|parkway|ter|terrace|cir|circles?|forge|knolls?|brooks?|fields|heights|"
        r"ridge|crossing|trail|plaza|alley|glen|hollow|manor|meadows|orchard|pike|pines|shores?|"
        r"springs|summit|vista|cove|creek|estates?|junction|freeway|expressway|causeway|quay|"
        r"wharf|close|crescent|mews|gardens|square|grove)\b\.?"
        r"(?:,?\s+(?:apt|apartment|unit|suite|ste|#)\.?\s*[a-z0-9-]+)?"
        # A town and a state's code, in capitals: ", Springfield, IL 62704" (", Chorlton on
        # 31 October" names no state).
        r"(?:,[ \t]*[a-z .]+,?[ \t]+(?:(?-i:[A-Z]{2})|(?-i:" + _STATE_CODES_LOWER + r"))(?:[ \t]+\d{5}(?:-\d{4})?)?\b)?)",
        1,
        0.85,
    ),
    (EntityType.ADDRESS, _STATE_ZIP, 1, 0.6),
    # A user name in an error message or a log: "for user svc_billing", 'user "etl_x"'.
    (EntityType.ID, r"\b(?:user(?:name)?|login|account|role)(?:[:=]?\s+|\s*[:=]\s*)[\"'“]([^\"'”\s]{2,40})[\"'”]", 1, 0.7),
    (EntityType.ID, r"\b(?:user(?:name)?|login)(?:[:=][ \t]*|\s+)((?=[\w.\-]*[_\d])[A-Za-z][\w.\-]{2,39})\b", 1, 0.7),
    # A configuration's user name: "POSTGRES_USER=billing_admin", "DB_USERNAME: svc_etl".
    (EntityType.ID, r"(?<=_)(?:user(?:name)?|login)[\"']?[ \t]*[:=][ \t]*[\"']?([A-Za-z][\w.\-@]{1,39})\b", 1, 0.7),
    # A dotted account name after the word for a user, in the languages with rules too:
    # "Benutzer j.mueller", "utilisateur m.dupont", "user a.khan".
    (EntityType.ID, r"\b(?:user(?:name)?|login|benutzer(?:name)?|nutzer(?:name)?|anmeldename|utilisateur|"
     r"identifiant|usuario|gebruiker(?:snaam)?)(?:[:=][ \t]*|\s+)([a-z][a-z0-9]*\.[a-z][\w\-]{1,38})\b(?!\.[a-z])", 1, 0.7),
    # A namespace on a forge or a registry is an account: "ghcr.io/mdobrescu/app", "github.com/jdoe".
    (EntityType.ID, r"\b(?:ghcr\.io|docker\.io|quay\.io|github\.com|gitlab\.com|bitbucket\.org|"
     r"hub\.docker\.com/u|pypi\.org/user|npmjs\.com/~)/([A-Za-z0-9][\w.\-]{1,38})", 1, 0.8),
    # A forge's refusal names the repository's owner and the account refused: "remote:
    # Permission to drewbie-dev/pantry-api.git denied to will-oconnor-97."
    (EntityType.ID, r"\bPermission to ([A-Za-z0-9][\w.\-]{0,38})/[\w.\-]+ denied\b", 1, 0.8),
    (EntityType.ID, r"\bPermission to [\w.\-]+/[\w.\-]+ denied to ([A-Za-z0-9][\w\-]{0,38})\b", 1, 0.8),
    # A court case: a neutral citation "[2023] EWHC 123 (KB)", "[2021] UKSC 5", a US
    # docket "2:24-cv-01234". An identifier of a case (and of the people in it), no phone.
    (EntityType.ID, _CITATION, 1, 0.9),
    (EntityType.ID, r"(?<![\w:])(\d{1,2}:\d{2}-[a-z]{2,4}-\d{3,6}(?:-[A-Z]{2,5})*)(?![\w-])", 1, 0.9),
    # A UK National Insurance number, whole: "QQ 12 34 56 C" (HMRC's own sample prefix
    # included, which people paste; the letter at the end is part of it).
    (EntityType.ID, _NINO, 1, 0.85),
    # An Irish Eircode, whole: "D02 X285" (a routing key, then a unique identifier of
    # letters and digits, both; An Post leaves out B, G, I, J, L, M, O, Q, S, U and Z).
    (EntityType.ADDRESS, _EIRCODE, 1, 0.85),
    # A relative named right after the relation, even by a word ("Daughter Comfort is next
    # of kin", "my son Reuben"): a capitalized word inside a sentence after a relative.
    (EntityType.PERSON, _RELATIVE_NAME, 1, 0.85),
    # The nursery, school or care home someone goes to, named after its kind.
    (EntityType.ORG, _SETTING_NAME, 1, 0.85),
    # Presidio's own anonymization markers, as found in PUPA's prompts.
    (EntityType.OTHER, r"(<PRESIDIO_ANONYMIZED_[A-Z_]+>)", 1, 0.9),
]

#: The patterns matched with case (all others ignore it).
_CASED_PATTERNS = frozenset(
    {_STATE_ZIP, _CODE_ID, _CITATION, _NINO, _EIRCODE, _AGE_SEX, _AGE_AFTER_NAME, _RELATIVE_NAME, _SETTING_NAME}
)

# --- PatternRecognizers of our own -------------------------------------------------------
#
# Where the whole match is the private part, our patterns are presidio-analyzer
# PatternRecognizers (run by its ``regex`` module, so look-behinds may vary in
# length). They answer categories of the detector's misses on PUPA's train fold.

#: A capitalized word: Title case ("Wien"), inner capitals ("ChatGPT", "DeNicola"),
#: a short acronym ("TU", "KFC"); a possessive "'s" stays with the word.
_CAP_WORD = r"(?:[A-Z][a-z]+(?:[A-Z][A-Za-z]*)?|[A-Z]{2,5})(?:['’]s\b)?"
#: Lower-case particles inside names ("Institute of ...", "Procter & Gamble", "van Gogh").
#: (Welsh "ap"/"ab" and Arabic "bin"/"ibn" between a given name and the father's name:
#: "Rhodri ap Iorwerth" had kept only the given name.)
_NAME_PARTICLE = r"(?:of|the|de|del|della|di|da|du|la|le|von|van|der|den|dos|das|ter|ten|ap|ab|bin|ibn|&)"

#: Two or more capitalized words in a row, particles allowed between them: the
#: full extent of a name whose first word the NER view found ("Metadee" of
#: "Metadee Concept Hotel", "TU" of "TU Wien"). The look-behind wants a word
#: (or a comma or bracket) and a space before the first word, so the capital
#: that starts a sentence, a heading or a list item is never part of a match
#: (the words after it may be); "and" is no particle, so "Anna and Ben" stays
#: two names. Alone these matches are mostly
#: headings and job titles ("Customer Service Coordinator"; on PUPA's train
#: fold 17 of 895 matches that no NER span touches are part of a unit), so they
#: are recorded as :data:`NAME_EXTENT`, not as this view's evidence: the fused
#: detector uses them only to widen a span that another view found and that it
#: keeps on that view's evidence. Their score is under any NER span's, so the
#: widened span keeps the NER view's type.
#: Words of one line: a signature's name line and the role on the next are two extents.
PROPER_NAME = (
    r"(?<=[\w,)]\s+[\"“‘']?)" rf"{_CAP_WORD}(?:[ \t]+(?:{_NAME_PARTICLE}[ \t]+)?{_CAP_WORD})+"
)
PROPER_NAME_SCORE = 0.4
#: The ``Span.views`` key of a proper-name extent (see :mod:`core.detect.fusion`).
NAME_EXTENT = "name-extent"

USER_PATH = [
    # A path in a user's home folder names the user: C:\Users\<name>\... (folder
    # names may hold spaces, the last part may not) and /home/<name>/... or
    # /Users/<name>/...; a stack trace's ":line:col" or "(line)" comes along.
    r"\b[A-Za-z]:\\(?i:users|documents and settings)\\"
    r"(?:[^\\\r\n\"“”'<>|*?:]{1,60}\\)*"
    r"[^\\\s\"“”'<>|*?:,;]*(?:(?::\d+){1,2}|\(\d+\))?",
    r"(?<![\w.~])/(?:home|Users)/[^/\s\"“”'<>`]*[^/\s\"“”'<>`.,;:]"
    r"(?:/[^/\s\"“”'<>:()`]*[^/\s\"“”'<>:()`.,;])*"
    r"(?:(?::\d+){1,2}|\(\d+\))?",
]

SECRET = [
    # A credential given as key = value ("password = 'hunter22'",
    # "refresh_token=1000.8ecd...", '"api_key": "sk-..."'), key and value together.
    # The key must end in the credential word, so "max_tokens=256" is no secret;
    # the value must be quoted or hold a digit, so code ("self.password = password")
    # and template fields ("token={token}") are left alone.
    r"\b(?:[a-z0-9]+[_.-])*(?:password|passwd|passphrase|pwd|secret|token|api[_-]?key|apikey|"
    r"access[_-]?key|private[_-]?key)[\"']?\s*[:=]\s*"
    r"(?:[\"“'‘][^\s\"“”'’{}]{4,}|(?=[^\s\"“”'’,;&)]*\d)[^\s\"“”'’,;&(){}]{4,})",
    # A password or a door's code given in words: "wifi password is Sunflower!77", "the
    # door code is 2580#" (with a digit or a sign, so "the password is wrong" is none).
    r"(?:(?<=password is )|(?<=password was )|(?<=passcode is )|(?<=passphrase is ))"
    r"(?=\S*[\d!@#$%^&*])[^\s,;]{3,}[^\s,;.:!?]",
    # An HTTP authorization value ("Bearer eyJhbGciOi...", "Zoho-oauthtoken 1000.41d9...").
    r"\b(?:bearer|basic|[\w-]*oauthtoken)\s+[A-Za-z0-9._~+/=-]{16,}",
    # Keys and tokens by their own shape, wherever they stand: AWS access key ids,
    # OpenAI/Anthropic/Stripe keys, JSON web tokens, GitHub, GitLab, Slack and Google keys.
    r"(?-i:\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[0-9A-Z]{16}\b)",
    r"(?-i:\b(?:sk|pk|rk)-(?:proj-|ant-(?:api\d\d-)?|live-|test-)?[A-Za-z0-9_\-]{20,})",
    r"(?-i:\b(?:sk|pk|rk|whsec)_(?:live|test)_[A-Za-z0-9]{8,})",
    r"(?-i:\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,})",
    r"(?-i:\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,}|glpat-[A-Za-z0-9_\-]{20,}))",
    r"(?-i:\bxox[abprs]-[A-Za-z0-9\-]{10,})",
    r"(?-i:\bAIza[0-9A-Za-z_\-]{35})",
    # A private key block.
    r"-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]{0,8000}?-----END [A-Z ]*PRIVATE KEY-----",
    # A connection string with a password ("postgres://admin:pw@db.acme.io/prod") is found by
    # its parts (:func:`connection_parts`): its scheme, port and database stay.
]

#: A database's or a broker's default account, which names no one ("postgres://postgres:...").
_DEFAULT_USERS = frozenset(
    "root admin administrator postgres user username sa guest default mysql redis rabbitmq "
    "mongo mongodb elastic".split()
)
#: A template's stand-in for a value ("USER:PASSWORD@HOST", "${DB_PASS}", "<password>").
_STAND_IN = re.compile(r"(?-i:[A-Z_]+)|\$\{?[\w.\-]+\}?|<[^<>]+>|\{[^{}]+\}|%\(?\w+\)?s?|x+|\*+", re.IGNORECASE)
_STAND_IN_WORDS = frozenset("password passwd pass pw pwd secret user username host hostname".split())
#: A machine on this computer or a container's service name: names no one ("@localhost",
#: "@db:5432").
_LOCAL_HOST = re.compile(r"localhost|127(?:\.\d{1,3}){3}|0\.0\.0\.0|\[::1\]|[a-z][a-z0-9_\-]*", re.IGNORECASE)


def _stand_in(value: str) -> bool:
    return value.lower() in _STAND_IN_WORDS or (
        _STAND_IN.fullmatch(value) is not None and not any(c.isdigit() for c in value)
    )


def connection_parts(text: str) -> list[Span]:
    """The user, the password and the host of each connection string in ``text``: an
    account, an identifier and a web address (an IP address where the host is one). The
    scheme, the port and the database stay as written, which the cloud needs to answer
    ("postgres://[ACCOUNT_1]:[ID_1]@[URL_1]:5432/ledger"); a default account ("postgres"),
    a template's stand-in ("PASSWORD", "${DB_PASS}") and a local host stay too."""
    spans = []
    for m in CONNECTION.finditer(text):
        user, password, host = m.group("user"), m.group("password"), m.group("host")
        if not _stand_in(user) and user.lower() not in _DEFAULT_USERS:
            spans.append(Span(*m.span("user"), EntityType.ACCOUNT, 1.0, {NAME: 0.9, MARKER: 1.0}))
        if not _stand_in(password):
            spans.append(Span(*m.span("password"), EntityType.ID, 1.0, {NAME: 0.9, MARKER: 1.0}))
        if not _LOCAL_HOST.fullmatch(host) and not _stand_in(host):
            typ = EntityType.IP if re.fullmatch(r"[\d.]+|\[[0-9a-f:.]+\]", host, re.IGNORECASE) else EntityType.URL
            spans.append(Span(*m.span("host"), typ, 1.0, {NAME: 0.9, MARKER: 1.0}))
    return spans


_EXTENT_RECOGNIZER = "ProperNameExtentRecognizer"
#: The score of a value after its label (:mod:`core.detect.fields`): above every
#: pattern's, so that the label's type wins when views disagree on the value's.
FIELD_SCORE = 0.97
#: The score of a private host name (:mod:`core.detect.hosts`): alone it is kept.
HOST_SCORE = 0.85
#: An IBAN in lower case: country, check digits, then groups of letters and digits.
_LOWER_IBAN = re.compile(r"(?<![\w-])[a-z]{2}\d{2}(?:[ ]?[a-z0-9]{4}){2,7}(?:[ ]?[a-z0-9]{1,4})?(?![\w-])")
IBAN_SCORE = 0.95


def own_recognizers(name_extents: bool = False) -> list[Any]:
    """Our PatternRecognizers: user paths and credentials, plus proper-name extents if asked."""
    from presidio_analyzer import Pattern, PatternRecognizer

    case = re.MULTILINE  # the same flag values in ``regex``; capitals matter here
    recognizers = [
        PatternRecognizer(
            supported_entity="ID",
            name="UserPathRecognizer",
            patterns=[Pattern("user path", p, 0.8) for p in USER_PATH],
            global_regex_flags=case,
        ),
        PatternRecognizer(
            # A cloud account's number inside an ARN ("arn:aws:iam::493817260115:role/x"):
            # the company's account, whatever a model makes of the colons around it.
            supported_entity="ID",
            name="CloudAccountRecognizer",
            patterns=[Pattern("arn account", r"(?<=\barn:[\w\-]+:[\w\-]+:[\w\-]*:)\d{12}(?=:)", 0.8)],
            global_regex_flags=case,
        ),
        PatternRecognizer(
            supported_entity="ID",
            name="SecretRecognizer",
            patterns=[Pattern("credential", p, 0.8) for p in SECRET],
            global_regex_flags=case | re.IGNORECASE,
        ),
    ]
    if name_extents:
        recognizers.append(
            PatternRecognizer(
                supported_entity="OTHER",
                name=_EXTENT_RECOGNIZER,
                patterns=[Pattern("proper name sequence", PROPER_NAME, PROPER_NAME_SCORE)],
                global_regex_flags=case,
            )
        )
    return recognizers


_MARKER_TYPES = {
    "PERSON": EntityType.PERSON,
    "PHONE_NUMBER": EntityType.PHONE,
    "EMAIL_ADDRESS": EntityType.EMAIL,
    "URL": EntityType.URL,
}


class RulesView:
    """Pattern-based detection: fast, exact on formats, blind to names.

    With ``name_extents`` it also proposes runs of capitalized words (see
    :data:`PROPER_NAME`), marked :data:`NAME_EXTENT`, which the fused detector
    uses only to widen the names another view found; detectors that keep every
    proposal leave it off.
    """

    name = NAME

    def __init__(
        self,
        regions: Sequence[str] = ("US", "GB", "CA", "AU", "IN", "DE", "FR"),
        *,
        name_extents: bool = False,
    ) -> None:
        self._regions = tuple(regions)
        self._name_extents = name_extents
        self._recognizers: list[Any] | None = None
        self._lock = threading.Lock()
        self._compiled = [
            (t, re.compile(p, 0 if p in _CASED_PATTERNS else re.IGNORECASE), g, s)
            for t, p, g, s in _PATTERNS
        ]

    def _presidio(self) -> list[Any]:
        if self._recognizers is None:
            with self._lock:
                if self._recognizers is None:
                    make_tldextract_offline()
                    from presidio_analyzer.predefined_recognizers import (
                        CreditCardRecognizer,
                        DateRecognizer,
                        EmailRecognizer,
                        IbanRecognizer,
                        IpRecognizer,
                        PhoneRecognizer,
                        UrlRecognizer,
                        UsSsnRecognizer,
                    )

                    self._recognizers = [
                        EmailRecognizer(),
                        # leniency 0 (POSSIBLE): fictional 555 numbers are still phone numbers.
                        PhoneRecognizer(supported_regions=self._regions, leniency=0),
                        CreditCardRecognizer(),
                        IbanRecognizer(),
                        IpRecognizer(),
                        UrlRecognizer(),
                        UsSsnRecognizer(),
                        DateRecognizer(),
                        *own_recognizers(self._name_extents),
                    ]
        return self._recognizers

    def analyze(self, text: str) -> list[Span]:
        spans: list[Span] = []
        for rec in self._presidio():
            for r in rec.analyze(text=text, entities=rec.supported_entities, nlp_artifacts=None):
                if r.score <= 0 or r.end <= r.start:
                    continue
                t = canonical_type(r.entity_type)
                if t is EntityType.PHONE and (
                    (r.start > 0 and text[r.start - 1].isalpha()) or (r.end < len(text) and text[r.end].isalpha())
                ):
                    # The digits inside a word ("Person1908", "v2024a"): no phone number, and a
                    # span there would cut the word.
                    continue
                if t is EntityType.CREDIT_CARD and not card_grouping(text[r.start : r.end]):
                    # "order 204-5583921-7741023": a number that passes Luhn by chance,
                    # grouped as no card is, is an identifier.
                    t = EntityType.ID
                key = NAME_EXTENT if rec.name == _EXTENT_RECOGNIZER else NAME
                end = link_end(text, r.start, r.end) if t is EntityType.URL else r.end
                spans.append(Span(r.start, end, t, float(r.score), {key: float(r.score)}))
        for m in _LOWER_IBAN.finditer(text):
            # An IBAN typed in lower case ("nl52 rabo 2653 5940 72"), which Presidio's pattern
            # (capitals) passes over: its mod 97 decides.
            if iban_ok(m.group()):
                spans.append(Span(m.start(), m.end(), EntityType.IBAN, IBAN_SCORE, {NAME: IBAN_SCORE}))
        for a, b in host_names(text):
            # A machine of a private or company network ("db-prod-3.internal.acme-corp.com").
            spans.append(Span(a, b, EntityType.URL, HOST_SCORE, {NAME: HOST_SCORE}))
        # A connection string's parts: exact, whatever an e-mail's or a link's pattern makes
        # of "user:pw@host" (:func:`markers_win`).
        spans.extend(connection_parts(text))
        for field in fields(text):
            # A value after its label ("SSN: ...", "CVV 123"): the label's type, checked.
            value = text[field.start : field.end]
            spans.append(
                Span(field.start, field.end, field.type_of(value), FIELD_SCORE, {NAME: FIELD_SCORE})
            )
        for t, pattern, group, score in self._compiled:
            for m in pattern.finditer(text):
                a, b = m.span(group)
                if a >= b:
                    continue
                typ = t
                if t is EntityType.OTHER:
                    inner = m.group(group)[len("<PRESIDIO_ANONYMIZED_") : -1]
                    typ = _MARKER_TYPES.get(inner, canonical_type(inner))
                    spans.append(Span(a, b, typ, 1.0, {NAME: score, MARKER: 1.0}))
                    continue
                spans.append(Span(a, b, typ, score, {NAME: score}))
        return spans


#: Punctuation that ends the sentence or the list a link stands in, not the link.
_AFTER_LINK = ".,;:!?'\"”’"


def link_end(text: str, start: int, end: int) -> int:
    """A link's end without the punctuation written after it: Presidio's URL pattern takes
    the comma of "github.com/ana-lee, linkedin.com/in/ana-lee." and its final period,
    which then glue two links and the next sentence into one span. A closing bracket
    stays when the link opened it ("wiki/Foo_(bar)")."""
    while end > start:
        last = text[end - 1]
        if last in _AFTER_LINK or (
            last == ")" and text.count("(", start, end) < text.count(")", start, end)
        ):
            end -= 1
        else:
            break
    return end


def markers_win(spans: list[Span], text: str | None = None) -> list[Span]:
    """``spans`` without those overlapping an anonymization marker or another exact value
    (:data:`MARKER`; the marker stays).

    A model reads "<PRESIDIO_ANONYMIZED_PHONE_NUMBER>" as a person and a phone, or
    "linkedin <PRESIDIO_ANONYMIZED_URL" as one link; merged with the marker they would
    give it their type and extent. Given ``text``, a connection string is exact from its
    scheme to its host: a model's "postgresql" before "://[ACCOUNT_1]" is no value, and
    snapped to its atom it would take the user's placeholder with it.
    """
    marks = [(s.start, s.end) for s in spans if MARKER in s.views]
    if text is not None and marks:
        marks += [(m.start(), m.end("host")) for m in CONNECTION.finditer(text)]
    if not marks:
        return spans
    return [
        s for s in spans if MARKER in s.views or not any(a < s.end and s.start < b for a, b in marks)
    ]
