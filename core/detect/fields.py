"""Fields: a label written before a value, and the validators that check a value's type.

People paste forms and profiles ("Social Security Number (SSN): 123-45-6789",
"NHS number 943 476 5919", "CVV: 123", "Policy number POL-99812"). The label
says what the value is and must leave as written, so the cloud model still
knows what the placeholder stands for; only the value is replaced. Each label
of :data:`FIELD_LABELS` gives its value a type, and the validator of that type
(Luhn for a card, the SSA's rules for an SSN, mod 11 for an NHS number, mod 97
for an IBAN, an e-mail's syntax, a phone number's digits) must agree: a value
that fails keeps the generic type ``ID`` rather than a wrong one.

:func:`fields` finds every label followed by a value, once per text. The
rules view proposes the values (:class:`core.detect.rules.RulesView`), the
zones cut the labels out of any span that swallowed them
(:func:`core.detect.zones.zones`, reason ``label``), and refinement gives the
value the label's type (:func:`core.detect.refine.refine`). :func:`checked_type`
applies the validators to a value without a label too: sixteen digits in four
groups are a card number when Luhn agrees and an ``ID`` otherwise, never a
phone number.

The checksums are presidio-analyzer's (its credit card, UK NHS and IBAN
recognizers' ``validate_result``); the SSN rules are written here because
Presidio's also refuse the published sample numbers, which people do paste.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from core.entities import EntityType

# --- validators ---------------------------------------------------------------------------


def _digits(value: str) -> str:
    return "".join(c for c in value if c.isdigit())


@lru_cache(maxsize=1)
def _presidio() -> dict[str, Any]:
    from presidio_analyzer.predefined_recognizers import (
        CreditCardRecognizer,
        IbanRecognizer,
        NhsRecognizer,
    )

    return {"card": CreditCardRecognizer(), "iban": IbanRecognizer(), "nhs": NhsRecognizer()}


def card_grouping(value: str) -> bool:
    """Whether a card number is grouped as cards print theirs: one run of digits, groups of
    four (the last one shorter), or American Express's and Diners Club's 4-6-5 and 4-6-4."""
    groups = [g for g in re.split(r"[ \t-]+", value.strip()) if g]
    sizes = [len(g) for g in groups]
    if len(sizes) == 1:
        return True
    return sizes in ([4, 6, 5], [4, 6, 4]) or (
        all(n == 4 for n in sizes[:-1]) and 1 <= sizes[-1] <= 4
    )


def luhn_ok(value: str) -> bool:
    """A card number: 12 to 19 digits, spaces or dashes between groups, Luhn's checksum."""
    digits = _digits(value)
    if not 12 <= len(digits) <= 19 or re.search(r"[^\d \-]", value.strip()):
        return False
    return bool(_presidio()["card"].validate_result(digits))


def ssn_ok(value: str) -> bool:
    """A US social security number: 9 digits (``AAA-GG-SSSS``), area not 000, 666 or 9xx,
    group not 00, serial not 0000, one kind of separator."""
    if not re.fullmatch(r"\d{3}([- .]?)\d{2}\1\d{4}", value.strip()):
        return False
    d = _digits(value)
    return d[:3] not in ("000", "666") and d[0] != "9" and d[3:5] != "00" and d[5:] != "0000"


def nhs_ok(value: str) -> bool:
    """A UK NHS number: 10 digits (``3 3 4``), mod 11 check digit."""
    if not re.fullmatch(r"\d{3}[- ]?\d{3}[- ]?\d{4}", value.strip()):
        return False
    return bool(_presidio()["nhs"].validate_result(_digits(value)))


def iban_ok(value: str) -> bool:
    """An IBAN: country code, check digits and account, mod 97."""
    compact = re.sub(r"[\s-]", "", value.strip()).upper()
    if not re.fullmatch(r"[A-Z]{2}\d{2}[A-Z0-9]{10,30}", compact):
        return False
    return bool(_presidio()["iban"].validate_result(compact))


_EMAIL_SYNTAX = re.compile(
    r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~\-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~\-]+)*"
    r"@(?:[A-Za-z0-9](?:[A-Za-z0-9\-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24}"
)


def email_ok(value: str) -> bool:
    """An e-mail address: a local part, an ``@`` and a domain with a top-level part."""
    return bool(_EMAIL_SYNTAX.fullmatch(value.strip()))


