"""Courtesy sentences: a greeting, a thank-you, a closing ("Thanks.", "Hi!", "Best regards,").

A sentence made only of courtesy words ("Hi, hope you're doing well.", "Hello
everyone."), with no detected entity and no digit,
identifies no one: sent anonymized it carries nothing to protect, and kept on
this machine it only makes the answer say that part of the message stayed here.
The learned router gives such short sentences little thought (withholding one
costs its reward almost nothing), so :class:`core.router.policy.PolicyRouter`
sends them whatever the policy says. A word outside the list (a name the
detector missed, "Dear Claims Team") leaves the decision to the policy.
Written by hand: a closed list of words in the five languages with rules.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from typing import Any

from core.entities import EntityType
from core.lexicon import CLINICAL_SERVICE, CODE_FILE, CONNECTION
from core.spans import Sentence, Span

#: The most words a courtesy sentence has ("Thank you so much for your help").
MAX_WORDS = 7

WORDS = frozenset(
    # English
    "hi hello hey dear thanks thank thx ty you so very much many a lot again in advance for "
    "everything all your help please cheers regards best kind kindest warm warmest sincerely "
    "yours faithfully truly good morning afternoon evening day night ok okay great perfect "
    "wonderful awesome nice got it sure yes no noted understood appreciated that's helpful "
    "greetings there everyone team folks i i'm hope you're are is doing having how how's "
    "going well fine quick question assistant trust this finds email message respected "
    "ma'am ma’am sir madam thanking "
    # te reo Māori, in New Zealand's English: "Kia ora", "Ngā mihi"
    "kia ora ngā nga mihi "
    # German
    "hallo zusammen guten tag morgen abend liebe lieber geehrte geehrter sehr damen und herren danke "
    "vielen dank schön schöne grüße gruß grüßen viele beste besten freundlichen freundliche "
    "mit herzliche herzlichen bitte tschüss super "
    # French
    "bonjour bonsoir salut merci beaucoup bien cordialement amicalement bonne journée soirée "
    "madame monsieur cher chère d'avance d’avance avance à vous "
    # Spanish
    "hola buenos buenas días tardes noches gracias muchas muchísimas saludos un saludo "
    "cordial cordiales atentamente querido querida estimado estimada por favor "
    # Dutch
    "hoi beste goedemorgen goedemiddag goedenavond bedankt dank je jullie wel hartelijk "
    "vriendelijke groet groeten met alvast".split()
)

#: Words of the list that are also given names: written with a capital inside a
#: sentence ("Thanks, Hope!") they may be someone, so the policy decides.
NAME_LIKE = frozenset({"hope"})

_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")


def is_courtesy(text: str, entities: Sequence[Span] = ()) -> bool:
    """True when ``text`` is only courtesy words, punctuation and symbols (emoji),
    at most :data:`MAX_WORDS` words, with no entity and no digit."""
    if entities or any(ch.isdigit() for ch in text):
        return False
    words = _WORD.findall(text)
    if not words or len(words) > MAX_WORDS:
        return False
    rest = _WORD.sub("", text)
    if any(not (c.isspace() or unicodedata.category(c)[0] in "PS") for c in rest):
        return False
    if any(w[:1].isupper() and w.lower() in NAME_LIKE for w in words[1:]):
        return False
    return all(w.lower() in WORDS for w in words)


#: A column's or a field's name: "first_name", "Date of birth", "State/ZIP", "Staff no.".
_KEY = r"[A-Za-z][A-Za-z0-9_\-/.#()]*(?: [A-Za-z0-9_\-/.#()]+){0,3}"
_HEADER_ROW = re.compile(rf"\|? ?{_KEY} ?(?:[,;\t|] ?{_KEY} ?)+\|?")
_KEY_ALONE = re.compile(r"[A-Za-z][A-Za-z_\-/.#()]*(?: [A-Za-z_\-/.#()]+){0,2} ?:")


def is_form_label(text: str, entities: Sequence[Span] = ()) -> bool:
    """True when ``text`` only names fields: a table's header row ("id,first_name,dob,city",
    "Name;IBAN;Amount", "| Field | Value |") or a key whose value is on the next line
    ("Reporter:"), with no entity and no digit. It says what the values below it are and
    nothing of anyone; withheld, it only leaves the cloud a table without its columns."""
    if entities or any(ch.isdigit() for ch in text):
        return False
    line = text.strip()
    return bool(_HEADER_ROW.fullmatch(line) or _KEY_ALONE.fullmatch(line))


def is_values_only(
    sentence: Sentence, entities: Sequence[Span], values: Iterable[str] = (), keys: bool = False
) -> bool:
    """True when every letter and digit of ``sentence`` lies inside one of its detected
    ``entities`` (offsets in the query's text), or inside another whole occurrence of a
    value detected elsewhere in the query (``values``: the signature repeats the name of
    the "Re:" line, where the detector found it): a signature's name line ("Siobhán Ní
    Cheallaigh"), a line of values. Sent, it carries nothing the type policy does not
    decide value by value (each protected value becomes its placeholder wherever it
    occurs); withheld, the cloud loses the line's place in the text. With ``keys``, the
    keys written before found values count too ("POSTGRES_USER: mirela_d")."""
    covered = [False] * (sentence.end - sentence.start)
    for e in entities:
        for i in range(max(e.start, sentence.start), min(e.end, sentence.end)):
            covered[i - sentence.start] = True
    for a, b in _value_occurrences(sentence.text, values):
        covered[a:b] = [True] * (b - a)
    if not any(covered):
        return False
    # A connection string whose user, password or host were found: its scheme, its port
    # and its database are part of the value ("postgres://[ACCOUNT_1]:[ID_1]@[URL_1]:5432/shop").
    for a, b in _found_connections(sentence.text, covered):
        covered[a:b] = [True] * (b - a)
    if keys:
        # The keys of the values ("POSTGRES_USER: [ID_1]", "Secrets: AWS_ACCESS_KEY_ID=
        # [ID_2]"): a configuration's constant, or common words that name no one, right
        # before a colon or an equals sign and a value found. A key is what the value is,
        # never whose: one with a name in it ("Dana's phone:") leaves the line to the policy.
        from core.lexicon import lexicon

        words = lexicon()
        # Right to left: "Secrets: AWS_ACCESS_KEY_ID=...", a key before a key and its value.
        for m in reversed(list(_VALUE_KEY.finditer(sentence.text))):
            after = m.end()
            while after < len(covered) and sentence.text[after] in " \t\"'":
                after += 1
            if after >= len(covered) or not covered[after]:
                continue
            key = m.group("key")
            if _CONSTANT.fullmatch(key) or all(
                words.is_plain(w) or words.is_term(w) for w in key.split()
            ):
                covered[m.start("key") : m.end("key")] = [True] * len(key)
    return all(c or not ch.isalnum() for c, ch in zip(covered, sentence.text, strict=False))


def _value_occurrences(text: str, values: Iterable[str]) -> Iterator[tuple[int, int]]:
    """Every whole occurrence in ``text`` of a value detected in the query (three
    characters or more, a letter among them: "12" or "Jo" would find common words)."""
    for value in values:
        if len(value) >= 3 and any(c.isalpha() for c in value):
            yield from _whole_occurrences(text, value)


def _whole_occurrences(text: str, value: str) -> Iterator[tuple[int, int]]:
    """Where ``value`` occurs in ``text`` with no word character right before or after it
    (as ``(?<!\\w)value(?!\\w)`` would find, without compiling a pattern for every value)."""
    i = text.find(value)
    while i >= 0:
        j = i + len(value)
        if (i == 0 or not _word_char(text[i - 1])) and (j == len(text) or not _word_char(text[j])):
            yield i, j
        i = text.find(value, i + 1)


def _word_char(ch: str) -> bool:
    """What ``\\w`` matches: a letter, a digit or an underscore."""
    return ch.isalnum() or ch == "_"


#: A key before its value: a constant or up to four words ("NHS No", "Date of birth"),
#: then ":" or "=".
_VALUE_KEY = re.compile(
    r"(?<![\w@.])(?P<key>[A-Za-z][A-Za-z0-9_]*(?: [A-Za-z][A-Za-z0-9]*){0,3})[ \t]*[:=]"
)
_CONSTANT = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+")


#: Titles before a name: written with a capital, they name no one by themselves.
_TITLES = frozenset("mr mrs ms miss mx dr prof sir madam".split())
#: A word (letters, inner apostrophes) and a number (digits with their separators, a
#: currency sign before, a percent sign after).
_LETTERS = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
_NUMBER = re.compile(r"[£$€¥₹]?\s?\d[\d,.:/\-]*%?")
#: A field's label written in capitals ("DOB: ...", "MRN", "NHS no."): what a value is.
_LABELS = frozenset("dob mrn nhs ssn iban bsn nir dni nie vat ref".split())
#: How frequent a lower-case word must be in English (Zipf scale) to count as common here
#: when the lexicon's list of plain words lacks it ("chatty", "practicals").
COMMON_ZIPF = 2.8
#: A lower-case word this frequent is a common word even when people carry it as a name.
FREQUENT_ZIPF = 3.5
#: The same for a word that is also a given name ("per", "loan"; not "byron", 3.7).
FREQUENT_GIVEN_ZIPF = 4.5


@lru_cache(maxsize=65536)
def _frequency(word: str) -> float:
    """The word's Zipf frequency in English (wordfreq), remembered: routing asks often."""
    from wordfreq import zipf_frequency

    return float(zipf_frequency(word, "en"))


#: Words of medicine by their endings ("rheumatology", "tendinitis", "colonoscopy",
#: "anaemia"): no one's name. Drugs are the lexicon's.
_MEDICAL = re.compile(
    r"[a-z]{3,}(?:ology|ologist|ologists|itis|ectomy|otomy|ostomy|plasty|scopy|graphy|"
    r"a?emia|algia|osis|opathy|iatry|iatric|iatrics|ologic|ological)"
)


#: A bracket, a colon, a quote or an equals sign right before a word.
_AFTER_MARK = re.compile(r"[(\[:\"'“=][ \t]*$")
#: The end of a sentence right before a word.
_AFTER_STOP = re.compile(r"[.!?][\"')\]]?\s+$")
#: A word with its digits: "T2DM", "CKD3a".
_TOKEN = re.compile(r"(?<![\w-])[^\W_]*\d[^\W_]*(?![\w-])")
#: A unit written with a slash ("U/L", "mmol/L", "g/dL", "km/h"): no word of anyone's.
#: A capitalized word of four letters or more on either side ("Spark/Kafka") is no unit.
_UNIT = re.compile(
    r"(?<![\w/])(?![A-Z][a-z]{3})[µa-zA-Z]{1,5}/(?![A-Z][a-z]{3})[a-zA-Z0-9]{1,5}(?![\w/])"
)


def _plain_compound(word: str, words: Any) -> bool:
    """Two plain words written as one ("timesheet"); the second may be a frequent word
    that people also carry as a surname ("policyholder": "holder")."""
    return any(
        words.is_plain(word[:i])
        and (words.is_plain(word[i:]) or _frequency(word[i:]) >= FREQUENT_ZIPF)
        for i in range(3, len(word) - 2)
    )


#: A plural's ending and what it replaces: "practicals", "biopsies", "boxes".
_PLURALS = (("ies", "y"), ("es", ""), ("s", ""))


def _plain_plural(word: str, words: Any) -> bool:
    """The plural of a plain word or a term ("practicals", "biopsies")."""
    for ending, stem_end in _PLURALS:
        if word.endswith(ending) and len(word) > len(ending) + 2:
            stem = word[: -len(ending)] + stem_end
            if words.is_plain(stem) or words.is_term(stem):
                return True
    return False


#: British spellings and the American ones a dictionary's list may hold alone:
#: "summarise", "organisation", "colour", "analyse", "centre", "paediatric".
_BRITISH = (
    (re.compile(r"is(e|es|ed|ing|ation|ations)$"), r"iz\1"),
    (re.compile(r"our(s|ed|ing|ful|ite)?$"), r"or\1"),
    (re.compile(r"ys(e|es|ed|ing)$"), r"yz\1"),
    (re.compile(r"tre(s)?$"), r"ter\1"),
    (re.compile(r"ae"), "e"),
    (re.compile(r"oe"), "e"),
)


def _british_plain(word: str, words: Any) -> bool:
    """A plain word in its British spelling ("summarise": "summarize")."""
    for pattern, american in _BRITISH:
        other = pattern.sub(american, word, count=1)
        if other != word and (words.is_plain(other) or _plain_plural(other, words)):
            return True
    return False


_CODE_FILE = re.compile(CODE_FILE)
_READING = re.compile(r"\d{2,3}/\d{2,3}")
_GRAVIDA_PARA = re.compile(r"(?<![\w-])G\d{1,2}\s?P\d{1,2}(?:\+\d{1,2})?(?![\w-])")


#: A loyalty scheme's name right before the word for its member or number.
_SCHEME = re.compile(
    r"\b(?:[A-Z][a-z]+ ){0,3}(?:Rewards?|Miles|Points|Club|Loyalty)"
    r"(?= (?:member(?:ship)?|number|no\.?|card|account)\b)"
)


#: The word written with a slash after a word, and before it.
_SLASH_AFTER = re.compile(r"/([^\W\d_][\w.+#-]*)")
_SLASH_BEFORE = re.compile(r"([^\W\d_][\w.+#-]*)/$")


def _listed_with_public(rest: str, start: int, end: int, words: Any) -> bool:
    """Written with a slash beside a program's public name ("Spark" of "Spark/Kafka"):
    one of a list of the same kind."""
    after = _SLASH_AFTER.match(rest, end)
    before = _SLASH_BEFORE.search(rest, 0, start)
    return any(
        g is not None and _public_word(g.group(1).lower(), words) for g in (after, before)
    )


def _public_word(low: str, words: Any) -> bool:
    """A term ("MSc", "PhD", "HbA1c") or a product's or a program's public name
    ("Python", "Kafka", "dbt"), and no one's name."""
    return not (words.is_given(low) or words.is_surname(low)) and (
        words.is_term(low) or words.public_kind(low) == "brand"
    )


#: A quarter or a half of a year, a financial year: "Q3", "H1", "FY25", "FY2026".
_PERIOD = re.compile(r"(?<![\w-])(?:Q[1-4]|H[12]|FY ?(?:\d{2}|\d{4}))(?![\w-])")
#: The days of the week and the months, in lower case.
_CALENDAR_WORDS = frozenset(
    "monday tuesday wednesday thursday friday saturday sunday january february march april "
    "may june july august september october november december".split()
)
#: A word this long, in lower case, with at least this frequency (Zipf) is a word of the
#: language ("anticoagulation" 2.2), not a login or a name no list knows (0).
_LONG_WORD = 9
LONG_WORD_ZIPF = 2.0
#: A role in brackets right after a person's name: "(VP Sales)", "(principal)".
_ROLE_BRACKET = re.compile(r"[ \t]*\(([^()\n]{1,40})\)")


def _roles_after_people(text: str, offset: int, entities: Sequence[Span]) -> list[tuple[int, int]]:
    """Where, in ``text`` (a sentence starting at ``offset``), brackets right after a
    person's name hold a role: "Dana Whitfield (CFO)", "Rahul Bose (VP Sales)"."""
    out = []
    for e in entities:
        if e.type is not EntityType.PERSON or not offset <= e.end <= offset + len(text):
            continue
        m = _ROLE_BRACKET.match(text, e.end - offset)
        if m is not None:
            out.append((m.start(1), m.end(1)))
    return out


def _found_connections(text: str, found: Sequence[bool]) -> Iterator[tuple[int, int]]:
    """The extent of each connection string in ``text`` (scheme to the end of its token:
    port and database too) whose user, password or host holds a found character."""
    for m in CONNECTION.finditer(text):
        if any(found[i] for g in ("user", "password", "host") for i in range(*m.span(g))):
            end = _TOKEN_END.search(text, m.end())
            yield m.start(), end.start() if end is not None else len(text)


#: A link to this machine, which names no one.
_LOCAL_LINK = re.compile(
    r"\b[a-z][a-z0-9+.\-]{1,20}://(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\])(?::\d{1,5})?(?:/[^\s\"'<>()]*)?",
    re.IGNORECASE,
)
#: Where a connection string's token ends: a space, a quote, a bracket.
_TOKEN_END = re.compile(r"[\s\"'<>()\[\]]|[.,;]?(?:\s|$)")

#: In a text without capitals a given name may stand in a sentence the rules send only as
#: a word this frequent ("will" 6.4; "may" 5.9, "mercy", "byron" leave the sentence to the
#: policy), a surname only as a common word ("her", "back", "fine"; not "kaczmarek").
LOWER_GIVEN_ZIPF = 6.0
LOWER_SURNAME_ZIPF = 4.0

#: The most digits a bare number outside the detected values may have: a count, a year, a
#: time ("14:12"); longer runs may be an identifier the detector missed.
MAX_BARE_DIGITS = 4


def is_plain_remainder(
    sentence: Sentence, entities: Sequence[Span], text_is_cased: bool, values: Iterable[str] = ()
) -> bool:
    """True when everything of ``sentence`` outside its detected ``entities`` is common
    words that name no one and small numbers or amounts: "£2,840.55 net / £1,150 rent /
    5% to savings / per week?", "- [Oliver Brennan-Ashe]: 72% in the electricity test,
    great at practicals". Sent anonymized, such a sentence carries nothing but what the
    type policy decides value by value: no name, place or number the detector could
    have missed is left in it (a common word is no one's name: the lexicon's plain words
    exclude every given name and surname). In a text written with ordinary capitals a
    name the detector missed would show by its capital: a word with a capital is allowed
    only first in the sentence, as "I", or as a title. Withheld,
    the sentence is lost to the cloud for nothing (issue: needless withheld sentences).

    In a text written all in lower case ("results r hba1c 49 mmol/mol, ldl 4.0") a missed
    name shows by no capital, so there no word may be a given name or a surname unless it
    is a term or one of the language's most frequent words (:data:`LOWER_GIVEN_ZIPF`)."""
    from core.lexicon import COMPONENT_NAME, PET_BEFORE, PET_WORD, lexicon

    words = lexicon()
    text = sentence.text
    masked = list(text)
    for e in entities:
        for i in range(max(e.start, sentence.start), min(e.end, sentence.end)):
            masked[i - sentence.start] = " "
    # A value detected elsewhere in the query, where it stands again ("host all
    # svc_payroll ..." after "the app user svc_payroll"): every occurrence of a value is
    # decided by the type policy (:func:`is_values_only` reads them the same way).
    for a, b in _value_occurrences(text, values):
        masked[a:b] = [" "] * (b - a)
    # A connection string whose user, password or host are values: its scheme, its port
    # and its database name no one ("postgres://[ACCOUNT_1]:[ID_1]@[URL_1]:5432/ledger").
    found_here = [c == " " and not t.isspace() for c, t in zip(masked, text, strict=True)]
    for a, b in _found_connections(text, found_here):
        masked[a:b] = [" "] * (b - a)
    # A link to this machine ("redis://localhost:6379", "http://127.0.0.1:8000/docs").
    for m in _LOCAL_LINK.finditer(text):
        masked[m.start() : m.end()] = [" "] * (m.end() - m.start())
    rest = "".join(masked)
    if "@" in rest or "://" in rest:
        return False
    # A program's or a configuration's file ("pg_hba.conf", "app.py"): code.
    rest = _CODE_FILE.sub(lambda m: " " * len(m.group()), rest)
    for m in _NUMBER.finditer(rest):
        token = m.group()
        digits = sum(c.isdigit() for c in token)
        if (
            digits > MAX_BARE_DIGITS
            and not (token[0] in "£$€¥₹" or token.endswith("%"))
            and not _READING.fullmatch(token.strip())  # "BP 148/96": a pressure, no one's number
        ):
            return False
    rest = _UNIT.sub(lambda m: " " * len(m.group()), rest)  # "U/L", "mmol/L", "g/dL"
    # A term written with digits is one word ("T2DM", "CKD3a", "HbA1c", "eGFR"): no name.
    rest = _TOKEN.sub(
        lambda m: " " * len(m.group())
        if any(c.isdigit() for c in m.group()) and words.is_term(m.group().lower())
        else m.group(),
        rest,
    )
    # A loyalty scheme's name before its member's number ("Gold Plus Rewards member
    # [ID_2]"): a product thousands hold, whatever its words.
    rest = _SCHEME.sub(lambda m: " " * len(m.group()), rest)
    # A configuration's constant of common words ("export AWS_SECRET_ACCESS_KEY=[ID_1]",
    # "DB_PASSWORD") or a program's public name ("POSTGRES_USER=[ID_1]"): a key, never
    # anyone's name, whatever a word of it is elsewhere ("Key").
    rest = _CONSTANT.sub(
        lambda m: " " * len(m.group())
        if all(
            words.is_term(w.lower())
            or words.is_plain(w.lower())
            or _frequency(w.lower()) >= FREQUENT_ZIPF
            or _public_word(w.lower(), words)
            for w in m.group().split("_")
            if w
        )
        else m.group(),
        rest,
    )
    # A pregnancy's gravida and para ("34F, G2P1, 29+3 weeks"): a note's shorthand.
    rest = _GRAVIDA_PARA.sub(lambda m: " " * len(m.group()), rest)
    # A quarter or a half of a year ("on Q3 numbers", "FY25") and a hospital's service by
    # its kind ("Seen in Fracture Clinic"): no one's name.
    rest = _PERIOD.sub(lambda m: " " * len(m.group()), rest)
    rest = CLINICAL_SERVICE.sub(lambda m: " " * len(m.group()), rest)
    roles = _roles_after_people(text, sentence.start, entities)
    # A program's part in CamelCase ("AuthService - user=[EMAIL_1] failed"): code.
    rest = COMPONENT_NAME.sub(lambda m: " " * len(m.group()), rest)
    found = list(_LETTERS.finditer(rest))
    if not found:
        # Values, their keys and small numbers only ("DATABASE_URL=postgres://[ACCOUNT_1]:
        # [ID_1]@[URL_1]:5432/ehr\nREDIS_URL=redis://localhost:6379"): nothing else to read.
        return any(c == " " and not t.isspace() for c, t in zip(masked, text, strict=True))
    first = _LETTERS.search(text)
    for m in found:
        w = m.group()
        low = w.lower()
        named = words.is_given(low) or words.is_surname(low)
        if not text_is_cased and not words.is_term(low) and (
            (words.is_given(low) and _frequency(low) < LOWER_GIVEN_ZIPF)
            or (words.is_surname(low) and _frequency(low) < LOWER_SURNAME_ZIPF)
        ):
            return False
        public = _public_word(low, words)
        if w[:1].isupper():
            if len(w) >= 2 and w.isupper():
                # An acronym: a frequent one or a term ("APR", "ID", "DOB"), never one the
                # lexicon does not know ("a complaint to BHP").
                if not (words.is_term(low) or low in _LABELS) and (named or words.zipf(low) < 3.5):
                    return False
                continue
            # First in the sentence, or after a full stop inside it (the segmenter kept
            # "... 38 g/L. These are ..." as one).
            sentence_first = (first is not None and m.start() == first.start()) or bool(
                _AFTER_STOP.search(text, 0, m.start())
            )
            if not (
                w == "I"
                or low in _TITLES
                or sentence_first
                or public
                # "on Tuesday", "in October": a day's or a month's name ("May", "June"
                # are people's too, and decide nothing here).
                or (low in _CALENDAR_WORDS and not named)
                # "Rahul Bose (VP Sales)": a role in brackets after a person's name.
                or (any(a <= m.start() < b for a, b in roles) and (words.is_term(low) or words.is_plain(low)))
                # "My dog Biscuit (cocker spaniel, ...)": a pet's name names no one.
                or PET_BEFORE.search(text, max(0, m.start() - 48), m.start()) is not None
                or (not named and _listed_with_public(rest, m.start(), m.end(), words))
                # A message's or a log's word after a bracket, a colon or a quote ("Error
                # from server (Forbidden): ... User ..."): a frequent dictionary word,
                # which no one carries as a name, starts a field there.
                or (
                    not named
                    and _AFTER_MARK.search(text, max(0, m.start() - 3), m.start()) is not None
                    and words.is_plain(low)
                    and _frequency(low) >= FREQUENT_ZIPF
                )
            ):
                return False
        if not (
            words.is_plain(low)  # "i" too
            or words.is_term(low)  # the titles too
            # "to", "council", "per": names too, in lower case and this frequent no one's.
            or _frequency(low) >= (FREQUENT_GIVEN_ZIPF if words.is_given(low) else FREQUENT_ZIPF)
            or (not w[:1].isupper() and (_MEDICAL.fullmatch(low) or words.public_kind(low) == "drug"))
            or (not w[:1].isupper() and PET_WORD.fullmatch(low) is not None)
            or (not named and (_plain_compound(low, words) or _plain_plural(low, words)))
            or (not named and _british_plain(low, words))
            or public
            or (not named and _frequency(low) >= COMMON_ZIPF)
            # "anticoagulation": a long word of the language, rare but written (a login
            # or a name nobody wrote down has no frequency at all).
            or (
                not named
                and not w[:1].isupper()
                and len(low) >= _LONG_WORD
                and _frequency(low) >= LONG_WORD_ZIPF
                and words.public_kind(low) in (None, "drug")
            )
        ):
            return False
    return True
