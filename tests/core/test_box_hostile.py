"""Hostile cloud answers fed to de-anonymization, whole and streamed.

The cloud writes what it wants. Property tests (hypothesis) build answers an
attacker could write: placeholders of other conversations, every written
form of this box's placeholders, nested and unbalanced brackets, control
characters, arbitrary Unicode; and feed them to
:meth:`PrivacyBox.deanonymize` and to its :class:`StreamRestorer` cut into
any chunks. Nothing may crash; nothing may be restored that is not in this
conversation's box; the stream must give exactly what the whole answer gives;
and time must grow linearly with size (1 MB of placeholders, a placeholder
split over a thousand chunks): checked by comparing sizes, never against a
clock budget.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.box import PLACEHOLDER_RE, PrivacyBox
from core.entities import EntityType

OURS: list[tuple[str, EntityType]] = [
    ("Tadeusz Wielgosz", EntityType.PERSON),
    ("Marguerite Okafor", EntityType.PERSON),
    ("412-555-0196", EntityType.PHONE),
    ("tadeusz.w@example.com", EntityType.EMAIL),
    ("St. Mary's Hospital", EntityType.ORG),
    ("March 14, 1987", EntityType.DATE),
]
# Another conversation's box: its values must never appear in our answers.
THEIRS: list[tuple[str, EntityType]] = [
    ("Harold Brennan", EntityType.PERSON),
    ("Ingrid Solberg", EntityType.PERSON),
    ("Quentin Abara", EntityType.PERSON),
    ("KDH-774219", EntityType.MRN),
    ("GB82 WEST 1234 5698 7654 32", EntityType.IBAN),
    ("078-05-1120", EntityType.SSN),
    ("4111 1111 1111 1111", EntityType.CREDIT_CARD),
    ("Okeke & Partners Ltd", EntityType.ORG),
]


def _box(values: list[tuple[str, EntityType]], reserve: str = "") -> PrivacyBox:
    box = PrivacyBox(reserved=[reserve] if reserve else [])
    for value, type_ in values:
        box.placeholder_for(value, type_)
    return box


def ours() -> PrivacyBox:
    return _box(OURS)


OUR_KEYS = {e.placeholder for e in ours().entries()}


# Theirs numbers past ours, so that its placeholders are foreign to our box.
def theirs() -> PrivacyBox:
    return _box(THEIRS, reserve=" ".join(sorted(OUR_KEYS)))


THEIR_VALUES = [v for v, _ in THEIRS]
OUR_VALUES = {v for v, _ in OURS}


def _written_forms(placeholder: str) -> list[str]:
    """The ways a model writes a placeholder (all restorable)."""
    inner = placeholder.strip("[]")
    type_, _, num = inner.rpartition("_")
    spaced = type_.replace("_", " ").title()
    return [
        placeholder,
        inner,
        f"<{inner}>",
        f"{{{inner}}}",
        f"({inner})",
        f"[ {inner} ]",
        f"{spaced} {num}",
        f"{inner.lower()}",
        f"{placeholder}'s",
    ]


OUR_FORMS = [f for e in ours().entries() for f in _written_forms(e.placeholder)]
THEIR_FORMS = [f for e in theirs().entries() for f in _written_forms(e.placeholder)]

BRACKETS = ["[", "]", "[[", "]]", "<", ">", "{", "}", "(", ")", "[[[", "]]]", "<<", ">>", "[<{("]
CONTROLS = ["\x00", "\x07", "\x1b[31m", "\x1b]0;title\x07", "\r", "\b", "\u202e", "\u200b", "\ufeff", "\x7f"]
ANY_TEXT = st.text(
    alphabet=st.characters(codec=None, exclude_categories=()),  # lone surrogates included
    max_size=40,
)
PIECE = st.one_of(
    st.sampled_from(OUR_FORMS),
    st.sampled_from(THEIR_FORMS),
    st.sampled_from(BRACKETS),
    st.sampled_from(CONTROLS),
    st.sampled_from(["PERSON_", "PERSON", "_1", "1", "12", "9999", "[PERSON_", "ON_1]", " ", "\n"]),
    ANY_TEXT,
)
ANSWERS = st.lists(PIECE, max_size=40).map("".join)


def _chunks(text: str, cuts: list[int]) -> list[str]:
    points = sorted({c % (len(text) + 1) for c in cuts})
    edges = [0, *points, len(text)]
    return [text[a:b] for a, b in itertools.pairwise(edges)]


def _streamed(box: PrivacyBox, chunks: list[str]) -> tuple[str, list[str]]:
    restorer = box.stream()
    out = "".join(restorer.feed(c) for c in chunks) + restorer.flush()
    return out, restorer.restored


# --- properties ---------------------------------------------------------------------------


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(answer=ANSWERS)
def test_a_hostile_answer_restores_only_this_box(answer: str) -> None:
    box = ours()
    result = box.deanonymize(answer)
    assert set(result.restored) <= OUR_KEYS
    # Their values appear only where the answer itself wrote them.
    for value in THEIR_VALUES:
        assert result.text.count(value) <= answer.count(value)
    # Whatever stays unresolved is not one of ours.
    assert not (set(result.unresolved) & OUR_KEYS)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(answer=ANSWERS, cuts=st.lists(st.integers(min_value=0, max_value=10_000), max_size=60))
def test_the_stream_gives_what_the_whole_answer_gives(answer: str, cuts: list[int]) -> None:
    box = ours()
    whole = box.deanonymize(answer)
    out, restored = _streamed(box, _chunks(answer, cuts))
    assert out == whole.text
    assert restored == list(whole.restored)


@settings(max_examples=200, deadline=None)
@given(answer=ANY_TEXT, cuts=st.lists(st.integers(min_value=0, max_value=200), max_size=20))
def test_arbitrary_unicode_never_crashes_and_is_left_alone(answer: str, cuts: list[int]) -> None:
    box = ours()
    result = box.deanonymize(answer)
    if not PLACEHOLDER_RE.search(answer):
        assert result.text == answer
    assert _streamed(box, _chunks(answer, cuts))[0] == result.text


def test_placeholders_of_another_conversation_stay_as_written() -> None:
    box = ours()
    answer = " ".join(THEIR_FORMS)
    result = box.deanonymize(answer)
    assert result.text == answer and result.restored == ()
    assert all(v not in result.text for v in THEIR_VALUES)


def test_one_placeholder_split_over_a_thousand_chunks() -> None:
    box = ours()
    ph = "[PERSON_1]"
    chunks: list[str] = ["Dear "]
    for ch in ph:
        chunks += [ch] + [""] * 110  # 1,100 chunks for one placeholder
    chunks += [", thank you."]
    assert len(chunks) > 1000
    out, restored = _streamed(box, chunks)
    assert out == box.deanonymize("Dear [PERSON_1], thank you.").text
    assert restored == ["[PERSON_1]"]
    assert "Tadeusz Wielgosz" in out or "Wielgosz" in out


def test_control_characters_around_a_placeholder_survive_unchanged() -> None:
    box = ours()
    answer = "\x1b[31m[PERSON_1]\x1b[0m\x00[PHONE_1]\u202e"
    result = box.deanonymize(answer)
    assert result.text.startswith("\x1b[31m") and "\x00" in result.text
    assert result.text.endswith("412-555-0196\u202e")


def test_a_bare_placeholder_glued_to_a_word_is_not_restored_when_streamed() -> None:
    """``xPERSON_1`` is not a placeholder whole; a cut before ``PERSON_1`` must not make it one."""
    box = ours()
    # Text after it, so that a stream can cut right before "PERSON_1" (the
    # restorer holds back its last 24 characters).
    answer = "ab" * 20 + "xPERSON_1" + " and more words after it." * 2
    whole = box.deanonymize(answer).text
    assert whole == answer
    for cut in range(1, len(answer)):
        assert _streamed(box, [answer[:cut], answer[cut:]])[0] == whole


# --- linear time ----------------------------------------------------------------------------


def _seconds(fn: Callable[[], object]) -> float:
    # CPU time: what the work costs, not how long a busy machine made it wait.
    best = float("inf")
    for _ in range(3):
        t = time.process_time()
        fn()
        best = min(best, time.process_time() - t)
    return best


def _ratio(make: Callable[[int], Callable[[], object]], small: int, factor: int = 4) -> float:
    return _seconds(make(small * factor)) / _seconds(make(small))


def _hostile(size: int) -> str:
    unit = "[PERSON_1] [PERSON_77] <Phone 1> [[[(DATE_1) \x00PERSON_9999 ]]] Mr. [PERSON_2]'s "
    return (unit * (size // len(unit) + 1))[:size]


def test_one_megabyte_of_placeholders_takes_linear_time() -> None:
    """4x the answer costs about 4x the time (quadratic would be 16x); up to 1 MB."""
    box = ours()
    big = _hostile(1_000_000)
    result = box.deanonymize(big)
    assert len(result.restored) > 30_000
    ratio = _ratio(lambda n: lambda: box.deanonymize(_hostile(n)), 250_000)
    assert ratio < 8, ratio


def test_streaming_a_megabyte_takes_linear_time() -> None:
    box = ours()

    def run(n: int) -> Callable[[], object]:
        text = _hostile(n)
        chunks = [text[i : i + 7] for i in range(0, len(text), 7)]
        return lambda: _streamed(box, chunks)

    ratio = _ratio(run, 100_000)
    assert ratio < 8, ratio
    # One enormous chunk is linear too.
    ratio = _ratio(lambda n: lambda: _streamed(box, [_hostile(n)]), 250_000)
    assert ratio < 8, ratio


def test_brackets_without_end_take_linear_time() -> None:
    box = ours()
    ratio = _ratio(lambda n: lambda: box.deanonymize("[" * n + "(PERSON_" * (n // 8)), 100_000)
    assert ratio < 8, ratio