_EXTENSION = re.compile(r"\s*(?:ext\.?|extension|x)\s*\d{1,6}$", re.IGNORECASE)


def phone_ok(value: str) -> bool:
    """A phone number: 7 to 15 digits (E.164) and only the signs numbers are written with
    (an extension may follow)."""
    v = _EXTENSION.sub("", value.strip())
    return 7 <= len(_digits(v)) <= 15 and not re.search(r"[^\d\s+().\-/]", v)


def date_ok(value: str) -> bool:
    """A date as forms write it: "03/11/1961", "3 March 1961", "March 3, 1961", "04/27", or
    a year alone ("DOB 1936": a year of birth)."""
    v = value.strip()
    return bool(re.fullmatch(_VALUES["date"], v) or re.fullmatch(r"(?:19|20)\d\d", v))


#: The validator of each type that has one.
VALIDATORS: dict[EntityType, Callable[[str], bool]] = {
    EntityType.CREDIT_CARD: luhn_ok,
    EntityType.SSN: ssn_ok,
    EntityType.IBAN: iban_ok,
    EntityType.EMAIL: email_ok,
    EntityType.PHONE: phone_ok,
}

#: Sixteen (twelve to nineteen) digits in groups of four: the shape of a card number. No
#: card number begins with 0 (ISO/IEC 7812 leaves it to other uses); a phone number dialled
#: with its trunk "0" does ("0176 23456789", a German mobile's).
_CARD_SHAPE = re.compile(r"(?!0)\d{4}(?:[ \-]?\d{4}){2}(?:[ \-]?\d{1,7})?")
_SSN_SHAPE = re.compile(r"\d{3}-\d{2}-\d{4}")
#: A date as ISO 8601 writes it, of the last and this century: "2024-02-11".
_ISO_DATE = re.compile(r"(?:19|20)\d\d-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])")


_IBAN_SHAPE = re.compile(r"[A-Z]{2}\d{2}(?: ?[A-Z0-9]{2,4}){3,8}")


#: Digits in groups apart by spaces only, a "+" before them allowed.
_SPACED_DIGITS = re.compile(r"\+?\d+(?: \d+)+")


def checked_type(value: str, typed: EntityType) -> EntityType:
    """The type ``value`` may have when a view typed it ``typed``: its shape and its
    validator decide; a value that fails the validator of its type becomes ``ID``.

    A card's shape is a card when Luhn agrees, else an ``ID`` (never a phone);
    ``AAA-GG-SSSS`` is an SSN when the SSA's rules agree, else an ``ID``.
    """
    v = value.strip()
    if typed is EntityType.DATE and _SPACED_DIGITS.fullmatch(v) and sum(c.isdigit() for c in v) >= 9:
        # "07700 900263" in a table beside times, read as a date: no date has nine digits
        # (a date of an event leaves at the default level; the number is someone's).
        return EntityType.PHONE if phone_ok(v) else EntityType.ID
    if typed in (EntityType.PHONE, EntityType.ID, EntityType.ACCOUNT) and _ISO_DATE.fullmatch(v):
        return EntityType.DATE  # "2024-02-11": a date as machines write it, never dialled
    if typed in (EntityType.PHONE, EntityType.CREDIT_CARD, EntityType.ID, EntityType.ACCOUNT, EntityType.SSN):
        if _CARD_SHAPE.fullmatch(v):
            return EntityType.CREDIT_CARD if luhn_ok(v) else EntityType.ID
        if _SSN_SHAPE.fullmatch(v) and typed in (EntityType.PHONE, EntityType.SSN, EntityType.ID):
            return EntityType.SSN if ssn_ok(v) else EntityType.ID
    if typed in (EntityType.ID, EntityType.ACCOUNT):
        # A shape with a checksum or a country code says more than a model's guess:
        # "NL05NWBC1316982991" passes mod 97, "+49 30 56484902" dials a country.
        if _IBAN_SHAPE.fullmatch(v) and iban_ok(v):
            return EntityType.IBAN
        if v.startswith("+") and phone_ok(v):
            return EntityType.PHONE
    check = VALIDATORS.get(typed)
    if check is not None and not check(v):
        if typed in (EntityType.EMAIL, EntityType.URL) and _DIALLED_SHAPE.fullmatch(v):
            # "jo@x.com / 07324 613651" read as one address: the number after it is a
            # phone's, written as one is dialled.
            return EntityType.PHONE
        return EntityType.ID
    return typed


