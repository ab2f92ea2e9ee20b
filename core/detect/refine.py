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
import logging
import re
from collections.abc import Iterable, Sequence

from core.detect.fields import checked_type, field_at, fields
from core.detect.hosts import host_names, public_name
from core.detect.names import (
    FLIGHT,
    HANDLE,
    JOB_TITLE,
    KINSHIP,
    NO_MACHINE,
    TITLE_CASE_NAME,
    flight_context,
    join_names,
    other_script_names,
    retype,
    words_not_a_name,
)
from core.detect.tokens import atoms, snap
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
from core.lexicon import Lexicon
from core.spans import Span, merge_spans

log = logging.getLogger(__name__)


#: NER-only spans below this (calibrated) score are "unsure" for rule 4.
UNSURE = 0.8
#: Below this the model barely proposed the span (0.5 is its decoding threshold).
BARELY = 0.6
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
#: NER score from which a lower-case word in a cased text still counts as a name.
LOWER_IN_CASED = 0.9
#: Words that label a value ("invoice INV-1", "passport number X48"): never the value itself.
LABEL_WORDS = frozenset(
    """account acct number no num nr id ids mrn record records patient member membership policy
    claim case ticket order invoice ref reference booking confirmation passport licence license
    card iban sort code routing pin phone tel telephone mobile cell fax email e-mail mail
    address user username login password dob date birth ssn postcode zip serial badge
    employee staff student registration plate vin tax vat
    street city town state county province region country line direct hospital nhs clinic
    cvv cvc cvv2 security host hostname reporter carrier insurance insurer course""".split()
)

#: Short labels that belong to the value after them ("MRN KDH-77419", "ID W284719305").
CODE_LABELS = frozenset({"mrn", "id", "ssn", "dob", "nhs", "nino", "vin", "pin", "no", "nr", "ref", "#"})

#: Words near a bare small number that make it an age.
_AGE_CONTEXT = re.compile(
    r"\b(?:son|daughter|child|kid|boy|girl|baby|toddler|teen|teenager|brother|sister|"
    r"mother|mum|mom|father|dad|grandmother|grandfather|grandma|grandpa|wife|husband|"
    r"partner|patient|aged?|age of|turned|turns|is|was)\W{0,3}$",
    re.IGNORECASE,
)
#: Punctuation that separates items: a span never runs across it.
_SEPARATORS = re.compile(
    r"[;|•·\t()\[\]{}]|\s[-–—]\s|\n\s*[-*•]\s|\n[ \t]+|\n\s*\n"
    # A full stop then a capital ends a sentence, unless it follows an initial or a title.
    r"|(?<![\s.][A-Z])(?<!\b(?:Mr|Ms|Dr|St|Jr|Sr))(?<!\bMrs)(?<!\bProf)\.\s+(?=[A-Z])"
)


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
        for m in re.finditer(r"\S+", value)
        if re.search(r"[\d.@:/]", m.group())  # "or", a label's word: no address
    ]


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


def _split_addresses(
    text: str, pieces: list[tuple[int, int]]
) -> list[tuple[int, int, EntityType | None]]:
    """A machine's address inside another value is a value of its own ("09:12:44Z
    upstream 192.168.188.74:8080" read as one date): the address is cut out and
    typed ``IP``, the rest keeps its type (``None``: the span's own)."""
    out: list[tuple[int, int, EntityType | None]] = []
    for a, b in pieces:
        pos = a
        for m in IP.finditer(text, a, b):
            if (m.start(), m.end()) == (a, b) or NO_MACHINE.fullmatch(m.group(0)):
                continue
            if pos < m.start():
                out.append((pos, m.start(), None))
            out.append((m.start(), m.end(), EntityType.IP))
            pos = m.end()
        if pos < b:
            out.append((pos, b, None))
    return out


def _small_number(value: str) -> bool:
    """One to three digits, with an optional decimal part ("7", "52", "7.5")."""
    return bool(re.fullmatch(r"\d{1,3}(?:[.,]\d{1,2})?", value))


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
    if not words or (span.type is EntityType.PERSON and len(words) > 1) or DIGITS.search(value):
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
        f = field_at(found, span.start, span.end) if found else None
        if f is not None:
            # The value a label names (its shape matched): the label decides, whatever
            # type a view guessed ("IBAN: GB00 WEST ..." is no street address).
            value = text[f.start : f.end] if span.start == f.start else text[span.start : span.end]
            span = Span(span.start, span.end, f.type_of(value), span.score, {**span.views, FIELD: 1.0})
        elif span.type in _VALUE_TYPES and DIGITS.search(text, span.start, span.end):
            # Names, and words without a digit (dropped below when their type needs one),
            # keep their type.
            t = checked_type(text[span.start : span.end], span.type)
            if t is not span.type:
                span = Span(span.start, span.end, t, span.score, span.views)
        out.append(span)
    return out


