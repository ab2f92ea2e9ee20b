"""Encoded and reordered box values are blocked before any socket opens.

The companion of ``test_egress_adversarial.py`` for what pasted text carries:
percent-encoding (a link), HTML character references (e-mail source), JSON
and Python escapes (a code snippet or a log line), quoted-printable and MIME
encoded-words (a raw e-mail), base64 (an attachment or a token), encodings
inside encodings, and person names in another order ("Wielgosz, T.").
At least 500 cases are generated (seeded: every run checks the same ones);
half of them first get one of the adversarial suite's obfuscations (case,
spacing, zero-width characters, look-alikes, accents, line breaks...), then
the encoding. Each goes through the real guard and the real cloud client
with ``socket.connect`` replaced by a trap.

The controls: without the box, every case would have gone out (it is the box
that blocks); and with the box but without decoding and name forms (the guard
as it was), the cases would have gone out too (it is the new scanning that
blocks them).
"""

from __future__ import annotations

import base64
import json
import quopri
import random
import socket
import urllib.parse
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from core.box import PrivacyBox
from core.egress import EgressGuard, MemoryLedger
from core.entities import EntityType
from core.errors import EgressBlocked
from core.llm.cloud import CloudClient
from core.outbound import decoded_views, name_parts, name_variants
from core.outbound.fold import normalize
from tests.core.test_egress_adversarial import NUMBER_TRANSFORMS, TEXT_TRANSFORMS

PERSONS = [
    "Tadeusz Wielgosz",
    "Anna Maria Kowalska",
    "Jonathan Whitaker",
    "Priya Raman",
    "Maria Gonzalez",
    "Łukasz Żółtowski",
    "Dr. Anand Krishnan",
    "Ludwig van Oosterhout",
]
OTHERS: list[tuple[str, EntityType]] = [
    ("Lucas", EntityType.PERSON),  # one part: no other order
    ("Okafor", EntityType.PERSON),
    ("Brightwater Logistics", EntityType.ORG),
    ("742 Evergreen Terrace", EntityType.ADDRESS),
    ("Dubrovnik", EntityType.LOCATION),
    ("555-867-5309", EntityType.PHONE),
    ("+44 20 7946 0958", EntityType.PHONE),
    ("078-05-1120", EntityType.SSN),
    ("4111 1111 1111 1111", EntityType.CREDIT_CARD),
    ("GB82 WEST 1234 5698 7654 32", EntityType.IBAN),
    ("MRN 00482913", EntityType.MRN),
    ("tadeusz.wielgosz@example.com", EntityType.EMAIL),
    ("March 14, 1987", EntityType.DATE),
]
VALUES: list[tuple[str, EntityType]] = [(p, EntityType.PERSON) for p in PERSONS] + OTHERS

CARRIERS = [
    "Please draft a reply to {v} about the invoice.",
    "{v}",
    "Context: the person is {v}. Keep it short.",
    "https://crm.example.org/contact?name={v}&ref=7",
    "Notes:\n- {v}\n- follow up",
    '{{"customer": "{v}", "status": "open"}}',
]

# --- encoders: each returns the value (or the whole sentence) as pasted text would ------------


def _pick(rng: random.Random, v: str, share: float = 0.5) -> list[bool]:
    """Which characters a partial encoding encodes (always at least one letter or digit)."""
    chosen = [rng.random() < share for _ in v]
    spots = [i for i, c in enumerate(v) if c.isalnum()]
    if spots and not any(chosen[i] for i in spots):
        chosen[rng.choice(spots)] = True
    return chosen


def _pct(c: str, lower: bool) -> str:
    out = "".join(f"%{b:02X}" for b in c.encode("utf-8"))
    return out.lower() if lower else out


def e_percent(rng: random.Random, v: str) -> str:
    return urllib.parse.quote(v, safe="")


def e_percent_plus(rng: random.Random, v: str) -> str:
    return urllib.parse.quote_plus(v, safe="")


def e_percent_partial(rng: random.Random, v: str) -> str:
    lower = rng.random() < 0.5
    return "".join(_pct(c, lower) if p else c for c, p in zip(v, _pick(rng, v), strict=True))


def e_percent_double(rng: random.Random, v: str) -> str:
    return urllib.parse.quote(urllib.parse.quote(v, safe=""), safe="")


