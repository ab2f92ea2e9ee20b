"""Make the forms dev set: texts people paste, with synthetic values and gold spans.

People paste CVs, patient summaries, intake forms, e-mail signatures, tables,
``key: value`` lines, JSON, YAML, CSV rows, e-mail headers, log lines, card and
bank details and invoices into a chat. Each *kind* below writes such a text in
several layouts (separators, label spellings, field order, nesting) from values
made by Faker with a fixed seed; numbers that have a check digit are made
valid where the type says so (Luhn for card numbers, mod 97 for IBANs, the
NHS number's mod 11, the US SSN's area rules) and checked with python-stdnum.

Each item is in the utility format (``{id, text, protect[], keep[], persons}``,
``training/data/check_utility.py``) plus

* ``spans``: ``[{start, end, type}]``, every private value with its type
  (:class:`core.entities.EntityType`); ``protect`` is the set of their values;
* ``labels``: the label strings written before values ("CVV:", "NHS number",
  ``"email":``) that must reach the outbound verbatim.

Amounts, lab values with their analyte, versions and the like are ``keep``
strings. Nothing here is a real person's data. ``docs/data-card-forms.md``
describes the set.

    python -m training.data.make_forms [--out training/data/forms_dev.json] [--seed 2207]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from faker import Faker
from stdnum import iban as std_iban
from stdnum import luhn
from stdnum.us import ssn as std_ssn

from core.entities import EntityType as T

DEFAULT_OUT = Path(__file__).with_name("forms_dev.json")
SEED = 2207
#: The day every date is drawn relative to (Faker's own "today" would change the set daily).
ANCHOR = date(2026, 11, 24)
#: Texts of each kind (each in another layout where the kind has them).
PER_KIND = 4


# --- check digits ------------------------------------------------------------------


def nhs_valid(number: str) -> bool:
    """The NHS number's check: 10 digits, weights 10..2, check digit 11 - sum mod 11 (11 -> 0; 10 invalid)."""
    digits = [int(c) for c in number if c.isdigit()]
    if len(digits) != 10:
        return False
    total = sum(d * w for d, w in zip(digits[:9], range(10, 1, -1), strict=True))
    check = 11 - total % 11
    check = 0 if check == 11 else check
    return check != 10 and check == digits[9]


def make_nhs(rng: random.Random) -> str:
    """A valid NHS number written as ``### ### ####``."""
    while True:
        body = [rng.randint(0, 9) for _ in range(9)]
        body[0] = rng.randint(4, 9)
        total = sum(d * w for d, w in zip(body, range(10, 1, -1), strict=True))
        check = 11 - total % 11
        check = 0 if check == 11 else check
        if check == 10:
            continue
        s = "".join(map(str, body)) + str(check)
        return f"{s[:3]} {s[3:6]} {s[6:]}"


def grouped(number: str, sizes: Sequence[int], sep: str) -> str:
    out, pos = [], 0
    for size in sizes:
        out.append(number[pos : pos + size])
        pos += size
    if pos < len(number):
        out.append(number[pos:])
    return sep.join(x for x in out if x)


# --- the builder of one text ---------------------------------------------------------------


@dataclass
class Text:
    """A text written piece by piece; values record their span, labels and keeps their string."""

    parts: list[str] = field(default_factory=list)
    spans: list[dict[str, Any]] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    keep: list[str] = field(default_factory=list)
    people: set[str] = field(default_factory=set)
    size: int = 0

    def lit(self, s: str) -> Text:
        self.parts.append(s)
        self.size += len(s)
        return self

    def val(self, s: str, type_: T, person: str | None = None) -> Text:
        self.spans.append({"start": self.size, "end": self.size + len(s), "type": str(type_)})
        if type_ is T.PERSON:
            self.people.add(person or s)
        return self.lit(s)

    def label(self, s: str) -> Text:
        if s.strip() and s not in self.labels:
            self.labels.append(s)
        return self.lit(s)

    def keep_(self, s: str) -> Text:
        if s not in self.keep:
            self.keep.append(s)
        return self.lit(s)

    def field(self, label: str, sep: str, value: str, type_: T, end: str = "\n") -> Text:
        """``label`` + ``sep`` + value + ``end``; the label string is ``label`` + ``sep`` stripped."""
        lab = (label + sep).rstrip()
        self.label(lab)
        self.lit((label + sep)[len(lab) :])
        return self.val(value, type_).lit(end)

    @property
    def text(self) -> str:
        return "".join(self.parts)


# --- values -----------------------------------------------------------------------------------


