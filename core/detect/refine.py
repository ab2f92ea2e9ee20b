"""Refining detected spans: whole tokens, and what is not an identifier.

Every detector ends with :func:`refine`, so the composer, the editor and the
egress guard all see the same spans. Views propose generously (the NER view
decodes at a low threshold because recall bounds leakage); this step removes
the damage that generosity did to real messages, the way Presidio's
recognizers pair each pattern with validators and context words:

1. **Whole tokens** (:mod:`core.detect.tokens`): a span covers whole atoms and
   never crosses a paragraph break or a list separator.
2. **Non-identifier zones**: stretches of the text that identify nobody are
   found by pattern (quantities with units, money, percentages, blood
   pressures, durations and counts, versions and package specifiers, ports,
   code identifiers and file names, hex colours, law names and their sections,
   honorifics, generic terms such as HbA1c or HR, drug names). A span loses the
   parts that lie in a zone; what is left is kept if it still holds a word or
   number (``Dr. Mirela Voss`` keeps ``Mirela Voss``; ``$2,400`` is dropped).
   A span whose own text has the shape of its type (an e-mail with its ``@``, a
   phone number with seven digits or more, a user path, a credential) is never
   cut: zones only correct the model's guesses, never a format match.
3. **Numbers too small to identify**: a bare number of one to three digits is
   no identifier; next to a person or a family word it is an age (``Elias (9)``,
   ``my daughter, 7,``), anywhere else it is dropped, unless a word such as
   ``account``, ``MRN`` or ``room`` before it says it identifies something.
4. **Common words the model was unsure of**: a span made only of common
   English words written in lower case, found by the NER view alone below
   :data:`UNSURE`, is dropped ("turned", "record number", "billing"); so is a
   short run of characters of a script without spaces (Chinese, Japanese...)
   found by the NER view alone below that score, where the model was not
   trained.

Each rule answers a measured failure on real messages (see the project's
utility evaluation, ``sottovoce eval utility``); the zones are data, listed
below, and the tests cover every unit and shape named here.
"""

from __future__ import annotations

import bisect
import logging
import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

from core.detect.tokens import Atoms, atoms, snap
from core.entities import EntityType
from core.lexicon import Lexicon
from core.spans import Span, merge_spans

log = logging.getLogger(__name__)

#: NER-only spans below this (calibrated) score are "unsure" for rule 4.
UNSURE = 0.8
#: Below this the model barely proposed the span (0.5 is its decoding threshold).
BARELY = 0.6
#: A word this frequent in English (Zipf) is a common word for rule 4.
COMMON_ZIPF = 3.5
#: A lower-case word this frequent is a function word ("of", "and"): never a value.
FUNCTION_ZIPF = 5.5

_NUM = r"(?:\d{1,3}(?:[,\u00a0\u202f ]\d{3})+|\d+)(?:[.,]\d+)?"
_SIGNED = rf"[-+−~≈]?{_NUM}"
#: Units written after a number (longest first in the alternation). Case is
#: ignored; single letters ("m", "s", "h", "k", "p") must touch the number.
#: Kept as one block of words: it is data, read like a table.
_UNITS_SPACED = sorted(
    """
    °c °f ℃ ℉ mg g kg mcg µg μg ug ng lb lbs oz ml l dl cl cc µl tsp tbsp mmol/l
    mmol/mol µmol/l umol/l mg/dl mg/l g/dl g/l mg/kg mcg/kg meq/l iu iu/l u/l units unit
    ml/min ml/min/1.73m2 ml/min/1.73m² l/min bpm breaths/min /min mmhg cmh2o kpa hpa psi %
    percent pct bps mm cm km inch inches ft feet foot mi mile miles yd yards m² m2 sqft
    acres hectares ms sec secs second seconds min mins minute minutes hr hrs hour hours day
    days week weeks wk wks month months mos year years yr yrs night nights decade decades
    kb mb gb tb kib mib gib tib kbps mbps gbps hz khz mhz ghz kw kwh mwh mah wh kcal cal
    calories kj x times time puff puffs tablet tablets tab tabs capsule capsules caps pill
    pills drop drops spray sprays dose doses injection injections session sessions cycle
    cycles shot shots sachet sachets patch patches vial vials ampoule ampoules people
    persons employees staff students users items pcs pieces pages words characters lines
    rows servings steps reps sets laps stars points pts votes seats beds rooms bedrooms
    floors storeys stories pounds dollars euros cents pence yen rupees kids children adults
    grams litres liters kilos kilograms metres meters
    """.split(),
    key=len,
    reverse=True,
)
_UNITS_ATTACHED = ["m", "s", "h", "k", "p", "d", "w", "y", "g", "l", "x"]
_CURRENCY_SIGN = r"[$£€¥₹₩₽₺¢₪₫₱฿]|R\$|A\$|C\$|NZ\$|HK\$|S\$|US\$|CHF|Fr\.?"
_MONEY_WORDS = r"dollars?|euros?|pounds?|pence|cents?|yen|yuan|rupees?|francs?|bucks|quid|usd|eur|gbp|元|円|원|块"
_SCALE = r"(?:\s?(?:k|m|bn|mn|million|billion|thousand|grand))?"
_PER = r"(?:\s?(?:/|per\s|a\s)(?:day|night|week|month|year|hr|hour|yr|mo|wk|person|pp|kg|unit|head|seat|year)\b)?"

_SECTION_WORDS = (
    r"sections?|secs?\.?|§§?|ss?\.|articles?|arts?\.|chapters?|ch\.|rules?|clauses?|paragraphs?|"
    r"paras?\.|schedules?|parts?|titles?|regulations?|regs?\.|subsections?|amendments?|"
    r"recitals?|annex|appendix|items?|points?|questions?|steps?|pages?|pp?\.|forms?|lines?"
)
_LAW_TAIL = (
    r"Act|Code|Regulations?|Directive|Statute|Constitution|Convention|Treaty|Ordinance|"
    r"Rules of [A-Z][a-z]+ Procedure|Bill of Rights|Amendment|GDPR|HIPAA|FERPA|FMLA|ADA|CCPA"
)

