"""The lexicon's plain words: common words a dictionary writes in lower case, less names."""

from __future__ import annotations

from training.lexicon.build import _singular, given_and_surnames, person_names, plain_words, towns


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


def test_public_people_are_full_names_without_many_namesakes(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from training.lexicon.build import public_people

    # Three WikiANN languages link "Ada Quell" (a made-up name), two "Bea Orrin", and three
    # "John Williams", whom hundreds of thousands of people are named like.
    for lang, names in {"en": ("Ada Quell", "Bea Orrin", "John Williams"),
                        "de": ("Ada Quell", "Bea Orrin", "John Williams"),
                        "fr": ("Ada Quell", "John Williams", "Quell")}.items():  # fmt: skip
        folder = tmp_path / f"wikiann_{lang}"
        folder.mkdir()
        lines = []
        for name in names:
            words = name.split()
            lines += [f"{lang}:{w}\t{'B' if i == 0 else 'I'}-PER" for i, w in enumerate(words)]
            lines += [f"{lang}:sang\tO", ""]
        (folder / "train").write_text("\n".join(lines) + "\n", "utf-8")
    people = public_people(tmp_path)
    assert people["ada quell"] == "wikiann"
    assert "bea orrin" not in people  # two languages
    assert "john williams" not in people  # too many namesakes
    assert "quell" not in people  # one word
    assert people["keir starmer"] == "curated"


def test_the_shipped_lexicon_knows_public_people_by_full_name_only() -> None:
    from core.lexicon import lexicon

    lex = lexicon()
    assert lex.is_public_person("Rishi Sunak") and lex.is_public_person("serena  williams")
    assert not lex.is_public_person("Sunak")
    assert not lex.is_public_person("John Smith")
    assert not lex.is_public_person("Li Na")  # a champion's name that millions carry


def test_towns_leave_out_names_people_carry_and_common_words() -> None:
    got = set(towns({"tyler", "florence"}))
    # Small towns no WikiANN sentence linked are there, in their own spelling and in ASCII.
    assert {"emmendingen", "ansbach", "bückeburg", "buckeburg", "market harborough"} <= got
    # A town a person is named after, and a town that is a word first, are not.
    assert not {"tyler", "florence", "reading", "mobile"} & got


def test_the_shipped_lexicon_knows_small_towns_as_places() -> None:
    from core.detect.names import shared_lexicon

    lexicon = shared_lexicon()
    assert lexicon.public_kind("Emmendingen") == "place"
    assert lexicon.public_kind("Market Harborough") == "place"
    # A company's word keeps its kind ("Murata" is a town and a company's name).
    assert lexicon.public_kind("Murata") != "place"


def test_the_shipped_lexicon_keeps_towns_named_like_people_apart() -> None:
    from core.detect.names import shared_lexicon

    lexicon = shared_lexicon()
    # Left out of the public places (people carry the name), kept as towns for the places
    # only a town can stand: after a postcode, after "in" in a health message.
    assert lexicon.public_kind("Kiel") is None and lexicon.is_named_town("Kiel")
    assert lexicon.is_named_town("lindau")
    assert not lexicon.is_named_town("Emmendingen")  # a public place already
    assert not lexicon.is_named_town("reading")  # a word first


def test_a_subdivisions_other_names_are_places_of_their_own() -> None:
    from core.detect.names import shared_lexicon

    lexicon = shared_lexicon()
    # ISO 3166-2 writes "A Coruña [La Coruña]", "Cardiff [Caerdydd GB-CRD]": each name is
    # looked up alone, the code is no name, and no key keeps a bracket.
    assert lexicon.public_kind("A Coruña") == "place"
    assert lexicon.public_kind("La Coruña") == "place"
    assert lexicon.public_kind("Caerdydd") == "place"
    assert lexicon.public_kind("Cardiff") == "place"  # WikiANN's kind stays
    assert not any(" [" in key for key, kind in lexicon.public.items() if kind == "region")