#: A field's key right before a name-like value: "City: Leeds", '"city": "Leeds"',
#: "town=Leeds", "| Postcode | LS1 4AP", "City - Leeds". Group ``key`` is the field's name.
_NAME_FIELD = re.compile(
    r"(?:^|[\n{,|\t])[ \t]*[-*•]?[ \t]*[\"']?(?P<key>[A-Za-z][A-Za-z _\-/]{1,24}?)[\"']?"
    r"(?:[ \t]*[:=|\t]|[ \t]+[-–])[ \t]*[\"']?[ \t]*$"
)
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
         "zip", "zip code", "zipcode"),
        EntityType.ADDRESS,
    ),
    **dict.fromkeys(
        ("name", "person", "full name", "fullname", "first name", "firstname", "last name",
         "lastname", "surname", "given name", "patient", "patient name", "customer",
         "customer name", "contact", "contact name", "next of kin", "emergency contact",
         "employee", "employee name", "guardian", "parent", "spouse"),
        EntityType.PERSON,
    ),
    **dict.fromkeys(
        ("company", "employer", "organisation", "organization", "school", "university",
         "college", "practice", "firm", "bank", "insurer", "insurance", "insurance carrier",
         "insurance company", "carrier", "health insurer", "gp practice", "surgery",
         "hospital", "clinic"),
        EntityType.ORG,
    ),
}  # fmt: skip
#: The view a value typed by its record's key carries; with a place it tells the type
#: policy the place is where a person of the record lives or was born (core.policy).
RECORD = "record"
#: The types a field's key may overrule: a model's guess of a name's kind.
_RETYPABLE = _NAME_TYPES | {EntityType.ADDRESS, EntityType.ID}


_CSV_HEADER_CELL = re.compile(r"[A-Za-z][A-Za-z0-9 _\-/]{0,30}")


def csv_keys(text: str) -> list[tuple[int, int, str]]:
    """The cells of comma-separated tables with a header row, as ``(start, end, key)``:
    "id,first_name,dob,city" over rows gives each row's cells their column's name."""
    out: list[tuple[int, int, str]] = []
    lines, pos = [], 0
    for line in text.split("\n"):
        lines.append((pos, line))
        pos += len(line) + 1
    k = 0
    while k < len(lines):
        _, head = lines[k]
        cells = head.split(",")
        if len(cells) < 2 or not all(_CSV_HEADER_CELL.fullmatch(c.strip()) for c in cells):
            k += 1
            continue
        keys = [c.strip() for c in cells]
        j = k + 1
        while j < len(lines) and lines[j][1].count(",") == len(keys) - 1 and lines[j][1].strip():
            row_start, row = lines[j]
            a = row_start
            for key, cell in zip(keys, row.split(","), strict=True):
                out.append((a, a + len(cell), key))
                a += len(cell) + 1
            j += 1
        k = max(j, k + 1)
    return out


def _key_type(key: str) -> EntityType | None:
    key = re.sub(r"[_\-\s]+", " ", key).strip().casefold()
    t = NAME_FIELD_TYPES.get(key)
    if t is None and key.rsplit(" ", 1)[-1] in ("city", "town"):
        t = EntityType.LOCATION  # "home_city", "current town"
    return t


