"""Training data for the NER: unit typing rules, overlap resolution, packing, BIO labels."""

from __future__ import annotations

import pytest

from core.entities import EntityType as E
from training.ner.data import Example, _resolve, heuristic_type, pack
from training.ner.labels import LABEL2ID, LABELS, to_type
from training.ner.train import token_labels


@pytest.mark.parametrize(
    ("unit", "expected"),
    [
        ("dr. reena patel", E.PERSON),
        ("Dr Alan Brody", E.PERSON),
        ("mel.g89@protonmail.com", E.EMAIL),
        ("https://www.youtube.com/watch/iyh2deqrgu0", E.URL),
        ("cowrywise.com", E.URL),
        ("mrn mfp-774208", E.MRN),
        ("04/18/1989", E.DATE),
        ("215-555-4078", E.PHONE),
        ("34 years old", E.AGE),
        ("1846 s 9th st, philadelphia pa 19148", E.ADDRESS),
        ("aetna ppo #AXP-771204", E.ACCOUNT),
        ("keystone family clinic", E.ORG),
        ("hhc-772910", E.ID),
        ("presidio_anonymized_person", E.PERSON),
        ("<PRESIDIO_ANONYMIZED_EMAIL_ADDRESS>", E.EMAIL),
        ("melissa grant", None),  # left to the rules view and spaCy
    ],
)
def test_heuristic_type_follows_the_documented_rules(unit, expected):
    assert heuristic_type(unit) == expected


def test_resolve_keeps_the_longer_of_overlapping_units():
    spans = [(0, 11, E.PERSON), (5, 11, E.PERSON), (20, 25, E.ORG)]
    assert _resolve(spans) == [(0, 11, E.PERSON), (20, 25, E.ORG)]


def test_pack_keeps_every_span_on_its_value():
    examples = [
        Example("Call Ann now", [(5, 8, E.PERSON)], "synthetic", "a"),
        Example("Bob lives in Rome", [(0, 3, E.PERSON), (13, 17, E.LOCATION)], "synthetic", "b"),
        Example("nothing", [], "synthetic", "c"),
    ]
    packed = pack(examples, max_chars=30)
    values = sorted(ex.text[a:b] for ex in packed for a, b, _ in ex.spans)
    assert values == ["Ann", "Bob", "Rome"]
    assert all(len(ex.text) <= 30 or "\n" not in ex.text for ex in packed)


def test_token_labels_mark_begin_then_inside():
    offsets = [(0, 4), (5, 8), (8, 10), (11, 16), (17, 20)]  # "call ann ##ie smith now"
    labels = token_labels(offsets, [(5, 16, "PERSON")])
    assert [LABELS[i] for i in labels] == ["O", "B-PERSON", "I-PERSON", "I-PERSON", "O"]


def test_labels_cover_every_entity_type_in_bio():
    assert LABELS[0] == "O"
    for t in E:
        assert f"B-{t}" in LABEL2ID and f"I-{t}" in LABEL2ID


@pytest.mark.parametrize(
    ("label", "expected"),
    [
        ("ZIP_CODE", E.ADDRESS),
        ("GPE", E.LOCATION),
        ("DOMAIN_NAME", E.URL),
        ("TITLE", E.OTHER),
        ("US_DRIVER_LICENSE", E.ID),
        ("ORGANIZATION", E.ORG),
        ("PHONE_NUMBER", E.PHONE),
    ],
)
def test_presidio_labels_map_onto_ours(label, expected):
    assert to_type(label) == expected


# --- CoNLL sets (WNUT-17, WikiANN) --------------------------------------------------

CONLL = (
    "@ann_b\tO\nmet\tO\nanna\tB-person\nlee\tI-person\nat\tO\nwipro\tB-corporation\n,\tO\n"
    "noida\tB-location\nwith\tO\nher\tO\niphone\tB-product\n\n"
    "\ufeff\n"
    "en:Paris\tB-LOC\nen:Saint-Germain\tI-LOC\nen:(\tO\nen:PSG\tB-ORG\nen:)\tO\n"
)


@pytest.fixture
def conll_file(tmp_path):
    path = tmp_path / "tiny.conll"
    path.write_text(CONLL, encoding="utf-8")
    return path


def test_conll_sentences_become_texts_with_spans_on_their_mentions(conll_file):
    from training.ner.conll import conll_records

    records = conll_records(conll_file)
    assert len(records) == 2  # a line of only a byte-order mark is a blank line
    first, second = records
    assert first.text == "@ann_b met anna lee at wipro , noida with her iphone"
    assert [(first.text[g.start : g.end], g.label) for g in first.spans] == [
        ("anna lee", "person"),
        ("wipro", "corporation"),
        ("noida", "location"),
        ("iphone", "product"),
    ]
    assert second.text.startswith("Paris Saint-Germain (")  # the language prefix is gone
    assert [second.text[g.start : g.end] for g in second.spans] == ["Paris Saint-Germain", "PSG"]