class Values:
    """Synthetic values, all drawn from one seeded Faker and one seeded Random."""

    def __init__(self, seed: int) -> None:
        Faker.seed(seed)
        self.fake = Faker(["en_GB", "en_US", "de_DE", "fr_FR", "nl_NL"])
        self.fake.seed_instance(seed)
        self.rng = random.Random(seed)
        self.used: set[str] = set()

    def _fresh(self, make: Callable[[], str]) -> str:
        for _ in range(100):
            v = make()
            if v not in self.used:
                self.used.add(v)
                return v
        raise RuntimeError("no fresh value")

    def loc(self, locale: str | None = None) -> Any:
        return self.fake[locale or self.rng.choice(["en_GB", "en_US"])]

    def name(self, locale: str | None = None) -> tuple[str, str, str]:
        f = self.loc(locale)

        def make() -> str:
            return f"{f.first_name()} {f.last_name()}"

        full = self._fresh(make)
        first, last = full.split(" ", 1)
        return full, first, last

    def email(self, first: str, last: str, domain: str | None = None) -> str:
        import unicodedata

        def ascii_(s: str) -> str:
            s = unicodedata.normalize("NFKD", s).encode("ascii", "ignore").decode()
            return "".join(c for c in s.lower() if c.isalnum())

        dom = domain or self.fake["en_GB"].free_email_domain()
        style = self.rng.choice(["{f}.{l}", "{f}{l}", "{f0}{l}", "{f}_{l}{n}"])
        local = style.format(
            f=ascii_(first), l=ascii_(last), f0=ascii_(first)[:1], n=self.rng.randint(1, 99)
        )
        if f"{local}@{dom}" not in self.used:
            self.used.add(f"{local}@{dom}")
            return f"{local}@{dom}"
        # The same person's address drawn twice (another seed, more texts): a number added.
        return self._fresh(lambda: f"{local}{self.rng.randint(100, 999)}@{dom}")

    def company(self, locale: str = "en_GB") -> str:
        return self._fresh(lambda: self.fake[locale].company())

    def domain_of(self, company: str) -> str:
        word = "".join(c for c in company.split()[0].lower() if c.isalpha()) or "example"
        return f"{word}{self.rng.choice(['.co.uk', '.com', '.io', '.de'])}"

    def phone(self, style: str | None = None) -> str:
        """A phone number in a national layout; North American area codes and exchanges
        start with 2-9 (NANP), British mobiles with 07, the Leeds area code is 0113."""
        style = style or self.rng.choice(["uk_mobile", "uk_land", "us", "intl_us", "de"])
        f = self.fake["en_GB"]
        pattern = {
            "uk_mobile": "07### ######",
            "uk_land": "0113 ### ####",
            "us": "(A##) A##-####",
            "intl_us": "+1 A##-A##-####",
            "de": "+49 30 ########",
            "intl_uk": "+44 7### ######",
        }[style]

        def make() -> str:
            number = f.numerify(pattern)
            while "A" in number:
                number = number.replace("A", str(self.rng.randint(2, 9)), 1)
            return number

        return self._fresh(make)

    def dob(self, fmt: str | None = None) -> str:
        # Faker's date_of_birth(minimum_age=18, maximum_age=88) on ANCHOR, drawn the same way.
        start = ANCHOR.replace(year=ANCHOR.year - 89)
        end = ANCHOR.replace(year=ANCHOR.year - 18)
        d = self.fake["en_GB"].date_time_ad(start_datetime=start, end_datetime=end).date()
        d = d if d != start else d + timedelta(days=1)
        fmt = fmt or self.rng.choice(["%d/%m/%Y", "%Y-%m-%d", "%d %B %Y", "%B %d, %Y", "%m/%d/%Y"])
        return self._fresh(lambda: d.strftime(fmt))

    def date(self, fmt: str = "%d/%m/%Y") -> str:
        # Faker's "-3y" to "today" on ANCHOR.
        d = self.fake["en_GB"].date_between(ANCHOR - timedelta(days=1096), ANCHOR)
        return d.strftime(fmt)

    def street(self, locale: str = "en_GB") -> str:
        f = self.fake[locale]
        return self._fresh(lambda: f"{self.rng.randint(2, 240)} {f.street_name()}")

    def postcode(self, locale: str = "en_GB") -> str:
        return self._fresh(lambda: self.fake[locale].postcode())

    def city(self, locale: str = "en_GB") -> str:
        return self._fresh(lambda: self.fake[locale].city())

    def ssn(self) -> str:
        v = self._fresh(lambda: self.fake["en_US"].ssn())
        assert std_ssn.is_valid(v), v
        return v

    def card(self, sep: str = " ") -> str:
        kind = self.rng.choice(["visa16", "mastercard", "amex"])
        raw = self.fake["en_GB"].credit_card_number(card_type=kind)
        assert luhn.is_valid(raw), raw
        sizes = (4, 6, 5) if len(raw) == 15 else (4, 4, 4, 4)
        return self._fresh(lambda: grouped(raw, sizes, sep))

    def cvv(self) -> str:
        return self._fresh(lambda: f"{self.rng.randint(101, 989)}")

    def expiry(self) -> str:
        return self._fresh(lambda: f"{self.rng.randint(1, 12):02d}/{self.rng.randint(27, 31)}")

    def iban(self, locale: str | None = None, spaced: bool = True) -> str:
        loc = locale or self.rng.choice(["en_GB", "de_DE", "fr_FR", "nl_NL"])
        raw = self.fake[loc].iban()
        assert std_iban.is_valid(raw), raw
        return self._fresh(lambda: std_iban.format(raw) if spaced else raw)

    def nhs(self) -> str:
        v = self._fresh(lambda: make_nhs(self.rng))
        assert nhs_valid(v)
        return v

    def mrn(self) -> str:
        return self._fresh(
            lambda: self.rng.choice(["", "RX", "H"]) + str(self.rng.randint(1000000, 99999999))
        )

    def digits(self, n: int, prefix: str = "") -> str:
        return self._fresh(lambda: prefix + "".join(str(self.rng.randint(0, 9)) for _ in range(n)))

    def code(self, pattern: str) -> str:
        return self._fresh(lambda: self.fake["en_GB"].bothify(pattern).upper())

    def sort_code(self) -> str:
        return self._fresh(lambda: "-".join(f"{self.rng.randint(10, 99)}" for _ in range(3)))

    def ipv4(self, private: bool = False) -> str:
        f = self.fake["en_GB"]
        return self._fresh(lambda: f.ipv4_private() if private else f.ipv4_public())

    def user(self, first: str, last: str) -> str:
        return self._fresh(
            lambda: f"{first[0].lower()}{last.lower()}{self.rng.randint(1, 9)}".replace(" ", "")
        )

    def pick(self, xs: Sequence[Any]) -> Any:
        return self.rng.choice(list(xs))