def e_html_decimal(rng: random.Random, v: str) -> str:
    return "".join(f"&#{ord(c)};" for c in v)


def e_html_hex(rng: random.Random, v: str) -> str:
    x = rng.choice(["x", "X"])
    return "".join(f"&#{x}{ord(c):x};" for c in v)


def e_html_partial(rng: random.Random, v: str) -> str:
    out = []
    for i, (c, p) in enumerate(zip(v, _pick(rng, v), strict=True)):
        if c == " ":
            out.append(rng.choice(["&nbsp;", "&#32;", " "]))
        elif p:
            forms = [f"&#{ord(c)};", f"&#x{ord(c):x};"]
            if i + 1 == len(v) or not (v[i + 1].isalnum() or v[i + 1] == ";"):
                forms.append(f"&#{ord(c)}")  # browsers accept it where nothing follows
            out.append(rng.choice(forms))
        else:
            out.append(c)
    return "".join(out)


def _u(c: str) -> str:
    return json.dumps(c, ensure_ascii=True)[1:-1] if ord(c) > 0x7F else f"\\u{ord(c):04x}"


def e_json_u(rng: random.Random, v: str) -> str:
    return "".join(_u(c) for c in v)


def e_json_partial(rng: random.Random, v: str) -> str:
    return "".join(_u(c) if p else c for c, p in zip(v, _pick(rng, v, 0.3), strict=True))


def e_json_dumped(rng: random.Random, v: str) -> str:
    """The value as JSON source text writes it: non-ASCII escaped, a line break as ``\\n``."""
    text = json.dumps(v.replace(" ", "\n", 1) if " " in v else v, ensure_ascii=True)[1:-1]
    return text if text != v else e_json_partial(rng, v)


def e_python_x(rng: random.Random, v: str) -> str:
    return "".join(f"\\x{b:02x}" for b in v.encode("utf-8"))


def e_python_upper_u(rng: random.Random, v: str) -> str:
    return "".join(f"\\U{ord(c):08x}" if p else c for c, p in zip(v, _pick(rng, v), strict=True))


def e_qp(rng: random.Random, v: str) -> str:
    return quopri.encodestring(v.encode("utf-8"), quotetabs=True).decode("ascii")


def e_qp_full(rng: random.Random, v: str) -> str:
    return "".join(f"={b:02X}" for b in v.encode("utf-8"))