#: Namespaces of widely used libraries and platforms (a dotted name under one of them is
#: code: "System.Windows.Media", "org.springframework.dao", "np.linalg.norm").
_LIBRARIES = (
    r"System|Microsoft|java|javax|android|androidx|kotlin|org\.springframework|org\.apache|"
    r"org\.hibernate|o\.h|com\.google|com\.fasterxml|os|sys|re|json|np|numpy|pd|pandas|torch|tf|"
    r"psycopg2|sqlalchemy|django|flask|requests|urllib|asyncio|std|boost|React|Vue|angular|"
    r"document|window|console|Math|JSON|Object|Array|String|Promise|process|fs|path|http"
)

#: Addresses of every machine, no one's: any address, loopback, broadcast and netmasks.
_EVERY_MACHINE = r"0\.0\.0\.0|127(?:\.\d{1,3}){3}|255\.255\.255\.\d{1,3}"

#: (reason, pattern) of every zone; patterns run over the whole text.
_ZONE_SOURCES: list[tuple[str, str, int]] = [
    # Money: "$2,400", "£3,850.00", "35 EUR", "EUR 35", "USD 1.2m", "2,400 dollars".
    ("money", rf"(?:{_CURRENCY_SIGN})\s?{_SIGNED}{_SCALE}{_PER}(?![\w/])", re.IGNORECASE),
    ("money", rf"(?<![\w.,]){_SIGNED}{_SCALE}\s?(?:{_CURRENCY_SIGN})(?!\w)", 0),
    ("money", rf"(?<![\w.,]){_SIGNED}{_SCALE}\s?(?:{_MONEY_WORDS})\b", re.IGNORECASE),
    # Percentages: "8.4%", "15 percent".
    ("percentage", rf"(?<![\w.,]){_SIGNED}\s?(?:%|per ?cent\b|pct\b)", re.IGNORECASE),
    # Blood pressure "160/95" (checked for plausibility below).
    ("blood pressure", r"(?<![\w/.])(\d{2,3})\s?/\s?(\d{2,3})(?:\s?mm\s?hg)?(?![\w/]|\.\d)", re.IGNORECASE),
    # Reference ranges and ratios: "(ref 7-56)", "20-41", "50/50", "3:1".
    ("quantity", r"(?<=\(ref\s)\d+(?:\.\d+)?\s?[-–]\s?\d+(?:\.\d+)?|\(\s?\d+(?:\.\d+)?\s?[-–]\s?\d+(?:\.\d+)?\s?\)", re.IGNORECASE),
    ("quantity", r"(?<![\w/.])(?:[4-9]\d|1\d\d)/(?:[4-9]\d|1\d\d)(?![\w/]|\.\d)", 0),
    # A range of two small numbers, lower first: "20-41" in a lab table, "ages 8-12"
    # (checked below: never a day and a month, never after an identifier's label).
    ("range", r"(?<![\w/.:\-])(\d{1,3}(?:\.\d+)?)\s?[-–]\s?(\d{1,3}(?:\.\d+)?)(?![\w/:\-]|\.\d)", 0),
    # School years, quarters, tax years: "Year 9", "Q1", "2023-24".
    ("period", r"\b(?:[Yy]ear|[Gg]rade|Class|Key Stage|KS)\s?\d{1,2}\b|\bQ[1-4]\b|\b(?:19|20)\d{2}[-–/](?:\d{2})\b(?![-/.]\d)", 0),
    # Durations and counts: "6 weeks", "2 puffs", "4 times a day", "x3".
    ("quantity", r"(?<![\w.])x\s?\d{1,3}(?![\w.])", re.IGNORECASE),
    ("frequency", r"\b(?:once|twice|\d{1,2}\s?(?:x|times))\s+(?:a|per|each|every)\s+(?:day|week|month|year|night|hour)\b", re.IGNORECASE),
    # Versions and package specifiers: "numpy==1.26.4", "v2.3.1", "Python 3.12", "python:3.12-slim".
    ("version", r"(?<![\w.])(?!\d{1,3}(?:\.\d{1,3}){3}(?![\w.]))v?\d+(?:\.\d+){2,3}(?:[-.+]?(?:a|b|rc|alpha|beta|dev|post|final|lts)\d*)?(?!\w|\.\w)", re.IGNORECASE),
    ("version", r"[\w.\-\[\]]+(?:===?|~=|!=|>=|<=|@)\s?v?\d[\w.*+\-]*", 0),
    ("version", r"\b(?:version|ver\.?|release|v)\s?\d+(?:\.\d+)*[\w.\-]*", re.IGNORECASE),
    ("version", r"\b(?:Python|Java|Node(?:\.js)?|Ruby|Go|PHP|Perl|Rust|Swift|Kotlin|Scala|"
     r"Ubuntu|Debian|Fedora|CentOS|Windows|macOS|iOS|Android|Chrome|Firefox|Safari|Edge|"
     r"PostgreSQL|Postgres|MySQL|Redis|Django|Flask|React|Angular|Vue|Qt|PySide6|GCC|"
     r"CUDA|Excel|Office|SQL Server)\s\d+(?:\.\d+)*\b", 0),
    # Ports: "localhost:5432", "port 8080".
    ("port", r"(?<=[A-Za-z\]]):\d{2,5}(?![\w.:])", 0),
    ("port", r"\bports?\s\d{2,5}\b", re.IGNORECASE),
    # Code identifiers: dotted paths with a capitalised or error part, scopes,
    # calls, camelCase names, snake_case with a code neighbour, file names.
    ("code", r"(?<![\w@/.])(?!(?:com|org|net|io|de|uk|fr)\.)(?:[A-Za-z_][\w]*\.)+[A-Za-z_]*(?:Error|Exception|Warning|Exit|Interrupt)[\w]*(?![\w@])", 0),
    ("code", rf"(?<![\w@/.])(?:{_LIBRARIES})(?:\.[A-Za-z_]\w*)+(?:\(\))?(?![\w@])", 0),
    ("code", r"(?<![\w@/])[A-Za-z_][\w.]*(?:::|->)[\w:~<>]+", 0),
    ("code", r"(?<![\w@/.])[a-z_][a-z0-9_]*(?:\.[a-z0-9_]+)*\.[a-z0-9]*_[a-z0-9_]*(?![\w@])", 0),  # "pm.max_children"
    # An SSH remote of a public forge is no one's address: "git@gitlab.com".
    ("code", r"\bgit@(?:github|gitlab|bitbucket|codeberg|gitea)\.(?:com|org)\b", 0),
    ("code", r"(?<![\w@/.])[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+(?:\(\))?(?![\w@])", 0),
    ("code", r"(?<![\w@/.])[A-Za-z_][\w.]*\(\)", 0),
    ("code", r"(?<![\w@/.\\\-])[\w\-]{2,}(?:\.min)?\.(?:py|pyc|js|mjs|ts|tsx|jsx|sh|bash|ps1|bat|java|class|jar|c|h|cc|cpp|hpp|cs|go|rs|rb|php|pl|swift|kt|scala|sql|json|yaml|yml|toml|ini|cfg|conf|xml|html?|css|scss|md|rst|txt|csv|tsv|log|lock|env|dll|so|dylib|exe|msi|apk|dmg|whl|tar|gz|zip|ipynb|pem|crt|cer|csr|p12|pfx|jks|keystore)(?![\w]|\.\w)", 0),
    ("code", r"\b[a-z][a-z0-9\-]*:[\d][\w.\-]*", 0),  # "python:3.12-slim"
    ("code", r"`[^`\n]{1,120}`", 0),  # inline code the person marked as code
    # Calls "connect(dsn)", "ValueError(msg)"; "Hermann(Germany)" is a name and its country.
    ("code", r"(?<![\w@/.])(?:[a-z_][\w.]*|[A-Z][\w]*[._][\w.]*)\([^()\n]{0,60}\)|(?<![\w@/.])[A-Z]\w*\((?:[^()\nA-Z][^()\n]{0,59}|[^()\n]{0,30}[,:=\d\"'][^()\n]{0,30})?\)", 0),
    ("code", r"\b(?!PRESIDIO_)[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b", 0),  # constants "POSTGRES_USER"
    ("code", r"(?<![\d:])(?=\d{3}|\d{2}:\d{3})\d{2,5}:\d{2,5}\b(?![:.]\d)", 0),  # port maps "5432:5432"
    # Absolute paths outside a home folder ("/opt/etl/load.py", "/var/run/x.sock").
    ("code", r"(?<![\w~./])/(?!/|home/|Users/|root/)(?:[\w.@\-]+/)+[\w.@\-]+", 0),
    ("code", r"(?<![\w~])~?/?\.[\w\-]+(?:/[\w.\-]+)+", 0),  # "~/.ssh/id_ed25519", ".npm/_cacache"
    # Error and fault codes: "error E:24", "code 0x80070005".
    ("code", r"\b(?:error|fault|status|exit)(?:\s+code)?\s+[A-Z]{0,3}[:\-]?\d{1,5}\b", re.IGNORECASE),
    ("code", r"\b0x[0-9a-fA-F]{2,16}\b", 0),
    # Addresses that identify no machine: "0.0.0.0", "127.0.0.1", "localhost".
    ("code", rf"(?<![\d.])(?:{_EVERY_MACHINE})(?:\:\d{{2,5}})?(?![\d.])|\blocalhost(?::\d{{2,5}})?\b", 0),
    # A placeholder-like string the person wrote is text, not a value.
    ("placeholder", r"\[[A-Z][A-Z_]*_\d{1,4}\]", 0),
    # Hex colours "#4c51bf" and hashes of commits are not people.
    ("code", r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})(?![\w-])(?=\s*[;,)\"'}]|\s*$)", re.MULTILINE),
    # A Kubernetes pod's generated name: "ledger-api-7d9f8c6b5-x2kq4".
    ("code", r"\b[a-z][a-z0-9\-]*-[a-f0-9]{8,10}-[a-z0-9]{5}\b", 0),
    # A product's acronym and its version: "EKS 1.29", "TLS 1.3".
    ("version", r"\b[A-Z]{2,6}\s?v?\d{1,2}\.\d{1,3}(?:\.\d+)?\b(?!\.\d)", 0),
    # Timings in logs: "1841ms", "0.3s".
    ("quantity", r"(?<![\w.])\d+(?:\.\d+)?(?:ms|µs|us|ns)(?![\w])", 0),
    # Laws and their sections: "Texas Property Code section 92.103", "Article 17 GDPR",
    # "the Landlord and Tenant Act 1985", "§ 1983", "Title VII".
    ("law", rf"\b(?:[A-Z][\w.&'’-]*\s+(?:(?:of|and|for|on|the|&)\s+)?){{0,7}}(?:{_LAW_TAIL})\b(?:\s+(?:of\s+)?\d{{4}})?", 0),
    ("law", r"\b(?:[a-z]+\s+(?:and|of|for|&)\s+)?(?:[a-z]+\s+){0,2}[a-z]+\s+(?:act|code|regulations?|directive)\s+(?:of\s+)?\d{4}\b", 0),
    ("law", r"\b(?:schedule|form|annex|appendix|exhibit|part)\s[A-Z]\b", re.IGNORECASE),
    ("law", rf"(?:{_SECTION_WORDS})\s?(?:\d+[\w.]*(?:\(\w{{1,4}}\))*|[IVXLC]+\b)(?:\s?(?:,|and|or|-|–|to)\s?\d+[\w.]*(?:\(\w{{1,4}}\))*)*", re.IGNORECASE),
    ("law", r"\b\d+\s?(?:U\.?S\.?C\.?|C\.?F\.?R\.?)\s?§*\s?\d+[\w.]*", 0),
    # EU acts by number: "Directive 2006/112/EC", "Regulation (EU) 2016/679", "261/2004".
    ("law", r"\b(?:Directive|Regulation|Decision)\s+(?:\((?:EU|EC|EEC)\)\s+)?(?:No\.?\s+)?"
     r"\d{2,4}/\d{1,4}(?:/(?:EC|EU|EEC|CE))?\b", re.IGNORECASE),
]