def test_conll_labels_map_to_ours_and_untyped_mentions_teach_nothing(conll_file):
    from training.ner.data import conll_examples

    ex = conll_examples(conll_file, "wnut17")[0]
    assert [(ex.text[a:b], t) for a, b, t in ex.spans] == [
        ("anna lee", E.PERSON),
        ("wipro", E.ORG),
        ("noida", E.LOCATION),
    ]
    # The product and the @-handle (tagged O by the set, private to us) are ignored.
    assert sorted(ex.text[a:b] for a, b in ex.ignore) == ["@ann_b", "iphone"]


def test_public_mentions_can_be_left_out_of_the_loss(conll_file):
    from training.ner.data import conll_examples, public_mention

    ex = conll_examples(conll_file, "wnut17", public=lambda m: m == "wipro")[0]
    assert [ex.text[a:b] for a, b, _ in ex.spans] == ["anna lee", "noida"]
    assert "wipro" in [ex.text[a:b] for a, b in ex.ignore]
    # The lexicon's countries and companies are public; a town (a region there) and a person not.
    assert public_mention("United States") and public_mention("Microsoft")
    assert not public_mention("Manchester") and not public_mention("Anna Lee")


def test_ignored_ranges_get_no_label_in_training():
    from training.ner.train import IGNORE, featurize, load_tokenizer

    pytest.importorskip("tokenizers")
    try:
        tok = load_tokenizer()
    except RuntimeError:
        pytest.skip("the base model package is not installed")
    ex = Example("call anna about the iphone", [(5, 9, E.PERSON)], "t", ignore=[(20, 26)])
    (window,) = featurize([ex], tok)
    labels = [LABELS[x] if x != IGNORE else None for x in window.labels[1:-1]]
    assert labels[1] == "B-PERSON" and labels[-1] is None and labels[0] == "O"


def test_a_line_without_a_tag_is_a_clear_error(tmp_path):
    from core.errors import InputError
    from training.ner.conll import read_conll

    bad = tmp_path / "bad.conll"
    bad.write_text("hello\tO\nworld\n", encoding="utf-8")
    with pytest.raises(InputError, match="line 2"):
        read_conll(bad)


def test_bio_decoding_starts_a_new_span_on_a_label_change():
    from training.ner.conll import entity_spans, sentence_text

    text, offsets = sentence_text(["a", "b", "c", "d"])
    spans = entity_spans(["I-person", "I-person", "I-location", "B-location"], offsets)
    assert [(text[a:b], lab) for a, b, lab in spans] == [
        ("a b", "person"),
        ("c", "location"),
        ("d", "location"),
    ]


# --- chat-style prompts and hard negatives ---------------------------------------


def test_chat_messages_label_exactly_the_values_put_in():
    from training.ner.chat import chat_examples

    examples = chat_examples(60, seed=5)
    assert examples == chat_examples(60, seed=5)  # seeded
    kinds = {t for ex in examples for _, _, t in ex.spans}
    assert {E.PERSON, E.ORG, E.LOCATION, E.EMAIL, E.PHONE} <= kinds
    for ex in examples:
        for a, b, _ in ex.spans:
            value = ex.text[a:b]
            assert value and value == value.strip()
        starts = [a for a, _, _ in ex.spans]
        assert starts == sorted(starts)
    assert any(ex.text == ex.text.lower() for ex in examples)  # some all lower case
    assert any("\n" in ex.text for ex in examples)


def test_hard_negatives_leave_quantities_code_and_law_unlabelled():
    from training.ner.chat import PRODUCTS, hard_negative_examples

    examples = hard_negative_examples(80, seed=2)
    for ex in examples:
        for a, b, t in ex.spans:
            assert t is E.ID  # only a user name in a pasted log
            assert not any(ch.isspace() for ch in ex.text[a:b])
    text = "\n".join(ex.text for ex in examples).lower()
    assert any(p.lower() in text for p in PRODUCTS)
    for marker in ("mg", "traceback", "section", "$", "port"):
        assert marker in text


def test_numbers_in_name_only_sets_teach_nothing(tmp_path):
    # WNUT-17 and WikiANN tag names only: a phone number or a postcode there is O,
    # which would teach the model to let such values out. Digits inside a mention stay labelled.
    from training.ner.data import conll_examples

    path = tmp_path / "nums.conll"
    path.write_text(
        "call\tO\nme\tO\non\tO\n555-0143\tO\nat\tO\nRoute\tB-location\n66\tI-location\n"
        "SW1A\tO\n1AA\tO\n",
        encoding="utf-8",
    )
    (ex,) = conll_examples(path, "wnut17")
    assert [(ex.text[a:b], t) for a, b, t in ex.spans] == [("Route 66", E.LOCATION)]
    assert sorted(ex.text[a:b] for a, b in ex.ignore) == ["1AA", "555-0143", "SW1A"]