def e_qp_soft_break(rng: random.Random, v: str) -> str:
    full = e_qp_full(rng, v)
    cut = 3 * rng.randrange(1, max(2, len(full) // 3))
    return full[:cut] + rng.choice(["=\n", "=\r\n"]) + full[cut:]


def e_mime_q(rng: random.Random, v: str) -> str:
    body = "".join(
        "_" if c == " " else (c if c.isascii() and c.isalnum() else "".join(f"={b:02X}" for b in c.encode()))
        for c in v
    )
    return f"=?{rng.choice(['utf-8', 'UTF-8'])}?Q?{body}?="


def e_mime_b(rng: random.Random, v: str) -> str:
    return f"=?utf-8?B?{base64.b64encode(v.encode()).decode()}?="


ENCODERS: list[Callable[[random.Random, str], str]] = [
    e_percent,
    e_percent_plus,
    e_percent_partial,
    e_percent_double,
    e_html_decimal,
    e_html_hex,
    e_html_partial,
    e_json_u,
    e_json_partial,
    e_json_dumped,
    e_python_x,
    e_python_upper_u,
    e_qp,
    e_qp_full,
    e_qp_soft_break,
    e_mime_q,
    e_mime_b,
]

# Base64 encodes a whole sentence (a short value alone is under 16 characters).


def b_standard(rng: random.Random, sentence: str) -> str:
    return "Attachment (base64): " + base64.b64encode(sentence.encode()).decode()


def b_urlsafe(rng: random.Random, sentence: str) -> str:
    token = base64.urlsafe_b64encode(sentence.encode()).decode().rstrip("=")
    return f"https://app.example.org/share?t={token}"


def b_wrapped(rng: random.Random, sentence: str) -> str:
    text = base64.b64encode((sentence + " " + "Regards and thanks. " * 4).encode()).decode()
    return "Content-Transfer-Encoding: base64\n\n" + "\n".join(
        text[i : i + 76] for i in range(0, len(text), 76)
    )


def b_glued(rng: random.Random, sentence: str) -> str:
    return rng.choice(["id", "x", "tok"]) + base64.b64encode(sentence.encode()).decode()


def b_of_percent(rng: random.Random, sentence: str) -> str:
    return "state=" + base64.b64encode(urllib.parse.quote(sentence).encode()).decode()


def b_of_html(rng: random.Random, sentence: str) -> str:
    return base64.b64encode(e_html_partial(rng, sentence).encode()).decode()


BASE64: list[Callable[[random.Random, str], str]] = [
    b_standard,
    b_urlsafe,
    b_wrapped,
    b_glued,
    b_of_percent,
    b_of_html,
]


def e_percent_of_html(rng: random.Random, v: str) -> str:
    return urllib.parse.quote(e_html_decimal(rng, v))


def e_html_of_json(rng: random.Random, v: str) -> str:
    return e_html_partial(rng, e_json_partial(rng, v))


NESTED: list[Callable[[random.Random, str], str]] = [e_percent_of_html, e_html_of_json]

# --- name forms -----------------------------------------------------------------------------


def name_forms(value: str) -> list[str]:
    """How people write a name in another order (built here, independently of the guard)."""
    parts = name_parts(value)
    given, surname = parts[:-1], parts[-1]
    first = given[0]
    forms = [
        f"{surname} {' '.join(given)}",
        f"{surname}, {' '.join(given)}",
        f"{surname.upper()}, {first}",
        f"{first[0]}. {surname}",
        f"{surname}, {first[0]}.",
        f"{surname} {first[0]}.",
    ]
    if len(given) > 1:
        forms += [
            f"{first} {surname}",  # the middle name dropped
            f"{surname}, {first}",
            f"{' '.join(g[0] + '.' for g in given)} {surname}",
            f"{surname}, {' '.join(g[0] + '.' for g in given)}",
        ]
    return forms


# --- cases ----------------------------------------------------------------------------------


def _is_number(value: str) -> bool:
    return sum(c.isdigit() for c in value) >= len(normalize(value)) / 2


def _obfuscate(rng: random.Random, v: str, number: bool) -> tuple[str, str]:
    transforms = NUMBER_TRANSFORMS if number else TEXT_TRANSFORMS
    t = rng.choice(transforms)
    return t(rng, v), t.__name__.removeprefix("t_")


def cases(seed: int = 20260502) -> Iterator[tuple[str, str, str, str]]:
    """(id, family, text placed in the message, message slot) tuples."""
    rng = random.Random(seed)
    for value, _type in VALUES:
        number = _is_number(value)
        short_id = normalize(value)[:10]
        # Every encoder on every value, half of them over an obfuscation.
        for k, enc in enumerate(ENCODERS + NESTED):
            v, names = value, []
            if k % 2 == rng.randint(0, 1):
                v, obf = _obfuscate(rng, v, number)
                names.append(obf)
            names.append(enc.__name__)
            text = rng.choice(CARRIERS).format(v=enc(rng, v))
            yield f"{short_id}-{'+'.join(names)}", enc.__name__, text, rng.choice(SLOTS)
        for enc in BASE64:
            v, names = value, []
            if rng.random() < 0.5:
                v, obf = _obfuscate(rng, v, number)
                names.append(obf)
            names.append(enc.__name__)
            # A sentence: a short value alone would be under 16 base64 characters.
            sentence = rng.choice([CARRIERS[0], CARRIERS[2], CARRIERS[4], CARRIERS[5]]).format(v=v)
            yield f"{short_id}-{'+'.join(names)}", enc.__name__, enc(rng, sentence), rng.choice(SLOTS)
    for value in PERSONS:
        short_id = normalize(value)[:10]
        for form in name_forms(value):
            # Each form plain, over an obfuscation, and encoded.
            yield f"{short_id}-order:{form}", "order", rng.choice(CARRIERS).format(v=form), rng.choice(SLOTS)
            v, obf = _obfuscate(rng, form, False)
            yield f"{short_id}-order+{obf}:{form}", "order", rng.choice(CARRIERS).format(v=v), rng.choice(SLOTS)
            enc = rng.choice(ENCODERS)
            text = rng.choice(CARRIERS).format(v=enc(rng, form))
            yield f"{short_id}-order+{enc.__name__}:{form}", "order", text, rng.choice(SLOTS)


SLOTS = ["system", "history", "user"]
CASES = list(cases())


def _messages(slot: str, text: str) -> list[dict[str, str]]:
    msgs = {
        "system": "You are a helpful assistant.",
        "history": "Earlier: [PERSON_1] asked about the report.",
        "user": "Please summarize.",
    }
    msgs[slot] = msgs[slot] + "\n" + text
    return [
        {"role": "system", "content": msgs["system"]},
        {"role": "user", "content": msgs["history"]},
        {"role": "assistant", "content": "Sure."},
        {"role": "user", "content": msgs["user"]},
    ]


@pytest.fixture(scope="module")
def box() -> PrivacyBox:
    b = PrivacyBox()
    for value, type_ in VALUES:
        b.placeholder_for(value, type_)
    return b


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The adversarial suite's trap: socket connects are recorded and refused."""
    attempts: list[Any] = []

    def trap(self: socket.socket, address: Any) -> None:
        attempts.append(address)
        raise AssertionError(f"a socket tried to connect to {address}")

    monkeypatch.setattr(socket.socket, "connect", trap)
    monkeypatch.setattr(socket.socket, "connect_ex", trap)
    monkeypatch.setattr(socket, "create_connection", lambda *a, **k: trap(None, a[0]))  # type: ignore[arg-type]
    return attempts


def _client() -> CloudClient:
    return CloudClient("https://cloud.example.invalid/v1", "gpt-test", api_key="sk-test")


def test_the_suite_has_at_least_500_distinct_cases_across_the_families() -> None:
    assert len(CASES) >= 500
    assert len({c[2] for c in CASES}) >= 500
    families = Counter(c[1] for c in CASES)
    assert set(families) == {e.__name__ for e in ENCODERS + NESTED + BASE64} | {"order"}
    assert min(families.values()) >= 15
    # Combinations: a good share is obfuscated first, then encoded.
    combined = sum(1 for c in CASES if "+" in c[0].split(":")[0])
    assert combined >= 200


def test_every_encoded_or_reordered_value_is_blocked_before_any_socket_opens(
    box: PrivacyBox, no_network: list[Any]
) -> None:
    ledger = MemoryLedger()
    guard = EgressGuard(_client(), ledger=ledger)
    missed = []
    for case_id, _family, text, slot in CASES:
        try:
            # Were the guard to let it through, this is where it would leave.
            guard.complete(_messages(slot, text), box=box, conversation_id=1)
        except EgressBlocked:
            continue
        except Exception:
            pass
        missed.append(case_id)
    assert missed == []
    assert no_network == []
    assert ledger.rows == []


def test_the_trap_would_catch_a_request_that_got_through(no_network: list[Any]) -> None:
    guard = EgressGuard(_client())
    with pytest.raises(Exception):  # noqa: B017 - the trap's error, as the client wraps it
        guard.complete(_messages("user", "What is the capital of France?"), box=None)
    assert no_network != []


def test_without_the_box_every_case_would_have_gone_out() -> None:
    guard = EgressGuard(_client())
    for _case_id, _family, text, slot in CASES:
        guard.check(_messages(slot, text), box=PrivacyBox())


def test_the_guard_as_it_was_would_have_let_them_out(box: PrivacyBox) -> None:
    """Without decoding and name forms, the cases pass: it is the new scanning that blocks."""
    old = EgressGuard(_client(), decode=False, name_orders=False)
    passed: Counter[str] = Counter()
    total: Counter[str] = Counter()
    for _case_id, family, text, slot in CASES:
        total[family] += 1
        try:
            old.check(_messages(slot, text), box=box)
        except EgressBlocked:
            continue
        passed[family] += 1
    # Some cases stay readable as written ("Maria+Gonzalez": "+" is a separator
    # the old guard knew): at least 40% of each family, 90% of all, are new catches.
    for family, n in total.items():
        assert passed[family] >= 0.4 * n, (family, passed[family], n)
    assert sum(passed.values()) >= 0.9 * len(CASES)


# --- the parts, one by one ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("encoded", "expected"),
    [
        ("Tadeusz%20Wielgosz", "Tadeusz Wielgosz"),
        ("%C5%81ukasz", "Łukasz"),
        ("%E9t%E9", "été"),  # Latin-1 percent-encoding
        ("%u0141ukasz", "Łukasz"),
        ("&#84;&#x61;d&eacute;", "Tadé"),
        ("\\u0141\\u0075kasz", "Łukasz"),
        ("\\ud83d\\ude00 ok", "\U0001f600 ok"),  # a surrogate pair joins
        ("\\xc5\\x81ukasz", "Łukasz"),
        ("\\U00000141ukasz", "Łukasz"),
        ("\\u{141}ukasz", "Łukasz"),
        ("\\N{LATIN CAPITAL LETTER L WITH STROKE}ukasz", "Łukasz"),
        ("Tadeusz\\nWielgosz", "Tadeusz\nWielgosz"),
        ("=C5=81ukasz", "Łukasz"),
        ("Tade=\nusz", "Tadeusz"),
        ("=?utf-8?Q?=C5=81ukasz_Nowak?=", "Łukasz Nowak"),
        ("=?iso-8859-1?B?6XTp?=", "été"),
        ("VGFkZXVzeiBXaWVsZ29zeg==", "Tadeusz Wielgosz"),
        ("VGFkZXVzeiBXaWVsZ29zeg", "Tadeusz Wielgosz"),  # padding dropped
        ("idVGFkZXVzeiBXaWVsZ29zeg==", "idTadeusz Wielgosz"),  # glued to a word
        ("VGFkZXVzeiUyMFdpZWxnb3N6", "Tadeusz Wielgosz"),  # base64 of percent-encoding
    ],
)
def test_decoding_undoes_each_encoding(encoded: str, expected: str) -> None:
    assert expected in [v.text for v in decoded_views(encoded)]


@pytest.mark.parametrize(
    "text",
    [
        "The meeting is at 10:30 and 50% of the team will attend.",
        "Smith & Jones, Ltd. sent the invoice.",
        "internationalization counterrevolutionary electroencephalograms",
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        "def f():\n    return 1",
        "a = b + c; x = y / z",
    ],
)
def test_ordinary_text_has_no_decoded_view_with_new_letters(text: str) -> None:
    """Text with nothing encoded gives no view, or one that revealed no letter or digit."""
    assert all(not v.changed for v in decoded_views(text))


def test_base64_that_is_not_text_is_left_alone() -> None:
    png = base64.b64encode(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(64))).decode()
    assert decoded_views(f"image: {png}") == []