_ZONES = [(reason, re.compile(p, flags)) for reason, p, flags in _ZONE_SOURCES]

#: A unit after a number: "180 L/min", "9.8 mmol/L", "39.2 °C", "6 weeks", "20p".
_UNIT_RE = re.compile(
    rf"(?<![\w.,]){_SIGNED}(?:\s?(?:-|–|to)\s?{_NUM})?(?:\s?(?:{'|'.join(re.escape(u) for u in _UNITS_SPACED)})"
    rf"|(?:{'|'.join(_UNITS_ATTACHED)}))(?![\w])(?![- ]olds?\b)",
    re.IGNORECASE,
)

#: Words that say the number after them identifies something (then no zone applies to it).
_ID_CONTEXT = re.compile(
    r"\b(?:(?:sort|zip|postal|post|area|security|access|verification|promo|discount|"
    r"booking|reference|confirmation)\s+code|"
    r"account|acct|a/c|number|no|num|nr|#|id|mrn|chart|record|patient|member|policy|"
    r"claim|case|ticket|order|invoice|ref|reference|booking|confirmation|passport|licen[cs]e|"
    r"ssn|nhs|nino|card|iban|sort|routing|pin|phone|tel|mobile|cell|fax|ext|extension|room|"
    r"flat|apt|apartment|unit|suite|bed|ward|badge|employee|staff|student|roll|serial|"
    r"vin|plate|registration|reg|zip|postcode|postal)\W{0,3}$",
    re.IGNORECASE,
)
#: Words that label a value ("invoice INV-1", "passport number X48"): never the value itself.
LABEL_WORDS = frozenset(
    """account acct number no num nr id ids mrn record records patient member membership policy
    claim case ticket order invoice ref reference booking confirmation passport licence license
    card iban sort code routing pin phone tel telephone mobile cell fax email e-mail mail
    address user username login password dob date birth ssn postcode zip serial badge
    employee staff student registration plate vin tax vat""".split()
)