def test_forms_label_values_and_leave_their_labels_unlabelled():
    from training.ner.chat import FORM_FIELDS, form_examples

    examples = form_examples(80, seed=3)
    assert examples == form_examples(80, seed=3)  # seeded
    labels = {label.casefold() for label, _ in FORM_FIELDS}
    kinds = set()
    for ex in examples:
        assert "\n" in ex.text
        for a, b, t in ex.spans:
            kinds.add(t)
            value = ex.text[a:b]
            assert value == value.strip() and "\n" not in value
            assert value.casefold() not in labels
        for line in ex.text.splitlines():
            # No label word is ever inside a labelled span.
            for m in __import__("re").finditer(r"^[-* ]*([^:|\t]+?)(?::|\s-\s|\s\|\s)", line):
                start = ex.text.find(line) + m.start(1)
                assert not any(a <= start < b for a, b, _ in ex.spans), line
    assert {E.PERSON, E.ADDRESS, E.SSN, E.CREDIT_CARD, E.ID, E.DATE, E.PHONE} <= kinds


def test_line_breaks_are_seen_by_a_model_trained_with_them():
    from core.detect.ner import NEWLINE, encode
    from training.ner.train import load_tokenizer

    pytest.importorskip("tokenizers")
    try:
        tok = load_tokenizer()
    except RuntimeError:
        pytest.skip("the base model package is not installed")
    text = "Annelise Brockhurst\nAddress: 9 Willow Court"
    plain, marked = encode(tok, text), encode(tok, text, NEWLINE)
    assert len(marked.ids) == len(plain.ids) + 1
    k = marked.offsets.index((19, 20))  # the line break is a token of its own
    assert marked.words[k] not in (marked.words[k - 1], marked.words[k + 1])
    # Every other token keeps its offsets in the original text.
    assert [o for o in marked.offsets if o != (19, 20)] == plain.offsets
    with pytest.raises(ValueError):
        encode(tok, text, "<br>")


@pytest.mark.parametrize("prefix", ["en:", "de:", "nl:", "fr:"])
def test_wikiann_language_prefixes_are_removed_in_every_language(tmp_path, prefix):
    from training.ner.conll import read_conll

    path = tmp_path / "wikiann"
    path.write_text(
        f"{prefix}Anton\tB-PER\n{prefix}von\tI-PER\n{prefix}Köln\tI-PER\n{prefix}:\tO\n\n"
        f"{prefix}Zero\tB-ORG\n",
        encoding="utf-8",
    )
    assert [s.tokens for s in read_conll(path)] == [["Anton", "von", "Köln", ":"], ["Zero"]]


def test_a_file_without_a_prefix_keeps_its_tokens(tmp_path):
    from training.ner.conll import read_conll

    path = tmp_path / "wnut"
    path.write_text("re:\tO\nhttp://x.co\tO\nab:c\tO\n", encoding="utf-8")
    assert read_conll(path)[0].tokens == ["re:", "http://x.co", "ab:c"]


def test_messages_in_other_languages_label_values_not_greetings_or_relations():
    from training.ner.chat import foreign_examples

    examples = foreign_examples(120, seed=4)
    assert {ex.source for ex in examples} == {"chat-de", "chat-fr", "chat-es", "chat-nl"}
    for ex in examples:
        values = [ex.text[a:b].casefold() for a, b, _ in ex.spans]
        for word in ("beste", "mijn", "onze huisarts", "mein vater", "mon fils", "mi jefe", "liebe"):
            assert word not in values
    dates = [ex.text[a:b] for ex in examples for a, b, t in ex.spans if t is E.DATE]
    assert any("Mai" in d or "mai" in d or "maart" in d or "de " in d for d in dates)


def test_foreign_negatives_are_everyday_words_and_no_names():
    from faker import Faker

    from training.ner.chat import foreign_negative_examples, frequent_words

    examples = foreign_negative_examples(40, seed=3)
    assert len(examples) == 40 and all(ex.text and ex.spans == [] for ex in examples)
    assert {ex.source for ex in examples} == {f"negative-{x}" for x in ("de", "fr", "es", "nl")}
    words = set(frequent_words("de"))
    fake = Faker("de_DE")
    first = {fake.first_name().casefold() for _ in range(200)}
    assert not words & first  # Faker's German first names are left out
    assert {"versicherung", "kündigung"} & words  # and common nouns are in


def test_benign_requests_hold_no_value_of_anyones():
    from training.ner.chat import benign_requests, hard_negative_examples

    texts = benign_requests(30, seed=2)
    assert len(texts) == 30 and all(t.strip() for t in texts)
    assert texts == benign_requests(30, seed=2)  # a seed makes the same set
    with_values = {ex.text for ex in hard_negative_examples(30, seed=2) if ex.spans}
    assert not with_values & set(texts)  # a log that names a user is never benign
