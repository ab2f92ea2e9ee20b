"""Refining detected spans: whole tokens, and what is not an identifier.

Every detector ends with :func:`refine`, so the composer, the editor and the
egress guard all see the same spans. Views propose generously (the NER view
decodes at a low threshold because recall bounds leakage); this step removes
the damage that generosity did to real messages, the way Presidio's
recognizers pair each pattern with validators and context words:

1. **Whole tokens** (:mod:`core.detect.tokens`): a span covers whole atoms and
   never crosses a paragraph break or a list separator.
2. **Non-identifier zones** (:mod:`core.detect.zones`): stretches of the
   text that identify nobody are found by pattern (quantities with units, money, percentages, blood
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

The rules about names (pieces joined into one name, a name in a second script,
the type a span's own text shows) live in :mod:`core.detect.names`.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import logging
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from core.detect.fields import checked_type, field_at, fields
from core.detect.hosts import host_names, host_shaped, public_name
from core.detect.names import (
    CA_POSTCODE,
    FLIGHT,
    GIVEN_AND_SURNAME,
    HANDLE,
    ITEM_SEPARATOR,
    JOB_TITLE,
    KINSHIP,
    NAME_CELL,
    NICKNAMED,
    NO_MACHINE,
    ORG_WORDS,
    TITLE_CASE_NAME,
    UK_POSTCODE,
    flight_context,
    header_names,
    join_names,
    other_script_names,
    retype,
    words_not_a_name,
)
from core.detect.rules import MARKER, NAME_EXTENT, NINO, SECRET, markers_win
from core.detect.tokens import ELIDED, atoms, cut_at, cut_at_cells, snap
from core.detect.zones import (
    DIGITS,
    FUNCTION_ZIPF,
    ID_CONTEXT,
    IP,
    Zones,
    apply_zones,
    field_zones,
    holds_word,
    text_before,
    zones,
)
from core.entities import EntityType
from core.language import ENGLISH, message_language
from core.lexicon import BREED, CLINICAL_SERVICE, COMPONENT_NAME, PET, PET_BEFORE, Lexicon, is_cased
from core.locales import field_keys, locale
from core.locales.base import known_given, unaccented
from core.spans import Span, merge_spans

log = logging.getLogger(__name__)


#: NER-only spans below this (calibrated) score are "unsure" for rule 4.
UNSURE = 0.8
#: Below this the model barely proposed the span (0.5 is its decoding threshold).
BARELY = 0.6
#: The rules view's guesses below this score (a run of capitals, a bare number's shape)
#: are too weak to count beside an unsure NER guess.
WEAK_RULE = 0.5
#: A word this frequent in English (Zipf) is a common word for rule 4.
COMMON_ZIPF = 3.5
#: Types whose values are numbers: never without a digit.
_DIGIT_TYPES = frozenset(
    {
        EntityType.PHONE, EntityType.CREDIT_CARD, EntityType.SSN, EntityType.IBAN,
        EntityType.ACCOUNT, EntityType.MRN, EntityType.IP,
    }
)
#: Types a label can name, and validators check: values, not names.
_VALUE_TYPES = _DIGIT_TYPES | {EntityType.ID, EntityType.EMAIL, EntityType.DATE, EntityType.SSN}
_NAME_TYPES = frozenset(
    {EntityType.PERSON, EntityType.ORG, EntityType.LOCATION, EntityType.NRP, EntityType.OTHER}
)
#: Under this NER score, a frequent lower-case word read as an identifier is none.
BARELY_ID = 0.6
#: How frequent (Zipf) such a word is: "main", "default", "test".
FREQUENT_ID_WORD_ZIPF = 4.0
#: NER score from which a lower-case word in a cased text still counts as a name.
LOWER_IN_CASED = 0.9
#: Words that label a value ("invoice INV-1", "passport number X48"): never the value itself.
LABEL_WORDS = frozenset(
    """account acct number no num nr id ids mrn record records patient member membership policy
    claim case ticket order invoice ref reference booking confirmation passport licence license
    card iban sort code routing pin phone tel telephone mobile cell fax email e-mail mail
    address user username login password dob date birth ssn postcode zip serial badge
    employee staff student registration plate vin tax vat po
    street city town state county province region country line direct hospital nhs clinic
    cvv cvc cvv2 security host hostname reporter carrier insurance insurer course
    gmc nmc hcpc gphc ni nino""".split()
)

#: A number's label made of a letter and "number": "A-number", "A-No.", "X-num".
_NUMBER_LABEL = re.compile(r"[A-Za-z]-?(?:number|no\.?|num)", re.IGNORECASE)
#: Codes and numbers: a label word the model took in at their start is cut off.
_CODE_TYPES = frozenset({EntityType.ID, EntityType.ACCOUNT, EntityType.MRN, EntityType.SSN})
_LEADING_LABEL = re.compile(
    rf"(?:(?:{'|'.join(sorted(LABEL_WORDS, key=len, reverse=True))})\.?[ \t]+)+(?=[^\s]*\d)",
    re.IGNORECASE,
)

#: The types a model gives a label and its record's code read as one ("Claim CLM-2025-0882"
#: as a company, "order 5521" as an address).
#: The words of a probate case before the deceased's name: "Re the Estate of", "Estate of
#: the late".
_ESTATE_OF = re.compile(r"(?:(?:In[ \t]+)?Re[ \t]+)?(?:the[ \t]+)?Estate[ \t]+of[ \t]+(?:the[ \t]+late[ \t]+)?", re.IGNORECASE)
#: A handle: "@" and an account's name, no domain after it.
_HANDLE_AT = re.compile(r"@[A-Za-z0-9_.]{2,30}(?<!\.)")
#: A key and its equals sign before an e-mail address in a log line or a query string
#: ("user=", "email=", "to="): an address's local part may hold "=", a word of a key
#: ends there.
_EMAIL_KEY = re.compile(r"[A-Za-z_]{2,16}=(?=[^=@\s]+@)")
#: A day of the month as an ordinal: "19th", "23rd", "1st".
_DAY_ORDINAL = r"(?:[1-9]|[12]\d|3[01])(?:st|nd|rd|th)"
_ORDINAL_DAY = re.compile(
    rf"{_DAY_ORDINAL}(?:[ \t]*(?:-|–|to|until|till|and)[ \t]*(?:the[ \t]+)?{_DAY_ORDINAL})?"
)
#: A document's word and its number's label right before a number.
_DOCUMENT_BEFORE = re.compile(
    r"\b(?:passport|licen[cs]e|identity card|ID card|residence permit)[ \t]*(?:\(|:|#)?[ \t]*"
    r"(?:(?:no|nr|num|number)\.?[ \t]*:?)?[ \t]*(?:is[ \t]+)?$",
    re.IGNORECASE,
)
#: A county's name: "Co. Mayo", "Co Kerry", "County Durham".
_COUNTY_NAME = re.compile(r"(?:Co\.?|County)[ \t]+[A-Z][a-z]+")
#: The words before a card's last four digits.
_CARD_TAIL_BEFORE = re.compile(
    r"\b(?:ending|ends)(?:[ \t]+(?:in|with))?[ \t:]*$|\blast[ \t]+(?:four|4)(?:[ \t]+digits)?(?:[ \t]+(?:of|are|is))?[ \t:]*$",
    re.IGNORECASE,
)
_LABELLED_MISTYPES = frozenset({EntityType.ADDRESS, EntityType.ORG, EntityType.PERSON, EntityType.OTHER})
#: A record's code: capitals, digits and separators, a digit in it ("CLM-2025-088214").
_RECORD_CODE = re.compile(r"[A-Z0-9][A-Z0-9\-/.]*\d[A-Z0-9\-/]*")
#: A word in lower case before a code the model took in with it ("forklift FL-07").
#: Up to four such words ("cocker spaniel, microchip 985112004539871").
_LEADING_NOUN = re.compile(r"((?:[a-z]{3,},?[ \t]+){0,3}[a-z]{3,})[ \t]+(?=\S*\d|[A-Z0-9]{2}[ \t]?\d)")


def _common_noun(word: str, lexicon: Lexicon) -> bool:
    """A word in lower case that is nobody's given name: a dictionary word, one that no
    list of names holds ("forklift"), or a frequent word that is also a surname ("locker")."""
    return lexicon.is_plain(word) or not (
        lexicon.is_given(word) or (lexicon.is_surname(word) and lexicon.zipf(word) < 3.0)
    )


#: An HTTP authorization's scheme before its credential ("Bearer eyJhbGci...").
_AUTH_SCHEME = re.compile(r"(?:bearer|basic|digest|[\w-]*oauthtoken)[ \t]+(?=\S{16})", re.IGNORECASE)
#: An SSH key's algorithm before its fingerprint.
_KEY_ALGORITHM = re.compile(r"(?:ssh-)?(?:ed25519|rsa|ecdsa|dsa)[ \t]+(?=(?:SHA256|MD5):)", re.IGNORECASE)

#: Short labels that belong to the value after them ("MRN KDH-77419", "ID W284719305").
CODE_LABELS = frozenset({"mrn", "id", "ssn", "dob", "nhs", "nino", "vin", "pin", "no", "nr", "ref", "#"})

#: Words near a bare small number that make it an age.
_AGE_CONTEXT = re.compile(
    r"\b(?:son|daughter|child|kid|boy|girl|baby|toddler|teen|teenager|brother|sister|"
    r"mother|mum|mom|father|dad|grandmother|grandfather|grandma|grandpa|wife|husband|"
    r"partner|patient|aged?|age of|turned|turns|is|was)\W{0,3}$",
    re.IGNORECASE,
)
#: An article or a possessive right before a name, a model year between them: "my 2016 ".
_DETERMINER_BEFORE = re.compile(
    r"(?<![\w'’])(?:the|my|our|your|his|her|their|a|an)[ \t]+((?:19|20)\d\d[ \t]+)?$",
    re.IGNORECASE,
)
#: A model's number right after its name: "Mug 2 (", "Serie 4 dishwasher".
_MODEL_NUMBER = re.compile(r"[ \t]+\d{1,4}(?![\d,.:/])")
#: Punctuation that separates items: a span never runs across it.
_SEPARATORS = re.compile(
    # A company's legal form in brackets is part of its name: "Swift Parcels (Pty) Ltd".
    r"(?!\((?:Pty|Pvt|Pte|Private|Proprietary)\))(?<!\((?:Pty|Pvt|Pte))(?<!\(Private)(?<!\(Proprietary)"
    r"[;|•·\t()\[\]{}]|\s[-–—]\s|\n\s*[-*•]\s|\n[ \t]+|\n\s*\n"
    # A full stop then a capital ends a sentence, unless it follows an initial or a title,
    # or makes a number of one or two digits inside a sentence an ordinal at a name's start
    # ("beim 1. FC Köln", "in die 2. Bundesliga"; a list's "1. Lakshmi" on its line is cut),
    # or abbreviates a county or a mountain before its name ("Ballina, Co. Mayo", "Mt. Hood").
    r"|(?<!\b[A-Z])(?<!\b(?:Mr|Ms|Dr|St|Jr|Sr|Co|Mt|Ft))(?<!\bMrs)(?<!\bProf)(?<!\w[ \t]\d)(?<!\w[ \t]\d\d)"
    r"\.\s+(?=[A-Z])"
    # In lower case, a full stop after a word of three letters or more, then a word, ends a
    # sentence ("ms o'callaghan. zain (yr 9) has ..."); a title's abbreviation does not.
    r"|(?<=[a-z'’]{3})(?<!\b(?:mrs|rev|sgt|col|gen|gov|sen|rep|hon))(?<!\b(?:cllr|capt|supt|insp|prof))\.[ \t]+(?=[a-z]{2})"
    # The parties of a case: "Ms Rukhsana Begum v Tillbrook Foods Ltd", "Smith vs. Jones".
    r"|\s(?:v|vs|v\.|vs\.|versus)\s(?=[A-Z])"
)


def _split_open_bracket(text: str, span: Span) -> list[tuple[int, int]]:
    """A bracket opened inside a span and not closed there separates two values:
    "Mercedes-Benz GLC 300 (VIN W1N0G8EB4MF912345" is a car and its number."""
    value = text[span.start : span.end]
    i = value.find(" (")
    if i <= 0 or ")" in value[i:]:
        return [(span.start, span.end)]
    return [(span.start, span.start + i), (span.start + i + 2, span.end)]


#: A number, a full stop and a capitalized word or an acronym: a sentence may end here.
_NUMBER_FULL_STOP = re.compile(r"(?<=\d)\.[ \t]+(?=([A-Z][a-z]+|[A-Z][A-Za-z0-9]{1,5})\b)")
#: Words and numbers of a piece of a span.
_TOKENS = re.compile(r"[^\W_]+")


def _split_sentence_after_number(
    text: str, a: int, b: int, lexicon: Lexicon | None
) -> list[tuple[int, int]]:
    """``[a, b)`` cut where a number ends a sentence and a common word begins the next
    ("CVV 321. Billing postcode", "NHS no. 485 777 3456. PMH: T2DM"); a floor or a unit
    after a number ("2. OG") stays. What follows the cut is dropped when it holds only such
    words, terms and short numbers ("CKD stage 3a": it named nothing)."""
    if lexicon is None:
        return [(a, b)]
    pieces, pos = [], a
    for m in _NUMBER_FULL_STOP.finditer(text, a, b):
        # A dictionary's word or a term ("3/11. Troponin 45 ng/L": a lab test), or a test
        # or a visit people also carry as a name ("MRN 00482913. Echo 20/11").
        if _plain_word(m.group(1), lexicon) or _VISIT_WORD.fullmatch(m.group(1)):
            pieces.append((pos, m.start()))
            pos = m.end()
    if pos == a:
        return [(a, b)]
    pieces.append((pos, b))
    return [
        (x, y)
        for k, (x, y) in enumerate(pieces)
        if x < y and (k == 0 or not all(_nothing_named(w, lexicon) for w in _TOKENS.findall(text, x, y)))
    ]


def _nothing_named(token: str, lexicon: Lexicon) -> bool:
    """A plain word, a frequent word in lower case ("stage"), a term ("PMH", "T2DM") or a
    number of three characters at most ("3a", "48"), which identify no one."""
    if any(c.isdigit() for c in token) and not lexicon.is_term(token):
        return len(token) <= 3
    return _plain_word(token, lexicon) or (token.islower() and lexicon.zipf(token) >= 3.0)


#: A word of four letters or more (or a postcode's last letters: "M14 5RT"), a full stop,
#: and the next sentence's first word.
_WORD_FULL_STOP = re.compile(r"(?:(?<=[a-z]{4})|(?<=\d[A-Z]{2}))\.[ \t]+(?=([A-Z][a-z]+)\b)")


def _split_sentence_after_town(
    text: str, a: int, b: int, lexicon: Lexicon
) -> list[tuple[int, int]]:
    """An address that a model ran on into the next sentence ("27 Ravensworth Terrace,
    Gateshead. How do I report it?") ends at the town's full stop when a dictionary's
    word begins the next sentence ("St. Albans" and "Church St. John" stay whole)."""
    for m in _WORD_FULL_STOP.finditer(text, a, b):
        if _plain_word(m.group(1).lower(), lexicon) and not (
            lexicon.is_given(m.group(1)) or lexicon.is_surname(m.group(1))
        ):
            return [(a, m.start())]
    return [(a, b)]


#: Two spaces or more between words: a column's gap in a table aligned with spaces.
_COLUMN_GAP = re.compile(r"(?<=\S) {2,}(?=\S)")


#: A day and a month as a statement's date column writes them: "02 Oct", "3/11".
_COLUMN_DATE = re.compile(
    r"\d{1,2}[ \-](?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?|\d{1,2}/\d{1,2}(?:/\d{2,4})?",
    re.IGNORECASE,
)


def _aligned_columns(text: str) -> bool:
    """Whether the text holds a table aligned with spaces (a bank statement, a report
    pasted from a terminal): two lines or more, each with two gaps of two spaces or more."""
    lines = 0
    for line in text.splitlines():
        if len(_COLUMN_GAP.findall(line)) >= 2:
            lines += 1
            if lines >= 2:
                return True
    return False


def _plain_word(word: str, lexicon: Lexicon) -> bool:
    """A dictionary's word, a term, or a frequent word written in lower case that no one
    carries."""
    return lexicon.is_plain(word) or (lexicon.is_term(word) and not lexicon.is_given(word)) or (
        word.islower()
        and lexicon.zipf(word) >= 3.0
        and not (lexicon.is_given(word) or lexicon.is_surname(word))
    )


def _split_items(text: str, a: int, b: int) -> list[tuple[int, int]]:
    """``[a, b)`` cut at the separators of items on one line (" · ", " | ", " • ")."""
    return cut_at(ITEM_SEPARATOR, text, a, b)


#: A command line's option before its value: "-p 5432", "--user=ops", "-d ledger_prod".
_CLI_FLAG = re.compile(r"(?:(?<=[ \t])|(?<=^))--?[A-Za-z][A-Za-z\-]*(?:[ \t]+|=)(?=\S)", re.MULTILINE)
#: Spaces before a setting's key inside a value ("billing_admin POSTGRES_PASSWORD=..."):
#: a constant or a snake-case name, then ":" or "=".
_NEXT_SETTING = re.compile(
    r"[ \t]+(?=(?:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[a-z][a-z0-9]*(?:_[a-z0-9]+)+)[\"']?[ \t]*[:=])"
)

#: A firm's name of capitalized words: "Harbourview Dental", "Kestrel Logistics".
_TRADE_FIRM = r"[A-Z][\w'’.-]*(?:[ \t]+[A-Z][\w'’.-]*)+"
_TWO_FIRMS = re.compile(rf"({_TRADE_FIRM})[ \t]+(?:and|&)[ \t]+({_TRADE_FIRM})")


#: Two people named together: "Zara and Kai", "Priya & Tom Hughes".
_TWO_PEOPLE = re.compile(r"([A-Z][a-z'’\-]+(?:[ \t][A-Z][a-z'’\-]+)?)[ \t]+(?:and|&)[ \t]+([A-Z][a-z'’\-]+(?:[ \t][A-Z][a-z'’\-]+)?)")


def _split_two_people(text: str, a: int, b: int, lexicon: Lexicon) -> list[tuple[int, int]]:
    """``[a, b)`` cut in two where it is two people joined by "and" or "&", each named by
    a given name first ("works well with Zara and Kai"): two people, two placeholders.
    "Mr and Mrs Delaney" (titles) and a firm's name stay whole."""
    m = _TWO_PEOPLE.fullmatch(text, a, b)
    if m is None or not all(lexicon.is_given(p.split()[0].lower()) for p in (m.group(1), m.group(2))):
        return [(a, b)]
    return [(m.start(1), m.end(1)), (m.start(2), m.end(2))]


def _split_two_firms(text: str, a: int, b: int) -> list[tuple[int, int]]:
    """``[a, b)`` cut in two where it is two firms joined by "and" or "&", each a name
    and the word of its trade ("Harbourview Dental and Kestrel Logistics"): two
    companies, two placeholders. A firm whose own name has "and" stays whole: "Marks and
    Spencer" (no trade word before "and"), "Smith Dental and Medical Centre" (the words
    after "and" begin with a trade word), "Department of Health and Social Care" (a
    lower-case word in it)."""
    m = _TWO_FIRMS.fullmatch(text, a, b)
    if m is None:
        return [(a, b)]
    for part in (m.group(1), m.group(2)):
        words = part.split()
        if not ORG_WORDS.fullmatch(words[-1].rstrip(".")) or ORG_WORDS.fullmatch(words[0]):
            return [(a, b)]
    return [(m.start(1), m.end(1)), (m.start(2), m.end(2))]


def _split_separators(text: str, span: Span) -> list[tuple[int, int]]:
    pieces, pos = [], span.start
    # The brackets of a nickname inside a person's name separate nothing ("Bronisława
    # ("Bronia") Kaczmarek").
    nicknames = (
        [(m.end("first"), m.start("last")) for m in NICKNAMED.finditer(text, span.start, span.end) if m.group("nick")]
        if span.type is EntityType.PERSON
        else []
    )
    for m in _SEPARATORS.finditer(text, span.start, span.end):
        if any(a <= m.start() < b for a, b in nicknames):
            continue
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


#: The words an organisation's name ends in, written in lower case too ("Riverside medical
#: center", "Oakfield dental practice"): never trimmed.
_ORG_WORD = re.compile(
    r"(?:hospital|clinic|cent(?:re|er)|medical|health|surgery|practice|dental|pharmacy|school|"
    r"college|university|academy|bank|group|services?|partners|associates|company|council|"
    r"trust|foundation|institute|society|club|church|hospice|home|care|nursery|ltd|inc|llc|"
    r"restaurant|cafe|café|bar|pub|hotel|shop|store|studio|games|corporate|headquarters|hq)s?"
)
#: How frequent a lower-case word is (Zipf) to be a word at an organisation's end.
_FREQUENT_WORD_ZIPF = 3.5
#: Words that join the parts of a name in lower case ("Bank of America", "Van der Berg").
_NAME_JOINERS = frozenset("of and for the de du des del della der den van von la le y e & upon on".split())


def _plain_inflected(word: str, lexicon: Lexicon) -> bool:
    """A dictionary's word with an ending: "shows", "reimbursed", "refunded", "billing"."""
    stems = []
    if word.endswith("s"):
        stems.append(word[:-1])
    if word.endswith("ed"):
        stems += [word[:-1], word[:-2]]
    if word.endswith("ing"):
        stems += [word[:-3], word[:-3] + "e"]
    return any(len(st) >= 3 and lexicon.is_plain(st) for st in stems)


def _without_lower_tail(text: str, span: Span, lexicon: Lexicon | None) -> Span:
    """An organisation's name without the dictionary's words in lower case the model ran
    on with: "Brightline Dental shows box" is "Brightline Dental" (a name's words have
    capitals; a joining word needs a capitalized word after it)."""
    if span.type not in (EntityType.ORG, EntityType.PERSON) or lexicon is None or not is_cased(text):
        # (In a text without capitals, "riverside medical center" is a name whole.)
        return span
    if message_language(text) != ENGLISH:
        return span  # "Université du Piémont oriental": an adjective after its noun
    words = list(re.finditer(r"\S+", text[span.start : span.end]))
    if len(words) < 2 or not words[0].group()[:1].isupper():
        return span
    if span.type is EntityType.PERSON and not any(w.group()[-2:] in ("'s", "’s") for w in words[:-1]):
        return span  # a person's name only before a possessive's nouns: "Kwame's line manager"
    k = len(words)
    while (
        k > 1
        and _LOWER_COMPOUND.fullmatch(w := words[k - 1].group()) is not None
        # "his daughter Joanne's care": after a possessive, a word in lower case is no
        # part of the name, even one a firm's name may end in.
        and (not _ORG_WORD.fullmatch(w) or words[k - 2].group()[-2:] in ("'s", "’s"))
        # ("with Nationwide, chain-free, can exchange": each part of a compound)
        and all(
            lexicon.is_plain(part)
            or _plain_inflected(part, lexicon)
            # a frequent word that some also carry as a surname ("box", "shows")
            or lexicon.zipf(part) >= _FREQUENT_WORD_ZIPF
            for part in w.split("-")
        )
    ):
        k -= 1
    while k > 1 and words[k - 1].group().lower() in _NAME_JOINERS:
        k -= 1
    if k == len(words) or not any(c.isupper() for c in words[k - 1].group()):
        return span
    end = span.start + words[k - 1].end()
    while text[end - 1] in ",;:":
        end -= 1  # "Nationwide, chain-free": the comma before the words cut off goes too
    return Span(span.start, end, span.type, span.score, span.views)


#: A word in lower case, or a compound of them: "box", "chain-free".
_LOWER_COMPOUND = re.compile(r"[a-z]+(?:-[a-z]+)*")
#: The last word of a place or a body named with "the" before it: "the Eden Project".
_PLACE_NOUN_END = re.compile(
    r"[ \t](?:Project|Museum|Gallery|Cent(?:re|er)|Park|Zoo|Gardens?|Trust|Theat(?:re|er)|Castle|"
    r"Abbey|Palace|Cathedral|Aquarium|Library|Stadium|Arena|Observatory|Foundation)$"
)


_ONE_NAME = re.compile(r"[A-Z][a-zà-ÿ]+")
#: Words before a job's noun in a title: "Consultant Rheumatologist", "Senior Staff Nurse".
_TITLE_QUALIFIER = re.compile(
    r"senior|junior|chief|head|lead|principal|deputy|assistant|associate|staff|registered|"
    r"clinical|general|specialist|trainee|locum|advanced|practice|charge|ward|community|district"
)
#: A key or a token by its own shape (the rules' patterns for them: AWS, OpenAI, Stripe,
#: GitHub, GitLab, Slack, Google keys and web tokens).
_TOKEN_SHAPE = re.compile("|".join(p for p in SECRET if p.startswith("(?-i:")))
#: A relative's word, "'s" and what follows: "Grandad's WhatsApp", "Mum's Fitbit".
_RELATIVE_S_BRAND = re.compile(
    r"(?i:grandad|grandpa|granddad|grandma|gran|granny|nan|nana|nanna|mum|mom|dad|mam|"
    r"auntie|aunty|uncle|sis|bro|hubby|wifey)['’]s[ \t]+(.+)"
)
#: A path's separator between its steps: "SharePoint > Finance > Forecasts".
_BREADCRUMB = re.compile(r"[ \t]+(?:>|›|»|→)[ \t]+")
#: A given name and up to two more capitalized words ("Aisling Byrne").
_CAPITALIZED_NAME = re.compile(r"[A-Z][a-zà-ÿ'’\-]+(?:[ \t][A-Z][a-zà-ÿ'’\-]+){0,2}")
#: One to three words of three letters or more (no airline's code), then a code with a
#: digit: "Stripe key sk_live_51Hq8ZyKJ2rX9".
_WORDS_THEN_CODE = re.compile(r"((?:[A-Za-z]{3,}[ \t]+){1,3})([^\s]*\d[^\s]*)")
#: A form's or a record's key for a department or a team, before its value.
_DEPARTMENT_KEY = re.compile(
    r"\b(?:department|dept|team|division|business[ _]unit|function)[\"']?[ \t]*[:=][ \t]*[\"']?$",
    re.IGNORECASE,
)


def _misread(
    text: str, span: Span, value: str, lexicon: Lexicon | None, cased: bool
) -> list[Span] | None:
    """What stands for ``span`` when a view misread a value whose kind its shape or words
    tell (none: dropped; a retyped or cut span), or None to refine it as any other."""
    if _with_a_drug(value, span, lexicon):
        # "Toma Sintrom 4 mg" ("takes Sintrom") read as a name: a drug's name is in it.
        return []
    if (
        span.type in (EntityType.PERSON, EntityType.ORG, EntityType.OTHER)
        and lexicon is not None
        and "/" in value
        and all(
            part and (lexicon.is_term(part.lower()) or lexicon.public_kind(part) in ("nationality", "country"))
            for part in (p.strip() for p in value.split("/"))
        )
    ):
        # "Bilingual (English/Tagalog)": languages listed with a slash, no one's name.
        return []
    if (
        span.type in (EntityType.PERSON, EntityType.ORG)
        and lexicon is not None
        and value[:1].isupper()
        and _CONDITION.fullmatch(value.lower())
        and not (lexicon.is_given(value.lower()) or lexicon.is_surname(value.lower()))
        and _first_in_sentence(text, span.start)
    ):
        # "Angiogram showed LAD stenosis": a test's or a condition's name by its ending,
        # capitalized because it begins the sentence.
        return []
    if span.type in _CODE_TYPES and _NUMBER_LABEL.fullmatch(value):
        # "My A-number is A213-456-789": the label's letter read as a code, the word with it.
        return []
    if (
        cased
        and span.type is EntityType.OTHER
        and lexicon is not None
        and value.isalpha()
        and value.islower()
        and lexicon.is_plain(value)
        and _DETERMINER_OR_POSSESSIVE.search(text, max(0, span.start - 8), span.start)
    ):
        # "hi my parcel TRK-4482-0937 says delivered": a word of the dictionary after "my"
        # or "the", which the model could not say what kind of name it is.
        return []
    if (
        span.type in (EntityType.ORG, EntityType.OTHER, EntityType.LOCATION)
        and lexicon is not None
        and _DEPARTMENT_KEY.search(text, max(0, span.start - 24), span.start)
        and all(_plain_word(w, lexicon) or w.casefold() in ("and", "&", "of") for w in value.split())
    ):
        # '"department": "Logistics"', "Team: Sales and Marketing": a department or a team
        # of plain words is a kind of work many do, no one's organisation.
        return []
    if (
        span.type in (EntityType.ID, EntityType.ACCOUNT)
        and lexicon is not None
        and (m := _WORDS_THEN_CODE.fullmatch(value)) is not None
        # Only a key or a token by its own shape: a record's label stays with its number
        # as the model read it ("MRN SM-447219", "Blue Cross policy BCP-4481029").
        and _TOKEN_SHAPE.fullmatch(m.group(2)) is not None
        and all(
            _plain_word(w, lexicon)
            or lexicon.is_term(w)
            or (w.islower() and lexicon.zipf(w) >= 4.0)
            or lexicon.public_kind(w) in ("brand", "company")
            for w in m.group(1).split()
        )
        # The word right before the code says what it is ("key", "ref"); after a brand
        # alone the code is the brand's ("emirates ek703": a flight).
        and lexicon.public_kind(m.group(1).split()[-1]) not in ("brand", "company")
    ):
        # "Stripe key sk_live_51Hq8..." read as one code: the words before a key say what
        # it is; only the key is the value.
        a = span.start + m.start(2)
        return [Span(a, span.end, span.type, span.score, span.views)]
    if (
        span.type in (EntityType.ORG, EntityType.LOCATION)
        and lexicon is not None
        and (name := re.sub(r"['’]s$", "", value))
        and _ONE_NAME.fullmatch(name)
        and lexicon.is_given(name)
        and lexicon.public_kind(name) is None
        and re.match(r"['’]s\b", text[span.start + len(name) : span.start + len(name) + 3])
        and re.search(r"\b(?:at|to|from|round|over)[ \t]+$", text[max(0, span.start - 8) : span.start])
    ):
        # "next meeting at Helen's (22 Queens Park Avenue)": a given name's home, a person.
        return [Span(span.start, span.start + len(name), EntityType.PERSON, span.score, span.views)]
    if (
        span.type in (EntityType.ADDRESS, EntityType.LOCATION, EntityType.ORG)
        and lexicon is not None
        and _CAPITALIZED_NAME.fullmatch(value)
        and lexicon.is_given(value.split()[0])
        and re.search(r"(?:^|\n)[ \t]*$", text[: span.start])
        and re.match(rf"[ \t]+\[?{_CLOCK.pattern}\]?(?![\w:])", text[span.end :])
    ):
        # "Moses Adeyemi 09:15 sending now": a chat's speaker at the start of a line,
        # then the time of the message.
        return [Span(span.start, span.end, EntityType.PERSON, span.score, span.views)]
    if span.type in _NAME_TYPES and lexicon is not None and _BREADCRUMB.search(value):
        # "SharePoint > Finance > Forecasts": a menu's or a folder's path, each step judged
        # alone; a public name's or plain words' step is no one's.
        out = []
        pos = 0
        for part in [*_BREADCRUMB.finditer(value), None]:
            end = part.start() if part is not None else len(value)
            piece = value[pos:end]
            words = piece.split()
            if words and not (
                lexicon.public_kind(piece) is not None
                or all(_plain_word(w, lexicon) or lexicon.zipf(w) >= 4.0 for w in words)
            ):
                out.append(Span(span.start + pos, span.start + end, span.type, span.score, span.views))
            pos = part.end() if part is not None else len(value)
        return out
    if (
        span.type is EntityType.PERSON
        and lexicon is not None
        and (m := _RELATIVE_S_BRAND.fullmatch(value)) is not None
        and lexicon.public_kind(m.group(1)) in ("brand", "company")
    ):
        # "Grandad's WhatsApp": a relative's app, no one's name (the brand is found alone).
        return []
    if (
        span.type is EntityType.PERSON
        and lexicon is not None
        and re.match(r"[ \t]+room\b", text[span.end : span.end + 6])
        and value.isalpha()
        and not lexicon.is_given(value)
        and not lexicon.is_surname(value)
    ):
        # "joins Caterpillars room from Monday": a nursery room's name.
        return []
    bare = re.sub(r"['’]s$", "", value)
    if (
        not cased
        and span.type is EntityType.PERSON
        and lexicon is not None
        and bare.isalpha()
        and bare.islower()
        and message_language(text) == ENGLISH
        and (
            bare in _GREETING_WORDS
            or (
                lexicon.is_plain(bare)
                # (a frequent word: "momo" and "desi" are what some people are called)
                and lexicon.zipf(bare) >= _FREQUENT_WORD_ZIPF
                and not known_given(lexicon, bare)
                and not lexicon.is_surname(bare)
                and not _TITLE_THEN_SPACE.search(text, max(0, span.start - 8), span.start)
            )
        )
    ):
        # In a message without capitals, a greeting ("hiya can u help") or a dictionary's
        # word no one carries ("boiler's been broke since sat") that the model read as a
        # name: the word.
        return []
    if cased and _lower_words_only(value, span, lexicon):
        # "hold ramipril" read as a name in a text written with capitals: a name is
        # written with one; these are a dictionary's words and a drug's.
        return []
    if (
        span.type is EntityType.PERSON
        and text[max(0, span.start - 4) : span.start] == "the "
        and _PLACE_NOUN_END.search(value)
    ):
        # "the Eden Project", "the Horniman Museum" read as a person: the article and the
        # word for a place or a body make it one.
        return [Span(span.start, span.end, EntityType.ORG, span.score, span.views)]
    if (
        span.type in (EntityType.ADDRESS, EntityType.ID, EntityType.PHONE)
        and _AGE_SEX.fullmatch(value)
        and text[max(0, span.start - 2) : span.start] in (", ", "(", " (")
    ):
        # "Wilhelmina Akerman, 54F": a note's age and sex, read as an address.
        return [Span(span.start, span.end, EntityType.AGE, span.score, span.views)]
    if (
        span.type in _NAME_TYPES
        and lexicon is not None
        and "rules" not in span.views
        and _SNAKE_CASE.fullmatch(value)
        and all(len(w) <= 2 or _plain_word(w, lexicon) for w in value.split("_"))
    ):
        return []  # "WHERE created_at > ...": a column's or a variable's name of plain words
    if (
        span.type in (EntityType.OTHER, EntityType.ID)
        and lexicon is not None
        and (head := _WORDS_BEFORE_HANDLE.fullmatch(value)) is not None
        and all(_plain_word(w, lexicon) or lexicon.is_term(w) for w in head.group(1).split())
    ):
        # "from the app user svc_payroll": the words before an account's name say what it
        # is, and stay as written.
        return [Span(span.start + head.start(2), span.end, EntityType.ID, span.score, span.views)]
    if span.type in _NAME_TYPES and _model_only(span) and COMPONENT_NAME.fullmatch(value):
        return []  # "ERROR AuthService - ...": a program's part in a log line, no one's name
    if (
        # "PMH: AF on apixaban, CKD 3b": a condition's stage read as an organisation too.
        (span.type in _CODE_TYPES or (span.type in (EntityType.ORG, EntityType.OTHER) and any(c.isdigit() for c in value)))
        and lexicon is not None
        and not span.views.keys() - {"ner", "rules", NAME_EXTENT}
        and span.views.get("rules", 0.0) < 0.5
        and any(lexicon.is_term(w) for w in _TOKENS.findall(value))
        and all(_nothing_named(w, lexicon) and not w.isdigit() for w in _TOKENS.findall(value))
    ):
        # "PMH: T2DM, CKD stage 3a": a note's shorthand and a stage, no one's number (a
        # number alone may be a date or a record's: "3/11. Troponin").
        return []
    if (
        span.type in _NAME_TYPES | _CODE_TYPES
        and lexicon is not None
        and len(value) <= 3
        and any(c.isdigit() for c in value)
        and value.isalnum()
        and _model_only(span)
        and (before := _WORD_BEFORE_SPACE.search(text, max(0, span.start - 12), span.start)) is not None
        and before.group(1).isupper()
        and lexicon.is_term(before.group(1))
    ):
        # "CKD 3b", "NYHA II"... read alone once the words around became placeholders: a
        # stage after its condition's acronym, no one's code.
        return []
    if _SPINAL_LEVELS.fullmatch(value) and span.type is not EntityType.DATE:
        # "ein Bandscheibenvorfall L4/L5", "C5-C6 disc": two levels of the spine, no one's code.
        return []
    if span.type in _NAME_TYPES and _WEEKDAYS.fullmatch(value) and _model_only(span):
        return []  # "The bin collection moved to Tuesdays": a day of the week, no one's name
    if (
        span.type in (EntityType.PERSON, EntityType.OTHER)
        and _model_only(span)
        and _WEEKDAY_SHORT.fullmatch(value.split()[0])
        and all(lexicon is not None and lexicon.zipf(w.lower()) >= 4.0 for w in value.split()[1:])
    ):
        return []  # "the 6:15am tues + thurs sessions", "(thurs only)": a day's short form
    if span.type in (EntityType.ORG, EntityType.OTHER) and _DEPARTMENT.fullmatch(value) and _model_only(span):
        return []  # "Sarah from Finance", "Tom in HR": a department every company has
    if span.type is EntityType.PERSON and _TITLE_ALONE.fullmatch(value):
        return []  # "The manager, Sr. Duarte Pinto": the title stays as written, the name goes
    if (
        span.type in (EntityType.ORG, EntityType.OTHER)
        and lexicon is not None
        and _JOINED_WORDS.fullmatch(value)
        and all(lexicon.zipf(w) >= 3.0 and not lexicon.is_term(w) for w in re.findall(r"[a-z]+", value))
    ):
        return []  # "£82k + bonus + equity": a package's plain words, no organisation
    if span.type in _NAME_TYPES and _CLASS_CODE.fullmatch(value) and _model_only(span):
        return []  # "in die 2b der Grundschule", "class 4c": a school class, no one's name
    if span.type in _NAME_TYPES and value in ("A", "An", "The", "I") and _model_only(span):
        return []  # "A customer, Mrs Edith Marlowe": an article, no one's name
    if span.type in _NAME_TYPES and _ROLE_WORD.fullmatch(value):
        # "The Respondent, Craig Dobson, shall not ...": a party's role, no one's name.
        return []
    if span.type is EntityType.PERSON and value.islower() and value in _LONE_PARTICLES:
        return []  # "his van was a white Ford Transit": a word, no one's name
    if (
        span.type is EntityType.PERSON
        and _ACCOUNT_NAME.fullmatch(value)
        and (cased or not value.isalpha())
        and _ACCOUNT_BEFORE.search(text, max(0, span.start - 24), span.start)
    ):
        # "login failed for user m.tanaka", "My user is mkowalczyk": an account's name in
        # lower case after the word for it, an identifier (a customer "John" stays a person).
        return [Span(span.start, span.end, EntityType.ID, span.score, span.views)]
    if span.type in _NAME_TYPES and _WEEKDAY.fullmatch(value):
        return []  # "Date: Tue, 12 Mar 2024": a day of the week, no one's name
    if (
        span.type in _NAME_TYPES
        and lexicon is not None
        and _CAPITALIZED_WORD.fullmatch(value)
        and not (lexicon.is_given(value) or lexicon.is_surname(value))
        and _model_only(span)
        and _PRESCRIBED.search(text, max(0, span.start - 32), span.start)
    ):
        # "the vet prescribed Cystaid", "started her on Kalpol": a medicine's name, a
        # product thousands take, whether or not the lexicon lists it.
        return []
    if (col := _COLUMN_REF.fullmatch(value)) is not None and (
        _record_key_type(col.group(1)) is not None
        or _key_name(col.group(1)) in VALUE_FIELD_TYPES
        or col.group(1) in LABEL_WORDS
    ):
        # "where c.dob = '1987-05-30'": a table's alias and a column's name, no one's.
        return []
    if span.type is not EntityType.ID and _UK_REG.fullmatch(value):
        # "LK19 ZPW": a car's registration, whatever the model read it as.
        return [Span(span.start, span.end, EntityType.ID, span.score, span.views)]
    reg = _LABELLED_REG.fullmatch(value)
    if reg is not None:
        # "reg KX19 PLO" read as a name: the label stays as written, the registration goes.
        return [Span(span.start + reg.start(1), span.end, EntityType.ID, span.score, span.views)]
    if (
        cased
        and lexicon is not None
        and span.type is EntityType.PERSON
        and _CAPITALIZED_WORD.fullmatch(value)
        and lexicon.is_plain(value)
        and set(_evidence(span)) == {"ner"}
        and span.views["ner"] < BARELY
        and _STUDY_BEFORE.search(text, max(0, span.start - 24), span.start)
    ):
        # "She's applying to read Pharmacy at Cardiff": a subject's name, a word nobody
        # carries as a name, that the model barely took for a person ("Beauty's mother"
        # is someone's, and stays).
        return []
    if span.type in _NAME_TYPES and _AUXILIARY.fullmatch(value) and _PRONOUN_AFTER.match(text, span.end):
        return []  # "Thanks,\nHelen\n\nCan you make this friendlier?": a question's verb
    if span.type is EntityType.PERSON and all(
        w.removesuffix("'s").removesuffix("’s") in _KIN for w in value.casefold().split()
    ):
        # "Mum (Edna Whitfield, 91)", "a toast for Mum's 70th": how a person is spoken of,
        # no one's name.
        return []
    if (
        span.type in (EntityType.ADDRESS, EntityType.ID, EntityType.PHONE)
        and _NUMBER_AGE.fullmatch(value)
        and _AFTER_NAME.search(text, max(0, span.start - 40), span.start)
        and _AGE_END.match(text, span.end)
    ):
        # "(Edna Whitfield, 91)": the age written after a name, read as an address.
        return [Span(span.start, span.end, EntityType.AGE, span.score, span.views)]
    branch = _BRANCH_ON_STREET.fullmatch(value) if span.type is EntityType.ORG else None
    if branch is not None:
        # "Boots on Fore Street": the shop is the chain's, the street is where the person goes.
        return [
            Span(span.start, span.start + branch.end(1), EntityType.ORG, span.score, span.views),
            Span(span.start + branch.start(2), span.end, EntityType.ADDRESS, span.score, span.views),
        ]
    if value.lstrip("@").lower() in _BROADCAST and "@" in text[max(0, span.start - 1) : span.end]:
        return []  # "@channel heads up": a chat's mention of everyone, no one's handle
    label = _LEADING_LABEL.match(value) if span.type in _LABELLED_MISTYPES else None
    if label is not None and (
        (span.type is EntityType.ADDRESS and _BARE_NUMBER.fullmatch(value, label.end()))
        or (
            span.type is not EntityType.ADDRESS
            and _RECORD_CODE.fullmatch(value, label.end())
            and len(value) - label.end() >= 5  # "NHS 111" is a public service's number
        )
    ):
        # "PO 88213", "order 5521" read as an address, "Claim CLM-2025-088214" as a company:
        # the label stays as written, the code is the record's.
        return [Span(span.start + label.end(), span.end, EntityType.ID, span.score, span.views)]
    farm = _NAMED_PROPERTY.fullmatch(value) if span.type in (EntityType.LOCATION, EntityType.ORG) else None
    if farm is not None:
        # "Yard is at Balgowan Farm, Perth": a farm or a cottage is where people live, an
        # address; the town after it is a place the level decides.
        out = [Span(span.start, span.start + farm.end(1), EntityType.ADDRESS, span.score, span.views)]
        if farm.group(2):
            out.append(Span(span.start + farm.start(2), span.end, EntityType.LOCATION, span.score, span.views))
        return out
    if (
        span.type is EntityType.ADDRESS
        and lexicon is not None
        and not any(c.isdigit() for c in value)
        and lexicon.public_kind(value) in _BRAND_KINDS
    ):
        # "mi pedido ... de Amazon llegó roto": a company the lexicon knows, read as an address.
        return [Span(span.start, span.end, EntityType.ORG, span.score, span.views)]
    nino = _NINO_INSIDE.search(value) if span.type is EntityType.ADDRESS else None
    if nino is not None:
        # "NI QQ 88 77 66 D, tax code" read as an address: the National Insurance number
        # inside is the value, its label and the next field's stay as written.
        return [Span(span.start + nino.start(1), span.start + nino.end(1), EntityType.ID, span.score, span.views)]
    if (
        span.type in (EntityType.PERSON, EntityType.ADDRESS)
        and cased
        and value.isalpha()
        and value.islower()
        and _POSSESSIVE_BEFORE.search(text, max(0, span.start - 12), span.start)
        and (lexicon is None or lexicon.public_kind(value) is None)
    ):
        return []  # "My payslip for November": a word after "my", in a text with capitals
    if (
        span.type is EntityType.ADDRESS
        and lexicon is not None
        and value.isalpha()
        and lexicon.is_term(value)
    ):
        return []  # "NI £148.80" on a payslip: a term, no address
    if (
        span.type in (EntityType.ID, EntityType.ACCOUNT, EntityType.PHONE, EntityType.DATE)
        and _ROOM_NUMBER.fullmatch(value) is not None
        and (
            _ROOM_BEFORE.search(text, max(0, span.start - 20), span.start) is not None
            or ("." in value and _ROOM_WORD_BEFORE.search(text, max(0, span.start - 8), span.start))
        )
    ):
        # "meeting room 4", "room 4.02" (a floor's room), "platform 9": a place in a
        # building, no one's ("Room 12" alone may be a patient's or a guest's).
        return []
    if (
        span.type in (EntityType.ORG, EntityType.OTHER, EntityType.ID, EntityType.PERSON)
        and _UNIT_ALONE.fullmatch(value) is not None
        and not _ADDRESS_AFTER_UNIT.match(text, span.end)
    ):
        # "tenant in flat 3 (mr d. kowalczyk)": a flat's or a room's number without its
        # street names no place anyone could find; the words stay as written.
        return []
    if (
        span.type in (EntityType.ORG, EntityType.LOCATION, EntityType.OTHER)
        and lexicon is not None
        and re.fullmatch(r"[A-Z][a-z]+", value) is not None
        and lexicon.is_given(value.lower())
        and lexicon.public_kind(value) is None
        and _PEOPLE_LABEL.search(text, max(0, span.start - 80), span.start) is not None
    ):
        # "Apologies: Gemma", "Present: Claire, Dev": a minutes' list of people names
        # people, whatever kind of name the model took one for.
        return [Span(span.start, span.end, EntityType.PERSON, span.score, span.views)]
    if (
        span.type is EntityType.ADDRESS
        and lexicon is not None
        and (speaker := _SPEAKER_THEN_NUMBER.match(value)) is not None
        and lexicon.is_given(speaker.group(1).split()[0].lower())
    ):
        # "[10:04] Kelly M.: 17 Fernbank Drive, ...": a chat's speaker, then the address
        # they give; the colon between them stays as written.
        return [
            Span(span.start, span.start + speaker.end(1), EntityType.PERSON, span.score, span.views),
            Span(span.start + speaker.end(), span.end, span.type, span.score, span.views),
        ]
    if (
        span.type in (EntityType.ID, EntityType.PHONE, EntityType.ACCOUNT)
        and (clock := _WORD_THEN_CLOCK.fullmatch(value)) is not None
    ):
        # "hearing listed for 14 January 2027 at 10:00", "dep 13:10": a time of day, judged
        # as a date; the word before it stays as written.
        return [Span(span.start + clock.start(1), span.end, EntityType.DATE, span.score, span.views)]
    if _TZ_OFFSET.fullmatch(value) and _TIME_BEFORE.search(text, max(0, span.start - 12), span.start):
        # "[01/Dec/2026:23:14:07 +0000]": the time zone of a time, which names no one.
        return []
    if span.type in (EntityType.ID, EntityType.PHONE, EntityType.ACCOUNT) and _LOG_TIME.fullmatch(value):
        # "[23/Nov/2026:03:14:09 +0000]": a web server log's time, a date.
        return [Span(span.start, span.end, EntityType.DATE, span.score, span.views)]
    if (
        span.type is not EntityType.ID
        and re.fullmatch(r"\d{4}", value)
        and _CARD_TAIL_BEFORE.search(text, max(0, span.start - 24), span.start)
    ):
        # "her Visa ending 4417", "card ending in 0932": a card's last four digits.
        return [Span(span.start, span.end, EntityType.ID, span.score, span.views)]
    if (
        span.type is EntityType.ORG
        and lexicon is not None
        and cased
        and (m := re.fullmatch(r"([A-Z][a-z]+)((?:[ \t]+[a-z]+)+)", value)) is not None
        and lexicon.public_kind(m.group(1)) == "nationality"
        and all(_plain_word(w, lexicon) for w in m.group(2).split())
    ):
        # "the Indian visa centre", "the French embassy": a nationality and common words
        # in lower case name a kind of office, no one's.
        return []
    if (
        (
            span.type is EntityType.LOCATION
            or (span.type in (EntityType.PERSON, EntityType.ORG) and _STREET_NAME.fullmatch(value))
        )
        and "\n" not in value
        and _HOME_ON.search(text, max(0, span.start - 40), span.start)
        and (lexicon is None or lexicon.public_kind(value) is None)
    ):
        # "outside my flat on Carlton Vale", "we live on Ashby Rise": the street of a home.
        return [Span(span.start, span.end, EntityType.ADDRESS, span.score, span.views)]
    if (
        span.type in (EntityType.OTHER, EntityType.ORG)
        and lexicon is not None
        and _LIST_SEPARATOR.search(value)
        and all(
            lexicon.is_term(item.lower()) or lexicon.public_kind(item) in ("brand", "company")
            for item in _LIST_SEPARATOR.split(value.strip())
            if item
        )
    ):
        # "SQL, Python, Tableau" on a CV: a list of public tools and terms, no one's.
        return []
    if (
        span.type in (EntityType.MRN, EntityType.ID, EntityType.ACCOUNT, EntityType.PHONE)
        and (visit := _VISIT_DATE.fullmatch(value)) is not None
    ):
        # "Echo 20/11" cut from the record's number before it ("MRN 00482913. Echo 20/11"):
        # the test's date.
        return [Span(span.start + visit.start(1), span.end, EntityType.DATE, span.score, span.views)]
    if span.type is EntityType.PERSON and (estate := _ESTATE_OF.match(value)) is not None and estate.end() < len(value):
        # "In Re the Estate of Harold Beaumont": the case's words stay, the person is named.
        return [Span(span.start + estate.end(), span.end, EntityType.PERSON, span.score, span.views)]
    if span.type in _NAME_TYPES and value == "I":
        # "I, Corinne Abara, of ...": the writer's pronoun names no one.
        return []
    if span.type is EntityType.EMAIL and _HANDLE_AT.fullmatch(value):
        # "Ticket from @miaxlouise on Instagram": a handle, not an e-mail address.
        return [Span(span.start, span.end, EntityType.ID, span.score, span.views)]
    if span.type is EntityType.EMAIL and (key := _EMAIL_KEY.match(value)) is not None:
        # "user=k.brennan@brightlane.io" in a log line: the key stays as written.
        return [Span(span.start + key.end(), span.end, span.type, span.score, span.views)]
    if (
        span.type is EntityType.PERSON
        and _TITLE_AT_START.match(value)
        and (couple := _TITLE_AND.search(text, max(0, span.start - 12), span.start)) is not None
    ):
        # "Mr and Mrs Delaney": one surname, two people addressed together; the first
        # title alone says nothing, and "Mr and [PERSON_1]" reads as two.
        return [Span(couple.start(), span.end, span.type, span.score, span.views)]
    if (
        span.type is EntityType.PERSON
        and _CAPITALIZED_WORD.fullmatch(value)
        and lexicon is not None
        and not lexicon.is_given(value)
        and _ORG_NOUN_BEFORE.search(text, max(0, span.start - 32), span.start)
    ):
        # "my employer (Greggs)", "my bank, Monzo": a name right after the word for a
        # company is the company's, whoever else carries it.
        return [Span(span.start, span.end, EntityType.ORG, span.score, span.views)]
    if span.type in (EntityType.ORG, EntityType.LOCATION) and (owner := _TITLED_OWNER.match(value)):
        # "Dr Fiona McLeod's Thursday clinic": a titled person's name, then what is theirs;
        # the person is the value, the clinic's words stay as written.
        return [Span(span.start, span.start + owner.end(1), EntityType.PERSON, span.score, span.views)]
    if (
        span.type is EntityType.ADDRESS
        and (aged := _AGE_THEN_ADDRESS.match(value)) is not None
        and text[max(0, span.start - 2) : span.start] in (", ", "(")
    ):
        # "Mr Stanley Cole, 88, 12 Orchard Way": the age after a name, then the address.
        age = Span(span.start, span.start + aged.end(1), EntityType.AGE, span.score, span.views)
        return [age, Span(span.start + aged.start(2), span.end, span.type, span.score, span.views)]
    if span.type in (EntityType.ORG, EntityType.LOCATION) and CLINICAL_SERVICE.fullmatch(value):
        # "Seen in Fracture Clinic at Royal Derby Hospital": a service every hospital has,
        # named by its kind, is no organisation's name; the hospital is.
        return []
    if span.type in _NAME_TYPES and (day := _DAY_MONTH_AFTER.search(value)) is not None:
        # "Royal Derby Hospital 27/11": the day of a visit a model ran the name into.
        return [
            Span(span.start, span.start + day.start(), span.type, span.score, span.views),
            Span(span.start + day.start(1), span.end, EntityType.DATE, span.score, span.views),
        ]
    if (
        span.type in (EntityType.LOCATION, EntityType.ORG, EntityType.DATE)
        and (premises := _NUMBERED_PREMISES.match(value)) is not None
        and (lexicon is None or lexicon.public_kind(premises.group(1)) is None)
    ):
        # "20 Bedford Row, London", "4, Mill Lane Industrial Estate, Ludlow", "3 Tern
        # Court": a house's number, a street's or an estate's name and maybe its town are
        # an address, whatever a model read in them ("10 Downing Street" stays a place);
        # what a model ran on into past them names nothing.
        end = premises.end()
        if (post := _POSTCODE_REST.fullmatch(value, end)) is not None and DIGITS.search(post.group()):
            end = len(value)  # "20 Bedford Row, London WC1R 4EB": its postcode too
        unit = _UNIT_WORD_BEFORE.search(text, max(0, span.start - 12), span.start)
        start = unit.start() if unit is not None else span.start  # "Unit 4, Mill Lane ..."
        return [Span(start, span.start + end, EntityType.ADDRESS, span.score, span.views)]
    if (
        span.type is EntityType.LOCATION
        and _CAMEL_NAME.fullmatch(value)
        and (lexicon is None or lexicon.public_kind(value) is None)
    ):
        # "I'm Dan from TalentBridge": one word with a capital inside is a company's or a
        # product's name; places with one ("McAllen", "DeKalb") begin with a particle.
        return [Span(span.start, span.end, EntityType.ORG, span.score, span.views)]
    if span.type is EntityType.PERSON and _NUMBERED_STREET.fullmatch(value):
        # "in front of no 12 marlowe close": a number, words and a street's kind are an
        # address, whatever name a model read in it.
        return [Span(span.start, span.end, EntityType.ADDRESS, span.score, span.views)]
    if span.type in (EntityType.ADDRESS, EntityType.ID, EntityType.PHONE, EntityType.AGE) and _ORDINAL_DAY.fullmatch(value):
        # "staying from the 19th to the 23rd": days of the month, whatever a model read.
        return [Span(span.start, span.end, EntityType.DATE, span.score, span.views)]
    if (
        span.type is EntityType.PHONE
        and not value.lstrip().startswith(("+", "0", "("))
        and _DOCUMENT_BEFORE.search(text, max(0, span.start - 32), span.start)
    ):
        # "My passport (no. 537219884": a document's number, not a phone's.
        return [Span(span.start, span.end, EntityType.ID, span.score, span.views)]
    if (
        span.type in (EntityType.ORG, EntityType.LOCATION)
        and lexicon is not None
        and _CAPITALIZED_WORD.fullmatch(bare := re.sub(r"['’]s$", "", value))
        and lexicon.is_given(bare)
        and lexicon.public_kind(bare) is None
        and _RELATION_BEFORE.search(text, max(0, span.start - 24), span.start)
    ):
        # "to his daughter Joanne's care": a relation's given name is a person.
        return [Span(span.start, span.end, EntityType.PERSON, span.score, span.views)]
    if (
        span.type is EntityType.OTHER
        and not cased
        and lexicon is not None
        and _relation_named(value, lexicon)
        and _RELATION_BEFORE.search(text, max(0, span.start - 24), span.start)
    ):
        # "to my landlord bill price": in a text all in lower case, a given name and a
        # surname right after a relation are the person's, whatever the model read.
        return [Span(span.start, span.end, EntityType.PERSON, span.score, span.views)]
    if (
        span.type is EntityType.PERSON
        and _CAPITALIZED_WORD.fullmatch(value)
        and _AFTER_STREET.search(text, max(0, span.start - 40), span.start)
        and not re.match(r"[ \t]+[A-Z][a-z]", text[span.end :])
    ):
        # "4 Orchard Mews, Kendal": after a street and its comma, the address's town.
        return [Span(span.start, span.end, EntityType.LOCATION, span.score, span.views)]
    if (
        span.type in (EntityType.ORG, EntityType.PERSON)
        and _COUNTY_NAME.fullmatch(value)
    ):
        # "Ballina, Co. Mayo", "County Durham": a county is a place.
        return [Span(span.start, span.end, EntityType.LOCATION, span.score, span.views)]
    if span.type is EntityType.IP and not re.search(r"[.:]", value):
        # "Crime ref 5224198765" read as a machine's address: a number with no dot or colon.
        return [Span(span.start, span.end, EntityType.ID, span.score, span.views)]
    if span.type is EntityType.ADDRESS and _HYPHENED_CODE.fullmatch(value):
        # "ref ARC-55821-LX" read as an address: a booking's code, letters and digits
        # joined by hyphens (a postcode has a space, a house number no letters).
        return [Span(span.start, span.end, EntityType.ID, span.score, span.views)]
    if span.type is EntityType.ADDRESS and _DOCUMENT_NUMBER.fullmatch(value):
        # "BRP number ZU1234567": a document's number (letters, then six digits or more)
        # is no part of an address, whatever the model read it as.
        return [Span(span.start, span.end, EntityType.ID, span.score, span.views)]
    if (
        span.type in (EntityType.ID, EntityType.PHONE, EntityType.ACCOUNT)
        and _YEAR.fullmatch(value)
        and set(_evidence(span)) <= {"ner"}
        and span.views.get("ner", 0.0) < UNSURE
    ):
        # "from 2023 to 2025" read as two codes: a year, which the type policy judges.
        return [Span(span.start, span.end, EntityType.DATE, span.score, span.views)]
    if (
        span.type in (EntityType.AGE, EntityType.ID)
        and _HOUSE_NUMBER.fullmatch(value)
        and (after := _STREET_AFTER.match(text, span.end)) is not None
    ):
        # "buying 9 Sycamore Rise, Cardiff": a house's number, not a child's age.
        return [Span(span.start, after.end(), EntityType.ADDRESS, span.score, span.views)]
    street = value[:-1] if value.endswith(".") and not _ABBREVIATED_END.search(value) else value
    if (
        (
            span.type is EntityType.LOCATION
            or (span.type is EntityType.ORG and _STREET_OF_ORG.search(street) is not None)
        )
        and _STREET_NAME.fullmatch(street)
        and (lexicon is None or lexicon.public_kind(street) is None)
    ):
        # "he lives on Fenwick Road", "the door of No. 9 Cromwell Court.": a street is part
        # of an address (a few hundred homes), not a town; a street everyone knows ("Downing
        # Street") stays a place. A full stop after the street's word is the sentence's.
        return [Span(span.start, span.start + len(street), EntityType.ADDRESS, span.score, span.views)]
    if span.type is EntityType.AGE and _DECIMAL.fullmatch(value):
        return []  # "amount": "49.90": a sum with its cents, no one's age
    if (
        span.type is EntityType.DATE
        and _NUMBERS.fullmatch(value)
        and not _calendar(value)
        and re.search(r"\d{4}", value)
        and not _ACT_BEFORE.search(text, max(0, span.start - 32), span.start)
    ):
        # "matter 2026/0417", "case 3304512/2026": numbers no calendar writes, a reference
        # (a blood pressure "142/91" and an EU act's "Directive 2006/112" are no reference).
        return [Span(span.start, span.end, EntityType.ID, span.score, span.views)]
    if span.type is EntityType.DATE and value.isdigit() and len(value) >= 5 and not _compact_date(value):
        # "deposit held with the DPS, ref 1928374" read as a date: a run of digits no
        # calendar writes (a date without separators has six or eight) is a reference.
        return [Span(span.start, span.end, EntityType.ID, span.score, span.views)]
    airline = _airline_then_flight(text, span, value, lexicon)
    if airline is not None:
        # "on Icelandair FI 670" read as an address: the airline (public), then its flight.
        return [
            Span(span.start, airline, EntityType.ORG, span.score, span.views),
            Span(_next_word(text, airline), span.end, EntityType.ID, span.score, span.views),
        ]
    flight = _flight_number(text, span)
    if flight is not None:
        # "Flight EZY 8473" read as an address: the flight's code, its word left as written.
        return [Span(flight, span.end, EntityType.ID, span.score, span.views)]
    flight_to = _flight_then_place(text, span)
    if flight_to is not None:
        # "flight SK 1467 Oslo to Bergen" read as one address: the code, then the place.
        code, place = flight_to
        return [
            Span(code[0], code[1], EntityType.ID, span.score, span.views),
            Span(place[0], place[1], EntityType.LOCATION, span.score, span.views),
        ]
    town = _town_and_postcode(text, span, value, lexicon)
    if town is not None:
        return town
    return None


def _town_and_postcode(text: str, span: Span, value: str, lexicon: Lexicon | None) -> list[Span] | None:
    """A town and its postcode read as one place or company, as two spans; else None."""
    post = _POSTCODE_END.search(value) if span.type in (EntityType.LOCATION, EntityType.ORG) else None
    if post is not None and post.start() > 0:
        # "Thirsk YO7 1HB" read as one place (or "Woking GU21 4QP" as a company): the town
        # is a place the level decides, the postcode a part of an address, protected at
        # every level.
        town = span.start + len(value[: post.start()].rstrip(" ,"))
        head = text[span.start : town]
        # Words before a postcode are its town, unless they say a company ("Acme Ltd").
        kind = EntityType.ORG if ORG_WORDS.search(head) or _LEGAL_FORM.search(head) else EntityType.LOCATION
        return [
            Span(span.start, town, kind, span.score, span.views),
            Span(span.start + post.start(), span.end, EntityType.ADDRESS, span.score, span.views),
        ]
    return None


def _with_a_drug(value: str, span: Span, lexicon: Lexicon | None) -> bool:
    """A person's name the model read with a drug's name in it, a word no one carries."""
    if span.type is not EntityType.PERSON or lexicon is None:
        return False
    return any(
        len(w) >= 4
        and lexicon.public_kind(w) == "drug"
        and not (lexicon.is_given(w.lower()) or lexicon.is_surname(w.lower()))
        for w in re.findall(r"[^\W\d_]+", value)
    )


def _comparative_bases(word: str) -> list[str]:
    """The plain forms a comparative or a superlative may come from ("friendlier" ->
    "friendly", "clearer" -> "clear", "nicest" -> "nice"); none for other words."""
    for end, subs in (("iest", ("y",)), ("ier", ("y",)), ("est", ("", "e")), ("er", ("", "e"))):
        if word.endswith(end) and len(word) > len(end) + 2:
            stem = word[: -len(end)]
            return [stem + sub for sub in subs]
    return []


def _lower_words_only(value: str, span: Span, lexicon: Lexicon | None) -> bool:
    """A person's or an organisation's name the model read in lower case, made only of a
    dictionary's plain words (no one's name), terms and drugs' names: "hold ramipril",
    "kind" of "kind regards", "nursing care"."""
    if span.type not in _LOWER_MISREAD or lexicon is None or not value.islower():
        return False
    if span.type is EntityType.ORG and lexicon.public_kind(value) is not None:
        return False  # "united has put themselves ...": a brand written in lower case
    words = value.split()
    return bool(words) and all(
        w.isalpha()
        and (
            lexicon.is_plain(w)
            # "counsellor": a frequent word no one carries, no brand ("minecraft") and no
            # plural (a team or a band in lower case: "the bengals")
            or (_plain_word(w, lexicon) and lexicon.public_kind(w) is None and not w.endswith("s"))
            # "friendlier", "clearer": a plain adjective's comparative or superlative
            or any(lexicon.is_plain(base) for base in _comparative_bases(w))
            # "off with chickenpox", "has tonsillitis": a condition's name by its ending
            or (_CONDITION.fullmatch(w) is not None and not (lexicon.is_given(w) or lexicon.is_surname(w)))
            # "main carer" read as a company: a frequent word in lower case in a text with
            # capitals is the word, though a few carry it as a surname ("Main")
            or (
                span.type is EntityType.ORG
                and lexicon.zipf(w) >= _SENTENCE_WORD_ZIPF
                and not lexicon.is_given(w)
            )
            or (
                (lexicon.is_term(w) or lexicon.public_kind(w) == "drug")
                and not (lexicon.is_given(w) or lexicon.is_surname(w))
            )
        )
        for w in words
    )


#: A name in snake case: "created_at", "order_total".
_SNAKE_CASE = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+")
#: Words in lower case, then an account's or a variable's name in snake case.
_WORDS_BEFORE_HANDLE = re.compile(r"((?:[a-z]+[ \t]+){1,3})([a-z][a-z0-9]*(?:_[a-z0-9]+)+)")

#: A condition's or a procedure's name by its ending, too rare for a word list
#: ("chickenpox", "tonsillitis", "bronchiolitis", "appendicectomy", "anaemia").
_CONDITION = re.compile(
    r"[a-z]{3,}(?:itis|osis|iasis|pox|a?emia|algia|ectomy|otomy|ostomy|oplasty|opathy|virus|"
    # "haematuria", "dysphagia", "tachycardia", "haemoptysis", "splenomegaly", "dyspnoea"
    r"uria|rrh(?:o|a)?ea|penia|plegia|paresis|pnoea|pnea|trophy|megaly|scopy|graphy|rrhage|"
    r"ptysis|emesis|phagia|phasia|cardia|lysis|stasis|thorax|oedema|ogram)"
    r"|[a-z]*(?:carcin|melan|lymph|myel|glauc|sarc|aden|mening|gli|lip|fibr|ha?emat)oma"
)

#: The types whose names are written with capitals in a text that has them.
#: (An address in lower case words alone, "landscaping at 2 Mill Lane", has no number.)
_LOWER_MISREAD = frozenset({EntityType.PERSON, EntityType.ORG, EntityType.ADDRESS})


def _without_lower_head(text: str, span: Span, lexicon: Lexicon | None) -> Span:
    """A person's or a company's name without the words in lower case the model began it
    with, in a text written with capitals: "cocker spaniel Biscuit" is "Biscuit", "blue
    Trek FX" is "Trek FX" (a surname's particle stays: "van der Berg", "bin Rashid"; a
    surname written in lower case, "blue", is a word here)."""
    if span.type not in _LOWER_MISREAD or lexicon is None or not is_cased(text):
        return span
    if message_language(text) != ENGLISH or KINSHIP.fullmatch(text, span.start, span.end):
        return span  # "meine Mutter": a relative named by the relation (dropped as such)
    k = 0
    words = list(re.finditer(r"\S+", text[span.start : span.end]))
    lower = 0
    while (
        k < len(words) - 1
        # "heart failure clinic, Leeds General Infirmary": a department before its hospital.
        and (w := words[k].group().removesuffix(",")).isalpha()
        and (
            (w.islower() and w not in _NAME_JOINERS and w not in _NAME_PARTICLES)
            # "Under Ofcom's scheme": a preposition capitalized only because it begins the
            # sentence (the public regulator had gone as "[ORG_2]'s automatic ...").
            or (k == 0 and w in _OPENING_PREPOSITIONS and _first_in_sentence(text, span.start))
            # "GP practice Elmwood Surgery": a term in capitals heads the words in lower
            # case ("NHS Lothian", with none, stays whole).
            or (k == 0 and w.isupper() and lexicon.is_term(w.lower()) and not lexicon.is_given(w.lower()))
        )
    ):
        lower += w.islower() or w in _OPENING_PREPOSITIONS
        k += 1
    if k == 0 or lower == 0 or not words[k].group()[:1].isupper():
        return span
    if lexicon.public_kind(" ".join(w.group() for w in words[:k])) is not None:
        return span  # "flying on air canada AC 868": a brand written in lower case
    return Span(span.start + words[k].start(), span.end, span.type, span.score, span.views)


#: Prepositions a sentence may begin with before a name (its capital is the sentence's).
_OPENING_PREPOSITIONS = frozenset(
    "Under With For From At By In On Per Via Through After Before During Since Until Unlike "
    "Without Within Against".split()
)


#: A relation written in lower case right before a name: "my flatmate jordan okafor".
_RELATION_WORD = (
    r"(?:friend|colleague|boss|manager|neighbou?r|husband|wife|partner|son|daughter|brother|"
    r"sister|cousin|uncle|aunt|nephew|niece|teacher|tutor|coach|client|patient|tenant|"
    r"landlord|landlady|flatmate|roommate|housemate|girlfriend|boyfriend|fianc[eé]e?|"
    r"mum|mom|dad|grandma|grandpa|granny|stepdad|stepmum|stepmom|gf|bf|hubby|aunty|auntie|"
    r"nan|nana|nanna|gran|grandad|granddad|grandmother|grandfather|stepson|stepdaughter|"
    r"mother-in-law|father-in-law|sister-in-law|brother-in-law|godmother|godfather|bestie|"
    r"bro|sis|wifey|carer|childminder|babysitter|nanny|lodger|ex)"
)
_RELATION_HEAD = re.compile(rf"{_RELATION_WORD}[ \t]+(?=\S)")


#: A carer's or a clinician's role in lower case, with the service before it ("camhs
#: nurse bernadette", "health visitor"), at a model's person's start.
_CARE_ROLE_HEAD = re.compile(
    r"(?:[a-z][a-z'’\-]*[ \t]+){0,2}?(?:nurse|midwife|physio|physiotherapist|health[ \t]visitor|gp|"
    r"doctor|consultant|registrar|therapist|counsell?or|social[ \t]worker|key[ \t]?worker|carer|"
    r"receptionist|pharmacist|dentist|surgeon|psychiatrist|psychologist|paramedic|senco|sendco|"
    r"caseworker|case[ \t]worker|advisor|adviser)[ \t]+(?=[a-z])"
)


#: A relation right before a name, after "my", "his", "her", "our" or "their".
_RELATION_BEFORE = re.compile(rf"\b(?:my|his|her|our|their)[ \t]+{_RELATION_WORD}[ \t]+$", re.IGNORECASE)


def _relation_named(value: str, lexicon: Lexicon) -> bool:
    """Whether ``value`` is a given name, then surnames or given names ("bill price"), and
    no public name."""
    words = value.split()
    return (
        0 < len(words) <= 3
        and all(w.isalpha() for w in words)
        and lexicon.is_given(words[0])
        and all(lexicon.is_surname(w) or lexicon.is_given(w) for w in words[1:])
        and lexicon.public_kind(value) is None
        # "my boss will call": one frequent word alone is the word
        and (len(words) > 1 or lexicon.zipf(value) < _FREQUENT_NAME_WORD)
    )


#: A word this frequent in English (Zipf scale) is read as the word when it stands alone.
_FREQUENT_NAME_WORD = 4.0


#: Lower-case words before an address's number that are no part of it ("property 3 Mill
#: Lane", "address 17 Larch Close"); a unit's word is ("flat 2, 19 Clifton Terrace").
_ADDRESS_LABEL_HEAD = re.compile(r"(?:[a-z]+[ \t]+)+?(?=\d)")
_ADDRESS_UNIT_WORDS = frozenset(
    "flat apt apartment unit suite floor room house no number block building plot lot "
    "studio maisonette cottage bungalow villa po box".split()
)


#: A postcode's label before it: "postcode SE15 4RQ", "Zip code: 94110".
_POSTCODE_LABEL = re.compile(r"(?i:post[ \t]?code|postal[ \t]code|zip(?:[ \t]?code)?)[ \t]*:?[ \t]+(?=[A-Za-z0-9])")


#: A form's key and its colon at a name's start: "École : groupe scolaire", "Name: Ana".
_KEY_HEAD = re.compile(r"(?P<key>[^\W\d_][^\W\d_]*(?:[ '’\-][^\W\d_]+){0,3})[ \t]*:[ \t]*(?=[^\s:])")


def _without_field_key(text: str, span: Span) -> Span:
    """A name a model read with the form's key before it ("École : groupe scolaire"): the
    key and its colon stay as written, the value is the name."""
    if span.type not in _NAME_TYPES and span.type is not EntityType.ADDRESS:
        return span
    m = _KEY_HEAD.match(text, span.start, span.end)
    if m is None or m.end() >= span.end or _key_type(m.group("key"), text) is None:
        return span
    return Span(m.end(), span.end, span.type, span.score, span.views)


#: A number's first token: a word with a digit in it.
_DIGIT_TOKEN = re.compile(r"(?<!\S)[^\s]*\d")
_IS_TAIL = re.compile(r"\s+(?:is|was|:)\s*$", re.IGNORECASE)


def _without_record_label(text: str, span: Span) -> Span:
    """A record's number without the label a model read with it ("tenancy ref TR/4471/22",
    "DPS, tenancy ref TR/4471/22", "employee number is 00917-LDS"): the label and what
    stands before it stay as written, the number is the value."""
    if span.type not in (EntityType.ID, EntityType.ACCOUNT, EntityType.MRN):
        return span
    m = _DIGIT_TOKEN.search(text, span.start, span.end)
    if m is None or m.start() <= span.start:
        return span
    head = text[span.start : m.start()]
    if DIGITS.search(head):
        return span
    head = _IS_TAIL.sub(" ", head)
    if _RECORD_LABEL.search(head) is None and _RECORD_LABEL_OTHER.search(head) is None:
        return span
    return Span(m.start(), span.end, span.type, span.score, span.views)


def _without_address_label(text: str, span: Span) -> Span:
    """An address without the words in lower case before its number that name what it is
    ("Council tax account 50093127, property 3 Mill Lane"): the label stays as written."""
    if span.type is not EntityType.ADDRESS:
        return span
    if (label := _POSTCODE_LABEL.match(text, span.start, span.end)) is not None and label.end() < span.end:
        # "postcode SE15 4RQ": the label stays as written, in any case.
        return Span(label.end(), span.end, span.type, span.score, span.views)
    m = _ADDRESS_LABEL_HEAD.match(text, span.start, span.end)
    if m is None or any(w in _ADDRESS_UNIT_WORDS for w in m.group().split()):
        return span
    if not is_cased(text) and not all(w in LABEL_WORDS for w in m.group().split()):
        # ("barra de carrasco 15000" in a text all in lower case is the place; "postcode
        # se15 4rq" keeps its label in any case)
        return span
    return Span(m.end(), span.end, span.type, span.score, span.views)


def _without_relation_head(text: str, span: Span) -> Span:
    """A person's name without the relation in lower case the model began it with, in a
    text written with capitals or not: "flatmate jordan okafor" is "jordan okafor" (the
    relation says who the person is to the writer, not who they are)."""
    if span.type is not EntityType.PERSON:
        return span
    m = (
        _RELATION_HEAD.match(text, span.start, span.end)
        or _CARE_ROLE_HEAD.match(text, span.start, span.end)
        or _ROLE_HEAD.match(text, span.start, span.end)
        or _HEAD_BEFORE_TITLE.match(text, span.start, span.end)
    )
    if m is None or m.end() >= span.end:
        return span
    return Span(m.end(), span.end, span.type, span.score, span.views)


#: A platform's word for what someone runs on it ("shop", "channel", "account"): the name
#: after it is theirs (core.policy reads it too).
PLATFORM_WORDS = r"(?:shop|store|storefront|page|channel|account|server|group|seller|listing|stall|boutique)"
#: A public platform's name and its word for what someone runs there, before that one's
#: name: "Etsy shop Little Loom Knits", "eBay store Vintage Finds 4U".
_PLATFORM_HEAD = re.compile(rf"(\S+)[ \t]+{PLATFORM_WORDS}[ \t]+(?=[A-Z0-9])")


def _without_platform_head(text: str, span: Span, lexicon: Lexicon | None) -> Span:
    """An organisation's name without the platform it is on: the shop is someone's, the
    platform ("Etsy") everyone's, and the task may need it."""
    if span.type is not EntityType.ORG or lexicon is None:
        return span
    m = _PLATFORM_HEAD.match(text, span.start, span.end)
    if m is None or m.end() >= span.end or lexicon.public_kind(m.group(1)) not in ("company", "brand", "company-word"):
        return span
    return Span(m.end(), span.end, span.type, span.score, span.views)


#: Words in lower case before a title inside a name: "form tutor ms o'callaghan" is "ms
#: o'callaghan" (a title begins a name; what comes before it says who the person is).
_HEAD_BEFORE_TITLE = re.compile(
    r"(?:[a-z][a-z'’\-]*[ \t]+){1,3}?(?=(?:mr|mrs|ms|miss|mx|dr|prof)\.?[ \t]+[A-Za-z])"
)


#: A role written with a capital before a name ("Patient A.K. reports", "Client Jane Moss"):
#: words no one carries as a name, what the person is in the writer's work.
_ROLE_HEAD = re.compile(
    r"(?:Client|Patient|Tenant|Landlord|Landlady|Colleague|Resident|Pupil|Employee|Claimant|"
    r"Respondent|Defendant|Applicant|Complainant|Customer|Caller|Service[ \t]user|"
    # A relative or a newborn in a clinical note: "Mother Justyna, 24", "Baby Noah Kowalczyk".
    r"Mother|Father|Daughter|Husband|Wife|Brother|Sister|Grandmother|Grandfather|Baby|"
    # What a family calls its own: "Grandad Stan", "Auntie Pat", "Uncle Dev" ("Nana" and
    # "Nan" are given names too: "Nana Akufo-Addo").
    r"Grandad|Granddad|Grandpa|Grandma|Granny|Auntie|Aunty|Aunt|Uncle|Cousin|Niece|Nephew|"
    r"Stepmother|Stepfather|Stepdaughter|Stepson|"
    # Who someone lives with or is looked after by: "Partner Gavin is main carer".
    r"Partner|Fianc[eé]e?|Girlfriend|Boyfriend|Carer|Neighbou?r|Flatmate|Housemate)[ \t]+(?=[A-Z])"
)


#: A role alone, written with its capital as a document's defined term: "the Respondent".
_ROLE_WORD = re.compile(
    r"(?:Client|Patient|Tenant|Landlord|Landlady|Claimant|Respondent|Defendant|Applicant|"
    r"Complainant|Appellant|Petitioner|Plaintiff|Employer|Employee|Buyer|Seller|Vendor|"
    r"Purchaser|Lessor|Lessee|Licensor|Licensee|Guarantor|Borrower|Lender)s?"
)


def _without_leading_term(text: str, span: Span, lexicon: Lexicon | None) -> Span:
    """A person's name without the role's abbreviation the name's capitals ran on from:
    "my GP Dr Feng" is "Dr Feng" ("GP", "CEO" and "HR" are terms, no one's name). So is
    a date without the test or the visit the model began it with: "Echo 18/11" is the
    echocardiogram's date, "18/11" ("MRI 12 March")."""
    if span.type is EntityType.DATE and lexicon is not None:
        d = _LEADING_TERM_WORD.match(text, span.start, span.end)
        if (
            d is not None
            and (
                _VISIT_WORD.fullmatch(d.group(1))
                or (lexicon.is_term(d.group(1).lower()) and not lexicon.is_given(d.group(1).lower()))
            )
            and not _MONTH_WORD_START.match(d.group(1))
        ):
            return Span(d.end(), span.end, span.type, span.score, span.views)
        return span
    if span.type is not EntityType.PERSON or lexicon is None:
        return span
    m = _LEADING_CAPS.match(text, span.start, span.end)
    if (
        m is None
        or not lexicon.is_term(m.group(1).lower())
        or lexicon.is_given(m.group(1).lower())
        or lexicon.is_surname(m.group(1).lower())
    ):
        return span
    return Span(m.end(), span.end, span.type, span.score, span.views)


#: Particles of names written in lower case ("bin Rashid", "da Costa", "al-Amin").
_NAME_PARTICLES = frozenset("bin binti bint ibn al el ap ten ter dos das do di da della".split())
#: A test or a visit a date in a clinical note is of, even where people carry the word
#: as a name ("Echo").
_VISIT_WORD = re.compile(
    r"(?i:echo|ecg|ekg|eeg|mri|ct|pet|xray|x-ray|cxr|bloods|scan|review|clinic|appt|"
    r"appointment|op|surgery|f/u|fu|follow-up|visit|seen|admitted|discharged|dx|tx|rx)"
)
#: A code of capitals and digits joined by hyphens, both in it: "ARC-55821-LX".
_HYPHENED_CODE = re.compile(r"(?=[^ ]*[A-Z])(?=[^ ]*\d)[A-Z0-9]+(?:-[A-Z0-9]+)+")
#: A home and "on" before a street's name: "my flat on", "we live on", "lives on".
_HOME_ON = re.compile(
    r"\b(?:(?:my|our|his|her|their)[ \t]+(?:flat|house|home|place|apartment|bungalow|cottage)"
    r"|live|lives|living|lived)[ \t]+on[ \t]+(?:the[ \t]+)?$",
    re.IGNORECASE,
)
#: The separators of a list's items: commas, slashes, "and", "&" (and a sentence's end:
#: "on my Mac. pip3 list" read as one).
_LIST_SEPARATOR = re.compile(r"[ \t]*(?:,|/|;)[ \t]*|\.[ \t]+|[ \t]+(?:and|&)[ \t]+")
#: A test or a visit and its date, day and month (and year): "Echo 20/11".
_VISIT_DATE = re.compile(rf"{_VISIT_WORD.pattern}[ \t:]+(\d{{1,2}}[/.]\d{{1,2}}(?:[/.]\d{{2,4}})?)")
#: A word, then a date's first digit: "Echo 18/11".
_LEADING_TERM_WORD = re.compile(r"([A-Za-z][A-Za-z0-9\-]*)[ \t]+(?=\d)")
#: A month's name or its abbreviation, part of the date.
_MONTH_WORD_START = re.compile(
    r"(?i:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun)"
)
#: An abbreviation in capitals, then the rest of a name: "GP Dr Feng".
_LEADING_CAPS = re.compile(r"([A-Z]{2,5})[ \t]+(?=[A-Z][a-z])")

#: Words that begin an address's first line ("Flat 3, 27 ..."): part of the address.
_ADDRESS_LEADS = frozenset("flat unit apartment apt suite room floor house building block".split())
#: A surname's particle standing alone in lower case: a word ("van", "de"), no name.
_LONE_PARTICLES = frozenset("van von de der den di da del la le du ter".split())
#: A day of the week, written whole or short: "Tue", "Thursday".
_WEEKDAY = re.compile(
    r"(?:Mon|Tue|Tues|Wed|Thu|Thur|Thurs|Fri|Sat|Sun)\.?|(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day"
)
#: A British car's registration since 2001: two letters, the age's two digits, three letters.
_UK_REG = re.compile(r"[A-Z]{2}\d{2} ?[A-Z]{3}")
#: A note's age and sex: "54F", "72M".
_AGE_SEX = re.compile(r"\d{1,3}[FM]")
#: A registration after its label, read as one value: "reg KX19 PLO".
_LABELLED_REG = re.compile(r"(?i:reg|reg\.|registration|plate|number plate)[ \t]+([A-Z]{2}\d{2} ?[A-Z]{3})")
#: Words a person is called by who they are to the writer (the name, if any, comes with them).
_KIN = frozenset(
    "mum mom mother mummy mommy mam ma dad father daddy pa papa mama nan nana nanna gran granny "
    "grandma grandmother grandpa grandad granddad grandfather grampa auntie aunty".split()
)
#: An age of two or three digits alone; "after a name" and "then a bracket or a comma".
_NUMBER_AGE = re.compile(r"\d{2,3}")
_AFTER_NAME = re.compile(r"[A-Z][a-z]+(?:[-'’][A-Z]?[a-z]+)?(?:,[ \t]|[ \t]\()$")
_AGE_END = re.compile(r"[ \t]*(?:\)|,|;|$|\n|[ \t]+(?:years?|yrs?|y/?o)\b)")
#: A shop or a branch and the street it is on: "Boots on Fore Street", "Tesco in Mill Lane".
_BRANCH_ON_STREET = re.compile(
    r"([A-Z][\w&'’\-]*(?:[ \t][A-Z][\w&'’\-]*){0,2})[ \t]+(?:on|in)[ \t]+"
    r"((?:[A-Z][\w'’\-]*[ \t]+){1,3}(?:Street|Road|Lane|Avenue|Way|Square|Row|Place|Parade|"
    r"Broadway|Crescent|Terrace|Hill|Gate))"
)
#: Words before a subject one studies or teaches: "read Pharmacy", "a degree in Law".
_STUDY_BEFORE = re.compile(
    r"\b(?:read|reading|study|studying|studied|studies|degree in|major in|majoring in|"
    r"course in|lecturer in|teacher of|professor of|taking|took|teach|teaches|teaching)[ \t]+$",
    re.IGNORECASE,
)
#: A question's verb before its subject: "Can you", "Will we" ("Can" is a given name too).
_AUXILIARY = re.compile(r"Can|Could|Will|Would|May|Might|Shall|Should|Must|Did|Does|Do|Is|Are|Was|Were")
_PRONOUN_AFTER = re.compile(r"[ \t]+(?:you|u|I|we|they|he|she|it|this|that)\b")
#: A year alone.
_YEAR = re.compile(r"(?:19|20)\d\d")
#: The kinds of street a street's name ends with.
_STREET_KINDS = (
    r"(?:Road|Street|Lane|Avenue|Close|Drive|Crescent|Gardens|Terrace|Grove|Mews|Row|Way|"
    r"Court|Rise|Walk|Rd|St|Ave)"
)
#: A day and a month (or a full date) at the end of a name: " 27/11", " 27/11/2026".
_DAY_MONTH_AFTER = re.compile(r"[ \t]+((?:0?[1-9]|[12]\d|3[01])/(?:0?[1-9]|1[0-2])(?:/(?:\d{2}|\d{4}))?)$")
#: The kinds of premises a business's address ends with, beside the streets'.
_PREMISES_KINDS = (
    rf"(?:{_STREET_KINDS}|Park|Estate|Centre|Center|House|Building|Buildings|Place|Square|Yard|"
    r"Wharf|Quay|Parade|Green|Plaza|Tower|Works|Arcade|Exchange)"
)
#: A house's or a unit's number, a street's or premises' name, maybe a town after a comma:
#: "20 Bedford Row, London", "4, Mill Lane Industrial Estate, Ludlow".
#: A premises' name: "Brindley Trade Park", "Mill Lane Industrial Estate".
_PREMISES_NAME = re.compile(rf"(?:[A-Z][\w'’\-]*[ \t]+){{1,3}}{_PREMISES_KINDS}")
_NUMBERED_PREMISES = re.compile(
    rf"(?:(?:No\.?|Number)[ \t]*)?\d{{1,4}}[A-Za-z]?,?[ \t]+({_PREMISES_NAME.pattern})\b"
    r"(?:,[ \t]+[A-Z][a-z'’\-]+(?:[ \t]+[A-Z][a-z'’\-]+)?(?![\w'’\-]))?"
)
#: A postcode or a ZIP code after an address's town: " WC1R 4EB", ", 02139".
_POSTCODE_REST = re.compile(r",?[ \t]+[A-Z0-9][A-Z0-9 \-]{1,9}")
#: The word for a flat or a unit in a building (a room's is no address's).
_FLAT_WORD = r"(?<![\w])(?i:flat|unit|apt\.?|apartment|suite)"
#: A flat's or a unit's number right before its address: "Unit 7, ", "flat 4b at ".
_UNIT_BEFORE = re.compile(rf"{_FLAT_WORD}[ \t]?\d{{1,4}}[A-Za-z]?(?:,[ \t]*|[ \t]+(?:at|of|in)[ \t]+)$")
#: The word for a flat or a unit right before its number: "Unit " of "Unit 4, Mill Lane".
_UNIT_WORD_BEFORE = re.compile(rf"{_FLAT_WORD}[ \t]+$")
#: One word with a capital inside ("TalentBridge"), not a particle's ("McAllen", "DeKalb").
_CAMEL_NAME = re.compile(r"(?!(?:Mc|Mac|De|Di|Du|Da|La|Le|Lo|Van|Von|St|Fitz)[A-Z])[A-Z][a-z]+(?:[A-Z][a-z]+)+")
#: An age, a comma, then a house's number and its street: "88, 12 Orchard Way".
_AGE_THEN_ADDRESS = re.compile(r"(\d{1,3}),[ \t]+(\d{1,4}[A-Za-z]?[ \t]+[A-Za-z])")
#: A house number, up to three words and the kind of street, in any case: "12 marlowe close".
_NUMBERED_STREET = re.compile(rf"\d{{1,4}}[A-Za-z]?[ \t]+(?:[^\W\d_]+[ \t]+){{1,3}}(?i:{_STREET_KINDS})")
#: A street's name: capitalized words and the kind of street.
_STREET_NAME = re.compile(
    r"(?:(?:No\.?|Number)[ \t]*)?(?:\d{1,4}[A-Za-z]?,?[ \t]+)?"
    rf"(?:[A-Z][\w'’\-]*[ \t]+){{1,3}}{_STREET_KINDS}\.?"
)
#: The kinds of street no organisation's name ends in ("parking across my drive on
#: Hollybank Close" read as a company; "Crown Court", "Kew Gardens" and "Ocean Way" are
#: not among them).
_STREET_OF_ORG = re.compile(r"[ \t](?:Road|Street|Lane|Avenue|Close|Drive|Crescent|Terrace|Grove|Mews|Rise|Rd|Ave)$")
#: An account's name in lower case ("m.tanaka", "jgarrido", "svc_billing") and the words
#: before it ("for user", "my user is", "username:", 'user "').
_ACCOUNT_NAME = re.compile(r"[a-z][a-z0-9]*(?:[._\-][a-z0-9]+)*")
_ACCOUNT_BEFORE = re.compile(
    # A setting's key ends in one too: "POSTGRES_USER: harriet", "DB_LOGIN=".
    r"(?:\b|(?<=_))(?:user(?:_?name)?|login|account)(?:[ \t]+(?:is|was|name[ \t]+is))?[\"']?[ \t]*[:=]?[ \t]*[\"'“]?$"
    # A web server's log line: the client's address, the ident's "-", the user.
    r"|(?<![\d.])(?:\d{1,3}\.){3}\d{1,3}[ \t]+-[ \t]+$",
    re.IGNORECASE,
)
#: The words right before a medicine's name.
_PRESCRIBED = re.compile(
    r"\b(?:prescribed|prescribes|prescribing|prescription[ \t]+for|(?:started|put)[ \t]+"
    r"(?:me|him|her|them|us|you)[ \t]+(?:back[ \t]+)?on)[ \t]+$",
    re.IGNORECASE,
)
#: A table's alias and a column in a query: "c.dob", "u.first_name".
_COLUMN_REF = re.compile(r"[a-z]{1,3}\.([a-z][a-z_]*)")
#: The street right after a house's number (:data:`_HOUSE_NUMBER`, "9", "14a").
_STREET_AFTER = re.compile(rf"[ \t]+(?:[A-Z][\w'’\-]*[ \t]+){{1,3}}{_STREET_KINDS}\b")
_ABBREVIATED_END = re.compile(r"\b(?:Rd|St|Ave|Dr|Cl|Cres)\.$")
#: One capitalized word.
_CAPITALIZED_WORD = re.compile(r"[A-Z][a-z]{2,}")
#: How frequent a plain word must be to be no name at a sentence's start ("Current").
_SENTENCE_WORD_ZIPF = 4.5
#: A dictionary's abstract noun by its ending ("tenancy", "redundancy", "arrangement").
_ABSTRACT_NOUN = re.compile(r"[a-z]{3,}(?:ancy|ency|tion|sion|ment|ness|ship|ance|ence)")


def _sentence_word(text: str, span: Span, value: str, lexicon: Lexicon) -> bool:
    """A frequent plain word alone at a sentence's start, only the model's guess."""
    # A word the model ran a web address into ("/v2/orders. Token was issued") is no
    # address; it is judged as a name of no known kind.
    unsure = span.type is EntityType.OTHER or (
        span.type in (EntityType.URL, EntityType.EMAIL) and not _ADDRESS_SIGN.search(value)
    )
    return (
        (span.type in _NAME_TYPES or unsure)
        and _CAPITALIZED_WORD.fullmatch(value) is not None
        and _SENTENCE_START.search(text, max(0, span.start - 4), span.start) is not None
        and (
            lexicon.zipf(value) >= _SENTENCE_WORD_ZIPF
            # "Tenancy started 1 June": an abstract noun of the dictionary, less frequent.
            or (_ABSTRACT_NOUN.fullmatch(value.lower()) is not None and lexicon.is_plain(value.lower()))
            # "Token was issued this morning": any word of the dictionary where the model
            # could not even say what kind of name it is
            or (unsure and lexicon.is_plain(value.lower()))
        )
        and not lexicon.is_given(value)
        # A frequent word some carry as a surname ("White", "Current") is a surname only
        # where the model read a person.
        and not (span.type is EntityType.PERSON and lexicon.is_surname(value))
        and lexicon.public_kind(value) is None
        and set(_evidence(span)) == {"ner"}
    )


def _model_only(span: Span) -> bool:
    """Whether only the NER found ``span`` (the rules' name extent may have widened it)."""
    return set(span.views) - {"name-extent"} == {"ner"}


def _possessive(text: str, span: Span) -> bool:
    """Whether a possessive "'s" ends ``span`` or follows it ("at Priya's")."""
    return text[span.end : span.end + 2] in ("'s", "’s") or text[span.end - 2 : span.end] in ("'s", "’s")


def _evidence(span: Span) -> dict[str, float]:
    """The views that found ``span``, without the widening view and the rules' weak guesses."""
    return {
        k: v
        for k, v in span.views.items()
        if k != "name-extent" and not (k == "rules" and v < WEAK_RULE)
    }


#: A chat's mentions of everyone in a channel (Slack, Teams, Discord, Mattermost).
_BROADCAST = frozenset({"channel", "here", "everyone", "all", "team"})
#: A possessive right before a word ("my payslip"; "the ipad" may be a brand in lower case).
_POSSESSIVE_BEFORE = re.compile(r"(?<![\w'’])(?:my|our|your|his|her|their)[ \t]+$", re.IGNORECASE)
#: A determiner or a possessive right before a word: "my parcel", "the invoice".
_DETERMINER_OR_POSSESSIVE = re.compile(r"\b(?:my|your|our|his|her|their|the|a|an|this|that)[ \t]+$", re.IGNORECASE)
#: A room's, a gate's or a platform's number, and its word right before it.
_ROOM_NUMBER = re.compile(r"[A-Z]?\d{1,3}(?:\.\d{1,3})?[A-Za-z]?")
_ROOM_BEFORE = re.compile(
    r"\b(?i:meeting room|conference room|classroom|lecture theatre|gate|platform)[ \t]+$"
)
_ROOM_WORD_BEFORE = re.compile(r"\b(?i:room)[ \t]+$")
#: A flat's, a unit's or a room's number alone, and the street that may follow it.
_UNIT_ALONE = re.compile(r"(?i:flat|unit|apt|apartment|room|suite)[ \t]?\d{1,4}[A-Za-z]?")
_ADDRESS_AFTER_UNIT = re.compile(r",?[ \t]*\d{1,5}[A-Za-z]?[ \t]+[A-Za-z]|,?[ \t]*[A-Z][a-z]+[ \t]+(?:House|Court|Road|Street|Lane)")
#: The label of a list of people in minutes or a message's header, then the names before
#: on its line: "Apologies: ", "Present: Claire, ", "cc: ".
_PEOPLE_LABEL = re.compile(
    r"\b(?:apologies|attendees|present|absent|chair(?:ed by)?|minute taker|attendance|cc|bcc)"
    r"[ \t]*:[ \t]*(?:[^\n.:;]*,[ \t]*)?$",
    re.IGNORECASE,
)
#: A chat's speaker before a colon, then a number: "Kelly M.: 17 Fernbank Drive".
_SPEAKER_THEN_NUMBER = re.compile(r"([A-Z][a-z]+(?:[ \t][A-Z][a-z]+|[ \t][A-Z]\.)?):[ \t]+(?=\d)")
#: A time of day written with a colon: "10:00", "9:30am", "23:14:07".
_CLOCK = re.compile(r"(?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d)?(?:[ \t]?(?:am|pm|AM|PM))?")
_WORD_THEN_CLOCK = re.compile(rf"(?:[a-z]{{2,10}}\.?[ \t]+)?({_CLOCK.pattern})")
#: A time zone's offset from UTC ("+0000", "-0500", "+05:30") and the time before it.
_TZ_OFFSET = re.compile(r"[+-](?:0\d|1[0-4]):?[0-5]\d")
_TIME_BEFORE = re.compile(r"\d:[0-5]\d(?::[0-5]\d(?:\.\d+)?)?[ \t]?$")
#: A web server log's time: "23/Nov/2026:03:14:09".
_LOG_TIME = re.compile(r"\d{1,2}/[A-Z][a-z]{2}/\d{4}:\d{2}:\d{2}:\d{2}")
#: A UK National Insurance number inside a longer span (the rules view's pattern).
_NINO_INSIDE = re.compile(NINO)
#: A farm's or a cottage's name, maybe with its town: "Balgowan Farm, Perth".
_NAMED_PROPERTY = re.compile(
    r"((?:[A-Z][\w'’\-]*[ \t]+){1,3}(?:Farm|Farmhouse|Cottage|Barn|Croft|Steading))"
    r"(?:,[ \t]+([A-Z][\w'’\-]*(?:[ \t]+[A-Z][\w'’\-]*)?))?"
)
#: A record's number after its label: digits, maybe a hash and hyphens ("#5521", "88213").
_BARE_NUMBER = re.compile(r"#?\d[\d\-]{2,}")
#: A document's number: a letter or a few, then six digits or more ("ZU1234567").
_DOCUMENT_NUMBER = re.compile(r"[A-Z]{1,4}\d{6,}[A-Z]?")
#: A number with its cents: "49.90", "1,204.50".
_DECIMAL = re.compile(r"\d{1,3}(?:,\d{3})*[.,]\d{2}")
#: The word before an EU act's number: "Directive 2006/112/EC", "Regulation (EU) 2016/679".
_ACT_BEFORE = re.compile(r"\b(?:Directive|Regulation|Decision)[ \t]+(?:\((?:EU|EC|EEC)\)[ \t]+)?(?:No\.?[ \t]+)?$")
#: Numbers joined by slashes, hyphens or dots ("2026/0417", "12/03/2024").
_NUMBERS = re.compile(r"\d+(?:[/\-.]\d+)+")


def _compact_date(digits: str) -> bool:
    """Whether a run of digits can be a date written without separators: "20251127",
    "27112025", "271125" or "251127" (a valid day and month, a year of this century or
    the last)."""

    def valid(day: str, month: str, year: str) -> bool:
        if len(year) == 4 and not 1900 <= int(year) <= 2099:
            return False
        return 1 <= int(month) <= 12 and 1 <= int(day) <= 31

    if len(digits) == 8:
        return valid(digits[6:], digits[4:6], digits[:4]) or valid(digits[:2], digits[2:4], digits[4:]) or valid(digits[2:4], digits[:2], digits[4:])
    if len(digits) == 6:
        return valid(digits[:2], digits[2:4], digits[4:]) or valid(digits[4:], digits[2:4], digits[:2]) or valid(digits[2:4], digits[:2], digits[4:])
    return False


def _calendar(value: str) -> bool:
    """Whether numbers joined by separators can be a date a calendar writes: a day, a month
    and a year of two or four digits in one of the orders people use (or two of them)."""
    parts = re.split(r"[/\-.]", value)
    if len(parts) == 2 and len(parts[0]) == 4 and len(parts[1]) in (2, 4):
        # "2025/26", "2019-2020": a tax or school year, a span of two years; "2024-03" a month.
        return int(parts[1]) % 100 == (int(parts[0]) + 1) % 100 or (
            len(parts[1]) == 2 and 1 <= int(parts[1]) <= 12
        )
    if len(parts) > 3 or any(len(p) not in (1, 2, 4) for p in parts):
        return False
    years = [k for k, p in enumerate(parts) if len(p) == 4]
    if len(years) > 1 or (years and years[0] not in (0, len(parts) - 1)):
        return False
    small = [int(p) for p in parts if len(p) <= 2]
    if years and not 1000 <= int(parts[years[0]]) <= 2999:
        return False
    return all(0 <= n <= 31 for n in small) and any(1 <= n <= 12 for n in small) if small else False
#: A British postcode closing a place's name: "Thirsk YO7 1HB".
_POSTCODE_END = re.compile(rf"(?<=[ ,])(?:{UK_POSTCODE.pattern})$")
#: The word for a flight before its number, in the five languages: "Flight", "Flug", "vol".
_FLIGHT_LEAD = re.compile(
    r"(?:(?:flight|flt|flug|vol|vuelo|vlucht)\.?\s+(?:no\.?\s*|number\s+|nr\.?\s*)?)?",
    re.IGNORECASE,
)
#: The types a model gives a flight number by mistake ("BAW 283" read as an address).
_FLIGHT_MISTYPES = frozenset(
    {EntityType.ADDRESS, EntityType.PHONE, EntityType.LOCATION, EntityType.ID, EntityType.ACCOUNT,
     EntityType.DATE}
)


def _airline_then_flight(text: str, span: Span, value: str, lexicon: Lexicon | None) -> int | None:
    """Where an airline's name ends when ``span`` is an airline the gazetteer knows and a
    flight's code after it ("Icelandair FI 670"); else None."""
    if span.type not in _FLIGHT_MISTYPES or lexicon is None:
        return None
    for f in FLIGHT.finditer(value):
        head = value[: f.start()].rstrip()
        if (
            f.end() == len(value)
            and head
            and f.start() > len(head)
            and lexicon.public_kind(head) in ("brand", "company", "org")
            # an airline's, not a car's: "Mercedes-Benz GLC 300" is a model
            and flight_context(text, span.start + f.start())
        ):
            return span.start + len(head)
    return None


def _next_word(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in " \t":
        pos += 1
    return pos


def _flight_number(text: str, span: Span) -> int | None:
    """Where the flight number starts when ``span`` is one, with at most the word for a
    flight before it, among words that speak of a flight; else None."""
    if span.type not in _FLIGHT_MISTYPES:
        return None
    value = text[span.start : span.end]
    lead = _FLIGHT_LEAD.match(value)
    at = lead.end() if lead is not None else 0
    f = FLIGHT.fullmatch(value, at)
    if f is None or not flight_context(text, span.start + at):
        return None
    return span.start + at


#: What a letter or an invoice writes before the person it is for: "attn. Marcus",
#: "Attn: Marcus", "FAO Marcus", "c/o Marcus".
_ADDRESSEE_LABEL = re.compile(r"(?:attn\b\.?:?|attention:|fao\b\.?|c/o)[ \t]+", re.IGNORECASE)
#: The label alone, read as a name.
_ADDRESSEE_WORD = re.compile(r"attn|fao", re.IGNORECASE)


def _addressed(text: str, spans: list[Span]) -> list[Span]:
    """A span that begins with an addressee's label: the label stays as written and the
    rest is the person's name ("attn. Marcus" read as a company, "Halden" after it as a
    person: one person once joined)."""
    out: list[Span] = []
    for span in spans:
        m = _ADDRESSEE_LABEL.match(text, span.start, span.end)
        if m is not None and span.type in _NAME_TYPES:
            if m.end() < span.end:
                out.append(Span(m.end(), span.end, EntityType.PERSON, span.score, span.views))
            continue
        if span.type in _NAME_TYPES and _ADDRESSEE_WORD.fullmatch(text, span.start, span.end):
            continue
        out.append(span)
    return out


def _whole_flights(text: str, spans: list[Span]) -> list[Span]:
    """A flight's code the model read in pieces ("flight BA 2490": "BA" an identifier,
    "2490" an address) is one code, typed as one."""
    out = spans
    for m in FLIGHT.finditer(text):
        if m.group()[:1].islower() or not flight_context(text, m.start()):
            continue
        inside = [s for s in out if s.start < m.end() and m.start() < s.end]
        if (
            len(inside) < 2
            or any(s.start < m.start() or s.end > m.end() for s in inside)
            or any(s.type not in _FLIGHT_MISTYPES for s in inside)
        ):
            continue
        views: dict[str, float] = {}
        for s in inside:
            for k, v in s.views.items():
                views[k] = max(v, views.get(k, 0.0))
        code = Span(m.start(), m.end(), EntityType.ID, max(s.score for s in inside), views)
        out = sorted([s for s in out if s not in inside] + [code], key=lambda x: x.start)
    return out


#: A place's name after a flight's code: "SK 1467 Oslo".
_PLACE_AFTER_CODE = re.compile(r"[ \t]+([A-Z][a-z]+(?:[ \t\-][A-Z][a-z]+){0,2})")


def _flight_then_place(text: str, span: Span) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """The flight's code and the place after it when ``span`` is the two read as one
    (a person's span too, cut at the code: "Mary Whitfield, BA0287 London Heathrow")."""
    if span.type not in _FLIGHT_MISTYPES | _PROPER_TYPES:
        return None
    value = text[span.start : span.end]
    lead = _FLIGHT_LEAD.match(value)
    at = lead.end() if lead is not None else 0
    f = FLIGHT.match(value, at)
    if f is None or not flight_context(text, span.start + at):
        return None
    p = _PLACE_AFTER_CODE.fullmatch(value, f.end())
    if p is None:
        return None
    return (span.start + at, span.start + f.end()), (span.start + p.start(1), span.start + p.end(1))


_ADDRESS_SIGN = re.compile(r"[@.:/\d]")
#: What every web or e-mail address holds.
_WEB_SIGN = re.compile(r"[@.:/]")
_PERSON_SHAPE = re.compile(r"[A-Z][a-z]+(?:[\-'’][A-Z]?[a-z]+)?(?: [A-Z][a-z]+(?:[\-'’][A-Z]?[a-z]+)?){1,3}")
#: Types whose values are written without spaces: a span of them holds one per word.
_ADDRESS_TYPES = frozenset({EntityType.URL, EntityType.EMAIL, EntityType.IP})


def _split_words(text: str, span: Span) -> list[tuple[int, int]]:
    """Addresses are single words: "nas.local or printer.lan" is two hosts and a word;
    the pieces without a dot, colon or "@" are dropped later, and so are public names."""
    value = text[span.start : span.end]
    if not re.search(r"\s", value):
        return [(span.start, span.end)]
    return [
        (span.start + m.start(), span.start + m.end())
        for m in _WORD_OR_NUMBER.finditer(value)
        # "or", a label's word: no address; nor is a key before its value ("E: jo@x.com").
        if re.search(r"[\d.@:/]", m.group()) and not _KEY_PIECE.fullmatch(m.group())
    ]


_KEY_PIECE = re.compile(r"[A-Za-z][A-Za-z\-]{0,15}:")
#: A word, or a number written in groups ("jo@x.com / 07324 613651": a phone's groups
#: stay one number).
_WORD_OR_NUMBER = re.compile(r"\+?\(?\d[\d()\-]*(?:[ ][\d()\-]*\d[\d()\-]*)+(?!\S)|\S+")


def _split_lines(text: str, start: int, end: int) -> list[tuple[int, int]]:
    pieces, pos = [], start
    for m in re.finditer(r"\n", text[start:end]):
        pieces.append((pos, start + m.start()))
        pos = start + m.end()
    pieces.append((pos, end))
    return [(a, b) for a, b in pieces if a < b]


#: What follows a field's label at the start of a line: "Address:", "Client -".
_LABEL_AFTER = re.compile(r"[ \t]*(?::|[-–][ \t])")


def _split_name_lines(
    text: str, pieces: list[tuple[int, int]], lexicon: Lexicon | None
) -> list[tuple[int, int]]:
    """A name that runs over a line break into the next line's label or first word
    ("Annelise Brockhurst\nAddress: ...", "Desmond Ogilvy\nClient: ...",
    "Service Agreement\nThis agreement ...") is cut there, the label or word dropped.

    A tokenizer that drops line breaks reads such a line as one name. Each line
    piece stays a span of its own, except a later one that is a label (a colon
    follows it) or one common word that starts a sentence (a lower-case word
    follows it): a name wrapped onto the next line ("Petra\nVandersloot") stays
    protected, in two pieces.
    """
    out: list[tuple[int, int]] = []
    for a, b in pieces:
        if "\n" not in text[a:b]:
            out.append((a, b))
            continue
        for k, (la, lb) in enumerate(_split_lines(text, a, b)):
            if k > 0:
                piece = text[la:lb].strip()
                if _LABEL_AFTER.match(text, lb):
                    continue
                rest = text[lb : text.find("\n", lb) if "\n" in text[lb:] else len(text)]
                if (
                    lexicon is not None
                    and " " not in piece
                    and lexicon.zipf(piece) >= COMMON_ZIPF
                    and re.match(r"\s+[a-z]", rest)
                ):
                    continue
            out.append((la, lb))
    return out


#: A phone number dialled with its country code after a space: "Graham Burns +44 7181 174759".
_DIALLED = re.compile(r"(?<=\s)\+\d{1,3}(?:[ \-]?\(?\d{1,5}\)?){2,5}(?![\w\-])")


def _split_addresses(
    text: str, pieces: list[tuple[int, int]], typed: EntityType | None = None
) -> list[tuple[int, int, EntityType | None]]:
    """A machine's address inside another value is a value of its own ("09:12:44Z
    upstream 192.168.188.74:8080" read as one date): the address is cut out and
    typed ``IP``, the rest keeps its type (``None``: the span's own). So is a phone
    number with its country code after a name ("Graham Burns +44 7181 174759")."""
    out: list[tuple[int, int, EntityType | None]] = []
    for a, b in pieces:
        pos = a
        inner = [(m, EntityType.IP) for m in IP.finditer(text, a, b)]
        inner += [(m, EntityType.PHONE) for m in _DIALLED.finditer(text, a, b)]
        for m, t in sorted(inner, key=lambda x: x[0].start()):
            if (m.start(), m.end()) == (a, b) or NO_MACHINE.fullmatch(m.group(0)) or m.start() < pos:
                continue
            if t is EntityType.PHONE and sum(c.isdigit() for c in m.group(0)) < 8:
                continue  # "+0100": a time zone
            if pos < m.start():
                before = text[pos : m.start()]
                # What a model read as one number with the phone after it is a name
                # ("Burns +44 7181 174759"): without a digit it is no number.
                name = (
                    t is EntityType.PHONE
                    and typed in _VALUE_TYPES
                    and not DIGITS.search(before)
                    and re.search(r"\b[A-Z][a-z]", before) is not None
                )
                out.append((pos, m.start(), EntityType.PERSON if name else None))
            out.append((m.start(), m.end(), t))
            pos = m.end()
        if pos < b:
            out.append((pos, b, None))
    return out


#: A label of letters and a number sign, written before a number ("RD#", "PO#", "Ref.#").
_LABEL_MARK = re.compile(r"[A-Za-z]{1,5}\.?[ \t]?#")


#: The words that say a name follows: "my customer name is", "Name:".
_NAME_KEY_BEFORE = re.compile(r"\bname(?:[ \t]+is|[ \t]*:)[ \t]*$", re.IGNORECASE)
#: Two or three capitalized words, a comma and a number: a name before a house number.
_NAME_THEN_NUMBER = re.compile(r"([A-Z][\w'’\-]+(?:[ \t][A-Z][\w'’\-]+){1,2}),[ \t]+(?=\d)")


def _name_before_address(
    text: str, a: int, b: int, t: EntityType | None, lexicon: Lexicon
) -> list[tuple[int, int, EntityType | None]]:
    """A person's name the model ran into the address after it ("my customer name is
    Percival Oyelowo, 5 Tannery Lane, Kendal LA9 4QQ" read as one address) is a person's:
    a given name first, a surname last, no common word ("Rose Cottage, 5 Mill Lane" stays
    an address) and no public name, then a comma and the house number; the name is known
    as one by the lexicon (a given name first or a surname last) or by its key before it
    ("name is", "Name:")."""
    m = _NAME_THEN_NUMBER.match(text, a, b) if t is None else None
    if m is None:
        return [(a, b, t)]
    words = m.group(1).split()
    if not (
        (
            lexicon.is_given(words[0])
            or lexicon.is_surname(words[-1])
            or _NAME_KEY_BEFORE.search(text, max(0, a - 24), a)
        )
        and not any(lexicon.is_plain(w.lower()) or lexicon.public_kind(w) for w in words)
    ):
        return [(a, b, t)]
    return [(a, m.end(1), EntityType.PERSON), (m.end(), b, None)]


#: A party's role, a title and a name: "Claimant Ms Rukhsana Begum".
#: A person's title before the name, as written with capitals.
_PERSON_TITLE = r"(?:Mr|Mrs|Ms|Miss|Mx|Dr|Prof)"
_ROLE_TITLE = re.compile(rf"(?:([A-Z][a-z]+)[ \t]+)?{_PERSON_TITLE}\.?[ \t]+[A-Z]")
#: A comma, an acronym and words in lower case after a name: ", ET case", ", HR team".
_ACRONYM_TAIL = re.compile(
    r",[ \t]+(?!(?:LLC|LLP|PLC|LTD|INC|GMBH|AG|SA|BV|NV|SAS|SARL|SRL|SPA|AB|AS|OY|KG|UG|PC|PA)\b)"
    r"[A-Z]{2,5}(?:[ \t]+[a-z]+)*$"
)


def _party(
    text: str, a: int, b: int, t: EntityType | None, lexicon: Lexicon, split: bool = False
) -> tuple[int, int, EntityType | None]:
    """One piece of a name the model ran over several (the parties of "Claimant Ms Rukhsana
    Begum v Tillbrook Foods Ltd, ET case"): a title makes it a person's, without the role
    word before it ("Claimant"); an acronym and words in lower case after a comma are
    no part of a company's name (", ET case")."""
    m = _ROLE_TITLE.match(text, a, b)
    if m is not None and (m.group(1) is None or lexicon.is_plain(m.group(1).lower())):
        return (a if m.group(1) is None else _skip_space(text, m.end(1)), b, EntityType.PERSON)
    if split and t is None and _full_name(text[a:b], lexicon):
        # "Marcus Bell v Ashdown Care Homes Ltd", "Nadia Frost\nOperations Manager": a given
        # name and a surname cut from a company's span are a person's.
        return (a, b, EntityType.PERSON)
    tail = _ACRONYM_TAIL.search(text, a, b)
    if tail is not None and tail.start() > a:
        return (a, tail.start(), t)
    return (a, b, t)


def _skip_space(text: str, i: int) -> int:
    while i < len(text) and text[i] in " \t":
        i += 1
    return i


_ARTICLE_BEFORE = re.compile(r"\b(?:the|a|an)[ \t]+$")


def _plain_line_head(text: str, span: Span, value: str, lexicon: Lexicon) -> bool:
    """Two or more dictionary words (no one's name) at a line's start, capitalized only
    there: "Brand identity package", "Website copy"."""
    words = value.split()
    line_start = span.start == 0 or text[span.start - 1] == "\n"
    return (
        line_start
        and len(words) >= 2
        and words[0][:1].isupper()
        and all(w.islower() for w in words[1:])
        and all(w.isalpha() and lexicon.is_plain(w.lower()) for w in words)
        and lexicon.public_kind(value) is None
    )
#: Two numbers joined by a slash or a colon, as a date or a time would be.
_PAIR = re.compile(r"(\d{1,2})([/:])(\d{1,2})")


def _no_date(value: str) -> bool:
    """Two numbers no day and month can be, either way round ("26/30": a score), or a
    ratio no clock shows ("1:1", "2:1": a meeting, a degree's class)."""
    m = _PAIR.fullmatch(value)
    if m is None:
        return False
    a, sep, b = m.group(1), m.group(2), m.group(3)
    if sep == ":":
        return len(b) == 1
    x, y = int(a), int(b)
    return not ((1 <= x <= 31 and 1 <= y <= 12) or (1 <= x <= 12 and 1 <= y <= 31))


#: A British registration ("WR19 KXT"): the model may cut it in two.
_UK_PLATE_AROUND = re.compile(r"(?<![A-Za-z0-9])[A-Z]{2}\d{2}[ \t]?[A-Z]{3}(?![A-Za-z0-9])")
_ORDINAL_HEAD = re.compile(r"(\d{1,3})(?:st|nd|rd|th)\b", re.IGNORECASE)
_VERB_BEFORE = re.compile(r"[ \t]+(?:is|was|are|were)[ \t]*$")
_LAST_WORD = re.compile(r"(?<![\w'’-])([a-z]{3,})[ \t]+$")
#: A label or a key right before a code: "ref", "no.", "#", "ID:", "number is".
_CODE_KEY_BEFORE = re.compile(r"(?:#|:|=|\b(?:id|no|nr|ref|code|number|num)\.?(?:[ \t]+is)?)[ \t]*$", re.IGNORECASE)


def _short_unlabelled_code(
    text: str, span: Span, value: str, spans: Sequence[Span], lexicon: Lexicon | None
) -> bool:
    """A short code only the model read as an identifier, with no label before it: fewer
    than four digits and at most five letters and digits ("an N12 notice", "my T5
    application", "file a T1-OVP", "my m2 mac", "ipv6", "node 17+", "booked tmrw 8-1").
    A form's, a ticket's or an account's number has a label, or more digits; a booking's
    code has six ("QX7P2L"); a piece beside another value is part of it ("Flat 12" before
    its street, "WR19" | "KXT" of a registration)."""
    evidence = _evidence(span)
    if span.type is not EntityType.ID or "ner" not in evidence or not value[:1].isalnum():
        return False  # ("@billo": a handle)
    if value.isdigit():
        return False  # a bare number is the other rules' ("Room 12", "My daughter, 7,")
    if any(v > 0.4 for k, v in evidence.items() if k != "ner"):
        return False
    alnum = [c for c in value if c.isalnum()]
    digits = sum(c.isdigit() for c in alnum)
    # (no digit: a name the model typed as a code, "Li Na", which the types below mend)
    if not 1 <= digits < 4 or len(alnum) > 5 or len(value) > 8:
        return False
    if UK_POSTCODE.fullmatch(value.upper()) or CA_POSTCODE.fullmatch(value.upper()):
        return False  # a postcode ("L5B 1H7", "m19 2pq")
    if _UK_PLATE_AROUND.search(text, max(0, span.start - 5), min(len(text), span.end + 5)):
        return False
    for x in spans:
        if x is not span and (
            (0 <= span.start - x.end <= 2 and not text[x.end : span.start].strip(" ,"))
            or (0 <= x.start - span.end <= 2 and not text[span.end : x.start].strip(" ,"))
        ):
            return False
    before = _VERB_BEFORE.sub("", text[max(0, span.start - 40) : span.start])
    if _CODE_KEY_BEFORE.search(before) or _RECORD_LABEL.search(before) or _RECORD_LABEL_OTHER.search(before):
        return False  # "My membership is K475"
    # The thing a code is on, a noun in lower case ("forklift FL-07"), says it names one.
    noun = _LAST_WORD.search(before)
    return not (
        noun is not None
        and lexicon is not None
        and any(c.isupper() for c in value)
        and _common_noun(noun.group(1), lexicon)
        and lexicon.zipf(noun.group(1)) < 5.0
    )


def _terms_and_words(value: str, lexicon: Lexicon, *, chat: bool = False) -> bool:
    """Terms of the lexicon ("IAM", "HbA1c", "MRI") and lower-case dictionary words, at
    least one term: "IAM policy", "MRI scan". With ``chat``, also a chat message's
    shorthand around an illness ("off 3 days w norovirus mon to wed"), and the term is no
    title ("dr mon" may be someone)."""
    words = re.findall(r"[^\W_]+", value)
    terms = [w for w in words if lexicon.is_term(w.casefold())]
    if chat:
        terms = [w for w in terms if w.casefold() not in _TITLE_TERMS]
    return bool(terms) and all(
        w in terms or (w.islower() and (lexicon.is_plain(w) or (chat and w in _CHAT_SHORTHAND)))
        for w in words
    )


#: Titles among the lexicon's terms.
_TITLE_TERMS = frozenset("mr mrs ms miss mx dr prof sir madam sr jr cllr sgt cpl insp supt revd capt".split())
#: A chat message's shorthand: "w" (with), the days of the week.
_CHAT_SHORTHAND = frozenset("w mon tue tues wed weds thu thur thurs fri".split())


def _small_number(value: str) -> bool:
    """One to three digits, with an optional decimal part ("7", "52", "7.5")."""
    return bool(re.fullmatch(r"\d{1,3}(?:[.,]\d{1,2})?", value))


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
    if not words or (span.type is EntityType.PERSON and len(words) > 1) or DIGITS.search(value):
        return False
    if JOB_TITLE.search(value):
        return False  # a job title is made of common words and is a quasi-identifier
    if lexicon.public_kind(value) is not None:
        return False
    return all(
        w.islower() and lexicon.zipf(w) >= COMMON_ZIPF and not lexicon.is_term(w) for w in words
    )


def _known_in_lower_case(value: str, t: EntityType, lexicon: Lexicon | None) -> bool:
    """A public name written in lower case ("petplan", "boots"): the type policy judges it.

    The lists of organisations and places drawn from WikiANN hold common words folded to
    lower case ("bill"); they do not make a frequent word the model took for a person a
    name ("lenovo" stays)."""
    if lexicon is None:
        return False
    kind = lexicon.public_kind(value)
    if kind in ("org", "place") and t is EntityType.PERSON:
        return lexicon.zipf(value) < COMMON_ZIPF
    return kind is not None


def _unspaced_only(value: str) -> bool:
    """One character of a script without spaces: too little for the model to be sure of."""
    from core.detect.tokens import _unspaced

    letters = [c for c in value if c.isalnum()]
    return len(letters) == 1 and _unspaced(letters[0])


def ner_only_unsure(span: Span) -> bool:
    """Only the NER proposed ``span``, below :data:`UNSURE` (the rules view's weakest
    guesses, under :data:`WEAK_RULE`, are no evidence: "node" of "node v20.11.1")."""
    evidence = _evidence(span)
    return set(evidence) == {"ner"} and evidence["ner"] < UNSURE


_KEEP_WHOLE = frozenset({"deny-list", "box", MARKER})


#: Abbreviations of a limit or an estimate, written in lower case before a number.
_LIMIT_WORD = re.compile(r"(?:max|min|approx|avg|ca|est)\b(?![ \t]*[A-Za-z])")

#: A key that holds an age, in the five languages, as :func:`_key_name` writes it: a
#: table's column (:func:`_age_cells`) or a form's line, its key at the line's (or a cell's)
#: start, then the number (:data:`_AGE_KEY`).
_AGE_KEYS = frozenset({"age", "aged", "age years", "age (years)", "leeftijd", "alter", "âge", "age ans", "edad"})
_AGE_KEY = re.compile(
    r"(?:^|[|;\t])[ \t]*(?:[-*•][ \t]+)?(?:"
    + "|".join(re.escape(k).replace(r"\ ", r"[ _\-]") for k in sorted(_AGE_KEYS, key=lambda k: (-len(k), k)))
    + r")[ \t]*[:=|][ \t]*$",
    re.IGNORECASE | re.MULTILINE,
)
_AGE_VALUE = re.compile(r"\d{1,3}")

#: The ``Span.views`` key that marks a value named by its label (see :func:`_field_types`).
FIELD = "field"


def _field_types(text: str, spans: list[Span]) -> list[Span]:
    """The type a value's label and validators give it (:mod:`core.detect.fields`).

    A value after a label ("SSN: 123-45-6789", "Policy number POL-99812")
    takes the label's type when it passes the type's validator, else ``ID``;
    any other number takes the type its shape and validator allow (a card's
    sixteen digits are no phone number). Names are left as they are.
    """
    found = fields(text)
    out = []
    for span in spans:
        if (
            span.end - span.start > 2
            and text[span.start] == "<"
            and text[span.end - 1] == ">"
            and not span.views.keys() & _KEEP_WHOLE
            and _WEB_SIGN.search(text, span.start, span.end) is not None
        ):
            # "Claudia Johnson <cj28@parker.com>": the header's brackets are no part of the
            # address (with them it failed its validator and was an ID).
            span = Span(span.start + 1, span.end - 1, span.type, span.score, span.views)
        f = field_at(found, span.start, span.end) if found else None
        if (
            span.type is not EntityType.AGE
            and _AGE_VALUE.fullmatch(text, span.start, span.end)
            and int(text[span.start : span.end]) <= 125
            and _AGE_KEY.search(text, max(0, span.start - 24), span.start)
        ):
            # "DOB: 03/04/1928\nAge: 93": a model had typed the age a date (after the date
            # above it), and a date of an event leaves at the default level.
            span = Span(span.start, span.end, EntityType.AGE, span.score, span.views)
        elif f is not None:
            # The value a label names (its shape matched): the label decides, whatever
            # type a view guessed ("IBAN: GB00 WEST ..." is no street address).
            value = text[f.start : f.end] if span.start == f.start else text[span.start : span.end]
            span = Span(span.start, span.end, f.type_of(value), span.score, {**span.views, FIELD: 1.0})
        elif (t := _code_or_record_type(text, span)) is not None:
            # A code a model took for a name ("QQ 12 34 56 C" read as an organisation), or a
            # record's number it took for a phone or an address ("Rental agreement
            # 837104229", "member 71948302"): the shape and the label decide.
            span = Span(span.start, span.end, t, span.score, span.views)
        elif span.type in _VALUE_TYPES and DIGITS.search(text, span.start, span.end):
            # Names, and words without a digit (dropped below when their type needs one),
            # keep their type.
            t = checked_type(text[span.start : span.end], span.type)
            if t is not span.type:
                span = Span(span.start, span.end, t, span.score, span.views)
        out.append(span)
    return out


#: A word of a name: three letters or more between non-letters ("Bank", "NHS" of "NHS 111";
#: not "QX7T4M", "QQ 12 34 56 C").
#: A code of capitals, then digits: "INV-3381", "DPS-5529013", "CS448210".
_PREFIXED_CODE = re.compile(r"[A-Z]{2,6}-?\d{3,}[A-Z0-9-]*")
#: Numbers with capitals between them: "24-PI-0331" (group 1 is the letters).
_LETTERS_INSIDE = re.compile(r"\d{1,4}[-/ ]([A-Z]{2,4})[-/ ]\d{1,6}")
_MONTH_ABBREVIATION = r"jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec"
#: A day and a month written with a slash ("04/11", "31/12"; "13/13" is none).
_DAY_MONTH = re.compile(r"(?:0?[1-9]|[12]\d|3[01])/(?:0?[1-9]|1[0-2])")
#: A reference of letters and numbers between slashes: "RH/22/08813", "HR/2024/117".
_SLASHED_CODE = re.compile(r"[A-Z]{1,6}/\d{1,6}(?:/[A-Z0-9]{1,8})+")
_NATURAL_WORD = re.compile(r"(?<![^\W\d_])[^\W\d_]{3,}(?![^\W\d_])")
#: The words before a record's number that say which record it is ("Rental agreement",
#: "Gold Plus Rewards member", "Miles & More number", "policy no."), never a phone's or a
#: house's.
_RECORD_LABEL = re.compile(
    r"\b(?:(?P<account>account|acct|a/c)(?:\s+(?:number|no\.?|nr|#))?|"
    r"agreement|contract|member(?:ship)?|reference|ref\.?|booking|reservation|confirmation|"
    r"order|invoice|policy|claim|"
    r"case|ticket|customer|loyalty|rewards?|application|registration|tracking|transaction|"
    r"serial|voucher|permit|certificate|licen[cs]e|parcel|shipment|consignment|payroll|"
    r"passcode|pin|otp|(?:verification|security|access)\s+code|meeting\s+id|"
    r"(?!(?:phone|tel|telephone|mobile|cell|fax|contact|home|work|office|emergency|whatsapp|"
    r"house|flat|street|building|door|apartment|room|unit|suite|pager|landline)\b)[a-z]+"
    r"\s+(?:number|no\.?|nr|#))\W{0,3}$",
    re.IGNORECASE,
)


#: A record's number named in German, French, Spanish or Dutch, the label before it.
_RECORD_LABEL_OTHER = re.compile(
    r"\b(?:num[ée]ro|n[°º]|nummer|(?:kunden|vertrags|mitglieds|versicherten|klant|lid|"
    r"dossier)nummer)"
    r"(?:\s+(?:d['’]|de\s+|del\s+|van\s+)?(?!(?:t[ée]l[ée]phone|portable|tel[ée]fono|m[óo]vil|"
    r"telefon|handy|telefoon|mobiel|gsm)\b)[^\W\d_]+)?(?:\s+(?:est|es|ist|is|lautet))?\W{0,3}$",
    re.IGNORECASE,
)


def _code_or_record_type(text: str, span: Span) -> EntityType | None:
    """The type a code's shape or a record's label gives ``span``, or None to leave it."""
    value = text[span.start : span.end]
    digits = sum(c.isdigit() for c in value)
    if span.type in _NAME_TYPES and host_shaped(value):
        # "server: ilsehartmann-photo.example" read as a person: a machine's name.
        return EntityType.URL
    if span.type in _NAME_TYPES and digits and (digits >= 2 or len(value) >= 5):
        # Words of a name have no digits: a code with letters is an identifier
        # ("QX7T4M", "QQ 12 34 56 C"); "G4S", "3M" stay names. A code with a word of
        # capitals before its digits is one after its record's word ("invoice INV-3381").
        if _PREFIXED_CODE.fullmatch(value) and (record := _record_type(text, span.start)):
            return record
        if _NATURAL_WORD.search(value) is None:
            return checked_type(value, EntityType.ID)
        return None
    if span.type is EntityType.DATE and _PREFIXED_CODE.fullmatch(value) and re.match(r"[A-Z]{2,6}-", value):
        # "Invoice INV-2026-0419" read as a date: no calendar writes a word of capitals
        # before its numbers; a record's number.
        return _record_type(text, span.start) or EntityType.ID
    if span.type in (EntityType.ID, EntityType.PHONE) and _DAY_MONTH.fullmatch(value):
        # "04/11 DIRECT DEBIT ...": a statement's day and month, whatever a model made of it.
        return EntityType.DATE
    if span.type is EntityType.DATE and (m := _LETTERS_INSIDE.fullmatch(value)) and not re.fullmatch(
        _MONTH_ABBREVIATION, m.group(1), re.IGNORECASE
    ):
        # "ref: 24-PI-0331" read as a date: letters between the numbers that name no month
        # ("12-Mar-2024" is a date); a record's number.
        return _record_type(text, span.start) or EntityType.ID
    if span.type is EntityType.DATE and _SLASHED_CODE.fullmatch(value):
        # "tenancy ref RH/22/08813" read as a date (sent as an event's date): capitals
        # before the numbers and a part of five digits, which no calendar writes.
        return _record_type(text, span.start) or EntityType.ID
    if (
        span.type in _ADDRESS_TYPES
        and digits
        and any(c.isalpha() for c in value)
        and _WEB_SIGN.search(value) is None
    ):
        # "Subject: Invoice INV-2026-0419 overdue" read as a web address: no address
        # without "@", ".", ":" or "/"; a code, after its record's word as above.
        if _PREFIXED_CODE.fullmatch(value) and (record := _record_type(text, span.start)):
            return record
        return checked_type(value, EntityType.ID)
    if span.type in (EntityType.PHONE, EntityType.ADDRESS) and not any(c.isalpha() for c in value):
        return _record_type(text, span.start)
    return None


def _record_type(text: str, start: int) -> EntityType | None:
    """``ACCOUNT`` or ``ID`` when a record's word stands before ``start`` ("account no.",
    "invoice"), else None."""
    before = text_before(text, start, 40)
    m = _RECORD_LABEL.search(before)
    if m is None:
        # "numéro d'allocataire est 4521876", "Kundennummer: 44812": a record's number in
        # the languages with rules; a phone's word there names a phone.
        return EntityType.ID if _RECORD_LABEL_OTHER.search(before) else None
    return EntityType.ACCOUNT if m.group("account") else EntityType.ID


#: A field's key right before a name-like value: "City: Leeds", '"city": "Leeds"',
#: "town=Leeds", "| Postcode | LS1 4AP", "City - Leeds". Group ``key`` is the field's name.
_NAME_FIELD = re.compile(
    # (fields on one line apart by " / ": "Nom : Martin / Prénom : Léa")
    r"(?:^|[\n{,|\t]|[.!?][ \t]|[ \t]/(?=[ \t]))[ \t]*[-*•]?[ \t]*[\"']?(?P<key>[^\W\d_](?:[^\W\d]|[ \-/]){1,24}?)[\"']?"
    r"(?:[ \t]*[:=|\t]|[ \t]+[-–])[ \t]*[\"']?[ \t]*$"
)
#: A surname and its comma before a given name on a form's line ("Naam: Bolhuis-Wiersma, ").
_SURNAME_COMMA = re.compile(r"[^\W\d_][\w'’\-]*(?:[ \t][^\W\d_][\w'’\-]*){0,2},[ \t]*$")


def _given_after_surname_key(text: str, line_start: int, start: int) -> str | None:
    """The key of a person's field whose value is "Surname, Given" when ``start`` is the given
    name's ("Naam: Bolhuis-Wiersma, Hendrikje": the given name is the field's too, whatever
    a model typed it)."""
    c = _SURNAME_COMMA.search(text, line_start, start)
    if c is None:
        return None
    m = _NAME_FIELD.search(text, max(line_start - 1, 0, c.start() - 40), c.start())
    if m is None or _key_type(m.group("key"), text) is not EntityType.PERSON:
        return None
    return m.group("key")


#: What such a key says the value is (keys compared in lower case, "_" and "-" as spaces).
NAME_FIELD_TYPES: dict[str, EntityType] = {
    **dict.fromkeys(
        ("city", "town", "village", "place of birth", "birthplace", "county", "state",
         "province", "region", "hometown"),
        EntityType.LOCATION,
    ),
    **dict.fromkeys(
        ("street", "address", "street address", "home address", "address line 1",
         "address line 2", "address1", "address2", "postcode", "post code", "postal code",
         "zip", "zip code", "zipcode", "house", "house name", "house number",
         "house name or number", "house no", "flat", "flat number"),
        EntityType.ADDRESS,
    ),
    **dict.fromkeys(
        ("name", "person", "full name", "fullname", "first name", "firstname", "last name",
         "lastname", "surname", "first", "last", "forename", "forenames", "middle name", "given name", "patient", "patient name", "customer",
         "customer name", "contact", "contact name", "next of kin", "emergency contact",
         "employee", "employee name", "guardian", "parent", "spouse", "account holder",
         "holder", "cardholder", "card holder", "name on card", "account name",
         "beneficiary", "payee", "pupil", "pupil name", "student", "student name", "child",
         "child name", "child's name", "learner", "tenant", "tenant name", "resident",
         "resident name", "applicant", "applicant name", "guarantor", "candidate",
         "candidate name", "participant", "attendee", "player", "staff name"),
        EntityType.PERSON,
    ),
    **dict.fromkeys(
        ("company", "employer", "organisation", "organization", "school", "university",
         "college", "practice", "firm", "bank", "insurer", "insurance", "insurance carrier",
         "insurance company", "carrier", "health insurer", "gp practice", "surgery",
         "hospital", "clinic", "ward", "department"),
        EntityType.ORG,
    ),
}  # fmt: skip
#: The view a value typed by its record's key carries; with a place it tells the type
#: policy the place is where a person of the record lives or was born (core.policy).
RECORD = "record"
#: The types a field's key may overrule: a model's guess of a name's kind.
_RETYPABLE = _NAME_TYPES | {EntityType.ADDRESS, EntityType.ID}


_CSV_HEADER_CELL = re.compile(r"[^\W\d_][\w \-/.#°º]{0,30}")
#: The separators a pasted table's cells may have: comma, semicolon (Europe's CSV), tab.
_CSV_SEPARATORS = (",", ";", "\t")
#: A comma inside a number ("$3,400", "1,250.75"): no cell separator.
_NUMBER_COMMA = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")


@dataclass(frozen=True)
class CsvTables:
    """The delimited tables of a text with a header row: the header rows' stretches and
    every data cell as ``(start, end, key)``, sorted."""

    headers: tuple[tuple[int, int], ...] = ()
    cells: tuple[tuple[int, int, str], ...] = ()


def _cells(row: str, sep: str, n: int) -> list[tuple[int, int]] | None:
    """``row``'s ``n`` cells as offsets, or None when it has another number of cells. A
    comma inside a number ("$3,400") or inside quotes separates nothing."""
    cuts = [m.start() for m in re.finditer(re.escape(sep), row)]
    if len(cuts) != n - 1:
        quoted = [(m.start(), m.end()) for m in re.finditer(r'"[^"\n]*"', row)]
        cuts = [c for c in cuts if not any(a < c < b for a, b in quoted)]
        if sep == "," and len(cuts) != n - 1:
            inner = {m.start() for m in _NUMBER_COMMA.finditer(row)}
            cuts = [c for c in cuts if c not in inner]
        if len(cuts) != n - 1:
            return None
    bounds = [-1, *cuts, len(row)]
    return [(bounds[i] + 1, bounds[i + 1]) for i in range(n)]


@functools.lru_cache(maxsize=16)
def csv_tables(text: str) -> CsvTables:
    """The tables of comma-, semicolon- or tab-separated rows under a header row
    ("id,first_name,dob,city"; "Name;IBAN;Amount"): each row's cells get their
    column's name; a row of another shape ends the table."""
    if not any(sep in text for sep in (*_CSV_SEPARATORS, "|")):
        return CsvTables()
    headers: list[tuple[int, int]] = []
    out: list[tuple[int, int, str]] = []
    lines, pos = [], 0
    for line in text.split("\n"):
        lines.append((pos, line))
        pos += len(line) + 1
    if "|" in text:
        _pipe_tables(lines, headers, out)
        if not any(sep in text for sep in _CSV_SEPARATORS):
            return CsvTables(tuple(headers), tuple(sorted(out)))
    k = 0
    while k < len(lines):
        head_start, head = lines[k]
        for sep in _CSV_SEPARATORS:
            cells = head.split(sep)
            if len(cells) >= 2 and all(_CSV_HEADER_CELL.fullmatch(c.strip()) for c in cells):
                break
        else:
            k += 1
            continue
        keys = [c.strip() for c in cells]
        j = k + 1
        # A row of empty cells ("\t\t" in a tab table) is a row, not the blank line after.
        while j < len(lines) and (lines[j][1].strip() or sep in lines[j][1]):
            row_start, row = lines[j]
            found = _cells(row, sep, len(keys))
            if found is None:
                break
            out += [(row_start + a, row_start + b, key) for key, (a, b) in zip(keys, found, strict=True)]
            j += 1
        if j > k + 2 or (j == k + 2 and len(keys) >= 3):
            headers.append((head_start, head_start + len(head)))
        else:
            # Two lines of two comma-separated phrases are a signature's name and role,
            # its firm ("Courtney Wang, Senior Solicitor\nJackson, Harrison and Taylor"),
            # not a table whose header row is a label: two columns need two rows.
            del out[len(out) - (j - k - 1) * len(keys) :]
        k = max(j, k + 1)
    return CsvTables(tuple(headers), tuple(sorted(set(out))))


_PIPE_HEADER_CELL = re.compile(r"(?=[^|]*[^\W\d_])[^\W_][\w \-/.#°º()%]{0,30}")
#: A Markdown table's row ("| Mrs E. Hollings | 04/12 | Diabetes |") and the row of dashes
#: under its header ("|---|:---:|").
_PIPE_ROW = re.compile(r"[ \t]*\|(.*)\|[ \t]*")
_PIPE_RULE = re.compile(r"[ \t]*\|?(?:[ \t]*:?-{3,}:?[ \t]*\|)+(?:[ \t]*:?-{3,}:?[ \t]*)?[ \t]*")


def _pipe_tables(
    lines: Sequence[tuple[int, str]], headers: list[tuple[int, int]], out: list[tuple[int, int, str]]
) -> None:
    """The Markdown tables of ``lines``: a header row of labels, the row of dashes, then
    rows whose cells get their column's name (added to ``headers`` and ``out``)."""
    for k in range(len(lines) - 1):
        head_start, head = lines[k]
        m = _PIPE_ROW.fullmatch(head)
        if m is None or not _PIPE_RULE.fullmatch(lines[k + 1][1]):
            continue
        keys = [c.strip() for c in m.group(1).split("|")]
        # (the row of dashes under it says it is a header: a key may begin with a digit,
        # "1/6 grati", "2nd contact")
        if len(keys) < 2 or not all(_PIPE_HEADER_CELL.fullmatch(c) for c in keys):
            continue
        headers.append((head_start, head_start + len(head)))
        for row_start, row in lines[k + 2 :]:
            r = _PIPE_ROW.fullmatch(row)
            if r is None:
                break
            cells = r.group(1).split("|")
            if len(cells) != len(keys):
                break
            a = row_start + r.start(1)
            for key, cell in zip(keys, cells, strict=True):
                out.append((a, a + len(cell), key))
                a += len(cell) + 1


def _cut_at_cells(
    a: int, b: int, cells: Sequence[tuple[int, int, str]], starts: Sequence[int]
) -> list[tuple[int, int]]:
    """``[a, b)`` cut at the borders of the table cells it crosses: a value never runs
    from one cell into the next ("NL05NWBC1316982991;185,00" is an IBAN and an amount)."""
    i = max(bisect.bisect_right(starts, a) - 1, 0)
    over = []
    while i < len(cells) and cells[i][0] < b:
        if cells[i][1] > a:
            over.append((max(a, cells[i][0]), min(b, cells[i][1])))
        i += 1
    if len(over) < 2:
        return [(a, b)]
    return [(x, y) for x, y in over if x < y]


def cut_at_table_cells(text: str, spans: list[Span], tables: CsvTables | None = None) -> list[Span]:
    """Each span cut at the cells of a pasted table, before the views' spans are merged
    and again after the rules joined names and addresses: a model reads a tab-separated row as one run ("Ní Ghallchobhair<TAB>9<TAB>LL28
    5UG<TAB>18/10/26" an identifier), and merged with the rules' date in its last cell it
    would make every cell a date; cut first, each cell keeps what the views found in it."""
    tables = csv_tables(text) if tables is None else tables
    if not tables.cells or not spans:
        return spans
    starts = [a for a, _, _ in tables.cells]
    out: list[Span] = []
    for s in spans:
        pieces = _cut_at_cells(s.start, s.end, tables.cells, starts)
        if len(pieces) == 1:
            out.append(s)
            continue
        out += [Span(a, b, s.type, s.score, s.views) for a, b in pieces if text[a:b].strip()]
    return out


def _house_number_cells(text: str, spans: list[Span], tables: CsvTables) -> list[Span]:
    """What the views found in a cell of a table's address column ("House" | "17", "Flat
    3", "Tŷ Capel") is that cell's address whole, whatever they typed its pieces: a house's
    number is no age and no day, a flat's word no identifier."""
    if not tables.cells or not spans:
        return spans
    out = list(spans)
    for a, b, key in tables.cells:
        if _key_type(key) is not EntityType.ADDRESS:
            continue
        inside = [x for x in out if a <= x.start and x.end <= b]
        lead = len(text[a:b]) - len(text[a:b].lstrip())
        start, end = a + lead, a + len(text[a:b].rstrip())
        if not inside:
            # Nothing found there: a cell with a number or a capital is still an address's
            # part ("Flat 3", "9"); an empty cell or words in lower case are not.
            cell = text[start:end]
            if cell and (any(c.isdigit() for c in cell) or (cell[:1].isupper() and len(cell) >= 4)) and not any(
                x.start < end and start < x.end for x in out
            ):
                out.append(Span(start, end, EntityType.ADDRESS, 0.8, {RECORD: 1.0}))
            continue
        if len(inside) == 1 and (inside[0].start, inside[0].end, inside[0].type) == (start, end, EntityType.ADDRESS):
            continue
        whole = _joined(inside, EntityType.ADDRESS)
        out = [x for x in out if x not in inside]
        out.append(Span(start, end, EntityType.ADDRESS, whole.score, {**whole.views, RECORD: 1.0}))
    return sorted(out, key=lambda x: x.start)


def _key_name(key: str) -> str:
    """A field's key as the tables list it: lower case, "_" and "-" as spaces."""
    return re.sub(r"[_\-\s]+", " ", key).strip().casefold()


def _key_type(key: str, text: str | None = None) -> EntityType | None:
    """The type a field's key gives its value; ``text`` (the message) says which
    language's reading of a key two languages share applies ("Firma:")."""
    key = _key_name(key)
    t = NAME_FIELD_TYPES.get(key)
    if t is None and (
        kind := field_keys(message_language(text) if text is not None else None).get(key)
    ) is not None:
        t = EntityType(kind)  # a form in another language: "Prénom", "Vorname", "Apellidos"
    if t is None and key.rsplit(" ", 1)[-1] in ("city", "town"):
        t = EntityType.LOCATION  # "home_city", "current town"
    return t


#: What a field's key says a number or a code is ("id": 7451083, "order": ORD-045687).
VALUE_FIELD_TYPES: dict[str, EntityType] = {
    **dict.fromkeys(
        ("id", "uid", "user id", "userid", "customer id", "client id", "employee id",
         "staff id", "staff no", "staff no.", "member id", "student id", "patient id",
         "record id", "person id"),
        EntityType.ID,
    ),
    **dict.fromkeys(
        ("order", "order id", "order no", "order number", "invoice", "invoice id",
         "invoice no", "invoice number", "account", "account id", "account no",
         "account number", "policy", "policy no", "policy number", "reference", "ref",
         "booking", "booking ref", "ticket"),
        EntityType.ACCOUNT,
    ),
    **dict.fromkeys(("mrn", "hospital no", "hospital number", "chart no"), EntityType.MRN),
    **dict.fromkeys(("iban",), EntityType.IBAN),
    **dict.fromkeys(("phone", "telephone", "tel", "mobile", "cell", "fax", "ext", "extension",
                     "landline", "direct line", "direct dial", "phone number", "mobile number",
                     "work phone", "home phone"), EntityType.PHONE),
    **dict.fromkeys(("date", "dob", "birth date", "birthdate", "date of birth", "joined",
                     "start date", "end date", "admitted", "discharged"), EntityType.DATE),
}  # fmt: skip
#: Keys whose value is an amount: its number identifies no one ("balance": 1250.75).
MONEY_KEYS = frozenset(
    ("amount", "balance", "total", "subtotal", "price", "cost", "fee", "fees", "salary",
     "wage", "pay", "paid", "due", "tax", "vat", "net", "gross", "credit", "debit",
     "sum", "value", "quantity", "qty", "count", "score", "points", "miles", "credits",
     "rating", "stars")
)  # fmt: skip
_AMOUNT = re.compile(r"[-+]?[$£€¥₹]?\d{1,3}(?:[,.\u00a0 ]?\d{3})*(?:[.,]\d{1,2})?")
#: Words of a key that make it a number's name, not an amount's ("tax id", "total ref").
_NAMING_KEY_WORDS = frozenset({"id", "no", "number", "nr", "ref", "reference", "code", "account", "iban"})


def money_key(name: str) -> bool:
    """Whether a key (as :func:`_key_name` gives it) names an amount: one of
    :data:`MONEY_KEYS`, or a key that begins or ends with one and names no number
    ("amount_gbp", "total due", "account balance")."""
    if name in MONEY_KEYS:
        return True
    words = name.split()
    return (
        len(words) > 1
        and (words[0] in MONEY_KEYS or words[-1] in MONEY_KEYS)
        and not any(w in _NAMING_KEY_WORDS for w in words)
    )
#: The types a field's key may overrule for a number or a code.
_VALUE_RETYPABLE = frozenset(
    {EntityType.ID, EntityType.PHONE, EntityType.ADDRESS, EntityType.ACCOUNT, EntityType.DATE}
)


#: A field's key at the head of a line, before its separator: "City - Leeds",
#: "| NHS number | 943 476 5919 |", "State/ZIP: LS1 4AP". Group ``key``.
_LINE_KEY = re.compile(
    r"(?m)^[ \t]*(?:[-*•][ \t]+|\|[ \t]*)?(?P<key>[^\W\d_](?:[^\W\d]|[ /\-().#°º']){0,40}?)[ \t]*"
    r"(?:[:=|\t]|[ \t][-–](?=[ \t]))"
)
#: Words a field's key may hold besides :data:`LABEL_WORDS`.
_KEY_WORDS = frozenset(
    """of and name full first last given home work current previous emergency contact next
    kin social primary secondary mailing postal billing shipping date""".split()
)


def key_labels(text: str) -> list[tuple[int, int]]:
    """The keys of a form's ``key: value`` lines whose words all name a field ("City",
    "Street address", "Social Security Number (SSN)", "State/ZIP"): labels, cut out
    of any span so that they leave as written, whatever separator follows them."""
    out = []
    for m in _LINE_KEY.finditer(text):
        key = m.group("key").strip()
        name = _key_name(key)
        words = re.findall(r"[a-z]+", name)
        if not words:
            continue
        if (
            name in NAME_FIELD_TYPES
            or name in field_keys()
            or name in VALUE_FIELD_TYPES
            or money_key(name)
            or all(w in LABEL_WORDS or w in _KEY_WORDS for w in words)
        ):
            out.append((m.start("key"), m.start("key") + len(key)))
    return out


def _name_field_types(
    text: str, spans: list[Span], tables: CsvTables | None = None
) -> list[Span]:
    """A value takes the type its field's key names ("city": a place, "Next of kin": a
    person, "id": an identifier, "order": an order number), when a view found it right
    after the key (or in the key's column of a table) and typed it as another kind of
    name or number; it carries the :data:`RECORD` view. A number the key cannot be (an
    ``ID`` without a letter after "city") keeps its type; a value that fails its key's
    validator (an IBAN's mod 97) takes the type its shape allows; an amount after
    "balance" or "total" is no identifier and is dropped."""
    cells = tables.cells if tables is not None else ()
    starts = [a for a, _, _ in cells]
    out = []
    for span in spans:
        if FIELD in span.views or not (
            span.type in _RETYPABLE
            or span.type in _VALUE_RETYPABLE
            # "Booking ref: K7PWQZ" read as a web address: no address without "@", ".", ":"...
            or (span.type in _ADDRESS_TYPES and not _WEB_SIGN.search(text[span.start : span.end]))
        ):
            out.append(span)
            continue
        line_start = text.rfind("\n", 0, span.start) + 1
        m = _NAME_FIELD.search(text, max(line_start - 1, 0, span.start - 40), span.start)
        key = m.group("key") if m is not None else None
        if key is None and span.type in _RETYPABLE:
            key = _given_after_surname_key(text, line_start, span.start)
        if key is None and cells:
            i = bisect.bisect_right(starts, span.start) - 1
            if i >= 0 and span.end <= cells[i][1]:
                key = cells[i][2]
        if key is None:
            out.append(span)
            continue
        name = _key_name(key)
        value = text[span.start : span.end]
        if money_key(name) and _AMOUNT.fullmatch(value.strip()):
            continue
        t = _key_type(key, text)
        if t is not None and span.type in _RETYPABLE:
            if (span.type is not EntityType.ID or any(c.isalpha() for c in value)) and not (
                t is EntityType.PERSON and any(c.isdigit() for c in value)
            ):
                span = Span(span.start, span.end, t, span.score, {**span.views, RECORD: 1.0})
        elif (vt := VALUE_FIELD_TYPES.get(name)) is not None and DIGITS.search(value):
            vt = checked_type(value, vt) if vt is not EntityType.DATE else vt
            if vt is not span.type:
                span = Span(span.start, span.end, vt, span.score, {**span.views, RECORD: 1.0})
        out.append(span)
    return out


#: A home folder in a path: the segment after it is the account's user name.
#: The account's folder: after "/home/" one word ("/home/robin`. my colleague ..." had run
#: on to the next apostrophe); after "C:\\Users\\" a name with spaces when a folder follows.
_HOME = re.compile(
    r"(?:(?<![\w.])/(?:Users|home)/|(?<![\w])[A-Za-z]:\\(?:Users|Documents and Settings)\\)"
    r"((?<=/)[^/\\\s'\"`]*[^/\\\s'\"`.,;:]|(?<=\\)[^/\\\n'\"`]+(?=\\)|(?<=\\)[^/\\\s'\"`]+)"
)
#: Where a path through a home folder ends: a space, a quote, the colon before the next
#: path ("/home/rkapoor/pgdata:/var/lib/postgresql/data", a volume or a search path), or
#: a bracket closed after it ("CMD (/home/deploy/backup.sh) ...").
_PATH_END = re.compile(r"[\s'\"`]|:(?=/)|[)\]](?=[\s,;:]|\.(?!\w)|$)|[:;,.](?=\s|$)|$")
_LOWER_WORDS = re.compile(r"(?:[a-z]+[ \t]+)+")
#: User names of no one: a machine's own accounts and placeholders.
_NO_ONE = frozenset({"shared", "public", "root", "admin", "administrator", "default", "guest",
                     "runner", "ubuntu", "user", "username", "you", "me", "<user>", "$user", "%username%"})
#: "user jkaraoglu" in a log line: the key and the account's name a model took as one name.
_NAMED_FOLDER = re.compile(r"[^\W\d_a-z][^\W\d_]*(?:[ '’\-][^\W\d_]+){0,3}")
_USER_KEY = re.compile(r"(?:user|username|login|uid)[ \t]+(?=[a-z][a-z0-9._\-]{2,31}$)")
#: The key of a log's account field written with "=" ("user=bburton6", "login=jdoe").
_ACCOUNT_KEY = re.compile(r"\b(?:user|username|login|uid|userid|account)=$", re.IGNORECASE)


#: A key at the start of a line, before its value: "App: Slack", "  fallback_ip: 10.0.0.1",
#: "- LinkedIn: linkedin.com/in/...".
#: A word of a key has no run of three digits: "Claim CLM-2025-088214: my car was hit"
#: begins with a record's code, no key.
_VALUE_KEY = re.compile(
    r"[ \t]*(?:[-*•>][ \t]+)?((?![\w\-]*\d{3})[A-Za-z][\w\-]*(?:[ \t](?![\w\-]*\d{3})[A-Za-z][\w\-]*){0,2})"
    r"[ \t]*:(?:[ \t]+|$)",
    re.MULTILINE,
)
_PROPER_TYPES = frozenset({EntityType.PERSON, EntityType.ORG, EntityType.LOCATION})
#: A web address without its scheme, with a path ("linkedin.com/in/daniel-smith-283").
_WEB_PATH = re.compile(r"(?:https?://)?(?:www\.)?(?:[a-z0-9\-]+\.)+[a-z]{2,}/\S*", re.IGNORECASE)


def _without_possessive(text: str, span: Span) -> Span:
    """A name's possessive "'s" leaves as written ("Biscuit's surgery" -> "[PERSON_1]'s")."""
    if (
        span.type in (EntityType.PERSON, EntityType.ORG)
        and span.end - span.start > 4
        and text[span.end - 2 : span.end] in ("'s", "’s")
        and text[span.end - 3].isalpha()
        and not _INNER_POSSESSIVE.search(text, span.start, span.end - 2)
    ):
        return Span(span.start, span.end - 2, span.type, span.score, span.views)
    inner = _POSSESSIVE_TERM.search(text, span.start, span.end) if span.type is EntityType.PERSON else None
    if inner is not None and inner.end() == span.end and _model_only(span):
        # "my son Tyler's ER visit": the widening ran on past the possessive to a term.
        return Span(span.start, inner.start(), span.type, span.score, span.views)
    return span


#: A possessive and an abbreviation in capitals after a name: "Tyler's ER".
_POSSESSIVE_TERM = re.compile(r"(?<=[a-z])['’]s[ \t]+[A-Z]{2,5}")


#: An elided article or preposition before a name (French, Italian): "d'Airbus", "l'Oréal".
_ELIDED_HEAD = re.compile(rf"{ELIDED}(?=[^\W\d_])")
#: The same, written just before a name ("l'" of "l'Oréal"), in either case.
_ELIDED_BEFORE = re.compile(rf"(?<![\w'’]){ELIDED}$", re.IGNORECASE)


def _without_elision(text: str, span: Span, lexicon: Lexicon | None) -> Span:
    """A name's elided article stays as written ("chez un sous-traitant d'Airbus" ->
    "d'[ORG_1]"): the name alone is what the policy looks up and the box restores. A
    public name written with its article keeps it ("L'Oréal")."""
    if span.type not in _PROPER_TYPES:
        return span
    before = _ELIDED_BEFORE.search(text, max(0, span.start - 8), span.start)
    if (
        before is not None
        and lexicon is not None
        and lexicon.public_kind(text[before.start() : span.end]) is not None
    ):
        return Span(before.start(), span.end, span.type, span.score, span.views)
    m = _ELIDED_HEAD.match(text, span.start, span.end)
    if (
        m is not None
        and span.end - m.end() >= 2
        and (lexicon is None or lexicon.public_kind(text[span.start : span.end]) is None)
    ):
        return Span(m.end(), span.end, span.type, span.score, span.views)
    return span


#: A name with an apostrophe of its own ("St Mary's", "Sainsbury's"): it keeps it.
_INNER_POSSESSIVE = re.compile(r"\b(?:St|Saint)\.?[ \t]")


def _handles_of(name: str) -> set[str]:
    """The logins a full name is turned into: "bquist", "bartholomewq", "bartholomew.quist",
    "b.quist", "quistb", "bartholomew_quist" (letters folded to ASCII; none for one word)."""
    words = [_fold_ascii(w).lower() for w in name.split() if w[:1].isupper() and w.isalpha()]
    if len(words) < 2:
        return set()
    first, last = words[0], words[-1]
    return {
        first[0] + last, first + last[0], last + first[0], first + last,
        f"{first}.{last}", f"{first[0]}.{last}", f"{first}_{last}", f"{first}-{last}",
    }


def _fold_ascii(word: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c))


def _persons_as_accounts(text: str, spans: list[Span], accounts: set[str]) -> list[Span]:
    """Every person whose text is one of ``accounts``, as an identifier."""
    if not accounts:
        return spans
    return [
        Span(x.start, x.end, EntityType.ID, x.score, x.views)
        if x.type is EntityType.PERSON and text[x.start : x.end] in accounts
        else x
        for x in spans
    ]


def _one_type_per_name(text: str, spans: list[Span]) -> list[Span]:
    """A name the model read as a person in one place and as an organisation or a thing in
    another ("Siobhán Ní Cheallaigh" after "policyholder" and above her e-mail address) is
    one name, a person's: two types made two placeholders for one name. (An animal's name
    leaves as written: :func:`_without_pets`.)"""
    accounts = {v for x in spans if x.type is EntityType.ID and (v := text[x.start : x.end]).islower()}
    # "user=akowalski ... Account locked: akowalski": an account's name in lower case
    # found as such once is the same account wherever a model read a person.
    spans = _persons_as_accounts(text, spans, accounts)
    persons = {text[x.start : x.end] for x in spans if x.type is EntityType.PERSON}
    if not persons:
        return spans
    # "Bartholomew Quist (bquist, employee ID E-55102)": a login made of the person's name
    # in lower case is their account, no second person.
    spans = _persons_as_accounts(text, spans, {h for p in persons for h in _handles_of(p)})
    # The surnames of the people named in full: "passengers Lorcan Devaney and Siofra
    # Devaney" names two of one family, whatever the model read the first as.
    families = {p.split()[-1] for p in persons if GIVEN_AND_SURNAME.fullmatch(p)}
    return [
        Span(x.start, x.end, EntityType.PERSON, x.score, x.views)
        if (
            x.type in (EntityType.ORG, EntityType.OTHER)
            and (v := text[x.start : x.end]) in persons
            and v[:1].isupper()
            # "Siobhán Ní Cheallaigh" above her signature's e-mail address, which the
            # model ran into: a name of several words too, unless it says organisation.
            and (" " not in v or not ORG_WORDS.search(v))
        )
        or (
            x.type in (EntityType.ORG, EntityType.OTHER, EntityType.LOCATION)
            and GIVEN_AND_SURNAME.fullmatch(v := text[x.start : x.end]) is not None
            and v.split()[-1] in families
        )
        else x
        for x in spans
    ]




#: Two or three capitalized words: a given name, maybe a middle one, and a surname.
_FULL_NAME_SHAPE = re.compile(r"[^\W\d_][^\W\d_'’\-]*(?:[ \t][^\W\d_][^\W\d_'’\-]*){1,2}")


_STREET_PREPOSITION = re.compile(
    r"\b(?:on|in|at|near|off|along|from|to|via|outside|into)[ \t]+(?:the[ \t]+)?$", re.IGNORECASE
)


def _person_read_as_place(text: str, span: Span, lexicon: Lexicon | None) -> Span:
    """A given name and a surname the model read as a place are a person ("Inès Bertrand,
    31 ans" as a town), and so is a given name alone that no gazetteer knows as a place
    ("Gurpreet"): a place may leave in clear at the person's level, a name never.

    Every word is a name people carry and no dictionary's common word, the first a given
    name and the last a surname, and neither the whole nor a word is a public place
    ("Austin Texas", "Florence Street" stay places)."""
    if lexicon is None:
        return span
    value = text[span.start : span.end]
    if (
        span.type is EntityType.ADDRESS
        and not any(c.isdigit() for c in value)
        and not re.search(rf"\b{_STREET_KINDS}\b", value)
        # "outside my flat on Carlton Vale": after a place's preposition, a street.
        and not _STREET_PREPOSITION.search(text, max(0, span.start - 12), span.start)
    ):
        # "an 84-year-old man, Albert Finch, at 22 Cedar Road": a given name and a surname
        # without a number or a street's word, read as the address after them, a person.
        words = value.split()
        if (
            _FULL_NAME_SHAPE.fullmatch(value)
            and all(w[:1].isupper() for w in words)
            and lexicon.is_given(words[0])
            and lexicon.is_surname(words[-1])
            and not any(lexicon.is_plain(w) for w in words)
            and lexicon.public_kind(value) is None
        ):
            return Span(span.start, span.end, EntityType.PERSON, span.score, span.views)
        return span
    if span.type is not EntityType.LOCATION:
        return span
    if _INSTITUTION_CALLED.search(text, max(0, span.start - 70), span.start):
        # "a care home called Maple Lodge": the institution's name (_institution_called).
        return span
    if (
        _CAPITALIZED_WORD.fullmatch(value)
        and lexicon.is_given(value)
        and _RELATIVE_WORD_BEFORE.search(text, max(0, span.start - 24), span.start)
    ):
        # "Mum (Kerry) worried", "Emergency contact: me, Clare, 07981 ...": a given name
        # after a relative's word or the writer's "me," is a person, though a county too.
        return Span(span.start, span.end, EntityType.PERSON, span.score, span.views)
    if (
        _CAPITALIZED_WORD.fullmatch(value)
        and lexicon.is_given(value)
        and not lexicon.is_plain(value)
        and lexicon.public_kind(value) is None
        and not _PLACE_AFTER.match(text, span.end)
        # "4 Orchard Mews, Kendal": the town of an address.
        and not _AFTER_STREET.search(text, max(0, span.start - 40), span.start)
    ):
        # "send any AP queries to Gurpreet until March": a given name no gazetteer knows
        # as a place is a person (a place may leave at the person's level, a name never).
        return Span(span.start, span.end, EntityType.PERSON, span.score, span.views)
    if _full_name(value, lexicon):
        return Span(span.start, span.end, EntityType.PERSON, span.score, span.views)
    return span


def _full_name(value: str, lexicon: Lexicon) -> bool:
    """Whether ``value`` is a given name and a surname, each capitalized, none a common
    word or a public name ("Inès Bertrand"; not "Austin Texas", "Florence Street")."""
    if not _FULL_NAME_SHAPE.fullmatch(value):
        return False
    words = value.split()
    return (
        all(w[:1].isupper() for w in words)
        and lexicon.is_given(words[0])
        and lexicon.is_surname(words[-1])
        and not any(lexicon.is_plain(w) or lexicon.public_kind(w) for w in words)
        and lexicon.public_kind(value) is None
    )


#: A street's name and its comma, before the town of an address.
_AFTER_STREET = re.compile(rf"\b{_STREET_KINDS}\.?,[ \t]*$")
#: Words before a place ("in the Pune office", "moved to Leeds") and nouns after one.
_PLACE_BEFORE = re.compile(r"\b(?:in|from|near|to|around|outside|via|at)[ \t]+(?:the[ \t]+)?$", re.IGNORECASE)
_PLACE_AFTER = re.compile(
    r"[ \t]+(?:office|offices|branch|site|campus|area|airport|region|district|hub|plant|depot|"
    r"warehouse|factory|store|station|job|project|contract|trip|visit)\b"
)


def _place_read_as_person(text: str, span: Span, lexicon: Lexicon | None) -> Span:
    """A town of the gazetteer the model read as a person or a company, where the words
    around it say a place ("she reports to me in the Pune office", "at the Swindon depot"):
    a place, when no one carries the name ("Florence", "Austin" and "Paris" are people's
    too, and stay as the model read them)."""
    if span.type not in (EntityType.PERSON, EntityType.ORG) or lexicon is None:
        return span
    value = text[span.start : span.end]
    if (
        lexicon.public_kind(value) not in ("place", "region")
        or any(lexicon.is_given(w.lower()) or lexicon.is_surname(w.lower()) for w in value.split())
        or not (
            (
                span.type is EntityType.PERSON
                and _PLACE_BEFORE.search(text, max(0, span.start - 16), span.start)
            )
            or _PLACE_AFTER.match(text, span.end)
        )
    ):
        return span
    return Span(span.start, span.end, EntityType.LOCATION, span.score, span.views)


#: "at" before a name, and the words before it that make the name a person's ("looked at
#: Henderson", "angry at Okafor"): one looks, shouts and points at people, one is at places.
_AT_BEFORE = re.compile(r"(?<![\w-])at[ \t]+$")
_AT_PERSON_VERB = re.compile(
    r"\b(?:look(?:s|ed|ing)?|star(?:e|es|ed|ing)|glar(?:e|es|ed|ing)|glanc(?:e|es|ed|ing)|"
    r"laugh(?:s|ed|ing)?|shout(?:s|ed|ing)?|yell(?:s|ed|ing)?|scream(?:s|ed|ing)?|"
    r"snap(?:s|ped|ping)?|swore|swear(?:s|ing)?|smil(?:e|es|ed|ing)|wav(?:e|es|ed|ing)|"
    r"point(?:s|ed|ing)?|aim(?:s|ed|ing)?|direct(?:s|ed|ing)?|lash(?:es|ed|ing)? out|"
    r"angry|mad|furious|cross|upset|annoyed|frustrated|irritated|livid)[ \t]+at[ \t]+$",
    re.IGNORECASE,
)


#: Someone described by where they come from: "93-year-old woman from Kirkby Stephen".
_FROM_PLACE = re.compile(
    r"\b(?:woman|man|boy|girl|lady|gentleman|patient|resident|native|family|couple|"
    r"pensioner|widow|widower)[ \t]+from[ \t]+$",
    re.IGNORECASE,
)


def _home_town(text: str, span: Span) -> Span:
    """The name after "a woman from", "a patient from" is where the person comes from,
    a place, even when the model read a given name in it ("Kirkby Stephen"): the type
    policy judges it as a place (a town under Safe Harbor is protected), and the cloud
    reads one person, not two."""
    if (
        span.type is not EntityType.PERSON
        or not _model_only(span)
        or not _FROM_PLACE.search(text, max(0, span.start - 24), span.start)
        or _possessive(text, span)
    ):
        return span
    return Span(span.start, span.end, EntityType.LOCATION, span.score, span.views)


#: A school's class or house, a project or a system named like a person: "class Willow",
#: "the Halvorsen migration".
_GROUP_BEFORE = re.compile(r"(?<![\w-])(?:class|form|house)[ \t]+$")
#: A school's year before a class's name and the word "class" after it: "(Year 4, Hazel class)".
_CLASS_AFTER = re.compile(r"[ \t]+class\b")
_NAMED_CLASS = re.compile(r"[A-Z][a-z]+[ \t]+class")
_SCHOOL_YEAR_BEFORE = re.compile(r"\b(?:Year|Grade|Reception|P|Primary)[ \t]*\d{0,2},?[ \t]+$")
_PROJECT_AFTER = re.compile(
    r"[ \t]+(?:migration|rollout|roll-out|upgrade|integration|project|programme|program|"
    r"implementation|deployment|release|launch|account|contract|deal|tender|bid|pitch|"
    r"audit|renewal|onboarding)\b"
)
_THE_BEFORE = re.compile(r"\bthe[ \t]+$", re.IGNORECASE)


#: An institution's kind and the word that names it: "a care home in Harrogate called ",
#: "a nursing home named ", "a little school called ".
_INSTITUTION_CALLED = re.compile(
    r"\b(?:(?:care|nursing|retirement|residential|children'?s)[ \t]+home|hospice|hospital|clinic|"
    r"surgery|practice|school|nursery|academy|college|pharmacy|charity|church|hotel|"
    r"restaurant|pub|caf[eé]|shop|gym|firm|company|agency|(?:sheltered|supported)[ \t]+housing"
    r")(?:[ \t]+(?:in|near|on|at|outside)[ \t]+[A-Z][\w'’\-]*(?:[ \t][A-Z][\w'’\-]*)?)?"
    r"[ \t]+(?:called|named)[ \t]+$",
    re.IGNORECASE,
)


#: A climb's or a hike's words before a mountain: "a hike up ", "climbing ", "the summit of ".
_CLIMB_BEFORE = re.compile(
    r"\b(?:hike|hikes|hiking|hiked|climb|climbs|climbing|climbed|trek|trekking|scramble|"
    r"scrambling|ascent|summit|summited|bag|bagged|bagging)(?:[ \t]+(?:up|of|to|on))?[ \t]+(?:the[ \t]+)?$",
    re.IGNORECASE,
)


def _mountain_read_as_person(text: str, span: Span) -> Span:
    """A mountain the model read as a person ("a hike up Ben Nevis with our dog"): a place
    after the words of a climb; no one is hiked up."""
    if span.type is not EntityType.PERSON or not text[span.start : span.start + 1].isupper():
        return span
    if _CLIMB_BEFORE.search(text, max(0, span.start - 24), span.start):
        return Span(span.start, span.end, EntityType.LOCATION, span.score, span.views)
    return span


def _company_read_as_place(text: str, span: Span, lexicon: Lexicon | None) -> Span:
    """A company the lexicon knows, which the model read as a place ("earn about $96,000 at
    Northrop Grumman"): an organisation, so that the type policy sees a company (an
    employer where someone works there), never a town."""
    if span.type is not EntityType.LOCATION or lexicon is None:
        return span
    value = text[span.start : span.end]
    words = value.split()
    # "at PureGym Leeds Kirkstall": a brand and the place of its branch.
    branch = (
        len(words) > 1
        and lexicon.public_kind(words[0]) in ("brand", "company")
        and (
            lexicon.public_kind(" ".join(words[1:])) in ("place", "region")
            or (len(words) > 2 and lexicon.public_kind(words[1]) in ("place", "region"))
        )
    )
    if lexicon.public_kind(value) == "company" or branch:
        return Span(span.start, span.end, EntityType.ORG, span.score, span.views)
    return span


def _institution_called(text: str, span: Span) -> Span:
    """A place's name after the kind of institution it is ("lives in a care home in
    Harrogate called Oakwood Lodge") is that institution's: an organisation's name, which
    narrows a person down like the address it stands for (a town may leave at the
    person's level, a home's name is where they live)."""
    if span.type is not EntityType.LOCATION or not text[span.start : span.start + 1].isupper():
        return span
    if _INSTITUTION_CALLED.search(text, max(0, span.start - 70), span.start):
        return Span(span.start, span.end, EntityType.ORG, span.score, span.views)
    return span


def _group_or_project(text: str, span: Span) -> Span:
    """A one-word name the model alone read as a person, where the words around it say a
    school's class ("Year 5, class Willow") or a project, a client's account or a system
    ("missed the deadline for the Halvorsen migration"): an organisation's name, still
    protected, and the cloud reads no second person."""
    if (
        span.type is EntityType.PERSON
        and _NAMED_CLASS.fullmatch(text, span.start, span.end)
        and _SCHOOL_YEAR_BEFORE.search(text, max(0, span.start - 16), span.start)
    ):
        # "(Year 4, Hazel class)" read as a person with the word "class": the class's name.
        return Span(span.start, span.end, EntityType.ORG, span.score, span.views)
    if (
        span.type is not EntityType.PERSON
        or not _model_only(span)
        or not _CAPITALIZED_WORD.fullmatch(text, span.start, span.end)
    ):
        return span
    if (
        _GROUP_BEFORE.search(text, max(0, span.start - 8), span.start)
        # "(Year 4, Hazel class)": a school's class named after a tree or a bird
        or (_CLASS_AFTER.match(text, span.end) and _SCHOOL_YEAR_BEFORE.search(text, max(0, span.start - 16), span.start))
        or (_THE_BEFORE.search(text, max(0, span.start - 6), span.start) and _PROJECT_AFTER.match(text, span.end))
    ):
        return Span(span.start, span.end, EntityType.ORG, span.score, span.views)
    return span


def _place_after_at(text: str, span: Span, lexicon: Lexicon | None) -> Span:
    """A name the model alone read as a person, right after "at", in which no word is a
    given name ("take her to A&E at Southmead", "the cook at Little Acorns", "a QR code at
    Narita"): where someone is, works or is treated, an organisation's name. It stays
    protected as one from level 3 (core.policy), unless the lexicon knows it as public;
    the cloud reads a place, not a second person. A given name in it ("at Ray White"), a
    possessive after it ("at Priya's") or a verb one aims at people with ("shouted at
    Henderson") leaves it a person."""
    if (
        span.type is not EntityType.PERSON
        or lexicon is None
        or not _model_only(span)
        or not _AT_BEFORE.search(text, max(0, span.start - 8), span.start)
        or _AT_PERSON_VERB.search(text, max(0, span.start - 40), span.start)
        or _possessive(text, span)
    ):
        return span
    words = text[span.start : span.end].split()
    if not words or not all(w[:1].isupper() for w in words) or any(lexicon.is_given(w) for w in words):
        return span
    return Span(span.start, span.end, EntityType.ORG, span.score, span.views)


#: Breeds and kinds of animal, the animals people name, the words before a pet's name
#: (core.lexicon: the router reads them too).
_BREED, _PET, _PET_BEFORE = BREED, PET, PET_BEFORE
#: After a name: "Biscuit is our dog", "Biscuit is a 6 year old labrador", "Pickle (our
#: cat)". Not "is a dog" alone: that is said of people too.
_PET_AFTER = re.compile(
    rf"(?:'s|’s)?[ \t]*(?:,|\(|[ \t]is|[ \t]was)[ \t]*(?:"
    rf"(?:our|my|their|his|her)[ \t]+(?:[\w'’-]+[ \t]+){{0,3}}{_PET}"
    rf"|(?:a|an)[ \t]+(?:[\w'’-]+[ \t]+){{0,4}}{_BREED}"
    rf"|(?:a|an)[ \t]+\d+[ \t-]?(?:year|yr|month)s?[ \t-]old[ \t]+(?:[\w'’-]+[ \t]+){{0,2}}{_PET}"
    rf")\b",
    re.IGNORECASE,
)


#: What joins the names of a list: "Bramble and Fudge", "Mochi, Miso & Tofu".
_AND_LIST = re.compile(r",[ \t]*(?:and[ \t]+|&[ \t]*)?|[ \t]+(?:and|&)[ \t]+")


def _without_pets(text: str, spans: list[Span]) -> list[Span]:
    """An animal's name is no one's: "Our rabbit Clover had dental surgery", "Biscuit is a
    6 year old labrador" leave the name as written, and every other mention of it with
    them ("Biscuit's cruciate ligament"), whatever type the model gave it. Only a single
    capitalized word, named as an animal by the words right before or after one mention."""
    named: set[str] = set()
    for x in spans:
        value = text[x.start : x.end]
        # "Our two dogs, Bramble and Fudge": a list of names, each an animal's.
        names = _AND_LIST.split(value)
        if (
            x.type in (EntityType.PERSON, EntityType.ORG, EntityType.OTHER, EntityType.LOCATION)
            and all(_CAPITALIZED_WORD.fullmatch(n) for n in names)
            and (
                _PET_BEFORE.search(text, max(0, x.start - 48), x.start)
                or _PET_AFTER.match(text, x.end)
            )
        ):
            named.add(value)
            named.update(names)
    if not named:
        return spans
    return [
        x
        for x in spans
        if not (
            x.type in (EntityType.PERSON, EntityType.ORG, EntityType.OTHER, EntityType.LOCATION)
            and text[x.start : x.end] in named
        )
    ]


def _brand_read_as_person(text: str, span: Span, lexicon: Lexicon | None) -> Span:
    """A company or a brand of the lexicon the model read as a person ("OpenAI", "Anthropic")
    is an organisation, so that the type policy sees a public name; not when the name is
    one people carry too ("Claude", "Mercedes")."""
    if lexicon is None:
        return span
    value = text[span.start : span.end]
    words = value.split()
    if (
        span.type is EntityType.LOCATION
        and lexicon.public_kind(value) in _BRAND_KINDS
        and (
            _HELD_WITH.search(text, max(0, span.start - 60), span.start) is not None
            or _PROVIDER_BEFORE.search(text, max(0, span.start - 30), span.start) is not None
        )
    ):
        # "mortgage £60k left with Halifax": a bank that shares a town's name, named as
        # the provider of a mortgage, a loan or an account.
        return Span(span.start, span.end, EntityType.ORG, span.score, span.views)
    if span.type is not EntityType.PERSON:
        return span
    if lexicon.public_kind(value) in _BRAND_KINDS and (
        not any(lexicon.is_given(w) or lexicon.is_surname(w) for w in words)
        # "My bank, Monzo, froze my account": after the word for a provider, the name
        # people also carry is that provider's.
        or _PROVIDER_BEFORE.search(text, max(0, span.start - 30), span.start) is not None
        # "a Roth IRA", "a SEP IRA": a product that ends in a term's acronym is no one's name.
        or (len(words) >= 2 and words[-1].isupper() and lexicon.is_term(words[-1]))
    ):
        return Span(span.start, span.end, EntityType.ORG, span.score, span.views)
    if (
        len(words) >= 3
        and lexicon.public_kind(" ".join(words[:-1])) in _BRAND_KINDS
        and words[-1][:1].isupper()
        and (
            lexicon.public_kind(words[-1]) in ("place", "region")
            or not (lexicon.is_given(words[-1]) or lexicon.is_surname(words[-1]))
        )
    ):
        # "Ray White Carlton", "LJ Hooker Parramatta": a brand of two words or more (a
        # given name and a surname the lexicon lists as a company) and its branch's
        # place, an organisation's office; it stays protected as one. A surname after
        # it keeps the person ("John Lewis Evans").
        return Span(span.start, span.end, EntityType.ORG, span.score, span.views)
    return span


#: A financial product, then "with", "at" or "from" right before its provider's name:
#: "mortgage £60k left with Halifax", "an ISA with Nationwide".
_HELD_WITH = re.compile(
    r"\b(?:mortgage|loan|account|savings|isa|pension|policy|card|overdraft|insurance|insured|"
    r"banks?|banked)\b[^.!?\n]{0,30}?\b(?:with|at|from)[ \t]+$",
    re.IGNORECASE,
)
#: The word for a provider right before its name: "my bank, Monzo", "insurer: Aviva".
_PROVIDER_BEFORE = re.compile(
    r"\b(?:bank|insurer|lender|building society|broker|supplier|provider|airline|network|"
    r"carrier|courier)(?:[ \t]+(?:is|was))?[ \t]*[,:(]?[ \t]*$",
    re.IGNORECASE,
)
#: A run of one to three capitalized words (or a brand's inner capital: "iPhone", "eBay").
_CAPITALIZED_RUN = re.compile(
    r"(?<![\w@#/.\-])(?:[A-Z][\w&+'’\-]*|[a-z]{1,2}[A-Z][\w\-]*)"
    r"(?:[ \t](?:[A-Z][\w&+\-]*|[a-z]{1,2}[A-Z][\w\-]*)){0,2}(?![\w@/])"
)
#: What a sentence starts after.
_SENTENCE_START = re.compile(r"(?:^|[.!?:;]\s+|\n\s*|[\"“(]\s*)$")
#: The lexicon's kinds a known name is added as an organisation for.
_BRAND_KINDS = frozenset({"brand", "company", "org"})
#: The view of a name added from the lexicon, and its score (above the detector's floor).
LEXICON_VIEW = "lexicon"
LEXICON_SCORE = 0.5


def known_brands(
    text: str, spans: Sequence[Span], lexicon: Lexicon | None, zones_found: Zones | None = None
) -> list[Span]:
    """Public companies and brands the lexicon knows, written with their capitals where
    the detector found nothing ("I use Twitter and YouTube", "a Pepsi"): an organisation
    the type policy sends as a public name below the top of the slider, and protects at
    its top, as it promises. A given name or a surname ("Dell"), a dictionary's word
    ("Apple", "Monitor"), a short acronym and anything inside a zone or a found span are
    left to the model."""
    if lexicon is None:
        return []
    starts = [x.start for x in spans]
    ends = [x.end for x in spans]
    out: list[Span] = []
    for m in _CAPITALIZED_RUN.finditer(text):
        words = re.sub(r"['’]s$", "", m.group(0)).split()
        if words and words[0] in ("The", "A", "An"):
            continue  # "The AI", "The Time": a phrase, not a brand's name
        # The longest run of words from the left that the lexicon knows as a brand.
        k = next(
            (k for k in range(len(words), 0, -1)
             if lexicon.public_kind(" ".join(words[:k])) in _BRAND_KINDS),
            0,
        )  # fmt: skip
        if k == 0:
            continue
        a = m.start()
        b = a + len(" ".join(words[:k]))
        name = text[a:b]
        if k == 1 and (
            lexicon.is_given(name)
            or lexicon.is_surname(name)
            # "Monitor", "Apple", "Subway": a dictionary's word is the model's to judge
            or lexicon.is_plain(name)
            # "TODO", "ISO", "SAP": an acronym is as often a term as a company
            or (name.isupper() and len(name) <= 5)
            or len(name) < 3
        ):
            continue
        if re.match(r"[ \t]*:(?!//)", text[b : b + 4]):
            continue  # "LinkedIn: linkedin.com/in/...": a form's key names its value
        i = bisect.bisect_left(ends, a + 1)
        if i < len(starts) and starts[i] < b:
            continue  # the detector found something here
        if zones_found is not None and zones_found.overlapping(a, b):
            continue
        out.append(Span(a, b, EntityType.ORG, LEXICON_SCORE, {LEXICON_VIEW: LEXICON_SCORE}))
    return out


#: The EU's harmonised numbers of social value (116 000 to 116 999: missing children,
#: Samaritans, card blocking...), with the lower-case words a model took in before them.
_SERVICE_NUMBER = re.compile(r"(?:[a-z]+[ \t]+){0,3}116[ \t]?\d{3}")
#: Emergency and public health lines (999, 111, 112, 911, 988, 000...), one or a few.
_EMERGENCY = r"(?:999|111|112|911|101|988|000|110|119|211|311|811)"
_EMERGENCY_NUMBERS = re.compile(rf"{_EMERGENCY}(?:[ \t]*(?:,|/|or|and|&)[ \t]*{_EMERGENCY})*")
#: A version number right after a product's name, or right before its release's name.
_VERSION_AFTER = re.compile(r"[ \t]+v?\d+(?:\.\d+){1,3}\b")
_VERSION_BEFORE = re.compile(r"\b\d+(?:\.\d+){1,3}[ \t]+$")
#: A kind of product before the brackets that name it ("the badge system (...)").
_PRODUCT_BEFORE = re.compile(
    r"\b(?:system|software|tool|platform|app|application|device|suite|database|scanner|"
    r"package|library|framework|product|model|machine|plugin|extension)s?[ \t]+\($",
    re.IGNORECASE,
)
#: Capitalized words joined by slashes, no space.
_SLASHED = re.compile(r"[A-Z][\w.+#\-]*(?:/[A-Z][\w.+#\-]*)+")
#: The last word of a loyalty scheme's name, and the record's label and number after it.
_LOYALTY_NAME = re.compile(
    r"\b(?:Rewards?|Miles|More|Points|Club|Clubcard|Loyalty|Advantage|AAdvantage|Avios|"
    r"SkyMiles|MileagePlus|Bonvoy|Honors|Nectar|Flying Blue)$"
)
_SCHEME_NUMBER = re.compile(
    r"[ \t]+(?:member(?:ship)?|number|no\.?|card|account|id)\b\W{0,3}"
    # the number, or the placeholder that replaced it (the outbound is read again)
    r"(?:[A-Z]{0,3}\d[\d \-]{3,}|\[[A-Z_]+_\d+\])"
)
#: A letter's closing or thanks, which a model may read as a name.
_COURTESY = re.compile(
    r"(?:(?:kind|best|warm|warmest|kindest|many|with)[ \t]+)?(?:regards|wishes|thanks)|"
    r"(?:yours[ \t]+)?(?:sincerely|faithfully|truly)|cheers|thank[ \t]+you|all[ \t]+the[ \t]+best",
    re.IGNORECASE,
)
#: Greetings a model may read as a name in a message without capitals.
_GREETING_WORDS = frozenset("hi hii hiii hiya heya hey heyy hello helo hullo yo oi hola morning evening".split())
#: A greeting a model took in with the name after it ("Hi Edward", "Dear Ms Patel").
_GREETING_HEAD = re.compile(
    r"(?:hi|hello|hey|hiya|dear|good[ \t]+(?:morning|afternoon|evening)|morning)[ \t]*,?[ \t]+",
    re.IGNORECASE,
)
#: Words of a role that are surnames too ("Senior", "Head"): plain in a job title.
_ROLE_WORDS = frozenset(
    "senior junior head staff deputy associate assistant trainee graduate executive "
    "managing general regional clinical vice".split()
)


#: A role over a department: "Head of Finance", "Director of Nursing", "VP of Sales".
_ROLE_OF = re.compile(
    r"(?:Head|Deputy Head|Director|Deputy Director|Vice President|VP|Dean|Chair|Chief|Lead|"
    r"Manager|Officer|Principal|Professor)\s+of\s+(?:the\s+)?(?P<unit>[A-Z][\w'’\-]*"
    r"(?:\s+(?:(?:and|&)\s+)?[A-Z][\w'’\-]*){0,3})"
)


def _job_title(value: str, lexicon: Lexicon) -> bool:
    """Capitalized common words ending in a role: "Senior Solicitor", "Product Manager";
    a role over a department of common words: "Head of Finance"."""
    if (m := _ROLE_OF.fullmatch(value)) is not None:
        return all(
            lexicon.is_plain(w) or lexicon.is_term(w) or w in ("and", "&")
            for w in m.group("unit").split()
        )
    words = value.split()
    return (
        1 <= len(words) <= 4
        # (the role itself may be a rare word: "Consultant Rheumatologist")
        and all(
            w[:1].isupper() and (lexicon.is_plain(w) or w.casefold() in _ROLE_WORDS)
            for w in words[:-1]
        )
        and words[-1][:1].isupper()
        and (lexicon.is_plain(words[-1]) or words[-1].casefold() in _ROLE_WORDS or len(words) > 1)
        and JOB_TITLE.fullmatch(words[-1].casefold()) is not None
    )


#: A house number and capitalized words, alone on a line or before a comma.
_STREET_LINE = re.compile(r"\d{1,5}[A-Za-z]?[ \t]+[A-Z][\w'’\-]*(?:[ \t]+[A-Z][\w'’\-]*){0,3}")
_POSTCODE_LINE = re.compile(r"[ \t]*(?:[A-Z]{1,2}\d[A-Z\d]?[ \t]?\d[A-Z]{2}|[A-Z]{2}[ \t]\d{5}(?:-\d{4})?)[ \t]*$")


_BLOCK_TYPES = _PROPER_TYPES | {EntityType.ADDRESS}


def address_block(text: str, spans: list[Span], lexicon: Lexicon | None = None) -> list[Span]:
    """A postal address written over lines, as a signature has it ("Smith Inc / 27 Hunter
    Stravenue / Mariachester / BN1M 2FH"), which a model read as one organisation: the
    street line is an address and the one word between it and the postcode the town."""
    out = list(spans)
    for i, span in enumerate(out):
        if span.type not in _BLOCK_TYPES:
            continue
        a = text.rfind("\n", 0, span.start) + 1
        b = text.find("\n", span.end)
        b = len(text) if b < 0 else b
        line = text[a:b].strip()
        value = text[span.start : span.end]
        if _STREET_LINE.fullmatch(value) and (line == value or text.startswith(",", span.end)):
            out[i] = Span(span.start, span.end, EntityType.ADDRESS, span.score, span.views)
            continue
        if span.type is EntityType.ADDRESS and DIGITS.search(value) is None:
            # A line of the block with no street, number or postcode: a role ("Senior
            # Solicitor"), the firm ("Smith Inc"), or the town, read into the address.
            if lexicon is not None and _job_title(value, lexicon):
                out[i] = Span(span.start, span.end, EntityType.OTHER, span.score, span.views)
                continue
            if (m := _LEGAL_FORM.search(value)) is not None and m.end() == len(value):
                out[i] = Span(span.start, span.end, EntityType.ORG, span.score, span.views)
                continue
        if line != value or " " in value or not value[:1].isupper():
            continue
        prev_line = text[text.rfind("\n", 0, max(0, a - 1)) + 1 : max(0, a - 1)].strip()
        nxt = text.find("\n", b + 1)
        next_line = text[b + 1 : nxt if nxt >= 0 else len(text)]
        if _STREET_LINE.fullmatch(prev_line) and _POSTCODE_LINE.fullmatch(next_line):
            # The town of a postal address: part of it (the record's view protects it).
            views = {**span.views, RECORD: 1.0}
            out[i] = Span(span.start, span.end, EntityType.LOCATION, span.score, views)
    return out


def _line_key(text: str, start: int) -> re.Match[str] | None:
    """The key of the ``key: value`` line ``start`` stands in, when ``start`` is inside it."""
    a = text.rfind("\n", 0, start) + 1
    m = _VALUE_KEY.match(text, a)
    return m if m is not None and m.start(1) <= start < m.end(1) else None


def _home_folders(text: str, spans: list[Span]) -> list[Span]:
    """A path through a home folder names its account: the path is one value (its
    folders may name more than the account, so it goes whole, as the rules match it),
    typed ``ID``, or ``PERSON`` when the folder is named like a person ("C:\\Users\\
    Ярослава\\"); what a model ran into it from outside is judged apart ("path
    /Users/alinakoval/.npm/..." had become one person, the word "path" with it). A
    machine's own account ("/home/ubuntu/") names no one. A log's "user jkaraoglu" keeps
    its key, and the account's name is an ``ID``."""
    homes = list(_HOME.finditer(text))
    out: list[Span] = []
    for span in spans:
        value = text[span.start : span.end]
        if span.type is EntityType.PERSON and (key := _USER_KEY.match(value)) is not None:
            span = Span(span.start + key.end(), span.end, EntityType.ID, span.score, span.views)
        elif _ACCOUNT_KEY.search(text, max(0, span.start - 12), span.start) and not value[:1].isspace():
            # A log's "user=bburton6 ip=...": the account is one word, whatever a model
            # read into it or typed it (an organisation, a date, a web address).
            stop = span.start + len(value.split()[0]) if value.split() else span.end
            span = Span(span.start, stop, EntityType.ID, span.score, span.views)

        hits = [m for m in homes if m.start() < span.end and span.start < m.end(1)]
        if not hits or span.type in (EntityType.EMAIL, EntityType.IP):
            out.append(span)
            continue
        pos = span.start
        for m in hits:
            end = _PATH_END.search(text, m.end(1))
            path_end = end.start() if end else len(text)
            user = m.group(1).strip()
            if user.casefold() not in _NO_ONE:
                # A folder named like a person ("C:\\Users\\Ярослава\\") is that person's.
                t = EntityType.PERSON if _NAMED_FOLDER.fullmatch(user) else EntityType.ID
                out.append(Span(m.start(), path_end, t, span.score, span.views))
            out.extend(_outside(text, span, pos, m.start()))
            pos = max(pos, path_end)
        out.extend(_outside(text, span, pos, span.end))
    return merge_spans(sorted(out, key=lambda x: x.start))


#: An account after its key in a log or a config line: "user=fhansen", "ruser=ndubuisi_o".
_KEYED_ACCOUNT = re.compile(
    r"\b(?:user|username|login|logname|ruser|luser|uid|userid|account|owner)=(?P<user>[A-Za-z_][\w.\-]{1,31})(?![\w@])"
)


#: A word an account's name may be: letters, digits, dots, dashes and underscores, standing
#: apart (not inside a path, an address or a longer name).
_ACCOUNT_WORD = re.compile(r"(?<![\w.\-/\\@])[A-Za-z_][\w.\-]{1,31}(?<!\.)(?![\w\-@]|\.\w)")


def _accounts_everywhere(text: str, spans: list[Span]) -> list[Span]:
    """An account a home folder or a log's key names ("/home/fhansen/...", "user=fhansen")
    is that account wherever it stands in the text: each other occurrence as a word no
    span holds is the same identifier (the path went whole, and "user=fhansen" beside it
    had stayed in clear). A machine's own accounts ("root", "ubuntu") name no one."""
    if "/" not in text and "\\" not in text and "=" not in text:
        return spans
    names = {m.group(1).strip() for m in _HOME.finditer(text)}
    names |= {m.group("user") for m in _KEYED_ACCOUNT.finditer(text)}
    names = {n for n in names if len(n) >= 3 and n.casefold() not in _NO_ONE and n not in _SERVICE_USERS and " " not in n}
    if not names:
        return spans
    # One pass over the text's words, each looked up (a log of 10,000 lines may name
    # thousands of accounts: a search per account would be quadratic).
    taken = sorted((x.start, x.end) for x in spans)
    starts = [a for a, _ in taken]
    added = []
    for m in _ACCOUNT_WORD.finditer(text):
        if m.group() not in names:
            continue
        a, b = m.span()
        i = bisect.bisect_right(starts, a) - 1
        if (i >= 0 and taken[i][1] > a) or (i + 1 < len(taken) and taken[i + 1][0] < b):
            continue
        added.append(Span(a, b, EntityType.ID, 0.85, {MARKER: 0.85}))
    return sorted([*spans, *added], key=lambda x: x.start) if added else spans


def _outside(text: str, span: Span, a: int, b: int) -> list[Span]:
    """What a span held beside a path: kept when it has a capital or a digit (a name, a
    number), dropped when it is a command's or a label's word ("mkdir '", "path")."""
    while a < b and not text[a].isalnum():
        a += 1
    while b > a and not text[b - 1].isalnum():
        b -= 1
    if (lead := _LOWER_WORDS.match(text, a, b)) is not None:
        a = lead.end()  # "and John Smith"
    if b <= a or not re.search(r"[A-Z0-9]", text[a:b]):
        return []
    if re.fullmatch(r"[a-z]+\d{1,2}|v?\d+(?:\.\d+){1,3}", text[a:b]):
        return []  # a command with its version: "python3", "pip3", "node18"; "v20.11.1"
    return [Span(a, b, span.type, span.score, span.views)]


#: A person's name as a table's cell holds it: two to five words of letters, capitalized.
#: A column of one part of people's names: "first_name", "Surname", "family name".
_PART_OF_NAME_KEY = re.compile(
    r"^(?:first|last|given|family|middle|sur)(?:[ ]?name)?$|^forenames?$"
    # the four other languages' columns: "nom", "prénom", "Nachname", "apellidos", "voornaam"
    r"|^(?:nom|prénom|prenom|nom de famille|nachname|vorname|familienname|apellidos?|nombre|"
    r"primer apellido|segundo apellido|achternaam|voornaam|voornamen|tussenvoegsel)$"
)
#: One capitalized word of a name: "Mahmood", "O'Neill", "Ní".
_CELL_WORD = re.compile(r"[A-ZÀ-ÖØ-Þ][^\W\d_]*(?:['’\-][^\W\d_]+)*")
_CELL_NAME = re.compile(r"[A-ZÀ-ÖØ-Þ][^\W\d_]*(?:[.'’\-][^\W\d_]+)*\.?(?:[ ][A-Za-zÀ-ÖØ-öø-ÿ][^\W\d_]*(?:[.'’\-][^\W\d_]+)*\.?){1,4}")


#: A record's key and its value, written the ways people paste records: a JSON member
#: ('"KhmerName":"..."'), a ``key: value`` line, a ``key=value;`` pair. Group ``key``
#: is the key, ``value`` the value (without its quotes).
_KEYED = re.compile(
    r"\"(?P<jkey>[A-Za-z_][\w ]{0,40})\"[ \t]*:[ \t]*\"(?P<jvalue>[^\"\\\n]{1,120})\""
    r"|(?m:^[ \t]*(?:[-*•][ \t]+)?(?P<lkey>[A-Za-z][A-Za-z _\-]{0,30}?)[ \t]*:[ \t]+"
    r"[\"']?(?P<lvalue>[^\n\"']{1,120}?)[\"']?[ \t]*$)"
    r"|(?<![\w.])(?P<pkey>[A-Za-z][A-Za-z_]{0,30})=(?P<pvalue>[^;&,=\n]{1,80})(?=[;&,\n]|$)"
    # an INI or a config file's line: "admin_users = okwame"
    r"|(?m:^[ \t]*(?P<ikey>[A-Za-z][A-Za-z_.\-]{0,40}?)[ \t]+=[ \t]+(?P<ivalue>[^\n;#=]{1,120}?)[ \t]*$)"
)
#: Words before "name" in a key that make it a person's name ("FatherName",
#: "latin_first_name", "name_on_card" is in the table): roles, relatives, the name's
#: part, and the script or language it is written in.
_NAME_KEY_WORDS = frozenset(
    """first last middle given family full sur fore maiden birth legal preferred nick
    father mother spouse partner husband wife son daughter child parent guardian sibling
    patient customer client employee contact member tenant applicant student holder
    cardholder beneficiary payee recipient sender owner next kin emergency doctor gp
    latin native local english khmer chinese arabic korean japanese thai cyrillic hindi
    russian greek hebrew persian urdu bengali tamil vietnamese""".split()
)
#: Values that say there is none: no one's data.
_NO_VALUE = re.compile(
    r"null|none|nil|n/?a|na|tbc|tbd|unknown|not (?:known|given|applicable|provided)|-+|\?+|"
    r"true|false|yes|no|0|x+",
    re.IGNORECASE,
)
#: Templates and placeholders, never a value: "{{first_name}}", "${NAME}", "<name>",
#: "[PERSON_1]", "«First_Name»".
_TEMPLATE = re.compile(r"[{}<>\[\]«»$%]")
_SPLIT_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")


def _record_key_type(key: str) -> tuple[EntityType, bool] | None:
    """The type a record's key gives its value, and whether the key names a person's
    name as such ("first_name", "KhmerName") rather than a role that may hold a
    company or a remark ("name", "patient", "contact")."""
    words = _key_name(_SPLIT_CAMEL.sub(" ", key)).split()
    if not words:
        return None
    if words[-1] in ("surname", "forename") or (
        words[-1] == "name" and len(words) > 1 and all(w in _NAME_KEY_WORDS for w in words[:-1])
    ):
        return EntityType.PERSON, True
    t = _key_type(" ".join(words))
    if t is None and words[-1] in ("nationality", "citizenship", "ethnicity", "religion"):
        t = EntityType.NRP
    if t is None or (t is EntityType.ADDRESS and words[-1] in ("postcode", "zip", "zipcode")):
        return None  # a postcode is a number the rules find by its shape
    return t, False


def _plausible_value(value: str, t: EntityType, named: bool, lexicon: Lexicon | None) -> bool:
    """Whether ``value``, under a key of type ``t``, can be such a value that no view
    found: a name in another script, or written in lower case; never a remark ("see
    above"), a template or a job's name ("Checkout code")."""
    if _NO_VALUE.fullmatch(value) or _TEMPLATE.search(value) or "@" in value or "://" in value:
        return False
    words = re.findall(r"[^\W\d_]+", value)
    if not words:
        return False
    other_script = any(not c.isascii() and c.isalpha() and not _latin(c) for c in value)
    if other_script:
        return not DIGITS.search(value) or t is EntityType.ADDRESS
    if t is EntityType.ADDRESS:
        # A street address has its number; words alone may be a remark.
        return DIGITS.search(value) is not None
    if DIGITS.search(value) or len(words) > 5 or not re.fullmatch(r"[^\W\d_][\w .'’\-]*", value):
        return False
    if lexicon is None:
        return named
    plain = all(lexicon.is_plain(w) or lexicon.is_term(w) for w in words)
    if named:
        # "first_name": "anna" is a name in lower case; "first_name": "test" is too.
        return not all(lexicon.is_term(w) for w in words)
    # A role's key ("name", "patient", "city"): capitalized words, not all of them
    # plain words, and for a person a given name or a surname among them.
    if not all(w[:1].isupper() for w in words) or plain:
        return False
    if t is EntityType.PERSON:
        return any(lexicon.is_given(w) or lexicon.is_surname(w) for w in words)
    return True


def _latin(c: str) -> bool:
    return unicodedata.name(c, "").startswith("LATIN")


def _keyed_values(text: str, spans: list[Span], lexicon: Lexicon | None) -> list[Span]:
    """The values of a record's keys that no view found: '"KhmerName":"រិទ្ធ មករា"',
    "first_name: anna", "Father_Name=Okonkwo;". The model reads a name in another
    script, or in lower case, or cut off from any sentence, poorly; the key says what
    the value is. Each takes its key's type and the :data:`RECORD` view; a value any
    span touches is left to the views (:func:`_name_field_types` types it)."""
    if ":" not in text and "=" not in text:
        return spans
    spans = sorted(spans, key=lambda x: x.start)
    starts = [x.start for x in spans]
    reach = list(itertools.accumulate((x.end for x in spans), max))  # furthest end so far
    added, replaced = [], []
    for m in _KEYED.finditer(text):
        kind = "j" if m.group("jkey") else "l" if m.group("lkey") else "i" if m.group("ikey") else "p"
        key, (a, b) = m.group(f"{kind}key"), m.span(f"{kind}value")
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1] in " \t.,;":
            b -= 1
        over, j = [], bisect.bisect_left(starts, b) - 1
        while j >= 0 and reach[j] > a:
            if spans[j].end > a:
                over.append(spans[j])
            j -= 1
        typed = _record_key_type(key)
        if (
            b > a
            and _key_name(key).rsplit(" ", 1)[-1] in _USER_KEYS
            and _user_name(text[a:b], lexicon)
        ):
            # "Assignee=mfernandes": a tracker's or a system's user in lower case is the
            # account's name, an identifier, whatever a model typed it ("admin_users = okwame"
            # read as a date).
            if not over:
                added.append(Span(a, b, EntityType.ID, 0.9, {RECORD: 1.0}))
            elif all(a <= x.start and x.end <= b and x.type is not EntityType.ID for x in over):
                replaced += over
                added.append(Span(a, b, EntityType.ID, max(x.score for x in over), {RECORD: 1.0}))
            continue
        if b <= a or typed is None:
            continue
        if over:
            # Part of a person's name in another script found under its key
            # ('"KhmerName":"រិទ្ធ មករា"', the model read the second word): the whole
            # value is the name.
            if not (
                typed == (EntityType.PERSON, True)
                and all(a <= x.start and x.end <= b and x.type in _NAME_TYPES for x in over)
                and (sum(x.end - x.start for x in over) < b - a)
                and _plausible_value(text[a:b], *typed, lexicon)
            ):
                continue
            replaced += over
        elif not _plausible_value(text[a:b], *typed, lexicon):
            continue
        # (a name key's value in capitals is a name, no acronym: "Segundo apellido: OCHOA")
        views = {RECORD: 1.0, NAME_CELL: 1.0} if typed[0] is EntityType.PERSON else {RECORD: 1.0}
        added.append(Span(a, b, typed[0], 0.9, views))
    if not added:
        return spans
    return sorted([x for x in spans if x not in replaced] + added, key=lambda x: x.start)


#: The keys of a tracker's or a system's people: the value is a person's name or a user's.
_USER_KEYS = frozenset(
    ("assignee", "reporter", "approver", "requester", "requestor", "submitter", "users", "owner", "maintainer")
)


def _user_name(value: str, lexicon: Lexicon | None) -> bool:
    """A user's name in lower case ("mfernandes", "j.okafor"): no dictionary's word or term."""
    return (
        len(value) >= 4
        and _ACCOUNT_NAME.fullmatch(value) is not None
        and value not in ("unassigned", "nobody", "none", "null", "tbd", "tbc")
        and not _NO_VALUE.fullmatch(value)
        and (lexicon is None or not (lexicon.is_plain(value) or lexicon.is_term(value) or lexicon.zipf(value) >= 3.0))
    )


#: A JSON member's key ('"HomeNo":'), written like a program's name for it.
_JSON_KEY = re.compile(r"(?<=[{,\s]\")[A-Za-z_][A-Za-z0-9_]{0,40}(?=\"[ \t]*:)")
_CODE_KEY = re.compile(r"[a-z][a-z0-9]*|[A-Za-z][a-z0-9]*(?:[A-Z_][A-Za-z0-9]*)+|[a-z][a-z0-9_]*")
#: JSON's literals after a key: no value.
_JSON_LITERAL = re.compile(r"(?<=:)[ \t]*(?:null|true|false)(?=[ \t]*[,}\]\n])")
#: The key of a ``key=value`` pair among others ("Id=3; First_Name=Anna; Email=..."). A
#: constant's name ("AWS_SECRET_ACCESS_KEY=...") and a secret's ("aws_secret_access_key=",
#: "password=") are left to the secrets' rules, which find the key and its value together
#: (the value alone may look like a path).
_PAIR_KEY = re.compile(
    r"(?:^|(?<=[;&,\s]))(?=\w*[a-z])"
    r"(?![\w]*(?:key|secret|token|pass|pwd|auth|credential|cookie|session|signature|salt))"
    r"[A-Za-z][A-Za-z0-9_]{0,30}(?==[^=\s])",
    re.IGNORECASE,
)


def record_labels(text: str) -> list[tuple[int, int]]:
    """The keys of a pasted record, and JSON's ``null``, ``true`` and ``false``:
    labels, cut out of any span (a model read '"StreetNo":null' as a person and
    "First_Name" of "First_Name=Anna;" as an identifier). A JSON key is a label when it
    is written like a program's name ('"HomeNo"', '"first_name"') or when most keys
    of the text are ('"Sid"' beside them); a key written like a person's name or an
    address ('"Ana Lima": 3') is data. A pair's key counts among two pairs at least."""
    out: list[tuple[int, int]] = []
    if '":' in text or '" :' in text:
        keys = list(_JSON_KEY.finditer(text))
        coded = [m for m in keys if _CODE_KEY.fullmatch(m.group())]
        out += [(m.start(), m.end()) for m in (keys if len(coded) >= 2 else coded)]
        out += [(m.end() - len(m.group().lstrip()), m.end()) for m in _JSON_LITERAL.finditer(text)]
    if "=" in text:
        pairs = list(_PAIR_KEY.finditer(text))
        if len(pairs) >= 2:
            out += [(m.start(), m.end()) for m in pairs]
    return out


#: A table's column of roles or teams ("Role", "Job title", "Department"): its cells are
#: kinds of work, never a person's or an organisation's name.
_ROLE_KEYS = frozenset(
    {"role", "roles", "position", "job", "job title", "title", "department", "dept", "team",
     "grade", "band", "specialty", "speciality", "function"}
)  # fmt: skip


#: A form's line of a role ("Job title: Dental hygienist"): the key, then words alone.
_ROLE_LINE = re.compile(
    r"(?im)^[ \t]*[-*•]?[ \t]*(?P<key>[a-z][a-z _\-]{1,20}?)[ \t]*:[ \t]*"
    r"(?P<value>[^\W\d_][^\W\d_'’\-]*(?:[ \t&/][^\W\d_'’\-]+){0,3})[ \t]*$"
)


def _role_cells(text: str, spans: list[Span], tables: CsvTables) -> list[Span]:
    """Without the names found in a table's role column ("| Dispenser |" read as a person)
    or on a form's line of a role ("Job title: Dental hygienist" read as an organisation):
    a value of words there is a job's title. A value with a digit, an "@" or a person's
    title ("Dr") is left to the views."""
    roles = [
        (a, b) for a, b, key in tables.cells
        if _key_name(key) in _ROLE_KEYS and re.fullmatch(r"[^\W\d_][^\d@]*", text[a:b].strip())
    ]  # fmt: skip
    if ":" in text:
        roles += [
            (m.start("value"), m.end("value")) for m in _ROLE_LINE.finditer(text)
            if _key_name(m.group("key")) in _ROLE_KEYS
        ]  # fmt: skip
    if not roles:
        return spans
    return [
        x for x in spans
        if not (x.type in _NAME_TYPES and any(a <= x.start and x.end <= b for a, b in roles))
    ]  # fmt: skip


def _name_cells(text: str, spans: list[Span], tables: CsvTables) -> list[Span]:
    """The cells of a table's name column ("Name", "full_name", "patient") that hold a
    name are a person's, whatever the views made of them: a model reads a tab-separated
    row as one run and typed "Jacqueline Wells<TAB>jacqueline_wells76@..." an e-mail
    address, "Adrian" an e-mail and "Hayes" a phone, all of which the rules then drop."""
    if not tables.cells:
        return spans
    out = list(spans)
    for a, b, key in tables.cells:
        if _key_type(key, text) is not EntityType.PERSON:
            continue
        value = text[a:b]
        lead = len(value) - len(value.lstrip())
        name = value.strip()
        if not _CELL_NAME.fullmatch(name) and not (
            # "last_name" | "Mahmood": a column of one part of a name holds one word each.
            _PART_OF_NAME_KEY.search(_key_name(key)) and _CELL_WORD.fullmatch(name)
        ):
            continue
        start, end = a + lead, a + lead + len(name)
        inside = [x for x in out if start <= x.start and x.end <= end]
        same = [x for x in inside if x.type is EntityType.PERSON and (x.start, x.end) == (start, end)]
        if same:
            out = [x for x in out if x is not same[0]]
            out.append(Span(start, end, EntityType.PERSON, same[0].score, {**same[0].views, NAME_CELL: 1.0}))
            continue
        score = max((x.score for x in inside), default=0.9)
        out = [x for x in out if x not in inside]
        out.append(Span(start, end, EntityType.PERSON, score, {RECORD: 1.0, NAME_CELL: 1.0}))
    return sorted(out, key=lambda x: x.start)


#: A line of a chat app's export and its sender: "[28/11/2026, 19:04] Kofi: ..." (iOS),
#: "28/11/2026, 19:04 - Sunny: ..." (Android) or "[09:50, 3/2/2025] Julián: ..." (copied from
#: the desktop app: the time first). The date and the time are apart by a comma, which a log
#: line's timestamp ("[2026-11-30 09:14:02] ERROR: ...") never is.
_CHAT_LINE = re.compile(
    r"(?m)^[ \t]*(?:\[[^\]\n]{1,12}(?:,[ \t]?|[ \t])\d{1,2}[:.]\d{2}(?:[:.]\d{2})?(?:[ \t]?[APap][Mm])?\]"
    r"|\[\d{1,2}[:.]\d{2}(?:[ \t]?[APap][Mm])?,[ \t]?\d{1,2}[./-]\d{1,2}(?:[./-]\d{2,4})?\]"
    r"|[\d./-]{6,10},[ \t]?\d{1,2}[:.]\d{2}(?:[ \t]?[APap][Mm])?[ \t]+-"
    # (Android in Dutch and German writes no comma: "12-11-2024 08:14 - Rachid: ...", the
    # day first, which a log line's date never is)
    r"|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}[ \t]\d{1,2}:\d{2}[ \t]+-)"
    r"[ \t]+(?P<sender>[^\W\d_][\w'’.\- ]{0,40}?)[ \t]*(?:[^\w\s:][^:\n]{0,6})?:"
)


def _chat_senders(text: str, spans: list[Span]) -> list[Span]:
    """The senders of a chat app's export are people ("[28/11/2026, 19:06] Kofi: i can do
    tues"), whatever the model made of a name at a line's start; "You", "Mum" and the
    other senders of :data:`_NO_ONE_SENDS` name no one."""
    if "," not in text or ":" not in text:
        return spans
    out = list(spans)
    for m in _CHAT_LINE.finditer(text):
        a, b = m.span("sender")
        if text[a:b].strip().casefold() in _NO_ONE_SENDS:
            continue
        over = [x for x in out if x.start < b and a < x.end]
        if any(x.type is EntityType.PERSON and x.start <= a and b <= x.end for x in over):
            continue
        # (a part of the sender's name found, "Jan" of "Jan Hoekstra": the whole name)
        # A model's span run into the sender from the time before it ("19:09 - Kwame" read
        # as a date): the time stays a time, the sender is a person.
        out = [x for x in out if x not in over] + [
            Span(x.start, a - 3 if text[a - 3 : a] == " - " else a, x.type, x.score, x.views)
            for x in over
            if x.start < a and text[x.start : a].strip(" -")
        ]
        out.append(Span(a, b, EntityType.PERSON, 0.9, {RECORD: 1.0}))
    return sorted(out, key=lambda x: x.start)


#: The user an authentication log names: "Failed password for invalid user deploy",
#: "Accepted publickey for tnakashima from", "sudo: tnakashima : TTY=pts/1",
#: "session opened for user ana by".
_LOG_USER = re.compile(
    r"\b(?:(?:password|publickey|keyboard-interactive/pam|hostbased)[ \t]+for[ \t]+(?:invalid[ \t]+user[ \t]+)?"
    r"|session[ \t]+(?:opened|closed)[ \t]+for[ \t]+user[ \t]+|sudo:[ \t]+)"
    r"(?P<user>[a-z_][a-z0-9_.\-]{1,31})(?=[ \t]+(?:from\b|by\b|:)|\(|$)",
    re.MULTILINE,
)


#: A person's user name on a platform, in brackets after their name: "fenella
#: (fenella.o'hanlon on gitlab)", "Dev (@devk on slack)".
_HANDLE_ON = re.compile(
    r"(?<![\w'’-])(?P<name>[^\W\d_][\w'’-]{2,})[ \t]+\([ \t]*(?P<handle>@?[\w][\w.'’\-]{1,38}[\w])[ \t]+on[ \t]+"
    r"(?i:gitlab|github|bitbucket|slack|teams|discord|twitter|x|instagram|tiktok|linkedin|reddit|mastodon|jira|"
    r"confluence|telegram|signal|whatsapp)[ \t]*\)"
)


def _handles_on_platforms(text: str, spans: list[Span], lexicon: Lexicon | None) -> list[Span]:
    """A user name in brackets after "on" and a platform is an account's name, and the name
    before the brackets (no frequent word) is its person's ("fenella (fenella.o'hanlon on
    gitlab)": neither had been found in a message typed in lower case). Nothing a view
    already found is changed."""
    if " on " not in text or "(" not in text:
        return spans
    out = list(spans)
    changed = False
    for m in _HANDLE_ON.finditer(text):
        for group, typ in (("handle", EntityType.ID), ("name", EntityType.PERSON)):
            a, b = m.span(group)
            over = [x for x in out if x.start < b and a < x.end]
            if any(x.start < a or x.end > b for x in over):
                continue
            if typ is EntityType.PERSON and lexicon is not None and lexicon.zipf(text[a:b]) >= 4.0:
                continue  # ("the lead (dkaur on github)": a word, no one's name)
            # (a model's unsure guess over it gives way: the brackets say what it is)
            out = [x for x in out if x not in over] + [Span(a, b, typ, 0.9, {RECORD: 0.9})]
            changed = True
    return sorted(out, key=lambda x: x.start) if changed else spans


def _log_users(text: str, spans: list[Span]) -> list[Span]:
    """The user names of an authentication log are accounts: a model reads one as a
    person ("tnakashima"), another as nothing; a service's user ("root", "deploy") is
    everyone's and stays. The log's words mark the value (:data:`MARKER`: kept whole)."""
    if "for" not in text and "sudo:" not in text:
        return spans
    out = list(spans)
    for m in _LOG_USER.finditer(text):
        a, b = m.span("user")
        if m.group("user") in _SERVICE_USERS:
            continue
        over = [x for x in out if x.start < b and a < x.end]
        if any(x.start < a or x.end > b for x in over):
            continue  # a wider span (an address) is the views' to judge
        out = [x for x in out if x not in over]
        out.append(Span(a, b, EntityType.ACCOUNT, 0.9, {MARKER: 0.9}))
    return sorted(out, key=lambda x: x.start)


#: A key whose value is a record of a person ("mkhan": {"email": ..., "age": ...}): the
#: key is who the record is of (a user name), no field's label.
_RECORD_KEY = re.compile(r"""(?P<q>["'])(?P<key>[A-Za-z][\w.-]{2,40})(?P=q)[ \t]*:[ \t]*\{(?P<body>[^{}]{0,300})\}""")
_PERSON_FIELDS = re.compile(
    r"""["'](?:e-?mail|name|full_?name|first_?name|last_?name|phone|mobile|age|dob|"""
    r"""date_?of_?birth|address|ssn|username)["'][ \t]*:""",
    re.IGNORECASE,
)


def _record_keys(text: str, spans: list[Span], lexicon: Lexicon | None) -> list[Span]:
    """A mapping's key whose value holds a person's fields is that person's user name,
    whatever the labels of the record made of it (a program's name: "mkhan"); a word
    is the record's kind ("users", "customer": {...})."""
    if "{" not in text or lexicon is None:
        return spans
    out = list(spans)
    for m in _RECORD_KEY.finditer(text):
        key = m.group("key")
        if _PERSON_FIELDS.search(m.group("body")) is None or any(
            lexicon.is_plain(w) or lexicon.zipf(w) >= 3.0 for w in re.split(r"[._-]+", key.lower()) if w
        ):
            continue
        a, b = m.span("key")
        if any(x.start < b and a < x.end for x in out):
            continue
        out.append(Span(a, b, EntityType.ID, 0.85, {MARKER: 0.85}))
    return sorted(out, key=lambda x: x.start)


#: An SSH key's fingerprint ("ED25519 SHA256:q3Vx8kLm..."): the key, and so its owner,
#: across every machine that logs it.
_KEY_FINGERPRINT = re.compile(r"(?<![\w/+])SHA256:[A-Za-z0-9+/]{43}(?![\w+/])")


def _key_fingerprints(text: str, spans: list[Span]) -> list[Span]:
    """Each key's fingerprint is one identifier, whatever the model made of it (a date
    run on from the next line's time)."""
    if "SHA256:" not in text:
        return spans
    out = list(spans)
    for m in _KEY_FINGERPRINT.finditer(text):
        a, b = m.span()
        out = [x for x in out if not (x.start < b and a < x.end)] + [
            Span(x.start, a, x.type, x.score, x.views) for x in out
            if x.start < a < x.end and text[x.start : a].strip()
        ]
        out.append(Span(a, b, EntityType.ID, 0.9, {MARKER: 0.9}))
    return sorted(out, key=lambda x: x.start)


#: Users of a machine's services, not of a person.
_SERVICE_USERS = frozenset(
    "root deploy admin administrator ubuntu ec2-user git www-data nobody postgres mysql "
    "oracle test guest user pi ftp backup daemon".split()
)


#: Senders of a chat export who name no one.
_NO_ONE_SENDS = frozenset("you me mum mom dad mummy daddy mam nan nana gran granny grandma grandpa".split())


#: A code in a table's cell: digits in groups ("06-0254-0719938-00", "049-091-850").
_CELL_CODE = re.compile(
    r"[A-Z]{0,4}[-\s]?\d[\d\-/. ]{2,30}[\dA-Z]"
    # letters, then groups of letters and digits: "WH-5K-0112" (a payment's reference)
    r"|[A-Z]{1,4}(?:-[A-Z0-9]{1,6}){1,4}",
    re.IGNORECASE,
)
#: The last word of a column's key that says its cells identify ("bank_account", "ird_number").
_NUMBER_KEY_END = frozenset(("account", "number", "no", "id", "iban", "ref", "reference", "passport"))


#: A column's key of codes: a person's code where the table names people in another column.
_CODE_KEYS = frozenset({"cód", "cod", "código", "codigo", "code", "emp code", "staff code", "code salarié", "kürzel", "code employé"})
#: A key's last word that numbers its rows in German, Dutch, French or Spanish, alone or
#: at a compound's end ("nr", "personalnummer", "klantnummer", "numéro", "núm").
_NUMBER_KEY_WORD = re.compile(r"\w*(?:nr|nummer|number)|n[°ºo]|num[eé]ro|n[uú]m(?:ero)?")


#: A view's span over a whole number cell below this score is too unsure to keep its type
#: (the fusion keeps a span of one view from 0.5): the column's key types it.
UNSURE_CELL_SCORE = 0.5


def _age_cells(text: str, spans: list[Span], tables: CsvTables) -> list[Span]:
    """The cells of a table's age column are ages ("client;adres;leeftijd" | "92"): the
    type policy decides them (over 89 an identifier), whatever a view made of the number
    or passed over."""
    if not tables.cells:
        return spans
    out = list(spans)
    for a, b, key in tables.cells:
        if _key_name(key) not in _AGE_KEYS:
            continue
        value = text[a:b]
        code = value.strip()
        if not (code.isdigit() and len(code) <= 3 and int(code) <= 125):
            continue
        start = a + len(value) - len(value.lstrip())
        end = start + len(code)
        out = [x for x in out if not (x.start < end and start < x.end)]
        out.append(Span(start, end, EntityType.AGE, 0.9, {RECORD: 0.9}))
    return sorted(out, key=lambda x: x.start)


def _number_cells(text: str, spans: list[Span], tables: CsvTables) -> list[Span]:
    """The cells of a table's column of numbers that identify ("bank_account", "ird_number",
    "policy_no") that no view found: a model unsure of one row of a CSV passes over it,
    though the column's key says what every row holds. Amounts' and dates' columns are
    left to the views (a date may be an event)."""
    if not tables.cells:
        return spans
    out = list(spans)
    # A column of codes beside a column of people ("| Cód | Apellidos y nombres |"): each
    # row's code is that person's, however short ("T-01").
    people = any(_key_type(k, text) is EntityType.PERSON for k in {k for _, _, k in tables.cells})
    for a, b, key in tables.cells:
        name = _key_name(key)
        if money_key(name):
            continue
        vt = VALUE_FIELD_TYPES.get(name)
        personal_code = people and name.strip(".") in _CODE_KEYS
        if vt is None and personal_code:
            vt = EntityType.ID
        last = name.rsplit(" ", 1)[-1]
        # ("Mitgl-Nr", "Personalnummer", "n° adhérent": a number key of the other languages)
        # (or its first: "nº socio", "n° adhérent")
        # ("Pers.-Nr.": the dots of an abbreviated key go)
        numbered = last.rstrip(".") in _NUMBER_KEY_END or any(_NUMBER_KEY_WORD.fullmatch(w.strip(".")) for w in name.split())
        if vt is None and numbered:
            vt = EntityType.ACCOUNT
        if vt is None or vt is EntityType.DATE:
            continue
        value = text[a:b]
        lead = len(value) - len(value.lstrip())
        code = value.strip()
        # (a member's "0417" under its key: four digits are enough where the key says so)
        if not _CELL_CODE.fullmatch(code) or sum(c.isdigit() for c in code) < (2 if personal_code else 4 if numbered else 5):
            continue
        start, end = a + lead, a + lead + len(code)
        over = [x for x in out if x.start < end and start < x.end]
        if over and not all(
            start <= x.start
            and x.end <= end
            and (
                # (a member's number under "lidnr" a model read as a name: digits name no one)
                (x.type in _NAME_TYPES and code.isdigit())
                or (
                    x.type in _VALUE_RETYPABLE
                    # (the whole code read as a date: a date has no capitals in it, "GOB-24-10-118" does;
                    # or read by a view too unsure of it to keep it: "2041" a phone at 0.4)
                    and (
                        (x.start, x.end) != (start, end)
                        or x.score < UNSURE_CELL_SCORE
                        or (x.type is EntityType.DATE and re.search(r"[A-Z]{2}", code))
                    )
                )
            )
            for x in over
        ):
            continue
        # (a piece of the code a view read as a date or a number, "24-10" of "GOB-24-10-118":
        # the whole code, its column's type)
        out = [x for x in out if x not in over]
        out.append(Span(start, end, checked_type(code, vt), 0.9, {RECORD: 1.0}))
    return sorted(out, key=lambda x: x.start)


#: An IPv4 address's port at the end of its span: group 1 is the colon and the port.
_IPV4_PORT = re.compile(r"\d{1,3}(?:\.\d{1,3}){3}(:\d{1,5})$")


def _without_port(text: str, a: int, b: int) -> int:
    """The end of ``text[a:b]`` without an IPv4 address's port."""
    m = _IPV4_PORT.search(text, a, b)
    return m.start(1) if m is not None else b


def refine(text: str, spans: Iterable[Span], lexicon: Lexicon | None = None) -> list[Span]:
    """Apply the rules of this module to ``spans`` of ``text``; return them merged."""
    tables = csv_tables(text)
    spans = cut_at_table_cells(text, list(spans), tables)
    # Touching pieces are one token's (the model reads "北京" one character at a time).
    spans = _whole_flights(text, join_names(text, _addressed(text, merge_spans(markers_win(list(spans), text)))))
    if not spans and not _keyed_values(text, [], lexicon):
        # Nothing found: only the public names the model passed over, outside the zones.
        brands = known_brands(text, [], lexicon)
        if brands:
            table = atoms(text)
            found = Zones([(*table.covering(a, b), r) for a, b, r in zones(text, lexicon, table)])
            brands = [x for x in brands if not found.overlapping(x.start, x.end)]
        flights = _flights_found(text, brands, lexicon)
        named = brands + flights + _word_names_found(text, brands + flights, lexicon)
        named += _given_names_found(text, named, lexicon)
        named += _relatives_in_lower_case(text, named, lexicon)
        named = _firms_in_apposition(text, named, lexicon)
        named += _unseen_given_in_lower_case(text, named, lexicon)
        named += _signed_given_name(text, named, lexicon)
        named += _given_before_compound_surname(text, named, lexicon)
        return merge_spans(named + _names_given_as_names(text, named, lexicon))
    spans += other_script_names(text, spans)
    # A table's cells are atoms of their own, whatever their separator glues together.
    table = cut_at_cells(atoms(text), [(a, b) for a, b, _ in tables.cells])
    cell_starts = [a for a, _, _ in tables.cells]
    columns = _aligned_columns(text)
    found = Zones(
        [
            *((*table.covering(a, b), reason) for a, b, reason in zones(text, lexicon, table)),
            *field_zones(fields(text)),
            # A table's header row names its columns, a form's key its value: labels.
            *((a, b, "label") for a, b in tables.headers),
            *((a, b, "label") for a, b in key_labels(text)),
            *((a, b, "label") for a, b in record_labels(text)),
        ]
    )
    cased = is_cased(text)
    kept: list[Span] = []
    for span in spans:
        if span.views.keys() & _KEEP_WHOLE:
            kept.append(span)
            continue
        span = _without_lower_tail(text, span, lexicon)
        span = _without_leading_term(text, _without_lower_head(text, span, lexicon), lexicon)
        span = _without_field_key(text, _without_address_label(text, _without_relation_head(text, span)))
        span = _without_platform_head(text, _without_record_label(text, span), lexicon)
        value = text[span.start : span.end]
        misread = _misread(text, span, value, lexicon, cased)
        if misread is not None:
            # What it is read as still yields to the zones ("salaries_2026.csv": a file's name).
            for piece in misread:
                kept.extend(apply_zones(text, piece, found, table, lexicon))
            continue
        if span.type in (EntityType.EMAIL, EntityType.URL) and not _ADDRESS_SIGN.search(value):
            # No "@", dot, colon or digit: no address but names the model typed like the
            # address next to them ("# Morgan Sparks\nLake Dominic · morgan.sparks@..."):
            # cut like names, typed below.
            pieces = _split_name_lines(text, _split_separators(text, span), lexicon)
        elif span.type in _ADDRESS_TYPES or (" " in value and host_names(value)):
            # Addresses and host names are single words ("nas.local or printer.lan").
            pieces = _split_words(text, span)
            if span.type is EntityType.IP:
                # "10.4.2.17:6379": the port says which service (Redis), not whose machine.
                pieces = [(a, _without_port(text, a, b)) for a, b in pieces]
        elif span.type in _VALUE_TYPES and "\n" in text[span.start : span.end]:
            # A number, a code or a date stands on one line: "5500 0000 0000 0004\nExp" is a
            # card number and the label of the next line.
            pieces = _split_lines(text, span.start, span.end)
        elif span.type in _NAME_TYPES:
            pieces = _split_name_lines(text, _split_separators(text, span), lexicon)
            if span.type is EntityType.ORG:
                pieces = [q for a, b in pieces for q in _split_two_firms(text, a, b)]
            if span.type is EntityType.PERSON and lexicon is not None:
                pieces = [q for a, b in pieces for q in _split_two_people(text, a, b, lexicon)]
        elif span.type is EntityType.ADDRESS:
            # An address may run over lines, never into the next line's label, never
            # across a signature's separator ("Browne, Godfrey and Parker · 136 Kerry Trail")
            # and never into the next sentence ("CVV 321. Billing postcode ...").
            pieces = _split_name_lines(
                text,
                [q for a, b in _split_open_bracket(text, span) for q in _split_items(text, a, b)],
                lexicon,
            )
        elif span.type in _CODE_TYPES and _CLI_FLAG.search(text, span.start, span.end):
            # "psql -h db1 -p 5432 -d ledger_prod" read as one identifier: a command's
            # options stay as written, each value is judged on its own.
            pieces, pos = [], span.start
            for flag in _CLI_FLAG.finditer(text, span.start, span.end):
                pieces.append((pos, flag.start()))
                pos = flag.end()
            pieces.append((pos, span.end))
            pieces = [(a, b) for a, b in pieces if text[a:b].strip()]
        elif span.type in _CODE_TYPES and _NEXT_SETTING.search(text, span.start, span.end):
            # "billing_admin POSTGRES_PASSWORD=Wint3r!..." (a model's span over two settings
            # of a line): each value is one of its own, each key stays as written.
            pieces, pos = [], span.start
            for setting in _NEXT_SETTING.finditer(text, span.start, span.end):
                pieces.append((pos, setting.start()))
                pos = setting.end()
            pieces.append((pos, span.end))
        else:
            pieces = _split_open_bracket(text, span)
        if span.type not in _ADDRESS_TYPES:
            pieces = [q for a, b in pieces for q in _split_sentence_after_number(text, a, b, lexicon)]
        if span.type is EntityType.ADDRESS and lexicon is not None:
            pieces = [q for a, b in pieces for q in _split_sentence_after_town(text, a, b, lexicon)]
        if tables.cells:
            pieces = [q for a, b in pieces for q in _cut_at_cells(a, b, tables.cells, cell_starts)]
        if columns:
            # ("01 Oct  BALANCE": a date, then the next column's word)
            pieces = [q for a, b in pieces for q in cut_at(_COLUMN_GAP, text, a, b)]
        typed = (
            _split_addresses(text, pieces, span.type)
            if span.type is not EntityType.IP
            else [(a, b, None) for a, b in pieces]
        )
        if span.type is EntityType.ADDRESS and lexicon is not None:
            typed = [q for a, b, t in typed for q in _name_before_address(text, a, b, t, lexicon)]
        if span.type in _NAME_TYPES and lexicon is not None:
            typed = [_party(text, a, b, t, lexicon, len(typed) > 1) for a, b, t in typed]
        if columns and len(typed) > 1 and span.type is not EntityType.DATE:
            # A table's date column cut from the words after it ("02 Oct  DD HALIFAX ...").
            typed = [(a, b, EntityType.DATE if _COLUMN_DATE.fullmatch(text, a, b) else t) for a, b, t in typed]
        for k, (a, b, t) in enumerate(typed):
            if k > 0 and t is None and not holds_word(text, table, a, b):
                # What ran past a separator into part of a word carries nothing.
                continue
            for piece in snap(text, [Span(a, b, t or span.type, span.score, span.views)], table):
                if k > 0:
                    # A piece cut from a longer span may begin with a role's abbreviation
                    # too ("CKD 3a. GP Dr Rhys Owen": "Dr Rhys Owen").
                    piece = _without_leading_term(text, piece, lexicon)
                kept.extend(apply_zones(text, piece, found, table, lexicon))
    kept = _role_cells(
        text, _name_cells(text, _name_field_types(text, _field_types(text, kept), tables), tables), tables
    )
    kept = _age_cells(text, _number_cells(text, kept, tables), tables)
    kept = _key_fingerprints(text, kept)
    kept = _log_users(text, _chat_senders(text, _keyed_values(text, _home_folders(text, kept), lexicon)))
    kept = _accounts_everywhere(text, kept)
    kept = _handles_on_platforms(text, kept, lexicon)
    kept = _record_keys(text, kept, lexicon)
    kept.sort(key=lambda x: x.start)
    kept_starts = [x.start for x in kept]
    persons = sorted(x.end for x in kept if x.type is EntityType.PERSON)
    out: list[Span] = []
    for span in kept:
        if span.views.keys() & _KEEP_WHOLE:
            out.append(span)
            continue
        retyped = retype(text, span, lexicon, cased)
        if retyped is None:
            continue
        span = retyped
        value = text[span.start : span.end]
        misread = _misread(text, span, value, lexicon, cased)
        if misread is not None:
            # A piece cut from a longer span ("Woking GU21 4QP. Current lender" at its full
            # stop, "Fenwick Road\nCan" at its line) is judged as the spans were.
            out.extend(misread)
            continue
        if cased and lexicon is not None and _sentence_word(text, span, value, lexicon):
            # "Woking GU21 4QP. Current lender is ...": a frequent word capitalized because
            # it begins a sentence, which the model ran into from the name before it.
            continue
        if span.type in _CODE_TYPES and (algo := _KEY_ALGORITHM.match(value)) is not None:
            # "ED25519 SHA256:9xQv...": the key's kind stays as written, its fingerprint goes.
            span = Span(span.start + algo.end(), span.end, span.type, span.score, span.views)
            value = text[span.start : span.end]
        if span.type in _CODE_TYPES and (scheme := _AUTH_SCHEME.match(value)) is not None:
            # "Authorization: Bearer eyJhbGci...": the scheme stays as written, the token goes.
            span = Span(span.start + scheme.end(), span.end, span.type, span.score, span.views)
            value = text[span.start : span.end]
        if span.type in _CODE_TYPES and (lead := _LEADING_LABEL.match(value)) is not None:
            # "(VAT PT514203870)": the label the model took in stays as written.
            span = Span(span.start + lead.end(), span.end, span.type, span.score, span.views)
            value = text[span.start : span.end]
        if (
            span.type in _CODE_TYPES
            and lexicon is not None
            and cased
            and (lead := _LEADING_NOUN.match(value)) is not None
            and all(_common_noun(w, lexicon) for w in re.findall(r"[a-z]+", lead.group(1)))
        ):
            # "forklift FL-07", "locker 114": the thing the code is on, a word in lower
            # case, stays as written; the code goes. (In a text written all in lower case
            # the word may be a name: "emirates ek703", "cvs #2147".)
            span = Span(span.start + lead.end(), span.end, span.type, span.score, span.views)
            value = text[span.start : span.end]
        if len(value) == 1 and value.isalpha() and text.startswith(":", span.end):
            # "E: staylor@...", "T: 0113 ...": a signature's one-letter key, no value.
            continue
        if (key := _line_key(text, span.start)) is not None:
            if span.end <= key.end(1):
                if span.type not in _PROPER_TYPES or "_" in key.group(1):
                    # "fallback_ip:", "App:": a form's or a config's key, no value.
                    continue
            elif span.end > key.end():
                # "LinkedIn: linkedin.com/in/...": the key the model took in stays as written.
                span = Span(key.end(), span.end, span.type, span.score, span.views)
                value = text[span.start : span.end]
                if span.type in _PROPER_TYPES and _WEB_PATH.fullmatch(value):
                    span = Span(span.start, span.end, EntityType.URL, span.score, span.views)
        if span.type in _DIGIT_TYPES and not any(c.isdigit() for c in value):
            # A phone, card or account number without a digit is a word the model
            # read next to one ("net" of "net 30").
            continue
        if _LABEL_MARK.fullmatch(value):
            continue  # "RD#", "PO#", "Ref.#": the label of the number after it
        if (
            lexicon is not None
            and set(_evidence(span)) == {"ner"}
            and (
                # "parcel" of "parcel 15501234567890", "Flight" of "Flight EZY 8473": a
                # dictionary's word (no one's name) before a number is what the number
                # is, no identifier.
                (span.type is EntityType.ID and value.isalpha()
                 and (value.islower() or (value.istitle() and value.lower() not in _ADDRESS_LEADS))
                 and lexicon.is_plain(value.lower()))
                # "protected with the dps": a scheme's acronym in lower case after an
                # article is a thing, no one's identifier.
                or (span.type is EntityType.ID and value.isalpha() and value.islower() and len(value) <= 5
                    and _ARTICLE_BEFORE.search(text, max(0, span.start - 6), span.start) is not None)
                # "IAM policy", "HbA1c test": terms and common words, no one's name; "TIA
                # clinic", "MRI department": a service by its kind, no organisation's name.
                or (span.type is EntityType.OTHER and _terms_and_words(value, lexicon))
                # (in a text written with capitals: "riverside gp practice" typed all in
                # lower case is a name).
                or (span.type is EntityType.ORG and cased and value.split()[-1].islower()
                    and _terms_and_words(value, lexicon))
                # "Brand identity package   £2,400.00": an invoice's line of dictionary
                # words, capitalized only where the line begins.
                or (span.type in (EntityType.ORG, EntityType.PERSON) and cased
                    and _plain_line_head(text, span, value, lexicon))
                # "w norovirus mon" in a message typed in lower case: an illness, no place
                # (an organisation of terms and words is a practice's name: "sunrise
                # pediatrics", "riverside gp practice").
                or (span.type in (EntityType.LOCATION, EntityType.PERSON) and not cased
                    and _terms_and_words(value, lexicon, chat=True))
            )
        ):
            continue
        if span.type in (EntityType.DATE, EntityType.ID) and _no_date(value):
            continue
        if _short_unlabelled_code(text, span, value, kept, lexicon):
            continue
        if (
            span.type in (EntityType.ID, EntityType.OTHER)
            and lexicon is not None
            and (m := _ORDINAL_HEAD.match(value)) is not None
            and int(m.group(1)) < 90
            and all(lexicon.is_plain(w) for w in value[m.end() :].split())
        ):
            # "will's 40th", "his 40th party": an ordinal is no identifier (an age of 90
            # or more is one: "her 94th" stays).
            continue
        if (
            span.type is EntityType.DATE
            and (m := _ORDINAL_HEAD.fullmatch(value)) is not None
            and 31 < int(m.group(1)) < 90
        ):
            # "his 40th": no month has that day.
            continue
        if (
            span.type in (EntityType.URL, EntityType.EMAIL)
            and not re.search(r"[./:@]", value)
            and _model_only(span)
        ):
            # A web or e-mail address has a dot, a colon or an "@": "host" of "at host
            # db-1.corp.lan" is the word before one that the model took for it; a
            # capitalized word ("I work for Flightstats") is a name it mistyped.
            if value.islower():
                continue
            # Two or more capitalized words are a person's name as often as anything.
            t = EntityType.PERSON if _PERSON_SHAPE.fullmatch(value) else EntityType.OTHER
            span = Span(span.start, span.end, t, span.score, span.views)
        if (
            span.type is EntityType.PERSON
            and text[span.start - 1 : span.start] == "("
            and text[span.end : span.end + 1] == ")"
            and _PRODUCT_BEFORE.search(text, max(0, span.start - 24), span.start)
        ):
            # "the badge system (Genetec Synergis)": the product's maker and name, no person.
            span = Span(span.start, span.end, EntityType.ORG, span.score, span.views)
        if (
            span.type in (EntityType.ID, EntityType.ACCOUNT)
            and not any(c.isdigit() for c in value)
            and (
                _VERSION_AFTER.match(text, span.end)
                or _VERSION_BEFORE.search(text, max(0, span.start - 16), span.start)
            )
        ):
            # "Spring Boot 3.2.4", "Ubuntu 22.04.4 LTS": a product and its release's
            # name beside a version number, no one's identifier.
            continue
        if span.type in (EntityType.PHONE, EntityType.ID) and (
            _SERVICE_NUMBER.fullmatch(value) or _EMERGENCY_NUMBERS.fullmatch(value)
        ):
            # "the card blocking line 116 116": a hotline every caller in Europe dials;
            # "Should I call 999 or 111?": the numbers every caller of a country dials.
            continue
        if (
            span.type in (EntityType.PERSON, EntityType.ORG, EntityType.OTHER)
            and _LOYALTY_NAME.search(value)
            and _SCHEME_NUMBER.match(text, span.end)
        ):
            # "Miles & More number 992 004 ...", "Gold Plus Rewards member 71948302": the
            # scheme names the record (the number after it is the member's), no one.
            continue
        if (
            span.type in (EntityType.ID, EntityType.ACCOUNT)
            and lexicon is not None
            and " " in value
            and not any(c.isdigit() for c in value)
            and any(w.islower() and lexicon.is_plain(w) for w in value.split())
        ):
            # "The IAM policy allows ...": an identifier has no space and a common word
            # between words of a code; this is a phrase the model read as one.
            continue
        if (
            span.type in (EntityType.PERSON, EntityType.ORG)
            and lexicon is not None
            and _SLASHED.fullmatch(value)
            and any(lexicon.is_plain(w) for w in value.split("/"))
        ):
            # "5 years of Spark/Kafka", "React/Redux": tools named together, no person
            # (two surnames, "Smith/Jones", stay a name).
            continue
        if span.type in _NAME_TYPES and _COURTESY.fullmatch(value):
            # "Kind regards," above a signature, "Many thanks": no one's name.
            continue
        if span.type is EntityType.PERSON and (g := _GREETING_HEAD.match(value)) and value[g.end() :][:1].isupper():
            # "Hi Edward": the greeting leaves as written, the name is replaced.
            span = Span(span.start + g.end(), span.end, span.type, span.score, span.views)
            value = text[span.start : span.end]
        if (
            (span.type is EntityType.ORG or (span.type is EntityType.PERSON and _ROLE_OF.fullmatch(value)))
            and lexicon is not None
            and _job_title(value, lexicon)
        ):
            # "Steven Salas, Senior Solicitor": a role many people hold, no organisation
            # and no one's name ("Head of Finance" under a signature's name); the type
            # policy judges it as a job title.
            span = Span(span.start, span.end, EntityType.OTHER, span.score, span.views)
        if span.type in (EntityType.URL, EntityType.ORG, EntityType.OTHER) and public_name(value):
            # "pypi.org", "storage.googleapis.com", "example.com": a public service or a
            # documentation domain names no one (core.detect.hosts).
            continue
        if span.type is EntityType.AGE and (m := re.search(r"\d+", value)) and int(m.group(0)) > 125:
            # "below 200" is no one's age.
            continue
        if _small_number(value) and span.type not in (EntityType.DATE, EntityType.ADDRESS):
            if ID_CONTEXT.search(text_before(text, span.start)) or FIELD in span.views:
                out.append(span)
            elif (
                span.type is EntityType.AGE
                or _AGE_CONTEXT.search(text_before(text, span.start))
                or _near_person(persons, span, text)
            ) and not ((m := re.search(r"\d+", value)) and int(m.group(0)) > 125):
                # ("is 137 the oom killer?": an exit code, no one's age)
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
        if (
            span.type in (EntityType.PERSON, EntityType.OTHER)
            and (m := _LIMIT_WORD.match(value)) is not None
            and (
                re.fullmatch(r"[ \t]+[$£€]?\d[\d.,]*", value[m.end() :])
                or (m.end() == len(value) and re.match(r"[ \t]*[$£€]?\d", text[span.end :]))
            )
        ):
            # "the policy says max 1 weekend in 4", "min 3 days": a limit, not Max.
            continue
        if (
            span.type is EntityType.PERSON
            and _model_only(span)
            and value[:1].isupper()
            and (d := _DETERMINER_BEFORE.search(text, max(0, span.start - 16), span.start))
            and (
                d.group(1) is not None
                or _MODEL_NUMBER.match(text, span.end)
                or (
                    lexicon is not None
                    and lexicon.public_kind(value.split()[0]) in ("brand", "company", "company-word")
                )
            )
        ):
            # "my 2016 Honda Civic", "the Ember Mug 2", "my Bosch Serie 4 dishwasher": a
            # name after an article or a possessive, with a model year, a model number or
            # a known brand, is a product's, not a person's ("our Sarah", "the Smith
            # family" stay people); it stays protected as an organisation's unless the
            # type policy knows its brand.
            span = Span(span.start, span.end, EntityType.ORG, span.score, span.views)
        if (
            span.type is EntityType.PERSON
            and lexicon is not None
            and value.isalpha()
            and value.islower()
            and lexicon.public_kind(value) in ("brand", "company")
            and _model_only(span)
        ):
            # "the pharmacist at boots": a known brand written in lower case is the brand,
            # not a person (a person whose name is a brand's is written with capitals
            # where the writer uses them, "Kevin Bosch").
            span = Span(span.start, span.end, EntityType.ORG, span.score, span.views)
        if (
            span.type is EntityType.PERSON
            and " " in value
            and value.istitle()
            and JOB_TITLE.fullmatch(value.split()[-1].casefold())
            and all(
                _TITLE_QUALIFIER.fullmatch(w) or JOB_TITLE.fullmatch(w) for w in value.casefold().split()[:-1]
            )
        ):
            # "Dr Paul Otieno, Consultant Rheumatologist": a signature's title after the
            # name, a job's words, no one's name.
            continue
        if span.type is EntityType.PERSON and KINSHIP.fullmatch(value):
            # "Mi madre", "ma mère", "meine Mutter": a relative named by the relation,
            # in the language a person writes about family in; no one's name.
            continue
        if span.type is EntityType.PERSON and (
            (value.islower() and (
                JOB_TITLE.fullmatch(value)
                # "loss adjuster", "claims handler": words in lower case before a job's noun
                or (cased and _LOWER_PHRASE.fullmatch(value) and JOB_TITLE.fullmatch(value.split()[-1]))
            ))
            # "| Dispenser |": one job's word with its capital that no one carries as a
            # surname ("Baker", "Mason" may be someone's).
            or (
                value.istitle()
                and value.isalpha()
                and JOB_TITLE.fullmatch(value.casefold())
                and lexicon is not None
                and not lexicon.is_surname(value)
                and not lexicon.is_given(value)
            )
        ):
            # "a consultant rheumatologist": a role in lower case is a job title, no one's name.
            span = Span(span.start, span.end, EntityType.OTHER, span.score, span.views)
        if (
            cased
            and span.type in _NAME_TYPES
            and value.isalpha()
            and value.islower()
            and _model_only(span)
            and lexicon is not None
            and not (lexicon.is_given(value) or lexicon.is_surname(value))
            and _BEFORE_JOB_TITLE.match(text, span.end) is not None
        ):
            # "consultant orthopaedic surgeon", "senior staff nurse": a word of a job's
            # title in lower case, before the title's noun, names no one.
            continue
        if (
            cased
            and span.type in _NAME_TYPES
            and value.islower()
            and not HANDLE.fullmatch(value)
            and not _known_in_lower_case(value, span.type, lexicon)
            and not JOB_TITLE.search(value)
            and span.views.get("ner", 0.0) < LOWER_IN_CASED
            and _model_only(span)
        ):
            # In a text written with capitals, a lower-case word the model was not
            # sure of is no name ("warehouse", "forklift", "salaried").
            continue
        if (
            span.type is EntityType.ID
            and lexicon is not None
            and value.isalpha()
            and value.islower()
            and span.views.get("ner", 0.0) < BARELY_ID
            and _model_only(span)
            and lexicon.zipf(value) >= FREQUENT_ID_WORD_ZIPF
        ):
            # A frequent English word the model barely took for an identifier: the
            # "main" of 'resource "aws_db_instance" "main"', no account's name.
            continue
        if (
            span.type is EntityType.OTHER
            and ner_only_unsure(span)
            and span.views.get("ner", 0.0) < BARELY
            and re.fullmatch(r"[A-Z]{2,8}|[^\w\s]*\w{1,3}[^\w\s]+\w*", value)
        ):
            # An acronym or a symbol the model barely took for "some other detail"
            # ("VLOOKUP", "#N/A").
            continue
        if (
            span.type is EntityType.OTHER
            and ner_only_unsure(span)
            and lexicon is not None
            and not JOB_TITLE.search(value)
            and not TITLE_CASE_NAME.fullmatch(value)
        ):
            found_words = re.findall(r"[^\W\d_]+", value)
            if found_words and all(
                len(w) >= 3 and lexicon.zipf(w) >= COMMON_ZIPF for w in found_words
            ):
                continue
        if (
            span.type is EntityType.PERSON
            and lexicon is not None
            and cased
            and words_not_a_name(text, span, lexicon)
        ):
            # "Notice of hearing", "Attachments (not opened)": common words that are no
            # one's name make a heading or a label, not a person.
            continue
        if ner_only_unsure(span) and (
            (lexicon is not None and _common_only(text, span, lexicon))
            or _unspaced_only(value)
        ):
            continue
        out.append(span)
    out = _house_number_cells(text, out, tables)
    out = _join_titled_names(text, _join_initials(text, [_read_again(text, x, lexicon) for x in out]))
    out = _with_final_surname(text, _with_final_initial(text, _vehicles(text, out, lexicon)), lexicon)
    out = _without_pets(text, _one_type_per_name(text, [_without_possessive(text, x) for x in out]))
    out = join_house_numbers(text, address_block(text, _with_header_names(text, out, lexicon), lexicon))
    out = _street_and_postcode(text, _join_unit_words(text, out))
    joined = join_legal_forms(
        text,
        join_firms(
            text, _with_ampersand_names(text, _with_units_before(text, _join_address_parts(text, out))), lexicon
        ),
    )
    joined = join_institutions(text, joined, lexicon)
    joined = _join_registrations(text, joined)
    joined = _public_names_in_lower_case(text, joined, lexicon)
    joined += _flights_found(text, joined, lexicon)
    joined += _word_names_found(text, joined, lexicon)
    joined += _given_names_found(text, joined, lexicon)
    joined += _relatives_in_lower_case(text, joined, lexicon)
    joined = _firms_in_apposition(text, joined, lexicon)
    joined += _unseen_given_in_lower_case(text, joined, lexicon)
    joined += _signed_given_name(text, joined, lexicon)
    joined += _given_before_compound_surname(text, joined, lexicon)
    joined += _names_given_as_names(text, joined, lexicon)
    joined += _listed_with_people(text, joined, lexicon)
    joined = _at_someones(text, _people_read_as_places(text, _address_lines(text, _door_numbers(text, joined)), lexicon))
    joined = _signed_as(text, _possessive_premises(text, _nicknames_of_named(text, joined, lexicon), lexicon), lexicon)
    # Nothing joined runs from one cell of a pasted table into the next ("H<TAB>Okoye").
    return cut_at_table_cells(
        text,
        merge_spans(
            _without_quotes(text, _with_final_dots(text, joined + known_brands(text, joined, lexicon, found)))
        ),
        tables,
    )


#: The view of a nickname the text tells is someone's (:func:`_nicknames_of_named`): a
#: person, though the word is a brand's too ("the admiral").
NICKNAME = "nickname"
#: Words in brackets after a nickname before the person's own name, in the five languages:
#: "der Igel (eigentlich Bernd Häberle", "la puce (en vrai elle s'appelle ginette ...",
#: "Kruimel (echte naam Sharmila ...", "sprout_lord (that's Efua)".
_REAL_NAME_INTRO = (
    r"real[ \t]+name(?:[ \t]+is)?|actually|irl|aka|a\.k\.a\.|i\.e\.|that'?s|that’s|born|"
    r"eigentlich|eigtl\.|richtig(?:er[ \t]+name)?|mit[ \t]+richtigem[ \t]+namen|das[ \t]+ist|"
    r"en[ \t]+vrai|en[ \t]+fait|de[ \t]+son[ \t]+vrai[ \t]+nom|vrai[ \t]+nom|c'est|c’est|"
    r"en[ \t]+realidad|de[ \t]+verdad|se[ \t]+llama|nombre[ \t]+real|"
    r"echte[ \t]+naam|eigenlijk|dat[ \t]+is|die[ \t]+heet"
)
#: A nickname, then the person's own name in brackets: a quoted one ("'moose' (dara
#: kilbride, ...)") or a word before the brackets' words that say it is a nickname.
_NICKNAME_BEFORE = re.compile(
    r"(?:(?P<q>['‘\"“«„]) ?(?P<quoted>[^\W\d][\w'’\-]*(?:[ \t][\w'’\-]+){0,2}) ?['’\"”»“]"
    r"|(?<![\w'’@.\-])(?P<word>[^\W\d][\w'’\-]*[^\W\d_]|[^\W\d]\w*_\w+))"
    rf"[ \t]*\([ \t]*(?P<intro>(?i:{_REAL_NAME_INTRO})\b[ \t:,]*)?"
)
#: Up to three words between those words and the name ("elle s'appelle").
_INTRO_WORDS = re.compile(r"(?:[^\W\d_][\w'’]*[ \t]+){0,3}")
#: The writer's handle in brackets after "me": "and me (quietkettle)".
_MY_HANDLE = re.compile(r"\b(?:me|myself)[ \t]*\([ \t]*(?P<handle>[\w.\-]*[^\W\d_][\w.\-]*)[ \t]*\)")
#: Someone called by a nickname in quotes: "everyone calls 'the admiral'", "known as
#: \"Tiny\"", "nicknamed 'Chalky'".
_CALLED_QUOTED = re.compile(
    r"\b(?:(?:everyone|everybody|all|we|they|people|friends|mates|lads|family|kids)[ \t]+"
    r"(?:\w+[ \t]+)?call(?:s|ed)?(?:[ \t]+(?:him|her|them))?|nicknamed|known[ \t]+as|goes[ \t]+by"
    # and in the other languages: '(dit "loulou")', 'genannt "Mucki"', 'alias "el Flaco"'
    r"|(?:(?<=\()|(?<=,[ \t]))dite?|alias|genannt|gezegd|apodad[oa]|llamad[oa]|conocid[oa][ \t]+como|surnomm[ée]e?"
    r"|l['’]appell?e(?:nt)?|noem(?:t|en)[ \t]+(?:hem|haar)|nenn(?:t|en)[ \t]+(?:ihn|sie)|l[eao][ \t]+(?:dicen|llaman))"
    r"[ \t]+['‘\"“«][ \t]?(?:the[ \t]+|el[ \t]+|la[ \t]+|le[ \t]+)?(?P<nick>[^\W\d][\w'’\-]*(?:[ \t][\w'’\-]+){0,1})[ \t]?['’\"”»]"
)


def _nicknames_of_named(text: str, spans: list[Span], lexicon: Lexicon | None) -> list[Span]:
    """A person's nickname where the text names the person beside it: a nickname in quotes
    before the person's own name in brackets ("'moose' (dara kilbride, 6ft5)"), a word
    before brackets that say the name after it is the real one ("der Igel (eigentlich Bernd
    Häberle", "sprout_lord (that's Efua)"), or a nickname in quotes after "everyone calls".
    The nickname is often a word ("moose", "Kruimel", "puce"): only the brackets' person
    say it is a name. A relation or role word before the brackets ("my client (John
    Smith)") is no nickname, nor is a word of a list's function words."""
    if "(" not in text and not any(q in text for q in "'\"‘“«") and message_language(text) not in _CALLED_BY:
        return spans
    out: list[Span] = []
    persons = [s for s in spans if s.type is EntityType.PERSON]
    if "(" in text and persons:
        for m in _NICKNAME_BEFORE.finditer(text):
            inner = m.end()
            if not any(
                inner <= s.start <= inner + 40 and _INTRO_WORDS.fullmatch(text, inner, s.start)
                for s in persons
                if m.group("intro") is not None or s.start == inner
            ):
                continue
            if m.group("quoted") is not None:
                a, b = m.span("quoted")
            else:
                a, b = m.span("word")
                word = m.group("word")
                spoken = _spoken_article_before(text, a)
                if m.group("intro") is None and "_" not in word and not spoken:
                    continue
                if lexicon is not None and "_" not in word and (
                    word.casefold() in _NOT_NICKNAMES or lexicon.zipf(word.casefold()) >= _NICKNAME_ZIPF
                ):
                    continue
                # ("de Rosse zoals ze hem hier noemen (eigenlijk ...)": a verb of the
                # message's language before the brackets, no nickname)
                other = locale(message_language(text))
                # (after a spoken article the nickname may be a frequent word: "la Nena")
                limit = _CALLED_ZIPF + (1.0 if spoken else 0.0)
                if other is not None and "_" not in word and (other.is_negative(word) or other.zipf(word) >= limit):
                    continue
            if text[a:b].casefold().startswith("the "):
                a += 4
            out.append(Span(a, b, EntityType.PERSON, 0.6, {NICKNAME: 0.6}))
    for m in _CALLED_QUOTED.finditer(text):
        out.append(Span(*m.span("nick"), EntityType.PERSON, 0.6, {NICKNAME: 0.6}))
    lang = message_language(text)
    called = _CALLED_BY.get(lang)
    lc = locale(lang) if called is not None else None
    if called is not None and lc is not None:
        for m in called.finditer(text):
            group = "w" if m.group("w") is not None else "w2"
            word = m.group(group)
            if len(word) >= 3 and not lc.is_negative(word) and not lc.is_particle(word) and lc.zipf(word) < _CALLED_ZIPF:
                out.append(Span(*m.span(group), EntityType.PERSON, 0.6, {NICKNAME: 0.6}))
    for m in _MY_HANDLE.finditer(text):
        handle = m.group("handle")
        if lexicon is not None and not ("_" in handle or any(c.isdigit() for c in handle)) and (
            lexicon.is_plain(handle.casefold()) or lexicon.zipf(handle.casefold()) >= _NICKNAME_ZIPF - 2
        ) and not lexicon.is_given(handle):
            continue
        out.append(Span(*m.span("handle"), EntityType.PERSON, 0.6, {NICKNAME: 0.6}))
    # A model's other reading of the same word yields ("sprout_lord" read as a thing).
    new = [x for x in out if not any(s.start < x.end and x.start < s.end and s.type is EntityType.PERSON for s in spans)]
    return [x for x in spans if not any((x.start, x.end) == (n.start, n.end) for n in new)] + new


#: A place's one word with a possessive: a business named after its owner ("we're meeting
#: at mulvanerty's in kilfenora", "Gallagher's"), no town.
_POSSESSIVE_WORD = re.compile(r"[^\W\d_][\w\-]*[^\W\d_]['’]s")


def _possessive_premises(text: str, spans: list[Span], lexicon: Lexicon | None) -> list[Span]:
    """A place found as one word with a possessive ("mulvanerty's", read as a place and
    sent at the default level) is a pub's, a shop's or a firm's name: an organisation,
    unless a list knows it as a place or a public name ("McDonald's")."""
    if lexicon is None or not any(q in text for q in "'’"):
        return spans
    out = []
    for x in spans:
        if x.type is EntityType.LOCATION and _POSSESSIVE_WORD.fullmatch(text, x.start, x.end):
            value = text[x.start : x.end]
            if lexicon.public_kind(value) is None and lexicon.public_kind(value[:-2]) is None:
                x = Span(x.start, x.end, EntityType.ORG, x.score, x.views)
        out.append(x)
    return out


#: A house's number as India writes it, after its label: "Door No. 7-3-118", "H.No.
#: 12-2-823/A", "D.No. 45-6-12".
_DOOR_NUMBER = re.compile(
    r"\b(?:[Dd]oor|[Hh]ouse|[Ff]lat|[Pp]lot|D|H)\.?[ \t]*[Nn]o\.?[ \t]*:?[ \t]*(?P<number>\d{1,4}(?:[-/][\dA-Za-z]{1,4}){1,4})\b"
)


_RELATION_ABBREVIATION = re.compile(r"[RSDWCrsdwc]/[Oo]\.?|(?:Smt|Shri|Sri|Kum|Km)\.?")


def _door_numbers(text: str, spans: list[Span]) -> list[Span]:
    """A house's number after "Door No." or "H.No." is an address, joined with the
    address after it ("Door No. 7-3-118, Gandhi Nagar, Kakinada"): a model had read its
    digits and dashes as two dates, sent at the default level."""
    if "o." not in text and "o " not in text:
        return spans
    # "R/o", "S/o", "D/o", "W/o", "C/o" (resident, son, daughter, wife, care of) are the
    # words before a person or an address, no organisation.
    out = [x for x in spans if not _RELATION_ABBREVIATION.fullmatch(text, x.start, x.end)]
    for m in _DOOR_NUMBER.finditer(text):
        a, b = m.span("number")
        # ("Door No" read as a thing: the label stays as written)
        out = [x for x in out if not (m.start() <= x.start and x.end <= a)]
        over = [x for x in out if x.start < b and a < x.end]
        if any(x.type is EntityType.ADDRESS for x in over) or any(
            x.start < m.start() or x.end > b or x.type not in _VALUE_TYPES for x in over
        ):
            continue
        out = [x for x in out if x not in over]
        nxt = [x for x in out if x.type is EntityType.ADDRESS and _COMMA_GAP.fullmatch(text, b, x.start)]
        if nxt:
            out.remove(nxt[0])
            b = nxt[0].end
        out.append(Span(a, b, EntityType.ADDRESS, 0.85, {RECORD: 0.85}))
    return sorted(out, key=lambda x: (x.start, x.end))


#: A form's line of an address: its key, then a value with a digit (a house number, a
#: postcode) on the rest of the line.
_ADDRESS_LINE = re.compile(
    r"(?m)^[ \t]*(?:[-*•][ \t]+)?(?P<key>[^\W\d_][^\W\d_ .\-/]*(?:[ \t.\-/][^\W\d_]+){0,3})[ \t]*:[ \t]*"
    r"(?P<value>[^\n]{0,100}?\d[^\n]{0,100}?)[ \t]*$"
)
#: A key of an address with the word that says which ("Current address", "Billing address");
#: "Time at address" is no address.
_QUALIFIED_ADDRESS = re.compile(
    r"(?:current|home|previous|prior|postal|billing|delivery|shipping|correspondence|residential|"
    r"permanent|street|full|new|old|patient|client|customer|employee|property|registered|"
    r"forwarding|contact)(?: address)+"
)
#: Keys of addresses no one lives at.
_NO_DWELLING_KEY = re.compile(r"mail|\bip\b|\bmac\b|web|url|wallet|server|host|ipv", re.IGNORECASE)


def _address_lines(text: str, spans: list[Span]) -> list[Span]:
    """The whole value of a form's address line is the address ("Dirección: pasaje los
    aromos 1187, villa el sauce": the views had found nothing, or only the number): its
    key says so, in any of the languages whose keys :func:`_key_type` knows; a value
    with an "@", a web address or no letter is left to the views."""
    if ":" not in text:
        return spans
    out = list(spans)
    for m in _ADDRESS_LINE.finditer(text):
        key = m.group("key")
        if _NO_DWELLING_KEY.search(key):
            continue
        kind = _key_type(key, text)
        if kind is None and _QUALIFIED_ADDRESS.fullmatch(_key_name(key)):
            kind = EntityType.ADDRESS
        value = m.group("value")
        if kind is not EntityType.ADDRESS or "@" in value or "://" in value or not re.search(r"[^\W\d_]{2}", value):
            continue
        a, b = m.span("value")
        inside = [x for x in out if a <= x.start and x.end <= b]
        if any(x.start < a < x.end or x.start < b < x.end for x in out):
            continue
        if len(inside) == 1 and (inside[0].start, inside[0].end, inside[0].type) == (a, b, EntityType.ADDRESS):
            continue
        out = [x for x in out if x not in inside]
        out.append(Span(a, b, EntityType.ADDRESS, 0.85, {RECORD: 0.85}))
    return sorted(out, key=lambda x: (x.start, x.end))


#: "chez" and the name after it: someone's home or business ("le tabac chez dédé", "la
#: Friterie Chez Calo"), never a town.
_CHEZ = re.compile(r"\b[Cc]hez[ \t]+(?P<name>[^\W\d_][\w'’\-]*[^\W\d_])(?![\w'’\-])")


def _at_someones(text: str, spans: list[Span]) -> list[Span]:
    """The name after French "chez": a place found there is someone's business ("Friterie
    Chez Calo", read as a town and sent), an organisation; a word in lower case there
    that French knows as a given name and hardly writes otherwise is a person ("chez
    dédé")."""
    if "hez" not in text or _CHEZ.search(text) is None:
        return spans
    fr = locale("fr")
    if fr is None:
        return spans
    out = list(spans)
    for m in _CHEZ.finditer(text):
        a, b = m.span("name")
        over = [k for k, x in enumerate(out) if x.start < b and a < x.end]
        if over:
            for k in over:
                x = out[k]
                if x.type is EntityType.LOCATION and x.start == a:
                    out[k] = Span(x.start, x.end, EntityType.ORG, x.score, x.views)
            continue
        word = m.group("name")
        if word.islower() and fr.is_known_name(word) and not fr.is_negative(word) and fr.zipf(word) < 4.0:
            out.append(Span(a, b, EntityType.PERSON, 0.6, {GIVEN_NAME_VIEW: 0.6}))
    return sorted(out, key=lambda x: (x.start, x.end))


#: The last word of a place's name that a person's never is ("Jackson Heights").
_PLACE_TAILS = frozenset(
    "heights falls park hill hills street road lane avenue square green bridge bay beach "
    "springs valley city town village county island islands point harbour harbor port "
    "mount lake river wood woods field fields cross gate gardens estate".split()
)


def _people_read_as_places(text: str, spans: list[Span], lexicon: Lexicon | None) -> list[Span]:
    """A place of two to four capitalized words that begins with a given name, then words
    no dictionary and no list of places holds, is a person ("despedir a Wilson Quispe
    Mamani", read as a place and sent at the default level)."""
    if lexicon is None:
        return spans
    out = []
    for x in spans:
        if x.type is EntityType.LOCATION and RECORD not in x.views:
            words = text[x.start : x.end].split()
            if (
                2 <= len(words) <= 4
                and all(w[:1].isupper() and w.replace("-", "").replace("'", "").isalpha() for w in words)
                and lexicon.is_given(words[0])
                and lexicon.public_kind(words[0]) is None
                and lexicon.public_kind(" ".join(words)) is None
                and words[-1].casefold() not in _PLACE_TAILS
                and not any(lexicon.is_plain(w.casefold()) or lexicon.public_kind(w) is not None for w in words[1:])
            ):
                x = Span(x.start, x.end, EntityType.PERSON, x.score, x.views)
        out.append(x)
    return out


#: Who signs the note asked for: "Sign it from Wenna at the yellow house", "sign it as Bea".
_SIGN_FROM = re.compile(
    r"\b[Ss]ign(?:ed)?(?:[ \t]+(?:it|this|them|off))?[ \t]+(?:from|as|by)[ \t]+"
    r"(?P<name>[A-Z][a-z'’\-]+(?:[ \t][A-Z][a-z'’\-]+)?)\b"
)


def _signed_as(text: str, spans: list[Span], lexicon: Lexicon | None) -> list[Span]:
    """The name a note is to be signed with is a person's ("Sign it from Wenna": a model
    had read a Cornish given name as a place, sent at the default level), unless it is a
    dictionary's word or a public name ("sign it from Accounts")."""
    if lexicon is None or _SIGN_FROM.search(text) is None:
        return spans
    out = list(spans)
    for m in _SIGN_FROM.finditer(text):
        a, b = m.span("name")
        name = m.group("name")
        if lexicon.public_kind(name) is not None or lexicon.is_plain(name.split()[0].casefold()):
            continue
        over = [x for x in out if x.start < b and a < x.end]
        if any(x.type is EntityType.PERSON for x in over) or any(x.start < a or x.end > b for x in over):
            continue
        out = [x for x in out if x not in over]
        out.append(Span(a, b, EntityType.PERSON, 0.6, {GIVEN_NAME_VIEW: 0.6}))
    return sorted(out, key=lambda x: (x.start, x.end))


#: Someone called by a nickname without quotes, in the four languages with rules: "iedereen
#: noemt hem kleine moes", "de Rosse zoals ze hem hier noemen", "im dorf heißt er nur der
#: Igel", "tout le monde l'appelle nana", "le dicen el chato".
_CALLED_BY = {
    "nl": re.compile(
        r"\b(?:noemt|noemen)[ \t]+(?:hem|haar|ze)[ \t]+(?:hier[ \t]+|gewoon[ \t]+|altijd[ \t]+)?"
        r"(?:de[ \t]+|het[ \t]+)?(?:(?:kleine|grote|dikke|lange|ome|tante|rooie|ouwe)[ \t]+)?(?P<w>[^\W\d_][\w'’\-]+)"
        r"|\b(?:de[ \t]+|het[ \t]+)?(?P<w2>[A-Z][\w'’\-]+)[ \t]+zoals[ \t]+(?:ze|men|iedereen)[ \t]+(?:hem|haar)[ \t]+(?:hier[ \t]+)?noem(?:t|en)\b"
    ),
    "de": re.compile(
        r"\b(?:heißt|heisst)[ \t]+(?:er|sie)[ \t]+(?:nur|bloß|bloss|bei[ \t]+uns|überall|hier)[ \t]+(?:der|die|das)[ \t]+(?P<w>[^\W\d_][\w'’\-]+)"
        r"|\b(?:nennen|nennt)[ \t]+(?:ihn|sie)[ \t]+(?:alle[ \t]+|nur[ \t]+)?(?:(?:der|die|den)[ \t]+)?(?P<w2>[^\W\d_][\w'’\-]+)"
    ),
    "fr": re.compile(
        r"\b(?:l['’]appell?e(?:nt)?|on[ \t]+l['’]appell?e|surnomm[ée]e?)[ \t]+(?:[«\"“][ \t]*)?(?:(?:la|le|les)[ \t]+)?(?P<w>[^\W\d_][\w'’\-]+)"
    ),
    "es": re.compile(
        r"\b(?:le|la|lo)[ \t]+(?:dicen|llaman|decimos|llamamos|apodan)[ \t]+(?:(?:el|la)[ \t]+)?(?P<w>[^\W\d_][\w'’\-]+)"
        r"|\balias[ \t]+(?:(?:el|la)[ \t]+)?(?P<w2>[^\W\d_][\w'’\-]+)"
    ),
}
#: A nickname told so is a word its language writes at most this often ("moes" 3.1,
#: "Rosse" 3.1, "Igel" 3.6); "een held", "comme ça" are no nicknames.
_CALLED_ZIPF = 4.0


def _spoken_article_before(text: str, pos: int) -> bool:
    """An article people put before a nickname in speech right before ``pos``, in a
    language that does so ("la Nena (María Esther Lombardi)", "el cuqui (antonio ...)",
    "der Igel (Bernd ...)"): the word is what the person is called."""
    lc = locale(message_language(text))
    if lc is None or not lc.person_articles:
        return False
    m = re.search(r"(?<![\w'’-])(\w+)[ \t]+$", text[max(0, pos - 12) : pos])
    return m is not None and m.group(1).casefold() in {a.casefold() for a in (*lc.person_articles, *lc.name_contractions)}


#: Words before brackets with a person's name that are the person's role or relation, no
#: nickname ("my client (John Smith)", "unser Nachbar (eigentlich ...").
_NOT_NICKNAMES = frozenset(
    "client patient customer tenant landlord neighbour neighbor boss manager colleague friend "
    "son daughter mother father mum mom dad brother sister wife husband partner child baby "
    "nachbar nachbarin kollege kollegin chef chefin vater mutter sohn tochter mann frau "
    "voisin voisine collègue patron fils fille mère père mari femme "
    "vecino vecina jefe jefa hijo hija madre padre marido mujer compañero compañera "
    "buurman buurvrouw collega baas zoon dochter moeder vader man vrouw "
    "he she him her who whom which this that er sie il elle él ella hij zij".split()
)
#: A word before such brackets this frequent in English is a sentence's word, no nickname
#: ("it's fine (actually John said ..."): nicknames that are words are rarer ("moose" 3.4).
_NICKNAME_ZIPF = 5.0


#: What stands between the names of a list: "kasia, tobenna, ffion", "Ama and Kofi".
_LIST_GAP = r"[ \t]*(?:,|&|\+|/)[ \t]*|[ \t]+and[ \t]+"
_LIST_GAP_RE = re.compile(_LIST_GAP)
_LISTED_AFTER = re.compile(rf"(?:{_LIST_GAP})([^\W\d_][^\W\d_'’\-]*(?:[-'’][^\W\d_]+)?)(?=(?:{_LIST_GAP})|[ \t]*[).;:\n]|[ \t]*$)")
#: A word of a list this frequent in English is a word, not someone's name.
_LISTED_NAME_ZIPF = 3.0


def _listed_with_people(text: str, spans: list[Span], lexicon: Lexicon | None) -> list[Span]:
    """A word no view found, in a list of two people or more ("col B is who paid (kasia,
    tobenna, ffion, me)"): a rare word of English, no dictionary's or a term, between or
    after the people's names, is one more person's name. Only English's: the four other
    languages have their own (``core.language_detector``)."""
    if lexicon is None or message_language(text) != ENGLISH:
        return []
    persons = sorted((s for s in spans if s.type is EntityType.PERSON), key=lambda x: x.start)
    if len(persons) < 2:
        return []
    out: list[Span] = []
    for p, q in itertools.pairwise(persons):
        if _LIST_GAP_RE.fullmatch(text, p.end, q.start) is None:
            continue  # two people in one list, side by side
        pos = q.end
        while (m := _LISTED_AFTER.match(text, pos)) is not None:
            a, b = m.span(1)
            word = m.group(1)
            if any(x.start < b and a < x.end for x in spans):
                pos = b
                continue
            if (
                len(word) < 3
                or (word[0].isupper() and not word[1:].islower())
                # written as the listed people are: "kasia, tobenna, ffion"; "Ama, Kofi, Efua"
                or word.islower() != text[q.start : q.end].islower()
                or lexicon.zipf(word.lower()) >= _LISTED_NAME_ZIPF
                or lexicon.is_plain(word.lower())
                or lexicon.is_term(word.lower())
            ):
                break
            out.append(Span(a, b, EntityType.PERSON, 0.6, {"rules": 0.6}))
            pos = b
    return out


def _public_names_in_lower_case(text: str, spans: list[Span], lexicon: Lexicon | None) -> list[Span]:
    """In English typed without capitals, one to three found spans a space apart that
    together are a company or a brand the lexicon knows ("aer" | "lingus" read as a
    person and something else; "dyson" read as a code) are that public name, one
    organisation the type policy decides as such. One word only when it is no one's name
    and no dictionary's word (see :func:`known_brands`)."""
    if lexicon is None or is_cased(text) or message_language(text) != ENGLISH:
        return spans
    ordered = sorted(spans, key=lambda x: (x.start, x.end))
    out: list[Span] = []
    k = 0
    while k < len(ordered):
        hit = None
        for n in (3, 2, 1):
            group = ordered[k : k + n]
            if len(group) < n or any(
                not re.fullmatch(r"[ \t]", text[x.end : y.start]) for x, y in itertools.pairwise(group)
            ):
                continue
            a, b = group[0].start, group[-1].end
            value = text[a:b]
            if lexicon.public_kind(value) not in _BRAND_KINDS or not value.islower():
                continue
            if " " not in value and (
                lexicon.is_given(value) or lexicon.is_surname(value) or lexicon.is_plain(value) or len(value) < 4
            ):
                continue
            hit = Span(a, b, EntityType.ORG, max(x.score for x in group), {LEXICON_VIEW: LEXICON_SCORE})
            k += n
            break
        if hit is None:
            out.append(_brand_head(text, ordered[k], lexicon))
            k += 1
        else:
            out.append(hit)
    return out


def _brand_head(text: str, span: Span, lexicon: Lexicon) -> Span:
    """A span that begins with a brand the lexicon knows, then dictionary words only
    ("dyson support", "lenovo yoga laptop" read as a person): an organisation, the brand
    and what of it the words name."""
    words = text[span.start : span.end].split()
    if span.type is EntityType.ORG or len(words) < 2 or not text[span.start : span.end].islower():
        return span
    for n in (2, 1):
        head = " ".join(words[:n])
        if len(words) > n and lexicon.public_kind(head) in _BRAND_KINDS and not lexicon.is_given(head):
            rest = words[n:]
            if all(lexicon.is_plain(w) or lexicon.zipf(w) >= _FREQUENT_WORD_ZIPF for w in rest):
                # (whole: the type policy reads a brand's product as public, "lenovo yoga laptop")
                return Span(span.start, span.end, EntityType.ORG, span.score, {**span.views, LEXICON_VIEW: LEXICON_SCORE})
    return span


#: A given name in lower case, then a surname of two parts joined by an apostrophe or a
#: hyphen ("faith o'donoghue-mensah", "joy adjei-mensah").
_GIVEN_COMPOUND = re.compile(r"(?<![\w'’-])([a-z]{3,})[ \t]+([a-z]+(?:['’][a-z]+|-[a-z]+)+)(?![\w'’-])")


def _given_before_compound_surname(text: str, spans: Sequence[Span], lexicon: Lexicon | None) -> list[Span]:
    """In a message written in lower case, a given name before a compound surname is a
    person, however the model read the surname (as a code run on to the next values:
    "faith o'donoghue-mensah 81f, hosp no ..."); the name is whole when nothing holds the
    surname, else the given name alone, beside what does."""
    if lexicon is None or is_cased(text) or message_language(text) != ENGLISH:
        return []
    out: list[Span] = []
    for m in _GIVEN_COMPOUND.finditer(text):
        given = m.group(1)
        if not lexicon.is_given(given) or lexicon.zipf(given) >= 5.5:
            continue
        (a, b), (c, d) = m.span(1), m.span(2)
        if any(x.start < b and a < x.end for x in spans):
            continue
        held = any(x.start < d and c < x.end for x in spans)
        out.append(Span(a, b if held else d, EntityType.PERSON, 0.6, {GIVEN_NAME_VIEW: 0.6}))
    return out


#: The word for a vehicle before its make and model: "my car (Ford Focus", "our van, a".
_VEHICLE_WORD = re.compile(
    r"\b(?:car|van|vehicle|motorbike|motorcycle|pickup|truck|lorry|hatchback|suv)\b",
    re.IGNORECASE,
)
_MODEL_YEAR = re.compile(r"\b(?:19|20)\d\d[ \t]+[A-Z]")
_PLATE_WORD = re.compile(r"\b(?:reg|registration|number plate|plate|VRM)\b", re.IGNORECASE)
#: A car's colour before its make: "a silver Audi A3".
_COLOUR_FIRST = re.compile(
    r"(?:silver|black|white|red|blue|grey|gray|green|yellow|orange|gold|brown|maroon|navy|beige)[ \t]+(?=[A-Z])"
)
#: A registration plate's word right after a car's make and model: "Audi A3, registration".
_PLATE_AFTER = re.compile(r",?[ \t]*\(?(?:reg(?:istration)?\.?|number plate|plate|VRM)\b", re.IGNORECASE)
_VEHICLE_BEFORE = re.compile(
    rf"{_VEHICLE_WORD.pattern}[ \t]*(?:[,:(][ \t]*|[ \t]+(?:is|was)[ \t]+)?(?:(?:a|an|the)[ \t]+)?$"
    # a model year: "a PCP on a 2021 VW Golf"
    r"|\b(?:a|an|my|our|the|his|her)[ \t]+(?:19|20)\d\d[ \t]+$",
    re.IGNORECASE,
)


def _vehicles(text: str, spans: list[Span], lexicon: Lexicon | None) -> list[Span]:
    """A car's make and model after the word for it are one product ("my car (Ford Focus,
    reg ...)" read as a person "Ford" and a name "Focus"): an organisation's product, which
    the type policy judges by its make."""
    if lexicon is None or not (
        _VEHICLE_WORD.search(text) or _MODEL_YEAR.search(text) or _PLATE_WORD.search(text)
    ):
        return spans
    out: list[Span] = []
    skip: set[int] = set()
    ordered = sorted(spans, key=lambda s: s.start)
    for i, x in enumerate(ordered):
        if i in skip:
            continue
        words = text[x.start : x.end].split()
        if x.type in _NAME_TYPES and len(words) > 1 and (colour := _COLOUR_FIRST.match(text, x.start)):
            # "a silver Audi A3": the car's colour a model ran into stays as written.
            x = Span(colour.end(), x.end, x.type, x.score, x.views)
            words = words[1:]
        if (
            x.type in _NAME_TYPES
            and words
            and lexicon.public_kind(words[0]) in _BRAND_KINDS
            and (
                _VEHICLE_BEFORE.search(text, max(0, x.start - 30), x.start)
                or _PLATE_AFTER.match(text, x.end)
            )
        ):
            end = x.end
            nxt = ordered[i + 1] if i + 1 < len(ordered) else None
            if (
                len(words) == 1
                and nxt is not None
                and nxt.type in _NAME_TYPES
                and text[x.end : nxt.start] == " "
                and _CAPITALIZED_WORD.fullmatch(text, nxt.start, nxt.end)
            ):
                end = nxt.end
                skip.add(i + 1)
            out.append(Span(x.start, end, EntityType.ORG, x.score, x.views))
            continue
        out.append(x)
    return out


#: A surname's initial after a given name, then a colon, a comma or the line's end:
#: "Kelly M.: hi", "from Sam K., the landlord".
_FINAL_INITIAL = re.compile(r"[ \t][A-Z]\.(?=[:,;)]|[ \t]*$)", re.MULTILINE)


def _with_final_initial(text: str, spans: list[Span]) -> list[Span]:
    """A person's given name takes the initial of the surname written after it ("Kelly M."
    of a chat log): the initial is part of who they are, and left alone it reads as a
    date's or a code's piece."""
    return [
        Span(x.start, m.end(), x.type, x.score, x.views)
        if x.type is EntityType.PERSON
        and " " not in text[x.start : x.end]
        and (m := _FINAL_INITIAL.match(text, x.end)) is not None
        else x
        for x in spans
    ]


#: A capitalized word closing a line or a clause after a given name: "- Rhiannon Price".
_DAY_OR_MONTH_WORD = re.compile(
    r"(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day|January|February|March|April|May|June|July|"
    r"August|September|October|November|December"
)
_FINAL_SURNAME = re.compile(r"[ \t]+([A-Z][a-z]+(?:-[A-Z][a-z]+)?)(?=[ \t]*(?:$|[\n,.;!?)]))", re.MULTILINE)


def _with_final_surname(text: str, spans: list[Span], lexicon: Lexicon | None) -> list[Span]:
    """A given name alone takes the surname written right after it where the name ends a
    line or a clause ("Make it polite but firm. - Rhiannon Price": "Price", a plain word,
    left alone would leave in clear beside the placeholder)."""
    if lexicon is None:
        return spans
    starts = {x.start for x in spans}
    out = []
    for x in spans:
        m = _FINAL_SURNAME.match(text, x.end) if x.type is EntityType.PERSON else None
        if (
            m is not None
            and m.start(1) not in starts
            and " " not in text[x.start : x.end]
            and lexicon.is_given(text[x.start : x.end].lower())
            and lexicon.is_surname(m.group(1).lower())
            and lexicon.public_kind(m.group(1)) is None
            and not _DAY_OR_MONTH_WORD.fullmatch(m.group(1))
        ):
            x = Span(x.start, m.end(1), x.type, x.score, x.views)
        out.append(x)
    return out


#: An initial's full stop and the space before the surname.
_INITIAL_GAP = re.compile(r"\.?[ ]|\.\t")


def _join_initials(text: str, spans: list[Span]) -> list[Span]:
    """An initial and the surname after it are one person ("care assistant T. Okafor",
    read as a person "T" and an organisation "Okafor")."""
    out: list[Span] = []
    for x in sorted(spans, key=lambda s: s.start):
        prev = out[-1] if out else None
        if (
            prev is not None
            and (
                prev.type is EntityType.PERSON
                # "Mr K. Osei": an initial after a title, whatever the model typed it
                or _TITLE_THEN_SPACE.search(text, max(0, prev.start - 8), prev.start) is not None
            )
            and prev.end - prev.start == 1
            and text[prev.start].isupper()
            and x.type in _PROPER_TYPES
            and _INITIAL_GAP.fullmatch(text, prev.end, x.start)
            and _CAPITALIZED_WORD.fullmatch(text, x.start, x.end)
        ):
            out[-1] = Span(prev.start, x.end, EntityType.PERSON, max(prev.score, x.score), {**x.views, **prev.views})
            continue
        out.append(x)
    return out


#: Two or three words in lower case: "loss adjuster", "senior claims handler".
_LOWER_PHRASE = re.compile(r"[a-z]+(?:[ \t][a-z]+){1,2}")
#: A job title's noun right after a word: "(orthopaedic) surgeon", "(staff) nurse".
_BEFORE_JOB_TITLE = re.compile(rf"[ \t]+(?:[a-z]+[ \t]+)?(?:{JOB_TITLE.pattern})", re.IGNORECASE)
#: A day of the week, or its plural: "Tuesdays".
_WEEKDAYS = re.compile(r"(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)days?")
#: A day's short form as people type it: "tues", "Thurs", "weds".
_WEEKDAY_SHORT = re.compile(r"(?:[Mm]on|[Tt]ues?|[Ww]eds?|[Tt]hu(?:rs?)?|[Ff]ri|[Ss]at|[Ss]un)\.?")
#: A department every organisation has, alone: "Finance", "HR", "Payroll".
_DEPARTMENT = re.compile(
    r"Finance|HR|IT|Legal|Payroll|Procurement|Marketing|Sales|Operations|Ops|Compliance|"
    r"Accounts|Facilities|Estates|Reception|Admissions|Human Resources|Customer Services?"
)
#: A person's title alone: "Sr.", "Mrs", "Dr.", "Herr", "Mme".
_TITLE_ALONE = re.compile(
    r"(?:Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Sr|Sra|Srta|Sig|Sig\.ra|Herr|Frau|Mme|Mlle|M|Dhr|Mevr)\.?"
)
#: Plain words in lower case joined by "+" or "&": "bonus + equity".
_JOINED_WORDS = re.compile(r"[a-z]+(?:[ \t]*[+&][ \t]*[a-z]+)+")
#: Two levels of the spine: "L4/L5", "C5-C6", "L5-S1".
_SPINAL_LEVELS = re.compile(r"(?:C[1-8]|T(?:[1-9]|1[0-2])|L[1-5]|S[1-5])[/\-–](?:C[1-8]|T(?:[1-9]|1[0-2])|L[1-5]|S[1-5])")
#: A school class or a stage written as a number and a lower-case letter: "2b", "10c".
_CLASS_CODE = re.compile(r"\d{1,2}[a-f]")
#: The word right before a span and one space: "CKD " of "CKD 3b".
_WORD_BEFORE_SPACE = re.compile(r"(?<![\w-])([A-Za-z][A-Za-z0-9]*)[ \t]$")
#: A person's title and the space before the name: "Mr. ", "Mrs ", "Dr ".
_TITLE_THEN_SPACE = re.compile(rf"(?<![\w.]){_PERSON_TITLE}\.?[ \t]+$")
#: The same title at a span's start.
_TITLE_AT_START = re.compile(rf"{_PERSON_TITLE}\.?[ \t]")
#: "my employer (", "my bank, ": the word for a company right before its name.
_ORG_NOUN_BEFORE = re.compile(
    r"\b(?:my|our|his|her|their)[ \t]+(?:employer|company|firm|bank|insurer|building[ \t]+society|"
    r"energy[ \t]+supplier|broadband[ \t]+provider|agency|landlord's[ \t]+agent|letting[ \t]+agent)"
    r"[ \t]*(?:\(|,|:|is|was|called)?[ \t]*$",
    re.IGNORECASE,
)
#: A titled name and its possessive before more words: "Dr Fiona McLeod's Thursday clinic".
_TITLED_OWNER = re.compile(
    rf"({_PERSON_TITLE}\.?[ \t]+[A-Z][\w\-]+(?:[ \t]+[A-Z][\w\-]+){{0,2}})['’]s[ \t]+\S"
)
#: A title and "and" right before a titled name: "Mr and " of "Mr and Mrs Delaney".
_TITLE_AND = re.compile(rf"(?<![\w.]){_PERSON_TITLE}\.?[ \t]+(?:and|&)[ \t]+$")
#: Name parts after a title that a model may type as something else.
_TITLED_PART_TYPES = frozenset(
    {EntityType.PERSON, EntityType.ORG, EntityType.LOCATION, EntityType.ADDRESS, EntityType.OTHER}
)


def _join_titled_names(text: str, spans: list[Span]) -> list[Span]:
    """The words after a person's title are one person's name, whatever the model typed
    each of ("Landlord is Mr. Hassan Qureshi, 88 Victoria Road": "Hassan" read as the start
    of the address, "Qureshi" as a person, two placeholders for one man). Two spans that
    touch across one space, one of them a person, the other one capitalized word, and a
    title before the first (or at its start) are joined."""
    out: list[Span] = []
    for x in sorted(spans, key=lambda s: s.start):
        prev = out[-1] if out else None
        if (
            prev is not None
            and EntityType.PERSON in (prev.type, x.type)
            and prev.type in _TITLED_PART_TYPES
            and x.type in _TITLED_PART_TYPES
            and re.fullmatch(r"[ \t]", text[prev.end : x.start]) is not None
            and (
                _CAPITALIZED_WORD.fullmatch(text, prev.start, prev.end) is not None
                if prev.type is not EntityType.PERSON
                else _CAPITALIZED_WORD.fullmatch(text, x.start, x.end) is not None
            )
            and (
                _TITLE_THEN_SPACE.search(text, max(0, prev.start - 8), prev.start) is not None
                or _TITLE_AT_START.match(text, prev.start, prev.end) is not None
            )
        ):
            score = max(prev.score, x.score)
            out[-1] = Span(prev.start, x.end, EntityType.PERSON, score, {**x.views, **prev.views})
            continue
        out.append(x)
    return out


#: Given names that are also words, which a model often passes over inside a sentence
#: ("a chaser to Will at the letting agency", "Sign it Grace and Hope Adebayo"). Months,
#: seasons, colours and words that are mostly surnames are left out.
_NAME_WORDS = frozenset(
    "will hope grace faith joy rose mark frank jack bill guy dean chase hunter drew miles "
    "robin penny ruby pearl daisy violet ivy holly dawn amber lily patience charity comfort "
    "blessing precious mercy hazel iris jade crystal angel sage rowan heather olive poppy "
    "sunny sandy brook cliff glen dale wade".split()
)
#: A word in lower case (or a comma) and a space before the name: inside a sentence.
_INSIDE_SENTENCE = re.compile(r"(?:(?<![A-Za-z])[a-z]{2,}|,)[ \t]+$")
#: Words before a name-word that make it the word: "the Will", "Amazing Grace" is capitalized
#: before; "Saying Grace", "his Will".
_WORD_BEFORE = re.compile(
    r"\b(?:the|a|an|his|her|your|my|our|their|its|of|saying|say|said|free|last|holy|good|"
    r"no|any|some|this|that)[ \t]+$",
    re.IGNORECASE,
)
#: A pronoun or a verb's word after it: "..., Will you send it?", "Hope to see you".
_WORD_AFTER = re.compile(
    r"[ \t]+(?:you|we|i|he|she|it|they|this|that|to|so|not|be|have|all|there|your)\b",
    re.IGNORECASE,
)
_NAME_WORD = re.compile(r"(?<![\w'’-])([A-Z][a-z]+)(?![\w'’-]|[ \t]+[A-Z]|[ \t]*&)")
#: The view of a name found by this rule.
NAME_WORD_VIEW = "name-word"


def _word_names_found(text: str, spans: Sequence[Span], lexicon: Lexicon | None) -> list[Span]:
    """A given name that is also a word ("Will", "Grace", "Hope"), written with its capital
    inside a sentence of an English text, alone, where the model found nothing: a person.
    Not after an article, a possessive or "saying", not before a pronoun or "to" (the
    word's own uses), never first in a sentence (where every word has a capital)."""
    if lexicon is None or not is_cased(text) or message_language(text) != ENGLISH:
        return []
    out = []
    for m in _NAME_WORD.finditer(text):
        word = m.group(1)
        if (
            word.lower() not in _NAME_WORDS
            or not _INSIDE_SENTENCE.search(text, max(0, m.start() - 24), m.start())
            or _WORD_BEFORE.search(text, max(0, m.start() - 12), m.start())
            or _WORD_AFTER.match(text, m.end())
            or any(s.start < m.end() and m.start() < s.end for s in spans)
        ):
            continue
        out.append(Span(m.start(), m.end(), EntityType.PERSON, 0.6, {NAME_WORD_VIEW: 0.6}))
    return out


#: "my sister nomvula", "our son kai-jordan": a possessive and a relative's word in lower
#: case, then the word to judge.
_MY_RELATIVE = re.compile(
    rf"\b(?:my|our|his|her|their)[ \t]+(?:little[ \t]+|older[ \t]+|younger[ \t]+|big[ \t]+|best[ \t]+)?"
    rf"(?:{_RELATION_WORD}|twins|kids|sons|daughters|boys|girls|mate)[ \t]+"
    r"([a-z][a-z'’-]{2,}?)(['’]s)?\b"
)
#: A word this rare in English text after a relative's word is the relative's name.
_RARE_RELATIVE_ZIPF = 2.0
#: Given names that are also verbs or modals a relative's word is often followed by ("my
#: son will", "my sister rose to"): after a relative's word they are the word.
_VERB_NAMES = frozenset(
    "will may can mark bill rose grant chase sue pat drew hunter faith said rob nick "
    "bob jack jean gene art dean ray june august".split()
)


def _relatives_in_lower_case(text: str, spans: Sequence[Span], lexicon: Lexicon | None) -> list[Span]:
    """In a message written in lower case, a relative's name right after "my sister", "our
    son"... that no list knows ("my sister nomvula"): a word English hardly writes (no
    dictionary word, term or drug) where the model found nothing; also the writer's name in
    brackets after "me" and a nickname's given name after "big" (:data:`_NICKNAMED`)."""
    if lexicon is None or is_cased(text) or message_language(text) != ENGLISH:
        return []
    out = []
    for m in _MY_RELATIVE.finditer(text):
        a, b = m.span(1)
        word = m.group(1)
        if any(s.start < b and a < s.end for s in spans):
            continue
        # A given name people carry, even one that is a word too ("my daughter hope",
        # "my twins summer and tiago", "my colleague storm"), unless it is a verb after a
        # relative's word ("my best mate will's 40th": a name's possessive is no verb's).
        given = (lexicon.is_given(word) or lexicon.is_word_name(word)) and (
            word not in _VERB_NAMES or m.group(2) is not None
        )
        if not given and (
            lexicon.is_plain(word)
            or lexicon.is_term(word)
            or lexicon.public_kind(word) is not None
            or lexicon.zipf(word) >= _RARE_RELATIVE_ZIPF
        ):
            continue
        out.append(Span(a, b, EntityType.PERSON, 0.6, {GIVEN_NAME_VIEW: 0.6}))
    for m in _NICKNAMED.finditer(text):
        # "captain is me (peg, table by the dartboard)", "big mick paid the cottage": the
        # writer's name in brackets after "me", a nickname's "big" or "little" before a
        # given name that is no frequent word ("big ben", "old bill" are not people).
        group = "mine" if m.group("me") is not None else "nick"
        a, b = m.span(group)
        word = m.group(group)
        if any(s.start < b and a < s.end for s in spans) or word in _VERB_NAMES:
            continue
        if not lexicon.is_given(word) or lexicon.is_plain(word) or lexicon.public_kind(word) is not None:
            continue
        if m.group("me") is None and (lexicon.zipf(word) >= _NICKNAMED_ZIPF or lexicon.is_word_name(word)):
            continue
        out.append(Span(a, b, EntityType.PERSON, 0.6, {GIVEN_NAME_VIEW: 0.6}))
    return out


#: A business the writer deals with, named in apposition after its role: "my broadband
#: provider, Fibrecastle (a small community network in Powys)".
_FIRM_APPOSED = re.compile(
    r"\b(?:my|our|his|her|their)[ \t]+(?:[a-z]+[ \t]+){0,2}?"
    r"(?:provider|supplier|company|bank|insurer|employer|agency|agent|landlord|builder|"
    r"contractor|developer|lender|garage|installer|broker|accountants?|solicitors?)[ \t]*,[ \t]+"
    r"(?P<name>[A-Z][\w'’&-]+(?:[ \t]+(?:&[ \t]+)?[A-Z][\w'’&-]+){0,3})(?=[ \t]*(?:[,(.;:]|$))"
)


def _firms_in_apposition(text: str, spans: list[Span], lexicon: Lexicon | None) -> list[Span]:
    """A business named in apposition after the writer's word for it (:data:`_FIRM_APPOSED`):
    an organisation, unless a public one or a dictionary word. A place a model read there
    is the business ("my broadband provider, Fibrecastle" had been a place, sent in clear
    at the default level); where no view found it, it is added."""
    if lexicon is None or "," not in text or _FIRM_APPOSED.search(text) is None:
        return spans
    out = list(spans)
    for m in _FIRM_APPOSED.finditer(text):
        a, b = m.span("name")
        name = m.group("name")
        if lexicon.public_kind(name) is not None or (len(name.split()) == 1 and lexicon.is_plain(name)):
            continue
        over = [k for k, s in enumerate(out) if s.start < b and a < s.end]
        if not over:
            out.append(Span(a, b, EntityType.ORG, 0.6, {NAME_WORD_VIEW: 0.6}))
        for k in over:
            s = out[k]
            if s.type is EntityType.LOCATION and (s.start, s.end) == (a, b):
                out[k] = Span(s.start, s.end, EntityType.ORG, s.score, s.views)
    return sorted(out, key=lambda s: (s.start, s.end))


#: The writer's name in brackets after "me" ("me (peg, ..."), or a given name after a
#: nickname's adjective ("big mick", "lil jay").
_NICKNAMED = re.compile(
    r"(?:\b(?P<me>me|myself)[ \t]*\([ \t]*(?P<mine>[a-z][a-z'’-]{2,})(?=[ \t]*[,)])"
    r"|\b(?:big|lil|little|wee|young|old)[ \t]+(?P<nick>[a-z][a-z'’-]{2,})\b)"
)
#: A given name after "big" or "little" this frequent in English is more likely a word.
_NICKNAMED_ZIPF = 4.0


#: A word in lower case, alone (no part of an address, a path, a handle or a code).
_LOWER_ALONE = re.compile(r"(?<![\w'’@./:\\-])([^\W\d_A-Z]{4,})(?![\w'’@/\\-]|\.\w)")


def _unseen_given_in_lower_case(text: str, spans: Sequence[Span], lexicon: Lexicon | None) -> list[Span]:
    """In a message written in lower case, a given name English hardly ever writes as a
    word ("w/ her sinéad from people team", "dariusz", "itziar"): a person wherever it
    stands, where no capital can show a name. No dictionary word, term, word that is a
    name too ("grace", "will") or public name."""
    # (a message that begins with a capital is written with capitals: the model's to read)
    if lexicon is None or is_cased(text) or text.lstrip()[:1].isupper() or message_language(text) != ENGLISH:
        return []
    out = []
    for m in _LOWER_ALONE.finditer(text):
        a, b = m.span(1)
        word = m.group(1)
        if (
            not known_given(lexicon, word)
            or lexicon.zipf(word) > 0.0  # (the lexicon's Zipf is 0 below its frequent words)
            or lexicon.zipf(unaccented(word)) > 0.0
            or lexicon.is_plain(word)
            or lexicon.is_term(word)
            or lexicon.is_word_name(word)
            or lexicon.public_kind(word) is not None
            or any(s.start < b and a < s.end for s in spans)
        ):
            continue
        out.append(Span(a, b, EntityType.PERSON, 0.6, {GIVEN_NAME_VIEW: 0.6}))
    return out


#: A message's last words: a thanks or a closing, then the writer's given name and
#: nothing after it but kisses or a full stop ("thx - farah", "cheers, kieran x").
_SIGNED = re.compile(
    r"\b(?:thx|thanks|thank[ \t]+you|ta|cheers|regards|best|love|many[ \t]+thanks|tia)"
    r"[ \t]*[,.!\-–—]*[ \t]*(?:\n[ \t]*)?([^\W\d_]{3,})[ \t]*(?:x+|[.!])?[ \t]*$",
    re.IGNORECASE,
)


def _signed_given_name(text: str, spans: Sequence[Span], lexicon: Lexicon | None) -> list[Span]:
    """The given name that signs a message after its thanks ("... thx - farah"): the
    writer's, though the word is a frequent one in English too ("kieran", "josie")."""
    if lexicon is None or message_language(text) != ENGLISH:
        return []
    m = _SIGNED.search(text.rstrip(), max(0, len(text.rstrip()) - 60))
    if m is None:
        return []
    a, b = m.span(1)
    word = m.group(1)
    if (
        not known_given(lexicon, word)
        or lexicon.is_plain(word)
        or word.casefold() in _VERB_NAMES
        or any(s.start < b and a < s.end for s in spans)
    ):
        return []
    return [Span(a, b, EntityType.PERSON, 0.6, {GIVEN_NAME_VIEW: 0.6})]


#: A name told as one: "the driver's name on the app was sunny", "her name is Hope".
_NAME_WAS = re.compile(
    r"\bname(?:[ \t]+on[ \t]+(?:the|his|her|their|my|your)[ \t]+[a-z]+)?[ \t]+(?:is|was)[ \t]+"
    r"([A-Za-z][a-z'’-]{2,})\b(?![ \t]*[A-Z])"
)


def _names_given_as_names(text: str, spans: Sequence[Span], lexicon: Lexicon | None) -> list[Span]:
    """A given name told as someone's name ("the driver's name was sunny"): a person,
    though the word is a common one too; a word no one is called ("the name was wrong")
    is not. A name with a surname after it is the other views' to find."""
    if lexicon is None or message_language(text) != ENGLISH:
        return []
    out = []
    for m in _NAME_WAS.finditer(text):
        a, b = m.span(1)
        word = m.group(1)
        if (
            lexicon.is_given(word)
            and word.lower() not in _NAME_IS_ADJECTIVES
            and not any(s.start < b and a < s.end for s in spans)
        ):
            out.append(Span(a, b, EntityType.PERSON, 0.6, {GIVEN_NAME_VIEW: 0.6}))
    return out


#: What a name is said to be that some people are called too ("the name is long").
_NAME_IS_ADJECTIVES = frozenset(
    "long short ok okay new old pretty nice lovely cute unique common rare taken available "
    "blank same different weird strange unusual fine wrong right correct".split()
)


def _given_names_found(text: str, spans: Sequence[Span], lexicon: Lexicon | None) -> list[Span]:
    """A given name that is no English word ("Navjot", "Lupe"), written alone with its
    capital where the model found nothing: a person. Inside a sentence when the word is
    rare in English text; first in a sentence only when it is almost never written there
    otherwise; right after a relative's word ("baby Zara") wherever it stands. Else not a
    public name (a place, a brand); never after an article or a possessive, before a
    pronoun or "to", in a text without capitals or in another language."""
    if lexicon is None or not is_cased(text) or message_language(text) != ENGLISH:
        return []
    out = []
    for m in _NAME_WORD.finditer(text):
        word = m.group(1)
        if (
            len(word) < 3
            or not lexicon.is_given(word)
            or lexicon.is_plain(word)
            or lexicon.is_term(word)
            or lexicon.is_word_name(word)
            or word.lower() in _NAME_WORDS
            or any(s.start < m.end() and m.start() < s.end for s in spans)
            or _WORD_BEFORE.search(text, max(0, m.start() - 12), m.start())
            or _WORD_AFTER.match(text, m.end())
        ):
            continue
        if _RELATIVE_WORD_BEFORE.search(text, max(0, m.start() - 16), m.start()):
            # Right after a relative's word a given name is a person's, however frequent or
            # public it is otherwise ("me and baby Zara": a shop's name too).
            out.append(Span(m.start(), m.end(), EntityType.PERSON, 0.6, {GIVEN_NAME_VIEW: 0.6}))
            continue
        if lexicon.public_kind(word) is not None:
            continue
        zipf = lexicon.zipf(word)
        inside = _INSIDE_SENTENCE.search(text, max(0, m.start() - 24), m.start()) is not None
        if zipf >= _RARE_GIVEN_ZIPF or not (inside or (zipf < _UNSEEN_GIVEN_ZIPF and _first_in_sentence(text, m.start()))):
            continue
        out.append(Span(m.start(), m.end(), EntityType.PERSON, 0.6, {GIVEN_NAME_VIEW: 0.6}))
    return out


#: A relative's or a baby's word right before a name: "baby Zara", "my son Leo".
_RELATIVE_WORD_BEFORE = re.compile(
    rf"\b(?:{_RELATION_WORD}|baby|newborn|twins?)[ \t]*\(?[ \t]*$"
    # the writer naming themself in apposition: "Emergency contact: me, Clare, 07981 ..."
    r"|\b(?:me|myself),[ \t]+$",
    re.IGNORECASE,
)
#: How rare in English text a given name must be to be a person's wherever it stands
#: inside a sentence ("Navjot"; not "Austin", "Brooklyn"), and first in one ("Lupe").
_RARE_GIVEN_ZIPF = 3.0
_UNSEEN_GIVEN_ZIPF = 2.0
#: A sentence's start right before a word: the text's, or after a full stop and a space.
_FIRST_IN_SENTENCE = re.compile(r"(?:[.!?][ \t]+|\n[ \t]*)$")


def _first_in_sentence(text: str, pos: int) -> bool:
    return pos == 0 or _FIRST_IN_SENTENCE.search(text, max(0, pos - 8), pos) is not None
#: The view of a name found by :func:`_given_names_found`.
GIVEN_NAME_VIEW = "given-name"


def _read_again(text: str, span: Span, lexicon: Lexicon | None) -> Span:
    """A name's type read again from the words around it (a place, a person, a brand)."""
    span = _without_elision(text, span, lexicon)
    span = _person_read_as_place(text, span, lexicon)
    span = _place_read_as_person(text, span, lexicon)
    span = _place_after_at(text, span, lexicon)
    span = _home_town(text, span)
    span = _institution_called(text, _group_or_project(text, span))
    span = _mountain_read_as_person(text, _company_read_as_place(text, span, lexicon))
    return _brand_read_as_person(text, span, lexicon)


_QUOTES = "'\"‘’“”`"


def _without_quotes(text: str, spans: list[Span]) -> list[Span]:
    """A value without the quote that opens or closes it (SQL, JSON, a log line:
    "full_name='Okwudili Eze'" leaves its quotes as written around the placeholder)."""
    out = []
    for s in spans:
        a, b = s.start, s.end
        while a < b - 1 and text[a] in _QUOTES:
            a += 1
        while b > a + 1 and text[b - 1] in _QUOTES and text[b - 2] not in "sS":
            b -= 1  # "James'" of a possessive keeps its apostrophe
        out.append(s if (a, b) == (s.start, s.end) else Span(a, b, s.type, s.score, s.views))
    return out


#: A name that ends in a dotted abbreviation whose last dot was left out: "Ribera S.L".
_DOTTED_END = re.compile(r"(?<![\w.])(?:[A-Za-z]\.)+[A-Za-z]$")


def _with_final_dots(text: str, spans: list[Span]) -> list[Span]:
    """A company's name with its legal form's last dot ("Logística Ribera S.L.", "Bakker
    B.V."), and a person's initials with their last dot inside a sentence ("Client J.M.
    (initials only)"): without it the placeholder would leave a full stop that ends no
    sentence. After initials that end a sentence the dot stays the sentence's."""
    return [
        Span(s.start, s.end + 1, s.type, s.score, s.views)
        if text.startswith(".", s.end)
        and (
            (s.type is EntityType.ORG and _DOTTED_END.search(text, s.start, s.end))
            or (
                s.type is EntityType.PERSON
                and _INITIALS.fullmatch(text, s.start, s.end)
                and _DOT_INSIDE_SENTENCE.match(text, s.end + 1)
            )
        )
        else s
        for s in spans
    ]


#: A person's initials without the last dot: "J.M", "A. K", "J.R.R.T".
_INITIALS = re.compile(r"[A-Z]\.(?:[ \t]?[A-Z]\.)*[ \t]?[A-Z]")
#: What follows a dot inside a sentence: a bracket, a comma, a lower-case word.
_DOT_INSIDE_SENTENCE = re.compile(r"[ \t]*[(,;:)]|[ \t]+[a-z]")


#: What may stand between two parts of one address on its line: ", Pentre Industrial Estate, ".
_ADDRESS_GAP = re.compile(r",[ \t]+(?:[A-Z][\w'’\-]*[ \t]+){0,3}[A-Z][\w'’\-]*,[ \t]+")


def _joined(parts: Sequence[Span], t: EntityType) -> Span:
    """One span of type ``t`` from the first part's start to the last one's end, with
    the parts' highest score and every view each part had (at its highest score)."""
    views: dict[str, float] = {}
    for x in parts:
        for k, v in x.views.items():
            views[k] = max(v, views.get(k, 0.0))
    return Span(parts[0].start, parts[-1].end, t, max(x.score for x in parts), views)


def _join_unit_words(text: str, spans: list[Span]) -> list[Span]:
    """A unit's word read alone as an address, then the address with the unit's number
    ("Unit" | "7 Castlegate Business Park", "Flat" | "3, 41 Marlowe Court"): one address,
    one placeholder."""
    out: list[Span] = []
    for span in spans:
        prev = out[-1] if out else None
        if (
            prev is not None
            and prev.type is EntityType.ADDRESS
            and span.type is EntityType.ADDRESS
            and text[prev.end : span.start] in (" ", "\t")
            and _UNIT_WORD.fullmatch(text, prev.start, prev.end) is not None
            and text[span.start : span.start + 1].isdigit()
        ):
            out[-1] = _joined([prev, span], EntityType.ADDRESS)
            continue
        out.append(span)
    return out


def _join_address_parts(text: str, spans: list[Span]) -> list[Span]:
    """Two parts of an address on one line with only capitalized words between them
    ("Unit 4, Pentre Industrial Estate, Bangor LL57 4QZ": the model found the first
    and the last) are one address: the estate between them is where it is."""
    out: list[Span] = []
    for span in spans:
        if span.type is EntityType.ADDRESS and out:
            # The part between them found as a place or a body ("Pentre Industrial
            # Estate" as a LOCATION) is part of the address too.
            middle = (
                len(out) >= 2
                and out[-1].type in (EntityType.LOCATION, EntityType.ORG)
                and out[-2].type is EntityType.ADDRESS
                and _COMMA_GAP.fullmatch(text, out[-2].end, out[-1].start)
                and _COMMA_GAP.fullmatch(text, out[-1].end, span.start)
            )
            first = out[-2] if middle else out[-1]
            if middle or (
                first.type is EntityType.ADDRESS and _ADDRESS_GAP.fullmatch(text, first.end, span.start)
            ):
                parts = [first, out[-1], span] if middle else [first, span]
                del out[-len(parts) + 1 :]
                out.append(_joined(parts, EntityType.ADDRESS))
                continue
        out.append(span)
    return out


#: A street and its house number written before a postcode and its town ("Dorf 27, 6866
#: Andelsbuch", "Bezegg 4, 6870 Bezau"): the line's words before the comma.
_STREET_BEFORE_POSTCODE = re.compile(
    r"(?:^|(?<=[\n,:;]))[ \t]*(?:[a-zà-ÿß]+[ \t]+(?=[A-ZÀ-Ý]))*(?P<street>[^\W\d_][\w'’.\-]*(?:[ \t][\w'’.\-]+){0,3}?[ \t]+\d{1,4}[a-zA-Z]?)"
    r"(?:[ \t]*/[ \t]*\d{1,3})?[ \t]*,[ \t]*$"
)
#: A postcode of four or five digits and its town after a street's line (", 4000 Liège",
#: a box number between them: "rue du Laveu 112 bte 3, 4000 Liège").
_POSTCODE_AFTER_STREET = re.compile(
    r"(?:[ \t]+(?:bte|boîte|boite|bus|box)\.?[ \t]*\w{1,4})?[ \t]*,?[ \t]*\d{4,5}[ \t]+"
    r"[A-ZÀ-Ý][\w'’]*(?:[ \t-](?:[a-z]{1,3}[ \t-])?[A-ZÀ-Ý][\w'’]*)?"
)
#: A place of the addresses joined: the town after the postcode.
_JOINABLE = frozenset({EntityType.ADDRESS, EntityType.LOCATION})


def _street_and_postcode(text: str, spans: list[Span]) -> list[Span]:
    """A street line and a postcode with its town are one address, whichever a view found:
    the street before a postcode's address ("Dorf 27, [6866 Andelsbuch]", a street no
    list knows because it is a word), or the postcode and town after a street's address
    ("[rue du Laveu 112] bte 3, 4000 Liège", a Belgian postcode of four digits)."""
    if not any(s.type is EntityType.ADDRESS for s in spans):
        return spans
    out = sorted(spans, key=lambda x: x.start)
    for k, span in enumerate(out):
        if span.type is not EntityType.ADDRESS:
            continue
        start, end = span.start, span.end
        if re.match(r"\d{4,5}[ \t]", text[start:end]):
            line = text.rfind("\n", 0, start) + 1
            m = _STREET_BEFORE_POSTCODE.search(text, line, start)
            if m is not None and not any(
                x.type not in _JOINABLE and x.start < start and m.start("street") < x.end for x in out
            ):
                start = m.start("street")
        m = _POSTCODE_AFTER_STREET.match(text, end)
        if m is not None and re.search(r"\d", text[span.start : span.end]) and not re.match(r"\d{4,5}[ \t]", text[span.start : span.end]):
            end = m.end()
        if (start, end) != (span.start, span.end):
            out[k] = Span(start, end, EntityType.ADDRESS, span.score, span.views)
    # What an address holds goes; each span looks only at the furthest end of the addresses
    # that start before it (a long form has thousands: a scan of all would be quadratic).
    joined = sorted((x.start, x.end) for x in out if x.type is EntityType.ADDRESS)
    starts = [a for a, _ in joined]
    reach = list(itertools.accumulate((b for _, b in joined), max))
    return [
        x for x in out
        if x.type is EntityType.ADDRESS
        or (i := bisect.bisect_right(starts, x.start) - 1) < 0
        or reach[i] < x.end
    ]  # fmt: skip


def _with_ampersand_names(text: str, spans: list[Span]) -> list[Span]:
    """One capitalized word found as a name, then "&" and capitalized words no span holds
    ("Brand: Wick & Whisper", "Maple & Moss"): one name of a shop or a firm, an
    organisation; left alone the second half stays in clear ("[PERSON_1] & Whisper")."""
    if "&" not in text:
        return spans
    out: list[Span] = []
    starts = sorted(x.start for x in spans)
    for span in spans:
        if (
            span.type in (EntityType.PERSON, EntityType.ORG)
            and _CAPITALIZED_WORD.fullmatch(text, span.start, span.end)
            and (tail := _AMPERSAND_TAIL.match(text, span.end)) is not None
            and not any(span.end < a < tail.end() for a in starts)
        ):
            span = Span(span.start, tail.end(), EntityType.ORG, span.score, span.views)
        out.append(span)
    return out


#: "&" and one or two capitalized words after a name: " & Whisper", " & Moss Salon".
_AMPERSAND_TAIL = re.compile(r"[ \t]&[ \t](?!Co\b|Cie\b|Sons\b|Söhne\b|Fils\b|Hijos\b|Zn\b|Zonen\b|Partners\b|Mrs?\b)[A-Z][a-z]+(?:[ \t][A-Z][a-z]+)?")


def _with_units_before(text: str, spans: list[Span]) -> list[Span]:
    """A flat's or a unit's number that no span holds, right before an address or a
    premises' name ("Unit 7, Brindley Trade Park", "flat 4b at 22 grove rd"), is part of
    that address (alone it names no place: see :data:`_UNIT_ALONE`)."""
    out: list[Span] = []
    for span in spans:
        unit = (
            _UNIT_BEFORE.search(text, max(0, span.start - 24), span.start)
            if span.type is EntityType.ADDRESS
            or (span.type in (EntityType.LOCATION, EntityType.ORG) and _PREMISES_NAME.fullmatch(text, span.start, span.end))
            else None
        )
        if unit is not None and not (out and out[-1].end > unit.start()):
            span = Span(unit.start(), span.end, EntityType.ADDRESS, span.score, span.views)
        out.append(span)
    return out


_COMMA_GAP = re.compile(r",[ \t]+")
#: The word of a unit in a building, which its number follows.
_UNIT_WORD = re.compile(r"(?i:unit|flat|suite|apartment|apt\.?|room|floor|block|building|studio)")


def _with_header_names(text: str, spans: list[Span], lexicon: Lexicon | None = None) -> list[Span]:
    """The display names of an e-mail's header lines (:func:`header_names`) added as
    people: a span that ran from the name into its address keeps only the address. A
    display name made of plain words ("Support", "Customer Relations") is a team's."""
    names = [
        n
        for n in header_names(text)
        if lexicon is None
        or not all(lexicon.is_plain(w) for w in re.findall(r"[^\W\d_]+", text[n.start : n.end]))
    ]
    if not names:
        return spans
    out = []
    for span in spans:
        over = [n for n in names if span.start < n.end and n.start < span.end]
        if not over:
            out.append(span)
        elif span.type in _ADDRESS_TYPES and span.end > over[-1].end:
            a = over[-1].end
            while a < span.end and (text[a].isspace() or text[a] == "<"):
                a += 1
            out.append(Span(a, span.end, span.type, span.score, span.views))
        elif span.start < over[0].start or span.end > over[-1].end:
            out.append(span)  # a longer name: it stays, the header's merges into it
    return sorted([*out, *names], key=lambda x: x.start)


#: A house's number ("9", "14a", "10001").
_HOUSE_NUMBER = re.compile(r"\d{1,5}[A-Za-z]?")
_STREET_PARTS = frozenset({EntityType.ADDRESS, EntityType.LOCATION, EntityType.PERSON, EntityType.ORG})


def join_neighbours(
    text: str, spans: list[Span], join: Callable[[Span, Span], EntityType | None]
) -> list[Span]:
    """Each span and the one before it, as sorted, made one span of the type ``join``
    names for the pair (None: they stay apart); a joined span may join the next too."""
    out: list[Span] = []
    for span in spans:
        t = join(out[-1], span) if out else None
        if t is None:
            out.append(span)
        else:
            out[-1] = _joined([out[-1], span], t)
    return out


def join_house_numbers(text: str, spans: list[Span]) -> list[Span]:
    """A house number the views took for an address of its own, one space before the
    street's name ("232" + "Bailey Pine", "70" + "Christopher Forest"), is one address;
    two pieces of a person's name one space apart are one name."""

    def join(prev: Span, span: Span) -> EntityType | None:
        if span.start != prev.end + 1 or text[prev.end] != " ":
            return None
        if prev.type is EntityType.PERSON is span.type:
            return EntityType.PERSON  # two pieces of one name a split left apart ("Graham" + "Burns")
        if (
            prev.type is EntityType.ADDRESS
            and span.type in _STREET_PARTS
            and _HOUSE_NUMBER.fullmatch(text, prev.start, prev.end)
            and text[span.start].isupper()
        ):
            return EntityType.ADDRESS
        return None

    return join_neighbours(text, spans, join)


_SURNAME = r"[A-Z][a-z]+(?:-[A-Z][a-z]+)?"
#: A firm named after its partners: "Stevens, Rowe and Turner", "Kelly, Dickinson & Smith".
_FIRM = re.compile(rf"\b{_SURNAME}, {_SURNAME},? (?:and|&) {_SURNAME}\b")
_FIRM_PARTS = frozenset({EntityType.PERSON, EntityType.ORG, EntityType.ADDRESS, EntityType.LOCATION})


def _surnames_not_places(name: str, inside: Sequence[Span], lexicon: Lexicon | None) -> bool:
    """Three surnames read as places, one of them at least ("Evans, Burrows and Kemp" under
    a signature's job title): none of them a place the lexicon knows ("Leeds, York and
    Hull" are towns)."""
    places = (EntityType.LOCATION, EntityType.ADDRESS)
    if lexicon is None or not any(x.type in places for x in inside):
        return False
    parts = [n.group(0) for n in re.finditer(_SURNAME, name)]
    return all(
        lexicon.is_surname(p) and lexicon.public_kind(p) not in ("place", "region", "country")
        for p in parts
    )


def join_firms(text: str, spans: list[Span], lexicon: Lexicon | None = None) -> list[Span]:
    """A firm named after three partners is one organisation, not two people and a firm:
    when the views found every surname of "Stevens, Rowe and Turner" (as names of any kind)
    and one of them took a piece for an organisation, or one span covers the whole name,
    the pieces become one ``ORG`` span. Three surnames a view found only as people stay
    people ("I met Smith, Jones and Brown")."""
    if ", " not in text or not spans:
        return spans
    for m in _FIRM.finditer(text):
        a, b = m.span()
        inside = [x for x in spans if x.start < b and a < x.end]
        if not inside or any(x.start < a or x.end > b or x.type not in _FIRM_PARTS for x in inside):
            continue
        found_all = all(
            any(x.start <= a + n.start() and a + n.end() <= x.end for x in inside)
            for n in re.finditer(_SURNAME, m.group(0))
        )
        whole = len(inside) == 1 and (inside[0].start, inside[0].end) == (a, b)
        if not found_all or not (
            whole
            or any(x.type is EntityType.ORG for x in inside)
            or _surnames_not_places(m.group(0), inside, lexicon)
        ):
            continue
        firm = _joined(inside, EntityType.ORG)
        spans = [x for x in spans if x not in inside] + [Span(a, b, firm.type, firm.score, firm.views)]
    return sorted(spans, key=lambda x: x.start)


#: A company's legal form written after its name, in the forms of the countries a
#: message in English names companies of: "Atelier Maré Lda", "Hollmann Logistik GmbH".
_LEGAL_FORM = re.compile(
    r"[ \t]+(?:(?:Ltd|Limited|LLC|L\.L\.C\.|LLP|Inc|PLC|plc|Corp|GmbH|gGmbH|AG|KG|SE|S\.A\.S?|"
    r"SA|SAS|SARL|S\.L\.|SL|SLU|B\.V\.|BV|N\.V\.|NV|Lda|Ltda|S\.p\.A\.|SpA|S\.r\.l\.|Srl|AB|"
    r"ASA|AS|A/S|ApS|Oy|Oyj|Pty(?:[ \t]+Ltd)?|Sp\.[ \t]?z[ \t]?o\.o\.|s\.r\.o\.|Kft|Zrt)\.?"
    # A family firm's ending (its full stop is the sentence's): "Transports Bernard & Fils",
    # "Smith & Sons", "Müller & Söhne".
    r"|&[ \t]?(?:Fils|Cie|Söhne|Sons|Zn|Hijos)|et[ \t]+Fils|e[ \t]+Hijos|en[ \t]+Zonen)(?![\w/])"
)
_LEGAL_NAMED = frozenset({EntityType.PERSON, EntityType.ORG, EntityType.LOCATION})


def _flights_found(text: str, spans: Sequence[Span], lexicon: Lexicon | None = None) -> list[Span]:
    """Flight numbers no view found, among words that speak of a flight ("Ryanair cancelled
    FR 2814"): the type policy decides on them (core.policy: a flight and a day narrow a
    person to a plane), so they must be found. Only in capitals, overlapping nothing found;
    an amount in a currency's code ("The airline paid AED 1,200") is no flight."""
    out = []
    for m in _FLIGHT_CAPS.finditer(text):
        a, b = m.span()
        code = m.group().split(" ")[0]
        if lexicon is not None and code in lexicon.currencies:
            continue
        if flight_context(text, a) and not any(x.start < b and a < x.end for x in spans):
            out.append(Span(a, b, EntityType.ID, 0.6, {"rules": 0.6}))
    return out


#: A flight number written in capitals: "FR 2814", "EZY8473", "U2 1234".
_FLIGHT_CAPS = re.compile(
    r"(?<![\w-])(?:[A-Z]{2,3}|[A-Z]\d|\d[A-Z])[ ]?\d{1,4}[A-Z]?(?![\w-]|[.,]\d)"
)


def _join_registrations(text: str, spans: list[Span]) -> list[Span]:
    """Two values read apart that together are a car's registration ("LK19" and "ZPW")
    are one identifier."""
    out: list[Span] = []
    for span in spans:
        prev = out[-1] if out else None
        if (
            prev is not None
            and text[prev.end : span.start] == " "
            and _UK_REG.fullmatch(text, prev.start, span.end)
        ):
            out[-1] = Span(prev.start, span.end, EntityType.ID, max(prev.score, span.score), {**prev.views, **span.views})
            continue
        out.append(span)
    return out


def join_legal_forms(text: str, spans: list[Span]) -> list[Span]:
    """A name followed by a company's legal form is the company, the form included: the
    model read "Atelier Maré" as a person and "Lda" as a code."""
    out: list[Span] = []
    skip_to = -1
    for span in spans:
        if span.start < skip_to:
            continue
        m = _LEGAL_FORM.match(text, span.end) if span.type in _LEGAL_NAMED else None
        if m is None or not text[span.start].isupper():
            own = _LEGAL_FORM.search(text, span.start, span.end)
            if (
                span.type in _LEGAL_NAMED
                and span.type is not EntityType.ORG
                and own is not None
                and own.end() == span.end
                and text[span.start].isupper()
            ):
                # The form already inside: "Nordvik Maritime AS" read as a place.
                span = Span(span.start, span.end, EntityType.ORG, span.score, span.views)
            out.append(span)
            continue
        out.append(Span(span.start, m.end(), EntityType.ORG, span.score, span.views))
        skip_to = m.end()
    return out


#: The head of an institution's name that an "of" continues: "University of Shaneside".
_INSTITUTION_HEAD = re.compile(
    r"(?:University|College|Institute|School|Academy|Museum|Bank|Ministry|Department|"
    r"Council|Church|Hospital|Library|Society|Chamber|Conservatory|Polytechnic)$"
)
_OF_GAP = re.compile(r" of (?:the )?")
#: A possessive and a facility's word after an organisation: "Children's Hospital", "St
#: Mary's Clinic", "northside children's er".
_FACILITY_AFTER = re.compile(
    r"['’]s (?:hospital|clinic|medical cent(?:re|er)|health cent(?:re|er)|urgent care|"
    r"er|a&e|emergency room|emergency department|pharmacy)\b",
    re.IGNORECASE,
)
#: An institution's word written before its name, in the languages that do so (with the
#: article or preposition some take): "Clínica San Rafael", "Centro de Salud Delicias",
#: "Hôpital Necker", "Clinique du Parc", "Klinikum Großhadern", "Colegio San José".
_HEAD_WORDS = (
    r"(?:Cl[íi]nica|Clinique|Klinik|Klinikum|Kliniek|Hospital|H[ôo]pital|Ospedale|Sanatorio|"
    r"Policl[íi]nica|Centro de Salud|Centre (?:hospitalier|m[ée]dical)|Colegio|Escuela|Instituto|"
    r"Universidad|Universit[ée]|Lyc[ée]e|Coll[èe]ge|[ÉE]cole|Liceo|Gymnasium|Grundschule|"
    r"Apotheke|Farmacia|Pharmacie|Basisschool|CEIP|IES|Verpleeghuis|Ziekenhuis)"
)
_HEAD_BEFORE = re.compile(rf"\b{_HEAD_WORDS}(?: (?:de(?: la)?|del|du|des|d['’]))? ?$")
#: The same word first in a span the model read as a person: "CEIP Rosalía de Castro".
_HEAD_FIRST = re.compile(rf"{_HEAD_WORDS} (?=[A-ZÀ-ÖØ-Þ])")
#: The same words in lower case after an article, before a name a person carries: a school
#: or a hospital named after someone ("à l'école Jules Ferry", "al colegio Miguel
#: Hernández", "op basisschool De Regenboog").
_LOWER_HEAD_BEFORE = re.compile(
    r"(?:\b(?:l['’]|la |le |el |al |del |de |het |op |die |der |das |im |in der |zur |zum ))"
    r"(?:cl[íi]nica|clinique|klinik|klinikum|hospital|h[ôo]pital|colegio|escuela|instituto|"
    r"lyc[ée]e|coll[èe]ge|[ée]cole|groupe scolaire|gymnasium|grundschule|gesamtschule|"
    r"realschule|basisschool|ziekenhuis)"
    # and the school's level: "à l'école élémentaire Jules Ferry", "el colegio público Miguel
    # Hernández"
    r"(?: (?:[ée]l[ée]mentaire|primaire|maternelle|publique|priv[ée]e|p[úu]blico|concertado|"
    r"infantil|primaria))? $"
    # Dutch names a home or a school after its word without an article: "in verpleeghuis
    # De Hooge Weide".
    r"|\b(?:in|op|bij|naar|van) (?:verpleeghuis|zorgcentrum|woonzorgcentrum|ziekenhuis|"
    r"basisschool|kinderopvang|gastouderbureau) $"
)
_HEAD_OF = re.compile(
    r"\b(?:University|College|Institute|Academy|Polytechnic|Conservatory) of (?:the )?$"
)


#: An institution's name that ends in what an "of" gives it: "Moscow Institute of Physics".
_HEAD_OF_FIELD = re.compile(
    r"\b(?:University|College|Institute|School|Academy|Ministry|Department|Faculty|Office|"
    r"Centre|Center|Polytechnic|Conservatory|Board|Division) of (?:the )?"
    r"[A-Z][\w\-]*(?: [A-Z][\w\-]*)*$"
)
_AND_GAP = re.compile(r" (?:and|&) ")
#: A whole name that is an institution's: "Ministry of Science and Higher Education".
_INSTITUTION_NAME = re.compile(
    r"(?:[A-Z][\w\-]* ){0,3}(?:University|College|Institute|Academy|Ministry|Department|"
    r"Faculty|Polytechnic|Conservatory) of (?:the )?[A-Z][\w\-]*(?: (?:and |& )?[A-Z][\w\-]*)*"
)
#: The second field an "and" adds to an institution's name: "and Technology", "and Human
#: Services" (capitalized common words, up to three).
_FIELD_AFTER_AND = re.compile(r" (?:and|&) ((?:[A-Z][a-z]+ ){0,2}[A-Z][a-z]+)(?![\w\-]| [A-Z])")


#: A word this frequent is a field's even when it is also a surname ("Human", "Law").
_FIELD_ZIPF = 5.0


def _common_field(words: str, lexicon: Lexicon | None) -> bool:
    """Whether ``words`` are capitalized common words ("Human Services"), not a name."""
    return (
        lexicon is not None
        and lexicon.public_kind(words) is None
        and all(
            (lexicon.is_plain(w) and lexicon.zipf(w) >= COMMON_ZIPF) or lexicon.zipf(w) >= _FIELD_ZIPF
            for w in words.split()
        )
    )


def _second_field(text: str, prev: Span, spans: Sequence[Span], lexicon: Lexicon | None) -> int:
    """Where an institution named "X of A and B" ends when the model stopped at "A"
    (``prev``); ``prev.end`` when nothing joins. ``spans`` are those after ``prev``."""
    if prev.type is not EntityType.ORG or not _HEAD_OF_FIELD.search(text, prev.start, prev.end):
        return prev.end
    m = _FIELD_AFTER_AND.match(text, prev.end)
    if m is None or not _common_field(m.group(1), lexicon):
        return prev.end
    if any(s.start < m.end() and (s.start < m.start(1) or s.end > m.end()) for s in spans):
        return prev.end
    return m.end()


def join_institutions(text: str, spans: list[Span], lexicon: Lexicon | None = None) -> list[Span]:
    """An institution and the place or name an "of" gives it are one organisation: the
    model read "University of Shaneside" as two ("[ORG_1] of [ORG_2]"), and "Moscow
    Institute of Physics and Technology" as "[ORG_1] and [ORG_2]" (or the first alone)."""
    out: list[Span] = []
    for i, span in enumerate(spans):
        if span.type is not EntityType.ORG and _INSTITUTION_NAME.fullmatch(text, span.start, span.end):
            # "Ministry of Science and Higher Education" read as a person.
            span = Span(span.start, span.end, EntityType.ORG, span.score, span.views)
        prev = out[-1] if out else None
        if prev is not None and span.start >= prev.end and _AND_GAP.match(text, prev.end):
            end = _second_field(text, prev, spans[i:], lexicon)
            if end > prev.end and span.start < end:
                out[-1] = Span(prev.start, end, EntityType.ORG, prev.score, prev.views)
                continue
        if (
            prev is not None
            and prev.type is EntityType.ORG
            and span.type in _PROPER_TYPES
            and _INSTITUTION_HEAD.search(text, prev.start, prev.end)
            and _OF_GAP.fullmatch(text, prev.end, span.start)
            and text[span.start].isupper()
        ):
            out[-1] = _joined([prev, span], EntityType.ORG)
            continue
        lower = _LOWER_HEAD_BEFORE.search(text, max(0, span.start - 40), span.start)
        before = _HEAD_BEFORE.search(text, max(0, span.start - 40), span.start)
        if (
            (
                lower is not None
                or (before is not None and before.end() == span.start)
                or _HEAD_FIRST.match(text, span.start, span.end)
            )
            and span.type in _PROPER_TYPES
            and text[span.start].isupper()
        ):
            # "à l'école Jules Ferry de Villeurbanne" read as a person: a school named
            # after one, an organisation (its word stays as written).
            span = Span(span.start, span.end, EntityType.ORG, span.score, span.views)
        if (
            before is not None
            and span.type in (EntityType.ORG, EntityType.LOCATION)
            and text[span.start].isupper()
            and (prev is None or prev.end <= before.start())
        ):
            # "Clínica San Rafael", "Hôpital Necker", "Klinikum Großhadern": an
            # institution's word written before its name (the model found the name, read
            # as a place) makes the two one organisation.
            span = Span(before.start(), span.end, EntityType.ORG, span.score, span.views)
        if span.type is EntityType.ORG and (facility := _FACILITY_AFTER.match(text, span.end)):
            # "northside children" | "'s er", "Boston Children" | "'s Hospital": a
            # facility's word after the possessive is the rest of its name.
            span = Span(span.start, facility.end(), span.type, span.score, span.views)
        head = _HEAD_OF.search(text, max(0, span.start - 40), span.start)
        if (
            head is not None
            and span.type in _PROPER_TYPES
            and text[span.start].isupper()
            and (prev is None or prev.end <= head.start())
        ):
            # "University of Shaneside" where the model found only the place.
            span = Span(head.start(), span.end, EntityType.ORG, span.score, span.views)
        out.append(span)
    if out and _AND_GAP.match(text, out[-1].end):
        end = _second_field(text, out[-1], [], lexicon)
        if end > out[-1].end:
            out[-1] = Span(out[-1].start, end, EntityType.ORG, out[-1].score, out[-1].views)
    return out
