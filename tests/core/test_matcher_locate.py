"""Property tests of :meth:`core.outbound.matcher.BoxMatcher.locate`, which the
outbound uses to replace what the egress guard would find: every place it
reports is, in the text as written, a form of the value it names, even where
folding changes the text's length (ß, ligatures)."""

from __future__ import annotations

import re
from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from core.outbound.fold import normalize
from core.outbound.matcher import BoxMatcher, _Trie

WORDS = st.sampled_from(["Strauß", "Weiß", "ﬁnance", "Lucy", "Whitfield", "report", "at", "9"])
FILLER = st.lists(
    st.sampled_from(["the", "ﬁle", "Maß", "and", ",", ".", "İstanbul", "café", "\u200b", "-"]),
    max_size=8,
)
SEPARATOR = st.sampled_from([" ", "  ", "-", " - ", "\u200b", "_", ""])


@settings(max_examples=300, deadline=None)
@given(
    value=st.lists(WORDS, min_size=2, max_size=3).map(" ".join),
    before=FILLER,
    after=FILLER,
    sep=SEPARATOR,
)
def test_every_place_found_is_a_form_of_its_value(
    value: str, before: list[str], after: list[str], sep: str
) -> None:
    written = sep.join(value.split(" "))
    text = " ".join([*before, written, *after])
    hits = BoxMatcher([(value, "PERSON")]).locate(text)
    for hit in hits:
        assert hit.value == value
        assert 0 <= hit.start < hit.end <= len(text)
        assert normalize(text[hit.start : hit.end]) == normalize(value), (text, hit)
    # Hits never overlap and come in order.
    assert all(a.end <= b.start for a, b in pairwise(hits))
    if len(normalize(value)) >= 8:  # long values are found anywhere, however written
        assert hits, (text, value)


def test_a_value_thousands_of_characters_long_is_found() -> None:
    # A pasted key or certificate is one value of thousands of characters; the
    # pattern used to be built by recursion, one level per character, and failed
    # (RecursionError) past a few hundred, so no outbound could be composed.
    key = "sk-" + "".join("abcdefghjkmnpqrstuvwxyz23456789"[(i * 7) % 31] for i in range(6000))
    text = f"The deploy failed with token {key} in the header."
    matcher = BoxMatcher([(key, "SECRET"), ("Lucy Whitfield", "PERSON")])
    hits = matcher.locate(text)
    assert [(h.value, text[h.start : h.end]) for h in hits] == [(key, key)]
    assert BoxMatcher([(key, "SECRET")]).locate(text.replace(key, key[:-1])) == []


_CHARS = st.sampled_from(list("ab1 -"))


@settings(max_examples=300, deadline=None)
@given(
    words=st.sets(st.text(_CHARS, min_size=1, max_size=12), min_size=1, max_size=8),
    probe=st.text(_CHARS, max_size=12),
)
def test_the_trie_pattern_matches_exactly_its_words(words: set[str], probe: str) -> None:
    trie = _Trie()
    for word in words:
        trie.add(word, "")
    for left in (True, False):
        pattern = re.compile(trie.pattern("", left))
        for word in words:
            assert pattern.fullmatch(word), (word, pattern.pattern)
        assert bool(pattern.fullmatch(probe)) == (probe in words), (probe, pattern.pattern)
        joined = re.compile(trie.pattern("_*", left))
        assert joined.fullmatch("__".join(probe)) if probe in words else True


def test_a_trie_of_a_long_chain_with_ends_along_it_compiles() -> None:
    trie = _Trie()
    chain = "".join("ab"[i % 2] for i in range(4000))
    for n in (1, 2, 3, 50, 400, 4000):
        trie.add(chain[:n], "")
    pattern = re.compile(trie.pattern("", False))
    assert pattern.fullmatch(chain) and pattern.fullmatch(chain[:400])
    assert not pattern.fullmatch(chain[:401])


def test_a_short_number_is_no_part_of_a_clock_time_or_a_decimal() -> None:
    # The room "14" is protected; "at 14:20" is a time, "14.5" a measure, "14,500" an amount.
    matcher = BoxMatcher([("14", "LOCATION")])
    for text in ("Seen at 14:20 today.", "It was 9:14 when she left.", "Weight 14.5 kg.",
                 "A bill of 14,500."):
        assert matcher.locate(text) == [], text
        assert matcher.find("", text) == set(), text
    hits = matcher.locate("She is in room 14: bed by the window.")
    assert [(h.start, h.end) for h in hits] == [(15, 17)]
    assert matcher.find("", "Room 14, ward B") == {"LOCATION"}