# --- the kinds of text ---------------------------------------------------------------------------
#
# Each kind takes the values and its variant number (0..PER_KIND-1: the layout) and writes one text.

Kind = Callable[[Values, int], Text]


def cv(v: Values, k: int) -> Text:
    name, first, last = v.name()
    email = v.email(first, last)
    phone = v.phone(v.pick(["uk_mobile", "us", "intl_uk"]))
    city = v.city()
    employer, earlier = v.company(), v.company()
    school = f"University of {v.city()}"
    degree = v.pick(["B.Sc. Computer Science", "BA (Hons) Economics", "MSc Data Science", "B.Eng. Mechanical Engineering"])
    skill = v.pick(["Python 3.11", "Java 17", "Kubernetes 1.29", "PostgreSQL 16"])
    link = f"linkedin.com/in/{first.lower()}-{last.lower().replace(' ', '')}-{v.digits(3)}"
    t = Text()
    if k == 0:  # Markdown headings
        t.lit("# ").val(name, T.PERSON).lit("\n")
        t.val(city, T.LOCATION).lit(" · ").val(email, T.EMAIL).lit(" · ").val(phone, T.PHONE).lit("\n\n")
        t.lit("## Experience\n**Senior Analyst**, ").val(employer, T.ORG).lit(" (2019 to now)\n")
        t.lit("**Analyst**, ").val(earlier, T.ORG).lit(" (2015 to 2019)\n\n## Education\n")
        t.keep_(degree).lit(", ").val(school, T.ORG).lit("\n\n## Skills\n").keep_(skill).lit(", SQL, Excel\n\n")
        t.lit("Can you tighten this CV for a data engineering role?")
    elif k == 1:  # plain key: value header
        t.lit("Please proofread my CV.\n\n")
        t.field("Name", ": ", name, T.PERSON)
        t.field("Email", ": ", email, T.EMAIL)
        t.field("Mobile", ": ", phone, T.PHONE)
        t.field("LinkedIn", ": ", link, T.URL)
        t.lit("\nEXPERIENCE\n").val(employer, T.ORG).lit(", ").val(city, T.LOCATION).lit(" | Product Manager | 2018-2024\n")
        t.lit("EDUCATION\n").keep_(degree).lit(" - ").val(school, T.ORG).lit(", 2014\n")
    elif k == 2:  # two columns with tabs
        t.val(name, T.PERSON).lit("\t\t").label("Phone:").lit(" ").val(phone, T.PHONE).lit("\n")
        t.val(city, T.LOCATION).lit("\t\t").label("E-mail:").lit(" ").val(email, T.EMAIL).lit("\n\n")
        t.lit("2016-2023\tLead Developer at ").val(employer, T.ORG).lit("\n")
        t.lit("2012-2016\t").keep_(degree).lit(", ").val(school, T.ORG).lit("\n")
        t.lit("Skills\t").keep_(skill).lit("\n\nWrite me a two-line summary for the top of this CV.")
    else:  # a cover-letter style profile
        t.lit("Profile: ").val(name, T.PERSON).lit(", based in ").val(city, T.LOCATION).lit(". ")
        t.lit("Currently at ").val(employer, T.ORG).lit(", previously ").val(earlier, T.ORG).lit(". ")
        t.keep_(degree).lit(" from ").val(school, T.ORG).lit(".\n")
        t.field("Contact", ": ", email, T.EMAIL, " / ").val(phone, T.PHONE).lit("\n")
        t.lit("Turn this into a short bio in the third person.")
    return t