#: A phone number as it is dialled: a trunk "0", a country code or an area code in
#: brackets, then groups of digits, 10 to 13 digits in all.
_DIALLED_SHAPE = re.compile(r"(?=(?:\D*\d){10,13}\D*$)(?:\+\d{1,3}|0\d{1,4}|\(\d{2,5}\))(?:[ \-]?\d{2,5}){1,4}")


# --- labels -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FieldLabel:
    """A label (``pattern``, as people write it) and what the value after it is."""

    name: str
    pattern: str
    type: EntityType
    #: The shape of the value: "code" (digits and capitals in groups), "phone",
    #: "email" or "date".
    value: str = "code"
    #: The validator that decides the type; a value that fails it is an ``ID``.
    check: Callable[[str], bool] | None = None


#: Words joining the parts of a label: a space, an underscore or a dash ("card_number").
_J = r"[\s_\-]+"
#: "number", "no.", "#", "nr": what follows the name of an identifier.
_NO = rf"(?:{_J}(?:numbers?|num|nos?\.?|nr\.?|#|id))"

#: The labels, most specific first. Short capital labels match with case only.
FIELD_LABELS: list[FieldLabel] = [
    FieldLabel(
        "ssn",
        rf"social{_J}security(?:{_NO})?(?:\s*\(ssn\))?|ssn|ss#",
        EntityType.SSN,
        check=ssn_ok,
    ),
    # "NHS 111" is a phone service: the NHS number is named as such, before a colon, or
    # written in its own groups right after "NHS" ("NHS 485 777 3456").
    FieldLabel(
        "nhs", rf"nhs{_NO}|nhs(?=\s*[:#]|\s+\d{{3}}[ \-]?\d{{3}}[ \-]?\d{{4}}\b)", EntityType.ID, check=nhs_ok
    ),
    FieldLabel(
        "cvv",
        rf"cvv2?|cvc2?|(?-i:CSC|CVN)|card{_J}(?:verification|security){_J}(?:value|code|number)"
        rf"|security{_J}code",
        EntityType.ID,
    ),
    FieldLabel(
        "card",
        rf"(?:(?:credit|debit|bank|payment|visa|mastercard|amex){_J})?card(?:{_NO})?|(?-i:CC|PAN)(?:{_NO})?",
        EntityType.CREDIT_CARD,
        check=luhn_ok,
    ),
    FieldLabel(
        "mrn",
        rf"mrn|medical{_J}record(?:{_NO})?|chart{_NO}|hospital{_NO}|patient{_J}(?:id|number|no\.?)",
        EntityType.MRN,
    ),
    FieldLabel("iban", r"iban", EntityType.IBAN, check=iban_ok),
    FieldLabel(
        "dob",
        rf"dob|d\.o\.b\.?|date{_J}of{_J}birth|birth{_J}?date|born(?:{_J}(?:on|in))?",
        EntityType.DATE,
        value="date",
        check=date_ok,
    ),
    FieldLabel(
        "expiry",
        rf"exp(?:iry|iration|\.)?(?:{_J}date)?|valid{_J}(?:thru|through|until|to)",
        EntityType.DATE,
        value="date",
        check=date_ok,
    ),
    FieldLabel(
        "phone",
        rf"(?:(?:home|work|mobile|cell|contact|office|direct){_J})?(?:phone|telephone|tel\.?|mobile|cell|fax|mob\.?)"
        rf"(?:{_NO}|{_J}number)?|(?-i:Ph\.?|T)(?=\s*[:.])",
        EntityType.PHONE,
        value="phone",
        check=phone_ok,
    ),
    FieldLabel(
        "email",
        rf"(?:(?:work|home|personal|contact){_J})?e-?mail(?:{_J}address)?",
        EntityType.EMAIL,
        value="email",
        check=email_ok,
    ),
    FieldLabel(
        "account",
        rf"(?:(?:bank|checking|savings|current|customer){_J})?(?:account|acct\.?|a/c)(?:{_NO})?"
        rf"|routing(?:{_NO})?|(?-i:ABA)(?:{_NO})?|sort{_J}code|(?-i:BSB)(?:{_NO})?|transit(?:{_NO})?"
        rf"|(?:invoice|order|booking|reservation|confirmation|reference|ticket){_NO}",
        EntityType.ACCOUNT,
    ),
    FieldLabel(
        "policy",
        rf"(?:insurance{_J})?policy(?:{_NO})?|(?:member|membership|subscriber|group|claim){_NO}",
        EntityType.ACCOUNT,
    ),
    FieldLabel("passport", rf"passport(?:{_NO})?", EntityType.ID),
    FieldLabel(
        "licence",
        rf"driv(?:er'?s|ing){_J}licen[cs]e(?:{_NO})?|(?-i:DL)(?:{_NO})?(?=\s*[:#])",
        EntityType.ID,
    ),
    FieldLabel(
        "national id",
        rf"national{_J}insurance(?:{_NO})?|(?-i:NINO|NI){_NO}?(?=\s*[:#])|(?-i:NI){_NO}"
        rf"|national{_J}id(?:{_NO})?|(?-i:TIN|EIN|ITIN|UTR)|tax{_J}(?:id|number|no\.?|reference)|vat{_NO}"
        # "VAT GB 123 4567 89": a VAT number after its acronym, its country's code first.
        r"|(?-i:VAT)(?=[ \t]*[:#]?[ \t]*[A-Z]{2}[ \t]?\d)"
        # The national numbers of the other languages with rules: a value that fails its
        # checksum there ("DNI: 48392017K") is still the person's number.
        r"|(?-i:DNI|NIE|NIF|BSN|NIR)|steuer-?id|burgerservicenummer|personalausweis(?:nummer)?"
        # Switzerland's and Austria's social security numbers: "AHV-Nr. 756...", "SVNR 4187 ..."
        r"|(?-i:AHV|AVS)(?:-?(?:Nr\.?|Nummer|No\.?))?|(?-i:SVNR|SV-Nr\.?)|sozialversicherungsnummer"
        # Belgium's national register number and Québec's health card number
        r"|(?:n°[ \t]*(?:de[ \t]+)?)?registre[ \t]+national|rijksregister(?:nummer)?|(?-i:NISS|INSZ|NAM|RAMQ)"
        # Other countries' national numbers people paste: Canada's SIN, Australia's TFN and
        # ABN, Ireland's PPS number, New Zealand's NHI, India's Aadhaar and PAN.
        rf"|(?-i:SIN|TFN|ABN|PPSN?|NHI)(?:{_NO})?|pps{_J}number|aadhaa?r(?:{_NO})?"
        r"|(?-i:PAN|pan)(?=[ \t]*[:#]?[ \t]*[A-Z]{5}\d{4}[A-Z]\b)",
        EntityType.ID,
    ),
    FieldLabel(
        "member",
        # A club's or a society's member number in the four languages with rules:
        # "lidnr 2231 en 2319", "Mitgliedsnummer 0815", "n° adhérent 4471", "nº de socio 318".
        r"lid(?:maatschaps)?(?:nr\.?|nummer)|mitglieds-?(?:nr\.?|nummer)"
        r"|(?:n°|nº|no\.?|num[ée]ro)[ \t]+(?:d'|d’|de[ \t]+)?(?:adh[ée]rent|licenci[ée]|socio|socia|abonado)"
        # a lawyer's bar membership: "Col. ICAM 98.213", "colegiado n.º 4521"
        r"|col\.[ \t]+(?-i:IC[A-Z]{1,4})|colegiad[oa](?:[ \t]+(?:n\.?[ºo°]|núm\.?))?",
        EntityType.ACCOUNT,
    ),
    FieldLabel(
        "case",
        rf"(?:court{_J})?case{_NO}|docket{_NO}|claim{_J}reference",
        EntityType.ID,
    ),
    FieldLabel(
        "staff id",
        rf"(?:employee|staff|student|badge|member|customer|user|patient){_J}id(?:{_J}number)?|(?-i:ID){_NO}?"
        # an employee's number in the other languages: "salarié matricule 7731", "n.º de
        # empleado 2019-0147", "Personalnummer 4471", "personeelsnummer 20931", "pers.nr".
        r"|matricule|(?:n\.?[ºo°]|núm(?:ero)?\.?)[ \t]+de[ \t]+(?:empleado|empleada|trabajador|trabajadora)"
        r"|personal-?(?:nr\.?|nummer)|personeels-?(?:nr\.?|nummer)|pers\.[ \t]?nr\.?"
        # a staff file's number in Chile and Argentina: "N° de ficha 0387", "legajo 4412"
        r"|(?:n\.?[ºo°][ \t]*(?:de[ \t]+)?)?(?:ficha|legajo)",
        EntityType.ID,
    ),
    FieldLabel(
        "vehicle",
        rf"(?-i:VIN)|licen[cs]e{_J}plate|(?:vehicle{_J})?registration{_NO}"
        # "my Ford Fiesta (reg KX19 LMN)": a British plate after its abbreviated label.
        r"|reg(?:istration)?\.?(?=[ \t]*[:#]?[ \t]*[A-Z]{2}\d{2}[ \t]?[A-Z]{3}\b)",
        EntityType.ID,
    ),
]

