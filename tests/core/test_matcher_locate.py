"""Property tests of :meth:`core.outbound.matcher.BoxMatcher.locate`, which the
outbound uses to replace what the egress guard would find: every place it
reports is, in the text as written, a form of the value it names, even where
folding changes the text's length (ß, ligatures)."""

from __future__ import annotations

from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from core.outbound.fold import normalize
from core.outbound.matcher import BoxMatcher

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