#: A possessive and a word for a relative in the languages people mix into English
#: messages ("Mi madre", "ma mère", "meine Mutter", "minha mãe").
_KINSHIP = re.compile(
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
    r"\b(?:writer|editor|operator|cleaner|consultant|clerk|engineer|manager|nurse|teacher|officer|"
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
    r"butcher|barber|hairdresser|fumigator|geologist|biologist|chemist|physicist)s?\b",
    re.IGNORECASE,
)
_TITLE_CASE_NAME = re.compile(r"[A-Z][\w'’&.-]*(?:\s+(?:of|and|the|for|&)?\s*[A-Z][\w'’&.-]*)+")

#: Short labels that belong to the value after them ("MRN KDH-77419", "ID W284719305").
CODE_LABELS = frozenset({"mrn", "id", "ssn", "dob", "nhs", "nino", "vin", "pin", "no", "nr", "ref", "#"})

#: Words near a bare small number that make it an age.
_AGE_CONTEXT = re.compile(
    r"\b(?:son|daughter|child|kid|boy|girl|baby|toddler|teen|teenager|brother|sister|"
    r"mother|mum|mom|father|dad|grandmother|grandfather|grandma|grandpa|wife|husband|"
    r"partner|patient|aged?|age of|turned|turns|is|was)\W{0,3}$",
    re.IGNORECASE,
)
_TITLE_RE = re.compile(
    r"^(?:mr|mrs|ms|miss|mx|dr|prof|professor|sir|madam|dame|rev|fr|capt|sgt|lt|col|gen|hon|"
    r"herr|frau|mme|mlle|m|sr|sra|srta|dott|ing)$",
    re.IGNORECASE,
)
#: Punctuation that separates items: a span never runs across it.
_SEPARATORS = re.compile(
    r"[;|•·\t()\[\]{}]|\s[-–—]\s|\n\s*[-*•]\s|\n[ \t]+|\n\s*\n"
    # A full stop then a capital ends a sentence, unless it follows an initial or a title.
    r"|(?<![\s.][A-Z])(?<!\b(?:Mr|Ms|Dr|St|Jr|Sr))(?<!\bMrs)(?<!\bProf)\.\s+(?=[A-Z])"
)
#: Types whose own format, when present in the span, puts it beyond the zones.
_DIGITS = re.compile(r"\d")


#: An account's namespace on a forge or a registry ("ghcr.io/mdobrescu/app").
_NAMESPACE = re.compile(
    r"\b(?:ghcr\.io|docker\.io|quay\.io|github\.com|gitlab\.com|bitbucket\.org)/[A-Za-z0-9]"
)
_FORGE_REMOTE = re.compile(r"\bgit@(?:github|gitlab|bitbucket|codeberg|gitea)\.(?:com|org)\b")
_EMAIL = re.compile(r"[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+")
_URL = re.compile(r"(?:https?|wss?|ftps?|sftp|ssh|s3|gs)://\S+|www\.[\w\-]+\.[a-z]{2,}\S*", re.IGNORECASE)
_IP = re.compile(r"(?<![\d.])\d{1,3}(?:\.\d{1,3}){3}(?![\d.])|\b[0-9a-fA-F]{1,4}(?::[0-9a-fA-F]{0,4}){4,7}\b")
@lru_cache(maxsize=1)
def _rule_patterns() -> tuple[list[re.Pattern[str]], list[re.Pattern[str]]]:
    """The rules view's user-path and credential patterns, compiled once."""
    from core.detect.rules import SECRET, USER_PATH

    flags = re.IGNORECASE | re.MULTILINE
    return [re.compile(p, flags) for p in USER_PATH], [re.compile(p, flags) for p in SECRET]


#: An account, policy or record number, label allowed ("MRN KDH-77419", "#BX-55910273").
_ACCOUNT_SHAPE = re.compile(r"(?:[A-Za-z#]{1,6}[\s:#.]{0,3})?#?[A-Z0-9]{0,6}[-\s]?\d[\dA-Z\- ]{2,24}", re.IGNORECASE)
_STREET = re.compile(
    r"\b\d{1,6}[a-z]?,?\s+(?:[\w.'’\-]+\s+){0,4}(?:st|street|ave|avenue|rd|road|blvd|boulevard|"
    r"ln|lane|way|dr|drive|ct|court|pl|place|ter|terrace|close|cl|crescent|row|gardens|sq|square|"
    r"hwy|highway|pkwy|parkway|cir|circle|walk|mews|grove|hill|park|rue|strasse|straße|calle|via)\b",
    re.IGNORECASE,
)
_POSTCODE = re.compile(
    r"\b[A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2}\b|\b[A-Z]{2}\s\d{5}(?:-\d{4})?\b", re.IGNORECASE
)


def _format_ok(text: str, span: Span) -> bool:
    """True when the span's text has the shape of an identifier format (then zones never cut it).

    An e-mail, a URL, an IP address, a user's home path or a credential keeps
    its span whatever type fusion gave it; a phone, card, SSN or IBAN needs
    seven digits or more; a street address a number and a word.
    """
    value = text[span.start : span.end]
    if _FORGE_REMOTE.search(value):
        return False
    if _EMAIL.search(value) or _URL.search(value) or _IP.search(value):
        return True
    paths, secrets = _rule_patterns()
    if any(p.search(value) for p in (*paths, *secrets)) or _NAMESPACE.search(value):
        return True
    digits = len(_DIGITS.findall(value))
    t = span.type
    if t in (EntityType.PHONE, EntityType.CREDIT_CARD, EntityType.SSN, EntityType.IBAN):
        return digits >= 7
    if t is EntityType.ADDRESS:
        return bool(_STREET.search(value) or _POSTCODE.search(value))
    if t in (EntityType.MRN, EntityType.ACCOUNT):
        return digits >= 4 and bool(_ACCOUNT_SHAPE.fullmatch(value))
    return False


