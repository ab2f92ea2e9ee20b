"""Adversarial suite: obfuscated box values are blocked before any socket opens.

At least 500 variants are generated (seeded, so every run checks the same
ones) from box values of several types: case changes, spacing, zero-width
characters, Cyrillic/Greek/fullwidth look-alikes, accents, separators inside
numbers, line breaks inside names, possessives, and combinations. Each is
placed in the system prompt, the history or the user message of a request
sent through the real guard and the real cloud client; ``socket.connect`` is
replaced by a trap, so a variant that slipped through would be caught trying
to reach the network.
"""

from __future__ import annotations

import random
import socket
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from core.box import PrivacyBox
from core.egress import EgressGuard, MemoryLedger
from core.entities import EntityType
from core.errors import EgressBlocked
from core.llm.cloud import CloudClient
from core.outbound.fold import normalize

VALUES: list[tuple[str, EntityType]] = [
    ("Maria Gonzalez", EntityType.PERSON),
    ("Jonathan Whitaker", EntityType.PERSON),
    ("Priya Raman", EntityType.PERSON),
    ("Lucas", EntityType.PERSON),
    ("Okafor", EntityType.PERSON),
    ("Elena Petrova", EntityType.PERSON),
    ("St. Mary's Hospital", EntityType.ORG),
    ("Brightwater Logistics", EntityType.ORG),
    ("742 Evergreen Terrace", EntityType.ADDRESS),
    ("Springfield", EntityType.LOCATION),
    ("Dubrovnik", EntityType.LOCATION),
    ("555-867-5309", EntityType.PHONE),
    ("+44 20 7946 0958", EntityType.PHONE),
    ("078-05-1120", EntityType.SSN),
    ("4111 1111 1111 1111", EntityType.CREDIT_CARD),
    ("GB82 WEST 1234 5698 7654 32", EntityType.IBAN),
    ("MRN 00482913", EntityType.MRN),
    ("maria.gonzalez@example.com", EntityType.EMAIL),
    ("March 14, 1987", EntityType.DATE),
    ("1987-03-14", EntityType.DATE),
]

ZERO_WIDTH = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u180e"]
LOOKALIKE = {
    "a": ["а", "α"],
    "c": ["с"],
    "e": ["е", "ε"],
    "i": ["і", "ι"],
    "j": ["ј"],
    "k": ["к", "κ"],
    "l": ["ӏ"],
    "o": ["о", "ο", "օ"],
    "p": ["р", "ρ"],
    "s": ["ѕ"],
    "x": ["х", "χ"],
    "y": ["у"],
    "A": ["А", "Α"],
    "B": ["В", "Β"],
    "E": ["Е", "Ε"],
    "H": ["Н", "Η"],
    "K": ["К", "Κ"],
    "M": ["М", "Μ"],
    "O": ["О", "Ο"],
    "P": ["Р", "Ρ"],
    "T": ["Т", "Τ"],
    "X": ["Х", "Χ"],
}
NUMBER_SEPARATORS = [" ", ".", "-", "  ", " - ", "/", "\u2009", "\u00a0", "\u2011"]
ACCENTS = ["\u0301", "\u0308", "\u0300", "\u0327"]


def _fullwidth(ch: str) -> str:
    return chr(ord(ch) + 0xFEE0) if "!" <= ch <= "~" else ch


def _pos(rng: random.Random, value: str) -> int:
    return rng.randrange(1, len(value)) if len(value) > 1 else 0


# Each transformation keeps the value recognisable to a human reader.
def t_upper(rng: random.Random, v: str) -> str:
    return v.upper()


def t_lower(rng: random.Random, v: str) -> str:
    return v.lower()


def t_random_case(rng: random.Random, v: str) -> str:
    return "".join(c.upper() if rng.random() < 0.5 else c.lower() for c in v)


def t_spaced(rng: random.Random, v: str) -> str:
    return " ".join(v)


def t_double_spaces(rng: random.Random, v: str) -> str:
    return v.replace(" ", rng.choice(["  ", "\t", " \u3000 "]))


def t_zero_width(rng: random.Random, v: str) -> str:
    out = list(v)
    for _ in range(rng.randint(1, 3)):
        out.insert(_pos(rng, "".join(out)), rng.choice(ZERO_WIDTH))
    return "".join(out)


def t_homoglyphs(rng: random.Random, v: str) -> str:
    chars = list(v)
    spots = [i for i, c in enumerate(chars) if c in LOOKALIKE]
    for i in rng.sample(spots, k=min(len(spots), rng.randint(1, 3))):
        chars[i] = rng.choice(LOOKALIKE[chars[i]])
    return "".join(chars)


def t_fullwidth(rng: random.Random, v: str) -> str:
    return "".join(_fullwidth(c) for c in v)


def t_accents(rng: random.Random, v: str) -> str:
    chars = list(v)
    letters = [i for i, c in enumerate(chars) if c.isalpha()]
    for i in rng.sample(letters, k=min(len(letters), 2)):
        chars[i] = chars[i] + rng.choice(ACCENTS)
    return "".join(chars)