def patient(v: Values, k: int) -> Text:
    name = v.name("en_GB")[0]
    nhs, dob, mrn = v.nhs(), v.dob(), v.mrn()
    gp = f"Dr {v.name('en_GB')[0]}"
    surgery = f"{v.fake['en_GB'].last_name()} {v.pick(['Medical Practice', 'Surgery', 'Health Centre'])}"
    hba1c = v.pick(["HbA1c 8.4%", "HbA1c 7.9%", "HbA1c 6.8%", "HbA1c 9.1%"])
    egfr = v.pick(["eGFR 52 mL/min/1.73m2", "eGFR 64 mL/min/1.73m2", "eGFR 48 mL/min/1.73m2"])
    med = v.pick(["metformin 500 mg twice daily", "ramipril 5 mg once daily", "atorvastatin 20 mg at night"])
    t = Text()
    if k == 0:
        t.lit("Discharge summary\n")
        t.field("Patient", ": ", name, T.PERSON)
        t.field("DOB", ": ", dob, T.DATE)
        t.label("NHS number").lit(" ").val(nhs, T.ID).lit(". ").keep_(hba1c).lit(".\n")
        t.field("MRN", ": ", mrn, T.MRN)
        t.lit("GP: ").val(gp, T.PERSON, gp).lit(", ").val(surgery, T.ORG).lit("\n")
        t.lit("Plan: ").keep_(med).lit(".\n\nWhat does this summary mean for me?")
    elif k == 1:
        t.lit("Can you explain these results?\n\n")
        t.val(name, T.PERSON).lit(" (").label("DOB").lit(" ").val(dob, T.DATE).lit(", ")
        t.label("NHS No.").lit(" ").val(nhs, T.ID).lit(")\n")
        t.lit("Results: ").keep_(hba1c).lit(", ").keep_(egfr).lit(", ").keep_("LDL 3.9 mmol/L").lit("\n")
        t.lit("Requested by ").val(gp, T.PERSON, gp).lit(" at ").val(surgery, T.ORG).lit(".")
    elif k == 2:  # table
        t.lit("| Field | Value |\n|---|---|\n")
        t.lit("| ").label("Name").lit(" | ").val(name, T.PERSON).lit(" |\n")
        t.lit("| ").label("Date of birth").lit(" | ").val(dob, T.DATE).lit(" |\n")
        t.lit("| ").label("NHS number").lit(" | ").val(nhs, T.ID).lit(" |\n")
        t.lit("| ").label("Hospital no.").lit(" | ").val(mrn, T.MRN).lit(" |\n")
        t.lit("| Latest | ").keep_(hba1c).lit(" |\n\nIs my diabetes getting worse?")
    else:
        t.lit("Referral letter for ").val(name, T.PERSON).lit(", ").label("MRN:").lit(" ").val(mrn, T.MRN)
        t.lit(", ").label("NHS number:").lit(" ").val(nhs, T.ID).lit(", ").label("DOB:").lit(" ").val(dob, T.DATE).lit(".\n")
        t.lit("Current medication: ").keep_(med).lit(". ").keep_(egfr).lit(".\n")
        t.lit("Referred by ").val(gp, T.PERSON, gp).lit(". Please rewrite this in plain English.")
    return t


def intake(v: Values, k: int) -> Text:
    name, first, last = v.name("en_US")
    dob, ssn, phone = v.dob("%m/%d/%Y"), v.ssn(), v.phone("us")
    email = v.email(first, last)
    street, city = v.street("en_US"), v.city("en_US")
    state_zip = f"{v.fake['en_US'].state_abbr()} {v.fake['en_US'].zipcode()}"
    policy = v.code("???-#######")
    insurer = v.company("en_US")
    contact = v.name("en_US")[0]
    cphone = v.phone("us")
    t = Text()
    sep = [": ", ": ", " - ", ":\t"][k]
    t.lit(["New patient intake form\n", "INTAKE\n", "Client registration\n", "Form 1 of 3\n"][k])
    order = [
        ("Full name", name, T.PERSON),
        ("Date of Birth", dob, T.DATE),
        ("Social Security Number (SSN)" if k % 2 == 0 else "SSN", ssn, T.SSN),
        ("Phone", phone, T.PHONE),
        ("Email", email, T.EMAIL),
        ("Street address", street, T.ADDRESS),
        ("City", city, T.LOCATION),
        ("State/ZIP", state_zip, T.ADDRESS),
        ("Insurance carrier", insurer, T.ORG),
        ("Policy number", policy, T.ACCOUNT),
        ("Emergency contact", contact, T.PERSON),
        ("Emergency phone", cphone, T.PHONE),
    ]
    if k == 3:
        v.rng.shuffle(order)
    for label, value, type_ in order:
        t.field(label, sep, value, type_)
    t.lit(["\nWhich of these fields are required by law?", "\nCheck the form for typos.",
           "\nFormat this as a table please.", "\nWhat else will the clinic ask me?"][k])
    return t