#: Between a label and its value: a colon, an equals sign, "#", a table's bar, "is" (and
#: the same word in the locales' languages: "Su DNI es 50918233K", "Meine Steuer-ID ist"),
#: quotes (JSON, YAML).
_SEP = (
    r"[\"']?[ \t]*(?:[:=#|]|[-–](?=[ \t])|\b(?:is|was|ist|war|est|était|es|era|fue)\b)?"
    r"[ \t]*[\"']?[ \t]*"
)

#: The value's shape for each kind of label.
_VALUES = {
    # Digits and capitals in groups ("943 476 5919", "GB82 WEST 1234 5698 7654 32",
    # "POL-99812", "2:24-cv-01234"); one digit at least.
    # A British number plate, whole: "LB19 XKP".
    "code": r"(?-i:[A-Z]{2}\d{2}[ ][A-Z]{3})(?![\w])|"
    r"(?=[#A-Za-z0-9:\-/. ]{0,40}\d)#?[A-Za-z0-9]+(?:[-/.:][A-Za-z0-9]+)*"
    # A group of capitals alone is written in capitals ("WEST" of an IBAN; "numbers
    # 533380006 and 533380007" are two values, the label is matched without case).
    r"(?:[ ](?:[A-Z0-9]*\d[A-Z0-9]*|(?-i:[A-Z]{2,4})(?=[ ]\d))(?:[-/.][A-Z0-9]+)*)*",
    "phone": r"\+?\(?\d[\d ().\-/]{5,22}\d",
    "email": r"[^\s@\"'<>,;()]+@[^\s@\"'<>,;()]+\.[A-Za-z]{2,24}",
    "date": r"\d{1,4}[/.\-]\d{1,2}[/.\-]\d{1,4}|\d{1,2}(?:st|nd|rd|th)?\s+[A-Za-z]{3,9}\.?,?\s+\d{4}"
    r"|[A-Za-z]{3,9}\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}|\d{1,2}/\d{2}(?:\d{2})?",
}