def test_a_decoded_view_marks_only_what_decoding_produced() -> None:
    text = "Call Anna about %54adeusz today"
    (view,) = decoded_views(text)
    assert view.text == "Call Anna about Tadeusz today"
    assert view.changed == ((16, 17),)
    assert view.overlaps_change(16, 23) and not view.overlaps_change(5, 9)


def test_the_guard_scans_the_excerpts_around_what_was_decoded() -> None:
    """A long payload pays for the decoded part only, and a value across its edge is found."""
    filler = "lorem ipsum " * 500
    (view,) = decoded_views(f"{filler}Tadeusz Wielg%6Fsz{filler}")
    (excerpt,) = view.excerpts(margin=32)
    assert "Tadeusz Wielgosz" in excerpt and len(excerpt) < 100
    box = PrivacyBox()
    box.placeholder_for("Tadeusz Wielgosz", EntityType.PERSON)
    msgs = [{"role": "user", "content": f"{filler}Tadeusz Wielg%6Fsz{filler}"}]
    assert [h.type for h in EgressGuard(_client()).scan(msgs, box=box)] == ["PERSON"]


@pytest.mark.parametrize(
    ("value", "form"),
    [
        ("Tadeusz Wielgosz", "Wielgosz Tadeusz"),
        ("Tadeusz Wielgosz", "Wielgosz, T."),
        ("Tadeusz Wielgosz", "T. Wielgosz"),
        ("Anna Maria Kowalska", "Anna Kowalska"),
        ("Anna Maria Kowalska", "Kowalska, A. M."),
        ("Dr. Anand Krishnan", "Krishnan, Anand"),
        ("Ludwig van Oosterhout", "van Oosterhout, Ludwig"),
    ],
)
def test_name_forms_are_blocked(value: str, form: str) -> None:
    box = PrivacyBox()
    box.placeholder_for(value, EntityType.PERSON)
    guard = EgressGuard(_client())
    assert [h.type for h in guard.scan([{"role": "user", "content": f"Ask {form} today."}], box=box)] == [
        "PERSON"
    ]