def signature(v: Values, k: int) -> Text:
    name, first, last = v.name()
    company = v.company()
    email = v.email(first, last, v.domain_of(company))
    phone, mobile = v.phone("uk_land"), v.phone("uk_mobile")
    street, pc, city = v.street(), v.postcode(), v.city()
    role = v.pick(["Head of Finance", "Office Manager", "Senior Solicitor", "Account Director"])
    t = Text()
    t.lit(["Shorten my e-mail signature:\n\n", "Make this signature look more professional:\n\n",
           "Translate this signature into German:\n\n", "Is this signature GDPR compliant?\n\n"][k])
    if k == 0:
        t.val(name, T.PERSON).lit("\n").keep_(role).lit(" | ").val(company, T.ORG).lit("\n")
        t.label("T:").lit(" ").val(phone, T.PHONE).lit(" | ").label("M:").lit(" ").val(mobile, T.PHONE).lit("\n")
        t.label("E:").lit(" ").val(email, T.EMAIL).lit("\n")
        t.val(street, T.ADDRESS).lit(", ").val(city, T.LOCATION).lit(" ").val(pc, T.ADDRESS)
    elif k == 1:
        t.lit("Kind regards,\n").val(first, T.PERSON, name).lit("\n\n--\n").val(name, T.PERSON).lit(", ").keep_(role).lit("\n")
        t.val(company, T.ORG).lit("\n").val(street, T.ADDRESS).lit("\n").val(city, T.LOCATION).lit("\n").val(pc, T.ADDRESS).lit("\n")
        t.label("Tel:").lit(" ").val(phone, T.PHONE).lit("\n").label("Email:").lit(" ").val(email, T.EMAIL)
    elif k == 2:
        t.val(name, T.PERSON).lit(" · ").keep_(role).lit("\n").val(company, T.ORG).lit(" · ")
        t.val(street, T.ADDRESS).lit(", ").val(pc, T.ADDRESS).lit(" ").val(city, T.LOCATION).lit("\n")
        t.label("Phone").lit(" ").val(phone, T.PHONE).lit(" · ").label("Mobile").lit(" ").val(mobile, T.PHONE).lit(" · ").val(email, T.EMAIL)
    else:
        t.lit("Best,\n").val(name, T.PERSON).lit("\n").val(company, T.ORG).lit("\n")
        t.label("Direct line:").lit(" ").val(phone, T.PHONE).lit("\n").label("Mobile:").lit(" ").val(mobile, T.PHONE).lit("\n")
        t.keep_("This e-mail and any attachments are confidential.")
    return t


def table(v: Values, k: int) -> Text:
    people = [v.name() for _ in range(3)]
    t = Text()
    if k in (0, 1):
        t.lit("Sort this contact list by surname:\n\n")
        if k == 0:
            t.lit("| ").label("Name").lit(" | ").label("Email").lit(" | ").label("Phone").lit(" |\n|---|---|---|\n")
        else:
            t.label("Name\tEmail\tPhone").lit("\n")
        for full, first, last in people:
            email, phone = v.email(first, last), v.phone()
            a, b, c = ("| ", " | ", " |\n") if k == 0 else ("", "\t", "\n")
            t.lit(a).val(full, T.PERSON).lit(b).val(email, T.EMAIL).lit(b).val(phone, T.PHONE).lit(c)
    else:
        t.lit("Which of these staff are due for training?\n\n")
        head = ("Employee ID", "Name", "Start date", "Last course") if k == 2 else ("Staff no.", "Name", "Joined", "Course")
        if k == 2:
            for h in head:
                t.lit("| ").label(h).lit(" ")
            t.lit("|\n|---|---|---|---|\n")
        else:
            t.label(",".join(head)).lit("\n")
        for full, _first, _last in people:
            emp = v.code("E#####")
            start = v.date("%Y-%m-%d")
            course = v.pick(["Fire safety 2023", "GDPR basics v2", "First aid (3 days)"])
            if k == 2:
                t.lit("| ").val(emp, T.ID).lit(" | ").val(full, T.PERSON).lit(" | ").val(start, T.DATE).lit(" | ").keep_(course).lit(" |\n")
            else:
                t.val(emp, T.ID).lit(",").val(full, T.PERSON).lit(",").val(start, T.DATE).lit(",").keep_(course).lit("\n")
    return t


def json_record(v: Values, k: int) -> Text:
    name, first, last = v.name()
    email, phone = v.email(first, last), v.phone()
    street, city, pc = v.street(), v.city(), v.postcode()
    iban = v.iban(spaced=False)
    dob = v.dob("%Y-%m-%d")
    user_id = v.digits(6, str(v.rng.randint(1, 9)))
    t = Text()
    t.lit(["Why does this JSON fail to parse?\n\n", "Convert this JSON to XML:\n\n",
           "Write a Python dataclass for this record:\n\n", "What fields are missing for a GDPR export?\n\n"][k])
    ind = "  " if k % 2 == 0 else "    "

    def kv(key: str, value: str, type_: T, last_: bool = False, depth: int = 1) -> None:
        t.lit(ind * depth).label(f'"{key}":').lit(' "').val(value, type_).lit('"' + ("" if last_ else ",") + "\n")

    t.lit("{\n")
    t.lit(ind).label('"id":').lit(" ").val(user_id, T.ID).lit(",\n")
    kv("name" if k != 1 else "full_name", name, T.PERSON)
    kv("email", email, T.EMAIL)
    if k >= 2:
        kv("date_of_birth", dob, T.DATE)
    kv("phone", phone, T.PHONE)
    t.lit(ind).lit('"address": {\n')
    kv("street", street, T.ADDRESS, depth=2)
    kv("city", city, T.LOCATION, depth=2)
    kv("postcode", pc, T.ADDRESS, last_=True, depth=2)
    t.lit(ind + "},\n")
    kv("iban", iban, T.IBAN)
    t.lit(ind).lit('"plan": "').keep_("premium-v3").lit('",\n')
    t.lit(ind).lit('"balance": ').keep_("1250.75").lit("\n}")
    if k == 0:
        t.lit(",")
    return t