def t_number_separators(rng: random.Random, v: str) -> str:
    digits = [c for c in v if c.isalnum()]
    out = []
    for i, c in enumerate(digits):
        out.append(c)
        if i < len(digits) - 1 and rng.random() < 0.4:
            out.append(rng.choice(NUMBER_SEPARATORS))
    return "".join(out)


def t_line_break(rng: random.Random, v: str) -> str:
    if " " in v and rng.random() < 0.5:
        return v.replace(" ", rng.choice(["\n", "\r\n", "\n\n"]), 1)
    i = _pos(rng, v)
    return v[:i] + rng.choice(["\n", "-\n", "\u2028"]) + v[i:]


def t_possessive(rng: random.Random, v: str) -> str:
    return v + rng.choice(["'s", "\u2019s", "s", "'"])


def t_punctuated(rng: random.Random, v: str) -> str:
    return rng.choice(["*", "_", "~", "`", '"']).join(v.split(" ")) if " " in v else f"*{v}*"


TEXT_TRANSFORMS: list[Callable[[random.Random, str], str]] = [
    t_upper,
    t_lower,
    t_random_case,
    t_spaced,
    t_double_spaces,
    t_zero_width,
    t_homoglyphs,
    t_fullwidth,
    t_accents,
    t_line_break,
    t_possessive,
    t_punctuated,
]
NUMBER_TRANSFORMS: list[Callable[[random.Random, str], str]] = [
    t_number_separators,
    t_zero_width,
    t_fullwidth,
    t_spaced,
    t_line_break,
    t_homoglyphs,
]

CARRIERS = [
    "Please draft a reply to {v} about the invoice.",
    "{v}",
    "Context: the person is {v}. Keep it short.",
    "Remind me what {v} said last week?",
    "Notes:\n- {v}\n- follow up",
    "(ref: {v})",
]


def _is_number(value: str) -> bool:
    return sum(c.isdigit() for c in value) >= len(normalize(value)) / 2


def variants(n_per_value: int = 28, seed: int = 20260417) -> Iterator[tuple[str, str, str, str]]:
    """(id, value, obfuscated value, message slot) tuples."""
    rng = random.Random(seed)
    for value, _type in VALUES:
        transforms = NUMBER_TRANSFORMS if _is_number(value) else TEXT_TRANSFORMS
        for k in range(n_per_value):
            chosen = [transforms[k % len(transforms)]]
            # Beyond one pass over the transforms, combine two or three.
            if k >= len(transforms):
                chosen += rng.sample(transforms, k=rng.randint(1, 2))
            v = value
            for t in chosen:
                v = t(rng, v)
            if v == value:  # e.g. lower case of an email address: obfuscate for real
                chosen.append(t_zero_width)
                v = t_zero_width(rng, v)
            slot = rng.choice(["system", "history", "user"])
            names = "+".join(t.__name__.removeprefix("t_") for t in chosen)
            yield f"{normalize(value)[:12]}-{k}-{names}", value, v, slot


CASES = list(variants())


def test_the_suite_has_at_least_500_distinct_variants() -> None:
    assert len(CASES) >= 500
    assert len({c[2] for c in CASES}) >= 500
    # The generator changes what it obfuscates: no case is the plain value.
    assert sum(1 for c in CASES if c[2] == c[1]) == 0


@pytest.fixture(scope="module")
def box() -> PrivacyBox:
    b = PrivacyBox()
    for value, type_ in VALUES:
        b.placeholder_for(value, type_)
    return b


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Replace socket connects by a trap that records the attempt and refuses."""
    attempts: list[Any] = []

    def trap(self: socket.socket, address: Any) -> None:
        attempts.append(address)
        raise AssertionError(f"a socket tried to connect to {address}")

    monkeypatch.setattr(socket.socket, "connect", trap)
    monkeypatch.setattr(socket.socket, "connect_ex", trap)
    monkeypatch.setattr(socket, "create_connection", lambda *a, **k: trap(None, a[0]))  # type: ignore[arg-type]
    return attempts


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


def test_every_obfuscated_variant_is_blocked_before_any_socket_opens(
    box: PrivacyBox, no_network: list[Any]
) -> None:
    client = CloudClient("https://cloud.example.invalid/v1", "gpt-test", api_key="sk-test")
    ledger = MemoryLedger()
    guard = EgressGuard(client, ledger=ledger)
    rng = random.Random(7)
    missed = []
    for case_id, _value, obfuscated, slot in CASES:
        text = rng.choice(CARRIERS).format(v=obfuscated)
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
    """The control: a clean request does try to connect (and is stopped by the trap)."""
    client = CloudClient("https://cloud.example.invalid/v1", "gpt-test", api_key="sk-test")
    guard = EgressGuard(client)
    with pytest.raises(Exception):  # noqa: B017 - the trap's error, as the client wraps it
        guard.complete(_messages("user", "What is the capital of France?"), box=None)
    assert no_network != []


def test_without_the_box_the_variants_would_have_gone_out() -> None:
    """The suite is not vacuous: it is the box that blocks, not something else."""
    guard = EgressGuard(CloudClient("https://cloud.example.invalid/v1", "m", api_key="k"))
    rng = random.Random(7)
    for _case_id, _value, obfuscated, slot in CASES[:50]:
        text = rng.choice(CARRIERS).format(v=obfuscated)
        guard.check(_messages(slot, text), box=PrivacyBox())