def zones(text: str, lexicon: Lexicon | None, table: Atoms | None = None) -> list[tuple[int, int, str]]:
    """Stretches of ``text`` that identify nobody, as ``(start, end, reason)``."""
    out: list[tuple[int, int, str]] = []
    for reason, pattern in _ZONES:
        for m in pattern.finditer(text):
            if reason == "blood pressure" and not _plausible_pressure(text, m):
                continue
            if reason == "range":
                if not _plausible_range(text, m):
                    continue
                reason = "quantity"
            if m.end() > m.start():
                out.append((m.start(), m.end(), reason))
    for m in _UNIT_RE.finditer(text):
        out.append((m.start(), m.end(), "quantity"))
    table = table or atoms(text)
    if lexicon is not None:
        for a, b in zip(table.starts, table.ends, strict=True):
            word = text[a:b]
            if _TITLE_RE.match(word):
                out.append((a, b, "title"))
            elif lexicon.is_term(word):
                out.append((a, b, "term"))
            elif word.upper() in lexicon.currencies and word.isupper():
                out.append((a, b, "money-code"))
            elif len(word) >= 4 and lexicon.public_kind(word) == "drug" and lexicon.zipf(word) < 3.0:
                out.append((a, b, "drug"))
    else:
        for a, b in zip(table.starts, table.ends, strict=True):
            if _TITLE_RE.match(text[a:b]):
                out.append((a, b, "title"))
    return out


_RANGE_CUE = re.compile(r"\b(?:range|ref|reference|normal|target|between|ages?|aged|scores?|grades?|levels?)\b", re.IGNORECASE)


def _plausible_range(text: str, m: re.Match[str]) -> bool:
    low, high = float(m.group(1)), float(m.group(2))
    if not low < high:
        return False
    before = text[max(0, m.start() - 24) : m.start()]
    if _ID_CONTEXT.search(before):
        return False
    # "3-12" may be a day and a month; a range only with a word that says so.
    line_start = text.rfind("\n", 0, m.start()) + 1
    header = text[max(0, text.rfind("\n", 0, max(0, line_start - 1)) + 1) : line_start]
    return high > 31 or bool(_RANGE_CUE.search(before) or _RANGE_CUE.search(header))


def _plausible_pressure(text: str, m: re.Match[str]) -> bool:
    sys_, dia = int(m.group(1)), int(m.group(2))
    if not (60 <= sys_ <= 280 and 30 <= dia <= 180 and sys_ > dia):
        return False
    if sys_ > 31:  # not a day or a month: no date reads this way
        return True
    before = text[max(0, m.start() - 30) : m.start()].lower()
    return "bp" in before or "pressure" in before or "mmhg" in m.group(0).lower()