def yaml_record(v: Values, k: int) -> Text:
    name, first, last = v.name()
    email = v.email(first, last)
    host = f"db-{v.pick(['prod', 'stage'])}-{v.rng.randint(1, 9)}.internal.{v.domain_of(v.company())}"
    ip = v.ipv4(private=True)
    user = v.user(first, last)
    t = Text()
    if k in (0, 1):
        t.lit("My deployment fails with this config, what is wrong?\n\n")
        t.lit("service:\n  image: ").keep_("app:2.14.3").lit("\n")
        t.lit("  owner:\n    ").field("name", ": ", name, T.PERSON, "\n    ")
        t.field("email", ": ", email, T.EMAIL, "\n")
        t.lit("database:\n  ").field("host", ": ", host, T.URL, "\n  ")
        t.field("user", ": ", user, T.ID, "\n  ")
        t.lit("port: ").keep_("5432").lit("\n")
        if k == 1:
            t.lit("  ").field("fallback_ip", ": ", ip, T.IP, "\n")
    else:
        phone, dob = v.phone(), v.dob("%Y-%m-%d")
        city = v.city()
        t.lit("Make this YAML valid:\n\n---\n")
        t.field("person", ": ", name, T.PERSON)
        t.field("born", ": ", dob, T.DATE)
        t.label("contact:").lit("\n  - ").val(email, T.EMAIL).lit("\n  - ").val(phone, T.PHONE).lit("\n")
        t.field("home_city", ": ", city, T.LOCATION)
        t.lit("tags: [").keep_("beta").lit(", ").keep_("v1.4").lit("]\n")
        if k == 3:
            t.field("passport", ": ", v.code("#########"), T.ID)
    return t


def csv_rows(v: Values, k: int) -> Text:
    t = Text()
    header = [
        "customer_id,name,email,phone,amount",
        "Name;IBAN;Amount;Currency",
        "order,date,customer,postcode,total",
        "id,first_name,last_name,dob,city",
    ][k]
    t.lit(["Dedupe these rows:\n", "Sum the amounts per currency:\n", "Which order is the largest?\n",
           "Fix the date format in this CSV:\n"][k])
    t.label(header).lit("\n")
    for _ in range(3):
        full, first, last = v.name()
        if k == 0:
            t.val(v.digits(6, "C"), T.ID).lit(",").val(full, T.PERSON).lit(",").val(v.email(first, last), T.EMAIL)
            t.lit(",").val(v.phone(), T.PHONE).lit(",").keep_(v.pick(["£85.00", "£120.50", "£9.99"])).lit("\n")
        elif k == 1:
            money, cur = v.pick([("185,00", "ZAR"), ("40,00", "CHF"), ("500,00", "INR"), ("1.250,00", "EUR")])
            t.val(full, T.PERSON).lit(";").val(v.iban(spaced=False), T.IBAN).lit(";").keep_(money).lit(";").lit(cur).lit("\n")
        elif k == 2:
            t.val(v.code("ORD-######"), T.ACCOUNT).lit(",").val(v.date("%Y-%m-%d"), T.DATE).lit(",")
            t.val(full, T.PERSON).lit(",").val(v.postcode(), T.ADDRESS).lit(",").keep_(v.pick(["R185", "CHF 40", "Rs. 500", "$3,400"])).lit("\n")
        else:
            t.val(v.digits(5), T.ID).lit(",").val(first, T.PERSON, full).lit(",").val(last, T.PERSON, full)
            t.lit(",").val(v.dob("%d.%m.%Y"), T.DATE).lit(",").val(v.city(), T.LOCATION).lit("\n")
    return t