@pytest.mark.parametrize(
    "text",
    [
        "We sailed in a lee of the hill.",  # "A Lee": an initial form too short to keep
        "Westbrook Harrietta sent the parcel.",  # "Brook Harriet" only as whole words
        "Ask Wielgosz about it.",  # a surname alone is not one of the forms
        "Hi, I'm Maria and I need help.",  # not "M. Maria" (Maria Mensah)
        "Reply to Maria's email.",  # not "Maria S." (Maria Sato)
        "Mariam Haddad wrote back.",  # not "Maria M."
        "The Wielgosz Tower opens today.",  # a capital after the part, not an initial
    ],
)
def test_name_forms_match_whole_words_only(text: str) -> None:
    box = PrivacyBox()
    for value in ["Anna Lee", "Tadeusz Wielgosz", "Harriet Brook", "Maria Mensah", "Maria Sato"]:
        box.placeholder_for(value, EntityType.PERSON)
    assert EgressGuard(_client()).scan([{"role": "user", "content": text}], box=box) == []


def test_only_person_entries_get_other_orders() -> None:
    box = PrivacyBox()
    box.placeholder_for("Brightwater Logistics", EntityType.ORG)
    box.placeholder_for("Maple Street", EntityType.ADDRESS)
    guard = EgressGuard(_client())
    for text in ["Logistics Brightwater", "Street, Maple"]:
        assert guard.scan([{"role": "user", "content": text}], box=box) == []
    assert name_variants("Lucas") == ()