def _subtract(span: Span, covered: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    pieces = [(span.start, span.end)]
    for a, b in covered:
        if b <= span.start or a >= span.end:
            continue
        nxt = []
        for x, y in pieces:
            if b <= x or a >= y:
                nxt.append((x, y))
                continue
            if x < a:
                nxt.append((x, a))
            if b < y:
                nxt.append((b, y))
        pieces = nxt
    return pieces


def _split_open_bracket(text: str, span: Span) -> list[tuple[int, int]]:
    """A bracket opened inside a span and not closed there separates two values:
    "Mercedes-Benz GLC 300 (VIN W1N0G8EB4MF912345" is a car and its number."""
    value = text[span.start : span.end]
    i = value.find(" (")
    if i <= 0 or ")" in value[i:]:
        return [(span.start, span.end)]
    return [(span.start, span.start + i), (span.start + i + 2, span.end)]


def _split_separators(text: str, span: Span) -> list[tuple[int, int]]:
    pieces, pos = [], span.start
    for m in _SEPARATORS.finditer(text, span.start, span.end):
        pieces.append((pos, m.start()))
        pos = m.end()
    pieces.append((pos, span.end))
    out = []
    for a, b in pieces:
        # A flight number is a value of its own: "Thai Airways TG 917" is an airline
        # and a flight (see core.policy), never one name.
        # The code may close the span with its digits outside it ("air canada AC" 868).
        f = FLIGHT.search(text, a, min(len(text), b + 6))
        if f is not None and a < f.start() < b and flight_context(text, f.start()):
            out += [(a, f.start()), (f.start(), max(b, f.end()))]
        else:
            out.append((a, b))
    return [(a, b) for a, b in out if a < b]


#: A flight number: an airline's two-character code and one to four digits ("LH 401", "U2 1234").
FLIGHT = re.compile(r"\b(?:[A-Z]{2}|[A-Z]\d|\d[A-Z])\s?\d{1,4}[A-Z]?\b", re.IGNORECASE)
_FLIGHT_WORDS = re.compile(
    r"\b(?:flights?|flew|fly|flying|airlines?|airways|air\s+\w+|booked on|rebooked on|"
    r"boarding|departure|arrival|lufthansa|ryanair|easyjet|klm|delta|united|emirates|iberia)\W*"
    r"(?:\w+\W+){0,2}$",
    re.IGNORECASE,
)


def flight_context(text: str, start: int) -> bool:
    """True when the words before ``start`` speak of a flight or an airline."""
    return bool(_FLIGHT_WORDS.search(text[max(0, start - 40) : start]))


def _before(text: str, start: int, n: int = 24) -> str:
    return text[max(0, start - n) : start]


def _small_number(value: str) -> bool:
    """One to three digits, with an optional decimal part ("7", "52", "7.5")."""
    return bool(re.fullmatch(r"\d{1,3}(?:[.,]\d{1,2})?", value))


#: Words that make a name an organisation's ("Cedar Ridge Orthopedics", "Clínica Dental ...").
ORG_WORDS = re.compile(
    r"\b(?:hospital|clinic|cl[ií]nica|klinik|surgery|medical|health|healthcare|dental|dentistry|"
    r"orthopedics|orthopaedics|pediatrics|paediatrics|veterinary|vets|pharmacy|practice|"
    r"general|infirmary|hospice|care|school|academy|college|university|institute|nursery|"
    r"ltd|llc|llp|inc|plc|gmbh|ag|sa|bv|co|corp|corporation|company|group|holdings|partners|"
    r"associates|consulting|services|solutions|systems|technologies|tech|labs?|studios?|"
    r"logistics|joinery|builders|bakery|caf[eé]|restaurant|hotel|motel|bank|insurance|"
    r"mortgage|mortgages|capital|ventures|foundation|trust|charity|church|mosque|temple|"
    r"council|agency|house|centre|center|robotics|motors|airways|airlines|travel|energy)\b",
    re.IGNORECASE,
)
_LABEL_END = re.compile(r"\s+(?:member|account|number|no|id|customer|policy|ref)\.?$", re.IGNORECASE)
_INSTITUTION_AFTER = re.compile(
    r"\s+(?:current\s+|savings\s+|credit\s+|debit\s+)?(?:account|card|bank|app|store|shop|"
    r"order|plan|policy|subscription|membership|customer service|support|website|"
    r"dishwasher|washer|fridge|laptop|phone|router|flight|airline|hotel)\b",
    re.IGNORECASE,
)
#: A user name or host name: a single token with an underscore or a digit, or a
#: lower-case hyphenated one ("etl_rbaptiste", "nas-dobrescu", "tzack88").
_HANDLE = re.compile(r"(?=\S*[_\d])[\w.\-]+|[a-z][a-z0-9]*(?:-[a-z0-9]+)+")
#: A secret written as key = value: only the value is the secret.
_KEY_VALUE = re.compile(r"""^([\w.\-]+["']?\s*[:=]\s*["'“‘]?)(\S.*)$""")
#: A setting's name before its value ("POSTGRES_PASSWORD: hX9#", "api_key=..."): the name is
#: code, the value may be a secret.
_SETTING_KEY = re.compile(r"^(?:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[a-z][a-z0-9]*(?:_[a-z0-9]+)+)\s*[:=]")


def _is_cased(text: str) -> bool:
    """True when the text uses capitals the ordinary way (so a lower-case word is no name)."""
    words = re.findall(r"[^\W\d_]+", text[:4000])
    if len(words) < 6:
        return False
    capital = sum(1 for w in words if w[0].isupper())
    return capital / len(words) >= 0.06 and not all(w.isupper() for w in words)


def _near_person(person_ends: Sequence[int], span: Span, text: str) -> bool:
    """A person's name ends at most three characters before the span ("Elias Brandt (9)")."""
    i = bisect.bisect_left(person_ends, span.start - 3)
    if i < len(person_ends) and person_ends[i] <= span.start:
        return text[person_ends[i] : span.start].strip() in ("", "(", ",")
    return False


def _common_only(text: str, span: Span, lexicon: Lexicon) -> bool:
    """Lower-case common words only, none of them a known place or company.

    Two or more words the model read as a person's name are left alone: names
    are common words too ("mia rodriguez", "grant").
    """
    value = text[span.start : span.end]
    words = re.findall(r"[^\W\d_]+", value)
    if not words or (span.type is EntityType.PERSON and len(words) > 1) or _DIGITS.search(value):
        return False
    if JOB_TITLE.search(value):
        return False  # a job title is made of common words and is a quasi-identifier
    if lexicon.public_kind(value) is not None:
        return False
    return all(
        w.islower() and lexicon.zipf(w) >= COMMON_ZIPF and not lexicon.is_term(w) for w in words
    )


def _unspaced_only(value: str) -> bool:
    """One character of a script without spaces: too little for the model to be sure of."""
    from core.detect.tokens import _unspaced

    letters = [c for c in value if c.isalnum()]
    return len(letters) == 1 and _unspaced(letters[0])


def _ner_only_unsure(span: Span) -> bool:
    evidence = {k: v for k, v in span.views.items() if k != "name-extent"}
    return set(evidence) == {"ner"} and evidence["ner"] < UNSURE


_KEEP_WHOLE = frozenset({"deny-list", "box"})


def refine(text: str, spans: Iterable[Span], lexicon: Lexicon | None = None) -> list[Span]:
    """Apply the rules of this module to ``spans`` of ``text``; return them merged."""
    # Touching pieces are one token's (the model reads "北京" one character at a time).
    spans = _join_names(text, merge_spans(spans))
    if not spans:
        return []
    spans += _other_script_names(text, spans)
    table = atoms(text)
    found = _Zones((*table.covering(a, b), reason) for a, b, reason in zones(text, lexicon, table))
    cased = _is_cased(text)
    kept: list[Span] = []
    for span in spans:
        if span.views.keys() & _KEEP_WHOLE:
            kept.append(span)
            continue
        pieces = (
            _split_separators(text, span)
            if span.type in _NAME_TYPES
            else _split_open_bracket(text, span)
        )
        for k, (a, b) in enumerate(pieces):
            if k > 0 and not _holds_word(text, table, a, b):
                # What ran past a separator into part of a word carries nothing.
                continue
            for piece in snap(text, [Span(a, b, span.type, span.score, span.views)], table):
                kept.extend(_apply_zones(text, piece, found, table, lexicon))
    kept.sort(key=lambda x: x.start)
    kept_starts = [x.start for x in kept]
    persons = sorted(x.end for x in kept if x.type is EntityType.PERSON)
    out: list[Span] = []
    for span in kept:
        if span.views.keys() & _KEEP_WHOLE:
            out.append(span)
            continue
        retyped = _retype(text, span, lexicon, cased)
        if retyped is None:
            continue
        span = retyped
        value = text[span.start : span.end]
        if span.type in _DIGIT_TYPES and not any(c.isdigit() for c in value):
            # A phone, card or account number without a digit is a word the model
            # read next to one ("net" of "net 30").
            continue
        if span.type is EntityType.AGE and (m := re.search(r"\d+", value)) and int(m.group(0)) > 125:
            # "below 200" is no one's age.
            continue
        if _small_number(value) and span.type not in (EntityType.DATE, EntityType.ADDRESS):
            if _ID_CONTEXT.search(_before(text, span.start)):
                out.append(span)
            elif span.type is EntityType.AGE or _AGE_CONTEXT.search(
                _before(text, span.start)
            ) or _near_person(persons, span, text):
                out.append(Span(span.start, span.end, EntityType.AGE, span.score, span.views))
            continue
        words = re.findall(r"[^\W\d_]+|\d+", value)
        if words and all(w.casefold() in LABEL_WORDS for w in words):
            # A label ("invoice", "passport number") is no value; one the model
            # typed like the value right after it ("mrn CHSA-774291") goes with it.
            j = bisect.bisect_left(kept_starts, span.end + 1)
            nxt = kept[j] if j < len(kept) and kept[j].start - span.end <= 2 else None
            if nxt is None or nxt.type is not span.type or value.casefold() not in CODE_LABELS:
                continue
        if lexicon is not None and words and all(
            w.islower() and lexicon.zipf(w) >= FUNCTION_ZIPF for w in words
        ):
            # "of", "and", "the": function words are never a value.
            continue
        if span.type is EntityType.PERSON and _KINSHIP.fullmatch(value):
            # "Mi madre", "ma mère", "meine Mutter": a relative named by the relation,
            # in the language a person writes about family in; no one's name.
            continue
        if (
            cased
            and span.type in _NAME_TYPES
            and value.islower()
            and not _HANDLE.fullmatch(value)
            and (lexicon is None or lexicon.public_kind(value) is None)
            and not JOB_TITLE.search(value)
            and span.views.get("ner", 0.0) < LOWER_IN_CASED
            and set(span.views) - {"name-extent"} == {"ner"}
        ):
            # In a text written with capitals, a lower-case word the model was not
            # sure of is no name ("warehouse", "forklift", "salaried").
            continue
        if (
            span.type is EntityType.OTHER
            and _ner_only_unsure(span)
            and span.views.get("ner", 0.0) < BARELY
            and re.fullmatch(r"[A-Z]{2,8}|[^\w\s]*\w{1,3}[^\w\s]+\w*", value)
        ):
            # An acronym or a symbol the model barely took for "some other detail"
            # ("VLOOKUP", "#N/A").
            continue
        if (
            span.type is EntityType.OTHER
            and _ner_only_unsure(span)
            and lexicon is not None
            and not JOB_TITLE.search(value)
            and not _TITLE_CASE_NAME.fullmatch(value)
        ):
            found_words = re.findall(r"[^\W\d_]+", value)
            if found_words and all(
                len(w) >= 3 and lexicon.zipf(w) >= COMMON_ZIPF for w in found_words
            ):
                continue
        if _ner_only_unsure(span) and (
            (lexicon is not None and _common_only(text, span, lexicon))
            or _unspaced_only(value)
        ):
            continue
        out.append(span)
    return merge_spans(out)


class _Zones:
    """Zones sorted by start, for the zones overlapping a span in logarithmic time."""

    def __init__(self, found: Iterable[tuple[int, int, str]]) -> None:
        self.items = sorted(found)
        self.starts = [a for a, _, _ in self.items]
        self.longest = max((b - a for a, b, _ in self.items), default=0)
        words = [z for z in self.items if z[2] in _WORD_ZONES]
        self.word_items = words
        self.word_starts = [a for a, _, _ in words]

    def overlapping(self, a: int, b: int) -> list[tuple[int, int, str]]:
        i = bisect.bisect_left(self.starts, b)
        lo = bisect.bisect_left(self.starts, a - self.longest)
        return [z for z in self.items[lo:i] if z[1] > a]

    def word_covers(self, a: int, b: int) -> bool:
        """True when one word zone holds all of ``[a, b)``."""
        hi = bisect.bisect_right(self.word_starts, a)
        lo = bisect.bisect_left(self.word_starts, a - self.longest)
        return any(z[1] >= b for z in self.word_items[lo:hi])


def _apply_zones(
    text: str, span: Span, found: _Zones, table: Atoms, lexicon: Lexicon | None = None
) -> list[Span]:
    if _format_ok(text, span):
        return [span]
    before = _before(text, span.start, 16)
    id_context = _ID_CONTEXT.search(before) is not None
    covered = [
        (a, b)
        for a, b, reason in found.overlapping(span.start, span.end)
        if reason not in _WORD_ZONES and not (id_context and reason in _ID_LIKE_ZONES)
    ]
    pieces = [span]
    if covered:
        pieces = []
        for a, b in _subtract(span, covered):
            for piece in snap(text, [Span(a, b, span.type, span.score, span.views)], table):
                # A piece that snapping widened back over a zone is no piece at all.
                if not any(za <= piece.start and piece.end <= zb for za, zb in covered):
                    pieces.append(piece)
    # Titles and generic terms never cut a span ("Dr. Lena Patel" and "MRN 4471-2290"
    # stay whole): a piece made of nothing else is dropped.
    return [p for p in pieces if not _only_words(text, p, table, found, lexicon)]


def _holds_word(text: str, table: Atoms, a: int, b: int) -> bool:
    """True when ``[a, b)`` holds a whole atom, or a run of letters that starts after a
    bracket or a slash inside one ("Guangzhou" of "Collection(Guangzhou)")."""
    if any(a <= x and y <= b for x, y in _atoms_in(table, a, b)):
        return True
    return a > 0 and text[a - 1] in "([{/" and b - a >= 2 and text[a:b].strip().isalnum()


def _atoms_in(table: Atoms, a: int, b: int) -> list[tuple[int, int]]:
    """The atoms that start inside ``[a, b)``."""
    i = bisect.bisect_left(table.starts, a)
    out = []
    while i < len(table.starts) and table.starts[i] < b:
        out.append((table.starts[i], table.ends[i]))
        i += 1
    return out


def _only_words(
    text: str, span: Span, table: Atoms, found: _Zones, lexicon: Lexicon | None = None
) -> bool:
    """True when every atom of ``span`` with a letter or digit is a title, a term or a
    function word ("and ssh"), and one at least is a title or a term."""
    inside = [
        (a, b)
        for a, b in _atoms_in(table, span.start, span.end)
        if b <= span.end and any(c.isalnum() for c in text[a:b])
    ]
    words = [(a, b) for a, b in inside if found.word_covers(a, b)]
    rest = [
        (a, b)
        for a, b in inside
        if (a, b) not in words
        and not (
            lexicon is not None
            and text[a:b].islower()
            and lexicon.zipf(text[a:b]) >= FUNCTION_ZIPF
        )
    ]
    return bool(words) and not rest


#: Types whose values are numbers: never without a digit.
_DIGIT_TYPES = frozenset(
    {
        EntityType.PHONE, EntityType.CREDIT_CARD, EntityType.SSN, EntityType.IBAN,
        EntityType.ACCOUNT, EntityType.MRN, EntityType.IP,
    }
)
#: Zones whose matches could be identifiers after a word such as "account" or "ref".
_ID_LIKE_ZONES = frozenset({"version", "port", "code", "law", "blood pressure"})
#: Zones of single words: they drop a span made only of them, and never cut one.
_WORD_ZONES = frozenset({"title", "term", "drug", "money-code"})
_NAME_TYPES = frozenset(
    {EntityType.PERSON, EntityType.ORG, EntityType.LOCATION, EntityType.NRP, EntityType.OTHER}
)
#: NER score from which a lower-case word in a cased text still counts as a name.
LOWER_IN_CASED = 0.9


#: One to four words of a non-Latin script right before "(", or inside "( )" right after.
_OTHER_SCRIPT = r"[^\W\d_A-Za-z\u00c0-\u024f][^\s()]*(?:\s[^\W\d_A-Za-z\u00c0-\u024f][^\s()]*){0,3}"
_SCRIPT_BEFORE = re.compile(rf"({_OTHER_SCRIPT})\s*\(\s*$")
_SCRIPT_AFTER = re.compile(rf"^\s*\(\s*({_OTHER_SCRIPT})\s*\)")


_INITIALS_AFTER = re.compile(r",\s?(?:[A-Z]\.\s?){1,3}")
#: What belongs to a name written before it: a title ("Mr. Rasooli", "dr lena patel").
_TITLE_BEFORE_NAME = re.compile(
    r"\b(?:mr|mrs|ms|miss|mx|dr|prof|sir|madam|dame|herr|frau|mme)\.?,?\s+$", re.IGNORECASE
)
#: ... and after it: a possessive ("Joseph's"), a citation's "et al.".
_NAME_TAIL = re.compile(r"['’][sS]\b|\s+et\s+al\.?", re.IGNORECASE)
_NAME_JOIN_TYPES = frozenset({EntityType.PERSON, EntityType.ORG, EntityType.LOCATION})


def _join_names(text: str, spans: list[Span]) -> list[Span]:
    """One name, one span: "QUARTEY-MENSAH, E." and pieces one space apart.

    The model sometimes starts a new entity at each word of a name
    ("Κωνσταντίνος" + "Παπαδόπουλος", "Clínica" + "Dental Sonrisa Azul"); two
    name pieces separated by a single space are one name. A surname followed
    by ", E." keeps its initials.
    """
    out: list[Span] = []
    for span in spans:
        if span.type in _NAME_JOIN_TYPES:
            start, end = span.start, span.end
            m = _INITIALS_AFTER.match(text, end) if span.type is EntityType.PERSON else None
            if m:
                end = m.end() - (1 if text[m.end() - 1] == " " else 0)
            after = _NAME_TAIL.match(text, end)
            if after:
                end = after.end()
            before = _TITLE_BEFORE_NAME.search(text, max(0, start - 12), start)
            if before and span.type is EntityType.PERSON:
                start = before.start()
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
            and text[prev.end : span.start] == " "
            and (
                text[prev.start].isupper() == text[span.start].isupper()
                or (prev.type is not EntityType.PERSON and text[span.start : span.end].isdigit())
            )
        ):
            joined = merge_spans([prev, Span(prev.end, span.start, prev.type, 0.0), span])[0]
            out[-1] = Span(joined.start, joined.end, joined.type, joined.score, joined.views)
            continue
        if prev is not None and span.start < prev.end:
            out[-1] = merge_spans([prev, span])[0]
            continue
        out.append(span)
    return out