def email_headers(v: Values, k: int) -> Text:
    (a, af, al), (b, bf, bl), (c, cf, cl) = v.name(), v.name(), v.name()
    company = v.company()
    dom = v.domain_of(company)
    ea, eb, ec = v.email(af, al, dom), v.email(bf, bl), v.email(cf, cl, dom)
    t = Text()
    t.lit(["Summarise this e-mail thread:\n\n", "Is this e-mail a phishing attempt?\n\n",
           "Draft a reply to this:\n\n", "Who should I reply to here?\n\n"][k])
    t.label("From:").lit(" ").val(a, T.PERSON).lit(" <").val(ea, T.EMAIL).lit(">\n")
    t.label("To:").lit(" ").val(eb, T.EMAIL).lit("\n")
    if k != 1:
        t.label("Cc:").lit(" ").val(c, T.PERSON).lit(" <").val(ec, T.EMAIL).lit(">\n")
    t.label("Date:").lit(" " + v.pick(["Tue, 4 Mar 2025 09:12:44 +0000", "Mon, 17 Feb 2025 16:03:10 +0100"]) + "\n")
    t.label("Subject:").lit(" ").keep_(v.pick(["Re: invoice for March", "Q3 budget", "Your account update"])).lit("\n\n")
    t.lit("Hi ").val(bf, T.PERSON, b).lit(",\nplease see the figures below; the total is ")
    t.keep_(v.pick(["CHF 40", "R185", "Rs. 500", "€1,250.00"])).lit(".\n")
    if k == 1:
        t.lit("Verify your account at ").val(f"https://{dom}/verify?u={v.digits(6)}", T.URL).lit("\n")
    t.lit("Thanks,\n").val(af, T.PERSON, a)
    return t


def log_lines(v: Values, k: int) -> Text:
    name, first, last = v.name()
    user = v.user(first, last)
    email = v.email(first, last)
    ip1, ip2 = v.ipv4(), v.ipv4(private=True)
    t = Text()
    t.lit(["Why does this login fail?\n\n", "Explain these log lines:\n\n",
           "Is this a brute-force attack?\n\n", "What does error 502 mean here?\n\n"][k])
    ts = ["2025-03-04T09:12:44Z", "2025-03-04T09:12:47Z", "2025-03-04T09:13:02Z"]
    if k in (0, 2):
        t.lit(f"{ts[0]} INFO auth: login attempt ").label("user=").val(user, T.ID).lit(" ").label("ip=").val(ip1, T.IP).lit("\n")
        t.lit(f"{ts[1]} WARN auth: bad password ").label("user=").val(user, T.ID).lit(" ").label("ip=").val(ip1, T.IP).lit("\n")
        t.lit(f"{ts[2]} ERROR auth: account locked ").label("email=").val(email, T.EMAIL).lit("\n")
    elif k == 1:
        t.lit(f"[{ts[0]}] ").val(ip2, T.IP).lit(' - - "GET /api/v2/orders HTTP/1.1" ').keep_("200 512").lit("\n")
        t.lit(f"[{ts[1]}] payment ok ").label("customer:").lit(" ").val(name, T.PERSON).lit(" ").label("card:").lit(" ")
        t.lit("**** **** **** ").keep_("4421").lit("\n")
        t.lit(f"[{ts[2]}] mailer: sent receipt to ").val(email, T.EMAIL).lit("\n")
    else:
        t.lit(f"{ts[0]} upstream ").val(ip2, T.IP).lit(":8080 returned 502 for ").label("user_id=").val(v.digits(8), T.ID).lit("\n")
        t.lit(f"{ts[1]} nginx/").keep_("1.25.3").lit(" retry 1/3\n")
        t.lit(f"{ts[2]} notify on-call: ").val(name, T.PERSON).lit(" ").val(v.phone("intl_uk"), T.PHONE).lit("\n")
    return t


def profile(v: Values, k: int) -> Text:
    name, first, last = v.name("en_US")
    ssn, card, cvv, exp = v.ssn(), v.card(v.pick([" ", "-"])), v.cvv(), v.expiry()
    dob, phone = v.dob("%m/%d/%Y"), v.phone("us")
    email = v.email(first, last)
    street = v.street("en_US")
    t = Text()
    t.lit(["Here is my profile from the bank's form, is it safe to send by e-mail?\n\n",
           "Fill in a cover note from this profile:\n\n", "Check this order form:\n\n",
           "My account details (pasted):\n"][k])
    sep = ": " if k != 2 else " = "
    t.field("Full Name", sep, name, T.PERSON)
    t.field("Social Security Number (SSN)" if k != 3 else "SSN #", sep, ssn, T.SSN)
    t.field("Date of Birth" if k % 2 else "DOB", sep, dob, T.DATE)
    t.field("Credit Card Number" if k != 1 else "Card number", sep, card, T.CREDIT_CARD)
    t.field("Expiry" if k != 0 else "Exp. date", sep, exp, T.DATE)
    t.field("CVV", sep, cvv, T.ID)
    t.field("Phone", sep, phone, T.PHONE)
    t.field("Email", sep, email, T.EMAIL)
    t.field("Billing address", sep, street, T.ADDRESS)
    if k == 3:
        t.lit("Is anything here something I should never paste into a chat?")
    return t