def test_a_consented_name_is_not_blocked_in_another_order() -> None:
    box = PrivacyBox()
    box.placeholder_for("Tadeusz Wielgosz", EntityType.PERSON)
    guard = EgressGuard(_client())
    msgs = [{"role": "user", "content": "Wielgosz, Tadeusz and %54adeusz Wielgosz"}]
    assert guard.scan(msgs, box=box, consented=["Tadeusz Wielgosz"]) == []


def test_an_encoded_placeholder_is_not_a_value() -> None:
    """``%5BPERSON_1%5D`` is a placeholder once decoded, not the box value "PERSON"."""
    box = PrivacyBox()
    box.placeholder_for("Person", EntityType.OTHER)
    guard = EgressGuard(_client())
    assert guard.scan([{"role": "user", "content": "see %5BPERSON_1%5D"}], box=box) == []


class _Finder:
    """A detector that finds one fixed name wherever it is written."""

    def __init__(self, name: str) -> None:
        self.name = name

    def analyze(self, text: str) -> list[Any]:
        from core.spans import Span

        at = text.find(self.name)
        return [] if at < 0 else [Span(at, at + len(self.name), EntityType.PERSON, 0.9, {"t": 0.9})]


def test_the_detector_looks_at_what_decoding_revealed() -> None:
    guard = EgressGuard(_client(), detector=_Finder("Ola Nowak"))
    hidden = [{"role": "user", "content": "write to " + urllib.parse.quote("Ola Nowak")}]
    assert [(h.type, h.source) for h in guard.scan(hidden)] == [("PERSON", "detector")]
    assert EgressGuard(_client(), detector=_Finder("Ola Nowak"), decode=False).scan(hidden) == []


def test_the_detector_does_not_judge_a_decoded_view_twice() -> None:
    """A find away from what decoding changed was in the text as written: not a new hit.

    ``Ola Nowak`` stands in the text itself (say the person chose to send it);
    decoding "&amp;" elsewhere must not report it again from the view.
    """
    guard = EgressGuard(_client(), detector=_Finder("Ola Nowak"))
    msgs = [{"role": "user", "content": "Ola Nowak & co, Fish &amp; Chips"}]
    assert guard.scan(msgs, consented=["Ola Nowak"]) == []


def test_function_words_in_a_span_read_as_a_name_make_no_form_of_it() -> None:
    # "Re the Estate of Harold Beaumont" read as one person: "of the" was a form of the
    # name, and the guard blocked a message whose outbound held "of the".
    assert name_parts("Re the Estate of Harold Beaumont") == ["Re", "Estate", "Harold", "Beaumont"]
    assert not any(set(f.split()) <= {"the", "of"} for f in name_variants("Re the Estate of Harold Beaumont"))
    assert name_parts("Ludwig van Beethoven") == ["Ludwig", "van Beethoven"]