@dataclass(frozen=True, slots=True)
class Field:
    """One label and its value in a text: ``[label_start, label_end)`` then ``[start, end)``."""

    label_start: int
    label_end: int
    start: int
    end: int
    label: FieldLabel

    def type_of(self, value: str) -> EntityType:
        """The label's type when the value passes its validator, else ``ID``."""
        if self.label.check is not None and not self.label.check(value):
            return checked_type(value, EntityType.ID)
        if self.label.value == "code" and "@" in value:
            return EntityType.EMAIL if email_ok(value) else EntityType.ID  # "SSN: a@b.com"
        return self.label.type


#: A label that names an identifier by itself ("SSN", "card number", "Policy no.").
_NAMING_LABEL = re.compile(
    r"(?:number|num|no\.?|nr\.?|#|id|ssn|cvv2?|cvc2?|mrn|iban|dob|d\.o\.b\.?|nhi|ppsn?|pan|reg\.?|registration"
    r"|nummer|adh[ée]rent|licenci[ée]|socio|socia|abonado|matricule|empleado|empleada|trabajador|trabajadora"
    r"|(?-i:IC[A-Z]{1,4})|colegiad[oa]|ficha|legajo)\)?$",
    re.IGNORECASE,
)


@lru_cache(maxsize=1)
def _compiled() -> list[tuple[FieldLabel, re.Pattern[str]]]:
    out = []
    for label in FIELD_LABELS:
        # A value of another shape still follows its label ("Email: 000-00-0000"): the
        # label stays, and the value, failing the label's validator, is an ID.
        shape = _VALUES[label.value] + (
            "|" + _VALUES["email"] if label.value == "code" else "|" + _VALUES["code"]
        )
        pattern = (
            rf"(?<![\w.@/\-])(?P<label>{label.pattern})(?![\w])(?P<sep>{_SEP})"
            rf"(?P<value>{shape})(?![\w@])"
        )
        out.append((label, re.compile(pattern, re.IGNORECASE)))
    return out