def bank(v: Values, k: int) -> Text:
    name = v.name("en_GB")[0]
    iban = v.iban(v.pick(["en_GB", "de_DE", "nl_NL"]), spaced=k % 2 == 0)
    acct, sort = v.digits(8), v.sort_code()
    company = v.company()
    invoice = v.code("INV-####-###")
    money = v.pick(["R185", "CHF 40", "Rs. 500", "€1,250.00", "£3,850.00", "¥12,000"])
    t = Text()
    if k == 0:
        t.lit("Write a polite payment reminder with these details:\n")
        t.field("Payee", ": ", name, T.PERSON)
        t.field("IBAN", ": ", iban, T.IBAN)
        t.field("Invoice", ": ", invoice, T.ACCOUNT)
        t.label("Amount:").lit(" ").keep_(money).lit("\n")
    elif k == 1:
        t.lit("Please pay ").keep_(money).lit(" to ").val(company, T.ORG).lit(", ")
        t.label("account no.").lit(" ").val(acct, T.ACCOUNT).lit(", ").label("sort code").lit(" ").val(sort, T.ACCOUNT)
        t.lit(", ").label("IBAN").lit(" ").val(iban, T.IBAN).lit(", reference ").val(invoice, T.ACCOUNT).lit(".\nRewrite this as a formal instruction.")
    elif k == 2:
        t.lit("Bank details for the deposit\n")
        t.field("Account holder", ":\t", name, T.PERSON)
        t.field("Bank", ":\t", company, T.ORG)
        t.field("IBAN", ":\t", iban, T.IBAN)
        t.field("Account number", ":\t", acct, T.ACCOUNT)
        t.lit("Deposit:\t").keep_(money).lit(" (refundable)\nIs this a normal amount for a deposit?")
    else:
        t.lit("Split these costs between three people: rent ").keep_("R4,500").lit(", taxi ").keep_("R185").lit(", museum ").keep_("CHF 40")
        t.lit(", lunch ").keep_("Rs. 500").lit(".\nPay me back to ").val(name, T.PERSON).lit(", ").label("IBAN:").lit(" ").val(iban, T.IBAN).lit(".")
    return t


def tech(v: Values, k: int) -> Text:
    """Support tickets: versions and build codes stay, the person's details go."""
    name, first, last = v.name()
    email = v.email(first, last)
    serial = v.code("SN-??##-####")
    phone = v.phone()
    os_ = v.pick(["Windows 11 23H2", "macOS 14.4.1", "Ubuntu 22.04.4 LTS", "Android 14 (UP1A.231005.007)"])
    app = v.pick(["Chrome 122.0.6261.112", "Firefox 124.0", "Slack 4.36.140", "Zoom 5.17.11"])
    t = Text()
    t.lit(["Support ticket\n", "Bug report (please summarise):\n", "Device details for the repair form:\n", "Help desk request\n"][k])
    t.field("Reporter" if k != 2 else "Owner", ": ", name, T.PERSON)
    t.field("Contact", ": ", email, T.EMAIL)
    if k >= 2:
        t.field("Callback", ": ", phone, T.PHONE)
    t.label("OS:").lit(" ").keep_(os_).lit("\n")
    t.label("App:").lit(" ").keep_(app).lit("\n")
    t.field("Serial", ": ", serial, T.ID)
    t.lit(["The app crashes on start since the last update.", "Screen flickers after waking from sleep.",
           "Battery drains in 2 hours.", "Cannot sign in, error 0x80070005."][k])
    return t


KINDS: dict[str, Kind] = {
    "cv": cv,
    "patient": patient,
    "intake": intake,
    "signature": signature,
    "table": table,
    "json": json_record,
    "yaml": yaml_record,
    "csv": csv_rows,
    "email": email_headers,
    "log": log_lines,
    "profile": profile,
    "bank": bank,
    "tech": tech,
}


def to_item(item_id: str, t: Text) -> dict[str, Any]:
    text = t.text
    protect: list[str] = []
    for s in t.spans:
        value = text[s["start"] : s["end"]]
        if value not in protect:
            protect.append(value)
    return {
        "id": item_id,
        "text": text,
        "protect": protect,
        "keep": list(t.keep),
        "persons": len(t.people),
        "spans": [dict(s) for s in t.spans],
        "labels": list(t.labels),
    }


def make(seed: int = SEED, per_kind: int = PER_KIND) -> list[dict[str, Any]]:
    """Every item, in kind order; a draw whose labels the checker finds wrong is drawn again.

    The layouts of a kind are numbered 0 to ``PER_KIND - 1``; more texts per kind repeat
    them with other values."""
    from training.data.check_utility import check_items

    values = Values(seed)
    items = []
    for kind, write in KINDS.items():
        for k in range(per_kind):
            for _attempt in range(20):
                item = to_item(f"form-{kind}-{k + 1}", write(values, k % PER_KIND))
                if not check_items([item]):
                    break
            else:
                raise RuntimeError(f"{kind} {k}: no clean draw: {check_items([item])}")
            items.append(item)
    return items


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.data.make_forms", description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=str(DEFAULT_OUT))
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args(argv)
    items = make(args.seed)
    Path(args.out).write_text(json.dumps(items, indent=1, ensure_ascii=False) + "\n", "utf-8")
    spans = sum(len(i["spans"]) for i in items)
    print(f"{args.out}: {len(items)} texts, {spans} gold spans, {sum(len(i['labels']) for i in items)} labels")
    return 0


if __name__ == "__main__":
    sys.exit(main())