def _other_script_names(text: str, spans: Sequence[Span]) -> list[Span]:
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


_NO_MACHINE = re.compile(rf"(?:{_EVERY_MACHINE}|::1?|localhost)(?::\d{{1,5}})?", re.IGNORECASE)


def _retype(text: str, span: Span, lexicon: Lexicon | None, cased: bool) -> Span | None:
    """Give a span the type its own text shows; trim a secret's key; None drops it."""
    value = text[span.start : span.end]
    t = span.type
    if _NO_MACHINE.fullmatch(value):
        # "0.0.0.0:5432", "127.0.0.1", "localhost": an address of every machine, no one's.
        return None
    if _IP.fullmatch(value):
        t = EntityType.IP
    elif _EMAIL.fullmatch(value):
        t = EntityType.EMAIL
    elif _URL.fullmatch(value):
        t = EntityType.URL
    elif t is EntityType.ID and _KEY_VALUE.match(value) and (
        "rules" in span.views or _SETTING_KEY.match(value)
    ):
        kv = _KEY_VALUE.match(value)
        if kv and (
            _SETTING_KEY.match(value) or any(p.search(value) for p in _rule_patterns()[1])
        ):
            a = span.start + len(kv.group(1))
            return Span(a, span.end, t, span.score, span.views) if a < span.end else None
    elif t in (EntityType.PERSON, EntityType.LOCATION) and ORG_WORDS.search(value) and (
        len(value.split()) >= 2
    ):
        # "Cedar Ridge Orthopedics", "Meadowsweet House": a practice, a home, a firm.
        t = EntityType.ORG
    elif t in _NAME_JOIN_TYPES and " " in value and _LABEL_END.search(value):
        # "Gold Plus Rewards member": the label stays out of the name.
        cut = _LABEL_END.search(value)
        assert cut is not None
        end = span.start + cut.start()
        while end > span.start and text[end - 1] in " \t,;:-–":
            end -= 1  # "Allianz Travel, policy": the comma goes with the label
        return Span(span.start, end, t, span.score, span.views) if end > span.start else None
    elif t is EntityType.PERSON and _INSTITUTION_AFTER.match(text, span.end):
        # "her Lloyds account", "my Chase Sapphire card": a bank, a shop, a provider.
        t = EntityType.ORG
    elif t is EntityType.PERSON:
        if _HANDLE.fullmatch(value) and " " not in value:
            t = EntityType.ID
        elif lexicon is not None and lexicon.public_kind(value) == "nationality":
            t = EntityType.NRP
        elif value.isalpha() and value.isupper() and 2 <= len(value) <= 6 and cased:
            # An acronym in a cased text names a body or a thing, not a person.
            t = EntityType.ORG
    elif (
        t in (EntityType.ORG, EntityType.LOCATION, EntityType.OTHER)
        and lexicon is not None
        and lexicon.public_kind(value) == "nationality"
    ):
        t = EntityType.NRP
    if t is span.type:
        return span
    return Span(span.start, span.end, t, span.score, span.views)