@lru_cache(maxsize=1)
def _label_at_end() -> re.Pattern[str]:
    alternation = "|".join(f"(?:{label.pattern})" for label in FIELD_LABELS)
    return re.compile(rf"(?<![\w.@/\-])(?P<label>{alternation})(?![\w]){_SEP}$", re.IGNORECASE)


def label_before(text: str, pos: int) -> tuple[int, int] | None:
    """The extent of a field's label that ends right before ``pos`` ("My NIF is " before a
    value already replaced by its placeholder), or None."""
    m = _label_at_end().search(text, max(0, pos - 60), pos)
    return m.span("label") if m is not None else None


@lru_cache(maxsize=4)
def fields(text: str) -> tuple[Field, ...]:
    """Every label followed by a value in ``text``, at most one per value (the first
    label of :data:`FIELD_LABELS` that matches it), sorted by position.

    A bare word ("card", "policy", "born") is a label only before a colon or
    an equals sign, or before a value of five digits or more ("policy 2024" is
    a year). The last few texts are remembered: the rules view, the zones and
    the refinement all ask for the same text.
    """
    found: dict[int, Field] = {}
    for label, pattern in _compiled():
        for m in pattern.finditer(text):
            start, end = m.span("value")
            while end > start and text[end - 1] in ".-/:":
                end -= 1  # a sentence's full stop is no part of the value
            if end <= start or start in found:
                continue
            if "@" not in text[start:end] and not any(c.isdigit() for c in text[start:end]):
                # The shape looks ahead for a digit across spaces, so a word came first:
                # "iban vom schorsch is de49 ..." had made "vom" the IBAN (and every
                # "vom" of the message an ID).
                continue
            naming = _NAMING_LABEL.search(m.group("label")) or re.search(r"[:=#|]", m.group("sep"))
            if not naming and label.value != "date" and len(_digits(text[start:end])) < 5:
                continue
            if not naming and label.value == "date" and text[start:end].isdigit() and end - start <= 3:
                continue  # "born 29 weeks", "born 3 days ago": a count, no date
            found[start] = Field(m.start("label"), m.end("label"), start, end, label)
            # "Passport numbers 533380006 and 533380007": a list of values of one shape after
            # one label; each is the label's.
            shape = _shape(text[start:end])
            while (nxt := _NEXT_VALUE.match(text, end)) is not None and _shape(nxt.group("value")) == shape:
                start, end = nxt.span("value")
                if start in found:
                    break
                found[start] = Field(m.start("label"), m.end("label"), start, end, label)
    return tuple(sorted(found.values(), key=lambda f: f.start))


#: The next value of a list after a label's first: ", 533380007", " and 533380007".
_NEXT_VALUE = re.compile(r"(?:[ \t]*,[ \t]*|[ \t]+(?:and|or|&|en|of|und|oder|et|ou|y|o)[ \t]+)(?P<value>[A-Za-z0-9]+(?:[-/.][A-Za-z0-9]+)*)(?![\w@])")


def _shape(value: str) -> str:
    """A value's shape: its digits as 9, its letters as A ("QX7P2L" -> "AA9A9A")."""
    return re.sub(r"[A-Za-z]", "A", re.sub(r"\d", "9", value))


def field_at(found: tuple[Field, ...], start: int, end: int) -> Field | None:
    """The field whose value ``[start, end)`` lies in (or starts), if any."""
    import bisect

    i = bisect.bisect_right(found, start, key=lambda f: f.start) - 1
    if i >= 0 and found[i].start <= start < found[i].end and end <= found[i].end + 1:
        return found[i]
    return None
