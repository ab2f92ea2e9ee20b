"""The lexicon's plain words: common words a dictionary writes in lower case, less names."""

from __future__ import annotations

from training.lexicon.build import _singular, given_and_surnames, person_names, plain_words


def test_a_plural_is_looked_up_by_its_singular() -> None:
    assert "attachment" in _singular("attachments")
    assert "party" in _singular("parties")
    assert _singular("notice") == ["notice"]


def test_plain_words_leave_out_names_proper_nouns_and_brands() -> None:
    common = {w: 4.0 for w in ("notice", "attachments", "grace", "bridges", "caspian", "google")}
    assert plain_words(common) == ["attachments", "notice"]


def test_the_names_come_from_the_census_and_faker() -> None:
    names = person_names()
    # A given name, a census surname, a Dutch and a German surname (Faker).
    for name in ("grace", "bridges", "bakker", "schmidt"):
        assert name in names, name
    # A surname carried by fewer than one person in 100,000 is left out.
    assert "notice" not in names


def test_given_names_and_surnames_are_kept_apart() -> None:
    given, surnames = given_and_surnames()
    assert {"grace", "inès", "pieter"} <= given
    assert {"bridges", "bakker", "bertrand"} <= surnames
    assert "bakker" not in given
    assert "pieter" not in surnames


def test_the_shipped_lexicon_names_no_function_word_alone() -> None:
    from core.lexicon import lexicon

    lex = lexicon()
    # WNUT-17 tags "The" alone as a product and WikiANN "on" and "so" as organisations:
    # a function word is no public name; an acronym in capitals still is.
    for word in ("The", "the", "on", "so", "can", "first"):
        assert lex.public_kind(word) is None, word
    assert lex.public_kind("US") == "country"