def _name_field_types(text: str, spans: list[Span]) -> list[Span]:
    """A name-like value takes the type its field's key names ("city": a place,
    "Next of kin": a person), when a view found it right after the key (or in
    the key's column of a CSV table) and typed it as another kind of name; it
    carries the :data:`RECORD` view. A number the key cannot be (an ``ID``
    without a letter) keeps its type."""
    table: list[tuple[int, int, str]] | None = None  # the CSV cells, read once when needed
    starts: list[int] = []
    out = []
    for span in spans:
        if span.type in _RETYPABLE and FIELD not in span.views:
            line_start = text.rfind("\n", 0, span.start) + 1
            m = _NAME_FIELD.search(text, max(line_start - 1, 0, span.start - 40), span.start)
            key = m.group("key") if m is not None else None
            if key is None and "," in text:
                if table is None:
                    table = csv_keys(text)
                    starts = [a for a, _, _ in table]
                i = bisect.bisect_right(starts, span.start) - 1
                if i >= 0 and span.end <= table[i][1]:
                    key = table[i][2]
            t = _key_type(key) if key is not None else None
            value = text[span.start : span.end]
            if (
                t is not None
                and (span.type is not EntityType.ID or any(c.isalpha() for c in value))
                and not (t is EntityType.PERSON and any(c.isdigit() for c in value))
            ):
                span = Span(span.start, span.end, t, span.score, {**span.views, RECORD: 1.0})
        out.append(span)
    return out


def refine(text: str, spans: Iterable[Span], lexicon: Lexicon | None = None) -> list[Span]:
    """Apply the rules of this module to ``spans`` of ``text``; return them merged."""
    # Touching pieces are one token's (the model reads "北京" one character at a time).
    spans = join_names(text, merge_spans(spans))
    if not spans:
        return []
    spans += other_script_names(text, spans)
    table = atoms(text)
    found = Zones(
        [
            *((*table.covering(a, b), reason) for a, b, reason in zones(text, lexicon, table)),
            *field_zones(fields(text)),
        ]
    )
    cased = _is_cased(text)
    kept: list[Span] = []
    for span in spans:
        if span.views.keys() & _KEEP_WHOLE:
            kept.append(span)
            continue
        value = text[span.start : span.end]
        if span.type in _ADDRESS_TYPES or (" " in value and host_names(value)):
            # Addresses and host names are single words ("nas.local or printer.lan").
            pieces = _split_words(text, span)
        elif span.type in _VALUE_TYPES and "\n" in text[span.start : span.end]:
            # A number, a code or a date stands on one line: "5500 0000 0000 0004\nExp" is a
            # card number and the label of the next line.
            pieces = _split_lines(text, span.start, span.end)
        elif span.type in _NAME_TYPES:
            pieces = _split_name_lines(text, _split_separators(text, span), lexicon)
        elif span.type is EntityType.ADDRESS:
            # An address may run over lines, never into the next line's label.
            pieces = _split_name_lines(text, _split_open_bracket(text, span), lexicon)
        else:
            pieces = _split_open_bracket(text, span)
        typed = (
            _split_addresses(text, pieces)
            if span.type is not EntityType.IP
            else [(a, b, None) for a, b in pieces]
        )
        for k, (a, b, t) in enumerate(typed):
            if k > 0 and t is None and not holds_word(text, table, a, b):
                # What ran past a separator into part of a word carries nothing.
                continue
            for piece in snap(text, [Span(a, b, t or span.type, span.score, span.views)], table):
                kept.extend(apply_zones(text, piece, found, table, lexicon))
    kept = _name_field_types(text, _field_types(text, kept))
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
        if span.type in _DIGIT_TYPES and not any(c.isdigit() for c in value):
            # A phone, card or account number without a digit is a word the model
            # read next to one ("net" of "net 30").
            continue
        if (
            span.type in (EntityType.URL, EntityType.EMAIL)
            and not re.search(r"[./:@]", value)
            and set(span.views) - {"name-extent"} == {"ner"}
        ):
            # A web or e-mail address has a dot, a colon or an "@": "host" of "at host
            # db-1.corp.lan" is the word before one that the model took for it; a
            # capitalized word ("I work for Flightstats") is a name it mistyped.
            if value.islower():
                continue
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
            elif span.type is EntityType.AGE or _AGE_CONTEXT.search(
                text_before(text, span.start)
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
        if span.type is EntityType.PERSON and KINSHIP.fullmatch(value):
            # "Mi madre", "ma mère", "meine Mutter": a relative named by the relation,
            # in the language a person writes about family in; no one's name.
            continue
        if (
            cased
            and span.type in _NAME_TYPES
            and value.islower()
            and not HANDLE.fullmatch(value)
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
        if _ner_only_unsure(span) and (
            (lexicon is not None and _common_only(text, span, lexicon))
            or _unspaced_only(value)
        ):
            continue
        out.append(span)
    return merge_spans(out)
